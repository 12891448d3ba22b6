"""``rotate``: pass the contents of zones around a circle (hands passed to the left in a
drafting game). Kept apart from ``primitive_statements`` so the primitive stays one
small, self-contained declaration."""

from __future__ import annotations

from typing import Any

from interpreter.errors import RuleError
from interpreter.language.operations import _num
from interpreter.language.registry import Param, stmt
from interpreter.language.runtime import Context
from interpreter.language.values import NUMBER, ZONE, list_of


@stmt(
    "rotate",
    [
        Param("zones", list_of(ZONE), "the zones in passing order (usually one per player)"),
        Param("by", NUMBER, "how many places on each zone's contents go (negative: back)", 1),
    ],
    "Pass every zone's contents, all at once, to the zone `by` places further on in the "
    "list (the last wraps to the first): each player's hand to the player on their left. "
    "Moving hand by hand through a spare zone does the same in three statements; this "
    "says it in one and cannot mix two hands.",
    "rotate(p.hand for p in players)",
    "zones",
    quoted=True,
)
def _rotate(ctx: Context, zones: Any, by: Any = 1) -> None:
    circle = list(zones)
    if len(set(circle)) != len(circle):
        raise RuleError("rotate() was given the same zone twice")
    steps = _num(by, "rotate's `by`")
    if not circle or steps % len(circle) == 0:
        return
    # Read every zone before anything moves, so a zone's new contents are never passed on.
    before = [tuple(ctx.state.zones.get(zone, ())) for zone in circle]
    for index, pieces in enumerate(before):
        target = circle[(index + steps) % len(circle)]
        for piece in pieces:
            ctx.rules.place(ctx, piece, target, None)
