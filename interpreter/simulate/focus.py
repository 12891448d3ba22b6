"""The items a report opens on: what a mod adds or changes, or the ids of ``--focus``;
each judged against a matched reference.

What a mod changes is found by comparing the ruleset loaded with and without it:
new or changed components, spaces and actions (a changed action also marks the
components one of whose properties names it: the card whose ability it is). An
item's *reference* is the items of the base game of the same kind and level: the
components of its kind with the same values of its kind's plain properties (numbers,
texts, yes/no: `level: 3`, `type: worker`), the spaces of its group (or, for a new
group, of the groups with the same properties), the actions with the same
parameters; when none has all the same values, the last property is let go, and so
on: each such step is tallied, and the narrowest with at least ``MIN_PLAYERS``
players is the reference (else the widest). The players who had the item are
compared with those who had a reference item (and not it): win rate and mean final
score, each difference with its 95 % interval, and Holm's correction over every test
of the table before a verdict.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from interpreter.simulate.plan import Plan, Variant
from interpreter.simulate.play import ruleset_of
from interpreter.simulate.stats import (
    holm,
    mean_difference,
    moments,
    r,
    rate_difference,
    two_proportions,
)

MIN_PLAYERS = 20  # players on each side below which a verdict is "too few games"
PLAIN = ("number", "text", "bool")  # property types that say an item's kind and level


@dataclass(frozen=True)
class Target:
    item: str
    category: str  # component, space or action
    change: str  # "new", "changed" or "focus"
    what: str  # what changed, in words
    kind: str  # its kind and level, in words
    # the references, narrowest first: (label, items) for each property let go
    levels: tuple[tuple[str, tuple[str, ...]], ...]

    @property
    def reference(self) -> tuple[str, ...]:
        return self.levels[0][1] if self.levels else ()


def targets(plan: Plan, ids: tuple[str, ...] = ()) -> list[Target]:
    """What each modded variant's mods add or change, then the ``ids`` asked for."""
    out: dict[str, Target] = {}
    for variant in plan.variants:
        if not variant.mods:
            continue
        base = ruleset_of(Variant(variant.ruleset, variant.expansions, ()))
        modded = ruleset_of(variant)
        for item, category, change, what in changes(base, modded):
            if item not in out:
                out[item] = _target(modded, base, item, category, change, what)
    ruleset = ruleset_of(plan.variants[0])
    for item in ids:
        if item not in out:
            category = _category(ruleset, item)
            out[item] = _target(ruleset, None, item, category, "focus", "asked for")
    return list(out.values())


def references(found: list[Target]) -> dict[str, tuple[frozenset[str], ...]]:
    """Each target's reference items, narrowest first: what ``aggregate.Totals``
    tallies them against."""
    return {t.item: tuple(frozenset(items) for _, items in t.levels) for t in found}


def changes(base: Any, modded: Any) -> list[tuple[str, str, str, str]]:
    """(id, category, "new"/"changed", what) of every item the mod adds or changes."""
    found: list[tuple[str, str, str, str]] = []
    changed_actions: set[str] = set()
    for action, definition in modded.actions.items():
        old = base.actions.get(action)
        if old is None:
            found.append((action, "action", "new", "a new action"))
        elif _action_text(old) != _action_text(definition):
            found.append((action, "action", "changed", "its effect or requirements changed"))
            changed_actions.add(action)
    for piece, definition in modded.pieces.items():
        old = base.pieces.get(piece)
        if old is None:
            found.append((piece, "component", "new", f"a new {definition.kind}"))
            continue
        what = _differences(old.properties, definition.properties)
        if old.kind != definition.kind:
            what.insert(0, f"kind {old.kind} -> {definition.kind}")
        what += [
            f"its {name} ({value}) changed"
            for name, value in sorted(definition.properties.items())
            if isinstance(value, str) and value in changed_actions
        ]
        if what:
            found.append((piece, "component", "changed", ", ".join(what)))
    for space, definition in modded.spaces.items():
        old = base.spaces.get(space)
        if old is None:
            found.append((space, "space", "new", f"a new space of {definition.group}"))
            continue
        what = _differences(old.properties, definition.properties)
        if what:
            found.append((space, "space", "changed", ", ".join(what)))
    # the components first (what players hold), then spaces, then actions
    order = {"component": 0, "space": 1, "action": 2}
    found.sort(key=lambda f: (order[f[1]], f[0]))
    # an action that is a component's ability is judged through that component
    abilities = {
        v for p in modded.pieces.values() for v in p.properties.values() if isinstance(v, str)
    }
    return [f for f in found if not (f[1] == "action" and f[0] in abilities)]


def _action_text(definition: Any) -> tuple:
    effect = definition.effect
    source = getattr(effect, "source", None)
    if source is None and isinstance(effect, list | tuple):
        source = tuple(getattr(e, "source", str(e)) for e in effect)
    return (
        definition.label,
        tuple(sorted(definition.params.items())),
        tuple(q.text for q in definition.requires),
        source if source is not None else type(effect).__name__,
    )


def _differences(old: dict, new: dict) -> list[str]:
    return [
        f"{name} {old.get(name)!r} -> {new.get(name)!r}"
        for name in sorted(set(old) | set(new))
        if old.get(name) != new.get(name)
    ]


def has(ruleset: Any, item: str) -> bool:
    """Whether ``item`` is a component, space or action of ``ruleset``."""
    return item in ruleset.pieces or item in ruleset.spaces or item in ruleset.actions


def _category(ruleset: Any, item: str) -> str:
    if item in ruleset.pieces:
        return "component"
    if item in ruleset.spaces:
        return "space"
    return "action" if item in ruleset.actions else "item"


def _target(ruleset, base, item: str, category: str, change: str, what: str) -> Target:
    """``item`` with its reference among the items ``base`` has unchanged (or, for
    ``--focus``, among all the others)."""
    allowed = _kept(ruleset, base, category) if base is not None else None
    kind, mine_props, candidates = _profile(ruleset, item, category, allowed)
    keys = list(mine_props)
    levels: list[tuple[str, tuple[str, ...]]] = []
    while True:
        wanted = {k: mine_props[k] for k in keys}
        found = tuple(
            sorted(c[0] for c in candidates if all(c[1].get(k) == v for k, v in wanted.items()))
        )
        label = kind + (
            " with " + ", ".join(f"{k} {_word(v)}" for k, v in wanted.items()) if wanted else ""
        )
        if found and (not levels or levels[-1][1] != found):
            levels.append((label, found))
        if not keys:
            break
        keys.pop()
    described = levels[0][0] if levels else kind
    return Target(item, category, change, what, described, tuple(levels))


def _kept(ruleset, base, category: str) -> set[str]:
    """The ids of ``category`` that ``base`` has with the same definition."""
    if category == "component":
        return {k for k, v in ruleset.pieces.items() if base.pieces.get(k) == v}
    if category == "space":
        return {k for k, v in ruleset.spaces.items() if base.spaces.get(k) == v}
    if category == "action":
        return {
            k
            for k, v in ruleset.actions.items()
            if k in base.actions and _action_text(base.actions[k]) == _action_text(v)
        }
    return set()


def _profile(
    ruleset, item: str, category: str, allowed: set[str] | None
) -> tuple[str, dict, list[tuple[str, dict]]]:
    """The item's kind in words, its plain properties, and every other candidate
    (id, plain properties) of the same kind among ``allowed`` (None: all): the same
    component kind, the same space group (none left: the groups with the same
    property names), the same action parameters."""

    def keep(k: str) -> bool:
        return k != item and (allowed is None or k in allowed)

    if category == "component":
        piece = ruleset.pieces[item]
        declared = ruleset.kinds.get(piece.kind, {})
        plain = [k for k, t in declared.items() if t in PLAIN]

        def values(p: Any) -> dict:
            return {name: p.properties.get(name) for name in plain}

        every = [
            (k, values(p)) for k, p in ruleset.pieces.items() if p.kind == piece.kind and keep(k)
        ]
        return f"{piece.kind} components", values(piece), every
    if category == "space":
        space = ruleset.spaces[item]
        every = [
            (k, _plain(s.properties))
            for k, s in ruleset.spaces.items()
            if s.group == space.group and keep(k)
        ]
        if every:
            return f"spaces of {space.group}", _plain(space.properties), every
        names = set(space.properties)  # a new group: the spaces with the same properties
        every = [
            (k, _plain(s.properties))
            for k, s in ruleset.spaces.items()
            if set(s.properties) == names and keep(k)
        ]
        return f"spaces like {space.group}", _plain(space.properties), every
    if category == "action":
        params = ruleset.actions[item].params
        every = [(k, {}) for k, a in ruleset.actions.items() if a.params == params and keep(k)]
        return "actions with the same parameters", {}, every
    return "items", {}, []


def _plain(properties: dict) -> dict:
    return {k: v for k, v in properties.items() if isinstance(v, int | float | bool)}


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def judge(found: list[Target], group: dict, tallies: dict[str, list[list[int]]]) -> list[dict]:
    """Each target's row in one group: how often offered, taken, used; its abilities;
    the players who had it against its reference; a verdict (Holm over the table)."""
    items = {row["item"]: row for row in group["items"]}
    player_games = group["finished"] * group["players"]
    rows = []
    for target in found:
        row = _row(target, items, player_games, tallies.get(target.item))
        rows.append(row)
    tested = [(row, name) for row in rows for name in ("win", "score") if row.get(name)]
    adjusted = holm([row[name]["p"] for row, name in tested])
    for (row, name), p in zip(tested, adjusted, strict=True):
        row[name]["holm_p"] = r(p)
    for row in rows:
        row["verdict"] = _verdict(row)
        row["sentence"] = _sentence(row)
    severity = {"likely too strong": 0, "likely too weak": 1}
    rows.sort(
        key=lambda row: (
            severity.get(row["verdict"], 2),
            min((row[n]["holm_p"] for n in ("win", "score") if row.get(n)), default=1.0),
            row["item"],
        )
    )
    return rows


def _row(target: Target, items: dict, player_games: int, tally) -> dict:
    mine = items.get(target.item, {})
    row: dict[str, Any] = {
        "item": target.item,
        "category": target.category,
        "change": target.change,
        "what": target.what,
        "kind": target.kind,
        "offered": mine.get("offered", 0),
        "taken": mine.get("n", 0),
        "uses": mine.get("uses", 0),
        "player_games": player_games,
        "abilities": [
            {k: v for k, v in items[key].items() if k in ("item", "uses", "measured", "gain")}
            for key in sorted(items)
            if key.endswith(f" {target.item}") and key != target.item
        ],
    }
    had, *refs = tally or [[0, 0, 0, 0] for _ in range(1 + len(target.levels))]
    level = next((i for i, ref in enumerate(refs) if ref[0] >= MIN_PLAYERS), max(0, len(refs) - 1))
    label, names = target.levels[level] if target.levels else ("no item", ())
    ref = refs[level] if refs else [0, 0, 0, 0]
    row["reference"] = {"label": label, "items": list(names), "level": level}
    row["had"] = _side(had)
    row["reference"].update(_side(ref))
    if had[0] >= MIN_PLAYERS and ref[0] >= MIN_PLAYERS:
        d, low, high = rate_difference(had[1], had[0], ref[1], ref[0])
        _, p = two_proportions(ref[1], ref[0], had[1], had[0])
        row["win"] = {"difference": r(d), "low": r(low), "high": r(high), "p": r(p)}
        a, b = moments(had[0], had[2], had[3]), moments(ref[0], ref[2], ref[3])
        d, low, high, p = mean_difference(a, b)
        row["score"] = {"difference": r(d), "low": r(low), "high": r(high), "p": r(p)}
    return row


def _side(tally: list[int]) -> dict:
    n, wins, total, squares = tally
    score = moments(n, total, squares)
    return {
        "players": n,
        "wins": wins,
        "rate": r(wins / n) if n else 0.0,
        "mean_score": r(score.get("mean", math.nan)) if n else None,
    }


def _verdict(row: dict) -> str:
    if "win" not in row:
        return "too few games to tell"
    significant = [row[n] for n in ("win", "score") if row[n]["holm_p"] < 0.05]
    if not significant:
        return "no sign of imbalance"
    return "likely too strong" if significant[0]["difference"] > 0 else "likely too weak"


def _sentence(row: dict) -> str:
    had, ref = row["had"], row["reference"]
    if "win" not in row:
        never = " (never offered: the agents never reached it)" if not row["offered"] else ""
        return (
            f"{row['item']}: {had['players']} players had it{never}, {ref['players']} had "
            f"{ref['label']}: too few games to tell (at least {MIN_PLAYERS} each)"
        )
    win, score = row["win"], row["score"]
    return (
        f"{row['item']}: players who had it won {100 * had['rate']:.0f} % vs "
        f"{100 * ref['rate']:.0f} % for {ref['label']}, {100 * win['difference']:+.0f} points "
        f"[{100 * win['low']:+.0f}, {100 * win['high']:+.0f}]; mean score "
        f"{had['mean_score']:.1f} vs {ref['mean_score']:.1f}, {score['difference']:+.1f} "
        f"[{score['low']:+.1f}, {score['high']:+.1f}]: {row['verdict']}"
    )


def same_seeds(focus: dict[str, list[dict]], groups: dict) -> None:
    """Where another variant played the same seeds with the same item (a changed card
    in a versus run against the plain game), each row also gets the players who had
    it there, and the difference in win rate: the item with and without the change."""
    for key, rows in focus.items():
        group = groups[key]
        for row in rows:
            row["same_seeds"] = []
            for other_key, others in focus.items():
                other = groups[other_key]
                if other_key == key or other["players"] != group["players"]:
                    continue
                twin = next((o for o in others if o["item"] == row["item"]), None)
                if twin is None or not twin["had"]["players"] or not row["had"]["players"]:
                    continue
                mine, theirs = row["had"], twin["had"]
                d, low, high = rate_difference(
                    mine["wins"], mine["players"], theirs["wins"], theirs["players"]
                )
                row["same_seeds"].append(
                    {
                        "variant": other["label"],
                        "players": theirs["players"],
                        "rate": theirs["rate"],
                        "mean_score": theirs["mean_score"],
                        "difference": r(d),
                        "low": r(low),
                        "high": r(high),
                    }
                )
