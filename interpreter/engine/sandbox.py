"""Sandbox verbs for tests and tools: run one action or step, jump in the course.

A mixin of ``Game``. Ordinary play never uses these; they let a test arrange a
position by editing the state and then run exactly the rule it checks.
"""

from __future__ import annotations

from typing import Any

from interpreter.engine.executor import do_action
from interpreter.errors import GameError, IllegalMove, RuleError
from interpreter.language.runtime import StepBudgetExceeded


class Sandbox:
    """Run parts of a game on their own (the course pauses after them)."""

    def run_action(self, action: str, player: int | str, **args: Any) -> None:
        """Start ``action`` for ``player`` now, replacing any open decision.

        A sandbox for tests and tools: set up a position by changing ``state``,
        then run one action and answer its decisions with ``apply``.
        """
        seat = self._seat(player)
        if action not in self.ruleset.actions:
            raise GameError(f"there is no action {action!r}")
        self.follow_knowledge()  # worked out from the record, which this leaves
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
        except RuleError as exc:
            if isinstance(exc, StepBudgetExceeded):
                exc.at_rule(self.ruleset.locations)
            exc.when = exc.when or self.moment(len(self.events) + 1)
            self.state, self._runners = before, {}
            raise
        except GameError as exc:  # refused: named at the statement that refused it
            self.state, self._runners = before, {}
            illegal = IllegalMove(exc.message)
            illegal.where = exc.where or self.ruleset.locations.get(f"actions.{action}")
            illegal.when = self.moment(len(self.events) + 1)
            raise illegal from None

    def goto_phase(self, phase_id: str, round_number: int | None = None) -> None:
        """Move the course to the start of a phase (of a round) and run on from there.

        A sandbox for tests and tools: open decisions are dropped; the state is kept.
        """
        ids = [phase.id for phase in self.ruleset.phases]
        if phase_id not in ids:
            raise GameError(f"there is no phase {phase_id!r} (phases: {', '.join(ids)})")
        self.follow_knowledge()
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
        self.follow_knowledge()
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
        self.follow_knowledge()
        self._runners = {}
        self._paused = True
        self._begin_unit([(f"step:{phase_id}", phase.effect, seat, None)])
        self._advance()

    def goto_scoring(self) -> None:
        """Start the final scoring now, from its first step (a sandbox for tests)."""
        self.follow_knowledge()
        self._runners = {}
        self._paused = False
        self._to_scoring()
        self._advance()

    def arranged_states(self) -> list:
        """The states a position arranged by hand is written into: the current one and,
        in the middle of a step, the step's start too, since a copy for one player (a
        view during a simultaneous step) replays the step from there."""
        states = [self.state]
        if self._runners and self._snapshot is not None:
            states.append(self._snapshot)
        return states

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
