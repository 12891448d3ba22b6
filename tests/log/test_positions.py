"""`replay --at N`: the position after exactly N events, for every N.

The position after N events is the game just before it takes event N + 1: every
effect that follows from the first N events has run, and the game waits for the next
decision or chance outcome. Live games record it as they are played (a chance source
that notes the state before each outcome, and the state before each decision); a
replay of their log must reach the same state at every N, round boundaries included.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.agents import make
from interpreter.engine import chance
from interpreter.engine.game import Game
from interpreter.engine.view import full_view
from interpreter.log import writer
from interpreter.log.replay import replay
from interpreter.ruleset import load_or_raise

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "logs" / "rococo-2p-handwritten.jsonl"


def played(ruleset: str, players: int, seed: int, folder: Path) -> tuple[Path, dict[int, str]]:
    """A seeded random game: its log, and the state digest after every N events."""
    rules = load_or_raise(ruleset)
    digests: dict[int, str] = {}
    game = Game(rules, [f"P{i + 1}" for i in range(players)], seed=seed, start=False)

    def note() -> None:
        digests.setdefault(len(game.events), game.state.digest())

    def source(key: str, items: tuple[str, ...], count: int | None) -> tuple[str, ...]:
        note()  # the same outcomes as the seed's own stream
        index = game.state.engine["chance"]
        if count is None:
            return chance.shuffled(seed, index, items)
        return chance.picked(seed, index, items, count)

    game.chance_source = source
    game.start()
    agents = {s: make("random", s, seed) for s in range(players)}
    while not game.is_over():
        note()
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
    note()
    path = folder / f"{ruleset}-{seed}.jsonl"
    path.write_text("\n".join(writer.lines(game, final_scores=False)) + "\n", encoding="utf-8")
    return path, digests


def walked(path: Path) -> dict[int, str]:
    """The state digest at every position one replay passes through."""
    seen: dict[int, str] = {}
    verdict = replay(path, on_position=lambda n, game, _: seen.setdefault(n, game.state.digest()))
    assert verdict.kind == "legal", verdict.message
    return seen


@pytest.mark.parametrize(
    ("ruleset", "players", "seed"), [("rococo", 2, 5), ("rococo", 4, 6), ("queens-necklace", 3, 7)]
)
def test_every_position_of_a_played_game_is_the_live_one(tmp_path, ruleset, players, seed):
    path, live = played(ruleset, players, seed, tmp_path)
    events = len(path.read_text().splitlines()) - 1
    assert sorted(live) == list(range(events + 1))
    assert walked(path) == live
    # `--at N` stops at that very position, at round boundaries too (a chance next)
    for n in sorted({0, 1, events // 3, events // 2, events - 1, events}):
        verdict = replay(path, stop_after=n)
        assert (verdict.events_applied, verdict.game.state.digest()) == (n, live[n])


def test_every_position_of_the_example_log(tmp_path):
    lines = [line for line in EXAMPLE.read_text().splitlines() if line and line[0] != "#"]
    seen = walked(EXAMPLE)
    assert sorted(seen) == list(range(len(lines)))  # the header, then N events: 0..N
    # consecutive positions differ (each event changes the game), none is repeated
    changed = [n for n in range(1, len(lines)) if seen[n] != seen[n - 1]]
    assert len(changed) >= len(lines) - 2  # the final score checkpoint changes nothing


def test_at_n_across_the_first_round_boundary_of_the_example_log(kit):
    """Events 64-71 of the example log end round 1 and start round 2: each `--at` shows
    its own position and its own number (they all showed event 63's before)."""
    shown = {}
    for n in range(60, 76):
        result = kit.run("replay", "--at", str(n), "--json", str(EXAMPLE))
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert data["events_applied"] == n
        shown[n] = json.dumps(data["position"], sort_keys=True)
    assert len(set(shown.values())) == len(shown)
    verdict = replay(EXAMPLE, stop_after=70)
    assert json.dumps(full_view(verdict.game), sort_keys=True) == shown[70]
