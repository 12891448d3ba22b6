"""What an event did, in words: counters gained and spent, pieces moved, markers placed.

The engine records only the decisions and chance outcomes of a game, so what each did
is read from the positions on either side of it (``transcript.Stop``): every counter
that changed, every piece whose zone or space changed, every space whose marker
changed. That is everything the event set going until the game next waited (an effect
it started, a phase that ran on, the next round's preparation).

For a reader at a seat it says no more than their views do: a counter only by its
visibility (``seen_by``), a piece by name only if the reader
saw the zone it left or sees (or follows) it where it lands, else it is counted
("2 pieces P2's reserve → P2's hand": the size of every zone is in every view).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from interpreter.ruleset.visibility import seen_by

MAX_MOVES = 6  # groups of moved pieces named for one event; the rest are counted
MAX_NAMED = 8  # pieces named in one group; the rest are counted


def changes(
    reading: Any,
    place: Callable[[str], str],
    before: Any,
    after: Any,
    actor: str | None = None,
    drawn: Iterable[str] = (),
    seen_at: Any = None,
) -> str:
    """What happened from ``before`` to ``after`` (two ``Stop``s), as one text ("" for
    nothing): the ``actor``'s counters first and without their name, then the others',
    the markers, then the moves. ``drawn`` pieces are left out (a chance line names
    them). ``seen_at`` is the stop whose visibility counts for the moves (default
    ``after``: a choice revealed at the end of a simultaneous step is judged there).
    Nothing during the setup: it puts out every piece, which the position shows."""
    if before.stage == "setup" or before.round == 0:  # the transcript's "Setup" heading
        return ""
    parts = _counters(reading, before, after, actor)
    parts += _markers(reading, before, after)
    parts += _moves(reading, place, before, after, set(drawn), seen_at or after)
    return "; ".join(parts)


def _counters(reading: Any, before: Any, after: Any, actor: str | None) -> list[str]:
    ruleset = reading.ruleset
    if ruleset is None:
        return []
    by_owner: dict[str | None, list[str]] = {}
    rank = {name: i for i, name in enumerate(ruleset.counters)}
    keys = set(before.counters) | set(after.counters)
    for key in sorted(keys, key=lambda k: (rank.get(k.partition("#")[0], len(rank)), k)):
        delta = after.counters.get(key, 0) - before.counters.get(key, 0)
        name, _, seat = key.partition("#")
        definition = ruleset.counters.get(name)
        if not delta or definition is None or name == ruleset.round_counter:
            continue
        owner = int(seat) if seat.isdigit() else None
        if not _sees_counter(reading, definition.visibility, owner, after):
            continue
        label = ruleset.label(name, "counters", definition.label or None)
        who = reading.players[owner] if owner is not None else None
        by_owner.setdefault(who, []).append(f"{delta:+d} {label}")
    parts = []
    if actor in by_owner:
        parts.append(", ".join(by_owner.pop(actor)))
    for who, gained in by_owner.items():
        parts.append((f"{who} " if who is not None else "") + ", ".join(gained))
    return parts


def _sees_counter(reading: Any, visibility: str, owner: int | None, stop: Any) -> bool:
    return reading.seat is None or stop.everything or seen_by(visibility, owner, reading.seat)


def _markers(reading: Any, before: Any, after: Any) -> list[str]:
    parts = []
    for space in sorted(set(before.owners) | set(after.owners)):
        old, new = before.owners.get(space), after.owners.get(space)
        if old == new:
            continue
        if new is None:
            parts.append(f"{reading.players[old]}'s marker off {space}")
        else:
            parts.append(f"{reading.players[new]}'s marker on {space}")
    return parts


def _moves(
    reading: Any, place: Callable[[str], str], before: Any, after: Any, drawn: set, seen_at: Any
) -> list[str]:
    moved = [
        p
        for p in set(before.where) | set(after.where)
        if before.where.get(p) != after.where.get(p) and p not in drawn
    ]
    if moved:
        rank = {p: i for i, p in enumerate(reading.ruleset.pieces if reading.ruleset else ())}
        moved.sort(key=lambda p: (rank.get(p, len(rank)), p))
    groups: dict[tuple[str | None, str | None], list[str]] = {}
    hidden: dict[tuple[str | None, str | None], int] = {}
    for piece in moved:
        path = (before.where.get(piece), after.where.get(piece))
        if reading.open(piece, before) or reading.visible(piece, seen_at):
            groups.setdefault(path, []).append(piece)
        else:
            hidden[path] = hidden.get(path, 0) + 1
    texts = []
    for path in list(dict.fromkeys([*groups, *hidden])):
        named = groups.get(path, [])
        count = hidden.get(path, 0) + max(0, len(named) - MAX_NAMED)
        what = ", ".join(named[:MAX_NAMED])
        if count:
            what += (" and " if what else "") + f"{count} piece" + ("" if count == 1 else "s")
        old, new = path
        origin = f" {place(old)}" if old else ""
        texts.append(f"{what}{origin} → {place(new) if new else 'out of the game'}")
    if len(texts) > MAX_MOVES:
        rest = len(texts) - MAX_MOVES
        texts = [*texts[:MAX_MOVES], f"{rest} more move" + ("" if rest == 1 else "s")]
    return texts
