"""Compiling an item's expressions, effects and message templates, with every
problem reported at its place in the YAML (inside the string too)."""

from __future__ import annotations

from typing import Any

from interpreter.errors import Diagnostic
from interpreter.language.compiler import Problem
from interpreter.language.effects import CompiledEffect
from interpreter.load.ruleset_files import Item
from interpreter.load.yaml_source import value_at
from interpreter.ruleset.shared_compiles import SHARED


class ExpressionsMixin:
    """A part of ``Builder`` (build.py)."""

    # ---------------------------------------------------------- expressions
    def expression(
        self,
        item: Item,
        sub: tuple,
        scope: dict[str, str],
        expect: str | None,
        function: str | None = None,
    ) -> Any:
        text = value_at(item.data, sub)
        if not isinstance(text, str) or self.broken(item):
            return None
        compiled, problems = self._shared(
            lambda: (
                "expression",
                text,
                tuple(scope.items()),
                expect,
                function,
                self._written(item, sub),
            ),
            lambda: self.compiler.expression(text, scope, expect, function),
        )
        self._report(item, sub, problems)
        if compiled is not None and self.compiler.last_tree is not None:
            self.expression_trees[(item.section, item.id, sub)] = self.compiler.last_tree
        return compiled.fn if compiled else None

    def effect(self, item: Item, sub: tuple, scope: dict[str, str]) -> CompiledEffect | None:
        """Compile an effect: one text, or a list of texts and named steps run in order
        (as one program: a step sees the locals of the steps before it)."""
        value = value_at(item.data, sub)
        if value is None or self.broken(item):
            return None
        entries = value if isinstance(value, list) else [value]
        texts, paths = [], []
        for index, entry in enumerate(entries):
            if isinstance(entry, dict):
                entry, path = entry.get("effect"), (*sub, index, "effect")
            else:
                path = (*sub, index) if isinstance(value, list) else sub
            if not isinstance(entry, str):
                return None
            texts.append(entry)
            paths.append(path)
        self._check_step_ids(item, sub, entries)
        joined = "\n".join(texts)
        starts = []
        line = 1
        for text in texts:
            starts.append(line)
            line += text.count("\n") + 1
        node_prefix = f"{item.section}.{item.id}" + "".join(f".{s}" for s in sub)
        compiled, problems = self._shared(
            lambda: (
                "effect",
                joined,
                tuple(scope.items()),
                node_prefix,
                tuple(self._written(item, path) for path in paths),
            ),
            lambda: self.compiler.effect(joined, scope, node_prefix),
        )
        if compiled is not None and self.compiler.last_tree is not None:
            self.effect_trees[(item.section, item.id, sub)] = (
                self.compiler.last_tree,
                lambda found, i=item, p=paths, s=starts: self._report_steps(i, p, s, found),
                tuple(scope),
            )
            self.effect_places[(item.section, item.id, sub)] = (
                lambda line, column, i=item, p=paths, s=starts: self._step_location(
                    i, p, s, line, column
                )
            )
        self._report_steps(item, paths, starts, problems)
        if compiled is not None:
            for node in compiled.nodes.values():
                if isinstance(node.at, tuple):
                    node.at = self._step_location(item, paths, starts, *node.at)
        return compiled

    def _shared(self, key: Any, compile_text: Any) -> tuple[Any, list[Problem]]:
        """``compile_text()``, or in a checked build the same compile made by another
        checked build of the process, if the declarations it read are the same here
        (``shared_compiles.py``); ``key()`` names the compile, asked only there."""
        if not self.lazy:
            return compile_text()
        return SHARED.compile(key(), self.compiler, compile_text)

    @staticmethod
    def _written(item: Item, sub: tuple) -> tuple:
        """Where a text was written (file, path, line and column): a shared compile's
        nodes keep their places in the file, so a text that moved is compiled again."""
        document, path = item.source(*sub)
        at = document.location(path)
        return document.path, tuple(path), at.line, at.column

    def _step_location(
        self, item: Item, paths: list[tuple], starts: list[int], line: int, column: int
    ) -> Any:
        """Where (line, column) of an effect's joined steps was written in the YAML."""
        index = max(i for i, s in enumerate(starts) if s <= line)
        document, path = item.source(*paths[index])
        return document.expression_location(path, line - starts[index] + 1, column)

    def _report_steps(
        self, item: Item, paths: list[tuple], starts: list[int], problems: list[Problem]
    ) -> None:
        """Report problems found in the joined text of an effect's steps at their step."""
        for problem in problems:
            index = max(i for i, s in enumerate(starts) if s <= problem.line)
            related = problem.related
            if related is not None:
                related = (related[0] - starts[index] + 1, related[1])
            inner = Problem(
                problem.line - starts[index] + 1,
                problem.column,
                problem.message,
                problem.hint,
                problem.kind,
                related,
            )
            self._report(item, paths[index], [inner])

    def _check_step_ids(self, item: Item, sub: tuple, entries: list) -> None:
        seen: set[str] = set()
        for index, entry in enumerate(entries):
            step = entry.get("id") if isinstance(entry, dict) else None
            if step in seen:
                self.error(
                    item.location(*sub, index, "id"),
                    f"duplicate step id {step!r}",
                    "each step of an effect has its own id",
                    kind="duplicate-id",
                )
            if step is not None:
                seen.add(step)

    def _report(self, item: Item, sub: tuple, problems: list[Problem]) -> None:
        document, path = item.source(*sub)
        for problem in problems:
            location = document.expression_location(path, problem.line, problem.column)
            kind = {
                "syntax": "expression-syntax",
                "name": "unknown-name",
                "arity": "arity",
                "type": "type",
            }.get(problem.kind, problem.kind)
            hint = problem.hint
            if hint and problem.related is not None:
                at = document.expression_location(path, *problem.related)
                hint = hint.replace("{at}", f"{at.line}:{at.column}")
            self.diagnostics.append(Diagnostic(location, problem.message, hint, kind=kind))

    def template(self, item: Item, sub: tuple, message: str, scope: dict[str, str]) -> tuple:
        """Split a message into texts and compiled `{expression}` parts."""
        if "{" not in message:
            return ()
        parts: list[Any] = []
        rest = message
        offset = 0
        while "{" in rest:
            before, _, after = rest.partition("{")
            inside, closed, rest = after.partition("}")
            if not closed:
                self._report(
                    item,
                    sub,
                    [
                        Problem(
                            1,
                            offset + len(before) + 1,
                            "a `{` in the message is not closed",
                            "write `}` after the expression",
                            "syntax",
                        )
                    ],
                )
                return ()
            parts.append(before)
            compiled, problems = self._shared(
                lambda inside=inside: ("template", inside, tuple(scope.items())),
                lambda inside=inside: self.compiler.expression(inside, scope),
            )
            start = offset + len(before) + 1
            self._report(
                item,
                sub,
                [Problem(p.line, start + p.column, p.message, p.hint, p.kind) for p in problems],
            )
            if compiled is not None:
                parts.append(compiled.fn)
            offset = start + len(inside) + 1
        parts.append(rest)
        return tuple(parts)
