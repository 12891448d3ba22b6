"""The README's set-up commands and CI stay in step."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    lines = (ROOT / "README.md").read_text().splitlines()
    assert lines[0].startswith("```"), "the README starts with the two set-up commands"
    return lines[1:3]


def test_readme_starts_with_play_and_test_commands() -> None:
    play, test = readme_commands()
    assert "pip install" in play and ".venv/bin/rules" in play
    assert "pip install" in test and test.rstrip().endswith(".venv/bin/pytest")


def test_ci_runs_exactly_the_readme_test_command() -> None:
    _, test = readme_commands()
    assert test in (ROOT / ".ci" / "run").read_text()


def test_every_package_is_shipped() -> None:
    """pyproject.toml lists its packages (the bundled rulesets are mapped from
    `rulesets/`): every package of the interpreter must be in the list."""
    import tomllib

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "interpreter").rglob("__init__.py")
    }
    assert found | {"tabletop_rulesets"} == listed


def test_docs_link_only_inside_the_repository() -> None:
    """A clone has no `../shared`: docs, rulesets and code cite what is in the clone."""
    outside = []
    for path in [*ROOT.glob("*.md"), *ROOT.glob("docs/**/*.md"), *ROOT.glob("rulesets/**/*.yaml")]:
        text = path.read_text(encoding="utf-8")
        if "../shared" in text or "shared/rules" in text or "shared/spec" in text:
            outside.append(str(path.relative_to(ROOT)))
    for path in ROOT.glob("interpreter/**/*.py"):
        if "../shared" in path.read_text(encoding="utf-8"):
            outside.append(str(path.relative_to(ROOT)))
    assert outside == []
