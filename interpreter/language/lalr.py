"""Parse a text on the grammar's tables (``parse_tables.py``), without Lark.

This is Lark's LALR loop and contextual lexer as ``lark.Lark(parser="lalr",
propagate_positions=True, maybe_placeholders=True)`` runs them, in one function: each
state lexes the next token with the regular expression of the terminals it accepts,
keywords are told from names as Lark tells them, and each reduction builds its node in
one call (the children kept, the placeholders, `?rule` and `_rule` inlining, and the
positions Lark gives: a node spans its first to its last child, the tokens left out of
the tree included). A `?rule` of one child that keeps it as it is costs no call at all.
The trees, tokens and positions are Lark's, compared on every text of the bundled
rules and mods (``tests/language/test_lalr.py``); parsing them took 45 ms with Lark
(its tree building already fused) and 21 ms here.

A text the tables refuse raises ``NoParse``, which carries no explanation: the caller
asks Lark itself for its error, so the messages stay Lark's to the character.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.language.parse_tables import ParseTables, RuleShape
from interpreter.language.parse_tree import Meta, Token, Tree

Build = Callable[[list], Any]
END = "$END"


class NoParse(Exception):
    """The tables do not accept the text (Lark says why: ``parser.py``)."""


class Parser:
    """The grammar's LALR parser, from its tables."""

    def __init__(self, tables: ParseTables) -> None:
        self._tables = tables
        self._actions = tables.actions
        self._starts = tables.starts
        self._ends = tables.ends
        self._sizes = [shape[1] for shape in tables.rules]
        self._origins = [shape[0] for shape in tables.rules]
        self._builders = [_builder(shape) for shape in tables.rules]  # None: the child itself
        self._newline = tables.newline_terminals
        self._ignored = tables.ignored_terminals
        # a state's lexer, compiled when a state first reads with it (as Lark does)
        self._matchers: list[Callable[[str, int], Any] | None] = [None] * len(tables.lexer_of)
        self._keywords = [tables.lexers[index][1] for index in tables.lexer_of]
        self._compiled: dict[int, Callable[[str, int], Any]] = {}
        # nodes the last parse built, at most: its tree is no deeper (``parser.py``
        # walks a tree for its depth only where this is more than the limit)
        self.built = 0

    def parse(self, text: str, start: str) -> Tree:
        """The tree of ``text`` from the rule ``start``; ``NoParse`` if it has none."""
        try:
            state = self._starts[start]
            end_state = self._ends[start]
        except KeyError:
            raise NoParse(start) from None
        actions, sizes, origins, builders = (
            self._actions,
            self._sizes,
            self._origins,
            self._builders,
        )
        matchers, keywords = self._matchers, self._keywords
        newline, ignored = self._newline, self._ignored
        new_text = str.__new__
        states = [state]
        values: list[Any] = []
        pos, line, line_start, length = 0, 1, 0, len(text)
        built = 0
        try:
            while True:
                if pos < length:
                    match = matchers[state] or self._matcher(state)
                    found = match(text, pos)
                    if found is None:
                        raise NoParse(pos)
                    kind = found.lastgroup
                    value = found.group()
                    end = found.end()
                    column = pos - line_start + 1
                    first_line = line
                    if kind in newline:
                        count = value.count("\n")
                        if count:
                            line += count
                            line_start = pos + value.rindex("\n") + 1
                    if kind in ignored:
                        pos = end
                        continue
                    turns = keywords[state].get(kind)
                    if turns is not None:
                        kind = turns.get(value, kind)
                    token = new_text(Token, value)  # Token's own __new__, without its call
                    token.type, token.value, token.start_pos = kind, value, pos
                    token.line, token.column = first_line, column
                    token.end_line, token.end_pos = line, end
                    token.end_column = end - line_start + 1
                    pos = end
                else:
                    kind, token = END, None
                while True:
                    action = actions[state][kind]
                    if action >= 0:  # shift
                        if token is None:
                            raise NoParse(pos)
                        states.append(action)
                        values.append(token)
                        state = action
                        break
                    rule = ~action
                    build = builders[rule]
                    if build is None:  # `?rule` of one child: the child itself
                        del states[-1]
                    else:
                        size = sizes[rule]
                        if size:
                            children = values[-size:]
                            del values[-size:]
                            del states[-size:]
                        else:
                            children = []
                        values.append(build(children))
                        built += 1
                    state = actions[states[-1]][origins[rule]]
                    states.append(state)
                    if token is None and state == end_state:
                        self.built = built
                        return values[-1]
        except (KeyError, IndexError):
            raise NoParse(pos) from None

    def _matcher(self, state: int) -> Callable[[str, int], Any]:
        index = self._tables.lexer_of[state]
        match = self._compiled.get(index)
        if match is None:
            patterns = [pattern.match for pattern in self._tables.compiled(index)]
            match = patterns[0] if len(patterns) == 1 else _first_of(patterns)
            self._compiled[index] = match
        self._matchers[state] = match
        return match


def _first_of(patterns: list[Callable[[str, int], Any]]) -> Callable[[str, int], Any]:
    """Lark's split of a lexer past Python's 100 groups: the first that matches."""

    def match(text: str, pos: int) -> Any:
        for pattern in patterns:
            found = pattern(text, pos)
            if found is not None:
                return found
        return None

    return match


new_tree, new_meta = Tree.__new__, Meta.__new__


def _builder(shape: RuleShape) -> Build | None:
    """The node a reduction by this rule makes from its children, in one call; None
    for a `?rule` of one child kept as it is (the child is the node: its positions
    already span the rule)."""
    _origin, size, name, expand_single, include, trailing_nones = shape
    filtering = include is not None
    if expand_single and not filtering and size == 1:
        return None

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
        else:  # Tree(name, kept) with a Meta(), without their two calls of __init__
            node = new_tree(Tree)
            node.data, node.children = name, kept
            meta = node._meta = new_meta(Meta)
            meta.empty = True
        _spread(meta, children)
        return node

    return build


def _spread(meta: Meta, children: list) -> None:
    """``meta`` spans ``children``, the filtered ones too (Lark's ``PropagatePositions``:
    a position already set, an inlined node's own, is kept; its container's is set).

    Every node here gets its start and its end together, so a node that is not
    ``empty`` has both, and its ``container_*`` positions too. The edges are the
    first and the last child with a position: a token, or a node that is not empty
    (looked for in place: this runs once a node)."""
    for first in children:
        if isinstance(first, Token):
            line, column, start = first.line, first.column, first.start_pos
            break
        if isinstance(first, Tree):
            edge = first._meta
            if edge is not None and not edge.empty:
                line, column = edge.container_line, edge.container_column
                start = edge.container_start_pos
                break
    else:
        return  # no child has a position: nor has the last
    for last in reversed(children):
        if isinstance(last, Token):
            end_line, end_column, end = last.end_line, last.end_column, last.end_pos
            break
        if isinstance(last, Tree):
            edge = last._meta
            if edge is not None and not edge.empty:
                end_line, end_column = edge.container_end_line, edge.container_end_column
                end = edge.container_end_pos
                break
    if meta.empty:
        meta.line, meta.column, meta.start_pos = line, column, start
        meta.end_line, meta.end_column, meta.end_pos = end_line, end_column, end
        meta.empty = False
    meta.container_line, meta.container_column, meta.container_start_pos = line, column, start
    meta.container_end_line, meta.container_end_column = end_line, end_column
    meta.container_end_pos = end
