"""Records -> statistics, folded one record at a time (``Totals``).

A run of any length is summed up in memory that does not grow with the games: whole
numbers (scores, decisions, rounds, points of a scoring step) are kept as counts of
each distinct value, which gives exact quartiles (one entry per distinct value: a few
hundred scores, at most ``max_decisions`` lengths); items as sums over the players
who used them (one entry per id or "VERB id" the ruleset's decisions name: bounded by
the ruleset, not by the games); errors as their count and the ``MAX_ERRORS`` of lowest
game index. Every figure is a sum, a count or a minimum by game index, so the result
is the same whatever order the records arrive in, and two Totals of parts of a run
``merge`` into the Totals of the whole.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from interpreter.simulate.plan import GameSpec, Plan, Variant
from interpreter.simulate.stats import counted_summary, moments, r, wilson

MAX_ERRORS = 100  # errors kept with their seeds, per group (all are counted)

# an item's sums: uses, holders, wins, games, score sum, score², offered (players),
# offered (decisions), measured firings
USES, HOLDERS, WINS, GAMES, SCORE, SQUARES, OFFERED, OFFERS, MEASURED = range(9)


def rate(wins: int, n: int) -> dict[str, Any]:
    low, high = wilson(wins, n)
    return {"wins": wins, "n": n, "rate": r(wins / n) if n else 0.0, "low": r(low), "high": r(high)}


def group_key(variant: int, players: int) -> str:
    return f"{variant}:{players}"


def variant_name(variant: Variant) -> str:
    """A variant as a reader names it: "game + expansion + mod" (expansions, then mods by
    their file's stem)."""
    parts = [variant.ruleset, *sorted(variant.expansions)]
    parts += [m.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0] for m in variant.mods]
    return " + ".join(parts)


class Group:
    """The sums of one variant and player count."""

    def __init__(self, variant: int, players: int):
        self.variant, self.players = variant, players
        self.games = self.finished = self.failed = 0
        self.errors: list[dict] = []  # the MAX_ERRORS of lowest index
        self.seats = [0] * players
        self.agents: dict[str, list[int]] = {}
        self.scores: Counter = Counter()
        self.winning: Counter = Counter()
        self.decisions: Counter = Counter()
        self.rounds: Counter = Counter()
        self.steps: dict[str, Counter] = {}
        self.step_order: dict[str, tuple[int, int]] = {}  # first (game index, position)
        self.items: dict[str, list[int]] = {}
        self.gains: dict[str, Counter] = {}
        # focus item -> [players who had it, their wins, score sum, score²], then the
        # same for the players who had one of its reference items but not it, for
        # each level of reference (narrowest first)
        self.focus: dict[str, list[list[int]]] = {}

    def add(self, rec: dict, focus: dict[str, tuple[frozenset[str], ...]]) -> None:
        self.games += 1
        if rec["error"] is not None:
            self.failed += 1
            keep = ("index", "variant", "players", "seed", "agents", "error", "decisions")
            self.errors.append({key: rec[key] for key in keep})
            self.errors.sort(key=lambda e: e["index"])
            del self.errors[MAX_ERRORS:]
            return
        self.finished += 1
        winners, scores = rec["winners"], rec["scores"]
        for s in winners:
            self.seats[s] += 1
        for s, agent in enumerate(rec["agents"]):
            tally = self.agents.setdefault(agent, [0, 0])
            tally[0] += s in winners
            tally[1] += 1
        self.scores.update(scores)
        if scores:
            self.winning[max(scores)] += 1
        self.decisions[rec["decisions"]] += 1
        self.rounds[rec["rounds"]] += 1
        for parts in rec["breakdown"]:
            for position, (step, points) in enumerate(parts.items()):
                self.steps.setdefault(step, Counter())[points] += 1
                first, known = (rec["index"], position), self.step_order.get(step)
                if known is None or first < known:
                    self.step_order[step] = first
        self._add_items(rec, focus)

    def _add_items(self, rec: dict, focus: dict[str, tuple[frozenset[str], ...]]) -> None:
        seen: set[str] = set()
        offered = rec.get("offered") or [{} for _ in rec["used"]]
        measured = rec.get("measured") or [{} for _ in rec["used"]]
        gained = rec.get("gained") or [{} for _ in rec["used"]]
        for s, used in enumerate(rec["used"]):
            won, score = s in rec["winners"], rec["scores"][s]
            for word, count in used.items():
                sums = self._item(word)
                sums[USES] += count
                sums[HOLDERS] += 1
                sums[WINS] += won
                sums[SCORE] += score
                sums[SQUARES] += score * score
                seen.add(word)
            for word, count in offered[s].items():
                sums = self._item(word)
                sums[OFFERED] += 1
                sums[OFFERS] += count
            for word, count in measured[s].items():
                self._item(word)[MEASURED] += count
            for word, gains in gained[s].items():
                self.gains.setdefault(word, Counter()).update(gains)
            for item, levels in focus.items():
                tallies = self.focus.get(item)
                if tallies is None:
                    tallies = self.focus[item] = [[0, 0, 0, 0] for _ in range(1 + len(levels))]
                if item in used:
                    sides = [tallies[0]]
                else:
                    sides = [
                        t
                        for t, ref in zip(tallies[1:], levels, strict=True)
                        if not ref.isdisjoint(used)
                    ]
                for which in sides:
                    which[0] += 1
                    which[1] += won
                    which[2] += score
                    which[3] += score * score
        for word in seen:
            self.items[word][GAMES] += 1

    def _item(self, word: str) -> list[int]:
        sums = self.items.get(word)
        if sums is None:
            sums = self.items[word] = [0] * 9
        return sums

    def merge(self, other: Group) -> None:
        self.games += other.games
        self.finished += other.finished
        self.failed += other.failed
        self.errors = sorted(self.errors + other.errors, key=lambda e: e["index"])[:MAX_ERRORS]
        self.seats = [a + b for a, b in zip(self.seats, other.seats, strict=True)]
        for agent, (wins, n) in other.agents.items():
            tally = self.agents.setdefault(agent, [0, 0])
            tally[0] += wins
            tally[1] += n
        for mine, theirs in (
            (self.scores, other.scores),
            (self.winning, other.winning),
            (self.decisions, other.decisions),
            (self.rounds, other.rounds),
        ):
            mine.update(theirs)
        for step, counts in other.steps.items():
            self.steps.setdefault(step, Counter()).update(counts)
        for step, first in other.step_order.items():
            self.step_order[step] = min(first, self.step_order.get(step, first))
        for word, sums in other.items.items():
            mine = self._item(word)
            mine[:] = [a + b for a, b in zip(mine, sums, strict=True)]
        for word, gains in other.gains.items():
            self.gains.setdefault(word, Counter()).update(gains)
        for item, tallies in other.focus.items():
            mine = self.focus.setdefault(item, [[0, 0, 0, 0] for _ in tallies])
            for m, t in zip(mine, tallies, strict=True):
                m[:] = [a + b for a, b in zip(m, t, strict=True)]

    def report(self, plan: Plan, kinds: dict[str, str]) -> dict:
        steps = sorted(self.steps, key=lambda step: self.step_order[step])
        return {
            "variant": self.variant,
            "label": variant_name(plan.variants[self.variant]),
            "players": self.players,
            "games": self.games,
            "finished": self.finished,
            "error_count": self.failed,
            "errors": [
                {
                    "index": rec["index"],
                    "seed": rec["seed"],
                    "agents": rec["agents"],
                    "error": rec["error"],
                    "decisions": rec["decisions"],
                    "replay": plan.replay_command(spec_of(rec)),
                }
                for rec in self.errors
            ],
            "seats": [rate(wins, self.finished) for wins in self.seats],
            "agents": {agent: rate(*tally) for agent, tally in sorted(self.agents.items())},
            "scores": counted_summary(self.scores),
            "score_counts": {str(k): v for k, v in sorted(self.scores.items())},
            "winning_score": counted_summary(self.winning),
            "breakdown": {step: counted_summary(self.steps[step]) for step in steps},
            "decisions": counted_summary(self.decisions),
            "rounds": counted_summary(self.rounds),
            "items": self._rows(kinds),
        }

    def _rows(self, kinds: dict[str, str]) -> list[dict]:
        """Per id named in decisions: uses, games, and the win rate and mean score of
        the players who used it (a player counts once per game), best lower bound
        first; how often it was offered; for an ability ("bonus E02"), the firings
        whose gain was measured and the mean gain of each counter."""
        rows = []
        player_games = self.finished * self.players
        for word, sums in self.items.items():
            if not sums[HOLDERS]:
                continue  # offered, never chosen: in its item's "offered"
            kind = kinds.get(word) or kinds.get(word.rsplit(" ", 1)[-1], "")
            row = {"item": word, "kind": kind, "uses": sums[USES], "games": sums[GAMES]}
            row.update(rate(sums[WINS], sums[HOLDERS]))
            score = moments(sums[HOLDERS], sums[SCORE], sums[SQUARES])
            row["mean_score"] = r(score["mean"])
            row["sd_score"] = r(score["sd"])
            row["offered"] = sums[OFFERED]
            row["offered_rate"] = r(sums[OFFERED] / player_games) if player_games else 0.0
            if sums[MEASURED]:
                row["measured"] = sums[MEASURED]
                gains = self.gains.get(word, {})
                row["gain"] = {k: r(v / sums[MEASURED]) for k, v in sorted(gains.items())}
            rows.append(row)
        rows.sort(key=lambda row: (-row["low"], -row["rate"], -row["n"], row["item"]))
        return rows


class Totals:
    """The streaming accumulator of a run: ``add`` each record as it finishes (in any
    order), ``merge`` another part's Totals, ``groups()`` for the report.

    ``focus`` maps an item to its reference items, narrowest first: the players who
    had it (named it in a chosen option) and, for each reference, those who had one of
    its items but not it are tallied apart (``focus.py`` compares them)."""

    def __init__(self, focus: dict[str, tuple[frozenset[str], ...]] | None = None):
        self.focus = dict(focus or {})
        self.by_group: dict[tuple[int, int], Group] = {}
        self.played = 0

    def add(self, record: dict) -> None:
        key = (record["variant"], record["players"])
        group = self.by_group.get(key)
        if group is None:
            group = self.by_group[key] = Group(*key)
        group.add(record, self.focus)
        self.played += 1

    __call__ = add  # a Totals is an ``on_record`` callback

    def merge(self, other: Totals) -> None:
        for key, group in other.by_group.items():
            mine = self.by_group.get(key)
            if mine is None:
                mine = self.by_group[key] = Group(*key)
            mine.merge(group)
        self.played += other.played

    @property
    def failed(self) -> int:
        return sum(g.failed for g in self.by_group.values())

    def groups(self, plan: Plan, kinds: dict[str, str] | None = None) -> dict:
        """Statistics grouped by variant and player count."""
        return {
            group_key(*key): self.by_group[key].report(plan, kinds or {})
            for key in sorted(self.by_group)
        }


def spec_of(rec: dict) -> GameSpec:
    return GameSpec(rec["index"], rec["variant"], rec["players"], rec["seed"], tuple(rec["agents"]))
