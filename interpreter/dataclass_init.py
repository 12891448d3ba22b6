"""A dataclass's ``__init__``, written as ``dataclasses`` writes it, compiled once per machine.

The text depends only on the fields' names, which have defaults or default factories,
which are keyword-only, and whether the class is frozen; the values (defaults,
factories, annotations) are given to the compiled code when the method is made. The
code of every text compiled is kept in one file of the cache folder
(``cache_folder.derived_file``: its name holds the interpreter's, Python's and this
module's versions), read once per process and written again at the process's end where
it compiled something new; without a cache (switched off, a read-only folder) each
process compiles its own, as ``dataclasses`` does.
"""

from __future__ import annotations

import atexit
import marshal
import os
from dataclasses import MISSING, Field
from types import CodeType
from typing import Any

MAX_KEPT = 2_000  # texts kept in the file (the interpreter has about a hundred classes)
FILENAME = "<string>"  # as ``dataclasses``' own: tracebacks read the same


class _Factory:
    """The default of a parameter whose field has a default factory (``dataclasses``'
    ``_HAS_DEFAULT_FACTORY``)."""

    def __repr__(self) -> str:
        return "<factory>"


_HAS_DEFAULT_FACTORY = _Factory()
_kept: dict[str, bytes] | None = None  # text -> its code, marshalled: the file's, then ours
_file: Any = None  # the cache file (None: no cache), found once, when ``_kept`` is read
_used: set[str] = set()
compiled_here = 0  # texts this process compiled (none where the cache had them all)


def make_init(cls: type, fields: tuple[Field, ...], frozen: bool) -> Any:
    """The ``__init__`` ``dataclass(cls, frozen=frozen)`` would give ``cls``."""
    # a frozen class's fields written straight into its instance's dict, as
    # ``object.__setattr__`` would write them without its call per field (a decision
    # offered is one such instance: 2 % of a game's time went into that call); a class
    # whose instances have no dict keeps ``dataclasses``' way
    by_dict = frozen and any("__dict__" in vars(k) for k in cls.__mro__[:-1])
    text, values = _init_text(fields, frozen, by_dict)
    namespace: dict[str, Any] = {"__name__": cls.__module__}
    exec(_code(text), namespace)  # compiled from the text above, made of the field names
    init = namespace["__create_fn__"](**values)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _init_text(
    fields: tuple[Field, ...], frozen: bool, by_dict: bool = False
) -> tuple[str, dict[str, Any]]:
    """The text of ``__create_fn__(…)``, which makes the ``__init__`` (``dataclasses``'
    ``_init_fn``, for the options this package uses), and the values it is given."""
    values: dict[str, Any] = {
        "__dataclass_builtins_object__": object,
        "_HAS_DEFAULT_FACTORY": _HAS_DEFAULT_FACTORY,
    }
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    seen_default = False
    for f in fields:
        values[f"_type_{f.name}"] = f.type
        value = f.name
        if f.default_factory is not MISSING:
            values[f"_dflt_{f.name}"] = f.default_factory
            default = "=_HAS_DEFAULT_FACTORY"
            value = f"_dflt_{f.name}() if {f.name} is _HAS_DEFAULT_FACTORY else {f.name}"
        elif f.default is not MISSING:
            values[f"_dflt_{f.name}"] = f.default
            default = f"=_dflt_{f.name}"
        else:
            default = ""
        if not f.kw_only:
            if default:
                seen_default = True
            elif seen_default:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
        (keyword if f.kw_only else positional).append(f"{f.name}:_type_{f.name}{default}")
        if by_dict:
            body.append(f"__dataclass_self_dict__[{f.name!r}]={value}")
        elif frozen:
            body.append(f"__dataclass_builtins_object__.__setattr__(self,{f.name!r},{value})")
        else:
            body.append(f"self.{f.name}={value}")
    if by_dict and body:
        body.insert(0, "__dataclass_self_dict__=self.__dict__")
    params = ["self", *positional, *(["*", *keyword] if keyword else [])]
    lines = "\n".join(f"  {line}" for line in body or ["pass"])
    text = (
        f"def __create_fn__({', '.join(values)}):\n"
        f" def __init__({','.join(params)}) -> None:\n{lines}\n"
        f" return __init__"
    )
    return text, values


def _code(text: str) -> CodeType:
    """The compiled ``text``: kept marshalled, read back only when asked for (a process
    that makes three classes reads three)."""
    global _kept, compiled_here
    if _kept is None:
        _kept = _read()
    _used.add(text)
    data = _kept.get(text)
    if data is not None:
        try:
            code = marshal.loads(data)
        except (ValueError, EOFError, TypeError):
            code = None  # a damaged entry: compiled again, and written again at the end
        if isinstance(code, CodeType):
            return code
    code = compile(text, FILENAME, "exec", dont_inherit=True)
    _kept[text] = marshal.dumps(code)
    if compiled_here == 0:
        atexit.register(_write)
    compiled_here += 1
    return code


def _path() -> Any:
    """The cache file; its name holds this module's size and time as well, so that a
    change to how texts are compiled never meets code compiled before it."""
    from interpreter import cache_folder  # imported here: not every process makes a class

    try:
        made = os.stat(__file__)
    except OSError:
        return None
    versions = (str(made.st_size), str(made.st_mtime_ns))
    return cache_folder.derived_file("dataclass-init", "", *versions, suffix="marshal")


def _read() -> dict[str, bytes]:
    global _file
    path = _file = _path()
    from interpreter import cache_folder

    data = cache_folder.read_entry(path)  # None: missing, not trusted, or not ours
    try:
        kept = marshal.loads(data) if data is not None else {}
    except (ValueError, EOFError, TypeError):
        return {}  # a broken file is written again at the end
    return kept if isinstance(kept, dict) else {}


def _write() -> None:
    from interpreter import cache_folder

    path = _file
    if path is None or _kept is None:
        return
    kept = _kept if len(_kept) <= MAX_KEPT else {t: _kept[t] for t in _used}
    cache_folder.write_entry(path, marshal.dumps(kept))  # not written: only slower
