"""``rules play``: play one game to the end with agents in every seat."""

from __future__ import annotations

import json
from pathlib import Path

import click

from interpreter.agents import KINDS, make
from interpreter.cli.options import expansions_option, mods_option
from interpreter.cli.report import render
from interpreter.engine.game import Game, Result
from interpreter.errors import CheckError, GameError
from interpreter.log import writer
from interpreter.ruleset import Ruleset, load_or_raise


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
@click.argument("ruleset")
@expansions_option
@mods_option
@click.option(
    "--players", "count", type=click.IntRange(1, 16), required=True, help="Number of players."
)
@click.option("--seed", default="0", show_default=True, help="Seed of the game's chance.")
@click.option(
    "--agents",
    default="random",
    show_default=True,
    help="Agents by seat, comma-separated: random, greedy, human (one name for every seat).",
)
@click.option("--names", default=None, help="Player names, comma-separated.")
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the game log (rules-log/1) to this file.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def play(
    ruleset: str,
    expansions: tuple[str, ...],
    mods: tuple[Path, ...],
    count: int,
    seed: str,
    agents: str,
    names: str | None,
    log_path: Path | None,
    as_json: bool,
) -> None:
    """Play one game of RULESET (an id in rulesets/ or a folder) to the end."""
    definition = load_for_cli(ruleset, expansions, mods)
    kinds = [a.strip() for a in agents.split(",")]
    if len(kinds) == 1:
        kinds = kinds * count
    if len(kinds) != count or any(k not in KINDS for k in kinds):
        raise click.BadParameter(
            f"give 1 or {count} agents among {', '.join(KINDS)}", param_hint="--agents"
        )
    players = (
        [n.strip() for n in names.split(",")] if names else [f"P{i + 1}" for i in range(count)]
    )
    if len(players) != count or len(set(players)) != count or not all(players):
        raise click.BadParameter(f"give {count} distinct names", param_hint="--names")
    game_seed: int | str = int(seed) if seed.lstrip("-").isdigit() else seed
    try:
        game = Game(definition, players, seed=game_seed)
        people = [game.state.players.index(name) for name in players]  # rules-driven: none
        agents = {
            seat: make(kind, seat, game_seed) for seat, kind in zip(people, kinds, strict=True)
        }
        while not game.is_over():
            decision = game.pending()[0]
            game.apply(decision.player, agents[decision.player].choose(game, decision))
    except GameError as exc:
        click.echo(f"error: {exc.message}", err=True)
        raise SystemExit(1) from None
    if log_path is not None:
        with log_path.open("w", encoding="utf-8") as stream:
            writer.write(game, stream, [str(m) for m in mods])
    result = game.result()
    if as_json:
        click.echo(json.dumps(result_json(game, result), indent=2, ensure_ascii=False))
    else:
        extras = [f"with {e}" for e in definition.expansions if e in definition.offered_expansions]
        extras += [f"mod {m}" for m in mods]
        shown = f" ({', '.join(extras)})" if extras else ""
        click.echo(f"{definition.name}{shown}, {count} players, seed {seed}")
        click.echo(render_result(result, definition))  # the legend is in the edition's words


def result_json(game: Game, result: Result) -> dict:
    return {
        "ruleset": game.ruleset.id,
        "version": game.ruleset.version,
        "players": list(game.state.players),
        "seed": game.seed,
        "scores": result.scores,
        "breakdown": result.breakdown,
        "ranking": result.ranking,
        "tiebreak": result.tiebreak,
    }


PLAY = "play"  # the engine's breakdown entry: the score gained before the final scoring


def render_result(result: Result, ruleset: Ruleset | None = None) -> str:
    """The final table: place, player, score, then one column per source of points
    that gave someone points (gained during play, then each final scoring step, in
    the ruleset's order), and a legend naming each column in the ruleset's words.

    A source that gave nobody anything gets no column; it is named on a legend line.
    When every point was gained during play, the score column says it all.
    """
    names = list(result.scores)
    sources: list[str] = []
    for parts in result.breakdown.values():
        for key in parts:
            if key not in sources:
                sources.append(key)
    if ruleset is not None:
        order = [PLAY] + [step.id for step in ruleset.scoring]
        sources.sort(key=lambda k: order.index(k) if k in order else len(order))
    scored = [k for k in sources if any(result.breakdown[n].get(k, 0) for n in names)]
    silent = [k for k in sources if k not in scored and k != PLAY]
    score_name, step_labels = "score", {}
    tiebreak_names: tuple[str, ...] = ()
    if ruleset is not None:
        if ruleset.score:
            counter = ruleset.counters.get(ruleset.score)
            score_name = ruleset.label(
                ruleset.score, "counters", counter.label if counter else ruleset.score
            )
        step_labels = {
            step.id: ruleset.label(step.id, "scoring", step.label) for step in ruleset.scoring
        }
        tiebreak_names = tuple(
            ruleset.label(t, "counters", ruleset.counters[t].label) if t in ruleset.counters else t
            for t in ruleset.tiebreak
        )
    all_in_play = scored == [PLAY]
    columns = [] if all_in_play else scored
    heads = {k: ("in play" if k == PLAY else k) for k in columns}
    widths = {
        k: max([len(heads[k])] + [len(str(result.breakdown[n].get(k, 0))) for n in names])
        for k in columns
    }
    name_w = max([len(n) for n in names] + [6])
    score_w = max([len(score_name), 5] + [len(str(v)) for v in result.scores.values()])
    head = f"{'':4}{'player':<{name_w}} {score_name:>{score_w}}"
    head += "".join(f"  {heads[k]:>{widths[k]}}" for k in columns)
    lines = [head.rstrip()]
    counts: dict[int, int] = {}
    for value in result.scores.values():
        counts[value] = counts.get(value, 0) + 1
    place = 1
    for group in result.ranking:
        for name in group:
            row = f"{place:>2}. {name:<{name_w}} {result.scores[name]:>{score_w}}"
            row += "".join(f"  {result.breakdown[name].get(k, 0):>{widths[k]}}" for k in columns)
            keys = result.tiebreak.get(name) or []
            if counts[result.scores[name]] > 1 and keys:
                if len(tiebreak_names) == len(keys):
                    shown = ", ".join(f"{t} {v}" for t, v in zip(tiebreak_names, keys, strict=True))
                    row += f"  (tie-break: {shown})"
                else:
                    row += f"  (tie-break {keys})"
            lines.append(row)
        place += len(group)
    if all_in_play:
        lines.append(f"{score_name}: all gained during play; no final scoring step added any")
    for key in columns:
        if key == PLAY:
            lines.append(f"in play: {score_name} gained during play, before the final scoring")
        elif _says_more(key, step_labels.get(key, key)):
            lines.append(f"{key}: {step_labels[key]}")
    if silent and not all_in_play:
        named = ", ".join(
            f"{k} ({step_labels[k]})" if _says_more(k, step_labels.get(k, k)) else k for k in silent
        )
        lines.append(f"no {score_name} for anyone from: {named}")
    return "\n".join(lines)


def _says_more(key: str, label: str) -> bool:
    """Whether a step's label says more than its id (worth a legend entry)."""
    return label.strip().lower() != key.strip().lower()
