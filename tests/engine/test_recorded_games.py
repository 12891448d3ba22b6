"""Speed-ups change no game: a fixed set of seeded games still gives the logs recorded
before them (issue 13).

``recorded_games.json`` holds, for 27 random-agent games (Rococo 2–5 players, with
Deluxe and each Deluxe expansion, the solo game; Queen's Necklace 2–4 players), the
SHA-256 of the log lines `rules play --log` writes after the header (the header holds
the ruleset's version and file digest, which an edit of a description changes), the
number of lines and decisions, and the final scores; and the commit they were recorded
at. A change *meant* to change games (a rule fixed, an agent changed) records them
again, by hand, and says so in its commit:

    .venv/bin/python tests/engine/record_games.py          # rewrite the JSON
    .venv/bin/python tests/engine/record_games.py --check  # list the games that differ
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.play import play as play_command

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for `record_games`

from record_games import RECORD, SKIPPED_LINES, Recorded, games, play

RECORDED: dict = json.loads(RECORD.read_text(encoding="utf-8"))["games"]


def test_the_record_covers_the_fixed_set() -> None:
    keys = [spec.key for spec in games()]
    assert sorted(RECORDED) == sorted(keys)
    assert len(keys) == 27
    assert {spec.ruleset for spec in games()} == {"rococo", "queens-necklace"}
    extras = {e for spec in games() for e in spec.expansions}
    assert extras == {"deluxe", "jewelry_box", "fancy", "festive", "haute_couture", "solo"}


@pytest.mark.parametrize("spec", games(), ids=lambda spec: spec.key)
def test_game_as_recorded(spec: Recorded) -> None:
    assert play(spec) == RECORDED[spec.key], (
        f"{spec.key}: the game changed; if that is meant, record again: "
        "python tests/engine/record_games.py"
    )


def test_the_digest_is_of_the_log_rules_play_writes(tmp_path: Path) -> None:
    """The recorder plays as the command does: the command's own log has the digest."""
    spec = Recorded("rococo", 1, 2, ("deluxe", "solo"))
    log = tmp_path / "game.log"
    arguments = [spec.ruleset, "--players", str(spec.players), "--seed", str(spec.seed)]
    for extra in spec.expansions:
        arguments += ["--with", extra]
    result = CliRunner().invoke(play_command, [*arguments, "--log", str(log)])
    assert result.exit_code == 0, result.output
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    digest = hashlib.sha256("".join(lines[SKIPPED_LINES:]).encode()).hexdigest()
    assert digest == RECORDED[spec.key]["sha256"]
    assert len(lines) == RECORDED[spec.key]["lines"]
