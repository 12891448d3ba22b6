"""`rules replay LOG --transcript [--as PLAYER]`: the game as readable lines.

On the example log and on real logs written by `rules play` (conftest.py): headings
for the rounds and phases, one numbered line per event in the rules' words, the
result table, the reason where an illegal log fails; and with `--as P1` nothing of
what P1 may not know (checked against P1's own views, position by position).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rules_test_support import ROOT

from interpreter.engine.view import view
from interpreter.log.replay import replay

EXAMPLE = ROOT / "examples" / "logs" / "rococo-2p-handwritten.jsonl"
NUMBERED = re.compile(r"^\s*(\d+)\. (.*)$")
PIECE_ID = re.compile(r"\b[A-Z]\d+(?:-\d+)?\b")  # Rococo's component ids: E13, T44, D02, S4-1


def by_event(output: str) -> dict[int, list[str]]:
    """The transcript's lines by the event they belong to (reveal lines: the event
    they follow)."""
    lines: dict[int, list[str]] = {}
    current = 0
    for text in output.splitlines():
        match = NUMBERED.match(text)
        if match and not text.startswith(" 1. ") and text.startswith(" "):
            current = int(match.group(1))
        if text.startswith("== ") or not text.strip():
            continue
        lines.setdefault(current, []).append(text)
    return lines


def positions(path: Path, seat: int):
    """Per position n: the pieces in P2's hand, and the JSON of ``seat``'s view."""
    hands, views = [], []

    def hook(n, game, chance):
        hands.append(set(game.state.zones.get("hand#1", ())))
        views.append(json.dumps(view(game, seat)))

    verdict = replay(path, on_position=hook)
    assert verdict.kind == "legal", verdict.message
    return hands, views


@pytest.fixture(scope="module")
def game(kit):
    return kit.play(2, 5)


def test_the_example_log_reads_as_a_story(kit):
    result = kit.replay(EXAMPLE, "--transcript")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("== Setup ==")
    assert "\n== Round 1: Prepare the round ==\n" in out
    assert "\n== Round 1: Choose 3 employees ==\n" in out
    assert "\n== Final scoring ==\n" in out
    assert "   1. shuffle sorting: E27 E28 E23 E26 E25 E24" in out
    assert "   7. draw resource_pile: T36 (resource: " in out and "→ s_storage1" in out
    assert "  22. Ann: take S1-1 (employee: level 0, type master)" in out
    assert "  30. Ann: take T44 (resource: silk blue:2, bottom lace)" in out
    assert " 343. checkpoint: prestige Ann 57, Bob 72" in out
    assert kit.scores_in_table(out) == {"Bob": 72, "Ann": 57}
    numbered = [int(m.group(1)) for t in out.splitlines() if (m := NUMBERED.match(t))]
    assert [n for n in numbered if n > 2][: 343 - 2] == list(range(3, 344))


def test_as_a_player_the_others_secret_choices_are_hidden(kit):
    result = kit.replay(EXAMPLE, "--transcript", "--as", "Ann")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "   1. shuffle sorting: 6 pieces, order hidden" in out
    # one line per secret choice, and nothing more of it once the step is over
    assert "\n  25. Bob chose in secret\n" in out
    assert "(event 25)" not in out and "Bob's choice" not in out
    assert "S2-2" not in "\n".join(out.splitlines()[:40])  # taken into Bob's hand
    assert "  49. Bob: play S2-2 (employee: level 0, type master)" in out  # played face up
    assert "  22. Ann: take S1-1" in out  # her own choices she sees
    full = kit.replay(EXAMPLE, "--transcript").output
    assert "  25. Bob: take S2-2" in full


def test_as_p1_no_piece_of_p2s_hand_appears_while_it_is_there(kit, game):
    """Until it is played face up, a piece P2 took into their hand is never named."""
    hands, views = positions(game.path, 0)
    full = by_event(kit.replay(game.path, "--transcript").output)
    shown = kit.replay(game.path, "--transcript", "--as", "P1")
    assert shown.exit_code == 0, shown.output
    redacted = by_event(shown.output)
    leaks, full_mentions = [], 0
    for n, lines in redacted.items():
        at = min(n, len(hands) - 1)
        # in P2's hand after the event, and P1 does not know it is there (a piece hired
        # from the open display into the hand is known: P1 saw it go)
        secret = {p for p in hands[at] if f'"{p}"' not in views[at]}
        for text in lines:
            leaks += [(n, text) for piece in PIECE_ID.findall(text) if piece in secret]
        full_mentions += sum(
            1 for text in full.get(n, []) for piece in PIECE_ID.findall(text) if piece in secret
        )
    assert not leaks, leaks[:5]
    assert full_mentions > 5  # the full transcript does name them: the test has teeth


def test_as_p1_the_transcript_says_no_more_than_p1s_views(kit, game):
    _, views = positions(game.path, 0)
    redacted = by_event(kit.replay(game.path, "--transcript", "--as", "P1").output)
    last = len(views) - 1
    for n, lines in redacted.items():
        if n == 0 or n > last:
            continue
        seen = views[n - 1] + views[n]
        for text in lines:
            for piece in PIECE_ID.findall(text):
                assert f'"{piece}"' in seen, f"event {n}: {text}"


def test_an_illegal_log_shows_the_reason_at_its_event(kit, game, tmp_path):
    evts = kit.events(game.lines)
    middle = len(evts) // 2
    line, event = next((ln, e) for ln, e in evts[middle:] if "choice" in e)
    lines = list(game.lines)
    lines[line - 1] = json.dumps({**event, "choice": "no such option"})
    bad = kit.write(tmp_path, "bad.jsonl", lines)
    result = kit.replay(bad, "--transcript")
    assert result.exit_code == 1, result.output
    out = result.output.splitlines()
    assert out[-2].lstrip().startswith(f"{event['n']}. {event['player']}: ")
    assert out[-1].lstrip().startswith(f"error: line {line}: illegal: ")
    assert NUMBERED.match(out[-3]) and int(NUMBERED.match(out[-3]).group(1)) == event["n"] - 1


def test_an_unknown_player_is_refused(kit):
    result = kit.replay(EXAMPLE, "--transcript", "--as", "Zoe")
    assert result.exit_code == 2
    assert "no player 'Zoe'" in result.output


def test_one_kind_of_output_at_a_time(kit, tmp_path):
    result = kit.replay(EXAMPLE, "--transcript", "--html", str(tmp_path / "x.html"))
    assert result.exit_code == 2
    assert "give one of" in result.output


# ------------------------------------------------------------- what events did
def test_each_event_says_what_it_did(kit):
    out = kit.replay(EXAMPLE, "--transcript").output
    assert "  60. Ann: bonus [+2 livres]\n" in out  # the bonus's livres, not a bare "bonus"
    assert "  59. Ann: favour [+5 livres; favour_card favour_space → Ann's favour]\n" in out
    assert (
        "  63. Bob: fund s_fountain_bottom1 (fountain_bottom: price 6, prestige 1, position 1)"
        " [-6 livres; Bob's marker on s_fountain_bottom1]\n"
    ) in out
    assert "   1. shuffle sorting: E27 E28 E23 E26 E25 E24\n" in out  # the setup: no brackets


def test_as_a_player_what_events_did_is_what_they_may_see(kit):
    ann = by_event(kit.replay(EXAMPLE, "--transcript", "--as", "Ann").output)
    full = by_event(kit.replay(EXAMPLE, "--transcript").output)
    assert ann[25] == ["  25. Bob chose in secret"]  # nothing of what the secret choice did
    # event 72 opens the secret choice of employees, in which Bob's cards come back to
    # his hand: the full transcript tells it, Ann's says nothing of what it did
    assert "S1-2, S5-2 Bob's reserve → Bob's hand" in full[72][0]
    assert "[" not in ann[72][0]


def test_a_piece_moved_out_of_sight_is_counted(kit):
    """A tile going from the face-down pile to Bob's tiles (private): Ann reads "1 piece
    resource_pile → Bob's tiles"; the full reading names it."""
    from interpreter.log.effects import changes
    from interpreter.log.transcript import read_game

    reading = read_game(EXAMPLE, as_player="Ann")
    before = reading.stops[40]
    tile = next(p for p, zone in before.where.items() if zone == "resource_pile")
    fields = {k: getattr(before, k) for k in before.__dataclass_fields__}
    after = type(before)(**{**fields, "where": {**before.where, tile: "tiles#1"}})
    place = {"resource_pile": "resource_pile", "tiles#1": "Bob's tiles"}.get
    assert changes(reading, place, before, after) == "1 piece resource_pile → Bob's tiles"
    reading.seat = None
    assert changes(reading, place, before, after) == f"{tile} resource_pile → Bob's tiles"


def test_a_private_counter_of_another_player_is_not_told():
    """Bob's prestige is private: Ann's reading says nothing of it before the scoring."""
    from interpreter.log.effects import changes
    from interpreter.log.transcript import read_game

    reading = read_game(EXAMPLE, as_player="Ann")
    before = reading.stops[40]
    assert not before.everything
    after = type(before)(
        **{
            **{k: getattr(before, k) for k in before.__dataclass_fields__},
            "counters": {**before.counters, "prestige#1": 5, "prestige#0": 2, "livres#1": 1},
        }
    )
    said = changes(reading, str, before, after, actor="Ann")
    assert said.startswith("+2 prestige; Bob ") and "livres" in said
    assert "Bob" in said and "prestige" not in said.split("; Bob ")[1]
    reading.seat = None  # the full transcript tells it
    assert "Bob " in changes(reading, str, before, after, actor="Ann")
    assert "prestige" in changes(reading, str, before, after, actor="Ann").split("; Bob ")[1]


def test_a_spectator_reads_only_what_every_player_may_know():
    """``read_live_game(game, None)`` (``rules serve``'s spectators) names no piece that
    some player's own reading does not name: not a hand dealt in secret, not a card
    drawn in secret. Before it, None read the game as an omniscient reader would."""
    from interpreter.agents import make
    from interpreter.engine.game import Game
    from interpreter.log.transcript import read_live_game
    from interpreter.ruleset import load_or_raise

    game = Game(load_or_raise("queens-necklace", [], []), ["P1", "P2", "P3"], seed=7)
    agents = [make("random", seat, 7) for seat in range(3)]
    while len(game.events) < 120 and not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
    pieces = set(game.ruleset.pieces)

    def named(seat: int | None) -> set[str]:
        text = " ".join(line.text for line in read_live_game(game, seat).lines)
        return pieces & set(re.findall(r"[\w-]+", text))

    watched = named(None)
    every_seat = set.intersection(*(named(seat) for seat in range(3)))
    assert watched and watched <= every_seat, watched - every_seat
    hand = game.state.zones["hand#0"]
    assert hand and not watched & set(hand) - every_seat
