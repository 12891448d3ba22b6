"""Scenarios reach what a rule can touch: the end of the game and its final scores, what
one player sees, who decides with which options, and whether the game is over."""

from __future__ import annotations

from pathlib import Path

from rules_test_support import invoke, place

from interpreter.engine.game import Game
from interpreter.ruleset import load_or_raise

HEADER = "ruleset: rococo\nplayers: 2\nseed: 1\nscenarios:\n"


def first_game() -> Game:
    """The game `finish: first` plays: every decision answered with its first option."""
    game = Game(load_or_raise("rococo"), ["P1", "P2"], seed=1)
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, decision.options[0])
    return game


def run(tmp_path: Path, body: str) -> tuple[Path, list[str], int]:
    path = tmp_path / "s.yaml"
    path.write_text(HEADER + body, encoding="utf-8")
    result = invoke("test", str(path))
    return path, result.output.splitlines(), result.exit_code


def test_finish_then_final_scores_breakdown_and_game_over(tmp_path):
    result = first_game().result()
    body = f"""\
  - name: to the end
    steps:
      - expect: {{over: false}}
      - finish: first
    expect:
      over: true
      decision: null
      scores: {{P1: {result.scores["P1"]}, P2: {result.scores["P2"]}}}
      breakdown: {{P1: {{livres: {result.breakdown["P1"]["livres"]}}}}}
"""
    _, lines, code = run(tmp_path, body)
    assert (code, lines[0]) == (0, "PASS to the end"), lines


def test_wrong_final_score_and_breakdown_are_located(tmp_path):
    result = first_game().result()
    wrong = result.scores["P2"] + 5
    body = f"""\
  - name: to the end
    steps:
      - finish: first
    expect:
      scores: {{P2: {wrong}}}
      breakdown: {{P1: {{livres: 99}}}}
"""
    path, lines, code = run(tmp_path, body)
    assert code == 1
    got = result.scores["P2"]
    assert (
        f"  {place(path, str(wrong))}: error: final score of P2: expected {wrong}, got {got}"
        in lines
    )
    livres = result.breakdown["P1"]["livres"]
    assert (
        f"  {place(path, '99')}: error: P1's points from livres: expected 99, got {livres}" in lines
    )


def test_game_over_expected_too_early(tmp_path):
    path, lines, code = run(tmp_path, "  - name: over\n    expect: {over: true}\n")
    assert code == 1
    assert lines[1].startswith(
        f"  {place(path, 'true')}: error: game over: expected true, got false (stage "
    )


def test_an_unknown_scoring_step_has_a_hint(tmp_path):
    body = "  - name: s\n    expect: {breakdown: {P1: {livre: 0}}}\n"
    path, lines, code = run(tmp_path, body)
    assert code == 1
    assert f"  {place(path, 'livre')}: error: there is no scoring step 'livre'" in lines
    assert "       = hint: did you mean `livres`?" in lines


def test_what_a_player_sees_and_does_not_see(tmp_path):
    """P1's hand is private: P1 sees the card put there, P2 does not (the engine's view,
    also during the simultaneous secret phase the game starts in); prestige likewise."""
    body = """\
  - name: private hand
    setup:
      zones: {P1.hand: [E01]}
    expect:
      view:
        P1: {sees: [E01, P1.prestige, round]}
        P2: {sees: [P2.prestige], hidden: [E01, P1.prestige]}
"""
    _, lines, code = run(tmp_path, body)
    assert (code, lines[0]) == (0, "PASS private hand"), lines


def test_a_wrong_view_expectation_is_located(tmp_path):
    body = """\
  - name: private hand
    setup:
      zones: {P1.hand: [E01]}
    expect:
      view:
        P2: {sees: [E01]}
"""
    path, lines, code = run(tmp_path, body)
    assert code == 1
    assert (
        f"  {place(path, 'E01', 1)}: error: what P2 sees: expected E01 shown, got E01 hidden"
        in lines
    )


def test_who_decides_with_which_options(tmp_path):
    game = Game(load_or_raise("rococo"), ["P1", "P2"], seed=1)
    first = game.legal("P1")[0]
    body = f"""\
  - name: first decision
    expect:
      decision: {{player: P1, include: [{first}], exclude: [nothing like this]}}
  - name: wrong option
    expect:
      decision: {{player: P1, include: [nothing like this]}}
"""
    path, lines, code = run(tmp_path, body)
    assert code == 1
    assert lines[0] == "PASS first decision"
    assert lines[1] == "FAIL wrong option"
    assert lines[2].startswith(
        f"  {place(path, 'nothing like this', 1)}: error: options: expected 'nothing like this' "
        "among them, got ["
    )


def test_finish_refuses_a_person_and_an_unknown_agent(tmp_path):
    body = "  - name: h\n    steps: [finish: human]\n  - name: u\n    steps: [finish: clever]\n"
    path, lines, code = run(tmp_path, body)
    assert code == 1
    assert f"  {place(path, 'human')}: error: a scenario cannot ask a person" in lines
    assert any(
        line.startswith(f"  {place(path, 'clever')}: error: unknown agent") for line in lines
    )
