"""Cache files are written whole or not at all (atomic_file.py)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from interpreter import atomic_file
from interpreter.atomic_file import write_atomically


def test_a_file_is_written_whole_in_a_folder_made_for_it(tmp_path: Path) -> None:
    path = tmp_path / "made" / "entry.bin"
    assert write_atomically(path, lambda handle: handle.write(b"all of it"))
    assert path.read_bytes() == b"all of it"
    assert [p.name for p in path.parent.iterdir()] == ["entry.bin"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "entry.bin"
    path.write_bytes(b"old")

    def half(handle) -> None:
        handle.write(b"half")
        raise OSError("disk full")

    assert not write_atomically(path, half)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["entry.bin"]


def test_a_folder_in_the_way_is_no_error(tmp_path: Path) -> None:
    (tmp_path / "entry.bin").mkdir()
    assert not write_atomically(tmp_path / "entry.bin", lambda handle: handle.write(b"x"))
    assert [p.name for p in tmp_path.iterdir()] == ["entry.bin"]


def test_the_temporary_name_of_another_writer_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name another process holds (O_EXCL) is skipped; its file is not touched."""
    names = iter([b"\x00" * 6, b"\x01" * 6])
    monkeypatch.setattr(atomic_file.os, "urandom", lambda size: next(names))
    taken = tmp_path / ".entry.bin.000000000000.tmp"
    taken.write_bytes(b"another writer's")
    path = tmp_path / "entry.bin"
    assert write_atomically(path, lambda handle: handle.write(b"mine"))
    assert path.read_bytes() == b"mine" and taken.read_bytes() == b"another writer's"
    assert sorted(p.name for p in tmp_path.iterdir()) == [taken.name, "entry.bin"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX modes")
def test_the_file_is_its_owner_s_alone(tmp_path: Path) -> None:
    path = tmp_path / "entry.bin"
    assert write_atomically(path, lambda handle: handle.write(b"x"))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# ------------------------------------------------- files the user asked for (issue 44)
def test_an_output_replaces_a_link_by_its_name_and_not_its_target(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("theirs", encoding="utf-8")
    path = tmp_path / "report.txt"
    path.symlink_to(target)
    atomic_file.write_output(path, "ours\n")
    assert target.read_text(encoding="utf-8") == "theirs"
    assert not path.is_symlink() and path.read_text(encoding="utf-8") == "ours\n"
    assert [p.name for p in sorted(tmp_path.iterdir())] == ["elsewhere.txt", "report.txt"]


def test_an_output_is_readable_as_the_umask_says(tmp_path: Path) -> None:
    path = tmp_path / "report.txt"
    atomic_file.write_output(path, b"x")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask


@pytest.mark.parametrize("dangling", [True, False])
def test_a_new_file_is_never_made_through_a_link(tmp_path: Path, dangling: bool) -> None:
    target = tmp_path / "target.txt"
    if not dangling:
        target.write_text("theirs", encoding="utf-8")
    path = tmp_path / "ruleset.yaml"
    path.symlink_to(target)
    with pytest.raises(atomic_file.OutputError, match="already exists"):
        atomic_file.write_output(path, "ours", new=True)
    assert target.exists() is not dangling
    assert dangling or target.read_text(encoding="utf-8") == "theirs"


def test_an_output_that_cannot_be_written_says_why_and_leaves_nothing(tmp_path: Path) -> None:
    (tmp_path / "report.txt").mkdir()  # a folder in the way
    with pytest.raises(atomic_file.OutputError) as raised:
        atomic_file.write_output(tmp_path / "report.txt", "x")
    assert raised.value.path == tmp_path / "report.txt"
    assert "cannot be written" in raised.value.reason
    assert [p.name for p in tmp_path.iterdir()] == ["report.txt"]
