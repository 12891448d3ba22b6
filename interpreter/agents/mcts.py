"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

The agent cannot see the hidden pieces, so it does not search one game: every
iteration samples a fresh world from its seat (``Seat.sample``, a determinization)
and walks one shared tree in it. An edge is (deciding player, option text), so the
statistics of a move pool over every world where it was legal; an edge's
*availability* counts the iterations where it could have been chosen, and UCB1
uses it in place of the parent's visits (options legal only in some worlds are not
over-explored). Below the tree, random moves up to ``depth`` and then the ruleset's
score estimate stand in for the end of the game: playing to the end at random is
both slow and a poor judge of a position. Measured on the two shipped rulesets
(``benchmarks/agents.py``), no random moves at all (``depth = 0``) was the best:
with a few dozen iterations, their noise costs more than their look-ahead gives.

A reward is each player's normalized margin over the best other player (the win
alone is too coarse a signal for so few iterations), less that margin in the sampled
world before any move (``relative``): worlds differ far more from each other (the
hands dealt to the others) than the moves of one decision do, and subtracting each
world's own starting point leaves what the moves changed (a control variate; on 40
tuning games of one shipped ruleset against greedy it took the search from 58.8 % to
68.8 %, but on the 200 benchmark games the win rates moved within their noise,
``benchmarks/README.md``). UCB1 compares the means
rescaled among the options at hand, as the margins shrink in relative terms
when the scores grow. The budget is in iterations so that games are reproducible;
a decision that settles early leaves its unused iterations to later ones (at most
doubling one decision's), so the game's total stays within the budget;
sampling a world costs about as much as a few moves, so it stays in the tens.

Everything is drawn from the agent's own seeded generator, so a game with the same
seeds is played the same way, and two games that differ only in what this player
cannot know get the same answer.
"""

from __future__ import annotations

import math
import time

from interpreter.agents.base import Agent
from interpreter.engine.game import Decision, Game, IllegalMove
from interpreter.engine.seat import Seat
from interpreter.errors import GameError

Edge = tuple[int, str]  # (deciding player, option text)


class _Node:
    """Statistics of the edge into this node, and its children by edge."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Edge, _Node] = {}
        self.visits = 0
        self.total = 0.0  # sum of rewards of the player who chose the edge
        self.available = 0  # iterations in which the edge was legal when its parent was


class MctsAgent(Agent):
    """ISMCTS with truncated random playouts scored by the ruleset's estimate."""

    iterations = 60  # per decision; a 2-player game with it takes < 10 s on one core
    depth = 0  # random moves after the tree before the estimate judges
    exploration = 0.7  # UCB1 constant, on means rescaled to [0, 1] among siblings
    weight = 0.0  # share of the (estimated) win in the reward; the rest is the margin
    relative = True  # reward = change from the sampled world's own start (less noise)

    def __init__(
        self,
        seat: int,
        seed: int | str = 0,
        iterations: int | None = None,
        seconds: float | None = None,
    ):
        super().__init__(seat, seed)
        if iterations is not None:
            self.iterations = iterations
        self.seconds = seconds  # CPU-time budget per decision, if any (not reproducible)
        self.reproducible = seconds is None
        # iterations a settled decision did not need, spent on later, closer ones (at
        # most doubling a decision's budget): the game's total stays within the budget
        self.saved = 0

    def decide(self, seat: Seat) -> str:
        """The most visited of the seat's options after the budget's iterations."""
        options = seat.options
        if len(options) == 1:
            return options[0]
        root = _Node()
        draw = self.rng.getrandbits(32)
        deadline = None if self.seconds is None else time.process_time() + self.seconds
        budget = self.iterations + min(self.saved, self.iterations)
        done = 0
        while done < budget if deadline is None else time.process_time() < deadline:
            self._iterate(root, seat.sample(f"{draw}:{done}"), seat.player)
            done += 1
            if deadline is None and _settled(root, budget - done):
                break
        self.saved = max(0, self.saved + self.iterations - done)
        visits = {
            o: root.children[(seat.player, o)].visits
            for o in options
            if (seat.player, o) in root.children
        }
        if not visits:
            return options[0]
        most = max(visits.values())
        best = [o for o in options if visits.get(o) == most]
        return best[int(self.rng.random() * len(best))]

    def _iterate(self, root: _Node, world: Game, me: int) -> None:
        """Select down the tree, expand one edge, play out, and back up the rewards."""
        path: list[tuple[_Node, int]] = []  # (node, player who chose its edge)
        node, first = root, True
        before = self._rewards(world) if self.relative else None
        while not world.is_over():
            decision = _decision(world, me if first else None)
            first = False
            if decision is None:
                break
            legal = [(decision.player, o) for o in decision.options]
            fresh = [edge for edge in legal if edge not in node.children]
            for edge in legal:
                child = node.children.get(edge)
                if child is not None:
                    child.available += 1
            if fresh:
                edge = fresh[int(self.rng.random() * len(fresh))]
                if not _apply(world, edge):
                    return
                child = node.children[edge] = _Node()
                child.available = 1
                path.append((child, edge[0]))
                break
            edge = self._select(node, legal)
            if not _apply(world, edge):
                return
            node = node.children[edge]
            path.append((node, edge[0]))
        self._playout(world)
        rewards = self._rewards(world)
        if before is not None:  # what the moves changed, not how good the world is
            rewards = [r - b for r, b in zip(rewards, before, strict=True)]
        for child, player in path:
            child.visits += 1
            child.total += rewards[player]

    def _select(self, node: _Node, legal: list[Edge]) -> Edge:
        """UCB1 over the legal edges, their mean rewards rescaled to [0, 1] among them.

        Late in a game the estimates are large and one move changes the reward a
        little; rescaling keeps exploration in proportion (as MuZero does).
        """
        children = [node.children[e] for e in legal]
        means = [c.total / c.visits for c in children]
        low, high = min(means), max(means)
        span = high - low if high > low else 1.0
        best, best_value = legal[0], -math.inf
        for edge, child, mean in zip(legal, children, means, strict=True):
            value = (mean - low) / span + self.exploration * math.sqrt(
                math.log(child.available) / child.visits
            )
            if value > best_value:
                best, best_value = edge, value
        return best

    def _playout(self, world: Game) -> None:
        """Random moves, at most ``depth``, to see a little past the tree."""
        for _ in range(self.depth):
            if world.is_over():
                return
            decision = world.pending()[0]
            option = decision.options[int(self.rng.random() * len(decision.options))]
            if not _apply(world, (decision.player, option)):
                return

    def _rewards(self, world: Game) -> list[float]:
        """Each seat's reward in [0, 1]: its share of the win and its normalized margin
        (its score minus the best other's, over their sum), weighted by ``weight``.

        A finished game is judged by its real scores and ranking; otherwise by the
        ruleset's estimate.
        """
        seats = range(len(world.state.players))
        if world.is_over():
            result = world.result()
            names = world.state.players
            scores = [result.scores[names[s]] for s in seats]
            top = result.ranking[0]
            wins = [1 / len(top) if names[s] in top else 0.0 for s in seats]
        else:
            scores = [world.estimate(s) for s in seats]
            best = max(scores)
            leaders = scores.count(best)
            wins = [1 / leaders if v == best else 0.0 for v in scores]
        out = []
        for s in seats:
            others = [scores[o] for o in seats if o != s]
            rival = max(others) if others else 0
            span = abs(scores[s]) + abs(rival) + 1
            share = 0.5 + 0.5 * (scores[s] - rival) / span
            out.append(self.weight * wins[s] + (1 - self.weight) * share)
        return out


def _decision(world: Game, player: int | None) -> Decision | None:
    """The first open decision, or ``player``'s if they have one (at the root)."""
    pending = world.pending()
    if not pending:
        return None
    if player is not None:
        return next((d for d in pending if d.player == player), pending[0])
    return pending[0]


def _apply(world: Game, edge: Edge) -> bool:
    """Make the move; False if the rules refuse it in this world."""
    try:
        world.apply(*edge)
    except (IllegalMove, GameError):
        return False
    return True


def _settled(root: _Node, left: int) -> bool:
    """Whether the most visited option stays ahead whatever the ``left`` iterations do."""
    visits = sorted((c.visits for c in root.children.values()), reverse=True)
    return len(visits) > 1 and visits[0] - visits[1] > left
