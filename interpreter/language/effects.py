"""Compiled effect statements: a small tree of nodes holding generated functions.

The engine runs these nodes; nothing here is re-parsed or re-checked at run time.
Each node has a stable ``id`` (where it was written) so that a suspended effect can
be recorded as plain data and resumed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.language.registry import Primitive

Fn = Callable[[Any], Any]


@dataclass(eq=False, slots=True)
class Node:
    id: str
    # where the statement was written: (line, column) in its text once compiled, then
    # its place in the YAML file (a Location) once the ruleset is built
    at: Any = field(default=None, kw_only=True)


# how a block becomes its function: set by the engine that runs blocks
# (``engine/executor.py``, with ``effect_code.compile_block``), which alone knows how
_block_compiler: list[Callable[[Seq], Any]] = []


def compile_blocks_with(compiler: Callable[[Seq], Any]) -> None:
    """Have ``compiler(seq)`` (a function, or None if it cannot compile the block)
    make a block's function when a ruleset holding it is stored (``Seq``)."""
    _block_compiler[:] = [compiler]


@dataclass(eq=False, slots=True)
class Seq(Node):
    body: tuple[Node, ...] = ()
    # the block as one generated function, made by the engine when it first runs the
    # block (engine/effect_code.py) or when the ruleset is stored; False: it cannot be
    # compiled
    run: Any = field(default=None, repr=False, compare=False)

    def __getstate__(self) -> Any:
        """A block is pickled to be stored with its ruleset (``ruleset/stored.py``,
        which writes its function as code): compiled first, so that a process that
        reads the ruleset back compiles none of its blocks."""
        if self.run is None and _block_compiler:
            self.run = _block_compiler[0](self) or False
        return object.__getstate__(self)  # the slots' values, as pickle takes them


@dataclass(eq=False, slots=True)
class If(Node):
    branches: tuple[tuple[Fn, Seq], ...] = ()
    otherwise: Seq | None = None


@dataclass(eq=False, slots=True)
class For(Node):
    var: str = ""
    items: Fn | None = None
    where: Fn | None = None
    body: Seq | None = None
    simultaneous: bool = False


@dataclass(eq=False, slots=True)
class Repeat(Node):
    count: Fn | None = None
    body: Seq | None = None


@dataclass(eq=False, slots=True)
class While(Node):
    cond: Fn | None = None
    body: Seq | None = None


@dataclass(eq=False, slots=True)
class Let(Node):
    var: str = ""
    value: Fn | None = None


@dataclass(eq=False, slots=True)
class Assign(Node):
    """``target op value``: the setter receives (ctx, op, value)."""

    setter: Callable[[Any, str, Any], None] | None = None
    op: str = "="
    value: Fn | None = None
    text: str = ""


@dataclass(eq=False, slots=True)
class Call(Node):
    primitive: Primitive | None = None
    args: tuple[Fn, ...] = ()
    named: tuple[tuple[str, Fn], ...] = ()


Terms = tuple[tuple[str, Fn], ...]  # the `and`-parts of a condition with their source text


@dataclass(eq=False, slots=True)
class ChooseItem(Node):
    var: str = ""
    items: Fn | None = None
    where: Fn | None = None
    where_terms: Terms = ()
    by: Fn | None = None
    label: str = ""
    optional: bool = False
    body: Seq | None = None
    by_chance: bool = False
    words: Fn | None = None  # `as (TEXT)`: each option's text, computed with `var` bound


@dataclass(eq=False, slots=True)
class Option:
    """A fixed option (``text``), or one option per item of ``items`` (``var`` bound)."""

    text: str
    guard: Fn | None
    body: Seq
    guard_terms: Terms = ()
    var: str = ""
    items: Fn | None = None


@dataclass(eq=False, slots=True)
class ChooseOption(Node):
    options: tuple[Option, ...] = ()
    by: Fn | None = None
    optional: bool = False


@dataclass(eq=False, slots=True)
class Do(Node):
    action: str = ""  # an action id, or a local name holding one
    dynamic: bool = False
    args: tuple[tuple[str, Fn], ...] = ()


@dataclass(eq=False, slots=True)
class Emit(Node):
    event: str = ""
    args: tuple[tuple[str, Fn], ...] = ()


@dataclass(eq=False, slots=True)
class Act(Node):
    """Run ``body`` with ``me`` bound to another player."""

    player: Fn | None = None
    body: Seq | None = None


@dataclass(eq=False, slots=True)
class Stop(Node):
    pass


@dataclass(slots=True)
class CompiledEffect:
    """A whole effect field: its statements and where it was written."""

    source: str
    body: Seq
    nodes: dict[str, Node] = field(default_factory=dict)
