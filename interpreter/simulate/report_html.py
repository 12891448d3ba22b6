"""A self-contained HTML report: inline CSS and inline SVG, no script, no external URL."""

from __future__ import annotations

from html import escape

from interpreter.simulate import svg

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.5em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
table { border-collapse: collapse; margin: .5em 0 1em; }
th, td { padding: 2px 8px; border-bottom: 1px solid #eee; text-align: right; }
th { background: #f4f4f4; } td.name, th.name { text-align: left; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
.plot { background: #fafafa; border: 1px solid #ddd; }
.warn { color: #a00; font-weight: bold; } .sig { color: #a00; }
code { background: #f4f4f4; padding: 0 3px; }
"""


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _table(head: list[str], rows: list[list], names: int = 1) -> str:
    cells = "".join(
        f'<th class="name">{escape(h)}</th>' if i < names else f"<th>{escape(h)}</th>"
        for i, h in enumerate(head)
    )
    body = []
    for row in rows:
        body.append(
            "<tr>"
            + "".join(
                f'<td class="name">{escape(str(c))}</td>'
                if i < names
                else f"<td>{escape(str(c))}</td>"
                for i, c in enumerate(row)
            )
            + "</tr>"
        )
    return f"<table><tr>{cells}</tr>{''.join(body)}</table>"


def _rate(row: dict) -> list:
    return [pct(row["rate"]), f"{pct(row['low'])} – {pct(row['high'])}", row["n"]]


def _moments(s: dict) -> list:
    if not s.get("n"):
        return ["-"] * 7
    return [s["mean"], s["sd"], s["min"], s["q1"], s["median"], s["q3"], s["max"]]


MOMENTS = ["mean", "sd", "min", "q1", "median", "q3", "max"]


def html(report: dict, top: int = 40) -> str:
    run = report["run"]
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        "<title>rules simulate</title>",
        f"<style>{STYLE}</style></head><body>",
        "<h1>Balance report</h1>",
        f"<p>{run['played']} of {run['planned']} games, {run['seconds']:.1f} s, "
        f"seed <code>{escape(str(run['seed']))}</code>, agents "
        f"<code>{escape(','.join(run['agents']))}</code>.</p>",
    ]
    if run["interrupted"]:
        parts.append("<p class='warn'>Interrupted: these are partial results.</p>")
    for group in report["groups"].values():
        parts.append(_group(group, top))
    for comparison in report.get("versus", []):
        parts.append(_versus(comparison, top))
    parts.append(
        "<h2>Games</h2><details><summary>every game, its seed and how to replay it</summary>"
    )
    parts.append(
        _table(
            ["replay", "players", "scores", "winners", "decisions", "error"],
            [
                [
                    g["replay"],
                    g["players"],
                    g["scores"],
                    g["winners"],
                    g["decisions"],
                    g["error"] or "",
                ]
                for g in report["games"]
            ],
        )
    )
    parts.append("</details></body></html>\n")
    return "".join(parts)


def _group(g: dict, top: int) -> str:
    title = f"{g['label']}, {g['players']} players"
    parts = [
        f"<h2>{escape(title)}</h2>",
        f"<p>{g['games']} games, {len(g['errors'])} error(s).</p>",
    ]
    even = 1 / g["players"]
    items = g["items"][:top]
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
            f"win rate of the players who used each item (top {len(items)})",
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
    parts.append(
        _table(
            ["item", "kind", "win rate", "95 % interval", "players", "uses", "games"],
            [[r["item"], r["kind"], *_rate(r), r["uses"], r["games"]] for r in g["items"]],
            names=2,
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


def _versus(c: dict, top: int) -> str:
    parts = [
        f"<h2>Versus, {c['players']} players</h2>",
        f"<p>{escape(c['second'])} compared with {escape(c['first'])} on the same seeds "
        f"({c['games'][0]} and {c['games'][1]} games); p is the two-sided p-value.</p>",
    ]
    rows = [
        [name, m["first"], m["second"], f"{m['difference']:+.2f}", m["t"], m["p"]]
        for name, m in c["means"].items()
    ]
    parts.append(_table(["mean", "first", "second", "difference", "Welch t", "p"], rows))

    def change(name: str, row: dict) -> list:
        return [
            name,
            pct(row["first"]),
            pct(row["second"]),
            f"{100 * row['difference']:+.1f}",
            row["z"],
            row["p"],
        ]

    rows = [change(f"seat {s + 1}", r) for s, r in enumerate(c["seats"])]
    rows += [change(f"agent {a}", r) for a, r in c["agents"].items()]
    rows += [change(r["item"], r) for r in c["items"][:top]]
    parts.append(_table(["win rate", "first", "second", "points", "z", "p"], rows))
    return "".join(parts)
