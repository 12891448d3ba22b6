"""Run the secrecy check (``language/secrecy.py``) over a built catalog and report each
leak at its condition, inside the YAML string."""

from __future__ import annotations

from typing import Any

from interpreter.language.compiled import Problem
from interpreter.language.secrecy import Leak, Program, Secrecy

MESSAGE = (
    "whether a decision is asked here depends on `{what}`, which not every player can "
    "see: at the table, who is asked would tell the others"
)
HINT = (
    "ask everyone the decision could concern and move this condition into its options "
    "(`may choose … where …`, `option … if …`): options stay secret to the one asked; "
    "if the rules make this fact public at the table, wrap it in `announced(…)`"
)


class SecrecyMixin:
    """A part of ``Builder`` (build.py): runs after every expression is compiled."""

    expression_trees: dict[tuple, Any]
    effect_trees: dict[tuple, tuple[Any, Any]]
    items: Any  # ``Builder.items``: a section's items

    def check_secrecy(self, zones: dict, counters: dict, variables: dict) -> None:
        hidden = [
            (n, d.per)
            for table in (zones, counters, variables)
            for n, d in table.items()
            if d.visibility != "public"
        ]
        program = Program(
            hidden_names={n for n, per in hidden if per == "game"},
            hidden_attributes={n for n, per in hidden if per == "player"} | self._faces(zones),
            zones=set(zones),
        )
        symbols = self.compiler.symbols
        for table in (symbols.functions, symbols.actions):
            for name, signature in table.items():
                program.params[name] = frozenset(signature.params)
        for (section, name, sub), tree in self.expression_trees.items():
            if section == "functions" and sub == ("value",):
                program.functions[name] = tree
            elif section == "actions" and sub[0] == "requires":
                program.requires.setdefault(name, []).append(tree)
        for (section, name, sub), (tree, _, _) in self.effect_trees.items():
            if section == "actions" and sub == ("effect",):
                program.actions[name] = tree
            elif section == "triggers":
                event = self.section["triggers"][name].data.get("on")
                program.triggers.setdefault(str(event), []).append(tree)
        secrecy = Secrecy(program)
        for (section, _, _), (tree, report, scope) in self.effect_trees.items():
            if section != "scoring":  # at the final scoring every hidden thing is shown
                report([_problem(leak) for leak in secrecy.leaks(tree, frozenset(scope))])
        for (section, name, sub), tree in self.expression_trees.items():
            guarded = self._guarded_effect(section, name, sub)
            if guarded is None:
                continue
            leak = secrecy.condition_leak(tree, guarded)
            if leak is not None:
                self._report(self._item(section, name), sub, [_problem(leak)])

    def _faces(self, zones: dict) -> set[str]:
        """`face`, as a hidden attribute, where dice may lie in a zone not everyone sees:
        a die read through its kind's name (`count(d in die where d.face == 6)`) reads
        no zone, yet may be under a cup (``ruleset/dice.py``). A face the rules show
        is `announced(…)`."""
        dice = any("faces" in item.data for item in self.items("kinds"))
        hidden = any(zone.visibility != "public" for zone in zones.values())
        return {"face"} if dice and hidden else set()

    def _item(self, section: str, name: str) -> Any:
        items = self.section.get(section, {})
        return items[name] if name in items else self.catalog.singletons.get(section)

    def _guarded_effect(self, section: str, name: str, sub: tuple) -> Any:
        """The effect a trigger's `when` or a phase's `while`/`skip` decides to run."""
        if section == "triggers" and sub == ("when",):
            found = self.effect_trees.get((section, name, ("effect",)))
        elif len(sub) == 3 and sub[0] == "phases" and sub[2] in ("while", "skip"):
            found = self.effect_trees.get((section, name, (*sub[:2], "effect")))
        else:
            return None
        return found[0] if found else None


def _problem(leak: Leak) -> Problem:
    return Problem(leak.line, leak.column, MESSAGE.format(what=leak.what), HINT, "secrecy")
