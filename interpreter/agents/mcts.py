"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012),
with rollouts to the next scoring: it needs no heuristic written for agents.

The agent cannot see the hidden pieces, so it searches worlds sampled from its seat
(``Seat.sample``, a determinization) and walks one shared tree in them. An edge is
(deciding player, option text), so the statistics of a move pool over every world
where it was legal; an edge's *availability* counts the iterations where it could have
been chosen, and UCB1 uses it in place of the parent's visits.

One iteration: select down the tree, expand one option, then a **rollout** that stops
at the next scoring (a seat's score counter rises), at the round's or the game's end,
or after ``depth`` moves (``reach`` without an estimate), and the position reached is
judged. ``mcts:N`` is N iterations a decision on average over the game, and at least
``per_option`` (2) for each of its options, each iteration one such bounded playout,
in every ruleset; ``mcts:Xs`` (CPU seconds a decision) depends on the machine and is
not reproducible.

* **The judge.** The ruleset's own final scoring run on a copy of the position as if
  the game ended there (``value.final_scores``): what the rules count at the end
  (majorities, end-of-game bonuses), nothing written for agents. The ruleset's
  ``estimate`` is an optional hint (this agent's ``estimate`` switch, on by default;
  ``mcts:noestimate`` turns it off): a seat's value is raised to its estimate where
  that is higher, never lowered, so an estimate
  may add what the rules score only later (pieces held that score at an event far
  ahead; the rollouts can then stop sooner: ``depth`` 20 rather than ``reach`` 100),
  and a naive one that leaves out what the final scoring counts costs nothing. (The
  estimate alone as the judge lost 35.0 % of 60 games to ``mcts:noestimate`` on a
  ruleset whose estimate leaves out its majorities; with the maximum, 56.7 %.) An
  estimate that overrates a position still misleads the search.
* **Rollouts** are what lets the search play without a heuristic: a move's worth shows
  when the rules score it. Each rollout move is the best option *verb* (first word)
  by MAST with probability ``greed``, else random. MAST (the mean reward of a verb
  for whoever chose it, over the agent's game so far) also orders which unexplored
  option a decision expands first (progressive bias, for decisions with more options
  than iterations).
* **Worlds.** Iteration i plays in world i % ``worlds`` of the decision (the same
  seed, so the same world): every option is compared in the same few worlds, with the
  same rollout luck (common random numbers), and each world's start value is worked
  out once. A reward is the change, from that start, of each seat's normalized margin
  over the best other seat (a control variate: worlds differ more than one decision's
  moves do). Each iteration samples its world again: a world is dealt at its step's
  start and replayed (``engine/seat.py``), so a sample costs about what a copy does
  (keeping each world and copying it instead played the same games at the same cost).
  A world's moves do not follow what each player knows (nothing asks it there).
* **Simultaneous steps.** The other seats' decisions in a simultaneous step (a phase
  of `kind: simultaneous`, a `simultaneous for`) are not tree nodes: a later mover in
  the tree would answer this player's choice, which nobody sees at the table. Each
  takes the option of the best MAST verb (``_model_others``), a model of a player who
  does what has paid; searched or random, the others' secret choices were modelled
  badly (a shipped game of secret packets shown at once, against greedy, seeds 0-99:
  62.0 % before, 75.5 % with this, at the same CPU; a drafting game's secret picks
  against random, 200 games: 92.8 % before, 95.2 % with it). What it costs against other opponents:
  ``benchmarks/README.md``, "Issue 45, third sitting".
* **The choice** is the most visited option; among equally visited ones, the best
  mean reward (with a few iterations, visits alone tie at random: 4 iterations won
  49 % of 40 games against greedy with that tie at random, 79 % with the best mean).
  A decision stops early once the most visited option cannot be overtaken; the
  iterations it did not need go to later decisions (at most doubling one). A decision
  of many options gets 2 iterations an option at least (a packet of a dozen cards to
  choose from, judged on one try of 6 of them, lost 37.5 % of 40 games to the
  60-iteration search this replaced; with the floor it won 57.5 %), so the game's
  total may pass N a decision.

Everything is drawn from the agent's own seeded generator (each world's rollouts from
one seeded by the decision's draw and the world), so a game with the same seeds is
played the same way, and two games that differ only in what this player cannot know
get the same answer. MAST is the agent's own state, learnt from its own searches.

Measured strength and cost: ``docs/modding.md`` ("Which agents") and
``benchmarks/README.md``. How the defaults were chosen, in short, on the shipped
rulesets, 40 games against greedy each: rollouts of at most 20 moves beat 10 (92.5
against 77.5 % on one with 8 iterations, 62.5 against 50.0 % on the other with 6);
without an estimate, rollouts that stop at 20 moves rarely reach a ruleset's
far-apart scoring events (13.8 % against the search with the estimate; 38.8 % with
100); 6 iterations (2 an option at least) cost 0.56 of the 60-iteration search
without rollouts that this replaced (a 4-player game of four agents on the ruleset
that costs most; 0.31 with the estimate alone as the judge and no floor), and beat it
(77.5 and 57.5 % of 40 games).
"""

from __future__ import annotations

import math
import random
import time

from interpreter.agents.base import Agent
from interpreter.agents.value import final_scores
from interpreter.engine.game import Decision, Game, IllegalMove
from interpreter.engine.result_mode import HIGHEST, ResultMode
from interpreter.engine.seat import Seat
from interpreter.engine.state import UNFOLLOWED
from interpreter.errors import GameError

Edge = tuple[int, str]  # (deciding player, option text)
MAX_MAST = 10_000  # verbs MAST keeps a mean for, over one game (a verb is a first word)
MAX_MODELLED = 1_000  # others' simultaneous decisions made in a row by ``_model_others``


class _Node:
    """Statistics of the edge into this node, and its children by edge."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Edge, _Node] = {}
        self.visits = 0
        self.total = 0.0  # sum of rewards of the player who chose the edge
        self.available = 0  # iterations in which the edge was legal when its parent was


class MctsAgent(Agent):
    """ISMCTS over a few worlds per decision, its leaves judged by the final scoring."""

    iterations = 6  # per decision, on average over the game
    worlds = 2  # distinct worlds per decision: iteration i plays in world i % worlds
    depth = 20  # cap on the rollout moves after the tree (see ``_playout``)
    reach = 100  # the cap when no estimate judges: only the rules' scoring will
    exploration = 0.7  # UCB1 constant, on means rescaled to [0, 1] among siblings
    estimate = True  # raise a seat's value to the ruleset's `estimate` when it has one
    per_option = 2  # at least this many iterations per option of a decision
    paired = True  # the same world's rollouts draw the same random numbers
    greed = 0.5  # share of the rollout moves that take the best MAST verb (else random)

    def __init__(
        self,
        seat: int,
        seed: int | str = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        estimate: bool | None = None,
    ):
        super().__init__(seat, seed)
        if iterations is not None:
            self.iterations = iterations
        if estimate is not None:
            self.estimate = estimate
        self.seconds = seconds  # CPU-time budget per decision, if any (not reproducible)
        self.reproducible = seconds is None
        # iterations a settled decision did not need, spent on later, closer ones (at
        # most doubling a decision's budget): the game's total stays within the budget
        self.saved = 0
        # MAST: the mean reward of each option's first word (its verb) for whoever
        # chose it, over every iteration of the game so far: [total, count]
        self.mast: dict[str, list[float]] = {}

    def decide(self, seat: Seat) -> str:
        """The most visited of the seat's options after the budget's iterations."""
        options = seat.options
        if len(options) == 1:
            return options[0]
        root = _Node()
        draw = self.rng.getrandbits(32)
        deadline = None if self.seconds is None else time.process_time() + self.seconds
        budget = max(
            self.iterations + min(self.saved, self.iterations), self.per_option * len(options)
        )
        starts: dict[int, list[float]] = {}  # each world's shares before any move
        done = 0
        while done < budget if deadline is None else time.process_time() < deadline:
            k = done % self.worlds
            world = seat.sample(f"{draw}:{k}")
            # nothing here asks what each player knows in it: its moves need not follow it
            world.state.engine["known"] = UNFOLLOWED
            before = starts.get(k)
            if before is None:
                before = starts[k] = _shares(self._values(world), world.ruleset.result_mode)
            # the same world plays out the same way after each option (common random
            # numbers: options are compared on the same luck)
            luck = random.Random(f"{draw}:{k}") if self.paired else self.rng
            self._iterate(root, world, seat.player, before, luck)
            done += 1
            if deadline is None and _settled(root, budget - done):
                break
        self.saved = max(0, self.saved + self.iterations - done)
        return _choice(root, seat.player, options, self.rng)

    def _iterate(
        self, root: _Node, world: Game, me: int, before: list[float], luck: random.Random
    ) -> None:
        """Select down the tree, expand one edge, play out, and back up the rewards."""
        path: list[tuple[_Node, int]] = []  # (node, player who chose its edge)
        moves: list[Edge] = []
        node, first = root, True
        while not world.is_over():
            pending = self._model_others(world, me)
            if pending is None:
                return
            decision = _decision(pending, me if first else None)
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
                edge = self._prior(fresh)
                if not _apply(world, edge):
                    return
                child = node.children[edge] = _Node()
                child.available = 1
                path.append((child, edge[0]))
                moves.append(edge)
                break
            edge = self._select(node, legal)
            if not _apply(world, edge):
                return
            node = node.children[edge]
            path.append((node, edge[0]))
            moves.append(edge)
        moves += self._playout(world, me, luck)
        after = self._values(world)
        shares = _shares(after, world.ruleset.result_mode)
        rewards = [r - b for r, b in zip(shares, before, strict=True)]  # change of shares
        for child, player in path:
            child.visits += 1
            child.total += rewards[player]
        for player, text in moves:
            verb = _verb(text)
            stats = self.mast.get(verb)
            if stats is None:
                if len(self.mast) >= MAX_MAST:
                    continue
                stats = self.mast[verb] = [0.0, 0]
            stats[0] += rewards[player]
            stats[1] += 1

    def _prior(self, fresh: list[Edge]) -> Edge:
        """The unexplored edge to expand: the best verb by MAST (untried verbs first),
        ties at random: a cheap order for decisions with more options than iterations."""
        best: list[Edge] = []
        best_value = -math.inf
        for edge in fresh:
            value = self._mast_value(edge[1])
            if value > best_value:
                best, best_value = [edge], value
            elif value == best_value:
                best.append(edge)
        return best[int(self.rng.random() * len(best))]

    def _mast_value(self, text: str) -> float:
        stats = self.mast.get(_verb(text))
        return math.inf if stats is None else stats[0] / stats[1]

    def _select(self, node: _Node, legal: list[Edge]) -> Edge:
        """UCB1 over the legal edges, their mean rewards rescaled to [0, 1] among them.

        Late in a game the scores are large and one move changes the reward a
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

    def _model_others(self, world: Game, me: int) -> list[Decision] | None:
        """Make the other seats' open decisions of a simultaneous step, each the option
        of the best verb by MAST (the first of equals), until none is open; the open
        decisions then, or None if the rules refuse one. In a simultaneous step nobody
        sees the others' choices, so a seat in the tree or a rollout must not answer
        this player's (a tree's later mover would), and a random packet is a poor model
        of a real one: these choices are kept out of the tree, made the way the game's
        players have done best."""
        for _ in range(MAX_MODELLED):
            pending = world.pending()
            other = next((d for d in pending if d.simultaneous and d.player != me), None)
            if other is None:
                return pending
            option = max(other.options, key=self._mast_value)
            if not _apply(world, (other.player, option)):
                return None
        return world.pending()

    def _playout(self, world: Game, me: int, luck: random.Random) -> list[Edge]:
        """Moves past the tree, each the best verb by MAST with probability ``greed``,
        else at random, until the next scoring (a seat's score rises), the round's or
        game's end, or ``depth`` moves (``reach`` when no estimate helps judge the
        leaf). The moves made."""
        made: list[Edge] = []
        score, state = world.ruleset.score, world.state
        keys = [f"{score}#{s}" for s in range(len(state.players))] if score else []
        start = [state.counters.get(k, 0) for k in keys]
        rounds = state.engine["round"]
        for _ in range(self.depth if self._estimating(world) else self.reach):
            pending = self._model_others(world, me)
            if pending is None or world.is_over():
                break
            state = world.state
            if state.engine["round"] != rounds or any(
                state.counters.get(k, 0) > v for k, v in zip(keys, start, strict=True)
            ):
                break
            decision = pending[0]
            options = decision.options
            if len(options) > 1 and luck.random() < self.greed:
                option = max(options, key=self._mast_value)
            else:
                option = options[int(luck.random() * len(options))]
            if not _apply(world, (decision.player, option)):
                break
            made.append((decision.player, option))
        return made

    def _estimating(self, world: Game) -> bool:
        return self.estimate and world.ruleset.estimate is not None

    def _values(self, world: Game) -> list[float]:
        """Each seat's score as the game stands: its final scores once over; else its
        final scoring run as if the game ended now, raised to the ruleset's estimate
        where that is higher (when it has one and ``estimate`` is on)."""
        seats = range(len(world.state.players))
        if world.is_over():
            result = world.result()
            return [float(result.scores[world.state.players[s]]) for s in seats]
        finals = final_scores(world)
        if not self._estimating(world):
            return finals
        return [max(float(world.estimate(s)), f) for s, f in zip(seats, finals, strict=True)]


def _choice(root: _Node, player: int, options: tuple[str, ...], rng: random.Random) -> str:
    """The most visited option; among equally visited ones, the best mean reward;
    among equal ones, one at random (the first option if none was tried)."""
    tried = [(o, root.children.get((player, o))) for o in options]
    ranked = {o: (c.visits, c.total / c.visits) for o, c in tried if c is not None and c.visits}
    if not ranked:
        return options[0]
    top = max(ranked.values())
    best = [o for o in options if ranked.get(o) == top]
    return best[int(rng.random() * len(best))]


def _shares(scores: list[float], mode: ResultMode = HIGHEST) -> list[float]:
    """Each seat's normalized margin over the best rival seat, in [0, 1], by merit
    (``engine/result_mode.py``: the lowest score best where it wins, partners' scores
    summed); with no rival (a cooperative game), over nothing: the shared score."""
    merits = mode.merits(scores)
    out = []
    for s, mine in enumerate(merits):
        rival = max((merits[o] for o in mode.rivals(s, len(merits))), default=0.0)
        out.append(0.5 + 0.5 * (mine - rival) / (abs(mine) + abs(rival) + 1))
    return out


def _verb(text: str) -> str:
    return text.split(" ", 1)[0]


def _decision(pending: list[Decision], player: int | None) -> Decision | None:
    """The first open decision, or ``player``'s if they have one (at the root)."""
    if not pending:
        return None
    if player is not None:
        return next((d for d in pending if d.player == player), pending[0])
    return pending[0]


def _apply(world: Game, edge: Edge, last: bool = False) -> bool:
    """Make the move; False if the rules refuse it in this world. ``last``: no move
    follows in this world, so the next decision's options need not be listed."""
    world.lazy_choices = last
    try:
        world.apply(*edge)
    except (IllegalMove, GameError):
        return False
    return True


def _settled(root: _Node, left: int) -> bool:
    """Whether the most visited option stays ahead whatever the ``left`` iterations do."""
    visits = sorted((c.visits for c in root.children.values()), reverse=True)
    return len(visits) > 1 and visits[0] - visits[1] > left
