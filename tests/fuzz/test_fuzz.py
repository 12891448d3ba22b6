"""Valid means playable, by fuzzing (issue 11): mutated toy rulesets and mutated valid
effects are either refused with located diagnostics, or play (random agents, at most
``fuzzer.DECISIONS`` decisions) to the end, to a located rule error or to an illegal
move, within ``fuzzer.SECONDS`` CPU seconds — never another exception, never a hang.

Derandomized: case ``k`` is ``fuzzer.make_case("ci:k")`` on every run. A failing case
is named in the assertion with its seed and mutated text; ``python
tests/fuzz/run_fuzz.py --seed ci --case k`` replays it alone. run_fuzz.py runs the same
generator for many more cases (README.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzzer

CASES = 240  # 20-30 s on two slow cores shared with other work


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    fuzzer.reuse_parses()
    yield tmp_path_factory.mktemp("fuzz") / "case"
    fuzzer.restore()


def test_the_base_effects_are_valid_in_the_toy(folder):
    """The texts mutated are valid to begin with (else the fuzzer tests only refusal)."""
    import random

    for kind, texts in (("effect", fuzzer.TOY_EFFECTS), ("condition", fuzzer.TOY_CONDITIONS)):
        for text in texts:
            action, course = fuzzer.plug(random.Random(1), text, kind)
            files = {"ruleset.yaml": fuzzer.EFFECT_MANIFEST, "toy.yaml": fuzzer.HEAD_TEXT}
            files.update({"course.yaml": course, "fuzz.yaml": action})
            outcome = fuzzer.run(fuzzer.Case("base", "effect", files, 2, text), folder)
            assert outcome.kind not in ("refused", "FAILURE"), (text, outcome)


@pytest.mark.parametrize("first", range(0, CASES, 40))
def test_valid_means_playable(folder, first):
    failures = []
    for k in range(first, first + 40):
        case = fuzzer.make_case(f"ci:{k}")
        outcome = fuzzer.run(case, folder)
        if outcome.failed:
            failures.append(f"{outcome.detail}\n{case.reproduction()}")
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize(
    ("effect", "message"),
    [
        # found by the fuzzer: a per-player counter or zone of none (`my` in a `once`
        # phase reached through `do`) was a TypeError
        ("let p = first(q in players where q.coins > 99)\ngain(coins, p.coins)", "of none"),
        ("let p = first(q in players where q.coins > 99)\nmove(c1, p.hand)", "of none"),
        # seat_order(none) was a TypeError
        ("for p in seat_order(none) { }", "seat_order() was given none"),
        # reveal(…, to: a zone) was a ValueError
        ("reveal(c1, to: pool)", "reveal() shows components to players"),
    ],
)
def test_found_by_fuzzing_a_located_rule_error(folder, effect, message):
    action = "actions:\n  fuzz:\n    params: {}\n    effect: |\n" + fuzzer._indent(effect, 6)
    course = fuzzer.COURSE_TEXT.replace(
        "    - id: income\n",
        '    - {id: fuzzing, kind: each_player, effect: "do fuzz()"}\n    - id: income\n',
    )
    files = {"ruleset.yaml": fuzzer.EFFECT_MANIFEST, "toy.yaml": fuzzer.HEAD_TEXT}
    files.update({"course.yaml": course, "fuzz.yaml": action + "\n"})
    outcome = fuzzer.run(fuzzer.Case("regression", "effect", files, 2, effect), folder)
    assert outcome.kind == "rule error" and message in outcome.detail, outcome
    assert "fuzz.yaml:" in outcome.detail.split(": error: ")[0]


def test_found_by_fuzzing_stop_in_a_simultaneous_branch_ends_that_branch(folder):
    """`stop` in a branch of a `simultaneous for` escaped as a StopEffect exception
    (from `Game()`; after a decision it made the move illegal)."""
    from interpreter.engine.game import Game
    from interpreter.ruleset import load

    effect = (
        "simultaneous for p in players { act as p {\n"
        "  gain(coins, 1)\n  stop\n  gain(coins, 100)\n} }"
    )
    course = fuzzer.COURSE_TEXT.replace(
        "    leader = first(players)\n",
        "    leader = first(players)\n" + fuzzer._indent(effect, 4) + "\n",
    )
    files = {"ruleset.yaml": fuzzer.EFFECT_MANIFEST, "toy.yaml": fuzzer.HEAD_TEXT}
    files["course.yaml"] = course
    files["fuzz.yaml"] = "actions:\n  fuzz:\n    params: {}\n    effect: gain(coins, 1)\n"
    fuzzer.write(fuzzer.Case("stop", "effect", files, 3, effect), folder)
    loaded = load(folder)
    assert not loaded.diagnostics, loaded.diagnostics
    game = Game(loaded.ruleset, ["A", "B", "C"], seed=1)
    assert [game.state.counters[f"coins#{seat}"] for seat in range(3)] == [3, 3, 3]


def test_chance_drawn_in_a_loop_reaches_the_step_budget(folder):
    """Case 1:1031: `repeat 100000 { choose … by chance }` copied the whole history of
    the step at every outcome (quadratic: minutes before the step budget); histories are
    chains now, so the loop meets the budget within the case's CPU limit."""
    case = fuzzer.make_case("1:1031")
    assert "by chance" in case.text
    outcome = fuzzer.run(case, folder)
    assert outcome.kind == "rule error", outcome
    assert "step budget" in outcome.detail


def test_simultaneous_branches_spend_the_budget_of_their_effect(folder):
    """Case 1:8284: `repeat 100000 { simultaneous for … { move(…) … } }` gave every
    branch a fresh step budget, and moving a whole collection was one step: minutes of
    work before any cap. Branches now share the budget of the effect that forks them,
    and each piece moved is a step."""
    case = fuzzer.make_case("1:8284")
    assert "simultaneous for" in case.text
    outcome = fuzzer.run(case, folder)
    assert outcome.kind == "rule error", outcome
    assert "step budget" in outcome.detail
