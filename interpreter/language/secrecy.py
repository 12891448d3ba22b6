"""The secrecy check: no decision may exist *because of* hidden information.

At a real table everyone sees who is asked to decide. So if whether a player is
asked, or which player, depends on something some players cannot see (a hand, a
face-down pile, a private counter), the question itself tells them what it is. This
check finds, in every effect of a ruleset, a condition that reads hidden information
and guards a decision (`if`, `elif`, `while`, a `for … where` or its items, `repeat`,
a trigger's `when`, a phase's `while`, the rounds' `until` and the `end`) or names the
player asked (`act as`, `choose … by`, a phase's `order`), and reports it there.

A public counter or variable written from hidden information holds it: the ruleset's
writes are followed by ``check/flow.py``, and the names it finds are hidden here
(``Program.described`` says how each was written). Such a name also may not decide
whether a choice without `may` has a legal option (``options``): with none, the
choice is skipped.

What a player may choose is not affected: the options of a decision (`choose … in …
where …`, `option … if …`) stay secret to the player asked, so the fix is always
to ask everyone the decision could concern and put the condition into the options.
Where the rules make a fact public at the table (a drawn card that must be shown),
``announced(…)`` says so and the check trusts it. What ``marked(c, …)`` reads of a
hidden piece is public too: its marks were told to everyone (``mark``).

The analysis works on the parse trees, once, when a ruleset is built:

* *hidden reads*: the contents of a zone whose visibility is not public (``size``,
  ``empty``, ``capacity``, ``free``, ``id``, ``group`` and ``owner`` of a zone are
  public), a counter or variable that is not public, a user function or an action's
  requirements (`can`) that read one, and local names bound to such a value;
* *deciding*: a `choose` that is not `by chance`, a `simultaneous for`, a `do` of an
  action that decides (any action when it is named by a value), an `emit` of an
  event some trigger of which decides.

Known limits: which piece a player chose stays their secret, but the decisions that
follow it (their count) are not checked; a zone reached through a value (a
parameter of type zone) counts as public.

`rules validate` checks every combination of a ruleset's expansions, and most of
their trees are the very same objects (one tree per text and process): a walk's
answer is kept with the facts it could depend on, those of the names its tree
mentions, and given again while they are the same (``_Walks``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from lark import Token, Tree

from interpreter.identity_memo import by_identity
from interpreter.language.syntax_tree import _pos

PUBLIC_ZONE_ATTRIBUTES = frozenset({"size", "empty", "capacity", "free", "id", "group", "owner"})
# calls whose value is public whatever they read: a fact the rules say is made public
# at the table, and what the public marks on a piece say (``engine/marks.py``)
DECLASSIFY = frozenset({"announced", "marked"})


@dataclass(frozen=True)
class Leak:
    """A condition (at ``line``:``column`` of its text) that reads ``what`` and guards a
    decision."""

    line: int
    column: int
    what: str


@dataclass
class Program:
    """The parse trees of a ruleset, by role, and what is hidden in it."""

    hidden_names: set[str]  # game zones, counters and variables that are not public
    hidden_attributes: set[str]  # the same, per player (`p.hand`)
    zones: set[str]  # every zone name
    functions: dict[str, Tree] = field(default_factory=dict)  # name -> value expression
    requires: dict[str, list[Tree]] = field(default_factory=dict)  # action -> conditions
    actions: dict[str, Tree] = field(default_factory=dict)  # action -> effect
    params: dict[str, frozenset] = field(default_factory=dict)  # function/action -> names
    triggers: dict[str, list[Tree]] = field(default_factory=dict)  # event -> effects
    # public names that hold hidden information (``check/flow.py``) -> how to name them
    described: dict[str, str] = field(default_factory=dict)


class Secrecy:
    """Answers, for one ``Program``, which conditions leak."""

    def __init__(self, program: Program):
        self.program = program
        self.hidden_functions: dict[str, str] = {}
        self.hidden_requirements: dict[str, str] = {}
        self.deciding_actions: set[str] = set()
        self.deciding_events: set[str] = set()
        # per name, the facts a walk reads of it (a name with none is absent): what a
        # kept walk's answer depends on (``_Walks``); updated as the facts are found
        self._read_facts: dict[str, tuple] = {}
        self._decide_facts: dict[str, tuple] = {}
        for name in program.hidden_names | program.hidden_attributes | program.zones:
            self._note_read_facts(name)
        for name in program.actions:
            self._note_decide_facts(name)
        self._solve()

    def _note_read_facts(self, name: str) -> None:
        program = self.program
        self._read_facts[name] = (
            program.described.get(name),
            name in program.hidden_names,
            name in program.hidden_attributes,
            name in program.zones,
            self.hidden_functions.get(name),
            self.hidden_requirements.get(name),
        )

    def _note_decide_facts(self, name: str) -> None:
        self._decide_facts[name] = (
            name in self.program.actions,
            name in self.deciding_actions,
            name in self.deciding_events,
        )

    def _reads_facts(self, tree: Tree) -> tuple:
        return tuple(map(self._read_facts.get, _mentions(tree)))

    def _decides_facts(self, tree: Tree) -> tuple:
        return tuple(map(self._decide_facts.get, _mentions(tree)))

    def _top_reads(self, tree: Tree, local: frozenset) -> str | None:
        """``reads`` of a whole tree with nothing tainted, kept across builds."""
        if not isinstance(tree, Tree):
            return self.reads(tree, set(), local)
        return WALKS.recall(
            ("reads", local),
            tree,
            self._reads_facts(tree),
            lambda: self.reads(tree, set(), local),
        )

    def _top_decides(self, tree: Tree) -> bool:
        """``decides`` of a whole tree, kept across builds."""
        if not isinstance(tree, Tree):
            return self.decides(tree)
        facts = self._decides_facts(tree)
        return WALKS.recall(("decides",), tree, facts, lambda: self.decides(tree))

    # ------------------------------------------------------------- facts
    def _solve(self) -> None:
        """The facts, each to its fixed point (functions call functions, actions do
        actions and emit events). A pass walks again only a tree that mentions a name
        found out since its last walk: no other answer can have changed, so the facts,
        and which hidden thing each names first, are those of walking all every pass."""
        program = self.program
        found = _Found()
        changed = True
        while changed:  # functions may call functions
            changed = False
            for name, tree in program.functions.items():
                if name in self.hidden_functions or not found.may_change(name, _called(tree)):
                    continue
                what = self._top_reads(tree, bound_names(tree) | program.params[name])
                if what is not None:
                    self.hidden_functions[name] = what
                    self._note_read_facts(name)
                    found.add(name)
                    changed = True
        for action, conditions in program.requires.items():
            for tree in conditions:
                what = self._top_reads(tree, bound_names(tree) | program.params[action])
                if what is not None:
                    self.hidden_requirements[action] = what
                    self._note_read_facts(action)
                    break
        found = _Found()
        triggered = {e: frozenset().union(*map(_led_to, t)) for e, t in program.triggers.items()}
        changed = True
        while changed:  # actions do actions and emit events
            changed = False
            for name, tree in program.actions.items():
                key = ("action", name)
                if name in self.deciding_actions or not found.may_change(key, _led_to(tree)):
                    continue
                if self._top_decides(tree):
                    self.deciding_actions.add(name)
                    self._note_decide_facts(name)
                    found.add(key)
                    changed = True
            for event, effects in program.triggers.items():
                key = ("event", event)
                if event in self.deciding_events:
                    continue
                if not found.may_change(key, triggered[event]):
                    continue
                if any(self._top_decides(t) for t in effects):
                    self.deciding_events.add(event)
                    self._note_decide_facts(event)
                    found.add(key)
                    changed = True

    def reads(
        self, tree: Tree | Token | None, tainted: set[str], local: frozenset = frozenset()
    ) -> str | None:
        """What hidden thing ``tree`` reads (a name to show), or None. Names in ``local``
        (parameters, bound names) are hidden only when ``tainted``."""
        if not isinstance(tree, Tree):
            return None
        kind = tree.data
        program = self.program
        if kind == "name":
            name = str(tree.children[0])
            if name in tainted:
                return name
            if name not in local and name in program.hidden_names:
                return program.described.get(name, name)
            return None
        if kind == "attr":
            owner, attribute = tree.children[0], str(tree.children[1])
            if attribute in PUBLIC_ZONE_ATTRIBUTES and self._names_zone(owner, local):
                inner = owner.children[0] if owner.data == "attr" else None
                return self.reads(inner, tainted, local)
            if attribute in program.hidden_attributes:
                return program.described.get(attribute, attribute)
            return self.reads(owner, tainted, local)
        if kind == "call":
            name = str(tree.children[0])
            if name in DECLASSIFY:
                return None
            args = [a for a in (tree.children[1].children if tree.children[1] else ()) if a]
            if name == "count" and len(args) == 1 and self.a_zone(args[0], local):
                return None  # how many pieces a zone holds is public
            if name in self.hidden_functions:
                return f"{name}() ({self.hidden_functions[name]})"
        if kind == "can_expr":
            name = str(tree.children[0])
            if name in self.hidden_requirements:
                return f"can {name} ({self.hidden_requirements[name]})"
        for child in tree.children:
            what = self.reads(child, tainted, local)
            if what is not None:
                return what
        return None

    def a_zone(self, tree: Tree | Token, local: frozenset) -> bool:
        """Whether ``tree`` is a zone or its pieces (`my.hand`, `p.table.pieces`): as a
        `for`'s items, it tells only how many pieces the zone holds, which is public."""
        if isinstance(tree, Tree) and tree.data == "attr" and str(tree.children[1]) == "pieces":
            tree = tree.children[0]
        return self._names_zone(tree, local)

    def _names_zone(self, tree: Tree | Token, local: frozenset) -> bool:
        if not isinstance(tree, Tree):
            return False
        if tree.data == "index":  # a member of a keyed zone, `p.row[k]`
            return self._names_zone(tree.children[0], local)
        if tree.data == "name":
            name = str(tree.children[0])
            return name not in local and name in self.program.zones
        return tree.data == "attr" and str(tree.children[1]) in self.program.zones

    def decides(self, tree: Tree | Token | None) -> bool:
        """Whether running ``tree`` (statements) may open a player's decision."""
        if not isinstance(tree, Tree):
            return False
        kind = tree.data
        if kind == "choose_item" and not _by_chance(tree.children[4]):
            return True
        if kind == "choose_option" and not _by_chance(tree.children[1]):
            return True
        if kind == "for_stmt" and tree.children[0] is not None:
            return True
        if kind == "do_stmt":
            name = str(tree.children[0])
            return name not in self.program.actions or name in self.deciding_actions
        if kind == "emit_stmt":
            return str(tree.children[0]) in self.deciding_events
        return any(self.decides(child) for child in tree.children)

    # ------------------------------------------------------------ checks
    def leaks(self, effect: Tree, params: frozenset = frozenset()) -> list[Leak]:
        """Every condition of ``effect`` that reads hidden information and guards a
        decision; ``params`` are the effect's parameters."""
        facts = (self._reads_facts(effect), self._decides_facts(effect))
        found = WALKS.recall(("leaks", params), effect, facts, lambda: self._leaks(effect, params))
        return list(found)

    def _leaks(self, effect: Tree, params: frozenset) -> tuple[Leak, ...]:
        local = bound_names(effect) | params
        tainted = self._tainted(effect, local)
        out: list[Leak] = []
        for condition, guarded in guards(effect):
            if not any(self.decides(b) for b in guarded) or self.a_zone(condition, local):
                continue
            what = self.reads(condition, tainted, local)
            if what is not None:
                line, column = _pos(condition)
                out.append(Leak(line, column, what))
        for condition in options(effect):
            what = self.reads(condition, tainted, local)
            if what is not None and self._written(what):
                line, column = _pos(condition)
                out.append(Leak(line, column, what))
        return tuple(sorted(out, key=lambda leak: (leak.line, leak.column)))

    def _written(self, what: str) -> bool:
        """Whether ``what`` names a public name written from hidden information."""
        return any(described in what for described in self.program.described.values())

    def condition_leak(
        self, condition: Tree, effect: Tree | None, always: bool = False
    ) -> Leak | None:
        """A trigger's `when` or a phase's `while` guarding ``effect``; ``always``: a
        condition on which every later decision hangs (whether the game goes on)."""
        if not always and (effect is None or not self.decides(effect)):
            return None
        what = self.reads(condition, set(), bound_names(condition))
        if what is None:
            return None
        line, column = _pos(condition)
        return Leak(line, column, what)

    def _tainted(self, effect: Tree, local: frozenset) -> set[str]:
        """Local names bound to hidden values anywhere in the effect (to a fixed point)."""
        tainted: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, value in bindings(effect):
                if name not in tainted and self.reads(value, tainted, local):
                    tainted.add(name)
                    changed = True
        return tainted


class _Found:
    """The names a fixed point has found out so far, in order, and when each tree was
    last walked: a tree need not be walked again unless a name it mentions was found
    out since."""

    def __init__(self) -> None:
        self.when: dict[Any, int] = {}  # name -> its place in the order found
        self.walked: dict[Any, int] = {}  # tree's key -> how many were found at its walk

    def add(self, name: Any) -> None:
        self.when[name] = len(self.when) + 1

    def may_change(self, key: Any, mentions: frozenset) -> bool:
        """Whether walking ``key``'s tree again may give another answer; if so, it is
        counted as walked now."""
        last = self.walked.get(key)
        if last is not None and all(self.when.get(m, 0) <= last for m in mentions):
            return False
        self.walked[key] = len(self.when)
        return True


class _Walks:
    """Walks' answers kept per process: by the tree's identity (one tree per text, so
    the same object in every build of a ruleset's combinations) and what was asked,
    each with the facts of the names the tree mentions at the time, given again only
    for the same facts. A walk reads nothing of its ``Secrecy`` but those facts and
    the tree, so the answer is the one walking again would give."""

    def __init__(self) -> None:
        self._kept: dict[tuple, list[tuple[Tree, tuple, Any]]] = {}
        self._count = 0

    def recall(self, asked: tuple, tree: Tree, facts: tuple, walk: Any) -> Any:
        """``walk()``'s answer, or the one kept for ``tree``, ``asked`` and ``facts``."""
        key = (id(tree), *asked)
        entries = self._kept.get(key)
        if entries is not None:
            for kept_tree, kept_facts, answer in entries:
                if kept_tree is tree and kept_facts == facts:
                    return answer
        answer = walk()
        if self._count >= MAX_KEPT:
            self._kept.clear()
            self._count = 0
        self._kept.setdefault(key, []).append((tree, facts, answer))
        self._count += 1
        return answer


MAX_KEPT = 20_000  # walks kept per process (a ruleset has a few hundred trees)
WALKS = _Walks()


class _Survey:
    """What the check reads of a tree apart from the facts, found in one walk of it."""

    __slots__ = ("bindings", "bound", "called", "led_to", "mentions")

    def __init__(self, tree: Tree) -> None:
        mentions: dict[str, None] = {}
        called, led_to, bound = set(), set(), set()
        bindings = []
        for node in tree.iter_subtrees():
            kind, children = node.data, node.children
            for child in children:
                if type(child) is Token:
                    mentions[str(child)] = None
            if kind not in NOTED:
                continue
            if kind == "call":
                called.add(str(children[0]))
            elif kind in LEADS:
                led_to.add((LEADS[kind], str(children[0])))
            index = BINDERS.get(kind)
            if index is not None and isinstance(children[index], Token):
                bound.add(str(children[index]))
            if kind in BINDING:
                name, value = _binding(node)
                if name is not None:
                    bindings.append((name, value))
        # every token's text, once: the names whose facts a walk may read
        self.mentions: tuple[str, ...] = tuple(mentions)
        self.called = frozenset(called)
        self.led_to = frozenset(led_to)
        self.bound = frozenset(bound)
        self.bindings: tuple[tuple[str, Tree | None], ...] = tuple(bindings)


@by_identity
def survey(tree: Tree) -> _Survey:
    """A tree's ``_Survey``, made once per tree."""
    return _Survey(tree)


LEADS = {"do_stmt": "action", "emit_stmt": "event"}
BINDING = frozenset({"let_stmt", "assign_stmt", "for_stmt"})  # what ``_binding`` reads


def _mentions(tree: Tree) -> tuple[str, ...]:
    """Every token's text in a tree, once each: the names whose facts a walk may read."""
    return survey(tree).mentions


def _called(tree: Tree) -> frozenset:
    """The names a tree calls (whether it reads hidden information depends on theirs)."""
    return survey(tree).called


def _led_to(tree: Tree) -> frozenset:
    """The actions a tree does and the events it emits, as ``("action"|"event", name)``
    (whether it decides depends on theirs)."""
    return survey(tree).led_to


BINDERS = {
    "let_stmt": 0,
    "for_stmt": 1,
    "choose_item": 1,
    "option_each": 0,
    "binder_arg": 0,
    "mapper_arg": 1,
    "for_clause": 0,  # a further `for` of a comprehension (`… for a in A for b in B`)
}
NOTED = frozenset({"call", *LEADS, *BINDING, *BINDERS})  # the nodes a survey notes


def bound_names(tree: Tree) -> frozenset:
    """The local names a tree binds (`let`, `for`, `choose`, `x in …`, `… for x in …`)."""
    return survey(tree).bound


def bindings(effect: Tree) -> tuple[tuple[str, Tree | None], ...]:
    """``(name, value)`` of every local an effect binds to a value, in
    ``iter_subtrees`` order (what taints a name; worked out once per tree)."""
    return survey(effect).bindings


@by_identity
def guards(effect: Tree) -> tuple[tuple[Tree, list[Tree]], ...]:
    """``(condition, the blocks it decides whether to run)`` of every statement of an
    effect, top-down (what ``leaks`` asks of each; worked out once per tree)."""
    found = []
    stack: list[Any] = [effect]
    while stack:  # ``iter_subtrees_topdown``'s walk, without a generator
        node = stack.pop()
        if not isinstance(node, Tree):
            continue
        if node.data in GUARDING:
            pairs = [(c, guarded) for c, guarded in _guards(node) if c is not None]
            found += pairs
            if node.data in STOPPING and any(_stops(b) for _, guarded in pairs for b in guarded):
                found += [(c, [effect]) for c, _ in pairs]  # a `stop`: what follows hangs on it
        stack.extend(reversed(node.children))
    return tuple(found)


STOPPING = frozenset({"if_stmt", "while_stmt", "repeat_stmt", "for_stmt"})


def _stops(block: Tree) -> bool:
    """Whether a `stop` in ``block`` may end the effect (what follows it runs only if
    the condition that guards the block did not hold)."""
    return any(node.data == "stop_stmt" for node in block.iter_subtrees())


@by_identity
def options(effect: Tree) -> tuple[Tree, ...]:
    """What decides whether a choice without `may` has a legal option (without one it is
    skipped, not asked): its items and `where`, its options' `if`s. With `may` it is
    always asked (`pass`), and a choice by chance asks no one."""
    found: list[Tree] = []
    for node in effect.iter_subtrees_topdown():
        if node.data == "choose_item" and node.children[0] is None:
            if not _by_chance(node.children[4]):
                found += [node.children[2], *_where(node.children[3])]
        elif node.data == "choose_option" and node.children[0] is None:
            for option in node.children[2:]:
                if option.data == "option_each":
                    found += [option.children[1], *_where(option.children[2])]
                elif option.children[1] is not None:
                    found.append(option.children[1].children[0])
    return tuple(found)


def _where(where: Tree | None) -> list[Tree]:
    return [where.children[0]] if isinstance(where, Tree) else []


GUARDING = frozenset(
    {"if_stmt", "while_stmt", "repeat_stmt", "for_stmt", "act_stmt", "choose_item", "choose_option"}
)  # see _guards


def _by_chance(by: Tree | None) -> bool:
    return isinstance(by, Tree) and by.data == "by_chance"


def _binding(node: Tree) -> tuple[str | None, Tree | None]:
    if node.data == "let_stmt":
        return str(node.children[0]), node.children[2]
    if node.data == "assign_stmt":
        target = node.children[0]
        if isinstance(target, Tree) and target.data == "target" and len(target.children) == 1:
            return str(target.children[0]), node.children[2]
    if node.data == "for_stmt":
        return str(node.children[1]), node.children[2]
    return None, None


def _guards(node: Tree) -> Iterable[tuple[Tree | None, list[Tree]]]:
    """(condition, the blocks it decides whether to run) of one statement."""
    kind = node.data
    if kind == "if_stmt":
        blocks = [node.children[1]]
        for clause in node.children[2:]:
            if isinstance(clause, Tree):
                blocks.append(clause.children[-1])
        yield node.children[0], blocks
        for clause in node.children[2:]:
            if isinstance(clause, Tree) and clause.data == "elif_clause":
                yield clause.children[0], blocks
    elif kind == "while_stmt" or kind == "repeat_stmt":
        yield node.children[0], [node.children[1]]
    elif kind == "for_stmt":
        where = node.children[3]
        yield (where.children[0] if isinstance(where, Tree) else None), [node.children[4]]
        yield node.children[2], [node.children[4]]  # its items: whom, how many times
    elif kind == "act_stmt":  # who is asked
        yield node.children[0], [node.children[1]]
    else:  # a choice: who is asked, when `by` names them
        by = node.children[4] if kind == "choose_item" else node.children[1]
        if isinstance(by, Tree) and by.data == "by":
            yield by.children[0], [node]
