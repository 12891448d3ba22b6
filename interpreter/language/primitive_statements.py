"""The statements of the effect language (and the functions that act on the game):
each declared once, registered in ``registry.REGISTRY`` on import."""

from __future__ import annotations

from typing import Any

from interpreter.engine import marks
from interpreter.errors import GameError, RuleError
from interpreter.language.operations import _num
from interpreter.language.registry import Param, fn, stmt
from interpreter.language.runtime import Context
from interpreter.language.values import (
    ACTION,
    ANY,
    COUNTER,
    NUMBER,
    PIECE,
    PLAYER,
    TEXT,
    ZONE,
    Piece,
    ZoneRef,
)


# --------------------------------------------------------------------------
# Statements
# --------------------------------------------------------------------------
def _counter_key(ctx: Context, counter: str, player: Any) -> str:
    return ctx.rules.counter_key(counter, player)


@fn(
    "gain_if",
    [
        Param("counter", COUNTER, "a per-player counter of the ruleset"),
        Param("action", ACTION, "an action with one parameter that has no default"),
        Param("value", ANY, "the value of that parameter"),
    ],
    NUMBER,
    "How much the acting player's `counter` would rise if `action` ran now with `value`: "
    "the action runs on a copy of the position and nothing of it stays (its decisions "
    "take the first option that is not `pass`; it may not draw by chance). 0 if its "
    "requirements do not hold. For rules that take what is worth most now, judged by "
    "each candidate's own rule.",
    "max(gain_if(points, c.bonus, c) for c in offer)",
    "counters",
)
def _gain_if(ctx: Context, counter: str, action: Any, value: Any) -> int:
    what_if = getattr(ctx.host, "what_if", None)
    if what_if is None:
        raise RuleError("gain_if() needs a game to try the action in")
    return what_if(ctx, counter, str(action), value)


_ME = object()  # a player argument left out: the acting player (given as none: an error)


def _player_given(ctx: Context, player: Any, what: str) -> Any:
    if player is _ME:
        return ctx.me
    if player is None:
        raise RuleError(f"{what} was given none instead of a player")
    return player


@stmt(
    "gain",
    [
        Param(
            "counter", COUNTER, "a counter of the ruleset, or a member of a keyed one (`NAME[KEY]`)"
        ),
        Param("amount", NUMBER, "how much (0 or more)", minimum=0, opposite="pay"),
        Param("to", PLAYER, "who gains (default: me)", None),
    ],
    "Add to a counter (up to its maximum, if it has one).",
    "gain(coins, 5)",
    "counters",
)
def _gain(ctx: Context, counter: str, amount: Any, to: Any = _ME) -> None:
    amount = _num(amount, "gain's amount")
    if amount < 0:
        raise RuleError(f"cannot gain a negative amount ({amount}) of {counter}")
    ctx.rules.add_counter(ctx, counter, _player_given(ctx, to, "gain's `to`"), amount)


@stmt(
    "pay",
    [
        Param(
            "counter", COUNTER, "a counter of the ruleset, or a member of a keyed one (`NAME[KEY]`)"
        ),
        Param("amount", NUMBER, "how much (0 or more)", minimum=0, opposite="gain"),
        Param("by", PLAYER, "who pays (default: me)", None),
    ],
    "Take from a counter; an error (an illegal move) if there is not enough.",
    "pay(coins, cost)",
    "counters",
)
def _pay(ctx: Context, counter: str, amount: Any, by: Any = _ME) -> None:
    amount = _num(amount, "pay's amount")
    if amount < 0:
        raise RuleError(f"cannot pay a negative amount ({amount}) of {counter}")
    ctx.rules.add_counter(ctx, counter, _player_given(ctx, by, "pay's `by`"), -amount)


@stmt(
    "move",
    [
        Param("what", ANY, "a component or a collection of components"),
        Param("to", ZONE, "the zone or space they go to"),
        Param("at", ANY, "'top', 'bottom' or a 0-based position", "bottom"),
    ],
    "Move components into a zone, in order; at the top (first) or bottom (last).",
    "move(c, my.discard)",
    "zones",
)
def _move(ctx: Context, what: Any, to: Any, at: Any = "bottom") -> None:
    place = ctx.rules.place
    if type(what) is Piece and at == "bottom":  # one component, the common case
        place(ctx, what, to, None)
        return
    pieces = what if isinstance(what, tuple | list) else (what,)
    for offset, piece in enumerate(pieces):
        if piece is None:
            raise RuleError("move() was given none instead of a component")
        place(ctx, piece, to, None if at == "bottom" else _position(at, offset))


def _position(at: Any, offset: int) -> int | None:
    if at == "bottom":
        return None
    if at == "top":
        return offset
    if isinstance(at, int) and not isinstance(at, bool):
        return at + offset
    raise RuleError(f"position must be 'top', 'bottom' or a number, not {at!r}")


def _draw_count(value: Any, what: str) -> int:
    count = _num(value, f"{what}'s count")
    if count < 0:
        raise RuleError(f"{what}() cannot take a negative number of components ({count})")
    return count


@stmt(
    "draw",
    [
        Param("source", ZONE, "the zone to draw from"),
        Param("to", ZONE, "where the components go"),
        Param("count", NUMBER, "how many (fewer if the source runs out)", 1),
    ],
    "Take components from the top of a zone; from a bag (a zone with `order: random`) the "
    "components are drawn at random, a chance outcome the log records.",
    "draw(deck, display, 4)",
    "zones",
    chance=True,
)
def _draw(ctx: Context, source: Any, to: Any, count: Any = 1) -> None:
    count = _draw_count(count, "draw")
    items = ctx.state.zones.get(source, ())
    if not items or count == 0:
        return
    if ctx.rules.is_random_zone(source):
        taken = ctx.host.random_pick(ctx, str(source), items, min(count, len(items)))
    else:
        taken = items[:count]
    for piece in taken:
        ctx.rules.place(ctx, piece, to, None)


@stmt(
    "draw_random",
    [
        Param("source", ZONE, "the zone to take from"),
        Param("to", ZONE, "where the components go"),
        Param("count", NUMBER, "how many", 1),
    ],
    "Take components at random from any zone (a card from a hidden hand): a chance outcome.",
    "draw_random(target.hand, my.hand)",
    "zones",
    chance=True,
)
def _draw_random(ctx: Context, source: Any, to: Any, count: Any = 1) -> None:
    count = _draw_count(count, "draw_random")
    items = ctx.state.zones.get(source, ())
    if not items or count == 0:
        return
    for piece in ctx.host.random_pick(ctx, str(source), items, min(count, len(items))):
        ctx.rules.place(ctx, piece, to, None)


@stmt(
    "shuffle",
    [Param("zone", ZONE, "the zone to shuffle")],
    "Put the zone's components in a random order: a chance outcome the log records.",
    "shuffle(deck)",
    "zones",
    chance=True,
)
def _shuffle(ctx: Context, zone: Any) -> None:
    items = ctx.state.zones.get(zone, ())
    if len(items) > 1:
        ctx.state.set_order(str(zone), ctx.host.random_order(ctx, str(zone), items))
        marks.unmark(ctx.state, items)  # nobody can point at a shuffled piece


@stmt(
    "claim",
    [
        Param("space", ZONE, "a space that takes ownership markers"),
        Param("by", PLAYER, "whose marker (default: me)", None),
    ],
    "Put a player's ownership marker on a space.",
    "claim(s)",
    "zones",
)
def _claim(ctx: Context, space: Any, by: Any = None) -> None:
    ctx.rules.claim(ctx, space, ctx.me if by is None else by)


@stmt(
    "release",
    [Param("space", ZONE, "a space")],
    "Take the ownership marker off a space.",
    "release(s)",
    "zones",
)
def _release(ctx: Context, space: Any) -> None:
    ctx.state.owners.pop(str(space), None)


@stmt(
    "reveal",
    [
        Param("what", ANY, "a component, a collection, or a zone"),
        Param("to", ANY, "a player or a collection of players (default: everyone)", None),
    ],
    "Show components to players: their views include them from now on.",
    "reveal(target.hand, to: me)",
    "zones",
)
def _reveal(ctx: Context, what: Any, to: Any = None) -> None:
    if isinstance(what, ZoneRef):
        what = ctx.state.zones.get(what, ())
    pieces = tuple(what) if isinstance(what, tuple | list) else (what,)
    if to is None:
        seats = tuple(range(len(ctx.state.players)))
    else:
        targets = to if isinstance(to, tuple | list) else (to,)
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in targets):
            raise RuleError(f"reveal() shows components to players, not to {to!r}")
        seats = tuple(int(p) for p in targets)
    ctx.host.reveal(ctx, tuple(str(p) for p in pieces), seats)


def _pieces(ctx: Context, what: Any, name: str) -> tuple[str, ...]:
    if isinstance(what, ZoneRef):
        what = ctx.state.zones.get(what, ())
    pieces = tuple(what) if isinstance(what, tuple | list) else (what,)
    if not all(type(p) is Piece for p in pieces):
        raise RuleError(f"{name}() marks components, not {what!r}")
    return pieces


@stmt(
    "mark",
    [
        Param("what", ANY, "a component, a collection, or a zone"),
        Param("property", TEXT, "a property of the components' kind"),
        Param("value", ANY, "the value told"),
    ],
    "Tell the table, truthfully, which of the components have this value of the "
    "property and which have not (a hint about cards held facing the others): each "
    "gets the public mark "
    "`property = value` or `property ≠ value`. Marks follow their component when it "
    "moves; everyone's view shows them by place (`marks`), and the worlds an agent "
    "samples deal at a marked place only components the marks fit. A component loses "
    "its marks by `unmark`, or by going where everyone sees it or into a bag, or by "
    "a shuffle of its zone.",
    "mark(q.hand, 'colour', h)",
    "zones",
)
def _mark(ctx: Context, what: Any, property: Any, value: Any) -> None:
    pieces = _pieces(ctx, what, "mark")
    ctx.tick(len(pieces))
    marks.mark(ctx.state, ctx.rules.piece_props, pieces, str(property), value)


@fn(
    "marked",
    [
        Param("what", PIECE, "a component"),
        Param("property", TEXT, "a property of its kind"),
    ],
    ANY,
    "What the public marks (`mark`) say the component's property is: the value a mark "
    "names, or none when no mark names one (what its holder was told, read by anyone, "
    "its holder included: marks are public).",
    "marked(c, 'rank') == 1",
    "zones",
)
def _marked(ctx: Context, what: Any, property: Any) -> Any:
    (piece,) = _pieces(ctx, what, "marked")
    return marks.told(ctx.state, piece, str(property))


@stmt(
    "unmark",
    [Param("what", ANY, "a component, a collection, or a zone")],
    "Take every mark off the components (what the table was told of them is forgotten).",
    "unmark(my.hand)",
    "zones",
)
def _unmark(ctx: Context, what: Any) -> None:
    marks.unmark(ctx.state, _pieces(ctx, what, "unmark"))


@stmt(
    "fail",
    [Param("message", TEXT, "why the move is not allowed")],
    "Refuse the current move as illegal, with a reason in the rules' terms.",
    "fail('this card may not be sold')",
    "general",
)
def _fail(ctx: Context, message: Any) -> None:
    raise GameError(str(message))
