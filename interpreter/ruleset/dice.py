"""Dice: the one declaration of a die (a kind with `faces`) and the faces dice show.

A die is a component like any other: it lies in a zone, so who sees its face is who
sees the zone: open dice on a public tray, hidden dice in a private cup. The views
and the worlds an agent samples need little more than that: a roll changes a die
without moving it, so whoever could not see the die then no longer knows its face
(``set_faces``), and a world rolls hidden dice afresh (``reroll``, ``rerolled``), not
only deals them again. The secrecy check takes any `.face` for hidden where dice
may lie in a zone not everyone sees (``ruleset/secrecy.py``): a die reached through
its kind's name reads no zone.

The faces are kept in ``state.engine["faces"]`` (die -> face), a dict replaced on
every change and never changed in place (states share their engine dicts, as they
share ``known``): a game without dice pays nothing, and the state's digest and JSON
hold the faces. A die never rolled shows its first face.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from interpreter.errors import RuleError

FACES = "faces"  # the key of ``state.engine``
MAX_FACES = 100  # faces a die may have (docs/format.md, Limits)

FACES_SCHEMA: dict[str, Any] = {
    "description": "Components of this kind are dice: the faces a roll may give, as a list "
    "of whole numbers or a range `{from, to}` (`{from: 1, to: 6}`); `roll` gives each "
    "die one of them at random, `d.face` reads it.",
    "oneOf": [
        {
            "type": "array",
            "items": {"type": "integer"},
            "minItems": 1,
            "maxItems": MAX_FACES,
        },
        {
            "type": "object",
            "properties": {"from": {"type": "integer"}, "to": {"type": "integer"}},
            "required": ["from", "to"],
            "additionalProperties": False,
        },
    ],
}


def declared_faces(value: Any) -> tuple[int, ...] | str:
    """The faces a kind's `faces` declares, or why they are refused (the schema has
    checked the shape already)."""
    if isinstance(value, dict):
        low, high = value.get("from"), value.get("to")
        if not isinstance(low, int) or not isinstance(high, int) or high < low:
            return "a range of faces goes from a whole number up to a larger one"
        if high - low + 1 > MAX_FACES:
            return f"a die has at most {MAX_FACES} faces, not {high - low + 1}"
        return tuple(range(low, high + 1))
    faces = tuple(value) if isinstance(value, list) else ()
    if not faces or not all(isinstance(f, int) and not isinstance(f, bool) for f in faces):
        return "faces are a list of whole numbers or a range {from, to}"
    if len(faces) > MAX_FACES:
        return f"a die has at most {MAX_FACES} faces, not {len(faces)}"
    return faces


def dice_of(pieces: dict[str, Any], kinds: dict[str, tuple[int, ...]]) -> dict[str, tuple]:
    """Every die of a ruleset and its faces: the pieces of a kind with `faces`."""
    return {pid: kinds[p.kind] for pid, p in pieces.items() if p.kind in kinds}


def face(state: Any, dice: dict[str, tuple[int, ...]], piece: Any) -> int:
    """The face ``piece`` shows (a ``RuleError`` for a component that is no die)."""
    faces = dice.get(piece)
    if faces is None:
        if piece is None:
            raise RuleError("`.face` was asked of none instead of a die")
        raise RuleError(f"{piece} is no die: `.face` is read of a component whose kind has faces")
    return state.engine.get(FACES, {}).get(piece, faces[0])


def set_faces(state: Any, rolled: Iterable[tuple[str, int]], sees: Any) -> None:
    """Dice turned to new faces: ``rolled`` gives (die, face). Who knew a die they
    cannot see (``sees(zone, seat)``) knows nothing of its new face."""
    engine = state.engine
    faces = dict(engine.get(FACES, {}))
    changed = []
    for die, value in rolled:
        faces[str(die)] = value
        changed.append(str(die))
    engine[FACES] = faces
    known = engine.get("known", {})
    if type(known) is not dict:
        return  # not followed (yet): worked out again from the record when asked
    forgotten = None  # copied on the first change: states share their engine dicts
    for die in changed:
        had = known.get(die)
        if not had:
            continue
        zone = state.where.get(die)
        kept = tuple(s for s in had if zone is not None and sees(zone, s))
        if kept != had:
            forgotten = forgotten if forgotten is not None else dict(known)
            if kept:
                forgotten[die] = kept
            else:
                del forgotten[die]
    if forgotten is not None:
        engine["known"] = forgotten


def reroll(state: Any, dice: dict[str, tuple[int, ...]], pieces: Iterable[str], seed: Any) -> None:
    """Give every die among ``pieces`` (those a player cannot see, in a world dealt for
    them) a face at random, from ``seed``: what they cannot see of a die is its face,
    so dealing the dice again among the hidden places is not enough."""
    hidden = sorted(str(p) for p in pieces if p in dice)
    if not hidden:
        return
    rng = random.Random(f"faces:{seed}")
    faces = dict(state.engine.get(FACES, {}))
    for die in hidden:
        options = dice[die]
        faces[die] = options[int(rng.random() * len(options))]
    state.engine[FACES] = faces


def rerolled(histories: dict[str, tuple], hidden: Any, state: Any, dice: dict, seed: Any) -> dict:
    """A step's record with the outcome of every roll in a zone ``hidden(zone)`` drawn
    afresh from ``seed`` (a roll's key is `roll ZONE`, its outcome one face per die
    there, in the zone's order). The record does not say which dice were rolled: each
    new face is one of the faces of the die at that place of the zone in ``state``
    (the step's start), or where the zone held other dice then, one of any die's
    faces; a face the rolled die lacks fails the replayed roll's check, and the world
    is dealt again (``seat.Worlds``)."""
    every = tuple(sorted({f for faces in dice.values() for f in faces}))
    rng = random.Random(f"rolls:{seed}")
    out = {}
    for key, entries in histories.items():
        changed = []
        for entry in entries:
            if entry[0] == "chance" and entry[1].startswith("roll ") and hidden(entry[1][5:]):
                there = [dice.get(d) for d in state.zones.get(entry[1][5:], ())]
                if len(there) != len(entry[2]) or None in there:
                    there = [every] * len(entry[2])
                drawn = tuple(str(f[int(rng.random() * len(f))]) for f in there)
                entry = (entry[0], entry[1], drawn)
            changed.append(entry)
        out[key] = tuple(changed)
    return out


def kinds_faces(kinds: Iterable[Any], error: Any) -> dict[str, tuple[int, ...]]:
    """The kinds that are dice (``Item``s of the `kinds` section with `faces`) and
    their faces; ``error(location, message, hint)`` reports faces refused."""
    out = {}
    for item in kinds:
        if "faces" not in item.data:
            continue
        faces = declared_faces(item.data["faces"])
        if isinstance(faces, str):
            error(item.location("faces"), faces, "for a six-sided die: `faces: {from: 1, to: 6}`")
            continue
        out[item.id] = faces
    return out
