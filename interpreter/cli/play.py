"""``rules play``: play one game to the end with agents in every seat.

The log is written as the game goes (``log/stream.py``): the header before the setup,
then each decision's lines once the game has applied it whole, so that whatever stops
the process (an error, the end of a person's input, Ctrl-C, SIGTERM, SIGHUP:
``stops.py``; SIGKILL, which it is not told of) leaves the game up to its last whole
decision, which ``--resume`` takes up (``resume.py``) as if it had never stopped."""

from __future__ import annotations

import contextlib
import json
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from interpreter.agents import SPECS, Agent, make, parse, seed_of
from interpreter.agents.terminal import seat_humans
from interpreter.cli.options import (
    expansions_option,
    mods_option,
    players_option,
    rules_path_option,
    seed_option,
)
from interpreter.cli.report import render
from interpreter.cli.results import result_json
from interpreter.cli.resume import Resumed, rebuild, resume_log
from interpreter.cli.stops import Stopped, Stops
from interpreter.engine.game import Game
from interpreter.engine.words import render_result
from interpreter.errors import CheckError, GameError
from interpreter.load.search import file_digest
from interpreter.log import writer
from interpreter.log.stream import LogStream
from interpreter.ruleset import load_or_raise
from interpreter.ruleset.model import Ruleset


def load_for_cli(ruleset: str, expansions: tuple[str, ...], mods: tuple[Path, ...]):
    """Load a ruleset or exit 1 with its diagnostics."""
    try:
        return load_or_raise(ruleset, list(expansions), list(mods))
    except FileNotFoundError as exc:
        raise click.UsageError(str(exc)) from None
    except CheckError as exc:
        for diagnostic in exc.diagnostics:
            click.echo(render(diagnostic), err=True)
        click.echo(
            f"{ruleset}: the ruleset has {len(exc.diagnostics)} error(s); "
            "`rules validate` lists them",
            err=True,
        )
        raise SystemExit(1) from None


@click.command()
@click.argument("ruleset", required=False)
@rules_path_option
@expansions_option
@mods_option
@players_option
@seed_option
@click.option(
    "--agents",
    default="random",
    show_default=True,
    help=(
        "Agents by seat, comma-separated (one for every seat): random, greedy, human, "
        "mcts (tree search, default budget), mcts:N (N iterations a decision on average, "
        "2 an option at least), "
        "mcts:Xs (X CPU seconds a decision); mcts:noestimate, mcts:N:noestimate: without the "
        "ruleset's estimate."
    ),
)
@click.option("--names", default=None, help="Player names, comma-separated.")
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the game log (rules-log/1) to this file as the game is played, a whole "
    "decision at a time: a game stopped or killed at any moment leaves its log so far "
    "(never written through a symbolic link).",
)
@click.option(
    "--resume",
    "resume",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Go on with the game of this log: replay it to its last whole decision, then play "
    "on with --agents (by default the log's own, which then play as if the game had "
    "never stopped); the whole log is written again to --log, or to this file. The "
    "ruleset, players, seed and expansions are the log's.",
)
@click.option(
    "--from",
    "origin",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Go on from a position of this log (with --at N): replay its first N events, "
    "then play on with --agents (by default the log's own). The new game is written to "
    "--log only, never over this log; its header names where it came from.",
)
@click.option(
    "--at",
    "at",
    type=click.IntRange(0),
    default=None,
    help="With --from: the position to go on from, after event N of the log (as `rules "
    "replay --at N` shows it).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option(
    "--hot-seat/--no-hot-seat",
    "hot_seat",
    default=None,
    help="Human players share this device: before each one's decision the screen is "
    "cleared and the device passed (the default with more than one human at a terminal).",
)
def play(
    ruleset: str | None,
    expansions: tuple[str, ...],
    mods: tuple[Path, ...],
    count: int | None,
    seed: str,
    agents: str,
    names: str | None,
    log_path: Path | None,
    resume: Path | None,
    origin: Path | None,
    at: int | None,
    as_json: bool,
    hot_seat: bool | None,
) -> None:
    """Play one game of RULESET (an id in rulesets/ or a folder) to the end."""
    if (origin is None) != (at is None):
        raise click.UsageError("--from LOG and --at N go together")
    if origin is not None and resume is not None:
        raise click.UsageError("give --resume LOG or --from LOG --at N, not both")
    if log_path is not None and not log_path.parent.is_dir():  # before the game, not after
        raise click.BadParameter(
            f"the folder {log_path.parent} does not exist: create it, or write elsewhere",
            param_hint="--log",
        )
    resumed: Resumed | None = None
    if resume is not None:
        resumed = resume_log(resume, ruleset, expansions, mods)
        definition, count = resumed.game.ruleset, len(resumed.game.people)
        log_path = log_path or resume
    elif origin is not None:
        resumed = resume_log(origin, ruleset, expansions, mods, at)
        definition, count = resumed.game.ruleset, len(resumed.game.people)
        if log_path is not None and log_path.resolve() == origin.resolve():
            raise click.BadParameter(
                "a game from a log is never written over it", param_hint="--log"
            )
    elif ruleset is None:
        raise click.UsageError("Missing argument 'RULESET' (or give --resume LOG).")
    elif count is None:
        raise click.UsageError("Missing option '--players'.")
    else:
        definition = load_for_cli(ruleset, expansions, mods)
    if log_path is not None and log_path.is_symlink():  # never written through a link
        raise click.BadParameter(
            f"{log_path} is a symbolic link: the log is never written through one; "
            "give the file it points to, or another name",
            param_hint="--log",
        )
    if resumed is not None:
        players, game_seed = list(resumed.game.people), resumed.game.seed
    else:
        players = (
            [n.strip() for n in names.split(",")] if names else [f"P{i + 1}" for i in range(count)]
        )
        if len(players) != count or len(set(players)) != count or not all(players):
            raise click.BadParameter(f"give {count} distinct names", param_hint="--names")
        game_seed = int(seed) if seed.lstrip("-").isdigit() else seed
    seats = definition.seats_for(players)
    table = _table(agents, players, seats, game_seed, resumed)
    stream: LogStream | None = None
    game: Game | None = None
    with Stops().installed() as stops:
        try:
            game = _started(definition, players, game_seed, resumed, table)
            if log_path is not None:
                stream = _open(log_path, game, mods, resumed, table.header, origin, at)
            if resumed is None:
                _setup(game, stream, stops)
            written = len(game.events)
            seat_humans(table.agents, hot_seat)  # their screens go to the terminal, not stdout
            while not game.is_over():
                decision = game.pending()[0]
                answer = table.agents[decision.player].choose(game, decision)
                round_before = game.state.engine["round"]
                game.apply(decision.player, answer)
                if stream is not None:
                    with stops.held(), _writing():
                        stream.add(writer.event_lines(game, written))
                        written = len(game.events)
                        if game.state.engine["round"] != round_before:
                            stream.sync()
            if stream is not None:
                with _writing():
                    stream.close()
        except click.Abort:  # the end of input at a person's prompt
            _stopped(stream, log_path, "stopped: no more input")
            raise SystemExit(1) from None
        except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM, SIGHUP (``stops.py``)
            number = exc.number if isinstance(exc, Stopped) else signal.SIGINT
            why = "interrupted" if number == signal.SIGINT else f"stopped by {exc}"
            _stopped(stream, log_path, why)
            raise SystemExit(128 + number) from None
        except GameError as exc:  # a defect of the rules, or an option they refused: named
            _say(exc.headline())  # at the statement, when a rule raised it
            if exc.hint:
                _say(f"     = hint: {exc.hint}")
            _stopped(stream, log_path)
            raise SystemExit(1) from None
        except _Unwritten as exc:  # a full disk, …: the log holds what was written
            _say(f"error: the log {log_path} could not be written: {exc}")
            _stopped(stream, log_path)
            raise SystemExit(1) from None
    result = game.result()
    if as_json:
        click.echo(json.dumps(result_json(game, result), indent=2, ensure_ascii=False))
    else:
        extras = [f"with {e}" for e in definition.expansions if e in definition.offered_expansions]
        extras += [f"mod {m}" for m in mods]
        shown = f" ({', '.join(extras)})" if extras else ""
        shown_seed = seed if resumed is None else game_seed
        click.echo(f"{definition.name}{shown}, {count} players, seed {shown_seed}")
        click.echo(render_result(result, definition))  # the legend is in the edition's words


@dataclass
class _Table:
    """The agents by seat, whether they are the log's own (``--resume``: asked again
    about their past positions), and the header's record of them."""

    agents: dict[int, Agent]
    same: bool
    header: list[dict[str, Any]]


def _table(
    agents: str,
    players: list[str],
    seats: list[str],
    game_seed: int | str,
    resumed: Resumed | None,
) -> _Table:
    """The agents of ``--agents``, or, resuming with none given, those of the log."""
    given = click.get_current_context().get_parameter_source("agents")
    recorded = resumed.agents if resumed is not None else None
    if recorded is not None and given is not None and given.name in ("DEFAULT", "DEFAULT_MAP"):
        kinds = [recorded[name][0] for name in players]
        seeds = [recorded[name][1] for name in players]
    else:
        kinds = [a.strip() for a in agents.split(",")]
        if len(kinds) == 1:
            kinds = kinds * len(players)
        if len(kinds) != len(players):
            raise click.BadParameter(
                f"give 1 or {len(players)} agents among {SPECS}", param_hint="--agents"
            )
        seeds = [seed_of(game_seed, seats.index(name)) for name in players]
    for kind in kinds:
        try:
            parse(kind)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--agents") from None
    made = {
        seats.index(name): make(kind, seats.index(name), game_seed, own_seed)
        for name, kind, own_seed in zip(players, kinds, seeds, strict=True)
    }
    header: list[dict[str, Any]] = [
        {"player": name, "agent": kind, "seed": own_seed}
        for name, kind, own_seed in zip(players, kinds, seeds, strict=True)
    ]
    same = recorded is not None and all(
        recorded[entry["player"]][:2] == (entry["agent"], entry["seed"]) for entry in header
    )
    if same:  # the log's agents go on: they joined the game where the log says
        for entry in header:
            entry["since"] = recorded[entry["player"]][2]
    return _Table(made, same, header)


def _started(
    definition: Ruleset,
    players: list[str],
    game_seed: int | str,
    resumed: Resumed | None,
    table: _Table,
) -> Game:
    """A new game before its setup, or a resumed one at its last whole decision."""
    if resumed is None:
        return Game(definition, players, seed=game_seed, start=False)
    seats = list(table.agents)
    since = {s: entry.get("since", 0) for s, entry in zip(seats, table.header, strict=True)}
    game, rebuilt = rebuild(resumed, table.agents, since if table.same else None)
    if not (rebuilt and table.same):  # they join the game here, fresh
        table.agents = {
            seat: make(entry["agent"], seat, game_seed, entry["seed"])
            for seat, entry in zip(seats, table.header, strict=True)
        }
        for entry in table.header:
            entry["since"] = len(game.events)
    for entry in table.header:
        if not entry.get("since"):
            entry.pop("since", None)  # from the start: said by saying nothing
    return game


def _setup(game: Game, stream: LogStream | None, stops: Stops) -> None:
    """Run a new game's setup; its events reach the log even when a rule fails in it."""
    try:
        game.start()
    finally:
        if stream is not None:
            with stops.held(), _writing():
                stream.add(writer.event_lines(game, 0))


class _Unwritten(Exception):
    """The log could not be written on (its system error's words)."""


@contextlib.contextmanager
def _writing() -> Iterator[None]:
    """An ``OSError`` of a write to the log is ``_Unwritten`` (not a terminal's)."""
    try:
        yield
    except OSError as exc:
        raise _Unwritten(exc.strerror or str(exc)) from None


def _open(
    path: Path,
    game: Game,
    mods: tuple[Path, ...],
    resumed: Resumed | None,
    agents: list,
    origin: Path | None = None,
    at: int | None = None,
) -> LogStream:
    """The log, its header (and a resumed game's events) in place; exit 2 if it cannot
    be made there. A game from another log names it: its path from this log, its
    digest, and the events of it this log starts with."""
    files = list(mods) if resumed is None else list(resumed.mod_files)  # as replay found them
    header = writer.header(game, files, agents, path)
    if origin is not None:
        header["from"] = {
            "log": writer.relative_to_log(origin, path),
            "digest": file_digest(origin),
            "at": at,
        }
    first = [json.dumps(header, ensure_ascii=False)]
    if resumed is not None:
        first += writer.event_lines(game, 0)
    try:
        return LogStream.create(path, first)
    except OSError as exc:
        raise click.BadParameter(
            f"cannot write {path}: {exc.strerror or exc}", param_hint="--log"
        ) from None


def _say(text: str) -> None:
    """A line on stderr, if there still is one (SIGHUP: the terminal may be gone)."""
    with contextlib.suppress(OSError):
        click.echo(text, err=True)


def _stopped(stream: LogStream | None, path: Path | None, why: str | None = None) -> None:
    """The game stopped before its end: the log holds it up to its last whole decision
    (written as it was played); say how to go on with it."""
    if stream is None:
        if why:
            _say(why)
        return
    try:
        stream.close()
    except OSError as exc:
        _say(f"{why or 'stopped'}; the log could not be written: {exc.strerror or exc}")
        return
    _say(f"{why or 'stopped'}: the log so far is in {path}; go on with: rules play --resume {path}")
