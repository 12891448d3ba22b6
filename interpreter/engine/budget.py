"""The step budget of a whole game, on top of each effect's own.

Every effect stops at ``Limits.step_budget`` steps; yet a ruleset whose every effect
stays just under it, for hundreds of rounds, would play for minutes (issue 44). So a
game also counts the steps all its effects spent, and stops at
``Limits.game_step_budget`` with a rule error located at the rule that spent the most.

Counting costs nothing per statement: each step of play (``course.py``'s unit: a
phase effect, a turn, a trigger, a scoring step, the setup) spends one budget, shared
by everything it runs (`do`, `emit`, the branches of a `simultaneous for`), and what
it spent is added when the step ends, keyed by the rule that ran it. The course's
conditions (`end`, `until`, `skip`, `while`, `order`, a trigger's `when`) are added
up apart, each time their context is filled again. A step that is replayed (a copy of
the game, a move undone) is counted once, when it ends in the game itself. The
counts are numbers of steps, not time: the same seed stops at the same place.
"""

from __future__ import annotations

from interpreter.errors import RuleError

CONDITIONS = "conditions"  # the course's conditions, tallied apart from the rules' steps


class Budget:
    """A mixin of ``Game``: the steps the game spent, and the check of its budget."""

    _spent = 0  # steps spent by the steps of play that ended, and by the conditions
    _spent_by: dict[str, int] = {}  # noqa: RUF012 - replaced, never changed in place
    _judged = 0  # steps spent by the course's conditions

    @property
    def steps_spent(self) -> int:
        """The steps the game spent so far (the steps of play that ended, and the
        course's conditions), as its budget counts them."""
        return self._spent

    def _charge(self) -> None:
        """Add the steps the step of play under way spent (it ends, or the game does);
        raise the rule error of the game's budget when they are too many."""
        limits = self.tables.limits
        start = limits.step_budget
        spent = 0
        for runner in self._runners.values():
            if runner.parent is None:  # a branch spends its root's budget
                spent += start - runner.budget[0]
        rule = self._spending_rule()
        by = self._spent_by
        self._spent_by = {**by, rule: by.get(rule, 0) + spent}
        self._spent += spent
        if self._spent > limits.game_step_budget:
            raise self._over_budget()

    def _spending_rule(self) -> str:
        """The rule the step of play under way runs, as ``ruleset.locations`` keys it:
        `phase.<id>` (a turn, a phase's step), `triggers.<id>`, `scoring.<id>`,
        `structure.setup`, `actions.<id>` (the sandbox's)."""
        key = next(iter(self._runners))
        kind, _, name = key.partition(":")
        if kind == "seat":
            return f"phase.{self.ruleset.phases[self.state.engine['phase']].id}"
        prefix = {"trigger": "triggers", "sandbox": "actions"}.get(kind, kind)
        return "structure.setup" if kind == "setup" else f"{prefix}.{name}"

    def _over_budget(self) -> RuleError:
        limit = self.tables.limits.game_step_budget
        tally = dict(self._spent_by)
        if self._judged:
            tally[CONDITIONS] = self._judged
        rule, most = max(tally.items(), key=lambda item: item[1])
        if rule == CONDITIONS:
            what, where = "the course's conditions (`end`, `until`, `while`, `when`…)", None
        else:
            what, where = _named(rule), self.ruleset.locations.get(rule)
        error = RuleError(
            f"the game spent more than its budget of {limit:,} steps ({self._spent:,}); "
            f"{what} spent the most: {most:,}",
            "each effect stays within its own step budget, but the game never comes to "
            "its end: check what ends it (`rounds`, `until`, `end`) and the loops of this "
            "rule (see Limits in docs/format.md)",
        )
        error.where = where or self.ruleset.locations.get("structure")
        return error


def _named(rule: str) -> str:
    """``phase.turns`` -> "the phase turns" (the words a person reads)."""
    kind, _, name = rule.partition(".")
    if kind == "structure":
        return "the setup"
    word = {"phase": "phase", "triggers": "trigger", "actions": "action"}.get(kind, "scoring step")
    return f"the {word} {name}"
