"""Interruption cases (issue 44): a game of a fuzzed ruleset (``fuzzer.make_case``),
logged by ``rules play --log``, is cut at seeded byte offsets (inside lines too, as a
killed writer may leave it) and taken up with ``rules play --resume``: the resumed
log is the whole log, byte for byte, and the exit code the whole game's, however the
game ended (played to its end, a located rule error, an illegal move).

Derandomized: case ``k`` is ``fuzzer.make_case("cut:k")``, its cuts drawn from
``random.Random("cut:k")``. Cases that stop before their first decision (refused
rulesets, rules failing in the setup) or reach the fuzzer's cap of decisions are
left out: they have no game to go on with, or too long a one. (A real process
killed at random points: ``tests/cli/test_play_kill.py``.)"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzzer

from interpreter.cli.main import cli

CASES = 80  # a quarter of them play a game with decisions: ~4 s in all
CUTS = 3  # cut points a case


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    fuzzer.reuse_parses()
    yield tmp_path_factory.mktemp("interrupted") / "case"
    fuzzer.restore()


def rules(*args: str | Path):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


def test_interrupted_games_resume_to_the_whole_game(folder: Path) -> None:
    failures = []
    tried = 0
    for k in range(CASES):
        case = fuzzer.make_case(f"cut:{k}")
        outcome = fuzzer.run(case, folder)  # writes the case's files into ``folder``
        if outcome.kind not in ("played", "rule error", "illegal move") or not outcome.decisions:
            continue
        whole = folder.parent / "whole.jsonl"
        game = ["--players", str(case.players), "--seed", str(case.seed), "--agents", "random"]
        first = rules("play", folder, *game, "--log", whole)
        data = whole.read_bytes()
        start = data.find(b'"choice"')  # after the setup: a game to go on with
        if start < 0:
            continue
        tried += 1
        rng = random.Random(f"cut:{k}")
        for _ in range(CUTS):
            end = rng.randrange(start, len(data))
            cut = folder.parent / "cut.jsonl"
            cut.write_bytes(data[:end])
            again = rules("play", folder, "--resume", cut)
            # every event kept (the last one's newline may be cut): the game was over
            if first.exit_code == 0 and end >= data.rindex(b"\n", 0, len(data) - 1):
                assert again.exit_code == 1 and "nothing to resume" in again.stderr
                continue
            if again.exit_code != first.exit_code or cut.read_bytes() != data:
                failures.append(
                    f"case cut:{k} cut at byte {end} of {len(data)}: exit {again.exit_code} "
                    f"(whole game: {first.exit_code})\n{again.output[-600:]}\n"
                    f"{case.reproduction()}"
                )
    assert tried >= CASES // 8, tried  # enough games with decisions were interrupted
    assert not failures, "\n\n".join(failures)
