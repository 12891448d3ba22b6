"""A block of effect statements turned into one Python function, the first time it
runs or when its ruleset is stored (``ruleset/stored.py``): a generator where a
decision can happen inside it (a choice, `do`, `emit`, `act as`), else a plain
function that runs the block at once and returns ``()``, so the caller's ``yield
from`` costs no generator.

The executor (``executor.py``) walks effect nodes; for the statements that only
compute and change the state (calls, `let`, assignments, `if`, `for`, `repeat`,
`while`) that walk is most of its work. Here such statements become straight Python
(`if`/`for`/`while` blocks, calls of the primitives and of the expressions'
functions); `do` and `emit` work out their arguments inline and run the action's
or the triggers' generator; choices and `act as` run their own generator from the
executor (``Runtime.runners``), and the rest (`stop`, a `simultaneous for`, a `do` of
an action held in a local) is handed back to ``executor.run_node``, unchanged. The
semantics are the executor's: one step of the budget per statement (ten per turn of
a `while`, one per item of a `for`), locals in ``ctx.env``, the innermost failing
statement named in a rule error, a ``TypeError`` reported as a rule error. A block
Python cannot compile (too deeply nested) keeps being walked by the executor.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from interpreter.errors import GameError, RuleError
from interpreter.language import codegen as cg
from interpreter.language import effects as fx
from interpreter.language.codegen import Emitter
from interpreter.language.runtime import StepBudgetExceeded

MAX_INLINE_DEPTH = 3  # nested blocks written inline; deeper ones run as blocks of their own
_CTX = cg.name(cg.CTX)


@dataclass(frozen=True)
class Runtime:
    """The executor's functions a compiled block calls (handed in: the executor
    imports this module)."""

    run_node: Callable  # run_node(node, ctx): any statement, as the executor walks it
    iterable: Callable  # what a `for` walks
    runners: dict[type, Callable]  # a statement's own generator by kind: fn(node, ctx)
    do_action: Callable  # do_action(ctx, action, args)
    emit: Callable  # emit(ctx, event, args)


def compile_block(seq: fx.Seq, runtime: Runtime) -> Callable | None:
    """``block(ctx)``: running ``seq``, a generator or ``()`` (module docstring); None
    if Python cannot compile it.

    It has a namespace of its own and calls the expressions' functions: measured, that
    is faster than the expressions' trees inlined in the ruleset's namespace (issue 13,
    benchmarks/README.md)."""
    emitter = Emitter()
    writer = _BlockWriter(emitter, runtime)
    body = writer.statements(seq.body, 0)
    if writer.decides:
        body += [ast.Return(None), ast.Expr(ast.Yield(None))]  # a generator, even if empty
    else:  # no decision can happen inside: a plain function, run at once, yields nothing
        body.append(ast.Return(ast.Tuple([], ast.Load())))
    try:
        return emitter.define(body, (), label="block")
    except (SyntaxError, RecursionError, ValueError):
        return None


def repeat_count(count: Any) -> range:
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise RuleError(f"repeat needs a count of 0 or more, not {count!r}")
    return range(count)


def located(exc: GameError, node: fx.Node) -> GameError:
    """``exc`` named at ``node`` unless a statement inside it already named it (an
    exhausted step budget: at the rule that spent it, ``StepBudgetExceeded.locate``)."""
    if type(exc) is StepBudgetExceeded:
        exc.locate(node.at, type(node).__name__, exc.__traceback__)
    elif getattr(exc, "where", None) is None:
        exc.where = node.at
    return exc


def located_type_error(exc: TypeError, node: fx.Node) -> GameError:
    return located(cg.wrong_kind(exc), node)


class _BlockWriter:
    def __init__(self, emitter: Emitter, runtime: Runtime):
        self.emitter = emitter
        self.runtime = runtime
        self.serial = 0
        self.decides = False  # a statement may wait for a decision (a ``yield from``)

    def _bind(self, value: Any, hint: str = "c") -> ast.Name:
        return self.emitter.bind(value, hint)

    def _value(self, fn: Callable | None) -> ast.expr:
        """An expression: a call of its function."""
        return cg.call(self._bind(fn, "expr"), _CTX)

    def _tick(self, steps: int = 1) -> list[ast.stmt]:
        """``ctx.tick(steps)`` written out: ``ctx.budget[0] -= steps``, and the call
        only to raise the budget's error."""
        budget = ast.Subscript(cg.ctx_attr("budget"), ast.Constant(0), ast.Load())
        spend = ast.AugAssign(
            ast.Subscript(cg.ctx_attr("budget"), ast.Constant(0), ast.Store()),
            ast.Sub(),
            ast.Constant(steps),
        )
        spent = ast.Compare(budget, [ast.Lt()], [ast.Constant(0)])
        return [spend, ast.If(spent, [ast.Expr(cg.method(_CTX, "tick", ast.Constant(0)))], [])]

    def statements(self, nodes: tuple[fx.Node, ...], depth: int, extra: int = 0) -> list[ast.stmt]:
        """The statements of a block, their steps (one each, and ``extra``: a loop's
        own) spent at once on entering it: the same bound as one at a time, a block
        being straight code between the loops that tick again."""
        steps = len(nodes) + extra
        out: list[ast.stmt] = self._tick(steps) if steps else []
        for node in nodes:
            out.append(self._guarded(node, self._statement(node, depth)))
        return out

    def block(self, seq: fx.Seq | None, depth: int, extra: int = 0) -> list[ast.stmt]:
        nodes = seq.body if seq is not None else ()
        return self.statements(nodes, depth, extra) or [ast.Pass()]

    def _guarded(self, node: fx.Node, body: list[ast.stmt]) -> ast.stmt:
        """``body``, with a rule error named at ``node`` (the executor's ``run_seq``)."""
        name = self._bind(node, "node")
        handlers = [
            ast.ExceptHandler(
                self._bind(GameError, "GameError"),
                "exc",
                [ast.Raise(cg.call(self._bind(located), cg.name("exc"), name), None)],
            )
        ]
        if not self._delegated(node):  # a TypeError of the rules' values, not of a callee
            handlers.append(self._wrong_kind(node))
        return ast.Try(body, handlers, [], [])

    def _wrong_kind(self, node: fx.Node) -> ast.ExceptHandler:
        """``except TypeError``: a value of the wrong kind, named at ``node``."""
        located = cg.call(self._bind(located_type_error), cg.name("exc"), self._bind(node, "node"))
        return ast.ExceptHandler(
            cg.name("TypeError"), "exc", [ast.Raise(located, ast.Constant(None))]
        )

    @staticmethod
    def _delegated(node: fx.Node) -> bool:
        kind = type(node)
        if kind is fx.For:
            return node.simultaneous
        return kind not in (fx.Call, fx.Assign, fx.Let, fx.If, fx.Repeat, fx.While)

    def _call_action(self, node: fx.Do | fx.Emit) -> list[ast.stmt]:
        """``do a(…)`` or ``emit e(…)``: the arguments worked out here (a ``TypeError``
        among them named at the statement), then the action's or the triggers' own
        generator, whose effects name their own errors."""
        self.serial += 1
        args = f"_args{self.serial}"
        values = ast.Dict(
            [ast.Constant(n) for n, _ in node.args], [self._value(f) for _, f in node.args]
        )
        assign = ast.Assign([ast.Name(args, ast.Store())], values)
        worked_out = ast.Try([assign], [self._wrong_kind(node)], [], [])
        if type(node) is fx.Do:
            run, name = self._bind(self.runtime.do_action, "do_action"), node.action
        else:
            run, name = self._bind(self.runtime.emit, "emit"), node.event
        call = cg.call(run, _CTX, ast.Constant(name), cg.name(args))
        return [worked_out, self._yield_from(call)]

    def _yield_from(self, generator: ast.expr) -> ast.stmt:
        """``yield from generator``: what may wait for a decision."""
        self.decides = True
        return ast.Expr(ast.YieldFrom(generator))

    def _statement(self, node: fx.Node, depth: int) -> list[ast.stmt]:
        kind = type(node)
        env = cg.ctx_attr("env")
        compound = kind in (fx.If, fx.For, fx.Repeat, fx.While)
        if (kind is fx.Do and not node.dynamic) or kind is fx.Emit:
            return self._call_action(node)
        if self._delegated(node) or (compound and depth >= MAX_INLINE_DEPTH):
            runner = self.runtime.runners.get(kind, self.runtime.run_node)
            run = cg.call(
                self._bind(runner, runner.__name__.strip("_")), self._bind(node, "node"), _CTX
            )
            return [self._yield_from(run)]
        if kind is fx.Call:
            impl = self._bind(node.primitive.impl, f"{node.primitive.name}_")
            args = [self._value(f) for f in node.args]
            named = {n: self._value(f) for n, f in node.named}
            return [ast.Expr(cg.call(impl, _CTX, *args, **named))]
        if kind is fx.Assign:
            setter = self._bind(node.setter, "set")
            value = self._value(node.value)
            return [ast.Expr(cg.call(setter, _CTX, ast.Constant(node.op), value))]
        if kind is fx.Let:
            target = ast.Subscript(env, ast.Constant(node.var), ast.Store())
            return [ast.Assign([target], self._value(node.value))]
        if kind is fx.If:
            otherwise = self.block(node.otherwise, depth + 1) if node.otherwise else []
            for cond, body in reversed(node.branches):
                otherwise = [ast.If(self._value(cond), self.block(body, depth + 1), otherwise)]
            return otherwise
        self.serial += 1
        item = f"_item{self.serial}"
        if kind is fx.For:
            items = cg.call(self._bind(self.runtime.iterable, "iterable"), self._value(node.items))
            store = ast.Subscript(env, ast.Constant(node.var), ast.Store())
            body: list[ast.stmt] = [ast.Assign([store], cg.name(item))]
            if node.where is not None:
                inner = self.block(node.body, depth + 1)
                body += [*self._tick(), ast.If(self._value(node.where), inner, [])]
            else:  # the item's step spent with its body's
                body += self.block(node.body, depth + 1, extra=1)
            return [ast.For(ast.Name(item, ast.Store()), items, body, [])]
        if kind is fx.Repeat:
            count = cg.call(self._bind(repeat_count), self._value(node.count))
            body = self.block(node.body, depth + 1, extra=1)
            return [ast.For(ast.Name(item, ast.Store()), count, body, [])]
        # While
        body = self.block(node.body, depth + 1, extra=10)
        return [ast.While(self._value(node.cond), body, [])]
