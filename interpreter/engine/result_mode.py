"""Who wins, from the score counters: the scoring section's `result` mode.

The score counters are what the rules count; the mode says what they mean:

* ``highest`` (the default): the highest score wins;
* ``lowest``: the lowest score wins (penalty points: the counters count up, as the
  rulebook does, and nothing is stored negated);
* ``cooperative``: everyone wins or loses together; the shared score is the sum of the
  seats' counters (a rule may gain to whoever did the deed);
* ``teams``: seats ``s`` and ``s + N``, ``s + 2N``, … play together (``teams: N``,
  partners sit apart, as in partnership card games); a team's score is the sum of
  its seats' counters, and the highest team wins.

Everything that ranks or judges a position goes through ``merits``: a number per seat
where higher is better and partners are equal, so ``Game.result``, the result
table and every agent (``mcts``'s shares, ``greedy``'s margin) follow one reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

MODES = ("highest", "lowest", "cooperative", "teams")


@dataclass(frozen=True)
class ResultMode:
    kind: str = "highest"  # one of MODES
    teams: int = 0  # with ``teams``: how many (seat s plays in team s % teams)

    def side(self, seat: int) -> int:
        """The side a seat plays for: its team, the one side of a cooperative game,
        else itself."""
        if self.kind == "teams" and self.teams:
            return seat % self.teams
        if self.kind == "cooperative":
            return 0
        return seat

    def merits(self, values: Sequence[float]) -> list[float]:
        """Each seat's standing, higher is better: its side's total (summed over
        partners), negated when the lowest score wins."""
        totals: dict[int, float] = {}
        for seat, value in enumerate(values):
            side = self.side(seat)
            totals[side] = totals.get(side, 0) + value
        sign = -1 if self.kind == "lowest" else 1
        return [sign * totals[self.side(seat)] for seat in range(len(values))]

    def rivals(self, seat: int, seats: int) -> list[int]:
        """The seats playing against ``seat`` (none in a cooperative game)."""
        mine = self.side(seat)
        return [s for s in range(seats) if self.side(s) != mine]

    def margin(self, values: Sequence[float], seat: int) -> float:
        """``seat``'s merit minus the best rival's; with no rival, its merit itself."""
        merits = self.merits(values)
        rivals = [merits[s] for s in self.rivals(seat, len(values))]
        return merits[seat] - max(rivals) if rivals else merits[seat]

    def team_of(self, seats: int) -> list[list[int]]:
        """The seats of each side that has more than one, in seat order (for the result)."""
        sides: dict[int, list[int]] = {}
        for seat in range(seats):
            sides.setdefault(self.side(seat), []).append(seat)
        return [members for members in sides.values() if len(members) > 1]

    def says(self) -> str | None:
        """What a result table says of the mode (None for the usual highest wins)."""
        return {
            "lowest": "the lowest score wins",
            "cooperative": "cooperative: everyone shares the sum of the scores",
            "teams": f"{self.teams} teams (seat s plays with s + {self.teams}, …); a team "
            "scores the sum of its players' scores",
        }.get(self.kind)


HIGHEST = ResultMode()
