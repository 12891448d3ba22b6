"""Compile effect statements (``if``, ``for``, ``choose``, ``do``, calls…) into nodes.

A mixin of ``Compiler``: the expressions inside statements are compiled by the
methods of ``compiler.py``; here only the statement forms and their checks live.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Token, Tree

from interpreter.language import effects as fx
from interpreter.language import setters
from interpreter.language.compiled import Compiled, _Abort, did_you_mean
from interpreter.language.syntax_tree import _args, _pos, _target_text, _unquote
from interpreter.language.values import (
    ACTION,
    ANY,
    MAP,
    NUMBER,
    PLAYER,
    TEXT,
    compatible,
    describe,
    item_type,
)

Fn = Callable[[Any], Any]


class StatementCompiler:
    """Statement forms of the effect language (mixed into ``Compiler``)."""

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
                node.at = _pos(statement)
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
            self._not_a_function(name)
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

    def _not_a_function(self, name: Token) -> None:
        """Refuse a local named like a function: `let double = 2` would leave `double`
        the number and `double(…)` the function, two meanings for one word."""
        text = str(name)
        if text in self.symbols.functions:
            owner = "a function of the rules (`functions:`)"
        elif text in self.registry.functions:
            owner = "a function of the language"
        else:
            return
        self._fail(
            name,
            f"`{text}` is {owner}; a local of that name would hide it",
            f"give the local another name, such as `{text}_value`",
            kind="name",
        )

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
                return setters.SetLocal(name), scope[name], name
            if name in self.symbols.keyed:
                self._keyed_bare(tree, name)
            if self.symbols.counters.get(name) == "game" or (
                name in self.symbols.variables and self.symbols.variables[name][0] == "game"
            ):
                is_counter = name in self.symbols.counters
                vtype = NUMBER if is_counter else self.symbols.variables[name][1]
                return setters.SetGame(name, is_counter), vtype, name
            self._unknown(
                tree, name, scope, "cannot be set: it is not a counter, variable or local name"
            )
        if tree.data == "target_attr":
            owner, attr = tree.children
            attr = str(attr)
            owner_fn, owner_type = self._target_value(owner, scope)
            text = f"{_target_text(owner)}.{attr}"
            if attr in self.symbols.keyed:
                self._keyed_bare(tree.children[1], attr)
            if owner_type in (PLAYER, ANY) and self.symbols.counters.get(attr) == "player":
                return setters.SetPlayerCounter(owner_fn, attr), NUMBER, text
            if (
                owner_type in (PLAYER, ANY)
                and attr in self.symbols.variables
                and self.symbols.variables[attr][0] == "player"
            ):
                setter = setters.SetPlayerVariable(owner_fn, self.seat_keys[attr], attr)
                return setter, self.symbols.variables[attr][1], text
            if owner_type == MAP:
                return setters.SetKey(owner_fn, attr), ANY, text
            self._fail(
                tree,
                f"`{text}` cannot be set",
                "only counters, variables and local tables can be changed",
            )
        if tree.data == "target_index":
            keyed = self._keyed_target(tree, scope)  # `p.progress[c] += 1`
            if keyed is not None:
                return keyed
            owner, index = tree.children
            owner_fn, owner_type = self._target_value(owner, scope)
            key = self._expr(index, scope)
            text = f"{_target_text(owner)}[…]"
            if owner_type not in (MAP, ANY):
                self._fail(tree, f"`{text}` cannot be set: only local tables can be changed by key")
            return setters.SetIndex(owner_fn, key.fn), ANY, text
        self._fail(tree, "this cannot be set")
        raise _Abort

    def _target_value(self, tree: Tree | Token, scope: dict[str, str]) -> tuple[Fn, str]:
        """Compile the owner part of an assignment target as a value."""
        compiled = self._target_compiled(tree, scope)
        return compiled.fn, compiled.type

    def _target_compiled(self, tree: Tree | Token, scope: dict[str, str]) -> Compiled:
        if isinstance(tree, Tree) and tree.data == "target" and len(tree.children) == 1:
            tree = tree.children[0]
        if isinstance(tree, Token):
            return self._name(tree, scope)
        owner = self._target_compiled(tree.children[0], scope)
        if tree.data == "target_attr":
            return self._attribute(owner, tree.children[1], tree)
        return self._index(owner, self._expr(tree.children[1], scope), tree)

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
        words = None  # `as (TEXT)`: the option's whole text, computed for each item
        if label is not None and label.data == "label_expr":
            words = self._typed(label.children[0], inner, TEXT, "an option's text").fn
        text = _unquote(label.children[0]) if label is not None and words is None else ""
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
            words,
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
            if option.data == "option_each":
                compiled.append(self._option_each(option, scope, nodes))
                continue
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

    def _option_each(
        self, tree: Tree, scope: dict[str, str], nodes: dict[str, fx.Node]
    ) -> fx.Option:
        """`option NAME in COLLECTION [where COND] { … }`: one option per item."""
        name, coll, where, block = tree.children
        items = self._collection(coll, scope)
        inner = {**scope, str(name): item_type(items.type)}
        where_fn = self._cond(where.children[0], inner) if where is not None else None
        terms = self._terms(where.children[0], inner) if where is not None else ()
        body = self._sub_block(block, inner, nodes)
        return fx.Option("", where_fn, body, terms, str(name), items.fn)

    def _named_args(
        self,
        args_tree: Tree | None,
        scope: dict[str, str],
        params: dict[str, str],
        optional: frozenset[str],
        what: str,
        where: Tree | Token,
        unchecked: bool = False,
    ) -> tuple[tuple[str, Compiled], ...]:
        given: dict[str, Compiled] = {}
        if unchecked:  # the definition itself is broken: check only the values
            return tuple(
                (str(a.children[0]), self._expr(a.children[1], scope))
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
            given[name] = compiled
        missing = [p for p in params if p not in given and p not in optional]
        if missing:
            self._fail(where, f"{what} needs {', '.join(f'`{m}`' for m in missing)}", kind="arity")
        return tuple(given.items())

    def _do(self, tree: Tree, scope: dict[str, str]) -> fx.Do:
        name, dynamic, given = self._action_args(tree.children[0], tree.children[1], scope)
        return fx.Do(self._node_id(), name, dynamic, _functions(given))

    def _action_args(
        self, name_token: Token, args: Tree | None, scope: dict[str, str]
    ) -> tuple[str, bool, tuple[tuple[str, Compiled], ...]]:
        """Resolve an action (by id or a local holding one) and compile its arguments."""
        name = str(name_token)
        if name in scope:
            if scope[name] not in (ACTION, ANY):
                self._fail(name_token, f"`{name}` is {describe(scope[name])}, not an action")
            compiled = []
            for arg in _args(args):
                if not (isinstance(arg, Tree) and arg.data == "named_arg"):
                    self._fail(arg, "an action takes named arguments (`name: value`)", kind="arity")
                compiled.append((str(arg.children[0]), self._expr(arg.children[1], scope)))
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
        return fx.Emit(self._node_id(), name, _functions(given))

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
        return fx.Call(
            self._node_id(), primitive, tuple(c.fn for c in positional), _functions(named)
        )


def _functions(named: tuple[tuple[str, Compiled], ...]) -> tuple[tuple[str, Fn], ...]:
    return tuple((n, c.fn) for n, c in named)
