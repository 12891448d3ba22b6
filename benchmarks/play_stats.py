"""What agents do in a game: per agent kind, per player per game, the mean (and
standard deviation) of the options they chose, of the ruleset's per-player counters
at the end, and of the ruleset's headline statistics.

    .venv/bin/python benchmarks/play_stats.py RULESET [--agents random,greedy,mcts]
        [--games 20] [--players 2] [--first 0] [--jobs 2] [--headlines FILE]

Each agent kind plays ``--games`` seeded games (seeds from ``--first``, the same for
every kind) with every seat its own: a game of greedy against greedy shows what
greedy does when it plays itself. A statistic is one value per seat and game; the
table gives its mean over all of them and the standard deviation in brackets. Agent
specs are ``agents.py``'s (``mcts:noestimate`` included).

* **options chosen**: the decisions a player made, by prompt and by the first word of
  the chosen option's text (``buy: pass`` is a pass where the prompt was ``buy``; a
  word that is its prompt's own is shown once: ``sew``). Decisions with one option
  count too.
* **counters at the end**: every per-player counter of the ruleset, at the end.
* **headlines**: named in a short data file per ruleset, ``headlines/RULESET.yaml``
  (or ``--headlines``), in the ruleset's own terms: prompts, counters, scoring steps
  and expressions of its language, compiled by the ruleset's compiler. The kinds are
  described in ``headlines/rococo.yaml``. ``interpreter/`` knows no game: the words
  printed here all come from the rules and that file.
"""

from __future__ import annotations

import argparse
import multiprocessing
import shlex
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from agents import MAX_DECISIONS, ROOT, BenchError, commit_of, make_agent, mean_interval
from ruamel.yaml import YAML

from interpreter.engine.game import Game
from interpreter.language.compiler import Compiler
from interpreter.language.runtime import Context
from interpreter.language.values import Player
from interpreter.load.ruleset_files import resolve_ruleset
from interpreter.ruleset import load

HEADLINES = Path(__file__).resolve().parent / "headlines"
KINDS = ("choices", "rises", "value", "counter", "step")
OPTIONS = {
    "choices": {"verb"},
    "rises": {"prompt"},
    "value": {"when"},
    "counter": set(),
    "step": set(),
}

_RULESET: Any = None
_HEADLINES: dict[str, dict[str, Any]] = {}


# ------------------------------------------------------------------ headlines
def read_headlines(path: Path) -> dict[str, dict[str, Any]]:
    """The headline statistics of a data file: name -> {kind: …, options}."""
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        raise BenchError(f"{path}: a mapping of statistic names is expected")
    for name, spec in data.items():
        kinds = [k for k in KINDS if isinstance(spec, dict) and k in spec]
        if len(kinds) != 1:
            raise BenchError(f"{path}: {name}: give exactly one of {', '.join(KINDS)}")
        extra = set(spec) - {kinds[0]} - OPTIONS[kinds[0]]
        if extra:
            raise BenchError(f"{path}: {name}: {kinds[0]} takes no {', '.join(sorted(extra))}")
        if spec.get("when", "scoring") != "scoring":
            raise BenchError(f"{path}: {name}: `when` can only be `scoring`")
    return data


def compile_expressions(ruleset: Any, headlines: dict[str, dict[str, Any]]) -> None:
    """Each expression of the headlines compiled once by the ruleset's compiler (kept
    under the key ``fn``); a text the compiler refuses stops the benchmark."""
    for name, spec in headlines.items():
        text = spec.get("rises", spec.get("value"))
        if text is None:
            continue
        compiled, problems = Compiler(ruleset.symbols).expression(str(text))
        if compiled is None:
            said = "; ".join(f"column {p.column}: {p.message}" for p in problems)
            raise BenchError(f"headline {name!r}: {said}")
        spec["fn"] = compiled.fn


def value_of(spec: dict[str, Any], game: Game, seat: int) -> Any:
    """The value of a headline's expression for ``seat`` in the game's position."""
    return spec["fn"](Context(game.state, game.tables, Player(seat), {}, game))


# ------------------------------------------------------------------ one game
def _init(ruleset_id: str, headlines: dict[str, dict[str, Any]]) -> None:
    global _RULESET, _HEADLINES
    folder = resolve_ruleset(ruleset_id)
    if folder is None:
        raise BenchError(f"no ruleset {ruleset_id!r}")
    _RULESET = load(folder).ruleset
    _HEADLINES = {name: dict(spec) for name, spec in headlines.items()}
    compile_expressions(_RULESET, _HEADLINES)


def choice_key(prompt: str, option: str) -> str:
    """The prompt when the option's text starts with it (``sew D12``, ``cash in T3``),
    else ``prompt: verb``, the verb being the option's first word (``buy: pass``)."""
    if option == prompt or option.startswith(prompt + " "):
        return prompt
    return f"{prompt}: {verb(option)}"


def verb(option: str) -> str:
    return option.split(maxsplit=1)[0] if option.strip() else option


class Tally:
    """The statistics of one game's seats, counted move by move as the game is played."""

    def __init__(self, game: Game, players: int):
        self.game, self.seats = game, range(players)
        self.chosen: list[Counter] = [Counter() for _ in self.seats]
        self.heads: list[dict[str, float]] = [dict.fromkeys(_HEADLINES, 0) for _ in self.seats]
        self.rising = {n: h for n, h in _HEADLINES.items() if "rises" in h}
        self.everyone = {n: h for n, h in self.rising.items() if "prompt" not in h}
        self.last = {n: self.values(h) for n, h in self.everyone.items()}
        self.at_scoring = {n: h for n, h in _HEADLINES.items() if h.get("when") == "scoring"}
        self.before: dict[str, Any] = {}

    def values(self, headline: dict[str, Any]) -> list[Any]:
        return [value_of(headline, self.game, s) for s in self.seats]

    def ahead_of(self, decision: Any) -> None:
        """Before a move: the values that rise only with the mover's decisions of a prompt."""
        mine = {n: h for n, h in self.rising.items() if h.get("prompt") == decision.prompt}
        self.before = {n: value_of(h, self.game, decision.player) for n, h in mine.items()}

    def after(self, decision: Any, option: str) -> None:
        """After a move: the choice, what it counts for, and what rose since the last."""
        me, heads = decision.player, self.heads
        self.chosen[me][choice_key(decision.prompt, option)] += 1
        for name, h in _HEADLINES.items():
            if h.get("choices") == decision.prompt and h.get("verb") in (None, verb(option)):
                heads[me][name] += 1
        for name, before in self.before.items():
            heads[me][name] += value_of(_HEADLINES[name], self.game, me) > before
        for name, h in self.everyone.items():
            now = self.values(h)
            for s in self.seats:
                heads[s][name] += now[s] > self.last[name][s]
            self.last[name] = now
        if self.at_scoring and self.game.state.engine.get("stage") in ("scoring", "over"):
            for name, h in self.at_scoring.items():  # the first position of the scoring
                for s, value in enumerate(self.values(h)):
                    heads[s][name] = value
            self.at_scoring = {}

    def seat_records(self) -> list[dict[str, Any]]:
        """At the end: each seat's score, headlines, counters and choices."""
        game, result = self.game, self.game.result()
        names = game.state.players
        for name, h in _HEADLINES.items():
            for s in self.seats:
                if "value" in h and h.get("when") is None:
                    self.heads[s][name] = value_of(h, game, s)
                elif "counter" in h:
                    self.heads[s][name] = game.state.counters.get(f"{h['counter']}#{s}", 0)
                elif "step" in h:
                    self.heads[s][name] = result.breakdown.get(names[s], {}).get(h["step"], 0)
        return [
            {
                "score": result.scores[names[s]],
                "headlines": self.heads[s],
                "counters": {
                    key.partition("#")[0]: value
                    for key, value in game.state.counters.items()
                    if key.endswith(f"#{s}")
                },
                "choices": dict(self.chosen[s]),
            }
            for s in self.seats
        ]


def play(task: tuple[int, int, str]) -> dict[str, Any]:
    """One game of ``spec`` in every seat: per seat, its statistics; and the CPU time."""
    seed, players, spec = task
    start = time.process_time()
    game = Game(_RULESET, [f"P{s + 1}" for s in range(players)], seed=seed)
    agents = [make_agent(spec, seat, seed) for seat in range(players)]
    tally = Tally(game, players)
    decisions = 0
    while not game.is_over():
        if decisions >= MAX_DECISIONS:
            raise BenchError(f"seed {seed}: not over after {MAX_DECISIONS} decisions")
        decision = game.pending()[0]
        option = agents[decision.player].choose(game, decision)
        tally.ahead_of(decision)
        game.apply(decision.player, option)
        tally.after(decision, option)
        decisions += 1
    return {
        "seed": seed,
        "seats": tally.seat_records(),
        "cpu": time.process_time() - start,
        "decisions": decisions,
    }


def play_kind(args: argparse.Namespace, spec: str, headlines: dict) -> list[dict[str, Any]]:
    """The games of one agent kind, in seed order."""
    tasks = [(seed, args.players, spec) for seed in range(args.first, args.first + args.games)]
    if args.jobs > 1 and len(tasks) > 1:
        with multiprocessing.Pool(args.jobs, _init, (args.ruleset, headlines)) as pool:
            return sorted(pool.imap_unordered(play, tasks), key=lambda g: g["seed"])
    _init(args.ruleset, headlines)
    return [play(task) for task in tasks]


# ------------------------------------------------------------------ report
def samples(games: list[dict], part: str, key: str) -> list[float]:
    """``part[key]`` (0 where absent) of every seat of every game."""
    return [seat[part].get(key, 0) for game in games for seat in game["seats"]]


def cell(values: list[float]) -> str:
    mean, _, sd = mean_interval(values)
    return f"{mean:.2f} ({sd:.2f})"


def table(title: str, rows: list[tuple[str, list[str]]], kinds: list[str]) -> list[str]:
    width = max([len(title)] + [len(name) for name, _ in rows])
    wide = max(16, *(len(k) for k in kinds))
    lines = [f"{title:<{width}}  " + "  ".join(f"{k:>{wide}}" for k in kinds)]
    lines += [f"{n:<{width}}  " + "  ".join(f"{c:>{wide}}" for c in cells) for n, cells in rows]
    return [*lines, ""]


def report(args: argparse.Namespace, played: dict[str, list[dict]], headlines) -> list[str]:
    kinds = list(played)
    lines = [
        "command: " + shlex.join([Path(sys.executable).name, *sys.argv]),
        f"{args.ruleset}, {args.players} players, {args.games} games a kind, seeds "
        f"{args.first}-{args.first + args.games - 1}, commit {commit_of(ROOT)}",
        "per player per game: mean (standard deviation)",
        "",
    ]
    games = played.values()
    overall = [
        ("score", [cell([s["score"] for x in g for s in x["seats"]]) for g in games]),
        ("CPU s per game", [cell([x["cpu"] for x in g]) for g in games]),
    ]
    lines += table("game", overall, kinds)
    if headlines:
        rows = [(n, [cell(samples(g, "headlines", n)) for g in games]) for n in headlines]
        lines += table("headlines", rows, kinds)
    for part, title in (("counters", "counters at the end"), ("choices", "options chosen")):
        keys = Counter()
        for g in games:
            for x in g:
                for seat in x["seats"]:
                    keys.update(seat[part])
        order = sorted(keys) if part == "counters" else [k for k, _ in keys.most_common()]
        rows = [(k, [cell(samples(g, part, k)) for g in games]) for k in order]
        lines += table(title, rows, kinds)
    return lines[:-1]


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset")
    parser.add_argument("--agents", default="random,greedy,mcts")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--first", type=int, default=0, help="seed of the first game")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--headlines", type=Path, help="default: headlines/RULESET.yaml")
    args = parser.parse_args(argv)
    if args.games < 1 or args.players < 1 or args.jobs < 1:
        parser.error("--games, --players and --jobs must be at least 1")
    return args


def main(argv: list[str] | None = None) -> None:
    args = arguments(argv)
    try:
        path = args.headlines or HEADLINES / f"{Path(args.ruleset).name}.yaml"
        headlines = read_headlines(path) if args.headlines or path.is_file() else {}
        specs = [s.strip() for s in args.agents.split(",") if s.strip()]
        for spec in specs:  # a bad spec is refused before any game is played
            make_agent(spec, 0, 0)
        _init(args.ruleset, headlines)  # and a headline the compiler refuses
        played = {spec: play_kind(args, spec, headlines) for spec in specs}
    except (BenchError, ValueError, OSError) as exc:
        raise SystemExit(f"error: {exc}") from None
    for line in report(args, played, headlines):
        print(line)


if __name__ == "__main__":
    main()
