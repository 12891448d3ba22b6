"""The outputs quoted in docs/modding.md are the real ones.

Every ```sh block whose commands start with `rules ` and that is followed by an
output block (``` with no language, or ```json) is run with the venv's `rules`, in a
copy of the repository's rulesets, examples, schemas and docs, and its output
(stdout and stderr, as a terminal shows them) must equal the block, trailing
whitespace aside. An HTML comment on the line before the ```sh block changes that:

* `<!-- doc-test: skip (why) -->`: not run (say why);
* `<!-- doc-test: setup: SHELL -->`: run SHELL first, in a fresh copy of its own
  (to show what an edited file gives, e.g. a typo), so no other block sees the edit.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest
from rules_test_support import ROOT

DOC = ROOT / "docs" / "modding.md"
COPIED = ("rulesets", "examples", "schemas", "docs")
MARKER = re.compile(r"^<!--\s*doc-test:\s*(skip|setup:)\s*(.*?)\s*-->\s*$")


@dataclass
class Example:
    line: int  # of the ```sh fence, 1-based
    script: str
    expected: str
    skip: str | None = None
    setup: str | None = None

    @property
    def id(self) -> str:
        first = self.script.splitlines()[0]
        return f"line {self.line}: {first[:60]}"


def examples(text: str) -> list[Example]:
    """The runnable examples of a Markdown text, in order."""
    lines = text.splitlines()
    blocks: list[tuple[int, str, list[str]]] = []  # (fence line index, language, body)
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
    found = []
    for (start, language, body), following in pairwise(blocks):
        commands = [line for line in body if line.strip()]
        if language != "sh" or not commands or not commands[0].startswith("rules "):
            continue
        if following[1] not in ("", "json"):
            continue
        between = lines[start + len(body) + 2 : following[0]]
        if any(line.strip() for line in between):
            continue  # prose between the command and the block: not its output
        example = Example(start + 1, "\n".join(body), "\n".join(following[2]))
        marker = MARKER.match(lines[start - 1]) if start else None
        if marker is not None and marker.group(1) == "skip":
            example.skip = marker.group(2) or "marked skip"
        elif marker is not None:
            example.setup = marker.group(2)
        found.append(example)
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
    if example.skip:
        pytest.skip(example.skip)
    cwd = shared_copy
    if example.setup:
        cwd = _copy(tmp_path / "repo")
        subprocess.run(["bash", "-c", example.setup], cwd=cwd, check=True)
    actual = _run(example.script, cwd)
    assert normalised(actual) == normalised(example.expected), (
        f"docs/modding.md:{example.line}: the output of\n{example.script}\nis now:\n{actual}"
    )


def test_the_parser_finds_the_tutorial_steps():
    scripts = [e.script for e in EXAMPLES]
    assert any(s.startswith("rules new mod ") for s in scripts)
    assert any(s.startswith("rules test ") for s in scripts)
    assert any(s.startswith("rules validate examples/mods/new-staff.yaml") for s in scripts)


def test_the_parser_reads_markers_and_output_blocks():
    text = (
        "```sh\nrules a\n```\n\n```\nout a\n```\n"
        "<!-- doc-test: skip (slow) -->\n```sh\nrules b\n```\n```json\n{}\n```\n"
        "<!-- doc-test: setup: touch x -->\n```sh\nrules c\n```\n```\nout c\n```\n"
        "```sh\nrules d\n```\nprose\n```\nnot its output\n```\n"
        "```sh\nls\n```\n```\nnot rules\n```\n"
    )
    found = examples(text)
    assert [(e.script, e.expected, e.skip, e.setup) for e in found] == [
        ("rules a", "out a", None, None),
        ("rules b", "{}", "(slow)", None),
        ("rules c", "out c", None, "touch x"),
    ]


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
