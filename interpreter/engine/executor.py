"""Run compiled effect nodes.

An effect runs as a generator: it yields a ``Choice`` wherever a player must decide
and receives the chosen option's index back. Everything else (state changes, chance
through the host) happens synchronously. The engine drives these generators; it
never decides for a player.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from interpreter.engine.choice import Choice, option_text, option_texts
from interpreter.engine.effect_code import Runtime, compile_block, located
from interpreter.errors import GameError, RuleError
from interpreter.language import effects as fx
from interpreter.language.runtime import Context
from interpreter.language.values import Player

Run = Generator["Choice", int, None]


@dataclass
class Fork:
    """A `simultaneous for`: one branch per item, all of whose decisions are open at once."""

    node: Any
    branches: list[tuple[dict[str, Any], Any]]  # (locals, acting player) per branch
    ctx: Context

    def run(self, ctx: Context) -> Run:
        try:
            yield from run_seq(self.node.body, ctx)
        except StopEffect:  # `stop` in a branch ends that branch; the others go on
            return


class StopEffect(Exception):
    """`stop`: ends the innermost action, trigger or phase effect."""


def run_effect(effect: fx.CompiledEffect | None, ctx: Context) -> Run:
    """Run a whole effect; `stop` inside it ends it."""
    if effect is None:
        return
    try:
        yield from run_seq(effect.body, ctx)
    except StopEffect:
        return


def run_seq(seq: fx.Seq, ctx: Context) -> Run:
    """Run a block: as the generator function it was compiled into on its first run
    (``effect_code.py``), or node by node where it could not be compiled."""
    run = seq.run
    if run is None:
        run = seq.run = compile_block(seq, _RUNTIME) or False
    if run is False:
        return _walk_seq(seq, ctx)
    return run(ctx)


def _walk_seq(seq: fx.Seq, ctx: Context) -> Run:
    for node in seq.body:
        ctx.tick()
        kind = type(node)
        try:
            if kind is fx.Call:
                _call(node, ctx)
            elif kind is fx.Assign:
                node.setter(ctx, node.op, node.value(ctx))
            elif kind is fx.Let:
                ctx.env[node.var] = node.value(ctx)
            else:
                yield from run_node(node, ctx)
        except GameError as exc:  # named at the innermost failing statement
            located(exc, node)
            raise


def _call(node: fx.Call, ctx: Context) -> None:
    args = [f(ctx) for f in node.args]
    if node.named:
        node.primitive.impl(ctx, *args, **{name: f(ctx) for name, f in node.named})
    else:
        node.primitive.impl(ctx, *args)


def run_node(node: fx.Node, ctx: Context) -> Run:
    kind = type(node)
    if kind is fx.If:
        for cond, body in node.branches:
            if cond(ctx):
                yield from run_seq(body, ctx)
                return
        if node.otherwise is not None:
            yield from run_seq(node.otherwise, ctx)
    elif kind is fx.For:
        env = ctx.env
        if node.simultaneous:
            branches = []
            for item in _iterable(node.items(ctx)):
                ctx.tick()
                env[node.var] = item
                if node.where is None or node.where(ctx):
                    branches.append(({**env}, ctx.me))
            if branches:
                yield Fork(node, branches, ctx)
            return
        for item in _iterable(node.items(ctx)):
            ctx.tick()
            env[node.var] = item
            if node.where is None or node.where(ctx):
                yield from run_seq(node.body, ctx)
    elif kind is fx.Repeat:
        count = node.count(ctx)
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise RuleError(f"repeat needs a count of 0 or more, not {count!r}")
        for _ in range(count):
            ctx.tick()
            yield from run_seq(node.body, ctx)
    elif kind is fx.While:
        while node.cond(ctx):
            ctx.tick(10)
            yield from run_seq(node.body, ctx)
    elif kind in RUNNERS:
        yield from RUNNERS[kind](node, ctx)
    elif kind is fx.Stop:
        raise StopEffect
    elif kind is fx.Seq:
        yield from run_seq(node, ctx)
    else:  # Call, Assign and Let are handled inline by run_seq
        yield from run_seq(fx.Seq(node.id, (node,)), ctx)


def _do(node: fx.Do, ctx: Context) -> Run:
    action = ctx.env.get(node.action) if node.dynamic else node.action
    if action is None:
        raise RuleError("`do` was given none instead of an action")
    yield from do_action(ctx, str(action), {name: f(ctx) for name, f in node.args})


def _emit(node: fx.Emit, ctx: Context) -> Run:
    yield from emit(ctx, node.event, {name: f(ctx) for name, f in node.args})


def _act(node: fx.Act, ctx: Context) -> Run:
    player = node.player(ctx)
    if player is None:
        raise RuleError("`act as` was given none instead of a player")
    yield from run_seq(node.body, ctx.child(ctx.env, Player(player)))


def _iterable(items: Any) -> tuple:
    """What a `for` walks: a collection (a text is not one, whatever its type says)."""
    if type(items) is tuple:  # the common case first
        return items
    if isinstance(items, str) or not isinstance(items, tuple | list):
        raise RuleError(f"`for` needs a collection, not {items!r}")
    return tuple(items)


def _chooser(node: fx.ChooseItem | fx.ChooseOption, ctx: Context) -> Player:
    player = node.by(ctx) if node.by is not None else ctx.me
    if player is None:
        raise RuleError("a choice has no player to make it (use `by` or `act as`)")
    return player


def _judged_in(ctx: Context) -> Context:
    """Where a decision's options are worked out when they are asked for: ``ctx``, or
    ``ctx`` over a copy of the state as it is now where another decision may be
    answered first (``host.options_on_copy``): its effect would change the state."""
    return ctx.over(ctx.state.copy()) if ctx.host.options_on_copy else ctx


def _choose_item(node: fx.ChooseItem, ctx: Context) -> Run:
    env = ctx.env
    items = node.items(ctx)
    where, var, label = node.where, node.var, node.label or ""
    # options worked out on demand find a text's item by its id: computed texts
    # (`as (TEXT)`) are worked out at once
    if where is not None and ctx.host.options_on_demand and not node.by_chance and not node.words:
        judged = _judged_in(ctx)

        def test(item: Any) -> bool:
            env[var] = item
            return where(judged)

        choice = Choice(label or var, node, judged, list(items), label, test, node.optional)
        if not node.optional and not choice.any_legal():
            return
    else:
        if where is not None:
            legal = []
            for item in items:
                env[var] = item
                if where(ctx):
                    legal.append(item)
        else:
            legal = list(items)
        if not legal and not node.optional:
            return
        texts = option_texts(ctx, label, legal) if node.words is None else _worded(node, ctx, legal)
        if node.by_chance:
            if not legal:
                return
            picked = ctx.host.random_choice(ctx, label or var, tuple(texts))
            env[var] = legal[texts.index(picked)]
            yield from run_seq(node.body, ctx)
            return
        choice = Choice(label or var, node, ctx, legal, label, None, node.optional, texts)
    choice.player = int(_chooser(node, ctx))
    slot = yield choice
    if slot == choice.pass_slot:
        return
    env[var] = choice.candidates[slot]
    yield from run_seq(node.body, ctx)


def _worded(node: fx.ChooseItem, ctx: Context, items: list[Any]) -> list[str]:
    """Each item's option text as `as (TEXT)` computes it with the item bound."""
    env, words, texts = ctx.env, node.words, []
    for item in items:
        env[node.var] = item
        text = words(ctx)  # type: ignore[misc]
        if not isinstance(text, str) or not text or text == "pass":
            raise RuleError(
                f"an option's text must be a text other than 'pass' and '', not {text!r}"
            )
        texts.append(text)
    return texts


def _choose_option(node: fx.ChooseOption, ctx: Context) -> Run:
    env = ctx.env
    if ctx.host.options_on_demand:
        judged = _judged_in(ctx)

        def test(candidate: tuple[fx.Option, Any]) -> bool:
            option, item = candidate
            if option.items is not None:
                env[option.var] = item
            return option.guard is None or option.guard(judged)

        candidates: list[tuple[fx.Option, Any]] = []
        for option in node.options:
            if option.items is None:
                candidates.append((option, None))
            else:
                candidates += [(option, item) for item in tuple(option.items(ctx))]
        choice = Choice("option", node, judged, candidates, None, test, node.optional)
        if not node.optional and not choice.any_legal():
            return
    else:
        offered = _offered(node, ctx)
        if not offered and not node.optional:
            return
        texts = [text for text, _, _ in offered]
        legal = [(option, item) for _, option, item in offered]
        choice = Choice("option", node, ctx, legal, None, None, node.optional, texts)
    choice.player = int(_chooser(node, ctx))
    slot = yield choice
    if slot == choice.pass_slot:
        return
    option, item = choice.candidates[slot]
    if option.items is not None:
        env[option.var] = item
    yield from run_seq(option.body, ctx)


def _offered(node: fx.ChooseOption, ctx: Context) -> list[tuple[str, fx.Option, Any]]:
    """(text, option, item) of every legal option, in the order written."""
    offered = []
    env = ctx.env
    for option in node.options:
        if option.items is None:
            if option.guard is None or option.guard(ctx):
                offered.append((option.text, option, None))
            continue
        for item in tuple(option.items(ctx)):
            env[option.var] = item
            if option.guard is None or option.guard(ctx):
                offered.append((option_text(ctx, "", item), option, item))
    return offered


def explain(choice: Choice, text: str) -> str:
    """Why ``text`` is not a legal option of ``choice``, in the ruleset's own terms."""
    node, ctx = choice.node, choice.ctx
    if isinstance(node, fx.ChooseOption):
        option = next((o for o in node.options if o.items is None and o.text == text), None)
        if option is not None:
            return _why(option.guard_terms, ctx) or f"{text!r} is not allowed now"
        for option in node.options:
            if option.items is not None:
                why = _why_item(option.var, option.items, option.guard_terms, ctx, "", text)
                if why is not None:
                    return why
        return f"there is no option {text!r} at this point"
    if isinstance(node, fx.ChooseItem):
        why = _why_item(node.var, node.items, node.where_terms, ctx, node.label, text)
        if why is not None:
            return why
        what = f" {node.label}" if node.label else ""
        return f"{text!r} is not among the{what} choices here"
    return f"{text!r} is not a legal option here"


def _why_item(
    var: str, items: Any, terms: fx.Terms, ctx: Context, label: str, text: str
) -> str | None:
    """Why the item whose option text is ``text`` is not legal; None if no item has it."""
    env = ctx.env
    saved = env.get(var, _MISSING)
    try:
        for item in items(ctx):
            if option_text(ctx, label, item) == text:
                env[var] = item
                return _why(terms, ctx) or f"{text!r} is not allowed now"
    finally:
        if saved is _MISSING:
            env.pop(var, None)
        else:
            env[var] = saved
    return None


def _why(terms: fx.Terms, ctx: Context) -> str | None:
    for source, fn in terms:
        try:
            holds = fn(ctx)
        except GameError as exc:
            return exc.message
        if not holds:
            why = getattr(fn, "why", None)
            if why is not None:
                return why(ctx)
            return f"the condition `{source}` does not hold"
    return None


_MISSING = object()


def do_action(ctx: Context, action: str, args: dict[str, Any]) -> Run:
    """Do ``action`` if its requirements hold; ``args`` (a dict of the caller's own)
    becomes the locals of its effect."""
    definition = ctx.rules.ruleset.actions.get(action)
    if definition is None:
        raise RuleError(f"there is no action {action!r}")
    env = {**definition.defaults, **args} if definition.defaults else args
    if definition.requires:  # all at once; their message only if one fails
        checker = definition.checker
        if checker is None or checker(ctx, *map(env.get, definition.params)) >= 0:
            failed = ctx.rules.failed_requirement(ctx, action, args)
            if failed is not None:
                raise GameError(f"cannot {definition.label}: {failed}")
    effect = definition.effect
    if effect is None:
        return
    body = effect.body
    run = body.run  # its compiled block once it has run: ``run_seq`` then only calls it
    try:  # ``run_effect`` written out: one generator less under every action
        yield from run(ctx.nested(env)) if run else run_seq(body, ctx.nested(env))
    except StopEffect:
        return


def emit(ctx: Context, event: str, args: dict[str, Any]) -> Run:
    for trigger in ctx.rules.triggers_on.get(event, ()):
        if not ctx.rules.may_fire(ctx, trigger):
            continue
        yield from run_effect(trigger.effect, ctx.nested(dict(args)))


# the statements that run as generators of their own, by kind (``run_node`` and the
# compiled blocks of ``effect_code.py`` call them directly)
RUNNERS: dict[type, Any] = {
    fx.ChooseItem: _choose_item,
    fx.ChooseOption: _choose_option,
    fx.Do: _do,
    fx.Emit: _emit,
    fx.Act: _act,
}


_RUNTIME = Runtime(run_node, _iterable, RUNNERS, do_action, emit)
fx.compile_blocks_with(lambda seq: compile_block(seq, _RUNTIME))  # a stored ruleset's


class _Pass:
    def __repr__(self) -> str:
        return "pass"


_PASS = _Pass()
