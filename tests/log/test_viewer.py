"""`rules replay LOG --html FILE`: a self-contained HTML viewer of every position.

The page is one file with no network at all; its positions (from one replay pass)
rebuild exactly the views they came from; with `--as P1` they are P1's views. The
last test opens the page in a real headless browser (Debian's `chromium`), whose
`?test=1` mode clicks next/previous itself and writes what it showed into the DOM.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from rules_test_support import ROOT

from interpreter.log.transcript import read_game
from interpreter.log.viewer import flat_position

EXAMPLE = ROOT / "examples" / "logs" / "rococo-2p-handwritten.jsonl"
DATA = re.compile(r'<script type="application/json" id="data">(.*?)</script>', re.S)


def write(kit, tmp_path: Path, log: Path, *options: str, name: str = "view.html"):
    out = tmp_path / name
    result = kit.replay(log, "--html", str(out), *options)
    return result, out.read_text(encoding="utf-8")


def data_of(page: str) -> dict:
    return json.loads(DATA.search(page).group(1))


def rebuilt(data: dict) -> list[dict]:
    """The positions as the page's script rebuilds them from the differences."""
    out, state = [], {}
    for changed, gone in data["positions"]:
        state = {**state, **changed}
        for key in gone:
            state.pop(key)
        out.append(state)
    return out


def test_the_page_is_one_file_without_network(kit, tmp_path):
    result, page = write(kit, tmp_path, EXAMPLE)
    assert result.exit_code == 0, result.output
    assert "344 positions" in result.output
    assert not re.search(r"https?:|//[a-z]|\bsrc=|\bhref=|@import|url\(", page, re.I)
    assert page.count("<script") == 2 and page.count("<style>") == 1
    assert len(page.encode()) < 300_000  # about 165 kB for this log
    data = data_of(page)
    assert data["last"] == 343 and len(data["positions"]) == 344
    assert data["result"] and data["failure"] is None


def test_the_positions_rebuild_the_views(kit):
    reading = read_game(EXAMPLE, capture=flat_position)
    from interpreter.log.viewer import page_data

    assert rebuilt(page_data(reading)) == reading.captured


def test_as_p1_the_page_holds_only_p1s_views(kit, tmp_path):
    game = kit.play(2, 5)
    _, full = write(kit, tmp_path, game.path, name="full.html")
    result, mine = write(kit, tmp_path, game.path, "--as", "P1", name="p1.html")
    assert result.exit_code == 0, result.output
    assert data_of(mine)["you"] == "P1"
    reading = read_game(game.path, as_player="P1", capture=flat_position)
    positions = rebuilt(data_of(mine))
    assert positions == reading.captured
    hidden = [p for p in positions if p["stage"] not in ("scoring", "over")]
    assert hidden and all(isinstance(p["p1/z/hand"], dict) for p in hidden)  # counts only
    assert any(isinstance(p["p1/z/hand"], list) and p["p1/z/hand"] for p in rebuilt(data_of(full)))
    assert not any("options" in d for p in hidden for d in p["pending"] if d["player"] == "P2")


def illegal_log(kit, tmp_path: Path) -> tuple[Path, int]:
    game = kit.play(2, 5)
    evts = kit.events(game.lines)
    line, event = next((ln, e) for ln, e in evts[len(evts) // 2 :] if "choice" in e)
    lines = list(game.lines)
    lines[line - 1] = json.dumps({**event, "choice": "no such option"})
    return kit.write(tmp_path, "bad.jsonl", lines), event["n"]


def test_an_illegal_log_shows_the_reason_at_its_event(kit, tmp_path):
    bad, n = illegal_log(kit, tmp_path)
    result, page = write(kit, tmp_path, bad)
    assert result.exit_code == 1
    data = data_of(page)
    assert data["last"] == n - 1 and data["failed_at"] == n
    assert "illegal" in data["failure"]
    assert [line[0] for line in data["lines"] if line[1] == "failure"] == [n]


def browser() -> str | None:
    for name in (os.environ.get("CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def shown_in_browser(page: Path, profile: Path, at: int | None = None) -> dict:
    command = [
        browser(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--dump-dom",
        page.resolve().as_uri() + "?test=1" + (f"&at={at}" if at is not None else ""),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="test-result">(.*?)</pre>', done.stdout, re.S)
    assert found, f"no test result in the page:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return json.loads(
        found.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    )


@pytest.mark.skipif(
    browser() is None,
    reason="no chromium found (.ci/run installs Debian's `chromium` where apt-get works; "
    "or set CHROMIUM to a Chromium or Chrome binary)",
)
def test_the_viewer_steps_in_a_real_browser(kit, tmp_path):
    write(kit, tmp_path, EXAMPLE)
    shown = shown_in_browser(tmp_path / "view.html", tmp_path / "profile", at=64)
    assert shown["last"] == 343
    steps = shown["steps"]
    # start, next, next, previous, last, next (stays), left arrow, right arrow, Home, 64
    assert [s["n"] for s in steps] == [0, 1, 2, 1, 343, 343, 342, 343, 0, 64]
    first, one, last, boundary = steps[0], steps[1], steps[4], steps[9]
    assert first["status"].startswith("Position 0 of 343 (the start) - Setup")
    assert first["event"] is None and not first["result"]
    assert one["event"] == "1. shuffle sorting: E27 E28 E23 E26 E25 E24"
    assert last["status"].startswith("Position 343 of 343 (after event 343) - Game over")
    assert last["result"] and last["event"].startswith("343. checkpoint")
    # event 64, Bob's last move of round 1: it belongs to round 1, and what it did is
    # told (his bonus's livres, and the round's end that it set going)
    assert boundary["status"].startswith(
        "Position 64 of 343 (after event 64) - Round 1: Actions; now Round 2: Prepare the round"
    )
    assert boundary["shown"].startswith("64. Bob: bonus [+8 livres; Ann +5 livres; ")
    assert "favour_card Ann's favour → favour_space]" in boundary["shown"]
    assert "favour_card: token" in boundary["about"]  # on hover: what the words are
    assert "start_player" in boundary["game"] and '"' not in boundary["game"]  # Bob, not "Bob"

    bad, n = illegal_log(kit, tmp_path)
    write(kit, tmp_path, bad, name="bad.html")
    shown = shown_in_browser(tmp_path / "bad.html", tmp_path / "profile2")
    assert shown["last"] == n - 1
    assert shown["steps"][4]["failure"] and not shown["steps"][0]["failure"]
