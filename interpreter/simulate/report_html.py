"""A self-contained HTML report: inline CSS and inline SVG, no script, no external URL.
Numbers are rounded for reading (report.json keeps them whole); the mod's items come
first and are highlighted wherever they appear."""

from __future__ import annotations

from html import escape

from interpreter.simulate import svg
from interpreter.simulate.report_text import (
    READ_FOCUS,
    READ_GROUP,
    READ_VERSUS,
    focus_title,
    num,
    pvalue,
)

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.5em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
table { border-collapse: collapse; margin: .5em 0 1em; }
th, td { padding: 2px 8px; border-bottom: 1px solid #eee; text-align: right; }
th { background: #f4f4f4; } td.name, th.name { text-align: left; }
tr.mod td { background: #fff4d6; } tr.mod td.name { font-weight: bold; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
.plot { background: #fafafa; border: 1px solid #ddd; }
.warn { color: #a00; font-weight: bold; } .sig { color: #a00; }
.read { color: #555; font-style: italic; }
.verdict { font-weight: bold; }
code { background: #f4f4f4; padding: 0 3px; }
"""


def pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def _table(
    head: list[str], rows: list[list], names: int = 1, marked: set[int] = frozenset()
) -> str:
    """A table; the rows whose position is in ``marked`` are highlighted."""
    cells = "".join(
        f'<th class="name">{escape(h)}</th>' if i < names else f"<th>{escape(h)}</th>"
        for i, h in enumerate(head)
    )
    body = []
    for n, row in enumerate(rows):
        mark = ' class="mod"' if n in marked else ""
        body.append(
            f"<tr{mark}>"
            + "".join(
                f'<td class="name">{escape(str(c))}</td>'
                if i < names
                else f"<td>{escape(str(c))}</td>"
                for i, c in enumerate(row)
            )
            + "</tr>"
        )
    return f"<table><tr>{cells}</tr>{''.join(body)}</table>"


def _read(line: str) -> str:
    return f"<p class='read'>{escape(line[0].upper() + line[1:])}.</p>"


def _rate(row: dict) -> list:
    return [pct(row["rate"]), f"{pct(row['low'])} – {pct(row['high'])}", row["n"]]


def _moments(s: dict) -> list:
    if not s.get("n"):
        return ["-"] * 7
    return [num(s[k]) for k in MOMENTS]


def _span(d: dict, scale: float = 1, unit: str = "") -> str:
    return (
        f"{scale * d['difference']:+.{0 if scale == 100 else 1}f}{unit} "
        f"[{scale * d['low']:+.{0 if scale == 100 else 1}f}, "
        f"{scale * d['high']:+.{0 if scale == 100 else 1}f}]"
    )


MOMENTS = ["mean", "sd", "min", "q1", "median", "q3", "max"]


def html(report: dict, top: int = 40) -> str:
    run = report["run"]
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        "<title>rules simulate</title>",
        f"<style>{STYLE}</style></head><body>",
        "<h1>Balance report</h1>",
        f"<p>{run['played']} of {run['planned']} games, {run['seconds']:.1f} s, "
        f"seed <code>{escape(str(run['seed']))}</code>; agents "
        f"<code>{escape(', '.join(run['agents']))}</code>, each in every seat in turn.</p>",
    ]
    if run.get("agents_note"):
        parts.append(
            f"<p class='warn'>{escape(run['agents_note'][0].upper())}"
            f"{escape(run['agents_note'][1:])}.</p>"
        )
    if run["interrupted"]:
        parts.append("<p class='warn'>Interrupted: these are partial results.</p>")
    focused: set[str] = set()
    for key, rows in report.get("focus", {}).items():
        if rows:
            group = report["groups"][key]
            label = f"{group['label']}, {group['players']} players"
            parts.append(_focus(focus_title(report, key), label, rows))
            focused |= {row["item"] for row in rows}
    for group in report["groups"].values():
        parts.append(_group(group, top, focused))
    for comparison in report.get("versus", []):
        parts.append(_versus(comparison, top, focused))
    parts.append(
        "<h2>Games</h2><p>Every game, with its seed and the command that replays it, is in "
        "<code>games.csv</code> (<code>--out</code> or <code>--csv</code>).</p>"
    )
    parts.append("</body></html>\n")
    return "".join(parts)


def _focus(heading: str, title: str, rows: list[dict]) -> str:
    parts = [f"<h2>{escape(heading[0].upper() + heading[1:])}: {escape(title)}</h2>"]
    parts.append(_read(READ_FOCUS))
    parts.append("<ul>")
    parts += [f"<li class='verdict'>{escape(row['sentence'])}</li>" for row in rows]
    parts.append("</ul>")
    plotted = [row for row in rows if "win" in row]
    if plotted:
        parts.append("<div class='plots'>")
        parts.append(
            svg.differences(
                [
                    (
                        row["item"],
                        100 * row["win"]["difference"],
                        100 * row["win"]["low"],
                        100 * row["win"]["high"],
                    )
                    for row in plotted
                ],
                "win rate: had it minus reference (points, 95 %)",
            )
        )
        parts.append(
            svg.differences(
                [
                    (
                        row["item"],
                        row["score"]["difference"],
                        row["score"]["low"],
                        row["score"]["high"],
                    )
                    for row in plotted
                ],
                "mean final score: had it minus reference (95 %)",
            )
        )
        parts.append("</div>")

    def cells(row: dict) -> list:
        games = row["player_games"] or 1
        had, ref = row["had"], row["reference"]
        win, score = row.get("win"), row.get("score")
        return [
            row["item"],
            row["change"],
            pct(row["offered"] / games),
            pct(row["taken"] / games),
            row["uses"],
            f"{pct(had['rate'])} ({had['players']})",
            f"{pct(ref['rate'])} ({ref['players']})",
            _span(win, 100) if win else "-",
            _span(score) if score else "-",
            pvalue(min(win["holm_p"], score["holm_p"])) if win else "-",
            row["verdict"],
        ]

    parts.append(
        _table(
            [
                "item",
                "change",
                "offered",
                "taken",
                "uses",
                "had it: won",
                "reference: won",
                "win points",
                "score",
                "Holm p",
                "verdict",
            ],
            [cells(row) for row in rows],
            marked=set(range(len(rows))),
        )
    )
    parts.append("<h3>What each ability did, and the references</h3>")
    lines = []
    for row in rows:
        for ability in row["abilities"]:
            gain = ability.get("gain") or {}
            worth = ", ".join(f"{v:+.1f} {k}" for k, v in gain.items()) or "-"
            lines.append([ability["item"], ability["uses"], ability.get("measured", "-"), worth])
    if lines:
        parts.append(_table(["ability", "times", "measured", "gain a time"], lines))
    parts.append(
        _table(
            ["item", "what changed", "reference", "reference items", "on the same seeds"],
            [
                [
                    row["item"],
                    row["what"],
                    row["reference"]["label"],
                    ", ".join(row["reference"]["items"]) or "none",
                    "; ".join(
                        f"{t['variant']}: won {pct(t['rate'])} ({t['players']}), "
                        f"{_span(t, 100)} points here"
                        for t in row.get("same_seeds", [])
                    )
                    or "-",
                ]
                for row in rows
            ],
            names=5,
        )
    )
    return "".join(parts)


def _group(g: dict, top: int, focused: set[str]) -> str:
    title = f"{g['label']}, {g['players']} players"
    parts = [
        f"<h2>{escape(title)}</h2>",
        f"<p>{g['games']} games, {g['error_count']} error(s).</p>",
        _read(READ_GROUP),
    ]
    even = 1 / g["players"]
    mine = [r for r in g["items"] if _owner(r["item"]) in focused]
    items = mine + [r for r in g["items"] if _owner(r["item"]) not in focused][: top - len(mine)]
    parts.append("<div class='plots'>")
    parts.append(svg.histogram(g["score_counts"], "score distribution (all players)"))
    parts.append(
        svg.intervals(
            [(f"seat {s + 1}", r["rate"], r["low"], r["high"]) for s, r in enumerate(g["seats"])],
            "win rate by seat (95 % interval)",
            even,
        )
    )
    if len(g["agents"]) > 1:
        parts.append(
            svg.intervals(
                [(a, r["rate"], r["low"], r["high"]) for a, r in g["agents"].items()],
                "win rate by agent",
                even,
            )
        )
    parts.append(
        svg.intervals(
            [(r["item"], r["rate"], r["low"], r["high"]) for r in items],
            f"win rate of the players who used each item (the mod's, then the top; {len(items)})",
            even,
        )
    )
    parts.append("</div>")
    parts.append("<h3>Win rate by seat</h3>")
    parts.append(
        _table(
            ["seat", "win rate", "95 % interval", "games"],
            [[f"seat {s + 1}", *_rate(r)] for s, r in enumerate(g["seats"])],
        )
    )
    if len(g["agents"]) > 1:
        parts.append("<h3>Win rate by agent</h3>")
        parts.append(
            _table(
                ["agent", "win rate", "95 % interval", "seats"],
                [[a, *_rate(r)] for a, r in g["agents"].items()],
            )
        )
    parts.append("<h3>Scores and length</h3>")
    rows = [["score", *_moments(g["scores"])], ["winning score", *_moments(g["winning_score"])]]
    rows += [[f"step {step}", *_moments(s)] for step, s in g["breakdown"].items()]
    rows += [["decisions", *_moments(g["decisions"])], ["rounds", *_moments(g["rounds"])]]
    parts.append(_table(["", *MOMENTS], rows))
    parts.append("<h3>Items named in decisions</h3>")
    ordered = mine + [r for r in g["items"] if _owner(r["item"]) not in focused]
    parts.append(
        _table(
            ["item", "kind", "win rate", "95 % interval", "players", "uses", "games", "mean score"],
            [
                [r["item"], r["kind"], *_rate(r), r["uses"], r["games"], num(r["mean_score"])]
                for r in ordered
            ],
            names=2,
            marked=set(range(len(mine))),
        )
    )
    if g["errors"]:
        parts.append("<h3 class='warn'>Errors</h3>")
        parts.append(
            _table(
                ["error", "seed", "reproduce"],
                [[e["error"], e["seed"], e["replay"]] for e in g["errors"]],
            )
        )
    return "".join(parts)


def _owner(key: str) -> str:
    """The item of an item row: ``E02`` of "bonus E02"."""
    return key.rsplit(" ", 1)[-1]


def _versus(c: dict, top: int, focused: set[str]) -> str:
    a, b = c["variant"], c["against"]
    parts = [
        f"<h2>{escape(a)} vs {escape(b)}, {c['players']} players</h2>",
        f"<p>On the same seeds ({c['games']['variant']} and {c['games']['against']} games); "
        f"{c['items_tested']} items tested, {c['items_significant']} significant after "
        "Benjamini–Hochberg.</p>",
        _read(READ_VERSUS.format(a=a, b=b)),
    ]
    tested = [r for r in c["items"] if r["p"] is not None]
    shown = [r for r in tested if _owner(r["item"]) in focused]
    shown += [r for r in tested if _owner(r["item"]) not in focused][: max(0, 20 - len(shown))]
    rates = [(f"seat {s + 1}", r) for s, r in enumerate(c["seats"])]
    rates += [(f"agent {n}", r) for n, r in c["agents"].items()]
    rates += [(r["item"], r) for r in shown]
    parts.append("<div class='plots'>")
    parts.append(
        svg.differences(
            [(n, 100 * r["difference"], 100 * r["low"], 100 * r["high"]) for n, r in rates],
            f"win rate, {a} minus {b} (points, 95 %)",
        )
    )
    parts.append(
        svg.differences(
            [(n, m["difference"], m["low"], m["high"]) for n, m in c["means"].items()],
            f"means, {a} minus {b} (95 %)",
        )
    )
    parts.append("</div>")
    rows = [
        [
            name,
            num(m["value"]),
            num(m["against"]),
            _span(m),
            pvalue(m["p"]),
            pvalue(m["holm_p"]) + (" *" if m["significant"] else ""),
        ]
        for name, m in c["means"].items()
    ]
    parts.append(_table(["mean", a, b, "difference [95 %]", "p", "Holm p"], rows))

    def change(name: str, row: dict, key: str) -> list:
        spread = _span(row, 100) if row["low"] is not None else f"{100 * row['difference']:+.0f}"
        return [
            name,
            pct(row["value"]),
            pct(row["against"]),
            spread,
            pvalue(row["p"]),
            pvalue(row.get(key)) + (" *" if row.get("significant") else ""),
        ]

    rows = [change(f"seat {s + 1}", r, "holm_p") for s, r in enumerate(c["seats"])]
    rows += [change(f"agent {n}", r, "holm_p") for n, r in c["agents"].items()]
    parts.append(_table(["win rate", a, b, "points [95 %]", "p", "Holm p"], rows))
    mine = [r for r in c["items"] if _owner(r["item"]) in focused]
    others = [r for r in c["items"] if _owner(r["item"]) not in focused][:top]
    parts.append(
        _table(
            ["item win rate", a, b, "points [95 %]", "p", "BH p"],
            [change(r["item"], r, "bh_p") for r in mine + others],
            marked=set(range(len(mine))),
        )
    )
    return "".join(parts)
