"""Generated components (`each`, `ids`, `count: {by, counts}`): a deck in a few lines,
and every mistake in one refused at its place (``ruleset/generated.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.ruleset import load

MANIFEST = "id: deck\nname: Deck\nversion: 0.1.0\nplayers: {min: 2, max: 2}\ninclude: [deck.yaml]\n"
HEAD = """\
kinds:
  card:
    properties:
      suit: {type: text, values: [clubs, diamonds, spades, hearts]}
      rank: {type: number}
      points: {type: number, default: 0}
counters:
  score: {per: player}
zones:
  deck: {per: game, visibility: secret, order: random}
structure:
  setup: |
    move(card, deck)
    gain(score, count(c in card where c.suit == 'hearts'), to: players[0])
  rounds: {count: 1}
  phases:
    - {id: nothing, kind: once, effect: "gain(score, 0, to: players[0])"}
scoring:
  score: score
  steps: []
components:
"""


def build(tmp_path: Path, components: str):
    (tmp_path / "ruleset.yaml").write_text(MANIFEST)
    (tmp_path / "deck.yaml").write_text(HEAD + components)
    return load(tmp_path, use_store=False)


def errors(loaded) -> list[str]:
    return [f"{d.location.line}:{d.location.column}: {d.message}" for d in loaded.diagnostics]


def test_a_52_card_deck_from_suits_times_ranks(tmp_path: Path) -> None:
    loaded = build(
        tmp_path,
        "  card:\n    kind: card\n"
        "    each: {suit: [clubs, diamonds, spades, hearts], rank: {from: 2, to: 14}}\n"
        '    ids: "{suit}_{rank}"\n',
    )
    assert loaded.ruleset is not None, errors(loaded)
    pieces = loaded.ruleset.pieces
    assert len(pieces) == 52
    assert list(pieces)[:2] == ["clubs_2", "clubs_3"]  # the first key varies slowest
    assert pieces["spades_12"].properties["rank"] == 12
    assert pieces["spades_12"].properties["suit"] == "spades"
    assert pieces["hearts_14"].properties["points"] == 0  # the kind's default applies


def test_default_ids_and_counts_per_value(tmp_path: Path) -> None:
    loaded = build(
        tmp_path,
        "  card:\n    kind: card\n"
        "    each: {suit: [clubs, hearts], rank: {from: 1, to: 3}}\n"
        "    count: {by: rank, counts: [3, 2, 1]}\n",
    )
    assert loaded.ruleset is not None, errors(loaded)
    pieces = loaded.ruleset.pieces
    assert len(pieces) == 2 * (3 + 2 + 1)
    assert [p for p in pieces if p.startswith("card_clubs_1")] == [
        "card_clubs_1-1",
        "card_clubs_1-2",
        "card_clubs_1-3",
    ]
    assert pieces["card_hearts_3-1"].design == "card_hearts_3"


@pytest.mark.parametrize(
    ("components", "message", "mark"),
    [
        (
            "  card: {kind: card, each: {suit: [clubs], rank: {from: 1, to: 3}}, ids: '{suit}'}\n",
            "`ids` must name every property of `each`",
            "'{suit}'",
        ),
        (
            "  card: {kind: card, each: {suit: [clubs], rank: [1, 2]}, ids: '{rank}_{suit}'}\n",
            "is not an id",
            "'{rank}_{suit}'",
        ),
        (
            "  card: {kind: card, rank: 3, each: {suit: [clubs], rank: [1, 2]}}\n",
            "'rank' is given both here and in `each`",
            "rank: 3",
        ),
        (
            "  card: {kind: card, each: {suit: [clubs], rank: [1, 2]}, "
            "count: {by: rank, counts: [1]}}\n",
            "`count.counts` must give one number (1 to 1,000) for each of the 2 values",
            "[1]}",
        ),
        (
            "  card: {kind: card, each: {suit: [clubs], rank: [1, 2]}, "
            "count: {by: points, counts: [1]}}\n",
            "`count` of a generated component is a number or {by: PROPERTY",
            "{by: points",
        ),
        (
            "  card: {kind: card, each: {suit: [clubs, moons], rank: [1]}}\n",
            "moons",
            "[clubs, moons]",
        ),
        (
            "  card: {kind: card, each: {suit: [clubs, hearts], rank: {from: 1, to: 600}}}\n",
            "`each` makes 1,200 designs; at most 1,000 are allowed",
            "each:",
        ),
    ],
)
def test_mistakes_are_refused_where_they_are_written(
    tmp_path: Path, components: str, message: str, mark: str
) -> None:
    loaded = build(tmp_path, components)
    assert loaded.ruleset is None
    text = (tmp_path / "deck.yaml").read_text()
    index = text.index(mark)
    line = text.count("\n", 0, index) + 1
    column = index - text.rfind("\n", 0, index)
    found = [d for d in loaded.diagnostics if message in d.message]
    assert found, errors(loaded)
    assert (found[0].location.line, found[0].location.column) == (line, column), errors(loaded)


def test_a_huge_product_is_refused_by_the_piece_cap_before_expanding(tmp_path: Path) -> None:
    loaded = build(
        tmp_path,
        "  card:\n    kind: card\n"
        "    each: {suit: {from: 1, to: 999}, rank: {from: 1, to: 999},\n"
        "           points: {from: 1, to: 999}}\n",
    )
    assert loaded.ruleset is None
    assert any("more than 20,000 pieces" in d.message for d in loaded.diagnostics), errors(loaded)


def test_explain_shows_where_a_generated_card_is_written() -> None:
    from click.testing import CliRunner

    from interpreter.cli.main import cli

    result = CliRunner().invoke(cli, ["explain", "hearts", "spades_12"])
    assert result.exit_code == 0, result.output
    assert (
        "core.yaml" in result.output and "component spades_12, generated by card" in result.output
    )
