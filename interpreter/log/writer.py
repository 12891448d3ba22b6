"""Write a game's log: a header line, then one JSON object per event."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, TextIO

from interpreter.engine.game import Game
from interpreter.load.search import file_digest, overlay_id

FORMAT = "rules-log/1"


def header(
    game: Game,
    mods: list[str] | list[Path] | None = None,
    agents: list[dict[str, str]] | None = None,
    log_path: Path | None = None,
) -> dict[str, Any]:
    """The log's first line. Mods are named by their overlay id and the digest of their
    file, and, when the log's own path is known, by their path relative to the log's
    folder: replay looks for each there, on the user's rules path, or where `--mod`
    says, and takes only the file of that digest. ``agents``: who played each person's
    seat (``{"player", "agent", "seed"}``), for ``--resume``."""
    ruleset = game.ruleset
    data: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": ruleset.id,
        "ruleset_version": ruleset.version,
        "ruleset_digest": ruleset.digest,
        "options": {
            "expansions": [e for e in ruleset.expansions if e in ruleset.offered_expansions]
        },
        "players": list(game.people),  # the rules-driven seats come from the ruleset
        "seed": game.seed,
    }
    if mods:
        data["options"]["mods"] = [mod_entry(Path(m), log_path) for m in mods]
    if agents:
        data["agents"] = agents
    return data


def mod_entry(mod: Path, log_path: Path | None) -> dict[str, str]:
    """A mod as a log's header names it: ``{id, digest}``, and ``path`` from the log."""
    entry = {"id": overlay_id(mod) or mod.stem, "digest": file_digest(mod)}
    if log_path is not None:
        entry["path"] = relative_to_log(mod, log_path)
    return entry


def relative_to_log(path: Path, log_path: Path) -> str:
    """``path`` relative to the folder of ``log_path``, `/`-separated."""
    return Path(os.path.relpath(path.resolve(), log_path.resolve().parent)).as_posix()


def lines(
    game: Game, mods: list[str] | list[Path] | None = None, final_scores: bool = True
) -> list[str]:
    out = [json.dumps(header(game, mods), ensure_ascii=False)]
    out += event_lines(game, 0, final_scores)
    return out


def event_lines(game: Game, start: int, final_scores: bool = True) -> list[str]:
    """The lines of ``game``'s events after the first ``start`` ones, numbered from
    ``start + 1``; then, if the game is over, its final scores line. A log streamed a
    decision at a time (``log/stream.py``) is the same text as one written whole."""
    out = []
    n = start
    for event in game.events[start:]:
        n += 1
        out.append(json.dumps({"n": n, **event}, ensure_ascii=False))
    if final_scores and game.is_over():
        n += 1
        out.append(json.dumps({"n": n, "scores": game.result().scores}, ensure_ascii=False))
    return out


def write(game: Game, stream: TextIO, mods: list[str] | list[Path] | None = None) -> None:
    for line in lines(game, mods):
        stream.write(line + "\n")
