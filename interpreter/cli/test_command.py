"""``rules test``: run YAML scenario files and report like a test runner."""

from __future__ import annotations

import json
from pathlib import Path

import click

from interpreter.cli.options import rules_path_option
from interpreter.cli.report import render
from interpreter.errors import Diagnostic
from interpreter.scenario.load import load_scenarios
from interpreter.scenario.run import Outcome, run_file


@click.command("test")
@click.argument(
    "files",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
)
@rules_path_option
@click.option(
    "--format",
    "output",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Print the results as text or as one JSON document.",
)
def test_command(files: tuple[Path, ...], output: str) -> None:
    """Run the scenarios of FILES (YAML: a position, moves, expected outcomes).

    Exit code 0 when every scenario passes, 1 when one fails or a file is invalid.
    """
    outcomes: list[tuple[str, Outcome]] = []
    errors: list[Diagnostic] = []
    for path in files:
        loaded = load_scenarios(path, display=_shown(path))
        if isinstance(loaded, list):
            errors.extend(loaded)
            if output == "text":
                for diagnostic in loaded:
                    click.echo(render(diagnostic))
            continue
        for outcome in run_file(loaded):
            outcomes.append((loaded.document.path, outcome))
            if output == "text":
                _print(outcome)
    passed = sum(1 for _, o in outcomes if o.passed)
    failed = len(outcomes) - passed
    if output == "json":
        report = {
            "passed": passed,
            "failed": failed,
            "errors": [d.as_dict() for d in errors],
            "scenarios": [o.as_dict() for _, o in outcomes],
        }
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        click.echo(_summary(passed, failed, len(errors)))
    if failed or errors:
        raise SystemExit(1)


def _print(outcome: Outcome) -> None:
    click.echo(f"{'PASS' if outcome.passed else 'FAIL'} {outcome.name}")
    for problem in outcome.problems:
        click.echo("\n".join("  " + line for line in render(problem).splitlines()))


def _summary(passed: int, failed: int, errors: int) -> str:
    total = passed + failed
    text = f"{total} scenario{'s' if total != 1 else ''}: {passed} passed, {failed} failed"
    if errors:
        text += f"; {errors} error{'s' if errors != 1 else ''} in the files"
    return text


def _shown(path: Path) -> str:
    """A path as the other commands print it: relative to the working folder if inside."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
