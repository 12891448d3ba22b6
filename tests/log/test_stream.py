"""The log of `rules play`, written while the game is played (issue 44): whole lines in
one write each, put in place by a file only this run made, never through a link; and
the reader that leaves out a last line cut short when asked to (`--resume`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from interpreter.log.reader import open_log, read
from interpreter.log.stream import LinkRefused, LogStream

HEADER = '{"format": "rules-log/1", "ruleset": "toy", "players": ["A", "B"]}'
EVENT = '{"n": 1, "player": "A", "choice": "pass"}'


def test_lines_are_appended_whole_and_nothing_is_left_beside(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    stream = LogStream.create(log, [HEADER])
    assert log.read_text(encoding="utf-8") == HEADER + "\n"  # there before any event
    stream.add([EVENT, '{"n": 2, "player": "B", "choice": "pass"}'])
    stream.add([])
    stream.sync()
    stream.close()
    stream.close()  # once is enough; twice does nothing
    assert log.read_text(encoding="utf-8").splitlines()[1] == EVENT
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def test_a_symbolic_link_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "target.txt"
    target.write_text("keep\n", encoding="utf-8")
    link = tmp_path / "game.jsonl"
    link.symlink_to(target)
    with pytest.raises(LinkRefused, match="symbolic link"):
        LogStream.create(link, [HEADER])
    assert target.read_text(encoding="utf-8") == "keep\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl", "target.txt"]


def test_an_old_log_is_replaced_not_written_into(tmp_path: Path) -> None:
    """Another name for the old file (a hard link) keeps the old text."""
    log = tmp_path / "game.jsonl"
    log.write_text("old\n", encoding="utf-8")
    other = tmp_path / "other-name.jsonl"
    os.link(log, other)
    LogStream.create(log, [HEADER]).close()
    assert other.read_text(encoding="utf-8") == "old\n"
    assert log.read_text(encoding="utf-8") == HEADER + "\n"


def test_a_folder_that_cannot_be_written_leaves_the_log_as_it_was(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "game.jsonl"
    with pytest.raises(OSError):
        LogStream.create(missing, [HEADER])
    assert not missing.parent.exists()


# ------------------------------------------------------------ a last line cut short
def test_a_cut_last_line_is_left_out_only_when_asked(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text(f'{HEADER}\n{EVENT}\n{{"n": 2, "player": "B", "cho', encoding="utf-8")
    parsed = read(log)
    assert parsed.errors and parsed.errors[0][0] == 3  # an error, as ever
    parsed, events = open_log(log, cut_tail=True)
    assert [e.data for e in events] == [{"n": 1, "player": "A", "choice": "pass"}]
    assert parsed.warnings == [(3, "the last line was cut short (no newline, no JSON): left out")]


def test_a_whole_last_line_without_its_newline_is_kept(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text(f"{HEADER}\n{EVENT}", encoding="utf-8")  # typed by hand
    parsed, events = open_log(log, cut_tail=True)
    assert [e.line for e in events] == [2]
    assert not parsed.warnings
