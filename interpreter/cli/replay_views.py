"""``rules replay LOG --transcript | --step | --html FILE``: read a log, step through it.

Each replays the log once (``log/transcript.read_game``) and shows what a reader may
know, everything by default or what one player saw with ``--as PLAYER``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn

import click

from interpreter.atomic_file import write_output
from interpreter.engine.game import Game
from interpreter.engine.view import full_view, view
from interpreter.engine.words import render_result, render_view
from interpreter.log.transcript import Reading, UnknownPlayer, read_game, transcript
from interpreter.log.viewer import flat_position, page
from interpreter.ruleset.grid import drawn_grids

STEP_HELP = "n/next (Enter), p/previous, a position's number, q/quit"


def run(
    log: Path,
    strict: bool,
    as_player: str | None,
    show_transcript: bool,
    step: bool,
    html: Path | None,
    at: int | None = None,
    other_output: bool = False,
    replay_options: dict[str, Any] | None = None,
) -> NoReturn:
    """Carry out ``--transcript``, ``--step`` or ``--html`` (exactly one of them);
    ``replay_options`` go to ``replay`` (where to find the ruleset and mods)."""
    if sum([show_transcript, step, html is not None, at is not None]) > 1:
        raise click.UsageError("give one of --at, --transcript, --step and --html")
    if other_output:
        raise click.UsageError("--json and --suggest go without --transcript, --step and --html")
    options = replay_options or {}

    def _read(capture) -> Reading:
        try:
            return read_game(log, strict, as_player, capture, **options)
        except UnknownPlayer as exc:
            raise click.BadParameter(str(exc), param_hint="--as") from None

    if step:
        reading = _read(_position_text)
        _step(reading)
        raise SystemExit(0)
    if html is not None:
        reading = _read(flat_position)
        text = page(reading, log.name, str(log))
        write_output(html, text)
        click.echo(
            f"wrote {html}: {reading.last + 1} positions, {len(text.encode('utf-8')):,} bytes"
            + (f", as {reading.player} sees it" if reading.player else "")
        )
        raise SystemExit(reading.verdict.exit_code)
    assert show_transcript
    reading = _read(None)
    for line, message in reading.verdict.warnings:
        click.echo(f"{log}:{line}: warning: {message}", err=True)
    text = transcript(reading)
    if reading.last < 0 and reading.failure():  # the log did not get to the game
        text = f"{log}: error: {reading.failure()}"
    click.echo(text)
    raise SystemExit(reading.verdict.exit_code)


def _position_text(n: int, game: Game, seat: int | None) -> str:
    """A position as ``--at N`` shows it (a capture for ``read_game``)."""
    shown = full_view(game) if seat is None else view(game, seat)
    lines = [render_view(shown, game.ruleset.label, drawn_grids(game.ruleset, game.tables))]
    if game.is_over():
        lines.append(render_result(game.result(), game.ruleset))
    for pending in shown["pending"]:
        options = pending.get("options")
        prompt = pending.get("prompt")
        what = f" ({prompt})" if prompt and prompt != "option" else ""
        lines.append(f"waiting for {pending['player']}{what}" + (": " if options else ""))
        if options:
            lines.append("  " + ", ".join(options))
    return "\n".join(lines)


def show(reading: Reading, n: int) -> str:
    """Position ``n`` of ``reading`` as the stepper prints it."""
    head = f"=== position {n} of {reading.last}"
    head += f" (after event {n})" if n else " (the start)"
    if reading.player:
        head += f", as {reading.player} sees it"
    out = [head + " ==="]
    for line in reading.lines:
        if line.event == n and line.kind == "event":
            out.append(f"{n}. {line.text}")
        elif line.event == n and line.kind == "reveal":
            out.append(f"   {line.text}")
    out.append(reading.captured[n])
    stop = reading.stops[n]
    if stop.chance is not None:
        out.append(f"next: a chance outcome ({stop.chance})")
    if n == reading.last:
        failure = reading.failure()
        if failure:
            out.append(f"the next event ({reading.failed_at}) fails: {failure}")
        out.extend(line.text for line in reading.lines if line.kind == "note")
        if not failure and not stop.chance and reading.verdict.kind == "legal":
            out.append("(the last position)")
    return "\n".join(out)


def _step(reading: Reading) -> None:
    if reading.last < 0:
        click.echo(f"no position to show: {reading.failure() or reading.verdict.message}")
        raise SystemExit(1)
    n = 0
    click.echo(show(reading, n))
    while True:
        try:
            answer = click.prompt(STEP_HELP, default="n", show_default=False).strip().lower()
        except click.Abort:  # end of input
            click.echo()
            return
        if answer in ("q", "quit", "exit"):
            return
        if answer in ("n", "next", ""):
            if n == reading.last:
                click.echo("already at the last position")
                continue
            n += 1
        elif answer in ("p", "prev", "previous"):
            if n == 0:
                click.echo("already at the first position")
                continue
            n -= 1
        elif answer.isdigit() and 0 <= int(answer) <= reading.last:
            n = int(answer)
        else:
            click.echo(f"? {STEP_HELP}; positions 0-{reading.last}")
            continue
        click.echo(show(reading, n))
