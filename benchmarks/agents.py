"""Agent strength and agent CPU time: seeded games, seats alternated, 95 % intervals.

    .venv/bin/python benchmarks/agents.py A B [--ruleset rococo] [--games 200]
        [--players 2] [--first 0] [--jobs 2] [--tree DIR …]
    .venv/bin/python benchmarks/agents.py --cpu A [--ruleset rococo] [--players 4]
        [--games 10] [--rounds 2] [--tree DIR --tree DIR]

**A against B.** Game i has seed i (from ``--first``); its seats alternate between
the two agents, agent A in the seats of the seed's parity (2 players: A in seat
i % 2, so each agent moves first in half the games; 4 players: A, B, A, B or
B, A, B, A). A's *win share* of one game is the part of the win that went to A's
seats: 1, 0, or with a tie the share of the tied winners that are A's (a 2-player
tie: ½). The figure is the mean share over the games, 50 % for agents of equal
strength (with an odd player count, over an even number of games).

**A cooperative ruleset** (``scoring.result: cooperative``, Hanabi) has no seats
against each other: mixing A and B in one team makes every game a tie. There, A B is
played as teams, automatically: seed i is played twice from the same deal, once with
every seat A and once with every seat B, and A's share of the seed is 1 if A's team
scored more (the shared score), ½ if as much, 0 if less. The figure is the mean share
over the seeds (50 % for agents of equal strength), with the same Wilson interval (n =
the seeds; a tied seed counts ½, conservative as below); "mean score" is each team's
shared score and "CPU per game" the two games of a seed together.

**The interval** is Wilson's score interval (95 %) of that mean, with n = the games:
exact in its coverage argument for games won or lost outright, and *conservative*
with ties: a share in [0, 1] with mean p has a variance of at most p(1 - p), the
binomial variance Wilson assumes, so a tie (½, a variance of 0 about ½) only makes
the true interval narrower than the one printed. Wilson rather than a normal interval
on the per-game shares because the targets sit near 100 % (95 % against random), where
the normal interval is too narrow and, at 200 wins out of 200, of width zero. The
number of tied games is printed beside it. Mean scores and the CPU per game are given
with a Student-t interval of the mean (± half-width) and their standard deviation.

**CPU time** is ``time.process_time`` of the process that plays the game (both
agents and the engine), per game; "deciding" is each agent's share of it.

**Agent specs** are those of ``rules play --agents`` (``random``, ``greedy``,
``mcts``, ``mcts:N``, ``mcts:Xs``) with one more part: ``noestimate``
(``mcts:noestimate``, ``mcts:200:noestimate``), the search without the ruleset's
``scoring.estimate``. Where the interpreter's specs read that part, the agent is
theirs; where they do not, the benchmark makes the agent with ``estimate=False`` (the
class must take that keyword; the benchmark stops with a message if not). Both agents
then play the same game of the same ruleset, only one of them ignoring its estimate.

**``--cpu A``** plays ``--games`` games of ``--players`` seats all played by agent A
(seeds from ``--first``) and prints the mean CPU time per game with its interval.

**``--tree DIR``** (repeatable) runs the games with the interpreter of ``DIR`` (a
``git worktree`` or ``git archive`` of a version): a fresh process per tree and round,
with ``DIR`` first on ``PYTHONPATH``, as ``compare_trees.py`` does. The seeds are
split into ``--rounds`` rounds, and each round runs every tree in turn on the same
seeds, so a busy machine slows every tree alike; the ratio of each tree's mean CPU per
game to the first tree's is printed with an interval (the delta method on the two
means). Without ``--tree`` the games run in this process's interpreter.

Every run prints its command line, the seeds, each tree's commit (``git rev-parse
--short HEAD``, ``+`` if the tree has uncommitted changes) and the machine's load.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import multiprocessing
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

# Nothing of ``interpreter`` is imported at the top: a worker (``--worker``) runs with
# another tree first on ``PYTHONPATH`` and must import that tree's interpreter.

MAX_DECISIONS = 20_000  # a game still running after this many decisions is an error
NO_ESTIMATE = "noestimate"
HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent

_RULESET: Any = None


class BenchError(Exception):
    """A game or an agent that cannot be played: said in one line, never a traceback
    (an exception, not ``SystemExit``, so that it comes back from a pool's worker)."""


# ------------------------------------------------------------------ playing (worker)
def make_agent(spec: str, seat: int, seed: int) -> Any:
    """The agent of ``spec`` at ``seat`` in game ``seed``, seeded as ``rules play``
    seeds it. ``…:noestimate``: as the interpreter's own agent specs read it, if they
    do; else the agent made with ``estimate=False`` (see the module docstring)."""
    from interpreter.agents import make, parse

    parts = spec.split(":")
    if NO_ESTIMATE not in parts:
        return make(spec, seat, seed)
    try:
        return make(spec, seat, seed)
    except ValueError:  # specs without `noestimate`: the benchmark reads it
        pass
    kind, options = parse(":".join(p for p in parts if p != NO_ESTIMATE))
    if "estimate" not in inspect.signature(kind.__init__).parameters:
        raise BenchError(
            f"{spec}: {kind.__name__} takes no `estimate` keyword in this interpreter "
            f"({_tree_of_interpreter()}), so it cannot play without the ruleset's estimate"
        )
    return kind(seat, f"{seed}:{seat}", estimate=False, **options)  # as `make` seeds it


def _tree_of_interpreter() -> str:
    import interpreter

    return str(Path(interpreter.__file__).resolve().parent.parent)


def _init(ruleset_id: str) -> None:
    from interpreter.load.ruleset_files import resolve_ruleset
    from interpreter.ruleset import load

    global _RULESET
    folder = resolve_ruleset(ruleset_id)
    if folder is None:
        raise BenchError(f"no ruleset {ruleset_id!r}")
    _RULESET = load(folder).ruleset


def seat_agents(seed: int, players: int, agents: int) -> list[int]:
    """Each seat's agent, by its place in the command (0 = A, 1 = B; two agents of the
    same spec stay apart): with two, A in the seats of the seed's parity."""
    return [(seat + seed) % agents for seat in range(players)]


def play(task: tuple[int, int, list[str]]) -> dict[str, Any]:
    """One seed's game(s): each seat's agent (0 = A, 1 = B), win share, score and CPU
    seconds deciding, and the CPU seconds and decisions. A cooperative ruleset with two
    agents is played as teams (``play_teams``)."""
    seed, players, specs = task
    if len(specs) == 2 and _RULESET.result_mode.kind == "cooperative":
        return play_teams(task)
    seats = seat_agents(seed, players, len(specs))
    game, thinking, cpu, decisions = play_game(seed, players, [specs[a] for a in seats])
    result = game.result()
    names = game.state.players[:players]
    top = result.ranking[0]
    return {
        "seed": seed,
        "seats": seats,
        "share": [1 / len(top) if names[s] in top else 0.0 for s in range(players)],
        "scores": [result.scores[names[s]] for s in range(players)],
        "thinking": thinking,
        "cpu": cpu,
        "decisions": decisions,
    }


def play_teams(task: tuple[int, int, list[str]]) -> dict[str, Any]:
    """Seed ``seed`` played twice, from the same deal: every seat A, then every seat B.
    A's share is 1 if A's team scored more (the shared score, by the ruleset's result
    mode), ½ if as much, else 0; the record has one "seat" per team (0 = A, 1 = B)."""
    seed, players, specs = task
    scores, thinking, cpu, decisions = [], [], 0.0, 0
    for spec in specs:
        game, thought, spent, made = play_game(seed, players, [spec] * players)
        result = game.result()
        names = game.state.players[:players]
        merits = _RULESET.result_mode.merits([result.scores[n] for n in names])
        scores.append(merits[0])  # the team's shared score
        thinking.append(sum(thought))
        cpu += spent
        decisions += made
    a = 1.0 if scores[0] > scores[1] else 0.5 if scores[0] == scores[1] else 0.0
    return {
        "seed": seed,
        "teams": True,
        "seats": [0, 1],
        "share": [a, 1.0 - a],
        "scores": scores,
        "thinking": thinking,
        "cpu": cpu,
        "decisions": decisions,
    }


def play_game(seed: int, players: int, specs: list[str]) -> tuple[Any, list[float], float, int]:
    """Seed ``seed`` played to its end by the agents of ``specs`` (one per seat): the
    game, each seat's CPU seconds deciding, the game's CPU seconds and decisions."""
    from interpreter.engine.game import Game

    start = time.process_time()
    game = Game(_RULESET, [f"P{s + 1}" for s in range(players)], seed=seed)
    agents = [make_agent(spec, seat, seed) for seat, spec in enumerate(specs)]
    thinking = [0.0] * players
    decisions = 0
    while not game.is_over():
        if decisions >= MAX_DECISIONS:
            raise BenchError(f"seed {seed}: not over after {MAX_DECISIONS} decisions")
        decision = game.pending()[0]
        before = time.process_time()
        option = agents[decision.player].choose(game, decision)
        thinking[decision.player] += time.process_time() - before
        game.apply(decision.player, option)
        decisions += 1
    return game, thinking, time.process_time() - start, decisions


def play_all(ruleset: str, players: int, specs: list[str], seeds: list[int], jobs: int):
    """The games of ``seeds``, in this process's interpreter, in seed order."""
    tasks = [(seed, players, specs) for seed in seeds]
    if jobs > 1 and len(tasks) > 1:
        with multiprocessing.Pool(min(jobs, len(tasks)), _init, (ruleset,)) as pool:
            return sorted(pool.imap_unordered(play, tasks), key=lambda g: g["seed"])
    _init(ruleset)
    return [play(task) for task in tasks]


def worker(job: str) -> None:
    """``--worker JSON``: play the games a parent asked for, one JSON line each."""
    asked = json.loads(job)
    for spec in asked["specs"]:  # a bad spec is refused before any game is played
        make_agent(spec, 0, 0)
    games = play_all(
        asked["ruleset"], asked["players"], asked["specs"], asked["seeds"], asked["jobs"]
    )
    print(json.dumps({"interpreter": _tree_of_interpreter()}))
    for game in games:
        print(json.dumps(game))


def play_in_tree(tree: Path, ruleset: str, players: int, specs, seeds, jobs: int):
    """The games of ``seeds`` played by a fresh process with ``tree``'s interpreter."""
    job = json.dumps(
        {"ruleset": ruleset, "players": players, "specs": specs, "seeds": seeds, "jobs": jobs}
    )
    done = subprocess.run(
        [sys.executable, str(HERE), "--worker", job],
        env={**os.environ, "PYTHONPATH": str(tree)},
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise BenchError(f"{tree}: the games failed:\n{(done.stderr or done.stdout)[-2000:]}")
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    used = Path(lines[0]["interpreter"])
    if used != tree:
        raise BenchError(f"{tree}: its games imported the interpreter of {used}")
    return lines[1:]


# ------------------------------------------------------------------ statistics
def t95(df: int) -> float:
    """Student's t quantile of a two-sided 95 % interval (bisection on its p-value)."""
    from interpreter.simulate.stats import Z95, student_p

    if df <= 0:
        return math.inf
    if df > 1000:
        return Z95
    low, high = Z95, 20.0 if df > 1 else 13.0
    for _ in range(60):  # halves a width of < 20: far below a printed digit
        middle = (low + high) / 2
        if student_p(middle, df) > 0.05:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """(mean, half-width of its 95 % Student-t interval, standard deviation)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf, 0.0
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, t95(n - 1) * sd / math.sqrt(n), sd


def win_share(games: list[dict], agent: int) -> dict[str, float]:
    """The win share of ``agent``'s seats (mean over games), its Wilson interval and
    the games whose win was shared between both agents' seats."""
    from interpreter.simulate.stats import wilson

    shares = [sum(g["share"][s] for s, x in enumerate(g["seats"]) if x == agent) for g in games]
    n = len(shares)
    low, high = wilson(sum(shares), n)  # Wilson with a fractional count: see the docstring
    return {
        "share": sum(shares) / n,
        "low": low,
        "high": high,
        "ties": sum(1 for x in shares if 0 < x < 1),
    }


def seat_values(games: list[dict], agent: int, key: str) -> list[float]:
    """``key`` (scores, thinking) of every seat ``agent`` played, over the games."""
    return [g[key][s] for g in games for s, x in enumerate(g["seats"]) if x == agent]


# ------------------------------------------------------------------ reporting
def commit_of(tree: Path) -> str:
    """``git rev-parse --short HEAD`` of ``tree`` (``+`` if it has uncommitted
    changes), or what it is when not a git checkout."""
    try:
        head = subprocess.run(
            ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        )
        if head.returncode != 0:
            return "not a git checkout"
        dirty = subprocess.run(
            ["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=False,
        )
        return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")
    except OSError:
        return "git not available"


def header(args: argparse.Namespace, trees: list[Path | None]) -> list[str]:
    seeds = f"{args.first}-{args.first + args.games - 1}"
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [
        "command: " + shlex.join([Path(sys.executable).name, *sys.argv]),
        f"{args.ruleset}, {args.players} players, {args.games} games, seeds {seeds}, "
        f"{args.jobs} jobs, {args.rounds} rounds; load average {load}",
    ]
    for tree in trees:
        where = tree or Path(_tree_of_interpreter())  # the interpreter this process imported
        label = where if tree else f"this process ({where})"
        lines.append(f"tree {label}: commit {commit_of(where)}")
    return lines


def cpu_line(games: list[dict]) -> str:
    mean, half, sd = mean_interval([g["cpu"] for g in games])
    worst = max(g["cpu"] for g in games)
    moves = sum(g["decisions"] for g in games) / len(games)
    return (
        f"CPU per game {mean:.3f} ± {half:.3f} s (sd {sd:.3f}, max {worst:.3f}), "
        f"{moves:.0f} decisions a game"
    )


def versus_lines(games: list[dict], specs: list[str]) -> list[str]:
    lines, width = [], max(len(spec) for spec in specs)
    if games[0].get("teams"):
        lines.append(
            "  cooperative: each seed played by a team of all A, then of all B, from the "
            "same deal; scores are the shared scores, CPU is both games of a seed"
        )
    for agent, spec in enumerate(specs):
        won = win_share(games, agent)
        score, half, sd = mean_interval(seat_values(games, agent, "scores"))
        thought = sum(seat_values(games, agent, "thinking")) / len(games)
        lines.append(
            f"  {'AB'[agent]} {spec:>{width}}: win share {100 * won['share']:5.1f} % "
            f"[{100 * won['low']:.1f}, {100 * won['high']:.1f}] "
            f"({won['ties']} tied games), mean score {score:.1f} ± {half:.1f} (sd {sd:.1f}), "
            f"{thought:.2f} s/game deciding"
        )
    return [*lines, "  " + cpu_line(games)]


def ratio_line(base: list[dict], other: list[dict]) -> str:
    """The ratio of two trees' mean CPU per game, with a 95 % interval (delta method)."""
    m0, h0, _ = mean_interval([g["cpu"] for g in base])
    m1, h1, _ = mean_interval([g["cpu"] for g in other])
    ratio = m1 / m0
    half = ratio * math.hypot(h0 / m0, h1 / m1)
    return f"  CPU per game ÷ the first tree's: {ratio:.3f} ± {half:.3f}"


def run(args: argparse.Namespace) -> list[str]:
    """Play every game the arguments ask for and return the report's lines."""
    specs = [args.cpu] if args.cpu else [args.a, args.b]
    seeds = list(range(args.first, args.first + args.games))
    trees: list[Path | None] = [t.resolve() for t in args.tree] or [None]
    if not args.tree:  # a bad spec is refused before any game is played
        for spec in specs:
            make_agent(spec, 0, 0)
    # the commits as the games start: a tree edited while they run would be misnamed
    lines = header(args, trees)
    rounds = [seeds[k :: args.rounds] for k in range(args.rounds)]
    played: list[list[dict]] = [[] for _ in trees]
    by_round: list[list[float]] = [[] for _ in trees]  # each round's mean CPU per game
    for chunk in rounds:
        for index, tree in enumerate(trees):
            if tree is None:
                games = play_all(args.ruleset, args.players, specs, chunk, args.jobs)
            else:
                games = play_in_tree(tree, args.ruleset, args.players, specs, chunk, args.jobs)
            played[index] += games
            by_round[index].append(sum(g["cpu"] for g in games) / len(games))
    for index, tree in enumerate(trees):
        games = sorted(played[index], key=lambda g: g["seed"])
        if len(trees) > 1:
            lines.append(f"{tree}:")
        lines += versus_lines(games, specs) if not args.cpu else ["  " + cpu_line(games)]
        if len(rounds) > 1:
            lines.append(
                "  CPU per game by round: " + ", ".join(f"{x:.3f}" for x in by_round[index])
            )
        if index:
            lines.append(ratio_line(played[0], played[index]))
    return lines


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", nargs="?", help="agent A (random, greedy, mcts, mcts:N, mcts:Xs)")
    parser.add_argument("b", nargs="?", help="agent B (…:noestimate: without the estimate)")
    parser.add_argument("--cpu", metavar="A", help="CPU time of games of agent A alone")
    parser.add_argument("--ruleset", default="rococo")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="seed of the first game")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1, help="rounds the seeds are split in")
    parser.add_argument("--tree", type=Path, action="append", default=[])
    args = parser.parse_args(argv)
    if args.cpu and (args.a or args.b):
        parser.error("--cpu A takes one agent, not A B")
    if not args.cpu and not (args.a and args.b):
        parser.error("give two agents A B, or --cpu A")
    if args.games < 1 or args.players < 1 or args.jobs < 1:
        parser.error("--games, --players and --jobs must be at least 1")
    args.rounds = max(1, min(args.rounds, args.games))
    for tree in args.tree:
        if not (tree / "interpreter" / "__init__.py").is_file():
            parser.error(f"--tree {tree}: no interpreter/ package there")
    return args


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv[:1] == ["--worker"]:
            worker(argv[1])
            return
        args = arguments(argv)
        for line in run(args):
            print(line)
    except (BenchError, ValueError) as exc:  # ValueError: a bad agent spec (``parse``)
        raise SystemExit(f"error: {exc}") from None


if __name__ == "__main__":
    main()
