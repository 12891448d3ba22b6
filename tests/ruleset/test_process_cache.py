"""The per-process cache of compiled rulesets (``interpreter.ruleset.load_or_raise``):
the same object while no file of the ruleset changes, a new build after an edit."""

from __future__ import annotations

import os
from pathlib import Path

from interpreter.ruleset import _fingerprint, load_or_raise


def test_an_unchanged_ruleset_is_loaded_once_and_an_edited_one_again(tiny: Path) -> None:
    first = load_or_raise(tiny)
    assert load_or_raise(tiny) is first
    manifest = tiny / "ruleset.yaml"
    manifest.write_text(manifest.read_text().replace("name: Tiny", "name: Tinier"))
    again = load_or_raise(tiny)
    assert again is not first and again.name == "Tinier"


def test_the_fingerprint_sees_every_yaml_file_in_every_sub_folder(tiny: Path) -> None:
    before = _fingerprint(tiny, None)
    assert {Path(p).name for p, *_ in before} == {"ruleset.yaml", "content.yaml", "extra.yaml"}
    deep = tiny / "a" / "b"
    deep.mkdir(parents=True)
    (deep / "more.yaml").write_text("{}\n")
    (deep / "notes.txt").write_text("not rules\n")
    grown = _fingerprint(tiny, None)
    assert [p for p, *_ in grown] == sorted(p for p, *_ in grown)
    assert {Path(p).name for p, *_ in grown} - {Path(p).name for p, *_ in before} == {"more.yaml"}
    stamp = os.stat(deep / "more.yaml")
    os.utime(deep / "more.yaml", ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 10**9))
    assert _fingerprint(tiny, None) != grown  # a newer time is a change


def test_a_file_replaced_by_one_of_the_same_time_and_size_is_a_change(tiny: Path) -> None:
    content = tiny / "content.yaml"
    before = _fingerprint(tiny, None)
    stamp = os.stat(content)
    other = tiny / "other.tmp"
    other.write_bytes(content.read_bytes())
    os.utime(other, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    os.replace(other, content)  # another file (inode) under the same name, time and size
    assert _fingerprint(tiny, None) != before


def test_a_linked_file_whose_target_is_replaced_is_a_change(tiny: Path, tmp_path: Path) -> None:
    target = tmp_path / "extra.yaml"
    target.write_bytes((tiny / "extra.yaml").read_bytes())
    (tiny / "extra.yaml").unlink()
    (tiny / "extra.yaml").symlink_to(target)
    before = _fingerprint(tiny, None)
    stamp = os.stat(target)
    other = tmp_path / "other.tmp"
    other.write_bytes(target.read_bytes())
    os.utime(other, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    os.replace(other, target)  # the link unchanged; its target another file, alike
    assert _fingerprint(tiny, None) != before


def test_a_mod_is_part_of_the_fingerprint(tiny: Path, tmp_path: Path) -> None:
    mod = tmp_path / "mod.yaml"
    mod.write_text("{}\n")
    with_mod = _fingerprint(tiny, [mod])
    assert with_mod[-1][0] == str(mod)
    mod.write_text("{}\n# longer\n")
    assert _fingerprint(tiny, [mod]) != with_mod
