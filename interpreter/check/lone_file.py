"""A YAML file checked on its own, outside the ruleset that would give it meaning.

Outside a ruleset only the YAML, the schema and the syntax of expressions can be
checked; names and types need the ruleset. A content file that no manifest
includes is never loaded by any game, so saying "valid" about it would be a false
green: it gets a warning instead.
"""

from __future__ import annotations

from pathlib import Path

from interpreter.errors import Diagnostic, LoadError, Location
from interpreter.language.compiler import Compiler
from interpreter.language.symbols import Symbols
from interpreter.load.ruleset_files import MANIFEST
from interpreter.load.yaml_source import load_file


def included(folder: Path, path: Path) -> bool:
    """Whether the manifest of ``folder`` lists ``path`` (an include or an expansion)."""
    try:
        manifest = load_file(folder / MANIFEST).data
    except LoadError:
        return True  # the manifest's own error is reported; do not add a second one
    if not isinstance(manifest, dict):
        return True
    listed = [str(name) for name in manifest.get("include") or []]
    expansions = manifest.get("expansions")
    for entry in expansions.values() if isinstance(expansions, dict) else []:
        if isinstance(entry, dict) and entry.get("file"):
            listed.append(str(entry["file"]))
    return path.resolve() in {(folder / name).resolve() for name in listed}


def orphan(document, why: str) -> Diagnostic:
    """A content file no ruleset includes is never loaded by a game: checking it alone
    would say "valid" about rules nobody plays (a false green in CI)."""
    return Diagnostic(
        Location(document.path, 1, 1),
        f"this file belongs to no ruleset: {why}",
        "no game loads it, so its names and types were not checked; add it to a "
        "ruleset.yaml `include:` list and validate that ruleset",
        severity="warning",
        kind="orphan-file",
    )


def syntax_only(document) -> list[Diagnostic]:
    """Outside any ruleset, expressions can only be checked for syntax."""
    compiler = Compiler(Symbols())
    out = []

    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("effect", "setup") and isinstance(value, str):
                    _, problems = compiler.effect(value)
                    out.extend(_located(document, (*path, key), problems))
                elif (
                    key
                    in ("condition", "value", "when", "while", "order", "until", "estimate", "skip")
                    and isinstance(value, str)
                    and path
                ):
                    _, problems = compiler.expression(value)
                    out.extend(_located(document, (*path, key), problems))
                else:
                    walk(value, (*path, key))
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, (*path, index))

    walk(document.data, ())
    return out


def _located(document, path, problems) -> list[Diagnostic]:
    out = []
    for p in problems:
        if p.kind != "syntax":
            continue
        hint = p.hint
        if hint and p.related is not None:
            at = document.expression_location(path, *p.related)
            hint = hint.replace("{at}", f"{at.line}:{at.column}")
        out.append(
            Diagnostic(
                document.expression_location(path, p.line, p.column),
                p.message,
                hint,
                kind="expression-syntax",
            )
        )
    return out
