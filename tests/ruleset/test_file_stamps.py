"""A ruleset folder's fingerprint (``interpreter.ruleset.file_stamps``): the check the
per-process cache makes before every load that no YAML file was added, removed,
edited or replaced."""

from __future__ import annotations

import os
from pathlib import Path

from interpreter.ruleset import file_stamps
from interpreter.ruleset.file_stamps import fingerprint


def test_the_fingerprint_sees_every_yaml_file_in_every_sub_folder(tiny: Path) -> None:
    before = fingerprint(tiny, None)
    assert {Path(p).name for p, *_ in before} == {"ruleset.yaml", "content.yaml", "extra.yaml"}
    deep = tiny / "a" / "b"
    deep.mkdir(parents=True)
    (deep / "more.yaml").write_text("{}\n")
    (deep / "notes.txt").write_text("not rules\n")
    grown = fingerprint(tiny, None)
    assert [p for p, *_ in grown] == sorted(p for p, *_ in grown)
    assert {Path(p).name for p, *_ in grown} - {Path(p).name for p, *_ in before} == {"more.yaml"}
    stamp = os.stat(deep / "more.yaml")
    os.utime(deep / "more.yaml", ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 10**9))
    assert fingerprint(tiny, None) != grown  # a newer time is a change


def test_a_file_replaced_by_one_of_the_same_time_and_size_is_a_change(tiny: Path) -> None:
    content = tiny / "content.yaml"
    before = fingerprint(tiny, None)
    stamp = os.stat(content)
    other = tiny / "other.tmp"
    other.write_bytes(content.read_bytes())
    os.utime(other, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    os.replace(other, content)  # another file (inode) under the same name, time and size
    assert fingerprint(tiny, None) != before


def test_a_linked_file_whose_target_is_replaced_is_a_change(tiny: Path, tmp_path: Path) -> None:
    target = tmp_path / "extra.yaml"
    target.write_bytes((tiny / "extra.yaml").read_bytes())
    (tiny / "extra.yaml").unlink()
    (tiny / "extra.yaml").symlink_to(target)
    before = fingerprint(tiny, None)
    stamp = os.stat(target)
    other = tmp_path / "other.tmp"
    other.write_bytes(target.read_bytes())
    os.utime(other, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    os.replace(other, target)  # the link unchanged; its target another file, alike
    assert fingerprint(tiny, None) != before


def test_a_mod_is_part_of_the_fingerprint(tiny: Path, tmp_path: Path) -> None:
    mod = tmp_path / "mod.yaml"
    mod.write_text("{}\n")
    with_mod = fingerprint(tiny, [mod])
    assert with_mod[-1][0] == str(mod)
    mod.write_text("{}\n# longer\n")
    assert fingerprint(tiny, [mod]) != with_mod


def _age(folder: Path, seconds: int = 60) -> None:
    """Set ``folder``'s modification time back: its listing is then settled."""
    stamp = os.stat(folder)
    os.utime(folder, ns=(stamp.st_atime_ns, stamp.st_mtime_ns - seconds * 10**9))


def test_a_settled_listing_is_kept_and_a_file_added_is_seen(tiny: Path) -> None:
    _age(tiny)
    before = fingerprint(tiny, None)
    assert str(tiny) in file_stamps._listings  # kept: the next fingerprint lists nothing
    (tiny / "added.yaml").write_text("{}\n")  # the folder's time changes
    grown = fingerprint(tiny, None)
    assert {Path(p).name for p, *_ in grown} - {Path(p).name for p, *_ in before} == {"added.yaml"}


def test_a_listing_made_as_its_folder_changed_is_not_kept(tiny: Path) -> None:
    """A folder that changed within the last ``SETTLED_NS`` is listed every time: a
    second change in the same tick of a coarse clock would leave its time unchanged,
    as the ``utime`` back to the first one's makes it here."""
    before = fingerprint(tiny, None)
    assert str(tiny) not in file_stamps._listings
    stamp = os.stat(tiny)
    (tiny / "added.yaml").write_text("{}\n")
    os.utime(tiny, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # the time as it was
    assert len(fingerprint(tiny, None)) == len(before) + 1


def test_a_settled_folder_whose_file_is_edited_is_a_change(tiny: Path) -> None:
    _age(tiny)
    before = fingerprint(tiny, None)
    content = tiny / "content.yaml"
    content.write_text(content.read_text() + "\n# edited\n")  # the folder's time unchanged
    assert fingerprint(tiny, None) != before
