"""Two variants played on the same seeds: what changed, and is it more than chance?"""

from __future__ import annotations

from interpreter.simulate.stats import r, two_proportions, welch


def compare(groups: dict, first: int = 0, second: int = 1) -> list[dict]:
    """For every player count both variants played: the differences (second - first)
    in win rate by seat, by agent and by item (two-proportion z-test) and in mean
    score, winning score and length (Welch's t-test)."""
    out = []
    counts = sorted({g["players"] for g in groups.values()})
    for players in counts:
        a = groups.get(f"{first}:{players}")
        b = groups.get(f"{second}:{players}")
        if a is None or b is None:
            continue
        out.append(
            {
                "players": players,
                "first": a["label"],
                "second": b["label"],
                "games": [a["finished"], b["finished"]],
                "means": {
                    name: _means(a[name], b[name])
                    for name in ("scores", "winning_score", "decisions", "rounds")
                },
                "seats": [_rates(x, y) for x, y in zip(a["seats"], b["seats"], strict=True)],
                "agents": {
                    agent: _rates(a["agents"][agent], b["agents"][agent])
                    for agent in a["agents"]
                    if agent in b["agents"]
                },
                "items": _items(a["items"], b["items"]),
            }
        )
    return out


def _rates(x: dict, y: dict) -> dict:
    z, p = two_proportions(x["wins"], x["n"], y["wins"], y["n"])
    return {
        "first": x["rate"],
        "second": y["rate"],
        "difference": r(y["rate"] - x["rate"]),
        "z": r(z),
        "p": r(p),
    }


def _means(x: dict, y: dict) -> dict:
    t, df, p = welch(x, y)
    first, second = x.get("mean", 0.0), y.get("mean", 0.0)
    return {
        "first": first,
        "second": second,
        "difference": r(second - first),
        "t": r(t),
        "df": r(df),
        "p": r(p),
    }


def _items(first: list[dict], second: list[dict]) -> list[dict]:
    """Items in either variant, the most significant change first."""
    a = {row["item"]: row for row in first}
    b = {row["item"]: row for row in second}
    empty = {"wins": 0, "n": 0, "rate": 0.0}
    rows = []
    for item in sorted(set(a) | set(b)):
        x, y = a.get(item, empty), b.get(item, empty)
        row = {"item": item, "kind": (a.get(item) or b.get(item))["kind"]}
        row.update(_rates(x, y))
        row["n"] = [x["n"], y["n"]]
        rows.append(row)
    rows.sort(key=lambda row: (row["p"], -abs(row["difference"]), row["item"]))
    return rows
