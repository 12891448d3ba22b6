"""What compiled expressions and effects see when they run.

A ``Context`` bundles the state being read or changed, the compiled ruleset's
static tables, the local variables and the acting player. Effects that need the
outside world (random outcomes, decisions, events) call the ``host``: the engine,
or a stand-in in tests.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from interpreter.errors import RuleError
from interpreter.language.values import Player


class Host(Protocol):
    """The services an effect needs from whoever runs it."""

    # whether a decision reached now may work out its legal options only when asked
    options_on_demand: bool
    # whether other decisions may be answered before it: then they are worked out on a
    # copy of the state as it is when the decision is reached
    options_on_copy: bool

    def random_order(self, ctx: Context, zone: str, items: tuple[str, ...]) -> tuple[str, ...]: ...

    def random_pick(
        self, ctx: Context, zone: str, items: tuple[str, ...], count: int
    ) -> tuple[str, ...]: ...

    def random_choice(self, ctx: Context, label: str, texts: tuple[str, ...]) -> str: ...

    def reveal(self, ctx: Context, pieces: tuple[str, ...], to: tuple[int, ...]) -> None: ...

    def roll(self, ctx: Context, dice: tuple[str, ...]) -> None: ...


MAX_NESTING = 50  # `do`, `emit` and `can` inside each other


class StepBudgetExceeded(RuleError):
    """A step of play ran longer than its step budget allows: a loop without end, or a
    bounded search (a scan, nested loops) too large for the budget.

    Raised at the tick that overspent it, it is named on its way out (``locate``): at
    the statement that was running, then at each loop of the same rule around it (the
    outermost ran longest), but never past the rule: a function or an action's
    requirement whose code was running (found in the traceback), or the `do` or
    `emit` that ran another rule. A `while` among those loops may never end; a scan
    or a `for` always does, and the message says which."""

    def __init__(self, limit: int):
        super().__init__(
            f"this step of play spent its whole step budget ({limit:,} steps) here: a "
            "search or loop too large for it",
            "narrow the scan (`where`), stop it at the first item found (`any`, `first`), "
            "or take fewer steps per turn (see Limits in docs/format.md)",
        )
        self.limit = limit
        self.rule: str | None = None  # `functions.NAME` or `actions.NAME`, if found
        self.settled = False  # named at its rule: no enclosing loop takes it over

    def locate(self, at: Any, kind: str, frames: Any) -> None:
        """Named on its way out of a statement of kind ``kind`` (a node class's name)
        written at ``at``; ``frames``: the traceback so far."""
        loop = kind in ("For", "While", "Repeat")
        if self.where is None:
            self.where = at
            self.rule = _rule_running(frames)
            self.settled = self.rule is not None
        elif loop and not self.settled:
            self.where = at  # an enclosing loop of the same rule: it ran longer
        if loop and self.where is at and not self.settled:
            self.message = self.message.replace(" here: ", " in this loop: ")
        if kind == "While" and self.where is at and not self.settled:
            self.message = (
                f"this step of play spent its whole step budget ({self.limit:,} steps) "
                "in this `while`: it may never end"
            )
            self.hint = (
                "check that the loop's body makes its condition false in the end "
                "(see Limits in docs/format.md)"
            )
            self.settled = True  # the suspect: the loops around it only repeat it
        if kind in ("Do", "Emit"):
            self.settled = True  # another rule ran inside this statement: it spent it

    def at_rule(self, locations: dict[str, Any]) -> None:
        """Named at the function or requirement that spent it, where one did: the
        engine knows where the rules wrote them (``Ruleset.locations``)."""
        if self.rule is not None and self.rule in locations:
            self.where = locations[self.rule]


_RULE_FRAME = re.compile(r"^(?:_def_(\w+)_|_fn_(\w+)_\d+|_req_(\w+)_|_can_(\w+)_\d+)$")


def _rule_running(frames: Any) -> str | None:
    """The innermost function of the rules, or action requirement, whose generated
    code the traceback ``frames`` passes through (``codegen.function_name``,
    ``check_name``, or their fresh names): the rule that spent the budget."""
    found = None
    while frames is not None:
        match = _RULE_FRAME.match(frames.tb_frame.f_code.co_name)
        if match:
            function = match.group(1) or match.group(2)
            action = match.group(3) or match.group(4)
            found = f"functions.{function}" if function else f"actions.{action}"
        frames = frames.tb_next
    return found


class Context:
    """The environment of one evaluation: state, tables, locals, acting player."""

    __slots__ = ("budget", "depth", "env", "host", "me", "rules", "state")

    def __init__(
        self,
        state: Any,
        rules: Any,
        me: Player | None = None,
        env: dict[str, Any] | None = None,
        host: Host | None = None,
        budget: list[int] | None = None,
    ):
        self.state = state
        self.rules = rules
        self.me = me
        self.env = env if env is not None else {}
        self.host = host
        self.budget = (
            budget if budget is not None else [rules.limits.step_budget if rules else 100_000]
        )
        self.depth = 0  # actions and events under way inside each other (`do`, `emit`, `can`)

    def child(self, env: dict[str, Any], me: Player | None = None) -> Context:
        """A context with other locals (and optionally another acting player)."""
        return self._copy(env, self.me if me is None else me, self.depth)

    def nested(self, env: dict[str, Any]) -> Context:
        """The context of an action or a trigger run from this one (`do`, `emit`)."""
        depth = self.depth
        if depth >= MAX_NESTING:
            self.deeper()  # raises its error
        return self._copy(env, self.me, depth + 1)

    def _copy(self, env: dict[str, Any], me: Player | None, depth: int) -> Context:
        """This context with other locals, player and depth (made on every `do`: the
        fields set directly, not through ``__init__``'s defaults)."""
        other = _new_context(Context)
        other.state = self.state
        other.rules = self.rules
        other.me = me
        other.env = env
        other.host = self.host
        other.budget = self.budget
        other.depth = depth
        return other

    def over(self, state: Any) -> Context:
        """This context over another state (a copy of its own, kept as it is now)."""
        other = self._copy(self.env, self.me, self.depth)
        other.state = state
        return other

    def deeper(self) -> int:
        if self.depth >= MAX_NESTING:
            raise RuleError(
                f"actions and events nested more than {MAX_NESTING} deep (`do`, `emit`, "
                "`can`): an action that does itself?",
                "an action, event or requirement must not lead back to itself",
            )
        return self.depth + 1

    def tick(self, steps: int = 1) -> None:
        self.budget[0] -= steps
        if self.budget[0] < 0:
            raise StepBudgetExceeded(self.rules.limits.step_budget if self.rules else 0)


_new_context = object.__new__
