"""Turn the names a scenario file writes into the engine's state keys.

A scenario names players (``P1``), counters, variables, zones (``P1.hand``), board
spaces and pieces in the ruleset's own words; each is checked against the ruleset and
the game, and a wrong name is a located error with the nearest names as a hint.
"""

from __future__ import annotations

from typing import Any

from interpreter.engine.game import Game
from interpreter.errors import Diagnostic, GameError, Location, RuleError
from interpreter.language.compiled import did_you_mean
from interpreter.language.values import ActionRef, Piece, Player, ZoneRef
from interpreter.scenario.load import ScenarioFile


class ScenarioProblem(Exception):
    """A scenario that cannot go on: a wrong name, a refused move, a failed check."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


def cannot_start(exc: GameError) -> str:
    """The message of a game a scenario cannot start: a defect of the rules (their
    setup) names the rule's place, not only the scenario's line."""
    said = exc.headline() if isinstance(exc, RuleError) else exc.message
    return f"the game cannot start: {said}"


def _near(name: str, candidates: Any) -> str | None:
    return did_you_mean(name, [str(c) for c in candidates])


class Names:
    """Name checks and conversions for one game of one scenario file."""

    def __init__(self, source: ScenarioFile, game: Game):
        self.source = source
        self.game = game
        self.ruleset = game.ruleset

    # ------------------------------------------------------------- reporting
    def at(self, path: tuple, key: bool = False) -> Location:
        return self.source.document.location(path, key=key)

    def fail(self, path: tuple, message: str, hint: str | None = None, key: bool = False):
        raise ScenarioProblem([Diagnostic(self.at(path, key), message, hint, kind="scenario")])

    # ----------------------------------------------------------------- names
    def seat(self, name: Any, path: tuple, key: bool = False) -> int:
        players = self.game.state.players
        if name not in players:
            hint = _near(str(name), players) or f"the players are {', '.join(players)}"
            self.fail(path, f"there is no player {name!r}", hint, key)
        return players.index(name)

    def counter(self, name: str, owner: str | None, path: tuple) -> str:
        """The state key of a counter (``name`` or ``name#seat``)."""
        return self._keyed(self.ruleset.counters, "counter", name, owner, path)

    def variable(self, name: str, owner: str | None, path: tuple) -> str:
        return self._keyed(self.ruleset.variables, "variable", name, owner, path)

    def _keyed(self, table: dict, what: str, name: str, owner: str | None, path: tuple) -> str:
        definition = table.get(name)
        if definition is None:
            self.fail(path, f"there is no {what} {name!r}", _near(name, table), key=True)
        if owner is None:
            if definition.per == "player":
                self.fail(
                    path,
                    f"the {what} {name!r} is per player",
                    f"write it under a player's name: `P1: {{{name}: …}}`",
                    key=True,
                )
            return name
        if definition.per != "player":
            self.fail(
                path,
                f"the {what} {name!r} is the game's, not a player's",
                f"write it at the top level: `{name}: …`",
                key=True,
            )
        return f"{name}#{self.seat(owner, path[:-1], key=True)}"

    def zone(self, text: str, path: tuple, key: bool = True) -> str:
        """The state key of a zone or board space: ``deck``, ``P1.hand``, ``space1``."""
        owner, _, name = text.rpartition(".")
        zones = self.ruleset.zones
        spaces = self.game.tables.spaces
        if name in zones:
            per_player = zones[name].per == "player"
            if per_player and not owner:
                self.fail(path, f"the zone {name!r} is per player", f"write `P1.{name}`", key)
            if owner and not per_player:
                self.fail(path, f"the zone {name!r} is the game's", f"write `{name}`", key)
            return f"{name}#{self.seat(owner, path, key)}" if owner else name
        if name in spaces and not owner:
            return name
        if name in self.ruleset.spaces and not owner:
            self.fail(path, f"the space {name!r} is not on the board side of this game", key=key)
        self.fail(path, f"there is no zone or space {text!r}", _near(name, [*zones, *spaces]), key)
        raise AssertionError  # unreachable: fail raises

    def space(self, name: str, path: tuple) -> str:
        if name not in self.game.tables.spaces:
            self.fail(
                path,
                f"there is no board space {name!r}",
                _near(name, self.game.tables.spaces),
                key=True,
            )
        return name

    def piece(self, name: Any, path: tuple) -> str:
        if name not in self.ruleset.pieces:
            self.fail(path, f"there is no piece {name!r}", _near(str(name), self.ruleset.pieces))
        return str(name)

    def action(self, name: str, path: tuple) -> str:
        if name not in self.ruleset.actions:
            self.fail(path, f"there is no action {name!r}", _near(name, self.ruleset.actions))
        return name

    def phase(self, name: str, path: tuple) -> str:
        ids = [phase.id for phase in self.ruleset.phases]
        if name not in ids:
            self.fail(
                path,
                f"there is no phase {name!r}",
                _near(name, ids) or f"the phases are {', '.join(ids)}",
            )
        return name

    def scoring_step(self, name: str, path: tuple) -> str:
        """A final scoring step's id, or `play` (the score gained before the scoring)."""
        from interpreter.engine.words import PLAY

        ids = [PLAY, *(step.id for step in self.ruleset.scoring)]
        if name not in ids:
            self.fail(
                path,
                f"there is no scoring step {name!r}",
                _near(name, ids) or f"the steps are {', '.join(ids)}",
                key=True,
            )
        return name

    def seen_name(self, name: Any, path: tuple) -> str:
        """What a view can show: a piece, a game counter or variable, or a player's
        (`P1.coins`, `P1.bid`)."""
        text = str(name)
        owner, _, counter = text.rpartition(".")
        rules = self.ruleset
        if counter in rules.variables and counter not in rules.counters:
            self.variable(counter, owner or None, path)
            return text
        if owner or text in rules.counters:
            self.counter(counter, owner or None, path)
            return text
        if text not in self.ruleset.pieces:
            near = _near(text, [*self.ruleset.pieces, *self.ruleset.counters])
            self.fail(path, f"there is no piece or counter {text!r}", near)
        return text

    # ---------------------------------------------------------------- values
    def value(self, type_: str, raw: Any, path: tuple) -> Any:
        """A value of the language's type ``type_`` from what the file wrote."""
        if raw is None:
            return None
        if type_.startswith("list"):
            item = type_.partition(":")[2] or "any"
            items = raw if isinstance(raw, list) else [raw]
            return tuple(self.value(item, v, (*path, i)) for i, v in enumerate(items))
        if isinstance(raw, list | dict):
            self.fail(path, f"expected one value of type {type_}, not a list or a mapping")
        if type_ == "player":
            return Player(self.seat(raw, path))
        if type_ == "piece":
            return Piece(self.piece(raw, path))
        if type_ == "zone":
            return ZoneRef(self.zone(str(raw), path, key=False))
        if type_ == "action":
            return ActionRef(self.action(str(raw), path))
        if type_ == "number" and not isinstance(raw, int | float):
            self.fail(path, f"expected a number, not {raw!r}")
        if type_ == "bool" and not isinstance(raw, bool):
            self.fail(path, f"expected true or false, not {raw!r}")
        return raw

    def args(self, action: str, raw: dict[str, Any], path: tuple) -> dict[str, Any]:
        params = self.ruleset.actions[action].params
        out = {}
        for name, value in raw.items():
            if name not in params:
                hint = _near(name, params) or (
                    f"its parameters are {', '.join(params)}" if params else "it takes none"
                )
                self.fail(
                    (*path, name),
                    f"the action {action!r} has no parameter {name!r}",
                    hint,
                    key=True,
                )
            out[name] = self.value(params[name], value, (*path, name))
        return out


def shown(value: Any, players: tuple[str, ...]) -> Any:
    """A state value as a scenario file writes it (players by name, zones by id)."""
    if isinstance(value, Player):
        return players[int(value)]
    if isinstance(value, tuple | list):
        return [shown(v, players) for v in value]
    if isinstance(value, Piece | ZoneRef | ActionRef):
        return str(value)
    return value
