"""`rules validate --simulate N`: seeded random games to find run-time errors."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from interpreter.load.ruleset_files import MANIFEST, allowed_combinations, resolve_ruleset
from interpreter.simulate.execute import run
from interpreter.simulate.plan import Plan, Variant
from interpreter.simulate.play import ruleset_of


def ruleset_folder(raw: str) -> Path | None:
    """The ruleset folder ``raw`` names (a folder, its manifest or an id), else None."""
    path = Path(raw)
    if path.is_dir():
        return path if (path / MANIFEST).is_file() else None
    if path.name == MANIFEST and path.is_file():
        return path.parent
    if path.exists():
        return None  # a single file: an overlay or content, not played here
    return resolve_ruleset(raw)


def simulate_check(
    paths: tuple[str, ...],
    games: int,
    expansions: tuple[str, ...] = (),
    mods: tuple[Path, ...] = (),
    every: bool = False,
    jobs: int | None = None,
) -> tuple[int, list[dict]]:
    """Play ``games`` random games of every player count of each ruleset in ``paths``
    (with ``expansions``, or in every allowed combination): the games played and the
    errors, each with its headline and the command that reproduces it."""
    played, errors = 0, []
    for raw in paths:
        folder = ruleset_folder(raw)
        if folder is None:
            continue
        base = ruleset_of(Variant(str(folder), (), tuple(str(m) for m in mods)))
        if every:
            combos = allowed_combinations(folder, base.offered_expansions)
        else:
            combos = [tuple(expansions)]
        for combo in combos:
            variant = Variant(str(folder), tuple(combo), tuple(str(m) for m in mods))
            ruleset = ruleset_of(variant)
            counts = list(range(max(ruleset.min_players, 1), ruleset.max_players + 1))
            plan = Plan([variant], games * len(counts), counts, ["random"], "0")
            failed: list[dict] = []
            outcome = run(plan, jobs=jobs, on_record=partial(_keep_error, failed=failed))
            played += outcome.played
            for record in sorted(failed, key=lambda rec: rec["index"]):
                errors.append(
                    {
                        "ruleset": variant.label,
                        "players": record["players"],
                        "seed": record["seed"],
                        "error": record["error"],
                        "replay": plan.replay_command(plan.spec(record["index"])),
                    }
                )
            if outcome.interrupted:
                raise KeyboardInterrupt
    return played, errors


def _keep_error(record: dict, failed: list[dict]) -> None:
    if record["error"] is not None:
        failed.append(record)
