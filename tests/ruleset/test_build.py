"""Checking references and types, compiling, and building the immutable Ruleset."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_test_support import ROCOCO, TINY_CONTENT, mutate, mutate_text, position, shown

from interpreter.errors import GameError
from interpreter.ruleset import load
from interpreter.ruleset.tables import Tables


def diagnostics_of(folder: Path, expansions=None):
    loaded = load(folder, expansions)
    return loaded.diagnostics


def located(diagnostics) -> list[tuple[str, str]]:
    return [(str(d.location), d.message) for d in diagnostics]


# -------------------------------------------------------------------- the model
def test_tiny_ruleset_builds(tiny: Path) -> None:
    loaded = load(tiny)
    assert loaded.diagnostics == []
    rules = loaded.ruleset
    assert (rules.id, rules.name, rules.version) == ("tiny", "Tiny", "0.1.0")
    assert (rules.min_players, rules.max_players) == (2, 4)
    assert rules.sides == {"narrow": (2, 3), "wide": (4,)}
    assert rules.side_for(3) == "narrow" and rules.side_for(4) == "wide"
    assert rules.constants["base"] == 7
    assert rules.constants["nums"] == (3, 1, 4, 1, 5)  # lists are frozen to tuples
    assert sorted(rules.pieces) == ["c1", "c2", "c3", "pawn-1", "pawn-2"]
    assert rules.pieces["pawn-2"].design == "pawn"
    assert rules.pieces["c1"].properties == {"suit": "red", "points": 2, "special": False}
    assert rules.groups == {"slot": ("slot1", "slot2")}
    assert rules.spaces["slot2"].sides == ("wide",) and rules.spaces["slot1"].sides is None
    assert rules.actions["take"].defaults == {"n": 1}
    assert [r.message for r in rules.actions["take"].requires] == ["too poor"]
    assert rules.triggers["on_scored"].on == "scored"
    assert [p.id for p in rules.phases] == ["play"]
    assert (rules.rounds, rules.round_counter) == (2, "turn")
    assert (rules.score, rules.tiebreak) == ("score", ("coins",))
    assert [s.id for s in rules.scoring] == ["coins"]
    assert rules.provisional == 2  # c3 and the constant `bonus`
    assert loaded.items == 24 + 2  # ids in the sections + structure and scoring
    assert rules.digest.startswith("sha256:")


def test_locations_point_into_the_files(tiny: Path) -> None:
    rules = load(tiny).ruleset
    content = (tiny / "content.yaml").read_text()
    line = content[: content.index("  take:")].count("\n") + 1
    assert str(rules.locations["actions.take"]) == f"{shown(tiny / 'content.yaml')}:{line}:3"


def test_expansion_changes_the_ruleset(tiny: Path) -> None:
    rules = load(tiny, ["extra"]).ruleset
    assert rules.expansions == ("extra",)
    assert "c4" in rules.pieces and "c3" not in rules.pieces
    assert rules.pieces["c1"].properties["points"] == 4
    assert rules.digest != load(tiny).ruleset.digest


def test_players_note_is_said_for_the_counts_it_names(tiny: Path) -> None:
    manifest, extra = tiny / "ruleset.yaml", tiny / "extra.yaml"
    by_count = 'players: {min: 2, max: 4, note: {"1": "add --with extra"}}'
    text = manifest.read_text().replace("players: {min: 2, max: 4}", by_count)
    manifest.write_text(text)
    rules = load(tiny).ruleset
    assert rules.players_refusal(1) == "Tiny is for 2-4 players, not 1 (add --with extra)"
    assert rules.players_refusal(5) == "Tiny is for 2-4 players, not 5"  # no advice for 5
    assert rules.players_advice() == "1 player: add --with extra"
    # an overlay that allows 1 player: its advice is never said again
    header = "overlay: {id: extra, name: Extra}"
    extra.write_text(extra.read_text().replace(header, header[:-1] + ", players: {min: 1}}"))
    rules = load(tiny, ["extra"]).ruleset
    assert rules.players_refusal(1) is None and rules.players_advice() == ""
    assert rules.players_refusal(5) == "Tiny with extra is for 1-4 players, not 5"
    # one text: said for every count refused
    manifest.write_text(text.replace('{"1": "add --with extra"}', '"two to four"'))
    rules = load(tiny).ruleset
    assert rules.players_refusal(5).endswith("not 5 (two to four)")
    assert rules.players_advice() == "two to four"


def test_rococo_builds_with_every_file() -> None:
    loaded = load(ROCOCO)
    assert loaded.diagnostics == []
    assert len(loaded.ruleset.files) == 12
    assert loaded.ruleset.provisional == loaded.provisional > 0


# ----------------------------------------------------------------- one mistake
# (old text in content.yaml, new text, mark in the new text where the error is,
#  a part of the message)
MISTAKES = [
    ("unknown-kind", "c1: {kind: card,", "c1: {kind: crad,", "crad", "unknown kind 'crad'"),
    (
        "undeclared-property",
        "points: 5, special: true}",
        "points: 5, special: true, colour: x}",
        "colour",
        "kind 'card' has no property 'colour'",
    ),
    (
        "missing-property",
        "c1: {kind: card, suit: red, points: 2}",
        "c1: {kind: card, suit: red}",
        "c1",
        "component 'c1' lacks property 'points'",
    ),
    (
        "property-type",
        "suit: red, points: 2}",
        "suit: red, points: two}",
        "two",
        "'points' must be a whole number",
    ),
    (
        "property-value",
        "c1: {kind: card, suit: red,",
        "c1: {kind: card, suit: green,",
        "green",
        "'green' is not an allowed value of 'suit'",
    ),
    (
        "recursive-function",
        "value: n * 2}",
        "value: double(n)}",
        "double(n)",
        "function 'double' calls itself",
    ),
    (
        "reserved-name",
        "  base: {value: 7}\n",
        "  base: {value: 7}\n  me: {value: 1}\n",
        "me",
        "'me' is a built-in name",
    ),
    (
        "side-twice",
        "wide: {players: [4]}",
        "wide: {players: [3, 4]}",
        "[3, 4]",
        "3 players already use side 'narrow'",
    ),
    (
        "score-not-per-player",
        "  score: score\n",
        "  score: turn\n",
        "turn",
        "'turn' is not a per-player counter",
    ),
    (
        "round-counter-per-player",
        "counter: turn}",
        "counter: coins}",
        "coins",
        "'coins' is not a game counter",
    ),
    (
        "space-side",
        "slot2: {price: 3, side: wide}",
        "slot2: {price: 3, side: wdie}",
        "wdie",
        "unknown board side 'wdie'",
    ),
    (
        "space-property",
        "slot2: {price: 3, side: wide}",
        "slot2: {price: 3, side: wide, cost: 1}",
        "cost",
        "space group 'slot' has no property 'cost'",
    ),
    (
        "space-id-taken",
        "      slot1: {price: 2}\n",
        "      slot1: {price: 2}\n      deck: {price: 9}\n",
        "deck",
        "'deck' is both a zone and a space",
    ),
    (
        "phase-id-twice",
        '    - {id: play, kind: each_player, effect: "do take(n: 1)"}\n',
        '    - {id: play, kind: each_player, effect: "do take(n: 1)"}\n'
        "    - {id: play, kind: once, effect: stop}\n",
        "play, kind: once",
        "duplicate phase id",
    ),
    # schema violations: each is one error, and never a crash of the build
    (
        "copies-count-text",
        "points: 0, count: 2}",
        "points: 0, count: two}",
        "two",
        "expected a whole number, got 'two'",
    ),
    ("kind-list", "c1: {kind: card,", "c1: {kind: [card],", "[card]", "expected a text"),
    (
        "per-side-number",
        "bonus: {per_side: {narrow: 1, wide: 2}",
        "bonus: {per_side: 5",
        "5",
        "expected a mapping",
    ),
    ("round-counter-list", "counter: turn}", "counter: [turn]}", "[turn]", "expected a text"),
    ("rounds-number", "rounds: {count: 2, counter: turn}", "rounds: 2", "2", "expected a mapping"),
    (
        "tiebreak-nested",
        "  tiebreak: [coins]\n",
        "  tiebreak: [[coins]]\n",
        "[coins]]",
        "expected a text",
    ),
    ("tiebreak-number", "  tiebreak: [coins]\n", "  tiebreak: 5\n", "5", "expected a list"),
    ("trigger-on-list", "on: scored,", "on: [scored],", "[scored]", "expected a text"),
    (
        "space-side-number",
        "slot2: {price: 3, side: wide}",
        "slot2: {price: 3, side: 5}",
        "5",
        "expected a text",
    ),
]


class Cascade(AssertionError):
    """The mistake was reported where it is, but with other, false errors."""


def _cascade(reason: str):
    return pytest.mark.xfail(strict=True, raises=Cascade, reason="BUG: " + reason)


def _missed(reason: str):
    return pytest.mark.xfail(strict=True, reason="BUG: " + reason)


MISTAKES += [
    pytest.param(
        "unknown-key-in-action",
        "    params: {n: {type: number, default: 1}}\n",
        "    params: {n: {type: number, default: 1}}\n    lable: Take\n",
        "lable",
        "unknown key 'lable'",
        id="unknown-key-in-action",
    ),
    pytest.param(
        "unknown-key-in-counter",
        "coins: {per: player, initial: 3}",
        "coins: {per: player, initial: 3, lable: Coins}",
        "lable",
        "unknown key 'lable'",
        id="unknown-key-in-counter",
    ),
    pytest.param(
        "values-not-a-list",
        "suit: {type: text, values: [red, black]}",
        "suit: {type: text, values: 5}",
        "5",
        "expected a list",
        id="values-not-a-list",
    ),
    pytest.param(
        "params-list",
        "params: {n: number}, returns: number, value: n * 2}",
        "params: [n], returns: number, value: n * 2}",
        "[n]",
        "expected a mapping",
        id="params-list",
    ),
    pytest.param(
        "event-params-number",
        "scored: {params: {amount: number}}",
        "scored: {params: 5}",
        "5",
        "expected a mapping",
        id="event-params-number",
    ),
    pytest.param(
        "side-players-number",
        "narrow: {players: [2, 3]}",
        "narrow: {players: 2}",
        "2}",
        "expected a list",
        id="side-players-number",
    ),
    pytest.param(
        "score-list",
        "  score: score\n",
        "  score: [score]\n",
        "[score]",
        "expected a text",
        id="score-list",
    ),
    pytest.param(
        "variable-type-number",
        "leader: {per: game, type: player}",
        "leader: {per: game, type: 5}",
        "5",
        "expected a text",
        id="variable-type-number",
    ),
    pytest.param(
        "constant-not-a-mapping",
        "  base: {value: 7}",
        "  base: 7",
        "7",
        "expected a mapping",
        id="constant-not-a-mapping",
    ),
    pytest.param(
        "per-side-initial-type",
        "coins: {per: player, initial: 3}",
        "coins: {per: player, initial: {narrow: x, wide: 1}}",
        "x",
        "whole number",
        id="per-side-initial-type",
    ),
    pytest.param(
        "property-default-type",
        "special: {type: bool, default: false}",
        "special: {type: bool, default: [1]}",
        "[1]",
        "true or false",
        id="property-default-type",
    ),
    pytest.param(
        "function-result-type",
        'returns: bool, value: "p.coins >= max(q.coins for q in players)"}',
        'returns: bool, value: "p.coins"}',
        "p.coins",
        "condition",
        id="function-result-type",
    ),
    pytest.param(
        "variable-named-like-zone",
        "  leader: {per: game, type: player}\n",
        "  leader: {per: game, type: player}\n  deck: {per: game, type: number}\n",
        "deck",
        "'deck' is both",
        id="variable-named-like-zone",
    ),
]


def _args(cases):
    """Plain tuples (id first) and pytest.param(...) entries, as parameter sets."""
    return [
        pytest.param(*c.values[1:], id=c.id, marks=c.marks)
        if hasattr(c, "marks")
        else pytest.param(*c[1:], id=c[0])
        for c in cases
    ]


@pytest.mark.parametrize("old, new, mark, message", _args(MISTAKES))
def test_one_mistake_is_one_located_error(
    tiny: Path, old: str, new: str, mark: str, message: str
) -> None:
    change = mutate(tiny, "content.yaml", old, new)
    found = diagnostics_of(tiny)
    listing = "\n".join(f"{d.location}: {d.message}" for d in found)
    here = [d for d in found if str(d.location) == change.where(mark)]
    assert here, f"no error at {change.where(mark)}:\n{listing}"
    assert any(message in d.message for d in here), listing
    if len(found) != 1:
        raise Cascade(listing)


def test_name_collision_is_one_error_at_one_of_the_two(tiny: Path) -> None:
    change = mutate(
        tiny, "content.yaml", "  base: {value: 7}\n", "  base: {value: 7}\n  take: {value: 1}\n"
    )
    (d,) = diagnostics_of(tiny)
    content = change.text
    action = content.index("  take:\n") + 2
    assert str(d.location) in (
        change.where("take"),
        f"{shown(change.path)}:{content[:action].count(chr(10)) + 1}:3",
    )
    assert d.message.startswith("'take' is both a constant and a")


def test_collision_message_grammar(tiny: Path) -> None:
    mutate(tiny, "content.yaml", "  base: {value: 7}\n", "  base: {value: 7}\n  take: {value: 1}\n")
    (d,) = diagnostics_of(tiny)
    assert d.message.startswith("'take' is both a constant and an action: ")


def test_collision_names_both_places_and_how_to_rename(tiny: Path) -> None:
    """Issue 49: an action and a component of one name, each place given."""
    change = mutate(
        tiny,
        "content.yaml",
        "  c3: {kind: card",
        "  take: {kind: card, suit: red, points: 1}\n  c3: {kind: card",
    )
    (d,) = diagnostics_of(tiny)
    component = change.where("take: {kind")
    index = change.text.index("  take:\n") + 2
    line, column = position(change.text, index)
    action = f"{shown(change.path)}:{line}:{column}"
    assert str(d.location) == component
    assert d.message == (
        f"'take' is both an action and a component: the action at {action}, "
        f"the component at {component}"
    )
    assert d.hint == (
        "a name has one meaning in expressions: rename one of them, the component to "
        "`take_component` say, here and wherever the rules name it"
    )


def test_structure_is_required(tiny: Path) -> None:
    content = tiny / "content.yaml"
    text = content.read_text()
    start, end = text.index("structure:"), text.index("scoring:")
    content.write_text(text[:start] + text[end:])
    (d,) = diagnostics_of(tiny)
    assert "has no `structure`" in d.message
    assert d.location.path == shown(tiny / "ruleset.yaml")


def test_all_errors_are_collected(tiny: Path) -> None:
    mutate(tiny, "content.yaml", "c1: {kind: card,", "c1: {kind: crad,")
    mutate(tiny, "content.yaml", "value: n * 2}", "value: n * 'two'}")
    mutate(tiny, "content.yaml", "  score: score\n", "  score: turn\n")
    found = diagnostics_of(tiny)
    assert len(found) == 3
    assert load(tiny).ruleset is None  # no ruleset while anything is wrong


# --------------------------------------------------------------------- Tables
def test_tables_resolve_the_board_side(tiny: Path) -> None:
    rules = load(tiny).ruleset
    two, four = Tables(rules, 2), Tables(rules, 4)
    assert (two.side, four.side) == ("narrow", "wide")
    assert (two.constants["bonus"], four.constants["bonus"]) == (1, 2)
    assert two.group_members["slot"] == ("slot1",)
    assert four.group_members["slot"] == ("slot1", "slot2")
    with pytest.raises(GameError):
        Tables(rules, 5)


def test_counters_never_drop_below_their_minimum(tiny: Path) -> None:
    from interpreter.engine.state import State
    from interpreter.language.runtime import Context
    from interpreter.language.values import Player

    rules = load(tiny).ruleset
    tables = Tables(rules, 2)
    state = State(("ann", "bob"))
    state.counters.update({"coins#0": 3, "coins#1": 0})
    ctx = Context(state, tables, Player(0))
    tables.set_counter(ctx, "coins", Player(0), "-=", 3)
    assert state.counters["coins#0"] == 0
    with pytest.raises(GameError, match="not enough coins"):
        tables.set_counter(ctx, "coins", Player(1), "-=", 1)
    assert state.counters["coins#1"] == 0
    with pytest.raises(GameError):
        tables.set_counter(ctx, "coins", Player(0), "=", "lots")
    assert tables.failed_requirement(ctx, "take", {"n": 1}) == "too poor"
    state.counters["coins#0"] = 1
    assert tables.failed_requirement(ctx, "take", {}) is None


def test_spaces_take_one_marker_and_respect_capacity(tiny: Path) -> None:
    from interpreter.engine.state import State
    from interpreter.language.runtime import Context
    from interpreter.language.values import Player

    tables = Tables(load(tiny).ruleset, 2)
    state = State(("ann", "bob"))
    ctx = Context(state, tables, Player(0))
    assert tables.is_free(state, "slot1")
    tables.claim(ctx, "slot1", Player(0))
    assert not tables.is_free(state, "slot1")
    assert tables.zone_owner(state, "slot1") == Player(0)
    with pytest.raises(GameError, match="already holds"):
        tables.claim(ctx, "slot1", Player(1))
    with pytest.raises(GameError, match="does not take ownership markers"):
        tables.claim(ctx, "deck", Player(1))
    tables.place(ctx, "c1", "slot1", None)
    with pytest.raises(GameError, match="full"):
        tables.place(ctx, "c2", "slot1", None)
    with pytest.raises(GameError):
        tables.place(ctx, "c2", "nowhere", None)
    assert tables.zone_owner(state, "hand#1") == Player(1)


# ------------------------------------------------------------------ properties
@st.composite
def mutated_file(draw, texts: dict[str, str]) -> tuple[str, str]:
    name = draw(st.sampled_from(sorted(texts)))
    return name, mutate_text(draw, st, texts[name], draw(st.integers(1, 3)))


ROCOCO_TEXTS = {
    str(p.relative_to(ROCOCO)): p.read_text(encoding="utf-8")
    for p in sorted(ROCOCO.rglob("*.yaml"))
}


def _never_raises(folder: Path, name: str, text: str, original: str) -> None:
    (folder / name).write_text(text, encoding="utf-8")
    try:
        loaded = load(folder)
        for d in loaded.diagnostics:
            assert d.location.path and d.message
        assert (loaded.ruleset is None) == bool(loaded.diagnostics)
    finally:
        (folder / name).write_text(original, encoding="utf-8")


def test_mutated_rococo_never_raises(tmp_path: Path, memo_loads) -> None:
    """Whole-ruleset property over Rococo; one load takes ~0.1 s even with the memo, so
    this property runs fewer examples than the others."""
    folder = tmp_path / "rococo"
    shutil.copytree(ROCOCO, folder)

    @settings(
        max_examples=15,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(mutated_file(ROCOCO_TEXTS))
    def run(case) -> None:
        name, text = case
        _never_raises(folder, name, text, ROCOCO_TEXTS[name])

    run()


def test_mutated_tiny_never_raises(tmp_path: Path) -> None:
    """The same property with many examples, on the small ruleset that uses every section."""
    from rules_test_support import TINY_EXTRA, TINY_MANIFEST

    folder = tmp_path / "tiny"
    folder.mkdir()
    texts = {"ruleset.yaml": TINY_MANIFEST, "content.yaml": TINY_CONTENT}
    for name, text in {**texts, "extra.yaml": TINY_EXTRA}.items():
        (folder / name).write_text(text, encoding="utf-8")

    @settings(
        max_examples=100, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
    )
    @given(mutated_file(texts))
    def run(case) -> None:
        name, text = case
        _never_raises(folder, name, text, texts[name])

    run()


@pytest.mark.parametrize(
    "text, called",
    [
        ("f(x) + g (y)", {"f", "g"}),
        ("x.f(1)", {"f"}),  # a method-like call counts, as `\bf\s*\(` did
        ("barf(1) + f_x(2)", {"barf", "f_x"}),  # a longer name is another name
        ("f\n  (1)", {"f"}),
        ("f + g", set()),
        ("éf(1)", set()),  # no word boundary before `f`
    ],
)
def test_the_names_a_function_calls_are_the_names_before_a_bracket(
    text: str, called: set[str]
) -> None:
    from interpreter.ruleset.rules import _called

    assert _called(text) == called
    for name in ("f", "g", "barf", "f_x"):  # what the per-name search found before
        assert (name in _called(text)) == bool(re.search(rf"\b{name}\s*\(", text)), name
