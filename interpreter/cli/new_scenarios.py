"""The values of the scenarios `rules new` scaffolds that reach past one action.

A template cannot know a game's final scores, its first decision or what one player
sees that another does not: they are read here from the game itself (the ruleset,
with the new mod applied), played the way the scenario's `finish: first` plays it.
The written scenarios therefore pass as written, and hold the game to what it does
today: when the rules change, `rules test` says what moved.
"""

from __future__ import annotations

import json
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.view import view
from interpreter.errors import GameError, RuleError
from interpreter.scenario.expect import visible_names
from interpreter.scenario.run import MAX_FINISH_DECISIONS

SEED = 1  # the seed the scaffolded scenario files name


def reach_values(ruleset: Any, players: int) -> dict[str, str]:
    """Template values (YAML flow text) for the scenarios of final scores, view and
    decision of a new game of ``ruleset`` with ``players`` players."""
    names = [f"P{i + 1}" for i in range(players)]
    try:
        game = Game(ruleset, names, seed=SEED)
        game.follow_knowledge()
        first = game.pending()[0] if game.pending() else None
        sees, hidden = _seen(game, players)
        for _ in range(MAX_FINISH_DECISIONS):
            if game.is_over():
                break
            decision = game.pending()[0]
            game.apply(decision.player, decision.options[0])
    except (GameError, RuleError, IndexError) as exc:
        raise GameError(f"the new game cannot be played to its end: {exc}") from None
    result = game.result()
    last = ruleset.scoring[-1].id if ruleset.scoring else "play"
    return {
        "scores": _flow({name: result.scores[name] for name in names}),
        "breakdown": _flow({name: {last: result.breakdown[name].get(last, 0)} for name in names}),
        "decider": first.player_name if first else "null",
        "first_option": _flow([first.options[0]]) if first else "[]",
        "sees": _flow(sees),
        "hidden": _flow(hidden),
    }


def _seen(game: Game, players: int) -> tuple[list[str], list[str]]:
    """Something P1 sees and, if there is any, something P1 sees that P2 does not."""
    mine = visible_names(view(game, 0))
    theirs = visible_names(view(game, 1)) if players > 1 else mine
    only_mine = sorted(mine - theirs, key=lambda n: ("." in n, n))  # pieces first
    shared = sorted(mine & theirs, key=lambda n: ("." in n, n))
    return (only_mine or shared)[:1], only_mine[:1]


def _flow(value: Any) -> str:
    """``value`` as YAML flow text: mappings and lists, names quoted where needed."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flow(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, str) and not all(c.isalnum() or c in "_-." for c in value):
        return json.dumps(value, ensure_ascii=False)
    return str(value)
