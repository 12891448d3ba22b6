"""``rules simulate``: many seeded games of a ruleset, for balance testing."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

import click

from interpreter.agents import SPECS, parse
from interpreter.atomic_file import write_output
from interpreter.cli.options import (
    expansion_ids,
    expansions_option,
    mods_option,
    rules_path_option,
)
from interpreter.cli.play import load_for_cli


def player_counts(text: str | None, ruleset) -> list[int]:
    """``2-5``, ``3`` or ``2,4``; every count the ruleset allows when not given."""
    if not text:
        return list(range(max(ruleset.min_players, 1), ruleset.max_players + 1))
    counts: list[int] = []
    try:
        for part in text.split(","):
            first, dash, last = part.strip().partition("-")
            counts += range(int(first), int(last if dash else first) + 1)
    except ValueError:
        raise click.BadParameter(f"{text!r}: give 3, 2-5 or 2,4", param_hint="--players") from None
    for count in counts:
        refusal = ruleset.players_refusal(count)
        if refusal:
            raise click.BadParameter(refusal, param_hint="--players")
    return counts


@click.command()
@click.argument("ruleset")
@rules_path_option
@expansions_option
@mods_option
@click.option(
    "--games",
    type=click.IntRange(1),
    default=100,
    show_default=True,
    help="Games to play (of each variant).",
)
@click.option(
    "--players",
    "players",
    default=None,
    help="Player counts: 3, 2-5 or 2,4 (default: every count the ruleset allows), in turn.",
)
@click.option(
    "--agents",
    default="random",
    show_default=True,
    help="Agents, comma-separated; seat s of game i gets agent number (s + i // C) mod A "
    "(C player counts, A agents): each sits in every seat in turn. Specs: " + SPECS + ".",
)
@click.option(
    "--seed",
    default="0",
    show_default=True,
    help="Seed of the run; game i's seed is derived from it and i.",
)
@click.option(
    "--jobs", type=click.IntRange(1), default=None, help="Processes (default: every core)."
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Run on this Dask distributed scheduler (the `cluster` extra); the results are "
    "those of a local run.",
)
@click.option(
    "--versus",
    is_flag=True,
    help="Also play a second variant on the same seeds and report the differences: the "
    "ruleset with --versus-with and --versus-mod (none given: the plain ruleset).",
)
@click.option(
    "--versus-with",
    "versus_expansions",
    multiple=True,
    callback=expansion_ids,
    metavar="EXPANSION",
    help="An expansion of the second variant (repeatable; implies --versus).",
)
@click.option(
    "--versus-mod",
    "versus_mods",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A mod of the second variant (repeatable; implies --versus).",
)
@click.option(
    "--max-decisions",
    type=click.IntRange(1),
    default=20000,
    show_default=True,
    help="A game longer than this is an error.",
)
@click.option(
    "--game-timeout",
    type=click.FloatRange(0, min_open=True),
    default=3600.0,
    show_default=True,
    metavar="SECONDS",
    help="A game still under way after this long is an error (with its seed); the run goes on.",
)
@click.option(
    "--out",
    "out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write summary.txt, report.json, games.csv (a row as each game finishes), items.csv "
    "and report.html here.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON instead of text.")
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write one CSV row per game (seed, scores, replay command) to this file, as each "
    "game finishes.",
)
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write a self-contained HTML report with plots to this file.",
)
@click.option(
    "--focus",
    "focus",
    multiple=True,
    metavar="ID",
    help="Open the report on this component, space or action too, judged against the "
    "items of its kind and level as a mod's are (repeatable).",
)
@click.option(
    "--top",
    type=click.IntRange(1),
    default=12,
    show_default=True,
    help="Items shown in the text summary.",
)
def simulate(
    ruleset: str,
    expansions: tuple[str, ...],
    mods: tuple[Path, ...],
    games: int,
    players: str | None,
    agents: str,
    seed: str,
    jobs: int | None,
    scheduler: str | None,
    versus: bool,
    versus_expansions: tuple[str, ...],
    versus_mods: tuple[Path, ...],
    max_decisions: int,
    game_timeout: float,
    out: Path | None,
    as_json: bool,
    csv_path: Path | None,
    html_path: Path | None,
    focus: tuple[str, ...],
    top: int,
) -> None:
    """Play GAMES seeded games of RULESET and report its balance.

    With --mod (or --focus) the report opens on what the mod adds or changes: how
    often each item was offered, taken and used, what its ability gained, and whether
    the players who had it won more than those who had the items of its kind and
    level, with a verdict. Then win rates by seat and agent, scores, game length, and
    the win rate of the players who used each component, space and action named in
    decisions, all with 95 % intervals; every error with the seed that reproduces it.
    A worker process that dies has its game played once more, then reported as an
    error. Exit code 1 if any game erred, 128 + the signal's number if Ctrl-C (130),
    SIGTERM or SIGHUP stopped the run (the partial results are reported and written).
    """
    from interpreter.cli.stops import Stops
    from interpreter.simulate import Plan, Variant, run
    from interpreter.simulate.aggregate import Totals
    from interpreter.simulate.focus import references, targets
    from interpreter.simulate.progress import Progress
    from interpreter.simulate.report import build, write_all
    from interpreter.simulate.report_html import html
    from interpreter.simulate.report_text import text
    from interpreter.simulate.rows import GameRows

    for spec in (a.strip() for a in agents.split(",")):
        try:
            parse(spec)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--agents") from None
    variants = [Variant(ruleset, tuple(expansions), tuple(str(m) for m in mods))]
    if versus or versus_expansions or versus_mods:
        variants.append(
            Variant(ruleset, tuple(versus_expansions), tuple(str(m) for m in versus_mods))
        )
    loaded = [
        load_for_cli(v.ruleset, v.expansions, tuple(Path(m) for m in v.mods)) for v in variants
    ]
    counts = player_counts(players, loaded[0])
    for other in loaded[1:]:
        for count in counts:
            if other.players_refusal(count):
                raise click.BadParameter(
                    f"the second variant: {other.players_refusal(count)}", param_hint="--players"
                )
    plan = Plan(
        variants,
        games,
        counts,
        [a.strip() for a in agents.split(",")],
        seed,
        max_decisions,
        game_timeout,
    )
    for item in focus:
        if not any(item in r.pieces or item in r.spaces or item in r.actions for r in loaded):
            raise click.BadParameter(
                f"{item!r} is no component, space or action of {ruleset} "
                f"(`rules cards {ruleset}` lists them)",
                param_hint="--focus",
            )
    found = targets(plan, focus)
    totals = Totals(references(found))  # every record folds in here; none is kept
    progress = Progress(plan.total)
    rows = GameRows(plan, [p for p in (out and out / "games.csv", csv_path) if p is not None])
    stops = Stops()

    def take(record: dict) -> None:
        with stops.held():  # a record is folded and its row written whole, whatever signal
            rows(record)
            totals.add(record)
        progress(record)

    try:
        with stops.installed():
            outcome = run(plan, jobs=jobs, scheduler=scheduler, on_record=take)
    finally:
        rows.close()
    progress.close()
    report = build(plan, outcome, totals, found)
    if out is not None:
        write_all(report, out)
    if html_path is not None:
        write_output(html_path, html(report))
    if as_json:
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        click.echo(text(report, top))
    if outcome.restarts:
        click.echo(
            f"{outcome.restarts} worker process(es) died and were replaced; the games they "
            "were playing were played again (or reported as errors)",
            err=True,
        )
    if outcome.failure is not None:
        click.echo(f"error: {outcome.failure}; the report covers the games played", err=True)
        sys.exit(1)
    if outcome.stopped_by is not None:
        how = (
            "interrupted"
            if outcome.stopped_by == signal.SIGINT
            else "stopped by " + (signal.Signals(outcome.stopped_by).name)
        )
        click.echo(f"{how}: the report covers the games played so far", err=True)
        sys.exit(128 + outcome.stopped_by)
    sys.exit(1 if outcome.failed else 0)


__all__ = ["player_counts", "simulate"]
