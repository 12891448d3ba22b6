"""The text summary printed by `rules simulate`: rounded for reading (report.json and
the CSV files keep full precision), the mod's items first."""

from __future__ import annotations

READ_FOCUS = (
    "how to read this: each item against the base items of its kind and level (the "
    "reference); 'players who had it' chose an option naming it; a difference is theirs "
    "minus the reference's, [95 % interval]; the verdict needs Holm-corrected p < 0.05"
)
READ_GROUP = (
    "how to read this: a rate is the share of games won, [95 % interval]; even chance "
    "is 1 / players; an item's win rate is that of the players who used it, not what "
    "it made them win"
)
READ_VERSUS = (
    "how to read this: each difference is {a} minus {b}, [95 % interval]; * marks a "
    "change that stays significant after Holm's correction (overall figures) or "
    "Benjamini-Hochberg's (items)"
)


def pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def interval(row: dict) -> str:
    return f"{pct(row['rate'])} [{100 * row['low']:.0f}, {100 * row['high']:.0f}]"


def num(x: float | int) -> str:
    """A figure for reading: whole numbers as they are, others to 1 decimal."""
    if isinstance(x, int) or float(x).is_integer():
        return str(int(x))
    return f"{x:.1f}"


def times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def gained(ability: dict) -> str:
    """How often an ability was chosen, and what it gained a time where measured."""
    out = times(ability["uses"])
    measured = ability.get("measured")
    if measured:
        gain = ability.get("gain")
        worth = ", ".join(f"{v:+.1f} {k}" for k, v in gain.items()) + " a time" if gain else ""
        out += f"; {worth or 'no counter changed'} (measured {times(measured)})"
    return out


def pvalue(p: float | None) -> str:
    if p is None:
        return "-"
    return "< 0.001" if p < 0.001 else f"{p:.2g}"


def moments(s: dict) -> str:
    if not s.get("n"):
        return "-"
    return (
        f"mean {num(s['mean'])}, sd {num(s['sd'])}, min {num(s['min'])}, quartiles "
        f"{num(s['q1'])} / {num(s['median'])} / {num(s['q3'])}, max {num(s['max'])}"
    )


def text(report: dict, top: int = 12) -> str:
    lines = []
    head = report["run"]
    state = " (INTERRUPTED: partial results)" if head["interrupted"] else ""
    lines.append(
        f"{head['played']} of {head['planned']} games in {head['seconds']:.1f} s "
        f"({head['games_per_second']:.1f} games/s, {head['workers']} worker(s)), "
        f"seed {head['seed']}{state}"
    )
    lines.append(f"agents: {', '.join(head['agents'])} (each in every seat in turn)")
    if head.get("agents_note"):
        lines.append(f"warning: {head['agents_note']}")
    labels = {key: f"{g['label']}, {g['players']} players" for key, g in report["groups"].items()}
    for key, rows in report.get("focus", {}).items():
        if rows:
            lines += ["", *_focus(focus_title(report, key), labels[key], rows)]
    for group in report["groups"].values():
        lines += ["", *_group(group, top)]
    for comparison in report.get("versus", []):
        lines += ["", *_versus(comparison, top)]
    return "\n".join(lines)


def focus_title(report: dict, key: str) -> str:
    """A focus section's title: a modded variant's, the plain one's (the same items
    without the mod, in a versus run), or the items of --focus alone."""
    rows = report["focus"][key]
    variant = report["plan"]["variants"][report["groups"][key]["variant"]]
    if all(row["change"] == "focus" for row in rows):
        return "the items asked for (--focus)"
    return "the mod's items first" if variant["mods"] else "the mod's items, without the mod"


def _focus(title: str, label: str, rows: list[dict]) -> list[str]:
    out = [f"== {title}: {label}", READ_FOCUS]
    for row in rows:
        games = row["player_games"] or 1
        out.append(f"* {row['sentence']}")
        out.append(
            f"  {row['item']} ({row['change']}: {row['what']}): offered to "
            f"{pct(row['offered'] / games)} of the players, taken by {pct(row['taken'] / games)}, "
            f"used {times(row['uses'])}"
        )
        out += [f"    {ability['item']}: {gained(ability)}" for ability in row["abilities"]]
        for twin in row.get("same_seeds", []):
            out.append(
                f"  on the same seeds in {twin['variant']}: {twin['players']} players had it and "
                f"won {pct(twin['rate'])}; {100 * twin['difference']:+.0f} points "
                f"[{100 * twin['low']:+.0f}, {100 * twin['high']:+.0f}] here"
            )
        reference = row["reference"]
        names = ", ".join(reference["items"][:8]) + (" …" if len(reference["items"]) > 8 else "")
        out.append(f"  reference: {reference['label']} ({names or 'none'})")
    return out


def _group(g: dict, top: int) -> list[str]:
    n = g["finished"]
    out = [
        f"== {g['label']}, {g['players']} players: {g['games']} games, {g['error_count']} error(s)",
        READ_GROUP,
    ]
    if n:
        out.append("win rate by seat:")
        out += [f"  seat {s + 1}: {interval(row)}" for s, row in enumerate(g["seats"])]
        if len(g["agents"]) > 1:
            out.append("win rate by agent:")
            out += [
                f"  {a:10s} {interval(row)}  ({row['n']} seats)" for a, row in g["agents"].items()
            ]
        out.append(f"score: {moments(g['scores'])}")
        out.append(f"winning score: {moments(g['winning_score'])}")
        out.append("score by scoring step (mean per player):")
        out += [
            f"  {step:16s} {s['mean']:6.1f}  (sd {s['sd']:.1f})"
            for step, s in g["breakdown"].items()
        ]
        out.append(f"decisions: {moments(g['decisions'])}")
        out.append(f"rounds: {moments(g['rounds'])}")
        items = g["items"]
        if items:
            out.append(
                f"items named in decisions ({len(items)}; by the lower bound of their users' "
                f"win rate; even chance is {100 / g['players']:.0f} %):"
            )
            shown = items if len(items) <= top + 5 else [*items[:top], None, *items[-5:]]
            for row in shown:
                if row is None:
                    out.append("  …")
                    continue
                out.append(
                    f"  {row['item']:20s} {row['kind']:9s} {interval(row)}  "
                    f"used {row['uses']} times by {row['n']} players in {row['games']} games"
                )
    for error in g["errors"]:
        out.append(f"error in game {error['index']} (seed {error['seed']}): {error['error']}")
        out.append(f"  reproduce: {error['replay']}")
    if g["error_count"] > len(g["errors"]):
        out.append(f"  … and {g['error_count'] - len(g['errors'])} more errors (games.csv)")
    return out


def _versus(c: dict, top: int) -> list[str]:
    a, b = c["variant"], c["against"]
    out = [
        f"== {a} vs {b}, {c['players']} players, on the same seeds",
        READ_VERSUS.format(a=a, b=b),
    ]
    for name, m in c["means"].items():
        out.append(
            f"  {name:14s} {num(m['value'])} vs {num(m['against'])}: "
            f"{m['difference']:+.1f} [{m['low']:+.1f}, {m['high']:+.1f}], "
            f"p {pvalue(m['p'])}, Holm {pvalue(m['holm_p'])}{_mark(m)}"
        )
    for s, row in enumerate(c["seats"]):
        out.append(f"  seat {s + 1} win rate {_change(row, 'holm_p', 'Holm')}")
    for agent, row in c["agents"].items():
        out.append(f"  agent {agent} win rate {_change(row, 'holm_p', 'Holm')}")
    out.append(
        f"  items: {c['items_tested']} tested, {c['items_significant']} significant "
        "after Benjamini-Hochberg; the strongest evidence first:"
    )
    for row in [row for row in c["items"] if row["p"] is not None][:top]:
        out.append(f"    {row['item']:20s} {_change(row, 'bh_p', 'BH')}")
    return out


def _change(row: dict, key: str, method: str) -> str:
    return (
        f"{pct(row['value'])} vs {pct(row['against'])}: {100 * row['difference']:+.0f} points "
        f"[{100 * row['low']:+.0f}, {100 * row['high']:+.0f}], p {pvalue(row['p'])}, "
        f"{method} {pvalue(row.get(key))}{_mark(row)}"
    )


def _mark(row: dict) -> str:
    return " *" if row.get("significant") else ""
