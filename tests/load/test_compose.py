"""Overlays compose: any set of them, named in any order, nothing silently overridden."""

from __future__ import annotations

from itertools import permutations
from pathlib import Path

import pytest
from click.testing import CliRunner
from rules_test_support import ROCOCO, place

from interpreter.cli.main import cli
from interpreter.engine.game import Game
from interpreter.errors import GameError
from interpreter.language.values import Piece
from interpreter.load.ruleset_files import Loader, allowed_combinations, resolve_ruleset
from interpreter.ruleset import load, load_or_raise


def catalog_of(folder: Path, expansions=None, mods=None):
    loader = Loader()
    catalog = loader.ruleset(folder, expansions, mods)
    return catalog, loader.diagnostics


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def messages(diagnostics) -> list[str]:
    return [d.message for d in diagnostics]


# ------------------------------------------------------------- extend: adds
EXTEND_REQUIRES = """overlay: {id: poor_rule, name: Poor rule}
extend:
  actions:
    take:
      requires:
        - {condition: my.score < 500, message: already rich in points}
"""
EXTEND_STEP = """overlay: {id: tax_rule, name: Tax rule}
extend:
  actions:
    take:
      effect:
        - id: tax
          after: main
          effect: gain(score, 100)
"""


def test_two_overlays_extend_one_action_and_both_hold(tiny: Path, tmp_path: Path) -> None:
    mods = [write(tmp_path, "a.yaml", EXTEND_REQUIRES), write(tmp_path, "b.yaml", EXTEND_STEP)]
    loaded = load(tiny, mods=mods)
    assert loaded.diagnostics == []
    take = loaded.ruleset.actions["take"]
    assert [r.message for r in take.requires] == ["too poor", "already rich in points"]
    game = Game(loaded.ruleset, ["A", "B"], seed=1)
    game.state.counters["score#0"] = 0
    game.run_action("take", 0, n=1)
    assert game.state.counters["score#0"] == 2 + 100  # the base effect, then the new step
    game.state.counters["score#0"] = 500
    game.state.counters["coins#0"] = 5
    with pytest.raises(GameError, match="already rich in points"):
        game.run_action("take", 0, n=1)


def test_extension_locations_point_into_the_overlay(tiny: Path, tmp_path: Path) -> None:
    mod = write(tmp_path, "b.yaml", EXTEND_STEP.replace("gain(score, 100)", "gain(scor, 100)"))
    loaded = load(tiny, mods=[mod])
    (d,) = loaded.diagnostics
    assert str(d.location) == place(mod, "scor,")


def test_extend_adds_properties_setup_steps_and_phase_steps(tiny: Path, tmp_path: Path) -> None:
    mod = write(
        tmp_path,
        "m.yaml",
        """overlay: {id: m, name: M}
extend:
  kinds:
    card:
      properties:
        lucky: {type: bool, default: false}
  constants:
    nums: {value: [9]}
    prices: {value: {"3": 30}}
  structure:
    setup:
      - {id: bonus_coins, after: main, effect: "for p in players { gain(coins, 1, to: p) }"}
    phases:
      - id: play
        effect:
          - {id: first, before: main, effect: "gain(score, 1000)"}
""",
    )
    loaded = load(tiny, mods=[mod])
    assert loaded.diagnostics == []
    rules = loaded.ruleset
    assert rules.pieces["c1"].properties["lucky"] is False
    assert rules.constants["nums"] == (3, 1, 4, 1, 5, 9)
    assert rules.constants["prices"] == {"1": 10, "2": 20, "3": 30}
    game = Game(rules, ["A", "B"], seed=1)  # no decisions: the game runs to its end
    assert game.is_over()
    assert game.state.counters["coins#0"] == 3 + 1 - 2  # the setup step, then 2 takes
    # each round: the inserted step (1000) then the phase's take (2); then 1 for coins
    assert game.result().scores["A"] == 2 * (1000 + 2) + 1


def test_extend_cannot_change_a_value(tiny: Path, tmp_path: Path) -> None:
    mod = write(
        tmp_path,
        "m.yaml",
        "overlay: {id: m, name: M}\nextend:\n  constants:\n    base: {value: 8}\n",
    )
    _, diagnostics = catalog_of(tiny, mods=[mod])
    (d,) = diagnostics
    assert d.message.startswith("`extend:` cannot change `value` of 'base' (it is 7, set at ")
    assert "patch:" in d.hint
    assert str(d.location) == place(mod, "8}")


def test_extend_of_a_missing_item_or_anchor(tiny: Path, tmp_path: Path) -> None:
    mod = write(
        tmp_path,
        "m.yaml",
        """overlay: {id: m, name: M}
extend:
  actions:
    tak: {requires: []}
    take:
      effect:
        - {id: x, after: mian, effect: "gain(score, 1)"}
""",
    )
    _, diagnostics = catalog_of(tiny, mods=[mod])
    assert messages(diagnostics) == [
        "cannot extend 'tak': `actions` has no such item",
        "there is no step 'mian' to insert next to",
    ]
    assert "did you mean `take`?" in diagnostics[0].hint
    assert "did you mean `main`?" in diagnostics[1].hint


# ------------------------------------------------------------ conflicts
def test_two_overlays_replacing_one_item_are_refused_with_both_places(
    tiny: Path, tmp_path: Path
) -> None:
    a = write(
        tmp_path,
        "a.yaml",
        "overlay: {id: a, name: A}\nreplace:\n  constants:\n    base: {value: 1}\n",
    )
    b = write(
        tmp_path,
        "b.yaml",
        "overlay: {id: b, name: B}\nreplace:\n  constants:\n    base: {value: 2}\n",
    )
    _, diagnostics = catalog_of(tiny, mods=[b, a])  # named in either order: one verdict
    (d,) = diagnostics
    assert d.message == "'b' replaces constants 'base', which 'a' replaces too"
    assert str(d.location) == place(b, "base")
    assert place(a, "base") in d.hint
    assert "overrides: [a]" in d.hint


@pytest.mark.parametrize(
    "first, second",
    [
        (
            "patch:\n  components:\n    c1: {points: 9}\n",
            "patch:\n  components:\n    c1: {points: 8}\n",
        ),
        (
            "replace:\n  components:\n    c1: {kind: card, suit: red, points: 3}\n",
            "patch:\n  components:\n    c1: {points: 8}\n",
        ),
        ("remove:\n  components: [c1]\n", "patch:\n  components:\n    c1: {points: 8}\n"),
    ],
)
def test_changes_of_one_key_by_two_overlays_conflict(
    tiny: Path, tmp_path: Path, first: str, second: str
) -> None:
    a = write(tmp_path, "a.yaml", "overlay: {id: a, name: A}\n" + first)
    b = write(tmp_path, "b.yaml", "overlay: {id: b, name: B}\n" + second)
    _, diagnostics = catalog_of(tiny, mods=[a, b])
    (d,) = diagnostics
    assert "'a'" in d.message and "'b'" in d.message
    assert str(a) in d.hint or str(b) in d.hint


def test_patches_of_different_keys_and_double_removal_compose(tiny: Path, tmp_path: Path) -> None:
    a = write(
        tmp_path,
        "a.yaml",
        "overlay: {id: a, name: A}\npatch:\n  components:\n    c1: {points: 9}\n"
        "remove:\n  components: [c3]\n",
    )
    b = write(
        tmp_path,
        "b.yaml",
        "overlay: {id: b, name: B}\npatch:\n  components:\n    c1: {suit: black}\n"
        "remove:\n  components: [c3]\n",
    )
    catalog, diagnostics = catalog_of(tiny, mods=[a, b])
    assert diagnostics == []
    assert catalog.sections["components"]["c1"].data["points"] == 9
    assert catalog.sections["components"]["c1"].data["suit"] == "black"
    assert "c3" not in catalog.sections["components"]


def test_an_overlay_that_overrides_another_wins(tiny: Path, tmp_path: Path) -> None:
    a = write(
        tmp_path,
        "a.yaml",
        "overlay: {id: a, name: A, overrides: [b]}\npatch:\n  components:\n    c1: {points: 9}\n",
    )
    b = write(
        tmp_path,
        "b.yaml",
        "overlay: {id: b, name: B}\npatch:\n  components:\n    c1: {points: 8}\n",
    )
    for mods in ([a, b], [b, a]):
        catalog, diagnostics = catalog_of(tiny, mods=mods)
        assert diagnostics == []
        assert catalog.sections["components"]["c1"].data["points"] == 9
        assert catalog.applied == ["b", "a"]


def test_overriding_an_unknown_overlay_is_an_error(tiny: Path, tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", "overlay: {id: a, name: A, overrides: [extar]}\n")
    _, diagnostics = catalog_of(tiny, mods=[a])
    (d,) = diagnostics
    assert d.message == "'a' overrides 'extar', which is no expansion or mod here"
    assert "did you mean `extra`?" in d.hint
    assert str(d.location) == place(a, "extar")


def test_two_overlays_setting_the_player_counts_conflict(tiny: Path, tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", "overlay: {id: a, name: A, players: {min: 2, max: 3}}\n")
    b = write(tmp_path, "b.yaml", "overlay: {id: b, name: B, players: {min: 3, max: 4}}\n")
    _, diagnostics = catalog_of(tiny, mods=[a, b])
    assert messages(diagnostics) == ["'b' replaces the players, which 'a' replaces too"]
    catalog, diagnostics = catalog_of(tiny, mods=[a])
    assert diagnostics == [] and catalog.players == {"min": 2, "max": 3}


def test_extend_a_scoring_step_by_id(tiny: Path, tmp_path: Path) -> None:
    mod = write(
        tmp_path,
        "m.yaml",
        """overlay: {id: m, name: M}
extend:
  scoring:
    steps:
      - id: coins
        effect:
          - {id: flat, after: main, effect: "for p in players { gain(score, 10, to: p) }"}
""",
    )
    loaded = load(tiny, mods=[mod])
    assert loaded.diagnostics == []
    game = Game(loaded.ruleset, ["A", "B"], seed=1)
    result = game.result()
    assert result.breakdown["A"]["coins"] == game.state.counters["coins#0"] // 2 + 10


def test_a_cycle_of_overrides_is_an_error(tiny: Path, tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", "overlay: {id: a, name: A, overrides: [b]}\n")
    b = write(tmp_path, "b.yaml", "overlay: {id: b, name: B, overrides: [a]}\n")
    _, diagnostics = catalog_of(tiny, mods=[a, b])
    assert messages(diagnostics) == [
        "'a' is part of a cycle of `requires`/`overrides`",
        "'b' is part of a cycle of `requires`/`overrides`",
    ]


# ------------------------------------------------------------ order and when
def test_the_order_overlays_are_named_in_does_not_matter(tiny: Path, tmp_path: Path) -> None:
    mods = [
        write(tmp_path, "a.yaml", EXTEND_REQUIRES),
        write(tmp_path, "b.yaml", EXTEND_STEP),
        write(
            tmp_path,
            "c.yaml",
            "overlay: {id: c_rule, name: C}\nextend:\n  actions:\n    take:\n      effect:\n"
            "        - {id: c_step, after: main, effect: 'gain(coins, 1)'}\n",
        ),
    ]
    digests = set()
    for order in permutations(mods):
        catalog, diagnostics = catalog_of(tiny, expansions=["extra"], mods=list(order))
        assert diagnostics == []
        digests.add(catalog.digest())
        assert catalog.applied == ["extra", "c_rule", "poor_rule", "tax_rule"]
        steps = [s["id"] for s in catalog.sections["actions"]["take"].data["effect"]]
        assert steps == ["main", "c_step", "tax"]
    assert len(digests) == 1


WHEN = """overlay: {id: w, name: W}
when:
  - with: [extra]
    add:
      constants:
        only_with_extra: {value: 1}
"""


def test_when_blocks_apply_only_with_the_other_overlay(tiny: Path, tmp_path: Path) -> None:
    mod = write(tmp_path, "w.yaml", WHEN)
    alone, diagnostics = catalog_of(tiny, mods=[mod])
    assert diagnostics == []
    assert "only_with_extra" not in alone.sections["constants"]
    both, diagnostics = catalog_of(tiny, expansions=["extra"], mods=[mod])
    assert diagnostics == []
    assert both.sections["constants"]["only_with_extra"].data == {"value": 1}
    assert str(both.sections["constants"]["only_with_extra"].location(key=True)) == place(
        mod, "only_with_extra"
    )


def test_errors_inside_a_when_block_point_into_it(tiny: Path, tmp_path: Path) -> None:
    mod = write(
        tmp_path,
        "w.yaml",
        """overlay: {id: w, name: W}
when:
  - with: [extra]
    extend:
      actions:
        take:
          requires:
            - {condition: my.coins > 0, mesage: none}
""",
    )
    _, diagnostics = catalog_of(tiny, expansions=["extra"], mods=[mod])
    (d,) = diagnostics
    assert d.message == "unknown key 'mesage'"
    assert str(d.location) == place(mod, "mesage")


def test_when_names_an_unknown_overlay(tiny: Path, tmp_path: Path) -> None:
    mod = write(tmp_path, "w.yaml", WHEN.replace("[extra]", "[extar]"))
    _, diagnostics = catalog_of(tiny, mods=[mod])
    (d,) = diagnostics
    assert d.message == "no expansion or mod 'extar' to apply this block with"
    assert "did you mean `extra`?" in d.hint
    assert str(d.location) == place(mod, "extar")


def test_a_requirement_may_be_named_after_the_overlay_needing_it(
    tiny: Path, tmp_path: Path
) -> None:
    mod = write(tmp_path, "m.yaml", "overlay: {id: m, name: M, requires: [extra]}\n")
    catalog, diagnostics = catalog_of(tiny, expansions=["extra"], mods=[mod])
    assert diagnostics == []
    assert catalog.applied == ["extra", "m"]


def test_labels_are_display_texts_and_conflict_like_items(tiny: Path, tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", "overlay: {id: a, name: A}\nadd:\n  labels: {red: crimson}\n")
    rules = load(tiny, mods=[a]).ruleset
    assert rules.label("red") == "crimson"
    assert rules.label("black") == "black"
    b = write(tmp_path, "b.yaml", "overlay: {id: b, name: B}\nadd:\n  labels: {red: scarlet}\n")
    _, diagnostics = catalog_of(tiny, mods=[a, b])
    assert messages(diagnostics) == ["duplicate id 'red' in `labels`"]


# --------------------------------------------------------------- on Rococo
EXAMPLE_MODS = Path(__file__).resolve().parents[2] / "examples" / "mods"


def test_two_rococo_mods_extending_hire_both_take_effect(tmp_path: Path) -> None:
    """The worked example of docs/modding.md, section 9."""
    mods = [EXAMPLE_MODS / "small-hands.yaml", EXAMPLE_MODS / "welcome-gift.yaml"]
    game = Game(load_or_raise("rococo", mods=mods), ["A", "B"], seed=1)
    state = game.state
    state.counters["livres#0"] = 20
    for piece in state.zones.get("hand#0", ()):
        state.put(piece, "box")
    state.put("S1-1", "hand#0")  # a starting master
    for card in ("E01", "E02"):
        state.put(card, "hiring")
    game.run_action("hire", 0, card=Piece("S1-1"))
    game.apply(0, "hire E01")
    assert game.state.counters["prestige#0"] == 1  # the welcome gift's step ran
    assert game.state.zones["hand#0"] == ("S1-1", "E01")
    game.state.put("E03", "hand#0")
    with pytest.raises(GameError, match="a hand of 3 cards is too full to hire"):
        game.run_action("hire", 0, card=Piece("S1-1"))  # the small hands' requirement holds


def test_two_rococo_mods_replacing_one_key_are_refused(tmp_path: Path) -> None:
    text = "overlay: {{id: {id}, name: N, base: rococo}}\npatch:\n  constants:\n"
    text += "    income: {{value: {v}}}\n"
    a = write(tmp_path, "a.yaml", text.format(id="rich", v=7))
    b = write(tmp_path, "b.yaml", text.format(id="poor", v=3))
    arguments = ["play", "rococo", "--players", "2", "--mod", str(a), "--mod", str(b)]
    result = CliRunner().invoke(cli, arguments)
    assert result.exit_code == 1
    assert (  # reported at the later of the two in the canonical order (by id)
        f"{place(a, 'value')}: error: 'rich' patches constants 'income' (key 'value'), "
        "which 'poor' patches too"
    ) in result.output
    assert f"'poor' does at {place(b, 'value')}" in result.output


def test_validate_checks_combinations_of_expansions_and_mods() -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["validate", "rococo", "--all-combinations"])
    assert result.exit_code == 0, result.output
    folder = resolve_ruleset("rococo")
    allowed = allowed_combinations(folder, load_or_raise("rococo").offered_expansions)
    assert ("deluxe", "fancy", "festive", "haute_couture") in allowed
    assert ("fancy",) not in allowed  # fancy requires deluxe
    assert result.output.endswith(f"in {len(allowed)} combinations of expansions: valid\n")
    result = runner.invoke(cli, ["validate", "rococo", "--with", "festive"])
    assert result.exit_code == 1
    assert "festive.yaml:18:14: error: 'festive' requires 'deluxe', which is not applied" in (
        result.output
    )
    mods = [str(EXAMPLE_MODS / "small-hands.yaml"), str(EXAMPLE_MODS / "welcome-gift.yaml")]
    result = runner.invoke(
        cli, ["validate", "rococo", "--mod", mods[1], "--mod", mods[0], "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    assert '"rococo+small_hands+welcome_gift"' in result.output


def test_entries_after_an_insertion_keep_their_place(tmp_path: Path) -> None:
    mod = write(
        tmp_path,
        "m.yaml",
        "overlay: {id: m, name: M, base: rococo}\nextend:\n  structure:\n    phases:\n"
        "      - {id: tax, before: income, kind: once, effect: 'round += 0'}\n",
    )
    loaded = load(ROCOCO, mods=[mod])
    assert loaded.diagnostics == []
    structure = loaded.catalog.singletons["structure"]
    ids = [p["id"] for p in structure.data["phases"]]
    assert ids == ["prepare", "choose", "actions", "tax", "income"]
    structure_file = ROCOCO / "structure.yaml"
    assert str(structure.location("phases", 4, "id")) == place(structure_file, "income", 0)
    assert str(structure.location("phases", 3, "id")) == place(mod, "tax")
