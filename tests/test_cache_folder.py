"""The cache runs only what this user's own process wrote (issue 44, point 1 and 2).

Every kind of file the cache holds (a stored ruleset, its verdict, a file fact, Lark's
parser, kept with ``Lark.save``: a pickle too) is replaced by a payload that would
leave a marker file if it were ever unpickled; fresh `rules` processes then validate,
play and replay, and no marker appears.
A cache folder or key file that others could write is refused with a warning, and the
command still succeeds without the cache.
"""

from __future__ import annotations

import os
import pickle
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from rules_test_support import ROCOCO

from interpreter import cache_folder
from interpreter.ruleset import stored

HANDWRITTEN = Path(__file__).resolve().parents[1] / "examples" / "logs"
LOG = HANDWRITTEN / "rococo-2p-handwritten.jsonl"


def rules(cache: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != cache_folder.CACHE_ENV}
    env["XDG_CACHE_HOME"] = str(cache)
    return subprocess.run(
        [sys.executable, "-m", "interpreter", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def fill(cache: Path) -> Path:
    """A cache filled by every command that writes one: validate, play, replay."""
    assert rules(cache, "validate", str(ROCOCO)).returncode == 0
    assert rules(cache, "play", "rococo", "--players", "2", "--seed", "3").returncode == 0
    assert rules(cache, "replay", str(LOG)).returncode == 0
    return cache / "tabletop-rules"


class _Payload:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _kinds(root: Path) -> dict[str, list[Path]]:
    return {
        "stored ruleset": list(root.glob("rulesets/*.pickle")),
        "verdict": list(root.glob("rulesets/*.lint")),
        "file fact": list(root.glob("rulesets/facts/*.pickle")),
        "Lark's parser": list(root.glob("*.lark-cache")),
    }


def plant(root: Path, marker: Path, mac_key: bytes | None = None) -> None:
    """Replace every cache file by a payload (with a MAC under ``mac_key``: what a file
    copied from another user's cache would carry)."""
    for kind, paths in _kinds(root).items():
        assert paths, f"no {kind} file in the cache"
        for path in paths:
            data = pickle.dumps(_Payload(marker))
            if mac_key is not None:
                data = cache_folder._mac(mac_key, path, data) + data
            path.write_bytes(data)


@pytest.mark.parametrize("mac", ["none", "another user's key"])
def test_a_planted_payload_in_any_cache_file_never_runs(tmp_path: Path, mac: str) -> None:
    root = fill(tmp_path / "cache")
    marker = tmp_path / "pwned"
    plant(root, marker, None if mac == "none" else os.urandom(32))
    validated = rules(tmp_path / "cache", "validate", str(ROCOCO))
    assert validated.returncode == 0, validated.stderr
    assert "valid" in validated.stdout
    assert (
        rules(tmp_path / "cache", "play", "rococo", "--players", "2", "--seed", "3").returncode == 0
    )
    replayed = rules(tmp_path / "cache", "replay", str(LOG))
    assert replayed.returncode == 0, replayed.stderr
    assert not marker.exists()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(cache_folder.CACHE_ENV, raising=False)
    cache_folder.forget()
    yield tmp_path / "cache" / "tabletop-rules"
    cache_folder.forget()


def test_an_entry_is_read_back_only_with_its_mac(cache: Path) -> None:
    path = cache / "thing-1.cache"
    assert cache_folder.write_entry(path, b"derived")
    assert cache_folder.read_entry(path) == b"derived"
    assert stat.S_IMODE(os.stat(cache).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(cache / cache_folder.KEY_NAME).st_mode) == 0o600
    raw = path.read_bytes()
    path.write_bytes(raw[:-1] + b"X")  # one byte changed
    assert cache_folder.read_entry(path) is None
    path.write_bytes(b"derived")  # no MAC at all
    assert cache_folder.read_entry(path) is None
    (cache / "thing-2.cache").write_bytes(raw)  # a good entry copied under another name
    assert cache_folder.read_entry(cache / "thing-2.cache") is None


def test_a_folder_others_can_write_is_refused_and_warned_once(
    cache: Path, capsys: pytest.CaptureFixture
) -> None:
    path = cache / "thing-1.cache"
    assert cache_folder.write_entry(path, b"derived")
    os.chmod(cache, 0o777)
    cache_folder.forget()  # a new process
    assert cache_folder.read_entry(path) is None
    assert not cache_folder.write_entry(path, b"other")
    assert cache_folder.derived_file("thing", "text") is None
    warned = capsys.readouterr().err
    assert warned.count("is not this user's alone") == 1
    assert "chmod 700" in warned


def test_a_group_writable_cache_folder_is_refused_and_the_command_succeeds(
    tmp_path: Path,
) -> None:
    root = fill(tmp_path / "cache")
    marker = tmp_path / "pwned"
    os.chmod(root / "rulesets", 0o770)
    key = (root / cache_folder.KEY_NAME).read_bytes()
    plant(root, marker, key)  # even payloads with the right MAC: the folder is not trusted
    for path in root.glob("*.*"):
        if path.name != cache_folder.KEY_NAME:
            path.unlink()  # the root's own files are trusted: only rulesets/ is tested here
    checked = rules(tmp_path / "cache", "validate", str(ROCOCO))
    assert checked.returncode == 0
    assert "valid" in checked.stdout
    assert f"cache folder {root / 'rulesets'} is not this user's alone" in checked.stderr
    assert not marker.exists()


def test_a_key_file_others_can_read_turns_the_cache_off(cache: Path) -> None:
    path = cache / "thing-1.cache"
    assert cache_folder.write_entry(path, b"derived")
    os.chmod(cache / cache_folder.KEY_NAME, 0o644)
    cache_folder.forget()
    assert cache_folder.read_entry(path) is None


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to chown")
def test_a_file_owned_by_another_user_is_never_read(cache: Path) -> None:
    path = cache / "thing-1.cache"
    assert cache_folder.write_entry(path, b"derived")
    os.chown(path, 65534, 65534)
    assert cache_folder.read_entry(path) is None
    os.chown(path, 0, 0)
    assert cache_folder.read_entry(path) == b"derived"
    os.chown(cache, 65534, 65534)
    cache_folder.forget()
    assert cache_folder.read_entry(path) is None


def test_a_link_in_the_cache_is_neither_read_nor_written_through(
    cache: Path, tmp_path: Path
) -> None:
    target = tmp_path / "elsewhere"
    assert cache_folder.write_entry(cache / "real.cache", b"derived")
    target.write_bytes((cache / "real.cache").read_bytes())
    path = cache / "thing-1.cache"
    path.symlink_to(target)
    assert cache_folder.read_entry(path) is None  # not followed
    assert cache_folder.write_entry(path, b"new")
    assert not path.is_symlink()  # the link itself was replaced
    assert target.read_bytes() == (cache / "real.cache").read_bytes()
    assert cache_folder.read_entry(path) == b"new"


def test_request_keys_are_injective(cache: Path) -> None:
    keys = {
        stored.request_key(ROCOCO, expansions, None)
        for expansions in ([], [""], ["deluxe\0jewelry_box"], ["deluxe", "jewelry_box"], None)
    }
    assert len(keys) == 4  # None and [] are the same request
    names = {
        cache_folder.derived_file(kind, source)
        for kind, source in (("a", "b\0c"), ("a\0b", "c"), ("a", "bc"))
    }
    assert len(names) == 3


def test_the_trust_model_is_documented() -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "logs.md").read_text()
    assert "HMAC-SHA256" in text
    assert "not this user's alone" in text
