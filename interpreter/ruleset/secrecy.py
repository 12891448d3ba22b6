"""Run the secrecy check (``language/secrecy.py``) over a built catalog and report each
leak at its condition, inside the YAML string; public counters and variables written
from hidden information (``check/flow.py``) count as hidden there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from interpreter.check.flow import WRITTEN, FlowEffect, Places, follow
from interpreter.language.compiled import Problem
from interpreter.language.secrecy import Leak, Program

MESSAGE = (
    "whether a decision is asked here depends on `{what}`, which not every player can "
    "see: at the table, who is asked would tell the others"
)
HINT = (
    "ask everyone the decision could concern and move this condition into its options "
    "(`may choose … where …`, `option … if …`): options stay secret to the one asked; "
    "if the rules make this fact public at the table, wrap it in `announced(…)`"
)
GAME_GOES_ON = (("rounds", "until"), ("end",))  # whether any decision is asked again
FLOW_HINT = (
    "a public counter or variable written from hidden information keeps it: if the rules "
    "make that fact public at the table, wrap the value written (or the condition it is "
    "written under) in `announced(…)`, or show the card first (`reveal(c)`, or move it "
    "to a public zone); else keep it in a counter or variable that is not public and "
    "ask everyone the decision could concern"
)


class SecrecyMixin:
    """A part of ``Builder`` (build.py): runs after every expression is compiled."""

    expression_trees: dict[tuple, Any]
    effect_trees: dict[tuple, tuple[Any, Any]]
    items: Any  # ``Builder.items``: a section's items

    def check_secrecy(self, zones: dict, counters: dict, variables: dict, spaces: dict) -> None:
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
        _, secrecy = follow(program, _places(zones, counters, variables, spaces), self._flows())
        for (section, _, _), (tree, report, scope) in self.effect_trees.items():
            if section != "scoring":  # at the final scoring every hidden thing is shown
                report([_problem(leak) for leak in secrecy.leaks(tree, frozenset(scope))])
        for (section, name, sub), tree in self.expression_trees.items():
            if section == "structure" and sub in GAME_GOES_ON:
                leak = secrecy.condition_leak(tree, None, always=True)
            else:
                guarded = self._guarded_effect(section, name, sub)
                if guarded is None:
                    continue
                leak = secrecy.condition_leak(tree, guarded)
            if leak is not None:
                self._report(self._item(section, name), sub, [_problem(leak)])

    def _flows(self) -> list[FlowEffect]:
        """Every effect whose writes the flow follows (not the final scoring's, where
        everything is shown), with the condition that decides whether it runs."""
        out = []
        for key, (tree, _, scope) in self.effect_trees.items():
            section, name, sub = key
            if section == "scoring":
                continue
            runs_as = None
            if section == "actions":
                writer, runs_as = f"action {name}", ("action", name)
            elif section == "triggers":
                event = self.section["triggers"][name].data.get("on")
                writer = f"trigger {name}"
                runs_as = None if event is None else ("event", str(event))
            elif sub == ("setup",):
                writer = "the setup"
            elif sub[0] == "phases":
                writer = f"phase {self._phase_id(sub[1])}"
            else:
                writer = f"{section} {name}"
            guards = [self.expression_trees.get(g) for g in _guard_keys(key)]
            out.append(
                FlowEffect(
                    tree,
                    writer,
                    frozenset(scope),
                    runs_as,
                    tuple(g for g in guards if g is not None),
                    _locator(self.effect_places.get(key)),
                )
            )
        return out

    def _phase_id(self, index: int) -> Any:
        structure = self.catalog.singletons.get("structure")
        phases = structure.data.get("phases") if structure is not None else None
        return phases[index].get("id", index + 1) if isinstance(phases, list) else index + 1

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
        """The effect a trigger's `when` or a phase's `while`/`skip` decides to run, or
        whom a phase's `order` asks it of."""
        if section == "triggers" and sub == ("when",):
            found = self.effect_trees.get((section, name, ("effect",)))
        elif len(sub) == 3 and sub[0] == "phases" and sub[2] in ("while", "skip", "order"):
            found = self.effect_trees.get((section, name, (*sub[:2], "effect")))
        else:
            return None
        return found[0] if found else None


def _problem(leak: Leak) -> Problem:
    hint = FLOW_HINT if WRITTEN in leak.what else HINT
    return Problem(leak.line, leak.column, MESSAGE.format(what=leak.what), hint, "secrecy")


def _places(zones: dict, counters: dict, variables: dict, spaces: dict) -> Places:
    """What the flow reads of the declarations: the public names it may find tainted,
    and the zones, spaces and space groups everyone sees."""
    state = [(n, d.per) for t in (counters, variables) for n, d in t.items()]
    public_state = {(n, per) for n, per in state if _public(counters, variables, n)}
    groups: dict[str, bool] = {}
    for space in spaces.values():
        groups[space.group] = groups.get(space.group, True) and space.visibility == "public"
    return Places(
        game_state=frozenset(n for n, per in public_state if per == "game"),
        player_state=frozenset(n for n, per in public_state if per == "player"),
        public_zones=frozenset(
            [n for n, d in zones.items() if d.visibility == "public"]
            + [n for n, d in spaces.items() if d.visibility == "public"]
        ),
        public_groups=frozenset(g for g, public in groups.items() if public),
    )


def _public(counters: dict, variables: dict, name: str) -> bool:
    found = counters.get(name) or variables.get(name)
    return found is not None and found.visibility == "public"


def _guard_keys(key: tuple) -> list[tuple]:
    """The conditions that decide whether the effect at ``key`` runs: a trigger's
    `when`, a phase's `while` and `skip`."""
    section, name, sub = key
    if section == "triggers":
        return [(section, name, ("when",))]
    if len(sub) == 3 and sub[0] == "phases":
        return [(section, name, (*sub[:2], part)) for part in ("while", "skip")]
    return []


def _locator(locate: Any) -> Any:
    """``(line, column) -> "file:line:col"`` of an effect's text, for messages."""
    if locate is None:
        return None

    def where(line: int, column: int) -> str:
        found = locate(line, column)
        return f"{Path(found.path).name}:{found.line}:{found.column}"

    return where
