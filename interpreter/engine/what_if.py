"""`gain_if`: how much a counter would rise if an action ran now, tried on a copy.

A mixin of ``Game``. The copy is a bare state with a host that refuses chance: a
what-if must never draw from the game's chance stream. ``answer_first`` and
``NoChance`` serve any such trial (``agents/value.py`` scores a position as if the
game ended now).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from interpreter.engine.executor import Choice, StopEffect, do_action
from interpreter.errors import RuleError
from interpreter.language.runtime import Context


class WhatIf:
    """``what_if`` for ``Game`` (the host of compiled effects)."""

    def what_if(self, ctx: Context, counter: str, action: str, value: Any) -> int:
        """How much ``counter`` of the acting player rises if ``action`` runs now with
        ``value`` for its one parameter without a default, tried on a copy."""
        definition = self.ruleset.actions.get(action)
        if definition is None:
            raise RuleError(f"there is no action {action!r}")
        free = [name for name in definition.params if name not in definition.defaults]
        if len(free) != 1:
            raise RuleError(
                f"gain_if() needs an action with one parameter without a default; "
                f"{action!r} has {len(free)}"
            )
        state = ctx.state.copy()
        probe = Context(state, self.tables, ctx.me, {}, NoChance(), ctx.budget)
        args = {free[0]: value}
        if self.tables.failed_requirement(probe, action, args, explain=False) is not None:
            return 0
        key = self.tables.counter_key(counter, ctx.me)
        before = state.counters.get(key, 0)
        try:
            if not answer_first(do_action(probe, action, args)):
                raise RuleError(f"gain_if(): {action!r} opens a simultaneous step")
        except StopEffect:
            pass
        return state.counters.get(key, 0) - before


def answer_first(run: Generator[Any, Any, Any], limit: int | None = None) -> bool:
    """Run an effect's generator to its end, each decision answered with its first
    offered option (all a trial on a copy may assume); False where it stops short:
    it opens a simultaneous step (nobody to answer), or asks more than ``limit``."""
    answer = None
    asked = 0
    try:
        while limit is None or asked < limit:
            step = next(run) if answer is None else run.send(answer)
            if not isinstance(step, Choice):
                return False
            answer = step.first_offer()[0]
            asked += 1
    except StopIteration:
        return True
    return False


class NoChance:
    """The host of a what-if: it may not draw by chance (that would use the game's)."""

    def _refuse(self, *_: Any) -> Any:
        raise RuleError("gain_if(): the action would draw by chance")

    random_order = random_choice = random_pick = roll = _refuse
    options_on_demand = True  # the action takes its first option: no need for all
    options_on_copy = False  # and nothing else happens before it does

    def reveal(self, *_: Any) -> None:
        return None
