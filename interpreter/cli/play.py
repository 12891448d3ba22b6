"""``rules play``: play one game to the end with agents in every seat."""

from __future__ import annotations

import json
from pathlib import Path

import click

from interpreter.agents import KINDS, make
from interpreter.cli.options import expansions_option, mods_option, rules_path_option
from interpreter.cli.report import render
from interpreter.engine.game import Game, Result
from interpreter.engine.words import render_result
from interpreter.errors import CheckError, GameError
from interpreter.log import writer
from interpreter.ruleset import load_or_raise


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
@rules_path_option
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
