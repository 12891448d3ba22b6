"""Logs, rulesets and mods that travel: a log replays from any folder, its ruleset and
mods found by id on the rules path (or named with --ruleset / --mod), never by a path
the log holds; a mod's `base:` path is read from the mod file's folder."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.load.search import set_rules_path

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def fresh_rules_path(monkeypatch):
    monkeypatch.delenv("RULES_PATH", raising=False)
    set_rules_path([])
    yield
    set_rules_path([])


def run(*args: str):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    return result


def own_ruleset(folder: Path) -> Path:
    """A user's own game: the toy ruleset, copied out of the project."""
    target = folder / "my-games" / "toy"
    shutil.copytree(ROOT / "tests" / "engine" / "toy", target)
    return target


def test_a_log_of_a_ruleset_elsewhere_replays_from_another_folder(tmp_path, monkeypatch):
    games = own_ruleset(tmp_path)
    played_in = tmp_path / "here"
    played_in.mkdir()
    monkeypatch.chdir(played_in)
    log = played_in / "game.jsonl"
    assert run("play", games, "--players", "2", "--seed", "4", "--log", log).exit_code == 0
    header = json.loads(log.read_text().splitlines()[0])
    assert header["ruleset"] == "toy" and str(tmp_path) not in json.dumps(header)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    missing = run("replay", log)
    assert missing.exit_code == 1
    assert "unknown ruleset 'toy'" in missing.output and "--ruleset FOLDER" in missing.output
    assert run("replay", log, "--ruleset", games).exit_code == 0
    assert run("replay", log, "--rules-path", games.parent).exit_code == 0
    assert run("--rules-path", games.parent, "replay", log).exit_code == 0
    monkeypatch.setenv("RULES_PATH", str(games.parent))
    assert run("replay", log).exit_code == 0


def test_a_log_names_its_mods_by_id_digest_and_path_and_finds_them(tmp_path, monkeypatch):
    """Issue 47: the header keeps each mod's path from the log, so a log replays from
    any folder; a mod found nowhere and a mod changed since are each their own error."""
    mods = tmp_path / "mods"
    mods.mkdir()
    mod = mods / "gift.yaml"
    shutil.copy(ROOT / "examples" / "mods" / "welcome-gift.yaml", mod)
    mod.write_text(mod.read_text().replace("../../schemas", str(ROOT / "schemas")))
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "game.jsonl"
    played = run("play", "rococo", "--players", "2", "--seed", "2", "--mod", mod, "--log", log)
    assert played.exit_code == 0, played.output
    entry = json.loads(log.read_text().splitlines()[0])["options"]["mods"][0]
    assert entry["id"] == "welcome_gift" and entry["digest"].startswith("sha256:")
    assert entry["path"] == "mods/gift.yaml"
    other = tmp_path / "other"
    other.mkdir()
    monkeypatch.chdir(other)
    assert run("replay", log).exit_code == 0  # beside the log, where the header says
    moved = tmp_path / "elsewhere.yaml"
    mod.rename(moved)
    missing = run("replay", log)
    assert missing.exit_code == 1
    assert missing.output.startswith(f"{log}:1: error: missing mod: the log uses the mod ")
    assert "'welcome_gift', which is not at mods/gift.yaml beside the log" in missing.output
    assert "--mod FILE" in missing.output
    assert run("replay", log, "--mod", moved).exit_code == 0
    assert run("replay", log, "--rules-path", tmp_path).exit_code == 0  # found by its id
    moved.write_text(moved.read_text().replace("gain(prestige, 1)", "gain(prestige, 2)"))
    changed = run("replay", log, "--mod", moved)
    assert changed.exit_code == 1
    assert changed.output.startswith(f"{log}:1: error: changed mod: the mod 'welcome_gift' is ")
    assert "not the one the log was played with" in changed.output
    assert "malformed" not in missing.output + changed.output


def test_replay_never_opens_a_path_a_log_names(tmp_path, monkeypatch):
    secret = tmp_path / "secret.yaml"
    secret.write_text("overlay: {id: x, base: rococo}\n")
    lines = (ROOT / "examples" / "logs" / "rococo-2p-handwritten.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    header["options"]["mods"] = [str(secret)]
    log = tmp_path / "tampered.jsonl"
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    result = run("replay", log)
    assert result.exit_code == 1 and "--mod FILE" in result.output
    header["ruleset"] = str(ROOT / "rulesets" / "rococo")
    header["options"]["mods"] = []
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    result = run("replay", log)
    assert result.exit_code == 1 and "unknown ruleset" in result.output


def test_a_mods_base_path_is_read_from_the_mod_files_folder(tmp_path, monkeypatch):
    games = own_ruleset(tmp_path)
    mod = tmp_path / "my-games" / "mods" / "rich.yaml"
    mod.parent.mkdir()
    mod.write_text(
        textwrap.dedent(
            """
            overlay: {id: rich, name: Rich start, base: ../toy}
            patch:
              counters:
                coins: {initial: 5}
            """
        )
    )
    for folder in (tmp_path, games, tmp_path / "my-games" / "mods"):
        monkeypatch.chdir(folder)
        result = run("validate", mod)
        assert result.exit_code == 0, (folder, result.output)
        assert "valid" in result.output
