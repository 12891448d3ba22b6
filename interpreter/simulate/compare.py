"""Two variants played on the same seeds: what changed, and is it more than chance?

Every difference is the first variant's figure minus the other's, named by the
variants ("game + mod" vs "game"), with its 95 % interval. Significance is
marked only after a correction for the number of tests: Holm's over the few overall
figures (means, seats, agents), Benjamini–Hochberg's over the items (hundreds of
tests: at most 5 % of what it marks is expected to be chance). Items used by fewer
than ``MIN_USERS`` players in either variant are shown but not tested.
"""

from __future__ import annotations

from interpreter.simulate.stats import (
    benjamini_hochberg,
    holm,
    mean_difference,
    r,
    rate_difference,
    two_proportions,
)

MIN_USERS = 5  # players who used an item, in each variant, for it to be tested
ALPHA = 0.05


def compare(groups: dict, first: int = 0, second: int = 1) -> list[dict]:
    """For every player count both variants played: the differences in mean score,
    winning score and length (Welch) and in win rate by seat, agent and item
    (two proportions), each with its interval, p and corrected p."""
    out = []
    counts = sorted({g["players"] for g in groups.values()})
    for players in counts:
        a = groups.get(f"{first}:{players}")
        b = groups.get(f"{second}:{players}")
        if a is None or b is None:
            continue
        overall = {
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
        }
        family = [*overall["means"].values(), *overall["seats"], *overall["agents"].values()]
        _adjust(family, holm, "holm_p")
        items = _items(a["items"], b["items"])
        _adjust([row for row in items if row["p"] is not None], benjamini_hochberg, "bh_p")
        items.sort(
            key=lambda row: (
                _order(row, "bh_p"),
                _order(row, "p"),
                -abs(row["difference"]),
                row["item"],
            )
        )
        out.append(
            {
                "players": players,
                "variant": a["label"],
                "against": b["label"],
                "games": {"variant": a["finished"], "against": b["finished"]},
                **overall,
                "items": items,
                "items_tested": sum(1 for row in items if row["p"] is not None),
                "items_significant": sum(1 for row in items if row.get("significant")),
            }
        )
    return out


def _adjust(rows: list[dict], method, key: str) -> None:
    adjusted = method([row["p"] for row in rows])
    for row, p in zip(rows, adjusted, strict=True):
        row[key] = r(p)
        row["significant"] = p < ALPHA


def _order(row: dict, key: str) -> float:
    return row[key] if row.get(key) is not None else 2.0


def _rates(x: dict, y: dict) -> dict:
    d, low, high = rate_difference(x["wins"], x["n"], y["wins"], y["n"])
    _, p = two_proportions(y["wins"], y["n"], x["wins"], x["n"])
    return {
        "value": x["rate"],
        "against": y["rate"],
        "difference": r(d),
        "low": r(low),
        "high": r(high),
        "p": r(p),
    }


def _means(x: dict, y: dict) -> dict:
    d, low, high, p = mean_difference(x, y)
    return {
        "value": x.get("mean", 0.0),
        "against": y.get("mean", 0.0),
        "difference": r(d),
        "low": r(low),
        "high": r(high),
        "p": r(p),
    }


def _items(first: list[dict], second: list[dict]) -> list[dict]:
    """Items in either variant; tested where both have ``MIN_USERS`` players."""
    a = {row["item"]: row for row in first}
    b = {row["item"]: row for row in second}
    empty = {"wins": 0, "n": 0, "rate": 0.0}
    rows = []
    for item in sorted(set(a) | set(b)):
        x, y = a.get(item, empty), b.get(item, empty)
        row = {"item": item, "kind": (a.get(item) or b.get(item))["kind"]}
        row.update(_rates(x, y))
        row["n"] = [x["n"], y["n"]]
        if min(x["n"], y["n"]) < MIN_USERS:
            row["p"] = None
            row["low"] = row["high"] = None
        rows.append(row)
    return rows
