"""How long loading and validating a full ruleset takes, and how fast compiled
expressions evaluate compared with re-parsing them for every evaluation.

    .venv/bin/python benchmarks/bench_load.py [--ruleset rococo] [--repeat 10]
"""

from __future__ import annotations

import argparse
import statistics
import time

from interpreter.engine.game import Game
from interpreter.language.compiler import Compiler
from interpreter.language.runtime import Context
from interpreter.language.values import Player
from interpreter.load.ruleset_files import Loader, resolve_ruleset
from interpreter.ruleset import load
from interpreter.ruleset.build import Builder

EXPRESSIONS = {
    "rococo": [
        "my.livres // 10 + count(my.hand) * 2",
        "staff_size(me) > minimum_staff and my.livres >= hire_cost()",
        "count(s in guest where s.owner == me and s.master)",
        "sum(dress_value(s) for s in dress_spaces() where s.owner == me and not s.empty)",
        "estimate(me)",
    ],
}


def timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ruleset", default="rococo")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--evaluations", type=int, default=2000)
    args = parser.parse_args()
    folder = resolve_ruleset(args.ruleset)
    assert folder is not None, args.ruleset

    # 1. Load + validate the whole ruleset (YAML, schema, references, compile).
    load(folder)  # warm the grammar and schema caches once
    times = timed(lambda: load(folder), args.repeat)
    loaded = load(folder)
    print(
        f"load+validate {args.ruleset}: {loaded.files} files, {loaded.items} items, "
        f"median {statistics.median(times) * 1000:.1f} ms, "
        f"min {min(times) * 1000:.1f} ms over {args.repeat} runs"
    )
    loader = Loader()
    yaml_times = timed(lambda: Loader().ruleset(folder), args.repeat)
    print(f"  of which YAML + schema: median {statistics.median(yaml_times) * 1000:.1f} ms")
    del loader

    # 2. Compiled once vs re-parsed per evaluation, on a real game position.
    ruleset = loaded.ruleset
    game = Game(ruleset, ["A", "B", "C", "D"], seed=1)
    catalog = Loader().ruleset(folder)
    builder = Builder(catalog)
    symbols = builder.symbols()
    ctx = Context(game.state, game.tables, Player(0), {}, game)
    budget = ctx.budget[0]  # one evaluation's steps; refilled before each (its scans pay)
    n = args.evaluations
    print(f"expression evaluation, {n} evaluations each (4 players, after setup):")
    for text in EXPRESSIONS.get(args.ruleset, []):
        compiled, problems = Compiler(symbols).expression(text)
        assert compiled is not None, problems
        fn = compiled.fn
        start = time.perf_counter()
        for _ in range(n):
            ctx.budget[0] = budget
            fn(ctx)
        once = (time.perf_counter() - start) / n

        start = time.perf_counter()
        for _ in range(n // 20):
            ctx.budget[0] = budget
            Compiler(symbols).expression(text)[0].fn(ctx)
        reparsed = (time.perf_counter() - start) / (n // 20)
        print(
            f"  {once * 1e6:8.1f} µs compiled, {reparsed * 1e6:9.1f} µs re-parsed "
            f"({reparsed / once:6.1f}x)  {text}"
        )


if __name__ == "__main__":
    main()
