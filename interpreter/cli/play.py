"""``rules play``: play one game to the end with agents in every seat."""

from __future__ import annotations

import json
from pathlib import Path

import click

from interpreter.agents import SPECS, make, parse
from interpreter.agents.terminal import seat_humans
from interpreter.cli.options import expansions_option, mods_option, rules_path_option
from interpreter.cli.report import render
from interpreter.cli.results import result_json
from interpreter.engine.game import Game
from interpreter.engine.words import render_result
from interpreter.errors import CheckError, GameError
from interpreter.log import writer
from interpreter.log.reader import open_log
from interpreter.log.replay import replay
from interpreter.ruleset import load_or_raise, resolve_ruleset


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
@click.option(
    "--players",
    "count",
    type=click.IntRange(1, 16),
    default=None,
    help="Number of players (required, unless --resume gives the game).",
)
@click.option("--seed", default="0", show_default=True, help="Seed of the game's chance.")
@click.option(
    "--agents",
    default="random",
    show_default=True,
    help=(
        "Agents by seat, comma-separated (one for every seat): random, greedy, human, "
        "mcts (tree search, default budget), mcts:N (N iterations a decision on average) or "
        "mcts:Xs (X CPU seconds a decision)."
    ),
)
@click.option("--names", default=None, help="Player names, comma-separated.")
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the game log (rules-log/1) to this file; also the log so far when the "
    "game stops early (an error, the end of input, Ctrl-C).",
)
@click.option(
    "--resume",
    "resume",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Go on with the game of this log: replay it to its last position, then play on "
    "with --agents; the whole log is written again to --log, or to this file. The "
    "ruleset, players, seed and expansions are the log's.",
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
    as_json: bool,
    hot_seat: bool | None,
) -> None:
    """Play one game of RULESET (an id in rulesets/ or a folder) to the end."""
    if log_path is not None and not log_path.parent.is_dir():  # before the game, not after
        raise click.BadParameter(
            f"the folder {log_path.parent} does not exist: create it, or write elsewhere",
            param_hint="--log",
        )
    resumed: Game | None = None
    header_mods: list | None = None  # a resumed log's mods, as its header names them
    if resume is not None:
        resumed, header_mods = _resume(resume, ruleset, expansions, mods)
        definition, count = resumed.ruleset, len(resumed.people)
        log_path = log_path or resume
    elif ruleset is None:
        raise click.UsageError("Missing argument 'RULESET' (or give --resume LOG).")
    elif count is None:
        raise click.UsageError("Missing option '--players'.")
    else:
        definition = load_for_cli(ruleset, expansions, mods)
    kinds = [a.strip() for a in agents.split(",")]
    if len(kinds) == 1:
        kinds = kinds * count
    if len(kinds) != count:
        raise click.BadParameter(f"give 1 or {count} agents among {SPECS}", param_hint="--agents")
    for kind in kinds:
        try:
            parse(kind)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--agents") from None
    if resumed is not None:
        players, game_seed = list(resumed.people), resumed.seed
    else:
        players = (
            [n.strip() for n in names.split(",")] if names else [f"P{i + 1}" for i in range(count)]
        )
        if len(players) != count or len(set(players)) != count or not all(players):
            raise click.BadParameter(f"give {count} distinct names", param_hint="--names")
        game_seed = int(seed) if seed.lstrip("-").isdigit() else seed
    game: Game | None = resumed
    settled = 0  # events of the last whole decision: a log stopped early ends there
    saving = (log_path, [str(m) for m in mods] if header_mods is None else [], header_mods)
    try:
        if game is None:
            game = Game(definition, players, seed=game_seed)
        settled = len(game.events)
        people = [game.state.players.index(name) for name in players]  # rules-driven: none
        agents = {
            seat: make(kind, seat, game_seed) for seat, kind in zip(people, kinds, strict=True)
        }
        seat_humans(agents, hot_seat)  # their screens go to the terminal, never stdout
        while not game.is_over():
            settled = len(game.events)
            decision = game.pending()[0]
            game.apply(decision.player, agents[decision.player].choose(game, decision))
    except click.Abort:  # the end of input (or Ctrl-C) at a person's prompt
        _stopped(game, settled, saving, "stopped: no more input")
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        _stopped(game, settled, saving, "interrupted")
        raise SystemExit(130) from None
    except GameError as exc:  # a defect of the rules, or an option they refused: named
        click.echo(exc.headline(), err=True)  # at the statement, when a rule raised it
        if exc.hint:
            click.echo(f"     = hint: {exc.hint}", err=True)
        _stopped(game, settled, saving)
        raise SystemExit(1) from None
    if log_path is not None:
        _save(game, *saving)
    result = game.result()
    if as_json:
        click.echo(json.dumps(result_json(game, result), indent=2, ensure_ascii=False))
    else:
        extras = [f"with {e}" for e in definition.expansions if e in definition.offered_expansions]
        extras += [f"mod {m}" for m in mods]
        shown = f" ({', '.join(extras)})" if extras else ""
        shown_seed = seed if resume is None else game_seed
        click.echo(f"{definition.name}{shown}, {count} players, seed {shown_seed}")
        click.echo(render_result(result, definition))  # the legend is in the edition's words


def _save(game: Game, path: Path, mods: list[str], header_mods: list | None = None) -> None:
    """Write ``game``'s log to ``path`` (whole, through a temporary file: a resumed log
    is rewritten in place). ``header_mods``: the mods as a resumed log's header named
    them (found on the rules path, they have no file here)."""
    lines = writer.lines(game, mods)
    if header_mods is not None:
        header = json.loads(lines[0])
        if header_mods:
            header["options"]["mods"] = header_mods
        lines[0] = json.dumps(header, ensure_ascii=False)
    partial = path.with_name(f".{path.name}.part")
    partial.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    partial.replace(path)


def _stopped(game: Game | None, settled: int, saving: tuple, why: str | None = None) -> None:
    """The game stopped before its end: write the log so far (up to the last whole
    decision) and say how to go on with it."""
    path = saving[0]
    if game is None or path is None:
        if why:
            click.echo(why, err=True)
        return
    del game.events[settled:]  # a decision cut off halfway is not in the log
    try:
        _save(game, *saving)
    except OSError as exc:
        click.echo(f"{why or 'stopped'}; the log could not be written: {exc}", err=True)
        return
    click.echo(
        f"{why or 'stopped'}: the log so far ({len(game.events)} events) is in {path}; "
        f"go on with: rules play --resume {path}",
        err=True,
    )


def _resume(
    log: Path, ruleset: str | None, expansions: tuple[str, ...], mods: tuple[Path, ...]
) -> tuple[Game, list | None]:
    """The game of ``log`` at its last position, ready to go on; and its header's mods."""
    context = click.get_current_context()
    for name, option in (("count", "--players"), ("names", "--names"), ("seed", "--seed")):
        source = context.get_parameter_source(name)
        if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP"):
            raise click.UsageError(f"{option} cannot be used with --resume: the log gives it")
    if expansions:
        raise click.UsageError("--with cannot be used with --resume: the log names them")
    folder = None
    if ruleset is not None:
        folder = resolve_ruleset(ruleset)
        if folder is None:
            raise click.UsageError(f"no ruleset {ruleset!r}")
    verdict = replay(log, ruleset_folder=folder, mod_files=tuple(mods))
    for line, message in verdict.warnings:
        click.echo(f"{log}:{line}: warning: {message}", err=True)
    where = f"{log}:{verdict.line}" if verdict.line else str(log)
    if verdict.kind == "legal":
        click.echo(f"{log}: error: the game is over: there is nothing to resume", err=True)
        raise SystemExit(1)
    if verdict.kind != "incomplete" or verdict.game is None:
        click.echo(f"{where}: error: cannot resume: {verdict.message or verdict.kind}", err=True)
        raise SystemExit(1)
    if verdict.need is not None and verdict.next_decision is None:
        click.echo(
            f"{log}: error: cannot resume: the log ends inside the setup ({verdict.message})",
            err=True,
        )
        raise SystemExit(1)
    game = verdict.game
    game.chance_source = None  # from here on chance comes from the seed, as in any game
    game.automaton_source = None
    parsed, events = open_log(log)
    close = getattr(events, "close", None)
    if close is not None:
        close()
    options = parsed.header.data.get("options") if parsed.header is not None else None
    header_mods = list(options.get("mods") or []) if isinstance(options, dict) else []
    return game, header_mods
