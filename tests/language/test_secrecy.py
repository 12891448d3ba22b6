"""The secrecy check: a condition that reads hidden information may not decide
whether a decision is asked (who is asked is seen by everyone at the table)."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from interpreter.ruleset import load

TOY = Path(__file__).parents[1] / "engine" / "toy"
ROOT = Path(__file__).parents[2]


def toy_with(tmp_path: Path, content: str) -> list:
    """The toy ruleset plus one more content file; its diagnostics."""
    folder = tmp_path / "toy"
    shutil.copytree(TOY, folder)
    (folder / "extra.yaml").write_text(textwrap.dedent(content))
    manifest = folder / "ruleset.yaml"
    manifest.write_text(
        manifest.read_text().replace("include: [toy.yaml]", "include: [toy.yaml, extra.yaml]")
    )
    return load(folder).diagnostics


def secrecy(diagnostics) -> list[tuple[int, int, str]]:
    return [
        (d.location.line, d.location.column, d.message) for d in diagnostics if d.kind == "secrecy"
    ]


def test_a_condition_on_a_hand_that_guards_a_decision_is_reported_at_the_condition(tmp_path):
    found = secrecy(
        toy_with(
            tmp_path,
            """
            actions:
              peek:
                params: {}
                effect: |
                  if any(c in my.hand where c.points > 3) {
                    choose p in players as "target" { gain(coins, 1, to: p) }
                  }
            """,
        )
    )
    assert len(found) == 1
    line, column, message = found[0]
    assert (line, column) == (6, 10)  # `any(` inside the YAML string, extra.yaml line 6
    assert "`hand`" in message and "not every player can see" in message


def test_a_window_asked_only_of_the_holders_is_reported(tmp_path):
    found = secrecy(
        toy_with(
            tmp_path,
            """
            actions:
              window:
                params: {}
                effect: |
                  for p in players where any(c in p.hand where c.points == 1) {
                    act as p { may choose c in my.hand where c.points == 1 { move(c, pool) } }
                  }
              window_for_all:
                params: {}
                effect: |
                  for p in players where p.hand.size > 0 and count(p.hand) < 9 {
                    act as p { may choose c in my.hand where c.points == 1 { move(c, pool) } }
                  }
            """,
        )
    )
    assert [(line, column) for line, column, _ in found] == [(6, 30)]


def test_hidden_reads_are_followed_through_functions_locals_and_requirements(tmp_path):
    found = secrecy(
        toy_with(
            tmp_path,
            """
            functions:
              strong:
                params: {p: player}
                returns: bool
                value: hand_points(p) > 5
            actions:
              guarded:
                params: {}
                requires:
                  - {condition: any(c in my.vault), message: nothing in the vault}
                effect: move(my.vault.pieces, pool)
              by_function:
                params: {}
                effect: |
                  if strong(me) { choose p in players as "p" { } }
              by_local:
                params: {}
                effect: |
                  let t = my.hand.top
                  if t != none and t.points > 2 { do by_function() }
              by_can:
                params: {}
                effect: |
                  while can guarded() { may choose p in players as "p" { do guarded() } }
              untouched:
                params: {}
                effect: |
                  if strong(me) { gain(coins, 1) }
            """,
        )
    )
    messages = [message for _, _, message in found]
    assert len(found) == 3
    assert "strong() (hand_points() (hand))" in messages[0]
    assert "`t`" in messages[1]  # a local bound to the top of a hand
    assert "can guarded (vault)" in messages[2]


def test_chains_written_callers_first_are_followed_to_their_end(tmp_path):
    """Each pass of a fixed point finds one more link of a chain written callers first
    (the facts are solved walking again only what a newly found name reaches)."""
    found = secrecy(
        toy_with(
            tmp_path,
            """
            functions:
              first:
                params: {}
                returns: bool
                value: second()
              second:
                params: {}
                returns: bool
                value: third()
              third:
                params: {}
                returns: bool
                value: hand_points(me) > 5
            actions:
              outer:
                params: {}
                effect: do middle()
              middle:
                params: {}
                effect: do inner()
              inner:
                params: {}
                effect: choose p in players as "p" { }
              leaky:
                params: {}
                effect: |
                  if first() { do outer() }
              quiet:
                params: {}
                effect: |
                  if coins > 0 { do outer() }
            """,
        )
    )
    assert [message for _, _, message in found] == [
        "whether a decision is asked here depends on `first() (second() (third() "
        "(hand_points() (hand))))`, which not every player can see: at the table, who is "
        "asked would tell the others"
    ]


def test_announced_facts_and_public_counts_pass(tmp_path):
    found = secrecy(
        toy_with(
            tmp_path,
            """
            actions:
              draw_one:
                params: {}
                effect: |
                  draw(deck, my.hand)
                  let d = my.hand.top
                  if announced(d.points > 4) { choose p in players as "p" { } }
                  if my.hand.size > 2 and not my.vault.empty { choose p in players as "q" { } }
            """,
        )
    )
    assert found == []


def test_what_the_public_marks_say_of_a_hidden_card_may_decide_who_is_asked(tmp_path):
    """Marks (`mark`) are told to the whole table: reading them is no leak."""
    found = secrecy(
        toy_with(
            tmp_path,
            """
            actions:
              told:
                params: {}
                effect: |
                  let d = my.hand.top
                  if marked(d, 'points') == 4 { choose p in players as "p" { } }
                  if d.points == 4 { choose p in players as "q" { } }
            """,
        )
    )
    assert [message.split("`")[1] for _, _, message in found] == ["d"]  # the second `if` only


def test_a_trigger_that_fires_on_a_private_counter_is_reported(tmp_path):
    found = secrecy(
        toy_with(
            tmp_path,
            """
            triggers:
              wealthy:
                when: my.score > 3
                effect: |
                  choose p in players as "p" { }
            """,
        )
    )
    assert len(found) == 1 and "`score`" in found[0][2]


def test_the_old_cardinal_window_of_queens_necklace_is_refused(tmp_path):
    """The reaction window asked only of the players holding a Cardinal (before issue
    10) told everyone who held one; written again in a mod, it is an error there."""
    mod = tmp_path / "old-window.yaml"
    mod.write_text(
        textwrap.dedent(
            """
            overlay: {id: old_window, name: Old window, base: queens-necklace}
            extend:
              actions:
                merchant_revealed:
                  effect:
                    - id: old_window
                      before: main
                      effect: |
                        for p in others(current) where any(k in p.hand where k.role == 'cardinal') {
                          act as p { may choose k in my.hand where k.role == 'cardinal' { } }
                        }
            """
        )
    )
    loaded = load(ROOT / "rulesets" / "queens-necklace", mods=[mod])
    found = [d for d in loaded.diagnostics if d.kind == "secrecy"]
    assert len(found) == 1
    assert Path(found[0].location.path).name == "old-window.yaml"
    line = mod.read_text().splitlines()[found[0].location.line - 1]
    assert line[found[0].location.column - 1 :].startswith("any(k in p.hand")


@pytest.mark.parametrize("ruleset", ["rococo", "queens-necklace"])
def test_the_shipped_rulesets_keep_every_decision_secret(ruleset):
    assert secrecy(load(ROOT / "rulesets" / ruleset).diagnostics) == []


def test_who_is_asked_may_not_come_from_hidden_information(tmp_path):
    """`act as` and `choose … by` name the player asked, whom the table sees; the
    items of a `for` decide whom it asks, unless they are a zone's pieces (how many a
    zone holds is public)."""
    found = secrecy(
        toy_with(
            tmp_path,
            """
            actions:
              by_hand:
                params: {}
                effect: |
                  act as first(p in players where hand_points(p) > 5) { choose p in players { } }
              chosen_by:
                params: {}
                effect: |
                  choose p in players by first(q in players where hand_points(q) > 5) { }
              loop_over:
                params: {}
                effect: |
                  for p in filter(q in players where hand_points(q) > 5) {
                    act as p { choose c in my.hand { } }
                  }
              per_card:
                params: {}
                effect: |
                  for c in my.hand.pieces { choose p in players { } }
            """,
        )
    )
    # the last: `act as p`, p bound to the items of the loop before
    assert [(line, column) for line, column, _ in found] == [(6, 14), (10, 30), (14, 16), (15, 16)]


def test_a_stop_under_a_hidden_condition_decides_what_follows(tmp_path):
    """What follows a `stop` runs only if the condition over it did not hold: a
    decision there is asked because of it."""
    found = secrecy(
        toy_with(
            tmp_path,
            """
            actions:
              early_out:
                params: {}
                effect: |
                  if hand_points(me) > 3 { stop }
                  choose p in players as "p" { }
              public_out:
                params: {}
                effect: |
                  if my.hand.size > 3 { stop }
                  choose p in players as "p" { }
            """,
        )
    )
    assert [(line, column) for line, column, _ in found] == [(6, 10)]
