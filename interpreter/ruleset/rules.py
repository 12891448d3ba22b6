"""What happens: functions, actions, triggers, the course of the game (setup, rounds,
phases) and final scoring, compiled once."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from interpreter.engine.result_mode import HIGHEST, MODES, ResultMode
from interpreter.language.compiled import did_you_mean
from interpreter.language.symbols import Symbols
from interpreter.language.syntax_tree import references
from interpreter.language.values import (
    ANY,
    BOOL,
    NUMBER,
    PLAYER,
    list_of,
)
from interpreter.load.yaml_source import value_at
from interpreter.ruleset.conversions import (
    freeze,
    reaches,
)

if TYPE_CHECKING:
    from interpreter.load.ruleset_files import Item

from interpreter.ruleset.model import (
    ActionDef,
    PhaseDef,
    Requirement,
    ScoringStep,
    TriggerDef,
)

_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")  # a name followed by `(`


def _called(text: str) -> frozenset[str]:
    """The names a text calls (as the function check reads them: a name before `(`)."""
    return frozenset(_CALLED.findall(text))


class RulesMixin:
    """A part of ``Builder`` (build.py)."""

    def functions(self, symbols: Symbols) -> dict[str, tuple[tuple[str, ...], Any]]:
        items = self.items("functions")
        called = {i.id: _called(str(i.data.get("value", ""))) for i in items}
        declared = symbols.functions.keys()
        calls = {name: (names & declared) - {name} for name, names in called.items()}
        for item in items:
            if item.id in called[item.id] or reaches(item.id, calls):
                self.error(
                    item.location("value"),
                    f"function {item.id!r} calls itself",
                    "functions may not be recursive; use a `for` in an effect",
                    kind="type",
                )
        out = {}
        for item in items:
            signature = symbols.functions[item.id]
            expect = signature.returns if signature.returns != ANY else None
            fn = self.expression(item, ("value",), dict(signature.params), expect, item.id)
            out[item.id] = (tuple(signature.params), fn)
        return out

    def actions(self, symbols: Symbols) -> dict[str, ActionDef]:
        out = {}
        for item in self.items("actions"):
            signature = symbols.actions[item.id]
            scope = dict(signature.params)
            requires, subs = [], []
            for index, req in enumerate(item.data.get("requires") or []):
                if not isinstance(req, dict):
                    continue
                subs.append(("requires", index, "condition"))
                fn = self.expression(item, subs[-1], scope, BOOL)
                message = str(req.get("message", ""))
                parts = self.template(item, ("requires", index, "message"), message, scope)
                requires.append(Requirement(fn, message, str(req.get("condition", "")), parts))
            effect = self.effect(item, ("effect",), scope)
            defaults = {}
            for name, decl in (item.data.get("params") or {}).items():
                if isinstance(decl, dict) and "default" in decl:
                    defaults[name] = freeze(decl["default"])
            out[item.id] = ActionDef(
                item.id,
                item.data.get("label", item.id),
                signature.params,
                defaults,
                dict(item.data.get("properties") or {}),
                tuple(requires),
                effect,
                item.location(key=True),
                self._checker(item, subs, scope),
            )
        return out

    def _checker(self, item: Item, subs: list[tuple], params: dict[str, str]) -> Any:
        """The action's `requires` as ``fn(ctx, *args)`` (``Compiler.checker``)."""
        keys = [(item.section, item.id, sub) for sub in subs]
        if any(key not in self.expression_trees for key in keys):
            return None
        trees = [self.expression_trees[key] for key in keys]
        nests = self._asks_can(trees)
        checker, _ = self._shared(
            lambda: (
                "checker",
                item.id,
                tuple(value_at(item.data, sub) for sub in subs),
                tuple(params.items()),
                nests,
            ),
            lambda: (
                self.compiler.checker(trees, params, item.id, nests),
                list(self.compiler.problems),
            ),
        )
        return checker

    def _asks_can(self, trees: list[Any]) -> bool:
        """Whether conditions ask `can`, themselves or in a function they call."""
        seen: set[str] = set()
        stack = list(trees)
        while stack:
            for kind, name, _at in references(stack.pop()):
                if kind == "can_expr":
                    return True
                if kind == "call" and name not in seen:
                    seen.add(name)
                    body = self.expression_trees.get(("functions", name, ("value",)))
                    if body is not None:
                        stack.append(body)
        return False

    def triggers(self, symbols: Symbols) -> dict[str, TriggerDef]:
        out = {}
        for item in self.items("triggers"):
            event = item.data.get("on")
            scope: dict[str, str] = {}
            if event is not None:
                if event not in symbols.events:
                    self.error(
                        item.location("on"),
                        f"unknown event {event!r}",
                        did_you_mean(str(event), set(symbols.events))
                        or "declare it under `events:`",
                    )
                elif symbols.events[event].unchecked:
                    continue  # the event is broken (reported): its trigger cannot be checked
                else:
                    scope = dict(symbols.events[event].params)
            when = self.expression(item, ("when",), {}, BOOL) if "when" in item.data else None
            effect = self.effect(item, ("effect",), scope)
            once = item.data.get("once", "never" if event else "player")
            out[item.id] = TriggerDef(item.id, event, when, once, effect)
        return out

    def structure(self, symbols: Symbols) -> dict[str, Any]:
        item = self.catalog.singletons.get("structure")
        result: dict[str, Any] = {
            "setup": None,
            "rounds": None,
            "round_counter": None,
            "until": None,
            "end": None,
            "phases": (),
        }
        if item is None or not isinstance(item.data, dict):
            manifest_doc = self.catalog.manifest_document
            if manifest_doc is not None and self.catalog.manifest:
                self.error(
                    manifest_doc.location(("include",)),
                    "the ruleset has no `structure` (setup, rounds, phases)",
                    "add a `structure:` section to one of the included files",
                    kind="schema",
                )
            return result
        data = item.data
        result["setup"] = self.effect(item, ("setup",), {}) if "setup" in data else None
        rounds = data.get("rounds") or {}
        result["rounds"] = rounds.get("count")
        counter = rounds.get("counter")
        if counter is not None and symbols.counters.get(counter) != "game":
            self.error(
                item.location("rounds", "counter"),
                f"{counter!r} is not a game counter",
                did_you_mean(str(counter), {n for n, p in symbols.counters.items() if p == "game"}),
            )
        result["round_counter"] = counter
        if "until" in rounds:
            result["until"] = self.expression(item, ("rounds", "until"), {}, BOOL)
        if "end" in data:
            result["end"] = self.expression(item, ("end",), {}, BOOL)
        phases = []
        seen: set[str] = set()
        for index, phase in enumerate(data.get("phases") or []):
            if not isinstance(phase, dict):
                continue
            pid = str(phase.get("id", index))
            if pid in seen:
                self.error(
                    item.location("phases", index, "id"),
                    f"duplicate phase id {pid!r}",
                    kind="duplicate-id",
                )
            seen.add(pid)
            sub = ("phases", index)
            order = (
                self.expression(item, (*sub, "order"), {}, list_of(PLAYER))
                if "order" in phase
                else None
            )
            while_ = self.expression(item, (*sub, "while"), {}, BOOL) if "while" in phase else None
            skip = self.expression(item, (*sub, "skip"), {}, BOOL) if "skip" in phase else None
            effect = self.effect(item, (*sub, "effect"), {})
            phases.append(
                PhaseDef(
                    pid,
                    phase.get("label", pid),
                    phase.get("kind", "once"),
                    order,
                    while_,
                    skip,
                    effect,
                )
            )
        result["phases"] = tuple(phases)
        return result

    def scoring(self, symbols: Symbols) -> dict[str, Any]:
        item = self.catalog.singletons.get("scoring")
        result: dict[str, Any] = {
            "score": None,
            "tiebreak": (),
            "scoring": (),
            "estimate": None,
            "result_mode": HIGHEST,
        }
        if item is None or not isinstance(item.data, dict):
            return result
        data = item.data
        per_player = {n for n, p in symbols.counters.items() if p == "player"}
        score = data.get("score")
        if isinstance(score, str) and score not in per_player:
            self.error(
                item.location("score"),
                f"{score!r} is not a per-player counter",
                did_you_mean(str(score), per_player),
            )
        tiebreak = []
        for index, name in enumerate(data.get("tiebreak") or []):
            if name not in per_player:
                self.error(
                    item.location("tiebreak", index),
                    f"{name!r} is not a per-player counter",
                    did_you_mean(str(name), per_player),
                )
            tiebreak.append(name)
        steps = []
        seen: set[str] = set()
        for index, step in enumerate(data.get("steps") or []):
            if not isinstance(step, dict):
                continue
            sid = str(step.get("id", index))
            if sid in seen:
                self.error(
                    item.location("steps", index, "id"),
                    f"duplicate scoring step {sid!r}",
                    kind="duplicate-id",
                )
            seen.add(sid)
            effect = self.effect(item, ("steps", index, "effect"), {})
            steps.append(ScoringStep(sid, step.get("label", sid), effect))
        estimate = self.expression(item, ("estimate",), {}, NUMBER) if "estimate" in data else None
        result.update(
            score=score,
            tiebreak=tuple(tiebreak),
            scoring=tuple(steps),
            estimate=estimate,
            result_mode=self._result_mode(item),
        )
        return result

    def _result_mode(self, item: Item) -> ResultMode:
        """`result` and `teams`: teams only with `result: teams`, and fewer teams than
        the fewest players the game allows (else a team would be empty)."""
        kind = item.data.get("result", "highest")
        teams = item.data.get("teams")
        if kind not in MODES:
            return HIGHEST  # the schema reported it
        if kind == "teams" and not isinstance(teams, int):
            self.error(
                item.location("result"),
                "`result: teams` needs `teams`: how many teams",
                "e.g. teams: 2 (seats 1 and 3 against 2 and 4)",
                kind="schema",
            )
            return HIGHEST
        if kind != "teams" and teams is not None:
            self.error(
                item.location("teams", key=True),
                f"`teams` is given but `result` is {kind!r}",
                "write `result: teams`, or remove `teams`",
                kind="schema",
            )
            return HIGHEST
        fewest = self.catalog.players.get("min", 1)
        if kind == "teams" and isinstance(fewest, int) and teams > fewest:
            self.error(
                item.location("teams"),
                f"{teams} teams, but a game may have {fewest} player(s): a team would be empty",
                "raise `players.min` in ruleset.yaml, or lower `teams`",
                kind="schema",
            )
            return HIGHEST
        return ResultMode(kind, teams if kind == "teams" else 0)
