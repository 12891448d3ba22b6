"""The interpreter uses its libraries as designed: no private module, no private name.

A private CPython module (``_sre``, ``_sha2``, ``_hashlib``…) or a library's private
attribute (``atexit._run_exitfuncs``, ``lark.Lark._build_parser``) is free to change
or vanish with the next Python or the next release of the library, and the code that
reads it breaks without a word (issue 48). This scans the syntax of every module of
``interpreter/``: an import of a module with a part that starts with ``_``, a name
imported with one, or a ``_name`` read through a module's name is refused.
"""

from __future__ import annotations

import ast

from rules_test_support import ROOT

PACKAGE = ROOT / "interpreter"


# public names that start with an underscore, documented as part of their library's API
# (``os._exit``: "the standard way to exit is sys.exit(n); _exit() should normally only
# be used in the child process after a fork()", which is where the interpreter uses it)
DOCUMENTED = {"os._exit"}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _outside(module: str) -> bool:
    return module != "interpreter" and not module.startswith("interpreter.")


def private_uses(source: str) -> list[str]:
    """Each private module imported, private name imported or private attribute read
    through an imported library's name, as ``line: what``."""
    tree = ast.parse(source)
    found: list[str] = []
    libraries: set[str] = set()  # the names bound to a library's modules or names
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if any(map(_private, alias.name.split("."))):
                    found.append(f"{node.lineno}: import {alias.name}")
                if _outside(alias.name):
                    libraries.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if not _outside(node.module):
                continue
            if any(map(_private, node.module.split("."))):
                found.append(f"{node.lineno}: from {node.module} import …")
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{node.lineno}: from {node.module} import {alias.name}")
                libraries.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        chain = [node.attr]
        base = node.value
        while isinstance(base, ast.Attribute):
            chain.append(base.attr)
            base = base.value
        if isinstance(base, ast.Name) and base.id in libraries and any(map(_private, chain)):
            name = f"{base.id}.{'.'.join(reversed(chain))}"
            if name not in DOCUMENTED:
                found.append(f"{node.lineno}: {name}")
    return sorted(set(found))


def test_the_scan_finds_what_it_refuses() -> None:
    source = (
        "import _sre\n"
        "import re._compiler\n"
        "from _sha2 import sha256\n"
        "from lark.lexer import _create_unless\n"
        "import atexit\n"
        "atexit._run_exitfuncs()\n"
        "from lark import Lark\n"
        "Lark._build_parser\n"
        "from interpreter.language import parser\n"
        "parser._problem\n"  # the interpreter's own: not a library's
        "from __future__ import annotations\n"
        "Lark.__name__\n"
    )
    assert private_uses(source) == [
        "1: import _sre",
        "2: import re._compiler",
        "3: from _sha2 import …",
        "4: from lark.lexer import _create_unless",
        "6: atexit._run_exitfuncs",
        "8: Lark._build_parser",
    ]


def test_no_module_of_the_interpreter_uses_a_private_module_or_name() -> None:
    found = {
        str(path.relative_to(ROOT)): uses
        for path in sorted(PACKAGE.rglob("*.py"))
        if (uses := private_uses(path.read_text(encoding="utf-8")))
    }
    assert found == {}
