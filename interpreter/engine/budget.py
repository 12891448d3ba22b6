"""The step budget of a whole game, on top of each effect's own.

Every effect stops at ``Limits.step_budget`` steps; yet a ruleset whose every effect
stays just under it, for hundreds of rounds, would play for minutes (issue 44). So a
game also counts the steps all its effects spent, and stops at
``Limits.game_step_budget`` with a rule error located at the rule that spent the most.

Counting costs nothing per statement: each step of play (``course.py``'s unit: a
phase effect, a turn, a trigger, a scoring step, the setup) spends one budget, shared
by everything it runs (`do`, `emit`, the branches of a `simultaneous for`), and what
it spent is added when the step ends, keyed by the compiled effect it ran (named
after its rule only when the budget is spent). The course's conditions (`end`,
`until`, `skip`, `while`, `order`, a trigger's `when`) are added up apart, each time
their context is filled again. A step that is replayed (a copy of the game, a move
undone) is counted once, when it ends in the game itself. The counts are numbers of
steps, not time: the same seed stops at the same place.
"""

from __future__ import annotations

from interpreter.errors import RuleError

CONDITIONS = "conditions"  # the course's conditions, tallied apart from the rules' steps


class Budget:
    """A mixin of ``Game``: the steps the game spent, and the check of its budget."""

    # steps spent so far, and by rule: by the id of the compiled effect a step of play
    # ran (named only when the budget is spent), and CONDITIONS. One value, replaced and
    # never changed in place, which a move undone takes back whole
    _tally: tuple[int, dict[int | str, int]] = (0, {})

    @property
    def steps_spent(self) -> int:
        """The steps the game spent so far (the steps of play that ended, and the
        course's conditions), as its budget counts them."""
        return self._tally[0]

    def _spend(self, rule: int | str, steps: int) -> int:
        """Add ``steps`` spent by ``rule``; the game's total."""
        total, by = self._tally
        total += steps
        self._tally = (total, {**by, rule: by.get(rule, 0) + steps})
        return total

    def _charge(self) -> None:
        """Add the steps the step of play under way spent (it ends, or the game does);
        raise the rule error of the game's budget when they are too many."""
        limits = self.tables.limits
        start = limits.step_budget
        spent = 0
        for runner in self._runners.values():
            if runner.parent is None:  # a branch spends its root's budget
                spent += start - runner.budget[0]
        if self._spend(id(self._unit_specs[0][1]), spent) > limits.game_step_budget:
            raise self._over_budget()

    def _over_budget(self) -> RuleError:
        limit = self.tables.limits.game_step_budget
        spent, by = self._tally
        key, most = max(by.items(), key=lambda item: item[1])
        rule = CONDITIONS if key == CONDITIONS else self._rules_by_effect().get(key)
        if rule == CONDITIONS:
            what, where = "the course's conditions (`end`, `until`, `while`, `when`…)", None
        elif rule is None:  # a step of play the sandbox ran
            what, where = "a step run on its own (a sandbox's)", None
        else:
            what, where = _named(rule), self.ruleset.locations.get(rule)
        error = RuleError(
            f"the game spent more than its budget of {limit:,} steps ({spent:,}); "
            f"{what} spent the most: {most:,}",
            "each effect stays within its own step budget, but the game never comes to "
            "its end: check what ends it (`rounds`, `until`, `end`) and the loops of this "
            "rule (see Limits in docs/format.md)",
        )
        error.where = where or self.ruleset.locations.get("structure")
        return error

    def _rules_by_effect(self) -> dict[int, str]:
        """The rules of the course by their compiled effect's id, as
        ``ruleset.locations`` keys them: `structure.setup`, `phase.<id>`,
        `triggers.<id>`, `scoring.<id>`."""
        ruleset = self.ruleset
        rules = {id(ruleset.setup): "structure.setup"}
        rules.update({id(p.effect): f"phase.{p.id}" for p in ruleset.phases})
        rules.update({id(t.effect): f"triggers.{t.id}" for t in ruleset.triggers.values()})
        rules.update({id(s.effect): f"scoring.{s.id}" for s in ruleset.scoring})
        return rules


def _named(rule: str) -> str:
    """``phase.turns`` -> "the phase turns" (the words a person reads)."""
    kind, _, name = rule.partition(".")
    if kind == "structure":
        return "the setup"
    word = {"phase": "phase", "triggers": "trigger"}.get(kind, "scoring step")
    return f"the {word} {name}"
