"""What a player at the table has when they decide: a ``Seat``.

Agents are handed a seat, never the game: their view of the position, their open
decision, the rules, and *worlds* to look ahead in. A world is a game in which
everything this player cannot know is sampled afresh, consistently with what they
do know (a determinization):

* the pieces hidden from them (in zones they cannot see, and not revealed to them)
  are dealt again at random over the same hidden places; pieces of kinds found
  together in a hidden zone (a shuffled deck of mixed cards) form one family and
  are dealt among that family's places only, so a bag of tiles never lands in a hand
  (a family is taken to be told apart at a glance, as a card's back is); a place
  whose piece carries public marks (``mark``: "these cards are red, the others are
  not") takes only a piece the marks fit, and the marks go with the place
  (``_honour_marks``);
* the faces of the dice among those pieces are rolled afresh, and so are the rolls of
  the step under way in zones they cannot see (``ruleset/dice.py``);
* counters and variables hidden from them are set back to their initial values;
* other players' secret choices in a simultaneous step are left out;
* future chance outcomes come from the world's own seed, not the game's.

The deal is made at the start of the step under way, and the step is replayed from
there (``Worlds``): a world is a ``Game`` like any other, whose effects under way, open
decisions and options all come from its own dealt position. So whatever an agent
computes from a seat is the same for two games that differ only in what that player
cannot know (``tests/agents/test_fairness.py``).
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from interpreter.engine import marks
from interpreter.engine.executor import StopEffect
from interpreter.engine.game import Decision, Game
from interpreter.engine.marks import honour
from interpreter.engine.state import State, knowledge
from interpreter.engine.view import view
from interpreter.errors import GameError
from interpreter.ruleset import dice
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.tables import Tables
from interpreter.ruleset.visibility import seen_by


class Seat:
    """One player's side of the table while they decide."""

    __slots__ = ("_game", "_worlds", "decision")

    def __init__(self, game: Game, decision: Decision):
        self._game = game
        self.decision = decision
        self._worlds: Worlds | None = None  # made at the first world asked for

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
        if self._worlds is None:
            self._worlds = Worlds(self._game, self.player)
        return self._worlds.sample(seed)


MAX_DEALS = 8  # deals tried for a world before it is dealt in place (``Worlds``)


class Worlds:
    """The worlds one player may be in at one position, sampled one seed at a time.

    What is hidden from the player at the start of the step under way (and that they
    cannot identify now) is worked out once, with its places and families. A world is
    then a copy of that start with those pieces dealt again, and the step replayed
    from it: the player's answers, the others' answers the player saw and the chance
    outcomes so far, with the dealt pieces renamed (as ``alternative`` does). So every
    effect under way in a world runs on the world's own position: the others' open
    decisions, their options and prompts come from the hands dealt to them, nothing an
    effect picked among the real hidden pieces is carried over, and a copy of a world,
    or a move undone in it, replays from the world's own start.

    A deal whose step does not replay (the step took a course, seen by the player, that
    this deal does not give) is dealt again from the next seed: whether a deal replays
    depends only on what the player knows, so the world stays theirs. After
    ``MAX_DEALS`` (never reached in the shipped games: a deal replays more than 99 times
    in 100), or with no step under way, the world is the position copied with its
    hidden pieces dealt again where they are now; its open decisions, and a copy of it
    within the step, then still come from the real position.

    Known limit: a chance outcome of the step among pieces the player cannot see (a
    card taken at random from another's hand) is followed by place: two games that
    differ only in which hidden place it took give, for one seed, different worlds
    (equally likely ones).
    """

    __slots__ = ("_families", "_game", "_hide", "_histories", "_seat", "_start")

    def __init__(self, game: Game, seat: int):
        self._game, self._seat = game, seat
        self._hide = seat if game.has_secret_decisions() else None
        begun = game.step_start(self._hide)
        self._histories: dict[str, tuple] | None = None
        if begun is not None:
            self._start, self._histories = begun
            _forget_hidden_counts(self._start, game, seat)
            keep = _identified(game, seat, self._hide)
            self._families = _families(self._start, game.tables, seat, keep)

    def sample(self, seed: int | str) -> Game:
        """The world of ``seed``: the same seed, the same world."""
        tables = self._game.tables
        for attempt in range(MAX_DEALS if self._histories is not None else 0):
            start = self._start.copy()
            dealt = seed if attempt == 0 else f"{seed}/{attempt}"
            renamed = _deal(start, self._families, dealt, tables)
            _rename_known(start, renamed)
            histories = _rolled_afresh(start, self._game, self._seat, self._families, dealt)(
                _renamed(self._histories, renamed)
            )
            try:
                return self._game.replayed(start, histories, seed=f"world:{seed}")
            except (GameError, StopEffect):
                continue
        world = self._game.copy(hide_from=self._hide, seed=f"world:{seed}")
        _forget_hidden_counts(world.state, world, self._seat)
        families = _families(world.state, tables, self._seat, frozenset())
        _deal(world.state, families, seed, tables)
        _rolled_afresh(world.state, world, self._seat, families, seed)
        return world


def determinize(game: Game, seat: int, seed: int | str) -> Game:
    """A copy of ``game`` with everything hidden from ``seat`` sampled afresh."""
    return Worlds(game, seat).sample(seed)


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
    keep = _identified(game, seat, seat if game.has_secret_decisions() else None)
    families = _families(snapshot, game.tables, seat, keep)
    renamed = _deal(snapshot, families, seed, game.tables)
    _rename_known(snapshot, renamed)
    if [f[:3] for f in _families(snapshot, game.tables, seat, keep)] != [f[:3] for f in families]:
        return None  # kinds brought together that were apart: not alike to the player
    afresh = _rolled_afresh(snapshot, game, seat, families, seed)
    try:
        return game.replayed(snapshot, afresh(_renamed(histories, renamed)))
    except GameError:
        return None


def _identified(game: Game, seat: int, hide: int | None) -> frozenset:
    """The pieces ``seat`` sees or knows now (without the others' secret decisions, with
    ``hide``: a piece another player put in a public zone in secret is not seen yet):
    neither a world nor a twin moves them."""
    tables = game.tables
    now = game.state if hide is None else game.copy(hide_from=hide).state
    known = knowledge(now)
    return frozenset(
        p
        for zone, items in now.zones.items()
        for p in items
        if tables.sees(zone, seat) or seat in known.get(p, ())
    )


class _Family(NamedTuple):
    """Hidden pieces dealt among the same places: kinds found together in a hidden zone."""

    kinds: str  # its kinds, sorted
    pieces: tuple[str, ...]  # sorted: the deal must not depend on the real arrangement
    places: tuple[tuple[str, tuple[int, ...]], ...]  # (zone, indices there), zone by zone
    old: tuple[str, ...]  # the piece at each place, in that order, before any deal


def _families(state: State, tables: Tables, seat: int, keep: frozenset) -> list[_Family]:
    """The pieces of ``state`` hidden from ``seat`` (but those in ``keep``), by family."""
    known = knowledge(state)
    kind = tables.piece_kind
    hidden_in: dict[str, list[tuple[int, str]]] = {}  # zone -> (index, piece) hidden there
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
        if hidden:
            hidden_in[zone] = hidden
            for kind_here in {kind[p] for _, p in hidden}:
                family[root(kind_here)] = root(kind[hidden[0][1]])
    by_family: dict[str, list[tuple[str, list[tuple[int, str]]]]] = {}
    for zone, hidden in hidden_in.items():  # a zone's hidden pieces are of one family
        by_family.setdefault(root(kind[hidden[0][1]]), []).append((zone, hidden))
    out = []
    for members in by_family.values():
        old = tuple(p for _, hidden in members for _, p in hidden)
        places = tuple((zone, tuple(i for i, _ in hidden)) for zone, hidden in members)
        kinds = "/".join(sorted({kind[p] for p in old}))
        out.append(_Family(kinds, tuple(sorted(old)), places, old))
    return out


def _deal(state: State, families: list[_Family], seed: int | str, tables: Tables) -> dict[str, str]:
    """Deal each family's pieces again over its places in ``state``; return which piece
    took each dealt piece's place.

    A shuffle by random keys: one seeded generator for the whole deal, a key per piece,
    and the sort in C (several times faster than a Fisher-Yates in Python, and the same
    on every machine: the Mersenne Twister's floats are). Where the state holds public
    marks (``engine/marks.py``), a marked place takes only a piece the marks fit, and
    the marks go to the piece dealt there (``_honour_marks``)."""
    rng = random.Random(f"deal:{seed}")
    zones, where = state.zones, state.where
    renamed: dict[str, str] = {}
    marked = marks.marks_of(state)
    for family in families:
        keys = [rng.random() for _ in family.pieces]
        dealt = [p for _, p in sorted(zip(keys, family.pieces, strict=True))]
        if marked and any(p in marked for p in family.old):
            dealt = _honour_marks(rng, family, dealt, marked, tables)
        renamed.update(zip(family.old, dealt, strict=True))
        at = 0
        for zone, indices in family.places:
            here = dealt[at : at + len(indices)]
            at += len(indices)
            where.update(dict.fromkeys(here, zone))
            items = zones[zone]
            if len(indices) == len(items):  # the whole zone is dealt (a deck, a hand)
                zones[zone] = tuple(here)
                continue
            items = list(items)
            for i, piece in zip(indices, here, strict=True):
                items[i] = piece
            zones[zone] = tuple(items)
    marks.renamed_marks(state, renamed)
    return renamed


def _honour_marks(
    rng: random.Random, family: _Family, dealt: list[str], marked: dict, tables: Tables
) -> list[str]:
    """``dealt`` arranged so that every marked place of ``family`` takes a piece its
    marks fit (``marks.honour``). A dead end (a place nothing left fits, as the pieces
    went to the places before it) deals again from the same generator, up to
    ``marks.MAX_MARK_DEALS`` times; the last deal then breaks the marks of the places it
    cannot meet, and only those (rare: the places with the fewest fitting pieces are
    served first, and the real arrangement always fits). Depends only on what the seat
    knows: the family's pieces (sorted), its places and the public marks there."""
    props = tables.piece_props
    for attempt in range(1, marks.MAX_MARK_DEALS + 1):
        arranged = honour(dealt, family.old, marked, props, attempt < marks.MAX_MARK_DEALS)
        if arranged is not None:
            return arranged
        keys = [rng.random() for _ in family.pieces]
        dealt = [p for _, p in sorted(zip(keys, family.pieces, strict=True))]
    return dealt  # not reached: the last attempt is not strict


def _rename_known(state: State, renamed: dict[str, str]) -> None:
    """Who knew a dealt piece knows the piece dealt in its place."""
    known = state.engine.get("known", {})
    state.engine["known"] = {renamed.get(p, p): who for p, who in known.items()}


def _renamed(histories: dict[str, tuple], renamed: dict[str, str]) -> dict[str, tuple]:
    """The step's answers and chance outcomes with the dealt pieces renamed."""
    return {
        key: tuple(_rename(entry, renamed) for entry in entries)
        for key, entries in histories.items()
    }


def _rename(entry: tuple, renamed: dict[str, str]) -> tuple:
    def words(text: str) -> str:
        return " ".join(renamed.get(word, word) for word in text.split(" "))

    if entry[0] == "chance":
        return (entry[0], entry[1], tuple(words(str(o)) for o in entry[2]))
    return (entry[0], words(entry[1]), *entry[2:])


def _rolled_afresh(state: State, game: Game, seat: int, families: list[_Family], seed: Any) -> Any:
    """The faces of the dice dealt again in ``state`` rolled afresh (what a player cannot
    see of a die is its face: the dice are alike), and the function that draws afresh
    the rolls of a step's record in zones ``seat`` cannot see (``ruleset/dice.py``).

    Known limit: a roll of the step under way in a zone the player cannot see is drawn
    afresh even if those dice were shown to them later in the step."""
    tables = game.tables
    if not tables.dice:
        return lambda histories: histories
    dice.reroll(state, tables.dice, (p for f in families for p in f.pieces), seed)
    return lambda histories: dice.rerolled(
        histories, lambda zone: not tables.sees(zone, seat), state, tables.dice, seed
    )


def _forget_hidden_counts(state: State, game: Game, seat: int) -> None:
    """Counters and variables ``seat`` cannot see go back to their initial values."""
    tables, ruleset = game.tables, game.ruleset
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
                if not seen_by(definition.visibility, other, seat):
                    values[f"{name}#{other}"] = initial
