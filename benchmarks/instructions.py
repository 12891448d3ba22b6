"""Instructions per game, counted by valgrind: a measure of play that a busy or noisy
machine does not move, for comparing two versions of the interpreter.

CPU time on a shared virtual machine varies by a third from run to run (the same
games measured 24 to 43 games/s in one sitting); the number of instructions a game
executes is the same every time (each process runs with ``PYTHONHASHSEED=0``: texts'
hashes are salted per process otherwise, which moves counts by a few tenths of a
percent). ``valgrind --tool=callgrind`` counts them (about 50
times slower than running: a few games are enough). Each figure is the difference
between a process that loads the rules, plays a warm-up game and then N seeded games
(seeds 0 … N-1, random agents), and the same process with no game after the warm-up,
divided by N: loading, compiling and start-up cancel out. The same games' logs are
replayed the same way (``rules replay``'s check of every move), for the instructions
replay takes against play.

    .venv/bin/python benchmarks/instructions.py [--ruleset rococo] [--players 4]
        [--games 3] [--tree PATH …]

``--tree`` names a checkout of the project (a ``git worktree``) whose interpreter is
measured instead of this one; several trees are measured in turn, so that
``--tree /tmp/before --tree .`` compares two versions on the same games. Needs
valgrind (Debian: ``apt-get install valgrind``).

``--commands`` counts fresh ``rules`` processes instead of games: ``python -c pass``
(the floor), ``rules --help``, and ``rules validate rulesets/rococo`` *cold* (a cache
folder holding only the files derived from the interpreter's own texts, Lark's parser
of the grammar: the first validate of these rules) and *warm*
(after a validate that stored its verdicts). Each tree's package is compiled to
bytecode first (``compileall``), as ``pip install`` does: with
``PYTHONDONTWRITEBYTECODE=1`` (set on some machines) an editable checkout is otherwise
compiled from source in every process (a warm validate: 436 M instructions without
bytecode, 335 M with).
``--source`` leaves the bytecode out (and removes what is there).

``--checks`` counts the yardstick's work instead (``yardstick.py``, issue 13): the
positions of the 4 hottest checks and of the `halls` scoring step recorded from
``--games`` Rococo games, then ``BATCHES`` passes over them by the compiled rules and
by their hand-written twins (``twins.py``), each less a process that only records, with
the garbage collector off (its runs over the recorded heap would be counted as the
checks' work): the instructions a call of each, and their ratio, the same on every run.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PLAY = """
import sys
from interpreter.agents import RandomAgent
from interpreter.engine.game import Game
from interpreter.load.ruleset_files import resolve_ruleset
from interpreter.ruleset import load

ruleset_id, players, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ruleset = load(resolve_ruleset(ruleset_id)).ruleset
for seed in [-1, *range(games)]:  # the warm-up game compiles the effect blocks it runs
    game = Game(ruleset, [f"P{i}" for i in range(players)], seed=seed)
    agents = [RandomAgent(i, f"{seed}:{i}") for i in range(players)]
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
"""
WRITE = (
    PLAY
    + """
from interpreter.log import writer
from pathlib import Path

folder = Path(sys.argv[4])
for seed in [-1, *range(games)]:  # the same games again, each written as a log
    game = Game(ruleset, [f"P{i}" for i in range(players)], seed=seed)
    agents = [RandomAgent(i, f"{seed}:{i}") for i in range(players)]
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
    with (folder / f"{seed}.jsonl").open("w") as stream:
        writer.write(game, stream)
"""
)
REPLAY = """
import inspect, sys
from pathlib import Path
from interpreter.log.replay import replay

# as `rules replay LOG` checks a log: without views, in a version that has them
options = {"views": False} if "views" in inspect.signature(replay).parameters else {}
folder, games = Path(sys.argv[1]), int(sys.argv[2])
for seed in [-1, *range(games)]:  # the warm-up log loads the rules and compiles blocks
    verdict = replay(folder / f"{seed}.jsonl", **options)
    assert verdict.kind == "legal", verdict.message
"""
CHECKS = """
import gc
import sys
sys.path.insert(0, "benchmarks")
import twins, yardstick
from interpreter.load.ruleset_files import resolve_ruleset
from interpreter.ruleset import load_or_raise

games, name, side, batches = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
tables, positions = yardstick.record(load_or_raise(resolve_ruleset("rococo")), games, 3)
calls, compiled, twin = yardstick.batches(tables, twins.Board(tables), positions)[name]
gc.disable()  # the work of the checks alone: no collection of the recorded heap
for _ in range(batches):
    (compiled if side == "compiled" else twin)()
print(calls)
"""
BATCHES = 10
SIDES = ("compiled", "twin")
RULES = "import sys; from interpreter.cli.main import main; sys.argv[0] = 'rules'; main()"
COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def _environment(tree: Path) -> dict[str, str]:
    """The tree's interpreter, and one hash seed: Python salts the hashes of texts per
    process, which moves the counts of runs by a few tenths of a percent."""
    return {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}


def instructions(tree: Path, script: str, *args: str) -> int:
    """Instructions of one process running ``script`` with ``args``."""
    return counted(tree, script, *args)[0]


def counted(tree: Path, script: str, *args: str) -> tuple[int, str]:
    """Instructions of one process running ``script`` with ``args``, and what it printed."""
    env = _environment(tree)
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        "-c",
        script,
        *args,
    ]
    done = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True)
    found = COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"valgrind failed in {tree}:\n{done.stderr[-2000:]}")
    return int(found.group(1)), done.stdout


def per_game(tree: Path, ruleset: str, players: int, games: int) -> tuple[int, int]:
    """Instructions a game of play, and of replaying the same game's log."""
    env = _environment(tree)
    with tempfile.TemporaryDirectory() as folder:
        # a first, uncounted run stores the built rules (so that every counted run loads
        # them the same way) and writes the games' logs
        command = [sys.executable, "-c", WRITE, ruleset, str(players), str(games), folder]
        subprocess.run(command, env=env, cwd=tree, check=True)
        base = instructions(tree, PLAY, ruleset, str(players), "0")
        play = instructions(tree, PLAY, ruleset, str(players), str(games)) - base
        base = instructions(tree, REPLAY, folder, "0")
        replayed = instructions(tree, REPLAY, folder, str(games)) - base
    return play // games, replayed // games


def checks(tree: Path, games: int) -> list[tuple[str, int, int, int]]:
    """(check, positions, instructions a compiled call, a twin's call) of the yardstick."""
    listing = (
        "import sys; sys.path.insert(0, 'benchmarks'); import twins;"
        "print(*twins.CHECKS, *(f'scoring: {n}' for n in twins.SCORING), sep='\\n')"
    )
    done = subprocess.run(
        [sys.executable, "-c", listing],
        env=_environment(tree),
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    names = done.stdout.splitlines()
    # a first, uncounted run stores the built rules (so that
    # every counted run loads them the same way: a base that built them came out
    # larger than the runs it is taken from)
    counted(tree, CHECKS, str(games), names[0], "compiled", "0")
    base = instructions(tree, CHECKS, str(games), names[0], "compiled", "0")
    out = []
    for name in names:
        runs = [counted(tree, CHECKS, str(games), name, side, str(BATCHES)) for side in SIDES]
        calls = int(runs[0][1])  # the script prints how many positions a pass walks
        compiled, twin = ((count - base) // (BATCHES * calls) for count, _ in runs)
        out.append((name, calls, compiled, twin))
    return out


def commands(tree: Path, bytecode: bool) -> dict[str, int]:
    """Instructions of fresh processes of the tree's ``rules`` (see the docstring)."""
    package = tree / "interpreter"
    for folder in package.rglob("__pycache__"):
        shutil.rmtree(folder)
    if bytecode:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)
    validate = ("validate", "rulesets/rococo")
    out = {"python -c pass": instructions(tree, "pass")}
    with tempfile.TemporaryDirectory() as warm, tempfile.TemporaryDirectory() as cold:
        os.environ["XDG_CACHE_HOME"] = warm  # _environment copies it into each process
        instructions(tree, RULES, *validate)  # writes the derived files and the verdicts
        out["rules --help"] = instructions(tree, RULES, "--help")  # as after any `rules`
        out["validate, warm"] = instructions(tree, RULES, *validate)
        mine = Path(cold) / "tabletop-rules"
        mine.mkdir()
        for derived in (Path(warm) / "tabletop-rules").iterdir():
            if derived.is_file():  # not the stored rulesets' folder
                shutil.copy(derived, mine)
        os.environ["XDG_CACHE_HOME"] = cold
        out["validate, cold"] = instructions(tree, RULES, *validate)
        del os.environ["XDG_CACHE_HOME"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="rococo")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--tree", action="append", type=Path, default=[])
    parser.add_argument("--commands", action="store_true", help="fresh `rules` processes")
    parser.add_argument("--source", action="store_true", help="--commands without bytecode")
    parser.add_argument("--checks", action="store_true", help="the yardstick's checks")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    trees = [t.resolve() for t in args.tree] or [HERE.parent]
    if args.checks:
        for tree in trees:
            print(f"{tree}: Rococo, 4 players, positions of {args.games} games")
            total = [0, 0]
            for name, calls, compiled, twin in checks(tree, args.games):
                print(
                    f"  {name:16} {calls:5} positions: compiled {compiled:,} instructions "
                    f"a call, twin {twin:,}: {compiled / twin:.2f}×"
                )
                if not name.startswith("scoring"):
                    total = [total[0] + compiled * calls, total[1] + twin * calls]
            print(f"  the checks, as often as play evaluates them: {total[0] / total[1]:.2f}×")
        return
    if args.commands:
        for tree in trees:
            counts = commands(tree, bytecode=not args.source)
            shown = ", ".join(f"{name} {count / 1e6:,.1f} M" for name, count in counts.items())
            print(f"{tree} ({'source' if args.source else 'bytecode'}): {shown}")
        return
    first = None
    for tree in trees:
        count, replayed = per_game(tree, args.ruleset, args.players, args.games)
        ratio = "" if first is None else f" ({count / first:.3f}× the first)"
        first = first or count
        print(
            f"{tree}: {args.ruleset}, {args.players} players, {args.games} games: "
            f"{count:,} instructions a game{ratio}; replaying its log {replayed:,} "
            f"({replayed / count:.3f}× play)"
        )


if __name__ == "__main__":
    main()
