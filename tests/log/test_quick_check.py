"""Quick checks derived from the log schema's flat definitions (quick_check.py): the
oracle for every line is tests/log/test_fast_validation.py; here, which definitions
get one and what it says of the edge values."""

from __future__ import annotations

from interpreter.check import schemas
from interpreter.log.quick_check import quick_check

DEFINITIONS = schemas.game_log()["$defs"]


def test_the_flat_definitions_get_a_quick_check_and_the_others_none() -> None:
    quick = {name: quick_check(d) is not None for name, d in DEFINITIONS.items()}
    assert quick == {
        "header": False,  # a constant, a pattern, nested objects
        "decision": True,
        "chance": True,
        "score_checkpoint": False,  # an object of integers
        "digest_checkpoint": False,  # a pattern
    }


def test_a_decision_is_checked_by_the_types_and_bounds_its_schema_gives() -> None:
    check = quick_check(DEFINITIONS["decision"])
    assert check is not None
    assert check({"n": 1, "player": "A", "choice": ""})
    assert check({"n": 1, "player": "A", "choice": "x", "note": 2.5})  # others: any value
    assert not check({"n": 0, "player": "A", "choice": "x"})  # minimum 1
    assert not check({"n": 1, "player": "", "choice": "x"})  # minLength 1
    assert not check({"n": True, "player": "A", "choice": "x"})  # true is no integer
    assert not check({"n": 1.0, "player": "A", "choice": "x"})  # nor is 1.0, here
    assert not check({"n": 1, "player": "A"})  # required


def test_a_chance_outcome_is_a_list_of_texts() -> None:
    check = quick_check(DEFINITIONS["chance"])
    assert check is not None
    assert check({"n": 2, "chance": "deal", "outcome": ["x", "y"]})
    assert check({"n": 2, "chance": "deal", "outcome": []})
    assert not check({"n": 2, "chance": "deal", "outcome": ["x", 3]})
    assert not check({"n": 2, "chance": "deal", "outcome": "x"})
    assert not check({"n": 2, "chance": "deal", "outcome": [True]})  # exact types: no bool


def test_a_closed_check_also_refuses_keys_the_definition_does_not_name() -> None:
    """The reader's check (``line_checks.line_check``): a line with another key goes to the
    slow path, which warns of it (or refuses it with --strict)."""
    check = quick_check(DEFINITIONS["decision"], closed=True)
    assert check is not None
    assert check({"n": 1, "player": "A", "choice": "x"})
    assert not check({"n": 1, "player": "A", "choice": "x", "note": "hi"})
    assert not check({"n": 1, "player": "A"})  # still required
