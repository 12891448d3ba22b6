"""`gain_if`: what an action would give the acting player now, judged on a copy
(how an automaton takes the end-game card worth most to it, from the card's own rule)."""

from __future__ import annotations

import pytest

from interpreter.errors import GameError
from interpreter.language.values import Piece


def test_each_card_is_judged_by_its_own_rule_and_nothing_stays(table) -> None:
    t = table
    t.set(0, "thread", 2).set(0, "lace", 3).set(0, "prestige", 4)
    value = {
        card: t.eval("gain_if(prestige, c.bonus, c)", 0, c=Piece(card))
        for card in ("E25", "E26", "E28")
    }
    # E26: 3 prestige per thread + lace pair returned: 2 pairs -> 6; E28: no dresses -> 0
    assert value["E26"] == 6 and value["E28"] == 0
    assert value["E25"] == t.eval("staff_money(staff_size(me), [2, 5, 8, 11])", 0)
    best = t.eval(
        "first(c in [E25, E26, E28] where gain_if(prestige, c.bonus, c) == "
        "max(gain_if(prestige, d.bonus, d) for d in [E25, E26, E28]))",
        0,
    )
    assert best == "E26"
    assert (t.get(0, "thread"), t.get(0, "lace"), t.get(0, "prestige")) == (2, 3, 4)


def test_an_action_whose_requirements_fail_is_worth_nothing(table) -> None:
    t = table
    t.set(0, "livres", 0)
    assert t.eval("gain_if(livres, thread_or_lace_for_1, c)", 0, c=Piece("S5-1")) == 0


def test_an_action_with_several_free_parameters_is_refused(table) -> None:
    with pytest.raises(GameError, match="one parameter without a default"):
        table.eval("gain_if(livres, sew_dress, c)", 0, c=Piece("D01"))
