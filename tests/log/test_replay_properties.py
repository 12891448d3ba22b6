"""Properties of replay over many real logs, each changed in ONE place.

Ten seeded games (2-5 players) are played with `rules play --log`; each log replays to
the scores the game printed. Then, for each log and each kind of mutation, one event is
changed at a random (seeded) place and the replay must either reach a legal end or stop
with exit 1 or 3 AT the changed line or LATER - never earlier, never with a traceback.
Line numbers are those of the mutated file: comment and blank lines are sprinkled into
every log first, so a line number is never just `n + 1`.

Some mutations have an exact answer: a choice that is not among the options there is
refused at its own line; a deleted or swapped line (with the `n` left as they were)
breaks the numbering at the first changed line.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

GAMES = [(2 + i % 4, 500 + i) for i in range(10)]  # (players, seed)
KINDS = [
    "other_text",
    "other_option",
    "outcome",
    "delete",
    "delete_renumbered",
    "swap",
    "swap_renumbered",
]


def _ids(game: tuple[int, int]) -> str:
    return f"{game[0]}p-seed{game[1]}"


@pytest.fixture(scope="module")
def played(kit):
    return {game: kit.play(*game) for game in GAMES}


def _verdict(kit, path: Path) -> dict[str, Any]:
    result, data = kit.replay_json(path)  # kit.run fails on any uncaught exception
    assert result.exit_code == data["exit_code"]
    assert data["exit_code"] in (0, 1, 3), data
    return data


def _options_at(kit, folder: Path, lines: list[str], line: int, player: str) -> list[str]:
    """The options ``player`` has at file line ``line`` (replay of the log cut before it)."""
    cut = kit.write(folder, "cut.jsonl", lines[: line - 1])
    data = _verdict(kit, cut)
    assert data["exit_code"] == 3, data
    return next(p["options"] for p in data["pending"] if p["player"] == player)


def _first_event_line_from(lines: list[str], line: int) -> int | None:
    for number in range(line, len(lines) + 1):
        text = lines[number - 1].strip()
        if text and not text.startswith("#"):
            return number
    return None


@pytest.mark.parametrize("game", GAMES, ids=_ids)
def test_log_replays_to_the_played_scores(kit, played, game):
    data = _verdict(kit, played[game].path)
    assert data["verdict"] == "legal", data
    assert data["result"]["scores"] == played[game].scores


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("game", GAMES, ids=_ids)
def test_one_mutation_is_caught_at_or_after_its_line(kit, tmp_path, played, game, kind):
    rng = random.Random(f"{game}-{kind}")
    lines = kit.with_comments(played[game].lines, every=rng.randint(7, 40))
    evts = kit.events(lines)
    decisions = [(line, e) for line, e in evts if "choice" in e]
    chances = [(line, e) for line, e in evts if "chance" in e]
    mutated = list(lines)
    exact: tuple[str, int] | None = None  # (verdict, line) when the answer is exact

    if kind == "other_text":
        line, event = rng.choice(decisions)
        options = _options_at(kit, tmp_path, lines, line, event["player"])
        pool = sorted({e["choice"] for _, e in decisions} - set(options)) or ["take T99"]
        mutated[line - 1] = json.dumps({**event, "choice": rng.choice(pool)})
        exact = ("illegal", line)
    elif kind == "other_option":
        for _ in range(50):
            line, event = rng.choice(decisions)
            options = _options_at(kit, tmp_path, lines, line, event["player"])
            if len(options) > 1:
                break
        others = [o for o in options if o != event["choice"]]
        mutated[line - 1] = json.dumps({**event, "choice": rng.choice(others)})
    elif kind == "outcome":
        line, event = rng.choice(chances)
        outcome = list(event["outcome"])
        if len(outcome) > 1:  # a shuffle: another order of the same cards
            while outcome == event["outcome"]:
                rng.shuffle(outcome)
        else:  # a draw: another tile or dress, possible or not
            family, size = outcome[0][0], {"T": 48, "D": 42}[outcome[0][0]]
            names = [f"{family}{i:02d}" for i in range(1, size + 1)]
            outcome = [rng.choice([name for name in names if name != outcome[0]])]
        mutated[line - 1] = json.dumps({**event, "outcome": outcome})
    elif kind in ("delete", "delete_renumbered"):
        line, _ = rng.choice(evts)
        del mutated[line - 1]
        if kind == "delete_renumbered":
            mutated = kit.renumber(mutated)
        else:
            following = _first_event_line_from(mutated, line)
            exact = ("malformed", following) if following is not None else ("legal", None)
    elif kind == "swap":
        (a, _), (b, _) = sorted(rng.sample(evts, 2), key=lambda x: x[0])
        mutated[a - 1], mutated[b - 1] = mutated[b - 1], mutated[a - 1]
        line = a
        exact = ("malformed", a)
    elif kind == "swap_renumbered":
        index = rng.randrange(len(evts) - 1)
        other = min(index + rng.choice([1, 1, 2, 5]), len(evts) - 1)
        a, b = evts[index][0], evts[other][0]
        mutated[a - 1], mutated[b - 1] = mutated[b - 1], mutated[a - 1]
        mutated = kit.renumber(mutated)
        line = a
    path = kit.write(tmp_path, f"{kind}.jsonl", mutated)

    data = _verdict(kit, path)

    if exact is not None:
        assert (data["verdict"], data.get("line")) == exact, data
    elif data["exit_code"] != 0 and data.get("line") is not None:
        assert data["line"] >= line, (
            f"mutated line {line}, replay stopped earlier at line {data['line']}: {data}"
        )
    if data["exit_code"] == 0:
        assert data["verdict"] == "legal"


@pytest.mark.parametrize("game", GAMES[:4], ids=_ids)
def test_simultaneous_choices_in_any_order(kit, tmp_path, played, game):
    """Phase 2 (hand selection) decisions may come in any order among themselves."""
    lines = played[game].lines
    evts = kit.events(lines)
    takes = [i for i, (_, e) in enumerate(evts) if e.get("choice", "").startswith("take S")]
    # the first block of consecutive phase-2 decisions (round 1): reverse its order
    end = takes[0]
    while end + 1 < len(evts) and end + 1 in takes:
        end += 1
    block = [lines[evts[i][0] - 1] for i in range(takes[0], end + 1)]
    assert len({json.loads(b)["player"] for b in block}) == game[0]
    reordered = list(lines)
    for i, text in zip(range(takes[0], end + 1), reversed(block), strict=True):
        reordered[evts[i][0] - 1] = text
    path = kit.write(tmp_path, "reordered.jsonl", kit.renumber(reordered))
    data = _verdict(kit, path)
    assert data["verdict"] == "legal", data
    assert data["result"]["scores"] == played[game].scores
