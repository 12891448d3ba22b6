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
