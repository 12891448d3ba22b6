"""Play many random games of a ruleset across its player counts; report errors and speed.

    .venv/bin/python benchmarks/simulate.py queens-necklace [--games 2000]
        [--players 2,3,4] [--seed 0] [--max-decisions 20000] [--jobs 1]

Game ``i`` is played with seed ``seed + i`` by ``players[i % len(players)]`` random
agents (each seat seeded from the game's seed), so every failure is reproducible:
the report gives its player count and seed (``rules play RULESET --players P --seed S``).
An error is any exception while playing, a game that takes more than
``--max-decisions`` decisions, or a finished game whose end state breaks a generic
rule (a component in two zones or in none, scores different from the sum of their
breakdown). Exit code 1 if any game erred, 0 otherwise.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.agents import RandomAgent
from interpreter.engine.game import Game
from interpreter.ruleset import load_or_raise

_RULESETS: dict[str, object] = {}


def _ruleset(name: str):
    if name not in _RULESETS:
        _RULESETS[name] = load_or_raise(name)
    return _RULESETS[name]


def check_end(game: Game) -> str | None:
    """Generic checks on a finished game; a message, or None when all hold."""
    state = game.state
    seen: dict[str, str] = {}
    for zone, items in state.zones.items():
        for piece in items:
            if piece in seen:
                return f"{piece} is in {zone} and in {seen[piece]}"
            seen[piece] = zone
    missing = set(game.ruleset.pieces) - set(seen)
    if missing:
        return f"components in no zone: {', '.join(sorted(missing)[:5])}"
    result = game.result()
    for name, parts in result.breakdown.items():
        if parts and sum(parts.values()) != result.scores[name]:
            return f"{name}: score {result.scores[name]} is not the sum of {parts}"
    return None


def play_one(name: str, players: int, seed: int, max_decisions: int) -> dict:
    """One random game; a dict with its outcome (never raises)."""
    start = time.perf_counter()
    decisions = 0
    try:
        game = Game(_ruleset(name), [f"P{i + 1}" for i in range(players)], seed=seed)
        agents = [RandomAgent(i, f"{seed}:{i}") for i in range(players)]
        while not game.is_over():
            if decisions >= max_decisions:
                raise RuntimeError(f"not over after {max_decisions} decisions")
            decision = game.pending()[0]
            game.apply(decision.player, agents[decision.player].choose(game, decision))
            decisions += 1
        problem = check_end(game)
        error = None if problem is None else f"end state: {problem}"
    except Exception as exc:  # every failure is reported, none stops the run
        error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
    return {
        "players": players,
        "seed": seed,
        "decisions": decisions,
        "error": error,
        "seconds": time.perf_counter() - start,
    }


def _play_batch(args: tuple[str, list[tuple[int, int]], int]) -> list[dict]:
    name, games, max_decisions = args
    return [play_one(name, players, seed, max_decisions) for players, seed in games]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", help="a ruleset id in rulesets/ or a folder")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument(
        "--players",
        default=None,
        help="player counts, comma-separated (default: every count allowed)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--max-decisions", type=int, default=20000)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--show", type=int, default=5, help="errors to print in full")
    args = parser.parse_args(argv)

    ruleset = _ruleset(args.ruleset)
    if args.players:
        counts = [int(p) for p in args.players.split(",")]
    else:
        counts = list(range(max(ruleset.min_players, 1), ruleset.max_players + 1))
    games = [(counts[i % len(counts)], args.seed + i) for i in range(args.games)]

    start = time.perf_counter()
    if args.jobs > 1:
        chunks = [games[j :: args.jobs] for j in range(args.jobs)]
        with ProcessPoolExecutor(args.jobs) as pool:
            results = [
                r
                for batch in pool.map(
                    _play_batch, [(args.ruleset, c, args.max_decisions) for c in chunks]
                )
                for r in batch
            ]
    else:
        results = [play_one(args.ruleset, p, s, args.max_decisions) for p, s in games]
    elapsed = time.perf_counter() - start

    errors = [r for r in results if r["error"]]
    print(
        f"{args.ruleset}: {len(results)} games in {elapsed:.1f} s "
        f"({len(results) / elapsed:.1f} games/s"
        f"{f' with {args.jobs} processes' if args.jobs > 1 else ''}), "
        f"{len(errors)} error(s)"
    )
    for players in counts:
        mine = [r for r in results if r["players"] == players]
        if not mine:
            continue
        seconds = sum(r["seconds"] for r in mine)
        decisions = sum(r["decisions"] for r in mine)
        failed = sum(1 for r in mine if r["error"])
        print(
            f"  {players} players: {len(mine):5d} games, {len(mine) / seconds:7.1f} games/s "
            f"(one process), {decisions / len(mine):6.0f} decisions/game, "
            f"{decisions / seconds:8.0f} decisions/s, {failed} error(s)"
        )
    if errors:
        kinds = Counter(r["error"].splitlines()[0] for r in errors)
        print("errors by message:")
        for message, count in kinds.most_common():
            print(f"  {count:5d} x {message}")
        for r in errors[: args.show]:
            print(
                f"\n--- {r['players']} players, seed {r['seed']} "
                f"(after {r['decisions']} decisions)\n{r['error']}"
            )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
