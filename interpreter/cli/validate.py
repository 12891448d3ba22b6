"""``rules validate PATH…``: check rulesets, expansions, mods and single files."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import click

from interpreter import collector
from interpreter.cli import formats
from interpreter.cli.options import expansions_option, mods_option, rules_path_option
from interpreter.errors import Diagnostic, LoadError, Location
from interpreter.load.ruleset_files import (  # light: the YAML and schema readers load lazily
    MANIFEST,
    OVERLAY_SCHEMA,
    allowed_combinations,
    display_path,
    requirement_chain,
    resolve_ruleset,
)
from interpreter.load.search import files_fixed, ruleset_ids
from interpreter.ruleset import load, stored
from interpreter.scenario.detect import is_scenario_file


@dataclass
class Combinations:
    """Which combinations of a ruleset's expansions to check."""

    expansions: tuple[str, ...] = ()  # `--with`: this one combination
    every: bool = False  # `--all-combinations`: every subset the requirements allow
    mods: tuple[Path, ...] = ()  # `--mod`: applied with every combination


@dataclass
class Summary:
    files: set[str] = field(default_factory=set)
    scenario_files: int = 0  # files checked as scenario files
    combinations: int = 0  # combinations of expansions checked
    # ruleset folder -> the items and provisional values seen in any combination
    counts: dict[str, tuple[set, set]] = field(default_factory=dict)
    rulesets: list[str] = field(default_factory=list)
    diagnostics: dict[tuple, Diagnostic] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)  # Python paths a shell glob gave

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
    from interpreter.cli.validate_mods import validate_folder

    path = Path(raw)
    if path.exists() and _python(path):
        summary.skipped.append(display_path(path))
        return
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
            if validate_folder(
                path,
                lambda file: _validate_file(file, summary, combos),
                lambda base, mods, headers: _validate_together(base, mods, headers, summary),
            ):
                return
            summary.add(
                [
                    Diagnostic(
                        Location(display_path(path)),
                        f"this folder has no {MANIFEST} and no YAML file",
                        "a ruleset folder has a ruleset.yaml manifest; a folder of mods "
                        "holds overlay files",
                        kind="reference",
                    )
                ]
            )
            return
        _validate_ruleset(path, summary, _mods(combos), combos=combos)
        _validate_scenario_files(path, summary)
        return
    if path.name == MANIFEST:
        _validate_ruleset(path.parent, summary, _mods(combos), combos=combos)
        return
    _validate_file(path, summary, combos)


def _python(path: Path) -> bool:
    """A Python file or bytecode folder: what `rules validate rulesets/*` meets beside
    the rulesets when the folder is also a Python package (the bundled one is). It is
    not rules: it is skipped and named, never checked as YAML."""
    return path.name == "__pycache__" or path.suffix in (".py", ".pyc")


def _validate_scenario_files(folder: Path, summary: Summary) -> None:
    """The scenario files at the top of a ruleset folder (`rules new ruleset` writes
    one there), each checked as `rules validate FILE` checks it."""
    from interpreter.cli.validate_mods import yaml_files
    from interpreter.load.yaml_source import load_file

    for path in yaml_files(folder):
        if path.name == MANIFEST:
            continue
        try:
            document = load_file(path, display=display_path(path))
        except LoadError:
            continue  # a file the ruleset includes reports it; any other is no scenario
        if is_scenario_file(document):
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
        loaded = _load(folder, expansions=list(combos.expansions), mods=mods)
        _merge(loaded, summary, only, _mod_paths(mods))
        summary.combinations += 1
        if loaded.catalog is not None and loaded.catalog.manifest.get("id"):
            summary.rulesets.append(
                "+".join([str(loaded.catalog.manifest["id"]), *loaded.catalog.applied])
            )
        return
    loaded = _load(folder, mods=mods)
    _merge(loaded, summary, only, _mod_paths(mods))
    summary.combinations += 1
    manifest = loaded.catalog.manifest if loaded.catalog else {}
    if manifest.get("id"):
        summary.rulesets.append("+".join([str(manifest["id"]), *loaded.catalog.applied]))
    if not manifest:
        return
    offered = manifest.get("expansions") or {}
    if combos is not None and combos.every:  # every `when:` block applies in one of them
        subsets = allowed_combinations(folder, offered)
    elif mods:  # the mods alone (above), then with what their `when:` blocks name
        overlays, ids = _mod_overlays(mods)
        subsets = _with_blocks(folder, offered, overlays, ids, [()], summary)
    else:
        chains = [tuple(requirement_chain(folder, name, offered)) for name in offered]
        overlays = [(folder / str(offered[name].get("file", "")), [name]) for name in offered]
        subsets = chains + _with_blocks(folder, offered, overlays, set(), [(), *chains], summary)
    for subset in subsets:
        if subset:
            loaded = _load(folder, expansions=list(subset), mods=mods)
            _merge(loaded, summary, only, _mod_paths(mods), subset)
            summary.combinations += 1


def _with_blocks(
    folder: Path,
    offered: dict,
    overlays: list[tuple[Path, list[str]]],
    mods: set[str],
    built: list[tuple[str, ...]],
    summary: Summary,
) -> list[tuple[str, ...]]:
    """The combinations of expansions to build, beyond ``built``, so that every `when:`
    block of ``overlays`` applies in one of them (``when_blocks.py``); a block left out
    at the cap is a warning at its place."""
    from interpreter.load import when_blocks

    found = when_blocks.blocks(folder, offered, overlays, mods)
    extra, unchecked = when_blocks.plan(found, built)
    summary.add([when_blocks.unchecked(block) for block in unchecked])
    return extra


def _mod_overlays(mods: list[Path]) -> tuple[list[tuple[Path, list[str]]], set[str]]:
    """Each mod with the expansions it requires, and the mods' ids."""
    from interpreter.cli.validate_mods import overlay_header

    overlays, ids = [], set()
    for mod in mods:
        header = overlay_header(mod) or {}
        requires = header.get("requires")
        overlays.append((mod, [str(n) for n in requires] if isinstance(requires, list) else []))
        ids.add(str(header.get("id", mod.stem)))
    return overlays, ids


def _mod_paths(mods: list[Path] | None) -> set[str] | None:
    """With mods applied, the lint speaks of the mods only: their authors cannot change
    the base's definitions, so its warnings would be noise that `--strict` fails on."""
    return {display_path(m) for m in mods} if mods else None


def _load(folder: Path, expansions: list[str] | None = None, mods: list[Path] | None = None):
    """Load a combination; when mods break the base, say so at the mods' lines too."""
    loaded = load(folder, expansions=expansions, mods=mods, verdict=True)
    if mods and any(d.severity == "error" for d in loaded.diagnostics):
        from interpreter.cli.mod_blame import blame

        base = load(folder, expansions=expansions)
        loaded.diagnostics = loaded.diagnostics + blame(loaded.diagnostics, mods, base.diagnostics)
    return loaded


def _merge(
    loaded,
    summary: Summary,
    only: str | None,
    lint_only: set[str] | None = None,
    combination: tuple[str, ...] = (),
) -> None:
    """Add a load's diagnostics; the lint runs once it loaded cleanly (``lint_only``:
    keep its warnings about these files only, e.g. a mod's and not its base's).
    ``combination``: the expansions validate chose to apply, named in each diagnostic,
    since the user did not name them and the same files alone are fine."""
    diagnostics = loaded.diagnostics
    if loaded.valid and loaded.catalog is not None:
        warnings = loaded.lint
        if warnings is None:
            from interpreter.check.lint import lint

            warnings = loaded.lint = lint(loaded.catalog)
            stored.remember_lint(loaded, warnings)
        if lint_only is not None:
            warnings = [w for w in warnings if w.location.path in lint_only]
        diagnostics = diagnostics + warnings
    if only is not None:
        diagnostics = [d for d in diagnostics if d.location.path == only]
    if combination:
        diagnostics = [replace(d, combination=combination) for d in diagnostics]
    summary.add(diagnostics)
    if loaded.catalog is not None:
        summary.files.update(loaded.catalog.document_paths())
        summary.files.update(loaded.catalog.failed)
        key = str(loaded.catalog.folder)
        items, provisional = summary.counts.setdefault(key, (set(), set()))
        items |= loaded.catalog.item_keys()
        provisional |= loaded.catalog.provisional_keys()


def _validate_file(path: Path, summary: Summary, combos: Combinations | None = None) -> None:
    from interpreter.check.lone_file import included, orphan, syntax_only
    from interpreter.check.schema_check import check
    from interpreter.language.compiled import did_you_mean
    from interpreter.load.yaml_source import load_file

    shown = display_path(path)
    summary.files.add(shown)
    try:
        document = load_file(path, display=shown)
    except LoadError as exc:
        summary.add(exc.diagnostics)
        return
    data = document.data
    if is_scenario_file(document):  # checked as `rules test` reads it
        from interpreter.scenario import static

        summary.add(static.check_file(path, shown))
        summary.scenario_files += 1
        return
    summary.add(document.problems)
    if isinstance(data, dict) and "overlay" in data:
        header = data.get("overlay") if isinstance(data.get("overlay"), dict) else {}
        base = header.get("base")
        # a `base:` path is read from the mod file's folder, an id from the rules path
        folder = resolve_ruleset(str(base), path.parent) if base else _enclosing_ruleset(path)
        if folder is None and base:
            summary.add(check(document, OVERLAY_SCHEMA))
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
            summary.add(check(document, OVERLAY_SCHEMA))
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
        _validate_together(folder, [path], [header], summary, combos)
        return
    folder = _enclosing_ruleset(path)
    if folder is not None:
        _validate_ruleset(folder, summary, only=shown)
        if not included(folder, path):
            why = f"{display_path(folder / MANIFEST)} does not include it"
            summary.add([orphan(document, why)])
        return
    problems = check(document, "content.schema.json")
    summary.add(problems)
    if not problems:
        summary.add(syntax_only(document))
    if data is not None:
        summary.add([orphan(document, f"no {MANIFEST} above it includes it")])


def _validate_together(
    folder: Path,
    mods: list[Path],
    headers: list[dict],
    summary: Summary,
    combos: Combinations | None = None,
) -> None:
    """Mods on their base, with the expansions they require, as one combination; then
    with what their `when:` blocks name too. With `--with`, on that combination (and
    what the mods require); with `--all-combinations`, on every combination of the
    base's expansions that holds what the mods require."""
    from interpreter.cli.validate_mods import needed_expansions

    needed = needed_expansions(folder, headers)
    if combos is not None and combos.expansions and not combos.every:
        needed += [name for name in combos.expansions if name not in needed]
    loaded = _load(folder, expansions=needed, mods=mods)
    _merge(loaded, summary, None, _mod_paths(mods))
    summary.combinations += 1
    if loaded.catalog and loaded.catalog.manifest.get("id"):
        names = [str(h.get("id", p.stem)) for p, h in zip(mods, headers, strict=True)]
        summary.rulesets.append("+".join([str(loaded.catalog.manifest["id"]), *names]))
    if loaded.catalog is None:
        return
    offered = loaded.catalog.manifest.get("expansions") or {}  # as its schema allows
    if combos is not None and combos.every:
        built = {tuple(n for n in offered if n in needed)}
        subsets = [
            s
            for s in allowed_combinations(folder, offered)
            if set(needed) <= set(s) and s not in built
        ]
    else:
        ids = {str(h.get("id", p.stem)) for p, h in zip(mods, headers, strict=True)}
        built = [tuple(n for n in offered if n in needed)]
        subsets = _with_blocks(folder, offered, [(m, needed) for m in mods], ids, built, summary)
    for subset in subsets:
        loaded = _load(folder, expansions=list(subset), mods=mods)
        _merge(loaded, summary, None, _mod_paths(mods), subset)
        summary.combinations += 1


def _enclosing_ruleset(path: Path) -> Path | None:
    for parent in path.resolve().parents:
        if (parent / MANIFEST).is_file():
            return parent
    return None


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(formats.FORMATS),
    default="text",
    show_default=True,
    help="Output as text (compiler style), one JSON object, GitHub workflow annotations "
    "(github) or a SARIF 2.1.0 log (sarif).",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Count warnings (unused definitions, options never legal, files no ruleset "
    "includes) as errors: they are printed as errors and the exit code is 1.",
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
    strict: bool,
    expansions: tuple[str, ...],
    mods: tuple[Path, ...],
    every: bool,
    games: int,
) -> None:
    """Check rulesets, expansions, mods and single files; report every error.

    PATH is a ruleset folder, a ruleset id, a ruleset.yaml, an overlay (mod or
    expansion), a folder of mods (each checked on its base, then all together) or a
    single content file. A ruleset is checked alone and with each expansion it
    offers; `--with` checks one combination, `--all-combinations` every allowed one,
    `--mod` applies mods together to the ruleset. Warnings are printed but only
    fail with `--strict`. Exit code 0 when all is valid, 1 when any error was found.
    """
    summary = Summary()
    combos = Combinations(expansions, every, mods)
    with files_fixed():  # each path resolved, each file's digest read, once
        for raw in paths:
            with collector.paused():  # its objects all live until it is checked
                validate_path(raw, summary, combos)
    summary.add(_nothing_checked(paths, summary, bool(expansions or every)))
    diagnostics = sorted(
        summary.diagnostics.values(),
        key=lambda d: (d.location.path, d.location.line, d.location.column),
    )
    if strict:
        diagnostics = [replace(d, severity="error") for d in diagnostics]
    errors = [d for d in diagnostics if d.severity == "error"]
    played, failures = 0, []
    if games and not errors:
        from interpreter.simulate.check import simulate_check

        played, failures = simulate_check(paths, games, expansions, mods, every)
    outcome = formats.Outcome(
        diagnostics,
        files=len(summary.files),
        items=summary.items,
        provisional=summary.provisional,
        rulesets=summary.rulesets,
        combinations=summary.combinations,
        combined=bool(expansions or every),
        scenario_files=summary.scenario_files,
        simulation={"games": played, "errors": failures} if games else None,
    )
    if fmt == "json":
        click.echo(formats.as_json(outcome))
    elif fmt == "sarif":
        click.echo(formats.sarif(outcome))
    else:
        if summary.skipped:
            click.echo(f"skipped (Python, not rules): {', '.join(summary.skipped)}", err=True)
        for line in formats.github(outcome) if fmt == "github" else formats.text(outcome):
            click.echo(line)
        if games:
            _simulation_text(played, failures, bool(errors))
    raise SystemExit(1 if errors or failures else 0)


def _nothing_checked(paths: tuple[str, ...], summary: Summary, combined: bool) -> list[Diagnostic]:
    """An error when the paths gave nothing to check, so that "valid" is never printed
    for nothing: no file read, or no combination built although `--with` or
    `--all-combinations` asked for them."""
    if summary.diagnostics:
        return []  # what went wrong is said already
    where = Location(paths[0] if paths else ".")
    if not summary.files:
        return [
            Diagnostic(
                where,
                "nothing was checked: no ruleset, mod, content or scenario file",
                "give a ruleset folder or id, a folder of mods, or YAML files",
                kind="usage",
            )
        ]
    if combined and not summary.combinations:
        return [
            Diagnostic(
                where,
                "no combination of expansions was checked: these files are not a ruleset or a mod",
                "`--with` and `--all-combinations` apply to a ruleset, or to a mod (on the "
                "combinations of its base's expansions)",
                kind="usage",
            )
        ]
    return []


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
