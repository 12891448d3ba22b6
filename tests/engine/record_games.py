"""Record the digests of a fixed set of seeded random games (run by hand).

    .venv/bin/python tests/engine/record_games.py          # rewrite recorded_games.json
    .venv/bin/python tests/engine/record_games.py --check  # compare, rewrite nothing

The games are played as ``rules play RULESET --players N --seed S [--with X…] --log F``
plays them (random agents, seeded from the game's seed and the seat) and logged with
the same writer. Rewrite the JSON only when a change is *meant* to change games (a rule
fixed, an agent changed); ``test_recorded_games.py`` is the guard that says a speed-up
changed none.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter.agents import make
from interpreter.engine.game import Game
from interpreter.log import writer
from interpreter.ruleset import load_or_raise

HERE = Path(__file__).resolve().parent
RECORD = HERE / "recorded_games.json"
ROOT = HERE.parent.parent

# The header line holds the ruleset's version and the digest of its files: an edit of a
# description changes them and no game. The digest covers every line after it (the
# events and the final scores line), which hold no date, time or version.
SKIPPED_LINES = 1


@dataclass(frozen=True)
class Recorded:
    """One game of the set: what `rules play` is given."""

    ruleset: str
    players: int
    seed: int
    expansions: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        extra = "".join(f" --with {e}" for e in self.expansions)
        return f"{self.ruleset} --players {self.players} --seed {self.seed}{extra}"


def games() -> list[Recorded]:
    """The fixed set: every player count, every Deluxe expansion, the solo game."""
    out = [Recorded("rococo", n, seed) for n in (2, 3, 4, 5) for seed in (1, 2)]
    out += [Recorded("rococo", n, seed, ("deluxe",)) for n, seed in ((3, 3), (4, 4))]
    for i, extra in enumerate(("jewelry_box", "fancy", "festive", "haute_couture")):
        out += [
            Recorded("rococo", 2 + (i + k) % 4, 10 + 2 * i + k, ("deluxe", extra)) for k in (0, 1)
        ]
    out += [Recorded("rococo", 1, seed, ("deluxe", "solo")) for seed in (1, 2, 3)]
    out += [Recorded("queens-necklace", n, seed) for n in (2, 3, 4) for seed in (1, 2)]
    return out


def play(spec: Recorded) -> dict[str, Any]:
    """Play ``spec`` as `rules play` does; its digest, decisions and final scores."""
    ruleset = load_or_raise(spec.ruleset, list(spec.expansions), [])
    names = [f"P{i + 1}" for i in range(spec.players)]
    game = Game(ruleset, names, seed=spec.seed)
    seats = [game.state.players.index(name) for name in names]
    agents = {seat: make("random", seat, spec.seed) for seat in seats}
    decisions = 0
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
        decisions += 1
    lines = writer.lines(game, [])
    digest = hashlib.sha256()
    for line in lines[SKIPPED_LINES:]:
        digest.update(f"{line}\n".encode())
    return {
        "sha256": digest.hexdigest(),
        "lines": len(lines),
        "decisions": decisions,
        "scores": game.result().scores,
    }


def record() -> dict[str, Any]:
    commit = subprocess.run(
        ["git", "log", "-1", "--format=%H"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    return {
        "about": "SHA-256 of each game's log lines after the header; see record_games.py",
        "commit": commit or "unknown",
        "games": {spec.key: play(spec) for spec in games()},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare; rewrite nothing")
    args = parser.parse_args()
    fresh = record()
    if args.check:
        old = json.loads(RECORD.read_text(encoding="utf-8"))["games"]
        differ = [k for k, v in fresh["games"].items() if old.get(k) != v]
        for key in differ:
            print(f"differs: {key}")
        print(f"{len(fresh['games']) - len(differ)}/{len(fresh['games'])} games as recorded")
        return 1 if differ or set(old) != set(fresh["games"]) else 0
    RECORD.write_text(json.dumps(fresh, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(fresh['games'])} games recorded in {RECORD} at {fresh['commit'][:12]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
