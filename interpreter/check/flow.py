"""Secrecy by information flow: which public counters and variables hold hidden
information.

The secrecy check (``language/secrecy.py``) refuses a decision asked because of
hidden information it reads. Hidden information can reach such a decision another
way: written first into a public counter or variable (`flag = c.suit == 'red'`,
`if c.points > 3 { gain(bonus, 1) }`), then read where who is asked, or whether, is
decided, in another action or another turn. This module follows those writes, so
that the check treats such a name as hidden, as it treats what it was written from.

A write takes hidden information into a public counter or variable when

* its value reads hidden information (``Secrecy.reads``: a zone that is not public,
  a counter or variable that is not public or already holds hidden information, a
  function or a requirement that reads one, a local name bound to one),
* or it runs only because a condition that reads hidden information held (an `if`,
  `elif` or `else`, a `while`, a `repeat`'s count, a `for`'s items or `where`, one
  under which an earlier `stop` ended the effect; an action done or an event emitted
  there: every write of it),
* or it writes the counter of a player chosen from hidden information (`gain(…, to:
  p)`, `p.flag = …`, `act as p { my.flag = … }`).

Local names carry it: `let`, assignments, a `for` over hidden items, a `choose` among
hidden items (by a player or by chance), and an action's parameters and an event's
arguments given such a value (a fixed point over every `do` and `emit` of the
ruleset). Functions carry it through their arguments and their return values (a
function that reads a tainted name reads hidden information).

What does not take it: a value wrapped in `announced(…)` (the rules make it public);
a piece, named by a local, that the block binding that local moves to a public zone
or reveals to everyone (`reveal(c)`) on every path through it (the table sees the
card, so its properties are no secret: a card played face up); how many pieces a
zone holds; the writes of the final scoring, where everything is shown. A choice made
among public items (a hint named, a number of cards) is seen by the table and is no
secret, even when which items were offered depended on hidden information.

Zones are not followed: a piece moved into a public zone is shown by the engine.

The fixed point is bounded: each pass finds at least one more tainted counter,
variable, parameter or action run under a hidden condition, or stops; there are
finitely many (``passes_at_most``). Each effect's locals are a fixed point of their
own, bounded by how many names the effect binds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from lark import Token, Tree

from interpreter.language.secrecy import Program, Secrecy, bound_names
from interpreter.language.syntax_tree import _pos

COUNTER_WRITES = {"gain": ("to", 2), "pay": ("by", 2)}  # statement -> its player argument
SHOWS = frozenset({"move", "reveal"})  # statements that may show a piece to the table
ACTING = frozenset({"me", "my"})  # the acting player, by name
PUBLIC_ZONE_DEPTH = 8  # functions followed to tell whether a zone they give is public


WRITTEN = ", written from "  # how a described name reads (``Source.describe``)


@dataclass(frozen=True)
class Source:
    """Why a public name holds hidden information: ``what`` it was written from, by
    ``writer`` (an action, a trigger, a phase), ``at`` a place of its text."""

    what: str
    writer: str
    at: str

    def describe(self, name: str) -> str:
        return f"{name}{WRITTEN}{self.what} by {self.writer} at {self.at}"


@dataclass(frozen=True)
class FlowEffect:
    """An effect whose writes are followed."""

    tree: Tree
    writer: str  # how a message names it: "action `peek`"
    params: frozenset  # its parameters
    runs_as: tuple[str, str] | None = None  # ("action"|"event", name): what `do`/`emit` reach
    guards: tuple[Tree, ...] = ()  # conditions that decide whether it runs (`when`, `while`)
    locate: Callable[[int, int], str] | None = None  # (line, column) -> "file:line:col"

    def at(self, node: Tree) -> str:
        line, column = _pos(node)
        return self.locate(line, column) if self.locate else f"line {line}, column {column}"


@dataclass(frozen=True)
class Places:
    """What the flow needs of the ruleset's declarations."""

    game_state: frozenset  # public game counters and variables
    player_state: frozenset  # public per-player counters and variables
    public_zones: frozenset  # zones (game or per player) and spaces everyone sees
    public_groups: frozenset  # space groups whose spaces everyone sees


@dataclass
class Flow:
    """The public names found to hold hidden information, with why."""

    game: dict[str, Source] = field(default_factory=dict)
    player: dict[str, Source] = field(default_factory=dict)
    params: dict[tuple[str, str], dict[str, Source]] = field(default_factory=dict)
    hidden_runs: dict[tuple[str, str], Source] = field(default_factory=dict)

    def names(self) -> tuple[int, int]:
        """How many public names were found (they only grow)."""
        return len(self.game), len(self.player)

    def given(self) -> dict[tuple[str, str], int]:
        """How much was found per action or event: its parameters and its run."""
        keys = set(self.params) | set(self.hidden_runs)
        return {k: len(self.params.get(k, ())) + (k in self.hidden_runs) for k in keys}

    def described(self) -> dict[str, str]:
        return {n: s.describe(n) for table in (self.game, self.player) for n, s in table.items()}


def passes_at_most(places: Places, effects: list[FlowEffect]) -> int:
    """How many passes the fixed point can take: one per thing it can find (a public
    name, a parameter, an action or event run under a hidden condition), and one to see
    that nothing more is found."""
    params = sum(len(e.params) for e in effects)
    return len(places.game_state) + len(places.player_state) + params + len(effects) + 1


def follow(program: Program, places: Places, effects: list[FlowEffect]) -> tuple[Flow, Secrecy]:
    """The fixed point over every write of ``effects``, and the secrecy check that
    treats what it found as hidden. A pass walks again only the effects whose inputs
    changed: all of them when a public name was found (any may read it, through a
    function too), else those of the actions and events given something new."""
    flow = Flow()
    runs = frozenset(e.runs_as for e in effects if e.runs_as is not None)
    secrecy = Secrecy(program)
    to_walk = effects
    for _ in range(passes_at_most(places, effects)):
        names, given = flow.names(), flow.given()
        for effect in to_walk:
            _Effect(secrecy, places, effect, flow, runs).walk()
        if flow.names() != names:
            secrecy, to_walk = Secrecy(with_flow(program, flow)), effects
        else:
            changed = {key for key, count in flow.given().items() if count != given.get(key)}
            to_walk = [e for e in effects if e.runs_as in changed]
        if not to_walk:
            break
    return flow, secrecy


def with_flow(program: Program, flow: Flow) -> Program:
    """``program`` with the tainted public names hidden, each described by its source."""
    return replace(
        program,
        hidden_names=program.hidden_names | set(flow.game),
        hidden_attributes=program.hidden_attributes | set(flow.player),
        described={**program.described, **flow.described()},
    )


class _Effect:
    """One effect's writes, under the taint found so far."""

    def __init__(
        self, secrecy: Secrecy, places: Places, effect: FlowEffect, flow: Flow, runs: frozenset
    ):
        self.secrecy, self.places, self.effect, self.flow = secrecy, places, effect, flow
        self.runs = runs  # the actions and events that have an effect here (``runs_as``)
        self.local = bound_names(effect.tree) | effect.params
        key = effect.runs_as
        given = flow.params.get(key, {}) if key else {}
        # local name -> the hidden thing it holds (parameters given hidden values)
        self.tainted: dict[str, str] = {
            n: f"{n} (given {s.what} by {s.writer} at {s.at})" for n, s in given.items()
        }
        self.shown: set[str] = set()  # locals whose piece the blocks walked show the table
        # the names a `for` or a choice binds for its block, hidden (the thing) or not
        self.binders: dict[str, str | None] = {}
        self.stopped: str | None = None  # a `stop` walked under this hidden condition
        run = flow.hidden_runs.get(key) if key else None
        self.start = None if run is None else f"{run.what} (done by {run.writer} at {run.at})"
        for guard in effect.guards:
            self.start = self.start or self.reads(guard)

    def walk(self) -> None:
        """Walks that record the writes until the locals are at their fixed point (what
        an early walk records holds: the taint only grows)."""
        for _ in range(len(self.local) + 1):
            before = len(self.tainted)
            self.stopped = None
            self._block(self.effect.tree.children, self.start, None)
            if len(self.tainted) == before:
                break

    # ------------------------------------------------------------- reading
    def reads(self, tree: Tree | Token | None, acting: str | None = None) -> str | None:
        """What hidden thing ``tree`` reads, with the locals tainted but those shown by
        the blocks around (and ``me``/``my`` when ``acting``: the acting player was
        chosen from that hidden thing)."""
        if tree is None:
            return None
        tainted = {**self.tainted, **self.binders}
        names = {n for n, what in tainted.items() if what is not None} - self.shown
        if acting is not None:
            names |= ACTING
        found = self.secrecy.reads(tree, names, self.local | ACTING)
        if found is None:
            return None
        return acting if found in ACTING else tainted.get(found) or found

    def _taint_local(self, name: str, what: str | None) -> None:
        if what is None:
            return
        if name in self.binders:
            self.binders[name] = self.binders[name] or what
        elif name not in self.tainted:
            self.tainted[name] = what

    def _bound(
        self, var: str, what: str | None, body: Tree, pc: str | None, acting: str | None
    ) -> None:
        """Walk a `for`'s or a choice's block with its name bound (to hidden items or
        not): the name is the block's own, whatever another block binds it to."""
        outer = self.binders
        self.binders = {**outer, var: what}
        self._block(body.children, pc, acting)
        self.binders = outer

    # ------------------------------------------------------------ writing
    def _record(self, table: dict, key: object, what: str | None, node: Tree) -> None:
        if what is None or key in table:
            return
        table[key] = Source(what, self.effect.writer, self.effect.at(node))

    def _write_state(self, name: str, per_player: bool, what: str | None, node: Tree) -> None:
        if per_player and name in self.places.player_state:
            self._record(self.flow.player, name, what, node)
        elif not per_player and name in self.places.game_state:
            self._record(self.flow.game, name, what, node)

    # ---------------------------------------------------------- statements
    def _block(self, statements: Iterable, pc: str | None, acting: str | None) -> None:
        statements = [s for s in statements if isinstance(s, Tree)]
        outer = self.shown
        self.shown = outer | shown_in(statements, self.places, self.program)
        for statement in statements:
            self._statement(statement, pc or self.stopped, acting)
        self.shown = outer

    def _statement(self, node: Tree, pc: str | None, acting: str | None) -> None:
        kind, children = node.data, node.children
        if kind == "let_stmt":
            self._taint_local(str(children[0]), pc or self.reads(children[2], acting))
        elif kind == "assign_stmt":
            self._assign(node, pc, acting)
        elif kind == "call_stmt":
            self._call(node, pc, acting)
        elif kind in ("do_stmt", "emit_stmt"):
            self._lead(node, pc, acting)
        elif kind == "if_stmt":
            self._if(node, pc, acting)
        elif kind in ("while_stmt", "repeat_stmt"):
            self._block(children[1].children, pc or self.reads(children[0], acting), acting)
        elif kind == "for_stmt":
            _, var, items, where, body = children
            inner = pc or self._count_reads(items, acting) or self._where_reads(where, acting)
            self._bound(str(var), self.reads(items, acting), body, inner, acting)
        elif kind == "choose_item":
            _, var, items, where, by, _, body = children
            what = self.reads(items, acting)
            if isinstance(by, Tree) and by.data == "by_chance":
                what = what or self._where_reads(where, acting)
            self._bound(str(var), what, body, pc, acting)
        elif kind == "choose_option":
            for option in children[2:]:
                if option.data == "option_each":
                    var, items, _, body = option.children
                    self._bound(str(var), self.reads(items, acting), body, pc, acting)
                else:
                    self._block(option.children[2].children, pc, acting)
        elif kind == "act_stmt":
            self._block(children[1].children, pc, self.reads(children[0], acting))
        elif kind == "stop_stmt" and pc is not None:
            self.stopped = self.stopped or pc  # what follows runs only if this did not

    @property
    def program(self) -> Program:
        return self.secrecy.program

    def _count_reads(self, items: Tree, acting: str | None) -> str | None:
        """What hidden thing decides how many times a `for` runs: none for a zone's
        pieces, whose number is public."""
        if self.secrecy.a_zone(items, self.local):
            return None
        return self.reads(items, acting)

    def _where_reads(self, where: Tree | None, acting: str | None) -> str | None:
        return self.reads(where.children[0], acting) if isinstance(where, Tree) else None

    def _if(self, node: Tree, pc: str | None, acting: str | None) -> None:
        condition = pc or self.reads(node.children[0], acting)
        self._block(node.children[1].children, condition, acting)
        for clause in node.children[2:]:
            if not isinstance(clause, Tree):
                continue
            if clause.data == "elif_clause":
                condition = condition or self.reads(clause.children[0], acting)
            self._block(clause.children[-1].children, condition, acting)

    def _assign(self, node: Tree, pc: str | None, acting: str | None) -> None:
        target, _, value = node.children
        what = pc or self.reads(value, acting)
        root, attribute, owner = _target_parts(target)
        if attribute in self.places.player_state:  # `p.mark = …`, p a local or not
            self._write_state(attribute, True, what or self.reads(owner, acting), node)
        elif root in self.local:
            self._taint_local(root, what)
        elif attribute is None:
            self._write_state(root, False, what, node)

    def _call(self, node: Tree, pc: str | None, acting: str | None) -> None:
        name = str(node.children[0])
        if name not in COUNTER_WRITES:
            return
        keyword, place = COUNTER_WRITES[name]
        positional, named = _arguments(node.children[1])
        if not positional or not _is_name(positional[0]):
            return
        counter = str(positional[0].children[0])
        amount = positional[1] if len(positional) > 1 else named.get("amount")
        player = positional[place] if len(positional) > place else named.get(keyword)
        what = pc or self.reads(amount, acting)
        what = what or (acting if player is None else self.reads(player, acting))
        self._write_state(counter, counter in self.places.player_state, what, node)

    def _lead(self, node: Tree, pc: str | None, acting: str | None) -> None:
        """`do`/`emit`: parameters given hidden values, and a run under a hidden
        condition, reach the action's or the event's effects."""
        kind = "action" if node.data == "do_stmt" else "event"
        key = (kind, str(node.children[0]))
        if key not in self.runs:
            return  # an action named by a value (which one is not known), an event unheard
        # done as a player chosen from hidden information, it may write anything of theirs
        self._record(self.flow.hidden_runs, key, pc or acting, node)
        _, named = _arguments(node.children[1])
        for param, value in named.items():
            what = self.reads(value, acting)
            if what is not None:
                given = self.flow.params.setdefault(key, {})
                if param not in given:
                    given[param] = Source(what, self.effect.writer, self.effect.at(node))


# ------------------------------------------------------------------ helpers
def _arguments(args: Tree | None) -> tuple[list, dict]:
    """A call's positional arguments and its named ones."""
    positional, named = [], {}
    for arg in args.children if isinstance(args, Tree) else ():
        if isinstance(arg, Tree) and arg.data == "named_arg":
            named[str(arg.children[0])] = arg.children[1]
        elif arg is not None:
            positional.append(arg)
    return positional, named


def _is_name(tree: object) -> bool:
    return isinstance(tree, Tree) and tree.data == "name"


def _target_parts(target: Tree | Token) -> tuple[str, str | None, Tree | None]:
    """(the root name, the attribute set on a player or None, that player's value)."""
    node = target
    while isinstance(node, Tree) and node.data in ("target_attr", "target_index"):
        node = node.children[0]
    if isinstance(node, Tree):
        node = node.children[0]
    root = str(node)
    if isinstance(target, Tree) and target.data == "target_attr":
        owner = target.children[0]
        return root, str(target.children[1]), _as_value(owner)
    return root, None, None


def _as_value(target: Tree | Token) -> Tree:
    """An assignment target's owner as the value tree ``Secrecy.reads`` walks."""
    if isinstance(target, Token):
        return Tree("name", [target])
    if target.data == "target":
        return Tree("name", [target.children[0]])
    owner = _as_value(target.children[0])
    if target.data == "target_attr":
        return Tree("attr", [owner, target.children[1]])
    return Tree("index", [owner, target.children[1]])


def shown_in(statements: Iterable, places: Places, program: Program) -> set[str]:
    """The local names whose piece ``statements`` show the table on every path: moved
    to a public zone, or revealed to everyone."""
    shown: set[str] = set()
    for node in statements:
        if not isinstance(node, Tree):
            continue
        if node.data == "call_stmt" and str(node.children[0]) in SHOWS:
            positional, named = _arguments(node.children[1])
            what = positional[0] if positional else named.get("what")
            if not _is_name(what):
                continue
            if str(node.children[0]) == "reveal":
                if len(positional) < 2 and "to" not in named:
                    shown.add(str(what.children[0]))
                continue
            to = positional[1] if len(positional) > 1 else named.get("to")
            if public_place(to, places, program, PUBLIC_ZONE_DEPTH):
                shown.add(str(what.children[0]))
        elif node.data == "if_stmt" and isinstance(node.children[-1], Tree):
            if node.children[-1].data != "else_clause":
                continue
            blocks = [node.children[1]] + [c.children[-1] for c in node.children[2:] if c]
            each = [shown_in(b.children, places, program) for b in blocks]
            shown |= set.intersection(*each)
    return shown


def public_place(tree: object, places: Places, program: Program, depth: int) -> bool:
    """Whether ``tree`` gives a zone or a space everyone sees: a public zone or space by
    name, a player's public zone, a space of a public group found by `first`, or a
    function that gives one (followed ``depth`` calls deep)."""
    if not isinstance(tree, Tree) or depth <= 0:
        return False
    kind = tree.data
    if kind == "index":  # a member of a keyed zone (`row[c.colour]`): as its family is
        return public_place(tree.children[0], places, program, depth)
    if kind == "name":
        return str(tree.children[0]) in places.public_zones
    if kind == "attr":
        return str(tree.children[1]) in places.public_zones
    if kind == "if_expr":
        return all(public_place(c, places, program, depth) for c in tree.children[1:])
    if kind != "call":
        return False
    name = str(tree.children[0])
    positional, _ = _arguments(tree.children[1])
    if name in ("first", "last") and positional:
        binder = positional[0]
        if isinstance(binder, Tree) and binder.data == "binder_arg":
            group = binder.children[1]
            return _is_name(group) and str(group.children[0]) in places.public_groups
        return False
    body = program.functions.get(name)
    return body is not None and public_place(body, places, program, depth - 1)
