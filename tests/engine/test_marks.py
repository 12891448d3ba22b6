"""Public marks on hidden pieces (``mark``, ``unmark``; ``engine/marks.py``): truthful,
shown to everyone by place, kept on the piece as it moves, dropped where nobody can
point at it or everybody sees it, and honoured by every world a seat samples."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.engine import marks
from interpreter.engine import seat as seat_module
from interpreter.engine.game import Game
from interpreter.engine.seat import Seat
from interpreter.engine.view import view
from interpreter.engine.words import Wording, view_lines
from interpreter.errors import RuleError
from interpreter.ruleset import load_or_raise

RULES = """
kinds:
  card:
    properties:
      points: {type: number}
components:
  card:
    kind: card
    each: {points: {from: 1, to: 4}}
    count: 2
    ids: "c{points}"
counters:
  score: {per: player}
  round: {per: game}
zones:
  deck: {per: game, visibility: secret, order: random}
  hand: {per: player, visibility: others}
  pile: {per: game, visibility: secret}
  table: {per: player, visibility: public}
actions:
  tell:
    params: {q: {type: player}, v: {type: number}}
    effect: mark(q.hand, 'points', v)
  tell_colour:
    params: {q: {type: player}}
    effect: mark(q.hand, 'colour', 'red')
  forget:
    effect: unmark(my.hand)
  mix:
    effect: shuffle(my.hand)
  show:
    effect: move(my.hand.top, my.table)
  bury:
    effect: move(my.hand.top, deck)
  hide:
    effect: move(my.hand.top, pile)
  give:
    params: {q: {type: player}}
    effect: move(my.hand.top, q.hand)
structure:
  setup: |
    move(card, deck)
    for p in players { draw(deck, p.hand, 3) }
  rounds: {count: 1, counter: round}
  phases:
    - id: turns
      kind: each_player
      effect: |
        choose n in range(0, my.hand.size - 1) as "slot" { move(my.hand.pieces[n], my.table) }
scoring:
  score: score
  steps: []
"""


@pytest.fixture
def game(tmp_path: Path) -> Game:
    folder = tmp_path / "marked"
    folder.mkdir()
    (folder / "marked.yaml").write_text(RULES, encoding="utf-8")
    (folder / "ruleset.yaml").write_text(
        "id: marked\nname: Marked\nversion: 0.1.0\nplayers: {min: 2, max: 2}\n"
        "include: [marked.yaml]\n",
        encoding="utf-8",
    )
    return Game(load_or_raise(str(folder)), ["P1", "P2"], seed=4)


def told(game: Game, zone: str) -> list[dict]:
    """What every seat's view shows of the marks on ``zone`` (the same for all)."""
    shown = [view(game, seat).get("marks", {}).get(zone) for seat in (0, 1, None)]
    assert shown[0] == shown[1] == shown[2]
    return shown[0]


def points(game: Game, piece: str) -> int:
    return game.ruleset.pieces[piece].properties["points"]


def test_a_mark_is_true_of_each_piece_and_everyone_sees_it_by_place(game: Game) -> None:
    hand = game.state.zones["hand#1"]
    v = points(game, hand[1])
    game.run_action("tell", "P1", q=1, v=v)
    expected = [{"points": v} if points(game, c) == v else {"points": {"not": [v]}} for c in hand]
    assert told(game, "P2.hand") == expected  # P2, who cannot see the cards, too
    assert "marks" not in view(Game(game.ruleset, ["P1", "P2"], seed=4), 0)  # none: no key


def test_a_mark_follows_its_piece_into_another_hidden_zone(game: Game) -> None:
    first = game.state.zones["hand#0"][0]
    game.run_action("tell", "P2", q=0, v=points(game, first))
    game.run_action("give", "P1", q=1)
    assert told(game, "P2.hand")[-1] == {"points": points(game, first)}
    assert len(told(game, "P1.hand")) == 2  # the two cards left keep theirs, in order
    game.run_action("hide", "P2")  # P2's top card (unmarked) goes to a secret pile
    assert marks.marks_of(game.state)[first] == (("points", points(game, first), True),)


@pytest.mark.parametrize("action", ["show", "bury", "forget", "mix"])
def test_marks_go_where_everyone_sees_the_piece_or_nobody_can_point_at_it(
    game: Game, action: str
) -> None:
    top = game.state.zones["hand#0"][0]
    game.run_action("tell", "P2", q=0, v=1)
    game.run_action(action, "P1")
    assert top not in marks.marks_of(game.state)


def test_a_mark_of_a_property_the_kind_lacks_is_refused_by_name(game: Game) -> None:
    with pytest.raises(RuleError, match="has no property 'colour'"):
        game.run_action("tell_colour", "P1", q=1)


def test_a_world_deals_at_a_marked_place_only_pieces_the_marks_fit() -> None:
    game = Game(load_or_raise("hanabi"), ["P1", "P2"], seed=3)
    for option in ("tell P2", "name red", "tell P1", "name 4"):
        game.apply(game.pending()[0].player, option)
    for option in ("tell P2", "name 4", "tell P1"):
        game.apply(game.pending()[0].player, option)
    game.apply(1, game.pending()[0].options[0])  # P2 names a colour of P1's
    decision = game.pending()[0]
    seat = Seat(game, decision)
    facts = marks.marks_of(game.state)
    hand = game.state.zones["hand#0"]
    assert all(p in facts for p in hand)
    props = game.tables.piece_props
    for k in range(40):
        world = seat.sample(k)
        dealt = world.state.zones["hand#0"]
        for real, there in zip(hand, dealt, strict=True):
            assert marks.fits(props[there], facts[real]), (k, real, there)
        assert view(world, 0) == view(game, 0)  # the marks, by place, as P1 sees them


def test_the_marks_make_the_worlds_of_a_hinted_hand_closer_to_the_real_one() -> None:
    game = Game(load_or_raise("hanabi"), ["P1", "P2"], seed=3)
    for option in ("tell P2", "name red", "tell P1", "name 4"):
        game.apply(game.pending()[0].player, option)
    seat = Seat(game, game.pending()[0])
    props = game.tables.piece_props
    hand = game.state.zones["hand#0"]
    fours = [props[p]["rank"] == 4 for p in hand]
    for k in range(20):
        dealt = seat.sample(k).state.zones["hand#0"]
        assert [props[p]["rank"] == 4 for p in dealt] == fours


def test_honour_serves_the_most_constrained_place_first_and_breaks_only_a_dead_end() -> None:
    props = {"a1": {"n": 1}, "a2": {"n": 2}, "a3": {"n": 3}}
    one, not_three = (("n", 1, True),), (("n", 3, False),)
    # x may take a1 or a2, y only a1: y first, so both are met
    arranged = marks.honour(
        ["a1", "a2", "a3"], ("x", "y", "z"), {"x": not_three, "y": one}, props, True
    )
    assert arranged == ["a2", "a1", "a3"]
    # two places that only a1 fits: a dead end
    both = {"x": one, "y": one}
    assert marks.honour(["a1", "a2", "a3"], ("x", "y", "z"), both, props, True) is None
    assert marks.honour(["a3", "a2", "a1"], ("x", "y", "z"), both, props, False) == [
        "a1",
        "a3",
        "a2",
    ]


def test_a_world_deals_again_from_a_dead_end_and_its_last_deal_breaks_it(monkeypatch) -> None:
    """The located fallback: after ``MAX_MARK_DEALS`` deals, only the places no piece
    left fits lose their marks' guarantee; every other place keeps it."""
    calls = []
    real = marks.honour

    def spy(dealt, old, marked, props, strict):
        calls.append(strict)
        return None if strict else real(dealt, old, marked, props, strict)

    monkeypatch.setattr(seat_module, "honour", spy)
    game = Game(load_or_raise("hanabi"), ["P1", "P2"], seed=3)
    for option in ("tell P2", "name red", "tell P1", "name 4"):
        game.apply(game.pending()[0].player, option)
    Seat(game, game.pending()[0]).sample(0)
    assert calls == [True] * (marks.MAX_MARK_DEALS - 1) + [False]


def test_the_board_in_words_says_the_marks_by_place() -> None:
    game = Game(load_or_raise("hanabi"), ["P1", "P2"], seed=3)
    for option in ("tell P2", "name red"):
        game.apply(game.pending()[0].player, option)
    wording = Wording(lambda name, *_: name, str, str, str)
    lines = view_lines(view(game, 1), wording)
    assert "marks on P2.hand: 0: colour not red; 1: colour red; 2: colour not red; " in (
        "\n".join(lines)
    )
