"""The text summary printed by `rules simulate`."""

from __future__ import annotations


def pct(x: float) -> str:
    return f"{100 * x:5.1f} %"


def interval(row: dict) -> str:
    return f"{pct(row['rate'])} [{pct(row['low'])} – {pct(row['high'])}]"


def moments(s: dict) -> str:
    if not s.get("n"):
        return "-"
    return (
        f"mean {s['mean']:.1f}, sd {s['sd']:.1f}, min {s['min']}, "
        f"quartiles {s['q1']:g} / {s['median']:g} / {s['q3']:g}, max {s['max']}"
    )


def text(report: dict, top: int = 12) -> str:
    lines = []
    head = report["run"]
    state = " (INTERRUPTED: partial results)" if head["interrupted"] else ""
    lines.append(
        f"{head['played']} of {head['planned']} games in {head['seconds']:.1f} s "
        f"({head['games_per_second']:.1f} games/s, {head['workers']} worker(s)), "
        f"seed {head['seed']}, agents {','.join(head['agents'])}{state}"
    )
    for group in report["groups"].values():
        lines += ["", *_group(group, top)]
    for comparison in report.get("versus", []):
        lines += ["", *_versus(comparison, top)]
    return "\n".join(lines)


def _group(g: dict, top: int) -> list[str]:
    n = g["finished"]
    out = [
        f"== {g['label']}, {g['players']} players: {g['games']} games, {len(g['errors'])} error(s)"
    ]
    if n:
        out.append("win rate by seat (95 % Wilson interval):")
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
            f"  {step:16s} {s['mean']:6.2f}  (sd {s['sd']:.2f})"
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
    return out


def _versus(c: dict, top: int) -> list[str]:
    out = [f"== versus, {c['players']} players: {c['second']}  minus  {c['first']}"]
    for name, m in c["means"].items():
        out.append(
            f"  {name:14s} {m['first']:8.2f} -> {m['second']:8.2f} "
            f"({m['difference']:+.2f}, Welch t {m['t']:+.2f}, p {m['p']:.3g})"
        )
    for s, row in enumerate(c["seats"]):
        out.append(f"  seat {s + 1} win rate {_change(row)}")
    for agent, row in c["agents"].items():
        out.append(f"  agent {agent} win rate {_change(row)}")
    if c["items"]:
        out.append("  items, most significant change first:")
        for row in c["items"][:top]:
            out.append(f"    {row['item']:20s} {_change(row)}")
    return out


def _change(row: dict) -> str:
    mark = " *" if row["p"] < 0.05 else ""
    return (
        f"{pct(row['first'])} -> {pct(row['second'])} ({100 * row['difference']:+.1f} points, "
        f"z {row['z']:+.2f}, p {row['p']:.3g}){mark}"
    )
