"""``lean_dataclasses.dataclass`` behaves as the standard ``dataclass`` it stands for."""

from __future__ import annotations

import dataclasses
import inspect
import os
import pickle
import subprocess
import sys
from dataclasses import FrozenInstanceError, field
from pathlib import Path

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


def test_the_same_signatures_documents_and_defaults():
    for options in OPTIONS:
        standard, lean = _twins(**options)
        assert str(inspect.signature(standard)) == str(inspect.signature(lean))
        assert (
            standard.__doc__
            == lean.__doc__
            == "Point(x: 'int', label: 'str' = 'a', notes: 'list' = <factory>)"
        )
        assert lean.__init__.__qualname__ == f"{lean.__qualname__}.__init__"
        first, second = lean(1), lean(1)
        assert first.notes == [] and first.notes is not second.notes  # a new list each
        assert lean(1, notes=[2]).notes == [2]
    with pytest.raises(TypeError):
        lean()  # `x` is required, as with the standard one
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'x'"):
        _twins(frozen=True)[1](1).x = 2
    with pytest.raises(FrozenInstanceError, match="cannot delete field 'x'"):
        del _twins(frozen=True)[1](1).x


def test_keyword_only_fields_and_the_order_of_defaults():
    @dataclass(eq=False)
    class Node:
        id: str
        at: int = field(default=0, kw_only=True)

    @dataclass(eq=False)
    class If(Node):
        cond: str

    made = If("i", "c", at=3)
    assert (made.id, made.cond, made.at) == ("i", "c", 3)
    assert str(inspect.signature(If)) == "(id: 'str', cond: 'str', *, at: 'int' = 0) -> None"
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

        @dataclass
        class Wrong:
            a: int = 0
            b: int


def _fresh_process(cache: Path, *environment: tuple[str, str]) -> int:
    """How many ``__init__`` texts a new process importing the rulesets' model compiled."""
    script = (
        "import interpreter.ruleset.model, interpreter.dataclass_init as d;print(d.compiled_here)"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env.pop("TABLETOP_RULES_CACHE", None)  # the cache on, unless the test says otherwise
    env.update(environment)
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    return int(done.stdout)


def test_the_compiled_inits_are_kept_for_the_next_process(tmp_path):
    first = _fresh_process(tmp_path)
    assert first > 20  # every dataclass the model imports, compiled once
    assert list((tmp_path / "tabletop-rules").glob("dataclass-init-*.marshal"))
    assert _fresh_process(tmp_path) == 0  # all read from the cache folder
    assert _fresh_process(tmp_path / "off", ("TABLETOP_RULES_CACHE", "0")) == first
    assert not (tmp_path / "off").exists()


def test_a_damaged_entry_of_the_cache_is_compiled_again(monkeypatch):
    from interpreter import dataclass_init

    @dataclass(frozen=True)
    class Probe:
        a: int

    text, _ = dataclass_init._init_text(dataclasses.fields(Probe), True, by_dict=True)
    monkeypatch.setattr(dataclass_init, "_kept", {text: b"not marshal data"})
    monkeypatch.setattr(dataclass_init, "compiled_here", 1)  # no write at this test's exit
    init = dataclass_init.make_init(Probe, dataclasses.fields(Probe), True)
    made = Probe.__new__(Probe)
    init(made, 3)
    assert made.a == 3
    assert dataclass_init._kept[text] != b"not marshal data"  # kept again, sound
