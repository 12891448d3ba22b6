"""Re-print a parsed effect or expression as readable, canonical source.

Authors read effects in `rules explain` and `rules cards`; a raw Lark tree (with its
``None`` placeholders) tells them little. The text printed here parses back to the
same tree (``parse(unparse(tree)) == tree``, up to the quotes of a text and empty
``;`` statements, which are dropped): operators get parentheses only where the
grammar's precedence needs them, blocks are indented, one statement a line. Comments
are not in the tree, so they are not printed.
"""

from __future__ import annotations

from lark import Token, Tree

from interpreter.language.syntax_tree import _unquote

INDENT = "  "
WIDTH = 88  # a block of one short statement stays on its line up to this width

# Binding strength of each expression form (higher binds tighter), as in grammar.lark.
_CONDITIONAL, _OR, _AND, _NOT, _COMPARE, _SUM, _PRODUCT, _UNARY, _POSTFIX, _ATOM = range(1, 11)
_BLOCKS = {
    "if_stmt",
    "for_stmt",
    "repeat_stmt",
    "while_stmt",
    "choose_item",
    "choose_option",
    "act_stmt",
}


def unparse(tree: Tree | Token) -> str:
    """The source text of an ``effect`` tree (statements, one a line) or of an
    expression tree."""
    if isinstance(tree, Tree) and tree.data == "effect":
        return "\n".join(_statements(tree.children, 0))
    if isinstance(tree, Tree) and tree.data in _STATEMENT_FORMS:
        return "\n".join(_statement(tree, 0))
    return _expr(tree)


# ------------------------------------------------------------------ statements
def _statements(nodes: list, depth: int) -> list[str]:
    lines: list[str] = []
    for node in nodes:
        if isinstance(node, Tree) and node.data != "empty_stmt":
            lines.extend(_statement(node, depth))
    return lines


def _block(tree: Tree, depth: int, head: str = "") -> list[str]:
    """``{ … }`` as lines: the first continues its statement's line (``head``), the last
    is ``}``. One short statement without a block of its own stays on that line."""
    body = [s for s in tree.children if isinstance(s, Tree) and s.data != "empty_stmt"]
    if not body:
        return ["{ }"]
    if len(body) == 1 and body[0].data not in _BLOCKS:
        (line,) = _statement(body[0], 0)
        if len(head) + len(line) + 5 <= WIDTH:
            return [f"{{ {line} }}"]
    pad = INDENT * depth
    return ["{", *_statements(body, depth + 1), f"{pad}}}"]


def _joined(head: str, tree: Tree, depth: int) -> list[str]:
    block = _block(tree, depth, head)
    return [f"{head} {block[0]}", *block[1:]]


def _statement(tree: Tree, depth: int) -> list[str]:
    pad = INDENT * depth
    kind, c = tree.data, tree.children
    if kind == "if_stmt":
        lines = _joined(f"{pad}if {_expr(c[0])}", c[1], depth)
        for clause in c[2:]:
            if clause is None:
                continue
            if clause.data == "elif_clause":
                head = f"elif {_expr(clause.children[0])}"
                body = clause.children[1]
            else:
                head, body = "else", clause.children[0]
            block = _block(body, depth, f"{lines[-1]} {head}")
            lines[-1] = f"{lines[-1]} {head} {block[0]}"
            lines.extend(block[1:])
        return lines
    if kind == "for_stmt":
        simultaneous, name, items, where, block = c
        head = f"{'simultaneous ' if simultaneous else ''}for {name} in {_expr(items)}"
        return _joined(pad + head + _where(where), block, depth)
    if kind in ("repeat_stmt", "while_stmt", "act_stmt"):
        word = {"repeat_stmt": "repeat", "while_stmt": "while", "act_stmt": "act as"}[kind]
        return _joined(f"{pad}{word} {_expr(c[0])}", c[1], depth)
    if kind == "let_stmt":
        name, type_ref, value = c
        typed = f": {_type_ref(type_ref)}" if type_ref is not None else ""
        return [f"{pad}let {name}{typed} = {_expr(value)}"]
    if kind == "assign_stmt":
        return [f"{pad}{_target(c[0])} {c[1]} {_expr(c[2])}"]
    if kind == "choose_item":
        may, name, items, where, by, label, block = c
        head = f"{pad}{'may ' if may else ''}choose {name} in {_expr(items)}{_where(where)}"
        head += _by(by)
        if label is not None and label.data == "label_expr":
            head += f" as ({_expr(label.children[0])})"
        elif label is not None:
            head += f" as {_string(label.children[0])}"
        return _joined(head, block, depth)
    if kind == "choose_option":
        may, by, *options = c
        lines = [f"{pad}{'may ' if may else ''}choose{_by(by)} {{"]
        for option in options:
            lines.extend(_option(option, depth + 1))
        return [*lines, f"{pad}}}"]
    if kind in ("do_stmt", "emit_stmt"):
        word = "do" if kind == "do_stmt" else "emit"
        args = _call_args(c[1]) if c[1] is not None else ""
        return [f"{pad}{word} {c[0]}{args}"]
    if kind == "call_stmt":
        return [f"{pad}{c[0]}{_call_args(c[1])}"]
    if kind == "stop_stmt":
        return [f"{pad}stop"]
    if kind == "empty_stmt":
        return [f"{pad};"]
    raise ValueError(f"not a statement: {kind}")


_STATEMENT_FORMS = {
    *_BLOCKS,
    "let_stmt",
    "assign_stmt",
    "do_stmt",
    "emit_stmt",
    "call_stmt",
    "stop_stmt",
    "empty_stmt",
}


def _option(tree: Tree, depth: int) -> list[str]:
    pad = INDENT * depth
    if tree.data == "option_each":
        name, items, where, block = tree.children
        head = f"{pad}option {name} in {_expr(items)}{_where(where)}"
        return _joined(head, block, depth)
    text, guard, block = tree.children
    head = f"{pad}option {_string(text)}"
    if guard is not None:
        head += f" if {_expr(guard.children[0])}"
    return _joined(head, block, depth)


def _where(where: Tree | None) -> str:
    return f" where {_expr(where.children[0])}" if where is not None else ""


def _by(by: Tree | None) -> str:
    if by is None:
        return ""
    if by.data == "by_chance":
        return " by chance"
    return f" by {_expr(by.children[0])}"


def _type_ref(tree: Tree) -> str:
    first, second = tree.children
    return f"{first}:{second}" if second is not None else str(first)


def _target(tree: Tree | Token) -> str:
    if isinstance(tree, Token):
        return str(tree)
    if tree.data == "target_attr":
        return f"{_target(tree.children[0])}.{tree.children[1]}"
    if tree.data == "target_index":
        return f"{_target(tree.children[0])}[{_expr(tree.children[1])}]"
    return _target(tree.children[0])


# ----------------------------------------------------------------- expressions
def _expr(tree: Tree | Token, need: int = 0) -> str:
    """``tree`` as text, in parentheses when it binds less tightly than ``need``."""
    text, strength = _form(tree)
    return f"({text})" if strength < need else text


def _form(tree: Tree | Token) -> tuple[str, int]:
    if isinstance(tree, Token):  # a bare token where an expression stands (defensive)
        return str(tree), _ATOM
    kind, c = tree.data, tree.children
    if kind == "if_expr":
        text = f"if {_expr(c[0], _OR)} then {_expr(c[1], _OR)} else {_expr(c[2], _CONDITIONAL)}"
        return text, _CONDITIONAL
    if kind == "or_op":
        return f"{_expr(c[0], _OR)} or {_expr(c[1], _AND)}", _OR
    if kind == "and_op":
        return f"{_expr(c[0], _AND)} and {_expr(c[1], _NOT)}", _AND
    if kind == "not_op":
        return f"not {_expr(c[0], _NOT)}", _NOT
    if kind == "compare":
        return f"{_expr(c[0], _SUM)} {c[1]} {_expr(c[2], _SUM)}", _COMPARE
    if kind == "arith":
        level = _SUM if c[1].type == "ADD_OP" else _PRODUCT
        return f"{_expr(c[0], level)} {c[1]} {_expr(c[2], level + 1)}", level
    if kind == "neg":
        return f"-{_expr(c[0], _UNARY)}", _UNARY
    if kind == "attr":
        return f"{_expr(c[0], _POSTFIX)}.{c[1]}", _POSTFIX
    if kind == "index":
        return f"{_expr(c[0], _POSTFIX)}[{_expr(c[1])}]", _POSTFIX
    if kind == "call":
        return f"{c[0]}{_call_args(c[1])}", _POSTFIX
    if kind == "number":
        return str(c[0]), _ATOM
    if kind == "string":
        return _string(c[0]), _ATOM
    if kind in ("true", "false", "none"):
        return kind, _ATOM
    if kind == "name":
        return str(c[0]), _ATOM
    if kind == "can_expr":
        return f"can {c[0]}{_call_args(c[1]) if c[1] is not None else ''}", _ATOM
    if kind == "list":
        return "[" + ", ".join(_expr(x) for x in c if x is not None) + "]", _ATOM
    raise ValueError(f"not an expression: {kind}")


def _call_args(tree: Tree) -> str:
    return "(" + ", ".join(_arg(a) for a in tree.children if a is not None) + ")"


def _arg(tree: Tree) -> str:
    kind, c = tree.data, tree.children
    if kind == "named_arg":
        return f"{c[0]}: {_expr(c[1])}"
    if kind == "binder_arg":
        return f"{c[0]} in {_expr(c[1])}{_where(c[2])}"
    if kind == "mapper_arg":
        clauses = (f.children for f in c[4:])  # a comprehension's further `for`s
        more = "".join(f" for {n} in {_expr(x)}{_where(w)}" for n, x, w in clauses)
        return f"{_expr(c[0], _OR)} for {c[1]} in {_expr(c[2])}{_where(c[3])}{more}"
    return _expr(tree)


def _string(token: Token) -> str:
    """A text in double quotes (single quotes when that needs no escape)."""
    value = _unquote(token)
    if '"' in value and "'" not in value and "\\" not in value and "\n" not in value:
        return f"'{value}'"
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + escaped.replace("\t", "\\t") + '"'
