"""Check and compile effect-language trees into Python closures, in one walk.

Each expression becomes ``fn(ctx) -> value`` and each effect a tree of nodes
(``effects.py``). While walking, names are resolved against the ruleset's
``Symbols``, arities and static types are checked, and every problem is collected
with its position inside the text; compilation goes on after an error so that all
problems of a text are reported at once.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lark import Token, Tree

from interpreter.errors import GameError
from interpreter.language import effects as fx
from interpreter.language.parser import SyntaxProblem, parse
from interpreter.language.registry import REGISTRY, Primitive, Registry
from interpreter.language.symbols import Symbols
from interpreter.language.values import (
    ACTION,
    ANY,
    BOOL,
    COUNTER,
    MAP,
    NONE,
    NUMBER,
    PIECE,
    PLAYER,
    TEXT,
    TYPE_NAMES,
    ZONE,
    ActionRef,
    Piece,
    Player,
    ZoneRef,
    compatible,
    describe,
    is_list,
    item_type,
    list_of,
    type_of,
)

Fn = Callable[[Any], Any]
MAX_SEATS = 16
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass
class Problem:
    """A problem at a 1-based (line, column) of the compiled text."""

    line: int
    column: int
    message: str
    hint: str | None = None
    kind: str = "type"
    related: tuple[int, int] | None = None  # a position the hint names as {at}


@dataclass
class Compiled:
    type: str
    fn: Fn


class _Abort(Exception):
    """Raised inside the walk after a problem was recorded, to skip a subtree."""


def did_you_mean(name: str, candidates: set[str] | list[str]) -> str | None:
    """Close names that can be written where ``name`` was (identifiers only)."""
    writable = sorted(c for c in candidates if _IDENTIFIER.match(str(c)))
    close = difflib.get_close_matches(name, writable, n=3, cutoff=0.7)
    if not close:
        return None
    return "did you mean " + " or ".join(f"`{c}`" for c in close) + "?"


class Compiler:
    """Compiles texts against one ruleset's declarations."""

    def __init__(self, symbols: Symbols, registry: Registry = REGISTRY):
        self.symbols = symbols
        self.registry = registry
        self.problems: list[Problem] = []
        self._prefix = ""
        self._counter = 0
        self.functions_in_progress: set[str] = set()
        self.seat_keys = {
            name: tuple(f"{name}#{i}" for i in range(MAX_SEATS))
            for name, per in symbols.counters.items()
            if per == "player"
        }
        self.seat_keys.update(
            {
                name: tuple(f"{name}#{i}" for i in range(MAX_SEATS))
                for name, (per, _) in symbols.variables.items()
                if per == "player"
            }
        )
        self.zone_keys = {
            name: tuple(ZoneRef(f"{name}#{i}") for i in range(MAX_SEATS))
            for name, per in symbols.zones.items()
            if per == "player"
        }

    # ------------------------------------------------------------------ API
    def expression(
        self, text: str, scope: dict[str, str] | None = None, expect: str | None = None
    ) -> tuple[Compiled | None, list[Problem]]:
        """Compile a condition or value; ``expect`` is the type the field needs."""
        self.problems = []
        self._text = text
        tree = self._parse(text, "expr")
        if tree is None:
            return None, self.problems
        try:
            compiled = self._expr(tree, dict(scope or {}))
        except _Abort:
            return None, self.problems
        if expect and not compatible(expect, compiled.type):
            line, col = _pos(tree)
            hint = None
            if expect == BOOL and compiled.type == NUMBER:
                hint = "compare the number, e.g. `… > 0`"
            self._problem(
                line,
                col,
                f"expected {describe(expect)} here, but this is {describe(compiled.type)}",
                hint,
            )
        return (compiled if not self.problems else None), self.problems

    def effect(
        self, text: str, scope: dict[str, str] | None = None, node_prefix: str = "effect"
    ) -> tuple[fx.CompiledEffect | None, list[Problem]]:
        """Compile an effect (a sequence of statements)."""
        self.problems = []
        self._prefix = node_prefix
        self._counter = 0
        self._text = text
        tree = self._parse(text, "effect")
        if tree is None:
            return None, self.problems
        nodes: dict[str, fx.Node] = {}
        body = self._block(tree.children, dict(scope or {}), nodes)
        if self.problems:
            return None, self.problems
        return fx.CompiledEffect(text, body, nodes), self.problems

    # ------------------------------------------------------------ helpers
    def _parse(self, text: str, start: str) -> Tree | None:
        if not isinstance(text, str):
            self._problem(1, 1, "expected a text", kind="syntax")
            return None
        try:
            return parse(text, start)
        except SyntaxProblem as exc:
            self.problems.append(
                Problem(exc.line, exc.column, exc.message, exc.hint, "syntax", exc.related)
            )
            return None

    def _problem(
        self, line: int, column: int, message: str, hint: str | None = None, kind: str = "type"
    ) -> None:
        self.problems.append(Problem(line, column, message, hint, kind))

    def _fail(
        self, node: Tree | Token, message: str, hint: str | None = None, kind: str = "type"
    ) -> None:
        line, col = _pos(node)
        self._problem(line, col, message, hint, kind)
        raise _Abort

    def _node_id(self) -> str:
        self._counter += 1
        return f"{self._prefix}#{self._counter}"

    # --------------------------------------------------------- statements
    def _block(
        self, statements: list[Any], scope: dict[str, str], nodes: dict[str, fx.Node]
    ) -> fx.Seq:
        compiled: list[fx.Node] = []
        for statement in statements:
            if statement is None or (
                isinstance(statement, Tree) and statement.data == "empty_stmt"
            ):
                continue
            try:
                node = self._statement(statement, scope, nodes)
            except _Abort:
                continue
            if node is not None:
                nodes[node.id] = node
                compiled.append(node)
        seq = fx.Seq(self._node_id(), tuple(compiled))
        nodes[seq.id] = seq
        return seq

    def _sub_block(self, tree: Tree, scope: dict[str, str], nodes: dict[str, fx.Node]) -> fx.Seq:
        return self._block(tree.children, dict(scope), nodes)

    def _statement(
        self, tree: Tree, scope: dict[str, str], nodes: dict[str, fx.Node]
    ) -> fx.Node | None:
        kind = tree.data
        ch = tree.children
        if kind == "if_stmt":
            branches = [(self._cond(ch[0], scope), self._sub_block(ch[1], scope, nodes))]
            otherwise = None
            for extra in ch[2:]:
                if extra is None:
                    continue
                if extra.data == "elif_clause":
                    branches.append(
                        (
                            self._cond(extra.children[0], scope),
                            self._sub_block(extra.children[1], scope, nodes),
                        )
                    )
                else:
                    otherwise = self._sub_block(extra.children[0], scope, nodes)
            return fx.If(self._node_id(), tuple(branches), otherwise)
        if kind == "for_stmt":
            simultaneous, name, coll, where, block = ch
            items = self._collection(coll, scope)
            inner = {**scope, str(name): item_type(items.type)}
            where_fn = self._cond(where.children[0], inner) if where is not None else None
            return fx.For(
                self._node_id(),
                str(name),
                items.fn,
                where_fn,
                self._sub_block(block, inner, nodes),
                simultaneous is not None,
            )
        if kind == "repeat_stmt":
            count = self._typed(ch[0], scope, NUMBER, "the repeat count")
            return fx.Repeat(self._node_id(), count.fn, self._sub_block(ch[1], scope, nodes))
        if kind == "while_stmt":
            return fx.While(
                self._node_id(), self._cond(ch[0], scope), self._sub_block(ch[1], scope, nodes)
            )
        if kind == "let_stmt":
            name, declared, value = ch
            compiled = self._expr(value, scope)
            if str(name) in self.registry.names:
                self._fail(name, f"`{name}` is a built-in name and cannot be rebound")
            kind_ = compiled.type
            if declared is not None:
                kind_ = self._type_ref(declared)
                if not compatible(kind_, compiled.type):
                    self._fail(
                        value,
                        f"`{name}` is declared {describe(kind_)}, but this is "
                        f"{describe(compiled.type)}",
                    )
            scope[str(name)] = kind_
            return fx.Let(self._node_id(), str(name), compiled.fn)
        if kind == "assign_stmt":
            return self._assign(tree, scope)
        if kind == "choose_item":
            return self._choose_item(tree, scope, nodes)
        if kind == "choose_option":
            return self._choose_option(tree, scope, nodes)
        if kind == "do_stmt":
            return self._do(tree, scope)
        if kind == "emit_stmt":
            return self._emit(tree, scope)
        if kind == "call_stmt":
            return self._call_statement(tree, scope)
        if kind == "stop_stmt":
            return fx.Stop(self._node_id())
        if kind == "act_stmt":
            player = self._typed(ch[0], scope, PLAYER, "`act as`")
            return fx.Act(self._node_id(), player.fn, self._sub_block(ch[1], scope, nodes))
        self._fail(tree, f"unknown statement {kind}")
        return None

    def _terms(self, tree: Tree, scope: dict[str, str]) -> fx.Terms:
        """The `and`-parts of a condition, each with its source text (for explanations)."""
        parts: list[Tree] = []

        def flatten(node: Tree) -> None:
            if isinstance(node, Tree) and node.data == "and_op":
                for child in node.children:
                    flatten(child)
            else:
                parts.append(node)

        flatten(tree)
        saved = list(self.problems)
        out = []
        for part in parts:
            try:
                fn = self._expr(part, scope).fn
            except _Abort:
                continue
            out.append((self._source(part), fn))
        self.problems = saved
        return tuple(out)

    def _source(self, node: Tree | Token) -> str:
        meta = getattr(node, "meta", None)
        if isinstance(node, Token):
            return str(node)
        if meta is None or getattr(meta, "empty", True):
            return "…"
        return self._text[meta.start_pos : meta.end_pos]

    def _type_ref(self, tree: Tree) -> str:
        parts = [str(p) for p in tree.children if p is not None]
        text = ":".join(parts)
        if text not in TYPE_NAMES:
            self._fail(
                tree,
                f"unknown type `{text}`",
                did_you_mean(text, set(TYPE_NAMES)) or f"types: {', '.join(TYPE_NAMES)}",
                kind="name",
            )
        return text

    def _cond(self, tree: Tree, scope: dict[str, str]) -> Fn:
        return self._typed(tree, scope, BOOL, "the condition").fn

    def _typed(self, tree: Tree, scope: dict[str, str], expect: str, what: str) -> Compiled:
        compiled = self._expr(tree, scope)
        if not compatible(expect, compiled.type):
            hint = (
                "compare the number, e.g. `… > 0`"
                if expect == BOOL and compiled.type == NUMBER
                else None
            )
            if expect == BOOL and is_list(compiled.type):
                hint = "use `any(…)` to ask whether a collection has items"
            self._fail(
                tree,
                f"expected {describe(expect)} for {what}, but this is {describe(compiled.type)}",
                hint,
            )
        return compiled

    def _collection(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        compiled = self._expr(tree, scope)
        if compiled.type == ZONE:
            fn = compiled.fn

            def zone_pieces(ctx: Any, fn: Fn = fn) -> tuple:
                return tuple(Piece(p) for p in ctx.state.zones.get(fn(ctx), ()))

            return Compiled(list_of(PIECE), zone_pieces)
        if not is_list(compiled.type) and compiled.type != ANY:
            self._fail(tree, f"expected a collection here, but this is {describe(compiled.type)}")
        return compiled

    def _assign(self, tree: Tree, scope: dict[str, str]) -> fx.Assign:
        target, op, value = tree.children
        compiled = self._expr(value, scope)
        setter, target_type, text = self._target(target, scope)
        if op in ("+=", "-=") and target_type not in (NUMBER, ANY):
            self._fail(target, f"`{op}` needs a number, but `{text}` is {describe(target_type)}")
        if op in ("+=", "-=") and compiled.type not in (NUMBER, ANY):
            self._fail(value, f"`{op}` needs a number, but this is {describe(compiled.type)}")
        if op == "=" and not compatible(target_type, compiled.type):
            self._fail(
                value,
                f"`{text}` holds {describe(target_type)}, but this is {describe(compiled.type)}",
            )
        return fx.Assign(self._node_id(), setter, str(op), compiled.fn, text)

    def _target(self, tree: Tree | Token, scope: dict[str, str]) -> tuple[Callable, str, str]:
        """A setter ``(ctx, op, value)`` for a counter, variable, local or table entry."""
        if isinstance(tree, Tree) and tree.data == "target" and len(tree.children) == 1:
            tree = tree.children[0]
        if isinstance(tree, Token):
            name = str(tree)
            if name in scope:

                def set_local(ctx: Any, op: str, value: Any, name: str = name) -> None:
                    ctx.env[name] = _apply(op, ctx.env.get(name), value, name)

                return set_local, scope[name], name
            if self.symbols.counters.get(name) == "game" or (
                name in self.symbols.variables and self.symbols.variables[name][0] == "game"
            ):
                is_counter = name in self.symbols.counters
                vtype = NUMBER if is_counter else self.symbols.variables[name][1]

                def set_global(
                    ctx: Any, op: str, value: Any, name: str = name, is_counter: bool = is_counter
                ) -> None:
                    if is_counter:
                        ctx.rules.set_counter(ctx, name, None, op, value)
                    else:
                        old = ctx.state.variables.get(name)
                        ctx.state.variables[name] = _apply(op, old, value, name)

                return set_global, vtype, name
            self._unknown(
                tree, name, scope, "cannot be set: it is not a counter, variable or local name"
            )
        if tree.data == "target_attr":
            owner, attr = tree.children
            attr = str(attr)
            owner_fn, owner_type = self._target_value(owner, scope)
            text = f"{_target_text(owner)}.{attr}"
            if owner_type in (PLAYER, ANY) and self.symbols.counters.get(attr) == "player":

                def set_counter(
                    ctx: Any, op: str, value: Any, owner_fn: Fn = owner_fn, attr: str = attr
                ) -> None:
                    ctx.rules.set_counter(ctx, attr, owner_fn(ctx), op, value)

                return set_counter, NUMBER, text
            if (
                owner_type in (PLAYER, ANY)
                and attr in self.symbols.variables
                and self.symbols.variables[attr][0] == "player"
            ):
                keys = self.seat_keys[attr]

                def set_pvar(
                    ctx: Any,
                    op: str,
                    value: Any,
                    owner_fn: Fn = owner_fn,
                    keys: tuple = keys,
                    attr: str = attr,
                ) -> None:
                    key = keys[owner_fn(ctx)]
                    ctx.state.variables[key] = _apply(op, ctx.state.variables.get(key), value, attr)

                return set_pvar, self.symbols.variables[attr][1], text
            if owner_type == MAP:

                def set_key(
                    ctx: Any, op: str, value: Any, owner_fn: Fn = owner_fn, attr: str = attr
                ) -> None:
                    table = owner_fn(ctx)
                    table[attr] = _apply(op, table.get(attr), value, attr)

                return set_key, ANY, text
            self._fail(
                tree,
                f"`{text}` cannot be set",
                "only counters, variables and local tables can be changed",
            )
        if tree.data == "target_index":
            owner, index = tree.children
            owner_fn, owner_type = self._target_value(owner, scope)
            key = self._expr(index, scope)
            text = f"{_target_text(owner)}[…]"
            if owner_type not in (MAP, ANY):
                self._fail(tree, f"`{text}` cannot be set: only local tables can be changed by key")

            def set_index(
                ctx: Any, op: str, value: Any, owner_fn: Fn = owner_fn, key_fn: Fn = key.fn
            ) -> None:
                table = owner_fn(ctx)
                k = key_fn(ctx)
                table[k] = _apply(op, table.get(k), value, str(k))

            return set_index, ANY, text
        self._fail(tree, "this cannot be set")
        raise _Abort

    def _target_value(self, tree: Tree | Token, scope: dict[str, str]) -> tuple[Fn, str]:
        """Compile the owner part of an assignment target as a value."""
        if isinstance(tree, Tree) and tree.data == "target" and len(tree.children) == 1:
            tree = tree.children[0]
        if isinstance(tree, Token):
            compiled = self._name(tree, scope)
        elif tree.data == "target_attr":
            owner_fn, owner_type = self._target_value(tree.children[0], scope)
            compiled = self._attribute(Compiled(owner_type, owner_fn), tree.children[1], tree)
        else:
            owner_fn, owner_type = self._target_value(tree.children[0], scope)
            compiled = self._index(
                Compiled(owner_type, owner_fn), self._expr(tree.children[1], scope), tree
            )
        return compiled.fn, compiled.type

    def _choose_item(
        self, tree: Tree, scope: dict[str, str], nodes: dict[str, fx.Node]
    ) -> fx.ChooseItem:
        may, name, coll, where, by, label, block = tree.children
        items = self._collection(coll, scope)
        inner = {**scope, str(name): item_type(items.type)}
        where_fn = self._cond(where.children[0], inner) if where is not None else None
        terms = self._terms(where.children[0], inner) if where is not None else ()
        by_chance = by is not None and by.data == "by_chance"
        by_fn = None
        if by is not None and not by_chance:
            by_fn = self._typed(by.children[0], scope, PLAYER, "`by`").fn
        if by_chance and may is not None:
            self._fail(tree, "a choice made by chance cannot be declined (`may`)")
        text = _unquote(label.children[0]) if label is not None else ""
        body = self._sub_block(block, inner, nodes)
        return fx.ChooseItem(
            self._node_id(),
            str(name),
            items.fn,
            where_fn,
            terms,
            by_fn,
            text,
            may is not None,
            body,
            by_chance,
        )

    def _choose_option(
        self, tree: Tree, scope: dict[str, str], nodes: dict[str, fx.Node]
    ) -> fx.ChooseOption:
        may, by, *options = tree.children
        if by is not None and by.data == "by_chance":
            self._fail(
                by,
                "a choice between options cannot be made by chance",
                "write `choose x in [...] by chance { … }`",
            )
        by_fn = self._typed(by.children[0], scope, PLAYER, "`by`").fn if by is not None else None
        compiled = []
        seen: set[str] = set()
        for option in options:
            text_token, guard, block = option.children
            text = _unquote(text_token)
            if text in seen:
                self._fail(text_token, f"option {text!r} is offered twice in this choice")
            if not text.strip():
                self._fail(text_token, "an option needs a text")
            seen.add(text)
            guard_fn = self._cond(guard.children[0], scope) if guard is not None else None
            terms = self._terms(guard.children[0], scope) if guard is not None else ()
            compiled.append(fx.Option(text, guard_fn, self._sub_block(block, scope, nodes), terms))
        return fx.ChooseOption(self._node_id(), tuple(compiled), by_fn, may is not None)

    def _named_args(
        self,
        args_tree: Tree | None,
        scope: dict[str, str],
        params: dict[str, str],
        optional: frozenset[str],
        what: str,
        where: Tree | Token,
        unchecked: bool = False,
    ) -> tuple[tuple[str, Fn], ...]:
        given: dict[str, Fn] = {}
        if unchecked:  # the definition itself is broken: check only the values
            return tuple(
                (str(a.children[0]), self._expr(a.children[1], scope).fn)
                for a in _args(args_tree)
                if isinstance(a, Tree) and a.data == "named_arg"
            )
        for arg in _args(args_tree):
            if not (isinstance(arg, Tree) and arg.data == "named_arg"):
                self._fail(
                    arg,
                    f"{what} takes named arguments (`name: value`)",
                    f"its parameters: {', '.join(params) or 'none'}",
                    kind="arity",
                )
            name_token, value = arg.children
            name = str(name_token)
            if name not in params:
                self._fail(
                    name_token,
                    f"{what} has no parameter `{name}`",
                    did_you_mean(name, set(params))
                    or f"its parameters: {', '.join(params) or 'none'}",
                    kind="name",
                )
            if name in given:
                self._fail(name_token, f"parameter `{name}` is given twice", kind="arity")
            compiled = self._expr(value, scope)
            if not compatible(params[name], compiled.type):
                self._fail(
                    value,
                    f"parameter `{name}` of {what} must be "
                    f"{describe(params[name])}, but this is "
                    f"{describe(compiled.type)}",
                )
            given[name] = compiled.fn
        missing = [p for p in params if p not in given and p not in optional]
        if missing:
            self._fail(where, f"{what} needs {', '.join(f'`{m}`' for m in missing)}", kind="arity")
        return tuple(given.items())

    def _do(self, tree: Tree, scope: dict[str, str]) -> fx.Do:
        name, dynamic, given = self._action_args(tree.children[0], tree.children[1], scope)
        return fx.Do(self._node_id(), name, dynamic, given)

    def _action_args(
        self, name_token: Token, args: Tree | None, scope: dict[str, str]
    ) -> tuple[str, bool, tuple[tuple[str, Fn], ...]]:
        """Resolve an action (by id or a local holding one) and compile its arguments."""
        name = str(name_token)
        if name in scope:
            if scope[name] not in (ACTION, ANY):
                self._fail(name_token, f"`{name}` is {describe(scope[name])}, not an action")
            compiled = []
            for arg in _args(args):
                if not (isinstance(arg, Tree) and arg.data == "named_arg"):
                    self._fail(arg, "an action takes named arguments (`name: value`)", kind="arity")
                compiled.append((str(arg.children[0]), self._expr(arg.children[1], scope).fn))
            return name, True, tuple(compiled)
        signature = self.symbols.actions.get(name)
        if signature is None:
            self._unknown(
                name_token,
                name,
                scope,
                "is not an action of this ruleset",
                candidates=set(self.symbols.actions),
            )
        given = self._named_args(
            args,
            scope,
            signature.params,
            signature.optional,
            f"action `{name}`",
            name_token,
            signature.unchecked,
        )
        return name, False, given

    def _x_can_expr(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        name, dynamic, given = self._action_args(tree.children[0], tree.children[1], scope)
        names = tuple(n for n, _ in given)
        fns = tuple(f for _, f in given)

        def why(ctx: Any) -> str | None:
            action = ctx.env[name] if dynamic else name
            if action is None:
                return "there is no action"
            args = {n: f(ctx) for n, f in zip(names, fns, strict=True)}
            return ctx.rules.failed_requirement(ctx, str(action), args)

        def can(ctx: Any) -> bool:
            return why(ctx) is None

        can.why = why  # type: ignore[attr-defined]
        return Compiled(BOOL, can)

    def _emit(self, tree: Tree, scope: dict[str, str]) -> fx.Emit:
        name_token, args = tree.children
        name = str(name_token)
        signature = self.symbols.events.get(name)
        if signature is None:
            self._fail(
                name_token,
                f"`{name}` is not an event of this ruleset",
                did_you_mean(name, set(self.symbols.events)) or "declare it under `events:`",
                kind="name",
            )
        given = self._named_args(
            args,
            scope,
            signature.params,
            signature.optional,
            f"event `{name}`",
            name_token,
            signature.unchecked,
        )
        return fx.Emit(self._node_id(), name, given)

    def _call_statement(self, tree: Tree, scope: dict[str, str]) -> fx.Call:
        name_token, args = tree.children
        name = str(name_token)
        primitive = self.registry.statements.get(name)
        if primitive is None:
            if name in self.registry.functions or name in self.symbols.functions:
                self._fail(
                    name_token,
                    f"`{name}` gives a value; it is not an effect",
                    "use it inside an effect, e.g. `let x = …` or `if …`",
                    kind="type",
                )
            if name in self.symbols.actions:
                self._fail(
                    name_token, f"`{name}` is an action", f"write `do {name}(…)`", kind="type"
                )
            self._fail(
                name_token,
                f"unknown effect `{name}`",
                did_you_mean(name, set(self.registry.statements)),
                kind="name",
            )
        positional, named = self._primitive_args(primitive, args, scope, name_token)
        return fx.Call(self._node_id(), primitive, positional, named)

    # -------------------------------------------------------- expressions
    def _expr(self, tree: Tree | Token, scope: dict[str, str]) -> Compiled:
        if isinstance(tree, Token):
            if tree.type == "NAME":
                return self._name(tree, scope)
            self._fail(tree, f"unexpected {tree!s}")
        method = getattr(self, f"_x_{tree.data}", None)
        if method is None:
            self._fail(tree, f"unsupported expression {tree.data}")
        return method(tree, scope)

    def _x_number(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        value = int(tree.children[0])
        if abs(value) > 10**12:
            self._fail(tree, "number is too large", "numbers in rulesets are below 10^12")
        return Compiled(NUMBER, lambda ctx, v=value: v)

    def _x_string(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        value = _unquote(tree.children[0])
        return Compiled(TEXT, lambda ctx, v=value: v)

    def _x_true(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        return Compiled(BOOL, lambda ctx: True)

    def _x_false(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        return Compiled(BOOL, lambda ctx: False)

    def _x_none(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        return Compiled(NONE, lambda ctx: None)

    def _x_name(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        return self._name(tree.children[0], scope)

    def _x_list(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        items = [self._expr(c, scope) for c in tree.children if c is not None]
        types = {c.type for c in items}
        inner = types.pop() if len(types) == 1 else ANY
        fns = tuple(c.fn for c in items)
        return Compiled(list_of(inner), lambda ctx: tuple(f(ctx) for f in fns))

    def _x_neg(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        inner = self._typed(tree.children[0], scope, NUMBER, "`-`")
        fn = inner.fn
        return Compiled(NUMBER, lambda ctx: -fn(ctx))

    def _x_not_op(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        fn = self._cond(tree.children[0], scope)
        return Compiled(BOOL, lambda ctx: not fn(ctx))

    def _x_and_op(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        a, b = (self._cond(c, scope) for c in tree.children)
        return Compiled(BOOL, lambda ctx: a(ctx) and b(ctx))

    def _x_or_op(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        a, b = (self._cond(c, scope) for c in tree.children)
        return Compiled(BOOL, lambda ctx: a(ctx) or b(ctx))

    def _x_if_expr(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        cond = self._cond(tree.children[0], scope)
        yes, no = (self._expr(c, scope) for c in tree.children[1:])
        kind = yes.type if compatible(yes.type, no.type) and yes.type != NONE else no.type
        if yes.type != no.type:
            kind = yes.type if no.type == NONE else (no.type if yes.type == NONE else ANY)
        y, n = yes.fn, no.fn
        return Compiled(kind, lambda ctx: y(ctx) if cond(ctx) else n(ctx))

    def _x_compare(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        left_tree, op_token, right_tree = tree.children
        left, right = self._expr(left_tree, scope), self._expr(right_tree, scope)
        op = str(op_token)
        a, b = left.fn, right.fn
        if op in ("==", "!="):
            if not (compatible(left.type, right.type) or compatible(right.type, left.type)):
                self._fail(
                    op_token,
                    f"comparing {describe(left.type)} with "
                    f"{describe(right.type)} is always "
                    f"{'false' if op == '==' else 'true'}",
                )
            if op == "==":
                return Compiled(BOOL, lambda ctx: a(ctx) == b(ctx))
            return Compiled(BOOL, lambda ctx: a(ctx) != b(ctx))
        for side, tree_ in ((left, left_tree), (right, right_tree)):
            if side.type not in (NUMBER, ANY, TEXT) and not is_list(side.type):
                self._fail(tree_, f"`{op}` compares numbers, but this is {describe(side.type)}")
        compare = {"<": _lt, "<=": _le, ">": _gt, ">=": _ge}[op]
        return Compiled(BOOL, lambda ctx: compare(a(ctx), b(ctx)))

    def _x_arith(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        left_tree, op_token, right_tree = tree.children
        left, right = self._expr(left_tree, scope), self._expr(right_tree, scope)
        op = str(op_token)
        a, b = left.fn, right.fn
        if op == "+" and is_list(left.type) and is_list(right.type):
            inner = left.type if left.type == right.type else list_of(ANY)
            return Compiled(inner, lambda ctx: tuple(a(ctx)) + tuple(b(ctx)))
        for side, tree_ in ((left, left_tree), (right, right_tree)):
            if side.type not in (NUMBER, ANY):
                hint = "use count(…) for the size of a collection" if is_list(side.type) else None
                self._fail(
                    tree_, f"`{op}` works on numbers, but this is {describe(side.type)}", hint
                )
        operation = _ARITHMETIC[op]
        return Compiled(NUMBER, lambda ctx: operation(a(ctx), b(ctx)))

    def _x_attr(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        owner = self._expr(tree.children[0], scope)
        return self._attribute(owner, tree.children[1], tree)

    def _x_index(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        owner = self._expr(tree.children[0], scope)
        key = self._expr(tree.children[1], scope)
        return self._index(owner, key, tree)

    def _x_call(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        name_token, args = tree.children
        name = str(name_token)
        if name in self.symbols.functions:
            return self._user_call(name_token, args, scope)
        primitive = self.registry.functions.get(name)
        if primitive is None:
            if name in self.registry.statements:
                self._fail(
                    name_token,
                    f"`{name}` is an effect; it gives no value",
                    "effects stand in `effect:` fields, not in conditions or values",
                )
            self._fail(
                name_token,
                f"unknown function `{name}`",
                did_you_mean(name, set(self.registry.functions) | set(self.symbols.functions)),
                kind="name",
            )
        positional, named = self._primitive_args(primitive, args, scope, name_token)
        impl = primitive.impl
        result_type = primitive.returns or ANY
        shortcut = _short_circuit(name, positional, named)
        if shortcut is not None:
            if name == "first":
                result_type = item_type(self._last_arg_types[0])
            return Compiled(result_type, shortcut)
        if primitive.returns_item_of is not None and positional:
            result_type = self._last_arg_types[primitive.returns_item_of]
            result_type = item_type(result_type) if is_list(result_type) else ANY
        if primitive.returns_type_of is not None and positional:
            result_type = self._last_arg_types[primitive.returns_type_of]
        if named:
            names = tuple(n for n, _ in named)
            nfns = tuple(f for _, f in named)

            def call_named(ctx: Any) -> Any:
                return impl(
                    ctx,
                    *(f(ctx) for f in positional),
                    **{n: f(ctx) for n, f in zip(names, nfns, strict=True)},
                )

            return Compiled(result_type, call_named)
        if len(positional) == 1:
            (p0,) = positional
            return Compiled(result_type, lambda ctx: impl(ctx, p0(ctx)))
        if len(positional) == 2:
            p0, p1 = positional
            return Compiled(result_type, lambda ctx: impl(ctx, p0(ctx), p1(ctx)))
        return Compiled(result_type, lambda ctx: impl(ctx, *(f(ctx) for f in positional)))

    # ------------------------------------------------------------- calls
    def _primitive_args(
        self, primitive: Primitive, args: Tree | None, scope: dict[str, str], where: Token
    ) -> tuple[tuple[Fn, ...], tuple[tuple[str, Fn], ...]]:
        params = primitive.params
        given = _args(args)
        positional: list[Fn] = []
        named: list[tuple[str, Fn]] = []
        types: list[str] = []
        seen_named = False
        filled: set[str] = set()
        for index, arg in enumerate(given):
            if isinstance(arg, Tree) and arg.data == "named_arg":
                seen_named = True
                pname = str(arg.children[0])
                param = next((p for p in params if p.name == pname), None)
                if param is None:
                    self._fail(
                        arg.children[0],
                        f"`{primitive.name}` has no parameter `{pname}`",
                        did_you_mean(pname, {p.name for p in params})
                        or f"usage: {primitive.signature()}",
                        kind="arity",
                    )
                if pname in filled:
                    self._fail(arg.children[0], f"parameter `{pname}` is given twice", kind="arity")
                compiled = self._argument(param.type, arg.children[1], scope, primitive, pname)
                named.append((pname, compiled.fn))
                filled.add(pname)
                continue
            if seen_named:
                self._fail(arg, "positional arguments must come before named ones", kind="arity")
            if index >= len(params):
                self._fail(
                    arg,
                    f"`{primitive.name}` takes at most {len(params)} argument"
                    f"{'s' if len(params) != 1 else ''}",
                    f"usage: {primitive.signature()}",
                    kind="arity",
                )
            param = params[index]
            compiled = self._argument(param.type, arg, scope, primitive, param.name)
            positional.append(compiled.fn)
            types.append(compiled.type)
            filled.add(param.name)
        missing = [p.name for p in params if p.required and p.name not in filled]
        if missing:
            needed = sum(p.required for p in params)
            self._fail(
                where,
                f"`{primitive.name}` needs {needed} argument{'s' if needed != 1 else ''}, "
                f"missing {', '.join(f'`{m}`' for m in missing)}",
                f"usage: {primitive.signature()}",
                kind="arity",
            )
        self._last_arg_types = types
        return tuple(positional), tuple(named)

    def _argument(
        self, expected: str, arg: Tree, scope: dict[str, str], primitive: Primitive, pname: str
    ) -> Compiled:
        if isinstance(arg, Tree) and arg.data == "binder_arg":
            compiled = self._binder(arg, scope)
        elif isinstance(arg, Tree) and arg.data == "mapper_arg":
            compiled = self._mapper(arg, scope)
        elif expected == COUNTER:
            token = arg.children[0] if isinstance(arg, Tree) and arg.data == "name" else None
            name = str(token) if token is not None else ""
            if token is None or name not in self.symbols.counters:
                self._fail(
                    arg,
                    f"`{primitive.name}` needs a counter name here",
                    did_you_mean(name, set(self.symbols.counters))
                    or f"counters: {', '.join(sorted(self.symbols.counters))}",
                    kind="name",
                )
            return Compiled(COUNTER, lambda ctx, n=name: n)
        else:
            compiled = self._expr(arg, scope)
        if is_list(expected) and compiled.type == ZONE:
            fn = compiled.fn
            compiled = Compiled(
                list_of(PIECE),
                lambda ctx, fn=fn: tuple(Piece(p) for p in ctx.state.zones.get(fn(ctx), ())),
            )
        if not compatible(expected, compiled.type):
            hint = None
            if is_list(expected) and not is_list(compiled.type):
                hint = f"`{primitive.name}` works on a collection"
            self._fail(
                arg,
                f"argument `{pname}` of `{primitive.name}` must be "
                f"{describe(expected)}, but this is {describe(compiled.type)}",
                hint,
            )
        return compiled

    def _binder(self, arg: Tree, scope: dict[str, str]) -> Compiled:
        name, coll, where = arg.children
        items = self._collection(coll, scope)
        inner = {**scope, str(name): item_type(items.type)}
        if where is None:
            return items
        cond = self._cond(where.children[0], inner)
        var = str(name)
        get_items = items.fn

        def filtered(ctx: Any) -> tuple:
            saved = ctx.env
            env = ctx.env = dict(saved)
            out = []
            try:
                for item in get_items(ctx):
                    env[var] = item
                    if cond(ctx):
                        out.append(item)
            finally:
                ctx.env = saved
            return tuple(out)

        filtered.binder = (get_items, var, cond)  # type: ignore[attr-defined]

        return Compiled(items.type, filtered)

    def _mapper(self, arg: Tree, scope: dict[str, str]) -> Compiled:
        value_tree, name, coll, where = arg.children
        items = self._collection(coll, scope)
        inner = {**scope, str(name): item_type(items.type)}
        value = self._expr(value_tree, inner)
        cond = self._cond(where.children[0], inner) if where is not None else None
        var = str(name)
        get_items, get_value = items.fn, value.fn

        def mapped(ctx: Any) -> tuple:
            saved = ctx.env
            env = ctx.env = dict(saved)
            out = []
            try:
                for item in get_items(ctx):
                    env[var] = item
                    if cond is None or cond(ctx):
                        out.append(get_value(ctx))
            finally:
                ctx.env = saved
            return tuple(out)

        mapped.mapper = (get_items, var, cond, get_value)  # type: ignore[attr-defined]

        return Compiled(list_of(value.type), mapped)

    def _user_call(self, name_token: Token, args: Tree | None, scope: dict[str, str]) -> Compiled:
        name = str(name_token)
        signature = self.symbols.functions[name]
        given = _args(args)
        params = list(signature.params)
        if signature.unchecked:  # the definition is broken: check only the arguments
            for arg in given:
                if not (
                    isinstance(arg, Tree) and arg.data in ("named_arg", "binder_arg", "mapper_arg")
                ):
                    self._expr(arg, scope)
            return Compiled(ANY, lambda ctx: None)
        if len(given) != len(params):
            self._fail(
                name_token,
                f"`{name}` takes {len(params)} argument"
                f"{'s' if len(params) != 1 else ''}, not {len(given)}",
                f"usage: {name}({', '.join(params)})",
                kind="arity",
            )
        fns = []
        for param, arg in zip(params, given, strict=True):
            if isinstance(arg, Tree) and arg.data in ("named_arg", "binder_arg", "mapper_arg"):
                compiled = (
                    self._binder(arg, scope)
                    if arg.data == "binder_arg"
                    else (self._mapper(arg, scope) if arg.data == "mapper_arg" else None)
                )
                if compiled is None:
                    self._fail(
                        arg, f"`{name}` takes its arguments in order, without names", kind="arity"
                    )
            else:
                compiled = self._expr(arg, scope)
            expected = signature.params[param]
            if not compatible(expected, compiled.type):
                self._fail(
                    arg,
                    f"argument `{param}` of `{name}` must be {describe(expected)}, "
                    f"but this is {describe(compiled.type)}",
                )
            fns.append(compiled.fn)
        arg_fns = tuple(fns)
        return Compiled(signature.returns, _user_call(name, tuple(params), arg_fns))

    # ------------------------------------------------------- names/paths
    def _name(self, token: Token, scope: dict[str, str]) -> Compiled:
        name = str(token)
        if name in scope:
            return Compiled(scope[name], lambda ctx: ctx.env[name])
        symbols = self.symbols
        if name in symbols.ambiguous:  # already reported where it is defined twice
            return Compiled(ANY, lambda ctx: None)
        if name in ("me", "my"):
            return Compiled(PLAYER, lambda ctx: ctx.me)
        if name == "players":
            return Compiled(
                list_of(PLAYER), lambda ctx: tuple(Player(i) for i in range(len(ctx.state.players)))
            )
        if name == "player_count":
            return Compiled(NUMBER, lambda ctx: len(ctx.state.players))
        if name in symbols.constants:
            return Compiled(symbols.constants[name], lambda ctx: ctx.rules.constants[name])
        if symbols.counters.get(name) == "game":
            return Compiled(NUMBER, lambda ctx: ctx.state.counters[name])
        if name in symbols.variables and symbols.variables[name][0] == "game":
            return Compiled(symbols.variables[name][1], lambda ctx: ctx.state.variables.get(name))
        if symbols.zones.get(name) == "game" or name in symbols.spaces:
            ref = ZoneRef(name)
            return Compiled(ZONE, lambda ctx: ref)
        if name in symbols.groups:
            return Compiled(list_of(ZONE), lambda ctx: ctx.rules.group_members[name])
        if name in symbols.components:
            ref = Piece(name)
            return Compiled(PIECE, lambda ctx: ref)
        if name in symbols.kinds:
            return Compiled(list_of(PIECE), lambda ctx: ctx.rules.kind_members[name])
        if name in symbols.actions:
            ref = ActionRef(name)
            return Compiled(ACTION, lambda ctx: ref)
        if (
            symbols.counters.get(name) == "player"
            or symbols.zones.get(name) == "player"
            or (name in symbols.variables)
        ):
            self._fail(
                token,
                f"`{name}` belongs to a player",
                f"write `my.{name}` or `p.{name}`",
                kind="name",
            )
        if name in symbols.functions:
            self._fail(token, f"`{name}` is a function", f"call it: `{name}(…)`", kind="type")
        if name in self.registry.functions or name in self.registry.statements:
            what = "function" if name in self.registry.functions else "effect"
            self._fail(
                token,
                f"`{name}` is a built-in {what}",
                f"call it: `{name}(…)`",
                kind="type",
            )
        self._unknown(token, name, scope, "is not defined")
        raise _Abort

    def _unknown(
        self,
        token: Token,
        name: str,
        scope: dict[str, str],
        what: str,
        candidates: set[str] | None = None,
    ) -> None:
        if candidates is None:
            candidates = set(scope) | self.symbols.global_names() | set(self.registry.names)
        hint = did_you_mean(name, candidates)
        if hint is None and name in self.symbols.events:
            hint = "events are announced with `emit` and heard by triggers"
        self._fail(token, f"`{name}` {what}", hint, kind="name")

    def _attribute(self, owner: Compiled, name_token: Token, tree: Tree) -> Compiled:
        name = str(name_token)
        kind = owner.type
        get = owner.fn
        builtin = self.registry.attributes.get(kind, {}).get(name)
        symbols = self.symbols
        if kind == PLAYER:
            if symbols.counters.get(name) == "player":
                keys = self.seat_keys[name]
                return Compiled(NUMBER, lambda ctx: ctx.state.counters[keys[get(ctx)]])
            if symbols.zones.get(name) == "player":
                zkeys = self.zone_keys[name]
                return Compiled(ZONE, lambda ctx: zkeys[get(ctx)])
            if name in symbols.variables and symbols.variables[name][0] == "player":
                vkeys = self.seat_keys[name]
                return Compiled(
                    symbols.variables[name][1], lambda ctx: ctx.state.variables.get(vkeys[get(ctx)])
                )
            if builtin is not None:
                return Compiled(builtin.type, _player_attribute(name, get))
            self._fail(
                name_token,
                f"a player has no `{name}`",
                did_you_mean(
                    name,
                    {n for n, p in symbols.counters.items() if p == "player"}
                    | {n for n, p in symbols.zones.items() if p == "player"}
                    | set(self.registry.attributes[PLAYER]),
                )
                or "declare it as a per-player counter, variable or zone",
                kind="name",
            )
        if kind == ZONE:
            if builtin is not None:
                return Compiled(builtin.type, _zone_attribute(name, get))
            prop = symbols.space_property(name)
            if prop is not None:
                return Compiled(prop, lambda ctx: ctx.rules.zone_props[get(ctx)].get(name))
            self._fail(
                name_token,
                f"a zone or space has no `{name}`",
                did_you_mean(
                    name,
                    set(self.registry.attributes[ZONE])
                    | {p for props in symbols.groups.values() for p in props},
                ),
                kind="name",
            )
        if kind == PIECE:
            if builtin is not None:
                return Compiled(builtin.type, _piece_attribute(name, get))
            prop = symbols.piece_property(name)
            if prop is not None:
                return Compiled(prop, lambda ctx: ctx.rules.piece_props[get(ctx)].get(name))
            self._fail(
                name_token,
                f"no kind of component has a property `{name}`",
                did_you_mean(
                    name,
                    {p for props in symbols.kinds.values() for p in props}
                    | set(self.registry.attributes[PIECE]),
                ),
                kind="name",
            )
        if kind == ACTION:
            if name == "id":
                return Compiled(TEXT, lambda ctx: str(get(ctx)))
            if name in symbols.action_properties:
                return Compiled(
                    symbols.action_properties[name],
                    lambda ctx: ctx.rules.action_props[get(ctx)].get(name),
                )
            self._fail(
                name_token,
                f"no action has a property `{name}`",
                did_you_mean(name, set(symbols.action_properties)),
                kind="name",
            )
        if kind == MAP:
            return Compiled(ANY, lambda ctx: _map_get(get(ctx), name))
        if kind == ANY:
            return Compiled(ANY, lambda ctx: _dynamic_attribute(ctx, get(ctx), name, self))
        self._fail(
            name_token,
            f"{describe(kind)} has no attributes (`.{name}`)",
            "count(…) gives the size of a collection" if is_list(kind) else None,
        )
        raise _Abort

    def _index(self, owner: Compiled, key: Compiled, tree: Tree) -> Compiled:
        get, get_key = owner.fn, key.fn
        if is_list(owner.type):
            if key.type not in (NUMBER, ANY):
                self._fail(
                    tree.children[1],
                    f"a collection is indexed by a number, not {describe(key.type)}",
                )
            return Compiled(item_type(owner.type), lambda ctx: _list_get(get(ctx), get_key(ctx)))
        if owner.type in (MAP, ANY):
            return Compiled(ANY, lambda ctx: _map_or_list_get(get(ctx), get_key(ctx)))
        self._fail(tree, f"{describe(owner.type)} cannot be indexed with [ ]")
        raise _Abort


# ---------------------------------------------------------------- run time
def _apply(op: str, old: Any, value: Any, name: str) -> Any:
    if op == "=":
        return value
    if not isinstance(old, int) or isinstance(old, bool):
        raise GameError(f"`{name}` is not a number ({old!r})")
    return old + value if op == "+=" else old - value


def _lt(a: Any, b: Any) -> bool:
    try:
        return a < b
    except TypeError:
        raise GameError(f"cannot compare {a!r} with {b!r}") from None


def _le(a: Any, b: Any) -> bool:
    try:
        return a <= b
    except TypeError:
        raise GameError(f"cannot compare {a!r} with {b!r}") from None


def _gt(a: Any, b: Any) -> bool:
    try:
        return a > b
    except TypeError:
        raise GameError(f"cannot compare {a!r} with {b!r}") from None


def _ge(a: Any, b: Any) -> bool:
    try:
        return a >= b
    except TypeError:
        raise GameError(f"cannot compare {a!r} with {b!r}") from None


def _checked_mul(a: int, b: int) -> int:
    result = a * b
    if abs(result) > 10**15:
        raise GameError("a number grew beyond 10^15")
    return result


def _add(a: int, b: int) -> int:
    return a + b


def _sub(a: int, b: int) -> int:
    return a - b


def _div(a: int, b: int) -> int:
    if b == 0:
        raise GameError("division by zero")
    return a // b


def _mod(a: int, b: int) -> int:
    if b == 0:
        raise GameError("division by zero")
    return a % b


_ARITHMETIC = {"+": _add, "-": _sub, "*": _checked_mul, "//": _div, "%": _mod}


def _list_get(items: Any, index: Any) -> Any:
    try:
        return items[index]
    except (IndexError, TypeError):
        return None


def _map_get(table: Any, key: Any) -> Any:
    if isinstance(table, dict):
        return table.get(key)
    raise GameError(f"{table!r} is not a table")


def _map_or_list_get(owner: Any, key: Any) -> Any:
    if isinstance(owner, dict):
        return owner.get(key, owner.get(str(key)) if not isinstance(key, str) else None)
    if isinstance(owner, tuple | list):
        return _list_get(owner, key)
    if owner is None:
        return None
    raise GameError(f"{owner!r} cannot be indexed")


def _player_attribute(name: str, get: Fn) -> Fn:
    if name == "name":
        return lambda ctx: ctx.state.players[get(ctx)]
    if name == "seat":
        return lambda ctx: int(get(ctx))
    if name == "next":
        return lambda ctx: Player((get(ctx) + 1) % len(ctx.state.players))
    raise KeyError(name)


def _zone_attribute(name: str, get: Fn) -> Fn:
    if name == "id":
        return lambda ctx: str(get(ctx))
    if name == "group":
        return lambda ctx: ctx.rules.zone_group.get(get(ctx))
    if name == "pieces":
        return lambda ctx: tuple(Piece(p) for p in ctx.state.zones.get(get(ctx), ()))
    if name == "size":
        return lambda ctx: len(ctx.state.zones.get(get(ctx), ()))
    if name == "empty":
        return lambda ctx: not ctx.state.zones.get(get(ctx))
    if name == "free":
        return lambda ctx: ctx.rules.is_free(ctx.state, get(ctx))
    if name == "capacity":
        return lambda ctx: ctx.rules.zone_capacity.get(get(ctx), 0)
    if name == "top":
        return lambda ctx: _piece_or_none(ctx.state.zones.get(get(ctx), ()), 0)
    if name == "bottom":
        return lambda ctx: _piece_or_none(ctx.state.zones.get(get(ctx), ()), -1)
    if name == "owner":
        return lambda ctx: ctx.rules.zone_owner(ctx.state, get(ctx))
    raise KeyError(name)


def _piece_or_none(items: tuple, index: int) -> Piece | None:
    return Piece(items[index]) if items else None


def _piece_attribute(name: str, get: Fn) -> Fn:
    if name == "id":
        return lambda ctx: str(get(ctx))
    if name == "kind":
        return lambda ctx: ctx.rules.piece_kind[get(ctx)]
    if name == "design":
        return lambda ctx: ctx.rules.piece_design[get(ctx)]
    if name == "zone":
        return lambda ctx: _zone_or_none(ctx.state.where.get(get(ctx)))
    if name == "owner":
        return lambda ctx: ctx.rules.zone_owner(ctx.state, ctx.state.where.get(get(ctx)))
    raise KeyError(name)


def _zone_or_none(key: str | None) -> ZoneRef | None:
    return None if key is None else ZoneRef(key)


def _dynamic_attribute(ctx: Any, value: Any, name: str, compiler: Compiler) -> Any:
    """Attribute access on a value whose type was unknown when compiling."""
    kind = type_of(value)
    if value is None:
        raise GameError(f"cannot read `.{name}` of none")
    constant = Compiled(kind, lambda _ctx: value)
    compiler.problems = []
    try:
        compiled = compiler._attribute(constant, Token("NAME", name), Tree("attr", []))
    except _Abort:
        raise GameError(f"{describe(kind)} has no `{name}`") from None
    return compiled.fn(ctx)


def _short_circuit(
    name: str, positional: tuple[Fn, ...], named: tuple[tuple[str, Fn], ...]
) -> Fn | None:
    """`any`, `first`, `count` and `all` over `x in … where …` or `… for x in …`,
    stopping at the first item that decides the answer instead of building the
    whole collection."""
    if named or len(positional) != 1:
        return None
    binder = getattr(positional[0], "binder", None)
    mapper = getattr(positional[0], "mapper", None)
    if binder is not None and name in ("any", "first", "count"):
        get_items, var, cond = binder

        def scan(ctx: Any) -> Any:
            saved = ctx.env
            env = ctx.env = dict(saved)
            found = 0
            try:
                for item in get_items(ctx):
                    env[var] = item
                    if cond(ctx):
                        if name == "any":
                            return True
                        if name == "first":
                            return item
                        found += 1
            finally:
                ctx.env = saved
            return {"any": False, "first": None}.get(name, found)

        return scan
    if mapper is not None and name in ("any", "all"):
        get_items, var, cond, get_value = mapper
        wanted = name == "any"

        def scan_values(ctx: Any) -> bool:
            saved = ctx.env
            env = ctx.env = dict(saved)
            try:
                for item in get_items(ctx):
                    env[var] = item
                    if (cond is None or cond(ctx)) and bool(get_value(ctx)) == wanted:
                        return wanted
            finally:
                ctx.env = saved
            return not wanted

        return scan_values
    return None


def _user_call(name: str, names: tuple[str, ...], arg_fns: tuple[Fn, ...]) -> Fn:
    """A call of a ruleset function: its body runs with only its parameters as locals.

    Specialised by arity, since these calls are the interpreter's hottest path.
    """
    if len(names) == 1:
        (n0,), (f0,) = names, arg_fns

        def call1(ctx: Any) -> Any:
            env = {n0: f0(ctx)}
            saved = ctx.env
            ctx.env = env
            try:
                return ctx.rules.function_bodies[name](ctx)
            finally:
                ctx.env = saved

        return call1
    if len(names) == 2:
        (n0, n1), (f0, f1) = names, arg_fns

        def call2(ctx: Any) -> Any:
            env = {n0: f0(ctx), n1: f1(ctx)}
            saved = ctx.env
            ctx.env = env
            try:
                return ctx.rules.function_bodies[name](ctx)
            finally:
                ctx.env = saved

        return call2

    def call(ctx: Any) -> Any:
        env = dict(zip(names, [f(ctx) for f in arg_fns], strict=True))
        saved = ctx.env
        ctx.env = env
        try:
            return ctx.rules.function_bodies[name](ctx)
        finally:
            ctx.env = saved

    return call


def _args(args: Tree | None) -> list[Any]:
    if args is None:
        return []
    return [a for a in args.children if a is not None]


def _unquote(token: Token) -> str:
    raw = str(token)[1:-1]
    if "\\" not in raw:
        return raw
    out, i = [], 0
    while i < len(raw):
        if raw[i] == "\\" and i + 1 < len(raw):
            nxt = raw[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        else:
            out.append(raw[i])
            i += 1
    return "".join(out)


def _target_text(tree: Tree | Token) -> str:
    if isinstance(tree, Token):
        return str(tree)
    if tree.data == "target" and len(tree.children) == 1:
        return _target_text(tree.children[0])
    if tree.data == "target_attr":
        return f"{_target_text(tree.children[0])}.{tree.children[1]}"
    return f"{_target_text(tree.children[0])}[…]"


def _pos(node: Tree | Token) -> tuple[int, int]:
    if isinstance(node, Token):
        return (node.line or 1, node.column or 1)
    meta = getattr(node, "meta", None)
    if meta is not None and not getattr(meta, "empty", True):
        return meta.line, meta.column
    for child in getattr(node, "children", []):
        if child is not None:
            return _pos(child)
    return 1, 1
