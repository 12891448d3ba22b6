"""The example log examples/logs/rococo-2p-handwritten.jsonl.

A complete 2-player game written the way a group that played the physical game would
write one: comment lines explain every round and turn, chance lines record the shuffles
and draws. It was not taken down at a table (whatever its name says): its decisions
were chosen for the example and played with the engine in a game with seed 2013, which
made every draw, as its header comment says and `test_made_with_seed_2013` checks. It must
replay as legal and complete to the scores its last comment and its final `scores`
checkpoint state.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOG = "examples/logs/rococo-2p-handwritten.jsonl"
STATED = {"Ann": 57, "Bob": 72}


@pytest.fixture
def log() -> Path:
    return ROOT / LOG


def test_replays_to_the_stated_scores(kit, log):
    result = kit.replay(log)
    assert result.exit_code == 0, result.output
    assert "legal and complete" in result.stdout
    assert kit.scores_in_table(result.stdout) == STATED


def test_json_verdict_and_breakdown(kit, log):
    _, data = kit.replay_json(log, "--strict")  # no digest, no unknown keys: strict passes
    assert data["verdict"] == "legal"
    assert data["result"]["scores"] == STATED
    assert data["result"]["ranking"] == [["Bob"], ["Ann"]]
    assert data["result"]["breakdown"]["Ann"]["fireworks"] == 6
    assert data["result"]["breakdown"]["Bob"]["endgame"] == 9


def test_final_checkpoint_and_comment_state_the_scores(log):
    lines = log.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[-1])["scores"] == STATED
    comments = "\n".join(line for line in lines if line.startswith("#"))
    assert "Bob 72" in comments and "Ann 57" in comments


def test_made_with_seed_2013(log):
    """What the header comment says: these decisions played in a game with seed 2013
    give exactly the file's events, every chance line included."""
    from interpreter.engine.game import Game
    from interpreter.ruleset import load_or_raise

    lines = log.read_text(encoding="utf-8").splitlines()
    assert "not a record of a game on the" in lines[2] + lines[3]
    events = [json.loads(line) for line in lines[1:] if line.startswith("{")]
    played = [{k: v for k, v in e.items() if k != "n"} for e in events if "scores" not in e]
    players = json.loads(lines[0])["players"]
    game = Game(load_or_raise("rococo"), players, seed=2013)
    for event in played:
        if "choice" in event:
            game.apply(players.index(event["player"]), event["choice"])
    assert game.is_over()
    assert game.events == played
    assert game.result().scores == STATED


def test_written_like_a_hand_written_log(log):
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["players"] == ["Ann", "Bob"]
    assert "seed" not in header and "ruleset_digest" not in header  # both optional
    comments = [line for line in lines if line.startswith("#")]
    for round_number in range(1, 8):  # every round is explained
        assert any(f"Round {round_number}" in c for c in comments), round_number
    assert any("Final scores" in c for c in comments)
    events = [json.loads(line) for line in lines[1:] if line.startswith("{")]
    assert [e["n"] for e in events] == list(range(1, len(events) + 1))
    chance = {e["chance"] for e in events if "chance" in e}
    assert chance == {"shuffle sorting", "draw resource_pile", "draw dress_bag"}


def test_every_prefix_is_legal_so_far(kit, tmp_path, log):
    """Cut after any round: replay reports exit 3 (the log ends), never an error."""
    lines = log.read_text(encoding="utf-8").splitlines()
    cuts = [i for i, line in enumerate(lines) if line.startswith("# Round") and "phase 2" in line]
    assert len(cuts) == 7
    for cut in cuts:
        path = kit.write(tmp_path, f"cut-{cut}.jsonl", lines[:cut])
        result, data = kit.replay_json(path)
        assert result.exit_code == 3, data
        assert data["verdict"] == "incomplete"


def test_the_worked_excerpt_of_the_docs_is_taken_from_the_log(log):
    docs = (ROOT / "docs/rulesets/rococo.md").read_text(encoding="utf-8")
    excerpt = docs.split("## Worked excerpt", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    text = log.read_text(encoding="utf-8")
    assert excerpt.strip() in text


DOCUMENTED = [  # every option text docs/rulesets/rococo.md lists, as patterns
    r"take (S\d-\d|E\d\d|T\d\d)",
    r"play (S\d-\d|E\d\d)",
    r"favour|acquire|sew|hire|dismiss|fund|no action|bonus|no bonus",
    r"keep|convert|thread|lace|rent|sell|pass",
    r"sew D\d\d",
    r"fewer (yellow|green|red)",
    r"silk T\d\d",
    r"rent [sl]_hall\d_guest\d",
    r"hire E\d\d",
    r"fund (musician_hall\d|[sl]_(statue|fireworks|fountain_top|fountain_bottom)\d)",
    r"dismiss (S\d-\d|E\d\d)",
    r"buy \d+",
    r"cash in T\d\d",
    r"terrace [sl]_hall1_guest\d",
]
CHANCE = {"shuffle sorting", "draw resource_pile", "draw dress_bag"}


@pytest.mark.parametrize(
    ("players", "seed", "agents"),
    [(2, 31, "greedy"), (3, 32, "random"), (4, 33, "greedy"), (5, 34, "random")],
)
def test_played_logs_use_only_documented_texts(kit, players, seed, agents):
    played = kit.play(players, seed, agents)
    pattern = re.compile("|".join(f"(?:{p})" for p in DOCUMENTED))
    for _, event in kit.events(played.lines):
        if "choice" in event:
            assert pattern.fullmatch(event["choice"]), event
        if "chance" in event:
            assert event["chance"] in CHANCE, event
