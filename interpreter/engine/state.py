"""Game state as plain data, keyed by the ruleset's names.

Every container is a flat dict of immutable values (ints, strings, tuples), so a
copy is a handful of shallow dict copies: search and simulation copy constantly.
A zone holds its components as ``Piece`` values, the rules' own, so that reading a
zone's contents makes nothing new.
Per-player entries use the key ``name#seat`` (``coins#0``, ``hand#2``).
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Iterator, Mapping
from hashlib import sha256
from typing import Any

from interpreter.language.values import Piece, to_json


class UnfollowedKnowledge(Mapping):
    """What each player knows of hidden components, in a game that does not follow it:
    a replay that only checks the moves (``replay(views=False)``). The rules never read
    it, views and digests do: reading it here is a defect of the caller, raised at once
    rather than showing a player less, or more, than they know."""

    def __getitem__(self, piece: str) -> tuple[int, ...]:
        raise _not_followed()

    def __iter__(self) -> Iterator[str]:
        raise _not_followed()

    def __len__(self) -> int:
        raise _not_followed()

    def __repr__(self) -> str:
        return "<knowledge not followed>"

    def resolve(self, state: State) -> dict[str, tuple[int, ...]]:
        """What each player knows in ``state`` (``knowledge``): refused here."""
        raise _not_followed()


def _not_followed() -> RuntimeError:
    return RuntimeError(
        "this game does not follow what each player knows (replayed without views): "
        "replay it with views to show or digest a position"
    )


UNFOLLOWED = UnfollowedKnowledge()  # ``engine["known"]`` of a game that does not follow it


class PendingKnowledge(UnfollowedKnowledge):
    """What each player knows, in a game nobody has asked yet. Playing never reads it
    (the rules cannot), so a game only starts following it when a view, a world or a
    digest first asks: ``Game.follow_knowledge`` then works out what everyone knows so
    far by playing the game again from its record. A game of agents that never look
    (random play, simulations) never pays for it.

    Read through ``knowledge(state)``; read directly, it refuses like
    ``UnfollowedKnowledge``."""

    __slots__ = ("_game",)

    def __init__(self, game: Any):
        self._game = weakref.ref(game)  # no cycle: the game holds its state

    def __repr__(self) -> str:
        return "<knowledge not asked for yet>"

    def resolve(self, state: State) -> dict[str, tuple[int, ...]]:
        game = self._game()
        if game is None or (state is not game.state and state is not game._snapshot):
            raise RuntimeError(
                "what each player knew in this position was not followed: call the game's "
                "follow_knowledge() before copying a state to show or digest it later"
            )
        game.follow_knowledge()
        return state.engine["known"]


def knowledge(state: State) -> dict[str, tuple[int, ...]]:
    """Who knows each hidden component of ``state`` (``{piece: seats}``), followed from
    here on if nobody had asked yet (``PendingKnowledge``)."""
    known = state.engine.get("known", {})
    return known if type(known) is dict else known.resolve(state)


_WHEREVER = object()  # ``State.put``: where the piece is has not been looked up


class State:
    """Counters, zone contents, space owners, piece locations and variables."""

    __slots__ = ("counters", "engine", "owners", "players", "variables", "where", "zones")

    def __init__(self, players: tuple[str, ...]):
        self.players = players
        self.counters: dict[str, int] = {}
        self.variables: dict[str, Any] = {}
        self.zones: dict[str, tuple[str, ...]] = {}
        self.owners: dict[str, int] = {}
        self.where: dict[str, str] = {}
        self.engine: dict[str, Any] = {}  # the engine's own bookkeeping (agenda, pending, ...)

    def copy(self) -> State:
        other = State.__new__(State)
        other.players = self.players
        other.counters = self.counters.copy()
        other.variables = self.variables.copy()
        other.zones = self.zones.copy()
        other.owners = self.owners.copy()
        other.where = self.where.copy()
        other.engine = self.engine.copy()
        return other

    # Zones -----------------------------------------------------------------
    def contents(self, zone: str) -> tuple[str, ...]:
        return self.zones.get(zone, ())

    def put(self, piece: str, zone: str, position: int | None = None, old: Any = _WHEREVER) -> None:
        """Move ``piece`` from wherever it is (``old``, if the caller has looked it up
        already) into ``zone`` (end by default)."""
        zones, where = self.zones, self.where
        if old is _WHEREVER:
            old = where.get(piece)
        if old is not None:
            items = zones[old]
            index = items.index(piece)
            if index == 0:  # the top: a draw
                zones[old] = items[1:]
            else:
                zones[old] = items[:index] + items[index + 1 :]
        item = piece if type(piece) is Piece else Piece(piece)
        items = zones.get(zone, ())
        if position is None or position >= len(items):
            zones[zone] = items + (item,)  # noqa: RUF005 - one allocation: measured fewer instructions
        else:
            position = max(0, position)
            zones[zone] = (*items[:position], item, *items[position:])
        where[item] = zone

    def set_order(self, zone: str, pieces: tuple[str, ...]) -> None:
        self.zones[zone] = tuple(p if type(p) is Piece else Piece(p) for p in pieces)

    # Serialization ---------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "counters": dict(sorted(self.counters.items())),
            "variables": {k: to_json(v) for k, v in sorted(self.variables.items())},
            "zones": {k: list(v) for k, v in sorted(self.zones.items()) if v},
            "owners": dict(sorted(self.owners.items())),
            "engine": {
                k: _jsonable(knowledge(self) if k == "known" else v)
                for k, v in sorted(self.engine.items())
            },
        }

    def digest(self) -> str:
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return "sha256:" + sha256(text.encode()).hexdigest()


def _jsonable(value: Any) -> Any:
    try:
        return to_json(value)
    except TypeError:
        return repr(value)
