"""Who sees a zone's contents or a counter's value: the visibilities, declared once.

Every reader of a visibility (the views, who follows a hidden piece, the logs'
readings, the worlds an agent samples, the schema) asks ``seen_by`` instead of
comparing words, so a new visibility is one line here and one in ``seen_by``.

``others`` is the visibility of a hand held facing the table: everyone sees it but its
owner. It belongs to something a player owns (``per: player``); on anything of the
game it would be nobody's blind spot, and the build refuses it there.
"""

from __future__ import annotations

VISIBILITIES: dict[str, str] = {
    "public": "everyone sees it",
    "private": "only its player sees it; the others see the count",
    "others": "everyone but its player sees it (a hand held facing the table); "
    "its player sees the count",
    "secret": "nobody sees it until the end; everyone sees the count",
}
# a space group's spaces belong to nobody when the rules are built: no ``others`` there
SPACE_VISIBILITIES = tuple(v for v in VISIBILITIES if v != "others")


def seen_by(visibility: str, owner: int | None, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) sees what ``owner``'s item of this visibility
    holds (``owner`` None: an item of the game)."""
    if visibility == "public":
        return True
    if seat is None or owner is None:
        return False
    if visibility == "private":
        return owner == seat
    return visibility == "others" and owner != seat


def described() -> str:
    """The visibilities in one sentence, for the schema's descriptions."""
    return "; ".join(f"{name}: {meaning}" for name, meaning in VISIBILITIES.items()) + "."
