"""Seats driven by the rules (`automata`): at the table, never asked, logged, replayed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.errors import GameError
from interpreter.log import writer
from interpreter.log.replay import replay
from interpreter.ruleset import load

MANIFEST = """id: duel
name: Duel
version: 0.1.0
players: {min: 1, max: 2}
include: [content.yaml]
"""
CONTENT = """automata:
  bot: {name: Robot, players: [1], seat: first}
counters:
  points: {per: player}
  round: {per: game}
  people: {per: game}
  seats: {per: game}
  machines: {per: game}
kinds:
  card: {properties: {value: {type: number}}}
components:
  c1: {kind: card, value: 1}
  c2: {kind: card, value: 2}
  c3: {kind: card, value: 3}
  c4: {kind: card, value: 4}
zones:
  deck: {per: game, order: random, visibility: secret}
  hand: {per: player, visibility: private}
  played: {per: game, visibility: public}
structure:
  setup: |
    people = player_count
    seats = count(players)
    machines = count(p in players where p.automaton)
    move(card, deck)
    for p in players { draw(deck, p.hand, 2) }
  rounds: {count: 1, counter: round}
  phases:
    - id: play
      kind: turns
      while: my.hand.size > 0
      effect: |
        choose c in my.hand as "play" {
          gain(points, c.value)
          move(c, played)
        }
        may choose { option "bonus" { gain(points, 10) } }
scoring:
  score: points
  steps:
    - {id: none, effect: "round += 0"}
"""


@pytest.fixture
def duel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    folder = tmp_path / "rulesets" / "duel"  # replay finds it by id from tmp_path
    folder.mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    (folder / "ruleset.yaml").write_text(MANIFEST, encoding="utf-8")
    (folder / "content.yaml").write_text(CONTENT, encoding="utf-8")
    loaded = load(folder)
    assert loaded.diagnostics == []
    return folder, loaded.ruleset


def play_out(game: Game, pick=lambda options: options[-1]) -> Game:
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, pick(decision.options))
    return game


def test_the_automaton_sits_at_the_table_and_is_never_asked(duel) -> None:
    _, rules = duel
    game = Game(rules, ["Ann"], seed=3)
    assert game.state.players == ("Robot", "Ann")  # seat: first
    assert game.people == ("Ann",)
    counters = game.state.counters
    assert (counters["people"], counters["seats"], counters["machines"]) == (1, 2, 1)
    asked = set()
    while not game.is_over():
        decision = game.pending()[0]
        asked.add(decision.player_name)
        game.apply(decision.player, decision.options[-1])  # Ann: last card, then pass
    assert asked == {"Ann"}
    robot = [e for e in game.events if e.get("player") == "Robot"]
    # the Robot took the first option every time: its first card, then the bonus (not pass)
    assert [e["choice"] for e in robot][1::2] == ["bonus", "bonus"]
    assert all(e["choice"].startswith("play ") for e in robot[::2])
    scores = game.result().scores
    assert set(scores) == {"Robot", "Ann"}
    assert scores["Robot"] >= 20 + 3  # two bonuses and two cards


def test_with_more_people_no_automaton_joins(duel) -> None:
    _, rules = duel
    game = Game(rules, ["Ann", "Bob"], seed=3)
    assert game.state.players == ("Ann", "Bob")
    assert game.state.counters["machines"] == 0


def test_a_person_cannot_take_the_automatons_name(duel) -> None:
    _, rules = duel
    with pytest.raises(GameError, match="names must differ"):
        Game(rules, ["Robot"])


def test_a_log_lists_the_people_and_replays_the_automatons_decisions(duel, tmp_path) -> None:
    _, rules = duel
    game = play_out(Game(rules, ["Ann"], seed=5))
    path = tmp_path / "duel.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        writer.write(game, stream)
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["players"] == ["Ann"]
    assert any(json.loads(line).get("player") == "Robot" for line in lines[1:])
    verdict = replay(path, strict=True)
    assert verdict.kind == "legal", verdict.message
    assert verdict.game.result().scores == game.result().scores

    tampered = [json.loads(line) for line in lines]
    index = next(i for i, e in enumerate(tampered) if e.get("choice") == "bonus")
    tampered[index]["choice"] = "pass"
    path.write_text("\n".join(json.dumps(e) for e in tampered) + "\n", encoding="utf-8")
    verdict = replay(path)
    assert verdict.kind != "legal"
    assert "Robot is driven by the rules and chooses 'bonus' here, not 'pass'" in verdict.message
