"""The modder's journey of issue 47 as a script, each step a subprocess of the installed
`rules`: scaffold a mod, edit it, check it as CI and the pre-commit hook do, test it,
simulate it, play it with a log, replay that log from another folder, and go on from a
position of it. Every step must succeed as a new modder would run it.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from rules_test_support import ROOT

# the `rules` console script of the environment running the tests (the installed one)
RULES = shutil.which("rules", path=str(Path(sys.executable).parent)) or "rules"
TIMEOUT = 300  # seconds a step may take on a loaded machine


def rules(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([RULES, *args], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    return done


def ok(cwd: Path, *args: str) -> str:
    done = rules(cwd, *args)
    assert done.returncode == 0, f"rules {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def hook_files(repo: Path) -> tuple[list[str], list[str]]:
    """The pre-commit hook's command and the files it would be given in ``repo``: every
    file its `files` pattern matches and its `exclude` pattern does not."""
    text = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    entry = re.search(r"^\s*entry:\s*(.+)$", text, re.M).group(1).split()
    files = re.compile(re.search(r"^\s*files:\s*(\S+)$", text, re.M).group(1))
    exclude = re.compile(re.search(r"^\s*exclude:\s*(\S+)$", text, re.M).group(1))
    paths = sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.is_file())
    chosen = [p for p in paths if files.search(p) and not exclude.search(p)]
    return entry, chosen


def test_the_modders_journey(tmp_path):
    repo = tmp_path / "my-mods"  # the modder's repository, outside this project
    repo.mkdir()
    assert RULES != "rules" or shutil.which("rules"), "no installed `rules` script"

    # 1. scaffold
    ok(repo, "new", "mod", "salon", "--base", "rococo", "--dir", "mods")
    mod, scenarios = repo / "mods" / "salon.yaml", repo / "mods" / "salon.scenarios.yaml"
    assert mod.read_text().startswith("# yaml-language-server: $schema=schemas/overlay")

    # 2. edit: the bonus doubles; the scenarios follow (2 prestige more for each player)
    mod.write_text(mod.read_text().replace("salon_amount: {value: 1}", "salon_amount: {value: 2}"))
    text = scenarios.read_text()
    text = text.replace("{P1: {prestige: 2}}", "{P1: {prestige: 4}}")
    text = text.replace("salon_bonus: 2}", "salon_bonus: 4}")
    text = re.sub(r"scores: \{P1: (\d+), P2: (\d+)\}", _plus_two, text)
    scenarios.write_text(text)

    # 3. CI: the documented recipe, then the pre-commit hook's command
    ci = ok(repo, "validate", "--strict", "--format", "github", "mods/")
    assert ci.splitlines()[-1].endswith(": valid") and "::" not in ci
    entry, files = hook_files(repo)
    assert entry == ["rules", "validate"]
    assert "mods/salon.yaml" in files and "mods/salon.scenarios.yaml" in files
    ok(repo, *entry[1:], "--strict", *files)
    combinations = ok(repo, "validate", "mods/salon.yaml", "--all-combinations")
    assert not combinations.splitlines()[-1].endswith("in 0 combinations of expansions: valid")

    # 4. test
    tested = ok(repo, "test", "mods/salon.scenarios.yaml")
    assert tested.splitlines()[-1] == "4 scenarios: 4 passed, 0 failed", tested

    # 5. simulate a few games with the mod
    ok(
        repo,
        "simulate",
        "rococo",
        "--mod",
        "mods/salon.yaml",
        "--games",
        "3",
        "--players",
        "2",
        "--jobs",
        "1",
    )

    # 6. play with a log, and replay it from another folder
    (repo / "logs").mkdir()
    ok(
        repo,
        "play",
        "rococo",
        "--mod",
        "mods/salon.yaml",
        "--players",
        "2",
        "--seed",
        "5",
        "--log",
        "logs/game.jsonl",
    )
    header = json.loads((repo / "logs" / "game.jsonl").read_text().splitlines()[0])
    assert header["options"]["mods"][0]["path"] == "../mods/salon.yaml"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    replayed = ok(elsewhere, "replay", str(repo / "logs" / "game.jsonl"))
    assert "legal and complete" in replayed.splitlines()[0]

    # 7. go on from a position of the log with other agents
    ok(
        repo,
        "play",
        "--from",
        "logs/game.jsonl",
        "--at",
        "30",
        "--agents",
        "greedy",
        "--log",
        "logs/fork.jsonl",
    )
    fork = json.loads((repo / "logs" / "fork.jsonl").read_text().splitlines()[0])
    assert fork["from"]["at"] == 30 and fork["from"]["log"] == "game.jsonl"
    assert "legal and complete" in ok(elsewhere, "replay", str(repo / "logs" / "fork.jsonl"))


def _plus_two(match: re.Match) -> str:
    return f"scores: {{P1: {int(match.group(1)) + 2}, P2: {int(match.group(2)) + 2}}}"
