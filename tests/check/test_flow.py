"""Secrecy by information flow (``interpreter/check/flow.py``): hidden information
written into a public counter or variable stays hidden for the secrecy check, so a
decision asked because of it is refused where it is decided, unless the rules make the
fact public (`announced(…)`, the card shown)."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from interpreter.ruleset import load

TOY = Path(__file__).parents[1] / "engine" / "toy"
ROOT = Path(__file__).parents[2]

STATE = """
variables:
  flag: {per: game, type: bool, initial: false}
  mark: {per: player, type: number, initial: 0}
counters:
  tally: {per: game}
"""


def leaks(tmp_path: Path, content: str, scoring: str = "", toy: tuple = ()) -> list:
    """The secrecy diagnostics of the toy ruleset plus ``content`` (and a public flag,
    a public per-player mark and a public game counter; ``scoring`` added to its
    scoring; ``toy``: (old, new) texts replaced in toy.yaml), as (line, column, message,
    hint) of those in ``content`` (counted from its first line), or in toy.yaml if
    ``toy`` replaces anything."""
    folder = tmp_path / f"toy{len(list(tmp_path.iterdir()))}"
    shutil.copytree(TOY, folder)
    text = (folder / "toy.yaml").read_text()
    for old, new in toy:
        assert old in text
        text = text.replace(old, new)
    (folder / "toy.yaml").write_text(text + textwrap.indent(textwrap.dedent(scoring), "    "))
    (folder / "state.yaml").write_text(STATE)
    (folder / "extra.yaml").write_text(textwrap.dedent(content).lstrip("\n"))
    manifest = folder / "ruleset.yaml"
    manifest.write_text(
        manifest.read_text().replace(
            "include: [toy.yaml]", "include: [toy.yaml, state.yaml, extra.yaml]"
        )
    )
    found = load(folder).diagnostics
    assert all(d.kind == "secrecy" for d in found), [(str(d.location), d.message) for d in found]
    return [
        (d.location.line, d.location.column, d.message, d.hint)
        for d in found
        if Path(d.location.path).name == ("toy.yaml" if toy else "extra.yaml")
    ]


def at(found: list) -> list[tuple[int, int]]:
    return [(line, column) for line, column, _, _ in found]


FLAG = """
actions:
  peek:
    params: {}
    effect: |
      let c = my.hand.top
      flag = {value}
  ask:
    params: {}
    effect: |
      if flag { act as leader { choose p in players as "p" { } } }
"""


def test_a_flag_set_from_a_hidden_card_may_not_decide_who_is_asked(tmp_path):
    found = leaks(tmp_path, FLAG.replace("{value}", "c != none and c.points > 3"))
    assert at(found) == [(10, 10)]  # `flag` in `if flag`, extra.yaml line 10
    _, _, message, hint = found[0]
    assert "`flag, written from hand by action peek at extra.yaml:6:7`" in message
    assert "announced(…)" in hint


def test_the_same_flag_announced_is_accepted(tmp_path):
    value = "announced(c != none and c.points > 3)"
    assert leaks(tmp_path, FLAG.replace("{value}", value)) == []


def test_a_flag_set_under_a_hidden_condition_holds_it_too(tmp_path):
    implicit = FLAG.replace("flag = {value}", "if c != none and c.points > 3 { flag = true }")
    assert at(leaks(tmp_path, implicit)) == [(10, 10)]
    announced = implicit.replace("if c != none", "if announced(c != none").replace(
        "> 3 {", "> 3) {"
    )
    assert leaks(tmp_path, announced) == []


def test_a_card_shown_to_the_table_first_is_no_secret(tmp_path):
    shown = FLAG.replace("flag = {value}", "move(c, pool)\n      flag = c.points > 3")
    assert leaks(tmp_path, shown) == []
    revealed = FLAG.replace("flag = {value}", "reveal(c)\n      flag = c.points > 3")
    assert leaks(tmp_path, revealed) == []
    only_to_me = FLAG.replace("flag = {value}", "reveal(c, to: me)\n      flag = c.points > 3")
    assert at(leaks(tmp_path, only_to_me)) == [(11, 10)]


COUNT = """
actions:
  count_high:
    params: {}
    effect: |
      gain(tally, {value})
  offer:
    params: {}
    effect: |
      if tally > 0 {
        may choose c in my.hand as "give" { move(c, pool) }
      }
"""


def test_a_counter_fed_from_a_hidden_count_may_not_decide_a_may_choose(tmp_path):
    found = leaks(tmp_path, COUNT.replace("{value}", "count(c in my.hand where c.points > 3)"))
    assert at(found) == [(9, 10)]
    assert "`tally, written from hand by action count_high" in found[0][2]


def test_the_same_counter_announced_is_accepted(tmp_path):
    value = "announced(count(c in my.hand where c.points > 3))"
    assert leaks(tmp_path, COUNT.replace("{value}", value)) == []
    # how many pieces a hand holds is public
    assert leaks(tmp_path, COUNT.replace("{value}", "count(my.hand)")) == []


RETURN = """
functions:
  top_points:
    params: {p: player}
    returns: number
    value: max([0] + filter(c.points for c in p.hand))
  high:
    returns: bool
    value: tally > 4
actions:
  note:
    params: {}
    effect: |
      tally = {value}
  ask:
    params: {}
    effect: |
      if high() { choose p in players as "p" { } }
"""


def test_a_value_through_a_functions_return_is_followed_both_ways(tmp_path):
    """Written from a function that reads a hand; read through a function that reads
    the counter."""
    found = leaks(tmp_path, RETURN.replace("{value}", "top_points(me)"))
    assert at(found) == [(17, 10)]
    assert "high() (tally, written from top_points() (hand) by action note" in found[0][2]
    assert leaks(tmp_path, RETURN.replace("{value}", "announced(top_points(me))")) == []


MARK = """
actions:
  remember:
    params: {}
    effect: |
      my.mark = {value}
  window:
    params: {}
    effect: |
      act as first(p in players where p.mark > 5) {
        choose p in players as "p" { }
      }
"""


def test_a_per_player_variable_may_not_name_who_is_asked(tmp_path):
    found = leaks(tmp_path, MARK.replace("{value}", "hand_points(me)"))
    assert at(found) == [(9, 14)]
    assert "`mark, written from hand_points() (hand) by action remember at" in found[0][2]
    assert leaks(tmp_path, MARK.replace("{value}", "announced(hand_points(me))")) == []


def test_hidden_values_are_followed_through_parameters_events_and_players(tmp_path):
    found = leaks(
        tmp_path,
        """
        events:
          scored: {params: {n: number}}
        actions:
          reward:
            params: {n: {type: number}}
            effect: tally += n
          start:
            params: {}
            effect: |
              do reward(n: hand_points(me))
              emit scored(n: count(c in my.vault where c.points > 1))
              if hand_points(me) > 3 { do mark_me() }
          mark_me:
            params: {}
            effect: my.mark = 1
          ask_tally:
            params: {}
            effect: while tally > 2 { choose p in players as "p" { tally -= 1 } }
          ask_mark:
            params: {}
            effect: for p in players where p.mark == 1 { act as p { choose q in players { } } }
        triggers:
          on_scored:
            on: scored
            effect: flag = n > 0
          on_flag:
            when: flag
            effect: choose p in players as "p" { }
        """,
    )
    assert [line for line, _, _, _ in found] == [18, 21, 27]
    assert (
        "`tally, written from n (given hand_points() (hand) by action start at extra.yaml:10:7)"
        " by action reward at extra.yaml:6:13`"
    ) in found[0][2]
    assert (
        "`mark, written from hand_points() (hand) (done by action start at extra.yaml:12:32)"
        " by action mark_me at extra.yaml:15:13`"
    ) in found[1][2]
    assert "`flag, written from n (given vault by action start" in found[2][2]


def test_a_card_moved_to_a_member_of_a_keyed_public_zone_is_shown(tmp_path):
    """`rows[k]` is a member of a keyed zone (``ruleset/keyed.py``): public as its family
    is, so a card moved there is shown, and one moved to a hidden family's member is not."""
    keyed = (
        "zones:\n"
        "  rows: {per: game, visibility: public, keys: [low, high]}\n"
        "  stash: {per: game, visibility: secret, keys: [low, high]}\n"
    )
    shown = FLAG.replace("flag = {value}", "move(c, rows['high'])\n      flag = c.points > 3")
    assert leaks(tmp_path, keyed + shown) == []
    hidden = FLAG.replace("flag = {value}", "move(c, stash['high'])\n      flag = c.points > 3")
    assert at(leaks(tmp_path, keyed + hidden)) == [(15, 10)]  # `flag` in `if flag`


def test_options_decide_whether_a_choice_without_may_is_asked(tmp_path):
    """With no legal option a choice without `may` is skipped: options that read a
    value written from hidden information decide whether it is asked."""
    content = """
    actions:
      peek:
        params: {}
        effect: flag = hand_points(me) > 3
      pick:
        params: {}
        effect: |
          {may}choose { option "yes" if flag { } option "no" if not flag and my.coins > 0 { } }
    """
    found = leaks(tmp_path, content.replace("{may}", ""))
    assert at(found) == [(8, 32), (8, 56)]
    assert leaks(tmp_path, content.replace("{may}", "may ")) == []


def test_the_final_scoring_writes_in_the_open(tmp_path):
    """At the final scoring every hidden thing is shown: what it writes holds nothing
    hidden (and no decision is checked there)."""
    found = leaks(
        tmp_path,
        """
        actions:
          ask:
            params: {}
            effect: if flag { choose p in players as "p" { } }
        """,
        scoring="""
            - id: reveal
              effect: |
                flag = hand_points(players[0]) > 3
        """,
    )
    assert found == []


@pytest.mark.parametrize(
    "ruleset", ["hanabi", "hearts", "queens-necklace", "reversi", "rococo", "sushi-go"]
)
def test_no_shipped_ruleset_is_refused(ruleset):
    found = [d for d in load(ROOT / "rulesets" / ruleset).diagnostics if d.kind == "secrecy"]
    assert found == []


def test_a_name_bound_by_a_loop_is_that_loops_own(tmp_path):
    """A `for` over a hand binds `t` for its block only: a choice elsewhere that binds
    `t` among public pieces writes nothing hidden (Rococo's Jewelry Box acquires this
    way: its tiles looped over after, a tile of the open storage bought before)."""
    found = leaks(
        tmp_path,
        """
        actions:
          take_one:
            params: {}
            effect: |
              choose t in pool.pieces as "take" { flag = t.points > 3 }
              for t in my.hand.pieces { gain(coins, 0) }
          ask:
            params: {}
            effect: if flag { choose p in players as "p" { } }
        """,
    )
    assert found == []


def test_a_players_variable_set_in_a_loop_and_an_action_done_as_a_hidden_player(tmp_path):
    """`p.mark = …` with `p` a loop's name writes the player's mark (not the local); an
    action done as a player chosen from hidden information writes as that player."""
    found = leaks(
        tmp_path,
        """
        actions:
          note_all:
            params: {}
            effect: for p in players { p.mark = hand_points(p) }
          crown:
            params: {}
            effect: |
              act as first(p in players where hand_points(p) > 5) { do bump() }
          bump:
            params: {}
            effect: gain(coins, 1)
          ask_mark:
            params: {}
            effect: for p in players where p.mark > 5 { act as p { choose q in players { } } }
          ask_coins:
            params: {}
            effect: for p in players where p.coins > 3 { act as p { choose q in players { } } }
        """,
    )
    assert at(found) == [(14, 36), (17, 36)]
    assert "`mark, written from hand_points() (hand) by action note_all" in found[0][2]
    assert "`coins, written from hand_points() (hand) (done by action crown" in found[1][2]


def test_whom_a_phase_asks_and_whether_the_game_goes_on(tmp_path):
    """A phase's `order` names who is asked; the `end` decides whether anyone is asked
    again: a name written from a hand may decide neither."""
    content = """
    actions:
      peek:
        params: {}
        effect: |
          leader = {leader}
          tally = {tally}
    """
    toy = (("rounds: {count: 2, counter: round}", "end: tally > 2\n  rounds: {count: 2}"),)
    hidden = content.replace("{leader}", "first(p in players where hand_points(p) > 3)")
    found = leaks(tmp_path, hidden.replace("{tally}", "count(my.hand.pieces)"), toy=toy)
    assert [line for line, _, message, _ in found] == [102]  # order: seat_order(leader)
    assert "`leader, written from hand_points() (hand) by action peek" in found[0][2]
    hidden = content.replace("{leader}", "first(players)")
    found = leaks(tmp_path, hidden.replace("{tally}", "hand_points(me)"), toy=toy)
    assert [line for line, _, message, _ in found] == [93]  # end: tally > 2
    announced = content.replace(
        "{leader}", "announced(first(p in players where hand_points(p) > 3))"
    )
    found = leaks(tmp_path, announced.replace("{tally}", "announced(hand_points(me))"), toy=toy)
    assert found == []


def test_a_write_after_a_stop_under_a_hidden_condition_holds_it(tmp_path):
    found = leaks(
        tmp_path,
        """
        actions:
          peek:
            params: {}
            effect: |
              for c in my.hand.pieces { if c.points > 5 { stop } }
              flag = true
          ask:
            params: {}
            effect: if flag { choose p in players as "p" { } }
        """,
    )
    assert at(found) == [(9, 16)]
    assert "`flag, written from hand by action peek at extra.yaml:6:7`" in found[0][2]
