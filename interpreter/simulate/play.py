"""Play one game of a plan to a record: a plain dict, the same wherever it is played."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from interpreter.agents import make
from interpreter.engine.game import Game
from interpreter.errors import GameError
from interpreter.ruleset import load_or_raise
from interpreter.simulate.plan import GameSpec, Plan, Variant
from interpreter.simulate.record import Recorder

_NAMES: dict[int, dict[str, str]] = {}


_RULESETS: dict[Variant, object] = {}


def ruleset_of(variant: Variant):
    """The compiled ruleset, loaded once per process (the loader's own cache checks
    every file's time on each call: too slow for every game)."""
    ruleset = _RULESETS.get(variant)
    if ruleset is None:
        mods = [Path(m) for m in variant.mods]
        ruleset = load_or_raise(variant.ruleset, list(variant.expansions), mods)
        _RULESETS[variant] = ruleset
    return ruleset


def named_items(ruleset) -> dict[str, str]:
    """Every id a decision's words may name: word -> component, space or action.

    A record counts each named id, and also "VERB id" when the option starts with a
    word that names nothing (``play E12``, ``rent s_hall2_guest3``)."""
    names = _NAMES.get(id(ruleset))
    if names is None:
        names = {a: "action" for a in ruleset.actions}
        names.update({s: "space" for s in ruleset.spaces})
        names.update({p: "component" for p in ruleset.pieces})
        _NAMES[id(ruleset)] = names
    return names


def unplayed(spec: GameSpec, error: str | None = None) -> dict[str, Any]:
    """The record of a game before it is played; with ``error``, of a game lost with the
    process that played it (a killed worker, a game stopped for time)."""
    return {
        "index": spec.index,
        "variant": spec.variant,
        "players": spec.players,
        "seed": spec.seed,
        "agents": list(spec.agents),
        "decisions": 0,
        "rounds": 0,
        "error": error,
        "seconds": 0.0,
    }


def play(plan: Plan, spec: GameSpec) -> dict[str, Any]:
    """Game ``spec`` of ``plan``, within the plan's limits."""
    return play_game(plan.variants[spec.variant], spec, plan.max_decisions, plan.game_timeout)


def play_games(plan: Plan, specs: list[GameSpec]) -> list[dict[str, Any]]:
    """Some games of ``plan``: what a Dask task plays."""
    return [play(plan, spec) for spec in specs]


def play_game(
    variant: Variant, spec: GameSpec, max_decisions: int = 20000, timeout: float | None = None
) -> dict[str, Any]:
    """Play ``spec`` as `rules play` would; a record of the game (never raises).

    A game still under way after ``max_decisions`` decisions or ``timeout`` seconds (of
    the clock, looked at between decisions) is an error: a run never waits for a game
    that does not end."""
    start = time.perf_counter()
    deadline = float("inf") if timeout is None else start + timeout
    names = [f"P{i + 1}" for i in range(spec.players)]
    record = unplayed(spec)
    game = None
    try:
        ruleset = ruleset_of(variant)
        game = Game(ruleset, names, seed=spec.seed)
        seats = [game.state.players.index(name) for name in names]
        agents = {
            seat: make(kind, seat, spec.seed) for seat, kind in zip(seats, spec.agents, strict=True)
        }
        recorder = Recorder(game, names, named_items(ruleset))
        decisions = 0
        while not game.is_over():
            if decisions >= max_decisions:
                raise GameError(f"the game is not over after {max_decisions} decisions")
            if time.perf_counter() > deadline:
                raise GameError(
                    f"the game did not end within {timeout:g} s (--game-timeout), "
                    f"after {decisions} decisions"
                )
            decision = game.pending()[0]
            choice = agents[decision.player].choose(game, decision)
            recorder.apply(decision.player, decision.options, choice)
            decisions += 1
        _finish(record, game, names, recorder)
    except GameError as exc:  # located where a rule raised it (``GameError.where``)
        record["error"] = exc.headline()
    except Exception as exc:  # any failure is a record, none stops the run
        record["error"] = f"{type(exc).__name__}: {exc}"
    if record["error"] is not None and game is not None:
        record["decisions"] = sum(1 for e in game.events if "player" in e)
    record["seconds"] = time.perf_counter() - start
    return record


def _finish(record: dict, game: Game, names: list[str], recorder: Recorder) -> None:
    """The game's end into its record: scores, winners, length and what each player
    did with each item (``record.Recorder``)."""
    result = game.result()
    record["scores"] = [result.scores.get(n, 0) for n in names]
    record["breakdown"] = [result.breakdown.get(n, {}) for n in names]
    top = set(result.ranking[0]) if result.ranking else set()
    record["winners"] = [p for p, n in enumerate(names) if n in top]
    record["rounds"] = game.state.engine.get("round", 0)
    record["decisions"] = sum(1 for event in game.events if "player" in event)
    recorder.finish()
    recorder.into(record)
