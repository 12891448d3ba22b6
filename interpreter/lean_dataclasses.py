"""``dataclass`` without compiling source text for every class it makes.

CPython 3.11's ``dataclasses`` writes every method it adds as source text and compiles
it (``exec``): ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, a frozen class's
``__setattr__`` and ``__delattr__``, the four orderings. What a first `rules validate`
of the bundled rules imports made 278 of them, and compiling them was a tenth of its
instructions (issue 13). Here each class gets the methods that are alike in every
class as methods shared by all (they read the fields through one ``attrgetter`` made
per class) and a frozen class's guards as closures; its ``__init__``, the one method
whose code differs with the fields, is written as ``dataclasses`` writes it, and the
compiled code of that text is kept in the cache folder, so a later process compiles
none (``dataclass_init.py``). The texts, equality, hashes, order, signatures, documents
and errors are the standard ``dataclass``'s.
"""

from __future__ import annotations

import inspect
import operator
from collections.abc import Callable
from dataclasses import FrozenInstanceError, fields
from dataclasses import dataclass as standard_dataclass
from reprlib import recursive_repr
from typing import Any, TypeVar

from interpreter.dataclass_init import make_init

T = TypeVar("T")


def dataclass(
    cls: type[T] | None = None, /, *, eq: bool = True, frozen: bool = False, order: bool = False
) -> Any:
    """The standard ``dataclass(cls, eq=…, frozen=…, order=…)``, made without compiling
    more than its ``__init__``, once per machine (the other options are not used here)."""

    def make(cls: type[T]) -> type[T]:
        own = dict(cls.__dict__)  # what the class defines itself, kept as dataclass keeps it
        if not own.get("__doc__"):
            cls.__doc__ = "?"  # worded below: without ``__init__`` yet, the standard one
            # would word it from ``object.__init__``'s signature, parsed from its text
        cls = standard_dataclass(cls, init=False, repr=False, eq=False)  # the fields
        every = fields(cls)
        if "__init__" not in own:
            cls.__init__ = make_init(cls, every, frozen)  # type: ignore[misc]
        if frozen:
            _guard(cls, tuple(f.name for f in every), own)
        if not own.get("__doc__"):  # as dataclass words it, from the signature, when read
            cls.__doc__ = _WORDED  # type: ignore[assignment]
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


class _Worded:
    """The document of a class that has none, as ``dataclass`` words it (the class's
    name and signature), worked out when first read: reading a signature took every
    class made 20 to 40 µs, and hardly a process reads a document."""

    def __get__(self, instance: Any, owner: type) -> str:
        text = owner.__name__ + str(inspect.signature(owner)).replace(" -> None", "")
        if vars(owner).get("__doc__") is self:
            owner.__doc__ = text  # once
        return text


_WORDED = _Worded()


def _guard(cls: type, names: tuple[str, ...], own: dict[str, Any]) -> None:
    """A frozen class's ``__setattr__`` and ``__delattr__``, as ``dataclass`` makes them."""

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    for method in (__setattr__, __delattr__):
        if method.__name__ in own:
            raise TypeError(f"Cannot overwrite attribute {method.__name__} in class {cls.__name__}")
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
        setattr(cls, method.__name__, method)


def _getter(names: list[str]) -> staticmethod:
    """The values of ``names`` as a tuple (``attrgetter`` of one name gives the value),
    kept on the class as a plain function of the instance."""
    if len(names) > 1:
        return staticmethod(operator.attrgetter(*names))
    if names:
        one = operator.attrgetter(names[0])
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
    "__lt__": _ordering(operator.lt),
    "__le__": _ordering(operator.le),
    "__gt__": _ordering(operator.gt),
    "__ge__": _ordering(operator.ge),
}
