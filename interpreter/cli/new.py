"""``rules new``: scaffold a mod or a ruleset from the templates shipped as package data.

The templates name no game: a mod's template is filled with what the base ruleset
declares (its score counter, an action, its player count), read when the command
runs, and the scenarios that reach the end of a game with what the new game does
(``new_scenarios.py``). Every file starts with its schema modeline, a path that works
offline, and the result passes ``rules validate --strict`` and ``rules test`` as
written.
"""

from __future__ import annotations

import os
import re
from importlib import resources
from pathlib import Path
from string import Template

import click

from interpreter.atomic_file import write_output
from interpreter.check import schemas
from interpreter.check.sections import ID_PATTERN
from interpreter.cli.play import load_for_cli
from interpreter.cli.report import render
from interpreter.errors import Diagnostic, GameError, Location
from interpreter.load.search import resolve_ruleset

_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
_TEMPLATES = "templates"


@click.group("new")
def new() -> None:
    """Scaffold a mod (`rules new mod NAME --base RULESET`) or a ruleset."""


def _folder_option(function):
    return click.option(
        "--dir",
        "folder",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path("."),
        show_default=True,
        help="The folder to write into (created if needed).",
    )(function)


@new.command("mod")
@click.argument("name")
@click.option("--base", required=True, help="The ruleset the mod applies to: an id or a folder.")
@_folder_option
def new_mod(name: str, base: str, folder: Path) -> None:
    """Write NAME.yaml, a mod of --base, and NAME.scenarios.yaml, its scenario tests."""
    _check_name(name)
    ruleset = load_for_cli(base, (), ())
    counters = [c for c, d in ruleset.counters.items() if d.per == "player"]
    if not counters:
        raise click.UsageError(f"the ruleset {base!r} has no per-player counter to start from")
    mod_path, scenarios_path = folder / f"{name}.yaml", folder / f"{name}.scenarios.yaml"
    _refuse_existing([mod_path, scenarios_path])
    values = {
        "id": name.replace("-", "_"),
        "title": _title(name),
        "base": _reference(base, folder),
        "base_ref": _reference(base, folder),
        # the score counter, so that the example's scoring step shows in the breakdown
        "counter": ruleset.score if ruleset.score in counters else counters[0],
        "action": next(iter(ruleset.actions), "some_action"),
        "players": str(ruleset.min_players),
        "mod_file": mod_path.name,
        "scenarios_path": _shown(scenarios_path),
        "schemas": _schemas(folder),
    }
    _write({mod_path: ("mod", "mod.yaml")}, values)
    modded = load_for_cli(base, (), (mod_path,))
    values |= _reach(modded, max(2, ruleset.min_players))
    _write({scenarios_path: ("mod", "scenarios.yaml")}, values)
    click.echo(f"next: rules validate {_shown(folder)} && rules test {_shown(scenarios_path)}")


@new.command("ruleset")
@click.argument("name")
@_folder_option
def new_ruleset(name: str, folder: Path) -> None:
    """Write the folder NAME: a manifest, a content file and a scenario file."""
    _check_name(name)
    target = folder / name
    files = {target / f: ("ruleset", f) for f in ("ruleset.yaml", "content.yaml", "scenarios.yaml")}
    _refuse_existing(list(files))
    target.mkdir(parents=True, exist_ok=True)
    values = {
        "id": name,
        "title": _title(name),
        "ruleset_ref": ".",
        "scenarios_path": _shown(target / "scenarios.yaml"),
        "schemas": _schemas(target),
    }
    scenarios = target / "scenarios.yaml"
    _write({path: where for path, where in files.items() if path != scenarios}, values)
    values |= _reach(load_for_cli(str(target), (), ()), 2)
    _write({scenarios: files[scenarios]}, values)
    click.echo(
        f"next: rules validate {_shown(target)} && rules test {_shown(target / 'scenarios.yaml')}"
    )


def _reach(ruleset, players: int) -> dict[str, str]:
    """The values of the scaffolded scenarios read from the new game itself."""
    from interpreter.cli.new_scenarios import reach_values

    try:
        return reach_values(ruleset, players)
    except GameError as exc:
        raise click.ClickException(f"{exc.message}; the files written so far are kept") from None


# ------------------------------------------------------------------ helpers
def _check_name(name: str) -> None:
    if not _NAME.match(name) or not re.match(ID_PATTERN, name.replace("-", "_")):
        raise click.BadParameter(
            f"{name!r}: use lower-case letters, digits, `-` and `_`, starting with a letter",
            param_hint="NAME",
        )


def _title(name: str) -> str:
    return " ".join(word.capitalize() for word in re.split(r"[-_]+", name) if word)


def _reference(base: str, folder: Path) -> str:
    """The base as the new files name it: its id, or its folder relative to ``folder``."""
    if "/" not in base and "\\" not in base and not Path(base).is_dir():
        return base
    found = resolve_ruleset(base)
    assert found is not None  # load_for_cli found it
    return Path(os.path.relpath(found.resolve(), folder.resolve())).as_posix()


def _schemas(folder: Path) -> str:
    """The schemas folder for the modelines, as a path that works offline: relative to
    ``folder``, to a `schemas/` folder above it (a checkout of this project, or one
    written by an earlier `rules new`), else to `schemas/` written into ``folder``."""
    start = folder.resolve()
    for candidate in (start, *start.parents):
        if (candidate / "schemas" / "overlay.schema.json").is_file():
            return Path(os.path.relpath(candidate / "schemas", start)).as_posix() + "/"
    schemas.write_all(folder / "schemas")
    click.echo(f"wrote {_shown(folder / 'schemas')}/ (the schemas the modelines name)")
    return "schemas/"


def _refuse_existing(paths: list[Path]) -> None:
    existing = [p for p in paths if os.path.lexists(p)]  # a dangling link exists too
    for path in existing:
        diagnostic = Diagnostic(
            Location(_shown(path), 1, 1),
            f"{path.name} already exists; `rules new` never overwrites a file",
            "choose another NAME or --dir, or move the file away",
            kind="exists",
        )
        click.echo(render(diagnostic), err=True)
    if existing:
        raise SystemExit(1)


def _write(files: dict[Path, tuple[str, str]], values: dict[str, str]) -> None:
    root = resources.files("interpreter.cli") / _TEMPLATES
    for path, (kind, template) in files.items():
        text = Template((root / kind / template).read_text(encoding="utf-8")).substitute(values)
        write_output(path, text, new=True)  # never over a file, nor through a link
        click.echo(f"wrote {_shown(path)}")


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
