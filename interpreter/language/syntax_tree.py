"""Small helpers for reading Lark parse trees (arguments, strings, positions)."""

from __future__ import annotations

from typing import Any

from lark import Token, Tree

from interpreter.identity_memo import by_identity


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


REFERRING = frozenset({"do_stmt", "can_expr", "call", "emit_stmt"})


@by_identity
def references(tree: Tree) -> tuple[tuple[str, str, tuple[int, int]], ...]:
    """``(kind, name, position)`` of every `do`, `can`, call and `emit` in ``tree``, in
    ``iter_subtrees`` order: what the build's checks of recursion and of `can` read
    of a tree in every combination of expansions (worked out once per tree)."""
    return tuple(
        (node.data, str(node.children[0]), _pos(node))
        for node in tree.iter_subtrees()
        if node.data in REFERRING
    )
