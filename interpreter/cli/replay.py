"""``rules replay LOG``: check a game log against the rules (docs/logs.md)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from interpreter.cli.options import mods_option, rules_path_option
from interpreter.cli.results import result_json
from interpreter.engine.view import full_view, view
from interpreter.engine.words import render_result, render_view
from interpreter.log.replay import FAILURE_LABELS, Verdict, replay
from interpreter.ruleset.grid import drawn_grids


@click.command("replay")
@click.argument("log", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as one JSON object.")
@click.option(
    "--strict",
    is_flag=True,
    help="Fail on unknown keys and on a different ruleset version or digest.",
)
@click.option(
    "--suggest",
    is_flag=True,
    help="List what may come next after the last event (to write a log by hand).",
)
@click.option(
    "--at",
    "at",
    type=click.IntRange(0),
    default=None,
    help="Stop after event N and show the position.",
)
@click.option(
    "--as",
    "as_player",
    default=None,
    help="With --at, --transcript, --step or --html: only what this player may see.",
)
@click.option("--transcript", is_flag=True, help="Print the game as readable lines, one per event.")
@click.option("--step", is_flag=True, help="Step through the positions (n, p, a number, q).")
@click.option(
    "--html",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write a self-contained HTML viewer of every position to this file.",
)
@click.option(
    "--ruleset",
    "ruleset_folder",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Replay with the ruleset in this folder (instead of finding the log's ruleset id "
    "on the rules path).",
)
@mods_option
@rules_path_option
def replay_command(
    log: Path,
    as_json: bool,
    strict: bool,
    suggest: bool,
    at: int | None,
    as_player: str | None,
    ruleset_folder: Path | None,
    mods: tuple[Path, ...],
    transcript: bool = False,
    step: bool = False,
    html: Path | None = None,
) -> None:
    """Replay LOG against its ruleset: was every move legal, what is the score.

    Exit codes: 0 legal and complete; 1 an illegal move, an impossible chance outcome, a
    checkpoint mismatch, a malformed log, or a mod missing or changed; 3 the log ends
    before the game does. A mod is looked for with --mod, beside the log (the path its
    header records), then on the rules path, and must be the file the game was played
    with (its digest).
    """
    if transcript or step or html is not None:
        from interpreter.cli.replay_views import run

        options = {"ruleset_folder": ruleset_folder, "mod_files": mods, "cut_tail": not strict}
        run(log, strict, as_player, transcript, step, html, at, as_json or suggest, options)
    if as_player is not None and at is None:
        raise click.UsageError("--as shows a position: give --at N too")
    verdict = replay(  # a verdict is shown from the whole game's view, or a position's
        log,
        strict=strict,
        stop_after=at,
        ruleset_folder=ruleset_folder,
        mod_files=mods,
        views=False,
        # a last line cut short (the game stopped as it was written) is left out with a
        # warning: the events before it are judged, as `play --resume` reads them
        cut_tail=not strict,
    )
    if at is not None and verdict.kind in ("position", "incomplete", "legal"):
        _show_position(verdict, as_player, as_json)
        raise SystemExit(0)
    if as_json:
        click.echo(json.dumps(_json(verdict, log), indent=2, ensure_ascii=False))
    else:
        _print(verdict, log, suggest)
    raise SystemExit(verdict.exit_code)


def _json(verdict: Verdict, log: Path) -> dict:
    data: dict = {"verdict": verdict.kind, "exit_code": verdict.exit_code, "log": str(log)}
    if verdict.message:
        data["reason"] = verdict.message
    if verdict.line is not None:
        data["line"] = verdict.line
    if verdict.event is not None:
        data["event"] = verdict.event
    if verdict.options:
        data["options"] = verdict.options
    if verdict.pending:
        data["pending"] = verdict.pending
    if verdict.need is not None:
        data["needs_chance"] = verdict.need
    if verdict.warnings:
        data["warnings"] = [{"line": line, "message": m} for line, m in verdict.warnings]
    if verdict.kind == "legal" and verdict.game is not None:
        data["result"] = result_json(verdict.game, verdict.game.result())
    return data


def _print(verdict: Verdict, log: Path, suggest: bool) -> None:
    for line, message in verdict.warnings:
        click.echo(f"{log}:{line}: warning: {message}", err=True)
    if verdict.kind == "legal":
        game = verdict.game
        click.echo(f"{log}: legal and complete ({verdict.events_applied} events)")
        click.echo(render_result(game.result(), game.ruleset))
        return
    where = f"{log}:{verdict.line}" if verdict.line is not None else str(log)
    if verdict.kind == "incomplete":
        reason = f": {verdict.message}" if verdict.message else ""
        click.echo(f"{where}: the log ends before the game does{reason}")
        if verdict.game is not None:
            game = verdict.game
            grids = drawn_grids(game.ruleset, game.tables)
            click.echo(render_view(full_view(game), grids=grids))
        if verdict.need is not None:
            click.echo(
                f"the next line must be the chance outcome {verdict.need['chance']!r} "
                f"({verdict.need['count']} of: {', '.join(verdict.need['from'])})"
            )
        for pending in verdict.pending:
            click.echo(f"waiting for {pending['player']} ({pending['prompt']}):")
            for option in pending["options"]:
                click.echo(f"  {option}")
        if suggest:
            _suggest(verdict)
        return
    label = {**FAILURE_LABELS, "rule-error": "the rules fail at this event"}[verdict.kind]
    click.echo(f"{where}: error: {label}: {verdict.message}")
    if verdict.event is not None:
        click.echo(f"    event: {json.dumps(verdict.event, ensure_ascii=False)}")
    if verdict.options:
        click.echo("    legal options there: " + ", ".join(verdict.options))


def _suggest(verdict: Verdict) -> None:
    """Lines that may come next, to write a log by hand step by step."""
    n = verdict.events_applied + 1
    lines = []
    if verdict.need is not None:
        if verdict.next_decision is not None:
            lines.append({**verdict.next_decision, "n": n})
            n += 1
        count = verdict.need["count"]
        lines.append(
            {"n": n, "chance": verdict.need["chance"], "outcome": verdict.need["from"][:count]}
        )
    else:
        for pending in verdict.pending:
            lines.append({"n": n, "player": pending["player"], "choice": pending["options"][0]})
    if lines:
        click.echo("next line, for example:")
        for line in lines:
            click.echo("  " + json.dumps(line, ensure_ascii=False))


def _show_position(verdict: Verdict, as_player: str | None, as_json: bool) -> None:
    game = verdict.game
    if game is None:
        if as_json:
            click.echo(
                json.dumps(
                    {
                        "verdict": verdict.kind,
                        "exit_code": verdict.exit_code,
                        "reason": verdict.message,
                    },
                    indent=2,
                )
            )
        else:
            click.echo(f"no position: {verdict.message}", err=True)
        raise SystemExit(1)
    if as_player is not None:
        if as_player not in game.state.players:
            raise click.BadParameter(f"no player {as_player!r}", param_hint="--as")
        shown = view(game, game.state.players.index(as_player))
    else:
        shown = full_view(game)
    if as_json:
        data = {
            "verdict": verdict.kind,
            "exit_code": 0,
            "events_applied": verdict.events_applied,
            "position": shown,
        }
        if verdict.kind == "position" and verdict.need is not None:
            data["next_chance"] = verdict.need["chance"]
        if game.is_over():
            data["result"] = result_json(game, game.result())
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    click.echo(f"after event {verdict.events_applied}:")
    click.echo(render_view(shown, grids=drawn_grids(game.ruleset, game.tables)))
    if game.is_over():
        click.echo(render_result(game.result(), game.ruleset))
    for pending in shown["pending"]:
        options = pending.get("options")
        suffix = f": {', '.join(options)}" if options else ""
        click.echo(f"waiting for {pending['player']}{suffix}")
    if verdict.kind == "position" and verdict.need is not None:
        click.echo(f"next: a chance outcome ({verdict.need['chance']})")
