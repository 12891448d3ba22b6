"""`rows.GameRows`: games.csv, a row a game written as it finishes."""

from __future__ import annotations

import csv

from interpreter.simulate.plan import Plan, Variant
from interpreter.simulate.play import unplayed


def test_a_row_names_its_variant_as_the_report_does_and_replays_its_game(tmp_path) -> None:
    from interpreter.simulate.rows import GameRows

    mod = "mods/golden-apprentice.yaml"
    plan = Plan([Variant("rococo"), Variant("rococo", (), (mod,))], 3, [2], ["random"], "5")
    paths = [tmp_path / "out" / "games.csv", tmp_path / "games.csv"]
    rows = GameRows(plan, paths)
    rows(unplayed(plan.spec(2, 1), "lost"))  # games arrive in the order they finish
    rows(unplayed(plan.spec(0, 0)))
    rows.close()
    for path in paths:
        first, second = csv.DictReader(path.open())
        assert (first["label"], first["index"], first["error"]) == (
            "rococo + golden-apprentice",
            "2",
            "lost",
        )
        assert first["replay"] == plan.replay_command(plan.spec(2, 1))
        assert "--mod mods/golden-apprentice.yaml" in first["replay"]
        assert (second["label"], second["error"]) == ("rococo", "")
