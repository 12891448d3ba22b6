"""What a player at the table has when they decide: a ``Seat``.

Agents are handed a seat, never the game: their view of the position, their open
decision, the rules, and *worlds* to look ahead in. A world is a copy of the game
in which everything this player cannot know is sampled afresh, consistently with
what they do know (a determinization):

* the pieces hidden from them (in zones they cannot see, and not revealed to them)
  are dealt again at random over the same hidden places; pieces of kinds found
  together in a hidden zone (a shuffled deck of mixed cards) form one family and
  are dealt among that family's places only, so a bag of tiles never lands in a hand;
* counters and variables hidden from them are set back to their initial values;
* other players' secret choices in a simultaneous step are left out;
* future chance outcomes come from the world's own seed, not the game's.

So whatever an agent computes from a seat is the same for two games that differ
only in what that player cannot know.

A world is a ``Game`` like any other (agents apply moves to it, copy it, ask its
estimate), with one difference: until its current step ends, rebuilding it from the
step's start would bring back the real hidden pieces, so it is instead derived again
from the seat with the same seed and the moves made in it since.

Known limit: an effect already under way may hold a hidden piece in a local name
(picked before this decision); in a world it keeps that piece's identity.
"""

from __future__ import annotations

from typing import Any

from interpreter.engine import chance
from interpreter.engine.game import Decision, Game
from interpreter.engine.state import State, knowledge
from interpreter.engine.view import view
from interpreter.errors import GameError
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.tables import Tables


class Seat:
    """One player's side of the table while they decide."""

    __slots__ = ("_game", "decision")

    def __init__(self, game: Game, decision: Decision):
        self._game = game
        self.decision = decision

    @property
    def player(self) -> int:
        return self.decision.player

    @property
    def name(self) -> str:
        return self.decision.player_name

    @property
    def options(self) -> tuple[str, ...]:
        return self.decision.options

    @property
    def prompt(self) -> str:
        return self.decision.prompt

    @property
    def ruleset(self) -> Ruleset:
        return self._game.ruleset

    @property
    def tables(self) -> Tables:
        return self._game.tables

    def view(self) -> dict[str, Any]:
        """The position as this player sees it (``view.view``)."""
        return view(self._game, self.player)

    def why_not(self, text: str) -> str:
        """Why ``text`` is not one of this decision's options, in the rules' words."""
        return self._game.why_not(self.player, text)

    def sample(self, seed: int | str) -> Game:
        """A world consistent with what this player knows; the same seed, the same world."""
        return determinize(self._game, self.player, seed)


class World(Game):
    """A game sampled from a seat (see the module's docstring)."""

    _origin: Game
    _viewer: int
    _seed: int | str
    _moves: list[tuple[int, str]]
    _sampled_snapshot: Any

    def _in_sampled_step(self) -> bool:
        return self._snapshot is not None and self._snapshot is self._sampled_snapshot

    def apply(self, player: int | str, text: str) -> None:
        seat = self.state.players.index(player) if isinstance(player, str) else int(player)
        in_step = self._in_sampled_step()
        super().apply(seat, text)
        if in_step:
            self._moves.append((seat, text))

    def copy(
        self, hide_from: int | None = None, same_chance: bool = False, seed: int | str | None = None
    ) -> Game:
        if not self._in_sampled_step():
            return super().copy(hide_from, same_chance, seed)
        return self._derive()

    def _return_to(self, position: tuple) -> None:
        if position[0] is not self._sampled_snapshot:
            super()._return_to(position)
            return
        self.__dict__.update(self._derive().__dict__)

    def _derive(self) -> World:
        world = determinize(self._origin, self._viewer, self._seed)
        for seat, text in self._moves:
            world.apply(seat, text)
        return world


def determinize(game: Game, seat: int, seed: int | str) -> World:
    """A copy of ``game`` with everything hidden from ``seat`` sampled afresh."""
    hide = seat if game.has_secret_decisions() else None
    world = game.copy(hide_from=hide, seed=f"world:{seed}")
    world.__class__ = World
    assert isinstance(world, World)
    world._origin, world._viewer, world._seed, world._moves = game, seat, seed, []
    world._sampled_snapshot = world._snapshot
    _deal_hidden_pieces(world.state, world.tables, seat, seed)
    _forget_hidden_counts(world, seat)
    return world


def alternative(game: Game, seat: int, seed: int | str) -> Game | None:
    """A game that differs from ``game`` only in what ``seat`` cannot know, or None.

    The pieces hidden from ``seat`` at the start of the step under way (and that they
    cannot identify now either) are dealt again there, and the step is replayed with
    those pieces renamed in its answers and chance outcomes. None between steps, or
    when the step does not replay so (a hidden piece changed its course in a way
    ``seat`` saw: then the two games do not look alike to them anyway). Whatever
    ``seat`` sees must be the same in both games: the secrecy tests compare them.
    """
    start = game.step_start()
    if start is None:
        return None
    snapshot, histories = start
    tables, now = game.tables, game.state
    known = knowledge(now)
    keep = frozenset(
        p
        for zone, items in now.zones.items()
        for p in items
        if tables.sees(zone, seat) or seat in known.get(p, ())
    )
    renamed = _deal_hidden_pieces(snapshot, tables, seat, seed, keep)
    start_known = snapshot.engine.get("known", {})
    snapshot.engine["known"] = {renamed.get(p, p): who for p, who in start_known.items()}
    histories = {
        key: tuple(_rename(entry, renamed) for entry in entries)
        for key, entries in histories.items()
    }
    try:
        return game.replayed(snapshot, histories)
    except GameError:
        return None


def _rename(entry: tuple, renamed: dict[str, str]) -> tuple:
    def words(text: str) -> str:
        return " ".join(renamed.get(word, word) for word in text.split(" "))

    if entry[0] == "chance":
        return (entry[0], entry[1], tuple(words(str(o)) for o in entry[2]))
    return (entry[0], words(entry[1]), *entry[2:])


def _deal_hidden_pieces(
    state: State, tables: Tables, seat: int, seed: int | str, keep: frozenset = frozenset()
) -> dict[str, str]:
    """Deal the pieces hidden from ``seat`` (but those in ``keep``) again over their
    places, family by family; return which piece took each dealt piece's place."""
    known = knowledge(state)
    kind = tables.piece_kind
    places: list[tuple[str, int, str]] = []  # (zone, index, piece) hidden from seat
    family: dict[str, str] = {}  # kind -> representative kind (union-find)

    def root(k: str) -> str:
        while family.setdefault(k, k) != k:
            k = family[k]
        return k

    for zone in sorted(state.zones):
        items = state.zones[zone]
        if not items or tables.sees(zone, seat):
            continue
        hidden = [
            (i, p) for i, p in enumerate(items) if seat not in known.get(p, ()) and p not in keep
        ]
        for i, piece in hidden:
            places.append((zone, i, piece))
            family[root(kind[piece])] = root(kind[hidden[0][1]])
    by_family: dict[str, list[tuple[str, int, str]]] = {}
    for place in places:
        by_family.setdefault(root(kind[place[2]]), []).append(place)
    zones = {zone: list(state.zones[zone]) for zone, _, _ in places}
    renamed: dict[str, str] = {}
    for members in by_family.values():
        pieces = tuple(sorted(p for _, _, p in members))
        family_name = "/".join(sorted({kind[p] for p in pieces}))
        # shuffled from a sorted list: the deal must not depend on the real arrangement
        dealt = chance.shuffled(f"deal:{seed}:{family_name}", 0, pieces)
        for (zone, i, old), piece in zip(members, dealt, strict=True):
            zones[zone][i] = piece
            state.where[piece] = zone
            renamed[old] = piece
    for zone, items in zones.items():
        state.zones[zone] = tuple(items)
    return renamed


def _forget_hidden_counts(world: Game, seat: int) -> None:
    """Counters and variables ``seat`` cannot see go back to their initial values."""
    state, tables, ruleset = world.state, world.tables, world.ruleset
    for definitions, values in (
        (ruleset.counters, state.counters),
        (ruleset.variables, state.variables),
    ):
        for name, definition in definitions.items():
            if definition.visibility == "public":
                continue
            initial = tables.initial(definition.initial)
            if definition.per == "game":
                values[name] = initial
                continue
            for other in range(len(state.players)):
                if not (definition.visibility == "private" and other == seat):
                    values[f"{name}#{other}"] = initial
