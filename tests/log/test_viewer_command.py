"""The HTML viewer shows, at each position, the command that goes on from it (issue 47):
`rules play --from LOG --at N`, N the position's number, LOG the path given to replay."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest
from rules_test_support import ROOT

EXAMPLE = ROOT / "examples" / "logs" / "rococo-2p-handwritten.jsonl"
DATA = re.compile(r'<script type="application/json" id="data">(.*?)</script>', re.S)


def browser() -> str | None:
    """A headless Chromium, as test_viewer.py finds it."""
    for name in (os.environ.get("CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def test_the_page_carries_the_command(kit, tmp_path):
    out = tmp_path / "view.html"
    result = kit.replay(EXAMPLE, "--html", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads(DATA.search(out.read_text(encoding="utf-8")).group(1))
    assert data["command"] == f"rules play --from {EXAMPLE} --at "


@pytest.mark.skipif(browser() is None, reason="no chromium found (see test_viewer.py)")
def test_the_command_is_on_screen(kit, tmp_path):
    out = tmp_path / "view.html"
    kit.replay(EXAMPLE, "--html", str(out))
    command = [
        browser(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--dump-dom",
        out.resolve().as_uri(),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    shown = re.search(r'<p class="command" id="command">(.*?)</p>', done.stdout, re.S)
    assert shown, done.stdout[-2000:]
    assert shown.group(1) == f"go on from here: <code>rules play --from {EXAMPLE} --at 0</code>"
