"""``lean_dataclasses.dataclass`` behaves as the standard ``dataclass`` it stands for."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import FrozenInstanceError, field

import pytest

from interpreter.lean_dataclasses import dataclass

OPTIONS = [{}, {"eq": False}, {"frozen": True}, {"frozen": True, "order": True}]


def _twins(**options):
    """The same class made by the standard ``dataclass`` and by the lean one."""
    made = []
    for decorate in (dataclasses.dataclass(**options), dataclass(**options)):

        @decorate
        class Point:
            x: int
            label: str = "a"
            notes: list = field(default_factory=list, repr=False, compare=False)

        made.append(Point)
    return made


@pytest.mark.parametrize("options", OPTIONS)
def test_the_same_texts_equality_and_hashes(options):
    standard, lean = _twins(**options)
    pairs = [(standard(1, "b"), lean(1, "b")), (standard(2), lean(2))]
    for s, le in pairs:
        assert repr(s).replace(standard.__qualname__, "") == repr(le).replace(lean.__qualname__, "")
    assert (standard(1) == standard(1, notes=[3])) == (lean(1) == lean(1, notes=[3]))
    assert (standard(1) == standard(2)) == (lean(1) == lean(2))
    if options.get("eq", True):
        assert lean(1).__eq__(standard(1)) is NotImplemented  # another class
    assert (standard.__hash__ is None) == (lean.__hash__ is None)
    if options.get("frozen"):
        assert hash(lean(1, "b")) == hash(lean(1, "b", [7]))  # `notes` is not compared
        with pytest.raises(FrozenInstanceError):
            lean(1).x = 2
    if not options.get("eq", True):
        one = lean(1)
        assert one != lean(1) and one == one  # by identity, as the standard one
        assert {one: 1}[one] == 1


def test_order_compares_the_fields_in_turn():
    _, lean = _twins(frozen=True, order=True)
    assert sorted([lean(2, "a"), lean(1, "z"), lean(1, "b")]) == [
        lean(1, "b"),
        lean(1, "z"),
        lean(2, "a"),
    ]
    assert lean(1) <= lean(1) < lean(2) and lean(3) >= lean(2) > lean(1)
    with pytest.raises(TypeError):
        _ = lean(1) < 2


def test_what_a_class_defines_itself_is_kept():
    @dataclass(frozen=True)
    class Named:
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

        def __hash__(self) -> int:
            return 7

    assert repr(Named("x")) == "<x>" and hash(Named("x")) == 7
    assert Named("x") == Named("x")


@dataclass(frozen=True)
class Base:
    a: int


@dataclass(frozen=True)
class Child(Base):
    b: int = 0


def test_subclasses_compare_their_own_fields_and_pickle():
    assert repr(Child(1, 2)).endswith("Child(a=1, b=2)")
    assert Child(1, 2) == Child(1, 2) != Child(1, 3)
    assert Child(1) != Base(1)  # another class: not equal, as the standard one says
    assert pickle.loads(pickle.dumps(Child(1, 2))) == Child(1, 2)
    assert dataclasses.replace(Child(1, 2), b=5) == Child(1, 5)
    assert [f.name for f in dataclasses.fields(Child)] == ["a", "b"]


def test_a_repr_that_reaches_itself_ends():
    @dataclass
    class Box:
        inside: list

    box = Box([])
    box.inside.append(box)
    assert repr(box).endswith("Box(inside=[...])")
    assert Box.__hash__ is None  # a mutable class with equality is unhashable
