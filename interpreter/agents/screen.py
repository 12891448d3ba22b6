"""The human agent's screen in words: the board as one player sees it (and what
changed in it since they last saw it), options with their prices and what they are
about, and ``?WORD`` explanations of any option word, action, piece, space, zone or
counter, in the rules' own descriptions.

Everything here reads the seat's view (``engine/view.py``), never the game: a zone
the player may not see is "3 pieces (hidden)", never a list of ids.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, replace
from typing import Any

from interpreter.engine.game import Game, IllegalMove
from interpreter.engine.seat import Seat
from interpreter.engine.words import Wording, about, action_words, describe, view_lines
from interpreter.errors import GameError
from interpreter.ruleset.grid import drawn_grids
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.tables import Tables


@dataclass(frozen=True)
class Sight:
    """What the screen is drawn from: the rules, one player's view, and their open
    decision's options with what each costs or gains them at once (``prices``)."""

    ruleset: Ruleset
    tables: Tables
    shown: dict[str, Any]
    options: tuple[str, ...] = ()
    prices: dict[str, str] = field(default_factory=dict)

    def name(self, piece: str) -> str:
        """A piece by its label, and its id (what options name) when they differ; a die
        the player sees with its face (``view``'s `faces`)."""
        definition = self.ruleset.pieces.get(piece)
        label = definition.label if definition is not None and definition.label else piece
        named = label if label == piece else f"{label} ({piece})"
        face = self.shown.get("faces", {}).get(piece)
        return named if face is None else f"{named} showing {face}"

    def about(self, item: str) -> str:
        """A piece's or space's ``words.about`` line (its properties, the rules'
        description of its kind or group, what the actions it names do); "" else."""
        if item not in self.ruleset.pieces and item not in self.tables.spaces:
            return ""
        return about(self.ruleset, self.tables, self.shown, item)

    def action_label(self, word: str) -> str:
        action = self.ruleset.actions.get(word)
        label = self.ruleset.label(word, "actions", action.label if action else word)
        return "" if label == word else label


def contents(sight: Sight, content: Any) -> str:
    """A zone's content in words: its pieces, or "3 pieces (hidden)" and what is known."""
    if isinstance(content, list):
        return ", ".join(sight.name(p) for p in content) if content else "empty"
    count = int(content.get("count", 0))
    text = f"{count} piece{'' if count == 1 else 's'} (hidden)"
    known = content.get("known") or []
    if known:
        text += "; you know: " + ", ".join(sight.name(p) for p in known)
    return text


def board(sight: Sight) -> list[str]:
    """The position as the seat's player sees it, one line per thing, in words."""
    return view_lines(sight.shown, _wording(sight))


def zone_label(ruleset: Ruleset, zone: str) -> str:
    definition = ruleset.zones.get(zone)
    return ruleset.label(zone, "zones", definition.label if definition else None)


def space_label(sight: Sight, sid: str) -> str:
    space = sight.ruleset.spaces.get(sid)
    default = space.label if space is not None and space.label else sid
    return sight.ruleset.label(sid, "spaces", default)


def option_line(sight: Sight, option: str) -> str:
    """An option's text, its price in square brackets (``prices``), and in round
    brackets what its words are (``option_notes``)."""
    notes = option_notes(sight, option)
    price = sight.prices.get(option)
    text = option + (f" [{price}]" if price else "")
    return text + (f"   ({notes})" if notes else "")


def option_notes(sight: Sight, option: str) -> str:
    """What an option's words are: an action's label, a piece's or a space's words."""
    notes = []
    for word in option.split():
        said = describe_short(sight, word) or sight.action_label(word)
        if said:
            notes.append(said if len(option.split()) == 1 else f"{word}: {said}")
    return "; ".join(notes)


def describe_short(sight: Sight, word: str) -> str:
    """A piece's or space's properties, and the labels of the actions a piece names:
    what an option line has room for (``?WORD`` says the rest)."""
    text = describe(sight.ruleset, sight.tables, sight.shown, word)
    piece = sight.ruleset.pieces.get(word)
    if text and piece is not None:
        named = [
            f"{value}: {sight.ruleset.actions[value].label}"
            for value in piece.properties.values()
            if isinstance(value, str)
            and value in sight.ruleset.actions
            and sight.ruleset.actions[value].label not in ("", value)
        ]
        if named:
            text += " — " + "; ".join(named)
    return text


# ------------------------------------------------------------------ prices
def prices(seat: Seat, seed: int | str) -> dict[str, str]:
    """What each option gains or costs the deciding player at once, by option ("-2
    coins"; "" for nothing): tried in one world sampled from their seat
    (``Seat.sample``: nothing they cannot know goes in), up to the game's next wait.
    Said only when that is certain: no chance outcome on the way, and the same round
    and phase (the last move of a round would also count the next round's income)."""
    world = seat.sample(seed)
    out = {}
    for option in seat.options:
        trial = _tried(world, seat.player, option)
        if trial is not None:
            out[option] = _gained(seat.ruleset, world, trial, seat.player)
    return out


def _tried(world: Game, player: int, option: str) -> Game | None:
    trial = world.copy(same_chance=True)
    try:
        trial.apply(player, option)
    except (IllegalMove, GameError):
        return None
    engine, was = trial.state.engine, world.state.engine
    if len(trial.events) != len(world.events) + 1:  # a chance outcome came on the way
        return None
    if (engine["round"], engine["phase"], engine["stage"]) != (
        was["round"],
        was["phase"],
        was["stage"],
    ):
        return None
    return trial


def _gained(ruleset: Ruleset, world: Game, trial: Game, player: int) -> str:
    parts = []
    for name, counter in ruleset.counters.items():
        if counter.per != "player":
            continue
        key = f"{name}#{player}"
        delta = trial.state.counters.get(key, 0) - world.state.counters.get(key, 0)
        if delta:
            parts.append(f"{delta:+d} {counter_label(ruleset, name)}")
    return ", ".join(parts)


# ------------------------------------------------------------------ the board, again
EMPTIED = {"count": -1}  # a zone or space emptied since the board was last shown


def changes(sight: Sight, before: dict[str, Any]) -> list[str]:
    """The lines of ``board`` that changed since the view ``before``: a player's line
    (their counters) when anything of theirs changed, with the zones that did; the
    game's counters, variables and zones that changed; the spaces that did. A zone or
    space emptied since shows as "empty"."""
    shown = sight.shown

    def changed(new: dict, old: dict, emptied: Any = EMPTIED) -> dict:
        out = {k: v for k, v in new.items() if old.get(k) != v}
        out.update({k: emptied for k in old if k not in new})
        return out

    players = []
    for new, old in zip(shown["players"], before["players"], strict=True):
        zones = changed(new["zones"], old["zones"])
        zones = {
            k: EMPTIED if v in ([], {"count": 0}) and old["zones"].get(k) else v
            for k, v in zones.items()
        }
        if zones or (new["counters"], new.get("variables")) != (
            old["counters"],
            old.get("variables"),
        ):
            players.append({**new, "zones": zones})
    partial = {
        "counters": changed(shown["counters"], before["counters"], None),
        "variables": changed(shown["variables"], before["variables"], None),
        "players": players,
        "zones": {
            k: EMPTIED if v in ([], {"count": 0}) else v
            for k, v in changed(shown["zones"], before["zones"]).items()
        },
        "spaces": changed(shown["spaces"], before["spaces"], {"pieces": EMPTIED}),
    }
    wording = _wording(sight)
    # a board drawn as a grid is shown whole, and only when one of its squares changed
    grids = tuple(
        (group, rows)
        for group, rows in wording.grids
        if any(sid in partial["spaces"] for row in rows for sid in row if sid)
    )
    return view_lines(partial, replace(wording, grids=grids, whole=shown))


def _wording(sight: Sight) -> Wording:
    ruleset = sight.ruleset
    return Wording(
        ruleset.label,
        lambda zone: zone_label(ruleset, zone),
        lambda sid: space_label(sight, sid),
        lambda content: "empty" if content == EMPTIED else contents(sight, content),
        you=sight.shown.get("you") or "",
        grids=drawn_grids(ruleset, sight.tables),
    )


# ------------------------------------------------------------------ ?NAME
def names(sight: Sight) -> dict[str, tuple[str, str]]:
    """Every name a player may ask about, lower-cased: (what it is, its id)."""
    ruleset = sight.ruleset
    out: dict[str, tuple[str, str]] = {}
    for what, table, label_of in (
        ("counter", ruleset.counters, lambda k: counter_label(ruleset, k)),
        ("zone", ruleset.zones, lambda k: zone_label(ruleset, k)),
        ("space", ruleset.spaces, lambda k: space_label(sight, k)),
        ("piece", ruleset.pieces, sight.name),
        ("action", ruleset.actions, lambda k: sight.action_label(k) or k),
    ):
        for key in table:
            out[label_of(key).lower()] = (what, key)
    for what, table in (  # ids win over labels
        ("counter", ruleset.counters),
        ("zone", ruleset.zones),
        ("space", ruleset.spaces),
        ("piece", ruleset.pieces),
        ("action", ruleset.actions),
    ):
        for key in table:
            out[key.lower()] = (what, key)
    return out


_OFFERED = re.compile(r'\b(option|as)\s+"([^"]+)"')  # `option "keep"`, `choose … as "take"`
MAX_NOW = 8  # current options listed under ``?WORD``


def offered(ruleset: Ruleset) -> dict[str, list[tuple[str, str, str]]]:
    """Every option word the rules' effects offer, lower-cased: where each is offered,
    as (section, id, "option" or "as"). These are the words of options that are not
    names (`keep`, `take`, `no bonus`)."""
    sources = [("actions", key, a.effect) for key, a in ruleset.actions.items()]
    sources += [("phases", p.id, p.effect) for p in ruleset.phases]
    sources += [("scoring", s.id, s.effect) for s in ruleset.scoring]
    sources += [("triggers", key, t.effect) for key, t in ruleset.triggers.items()]
    out: dict[str, list[tuple[str, str, str]]] = {}
    for section, key, effect in sources:
        for kind, word in _OFFERED.findall(getattr(effect, "source", "") or ""):
            places = out.setdefault(word.lower(), [])
            if (section, key, kind) not in places:
                places.append((section, key, kind))
    return out


def explain(sight: Sight, asked: str) -> list[str]:
    """``?WORD``: what an action, piece, space, zone, counter or option word is, by id
    or label (any case), in the rules' words, and the options open now that it names,
    with their prices; near names when nothing is called so."""
    asked = asked.strip()
    if not asked:
        return [
            "?WORD explains an option word, an action, a piece, a space, a zone or a counter,",
            "by its id or its name (for instance ?"
            + next(iter(sight.ruleset.actions), "NAME")
            + "); `board` shows the whole board",
        ]
    known, words = names(sight), offered(sight.ruleset)
    lower = asked.lower()
    found = known.get(lower)
    option = next((o for o in sight.options if o.lower() == lower), None)
    if found is None and option is None and lower not in words:
        near = difflib.get_close_matches(lower, [*known, *words], n=4, cutoff=0.6)
        text = f"nothing is called {asked!r}"
        if near:
            shown = [known[n][1] if n in known else n for n in near]
            text += "; did you mean: " + ", ".join(dict.fromkeys(shown)) + "?"
        return [text]
    lines: list[str] = []
    if found is not None:
        lines += _explained(sight, *found)
    if lower in words and (found is None or found[0] == "action"):
        lines += _offered_lines(sight, asked, words[lower], indent=bool(lines))
    if not lines and option is not None:
        lines.append(option_line(sight, option))
    return lines + _now(sight, lower)


def _explained(sight: Sight, what: str, key: str) -> list[str]:
    if what == "action":
        return _action(sight, key)
    if what == "zone":
        return _zone(sight, key)
    if what == "counter":
        return _counter(sight, key)
    if what == "piece":
        return [f"{sight.name(key)}: {sight.about(key)}", f"    where: {where(sight, key)}"]
    return [f"{space_label(sight, key)}: {sight.about(key) or 'a space'}"]


def _offered_lines(
    sight: Sight, word: str, places: list[tuple[str, str, str]], indent: bool
) -> list[str]:
    """Where the rules offer the option word ``word``, and what that part does."""
    ruleset = sight.ruleset
    out = []
    for section, key, kind in places:
        if section == "actions":
            said = action_words(ruleset, key)
            where_ = f"the action {key}" + (f" ({said})" if said else "")
        else:
            label = {
                "phases": {p.id: p.label for p in ruleset.phases},
                "scoring": {s.id: s.label for s in ruleset.scoring},
            }.get(section, {}).get(key) or key
            said = ". ".join(
                t
                for t in (ruleset.label(key, section, label), ruleset.description(section, key))
                if t
            )
            noun = {"phases": "the phase", "scoring": "the scoring step"}.get(section, "the rule")
            where_ = f"{noun} {key}" + (f" ({said})" if said and said != key else "")
        what = "an option of" if kind == "option" else "a choice made in"
        out.append(f"{word}: {what} {where_}")
    return [("    " + line) if indent else line for line in out]


def _now(sight: Sight, lower: str) -> list[str]:
    """The options open now that are ``lower`` or name it, with their prices."""
    matching = [o for o in sight.options if o.lower() == lower or lower in o.lower().split()]
    lines = [f"    now: {_priced(sight, o)}" for o in matching[:MAX_NOW]]
    if len(matching) > MAX_NOW:
        rest = len(matching) - MAX_NOW
        lines.append(f"    … and {rest} more option" + ("" if rest == 1 else "s"))
    return lines


def _priced(sight: Sight, option: str) -> str:
    price = sight.prices.get(option)
    return f"{option} [{price}]" if price else option


def _action(sight: Sight, key: str) -> list[str]:
    action = sight.ruleset.actions[key]
    label = sight.action_label(key)
    lines = [f"{key}: an action" + (f", {label}" if label else "")]
    description = sight.ruleset.description("actions", key)
    if description:
        lines.append(f"    what it does: {description}")
    if action.params:
        lines.append("    asks for: " + ", ".join(f"{p} ({t})" for p, t in action.params.items()))
    for requirement in action.requires:
        lines.append(f"    needs: {requirement.text}")
    if action.location is not None:
        lines.append(f"    rules: {action.location}")
    return lines


def _zone(sight: Sight, key: str) -> list[str]:
    definition = sight.ruleset.zones[key]
    per = "each player's" if definition.per == "player" else "the table's"
    lines = [f"{zone_label(sight.ruleset, key)}: {per} zone, {definition.visibility}"]
    description = sight.ruleset.description("zones", key)
    if description:
        lines.append(f"    {description}")
    if definition.per == "player":
        for player in sight.shown["players"]:
            content = player["zones"].get(key)
            if content is not None:
                lines.append(f"    {player['name']}: {contents(sight, content)}")
    elif key in sight.shown["zones"]:
        lines.append(f"    holds: {contents(sight, sight.shown['zones'][key])}")
    return lines


def counter_label(ruleset: Ruleset, name: str) -> str:
    definition = ruleset.counters.get(name)
    return ruleset.label(name, "counters", definition.label if definition else None)


def _counter(sight: Sight, name: str) -> list[str]:
    definition = sight.ruleset.counters[name]
    per = "each player's" if definition.per == "player" else "the table's"
    label = counter_label(sight.ruleset, name)
    lines = [
        f"{name}: {per} counter, {definition.visibility}" + (f"; {label}" if label != name else "")
    ]
    description = sight.ruleset.description("counters", name)
    if description:
        lines.append(f"    {description}")
    shown = sight.shown
    if definition.per == "player":
        for player in shown["players"]:
            value = player["counters"].get(name, "hidden")
            lines.append(f"    {player['name']}: {value}")
    else:
        lines.append(f"    now: {shown['counters'].get(name, 'hidden')}")
    return lines


def where(sight: Sight, piece: str) -> str:
    """Where the player sees ``piece``: a zone or space, or "out of sight"."""
    shown = sight.shown

    def holds(content: Any) -> bool:
        if isinstance(content, list):
            return piece in content
        return isinstance(content, dict) and piece in (content.get("known") or [])

    for player in shown["players"]:
        for zone, content in player["zones"].items():
            if holds(content):
                return f"{player['name']}'s {zone_label(sight.ruleset, zone)}"
    for zone, content in shown["zones"].items():
        if holds(content):
            return zone_label(sight.ruleset, zone)
    for sid, entry in shown["spaces"].items():
        if holds(entry.get("pieces")):
            return space_label(sight, sid)
    return "out of sight"
