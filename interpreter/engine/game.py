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
from typing import Any

from interpreter.engine import chance
from interpreter.engine.executor import (
    Choice,
    Fork,
    StopEffect,
    do_action,
    explain,
    run_effect,
)
from interpreter.engine.state import State
from interpreter.errors import GameError
from interpreter.language.runtime import Context
from interpreter.language.values import Player
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.tables import Tables

ChanceSource = Callable[[str, tuple[str, ...], int | None], tuple[str, ...]]


class IllegalMove(GameError):
    """A decision that is not among the legal options, or that breaks a rule."""

    def __init__(self, message: str, options: tuple[str, ...] = (), hint: str | None = None):
        super().__init__(message, hint)
        self.options = options


class ChanceProblem(GameError):
    """A supplied chance outcome is missing, out of step or impossible (replay)."""


class ImpossibleChance(ChanceProblem):
    """A recorded chance outcome that could not have happened."""

    possible: tuple[str, ...] = ()

    @classmethod
    def with_options(cls, possible: tuple[str, ...], message: str) -> ImpossibleChance:
        error = cls(message)
        error.possible = tuple(possible)
        return error


@dataclass(frozen=True)
class Decision:
    """An open decision: who decides, what about, and every legal option's text."""

    player: int
    player_name: str
    options: tuple[str, ...]
    prompt: str


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


@dataclass
class Result:
    scores: dict[str, int]
    breakdown: dict[str, dict[str, int]]  # player -> step -> points
    ranking: list[list[str]]  # groups of tied players, best first
    tiebreak: dict[str, list[int]] = field(default_factory=dict)


class Game:
    """One game of a ruleset for the given players."""

    def __init__(
        self,
        ruleset: Ruleset,
        players: list[str],
        seed: int | str = 0,
        chance_source: ChanceSource | None = None,
        start: bool = True,
    ):
        if len(set(players)) != len(players):
            raise GameError("player names must differ")
        self.ruleset = ruleset
        self.tables = Tables(ruleset, len(players))
        self.seed = seed
        self.chance_source = chance_source
        self.events: list[dict[str, Any]] = []
        self.state = State(tuple(players))
        self._runners: dict[str, _Runner] = {}
        self._snapshot: State | None = None
        self._replay: dict[str, deque] | None = None
        self._paused = False
        self._unit_specs: list = []
        self._init_state()
        if start:
            self._advance()

    def start(self) -> None:
        """Run the setup (for a game created with ``start=False``)."""
        self._advance()

    # ------------------------------------------------------------------ setup
    def _init_state(self) -> None:
        state, tables = self.state, self.tables
        n = len(state.players)
        for name, counter in self.ruleset.counters.items():
            initial = tables.initial(counter.initial)
            if counter.per == "player":
                for seat in range(n):
                    state.counters[f"{name}#{seat}"] = initial
            else:
                state.counters[name] = initial
        for name, variable in self.ruleset.variables.items():
            value = tables.initial(variable.initial)
            if variable.per == "player":
                for seat in range(n):
                    state.variables[f"{name}#{seat}"] = value
            else:
                state.variables[name] = value
        state.engine.update(
            stage="setup",
            round=0,
            phase=0,
            order=(),
            position=0,
            chance=0,
            history={},
            fired=frozenset(),
            breakdown={},
            queue=(),
            known={},
        )

    # ------------------------------------------------------------- decisions
    def pending(self) -> list[Decision]:
        """The open decisions (several only in a simultaneous phase)."""
        out = []
        for runner in self._runners.values():
            if runner.choice is not None:
                seat = runner.choice.player
                out.append(
                    Decision(
                        seat, self.state.players[seat], runner.choice.texts, runner.choice.prompt
                    )
                )
        return out

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
        seat = self._seat(player)
        runner = next(
            (t for t in self._runners.values() if t.choice is not None and t.choice.player == seat),
            None,
        )
        if runner is None:
            waiting = ", ".join(d.player_name for d in self.pending()) or "nobody"
            raise IllegalMove(
                f"{self.state.players[seat]} has no decision to make now (waiting for: {waiting})"
            )
        choice = runner.choice
        if text not in choice.texts:
            raise IllegalMove(explain(choice, text), choice.texts)
        index = choice.texts.index(text)
        position = (
            self._snapshot,
            self._unit_specs,
            dict(self.state.engine["history"]),
            self._paused,
            len(self.events),
        )
        history = self.state.engine["history"]
        before = history.get(runner.key, ())
        self.state.engine["history"] = {**history, runner.key: (*before, ("choice", text, seat))}
        self.events.append({"player": self.state.players[seat], "choice": text})
        try:
            self._drive(runner, index)
            self._check_end()
            self._advance()
        except ChanceProblem:
            self._return_to(position)
            raise
        except (GameError, StopEffect) as exc:
            self._return_to(position)
            raise IllegalMove(
                str(exc) if isinstance(exc, GameError) else "effect stopped", choice.texts
            ) from None

    def _return_to(self, position: tuple) -> None:
        """Back to the position before a failed decision, whatever unit it reached."""
        self._snapshot, self._unit_specs, histories, self._paused, logged = position
        del self.events[logged:]
        self._rebuild(histories)

    def why_not(self, player: int | str, text: str) -> str:
        """Why ``text`` is not among ``player``'s legal options now, in the rules' terms."""
        seat = self._seat(player)
        runner = next(
            (r for r in self._runners.values() if r.choice is not None and r.choice.player == seat),
            None,
        )
        if runner is None:
            return f"{self.state.players[seat]} has no decision to make now"
        if text in runner.choice.texts:
            return f"{text!r} is a legal option"
        return explain(runner.choice, text)

    def _seat(self, player: int | str) -> int:
        if isinstance(player, str):
            try:
                return self.state.players.index(player)
            except ValueError:
                raise IllegalMove(f"there is no player {player!r}") from None
        return int(player)

    # ---------------------------------------------------------------- chance
    def random_order(self, ctx: Context, zone: str, items: tuple[str, ...]) -> tuple[str, ...]:
        outcome = self._chance(f"shuffle {zone}", items, None)
        if sorted(outcome) != sorted(items):
            raise ImpossibleChance.with_options(
                items,
                f"shuffle {zone}: {list(outcome)} is not an order of the "
                f"{len(items)} components there",
            )
        return outcome

    def random_choice(self, ctx: Context, label: str, texts: tuple[str, ...]) -> str:
        outcome = self._chance(f"choose {label}", texts, 1)
        if len(outcome) != 1 or outcome[0] not in texts:
            raise ImpossibleChance.with_options(
                texts, f"choose {label}: {list(outcome)} is not one of {', '.join(texts)}"
            )
        return outcome[0]

    def random_pick(
        self, ctx: Context, zone: str, items: tuple[str, ...], count: int
    ) -> tuple[str, ...]:
        outcome = self._chance(f"draw {zone}", items, count)
        missing = [p for p in outcome if p not in items]
        if missing or len(outcome) != count or len(set(outcome)) != len(outcome):
            raise ImpossibleChance.with_options(
                items,
                f"draw {zone}: {', '.join(missing) or list(outcome)} "
                f"{'is' if len(missing) == 1 else 'are'} not in {zone}"
                if missing
                else f"draw {zone}: expected {count} distinct components, got {list(outcome)}",
            )
        return outcome

    def reveal(self, ctx: Context, pieces: tuple[str, ...], to: tuple[int, ...]) -> None:
        known = dict(self.state.engine["known"])
        for piece in pieces:
            known[piece] = tuple(sorted(set(known.get(piece, ())) | set(to)))
        self.state.engine["known"] = known

    def _chance(self, key: str, items: tuple[str, ...], count: int | None) -> tuple[str, ...]:
        engine = self.state.engine
        queue = self._replay.get(self._current_runner) if self._replay is not None else None
        if queue:
            entry = queue.popleft()
            if entry[0] != "chance" or entry[1] != key:
                raise GameError(f"replay out of step at {key}")
            outcome = tuple(entry[2])
        elif self.chance_source is not None:
            outcome = tuple(self.chance_source(key, items, count))
        elif count is None:
            outcome = chance.shuffled(self.seed, engine["chance"], items)
        else:
            outcome = chance.picked(self.seed, engine["chance"], items, count)
        engine["chance"] += 1
        runner_key = self._current_runner
        history = engine["history"]
        engine["history"] = {
            **history,
            runner_key: (*history.get(runner_key, ()), ("chance", key, outcome)),
        }
        if self._replay is None:
            self.events.append({"chance": key, "outcome": list(outcome)})
        return outcome

    # ----------------------------------------------------------------- units
    def _context(self, me: int | None, env: dict[str, Any] | None = None) -> Context:
        return Context(self.state, self.tables, None if me is None else Player(me), env or {}, self)

    def _start_runner(
        self,
        key: str,
        effect: Any,
        me: int | None,
        env: dict[str, Any] | None = None,
        parent: str | None = None,
    ) -> None:
        ctx = self._context(me, env)
        generator = effect(ctx) if callable(effect) else run_effect(effect, ctx)
        runner = _Runner(key, me, generator, parent=parent)
        self._runners[key] = runner
        self._drive(runner, None)

    def _step(self, runner: _Runner, answer: int | None) -> Choice | Fork | None:
        self._current_runner = runner.key
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
            for index, (env, me) in enumerate(result.branches):
                key = f"{runner.key}/{len(runner.children)}:{index}"
                runner.children.append(key)
                self._start_runner(key, lambda ctx, f=result: f.run(ctx), me, env, runner.key)
            if not all(self._runners[c].done for c in runner.children):
                runner.choice = None
                return
            result = self._step(runner, None)
        runner.choice = result
        if result is None:
            runner.done = True
            parent = self._runners.get(runner.parent) if runner.parent else None
            if parent is not None and all(self._runners[c].done for c in parent.children):
                self._drive(parent, None)

    def _unit_done(self) -> bool:
        return all(t.done for t in self._runners.values())

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
                if text not in runner.choice.texts:
                    raise GameError(f"replay out of step: {text!r} is not an option")
                history = self.state.engine["history"]
                self.state.engine["history"] = {
                    **history,
                    runner.key: (*history.get(runner.key, ()), entry),
                }
                self._drive(runner, runner.choice.texts.index(text))
                progress = True
        self._replay = None

    def copy(self, hide_from: int | None = None, same_chance: bool = False) -> Game:
        """An independent game in the same position (for search and look-ahead).

        A copy draws its future chance outcomes from another stream, so looking ahead
        never reveals the real game's next draws (``same_chance`` keeps the stream:
        an exact twin). With ``hide_from``, the decisions other players made in
        branches still running (a simultaneous step) are left out: what that player
        may know of the position.
        """
        other = Game.__new__(Game)
        other.ruleset, other.tables = self.ruleset, self.tables
        other.seed = self.seed if same_chance else f"{self.seed}~"
        other.chance_source = None
        other.events = []
        other._replay = None
        other._runners = {}
        other._paused = self._paused
        if self._runners and self._snapshot is not None:
            other._snapshot = self._snapshot
            other._unit_specs = self._unit_specs
            histories = self.state.engine["history"]
            if hide_from is not None:
                secret = self._simultaneous_keys()
                histories = {
                    key: _hidden(entries, hide_from) if key in secret else entries
                    for key, entries in histories.items()
                }
            other._rebuild(histories)
        else:
            other.state = self.state.copy()
            other._snapshot = None
        return other

    def has_secret_decisions(self) -> bool:
        """Whether a simultaneous step is under way (some decisions are still secret)."""
        return bool(self._runners) and bool(self._simultaneous_keys())

    def _simultaneous_keys(self) -> set[str]:
        """Runners whose decisions are still secret: the roots of a simultaneous phase,
        and the branches of a `simultaneous for` that has not finished."""
        roots = [t for t in self._runners.values() if t.parent is None]
        keys = {t.key for t in roots} if len(roots) > 1 else set()
        for runner in self._runners.values():
            parent = self._runners.get(runner.parent) if runner.parent else None
            if parent is not None and not parent.done and parent.choice is None:
                keys.add(runner.key)
        return keys

    def _begin_unit(self, specs: list[tuple[str, Any, int | None, Any]]) -> None:
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
        if end(self._context(None)):
            self._runners = {}
            self._to_scoring()

    def _advance(self) -> None:
        """Run the game forward until a decision is open or the game is over."""
        while True:
            if self._runners and not self._unit_done():
                return
            if self._runners:
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
                return
            specs = self._next_unit()
            if specs:
                self._begin_unit(specs)

    # --------------------------------------------------------------- course
    def _next_unit(self) -> list | None:
        """The next unit of the game's course, moving the course pointer past it."""
        engine = self.state.engine
        stage = engine["stage"]
        ruleset = self.ruleset
        if stage == "setup":
            engine["stage"] = "round_start"
            return [("setup", ruleset.setup, None, None)]
        if stage == "round_start":
            if ruleset.end is not None and ruleset.end(self._context(None)):
                return self._to_scoring()
            engine["round"] += 1
            if ruleset.round_counter:
                self.state.counters[ruleset.round_counter] = engine["round"]
            engine.update(stage="phase_start", phase=0)
            return None
        if stage == "phase_start":
            if engine["phase"] >= len(ruleset.phases):
                return self._end_round()
            phase = ruleset.phases[engine["phase"]]
            if phase.skip is not None and phase.skip(self._context(None)):
                engine["phase"] += 1
                return None
            if phase.kind == "once":
                engine["stage"] = "phase_end"
                return [(f"phase:{phase.id}", phase.effect, None, None)]
            order = self._order(phase)
            if phase.kind == "simultaneous":
                engine["stage"] = "phase_end"
                return [(f"seat:{seat}", phase.effect, seat, None) for seat in order]
            engine.update(stage="phase_steps", order=order, position=0)
            return None
        if stage == "phase_steps":
            phase = ruleset.phases[engine["phase"]]
            order = engine["order"]
            if ruleset.end is not None and ruleset.end(self._context(None)):
                return self._to_scoring()
            if phase.kind == "each_player":
                if engine["position"] >= len(order):
                    engine["stage"] = "phase_end"
                    return None
                seat = order[engine["position"]]
                engine["position"] += 1
                return [(f"seat:{seat}", phase.effect, seat, None)]
            # turns: the next player in order for whom `while` holds
            for offset in range(len(order)):
                index = (engine["position"] + offset) % len(order)
                seat = order[index]
                if phase.while_ is None or phase.while_(self._context(seat)):
                    engine["position"] = index + 1
                    return [(f"seat:{seat}", phase.effect, seat, None)]
            engine["stage"] = "phase_end"
            return None
        if stage == "phase_end":
            engine.update(stage="phase_start", phase=engine["phase"] + 1)
            if ruleset.end is not None and ruleset.end(self._context(None)):
                return self._to_scoring()
            return None
        if stage == "scoring":
            return self._scoring_step()
        raise GameError(f"unknown stage {stage!r}")

    def _order(self, phase: Any) -> tuple[int, ...]:
        if phase.order is None:
            return tuple(range(len(self.state.players)))
        order = phase.order(self._context(None))
        return tuple(int(p) for p in order)

    def _end_round(self) -> list | None:
        engine = self.state.engine
        ruleset = self.ruleset
        done = ruleset.rounds is not None and engine["round"] >= ruleset.rounds
        if ruleset.until is not None and ruleset.until(self._context(None)):
            done = True
        if done:
            return self._to_scoring()
        engine["stage"] = "round_start"
        return None

    def _to_scoring(self) -> None:
        engine = self.state.engine
        engine.update(stage="scoring", step=0)
        score = self.ruleset.score
        if score:
            engine["breakdown"] = {
                "play": {
                    str(s): self.state.counters[f"{score}#{s}"]
                    for s in range(len(self.state.players))
                }
            }
        engine["scores_before"] = self._scores()
        return None

    def _scoring_step(self) -> list | None:
        engine = self.state.engine
        steps = self.ruleset.scoring
        index = engine["step"]
        if index > 0 and self.ruleset.score:
            previous = steps[index - 1].id
            before = engine["scores_before"]
            now = self._scores()
            engine["breakdown"] = {
                **engine["breakdown"],
                previous: {str(s): now[s] - before[s] for s in range(len(now))},
            }
            engine["scores_before"] = now
        if index >= len(steps):
            engine["stage"] = "over"
            return None
        engine["step"] = index + 1
        return [(f"scoring:{steps[index].id}", steps[index].effect, None, None)]

    def _scores(self) -> list[int]:
        score = self.ruleset.score
        return [self.state.counters.get(f"{score}#{s}", 0) for s in range(len(self.state.players))]

    # -------------------------------------------------------------- triggers
    def _check_when_triggers(self) -> None:
        for trigger in self.tables.when_triggers:
            for seat in range(len(self.state.players)):
                ctx = self._context(seat)
                if self.tables.may_fire(ctx, trigger, record=False) and trigger.when(ctx):
                    self.tables.may_fire(ctx, trigger)
                    self.state.engine["queue"] = (*self.state.engine["queue"], (trigger.id, seat))

    # --------------------------------------------------------------- sandbox
    def run_action(self, action: str, player: int | str, **args: Any) -> None:
        """Start ``action`` for ``player`` now, replacing any open decision.

        A sandbox for tests and tools: set up a position by changing ``state``,
        then run one action and answer its decisions with ``apply``.
        """
        seat = self._seat(player)
        if action not in self.ruleset.actions:
            raise GameError(f"there is no action {action!r}")
        self._runners = {}
        self._paused = True
        before = self.state.copy()
        try:
            self._begin_unit(
                [
                    (
                        f"sandbox:{action}",
                        lambda ctx, a=action, g=args: do_action(ctx, a, dict(g)),
                        seat,
                        None,
                    )
                ]
            )
            self._advance()
        except GameError as exc:
            self.state, self._runners = before, {}
            raise IllegalMove(exc.message) from None

    def goto_phase(self, phase_id: str, round_number: int | None = None) -> None:
        """Move the course to the start of a phase (of a round) and run on from there.

        A sandbox for tests and tools: open decisions are dropped; the state is kept.
        """
        ids = [phase.id for phase in self.ruleset.phases]
        if phase_id not in ids:
            raise GameError(f"there is no phase {phase_id!r} (phases: {', '.join(ids)})")
        engine = self.state.engine
        self._runners = {}
        engine.update(stage="phase_start", phase=ids.index(phase_id), queue=())
        if round_number is not None:
            engine["round"] = round_number
            if self.ruleset.round_counter:
                self.state.counters[self.ruleset.round_counter] = round_number
        self.resume()

    def pause(self) -> None:
        """Drop the open decisions and hold the course (sandbox): nothing runs on."""
        self._runners = {}
        self._paused = True

    def run_step(self, phase_id: str, player: int | str | None = None) -> None:
        """Run one step of a phase now (a player's turn, or a `once` phase), then pause.

        A sandbox for tests and tools, like ``run_action``.
        """
        phase = next((p for p in self.ruleset.phases if p.id == phase_id), None)
        if phase is None:
            raise GameError(f"there is no phase {phase_id!r}")
        seat = None if player is None else self._seat(player)
        self._runners = {}
        self._paused = True
        self._begin_unit([(f"step:{phase_id}", phase.effect, seat, None)])
        self._advance()

    def goto_scoring(self) -> None:
        """Start the final scoring now, from its first step (a sandbox for tests)."""
        self._runners = {}
        self._paused = False
        self._to_scoring()
        self._advance()

    def resume(self) -> None:
        """Continue the game's course after sandbox actions."""
        self._paused = False
        self._advance()

    def evaluate(self, text: str, player: int | str | None = None, **env: Any) -> Any:
        """Compile and evaluate an expression of the ruleset's language against this state."""
        from interpreter.language.compiler import Compiler
        from interpreter.language.values import type_of

        compiled, problems = Compiler(self.ruleset.symbols).expression(
            text, {name: type_of(value) for name, value in env.items()}
        )
        if compiled is None:
            raise GameError("; ".join(f"{p.column}: {p.message}" for p in problems))
        seat = None if player is None else self._seat(player)
        return compiled.fn(self._context(seat, dict(env)))

    # --------------------------------------------------------------- results
    def result(self) -> Result:
        names = self.state.players
        score = self.ruleset.score
        scores = {names[s]: self.state.counters.get(f"{score}#{s}", 0) for s in range(len(names))}
        breakdown: dict[str, dict[str, int]] = {name: {} for name in names}
        for step, per_seat in self.state.engine.get("breakdown", {}).items():
            for seat, points in per_seat.items():
                breakdown[names[int(seat)]][step] = points
        keys = {}
        for s, name in enumerate(names):
            keys[name] = [scores[name]] + [
                self.state.counters.get(f"{t}#{s}", 0) for t in self.ruleset.tiebreak
            ]
        ordered = sorted(names, key=lambda n: keys[n], reverse=True)
        ranking: list[list[str]] = []
        for name in ordered:
            if ranking and keys[ranking[-1][0]] == keys[name]:
                ranking[-1].append(name)
            else:
                ranking.append([name])
        return Result(scores, breakdown, ranking, {n: k[1:] for n, k in keys.items()})

    def estimate(self, player: int) -> int:
        """The ruleset's score estimate for ``player`` (for agents)."""
        if self.ruleset.estimate is None:
            score = self.ruleset.score
            return self.state.counters.get(f"{score}#{player}", 0) if score else 0
        return self.ruleset.estimate(self._context(player))


def _hidden(entries: tuple, seat: int) -> tuple:
    """A runner's history up to the first decision someone other than ``seat`` made."""
    out = []
    for entry in entries:
        if entry[0] == "choice" and len(entry) > 2 and entry[2] != seat:
            break
        out.append(entry)
    return tuple(out)
