"""benchmarks/play_stats.py: the statistics of a seeded game counted right, by a
second count of the same game made here with the engine's own means."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import play_stats  # noqa: E402  (benchmarks/play_stats.py, after its folder is on the path)

from interpreter.agents import make  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from interpreter.load.ruleset_files import resolve_ruleset  # noqa: E402
from interpreter.ruleset import load  # noqa: E402


def headlines(ruleset: str) -> dict:
    return play_stats.read_headlines(play_stats.HEADLINES / f"{ruleset}.yaml")


def replayed(ruleset: str, seed: int, players: int):
    """The same game of random agents, played here: yields (decision, option, game)
    after each move, with the position before it as ``game.before``."""
    game = Game(load(resolve_ruleset(ruleset)).ruleset, [f"P{s + 1}" for s in range(players)], seed)
    agents = [make("random", seat, seed) for seat in range(players)]
    while not game.is_over():
        decision = game.pending()[0]
        option = agents[decision.player].choose(game, decision)
        before = game.copy()
        game.apply(decision.player, option)
        yield decision, option, before, game


@pytest.mark.parametrize("seed", [0, 5])
def test_queens_necklace_statistics_of_a_seeded_game(seed: int) -> None:
    play_stats._init("queens-necklace", headlines("queens-necklace"))
    record = play_stats.play((seed, 3, "random"))
    chosen = [Counter() for _ in range(3)]
    gems, sales = [0] * 3, [0] * 3
    gem_count = "count(c in my.hand where c.kind == 'gem')"
    for decision, option, before, game in replayed("queens-necklace", seed, 3):
        me = decision.player
        chosen[me][decision.prompt, option.split()[0]] += 1
        if decision.prompt == "buy":
            gems[me] += game.evaluate(gem_count, me) > before.evaluate(gem_count, me)
        for s in range(3):
            sales[s] += game.evaluate("my.money", s) > before.evaluate("my.money", s)
    assert game.state.counters["sales_done"] == 3  # the whole game was counted
    for s, seat in enumerate(record["seats"]):
        assert seat["choices"].get("buy", 0) == chosen[s]["buy", "buy"]
        assert seat["choices"].get("buy: pass", 0) == chosen[s]["buy", "pass"]
        assert sum(seat["choices"].values()) == sum(chosen[s].values())
        assert seat["headlines"] == {"gems bought": gems[s], "sales won": sales[s]}
        assert seat["counters"] == {
            "money": game.state.counters[f"money#{s}"],
            "ducats": game.state.counters[f"ducats#{s}"],
        }
        assert seat["score"] == game.result().scores[f"P{s + 1}"]
    assert record["decisions"] == sum(sum(c.values()) for c in chosen)
    assert sum(gems) > 0 and 0 < sum(sales) <= 3 * 3


def test_rococo_statistics_of_seeded_games() -> None:
    play_stats._init("rococo", headlines("rococo"))
    sewn = 0
    for seed in range(3):
        record = play_stats.play((seed, 2, "random"))
        counted = [Counter(), Counter()]
        halls_won = None
        for decision, _, _, game in replayed("rococo", seed, 2):
            counted[decision.player][decision.prompt] += 1
            if halls_won is None and game.state.engine["stage"] in ("scoring", "over"):
                halls_won = [halls_first(game, s) for s in range(2)]
        result = game.result()
        for s, seat in enumerate(record["seats"]):
            heads = seat["headlines"]
            assert heads["dresses sewn"] == counted[s]["sew"]
            assert heads["decorations funded"] == counted[s]["fund"]
            assert heads["decorations funded"] == game.evaluate("decorations_of(me)", s)
            assert heads["hall prestige"] == result.breakdown[f"P{s + 1}"]["halls"]
            assert heads["halls won"] == halls_won[s]
            assert seat["counters"]["prestige"] == result.scores[f"P{s + 1}"]
            sewn += heads["dresses sewn"]
    assert sewn > 0  # the statistic was exercised


def halls_first(game: Game, seat: int) -> int:
    """Halls where ``seat`` is first by the ruleset's ``hall_key``, worked out here."""
    won = 0
    for hall in game.evaluate("halls"):
        keys = [game.evaluate(f"hall_key(me, {hall})", s) for s in range(2)]
        if keys[seat][0] > 0 and keys[seat] == max(keys):
            won += 1
    return won


def test_the_command_prints_every_kind_beside_the_other() -> None:
    command = [sys.executable, str(BENCHMARKS / "play_stats.py"), "queens-necklace"]
    done = subprocess.run(
        [*command, "--agents", "random,greedy", "--games", "2", "--jobs", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("command: ") and "seeds 0-1" in lines[1]
    header = next(line for line in lines if line.startswith("headlines"))
    assert header.split()[1:] == ["random", "greedy"]
    row = next(line for line in lines if line.startswith("gems bought"))
    assert len(row.split("(")) == 3  # a mean (sd) for each kind
    assert any(line.startswith("money ") for line in lines)


def test_a_headline_file_is_checked(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("both: {choices: buy, counter: money}\n")
    with pytest.raises(play_stats.BenchError, match="exactly one of"):
        play_stats.read_headlines(bad)
    bad.write_text("typo: {value: 'count(my.nothing_here)'}\n")
    with pytest.raises(play_stats.BenchError, match="typo"):
        play_stats._init("queens-necklace", play_stats.read_headlines(bad))
