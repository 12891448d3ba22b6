"""`rules validate`: one real mistake per kind, made in a copy of Rococo.

Each test changes ONE file of the copy by a precise text replacement and checks
the exit code, the exact `path:line:col` (computed from the mutated text, so the
test follows the ruleset when it changes), the message, the source line with its
caret, and that no traceback ever appears.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from ruamel.yaml import YAML
from rules_test_support import (
    ROCOCO,
    ROOT,
    headlines,
    invoke,
    mutate,
    position,
    shown,
    summary_line,
)

from interpreter.load.ruleset_files import SECTIONS

SUMMARY = re.compile(r"^checked (\d+) files?, (\d+) items, (\d+) provisional values: (.+)$")


class Cascade(AssertionError):
    """One mistake gave more than one error (the extra ones are false)."""


@dataclass
class Case:
    id: str
    file: str
    old: str
    new: str
    mark: str | None  # where in `new` the error must point (its start if None)
    message: list[str]  # parts the headline's message must contain
    hint: list[str] = field(default_factory=list)  # parts the output must contain
    occurrence: int = 0
    unique: bool = True
    cascade: str | None = None  # a known bug: the mistake brings false errors with it


CASES = [
    Case(
        "yaml-syntax",
        "ruleset.yaml",
        "name: Rococo\n",
        "name: Rococo: Deluxe\n",
        ": Deluxe",
        ["YAML syntax", "mapping values are not allowed"],
        ["must be quoted"],
    ),
    Case(  # issue 49: a comma cuts an unquoted text of a `{…}` mapping in two
        "unquoted-comma",
        "core.yaml",
        'description: "The 2-3 player side of the board."',
        "description: The 2-3 player side, face up in order.",
        "face up",
        ["unknown key 'face up in order.'"],
        ['put the whole text in quotes, `description: "The 2-3 player side, face up in order."`'],
    ),
    Case(
        "schema-wrong-type",
        "structure.yaml",
        "count: 7",
        "count: seven",
        "seven",
        ["expected a whole number, got 'seven'"],
        ["/structure/rounds/count"],
    ),
    Case(
        "unknown-key",
        "core.yaml",
        "label: livres",
        "lable: livres",
        "lable",
        ["unknown key 'lable'"],
        ["did you mean `label`?"],
        cascade=(
            "an item with a schema error is dropped: this counter's uses become 35 false "
            "errors ('`gain` needs a counter name here', 'a player has no `livres`', …)"
        ),
    ),
    Case(
        "expression-syntax-in-block",
        "actions.yaml",
        "gain(livres, favour_money)",
        "gain(livres,, favour_money)",
        ", favour_money",
        ["unexpected ','"],
    ),
    Case(
        "expression-syntax-in-quotes",
        "bonuses.yaml",
        'effect: "do acquire(card: card)"',
        'effect: "do acquire(card card)"',
        "card)",
        ["unexpected 'card'"],
    ),
    Case(
        "unknown-name",
        "actions.yaml",
        "gain(livres, favour_money)",
        "gain(livres, favour_mony)",
        "favour_mony",
        ["`favour_mony` is not defined"],
        ["did you mean `favour_money`"],
    ),
    Case(
        "arity-missing",
        "actions.yaml",
        "gain(livres, favour_money)",
        "gain(livres)",
        "gain",
        ["`gain` needs 2 arguments, missing `amount`"],
        ["usage: gain("],
    ),
    Case(
        "arity-too-many",
        "actions.yaml",
        "gain(livres, favour_money)",
        "gain(livres, favour_money, me, 4)",
        "4)",
        ["`gain` takes at most 3 arguments"],
    ),
    Case(
        "type-number-as-condition",
        "actions.yaml",
        "- condition: hiring.size > 0",
        "- condition: hiring.size",
        "hiring",
        ["expected a condition (true/false)", "but this is a number"],
        ["compare the number"],
    ),
    Case(
        "type-count-of-number",
        "bonuses.yaml",
        "gain(prestige, count(dresses_of(me)) // 3)",
        "gain(prestige, count(decorations_of(me)) // 3)",
        "decorations_of",
        ["argument `items` of `count` must be a collection, but this is a number"],
    ),
    Case(
        "dangling-kind",
        "components/dresses.yaml",
        "kind: dress",
        "kind: dres",
        "dres",
        ["unknown kind 'dres'"],
        ["did you mean `dress`?"],
        unique=False,
    ),
    Case(
        "dangling-do",
        "actions.yaml",
        "do take_tile(tile: tile)",
        "do take_tiles(tile: tile)",
        "take_tiles",
        ["`take_tiles` is not an action of this ruleset"],
        ["did you mean `take_tile`?"],
    ),
    Case(
        "duplicate-id",
        "components/resources.yaml",
        "\n  T01:",
        "\n  D01:",
        "D01",
        ["duplicate id 'D01' in `components`"],
        ["first defined at "],
    ),
    Case(
        "duplicate-key",
        "components/employees.yaml",
        "  E01:  # level I apprentice: gain 1 livre (type designed)\n    kind: employee\n"
        "    level: 1\n",
        "  E01:  # level I apprentice: gain 1 livre (type designed)\n    kind: employee\n"
        "    level: 1\n    level: 2\n",
        "level: 2",
        ["YAML syntax: duplicate key 'level'"],
        ["each key may appear once"],
        cascade=(
            "a YAML error drops the whole file, and the names it defined are reported as "
            "undefined elsewhere: 4 false '`favour_card` is not defined' errors"
        ),
    ),
]


def _caret_column(output: str, headline: str) -> tuple[str, int]:
    """The source line printed under ``headline`` and the column its caret marks."""
    lines = output.splitlines()
    index = lines.index(headline)
    source, caret = lines[index + 1], lines[index + 2]
    gutter = source.index(" | ") + 3
    return source[gutter:], caret.index("^") - gutter + 1


def _params(cases: list[Case]):
    return [
        pytest.param(c, id=c.id)  # (`cascade` notes the follow-on errors once reported)
        for c in cases
    ]


@pytest.mark.parametrize("case", _params(CASES))
def test_one_mistake_is_reported_at_its_place(rococo_copy: Path, case: Case) -> None:
    change = mutate(rococo_copy, case.file, case.old, case.new, case.occurrence, case.unique)
    result = invoke("validate", str(rococo_copy))

    assert result.exit_code == 1, result.output
    where = change.where(case.mark)
    matching = [h for h in headlines(result) if h.startswith(f"{where}: error: ")]
    assert matching, f"no error at {where}; got:\n{result.output}"
    headline = matching[0]
    for part in case.message:
        assert part in headline
    for part in case.hint:
        assert part in result.output
    if case.id == "duplicate-id":  # the hint names the first definition's place
        dresses = rococo_copy / "components/dresses.yaml"
        text = dresses.read_text(encoding="utf-8")
        first = position(text, text.index("\n  D01:") + 3)
        assert f"first defined at {shown(dresses)}:{first[0]}:{first[1]}" in result.output
    # The offending source line is shown, with the caret under the column.
    line, column = change.at(case.mark)
    source, caret = _caret_column(result.output, headline)
    assert source == change.text.splitlines()[line - 1]
    assert caret == column
    # One mistake, one error: anything more is a false error.
    if len(headlines(result)) != 1:
        raise Cascade("\n".join(headlines(result)))
    assert summary_line(result).endswith(": 1 error")


# ------------------------------------------------------------------ several errors
def test_all_errors_of_several_files_in_one_run(rococo_copy: Path) -> None:
    changes = [
        mutate(rococo_copy, "structure.yaml", "count: 7", "count: seven"),
        mutate(
            rococo_copy, "actions.yaml", "gain(livres, favour_money)", "gain(livres, favour_mony)"
        ),
        mutate(rococo_copy, "components/dresses.yaml", "kind: dress", "kind: dres", unique=False),
        mutate(rococo_copy, "ruleset.yaml", "description: Tailors", "descripton: Tailors"),
    ]
    marks = ["seven", "favour_mony", "dres", "descripton"]
    result = invoke("validate", str(rococo_copy))
    assert result.exit_code == 1
    found = {h.split(": error: ")[0] for h in headlines(result)}
    for change, mark in zip(changes, marks, strict=True):
        assert change.where(mark) in found
    assert len(headlines(result)) == len(changes)
    assert summary_line(result).endswith(f": {len(changes)} errors")
    # Errors come sorted by file, then line and column.
    keys = []
    for h in headlines(result):
        path, line, column = h.split(": error: ")[0].rsplit(":", 2)
        keys.append((path, int(line), int(column)))
    assert keys == sorted(keys)


def test_single_file_reports_only_that_files_errors(rococo_copy: Path) -> None:
    in_actions = mutate(
        rococo_copy, "actions.yaml", "gain(livres, favour_money)", "gain(livres, favour_mony)"
    )
    mutate(rococo_copy, "structure.yaml", "count: 7", "count: seven")
    result = invoke("validate", str(rococo_copy / "actions.yaml"))
    assert result.exit_code == 1
    assert [h.split(": error: ")[0] for h in headlines(result)] == [in_actions.where("favour_mony")]


# --------------------------------------------------------------------------- JSON
def test_json_output_parses_and_locates(rococo_copy: Path) -> None:
    change = mutate(
        rococo_copy, "actions.yaml", "gain(livres, favour_money)", "gain(livres, favour_mony)"
    )
    result = invoke("validate", "--format", "json", str(rococo_copy))
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["valid"] is False
    assert report["summary"]["errors"] == 1 == len(report["errors"])
    (error,) = report["errors"]
    line, column = change.at("favour_mony")
    assert (error["path"], error["line"], error["column"]) == (shown(change.path), line, column)
    assert "favour_mony" in error["message"]
    assert error["severity"] == "error"
    assert "did you mean" in error["hint"]


def test_json_output_of_a_valid_ruleset(tiny: Path) -> None:
    result = invoke("validate", "--format", "json", str(tiny))
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["valid"] is True and report["errors"] == []
    # A ruleset is checked alone and with each expansion it offers.
    assert report["summary"]["rulesets"] == ["tiny"]
    assert report["summary"]["files"] == 3


# --------------------------------------------------------------- exit codes, usage
def test_no_path_is_a_usage_error() -> None:
    result = invoke("validate")
    assert result.exit_code == 2
    assert "Missing argument" in result.output


def test_unknown_format_is_a_usage_error() -> None:
    result = invoke("validate", "--format", "xml", str(ROCOCO))
    assert result.exit_code == 2


def test_missing_path_is_an_input_error(tmp_path: Path) -> None:
    missing = tmp_path / "nothing-here"
    result = invoke("validate", str(missing))
    assert result.exit_code == 1
    assert headlines(result)[0].startswith(f"{missing}: error: ")


def _expected_counts(folder: Path) -> tuple[int, int, int]:
    """Files, items and provisional values of a ruleset and the expansions it offers,
    their `when:` blocks included (each item once, whichever combination brings it),
    counted from its YAML."""
    yaml = YAML(typ="safe", pure=True)
    manifest = yaml.load((folder / "ruleset.yaml").read_text(encoding="utf-8"))
    contents = [
        yaml.load((folder / name).read_text(encoding="utf-8")) for name in manifest["include"]
    ]
    overlays = [
        yaml.load((folder / entry["file"]).read_text(encoding="utf-8"))
        for entry in (manifest.get("expansions") or {}).values()
    ]
    contents += [overlay.get("add") or {} for overlay in overlays]
    # what their `when:` blocks add: plain validate builds a combination that applies each
    contents += [block.get("add") or {} for o in overlays for block in o.get("when") or []]
    items: set = set()
    provisional: set = set()
    for data in contents:
        items |= {(s, i) for s in SECTIONS for i in data.get(s) or {}}
        items |= {(s, s) for s in ("structure", "scoring") if s in data}
        for section in ("components", "constants"):
            for key, value in (data.get(section) or {}).items():
                if value.get("provisional"):
                    provisional.add((section, key))
        for group in (data.get("spaces") or {}).values():
            if group.get("provisional"):
                provisional |= {("spaces", i) for i in group.get("items") or {}}
    files = 1 + len(manifest["include"]) + len(overlays)
    return files, len(items), len(provisional)


def test_valid_ruleset_exits_0_with_summary(rococo_copy: Path) -> None:
    result = invoke("validate", str(rococo_copy))
    assert result.exit_code == 0, result.output
    assert headlines(result) == []
    match = SUMMARY.match(summary_line(result))
    assert match, summary_line(result)
    files, items, provisional = _expected_counts(rococo_copy)
    assert match.groups() == (str(files), str(items), str(provisional), "valid")


def test_console_script_validates_the_real_rococo() -> None:
    """The installed entry point, as a user runs it (one subprocess)."""
    result = subprocess.run(
        [sys.executable, "-m", "interpreter", "validate", "rulesets/rococo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert SUMMARY.match(result.stdout.strip().splitlines()[-1])
    assert "Traceback" not in result.stderr


# ------------------------------------------------------------------- robustness
# Hostile files go into the tiny ruleset (the loader is the same for every ruleset,
# and a tiny one keeps these runs quick).
def _alias_bomb() -> tuple[bytes, int]:
    """A "billion laughs" file, and the index of its 65th alias."""
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    text = "\n".join(lines) + "\n"
    return text.encode(), [m.start() for m in re.finditer(r"\*", text)][64]


def _hostile_cases():
    huge = b"constants:\n" + b"".join(b"  c%07d: {value: %d}\n" % (i, i) for i in range(80_000))
    assert len(huge) > 2_000_000
    bomb, alias = _alias_bomb()
    deep = b"constants: " + b"[" * 10_000 + b"]" * 10_000 + b"\n"
    fifty = b"constants:\n  big: {value: " + b"1234567890" * 5 + b"}\n"
    return [
        ("empty", b"", 0, ["file is empty"]),
        ("blank", b"  \n\n# only a comment\n", 0, ["file is empty"]),
        ("binary", b"\x00\x01\x02\x03binary\xff\xfe", 0, ["binary file"]),
        ("not-utf8", b"constants: {}\n# caf\xe9\n", len(b"constants: {}\n"), ["not valid UTF-8"]),
        ("over-2-MB", huge, 0, ["bytes; the limit is 2,000,000"]),
        ("alias-bomb", bomb, alias, ["more than 64 aliases"]),
        ("10000-deep", deep, None, ["nesting deeper than"]),
        ("50-digit-number", fifty, fifty.index(b"1234"), ["more than 12 digits"]),
        (
            "python-tag",
            b"constants: !!python/object:os.system {}\n",
            len(b"constants: "),
            ["is not allowed"],
        ),
        (
            "second-document",
            b"constants: {}\n---\nconstants: {}\n",
            len(b"constants: {}\n"),
            ["one YAML document"],
        ),
    ]


def _include(folder: Path, name: str) -> Path:
    manifest = folder / "ruleset.yaml"
    manifest.write_text(manifest.read_text().replace("[content.yaml]", f"[content.yaml, {name}]"))
    return folder / name


@pytest.mark.parametrize(
    "name, content, index, message", _hostile_cases(), ids=[c[0] for c in _hostile_cases()]
)
def test_hostile_file_is_a_located_error(
    tiny: Path, name: str, content: bytes, index: int | None, message: list[str]
) -> None:
    target = _include(tiny, "hostile.yaml")
    target.write_bytes(content)
    result = invoke("validate", str(tiny))
    assert result.exit_code == 1, result.output
    assert len(headlines(result)) == 1, result.output
    (headline,) = headlines(result)
    path, line, column = headline.split(": error: ")[0].rsplit(":", 2)
    assert path == shown(target)
    line, column = int(line), int(column)
    if index is not None:
        text = content.decode("utf-8", errors="replace")
        assert (line, column) == position(text, len(content[:index].decode("utf-8", "replace")))
    else:  # the deep nesting: the error points at one of the brackets
        assert line == 1 and content[column - 1 : column] == b"["
    for part in message:
        assert part in headline


ODD_SCALARS = [
    ("dash-underscore", "-_"),
    ("dot-underscore", "._"),
    ("bad-date", "2013-13-45"),
    ("int-tag-on-text", "!!int five"),
]


@pytest.mark.parametrize("scalar", [s for _, s in ODD_SCALARS], ids=[i for i, _ in ODD_SCALARS])
def test_odd_scalar_is_a_located_error(tiny: Path, scalar: str) -> None:
    change = mutate(tiny, "content.yaml", "base: {value: 7}", f"base: {{value: {scalar}}}")
    result = invoke("validate", str(tiny))
    assert result.exit_code == 1
    assert any(h.startswith(f"{change.where(scalar)}: error: ") for h in headlines(result))


def test_wrong_types_never_crash_the_build(rococo_copy: Path) -> None:
    """Values of the wrong type where the builder expects mappings, lists or names
    (each used to crash ruleset/build.py with a TypeError or AttributeError)."""
    changes = [
        mutate(rococo_copy, "ruleset.yaml", "players: {min: 2, max: 5}", "players: [2, 5]"),
        mutate(
            rococo_copy,
            "structure.yaml",
            "  rounds:\n    count: 7\n    counter: round\n",
            "  rounds: 7\n",
        ),
        mutate(rococo_copy, "scoring.yaml", "score: prestige", "score: [prestige]"),
        mutate(rococo_copy, "actions.yaml", "on: marker_placed", "on: [marker_placed]"),
    ]
    result = invoke("validate", str(rococo_copy))
    assert result.exit_code == 1
    found = {h.split(": error: ")[0] for h in headlines(result)}
    for change, mark in zip(changes, ["[2, 5]", "7", "[prestige]", "[marker_placed]"], strict=True):
        assert change.where(mark) in found


def test_very_long_expression_is_a_located_error(tiny: Path) -> None:
    change = mutate(tiny, "content.yaml", "value: n * 2}", "value: n" + " + 1" * 2000 + "}")
    result = invoke("validate", str(tiny))
    assert result.exit_code == 1
    assert any(h.startswith(f"{shown(change.path)}:{change.at()[0]}:") for h in headlines(result))


# ---------------------------------------------------------- positions in scalars
def test_error_in_folded_scalar_points_at_its_line(rococo_copy: Path) -> None:
    old = "for x in silk_colours))\n  sewable:"
    change = mutate(rococo_copy, "functions.yaml", old, old.replace("silk_colours", "silk_colour"))
    result = invoke("validate", str(rococo_copy))
    assert result.exit_code == 1
    assert headlines(result)[0].startswith(f"{change.where('silk_colour')}: error: ")


def test_error_after_escaped_quotes_points_at_its_column(tiny: Path) -> None:
    change = mutate(
        tiny,
        "content.yaml",
        "value: n * 2}",
        "value: 'if text(n) == ''x'' and \"y\" != ''z'' then n else bse'}",
    )
    result = invoke("validate", str(tiny))
    assert result.exit_code == 1
    assert headlines(result)[0].startswith(f"{change.where('bse')}: error: ")


def test_source_line_is_read_fresh_each_run(tiny: Path, monkeypatch) -> None:
    monkeypatch.chdir(tiny.parent)
    original = (tiny / "content.yaml").read_text()
    mutate(tiny, "content.yaml", "value: n * 2}", "value: n * tow}")
    invoke("validate", "tiny")
    (tiny / "content.yaml").write_text(original)
    second = mutate(tiny, "content.yaml", "c1: {kind: card,", "\n  c1: {kind: crad,")
    result = invoke("validate", "tiny")
    source, _ = _caret_column(result.output, headlines(result)[0])
    assert source == second.text.splitlines()[second.at("c1")[0] - 1]


def test_crash_is_one_line_and_exit_70_through_main(monkeypatch, capsys) -> None:
    """The last line of defence: an unexpected exception is not a traceback."""
    from interpreter.cli import main as main_module

    def boom(*_args, **_kwargs):
        raise RuntimeError("kaput")

    monkeypatch.setattr(main_module.cli, "main", boom)
    with pytest.raises(SystemExit) as exit_info:
        main_module.main()
    assert exit_info.value.code == 70
    assert capsys.readouterr().err.strip() == "internal error: RuntimeError: kaput"


def test_a_glob_over_a_python_package_of_rulesets_skips_its_python_files(
    tiny: Path, tmp_path: Path
) -> None:
    """`rules validate rulesets/*` meets `__init__.py` and `__pycache__` beside the
    bundled rulesets (the folder is a package): they are named as skipped, not errors;
    a Python file alone is still "nothing checked"."""
    package = tmp_path / "games"
    package.mkdir()
    (package / "__init__.py").write_text('"""games"""\n', encoding="utf-8")
    (package / "__pycache__").mkdir()
    result = invoke(
        "validate", str(tiny), str(package / "__init__.py"), str(package / "__pycache__")
    )
    assert result.exit_code == 0, result.output
    assert "skipped (Python, not rules):" in result.output
    assert "valid" in summary_line(result)
    alone = invoke("validate", str(package / "__init__.py"))
    assert alone.exit_code == 1
    assert "nothing was checked" in alone.output
