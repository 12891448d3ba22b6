"""``rules serve``: a web table for any ruleset or mod; people play from their browsers.

The server (``interpreter/serve/``) needs the ``serve`` extra (Starlette, uvicorn,
websockets), imported only when the command runs: without it the command says how
to install it. It listens on 127.0.0.1 unless ``--host`` names another address, and
then says what that exposes. It prints one private link per person's seat and one
for spectators; agents (``--seats``) take the other seats.
"""

from __future__ import annotations

import ipaddress
import json
import signal
import socket
from pathlib import Path
from typing import TYPE_CHECKING

import click

from interpreter.agents import SPECS, make, parse, seed_of
from interpreter.cli.options import (
    expansions_option,
    mods_option,
    players_option,
    rules_path_option,
    seed_option,
)
from interpreter.cli.play import load_for_cli
from interpreter.cli.resume import Resumed, rebuild, resume_log
from interpreter.engine.game import Game
from interpreter.errors import GameError
from interpreter.log import writer
from interpreter.log.stream import LogStream

if TYPE_CHECKING:
    from interpreter.serve.host import Host

LOOPBACK = "127.0.0.1"
HUMAN = "human"


@click.command()
@click.argument("ruleset", required=False)
@rules_path_option
@expansions_option
@mods_option
@players_option
@click.option(
    "--seats",
    default=HUMAN,
    show_default=True,
    help=f"Who sits where, comma-separated (one, or one per seat): human, or an agent ({SPECS}).",
)
@seed_option
@click.option(
    "--host",
    "bind",
    default=LOOPBACK,
    show_default=True,
    help="Address to listen on. Anything but this machine's own (127.0.0.1, ::1, "
    "localhost) lets others on the network open the page: give it only on a network "
    "you trust.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="Port to listen on (0: any free port).",
)
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the game log (rules-log/1) as the game is played, as `rules play --log` does.",
)
@click.option(
    "--resume",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Go on with the game of this log (written on to it, or to --log); the ruleset, "
    "players and seed are the log's, the seats the log's unless --seats is given.",
)
def serve(
    ruleset: str | None,
    expansions: tuple[str, ...],
    mods: tuple[Path, ...],
    count: int | None,
    seats: str,
    seed: str,
    bind: str,
    port: int,
    log_path: Path | None,
    resume: Path | None,
) -> None:
    """Serve a game of RULESET as a web table: one private link per player's seat."""
    try:
        from interpreter.serve.app import make_app, run
        from interpreter.serve.host import Host, Seat
    except ImportError as exc:
        raise click.ClickException(
            f"`rules serve` needs the serve extra ({exc}); "
            "install it with: pip install 'tabletop-rules[serve]'"
        ) from None
    if log_path is not None and not log_path.parent.is_dir():
        raise click.BadParameter(f"the folder {log_path.parent} does not exist", param_hint="--log")
    resumed: Resumed | None = None
    if resume is not None:
        resumed = resume_log(resume, ruleset, expansions, mods)
        definition, players = resumed.game.ruleset, list(resumed.game.people)
        game_seed, log_path = resumed.game.seed, log_path or resume
    elif ruleset is None:
        raise click.UsageError("Missing argument 'RULESET' (or give --resume LOG).")
    elif count is None:
        raise click.UsageError("Missing option '--players'.")
    else:
        definition = load_for_cli(ruleset, expansions, mods)
        refusal = definition.players_refusal(count)
        if refusal is not None:
            raise click.BadParameter(refusal, param_hint="--players")
        players = [f"P{i + 1}" for i in range(count)]
        game_seed = int(seed) if seed.lstrip("-").isdigit() else seed
    order = definition.seats_for(players)
    kinds = _kinds(seats, players, resumed)
    sockets = _listen(bind, port)
    table: list[Seat] = []
    header = []
    for name, kind in zip(players, kinds, strict=True):
        index = order.index(name)
        own = seed_of(game_seed, index)
        agent = None if kind == HUMAN else make(kind, index, game_seed, own)
        table.append(Seat(index, name, kind, agent=agent))
        header.append({"player": name, "agent": kind, "seed": own})
    try:
        if resumed is None:
            game = Game(definition, players, seed=game_seed, start=False)
        else:
            game, _ = rebuild(resumed, {}, None)
            for entry in header:
                entry["since"] = len(game.events)
        stream = _open(log_path, game, mods, resumed, header) if log_path else None
        if resumed is None:
            game.start()
            if stream is not None:
                stream.add(writer.event_lines(game, 0))
    except GameError as exc:
        click.echo(exc.headline(), err=True)
        raise SystemExit(1) from None
    host = Host(game, sorted(table, key=lambda s: s.index), stream, len(game.events))
    _announce(definition.name, game_seed, bind, sockets[0].getsockname()[1], host)
    stopped_by = run(make_app(host), sockets)
    if stream is not None:
        stream.close()
    if not game.is_over():
        where = f"; go on with: rules serve --resume {log_path}" if log_path else ""
        click.echo(f"stopped before the game's end{where}", err=True)
        raise SystemExit(128 + (stopped_by or signal.SIGINT))


def _kinds(given: str, players: list[str], resumed: Resumed | None) -> list[str]:
    """Each player's seat kind: human or an agent spec (a resumed log's by default)."""
    source = click.get_current_context().get_parameter_source("seats")
    if resumed is not None and resumed.agents and source.name in ("DEFAULT", "DEFAULT_MAP"):
        return [resumed.agents[name][0] for name in players]
    kinds = [k.strip() for k in given.split(",")]
    if len(kinds) == 1:
        kinds *= len(players)
    if len(kinds) != len(players):
        raise click.BadParameter(f"give 1 or {len(players)} seats", param_hint="--seats")
    for kind in kinds:
        if kind != HUMAN:
            try:
                parse(kind)
            except ValueError as exc:
                raise click.BadParameter(str(exc), param_hint="--seats") from None
    return kinds


def _listen(bind: str, port: int) -> list[socket.socket]:
    """The listening socket; said in words when the address cannot be had."""
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    try:
        return [socket.create_server((bind, port), family=family)]
    except OSError as exc:
        raise click.BadParameter(
            f"cannot listen on {bind} port {port}: {exc.strerror or exc}",
            param_hint="--host/--port",
        ) from None


def _loopback(bind: str) -> bool:
    if bind == "localhost":
        return True
    try:
        return ipaddress.ip_address(bind).is_loopback
    except ValueError:
        return False


def _announce(name: str, seed: object, bind: str, port: int, host: Host) -> None:
    """What a non-local address exposes, on stderr; then the links, one a line, on stdout."""
    if not _loopback(bind):
        click.echo(
            f"warning: listening on {bind}: anyone who can reach this machine on port {port} "
            "can load the page; the links are the only keys to the seats, and they travel "
            "unencrypted (http). Use this on a network you trust.",
            err=True,
        )
    shown = f"[{bind}]" if ":" in bind else bind
    base = f"http://{shown}:{port}/"
    click.echo(f"{name}, seed {seed}: serving on {base}")
    for seat in host.seats:
        link = f"{base}#{seat.token}" if seat.token else f"agent {seat.kind}"
        click.echo(f"  {seat.name}: {link}")
    click.echo(f"  spectators: {base}#{host.spectator}")
    click.echo("Send each person their own link only: it opens their seat. Ctrl-C stops.")


def _open(path: Path, game: Game, mods, resumed: Resumed | None, agents: list) -> LogStream:
    """The log with its header (and a resumed game's events), or exit 2 saying why."""
    files = list(mods) if resumed is None else list(resumed.mod_files)
    first = [json.dumps(writer.header(game, files, agents, path), ensure_ascii=False)]
    if resumed is not None:
        first += writer.event_lines(game, 0)
    try:
        return LogStream.create(path, first)
    except OSError as exc:
        raise click.BadParameter(
            f"cannot write {path}: {exc.strerror or exc}", param_hint="--log"
        ) from None
