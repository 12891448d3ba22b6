"""Building the parse tree while Lark's LALR parser reduces, one call per reduction.

Lark shapes each node through a chain of small callables (the positions, the child
filter, `?rule` expansion, the tree's constructor): four Python calls and two scans of
the children with ``getattr`` for every reduction, which made up nearly half of parsing
the rules' texts (335 of 749 M instructions). ``install`` puts one function per rule
in their place that does the same work in one pass: the same children kept, the same
placeholders (``None``) for missing optional parts, the same `?rule` and `_rule`
inlining and the same positions (``meta``: a node spans its first to its last child,
tokens filtered out of the tree included; the ``container_*`` positions of an inlined
node likewise).
``tests/language/test_tree_builder.py`` compares both on every text of the bundled
rulesets and examples, position by position.

Only the options ``parser.py`` uses are supported (LALR, ``propagate_positions=True``,
``maybe_placeholders=True``, no transformer); for any other shape of Lark's internals,
``install`` leaves Lark's own builder in place and returns False, so a Lark release
that changes them costs speed, never correctness.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from lark import Lark, Token, Tree
from lark.tree import Meta

Build = Callable[[list], Any]


def install(parser: Lark) -> bool:
    """Give ``parser`` a fused builder for each of its rules (module docstring)."""
    options = parser.options
    try:
        callbacks = parser._callbacks
        shared = parser.parser.parser.parser.callbacks is callbacks  # what the LALR reads
        supported = (
            options.parser == "lalr"
            and options.propagate_positions is True
            and options.maybe_placeholders
            and options.transformer is None
            and options.tree_class in (None, Tree)
        )
        if not (shared and supported):
            return False
        built = {rule: _builder(rule) for rule in callbacks if not isinstance(rule, str)}
    except (AttributeError, TypeError, ValueError):
        return False
    callbacks.update(built)
    return True


def _builder(rule: Any) -> Build:
    """The fused callback of ``rule``: Lark's ``ParseTreeBuilder`` for it, in one call."""
    options = rule.options
    name = rule.alias or options.template_source or rule.origin.name
    expand_single = bool(options.expand1 and not rule.alias)
    include, trailing_nones = _kept_children(rule.expansion, options)
    filtering = include is not None

    def build(children: list) -> Any:
        if filtering:
            kept: list = []
            for index, inline, nones in include:
                if nones:
                    kept += [None] * nones
                if inline:  # a `_rule`: its children take its place
                    if kept:
                        kept += children[index].children
                    else:  # Lark's own shortcut for left recursion: the list itself
                        kept = children[index].children
                else:
                    kept.append(children[index])
            if trailing_nones:
                kept += [None] * trailing_nones
        else:
            kept = children
        if expand_single and len(kept) == 1:
            node = kept[0]
            if not isinstance(node, Tree):
                return node
            meta = node.meta  # a `?rule` of one child: the child, spanning this rule too
        else:
            node = Tree(name, kept)
            meta = node._meta = Meta()
        _spread(meta, children)
        return node

    return build


def _kept_children(
    expansion: Sequence[Any], options: Any
) -> tuple[tuple[tuple[int, bool, int], ...] | None, int]:
    """(index, inlined, placeholders before it) of each child the tree keeps, and the
    placeholders after the last; None for a rule that keeps its children as they are
    (Lark's ``maybe_create_child_filter``)."""
    empty = options.empty_indices
    if empty:
        runs = "".join("1" if missing else "0" for missing in empty).split("0")
        nones_at = [len(run) for run in runs]
    else:
        nones_at = [0] * (len(expansion) + 1)
    include = []
    nones = 0
    for index, symbol in enumerate(expansion):
        nones += nones_at[index]
        if options.keep_all_tokens or not (symbol.is_term and symbol.filter_out):
            inline = not symbol.is_term and symbol.name.startswith("_")
            include.append((index, inline, nones))
            nones = 0
    nones += nones_at[len(expansion)]
    if empty or len(include) < len(expansion) or any(inline for _, inline, _ in include):
        return tuple(include), nones
    return None, 0


def _spread(meta: Meta, children: list) -> None:
    """``meta`` spans ``children``, the filtered ones too (Lark's ``PropagatePositions``:
    a position already set, an inlined node's own, is kept; its container's is set).

    Every node here gets its start and its end together, so a node that is not
    ``empty`` has both, and its ``container_*`` positions too."""
    first = _edge(children)
    if first is None:
        return  # no child has a position: nor has the last
    last = _edge(reversed(children))
    if isinstance(first, Meta):
        line, column, start = (
            first.container_line,
            first.container_column,
            first.container_start_pos,
        )
    else:
        line, column, start = first.line, first.column, first.start_pos
    if isinstance(last, Meta):
        end_line, end_column = last.container_end_line, last.container_end_column
        end = last.container_end_pos
    else:
        end_line, end_column, end = last.end_line, last.end_column, last.end_pos
    if meta.empty:
        meta.line, meta.column, meta.start_pos = line, column, start
        meta.end_line, meta.end_column, meta.end_pos = end_line, end_column, end
        meta.empty = False
    meta.container_line, meta.container_column, meta.container_start_pos = line, column, start
    meta.container_end_line, meta.container_end_column = end_line, end_column
    meta.container_end_pos = end


def _edge(children: Any) -> Any:
    """The first child with a position: a token, or a node that is not empty."""
    for child in children:
        if isinstance(child, Token):
            return child
        if isinstance(child, Tree):
            meta = child._meta
            if meta is not None and not meta.empty:
                return meta
    return None
