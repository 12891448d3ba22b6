"""Compiled texts shared by the checked builds of one process, each kept with the
declarations its compile read.

`rules validate` builds a ruleset once for every combination of its expansions, and
most texts of the base game compile alike in all of them: the compiler reads nothing
of a ruleset but its declarations (``Symbols``), and the combinations differ in a few.
So a text's compile is kept with every question it asked of the declarations (is
`gold` a counter, what is the signature of `cost`, which kinds have a `colour`) and
their answers; another build reuses it only after asking each question again of its
own declarations and getting the same answers, and compiles the text afresh
otherwise. Only builds that are checked and never run share compiles (``Builder``
with ``lazy``, what `validate` makes): a shared result's functions belong to the
build that made them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import fields
from typing import Any

from interpreter.language.symbols import Symbols

MAX_KEPT = 20_000  # compiles kept per process (a ruleset has a few hundred texts)
_MISSING = object()

Question = tuple[str, str, Any]  # (how, table or method, key or arguments)


class WatchedSymbols:
    """A ``Symbols`` whose every read is noted in ``log`` while it is a list: the
    declarations a compile depends on. Reads when ``log`` is None are not noted."""

    def __init__(self, symbols: Symbols):
        self.real = symbols
        self.log: list[tuple[Question, Any]] | None = None
        for field in fields(symbols):
            setattr(self, field.name, _WatchedTable(self, field.name))

    def answer(self, question: Question) -> Any:
        """What the declarations answer to ``question``, noted while watching."""
        answer = ask(self.real, question)
        if self.log is not None:
            self.log.append((question, answer))
        return answer

    def piece_property(self, name: str) -> str | None:
        return self._call("piece_property", name)

    def space_property(self, name: str) -> str | None:
        return self._call("space_property", name)

    def global_names(self) -> set[str]:
        return set(self._call("global_names"))

    def _call(self, method: str, *args: Any) -> Any:
        return self.answer(("call", method, args))


class _WatchedTable(Mapping):
    """One table of ``Symbols`` (a dict, or the set of names defined twice), read
    through ``WatchedSymbols``: a look-up notes its key, a scan the whole table."""

    def __init__(self, owner: WatchedSymbols, name: str):
        self.owner, self.name = owner, name

    def __getitem__(self, key: Any) -> Any:
        value = self.get(key, _MISSING)
        if value is _MISSING:
            raise KeyError(key)
        return value

    # a look-up, the compiler's most frequent read, answered here as ``ask`` answers it
    def get(self, key: Any, default: Any = None) -> Any:
        owner = self.owner
        answer = getattr(owner.real, self.name).get(key, _MISSING)
        if owner.log is not None:
            owner.log.append((("get", self.name, key), answer))
        return default if answer is _MISSING else answer

    def __contains__(self, key: object) -> bool:
        owner = self.owner
        answer = key in getattr(owner.real, self.name)
        if owner.log is not None:
            owner.log.append((("has", self.name, key), answer))
        return answer

    def _whole(self) -> Any:
        return self._ask("all", None)

    def _ask(self, how: str, key: Any) -> Any:
        return self.owner.answer((how, self.name, key))

    def __iter__(self) -> Iterator[Any]:
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())

    def keys(self) -> Any:
        return self._whole().keys()

    def items(self) -> Any:
        return self._whole().items()

    def values(self) -> Any:
        return self._whole().values()


def ask(symbols: Symbols, question: Question) -> Any:
    """The answer ``symbols`` gives to ``question`` (a copy, for a whole table)."""
    how, name, key = question
    if how == "call":
        return getattr(symbols, name)(*key)
    table = getattr(symbols, name)
    if how == "get":
        return table.get(key, _MISSING)
    if how == "has":
        return key in table
    return dict(table) if isinstance(table, dict) else dict.fromkeys(table)


class SharedCompiles:
    """Compiles kept by what they were asked and what they read (module docstring)."""

    def __init__(self) -> None:
        self._kept: dict[tuple, list[tuple[tuple, Any, Any]]] = {}
        self._count = 0

    def compile(
        self, key: tuple, compiler: Any, make: Callable[[], tuple[Any, list]]
    ) -> tuple[Any, list]:
        """``make()`` (a compile: result and problems) by ``compiler``, whose
        ``symbols`` is a ``WatchedSymbols``, or a kept result whose reads give the same
        answers now. Only a compile without problems is kept."""
        watched: WatchedSymbols = compiler.symbols
        real = watched.real
        for reads, result, tree in self._kept.get(key, ()):
            for question, answer in reads:  # a loop, not all(…): a frame less a compile
                if ask(real, question) != answer:
                    break
            else:
                compiler.problems, compiler.last_tree = [], tree
                return result, []
        outer, watched.log = watched.log, []
        try:
            result, problems = make()
        finally:
            reads, watched.log = tuple(watched.log), outer
        if result is not None and not problems:
            if self._count >= MAX_KEPT:
                self._kept.clear()
                self._count = 0
            self._kept.setdefault(key, []).append((reads, result, compiler.last_tree))
            self._count += 1
        return result, problems


SHARED = SharedCompiles()  # the process's: every checked build of `validate`
