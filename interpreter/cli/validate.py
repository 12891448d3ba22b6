"""``rules validate PATH…``: check rulesets, expansions, mods and single files."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import click

from interpreter.check.schema_check import check
from interpreter.cli.options import expansions_option, mods_option, rules_path_option
from interpreter.cli.report import render
from interpreter.errors import Diagnostic, LoadError, Location
from interpreter.language.compiler import Compiler, did_you_mean
from interpreter.language.symbols import Symbols
from interpreter.load.ruleset_files import (
    MANIFEST,
    allowed_combinations,
    display_path,
    requirement_chain,
    resolve_ruleset,
)
from interpreter.load.search import ruleset_ids
from interpreter.load.yaml_source import load_file
from interpreter.ruleset import load


@dataclass
class Combinations:
    """Which combinations of a ruleset's expansions to check."""

    expansions: tuple[str, ...] = ()  # `--with`: this one combination
    every: bool = False  # `--all-combinations`: every subset the requirements allow
    mods: tuple[Path, ...] = ()  # `--mod`: applied with every combination


@dataclass
class Summary:
    files: set[str] = field(default_factory=set)
    combinations: int = 0  # combinations of expansions checked
    # ruleset folder -> the items and provisional values seen in any combination
    counts: dict[str, tuple[set, set]] = field(default_factory=dict)
    rulesets: list[str] = field(default_factory=list)
    diagnostics: dict[tuple, Diagnostic] = field(default_factory=dict)

    @property
    def items(self) -> int:
        return sum(len(items) for items, _ in self.counts.values())

    @property
    def provisional(self) -> int:
        return sum(len(provisional) for _, provisional in self.counts.values())

    def add(self, diagnostics: list[Diagnostic]) -> None:
        for d in diagnostics:
            self.diagnostics.setdefault((d.location, d.message), d)


def validate_path(raw: str, summary: Summary, combos: Combinations | None = None) -> None:
    path = Path(raw)
    if not path.exists():
        folder = resolve_ruleset(raw)
        if folder is None:
            summary.add(
                [
                    Diagnostic(
                        Location(raw),
                        "no such file, folder or ruleset id",
                        "give a ruleset folder, a YAML file, or a ruleset id",
                        kind="usage",
                    )
                ]
            )
            return
        path = folder
    if path.is_dir():
        if not (path / MANIFEST).is_file():
            summary.add(
                [
                    Diagnostic(
                        Location(display_path(path)),
                        f"this folder has no {MANIFEST}",
                        "a ruleset folder has a ruleset.yaml manifest",
                        kind="reference",
                    )
                ]
            )
            return
        _validate_ruleset(path, summary, _mods(combos), combos=combos)
        return
    if path.name == MANIFEST:
        _validate_ruleset(path.parent, summary, _mods(combos), combos=combos)
        return
    _validate_file(path, summary)


def _mods(combos: Combinations | None) -> list[Path] | None:
    return list(combos.mods) if combos is not None and combos.mods else None


def _validate_ruleset(
    folder: Path,
    summary: Summary,
    mods: list[Path] | None = None,
    only: str | None = None,
    combos: Combinations | None = None,
) -> None:
    if combos is not None and combos.expansions and not combos.every:
        loaded = load(folder, expansions=list(combos.expansions), mods=mods)
        _merge(loaded, summary, only)
        summary.combinations += 1
        if loaded.catalog is not None and loaded.catalog.manifest.get("id"):
            summary.rulesets.append(
                "+".join([str(loaded.catalog.manifest["id"]), *loaded.catalog.applied])
            )
        return
    loaded = load(folder, mods=mods)
    _merge(loaded, summary, only)
    summary.combinations += 1
    manifest = loaded.catalog.manifest if loaded.catalog else {}
    if manifest.get("id"):
        summary.rulesets.append("+".join([str(manifest["id"]), *loaded.catalog.applied]))
    if (mods and not (combos and combos.every)) or not manifest:
        return
    offered = manifest.get("expansions") or {}
    if combos is not None and combos.every:
        subsets = allowed_combinations(folder, offered)
    else:
        subsets = [requirement_chain(folder, expansion, offered) for expansion in offered]
    for subset in subsets:
        if subset:
            _merge(load(folder, expansions=list(subset), mods=mods), summary, only)
            summary.combinations += 1


def _merge(loaded, summary: Summary, only: str | None) -> None:
    diagnostics = loaded.diagnostics
    if only is not None:
        diagnostics = [d for d in diagnostics if d.location.path == only]
    summary.add(diagnostics)
    if loaded.catalog is not None:
        summary.files.update(d.path for d in loaded.catalog.documents)
        summary.files.update(loaded.catalog.failed)
        key = str(loaded.catalog.folder)
        items, provisional = summary.counts.setdefault(key, (set(), set()))
        items |= loaded.catalog.item_keys()
        provisional |= loaded.catalog.provisional_keys()


def _validate_file(path: Path, summary: Summary) -> None:
    shown = display_path(path)
    summary.files.add(shown)
    try:
        document = load_file(path, display=shown)
    except LoadError as exc:
        summary.add(exc.diagnostics)
        return
    summary.add(document.problems)
    data = document.data
    if isinstance(data, dict) and "overlay" in data:
        header = data.get("overlay") if isinstance(data.get("overlay"), dict) else {}
        base = header.get("base")
        # a `base:` path is read from the mod file's folder, an id from the rules path
        folder = resolve_ruleset(str(base), path.parent) if base else _enclosing_ruleset(path)
        if folder is None and base:
            summary.add(check(document, "overlay.schema.json"))
            summary.add(
                [
                    Diagnostic(
                        document.location(("overlay", "base")),
                        f"there is no ruleset {str(base)!r}",
                        did_you_mean(str(base), ruleset_ids())
                        or "base names a ruleset id on the rules path (--rules-path, "
                        "RULES_PATH, ./rulesets, the bundled rulesets) or a folder "
                        "relative to this file",
                        kind="reference",
                    )
                ]
            )
            return
        if folder is None and isinstance(data.get("overlay"), dict):
            summary.add(check(document, "overlay.schema.json"))
            summary.add(
                [
                    Diagnostic(
                        document.location(("overlay",), key=True),
                        "cannot tell which ruleset this overlay applies to",
                        "add `base: RULESET_ID` under `overlay:`",
                        kind="reference",
                    )
                ]
            )
            return
        _validate_with_overlay(folder, path, header, summary)
        return
    folder = _enclosing_ruleset(path)
    if folder is not None:
        _validate_ruleset(folder, summary, only=shown)
        return
    problems = check(document, "content.schema.json")
    summary.add(problems)
    if not problems:
        summary.add(_syntax_only(document))


def _validate_with_overlay(folder: Path, path: Path, header: dict, summary: Summary) -> None:
    offered = {}
    try:
        manifest = load_file(folder / MANIFEST).data
        offered = manifest.get("expansions") or {} if isinstance(manifest, dict) else {}
    except LoadError:
        pass
    expansions: list[str] = []
    requires = header.get("requires")
    for need in requires if isinstance(requires, list) else []:
        for name in requirement_chain(folder, str(need), offered):
            if name not in expansions:
                expansions.append(name)
    loaded = load(folder, expansions=expansions, mods=[path])
    _merge(loaded, summary, None)
    if loaded.catalog and loaded.catalog.manifest.get("id"):
        summary.rulesets.append(f"{loaded.catalog.manifest['id']}+{header.get('id', path.stem)}")


def _enclosing_ruleset(path: Path) -> Path | None:
    for parent in path.resolve().parents:
        if (parent / MANIFEST).is_file():
            return parent
    return None


def _syntax_only(document) -> list[Diagnostic]:
    """Outside any ruleset, expressions can only be checked for syntax."""
    compiler = Compiler(Symbols())
    out = []

    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("effect", "setup") and isinstance(value, str):
                    _, problems = compiler.effect(value)
                    out.extend(_located(document, (*path, key), problems))
                elif (
                    key
                    in ("condition", "value", "when", "while", "order", "until", "estimate", "skip")
                    and isinstance(value, str)
                    and path
                ):
                    _, problems = compiler.expression(value)
                    out.extend(_located(document, (*path, key), problems))
                else:
                    walk(value, (*path, key))
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, (*path, index))

    walk(document.data, ())
    return out


def _located(document, path, problems) -> list[Diagnostic]:
    out = []
    for p in problems:
        if p.kind != "syntax":
            continue
        hint = p.hint
        if hint and p.related is not None:
            at = document.expression_location(path, *p.related)
            hint = hint.replace("{at}", f"{at.line}:{at.column}")
        out.append(
            Diagnostic(
                document.expression_location(path, p.line, p.column),
                p.message,
                hint,
                kind="expression-syntax",
            )
        )
    return out


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output as text (compiler style) or one JSON object.",
)
@rules_path_option
@expansions_option
@mods_option
@click.option(
    "--all-combinations",
    "every",
    is_flag=True,
    help="Check a ruleset with every combination of its expansions that their requirements allow.",
)
@click.option(
    "--simulate",
    "games",
    type=click.IntRange(0),
    default=0,
    metavar="N",
    help="When the rules are valid, also play N seeded random games of every player count "
    "(of every combination with --all-combinations) and report any run-time error at its "
    "rule, with the command that reproduces it.",
)
def validate(
    paths: tuple[str, ...],
    fmt: str,
    expansions: tuple[str, ...],
    mods: tuple[Path, ...],
    every: bool,
    games: int,
) -> None:
    """Check rulesets, expansions, mods and single files; report every error.

    PATH is a ruleset folder, a ruleset id, a ruleset.yaml, an overlay (mod or
    expansion) or a single content file. A ruleset is checked alone and with each
    expansion it offers; `--with` checks one combination, `--all-combinations`
    every allowed one, `--mod` applies mods together to the ruleset. Exit code 0
    when all is valid, 1 when any error was found.
    """
    summary = Summary()
    combos = Combinations(expansions, every, mods)
    for raw in paths:
        validate_path(raw, summary, combos)
    diagnostics = sorted(
        summary.diagnostics.values(),
        key=lambda d: (d.location.path, d.location.line, d.location.column),
    )
    errors = [d for d in diagnostics if d.severity == "error"]
    played, failures = 0, []
    if games and not errors:
        from interpreter.simulate.check import simulate_check

        played, failures = simulate_check(paths, games, expansions, mods, every)
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "valid": not errors,
                    "errors": [d.as_dict() for d in diagnostics],
                    "summary": {
                        "files": len(summary.files),
                        "items": summary.items,
                        "provisional": summary.provisional,
                        "errors": len(errors),
                        "rulesets": summary.rulesets,
                        "combinations": summary.combinations,
                    },
                }
                | ({"simulation": {"games": played, "errors": failures}} if games else {}),
                indent=2,
            )
        )
    else:
        for diagnostic in diagnostics:
            click.echo(render(diagnostic))
        status = "valid" if not errors else f"{len(errors)} error{'s' if len(errors) != 1 else ''}"
        combined = (
            f" in {summary.combinations} combination{'s' if summary.combinations != 1 else ''} "
            "of expansions"
            if expansions or every
            else ""
        )
        click.echo(
            f"checked {len(summary.files)} file{'s' if len(summary.files) != 1 else ''}, "
            f"{summary.items} items, {summary.provisional} provisional values{combined}: {status}"
        )
        if games:
            _simulation_text(played, failures, bool(errors))
    raise SystemExit(1 if errors or failures else 0)


def _simulation_text(played: int, failures: list[dict], skipped: bool) -> None:
    if skipped:
        click.echo("simulation skipped: fix the errors first")
        return
    for failure in failures:
        click.echo(failure["error"])
        click.echo(
            f"     = {failure['ruleset']}, {failure['players']} players, seed {failure['seed']}: "
            f"{failure['replay']}"
        )
    count = len(failures)
    click.echo(
        f"simulated {played} random game{'s' if played != 1 else ''}: "
        + (f"{count} error{'s' if count != 1 else ''}" if count else "no run-time error")
    )
