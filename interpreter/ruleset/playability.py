"""Checks that a valid ruleset can be played to its end: what the types cannot see.

* The course ends: the rounds have a `count`, an `until` or an `end`; a `turns` phase
  says with `while` how long turns go on.
* No action, event or requirement leads back to itself through `do`, `emit` and `can`
  (the run would nest without end).
* `me`, `my` and a `choose` without `by` stand only where a player acts: not directly
  in the setup, a `once` phase, a final scoring step or a course condition, unless
  inside `act as` (or a `for` over players that uses `act as`).

Run-time caps back them up (``engine/course.py``, ``language/runtime.py``).
"""

from __future__ import annotations

from typing import Any

from lark import Token, Tree

from interpreter.identity_memo import by_identity
from interpreter.language.compiled import Problem
from interpreter.language.syntax_tree import _pos, references

BY = {"choose_item": 4, "choose_option": 1}  # where a choice's `by` is in its tree


class PlayabilityMixin:
    """A part of ``Builder`` (build.py): runs after every expression is compiled."""

    expression_trees: dict[tuple, Any]
    effect_trees: dict[tuple, tuple[Any, Any, Any]]

    def check_playability(self) -> None:
        self._check_course_ends()
        self._check_recursion()
        self._check_player_context()

    # ---------------------------------------------------------------- course
    def _check_course_ends(self) -> None:
        item = self.catalog.singletons.get("structure")
        if item is None or not isinstance(item.data, dict):
            return
        if any(section == "structure" for _, section, _ in self.catalog.broken):
            return  # a broken structure is reported by the schema already
        data = item.data
        rounds = data.get("rounds") or {}
        if isinstance(rounds, dict) and not (
            "count" in rounds or "until" in rounds or "end" in data
        ):
            self.error(
                item.location("rounds") if "rounds" in data else item.location(),
                "the rounds never end: there is no `rounds: count`, `rounds: until` or `end`",
                "say when the game ends: `rounds: {count: 7}`, `rounds: {until: …}` or `end: …`",
                kind="type",
            )
        for index, phase in enumerate(data.get("phases") or []):
            if isinstance(phase, dict) and phase.get("kind") == "turns" and "while" not in phase:
                self.error(
                    item.location("phases", index, "kind"),
                    f"the `turns` phase {phase.get('id', index)!r} has no `while`: its turns "
                    "would go round without end",
                    "add `while: …`, the condition under which a player takes another turn "
                    "(e.g. `while: my.hand.size > 0`)",
                    kind="type",
                )

    # ------------------------------------------------------------- recursion
    def _check_recursion(self) -> None:
        edges: dict[str, list[tuple[str, Any, tuple[int, int]]]] = {}
        actions = set(self.section["actions"])
        triggers_on: dict[str, list[str]] = {}
        for trigger in self.section["triggers"].values():
            if isinstance(trigger.data, dict) and trigger.data.get("on") is not None:
                triggers_on.setdefault(str(trigger.data["on"]), []).append(trigger.id)
        functions = set(self.section["functions"])

        def add(source: str, tree: Tree, report: Any) -> None:
            for kind, name, at in references(tree):
                target = None
                if kind in ("do_stmt", "can_expr") and name in actions:
                    target = f"action {name}"
                elif kind == "call" and name in functions:
                    target = f"function {name}"
                elif kind == "emit_stmt":
                    for trigger in triggers_on.get(name, ()):
                        edges.setdefault(source, []).append((f"trigger {trigger}", report, at))
                if target is not None:
                    edges.setdefault(source, []).append((target, report, at))

        for (section, name, _sub), (tree, report, _) in self.effect_trees.items():
            if section == "actions":
                add(f"action {name}", tree, report)
            elif section == "triggers":
                add(f"trigger {name}", tree, report)
        for (section, name, sub), tree in self.expression_trees.items():
            item = self.section.get(section, {}).get(name)
            if item is None:
                continue
            report = _reporter(self, item, sub)
            if section == "actions" and sub[0] == "requires":
                add(f"action {name}", tree, report)
            elif section == "functions":
                add(f"function {name}", tree, report)
        for cycle, report, (line, column) in _cycles(edges):
            if cycle[0].startswith("function") and all(n.startswith("function") for n in cycle):
                continue  # functions calling themselves are reported where they are built
            path = " → ".join([*cycle, cycle[0]])
            report(
                [
                    Problem(
                        line,
                        column,
                        f"this leads back to where it starts: {path}; it would never end",
                        "an action, event or requirement must not lead back to itself "
                        "through `do`, `emit` or `can`; use a `while` loop instead",
                        "type",
                    )
                ]
            )

    # -------------------------------------------------------- player context
    def _check_player_context(self) -> None:
        structure = self.catalog.singletons.get("structure")
        phases = (structure.data.get("phases") or []) if structure is not None else []
        for (section, _name, sub), (tree, report, _) in self.effect_trees.items():
            if _no_player(section, sub, phases):
                report([_problem(*found) for found in _outside_act(tree)])
        for (section, _name, sub), tree in self.expression_trees.items():
            if section == "structure" and (
                sub in (("rounds", "until"), ("end",))
                or (len(sub) == 3 and sub[0] == "phases" and sub[2] in ("skip", "order"))
            ):
                item = self.catalog.singletons.get("structure")
                found = [_problem(*f) for f in _outside_act(tree)]
                if found and item is not None:
                    self._report(item, sub, found)


def _reporter(builder: Any, item: Any, sub: tuple) -> Any:
    def report(found: list[Problem]) -> None:
        builder._report(item, sub, found)

    return report


def _no_player(section: str, sub: tuple, phases: list) -> bool:
    """Whether the effect at (section, sub) runs with no player acting."""
    if section == "scoring":
        return True
    if section != "structure":
        return False
    if sub == ("setup",):
        return True
    if len(sub) == 3 and sub[0] == "phases" and sub[2] == "effect":
        phase = phases[sub[1]] if sub[1] < len(phases) else {}
        return isinstance(phase, dict) and phase.get("kind", "once") == "once"
    return False


@by_identity
def _outside_act(tree: Tree | Token) -> tuple[tuple[int, int, str], ...]:
    """``_player_uses`` of a whole tree, where no player acts (the same tree in every
    combination of a ruleset's expansions that leaves its text alone)."""
    return tuple(_player_uses(tree, acting=False))


def _player_uses(tree: Tree | Token, acting: bool) -> list[tuple[int, int, str]]:
    """`me`, `my` and choices without `by` outside `act as`."""
    if not isinstance(tree, Tree):
        return []
    if tree.data == "act_stmt":
        return _player_uses(tree.children[0], acting) + _player_uses(tree.children[1], True)
    out = []
    if not acting:
        if tree.data == "name" and str(tree.children[0]) in ("me", "my"):
            out.append((*_pos(tree), str(tree.children[0])))
        elif tree.data in BY and tree.children[BY[tree.data]] is None:
            out.append((*_pos(tree), "choose"))
    for child in tree.children:
        out += _player_uses(child, acting)
    return out


def _problem(line: int, column: int, what: str) -> Problem:
    if what == "choose":
        message = "a choice here has nobody to make it: no player acts in this part of the game"
        hint = "say who chooses: `choose … by p`, or put it inside `act as p { … }`"
    else:
        message = f"`{what}` names the acting player, but no player acts in this part of the game"
        hint = "name the player (`p.…`, `for p in players { … }`) or use `act as p { … }`"
    return Problem(line, column, message, hint, "type")


def _cycles(
    edges: dict[str, list[tuple[str, Any, tuple[int, int]]]],
) -> list[tuple[list[str], Any, tuple[int, int]]]:
    """Each cycle of the graph once: its nodes, and the edge that closes it."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []
    found = []
    seen: set[frozenset] = set()

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for target, report, where in edges.get(node, ()):
            if state.get(target) == 1:
                cycle = path[path.index(target) :]
                key = frozenset(cycle)
                if key not in seen:
                    seen.add(key)
                    found.append((cycle, report, where))
            elif target not in state:
                visit(target)
        path.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found
