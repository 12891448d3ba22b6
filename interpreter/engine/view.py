"""What one player may know of a game: ``view(game, seat)``.

Zones show their contents or only their size by their declared visibility
(public: everyone; private: its player; others: everyone but its player; secret:
nobody), counters and variables likewise (a player's own under their entry); pieces
known to a player are shown to them (a piece `reveal`ed to them, or one they saw go
into a zone they cannot see, until it moves where they cannot follow it), in no
particular order. With dice, ``faces`` gives the face of each die the player sees
likewise (a roll makes the others forget a die's face). From the final scoring on,
everything is public. Public marks on pieces (``mark``: a hint about a card) are shown
to everyone, zone by zone and place by place (``"marks": {"P2.hand": [{"colour":
"red"}, {}, …]}``), absent when none.
"""

from __future__ import annotations

from typing import Any

from interpreter.engine import marks
from interpreter.engine.game import Game
from interpreter.engine.state import knowledge
from interpreter.ruleset.visibility import seen_by


def view(game: Game, seat: int | None) -> dict[str, Any]:
    """The visible position for ``seat`` (None: a spectator; all: use ``full_view``).

    During a simultaneous step the others' decisions so far are left out: the view
    shows the position before the step plus this player's own choices.
    """
    if game.is_over() or game.state.engine["stage"] == "scoring":
        return _view(game, seat, everything=True)
    if game.has_secret_decisions():  # a spectator sees nobody's secret choices either
        hide_from = -1 if seat is None else seat  # -1: nobody's choices are shown
        shown = _view(game.copy(hide_from=hide_from), seat, everything=False)
        shown["pending"] = _view(game, seat, everything=False)["pending"]
        return shown
    return _view(game, seat, everything=False)


def full_view(game: Game) -> dict[str, Any]:
    return _view(game, None, everything=True)


def _view(game: Game, seat: int | None, everything: bool) -> dict[str, Any]:
    state, tables, ruleset = game.state, game.tables, game.ruleset
    known = {} if everything else knowledge(state)  # everything shown: nothing to know
    names = state.players

    def sees(visibility: str, owner: int | None) -> bool:
        return everything or seen_by(visibility, owner, seat)

    def zone_entry(key: str, visibility: str, owner: int | None) -> Any:
        items = state.zones.get(key, ())
        if sees(visibility, owner):
            return list(items)
        # sorted: the order of a hidden zone (a shuffled pile) is not part of what is known
        shown = sorted(p for p in items if seat is not None and seat in known.get(p, ()))
        if shown:
            return {"count": len(items), "known": shown}
        return {"count": len(items)}

    per_player_variables = {n: v for n, v in ruleset.variables.items() if v.per == "player"}
    players = []
    for s, name in enumerate(names):
        counters = {}
        for cname, counter in ruleset.counters.items():
            if counter.per == "player" and sees(counter.visibility, s):
                counters[cname] = state.counters.get(f"{cname}#{s}", 0)
        zones = {
            zname: zone_entry(f"{zname}#{s}", zone.visibility, s)
            for zname, zone in ruleset.zones.items()
            if zone.per == "player"
        }
        entry: dict[str, Any] = {"name": name, "counters": counters, "zones": zones}
        if per_player_variables:  # the key only where the rules have such variables
            entry["variables"] = {
                vname: _plain(state.variables.get(f"{vname}#{s}"), names)
                for vname, variable in per_player_variables.items()
                if sees(variable.visibility, s)
            }
        players.append(entry)
    zones = {
        zname: zone_entry(zname, zone.visibility, None)
        for zname, zone in ruleset.zones.items()
        if zone.per == "game"
    }
    spaces = {}
    for sid, space in tables.spaces.items():
        owner = state.owners.get(sid)
        items = state.zones.get(sid, ())
        if owner is None and not items:
            continue
        entry: dict[str, Any] = {}
        if owner is not None:
            entry["owner"] = names[owner]
        if items:
            entry["pieces"] = zone_entry(sid, space.visibility, None)
        spaces[sid] = entry
    counters = {
        n: state.counters.get(n, 0)
        for n, c in ruleset.counters.items()
        if c.per == "game" and sees(c.visibility, None)
    }
    variables = {
        n: _plain(state.variables.get(n), names)
        for n, v in ruleset.variables.items()
        if v.per == "game" and sees(v.visibility, None)
    }
    engine = state.engine
    phase = None
    if engine["stage"] not in ("setup", "scoring", "over") and engine["phase"] < len(
        ruleset.phases
    ):
        phase = ruleset.phases[engine["phase"]].id
    pending = []
    for decision in game.pending():
        entry: dict[str, Any] = {"player": decision.player_name}
        if decision.player == seat or everything:
            entry["options"] = list(decision.options)
            entry["prompt"] = decision.prompt
        pending.append(entry)  # others see who is deciding, nothing of their options
    shown = {
        "you": names[seat] if seat is not None else None,
        "round": engine["round"],
        "phase": phase,
        "stage": engine["stage"],
        "counters": counters,
        "variables": variables,
        "players": players,
        "zones": zones,
        "spaces": spaces,
        "pending": pending,
    }
    if tables.dice:  # a ruleset with dice: the faces of those this player sees
        shown["faces"] = _faces(game, seat, everything, known)
    if state.engine.get("marks"):  # public facts about pieces, by place (``mark``)
        shown["marks"] = marks.shown(state, _zone_names(game))
    return shown


def _zone_names(game: Game) -> dict[str, str]:
    """Each zone's key in the state -> its name in a view's marks (``P2.hand``)."""
    ruleset, names = game.ruleset, game.state.players
    out = {}
    for zname, zone in ruleset.zones.items():
        if zone.per == "game":
            out[zname] = zname
        else:
            out.update({f"{zname}#{s}": f"{name}.{zname}" for s, name in enumerate(names)})
    out.update({sid: sid for sid in game.tables.spaces})
    return out


def _faces(game: Game, seat: int | None, everything: bool, known: Any) -> dict[str, int]:
    """The face of every die ``seat`` sees: in a zone they see, or known to them (a
    die `reveal`ed to them and not rolled since, ``ruleset/dice.py``)."""
    state, tables = game.state, game.tables
    out = {}
    for die in tables.dice:
        zone = state.where.get(die)
        if zone is None:
            continue
        if everything or tables.sees(zone, seat) or seat in known.get(die, ()):
            out[die] = tables.face(state, die)
    return out


def _plain(value: Any, names: tuple[str, ...]) -> Any:
    from interpreter.language.values import Player

    if isinstance(value, Player):
        return names[int(value)]
    if isinstance(value, tuple | list):
        return [_plain(v, names) for v in value]
    return value
