"""One-move look-ahead on the ruleset's score estimate (``scoring.estimate``).

Each option is tried in worlds sampled from the player's seat (everything they
cannot know dealt afresh, ``engine/seat.py``), and the player's own decisions that
follow at once (which space to rent, which tile to hand in) are settled greedily
the same way, so an option is judged by the whole move it starts, not by the
position halfway through it. The option with the best mean margin (this player's
estimate minus the best opponent's) wins; ties are broken at random. Every option
is tried in the same worlds, so nothing hidden from the player moves the choice.
"""

from __future__ import annotations

from interpreter.agents.base import Agent
from interpreter.engine.game import Game, IllegalMove
from interpreter.engine.seat import Seat
from interpreter.errors import GameError


class GreedyAgent(Agent):
    worlds = 1  # sampled worlds per decision
    follow = 3  # own decisions that follow at once, settled greedily

    def decide(self, seat: Seat) -> str:
        options = seat.options
        if len(options) == 1:
            return options[0]
        draw = self.rng.getrandbits(32)
        worlds = [seat.sample(f"{draw}:{k}") for k in range(self.worlds)]
        scored = []
        for option in options:
            values = []
            for world in worlds:
                trial = _after(world, seat.player, option)
                if trial is not None:
                    _settle(trial, seat.player, self.follow, seat.prompt)
                    values.append(margin(trial, seat.player))
            if values:
                scored.append((sum(values) / len(values), option))
        if not scored:
            return options[0]
        best_value = max(value for value, _ in scored)
        best = [option for value, option in scored if value == best_value]
        return best[int(self.rng.random() * len(best))]


def _after(world: Game, player: int, option: str) -> Game | None:
    trial = world.copy(same_chance=True)
    try:
        trial.apply(player, option)
    except (IllegalMove, GameError):
        return None
    return trial


def _settle(world: Game, player: int, depth: int, prompt: str) -> None:
    """Make ``player``'s next decisions, while they come at once, by one-step estimate.

    The same decision asked again (another purchase after a purchase) starts a new
    move rather than completing this one: settling stops there.
    """
    for _ in range(depth):
        if world.is_over():
            return
        decision = next((d for d in world.pending() if d.player == player), None)
        if decision is None or decision.prompt == prompt:
            return
        best, best_value = decision.options[0], None
        if len(decision.options) > 1:
            for option in decision.options:
                trial = _after(world, player, option)
                if trial is not None:
                    value = margin(trial, player)
                    if best_value is None or value > best_value:
                        best, best_value = option, value
        try:
            world.apply(player, best)
        except (IllegalMove, GameError):
            return


def margin(world: Game, player: int) -> float:
    """The player's estimate minus the best rival's, by the ruleset's result mode (the
    lowest best where it wins, partners summed; with no rival: their own)."""
    estimates = [world.estimate(s) for s in range(len(world.state.players))]
    return world.ruleset.result_mode.margin(estimates, player)
