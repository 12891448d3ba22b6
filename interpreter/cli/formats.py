"""Output formats of `rules validate`: compiler text, JSON, GitHub annotations, SARIF.

Each format gets the same sorted diagnostics and counts, so they never disagree
about what was found; only the shape differs. Text is for people, JSON for
scripts, ``github`` for workflow logs (each diagnostic becomes an annotation on the
pull request's diff) and SARIF 2.1.0 for code-scanning dashboards.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter import __version__
from interpreter.cli.report import render
from interpreter.errors import Diagnostic

FORMATS = ("text", "json", "github", "sarif")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
TOOL_URI = "https://github.com/tabletop-rules/tabletop-rules"


@dataclass
class Outcome:
    """What a validation found, ready to be printed in any format."""

    diagnostics: list[Diagnostic]  # sorted; with --strict the warnings are errors already
    files: int
    items: int
    provisional: int
    rulesets: list[str]
    combinations: int
    combined: bool  # `--with` or `--all-combinations` was given
    simulation: dict[str, Any] | None = None
    scenario_files: int = 0  # of ``files``, those checked as scenario files

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    def summary_line(self) -> str:
        count = len(self.errors)
        status = "valid" if not count else f"{count} error{'s' if count != 1 else ''}"
        combined = (
            f" in {self.combinations} combination{'s' if self.combinations != 1 else ''} "
            "of expansions"
            if self.combined
            else ""
        )
        scenarios = (
            f" ({self.scenario_files} scenario file{'s' if self.scenario_files != 1 else ''})"
            if self.scenario_files
            else ""
        )
        return (
            f"checked {self.files} file{'s' if self.files != 1 else ''}{scenarios}, "
            f"{self.items} items, {self.provisional} provisional values{combined}: {status}"
        )


# ------------------------------------------------------------------------ text
def text(outcome: Outcome) -> list[str]:
    return [render(d) for d in outcome.diagnostics] + [outcome.summary_line()]


# ------------------------------------------------------------------------ json
def as_json(outcome: Outcome) -> str:
    """The JSON report; ``errors`` holds only errors, so a ruleset that only has
    warnings still reports ``"errors": []`` and ``"valid": true``."""
    report: dict[str, Any] = {
        "valid": not outcome.errors,
        "errors": [d.as_dict() for d in outcome.errors],
        "warnings": [d.as_dict() for d in outcome.warnings],
        "summary": {
            "files": outcome.files,
            "items": outcome.items,
            "provisional": outcome.provisional,
            "errors": len(outcome.errors),
            "warnings": len(outcome.warnings),
            "rulesets": outcome.rulesets,
            "combinations": outcome.combinations,
        },
    }
    if outcome.simulation is not None:
        report["simulation"] = outcome.simulation
    import json  # the json and sarif reports only: a text report needs none

    return json.dumps(report, indent=2)


# ---------------------------------------------------------------------- github
def github(outcome: Outcome) -> list[str]:
    """GitHub workflow commands (`::error file=…,line=…,col=…,title=…::message`), then
    the summary line as plain log text."""
    lines = []
    for d in outcome.diagnostics:
        command = "error" if d.severity == "error" else "warning"
        properties = [f"file={_property(_posix(d.location.path))}"]
        if d.location.line > 0:
            properties.append(f"line={d.location.line}")
            if d.location.column > 0:
                properties.append(f"col={d.location.column}")
        properties.append(f"title={_property(f'rules validate: {d.kind}')}")
        notes = [d.combination_note(), d.hint and f"hint: {d.hint}"]
        message = "\n".join([d.message, *filter(None, notes)])
        lines.append(f"::{command} {','.join(properties)}::{_data(message)}")
    return [*lines, outcome.summary_line()]


def _data(text: str) -> str:
    """Escape a workflow command's message (GitHub's `escapeData`)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """Escape a workflow command's property value (GitHub's `escapeProperty`)."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")


# ----------------------------------------------------------------------- sarif
def sarif(outcome: Outcome) -> str:
    """One SARIF 2.1.0 run: a rule per diagnostic kind, a result per diagnostic."""
    kinds = sorted({d.kind for d in outcome.diagnostics})
    index = {kind: i for i, kind in enumerate(kinds)}
    results = []
    for d in outcome.diagnostics:
        location: dict[str, Any] = {"artifactLocation": {"uri": _uri(d.location.path)}}
        if d.location.line > 0:
            region = {"startLine": d.location.line}
            if d.location.column > 0:
                region["startColumn"] = d.location.column
            location["region"] = region
        notes = [d.combination_note(), d.hint and f"hint: {d.hint}"]
        message = " ".join([d.message, *(f"({note})" for note in notes if note)])
        results.append(
            {
                "ruleId": d.kind,
                "ruleIndex": index[d.kind],
                "level": "error" if d.severity == "error" else "warning",
                "message": {"text": message},
                "locations": [{"physicalLocation": location}],
            }
        )
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "rules",
                        "version": __version__,
                        "informationUri": TOOL_URI,
                        "rules": [
                            {"id": kind, "shortDescription": {"text": _describe(kind)}}
                            for kind in kinds
                        ],
                    }
                },
                "results": results,
            }
        ],
    }
    import json

    return json.dumps(log, indent=2)


def _posix(path: str) -> str:
    return Path(path).as_posix() if path else path


def _uri(path: str) -> str:
    """A relative path stays relative (SARIF resolves it against the checkout); an
    absolute one becomes a file URI."""
    candidate = Path(path)
    if candidate.is_absolute():
        return candidate.as_uri()
    return candidate.as_posix()


def _describe(kind: str) -> str:
    return kind.replace("-", " ").capitalize()
