"""A normal (non-editable) install ships the bundled games: a wheel built from the
project, installed into a fresh virtual environment, plays `rococo` and validates a
`base: rococo` mod from a folder far from the project. The sdist carries them too.

This builds and installs for real (about 20 s), so it runs once per test session.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import textwrap
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"rococo": 2, "queens-necklace": 2, "hearts": 4}  # each with a player count it allows


def _run(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=600
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The `rules` script of a fresh virtual environment with the project's wheel."""
    work = tmp_path_factory.mktemp("packaging")
    built = _run(
        sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", work, ROOT, cwd=work
    )
    assert built.returncode == 0, built.stderr
    wheel = next(work.glob("tabletop_rules-*.whl"))
    venv.create(work / "venv", with_pip=True)
    pip = work / "venv" / "bin" / "pip"
    done = _run(pip, "install", "-q", wheel, cwd=work)
    assert done.returncode == 0, done.stderr
    return work / "venv" / "bin" / "rules"


def test_the_installed_package_plays_the_bundled_games(installed, tmp_path):
    for game, players in sorted(GAMES.items()):
        result = _run(installed, "play", game, "--players", players, "--seed", "1", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert "players, seed 1" in result.stdout


def test_the_installed_package_validates_a_mod_of_a_bundled_game(installed, tmp_path):
    mod = tmp_path / "gift.yaml"
    mod.write_text(
        textwrap.dedent(
            """
            overlay: {id: gift, name: Gift, base: rococo}
            extend:
              actions:
                hire:
                  effect:
                    - {id: gift, after: main, effect: "gain(prestige, 1)"}
            """
        )
    )
    result = _run(installed, "validate", mod, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "valid" in result.stdout


def test_the_wheel_ships_the_served_page_and_serve_asks_for_its_extra(installed, tmp_path):
    import zipfile

    wheel = next(installed.parents[2].glob("tabletop_rules-*.whl"))
    assert "interpreter/serve/static/table.html" in zipfile.ZipFile(wheel).namelist()
    result = _run(installed, "serve", "queens-necklace", "--players", "3", cwd=tmp_path)
    assert result.returncode == 1  # the fresh venv has no serve extra
    assert "pip install 'tabletop-rules[serve]'" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_the_sdist_carries_the_bundled_games(tmp_path):

    from setuptools import build_meta  # the sdist is built the way pip would

    here = os.getcwd()
    os.chdir(ROOT)
    try:
        name = build_meta.build_sdist(str(tmp_path))
    finally:
        os.chdir(here)
    with tarfile.open(tmp_path / name) as archive:
        names = archive.getnames()
    for game in GAMES:
        assert any(n.endswith(f"rulesets/{game}/ruleset.yaml") for n in names), game
