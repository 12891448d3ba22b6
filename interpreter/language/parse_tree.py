"""The parse tree's classes: Lark's ``Tree``, ``Token`` and ``Meta``, as far as we use them.

The rules' texts are parsed by ``lalr.py`` on tables Lark built (``parse_tables.py``),
so a process that parses needs none of Lark: importing it cost every `rules` process
that compiled a text some 40 ms of CPU (its grammar loader, parser frontends, and
``hashlib`` with OpenSSL), more than parsing all of a ruleset's texts. These classes
keep Lark's names, attributes, equality, hashing and walking orders, so the compiler
and checks read them as they read Lark's; ``from_lark`` turns a tree of Lark's into
ours where Lark itself parsed (``parser.py``'s fallback).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


class Meta:
    """A node's positions (1-based lines and columns, 0-based offsets); ``empty`` until
    the parser sets them. The ``container_*`` ones span the tokens the tree leaves out."""

    empty: bool
    line: int
    column: int
    start_pos: int
    end_line: int
    end_column: int
    end_pos: int
    container_line: int
    container_column: int
    container_start_pos: int
    container_end_line: int
    container_end_column: int
    container_end_pos: int

    def __init__(self) -> None:
        self.empty = True


class Token(str):
    """A terminal's text, with its terminal's name (``type``) and its place."""

    __slots__ = (
        "column",
        "end_column",
        "end_line",
        "end_pos",
        "line",
        "start_pos",
        "type",
        "value",
    )
    __match_args__ = ("type", "value")

    type: str
    value: Any
    start_pos: int | None
    line: int | None
    column: int | None
    end_line: int | None
    end_column: int | None
    end_pos: int | None

    def __new__(
        cls,
        type: str,
        value: Any,
        start_pos: int | None = None,
        line: int | None = None,
        column: int | None = None,
        end_line: int | None = None,
        end_column: int | None = None,
        end_pos: int | None = None,
    ) -> Token:
        token = str.__new__(cls, value)
        token.type = type
        token.value = value
        token.start_pos = start_pos
        token.line = line
        token.column = column
        token.end_line = end_line
        token.end_column = end_column
        token.end_pos = end_pos
        return token

    def __reduce__(self) -> tuple:
        return (
            Token,
            (
                self.type,
                self.value,
                self.start_pos,
                self.line,
                self.column,
                self.end_line,
                self.end_column,
                self.end_pos,
            ),
        )

    def __deepcopy__(self, memo: dict) -> Token:
        return self  # immutable as far as anyone reads it

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Token) and self.type != other.type:
            return False
        return str.__eq__(self, other)

    __hash__ = str.__hash__


class Tree:
    """A rule's node: its name (``data``), its children (trees, tokens, and None for a
    missing optional part) and its positions (``meta``)."""

    __slots__ = ("_meta", "children", "data")
    __match_args__ = ("data", "children")

    def __init__(self, data: str, children: list, meta: Meta | None = None) -> None:
        self.data = data
        self.children = children
        self._meta = meta

    @property
    def meta(self) -> Meta:
        if self._meta is None:
            self._meta = Meta()
        return self._meta

    def __getstate__(self) -> tuple:
        return (self.data, self.children, self._meta)

    def __setstate__(self, state: tuple) -> None:
        self.data, self.children, self._meta = state

    def __repr__(self) -> str:
        return f"Tree({self.data!r}, {self.children!r})"

    def __eq__(self, other: object) -> bool:
        try:
            return self.data == other.data and self.children == other.children  # type: ignore[attr-defined]
        except AttributeError:
            return False

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.data, tuple(self.children)))

    def iter_subtrees(self) -> Iterator[Tree]:
        """Every subtree once, children before their parents, in Lark's order: the
        reverse of a breadth-first walk that takes each node's children right to left."""
        queue = [self]
        for node in queue:  # grows as it is walked
            queue += [child for child in reversed(node.children) if isinstance(child, Tree)]
        if len(queue) != len({id(node) for node in queue}):  # a DAG: kept where first met
            queue = list({id(node): node for node in queue}.values())
        return reversed(queue)

    def iter_subtrees_topdown(self) -> Iterator[Tree]:
        """Every subtree, parents before their children, left to right (Lark's order)."""
        stack: list[Any] = [self]
        while stack:
            node = stack.pop()
            if not isinstance(node, Tree):
                continue
            yield node
            stack.extend(reversed(node.children))

    def pretty(self, indent: str = "  ") -> str:
        """An indented picture of the tree, one node or token a line (as Lark draws it)."""
        return "".join(self._pretty(0, indent))

    def _pretty(self, level: int, indent: str) -> Iterator[str]:
        yield f"{indent * level}{self.data}"
        if len(self.children) == 1 and not isinstance(self.children[0], Tree):
            yield f"\t{self.children[0]}\n"
            return
        yield "\n"
        for child in self.children:
            if isinstance(child, Tree):
                yield from child._pretty(level + 1, indent)
            else:
                yield f"{indent * (level + 1)}{child}\n"


def from_lark(node: Any) -> Any:
    """A tree (or token) of Lark's classes as one of ours, positions included."""
    if hasattr(node, "children") and hasattr(node, "data"):
        lark_meta = getattr(node, "_meta", None)
        meta = None
        if lark_meta is not None:
            meta = Meta()
            meta.__dict__.update(vars(lark_meta))
        return Tree(node.data, [from_lark(child) for child in node.children], meta)
    if isinstance(node, str) and hasattr(node, "type"):
        return Token(
            node.type,
            node.value,
            node.start_pos,
            node.line,
            node.column,
            node.end_line,
            node.end_column,
            node.end_pos,
        )
    return node
