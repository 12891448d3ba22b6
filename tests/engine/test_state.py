"""The game state: zones hold ``Piece`` values, whatever was put in them, and the
state's JSON and digest do not tell the two apart."""

from __future__ import annotations

from interpreter.engine.state import State
from interpreter.language.values import Piece


def test_a_zone_holds_piece_values_and_where_finds_them() -> None:
    state = State(("ann", "bob"))
    state.put("c1", "deck")
    state.put(Piece("c2"), "deck", 0)
    state.set_order("hand#0", ("c3", Piece("c4")))
    assert state.zones["deck"] == ("c2", "c1")
    assert all(type(p) is Piece for zone in state.zones.values() for p in zone)
    state.put("c2", "hand#0")
    assert state.zones == {"deck": ("c1",), "hand#0": ("c3", "c4", "c2")}
    assert state.where["c2"] == "hand#0"


def test_the_digest_is_that_of_the_texts() -> None:
    texts, pieces = State(("ann",)), State(("ann",))
    texts.zones["deck"] = ("c1", "c2")  # as an older state held them
    pieces.put("c1", "deck")
    pieces.put("c2", "deck")
    assert pieces.to_json()["zones"] == {"deck": ["c1", "c2"]}
    assert pieces.digest() == texts.digest()


def test_a_copy_is_independent() -> None:
    state = State(("ann",))
    state.put("c1", "deck")
    other = state.copy()
    other.put("c1", "discard")
    assert state.zones == {"deck": ("c1",)} and state.where == {"c1": "deck"}
    assert other.zones == {"deck": (), "discard": ("c1",)}
