"""Records -> statistics, per variant and player count (in game order, so the numbers
never depend on how or where the games were played)."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from interpreter.simulate.plan import Plan
from interpreter.simulate.stats import r, summary, wilson


def rate(wins: int, n: int) -> dict[str, Any]:
    low, high = wilson(wins, n)
    return {"wins": wins, "n": n, "rate": r(wins / n) if n else 0.0, "low": r(low), "high": r(high)}


def group_key(variant: int, players: int) -> str:
    return f"{variant}:{players}"


def aggregate(plan: Plan, records: list[dict], kinds: dict[str, str] | None = None) -> dict:
    """Statistics of ``records`` (of ``plan``), grouped by variant and player count.

    ``kinds`` maps the ids counted in decisions to component, space or action.
    """
    ordered = sorted(records, key=lambda rec: (rec["variant"], rec["index"]))
    groups: dict[tuple[int, int], list[dict]] = defaultdict(list)
    for record in ordered:
        groups[record["variant"], record["players"]].append(record)
    out = {}
    for (variant, players), mine in sorted(groups.items()):
        out[group_key(variant, players)] = _group(plan, variant, players, mine, kinds or {})
    return out


def _group(plan: Plan, variant: int, players: int, records: list[dict], kinds: dict) -> dict:
    done = [rec for rec in records if rec["error"] is None]
    seats = [rate(sum(1 for rec in done if s in rec["winners"]), len(done)) for s in range(players)]
    by_agent: dict[str, list[int]] = {}
    for rec in done:
        for s, agent in enumerate(rec["agents"]):
            tally = by_agent.setdefault(agent, [0, 0])
            tally[0] += s in rec["winners"]
            tally[1] += 1
    scores = [score for rec in done for score in rec["scores"]]
    winning = [max(rec["scores"]) for rec in done if rec["scores"]]
    steps: dict[str, None] = {}  # the scoring steps, in the order they first appear
    for rec in done:
        for parts in rec["breakdown"]:
            steps.update(dict.fromkeys(parts))
    breakdown = {
        step: summary([p for rec in done for p in _step_points(rec, step)]) for step in steps
    }
    return {
        "variant": variant,
        "label": plan.variants[variant].label,
        "players": players,
        "games": len(records),
        "finished": len(done),
        "errors": [
            {
                "index": rec["index"],
                "seed": rec["seed"],
                "agents": rec["agents"],
                "error": rec["error"],
                "decisions": rec["decisions"],
                "replay": plan.replay_command(_spec(rec)),
            }
            for rec in records
            if rec["error"] is not None
        ],
        "seats": seats,
        "agents": {agent: rate(*tally) for agent, tally in sorted(by_agent.items())},
        "scores": summary(scores),
        "score_counts": {str(k): v for k, v in sorted(Counter(scores).items())},
        "winning_score": summary(winning),
        "breakdown": breakdown,
        "decisions": summary([rec["decisions"] for rec in done]),
        "rounds": summary([rec["rounds"] for rec in done]),
        "items": _items(done, kinds),
    }


def _step_points(rec: dict, step: str) -> list[int]:
    return [parts.get(step, 0) for parts in rec["breakdown"]]


def _items(done: list[dict], kinds: dict) -> list[dict]:
    """Per id named in decisions: uses, games, and the win rate of the players who
    used it (a player counts once per game), best lower bound first."""
    uses: Counter = Counter()
    games: Counter = Counter()
    wins: Counter = Counter()
    holders: Counter = Counter()
    for rec in done:
        seen = set()
        for s, used in enumerate(rec["used"]):
            won = s in rec["winners"]
            for word, count in used.items():
                uses[word] += count
                holders[word] += 1
                wins[word] += won
                seen.add(word)
        games.update(seen)
    rows = []
    for word in holders:
        row = {"item": word, "kind": kinds.get(word, ""), "uses": uses[word], "games": games[word]}
        row.update(rate(wins[word], holders[word]))
        rows.append(row)
    rows.sort(key=lambda row: (-row["low"], -row["rate"], -row["n"], row["item"]))
    return rows


def _spec(rec: dict):
    from interpreter.simulate.plan import GameSpec

    return GameSpec(rec["index"], rec["variant"], rec["players"], rec["seed"], tuple(rec["agents"]))
