"""The run-time tables of one game: a ruleset seen for one player count.

Generated code reads these (``ctx.rules``): the spaces on the chosen board side,
constants resolved for that side, properties by component and zone, and the few
operations that must respect the ruleset's limits (counter bounds, capacities).
"""

from __future__ import annotations

from typing import Any

from interpreter.engine import marks
from interpreter.errors import GameError, RuleError
from interpreter.language.operations import PieceTable
from interpreter.language.values import Piece, Player, ZoneRef, is_number
from interpreter.ruleset.conversions import per_side
from interpreter.ruleset.dice import dice_of, face
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.visibility import seen_by


class Limits:
    """Run-time caps (docs/format.md, Limits): not set by a ruleset."""

    step_budget = 200_000  # steps of one effect (a step of play: a turn, a phase's step...)
    # steps of all the effects and course conditions of one game (``engine/budget.py``)
    game_step_budget = 10_000_000


MAX_SHARED_TABLES = 32  # tables kept for new games (rulesets and tables they are for)
_shared: dict[tuple, Tables] = {}


def tables_for(ruleset: Ruleset, player_count: int, seats: int, automata: frozenset[int]) -> Tables:
    """The tables of a new game, shared by the games of one ruleset at one table:
    they hold only look-ups and caches of them, never a game's state, and building
    them was a fiftieth of a 4-player game. Keyed by the ruleset's identity (it is
    immutable), checked against the kept one, so a new ruleset never meets another's."""
    key = (id(ruleset), player_count, seats, automata)
    tables = _shared.get(key)
    if tables is None or tables.ruleset is not ruleset:
        tables = Tables(ruleset, player_count, seats, automata)
        if len(_shared) >= MAX_SHARED_TABLES:
            _shared.pop(next(iter(_shared)))  # the oldest
        _shared[key] = tables
    return tables


class Tables:
    """Static lookups for one game; shared by every state of that game."""

    limits = Limits()

    def __init__(
        self,
        ruleset: Ruleset,
        player_count: int,
        seats: int | None = None,
        automata: frozenset[int] = frozenset(),
    ):
        """``player_count`` is what the rules call the number of players (the people);
        ``seats`` counts everyone at the table, the rules-driven ``automata`` too."""
        refusal = ruleset.players_refusal(player_count)
        if refusal is not None:
            raise GameError(refusal)
        self.ruleset = ruleset
        self.player_count = player_count
        self.seats = player_count if seats is None else seats
        self.automata = automata
        self.players = tuple(Player(i) for i in range(self.seats))  # made once, not per look-up
        self.side = ruleset.side_for(player_count)
        self.constants = {name: self._for_side(value) for name, value in ruleset.constants.items()}
        active = {
            sid: space
            for sid, space in ruleset.spaces.items()
            if space.sides is None or self.side in space.sides
        }
        self.spaces = active
        self.group_members = {
            group: tuple(ZoneRef(s) for s in members if s in active)
            for group, members in ruleset.groups.items()
        }
        self.zone_props: dict[str, dict[str, Any]] = {s: d.properties for s, d in active.items()}
        self.zone_group: dict[str, str] = {s: d.group for s, d in active.items()}
        self.zone_capacity: dict[str, int] = {s: d.capacity for s, d in active.items()}
        self.claimable = {s for s, d in active.items() if d.claimable}
        self.zone_seat: dict[str, int] = {}
        self.zone_visibility: dict[str, str] = {s: d.visibility for s, d in active.items()}
        self.random_zones: set[str] = set()
        for name, zone in ruleset.zones.items():
            keys = [name] if zone.per == "game" else [f"{name}#{i}" for i in range(self.seats)]
            for seat, key in enumerate(keys):
                self.zone_props[key] = {}
                self.zone_capacity[key] = zone.capacity
                self.zone_visibility[key] = zone.visibility
                if zone.per == "player":
                    self.zone_seat[key] = seat
                if zone.order == "random":
                    self.random_zones.add(key)
        # each zone's key as the state keeps it (a plain text, made once: a ``ZoneRef``
        # finds it) and its capacity, for every move
        # `capacity: 0` of a space (check/defaults.py): a marker only, no component,
        # kept as -1 here, where 0 (of a zone) is no limit
        self.zone_slots = {
            k: (str(k), -1 if c == 0 and k in active else c) for k, c in self.zone_capacity.items()
        }
        # where a move changes what someone knows (``witness``): zones not everyone sees
        self.hidden_zones = frozenset(k for k, v in self.zone_visibility.items() if v != "public")
        # where a piece loses its public marks (``engine/marks.py``)
        self.unmarking = frozenset(k for k in self.zone_visibility if marks.drops_marks_at(self, k))
        self.piece_props = PieceTable({pid: p.properties for pid, p in ruleset.pieces.items()})
        self.piece_kind = PieceTable({pid: p.kind for pid, p in ruleset.pieces.items()}, "kind")
        self.piece_design = PieceTable(
            {pid: p.design for pid, p in ruleset.pieces.items()}, "design"
        )
        self.dice = dice_of(ruleset.pieces, ruleset.dice)  # die -> its faces (``dice.py``)
        self.kind_members = {
            kind: tuple(Piece(pid) for pid, p in ruleset.pieces.items() if p.kind == kind)
            for kind in ruleset.kinds
        }
        # the ruleset's functions, called with their arguments: fn(ctx, *args)
        self.actions = ruleset.actions
        # each action's `requires` by arguments in order (`can action(…)`)
        self.checks = _Checks(self, ruleset.actions)
        self.functions = {name: fn for name, (_, fn) in ruleset.functions.items()}
        self.dynamic_attributes: dict[tuple[str, str], Any] = {}  # (type, name) -> reader
        self._selections: dict[tuple[str, str, str], dict[Any, tuple] | None] = {}
        self.action_props = {name: a.properties for name, a in ruleset.actions.items()}
        self.bounds = {name: (c.minimum, c.maximum) for name, c in ruleset.counters.items()}
        self.triggers_on: dict[str, tuple] = {}
        for trigger in ruleset.triggers.values():
            if trigger.on is not None:
                self.triggers_on[trigger.on] = (*self.triggers_on.get(trigger.on, ()), trigger)
        self.when_triggers = tuple(t for t in ruleset.triggers.values() if t.when is not None)
        self.counter_per = {name: c.per for name, c in ruleset.counters.items()}
        self.zone_per = {name: z.per for name, z in ruleset.zones.items()}
        self.keyed = ruleset.keyed  # a keyed family's members by key (language/keyed.py)

    def selection(self, source: str, key: str, table: str, prop: str) -> dict[Any, tuple] | None:
        """The members of a kind or group (``source[key]``) by the value of their static
        property ``prop`` (in ``table``), each list in the members' order; None where a
        value cannot be a key (``language/selection.py``). Made on first use, kept."""
        found = self._selections.get((source, key, prop), False)
        if found is not False:
            return found
        by_value: dict[Any, list] = {}
        props = getattr(self, table)
        try:
            for member in getattr(self, source)[key]:
                by_value.setdefault(props[member].get(prop), []).append(member)
            index: dict[Any, tuple] | None = {v: tuple(m) for v, m in by_value.items()}
        except TypeError:  # a list or a table as a value
            index = None
        self._selections[(source, key, prop)] = index
        return index

    def _for_side(self, value: Any) -> Any:
        if per_side(value):
            return value["per_side"].get(self.side)
        return value

    def initial(self, value: Any) -> Any:
        """A declared initial value, resolved for the board side."""
        if isinstance(value, dict) and self.side in value:
            return value[self.side]
        return value

    # -------------------------------------------------------------- counters
    def counter_key(self, name: str, player: Any) -> str:
        if self.counter_per.get(name) == "game":
            return name
        if player is None:
            raise RuleError(
                f"`{name}` belongs to a player, but no player acts here",
                "name the player (`to: p`, `p.{name}`) or use `act as p`",
            )
        return f"{name}#{int(player)}"

    def add_counter(self, ctx: Any, name: str, player: Any, amount: int) -> None:
        self.set_counter(ctx, name, player, "+=", amount)

    def set_counter(self, ctx: Any, name: str, player: Any, op: str, value: Any) -> None:
        if type(value) is not int and not is_number(value):
            raise RuleError(f"`{name}` must be set to a number, not {value!r}")
        key = self.counter_key(name, player)
        counters = ctx.state.counters
        old = counters.get(key, 0)
        new = value if op == "=" else (old + value if op == "+=" else old - value)
        low, high = self.bounds.get(name, (0, None))
        if low is not None and new < low:
            who = f"{ctx.state.players[int(player)]} has" if player is not None else "there is"
            raise GameError(f"not enough {name}: {who} {old}, {old - new} needed")
        if high is not None and new > high:
            new = high
        counters[key] = new

    # ----------------------------------------------------------------- zones
    def is_random_zone(self, zone: str) -> bool:
        return zone in self.random_zones

    def zone_owner(self, state: Any, zone: str | None) -> Player | None:
        if zone is None:
            return None
        seat = state.owners.get(zone)
        if seat is None:
            seat = self.zone_seat.get(zone)
        return None if seat is None else self.players[seat]

    def is_free(self, state: Any, zone: str) -> bool:
        if zone in self.claimable and zone in state.owners:
            return False
        capacity = self.zone_capacity.get(zone, 0)
        if zone in self.spaces and capacity == 0:
            return True
        return capacity == 0 or len(state.zones.get(zone, ())) < capacity

    def place(self, ctx: Any, piece: Any, zone: Any, position: int | None) -> None:
        slot = self.zone_slots.get(zone)
        if slot is None:
            if zone is None:
                raise RuleError("cannot move a component to none")
            raise RuleError(f"there is no zone or space {str(zone)!r} in this game")
        zone, capacity = slot  # the key as the state keeps it (not a ``ZoneRef``)
        if piece not in self.piece_kind:
            raise RuleError(f"there is no component {piece!r}")
        budget = ctx.budget  # a statement may move any number of pieces: each is a step
        budget[0] -= 1
        if budget[0] < 0:
            ctx.tick(0)  # raises the budget's error
        state = ctx.state
        source = state.where.get(piece)
        if capacity and source != zone and len(state.zones.get(zone, ())) >= capacity:
            raise _full(piece, zone, capacity)  # a marker-only space's -1 included
        state.put(piece, zone, position, source)
        if source != zone:
            if zone in self.hidden_zones:
                self.witness(state, piece, source, zone)
            if zone in self.unmarking and piece in state.engine.get("marks", ()):
                marks.unmark(state, (piece,))

    # ---------------------------------------------------- who knows what
    def face(self, state: Any, piece: Any) -> int:
        """The face a die shows (``dice.face``)."""
        return face(state, self.dice, piece)

    def sees(self, zone: str, seat: int | None) -> bool:
        """Whether ``seat`` sees the contents of ``zone`` (a zone key or a space)."""
        return seen_by(self.zone_visibility.get(zone, "public"), self.zone_seat.get(zone), seat)

    def witness(self, state: Any, piece: str, source: str | None, target: str) -> None:
        """Update what each player knows of hidden pieces after ``piece`` moved.

        A player who saw the piece leave (they see ``source``, or they knew it was the
        only piece there) follows it into a zone they cannot see. Otherwise they cannot
        tell which piece left ``source``: unless they see it arrive, they lose what
        they knew of every piece there (a card seen once, then drawn at random from
        that hand, is not followed).
        """
        visibility = self.zone_visibility
        if source is None or visibility.get(target, "public") == "public":
            return  # everybody sees it arrive: nobody's knowledge of hidden pieces changes
        old = state.engine.get("known", {})
        if type(old) is not dict:
            return  # not followed (yet): ``Game.follow_knowledge`` works it out when asked
        known = None  # copied on first change: states share their engine dicts
        source_empty = not state.zones.get(source)
        emptied: list[str] = []  # pieces a seat forgot, perhaps known by nobody now
        for seat in range(self.seats):
            if self.sees(target, seat):
                continue
            current = known if known is not None else old
            left_alone = source_empty and seat in current.get(piece, ())
            if self.sees(source, seat) or left_alone:
                if seat not in current.get(piece, ()):
                    known = known if known is not None else dict(old)
                    known[piece] = (*known.get(piece, ()), seat)
                continue
            lost = _known_there(state, current, seat, piece, source)
            if lost:
                known = known if known is not None else dict(old)
                for p in lost:
                    known[p] = tuple(s for s in known[p] if s != seat)
                emptied += lost
        if known is not None:
            for p in emptied:  # nobody knows them any more (unless a later seat does)
                if not known.get(p, True):
                    del known[p]
            state.engine["known"] = known

    def claim(self, ctx: Any, space: Any, player: Any) -> None:
        space = str(space)
        if player is None:
            raise RuleError(f"nobody to put a marker on {space} for (use `act as` a player)")
        if space not in self.claimable:
            raise RuleError(f"{space} does not take ownership markers")
        owner = ctx.state.owners.get(space)
        if owner is not None and owner != int(player):
            raise GameError(f"{space} already holds {ctx.state.players[owner]}'s marker")
        ctx.state.owners[space] = int(player)

    def may_fire(self, ctx: Any, trigger: Any, record: bool = True) -> bool:
        """Whether a trigger may still fire (its `once`), recording that it does."""
        if trigger.once == "never":
            return True
        key = trigger.id if trigger.once == "game" else f"{trigger.id}#{int(ctx.me)}"
        fired = ctx.state.engine.get("fired", frozenset())
        if key in fired:
            return False
        if record:
            ctx.state.engine["fired"] = fired | {key}
        return True

    def failed_requirement(
        self, ctx: Any, action: str, args: dict[str, Any], explain: bool = True
    ) -> str | None:
        """The message of the first unmet `requires` of ``action``, or None if all hold.

        Without ``explain`` the message's `{expressions}` are not evaluated: asking
        whether an action is allowed must stay cheap (guards ask it constantly).
        """
        definition = self.ruleset.actions.get(action)
        if definition is None:
            return f"there is no action {action!r}"
        saved, depth = ctx.env, ctx.depth
        env = ctx.env = {**definition.defaults, **args} if definition.defaults else args
        try:
            if definition.checker is not None:  # it counts one level of nesting itself
                index = definition.checker(ctx, *(env.get(p) for p in definition.params))
                requirement = definition.requires[index] if index >= 0 else None
            else:
                ctx.depth = ctx.deeper()  # a requirement asking `can` of itself ends here
                requirement = next((r for r in definition.requires if not r.condition(ctx)), None)
            if requirement is None:
                return None
            return requirement.render(ctx) if explain else requirement.message
        finally:
            ctx.env, ctx.depth = saved, depth

    def allows(self, ctx: Any, action: Any, args: dict[str, Any]) -> bool:
        """Whether every `requires` of ``action`` holds (``can a(…)`` of an action held
        in a local, none for no action; one named in the text calls its check
        directly)."""
        if action is None:
            return False
        definition = self.actions.get(action)
        if definition is None:
            return self.failed_requirement(ctx, str(action), args, False) is None
        defaults = definition.defaults
        values = [args[p] if p in args else defaults.get(p) for p in definition.params]
        return self.checks[action](ctx, *values) < 0


def _known_there(
    state: Any, known: dict[str, tuple[int, ...]], seat: int, piece: str, source: str
) -> list[str]:
    """The pieces ``seat`` knows of among ``piece`` (which has just left ``source``) and
    those still in ``source``: found through whichever of the two is smaller, the
    pieces known to someone or the pieces there (a deck holds many, few are known)."""
    there = state.zones.get(source, ())
    if len(known) <= len(there):
        where = state.where
        return [
            p
            for p, seats in known.items()
            if seat in seats and (p == piece or where.get(p) == source)
        ]
    return [p for p in (piece, *there) if seat in known.get(p, ())]


class _Checks(dict):
    """An action's ``checker`` by its id; one without (its definition could not be
    compiled that way) is checked through ``failed_requirement``."""

    def __init__(self, tables: Tables, actions: dict[str, Any]):
        super().__init__({n: a.checker for n, a in actions.items() if a.checker is not None})
        self.tables = tables

    def __missing__(self, action: str) -> Any:
        definition = self.tables.actions.get(action)
        params = tuple(definition.params) if definition is not None else ()

        def check(ctx: Any, *args: Any) -> int:
            failed = self.tables.failed_requirement(
                ctx, action, dict(zip(params, args, strict=False)), False
            )
            return -1 if failed is None else 0

        self[action] = check
        return check


def _full(piece: str, zone: str, capacity: int) -> GameError:
    """The refusal of a move into a full zone or space (the effect that ran it names
    the statement: ``GameError.where``)."""
    name = zone if "#" not in zone else "the zone"  # a player's zone is keyed `hand#0`
    if capacity < 0:
        return GameError(
            f"cannot move {piece} onto {zone}: the space takes no component "
            "(`capacity: 0`: an ownership marker only)",
            "`claim` puts a marker on it; give its group a `capacity` to hold components",
        )
    return GameError(
        f"cannot move {piece} into {zone}: it is full (`capacity: {capacity}`)",
        f"test `{name}.free` or `{name}.size < {name}.capacity` first (in a `requires` "
        "or an `if`), or raise its `capacity`",
    )
