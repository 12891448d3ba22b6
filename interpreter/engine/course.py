"""The course of a game: setup, rounds of phases, final scoring steps.

A mixin of ``Game``: it moves the course pointer (kept in the state) and names the
next unit of play to run; ``game.py`` runs the units.
"""

from __future__ import annotations

from typing import Any

from interpreter.errors import GameError, RuleError
from interpreter.language.runtime import StepBudgetExceeded

MAX_ROUNDS = 1_000  # rounds in one game
MAX_STEPS_OF_PLAY = 5_000  # units of play in one game: turns, phase steps, triggers
MAX_EVENTS = 100_000  # decisions and chance outcomes in one game


class Course:
    """Which unit of play comes next, as the ruleset's `structure` and `scoring` say."""

    def _next_unit(self) -> list | None:
        """The next unit of the game's course, moving the course pointer past it."""
        engine = self.state.engine
        stage = engine["stage"]
        ruleset = self.ruleset
        if stage == "setup":
            engine["stage"] = "round_start"
            return [("setup", ruleset.setup, None, None)]
        if stage == "round_start":
            if ruleset.end is not None and ruleset.end(self._judge()):
                return self._to_scoring()
            if engine["round"] >= MAX_ROUNDS:
                raise RuleError(
                    f"the game has played {MAX_ROUNDS:,} rounds and goes on",
                    "check the structure's `rounds: until` and `end` conditions: one must hold",
                )
            engine["round"] += 1
            if ruleset.round_counter:
                self.state.counters[ruleset.round_counter] = engine["round"]
            engine.update(stage="phase_start", phase=0)
            return None
        if stage == "phase_start":
            if engine["phase"] >= len(ruleset.phases):
                return self._end_round()
            phase = ruleset.phases[engine["phase"]]
            if phase.skip is not None and phase.skip(self._judge()):
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
            if ruleset.end is not None and ruleset.end(self._judge()):
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
                if phase.while_ is None or phase.while_(self._judge(seat)):
                    engine["position"] = index + 1
                    return [(f"seat:{seat}", phase.effect, seat, None)]
            engine["stage"] = "phase_end"
            return None
        if stage == "phase_end":
            engine.update(stage="phase_start", phase=engine["phase"] + 1)
            if ruleset.end is not None and ruleset.end(self._judge()):
                return self._to_scoring()
            return None
        if stage == "scoring":
            return self._scoring_step()
        raise GameError(f"unknown stage {stage!r}")

    def _locate(self, exc: RuleError, event: int) -> None:
        """Give a rule error found outside any statement (a condition or a cap of the
        course) the place of the part of the course under way, and the moment."""
        exc.when = exc.when or self.moment(event)
        if isinstance(exc, StepBudgetExceeded):
            exc.at_rule(self.ruleset.locations)
        if exc.where is None:
            engine, locations = self.state.engine, self.ruleset.locations
            phases = self.ruleset.phases
            unit = next(iter(self._runners), "") if self._runners else ""
            if unit.startswith("trigger:"):
                exc.where = locations.get(f"triggers.{unit.split(':', 1)[1]}")
            elif unit == "setup":
                exc.where = locations.get("structure.setup")
            elif unit.startswith("scoring:"):
                exc.where = locations.get(unit.replace(":", ".", 1))
            elif engine["stage"] in ("round_start",) or "rounds" in exc.message:
                exc.where = locations.get("structure.rounds")
            elif engine["phase"] < len(phases) and engine["stage"] not in ("setup", "scoring"):
                exc.where = locations.get(f"phase.{phases[engine['phase']].id}")
            exc.where = exc.where or locations.get("structure")

    def moment(self, event: int) -> str:
        """Where the game is, in words: round, phase (or stage) and event number."""
        engine = self.state.engine
        stage = engine["stage"]
        if stage == "setup" or (engine["round"] == 0 and stage == "round_start"):
            return f"the setup, event {event}"  # the setup runs, or the triggers it fired
        phases = self.ruleset.phases
        if stage not in ("scoring", "over") and engine["phase"] < len(phases):
            where = f"phase {phases[engine['phase']].id}"
        else:
            where = "the final scoring" if stage == "scoring" else stage
        return f"round {engine['round']}, {where}, event {event}"

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

    def _order(self, phase: Any) -> tuple[int, ...]:
        if phase.order is None:
            return tuple(range(len(self.state.players)))
        order = phase.order(self._judge())
        return tuple(int(p) for p in order)

    def _end_round(self) -> list | None:
        engine = self.state.engine
        ruleset = self.ruleset
        done = ruleset.rounds is not None and engine["round"] >= ruleset.rounds
        if ruleset.until is not None and ruleset.until(self._judge()):
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
