"""`simulate.record`: which component an option that names none belongs to."""

from __future__ import annotations

from interpreter.language.values import ActionRef, Piece
from interpreter.simulate.plan import GameSpec, Variant
from interpreter.simulate.play import named_items, play_game, ruleset_of
from interpreter.simulate.record import Recorder


def test_an_ability_belongs_to_the_bound_component_whose_property_names_it() -> None:
    ruleset = ruleset_of(Variant("rococo"))
    recorder = Recorder.__new__(Recorder)
    recorder.pieces = ruleset.pieces
    s41 = ruleset.pieces["S4-1"].properties["bonus"]
    # a card's bonus that uses another card's bonus: the bound action is the other's
    env = {"card": Piece("E02"), "e": Piece("S4-1"), "b": ActionRef(s41)}
    assert recorder._owners(env) == ["S4-1"]
    assert recorder._owners({"c": Piece("E02")}) == []  # no action bound: nobody's


def test_a_game_record_counts_abilities_offers_and_gains() -> None:
    variant = Variant("rococo")
    record = play_game(variant, GameSpec(0, 0, 2, 12345, ("random", "random")))
    assert record["error"] is None
    items = named_items(ruleset_of(variant))
    pieces = ruleset_of(variant).pieces
    abilities = [key for used in record["used"] for key in used if key.startswith("bonus ")]
    assert abilities
    for key in abilities:
        owner = key.split(" ", 1)[1]
        assert owner in pieces and pieces[owner].properties.get("bonus") in items
    for p in range(2):
        assert set(record["measured"][p]) <= set(record["used"][p])
        for key, count in record["measured"][p].items():
            assert count <= record["used"][p][key]
        # every item chosen was offered first
        chosen = {key for key in record["used"][p] if key in items}
        assert chosen <= set(record["offered"][p])
