"""`replay(views=False)`: a verdict without following what each player knows.

`rules replay LOG` only says whether the moves were legal and what the scores are;
what each player knows of hidden components (who saw which card go where) is read by
views and state digests only. Without it the verdicts, scores and positions must be
exactly those of a replay with views, a digest checkpoint must still be checked (the
log is replayed again with views), and the game must refuse to show a player's view
rather than show one that is wrong.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.agents import RandomAgent
from interpreter.engine.game import Game
from interpreter.engine.view import full_view, view
from interpreter.log import reader, writer
from interpreter.log.replay import Verdict, replay, replay_events
from interpreter.ruleset import load_or_raise


def _played_log(folder: Path, ruleset_id: str, players: int, seed: int) -> Path:
    ruleset = load_or_raise(ruleset_id)
    game = Game(ruleset, [f"P{i}" for i in range(players)], seed=seed)
    agents = [RandomAgent(i, f"{seed}:{i}") for i in range(players)]
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
    path = folder / f"{ruleset_id}-{players}-{seed}.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        writer.write(game, stream)
    return path


def _outcome(verdict: Verdict) -> tuple:
    game = verdict.game
    result = game.result() if verdict.kind == "legal" else None
    return (
        verdict.kind,
        verdict.message,
        verdict.line,
        verdict.events_applied,
        verdict.options,
        verdict.pending,
        None if result is None else (result.scores, result.breakdown, result.ranking),
        full_view(game),
        game.state.counters,
        game.state.zones,
    )


GAMES = [("queens-necklace", 4, 3), ("queens-necklace", 2, 8), ("rococo", 3, 5)]


@pytest.mark.parametrize(("ruleset_id", "players", "seed"), GAMES)
def test_a_verdict_without_views_is_the_verdict_with_them(tmp_path, ruleset_id, players, seed):
    path = _played_log(tmp_path, ruleset_id, players, seed)
    without, with_views = replay(path, views=False), replay(path)
    assert without.kind == "legal"
    assert _outcome(without) == _outcome(with_views)
    parsed = reader.read(path)
    in_memory = replay_events(load_or_raise(ruleset_id), parsed, views=False)
    assert _outcome(in_memory) == _outcome(with_views)


def test_a_game_replayed_without_views_refuses_a_players_view(tmp_path):
    path = _played_log(tmp_path, "queens-necklace", 3, 1)
    lines = path.read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "cut.jsonl"  # mid-game: a player's view would hide the others' hands
    cut.write_text("\n".join(lines[: len(lines) // 2]) + "\n", encoding="utf-8")
    verdict = replay(cut, views=False)
    assert verdict.kind == "incomplete"
    with pytest.raises(RuntimeError, match="does not follow what each player knows"):
        view(verdict.game, 0)
    with pytest.raises(RuntimeError, match="does not follow what each player knows"):
        verdict.game.state.digest()
    assert full_view(verdict.game) == full_view(replay(cut).game)


def _with_checkpoint(source: Path, target: Path, at: int, digest: str) -> Path:
    """The log with a digest checkpoint after its first ``at`` events, renumbered."""
    header, *events = source.read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in events]
    rows.insert(at, {"state_digest": digest})
    numbered = [json.dumps({**row, "n": n}) for n, row in enumerate(rows, 1)]
    target.write_text("\n".join([header, *numbered]) + "\n", encoding="utf-8")
    return target


def test_a_digest_checkpoint_is_checked_with_views(tmp_path):
    path = _played_log(tmp_path, "queens-necklace", 4, 2)
    at = 150  # mid-game: hands hidden, cards seen moving
    position = replay(path, stop_after=at)
    assert position.kind == "position"
    digest = position.game.state.digest()
    good = _with_checkpoint(path, tmp_path / "good.jsonl", at, digest)
    assert replay(good, views=False).kind == "legal"
    bad = _with_checkpoint(path, tmp_path / "bad.jsonl", at, "sha256:" + "0" * 64)
    verdict = replay(bad, views=False)
    assert (verdict.kind, verdict.line) == ("mismatch", at + 2)
    assert digest in verdict.message
    parsed = reader.read(good)
    assert replay_events(load_or_raise("queens-necklace"), parsed, views=False).kind == "legal"


def test_an_illegal_move_is_told_alike_without_views(tmp_path):
    path = _played_log(tmp_path, "queens-necklace", 4, 4)
    header, *events = path.read_text(encoding="utf-8").splitlines()
    index = next(
        i for i, line in enumerate(events) if i > 100 and '"choice": "show ' in line
    )  # a card shown in a sale: one the player may not show instead
    row = json.loads(events[index])
    row["choice"] = "show no_such_card"
    events[index] = json.dumps(row)
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join([header, *events]) + "\n", encoding="utf-8")
    without, with_views = replay(broken, views=False), replay(broken)
    assert without.kind == "illegal"
    assert _outcome(without) == _outcome(with_views)
