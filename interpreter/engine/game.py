"""A game in progress: the structure driver, decisions, chance and results.

The game advances through setup, rounds of phases and scoring steps, as the
ruleset's ``structure`` and ``scoring`` declare them. Each step of that course (a
phase effect, a player's turn, a scoring step) is a *unit*: it starts from a
snapshot of the state and runs as a generator that stops at every decision. The
unit's answers and chance outcomes are recorded in the state, so a copy of the game
taken mid-unit is rebuilt by replaying them from the snapshot.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from interpreter.engine.budget import CONDITIONS, Budget
from interpreter.engine.chance_host import ChanceHost
from interpreter.engine.copies import Copies, unchained
from interpreter.engine.course import MAX_EVENTS, MAX_STEPS_OF_PLAY, Course
from interpreter.engine.executor import (
    Choice,
    Fork,
    StopEffect,
    explain,
    run_effect,
)
from interpreter.engine.knowledge import Knowledge
from interpreter.engine.sandbox import Sandbox
from interpreter.engine.state import PendingKnowledge, State
from interpreter.engine.what_if import WhatIf
from interpreter.errors import ChanceProblem, GameError, IllegalMove, RuleError
from interpreter.language.runtime import Context
from interpreter.language.values import Player
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.tables import tables_for

ChanceSource = Callable[[str, tuple[str, ...], int | None], tuple[str, ...]]


class Decision(NamedTuple):
    """An open decision: who decides, what about, and every legal option's text (a
    named tuple: one is made for every decision of play)."""

    player: int
    player_name: str
    options: tuple[str, ...]
    prompt: str
    # asked in a simultaneous phase or a branch of a `simultaneous for`: the others'
    # choices in the step are not seen until it ends (an agent's model may use it)
    simultaneous: bool = False


@dataclass
class _Runner:
    """A running effect: a unit's root, or a branch of a `simultaneous for`."""

    key: str
    me: int | None
    generator: Any
    choice: Choice | None = None
    parent: str | None = None
    children: list[str] = field(default_factory=list)
    done: bool = False
    starting: bool = False  # starting its branches: a branch that ends does not resume it
    budget: list[int] | None = None  # its context's step budget (``budget.py`` counts it)


@dataclass
class Result:
    scores: dict[str, int]
    breakdown: dict[str, dict[str, int]]  # player -> step -> points
    ranking: list[list[str]]  # groups of tied players, best first
    tiebreak: dict[str, list[int]] = field(default_factory=dict)


class Game(Course, Copies, Budget, Sandbox, WhatIf, ChanceHost, Knowledge):
    """One game of a ruleset for the given players."""

    options_on_demand = False  # the host's answers to effects: see ``_step``
    options_on_copy = False

    def __init__(
        self,
        ruleset: Ruleset,
        players: list[str],
        seed: int | str = 0,
        chance_source: ChanceSource | None = None,
        start: bool = True,
    ):
        seats = ruleset.seats_for(list(players))
        if len(set(seats)) != len(seats):
            raise GameError("player names must differ (from the rules-driven seats' too)")
        self.ruleset = ruleset
        self.people = tuple(players)  # the players as the rules count them
        automata = frozenset(i for i, name in enumerate(seats) if name not in self.people)
        self.tables = tables_for(ruleset, len(players), len(seats), automata)
        self.seed = seed
        self.chance_source = chance_source
        # replay checks each decision the rules make for an automaton against the log
        self.automaton_source: Callable[[str, str], None] | None = None
        # replay asks only whether each logged move is legal, not for every option
        self.lazy_choices = False
        self.events: list[dict[str, Any]] = []
        self.state = State(tuple(seats))
        self._runners: dict[str, _Runner] = {}
        self._snapshot: State | None = None
        self._replay: dict[str, deque] | None = None
        self._paused = False
        self._unit_specs: list = []
        self._init_state()
        self.state.engine["known"] = PendingKnowledge(self)  # until asked: ``follow_knowledge``
        if start:
            self.start()

    def start(self) -> None:
        """Run the setup (for a game created with ``start=False``)."""
        try:
            self._advance()
        except RuleError as exc:
            self._locate(exc, len(self.events) + 1)
            raise
        except (GameError, StopEffect) as exc:
            if isinstance(exc, ChanceProblem):
                raise
            # no player's move is under way: a rule that cannot be carried out here
            # (a payment, a full zone, a failed requirement) is a defect of the rules
            error = _refusal(exc)
            self._locate(error, len(self.events) + 1)
            raise error from None

    # ------------------------------------------------------------- decisions
    def pending(self) -> list[Decision]:
        """The open decisions (several only in a simultaneous phase)."""
        out = []
        for runner in self._runners.values():
            if runner.choice is not None:
                seat = runner.choice.player
                out.append(
                    Decision(
                        seat,
                        self.state.players[seat],
                        runner.choice.texts,
                        runner.choice.prompt,
                        self._in_simultaneous_step(runner),
                    )
                )
        return out

    def _in_simultaneous_step(self, runner: _Runner) -> bool:
        """Whether ``runner``'s decisions are asked while others' may be open too: a
        branch of a `simultaneous for`, or a seat of a simultaneous phase (a unit of
        several runners started at once)."""
        return runner.parent is not None or len(self._unit_specs) > 1

    def legal(self, player: int | str) -> tuple[str, ...]:
        seat = self._seat(player)
        for decision in self.pending():
            if decision.player == seat:
                return decision.options
        return ()

    def is_over(self) -> bool:
        return self.state.engine["stage"] == "over"

    @property
    def paused(self) -> bool:
        """True after a sandbox action finished: the course waits for ``resume()``."""
        return self._paused and not self.pending()

    def apply(self, player: int | str, text: str) -> None:
        """Make ``player``'s decision by the option's text; raise ``IllegalMove``."""
        seat = player if type(player) is int else self._seat(player)
        runner = self._deciding(seat)
        if runner is None:
            waiting = ", ".join(d.player_name for d in self.pending()) or "nobody"
            raise IllegalMove(
                f"{self.state.players[seat]} has no decision to make now (waiting for: {waiting})"
            )
        choice = runner.choice
        slot = choice.slot(text)
        if slot is None:
            raise IllegalMove(explain(choice, text), choice.texts)
        position = (
            self._snapshot,
            self._unit_specs,
            self.state.engine["history"],  # never changed in place: a snapshot of it
            self._paused,
            len(self.events),
            self._tally,
        )
        self._record(runner.key, ("choice", text, seat))
        self.events.append({"player": self.state.players[seat], "choice": text})
        moving = True  # the move's own step of play runs on; then the course does
        try:
            self._drive(runner, slot)
            moving = False
            self._check_end()
            self._advance()
        except ChanceProblem:
            self._return_to(position)
            raise
        except RuleError as exc:  # the rules' fault, not the move's: said, then undone
            self._locate(exc, position[4] + 1)
            self._return_to(position)
            raise
        except (GameError, StopEffect) as exc:
            # refused by the rules (a full zone, a payment, a `do` whose requirement
            # fails): while the move's own step runs, the move is illegal; once the
            # course runs on past it (a later phase, a trigger, the next round), no
            # move is under way and the rules cannot be carried out: their defect
            refusal = _refusal(exc)
            self._locate(refusal, position[4] + 1)
            self._return_to(position)
            if not moving:
                raise refusal from None
            stopped = isinstance(exc, StopEffect)
            illegal = IllegalMove("effect stopped" if stopped else exc.message, self.legal(seat))
            illegal.where, illegal.when = refusal.where, refusal.when
            raise illegal from None

    def scope(self, seat: int) -> tuple[dict[str, Any], int]:
        """The locals bound where ``seat``'s open decision is asked, and how many actions
        run from actions (`do`) deep it is: what tells a report which component an
        option that names none (a written option such as "yes") belongs to."""
        runner = self._deciding(seat)
        if runner is None or runner.choice is None:
            return {}, 0
        return runner.choice.ctx.env, runner.choice.ctx.depth

    def _deciding(self, seat: int) -> _Runner | None:
        """The runner waiting for ``seat``'s decision, if one is."""
        for runner in self._runners.values():
            if runner.choice is not None and runner.choice.player == seat:
                return runner
        return None

    def _return_to(self, position: tuple) -> None:
        """Back to the position before a failed decision, whatever unit it reached."""
        self._snapshot, self._unit_specs, chains, self._paused, logged, self._tally = position
        del self.events[logged:]
        self._rebuild(unchained(chains))

    def why_not(self, player: int | str, text: str) -> str:
        """Why ``text`` is not among ``player``'s legal options now, in the rules' terms."""
        seat = self._seat(player)
        runner = self._deciding(seat)
        if runner is None:
            return f"{self.state.players[seat]} has no decision to make now"
        if runner.choice.slot(text) is not None:
            return f"{text!r} is a legal option"
        return explain(runner.choice, text)

    def _seat(self, player: int | str) -> int:
        if isinstance(player, str):
            try:
                return self.state.players.index(player)
            except ValueError:
                raise IllegalMove(f"there is no player {player!r}") from None
        return int(player)

    # ----------------------------------------------------------------- units
    def _context(
        self, me: int | None, env: dict[str, Any] | None = None, budget: list[int] | None = None
    ) -> Context:
        player = None if me is None else Player(me)
        return Context(self.state, self.tables, player, env or {}, self, budget)

    _judges: tuple[State | None, dict[int | None, Context]] = (None, {})

    def _judge(self, me: int | None = None) -> Context:
        """The context a condition of the course is evaluated in (`end`, a phase's
        `skip`, `while` and `order`, the rounds' `until`): one per state and seat, its
        step budget filled again each time. A condition only reads (it sets no locals,
        nothing keeps its context), and the course asks after every decision. They go
        when the game is over: a context holds its game, which is then freed at once."""
        state, judges = self._judges
        if state is not self.state:
            judges = {}
            self._judges = (self.state, judges)
        budget = self.tables.limits.step_budget
        ctx = judges.get(me)
        if ctx is None:
            ctx = judges[me] = self._context(me)
        else:  # what it spent since it was last filled counts in the game's budget
            spent = budget - ctx.budget[0]
            if spent:
                self._spend(CONDITIONS, spent)
        ctx.budget[0] = budget
        return ctx

    def _start_runner(
        self,
        key: str,
        effect: Any,
        me: int | None,
        env: dict[str, Any] | None = None,
        parent: str | None = None,
        budget: list[int] | None = None,
    ) -> None:
        ctx = self._context(me, env, budget)
        generator = effect(ctx) if callable(effect) else run_effect(effect, ctx)
        runner = _Runner(key, me, generator, parent=parent, budget=ctx.budget)
        self._runners[key] = runner
        self._drive(runner, None)

    def _step(self, runner: _Runner, answer: int | None) -> Choice | Fork | None:
        self._current_runner = runner.key
        # A decision's options may wait until they are asked for (replay asks for the
        # logged one only). Where another decision can be open too (a simultaneous
        # step), its answer may change the state first: the options are then worked out
        # on a copy of the state as it is when the decision is reached.
        lazy = self.options_on_demand = self.lazy_choices or self._replay is not None
        self.options_on_copy = lazy and self._in_simultaneous_step(runner)
        try:
            if answer is None:
                return next(runner.generator)
            return runner.generator.send(answer)
        except StopIteration:
            return None

    def _drive(self, runner: _Runner, answer: int | None) -> None:
        """Run ``runner`` until it waits for a decision, for its branches, or ends."""
        result = self._step(runner, answer)
        while isinstance(result, Fork):
            runner.children = []
            runner.starting = True
            for index, (env, me) in enumerate(result.branches):
                key = f"{runner.key}/{len(runner.children)}:{index}"
                runner.children.append(key)
                # the branches spend the step budget of the effect that forks them
                branch = lambda ctx, f=result: f.run(ctx)  # noqa: E731
                self._start_runner(key, branch, me, env, runner.key, result.ctx.budget)
            runner.starting = False
            if not all(self._runners[c].done for c in runner.children):
                runner.choice = None
                return
            result = self._step(runner, None)
        if isinstance(result, Choice) and result.player in self.tables.automata:
            self._drive(runner, self._automaton_answer(runner, result))
            return
        runner.choice = result
        if result is None:
            runner.done = True
            parent = self._runners.get(runner.parent) if runner.parent else None
            if (
                parent is not None
                and not parent.starting
                and all(self._runners[c].done for c in parent.children)
            ):
                self._drive(parent, None)

    def _automaton_answer(self, runner: _Runner, choice: Choice) -> int:
        """A rules-driven seat is never asked: it takes the first option that is not
        `pass` (its rules decide by the order they offer options in). The decision is
        logged like any other, and replay checks it against the log."""
        slot, text = choice.first_offer()
        name = self.state.players[choice.player]
        if self._replay is None:
            if self.automaton_source is not None:
                self.automaton_source(name, text)
            self.events.append({"player": name, "choice": text})
        return slot

    def _unit_done(self) -> bool:
        for runner in self._runners.values():  # noqa: SIM110 - no generator: asked at every move
            if not runner.done:
                return False
        return True

    def _record(self, runner_key: str, entry: tuple) -> None:
        """Add what happened to a runner's history. A history is a chain of pairs
        (earlier, entry): appending is O(1) and never changes a copy of the state, so
        a step that draws chance thousands of times stays linear."""
        history = self.state.engine["history"]
        self.state.engine["history"] = {**history, runner_key: (history.get(runner_key), entry)}

    def _rebuild(self, histories: dict[str, tuple]) -> None:
        """Replay the current unit from its snapshot with the recorded answers."""
        assert self._snapshot is not None
        self.state = self._snapshot.copy()
        self.state.engine["history"] = {}
        self._runners = {}
        self._replay = {key: deque(entries) for key, entries in histories.items()}
        for key, effect, me, env in self._unit_specs:
            self._start_runner(key, effect, me, dict(env) if env else None)
        progress = True
        while progress:
            progress = False
            for runner in list(self._runners.values()):
                queue = self._replay.get(runner.key)
                if runner.choice is None or not queue or queue[0][0] != "choice":
                    continue
                entry = queue.popleft()
                text = entry[1]
                slot = runner.choice.slot(text)
                if slot is None:
                    raise GameError(f"replay out of step: {text!r} is not an option")
                self._record(runner.key, entry)
                self._drive(runner, slot)
                progress = True
        self._replay = None

    def _blank(self, seed: int | str) -> Game:
        """A game of the same ruleset and table, with no state yet."""
        other = Game.__new__(Game)
        other.ruleset, other.tables = self.ruleset, self.tables
        other.people = self.people
        other.automaton_source = None
        other.lazy_choices = False
        other.seed = seed
        other.chance_source = None
        other.events = []
        other._tally = self._tally
        other._replay = None
        other._runners = {}
        other._paused = self._paused
        return other

    def _begin_unit(self, specs: list[tuple[str, Any, int | None, Any]]) -> None:
        self._units = getattr(self, "_units", 0) + 1
        if self._units > MAX_STEPS_OF_PLAY or len(self.events) > MAX_EVENTS:
            raise RuleError(
                f"the game goes on past {MAX_STEPS_OF_PLAY:,} steps of play (turns, phase "
                f"steps, triggers) or {MAX_EVENTS:,} events",
                "check the `while` of `turns` phases and the `when` of triggers: one of them "
                "always holds",
            )
        self._snapshot = self.state.copy()
        self._unit_specs = specs
        self.state.engine["history"] = {}
        self._runners = {}
        for key, effect, me, env in specs:
            self._start_runner(key, effect, me, dict(env) if env else None)

    def _check_end(self) -> None:
        """The ruleset's `end` condition ends the game as soon as it holds."""
        end = self.ruleset.end
        stage = self.state.engine["stage"]
        if end is None or stage in ("setup", "scoring", "over") or self._unit_done():
            return
        if end(self._judge()):
            self._charge()
            self._runners = {}
            self._to_scoring()

    def _advance(self) -> None:
        """Run the game forward until a decision is open or the game is over."""
        while True:
            if self._runners and not self._unit_done():
                return
            if self._runners:
                self._charge()
                self._runners = {}
                self._check_when_triggers()
            if self._paused:
                return
            engine = self.state.engine
            if engine["queue"]:
                trigger_id, seat = engine["queue"][0]
                engine["queue"] = engine["queue"][1:]
                trigger = self.ruleset.triggers[trigger_id]
                self._begin_unit([(f"trigger:{trigger_id}", trigger.effect, seat, None)])
                continue
            if engine["stage"] == "over":
                self._snapshot = None
                self._judges = Game._judges  # their contexts hold the game: a cycle
                return
            specs = self._next_unit()
            if specs:
                self._begin_unit(specs)

    # -------------------------------------------------------------- triggers
    def _check_when_triggers(self) -> None:
        budget = self.tables.limits.step_budget
        spent = 0  # their conditions' steps count in the game's budget
        for trigger in self.tables.when_triggers:
            for seat in range(len(self.state.players)):
                ctx = self._context(seat)
                try:
                    fires = self.tables.may_fire(ctx, trigger, record=False) and trigger.when(ctx)
                except RuleError as exc:  # the trigger's `when`, not the step that ended
                    exc.where = exc.where or self.ruleset.locations.get(f"triggers.{trigger.id}")
                    raise
                if fires:
                    self.tables.may_fire(ctx, trigger)
                    self.state.engine["queue"] = (*self.state.engine["queue"], (trigger.id, seat))
                spent += budget - ctx.budget[0]
        if spent:
            self._spend(CONDITIONS, spent)

    # --------------------------------------------------------------- results
    def result(self) -> Result:
        names = self.state.players
        score = self.ruleset.score
        scores = {names[s]: self.state.counters.get(f"{score}#{s}", 0) for s in range(len(names))}
        breakdown: dict[str, dict[str, int]] = {name: {} for name in names}
        for step, per_seat in self.state.engine.get("breakdown", {}).items():
            for seat, points in per_seat.items():
                breakdown[names[int(seat)]][step] = points
        counters = self.state.counters
        tiebreaks = {
            name: [counters.get(f"{t}#{s}", 0) for t in self.ruleset.tiebreak]
            for s, name in enumerate(names)
        }
        # ranked by merit (``result_mode.py``): higher is better, partners alike; a
        # tie-break counter is read in the same sense as the score
        mode = self.ruleset.result_mode
        columns = [mode.merits([scores[n] for n in names])] + [
            mode.merits([tiebreaks[n][t] for n in names]) for t in range(len(self.ruleset.tiebreak))
        ]
        keys = {name: [column[s] for column in columns] for s, name in enumerate(names)}
        ordered = sorted(names, key=lambda n: keys[n], reverse=True)
        ranking: list[list[str]] = []
        for name in ordered:
            if ranking and keys[ranking[-1][0]] == keys[name]:
                ranking[-1].append(name)
            else:
                ranking.append([name])
        return Result(scores, breakdown, ranking, tiebreaks)

    def estimate(self, player: int) -> int:
        """The ruleset's score estimate for ``player`` (for agents)."""
        if self.ruleset.estimate is None:
            score = self.ruleset.score
            return self.state.counters.get(f"{score}#{player}", 0) if score else 0
        return self.ruleset.estimate(self._context(player))


def _refusal(exc: GameError | StopEffect) -> RuleError:
    """A refusal of the rules (a ``GameError`` raised by a statement, or `stop` where
    nothing can stop) as a rule error, at the statement that made it."""
    if not isinstance(exc, GameError):
        return RuleError("`stop` here")
    error = RuleError(exc.message, exc.hint)
    error.where = exc.where
    return error
