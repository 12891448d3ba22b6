"""Check a scenario file without playing it: what `rules validate` does with one.

A scenario file (recognised by ``detect.py``) is checked as one: its
schema, the ruleset, expansions and mods it names (loaded as `rules test` loads
them), and every name its setups, steps and expectations write, against a new game
of each player count it asks for. Nothing is played: whether the expectations hold
is `rules test`'s job.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from interpreter.engine.game import Game
from interpreter.errors import Diagnostic, GameError
from interpreter.scenario import expect
from interpreter.scenario.load import DEFAULT_PLAYERS, DEFAULT_SEED, ScenarioFile, load_scenarios
from interpreter.scenario.names import Names, ScenarioProblem, cannot_start


def check_file(path: Path, display: str) -> list[Diagnostic]:
    """Every problem of the scenario file at ``path``: schema, ruleset and mods, names."""
    loaded = load_scenarios(path, display=display)
    if isinstance(loaded, list):
        return loaded
    problems: list[Diagnostic] = []
    games: dict[tuple, Game | None] = {}
    data = loaded.data
    for index, scenario in enumerate(data["scenarios"]):
        count = scenario.get("players", data.get("players", DEFAULT_PLAYERS))
        seed = scenario.get("seed", data.get("seed", DEFAULT_SEED))
        if (count, seed) not in games:
            games[(count, seed)] = _game(loaded, count, seed, index, problems)
        game = games[(count, seed)]
        if game is not None:
            problems += _names(Names(loaded, game), scenario, ("scenarios", index))
    return problems


def _game(
    source: ScenarioFile, count: int, seed: Any, index: int, problems: list[Diagnostic]
) -> Game | None:
    assert source.ruleset is not None
    try:
        game = Game(source.ruleset, [f"P{i + 1}" for i in range(count)], seed=seed)
        game.follow_knowledge()  # as a scenario's game does: a view needs it
        return game
    except GameError as exc:
        where = ("scenarios", index, "players")
        if "players" not in source.data["scenarios"][index]:
            where = ("players",)
        problems.append(Diagnostic(source.at(*where), cannot_start(exc), exc.hint))
        return None


def _names(names: Names, scenario: dict[str, Any], path: tuple) -> list[Diagnostic]:
    """The wrong names of one scenario (each part checked on its own, so all are found)."""
    from interpreter.scenario.run import agent_kind, arrange, scenario_steps

    problems: list[Diagnostic] = []
    if "setup" in scenario:
        try:
            arrange(names, names.game.state.copy(), scenario["setup"], (*path, "setup"))
        except ScenarioProblem as exc:
            problems += exc.diagnostics
    for step, where in scenario_steps(scenario, path):
        kind, body = next(iter(step.items()))
        at = (*where, kind)
        try:
            if kind == "expect":
                expect.check(names, body, at)  # mismatches are rules test's to report
            elif kind == "finish":
                agent_kind(names, body, at)
            elif kind == "turn":
                names.phase(body["phase"], (*at, "phase"))
                if "player" in body:
                    names.seat(body["player"], (*at, "player"))
            elif isinstance(body, dict):
                _move_names(names, body, at)
        except ScenarioProblem as exc:
            problems += exc.diagnostics
    return problems


def _move_names(names: Names, body: dict[str, Any], at: tuple) -> None:
    """The names of a `do`, `illegal`, `answer` or `options` step."""
    if body.get("player") is not None:
        names.seat(body["player"], (*at, "player"))
    if "action" in body:
        action = names.action(body["action"], (*at, "action"))
        names.args(action, body.get("args", {}), (*at, "args"))
