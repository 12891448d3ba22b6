"""Play many random games of a ruleset across its player counts; report errors and speed.

    .venv/bin/python benchmarks/simulate.py queens-necklace [--games 2000]
        [--players 2,3,4] [--seed 0] [--max-decisions 20000] [--jobs 1]
        [--with EXPANSION ...] [--all-combinations] [--replay-sample K]

With ``--with`` the games use those expansions; with ``--all-combinations`` every
combination of the ruleset's expansions that their requirements allow gets
``--games`` games of its own. ``--replay-sample K`` writes the logs of K games per
combination and replays them (a replay that is not legal is an error).

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
import io
import sys
import tempfile
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.agents import RandomAgent
from interpreter.engine.game import Game
from interpreter.load.ruleset_files import allowed_combinations
from interpreter.log import writer
from interpreter.log.replay import replay
from interpreter.ruleset import load_or_raise, resolve_ruleset

_RULESETS: dict[tuple, object] = {}


def _ruleset(name: str, expansions: tuple[str, ...] = ()):
    if (name, expansions) not in _RULESETS:
        _RULESETS[name, expansions] = load_or_raise(name, list(expansions))
    return _RULESETS[name, expansions]


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


def play_one(
    name: str,
    players: int,
    seed: int,
    max_decisions: int,
    expansions: tuple[str, ...] = (),
    check_replay: bool = False,
) -> dict:
    """One random game; a dict with its outcome (never raises)."""
    start = time.perf_counter()
    decisions = 0
    try:
        ruleset = _ruleset(name, expansions)
        game = Game(ruleset, [f"P{i + 1}" for i in range(players)], seed=seed)
        seats = range(len(game.state.players))  # the rules-driven seats are never asked
        agents = {i: RandomAgent(i, f"{seed}:{i}") for i in seats}
        while not game.is_over():
            if decisions >= max_decisions:
                raise RuntimeError(f"not over after {max_decisions} decisions")
            decision = game.pending()[0]
            game.apply(decision.player, agents[decision.player].choose(game, decision))
            decisions += 1
        problem = check_end(game)
        if problem is None and check_replay:
            problem = _replay_problem(game)
        error = None if problem is None else f"end state: {problem}"
    except Exception as exc:  # every failure is reported, none stops the run
        error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
    return {
        "players": players,
        "seed": seed,
        "decisions": decisions,
        "combo": expansions,
        "error": error,
        "seconds": time.perf_counter() - start,
    }


def _replay_problem(game: Game) -> str | None:
    """Write the game's log and replay it; a message unless the replay is legal."""
    log = io.StringIO()
    writer.write(game, log)
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as stream:
        stream.write(log.getvalue())
    verdict = replay(Path(stream.name), strict=True)
    Path(stream.name).unlink()
    if verdict.kind != "legal":
        return f"replay: {verdict.kind}: {verdict.message}"
    return None


def _play_batch(args: tuple) -> list[dict]:
    name, games, max_decisions = args
    return [_play(name, game, max_decisions) for game in games]


def _play(name: str, game: tuple, max_decisions: int) -> dict:
    players, seed, expansions, check_replay = game
    return play_one(name, players, seed, max_decisions, expansions, check_replay)


def _run(args, games: list[tuple]) -> list[dict]:
    if args.jobs > 1:
        chunks = [games[j :: args.jobs] for j in range(args.jobs)]
        with ProcessPoolExecutor(args.jobs) as pool:
            batches = pool.map(_play_batch, [(args.ruleset, c, args.max_decisions) for c in chunks])
            return [r for batch in batches for r in batch]
    return [_play(args.ruleset, game, args.max_decisions) for game in games]


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
    parser.add_argument("--with", dest="expansions", action="append", default=[])
    parser.add_argument("--all-combinations", action="store_true")
    parser.add_argument("--replay-sample", type=int, default=0, metavar="K")
    args = parser.parse_args(argv)

    if args.all_combinations:
        folder = resolve_ruleset(args.ruleset)
        offered = _ruleset(args.ruleset).offered_expansions
        combos = allowed_combinations(folder, offered)
    else:
        combos = [tuple(args.expansions)]
    games = []
    for combo in combos:
        ruleset = _ruleset(args.ruleset, combo)
        if args.players:
            counts = [int(p) for p in args.players.split(",")]
        else:
            counts = list(range(max(ruleset.min_players, 1), ruleset.max_players + 1))
        games += [
            (counts[i % len(counts)], args.seed + i, combo, i < args.replay_sample)
            for i in range(args.games)
        ]

    start = time.perf_counter()
    results = _run(args, games)
    elapsed = time.perf_counter() - start
    counts = sorted({r["players"] for r in results})
    errors = [r for r in results if r["error"]]
    print(
        f"{args.ruleset}: {len(results)} games in {elapsed:.1f} s "
        f"({len(results) / elapsed:.1f} games/s"
        f"{f' with {args.jobs} processes' if args.jobs > 1 else ''}), "
        f"{len(errors)} error(s)"
    )
    for combo in combos if len(combos) > 1 else []:
        mine = [r for r in results if r["combo"] == combo]
        failed = sum(1 for r in mine if r["error"])
        print(f"  with {'+'.join(combo) or 'no expansion'}: {len(mine)} games, {failed} error(s)")
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
                f"\n--- {'+'.join(r['combo']) or 'no expansion'}, "
                f"{r['players']} players, seed {r['seed']} "
                f"(after {r['decisions']} decisions)\n{r['error']}"
            )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
