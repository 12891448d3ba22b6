"""`rules replay LOG`: one test per verdict of ../shared/spec/game-log.md, on real logs.

Every log here was written by `rules play rococo --players N --seed S --log FILE` (see
conftest.py) and then changed by the test: a decision replaced in the middle of the
game, a draw naming a tile that is not in the pile, the final checkpoint edited, the
file cut short, a line broken. Comment and blank lines are sprinkled into most logs
first, so a line number in a message is the FILE's line, not the event's `n` + 1.

Tests marked ``xfail(strict=True)`` state the behaviour replay SHOULD have and does not
have yet; each reason says what it does instead.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

STARTING_APPRENTICES = re.compile(r"^play S[45]-\d+$")  # S4, S5: the starting apprentices
SCORE_STEPS = ("play", "livres", "endgame", "halls", "fireworks", "terrace", "statues", "markers")


# --------------------------------------------------------------------------- helpers
def _middle(kit, lines: list[str]) -> list[tuple[int, int, dict[str, Any]]]:
    """(index in events, file line, event) for the events of the middle third of the game."""
    evts = kit.events(lines)
    third = len(evts) // 3
    return [(i, line, e) for i, (line, e) in enumerate(evts) if third <= i < 2 * third]


def _apprentice_action(kit, lines: list[str]) -> tuple[int, dict[str, Any]] | None:
    """The file line and event of a main-action choice made with a starting apprentice."""
    evts = kit.events(lines)
    for i, _line, event in _middle(kit, lines):
        if "choice" in event and STARTING_APPRENTICES.match(event["choice"]):
            line2, nxt = evts[i + 1]
            if nxt.get("player") == event["player"] and "choice" in nxt:
                return line2, nxt
    return None


def _replace(lines: list[str], line: int, **changes: Any) -> list[str]:
    out = list(lines)
    data = json.loads(out[line - 1])
    data.update(changes)
    out[line - 1] = json.dumps(data, ensure_ascii=False)
    return out


def _pending_before(kit, tmp_path: Path, lines: list[str], line: int) -> list[dict[str, Any]]:
    """What replay says is pending when the log is cut just before ``line``."""
    cut = kit.write(tmp_path, "cut-before.jsonl", lines[: line - 1])
    result, data = kit.replay_json(cut)
    assert result.exit_code == 3, result.output
    return data["pending"]


@pytest.fixture(scope="module")
def game2(kit):
    """A 2-player game whose log has an apprentice's main action in the middle."""
    for seed in range(1, 40):
        played = kit.play(2, seed)
        if _apprentice_action(kit, played.lines) is not None:
            return played
    raise AssertionError("no 2-player game with an apprentice's main action mid-game")


@pytest.fixture(scope="module")
def game3(kit):
    return kit.play(3, 7)


@pytest.fixture
def commented(kit, game2) -> list[str]:
    return kit.with_comments(game2.lines)


# ------------------------------------------------------------------ 0: legal, complete
def test_complete_game_is_legal_and_prints_the_played_scores(kit, game3):
    result = kit.replay(game3.path)

    assert result.exit_code == 0, result.output
    assert "legal and complete" in result.stdout
    assert kit.scores_in_table(result.stdout) == game3.scores
    lines = result.stdout.splitlines()
    header = next(line for line in lines if line.split()[:2] == ["player", "prestige"])
    silent = next((line for line in lines if line.startswith("no prestige for anyone")), "")
    for step in SCORE_STEPS[1:]:  # the breakdown by final scoring step: a column, or
        assert step in header.split() or step in silent  # named as giving nobody points


def test_complete_game_with_comments_is_legal(kit, tmp_path, game2):
    path = kit.write(tmp_path, "commented.jsonl", kit.with_comments(game2.lines))
    result = kit.replay(path)
    assert result.exit_code == 0, result.output
    assert kit.scores_in_table(result.stdout) == game2.scores


def test_complete_game_json_has_the_result_of_play(kit, game3):
    result, data = kit.replay_json(game3.path)
    assert result.exit_code == 0
    assert data["verdict"] == "legal"
    assert data["exit_code"] == 0
    assert data["result"]["scores"] == game3.scores
    assert data["result"]["breakdown"] == game3.result["breakdown"]
    assert data["result"]["ranking"] == game3.result["ranking"]


# ----------------------------------------------------------------- 1: illegal decision
def test_apprentice_cannot_sew_mid_game(kit, tmp_path, game2, commented):
    line, _event = _apprentice_action(kit, commented)
    options = _pending_before(kit, tmp_path, commented, line)[0]["options"]
    assert "sew" not in options
    path = kit.write(tmp_path, "sew.jsonl", _replace(commented, line, choice="sew"))

    result = kit.replay(path)

    assert result.exit_code == 1, result.output
    out = result.stdout.splitlines()
    error = next(o for o in out if ": error: " in o)
    assert error.startswith(f"{path}:{line}: error: illegal: ")
    assert "sew" in error and "apprentice" in error  # names the option and the rule
    assert '"choice": "sew"' in result.stdout  # the event is shown
    assert f"    legal options there: {', '.join(options)}" in out


def test_take_a_tile_that_is_not_in_storage(kit, tmp_path, game2, commented):
    line, event = next(
        (line, e)
        for _, line, e in _middle(kit, commented)
        if e.get("choice", "").startswith("take T")
    )
    options = _pending_before(kit, tmp_path, commented, line)[0]["options"]
    path = kit.write(tmp_path, "t99.jsonl", _replace(commented, line, choice="take T99"))

    result = kit.replay(path)

    assert result.exit_code == 1, result.output
    error = next(o for o in result.stdout.splitlines() if ": error: " in o)
    assert error.startswith(f"{path}:{line}: error: illegal: ")
    assert "'take T99'" in error
    assert event["choice"] in options
    assert "legal options there: " + ", ".join(options) in result.stdout


def test_illegal_decision_as_json(kit, tmp_path, commented):
    line, _ = _apprentice_action(kit, commented)
    options = _pending_before(kit, tmp_path, commented, line)[0]["options"]
    path = kit.write(tmp_path, "sew.jsonl", _replace(commented, line, choice="sew"))

    result, data = kit.replay_json(path)

    assert result.exit_code == 1
    assert data["verdict"] == "illegal"
    assert data["exit_code"] == 1
    assert data["line"] == line
    assert data["event"]["choice"] == "sew"
    assert data["options"] == options
    assert "sew" in data["reason"]


def test_decision_by_a_player_whose_turn_it_is_not(kit, tmp_path, commented):
    line, event = _apprentice_action(kit, commented)
    other = "P2" if event["player"] == "P1" else "P1"
    path = kit.write(tmp_path, "other.jsonl", _replace(commented, line, player=other))

    result, data = kit.replay_json(path)

    assert result.exit_code == 1
    assert data["verdict"] == "illegal"
    assert data["line"] == line
    assert f"{other} has no decision to make now (waiting for: {event['player']})" in data["reason"]
    assert event["choice"] in data["options"]


def test_unknown_player(kit, tmp_path, commented):
    line, _ = _apprentice_action(kit, commented)
    path = kit.write(tmp_path, "zed.jsonl", _replace(commented, line, player="Zed"))
    result, data = kit.replay_json(path)
    assert result.exit_code == 1
    assert (data["verdict"], data["line"]) == ("illegal", line)
    assert "Zed" in data["reason"]


def test_decision_after_the_game_is_over(kit, tmp_path, game2):
    lines = game2.lines
    last = json.loads(lines[-1])
    extra = json.dumps({"n": last["n"] + 1, "player": "P1", "choice": "no action"})
    path = kit.write(tmp_path, "after.jsonl", [*lines, extra])
    result, data = kit.replay_json(path)
    assert result.exit_code == 1
    assert data["line"] == len(lines) + 1
    assert "over" in data["reason"]


def test_chance_line_where_a_decision_is_due(kit, tmp_path, commented):
    line, event = _apprentice_action(kit, commented)
    lines = _replace(commented, line, chance="draw dress_bag", outcome=["D01"])
    data = json.loads(lines[line - 1])
    del data["player"], data["choice"]
    lines[line - 1] = json.dumps(data)
    path = kit.write(tmp_path, "chance.jsonl", lines)
    result, verdict = kit.replay_json(path)
    assert result.exit_code == 1
    assert verdict["line"] == line
    assert event["player"] in verdict["reason"]


def test_decision_where_a_chance_outcome_is_due(kit, tmp_path, commented):
    line, event = next(
        (line, e)
        for _, line, e in _middle(kit, commented)
        if e.get("chance") == "draw resource_pile"
    )
    lines = list(commented)
    lines[line - 1] = json.dumps({"n": event["n"], "player": "P1", "choice": "no action"})
    path = kit.write(tmp_path, "decision.jsonl", lines)
    result, verdict = kit.replay_json(path)
    assert result.exit_code == 1
    assert verdict["line"] == line
    assert "draw resource_pile" in verdict["reason"]


# ----------------------------------------------------------- 1: impossible chance outcome
def _repeated_draw(kit, lines: list[str]) -> tuple[int, str, str]:
    """A 'draw resource_pile' right after another: (line, tile drawn just before, real tile)."""
    evts = kit.events(lines)
    for i, line, event in _middle(kit, lines):
        before = evts[i - 1][1]
        if event.get("chance") == "draw resource_pile" == before.get("chance"):
            return line, before["outcome"][0], event["outcome"][0]
    raise AssertionError("no two consecutive resource draws in the middle of the game")


def test_draw_of_a_tile_that_is_not_in_the_pile(kit, tmp_path, commented):
    # the tile drawn by the line before went to a storage section: it is not in the pile
    line, gone, _ = _repeated_draw(kit, commented)
    path = kit.write(tmp_path, "draw.jsonl", _replace(commented, line, outcome=[gone]))

    result = kit.replay(path)

    assert result.exit_code == 1, result.output
    error = next(o for o in result.stdout.splitlines() if ": error: " in o)
    assert error.startswith(f"{path}:{line}: error: impossible chance outcome: ")
    assert f"{gone} is not in resource_pile" in error


def test_draw_of_a_dress_that_does_not_exist(kit, tmp_path, commented):
    line, _ = next(
        (line, e) for _, line, e in _middle(kit, commented) if e.get("chance") == "draw dress_bag"
    )
    path = kit.write(tmp_path, "dress.jsonl", _replace(commented, line, outcome=["D99"]))
    result, data = kit.replay_json(path)
    assert result.exit_code == 1
    assert (data["verdict"], data["line"]) == ("impossible", line)
    assert "D99 is not in dress_bag" in data["reason"]


def test_draw_of_two_tiles_where_one_is_drawn(kit, tmp_path, commented):
    line, _gone, real = _repeated_draw(kit, commented)
    path = kit.write(tmp_path, "two.jsonl", _replace(commented, line, outcome=[real, "T99"]))
    result, data = kit.replay_json(path)
    assert result.exit_code == 1
    assert (data["verdict"], data["line"]) == ("impossible", line)


def test_shuffle_that_is_not_an_order_of_the_cards(kit, tmp_path, commented):
    line, event = kit.events(commented)[0]
    assert event["chance"] == "shuffle sorting"
    wrong = [event["outcome"][0], *event["outcome"][:-1]]  # one card twice, one missing
    path = kit.write(tmp_path, "shuffle.jsonl", _replace(commented, line, outcome=wrong))
    result, data = kit.replay_json(path)
    assert result.exit_code == 1
    assert (data["verdict"], data["line"]) == ("impossible", line)
    assert "shuffle sorting" in data["reason"]


def test_chance_of_the_wrong_kind(kit, tmp_path, commented):
    line, _event = next(
        (line, e)
        for _, line, e in _middle(kit, commented)
        if e.get("chance") == "draw resource_pile"
    )
    path = kit.write(tmp_path, "kind.jsonl", _replace(commented, line, chance="draw dress_bag"))
    result, data = kit.replay_json(path)
    assert result.exit_code == 1
    assert data["line"] == line
    assert "'draw resource_pile'" in data["reason"] and "'draw dress_bag'" in data["reason"]


def test_impossible_draw_lists_the_possible_outcomes(kit, tmp_path, commented):
    line, gone, real = _repeated_draw(kit, commented)
    path = kit.write(tmp_path, "draw.jsonl", _replace(commented, line, outcome=[gone]))
    result, data = kit.replay_json(path)
    assert result.exit_code == 1
    assert real in data.get("options", [])  # the tile really drawn there was possible
    assert gone not in data.get("options", [])


# ---------------------------------------------------------------- 1: checkpoint mismatch
def test_final_scores_checkpoint_mismatch(kit, tmp_path, game2, commented):
    line = len(commented)
    last = json.loads(commented[-1])
    assert "scores" in last
    true = last["scores"]["P1"]
    path = kit.write(
        tmp_path,
        "scores.jsonl",
        _replace(commented, line, scores={**last["scores"], "P1": true + 5}),
    )

    result = kit.replay(path)

    assert result.exit_code == 1, result.output
    error = next(o for o in result.stdout.splitlines() if ": error: " in o)
    assert error.startswith(f"{path}:{line}: error: checkpoint mismatch: ")
    assert f"P1: the log says {true + 5}, the replay has {true}" in error
    assert game2.scores["P1"] == true


def test_checkpoint_naming_an_unknown_player(kit, tmp_path, commented):
    line = len(commented)
    path = kit.write(tmp_path, "who.jsonl", _replace(commented, line, scores={"Zed": 1}))
    result, data = kit.replay_json(path)
    assert result.exit_code == 1
    assert (data["verdict"], data["line"]) == ("mismatch", line)
    assert "Zed" in data["reason"]


def test_state_digest_checkpoint_mismatch(kit, tmp_path, game2):
    lines = list(game2.lines)
    at = len(lines) // 2
    wrong = "sha256:" + "0" * 64
    lines.insert(at, json.dumps({"n": 0, "state_digest": wrong}))
    path = kit.write(tmp_path, "digest.jsonl", kit.renumber(lines))
    result, data = kit.replay_json(path)
    assert result.exit_code == 1
    assert (data["verdict"], data["line"]) == ("mismatch", at + 1)
    assert wrong in data["reason"]
    assert re.search(r"the replay has sha256:[0-9a-f]{64}", data["reason"])


def test_matching_mid_game_checkpoint_passes(kit, tmp_path, game2):
    # before the first decision every player has 0 prestige
    lines = list(game2.lines)
    first = next(i for i, text in enumerate(lines) if '"choice"' in text)
    lines.insert(first, json.dumps({"n": 0, "scores": {"P1": 0, "P2": 0}}))
    path = kit.write(tmp_path, "early.jsonl", kit.renumber(lines))
    result = kit.replay(path)
    assert result.exit_code == 0, result.output


# -------------------------------------------------------------------- 3: log ends early
def _cut_before_decision(kit, lines: list[str]) -> tuple[int, dict[str, Any]]:
    """A line in the middle holding a decision that follows another decision."""
    evts = kit.events(lines)
    for i, line, event in _middle(kit, lines):
        if "choice" in event and "choice" in evts[i - 1][1]:
            return line, event
    raise AssertionError("no decision after a decision in the middle of the game")


def test_truncated_log_shows_the_pending_decision(kit, tmp_path, commented):
    line, event = _cut_before_decision(kit, commented)
    path = kit.write(tmp_path, "short.jsonl", commented[: line - 1])

    result = kit.replay(path)

    assert result.exit_code == 3, result.output
    out = result.stdout.splitlines()
    assert out[0].startswith(f"{path}: the log ends before the game does")
    waiting = next(i for i, o in enumerate(out) if o.startswith(f"waiting for {event['player']}"))
    listed = []
    for text in out[waiting + 1 :]:
        if not text.startswith("  "):
            break
        listed.append(text.strip())
    assert event["choice"] in listed  # the option the full log took is one of them
    assert "round:" in result.stdout  # the position reached


def test_truncated_log_as_json(kit, tmp_path, commented):
    line, event = _cut_before_decision(kit, commented)
    path = kit.write(tmp_path, "short.jsonl", commented[: line - 1])
    result, data = kit.replay_json(path)
    assert result.exit_code == 3
    assert data["verdict"] == "incomplete"
    assert data["exit_code"] == 3
    assert data["pending"][0]["player"] == event["player"]
    assert event["choice"] in data["pending"][0]["options"]


def test_log_without_final_lines_ends_during_scoring_or_play(kit, tmp_path, game2):
    # the whole game but the last decision and the final checkpoint
    lines = game2.lines
    last_decision = max(i for i, text in enumerate(lines) if '"choice"' in text)
    path = kit.write(tmp_path, "almost.jsonl", lines[:last_decision])
    result, data = kit.replay_json(path)
    assert result.exit_code == 3
    assert data["pending"]


def test_header_only_log_is_incomplete(kit, tmp_path, game2):
    path = kit.write(tmp_path, "header.jsonl", game2.lines[:1])
    result, data = kit.replay_json(path)
    assert result.exit_code == 3
    assert data["verdict"] == "incomplete"
    assert "shuffle sorting" in data["reason"]  # the chance outcome the game needs first


def test_suggest_gives_the_next_decision_line(kit, tmp_path, commented):
    line, event = _cut_before_decision(kit, commented)
    path = kit.write(tmp_path, "short.jsonl", commented[: line - 1])
    result = kit.replay(path, "--suggest")
    assert result.exit_code == 3
    out = result.stdout.splitlines()
    suggested = json.loads(out[out.index("next line, for example:") + 1])
    assert suggested["n"] == event["n"]
    assert suggested["player"] == event["player"]
    pending = _pending_before(kit, tmp_path, commented, line)
    assert suggested["choice"] in pending[0]["options"]


def test_truncated_message_is_not_repeated(kit, tmp_path, commented):
    line, _ = _cut_before_decision(kit, commented)
    path = kit.write(tmp_path, "short.jsonl", commented[: line - 1])
    result = kit.replay(path)
    assert result.stdout.splitlines()[0].count("the log ends before the game does") == 1


def test_suggest_proposes_the_chance_line_that_comes_next(kit, tmp_path, commented):
    evts = kit.events(commented)
    line = next(
        line
        for i, (line, e) in enumerate(evts[len(evts) // 3 :], start=len(evts) // 3)
        if e.get("chance") == "draw resource_pile" and "choice" in evts[i - 1][1]
    )
    path = kit.write(tmp_path, "chance-next.jsonl", commented[: line - 1])
    result = kit.replay(path, "--suggest")
    assert result.exit_code == 3
    assert "next line, for example:" in result.stdout
    assert '"chance": "draw resource_pile"' in result.stdout


# ------------------------------------------------------------------- 1: malformed log
def test_bad_json(kit, tmp_path, commented):
    line, _ = _cut_before_decision(kit, commented)
    lines = list(commented)
    lines[line - 1] = lines[line - 1][:-2]  # cut the closing quote and brace
    path = kit.write(tmp_path, "bad.jsonl", lines)

    result = kit.replay(path)

    assert result.exit_code == 1, result.output
    assert result.stdout.startswith(f"{path}:{line}: error: malformed log: bad JSON")


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"n": "x"}, "(at n)"),
        ({"n": 0}, "(at n)"),
        ({"choice": 7}, "(at choice)"),
        ({"player": ""}, "(at player)"),
    ],
    ids=["n-text", "n-zero", "choice-number", "player-empty"],
)
def test_schema_violation(kit, tmp_path, commented, change, where):
    line, _ = _cut_before_decision(kit, commented)
    path = kit.write(tmp_path, "schema.jsonl", _replace(commented, line, **change))
    result = kit.replay(path)
    assert result.exit_code == 1, result.output
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"{path}:{line}: error: malformed log: ")
    assert where in first


def test_outcome_that_is_not_a_list(kit, tmp_path, commented):
    line, _ = next((line, e) for _, line, e in _middle(kit, commented) if "chance" in e)
    path = kit.write(tmp_path, "outcome.jsonl", _replace(commented, line, outcome="T01"))
    result = kit.replay(path)
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{path}:{line}: error: malformed log: ")


def test_event_numbers_must_be_consecutive(kit, tmp_path, commented):
    line, event = _cut_before_decision(kit, commented)
    path = kit.write(tmp_path, "gap.jsonl", _replace(commented, line, n=event["n"] + 1))
    result, data = kit.replay_json(path)
    assert result.exit_code == 1
    assert (data["verdict"], data["line"]) == ("malformed", line)
    assert f"n={event['n'] + 1}" in data["reason"] and f"n={event['n']}" in data["reason"]


def test_line_that_is_no_event(kit, tmp_path, commented):
    line, event = _cut_before_decision(kit, commented)
    lines = list(commented)
    lines[line - 1] = json.dumps({"n": event["n"], "move": "e2e4"})
    path = kit.write(tmp_path, "noevent.jsonl", lines)
    result = kit.replay(path)
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{path}:{line}: error: malformed log: ")


def test_wrong_ruleset_id(kit, tmp_path, game2):
    lines = game2.lines
    header = json.loads(lines[0])
    header["ruleset"] = "rococco"
    path = kit.write(tmp_path, "ruleset.jsonl", [json.dumps(header), *lines[1:]])
    result = kit.replay(path)
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{path}:1: error: missing ruleset: unknown ruleset 'rococco'")


def test_header_format_must_be_rules_log_1(kit, tmp_path, game2):
    lines = game2.lines
    header = json.loads(lines[0])
    header["format"] = "rules-log/2"
    path = kit.write(tmp_path, "format.jsonl", [json.dumps(header), *lines[1:]])
    result = kit.replay(path)
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{path}:1: error: malformed log: ")


def test_player_count_outside_the_ruleset(kit, tmp_path, game2):
    lines = game2.lines
    header = json.loads(lines[0])
    header["players"] = ["P1"]
    path = kit.write(tmp_path, "solo.jsonl", [json.dumps(header), *lines[1:]])
    result = kit.replay(path)
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{path}:1: error: malformed log: ")
    assert "2-5 players" in result.stdout


def test_empty_file(kit, tmp_path):
    path = kit.write(tmp_path, "empty.jsonl", ["# nothing but a comment"])
    result = kit.replay(path)
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{path}:1: error: malformed log: ")


# ------------------------------------------------------- ruleset version, digest, keys
def _header(lines: list[str], drop_digest: bool = True, **changes: Any) -> list[str]:
    header = json.loads(lines[0])
    if drop_digest:
        header.pop("ruleset_digest", None)  # optional; keeps --strict about the change tested
    header.update(changes)
    return [json.dumps(header), *lines[1:]]


def test_unknown_ruleset_version_is_a_warning(kit, tmp_path, game2):
    path = kit.write(tmp_path, "version.jsonl", _header(game2.lines, ruleset_version="9.9.9"))
    result = kit.replay(path)
    assert result.exit_code == 0, result.output
    assert f"{path}:1: warning: the log was written for rococo 9.9.9" in result.stderr
    assert kit.scores_in_table(result.stdout) == game2.scores


def test_unknown_ruleset_version_fails_with_strict(kit, tmp_path, game2):
    path = kit.write(tmp_path, "version.jsonl", _header(game2.lines, ruleset_version="9.9.9"))
    result = kit.replay(path, "--strict")
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{path}:1: error: malformed log: ")
    assert "9.9.9" in result.stdout


def test_other_ruleset_digest_warns_and_fails_with_strict(kit, tmp_path, game2):
    lines = _header(game2.lines, drop_digest=False, ruleset_digest="sha256:" + "1" * 64)
    path = kit.write(tmp_path, "digest.jsonl", lines)
    result = kit.replay(path)
    assert result.exit_code == 0
    assert f"{path}:1: warning: " in result.stderr and "digest" in result.stderr
    strict = kit.replay(path, "--strict")
    assert strict.exit_code == 1
    assert strict.stdout.startswith(f"{path}:1: error: ")


def test_header_without_digest_or_seed_is_fine_with_strict(kit, tmp_path, game2):
    lines = _header(game2.lines)
    header = json.loads(lines[0])
    del header["seed"]
    path = kit.write(tmp_path, "bare.jsonl", [json.dumps(header), *lines[1:]])
    result = kit.replay(path, "--strict")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_unknown_keys_warn_without_strict(kit, tmp_path, commented):
    line, _event = _cut_before_decision(kit, commented)
    lines = _replace(_header(commented, table="kitchen"), line, note="Ann hesitated")
    path = kit.write(tmp_path, "keys.jsonl", lines)
    result = kit.replay(path)
    assert result.exit_code == 0, result.output
    assert f"{path}:1: warning: unknown key 'table'" in result.stderr
    assert f"{path}:{line}: warning: unknown key 'note'" in result.stderr


def test_unknown_keys_are_errors_with_strict(kit, tmp_path, commented):
    line, _event = _cut_before_decision(kit, commented)
    path = kit.write(tmp_path, "keys.jsonl", _replace(_header(commented), line, note="x"))
    result, data = kit.replay_json(path, "--strict")
    assert result.exit_code == 1
    assert (data["verdict"], data["line"]) == ("malformed", line)
    assert "'note'" in data["reason"]


# --------------------------------------------------------------------- --json shape
@pytest.mark.parametrize("case", ["legal", "illegal", "incomplete", "malformed", "mismatch"])
def test_json_verdict_shape(kit, tmp_path, commented, case):
    line, _event = _cut_before_decision(kit, commented)
    lines = {
        "legal": commented,
        "illegal": _replace(commented, line, choice="not an option"),
        "incomplete": commented[: line - 1],
        "malformed": _replace(commented, line, n="x"),
        "mismatch": _replace(commented, len(commented), scores={"P1": -1}),
    }[case]
    path = kit.write(tmp_path, f"{case}.jsonl", lines)
    result, data = kit.replay_json(path)
    expected = {"legal": 0, "incomplete": 3}.get(case, 1)
    assert result.exit_code == data["exit_code"] == expected
    assert data["verdict"] == {"malformed": "malformed"}.get(case, case)
    assert data["log"] == str(path)
    if case in ("illegal", "malformed"):
        assert data["line"] == line
    if case == "mismatch":
        assert data["line"] == len(commented)
    if case == "legal":
        assert "line" not in data and data["result"]["scores"]


# ----------------------------------------------------------------- --at, --as positions
def _turn_of(kit, lines: list[str], player: str) -> tuple[int, dict[str, Any]]:
    """An event n (in the middle) after which ``player`` must play a card."""
    for _i, _line, event in _middle(kit, lines):
        if event.get("player") == player and event.get("choice", "").startswith("play S3"):
            return event["n"] - 1, event
    raise AssertionError(f"{player} never plays S3 in the middle of the game")


def test_at_shows_the_position_after_event_n(kit, game2):
    n, event = _turn_of(kit, game2.lines, "P2")
    result = kit.replay(game2.path, "--at", str(n))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith(f"after event {n}:")
    assert "P1:" in out and "P2:" in out and "round:" in out
    assert "waiting for P2: " in out and event["choice"] in out
    card = event["choice"].split()[1]
    assert card in next(line for line in out.splitlines() if "hand:" in line and card in line)


def test_at_as_shows_other_private_zones_as_counts(kit, game2):
    n, _event = _turn_of(kit, game2.lines, "P2")
    result = kit.run("replay", "--at", str(n), "--as", "P1", "--json", str(game2.path))
    assert result.exit_code == 0, result.output
    position = json.loads(result.stdout)["position"]
    me, other = position["players"]
    assert me["name"] == "P1" and other["name"] == "P2"
    assert isinstance(me["zones"]["hand"], list)  # own private zones: the cards
    assert isinstance(me["zones"]["reserve"], list)
    for zone in ("hand", "reserve", "tiles"):  # the other's private zones: counts, and
        shown = other["zones"][zone]  # only what P1 saw go in (a tile from the storage)
        assert "count" in shown and set(shown) <= {"count", "known"}, shown
    assert other["zones"]["hand"]["count"] >= 1
    assert "prestige" not in other["counters"]  # prestige is private in Rococo (2013)
    assert isinstance(other["zones"]["discard"], list)  # public


def test_at_as_text_hides_the_other_hand(kit, game2):
    n, _event = _turn_of(kit, game2.lines, "P2")
    result = kit.replay(game2.path, "--at", str(n), "--as", "P1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    p2 = lines.index(next(line for line in lines if line.startswith("P2:")))
    hand = next(line for line in lines[p2:] if line.strip().startswith("hand:"))
    assert '{"count":' in hand


def test_at_as_does_not_reveal_the_other_hand_through_the_options(kit, game2):
    n, event = _turn_of(kit, game2.lines, "P2")
    result = kit.replay(game2.path, "--at", str(n), "--as", "P1")
    assert result.exit_code == 0
    card = event["choice"].split()[1]
    assert card not in result.stdout


def test_at_inside_the_setup_is_reported_as_json(kit, game2):
    result = kit.run("replay", "--at", "3", "--json", str(game2.path))
    assert result.exit_code in (0, 3), result.output
    json.loads(result.stdout)


def test_at_beyond_the_end_shows_the_final_position(kit, game2):
    result = kit.replay(game2.path, "--at", "100000")
    assert result.exit_code == 0, result.output
    assert kit.scores_in_table(result.stdout) == game2.scores


def test_at_stops_before_a_later_error(kit, tmp_path, commented):
    line, event = _cut_before_decision(kit, commented)
    path = kit.write(tmp_path, "later.jsonl", _replace(commented, line, choice="nonsense"))
    assert kit.replay(path, "--at", str(event["n"] - 1)).exit_code == 0
    assert kit.replay(path, "--at", str(event["n"])).exit_code == 1


# ------------------------------------------------------------------ 2: usage errors
@pytest.mark.parametrize(
    "args",
    [
        ["replay"],
        ["replay", "no/such/log.jsonl"],
        ["replay", "--at", "-1", "{log}"],
        ["replay", "--at", "x", "{log}"],
        ["replay", "--at", "30", "--as", "Zed", "{log}"],
        ["replay", "--bogus", "{log}"],
    ],
    ids=["no-log", "missing-file", "negative-at", "text-at", "unknown-as", "unknown-option"],
)
def test_usage_errors_exit_2(kit, game2, args):
    result = kit.run(*[a.format(log=game2.path) for a in args])
    assert result.exit_code == 2, result.output
    assert "Usage:" in result.output or "Error:" in result.output


# ------------------------------------------------------------------- never a traceback
def _header_line(game2, **changes: Any) -> str:
    header = json.loads(game2.lines[0])
    header.update(changes)
    return json.dumps(header, ensure_ascii=False)


NEVER_A_TRACEBACK = {
    "binary": lambda g: "\x00\x01\x02 not json",
    "array-line": lambda g: "[1, 2, 3]",
    "header-twice": lambda g: g.lines[0] + "\n" + g.lines[0],
    "deep-nesting": lambda g: g.lines[0] + "\n" + "[" * 100_000,
    "header-options-list": lambda g: _header_line(g, options=[1]),
    "unknown-expansion": lambda g: _header_line(g, options={"expansions": ["nope"]}),
    "missing-mod": lambda g: _header_line(g, options={"expansions": [], "mods": ["no.yaml"]}),
    "ruleset-is-a-path": lambda g: _header_line(g, ruleset="/etc"),
    "players-not-unique": lambda g: _header_line(g, players=["A", "A"]),
    "crlf-line-ends": lambda g: "\r\n".join(g.lines),
    "bom": lambda g: "\ufeff" + "\n".join(g.lines),
    "number-as-float": lambda g: "\n".join(
        [g.lines[0], g.lines[1].replace('"n": 1,', '"n": 1.0,')]
    ),
    "choice-and-chance": lambda g: (
        g.lines[0] + '\n{"n": 1, "chance": "shuffle sorting", '
        '"outcome": [], "player": "P1", "choice": "x"}'
    ),
}

NEVER_A_TRACEBACK_XFAIL = {
    "mods-not-text": (
        lambda g: _header_line(g, options={"expansions": [], "mods": [123]}),
        'header options.mods is not checked by the schema: `"mods": [123]` raises '
        "TypeError in replay.load_ruleset_for (internal error, exit 70)",
    ),
    "ruleset-id-too-long": (
        lambda g: _header_line(g, ruleset="r" * 5000),
        "a 5000-character ruleset id raises OSError 'File name too long' while resolving it "
        "(internal error, exit 70) instead of 'unknown ruleset'",
    ),
    "huge-integer": (
        lambda g: g.lines[0] + '\n{"n": 1' + "0" * 5000 + ', "chance": "x", "outcome": []}',
        "an integer of more than 4300 digits makes json.loads raise ValueError, which "
        "reader.read does not catch (internal error, exit 70) instead of 'bad JSON'",
    ),
    "line-separator-in-a-string": (
        lambda g: g.lines[0] + "\n" + g.lines[1][:-1] + ', "note": "a\u2028b"}',
        "reader.read splits the text with str.splitlines(), which also breaks at U+2028, "
        "U+0085, \\x0c, \\x1c-\\x1e: a valid JSON line holding U+2028 in a string is reported "
        "as 'bad JSON: Unterminated string' and later line numbers drift",
    ),
}


def _assert_reported(kit, path: Path) -> None:
    for options in (["--json"], ["--strict", "--suggest"], ["--at", "5", "--as", "P1"]):
        result = kit.replay(path, *options)  # kit.run: no exception may escape
        assert result.exit_code in (0, 1, 3), result.output
        if options == ["--json"]:
            data = json.loads(result.stdout)
            assert data["exit_code"] == result.exit_code
    plain = kit.replay(path)
    assert plain.exit_code in (0, 1, 3), plain.output
    if plain.exit_code == 1:
        assert re.match(rf"{re.escape(str(path))}:\d+: error: ", plain.stdout), plain.stdout


@pytest.mark.parametrize("name", sorted(NEVER_A_TRACEBACK))
def test_never_a_traceback(kit, tmp_path, game2, name):
    path = tmp_path / f"{name}.jsonl"
    path.write_text(NEVER_A_TRACEBACK[name](game2) + "\n", encoding="utf-8")
    _assert_reported(kit, path)


@pytest.mark.parametrize(
    "name",
    [pytest.param(name) for name, (_, reason) in sorted(NEVER_A_TRACEBACK_XFAIL.items())],
)
def test_never_a_traceback_known_failures(kit, tmp_path, game2, name):
    path = tmp_path / f"{name}.jsonl"
    path.write_text(NEVER_A_TRACEBACK_XFAIL[name][0](game2) + "\n", encoding="utf-8")
    _assert_reported(kit, path)
    result = kit.replay(path)
    assert result.exit_code in (0, 1, 3)
    if name == "line-separator-in-a-string":
        assert result.exit_code == 3  # a valid first event: the log just ends early


def test_invalid_utf8(kit, tmp_path, game2):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(game2.lines[0].encode() + b"\n" + b'{"n": 1, "chance": "caf\xe9"}\n')
    result = kit.replay(path)
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{path}:2: error: malformed log: ")
