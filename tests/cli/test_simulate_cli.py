"""`rules simulate` and `rules validate --simulate` from the command line."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess

import pytest
from rules_test_support import ROOT, invoke

from interpreter.simulate import game_seed

BOOM = """\
overlay:
  id: boom
  name: Boom
  description: A bonus that divides by zero when it is used.
  base: rococo
patch:
  actions:
    gain_2_livres:
      effect: gain(livres, 2 // (my.livres - my.livres))
"""


def test_simulate_writes_json_csv_and_html(tmp_path) -> None:
    page, table = tmp_path / "r.html", tmp_path / "games.csv"
    result = invoke(
        "simulate", "rococo", "--games", "3", "--players", "2", "--jobs", "1", "--seed", "s",
        "--json", "--csv", str(table), "--html", str(page),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["run"]["played"] == 3 and not report["run"]["interrupted"]
    group = report["groups"]["0:2"]
    assert group["games"] == 3 and len(group["seats"]) == 2 and group["items"]
    rows = sorted(csv.DictReader(table.open()), key=lambda row: int(row["index"]))
    assert [int(r["seed"]) for r in rows] == [game_seed("s", i) for i in range(3)]
    assert rows[0]["replay"].startswith("rules play rococo --players 2 --seed ")
    assert "<svg" in page.read_text()


def test_simulate_text_and_versus(tmp_path) -> None:
    mod = tmp_path / "boom.yaml"
    mod.write_text(BOOM)
    result = invoke(
        "simulate", "rococo", "--games", "2", "--players", "2", "--jobs", "1",
        "--versus", "--versus-mod", str(mod), "--out", str(tmp_path / "out"),
    )  # fmt: skip
    assert result.exit_code == 1, result.output  # the modded games err
    assert "win rate by seat" in result.output
    assert "== rococo vs rococo + boom, 2 players" in result.output
    assert "division by zero" in result.output and "reproduce: rules play rococo" in result.output
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == ["games.csv", "items.csv", "report.html", "report.json", "summary.txt"]


def test_simulate_refuses_a_bad_player_count_or_agent() -> None:
    result = invoke("simulate", "rococo", "--players", "9", "--games", "1")
    assert result.exit_code == 2 and "--players" in result.output
    result = invoke("simulate", "rococo", "--agents", "nobody", "--games", "1")
    assert result.exit_code == 2 and "unknown agent" in result.output


def test_ctrl_c_reports_the_games_so_far(tmp_path, monkeypatch) -> None:
    from interpreter.simulate import progress

    calls = []

    def interrupt(self, record) -> None:
        calls.append(record)
        if len(calls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(progress.Progress, "__call__", interrupt)
    result = invoke(
        "simulate", "rococo", "--games", "5", "--players", "2", "--jobs", "1",
        "--out", str(tmp_path),
    )  # fmt: skip
    assert result.exit_code == 130
    assert "2 of 5 games" in result.output and "INTERRUPTED" in result.output
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["run"]["interrupted"] and report["run"]["played"] == 2


def test_validate_simulate_reports_run_time_errors_at_their_rule(tmp_path) -> None:
    mod = tmp_path / "boom.yaml"
    mod.write_text(BOOM)
    result = invoke("validate", "rococo", "--mod", str(mod), "--simulate", "1")
    assert result.exit_code == 1, result.output
    assert f"{mod}:9:" in result.output and "error: division by zero" in result.output
    assert "--seed" in result.output and "simulated 4 random games: 4 errors" in result.output


def test_validate_simulate_passes_a_sound_ruleset() -> None:
    result = invoke("validate", "queens-necklace", "--simulate", "1", "--format", "json")
    assert result.exit_code == 0, result.output
    simulation = json.loads(result.output)["simulation"]
    assert simulation["errors"] == [] and simulation["games"] >= 3


def browser() -> str | None:
    for name in (os.environ.get("CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


@pytest.fixture(scope="module")
def golden(tmp_path_factory):
    """200 two-player random games of the golden apprentice mod, all files written."""
    out = tmp_path_factory.mktemp("golden")
    result = invoke(
        "simulate", "rococo", "--mod", str(ROOT / "examples/balance/golden-apprentice.yaml"),
        "--games", "200", "--players", "2", "--jobs", "1", "--seed", "1", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return result.output, out


def test_the_report_opens_on_the_mod_and_warns_of_random_agents(golden) -> None:
    output, out = golden
    lines = output.splitlines()
    assert lines[1] == "agents: random (each in every seat in turn)"
    assert lines[2].startswith("warning: random agents say little about balance")
    assert lines[4] == "== the mod's items first: rococo + golden-apprentice, 2 players"
    assert lines[5].startswith("how to read this:")
    assert lines[6].startswith("* GA1: players who had it won") and "likely too strong" in lines[6]
    assert "0.286704" not in output and not re.search(r"\d\.\d{3,}", output)  # rounded
    report = json.loads((out / "report.json").read_text())
    assert report["focus"]["0:2"][0]["verdict"] == "likely too strong"
    assert len(list(csv.DictReader((out / "games.csv").open()))) == 200
    page = (out / "report.html").read_text()
    assert page.index("GA1: players who had it") < page.index("win rate by seat")
    assert '<tr class="mod"><td class="name">GA1</td>' in page
    assert not re.search(r"https?:|//[a-z]|<script|<link|src=|@import|url\(", page, re.I)


@pytest.mark.skipif(
    browser() is None,
    reason="no chromium found (.ci/run installs Debian's `chromium` where apt-get works; "
    "or set CHROMIUM to a Chromium or Chrome binary)",
)
def test_the_html_report_renders_in_a_real_browser(golden, tmp_path) -> None:
    _, out = golden
    command = [
        browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
        (out / "report.html").resolve().as_uri(),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    dom = done.stdout
    assert "likely too strong" in dom, done.stderr[-2000:]
    assert dom.count("<svg") >= 5 and "<circle" in dom  # the difference plots too
    assert "How to read this" in dom


def test_focus_opens_on_any_item_and_refuses_an_unknown_one() -> None:
    result = invoke(
        "simulate", "rococo", "--focus", "E05", "--games", "4", "--players", "2", "--jobs", "1"
    )
    assert result.exit_code == 0, result.output
    assert "== the items asked for (--focus): rococo, 2 players" in result.output
    # 4 games: too few players had the level 1 masters, the reference widens
    assert "\n  reference: employee components (" in result.output
    result = invoke("simulate", "rococo", "--focus", "NOPE", "--games", "1")
    assert result.exit_code == 2 and "'NOPE' is no component, space or action" in result.output
