"""Read a scenario file: YAML with positions, the schema, then its ruleset.

Every problem is a located ``Diagnostic`` (``path:line:col: error: …``), so a
scenario file gets the same messages as a ruleset file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from interpreter.check.schema_check import check_data
from interpreter.errors import CheckError, Diagnostic, LoadError, Location
from interpreter.load.yaml_source import Document, load_file
from interpreter.ruleset import load_or_raise, resolve_ruleset
from interpreter.ruleset.model import Ruleset
from interpreter.scenario.schema import scenario

DEFAULT_PLAYERS = 2
DEFAULT_SEED = 1


@dataclass
class ScenarioFile:
    """A checked scenario file and the ruleset its scenarios play."""

    document: Document
    ruleset: Ruleset | None = None

    @property
    def data(self) -> dict[str, Any]:
        return self.document.data

    def at(self, *path: Any, key: bool = False) -> Location:
        return self.document.location(tuple(path), key=key)


_validator: Draft202012Validator | None = None


def _schema() -> Draft202012Validator:
    global _validator
    if _validator is None:
        _validator = Draft202012Validator(scenario())
    return _validator


def load_scenarios(path: Path, display: str | None = None) -> ScenarioFile | list[Diagnostic]:
    """The file with its ruleset loaded, or the diagnostics that stop it."""
    shown = display or str(path)
    try:
        document = load_file(path, display=shown)
    except LoadError as exc:
        return exc.diagnostics
    if not isinstance(document.data, dict):
        return [
            Diagnostic(
                document.location(()),
                "a scenario file is a YAML mapping",
                "start from `rules new` or docs/format.md",
                kind="schema",
            )
        ]
    problems = document.problems + check_data(document, document.data, _schema())
    if problems:
        return problems
    loaded = ScenarioFile(document)
    ruleset = _ruleset(loaded, path.parent)
    if isinstance(ruleset, list):
        return ruleset
    loaded.ruleset = ruleset
    return loaded


def _ruleset(loaded: ScenarioFile, folder: Path) -> Ruleset | list[Diagnostic]:
    data = loaded.data
    name = str(data["ruleset"])
    target = resolve_ruleset(name, relative_to=folder)
    if target is None:
        return [
            Diagnostic(
                loaded.at("ruleset"),
                f"no ruleset {name!r}",
                "give a ruleset id (as `rules play` takes) or a folder holding "
                "ruleset.yaml, relative to this file",
                kind="unknown-name",
            )
        ]
    mods = []
    for index, mod in enumerate(data.get("mods", [])):
        mod_path = folder / mod
        if not mod_path.is_file():
            return [
                Diagnostic(
                    loaded.at("mods", index),
                    f"no mod file {mod!r} (looked for {mod_path})",
                    "mod paths are relative to the scenario file",
                    kind="unknown-name",
                )
            ]
        mods.append(mod_path)
    try:
        return load_or_raise(target, list(data.get("with", [])), mods)
    except CheckError as exc:
        return exc.diagnostics
    except FileNotFoundError as exc:
        return [Diagnostic(loaded.at("ruleset"), str(exc), kind="unknown-name")]
