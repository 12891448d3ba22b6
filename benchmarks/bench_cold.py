"""The cold path (issue 13): CPU time of fresh `rules` processes, and replay vs play.

.venv/bin/python benchmarks/bench_cold.py [--runs 20] [--only help,validate,replay]

CPU time (user + system of each child process, from ``getrusage(RUSAGE_CHILDREN)``),
not wall time: the machine is shared with long runs, and CPU time is what a busy
machine does not inflate. Each figure is the median of ``--runs`` fresh processes,
with the package compiled to bytecode first (``compileall``), as ``pip install`` does.

- ``help``: ``rules --help``; ``help-eager``: the same with every sub-command imported
  first, as before the group was lazy;
- ``grammar``: a process that imports the parser and builds the Lark grammar, with
  the cache off, then on and warm;
- ``validate``: ``rules validate rulesets/rococo`` (9 combinations of expansions: the
  base, each expansion, and the two that Solo's and Haute Couture's ``when:`` blocks
  need) and
  ``… --with deluxe`` (one), each with nothing cached (``TABLETOP_RULES_CACHE=0``), with
  only the files derived from the interpreter's own texts, Lark's parser of the
  grammar (a fresh cache folder holding them, each run: the first
  validate of these rules on a machine that ran `rules` before), and with the rules
  stored (``interpreter/ruleset/stored.py``: a second validate of unchanged rules);
- ``processes``: ``rules play`` of one 4-player random game and ``rules replay`` of its
  log, Rococo and Queen's Necklace, with the rules stored;
- ``python``: ``python -c pass``, the floor no command can go under;
- ``yaml`` (not in the default set; run it with a Python that has ruamel.yaml.clib):
  the pure-Python YAML passes against libyaml's, and whether libyaml keeps positions;
- ``replay``: events/s of replay (as ``rules replay LOG`` checks a log: without views)
  and of play (random agents) on the same seeded games,
  in this process's CPU time (``time.process_time``): both warm (``WARM_UP_GAMES`` other
  games played and replayed first), then ``--rounds`` rounds of each game played and
  replayed back to back (which first, in turn: the ratio of each pair, whose median a
  machine's changing load moves least, is printed with its quartiles, and each game's
  median over the rounds, the slowest one's told) and python-chess random
  playouts (``yardstick.py``'s, when python-chess is installed: the reference that
  carries the issue's figures over from its machine); with each game's play and replay
  runs the replay of the same log's events read beforehand (what reading a log and
  finding its rules cost replay), and the logs are read once more alone;
  ``--slow-log-check`` replays as before issue 13, every log line through jsonschema.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = str(Path(sys.executable).with_name("rules"))
# the parser every text is parsed with (Lark builds its tables when no cache holds them)
GRAMMAR = "from interpreter.language.parser import grammar; grammar()"
WARM_UP_GAMES = 3  # played and replayed before the measured games (replay_vs_play)
EAGER_HELP = (  # `rules --help` with every sub-command imported, as before issue 13
    "import sys, click; from interpreter.cli.main import COMMANDS, cli, main; "
    "[cli.get_command(click.Context(cli), name) for name in COMMANDS]; "
    "sys.argv = ['rules', '--help']; main()"
)


def child_cpu(command: list[str], env: dict[str, str] | None = None) -> float:
    """CPU seconds (user + system) of one run of ``command`` in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr.decode()[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median_ms(command: list[str], runs: int, env: dict[str, str] | None = None) -> str:
    times = sorted(child_cpu(command, env) for _ in range(runs))
    low, high = times[0] * 1000, times[-1] * 1000
    return f"{statistics.median(times) * 1000:6.0f} ms CPU (min {low:.0f}, max {high:.0f})"


def median_ms_cold_rules(command: list[str], runs: int, warm_cache: str) -> str:
    """Like ``median_ms``, each run with the files derived from the interpreter's texts
    (Lark's parser of the grammar) but no stored ruleset."""
    folder = Path(warm_cache) / "tabletop-rules"
    derived = [path for path in folder.iterdir() if path.is_file()]
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as fresh:
            folder = Path(fresh) / "tabletop-rules"
            folder.mkdir()
            for path in derived:  # the key too, private as the cache keeps it
                (folder / path.name).write_bytes(path.read_bytes())
                (folder / path.name).chmod(0o600)
            times.append(child_cpu(command, {**os.environ, "XDG_CACHE_HOME": fresh}))
    times.sort()
    low, high = times[0] * 1000, times[-1] * 1000
    return f"{statistics.median(times) * 1000:6.0f} ms CPU (min {low:.0f}, max {high:.0f})"


def cold(runs: int, only: set[str]) -> None:
    # the package's bytecode, as `pip install` writes it: with PYTHONDONTWRITEBYTECODE=1
    # (set on some machines) an editable checkout is compiled again in every process
    package = str(ROOT / "interpreter")
    subprocess.run([sys.executable, "-m", "compileall", "-q", package], check=True)
    with tempfile.TemporaryDirectory() as cache:
        warm = {**os.environ, "XDG_CACHE_HOME": cache}
        off = {**os.environ, "TABLETOP_RULES_CACHE": "0"}
        validate = [RULES, "validate", "rulesets/rococo"]
        if "python" in only:
            print(f"python -c pass              {median_ms([sys.executable, '-c', 'pass'], runs)}")
        if "help" in only:
            print(f"rules --help                {median_ms([RULES, '--help'], runs)}")
        if "help-eager" in only:
            eager = [sys.executable, "-c", EAGER_HELP]
            print(f"--help, all commands loaded {median_ms(eager, runs)}")
        if "grammar" in only:
            build = [sys.executable, "-c", GRAMMAR]
            print(f"grammar (no cache)          {median_ms(build, runs, off)}")
            child_cpu(build, warm)  # fills the grammar cache
            print(f"grammar (cache)             {median_ms(build, runs, warm)}")
        if "processes" in only:
            play_and_replay(runs, warm, Path(cache))
        if "validate" in only:
            one = [*validate, "--with", "deluxe"]  # one combination instead of 9
            for name, command in (("validate rococo", validate), ("  --with deluxe", one)):
                print(f"{name:28}{median_ms(command, runs, off)}  nothing cached")
                child_cpu(command, warm)  # writes the derived files and stores the rules
                print(f"{'':28}{median_ms_cold_rules(command, runs, cache)}  rules not stored")
                print(f"{'':28}{median_ms(command, runs, warm)}  rules stored")


def play_and_replay(runs: int, env: dict[str, str], folder: Path) -> None:
    """A fresh `rules play` of one 4-player random game, and a fresh `rules replay` of
    its log, for each ruleset, with the rules stored (a first process stores them)."""
    for ruleset in ("rococo", "queens-necklace"):
        log = folder / f"{ruleset}.jsonl"
        seats = ["--players", "4", "--seed", "5", "--agents", ",".join(["random"] * 4)]
        play = [RULES, "play", ruleset, *seats]
        child_cpu([*play, "--log", str(log)], env)  # stores the rules, writes the log
        print(f"play {ruleset:23}{median_ms(play, runs, env)}")
        print(f"replay {ruleset:21}{median_ms([RULES, 'replay', str(log)], runs, env)}")


def replay_vs_play(
    games: int, players: int, ruleset_id: str, slow: bool, rounds_wanted: int = 3
) -> None:
    """Events/s of play and of replaying the logs of the very same games, both warm
    (a few other games played and replayed first: the effect blocks compile on their
    first run) and measured in turn, ``rounds_wanted`` rounds, with python-chess between
    them; each game's median over the rounds of its replay's speed-up, the slowest
    game's told (the issue's "never slower than play for the same games")."""
    from interpreter.agents import RandomAgent
    from interpreter.engine.game import Game
    from interpreter.log import line_checks, reader, writer
    from interpreter.log.replay import replay, replay_events
    from interpreter.ruleset import load_or_raise

    if slow:  # every log line through jsonschema, as before issue 13
        line_checks.surely_valid = lambda *_: False
        line_checks.line_check = lambda _definition: lambda *_: False
        line_checks.many_check = lambda _definition: lambda *_: False  # no block taken whole
        line_checks.checks.cache_clear()  # made again of the two above
    ruleset = load_or_raise(ruleset_id)
    folder = Path(tempfile.mkdtemp())

    def play(seed: int) -> Game:
        game = Game(ruleset, [f"P{i}" for i in range(players)], seed=seed)
        agents = [RandomAgent(i, f"{seed}:{i}") for i in range(players)]
        while not game.is_over():
            decision = game.pending()[0]
            game.apply(decision.player, agents[decision.player].choose(game, decision))
        return game

    def write(game: Game, name: str) -> Path:
        path = folder / f"{name}.jsonl"
        with path.open("w") as stream:
            writer.write(game, stream)
        return path

    for seed in range(1000, 1000 + WARM_UP_GAMES):  # not measured
        verdict = replay(write(play(seed), f"warm-{seed}"), views=False)
        assert verdict.kind == "legal", verdict.message
    logs = [write(play(seed), str(seed)) for seed in range(games)]
    chess = _chess()
    rng = random.Random(13)
    parsed = [reader.read(path) for path in logs]  # for the replays of logs read before
    chess_cpu = 0.0
    events = chess_decisions = 0
    rounds: list[list[dict[str, float]]] = []  # each game's CPU time of each job, by round
    clock = time.process_time
    jobs = ("play", "replay", "memory")  # the last: the replay of events read before
    for round_ in range(rounds_wanted):  # in turn: play, replay and chess see the same load
        rounds.append([])
        for seed, path in enumerate(logs):  # a game and its replays back to back, in turn
            times = {}
            for job in jobs[(round_ + seed) % 3 :] + jobs[: (round_ + seed) % 3]:
                start = clock()
                if job == "play":
                    play(seed)
                elif job == "replay":  # as `rules replay LOG` checks a log: no views
                    verdict = replay(path, views=False)
                else:
                    replay_events(ruleset, parsed[seed], views=False)
                times[job] = clock() - start
            assert verdict.kind == "legal", verdict.message
            events += verdict.events_applied
            rounds[-1].append(times)
        if chess is not None:
            seconds, decisions = chess(rng, 60)
            chess_cpu, chess_decisions = chess_cpu + seconds, chess_decisions + decisions
    every = [times for games_ in rounds for times in games_]
    play_cpu, replay_cpu, in_memory = (sum(t[job] for t in every) for job in jobs)
    ratios = [sum(t["play"] for t in r) / sum(t["replay"] for t in r) for r in rounds]
    pairs = [t["play"] / t["replay"] for t in every]  # each game's speed-up by replay
    memory_pairs = [t["play"] / t["memory"] for t in every]  # by replay of events read before
    by_game = [  # each game's median speed-up by replay over the rounds
        statistics.median(r[game]["play"] / r[game]["replay"] for r in rounds)
        for game in range(games)
    ]
    start = time.process_time()
    for path in logs:
        reader.read(path)
    read_cpu = time.process_time() - start
    lines = sum(len(log.events) + 1 for log in parsed)
    reference = (
        f"; python-chess random playouts in turn with it {chess_decisions / chess_cpu:,.0f} "
        f"decisions/s (replay ÷ chess {events / replay_cpu / (chess_decisions / chess_cpu):.2f})"
        if chess is not None
        else ""
    )
    print(
        f"{games} {players}-player {ruleset_id} games, {events // rounds_wanted} events: "
        f"play {events / play_cpu:,.0f} events/s, replay {events / replay_cpu:,.0f} events/s "
        f"(replay/play {play_cpu / replay_cpu:.2f}×, by round "
        + ", ".join(f"{r:.2f}" for r in ratios)
        + "; each game against its replay, back to back: median "
        + f"{statistics.median(pairs):.3f}, quartiles "
        + "–".join(f"{q:.3f}" for q in statistics.quantiles(pairs, n=4)[::2])
        + "; CPU time"
        + (", every line checked by jsonschema)" if slow else ")")
        + f"; each game's median over {rounds_wanted} rounds: slowest {min(by_game):.3f}, "
        f"{sum(1 for r in by_game if r < 1)} of {games} below 1"
        + f"; reading alone {read_cpu / lines * 1e6:.1f} µs a line; replaying the events "
        f"read beforehand {play_cpu / in_memory:.2f}× play (its pairs' median "
        f"{statistics.median(memory_pairs):.3f})" + reference
    )


def _chess():
    """yardstick.py's python-chess random playouts, or None without python-chess: the
    issue's figures came from another machine, whose speed this reference carries over
    (there, python-chess made 30 k decisions/s and the target was 30 k events/s)."""
    try:
        import chess  # noqa: F401
    except ImportError:
        return None
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from yardstick import chess_playouts

    return chess_playouts


def yaml_paths(runs: int) -> None:
    """Issue 13's YAML question, measured: today's two pure-Python passes against
    libyaml (ruamel.yaml.clib's CParser), and whether libyaml's nodes keep the very
    positions the round-trip loader gives. Needs only ruamel.yaml (and the clib)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    files = sorted((ROOT / "rulesets" / "rococo").rglob("*.yaml"))
    texts = [path.read_text(encoding="utf-8") for path in files]

    def round_trip(text: str):
        yaml = YAML(typ="rt", pure=True)
        yaml.preserve_quotes = True
        yaml.allow_duplicate_keys = True
        return yaml.load(text)

    def events(text: str, pure: bool) -> None:
        for _ in YAML(typ="safe", pure=pure).parse(text):
            pass

    refused: list[str] = []
    refused_texts: set[str] = set()

    def compose_c(text: str):
        try:
            return YAML(typ="safe", pure=False).compose(text)
        except YAMLError:  # libyaml refuses some YAML 1.2: the pure parser then
            return YAML(typ="safe", pure=True).compose(text)

    def best(label: str, job) -> None:
        times = []
        for _ in range(runs):
            start = time.process_time()
            for text in texts:
                job(text)
            times.append(time.process_time() - start)
        print(f"{label:48s} {min(times) * 1000:7.1f} ms CPU (best of {runs})")

    for path, text in zip(files, texts, strict=True):
        try:
            events(text, pure=False)
        except YAMLError as exc:
            refused.append(f"{path.relative_to(ROOT)}: {str(exc).splitlines()[0]} …")
            refused_texts.add(text)
    print(f"{len(files)} files of rulesets/rococo, {sum(map(len, texts)):,} characters")
    print(f"libyaml refuses {len(refused)} of them: {refused}")
    best(
        "today: events (pure) + round-trip load (pure)", lambda t: (events(t, True), round_trip(t))
    )
    best("  round-trip load alone (pure)", round_trip)
    best("  events alone (pure)", lambda t: events(t, True))
    best("events via libyaml (pure if refused)", lambda t: events(t, t in refused_texts))
    best("nodes via libyaml (marks kept; pure if refused)", compose_c)
    best("nodes, pure", lambda t: YAML(typ="safe", pure=True).compose(t))

    def from_data(data, path=()):
        if isinstance(data, dict):
            for key, value in data.items():
                yield (*path, str(key), "key"), tuple(data.lc.key(key))
                yield (*path, str(key)), tuple(data.lc.value(key))
                yield from from_data(value, (*path, str(key)))
        elif isinstance(data, list):
            for index, value in enumerate(data):
                yield (*path, index), tuple(data.lc.item(index))
                yield from from_data(value, (*path, index))

    def from_nodes(node, path=()):
        if isinstance(node, MappingNode):
            seen = set()
            for key, value in node.value:
                if key.value not in seen:  # a duplicate key: the first one counts
                    seen.add(key.value)
                    yield (*path, key.value, "key"), (key.start_mark.line, key.start_mark.column)
                    yield (*path, key.value), (value.start_mark.line, value.start_mark.column)
                    yield from from_nodes(value, (*path, key.value))
        elif isinstance(node, SequenceNode):
            for index, value in enumerate(node.value):
                yield (*path, index), (value.start_mark.line, value.start_mark.column)
                yield from from_nodes(value, (*path, index))

    same = differ = 0
    for text in texts:
        nodes = dict(from_nodes(compose_c(text)))
        for where, mark in from_data(round_trip(text)):
            same, differ = (same + 1, differ) if nodes.get(where) == mark else (same, differ + 1)
    print(f"key, value and item positions: {same} equal, {differ} differ")
    probe = "a: yes\nb: on\nc: 010\nd: 0o10\ne: 1_000\nf: .inf\ng: ~\nh: 0x1F\ni: 1e3\n"
    print("YAML 1.2 scalars, round trip:", dict(round_trip(probe)))
    print("YAML 1.2 scalars, libyaml:   ", YAML(typ="safe", pure=False).load(probe))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument(
        "--only", default="python,help,help-eager,grammar,processes,validate,replay"
    )
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--ruleset", default="rococo")
    parser.add_argument("--rounds", type=int, default=3, help="replay: rounds of every game")
    parser.add_argument(
        "--slow-log-check", action="store_true", help="replay as before: jsonschema on every line"
    )
    args = parser.parse_args()
    only = set(args.only.split(","))
    cold(args.runs, only)
    if "yaml" in only:
        yaml_paths(min(args.runs, 5))
    if "replay" in only:
        replay_vs_play(args.games, args.players, args.ruleset, args.slow_log_check, args.rounds)


if __name__ == "__main__":
    main()
