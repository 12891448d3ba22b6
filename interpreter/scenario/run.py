"""Play the scenarios of a file: a fresh game each, the setup, the steps, the checks.

The position is arranged by editing the state after the game's own setup, and moves
go through the engine's sandbox (``run_action``, ``run_step``) and ``Game.apply``, the
same paths ordinary play takes, so a scenario checks the rules as they run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.state import State, knowledge
from interpreter.errors import Diagnostic, GameError, IllegalMove, Location, RuleError
from interpreter.ruleset.dice import set_faces
from interpreter.scenario import expect
from interpreter.scenario.load import DEFAULT_PLAYERS, DEFAULT_SEED, ScenarioFile
from interpreter.scenario.names import Names, ScenarioProblem, cannot_start

# `finish:` plays at most this many decisions (docs/format.md, limits): a game whose
# rules never end fails the scenario instead of running forever.
MAX_FINISH_DECISIONS = 20_000


@dataclass
class Outcome:
    """How one scenario went: passed, or the problems that failed it."""

    name: str
    location: Location
    problems: list[Diagnostic] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "path": self.location.path,
            "line": self.location.line,
            "column": self.location.column,
            "status": "pass" if self.passed else "fail",
            "problems": [p.as_dict() for p in self.problems],
        }


def run_file(source: ScenarioFile) -> list[Outcome]:
    """Run every scenario of ``source`` in file order."""
    return [run_scenario(source, index) for index in range(len(source.data["scenarios"]))]


def run_scenario(source: ScenarioFile, index: int) -> Outcome:
    scenario = source.data["scenarios"][index]
    path = ("scenarios", index)
    outcome = Outcome(scenario["name"], source.at(*path, "name"))
    try:
        _play(source, scenario, path)
    except ScenarioProblem as exc:
        outcome.problems = exc.diagnostics
    return outcome


def _play(source: ScenarioFile, scenario: dict[str, Any], path: tuple) -> None:
    data = source.data
    count = scenario.get("players", data.get("players", DEFAULT_PLAYERS))
    seed = scenario.get("seed", data.get("seed", DEFAULT_SEED))
    where = (*path, "players") if "players" in scenario else ("players",)
    assert source.ruleset is not None
    try:
        game = Game(source.ruleset, [f"P{i + 1}" for i in range(count)], seed=seed)
    except GameError as exc:
        raise ScenarioProblem(
            [Diagnostic(source.at(*where), cannot_start(exc), exc.hint)]
        ) from None
    game.follow_knowledge()  # from the setup's record, before the scenario edits the state
    names = Names(source, game)
    _setup(names, scenario.get("setup", {}), (*path, "setup"))
    for step, step_path in scenario_steps(scenario, path):
        _step(names, step, step_path)


def scenario_steps(scenario: dict[str, Any], path: tuple) -> list[tuple[dict[str, Any], tuple]]:
    """The steps of a scenario in the order they run, each with its place in the file:
    `do`, then `steps`, then `expect`."""
    steps: list[tuple[dict[str, Any], tuple]] = []
    if "do" in scenario:
        steps.append(({"do": scenario["do"]}, path))
    steps += [(step, (*path, "steps", i)) for i, step in enumerate(scenario.get("steps", []))]
    if "expect" in scenario:
        steps.append(({"expect": scenario["expect"]}, path))
    return steps


# ------------------------------------------------------------------- setup
def _setup(names: Names, setup: dict[str, Any], path: tuple) -> None:
    """Arrange the position; in the middle of a step at the step's start as well."""
    for state in names.game.arranged_states():
        arrange(names, state, setup, path)


def arrange(names: Names, state: State, setup: dict[str, Any], path: tuple) -> None:
    for section in ("counters", "variables"):
        for owner, name, value, where in expect.entries(setup.get(section, {}), (*path, section)):
            if section == "counters":
                key = names.counter(name, owner, where)
                state.counters[key] = names.value("number", value, where)
            else:
                key = names.variable(name, owner, where)
                typed = names.ruleset.variables[name].type
                state.variables[key] = names.value(typed, value, where)
    zones = setup.get("zones", {})
    keys = {zone: names.zone(zone, (*path, "zones", zone)) for zone in zones}
    named: set[str] = set()
    for zone, pieces in zones.items():
        for i, piece in enumerate(pieces):
            if names.piece(piece, (*path, "zones", zone, i)) in named:
                names.fail((*path, "zones", zone, i), f"{piece} is put in two places")
            named.add(piece)
    for zone in zones:  # empty the zones first, then fill them
        key = keys[zone]
        for piece in state.contents(key):
            if piece not in named:
                state.zones[key] = tuple(p for p in state.zones[key] if p != piece)
                state.where.pop(piece, None)
    for zone, pieces in zones.items():
        for piece in pieces:
            state.put(piece, keys[zone])
    if named:  # placed by the scenario's hand: nobody saw where they went
        known = knowledge(state)
        state.engine["known"] = {p: seats for p, seats in known.items() if p not in named}
    for space, owner in setup.get("owners", {}).items():
        where = (*path, "owners", space)
        names.space(space, where)
        if owner is None:
            state.owners.pop(space, None)
        else:
            state.owners[space] = names.seat(owner, where)
    _arrange_faces(names, state, setup.get("faces", {}), (*path, "faces"))


def _arrange_faces(names: Names, state: State, faces: dict[str, Any], path: tuple) -> None:
    """Dice turned by hand to the faces named (after the zones: a die's zone says who
    sees it)."""
    dice = names.game.tables.dice
    for die, value in faces.items():
        where = (*path, die)
        if die not in dice:
            what = "no die (its kind has no `faces`)" if die in names.ruleset.pieces else "no piece"
            some = ", ".join(sorted(dice)[:4]) or "none"
            names.fail(where, f"{die} is {what}", f"the dice: {some}, …", key=True)
        if value not in dice[die]:
            names.fail(where, f"{die} has no face {value!r}: its faces are {list(dice[die])}")
    set_faces(state, [(die, int(value)) for die, value in faces.items()], names.game.tables.sees)


# ------------------------------------------------------------------- steps
def _step(names: Names, step: dict[str, Any], path: tuple) -> None:
    kind, body = next(iter(step.items()))
    where = (*path, kind)
    game = names.game
    if kind == "expect":
        problems = expect.check(names, body, where)
        if problems:
            raise ScenarioProblem(problems)
    elif kind == "do":
        action = names.action(body["action"], (*where, "action"))
        seat = names.seat(body["player"], (*where, "player"))
        args = names.args(action, body.get("args", {}), (*where, "args"))
        _guard(
            names,
            where,
            f"{body['player']} cannot do {action}",
            lambda: game.run_action(action, seat, **args),
        )
    elif kind == "turn":
        phase = names.phase(body["phase"], (*where, "phase"))
        seat = None if "player" not in body else names.seat(body["player"], (*where, "player"))
        _guard(names, where, f"the phase {phase} cannot run", lambda: game.run_step(phase, seat))
    elif kind == "answer":
        _answer(names, body, where)
    elif kind == "illegal":
        _illegal(names, body, where)
    elif kind == "options":
        _options(names, body, where)
    elif kind == "finish":
        _finish(names, body, where)


def _guard(names: Names, where: tuple, what: str, move: Any) -> None:
    """Make a move; a refusal or a rule's defect fails the scenario at the step."""
    try:
        move()
    except RuleError as exc:
        names.fail(where, f"{what}: the rules failed: {exc.headline()}", exc.hint)
    except GameError as exc:
        names.fail(where, f"{what}: {exc.message}", exc.hint)


def _decider(names: Names, player: str | None, where: tuple) -> int:
    """The seat that decides now: the one named, else the only one asked."""
    pending = names.game.pending()
    if player is not None:
        return names.seat(player, (*where, "player"))
    if len(pending) == 1:
        return pending[0].player
    if not pending:
        names.fail(where, "nobody has a decision to make now")
    asked = ", ".join(d.player_name for d in pending)
    names.fail(where, f"several players decide now ({asked})", "give `player:`")
    raise AssertionError  # unreachable


def _answer(names: Names, body: Any, where: tuple) -> None:
    if isinstance(body, dict):
        answers = [(body.get("player"), body["option"], where)]
    elif isinstance(body, list):
        answers = [(None, text, (*where, i)) for i, text in enumerate(body)]
    else:
        answers = [(None, body, where)]
    game = names.game
    for player, text, at in answers:
        seat = _decider(names, player, at)
        name = game.state.players[seat]
        options = game.legal(seat)
        if text not in options:
            names.fail(
                at,
                f"{name} cannot answer {text!r}: {game.why_not(seat, text)}",
                f"the options are: {', '.join(options)}" if options else None,
            )
        _guard(names, at, f"{name} cannot answer {text!r}", lambda s=seat, t=text: game.apply(s, t))


def _illegal(names: Names, body: dict[str, Any], where: tuple) -> None:
    game = names.game
    if "action" in body:
        action = names.action(body["action"], (*where, "action"))
        seat = names.seat(body["player"], (*where, "player"))
        args = names.args(action, body.get("args", {}), (*where, "args"))
        try:
            game.run_action(action, seat, **args)
        except IllegalMove as exc:
            reason = exc.message
        else:
            names.fail(where, f"the action {action} was allowed for {body['player']}")
        what = f"the action {action}"
    else:
        seat = _decider(names, body.get("player"), where)
        text = body["option"]
        if text in game.legal(seat):
            try:
                game.apply(seat, text)
            except IllegalMove as exc:
                reason = exc.message
            else:
                names.fail(where, f"{text!r} was accepted: it is a legal option")
        else:
            reason = game.why_not(seat, text)
        what = repr(text)
    wanted = body.get("reason")
    if wanted is not None and wanted not in reason:
        names.fail(
            (*where, "reason"),
            f"{what} was refused for another reason: expected {wanted!r}, got {reason!r}",
        )


def _options(names: Names, body: dict[str, Any], where: tuple) -> None:
    seat = _decider(names, body.get("player"), where)
    problems = expect.option_problems(names, names.game.legal(seat), body, where)
    if problems:
        raise ScenarioProblem(problems)


def agent_kind(names: Names, spec: str, where: tuple) -> None:
    """Refuse a `finish:` that names no agent, or a person (nobody answers a test)."""
    from interpreter import agents

    if spec == "first":
        return
    try:
        kind, _ = agents.parse(spec)
    except ValueError as exc:
        names.fail(where, str(exc))
        return
    if kind is agents.HumanAgent:
        names.fail(where, "a scenario cannot ask a person", "use first, random or greedy")


def _finish(names: Names, spec: str, where: tuple) -> None:
    """Play on to the end of the game: each decision answered with its first option
    (`first`) or by the agent of ``spec`` (seeded by the scenario's seed), at most
    ``MAX_FINISH_DECISIONS`` of them."""
    from interpreter import agents

    game = names.game
    chooser: dict[int, Any] = {}
    agent_kind(names, spec, where)
    for _ in range(MAX_FINISH_DECISIONS):
        if game.is_over():
            return
        pending = game.pending()
        if not pending:
            _guard(names, where, "the game cannot go on", game.resume)
            continue
        decision = pending[0]
        if spec == "first":
            text = decision.options[0]
        else:
            agent = chooser.get(decision.player)
            if agent is None:
                agent = chooser[decision.player] = agents.make(spec, decision.player, game.seed)
            text = agent.choose(game, decision)
        _guard(
            names,
            where,
            f"{decision.player_name} cannot answer {text!r}",
            lambda d=decision, t=text: game.apply(d.player, t),
        )
    if not game.is_over():
        names.fail(where, f"the game did not end within {MAX_FINISH_DECISIONS} decisions")
