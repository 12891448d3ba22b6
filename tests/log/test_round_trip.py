"""Round trip: every log `rules play --log` writes replays to the game's own scores.

Replay takes every chance outcome from the log and never from a random generator, so
the header's `seed` is only informative: a different seed, a text seed or no seed at
all gives the same replay, and replay still works when the generator is broken.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.engine import chance

GAMES = [
    (2, "1", "random"),
    (3, "2", "random"),
    (4, "3", "random"),
    (5, "4", "random"),
    (2, "5", "greedy"),
    (3, "6", "greedy"),
    (4, "7", "greedy,random,greedy,random"),
    (5, "8", "random"),
    (3, "spring-ball", "random"),
    (2, "-17", "greedy,random"),
]


@pytest.fixture(scope="module")
def played(kit):
    return {game: kit.play(*game) for game in GAMES}


def _with_header(lines: list[str], **changes) -> list[str]:
    header = json.loads(lines[0])
    for key, value in changes.items():
        if value is None:
            header.pop(key, None)
        else:
            header[key] = value
    return [json.dumps(header), *lines[1:]]


@pytest.mark.parametrize("game", GAMES, ids=[f"{p}p-{s}-{a}" for p, s, a in GAMES])
def test_replays_to_the_same_scores_whatever_the_seed(kit, tmp_path, played, game):
    log = played[game]
    _, data = kit.replay_json(log.path)
    assert data["verdict"] == "legal", data
    assert data["result"]["scores"] == log.scores
    assert data["result"]["breakdown"] == log.result["breakdown"]
    assert data["result"]["ranking"] == log.result["ranking"]
    for seed in (12345, "another seed", None):
        path = kit.write(tmp_path, f"seed-{seed}.jsonl", _with_header(log.lines, seed=seed))
        _result, other = kit.replay_json(path)
        assert other["verdict"] == "legal", (seed, other)
        assert other["result"]["scores"] == log.scores, seed
        assert other["result"]["breakdown"] == log.result["breakdown"], seed


def test_replay_never_uses_the_random_generator(kit, played, monkeypatch):
    def broken(*args, **kwargs):
        raise AssertionError("replay asked the random generator for an outcome")

    monkeypatch.setattr(chance, "shuffled", broken)
    monkeypatch.setattr(chance, "picked", broken)
    for game in GAMES[:4]:
        _result, data = kit.replay_json(played[game].path)
        assert data["verdict"] == "legal", data
        assert data["result"]["scores"] == played[game].scores


def test_every_chance_outcome_is_in_the_log(kit, played):
    """The log holds the outcome of every shuffle and draw the game made."""
    for game in GAMES[:4]:
        kinds = {e["chance"] for _, e in kit.events(played[game].lines) if "chance" in e}
        assert {"shuffle sorting", "draw resource_pile", "draw dress_bag"} <= kinds


def test_the_final_line_is_the_scores_checkpoint(kit, played):
    for game in GAMES:
        last = json.loads(played[game].lines[-1])
        assert last["scores"] == played[game].scores
        assert last["n"] == len(played[game].lines) - 1


def test_player_names_round_trip(kit, tmp_path):
    path = tmp_path / "names.jsonl"
    result = kit.run(
        "play",
        "rococo",
        "--players",
        "3",
        "--seed",
        "9",
        "--names",
        "Zoë,Jean-Luc,Анна",
        "--log",
        str(path),
        "--json",
    )
    assert result.exit_code == 0
    scores = json.loads(result.stdout)["scores"]
    _replayed, data = kit.replay_json(path)
    assert data["verdict"] == "legal", data
    assert data["result"]["scores"] == scores


def test_player_name_with_a_line_separator_round_trips(kit, tmp_path: Path):
    path = tmp_path / "names.jsonl"
    result = kit.run(
        "play",
        "rococo",
        "--players",
        "2",
        "--seed",
        "9",
        "--names",
        "Ann\u2028Lee,Bob",
        "--log",
        str(path),
    )
    assert result.exit_code == 0
    _replayed, data = kit.replay_json(path)
    assert data["verdict"] == "legal", data
