"""The yardstick of issue 13: how far the compiled rules are from plain Python.

    .venv/bin/python benchmarks/yardstick.py [--games 6] [--every 3] [--seconds 0.2]
        [--rounds 9] [--rococo-games 20] [--chess-games 200] [--slices 4]

In one process, on this machine:

1. Plays seeded 4-player Rococo random games and, at every ``--every``-th evaluation
   of the 4 hottest requirement checks (`sew`, `fund`, `acquire`, `fund_space`: the
   profile of ``bench_games.py --profile``), keeps a copy of the state, the acting
   seat and the arguments; at the `halls` scoring step, a copy of the state.
2. Asserts that every hand-written twin (``twins.py``) gives the compiled check's
   answer on every recorded position (which requirement fails first, if any), and the
   compiled scoring step's counters; a twin that disagrees is a bug in the twin, and
   the script stops with exit 1.
3. Times the compiled check (``tables.checks[action](ctx, a, b, …)``, the action's
   `requires` with its arguments in order, written out: what `can action(…)` calls;
   until the seventeenth sitting of issue 13 they were unpacked from a tuple,
   ``check(ctx, *args)``, which cost ~0.1 µs a call more) and its twin
   over all positions,
   alternately, ``--rounds`` times, each for about ``--seconds`` of CPU time; reports
   the best (least) µs per call of each and their ratio: on a shared machine the
   others' load only ever adds time, so the least is the steadiest figure.
4. Plays 4-player Rococo random games and python-chess random playouts (a random
   legal move until the game is over or 200 plies), alternately in ``--slices``
   slices so both see the same load, and reports decisions per CPU second of each
   and their ratio.

Every time is CPU time of this process (``time.process_time``): the machine is shared
with long runs, and wall time would measure them. python-chess is the optional
``bench`` extra: ``.venv/bin/pip install -e '.[bench]'`` (or ``pip install chess``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for `twins`

import twins

from interpreter.agents import RandomAgent
from interpreter.engine.course import Course
from interpreter.engine.executor import run_effect
from interpreter.engine.game import Game
from interpreter.language.codegen import check_name
from interpreter.language.runtime import Context
from interpreter.language.values import Player
from interpreter.ruleset import load_or_raise
from interpreter.ruleset import tables as tables_module
from interpreter.ruleset.tables import Tables

PLAYERS = 4
BUDGET = 10**15  # the step budget of a timed context: never the limit here


@dataclass
class Position:
    """One recorded evaluation: the state as it was, who acted, the arguments."""

    state: Any
    me: int | None
    args: dict[str, Any]


@dataclass
class Row:
    name: str
    calls: int
    compiled_us: float
    twin_us: float

    @property
    def ratio(self) -> float:
        return self.compiled_us / self.twin_us


def play(ruleset: Any, seed: int) -> tuple[Game, int]:
    """A 4-player random game, as ``bench_games.py`` plays it; the game, its decisions."""
    game = Game(ruleset, [f"P{i}" for i in range(PLAYERS)], seed=seed)
    agents = [RandomAgent(i, f"{seed}:{i}") for i in range(PLAYERS)]
    decisions = 0
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
        decisions += 1
    return game, decisions


def record(ruleset: Any, games: int, every: int) -> tuple[Tables, dict[str, list[Position]]]:
    """Positions of the checks and the scoring steps of ``twins``, from real games."""
    positions: dict[str, list[Position]] = {n: [] for n in (*twins.CHECKS, *twins.SCORING)}
    seen = dict.fromkeys(twins.CHECKS, 0)
    stepping = Course._scoring_step

    def keep(ctx, action, args) -> None:
        if action in seen:
            seen[action] += 1
            if seen[action] % every == 0:
                me = None if ctx.me is None else int(ctx.me)
                positions[action].append(Position(ctx.state.copy(), me, dict(args)))

    def spied(action, params, check):
        def spy(ctx, *args):
            keep(ctx, action, dict(zip(params, args, strict=True)))
            return check(ctx, *args)

        return spy

    def spy_step(self):
        index = self.state.engine["step"]
        steps = self.ruleset.scoring
        if index < len(steps) and steps[index].id in positions:
            positions[steps[index].id].append(Position(self.state.copy(), None, {}))
        return stepping(self)

    # Every evaluation of a check, once: `can a(…)` of an action named in the text
    # calls the check by its global name in the generated code; `do`, and `can` of an
    # action held in a local (``tables.checks``), call the action's ``checker``.
    namespace = next(a.checker for a in ruleset.actions.values() if a.checker).__globals__
    named = {check_name(a): namespace[check_name(a)] for a in seen if check_name(a) in namespace}
    checkers = {a: ruleset.actions[a].checker for a in seen}
    for action in seen:
        definition = ruleset.actions[action]
        params = tuple(definition.params)
        if check_name(action) in named:
            namespace[check_name(action)] = spied(action, params, named[check_name(action)])
        object.__setattr__(definition, "checker", spied(action, params, checkers[action]))
    Course._scoring_step = spy_step
    try:
        tables = None
        for seed in range(games):
            game, _ = play(ruleset, seed)
            tables = game.tables
    finally:
        namespace.update(named)
        for action, checker in checkers.items():
            object.__setattr__(ruleset.actions[action], "checker", checker)
        Course._scoring_step = stepping
    assert tables is not None
    tables.checks = tables_module._Checks(tables, tables.actions)  # without the spies
    return tables, positions


def context(tables: Tables, position: Position, state: Any = None) -> Context:
    me = None if position.me is None else Player(position.me)
    return Context(state or position.state, tables, me, {}, None, [BUDGET])


def requirement_index(tables: Tables, action: str, message: str | None) -> int | None:
    """Which requirement a compiled check's message (``explain=False``) names."""
    if message is None:
        return None
    return [r.message for r in tables.ruleset.actions[action].requires].index(message)


def run_step(effect: Any, ctx: Context) -> None:
    for step in run_effect(effect, ctx):
        raise AssertionError(f"the scoring step asked a decision: {step!r}")


def agree(tables: Tables, board: twins.Board, positions: dict[str, list[Position]]) -> list[str]:
    """Every disagreement of a twin with the compiled rules (none, or a twin's bug)."""
    problems = []
    for action, twin in twins.CHECKS.items():
        for i, pos in enumerate(positions[action]):
            message = tables.failed_requirement(context(tables, pos), action, pos.args, False)
            want = requirement_index(tables, action, message)
            got = twin(board, pos.state, pos.me, pos.args)
            if got != want:
                problems.append(
                    f"{action} #{i} {pos.args} seat {pos.me}: compiled {want}, twin {got}"
                )
    steps = {s.id: s for s in tables.ruleset.scoring}
    for name, twin in twins.SCORING.items():
        for i, pos in enumerate(positions[name]):
            compiled, plain = pos.state.copy(), pos.state.copy()
            run_step(steps[name].effect, context(tables, pos, compiled))
            twin(board, plain)
            if compiled.counters != plain.counters:
                problems.append(f"{name} #{i}: compiled {compiled.counters}, twin {plain.counters}")
    return problems


def per_call(batch: Callable[[], None], calls: int, seconds: float) -> float:
    """µs of CPU per call: the batch repeated for about ``seconds`` of CPU time."""
    repeats, used = 0, 0.0
    start = time.process_time()
    while used < seconds:
        batch()
        repeats += 1
        used = time.process_time() - start
    return used / (repeats * calls) * 1e6


def batches(
    tables: Tables, board: twins.Board, positions: dict[str, list[Position]]
) -> dict[str, tuple[int, Callable[[], None], Callable[[], None]]]:
    """For each check and step: (calls, compiled batch, twin batch) over its positions."""
    out = {}
    for action, twin in twins.CHECKS.items():
        definition = tables.actions[action]
        check = tables.checks[action]
        items = [
            (
                context(tables, p),
                p.state,
                p.me,
                p.args,
                tuple({**definition.defaults, **p.args}[name] for name in definition.params),
            )
            for p in positions[action]
        ]

        def plain(items=items, twin=twin) -> None:
            for _, state, me, args, _ in items:
                twin(board, state, me, args)

        calls = [(ctx, args) for ctx, _, _, _, args in items]
        out[action] = (len(items), called_as_can_calls(check, calls), plain)
    steps = {s.id: s for s in tables.ruleset.scoring}
    for name, twin in twins.SCORING.items():
        states = [p.state for p in positions[name]]
        effect = steps[name].effect

        def compiled_step(states=states, effect=effect) -> None:
            for state in states:
                run_step(effect, Context(state.copy(), tables, None, {}, None, [BUDGET]))

        def plain_step(states=states, twin=twin) -> None:
            for state in states:
                twin(board, state.copy())

        out[f"scoring: {name}"] = (len(states), compiled_step, plain_step)
    return out


def called_as_can_calls(check: Callable, calls: list[tuple[Any, tuple]]) -> Callable[[], None]:
    """A batch of ``check(ctx, a, b, …)`` over ``calls``, the arguments written out as
    generated code's `can action(…)` passes them (``_req_fund_space_(ctx, v_s,
    v_discount)``): unpacked from a tuple (``check(ctx, *args)``) each call would cost
    ~0.1 µs more, the yardstick's and not the compiled code's. Up to five arguments
    (the hottest checks take two to five); more are unpacked."""
    arity = len(calls[0][1]) if calls else 0

    def one() -> None:
        for ctx, (a,) in calls:
            check(ctx, a)

    def two() -> None:
        for ctx, (a, b) in calls:
            check(ctx, a, b)

    def three() -> None:
        for ctx, (a, b, c) in calls:
            check(ctx, a, b, c)

    def four() -> None:
        for ctx, (a, b, c, d) in calls:
            check(ctx, a, b, c, d)

    def five() -> None:
        for ctx, (a, b, c, d, e) in calls:
            check(ctx, a, b, c, d, e)

    def any_number() -> None:
        for ctx, args in calls:
            check(ctx, *args)

    return {1: one, 2: two, 3: three, 4: four, 5: five}.get(arity, any_number)


def measure(work: dict, rounds: int, seconds: float) -> list[Row]:
    rows = []
    for name, (calls, compiled, plain) in work.items():
        if not calls:
            continue
        pairs = [
            (per_call(compiled, calls, seconds), per_call(plain, calls, seconds))
            for _ in range(rounds)
        ]
        rows.append(
            Row(
                name,
                calls,
                min(c for c, _ in pairs),
                min(t for _, t in pairs),
            )
        )
    return rows


def rococo_playouts(ruleset: Any, seeds: range) -> tuple[float, int]:
    """CPU seconds and decisions of 4-player random Rococo games."""
    start, decisions = time.process_time(), 0
    for seed in seeds:
        decisions += play(ruleset, seed)[1]
    return time.process_time() - start, decisions


def chess_playouts(rng: random.Random, games: int) -> tuple[float, int]:
    """CPU seconds and decisions of python-chess random playouts (up to 200 plies)."""
    import chess

    start, decisions = time.process_time(), 0
    for _ in range(games):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 200:
            board.push(rng.choice(list(board.legal_moves)))
            decisions += 1
    return time.process_time() - start, decisions


def playout_rates(ruleset: Any, rococo_games: int, chess_games: int, slices: int) -> tuple:
    """Decisions/s and decisions of Rococo (seeds 1000…) and of chess, played in
    alternate slices: both see the same load of the machine."""
    rng = random.Random(13)
    rococo_time = chess_time = 0.0
    rococo_decisions = chess_decisions = 0
    for k in range(slices):
        first, last = rococo_games * k // slices, rococo_games * (k + 1) // slices
        seconds, decisions = rococo_playouts(ruleset, range(1000 + first, 1000 + last))
        rococo_time, rococo_decisions = rococo_time + seconds, rococo_decisions + decisions
        games = chess_games * (k + 1) // slices - chess_games * k // slices
        seconds, decisions = chess_playouts(rng, games)
        chess_time, chess_decisions = chess_time + seconds, chess_decisions + decisions
    return (
        rococo_decisions / rococo_time,
        rococo_decisions,
        chess_decisions / chess_time,
        chess_decisions,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description="Issue 13's yardstick, in CPU time.")
    parser.add_argument("--games", type=int, default=6, help="games to record positions from")
    parser.add_argument("--every", type=int, default=3, help="keep every N-th evaluation")
    parser.add_argument("--seconds", type=float, default=0.2, help="CPU s per timing")
    parser.add_argument("--rounds", type=int, default=9, help="timings of each (the best)")
    parser.add_argument("--rococo-games", type=int, default=20)
    parser.add_argument("--chess-games", type=int, default=200)
    parser.add_argument("--slices", type=int, default=4, help="alternations of the playouts")
    args = parser.parse_args()
    try:
        import chess  # noqa: F401
    except ImportError:
        print(
            "python-chess is missing: .venv/bin/pip install -e '.[bench]' "
            "(or .venv/bin/pip install chess)",
            file=sys.stderr,
        )
        return 2

    ruleset = load_or_raise("rococo")
    tables, positions = record(ruleset, args.games, args.every)
    board = twins.Board(tables)
    problems = agree(tables, board, positions)
    counts = ", ".join(f"{n} {len(p)}" for n, p in positions.items())
    if problems:
        print(f"{len(problems)} disagreements of a twin with the compiled rules:")
        print("\n".join(problems[:20]))
        return 1
    print(f"recorded positions ({args.games} games, 1 evaluation in {args.every}): {counts}")
    print("every twin agrees with the compiled rules on every recorded position")
    for action, twin in twins.CHECKS.items():
        answers = Counter(twin(board, p.state, p.me, p.args) for p in positions[action])
        shown = ", ".join(
            f"{'allowed' if k is None else f'requirement {k + 1} fails'} {n}"
            for k, n in sorted(answers.items(), key=lambda kn: -1 if kn[0] is None else kn[0])
        )
        print(f"  {action}: {shown}")
    print()

    rows = measure(batches(tables, board, positions), args.rounds, args.seconds)
    print("| check (Rococo, 4 players) | positions | compiled µs | twin µs | compiled / twin |")
    print("|---|---|---|---|---|")
    for row in rows:
        print(
            f"| `{row.name}` | {row.calls} | {row.compiled_us:.1f} | {row.twin_us:.1f} "
            f"| {row.ratio:.2f}× |"
        )
    checks = [r for r in rows if r.name in twins.CHECKS]  # positions ∝ evaluations in play
    total_compiled = sum(r.compiled_us * r.calls for r in checks)
    total_twin = sum(r.twin_us * r.calls for r in checks)
    overall = total_compiled / total_twin
    print(f"| the 4 checks, as often as play evaluates them | | | | {overall:.2f}× |")

    rococo, rococo_decisions, chess_speed, chess_decisions = playout_rates(
        ruleset, args.rococo_games, args.chess_games, args.slices
    )
    print()
    print("| playout (random agents, CPU time) | decisions | decisions/s |")
    print("|---|---|---|")
    print(f"| Rococo, 4 players, {args.rococo_games} games | {rococo_decisions} | {rococo:,.0f} |")
    print(f"| python-chess, {args.chess_games} games | {chess_decisions} | {chess_speed:,.0f} |")
    print(f"| Rococo / python-chess | | {rococo / chess_speed:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
