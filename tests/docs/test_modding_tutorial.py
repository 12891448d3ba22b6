"""The outputs quoted in docs/modding.md are the real ones, and its files are true.

Every ```sh block whose commands start with `rules ` and that is followed by
an output block (``` with no language, or ```json) is run with the venv's `rules`,
in a copy of the repository's rulesets, examples, schemas and docs, and its output
(stdout and stderr, as a terminal shows them) must equal the block, trailing
whitespace aside. The blocks run in document order in one copy, as a reader
following the tutorial would. An HTML comment on the line before a ```sh block
changes that:

* `<!-- doc-test: skip (why) -->`: not run (say why);
* `<!-- doc-test: setup: SHELL -->`: run SHELL first, in a fresh copy of its own
  (to show what an edited file gives, e.g. a typo), so no other block sees the edit;
* `<!-- doc-test: run -->`: run it although its first command is not `rules `.

The chapter that writes a new game shows its files as it grows them. A comment on
the line before a block names the file and says what the block does to it, before
the next command runs:

* `<!-- doc-test: file PATH -->` (```yaml): the block is the whole file;
* `<!-- doc-test: append PATH -->` (```yaml): the block is added at its end, after a
  blank line;
* `<!-- doc-test: change PATH -->` (```diff): lines `-` are replaced by lines `+`,
  the others are context; the lines before must be in the file once;
* `<!-- doc-test: try PATH -->` (```diff): the same change, for the next command
  only and in a copy of its own (a mistake the chapter shows, then leaves).

So the chapter cannot show a file that the commands after it do not check, and its
last stage must be the shipped ruleset (`rulesets/reversi`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from rules_test_support import ROOT

DOC = ROOT / "docs" / "modding.md"
COPIED = ("rulesets", "examples", "schemas", "docs")
MARKER = re.compile(
    r"^<!--\s*doc-test:\s*(skip|setup:|run|file|append|change|try)\s*(.*?)\s*-->\s*$"
)
EDITS = ("file", "append", "change", "try")
# The new game the chapter builds, where it builds it, and the shipped ruleset it ends at
# (its id and its scenario file's `ruleset:` aside).
CHAPTER = "## 13. A new game from scratch: Reversi"
GAME = "my-games/my-reversi"
SHIPPED = ROOT / "rulesets" / "reversi"
RENAMED = {"id: reversi\n": "id: my-reversi\n", "ruleset: reversi\n": "ruleset: .\n"}


@dataclass(frozen=True)
class Edit:
    """A file of the chapter's new game as a block shows it (see the module's doc)."""

    kind: str  # file | append | change | try
    path: str
    body: str
    line: int  # of the block's fence, 1-based

    def apply(self, root: Path) -> None:
        target = root / self.path
        if self.kind == "file":
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(self.body + "\n", encoding="utf-8")
            return
        text = target.read_text(encoding="utf-8")
        if self.kind == "append":
            target.write_text(text.rstrip("\n") + "\n\n" + self.body + "\n", encoding="utf-8")
            return
        text = "\n" + text  # so that a change starts at the start of a line
        for before, after in _hunks(self.body):
            found = text.count("\n" + before)
            assert found == 1, (
                f"docs/modding.md:{self.line}: the lines `-` and ` ` of this change are in "
                f"{self.path} {found} times, not once"
            )
            text = text.replace("\n" + before, "\n" + after, 1)
        target.write_text(text[1:], encoding="utf-8")


def _hunks(diff: str) -> list[tuple[str, str]]:
    """The changes of a ```diff block (parts between lines `@@`): for each, the text it
    changes and the text it makes, each ending in a new line."""
    parts = re.split(r"^@@.*\n?", diff, flags=re.MULTILINE)
    return [_sides(part) for part in parts if part.strip()]


def _sides(diff: str) -> tuple[str, str]:
    before, after = [], []
    for line in diff.splitlines():
        sign, rest = line[:1], line[1:]
        if sign in ("-", " ", ""):
            before.append(rest)
        if sign in ("+", " ", ""):
            after.append(rest)
        assert sign in ("-", "+", " ", ""), f"a diff line starts with -, + or a space: {line!r}"
    return "\n".join(before) + "\n", "\n".join(after) + "\n"


@dataclass
class Example:
    line: int  # of the ```sh fence, 1-based
    script: str
    expected: str
    skip: str | None = None
    setup: str | None = None
    edits: list[Edit] = field(default_factory=list)  # kept, applied before it runs
    trials: list[Edit] = field(default_factory=list)  # for it alone, in a copy

    @property
    def id(self) -> str:
        first = self.script.splitlines()[0]
        return f"line {self.line}: {first[:60]}"


def _blocks(lines: list[str]) -> list[tuple[int, str, list[str]]]:
    """(fence line index, language, body) of each fenced block."""
    blocks = []
    i = 0
    while i < len(lines):
        fence = re.match(r"^```(\w*)\s*$", lines[i])
        if fence is None:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        blocks.append((i, fence.group(1), lines[i + 1 : end]))
        i = end + 1
    return blocks


def _marker(lines: list[str], start: int) -> tuple[str, str] | None:
    found = MARKER.match(lines[start - 1]) if start else None
    return None if found is None else (found.group(1), found.group(2))


def edits(text: str) -> list[Edit]:
    """Every block of the text that writes a file, in order."""
    lines = text.splitlines()
    found = []
    for start, _language, body in _blocks(lines):
        marker = _marker(lines, start)
        if marker is not None and marker[0] in EDITS:
            found.append(Edit(marker[0], marker[1], "\n".join(body), start + 1))
    return found


def examples(text: str) -> list[Example]:
    """The runnable examples of a Markdown text, in order, each with the file edits
    shown since the one before it. An edit after the last one is checked by none: it
    is an error."""
    lines = text.splitlines()
    blocks = _blocks(lines)
    found: list[Example] = []
    pending: list[Edit] = []
    for index, (start, language, body) in enumerate(blocks):
        marker = _marker(lines, start)
        if marker is not None and marker[0] in EDITS:
            pending.append(Edit(marker[0], marker[1], "\n".join(body), start + 1))
            continue
        commands = [line for line in body if line.strip()]
        runnable = commands and (commands[0].startswith("rules ") or marker == ("run", ""))
        if language != "sh" or not commands or not runnable or index + 1 == len(blocks):
            continue
        following = blocks[index + 1]
        if following[1] not in ("", "json"):
            continue
        between = lines[start + len(body) + 2 : following[0]]
        if any(line.strip() for line in between):
            continue  # prose between the command and the block: not its output
        example = Example(start + 1, "\n".join(body), "\n".join(following[2]))
        example.edits = [e for e in pending if e.kind != "try"]
        example.trials = [e for e in pending if e.kind == "try"]
        pending = []
        if marker is not None and marker[0] == "skip":
            example.skip = marker[1] or "marked skip"
        elif marker is not None and marker[0] == "setup:":
            example.setup = marker[1]
        found.append(example)
    assert not pending, f"docs/modding.md:{pending[0].line}: no command after this block checks it"
    return found


def normalised(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def _copy(target: Path) -> Path:
    for name in COPIED:
        shutil.copytree(ROOT / name, target / name)
    return target


def _run(script: str, cwd: Path) -> str:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("RULES_PATH", None)
    done = subprocess.run(
        ["bash", "-c", script],
        cwd=cwd,
        env=env,
        capture_output=False,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=600,
    )
    return done.stdout


EXAMPLES = examples(DOC.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def shared_copy(tmp_path_factory) -> Path:
    """One copy for the examples in document order (a later one may read an earlier's
    files, as a reader following the tutorial would)."""
    return _copy(tmp_path_factory.mktemp("repo"))


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_quoted_output_is_the_real_one(example: Example, shared_copy: Path, tmp_path: Path):
    for edit in example.edits:
        edit.apply(shared_copy)
    if example.skip:
        pytest.skip(example.skip)
    cwd = shared_copy
    if example.setup:
        cwd = _copy(tmp_path / "repo")
        subprocess.run(["bash", "-c", example.setup], cwd=cwd, check=True)
    if example.trials:
        cwd = tmp_path / "trial"
        shutil.copytree(shared_copy, cwd)
        for edit in example.trials:
            edit.apply(cwd)
    actual = _run(example.script, cwd)
    assert normalised(actual) == normalised(example.expected), (
        f"docs/modding.md:{example.line}: the output of\n{example.script}\nis now:\n{actual}"
    )


def test_the_parser_finds_the_tutorial_steps():
    scripts = [e.script for e in EXAMPLES]
    assert any(s.startswith("rules new mod ") for s in scripts)
    assert any(s.startswith("rules test ") for s in scripts)
    assert any(s.startswith("rules validate examples/mods/new-staff.yaml") for s in scripts)
    assert any(s.startswith("rules new ruleset my-reversi ") for s in scripts)


def test_the_parser_reads_markers_and_output_blocks():
    text = (
        "```sh\nrules a\n```\n\n```\nout a\n```\n"
        "<!-- doc-test: skip (slow) -->\n```sh\nrules b\n```\n```json\n{}\n```\n"
        "<!-- doc-test: setup: touch x -->\n```sh\nrules c\n```\n```\nout c\n```\n"
        "```sh\nrules d\n```\nprose\n```\nnot its output\n```\n"
        "```sh\nls\n```\n```\nnot rules\n```\n"
        "```sh\nls\nrules e\n```\n```\nnot run: its first command is not rules\n```\n"
        "<!-- doc-test: run -->\n```sh\nls\n```\n```\nout ls\n```\n"
    )
    found = examples(text)
    assert [(e.script, e.expected, e.skip, e.setup) for e in found] == [
        ("rules a", "out a", None, None),
        ("rules b", "{}", "(slow)", None),
        ("rules c", "out c", None, "touch x"),
        ("ls", "out ls", None, None),
    ]


def test_file_blocks_go_with_the_next_command():
    text = (
        "<!-- doc-test: file g/a.yaml -->\n```yaml\nx: 1\n```\n"
        "<!-- doc-test: try g/a.yaml -->\n```diff\n-x: 1\n+x: 2\n```\n"
        "```sh\nrules validate g\n```\n```\nvalid\n```\n"
        "<!-- doc-test: append g/a.yaml -->\n```yaml\ny: 1\n```\n"
        "```sh\nrules validate g\n```\n```\nvalid\n```\n"
    )
    first, second = examples(text)
    assert [(e.kind, e.path, e.body) for e in first.edits] == [("file", "g/a.yaml", "x: 1")]
    assert [(e.kind, e.body) for e in first.trials] == [("try", "-x: 1\n+x: 2")]
    assert [(e.kind, e.body) for e in second.edits] == [("append", "y: 1")]
    with pytest.raises(AssertionError, match="no command after this block checks it"):
        examples(text + "<!-- doc-test: file g/b.yaml -->\n```yaml\nz: 1\n```\n")


def test_edits_write_append_and_change(tmp_path: Path):
    def edit(kind: str, body: str) -> None:
        Edit(kind, "g/a.yaml", body, 1).apply(tmp_path)

    edit("file", "a:\n  b: 1\n  c: 2")
    edit("append", "d: 3")
    assert (tmp_path / "g/a.yaml").read_text() == "a:\n  b: 1\n  c: 2\n\nd: 3\n"
    edit("change", " a:\n-  b: 1\n+  b: 10\n@@\n-d: 3\n+d: 30\n+e: 4")
    assert (tmp_path / "g/a.yaml").read_text() == "a:\n  b: 10\n  c: 2\n\nd: 30\ne: 4\n"
    with pytest.raises(AssertionError, match="0 times, not once"):
        edit("change", "-  b: 1\n+  b: 2")  # `  b: 1` is gone
    with pytest.raises(AssertionError, match="0 times, not once"):
        edit("change", "-b: 10\n+b: 2")  # a change starts at the start of a line


def test_the_new_game_chapter_ends_at_the_shipped_ruleset(tmp_path: Path):
    """The files the chapter shows, stage after stage, make rulesets/reversi: a change
    to the shipped game must be made to the chapter too (and so be explained)."""
    chapter = DOC.read_text(encoding="utf-8").split(CHAPTER, 1)[1].split("\n## ", 1)[0]
    for edit in edits(chapter):
        if edit.kind != "try":
            edit.apply(tmp_path)
    made = sorted(p.name for p in (tmp_path / GAME).iterdir())
    assert made == sorted(p.name for p in SHIPPED.iterdir() if p.suffix == ".yaml")
    for name in made:
        shipped = (SHIPPED / name).read_text(encoding="utf-8")
        for old, new in RENAMED.items():
            shipped = shipped.replace(old, new)
        assert (tmp_path / GAME / name).read_text(encoding="utf-8") == shipped, name


def test_the_quoted_scenarios_are_the_shipped_ones():
    """The YAML the tutorial quotes from the scenario file is in that file, verbatim."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### Test your cards with rules test", 1)[1].split("\n## ", 1)[0]
    quoted = re.findall(r"```yaml\n(.*?)```", section, re.DOTALL)
    shipped = _uncommented((ROOT / "examples" / "scenarios" / "new-staff.yaml").read_text())
    assert len(quoted) == 2
    for block in quoted:
        assert _uncommented(block).strip("\n") in shipped, block


def _uncommented(text: str) -> str:
    """Without the comment lines (the file explains itself; the tutorial's prose does)."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
