"""What compiled expressions and effects see when they run.

A ``Context`` bundles the state being read or changed, the compiled ruleset's
static tables, the local variables and the acting player. Effects that need the
outside world (random outcomes, decisions, events) call the ``host``: the engine,
or a stand-in in tests.
"""

from __future__ import annotations

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


MAX_NESTING = 50  # `do`, `emit` and `can` inside each other


class StepBudgetExceeded(RuleError):
    """An effect ran longer than the step budget allows (an endless loop in a ruleset)."""


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
            raise StepBudgetExceeded(
                "the step budget of this effect is exhausted: it loops without end",
                "check the `while` and `repeat` statements of the effect",
            )


_new_context = object.__new__
