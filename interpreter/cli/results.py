"""A finished game's result as `play` and `replay` print it with ``--format json``
(a module of its own: `replay` needs it without `play`'s agents)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interpreter.engine.game import Game, Result


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
        "result": game.ruleset.result_mode.kind,  # who wins: highest, lowest, cooperative, teams
        "teams": [
            [game.state.players[s] for s in team]
            for team in game.ruleset.result_mode.team_of(len(game.state.players))
        ],
    }
