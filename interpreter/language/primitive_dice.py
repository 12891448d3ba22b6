"""Dice: `roll`, and a die's `.face` (read in generated code by ``operations.face_of``).

A die is a component of a kind with `faces` (``ruleset/dice.py``); it lies in a zone
like any other component, open on a public tray or hidden in a private cup, and who
sees the zone sees its face. Kept apart from ``primitive_statements`` so the
primitive stays one small, self-contained declaration."""

from __future__ import annotations

from typing import Any

from interpreter.errors import RuleError
from interpreter.language.registry import REGISTRY, Param, stmt
from interpreter.language.runtime import Context
from interpreter.language.values import ANY, NUMBER, PIECE, ZoneRef

REGISTRY.attribute(
    PIECE,
    "face",
    NUMBER,
    "The face a die shows (a component of a kind with `faces`), its first face until "
    "it is rolled; who sees the die's zone sees it (`count(d for p in players for d in "
    "p.cup.pieces where d.face == f or d.face == wild)`). An error for a component "
    "that is no die.",
)


@stmt(
    "roll",
    [Param("what", ANY, "a die, a collection of dice, or a zone (every die in it)")],
    "Roll dice: each die gets one of its kind's `faces` at random, a chance outcome the "
    "log records (one per zone the dice lie in) and replay checks. Who cannot see a "
    "die's zone does not see its face, and forgets what they knew of it: hidden dice "
    "are rolled in a private zone (a cup).",
    "for p in still_in() { roll(p.cup) }",
    "dice",
    chance=True,
    quoted=True,
)
def _roll(ctx: Context, what: Any) -> None:
    if isinstance(what, ZoneRef):
        what = ctx.state.zones.get(what, ())
    dice = tuple(what) if isinstance(what, tuple | list) else (what,)
    known = ctx.rules.dice
    for die in dice:
        if die is None:
            raise RuleError("roll() was given none instead of a die")
        if die not in known:
            raise RuleError(f"{die} is no die: roll() rolls components of a kind with `faces`")
    if dice:
        ctx.host.roll(ctx, dice)
