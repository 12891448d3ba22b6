"""Marks: public facts about pieces some players cannot see (a hint about a card).

``mark(q.hand, 'colour', 'red')`` tells the table, truthfully, which of the pieces
have that value of the property and which have not: each piece gets the fact
``colour = red`` or ``colour ≠ red``. What was told is public, so everyone sees it
in their view (the owner of a hand held facing the others included), and every
world an agent samples deals, at a marked place, only pieces the facts fit
(``engine/seat.py``): the facts are what the player knows of the piece there.

A mark is kept on the piece (``state.engine["marks"]``: piece -> its facts), so it
follows the piece when it moves and no rule keeps track of places. It is dropped when
the rules say (``unmark``) and when nobody could point at the piece any more or
everybody sees it: when it goes into a zone every player sees, into a zone drawn from
at random (a bag), or its zone is shuffled. The entry is absent from a game that
never marks anything, so such a game's states and digests are what they were before.

A fact is ``(property, value, holds)``; a piece's facts are a sorted tuple without
repeats (at most ``MAX_FACTS``), and the marks dict is replaced, never changed in
place (states share their engine dicts).
"""

from __future__ import annotations

from typing import Any

from interpreter.errors import RuleError

MAX_FACTS = 64  # facts kept on one piece: more is a rule marking the same piece in a loop
# deals of one family tried before a world breaks the marks it cannot meet (``honour``)
MAX_MARK_DEALS = 20

Fact = tuple[str, Any, bool]


def marks_of(state: Any) -> dict[str, tuple[Fact, ...]]:
    """Each marked piece's facts (empty when nothing is marked)."""
    return state.engine.get("marks") or {}


def mark(state: Any, props: Any, pieces: tuple[str, ...], prop: str, value: Any) -> None:
    """Record on each piece whether its ``prop`` is ``value`` (``props``: the pieces'
    static properties, ``Tables.piece_props``)."""
    marks = dict(marks_of(state))
    for piece in pieces:
        own = props[piece]
        if prop not in own:
            raise RuleError(
                f"mark(): {piece} has no property {prop!r}",
                f"name a property of its kind: {', '.join(sorted(own)) or 'it has none'}",
            )
        fact = (prop, value, own[prop] == value)
        facts = marks.get(str(piece), ())
        if fact in facts:
            continue
        if len(facts) >= MAX_FACTS:
            raise RuleError(f"mark(): {piece} already carries {MAX_FACTS} facts (MAX_FACTS)")
        marks[str(piece)] = tuple(sorted((*facts, fact), key=_order))
    state.engine["marks"] = marks


def unmark(state: Any, pieces: tuple[str, ...]) -> None:
    """Drop every mark of ``pieces``."""
    marks = marks_of(state)
    if any(p in marks for p in pieces):
        state.engine["marks"] = {p: f for p, f in marks.items() if p not in pieces}


def told(state: Any, piece: str, prop: str) -> Any:
    """The value of ``prop`` a mark on ``piece`` names, or None."""
    for name, value, holds in marks_of(state).get(piece, ()):
        if holds and name == prop:
            return value
    return None


def _order(fact: Fact) -> tuple[str, str, bool]:
    return (fact[0], repr(fact[1]), fact[2])


def fits(own: dict[str, Any], facts: tuple[Fact, ...]) -> bool:
    """Whether a piece of properties ``own`` makes every fact true."""
    return all((own.get(prop) == value) == holds for prop, value, holds in facts)


def honour(
    dealt: list[str], old: tuple[str, ...], marks: dict, props: Any, strict: bool
) -> list[str] | None:
    """``dealt`` (a random order of a family's pieces, place by place) rearranged so
    that every marked place (``old[i]`` carried marks) gets a piece the marks fit.

    The places with the fewest fitting pieces go first; each takes the first piece of
    ``dealt`` not yet taken that fits (so one at random among those that fit), and
    the other places take the pieces left, in ``dealt``'s order. A place no piece left
    fits is a dead end: None when ``strict``, else it takes the next piece left (the
    marks of that place only are broken: the last deal of ``MAX_MARK_DEALS``)."""
    marked = [(i, marks[p]) for i, p in enumerate(old) if p in marks]
    if not marked:
        return dealt
    candidates = {i: [p for p in dealt if fits(props[p], facts)] for i, facts in marked}
    out: list[str | None] = [None] * len(dealt)
    taken: set[str] = set()
    for i, _ in sorted(marked, key=lambda m: (len(candidates[m[0]]), m[0])):
        piece = next((p for p in candidates[i] if p not in taken), None)
        if piece is None:
            if strict:
                return None
            continue  # filled below with what is left
        out[i] = piece
        taken.add(piece)
    rest = iter(p for p in dealt if p not in taken)
    return [p if p is not None else next(rest) for p in out]


def renamed_marks(state: Any, renamed: dict[str, str]) -> None:
    """After a deal: the marks of each dealt place go to the piece dealt there."""
    marks = marks_of(state)
    if marks:
        state.engine["marks"] = {renamed.get(p, p): f for p, f in marks.items()}


def drops_marks_at(tables: Any, zone: str) -> bool:
    """Whether a piece loses its marks by going into ``zone``: everyone sees it there,
    or it is drawn from at random (nobody can point at it)."""
    return zone not in tables.hidden_zones or zone in tables.random_zones


def shown(state: Any, zone_names: dict[str, str]) -> dict[str, list[dict[str, Any]]]:
    """The marks as a view shows them: by zone (``zone_names``: a zone's key -> how the
    view names it, ``P2.hand``), a list of the facts at each place in order
    (``{"colour": "red", "rank": {"not": [3]}}``; ``{}`` where there is none).
    Only zones holding a marked piece are listed."""
    marks = marks_of(state)
    if not marks:
        return {}
    out: dict[str, list[dict[str, Any]]] = {}
    for key, name in zone_names.items():
        items = state.zones.get(key, ())
        if any(p in marks for p in items):
            out[name] = [_facts_shown(marks.get(p, ())) for p in items]
    return out


def _facts_shown(facts: tuple[Fact, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for prop, value, holds in facts:
        if holds:
            out[prop] = value
    for prop, value, holds in facts:
        if not holds and prop not in out:
            out.setdefault(prop, {"not": []})["not"].append(value)
    return out
