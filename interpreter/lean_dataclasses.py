"""``dataclass`` with the methods that are alike in every class shared, not compiled.

CPython 3.11's ``dataclasses`` writes every method it adds as source text and compiles
it with ``exec``: ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, a frozen
class's ``__setattr__`` and ``__delattr__``, the four orderings. What a first `rules
validate` of the bundled rules imports made 278 of them (about a tenth of its
instructions went to compiling source text). This ``dataclass`` asks the standard one
only for what differs in code from one class to the next (``__init__``, and a frozen
class's guards: 126 of them) and gives each class the rest as methods shared by all,
which read the fields through one ``attrgetter`` made per class: the same texts,
equality, hashes and order as the standard ``dataclass``'s (issue 13: 3 % fewer
instructions in that validate).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass as standard_dataclass
from dataclasses import fields
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, TypeVar

T = TypeVar("T")


def dataclass(
    cls: type[T] | None = None, /, *, eq: bool = True, frozen: bool = False, order: bool = False
) -> Any:
    """The standard ``dataclass(cls, eq=…, frozen=…, order=…)``, made with fewer compiled
    methods (the other options are not used here)."""

    def make(cls: type[T]) -> type[T]:
        own = dict(cls.__dict__)  # what the class defines itself, kept as dataclass keeps it
        cls = standard_dataclass(cls, repr=False, eq=False, frozen=frozen)
        every = fields(cls)
        cls._dataclass_compared = _getter([f.name for f in every if f.compare])
        cls._dataclass_shown = tuple(f.name for f in every if f.repr)
        if "__repr__" not in own:
            cls.__repr__ = _repr
        if not eq:
            return cls
        if "__eq__" not in own:
            cls.__eq__ = _eq
        hashed = [f.name for f in every if (f.compare if f.hash is None else f.hash)]
        cls._dataclass_hashed = _getter(hashed)
        explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
        if not explicit_hash:
            cls.__hash__ = _hash if frozen else None  # type: ignore[assignment]
        if order:
            for name, method in _ORDER.items():
                if name in own:
                    raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
                setattr(cls, name, method)
        return cls

    return make if cls is None else make(cls)


def _getter(names: list[str]) -> staticmethod:
    """The values of ``names`` as a tuple (``attrgetter`` of one name gives the value),
    kept on the class as a plain function of the instance."""
    if len(names) > 1:
        return staticmethod(attrgetter(*names))
    if names:
        one = attrgetter(names[0])
        return staticmethod(lambda obj: (one(obj),))
    return staticmethod(lambda obj: ())


@recursive_repr()
def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._dataclass_shown)
    return f"{self.__class__.__qualname__}({shown})"


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        compared = self._dataclass_compared
        return compared(self) == compared(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(self._dataclass_hashed(self))


def _ordering(compare: Callable[[tuple, tuple], bool]) -> Callable[[Any, Any], Any]:
    def method(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            compared = self._dataclass_compared
            return compare(compared(self), compared(other))
        return NotImplemented

    return method


_ORDER = {
    "__lt__": _ordering(lambda a, b: a < b),
    "__le__": _ordering(lambda a, b: a <= b),
    "__gt__": _ordering(lambda a, b: a > b),
    "__ge__": _ordering(lambda a, b: a >= b),
}
