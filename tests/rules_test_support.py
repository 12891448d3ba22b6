"""Helpers shared by the tests: positions in texts, mutations of files, the CLI.

Imported by ``conftest.py`` and by test modules (``from rules_test_support import …``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner, Result

from interpreter.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]
ROCOCO = ROOT / "rulesets" / "rococo"


# --------------------------------------------------------------------- positions
def position(text: str, index: int) -> tuple[int, int]:
    """The 1-based (line, column) of ``text[index]``."""
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


def shown(path: Path) -> str:
    """A path as `rules` prints it: relative to the working folder when it can be."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def place(path: Path, mark: str, nth: int = 0) -> str:
    """``path:line:col`` of the ``nth`` occurrence of ``mark`` in the file."""
    text = path.read_text(encoding="utf-8")
    index = -1
    for _ in range(nth + 1):
        index = text.index(mark, index + 1)
    line, column = position(text, index)
    return f"{shown(path)}:{line}:{column}"


@dataclass
class Mutation:
    """One text replacement in one file, and where a given mark of it now is."""

    path: Path
    text: str  # the whole mutated file
    start: int  # index of the replacement in ``text``
    new: str

    def at(self, mark: str | None = None) -> tuple[int, int]:
        """(line, column) of ``mark`` inside the replacement (its start if None)."""
        offset = 0 if mark is None else self.new.index(mark)
        return position(self.text, self.start + offset)

    def where(self, mark: str | None = None) -> str:
        line, column = self.at(mark)
        return f"{shown(self.path)}:{line}:{column}"


def mutate(
    folder: Path, relative: str, old: str, new: str, occurrence: int = 0, unique: bool = True
) -> Mutation:
    """Replace one occurrence of ``old`` by ``new`` in ``folder/relative``.

    With ``unique`` the old text must occur exactly once, so a change of the
    ruleset that makes the replacement ambiguous fails loudly instead of
    silently testing something else.
    """
    path = folder / relative
    text = path.read_text(encoding="utf-8")
    hits = [m.start() for m in re.finditer(re.escape(old), text)]
    assert hits, f"{old!r} is not in {relative}"
    if unique:
        assert len(hits) == 1, f"{old!r} occurs {len(hits)} times in {relative}"
    start = hits[occurrence]
    mutated = text[:start] + new + text[start + len(old) :]
    path.write_text(mutated, encoding="utf-8")
    return Mutation(path, mutated, start, new)


# ---------------------------------------------------------------------- the CLI
def invoke(*args: str) -> Result:
    """Run `rules ARGS…` in-process; fail if it crashed instead of exiting."""
    result = CliRunner().invoke(cli, list(args), catch_exceptions=True)
    assert_no_crash(result)
    return result


def assert_no_crash(result: Result) -> None:
    """No traceback, and no exception other than the exit itself."""
    assert "Traceback" not in result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(
            f"`rules` crashed with {type(result.exception).__name__}: {result.exception}"
        ) from result.exception


def headlines(result: Result) -> list[str]:
    """The `path:line:col: error: message` lines of a run."""
    return [
        line
        for line in result.output.splitlines()
        if ": error: " in line and not line.startswith(" ")
    ]


def summary_line(result: Result) -> str:
    lines = [line for line in result.output.splitlines() if line.startswith("checked ")]
    assert lines, f"no summary line in:\n{result.output}"
    return lines[-1]


# ------------------------------------------------------------ a tiny ruleset
TINY_MANIFEST = """\
# yaml-language-server: $schema=../../schemas/manifest.schema.json
id: tiny
name: Tiny
version: 0.1.0
players: {min: 2, max: 4}
include: [content.yaml]
expansions:
  extra: {file: extra.yaml, name: Extra}
"""

TINY_CONTENT = """\
sides:
  narrow: {players: [2, 3]}
  wide: {players: [4]}
constants:
  base: {value: 7}
  prices: {value: {"1": 10, "2": 20}}
  nums: {value: [3, 1, 4, 1, 5]}
  bonus: {per_side: {narrow: 1, wide: 2}, provisional: true}
counters:
  coins: {per: player, initial: 3}
  score: {per: player}
  turn: {per: game}
variables:
  leader: {per: game, type: player}
kinds:
  card:
    properties:
      suit: {type: text, values: [red, black]}
      points: {type: number}
      special: {type: bool, default: false}
components:
  c1: {kind: card, suit: red, points: 2}
  c2: {kind: card, suit: black, points: 5, special: true}
  c3: {kind: card, suit: red, points: 1, provisional: true}
  pawn: {kind: card, suit: black, points: 0, count: 2}
zones:
  deck: {per: game}
  hand: {per: player, visibility: private}
spaces:
  slot:
    capacity: 1
    claimable: true
    properties:
      price: {type: number}
    items:
      slot1: {price: 2}
      slot2: {price: 3, side: wide}
functions:
  double: {params: {n: number}, returns: number, value: n * 2}
  red_points: {returns: number, value: "sum(c.points for c in card where c.suit == 'red')"}
  richest: {params: {p: player}, returns: bool, value: "p.coins >= max(q.coins for q in players)"}
actions:
  take:
    params: {n: {type: number, default: 1}}
    requires:
      - {condition: my.coins >= n, message: too poor}
    effect: |
      pay(coins, n)
      gain(score, double(n))
events:
  scored: {params: {amount: number}}
triggers:
  on_scored: {on: scored, effect: "gain(coins, amount)"}
structure:
  setup: |
    move(card, deck)
  rounds: {count: 2, counter: turn}
  phases:
    - {id: play, kind: each_player, effect: "do take(n: 1)"}
scoring:
  score: score
  tiebreak: [coins]
  steps:
    - {id: coins, effect: "for p in players { gain(score, p.coins // 2, to: p) }"}
"""

TINY_EXTRA = """\
overlay: {id: extra, name: Extra}
add:
  components:
    c4: {kind: card, suit: red, points: 9}
patch:
  components:
    c1: {points: 4}
remove:
  components: [c3]
"""


def mutate_text(draw, st, text: str, steps: int, insertions=None) -> str:
    """Apply ``steps`` random edits (delete, duplicate or swap characters or lines;
    insert a drawn character when ``insertions`` is given) for hypothesis strategies."""
    for _ in range(steps):
        if draw(st.booleans()):  # characters
            chars = list(text)
            if not chars:
                continue
            i = draw(st.integers(0, len(chars) - 1))
            ops = ["delete", "duplicate", "swap"] + (["insert"] if insertions is not None else [])
            op = draw(st.sampled_from(ops))
            if op == "delete":
                del chars[i]
            elif op == "duplicate":
                chars.insert(i, chars[i])
            elif op == "swap":
                j = min(len(chars) - 1, i + draw(st.integers(1, 3)))
                chars[i], chars[j] = chars[j], chars[i]
            else:
                chars.insert(i, draw(insertions))
            text = "".join(chars)
        else:  # lines
            lines = text.splitlines(keepends=True)
            if not lines:
                continue
            i = draw(st.integers(0, len(lines) - 1))
            op = draw(st.sampled_from(["delete", "duplicate", "swap"]))
            if op == "delete":
                del lines[i]
            elif op == "duplicate":
                lines.insert(i, lines[i])
            else:
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
            text = "".join(lines)
    return text


def write_tiny(folder: Path, content: str = TINY_CONTENT) -> Path:
    """The tiny ruleset (manifest, ``content``, its expansion) written into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ruleset.yaml").write_text(TINY_MANIFEST, encoding="utf-8")
    (folder / "content.yaml").write_text(content, encoding="utf-8")
    (folder / "extra.yaml").write_text(TINY_EXTRA, encoding="utf-8")
    return folder
