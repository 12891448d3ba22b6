"""`simulate.focus`: the report opens on what a mod adds or changes, with a verdict."""

from __future__ import annotations

import pytest
from rules_test_support import ROOT

from interpreter.simulate import Plan, Variant, run
from interpreter.simulate.aggregate import Totals
from interpreter.simulate.focus import changes, judge, references, targets
from interpreter.simulate.play import ruleset_of
from interpreter.simulate.report import build
from interpreter.simulate.report_text import text

GOLDEN = str(ROOT / "examples" / "balance" / "golden-apprentice.yaml")
NEW_STAFF = str(ROOT / "examples" / "mods" / "new-staff.yaml")

# A level I apprentice with E01's bonus (1 livre): worth what its peers are.
HARMLESS = """\
overlay:
  id: harmless
  name: Harmless
  description: A level I apprentice like E01.
  base: rococo
add:
  components:
    HA1:
      kind: employee
      level: 1
      type: apprentice
      bonus: gain_1_livre
      endgame: false
"""


@pytest.fixture(scope="module")
def judged(tmp_path_factory) -> dict:
    """200 two-player random games of the golden mod and of the harmless one (random
    agents: quick; a card worth a whole game's score shows even so)."""
    harmless = tmp_path_factory.mktemp("mods") / "harmless.yaml"
    harmless.write_text(HARMLESS)
    plan = Plan(
        [Variant("rococo", (), (GOLDEN,)), Variant("rococo", (), (str(harmless),))],
        200,
        [2],
        seed="1",
    )
    found = targets(plan)
    totals = Totals(references(found))
    return build(plan, run(plan, jobs=1, on_record=totals), totals, found)


def test_a_card_far_too_strong_comes_first_with_its_verdict(judged) -> None:
    golden = judged["focus"]["0:2"][0]
    assert golden["item"] == "GA1" and golden["change"] == "new"
    assert golden["verdict"] == "likely too strong", golden["sentence"]
    assert golden["reference"]["items"] == ["E01", "E03"]  # the other level 1 apprentices
    assert golden["win"]["low"] > 0 and golden["score"]["low"] > 10
    bonus = next(a for a in golden["abilities"] if a["item"] == "bonus GA1")
    assert bonus["gain"] == {"prestige": 20.0}  # the card's own bonus, attributed to it
    assert 0 < golden["taken"] <= golden["offered"]
    summary = text(judged)
    lines = summary.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("== "))
    assert lines[first] == "== the mod's items first: rococo + golden-apprentice, 2 players"
    assert lines[first + 2].startswith("* GA1: players who had it won ")
    assert lines[first + 2].endswith(": likely too strong")


def test_a_harmless_card_gets_no_such_verdict(judged) -> None:
    (harmless,) = judged["focus"]["1:2"]
    assert harmless["item"] == "HA1"
    assert harmless["verdict"] == "no sign of imbalance", harmless["sentence"]
    assert harmless["had"]["players"] >= 20


def test_what_a_mod_adds_is_found_by_comparing_the_rulesets() -> None:
    base = ruleset_of(Variant("rococo"))
    modded = ruleset_of(Variant("rococo", (), (NEW_STAFF,)))
    found = {(item, category, change) for item, category, change, _ in changes(base, modded)}
    # the two bonus actions are the cards' abilities: judged through NS1 and NS2
    assert found == {
        ("NS1", "component", "new"),
        ("NS2", "component", "new"),
        ("garden1", "space", "new"),
        ("garden2", "space", "new"),
    }
    plan = Plan([Variant("rococo", (), (NEW_STAFF,))], 1, [2])
    ns1 = next(t for t in targets(plan) if t.item == "NS1")
    label, items = ns1.levels[0]
    assert label == "employee components with level 3, type journeyman, endgame no"
    assert len(items) == 2
    # then wider and wider: the level 3 employees, ..., every employee of the base
    assert ns1.levels[-1][0] == "employee components" and len(ns1.levels[-1][1]) > 20
    # a new group of spaces: the base spaces with the same properties
    garden1 = next(t for t in targets(plan) if t.item == "garden1")
    assert garden1.reference and not any(s.startswith("garden") for s in garden1.reference)


def test_too_few_reference_players_widen_the_reference() -> None:
    plan = Plan([Variant("rococo")], 1, [2])
    (e05,) = targets(plan, ("E05",))
    group = {"items": [], "finished": 100, "players": 2}
    # 40 players had E05 and won 30; 5 had E02 (too few), 60 had a wider reference
    tallies = {"E05": [[40, 30, 1600, 70000], [5, 2, 100, 2100], [60, 30, 1500, 40000]]}
    tallies["E05"] += [[60, 30, 1500, 40000]] * (len(e05.levels) - 2)
    (row,) = judge([e05], group, tallies)
    assert row["reference"]["level"] == 1 and row["reference"]["players"] == 60
    assert row["reference"]["label"] == e05.levels[1][0]
    assert row["verdict"] == "likely too strong", row["sentence"]


def test_focus_judges_any_item_against_its_kind() -> None:
    plan = Plan([Variant("rococo")], 1, [2])
    (e05,) = targets(plan, ("E05",))
    assert e05.change == "focus" and e05.reference == ("E02",)  # level 1 masters
