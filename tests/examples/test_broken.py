"""The broken examples (examples/broken/) and the example mod (examples/mods/).

Each broken file must be refused by ``rules validate`` with exit code 1, a first
error line at the exact ``path:line:col`` of the mistake with a message that names
it, and never a Python traceback. The CLI runs in-process with click's CliRunner,
so an uncaught exception does not reach ``interpreter.cli.main.main`` (which turns
it into "internal error" and exit 70): CliRunner stores it in ``result.exception``
and reports exit code 1. ``_run`` therefore also requires that the command ended
with ``SystemExit``, i.e. that ``validate`` itself decided the outcome.

Tests that were once ``xfail(strict=True)`` state the behaviour the interpreter SHOULD have
and does not have yet; each reason says what it prints instead.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from interpreter.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
BROKEN = "examples/broken"
MOD = "examples/mods/new-staff.yaml"


@pytest.fixture(autouse=True)
def _in_project_root(monkeypatch: pytest.MonkeyPatch) -> None:
    # Paths in messages are shown relative to the working folder.
    monkeypatch.chdir(ROOT)


def _run(*args: str) -> Result:
    result = CliRunner().invoke(cli, ["validate", *args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"the CLI raised {result.exception!r} instead of reporting an error"
    )
    return result


def _first_line(result: Result) -> str:
    return result.output.splitlines()[0] if result.output else ""


# (file, line:col of the first error, a key part of its message)
CASES = [
    ("yaml-syntax.yaml", "14:13", "YAML syntax: expected ',' or '}', but got ':'"),
    ("schema-violation.yaml", "10:17", "expected a whole number, got 'two'"),
    ("unknown-key.yaml", "9:7", "unknown key 'lable'"),
    ("expression-syntax.yaml", "16:9", "unexpected 'gain'; expected ')'"),
    ("unknown-name.yaml", "13:28", "`favor_money` is not defined"),
    ("wrong-arity.yaml", "12:15", "`gain` needs 2 arguments, missing `amount`"),
    ("type-misuse.yaml", "12:28", "argument `amount` of `gain` must be a number"),
    ("dangling-reference.yaml", "19:14", "'gain_3_livre' is not an action"),
    ("duplicate-id.yaml", "10:5", "duplicate id 'E01' in `components`"),
    ("duplicate-key.yaml", "13:7", "duplicate key 'effect'"),
    ("alias-bomb.yaml", "20:20", "more than 64 aliases"),
    ("deep-nesting.yaml", "13:58", "nesting deeper than 48 levels"),
    ("huge-number.yaml", "10:14", "number has more than 12 digits"),
    ("empty.yaml", "1:1", "file is empty"),
    ("binary.bin", "1:1", "this is a binary file, not YAML text"),
]


@pytest.mark.parametrize(("name", "position", "message"), CASES)
def test_broken_file_is_refused_at_its_mistake(name: str, position: str, message: str) -> None:
    path = f"{BROKEN}/{name}"
    result = _run(path)
    assert result.exit_code == 1, result.output
    first = _first_line(result)
    assert first.startswith(f"{path}:{position}: error: "), result.output
    assert message in first, result.output


def test_every_broken_file_has_a_case_and_a_readme_entry() -> None:
    files = {p.name for p in (ROOT / BROKEN).iterdir() if p.name != "README.md"}
    cased = {c.values[0] if hasattr(c, "values") else c[0] for c in CASES}
    assert files == cased
    readme = (ROOT / BROKEN / "README.md").read_text()
    for name in files:
        assert f"`{name}`" in readme, name


def test_empty_file_of_zero_bytes_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "zero.yaml"
    empty.write_bytes(b"")
    result = _run(str(empty))
    assert result.exit_code == 1
    assert _first_line(result).startswith(f"{empty}:1:1: error: file is empty")


def test_example_mod_validates() -> None:
    result = _run(MOD)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].endswith(": valid")


def test_example_mod_typo_is_reported_in_the_mod(tmp_path: Path) -> None:
    """The deliberate typo the tutorial (docs/modding.md) shows."""
    text = (ROOT / MOD).read_text()
    assert "min([my.thread, my.lace])" in text
    lines = text.splitlines()
    line = next(i for i, t in enumerate(lines, 1) if "min([my.thread, my.lace])" in t)
    column = lines[line - 1].index("thread") + 1
    broken = tmp_path / "new-staff.yaml"
    broken.write_text(text.replace("min([my.thread, my.lace])", "min([my.thred, my.lace])"))
    result = _run(str(broken))
    assert result.exit_code == 1
    assert _first_line(result) == f"{broken}:{line}:{column}: error: a player has no `thred`"
    assert "did you mean `thread`?" in result.output


# ----------------------------------------------------------------------------
# Known interpreter problems: the correct behaviour, expected to fail for now.
# ----------------------------------------------------------------------------


def test_yaml_syntax_error_names_where_the_flow_mapping_started() -> None:
    result = _run(f"{BROKEN}/yaml-syntax.yaml")
    assert "13:15" in result.output


def test_expression_syntax_error_names_the_unclosed_parenthesis() -> None:
    result = _run(f"{BROKEN}/expression-syntax.yaml")
    assert "15:13" in result.output


HEADER = "overlay: {id: probe, name: Probe, base: rococo}\n"


def _mod(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "probe.yaml"
    path.write_text(HEADER + body)
    return path


def test_error_in_folded_scalar_points_at_its_line(tmp_path: Path) -> None:
    path = _mod(
        tmp_path,
        (
            "add:\n"
            "  functions:\n"
            "    probe_folded:\n"
            "      returns: number\n"
            "      value: >-\n"
            "        my.livres\n"
            "        + my.thred\n"
        ),
    )
    result = _run(str(path))
    assert _first_line(result).startswith(f"{path}:8:14: error: a player has no `thred`")


def test_error_in_multiline_plain_scalar_points_at_its_line(tmp_path: Path) -> None:
    path = _mod(
        tmp_path,
        (
            "add:\n"
            "  actions:\n"
            "    probe_plain:\n"
            "      params: {card: piece}\n"
            "      effect: gain(livres,\n"
            "        my.lacee)\n"
        ),
    )
    result = _run(str(path))
    assert _first_line(result).startswith(f"{path}:7:12: error: a player has no `lacee`")


def test_error_in_double_quoted_scalar_with_escapes(tmp_path: Path) -> None:
    path = _mod(
        tmp_path,
        (
            "add:\n"
            "  actions:\n"
            "    probe_dq:\n"
            "      params: {card: piece}\n"
            '      effect: "gain(livres, \\"x\\" + my.thredd)"\n'
        ),
    )
    result = _run(str(path))
    assert _first_line(result).startswith(f"{path}:6:40: error: a player has no `thredd`")


def test_patch_errors_are_reported_in_the_mod(tmp_path: Path) -> None:
    path = _mod(
        tmp_path, ("patch:\n  actions:\n    gain_1_livre:\n      effect: gain(livres, my.thred)\n")
    )
    result = _run(str(path))
    assert result.exit_code == 1
    assert _first_line(result).startswith(f"{path}:5:31: error: a player has no `thred`")


def test_patch_unknown_key_is_reported(tmp_path: Path) -> None:
    path = _mod(tmp_path, ("patch:\n  actions:\n    gain_1_livre:\n      lable: Gain one livre\n"))
    result = _run(str(path))
    assert result.exit_code == 1
    assert _first_line(result).startswith(f"{path}:5:7: error: unknown key 'lable'")


def test_unknown_base_ruleset_is_named(tmp_path: Path) -> None:
    path = tmp_path / "probe.yaml"
    path.write_text("overlay: {id: probe, name: Probe, base: rococco}\n")
    result = _run(str(path))
    assert result.exit_code == 1
    first = _first_line(result)
    assert first.startswith(f"{path}:1:41: error: "), result.output
    assert "rococco" in first


def test_huge_float_is_refused(tmp_path: Path) -> None:
    path = _mod(
        tmp_path,
        (
            "add:\n"
            "  constants:\n"
            "    jackpot: {value: 1e400}\n"
            "  actions:\n"
            "    win:\n"
            "      params: {card: piece}\n"
            "      effect: gain(livres, jackpot)\n"
        ),
    )
    result = _run(str(path))
    assert result.exit_code == 1
    assert _first_line(result).startswith(f"{path}:4:22: error: ")


# Overlays whose sections have the wrong shape: the schema check finds the problem
# (the expected line below is what it reports), but loading or building goes on with
# the bad data and crashes. Installed `rules` prints "internal error: …" and exits
# 70; in-process the exception escapes. Each should be exit 1 with the schema error.
CRASHES = [
    (
        "remove: {components: 5}\n",
        "2:22",
        "expected a list, got 5",
        "TypeError: 'int' object is not iterable",
    ),
    (
        "remove: 5\n",
        "2:9",
        "expected a mapping, got 5",
        "AttributeError: 'int' object has no attribute 'items'",
    ),
    (
        "patch: {components: 5}\n",
        "2:21",
        "expected a mapping, got 5",
        "AttributeError: 'int' object has no attribute 'items'",
    ),
    (
        "patch: 5\n",
        "2:8",
        "expected a mapping, got 5",
        "AttributeError: 'int' object has no attribute 'items'",
    ),
    (
        "remove: {components: [[1]]}\n",
        "2:23",
        "expected a text, got list",
        "TypeError: unhashable type: 'list'",
    ),
    (
        "add: {actions: {a: {params: 5, effect: stop}}}\n",
        "2:29",
        "expected a mapping, got 5",
        "AttributeError: 'int' object has no attribute 'items'",
    ),
    (
        "add: {spaces: {g: {items: {s: {side: 5}}}}}\n",
        "2:38",
        "expected a text, got 5",
        "TypeError: 'int' object is not iterable",
    ),
    (
        "add: {kinds: {k: {properties: 5}}}\n",
        "2:31",
        "expected a mapping, got 5",
        "AttributeError: 'int' object has no attribute 'items'",
    ),
]


@pytest.mark.parametrize(
    ("body", "position", "message"),
    [pytest.param(b, p, m, id=b.strip()) for b, p, m, _crash in CRASHES],
)
def test_wrong_shape_is_an_error_not_a_crash(
    tmp_path: Path, body: str, position: str, message: str
) -> None:
    path = _mod(tmp_path, body)
    result = _run(str(path))
    assert result.exit_code == 1
    assert _first_line(result).startswith(f"{path}:{position}: error: {message}")


def test_requires_of_wrong_shape_is_an_error_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "probe.yaml"
    path.write_text("overlay: {id: probe, name: Probe, base: rococo, requires: 5}\n")
    result = _run(str(path))
    assert result.exit_code == 1
    assert _first_line(result).startswith(f"{path}:1:59: error: expected a list, got 5")
