"""Compiling texts against a ruleset's names, and what the compiled code computes.

Expressions are compiled against the tiny ruleset of conftest.py and evaluated on
a hand-made state, so every value below is checked against arithmetic done by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_test_support import ROCOCO, TINY_CONTENT, TINY_EXTRA, TINY_MANIFEST

from interpreter.engine.state import State
from interpreter.errors import GameError
from interpreter.language.compiler import Compiler, did_you_mean
from interpreter.language.runtime import Context
from interpreter.language.values import Piece, Player, ZoneRef
from interpreter.load.ruleset_files import Loader
from interpreter.ruleset import load
from interpreter.ruleset.build import Builder
from interpreter.ruleset.tables import Tables


class World:
    """A compiler for the tiny ruleset and a two-player state to evaluate on."""

    def __init__(self, folder: Path):
        loaded = load(folder)
        assert loaded.diagnostics == [] and loaded.ruleset is not None
        self.symbols = Builder(loaded.catalog).symbols()
        self.tables = Tables(loaded.ruleset, 2)
        self.state = State(("ann", "bob"))
        self.state.counters.update(
            {"coins#0": 3, "coins#1": 8, "score#0": 0, "score#1": 0, "turn": 1}
        )
        for piece in ("c1", "c2", "c3"):
            self.state.put(piece, "deck")
        self.state.put("pawn-1", "hand#0")

    def compiler(self) -> Compiler:
        return Compiler(self.symbols)

    def value(self, text: str, me: int = 0, **env):
        compiled, problems = self.compiler().expression(text, {k: "any" for k in env})
        assert problems == [], problems
        return compiled.fn(Context(self.state, self.tables, Player(me), dict(env)))

    def problems(self, text: str, effect: bool = False, expect: str | None = None):
        compiler = self.compiler()
        if effect:
            _, found = compiler.effect(text)
        else:
            _, found = compiler.expression(text, None, expect)
        assert found, f"{text!r} compiled without problems"
        return found


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    """Built once per module: the tests only compile and evaluate, never change it."""
    folder = tmp_path_factory.mktemp("world") / "tiny"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(TINY_MANIFEST, encoding="utf-8")
    (folder / "content.yaml").write_text(TINY_CONTENT, encoding="utf-8")
    (folder / "extra.yaml").write_text(TINY_EXTRA, encoding="utf-8")
    return World(folder)


# ---------------------------------------------------------------------- values
@pytest.mark.parametrize(
    "text, expected",
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("7 // 2", 3),
        ("-7 // 2", -4),  # rounds down, like the rule books' "rounded down"
        ("7 % 3", 1),
        ("-7 % 3", 2),
        ("10 - 2 - 3", 5),
        ("2 * -3", -6),
        ("[1, 2] < [1, 3]", True),  # lists compare item by item
        ("[2] > [1, 9]", True),
        ("[1, 2] == [1, 2]", True),
        ("[3, 0, 1] >= [3, 0, 2]", False),
        ("'a' < 'b'", True),
        ("not true or false", False),
        ("true and not false", True),
        ("if base > 5 then 'big' else 'small'", "big"),
        ("player_count", 2),
        ("base", 7),
        ("bonus", 1),  # the per-side constant on the side of 2 players
        ("nums[2]", 4),
        ("prices['2']", 20),
        ("count(nums)", 5),
        ("count(c in card where c.suit == 'red')", 2),
        ("count(c in deck.pieces where c.points > 1)", 2),
        ("sum(c.points for c in card)", 8),
        ("sum(c.points for c in card where c.suit == 'red')", 3),
        ("sum(n * n for n in nums)", 52),
        ("max(nums)", 5),
        ("min(nums)", 1),
        ("max(c.points for c in card where c.points > 100)", 0),  # the default
        ("min([], 42)", 42),
        ("distinct(nums)", (3, 1, 4, 5)),
        ("range(1, 3)", (1, 2, 3)),
        ("range(3, 1)", ()),
        ("reverse([1, 2])", (2, 1)),
        ("contains(nums, 4)", True),
        ("index_of(nums, 4)", 2),
        ("index_of(nums, 9)", -1),
        ("keys(prices)", ("1", "2")),
        ("get(prices, '3', 99)", 99),
        ("abs(0 - 4)", 4),
        ("all(n > 0 for n in nums)", True),
        ("any(c in card where c.special)", True),
        ("first(c in card where c.points > 4)", "c2"),
        ("last(nums)", 5),
        ("text(c2)", "c2"),
        ("double(base)", 14),  # a user function
        ("double(double(2))", 8),
        ("red_points()", 3),  # a user function without parameters
        ("richest(me)", False),
        ("richest(me.next)", True),
        ("my.coins", 3),
        ("me.next.coins", 8),
        ("deck.size", 3),
        ("deck.top", "c1"),
        ("deck.bottom", "c3"),
        ("my.hand.pieces", ("pawn-1",)),
        ("my.hand.size + my.hand.size", 2),
        ("c1.points + c2.points", 7),
        ("c1.special", False),  # the kind's default
        ("c1.design", "c1"),
        ("count(slot)", 1),  # slot2 is on the 4-player side only
        ("slot1.price", 2),
        ("slot1.free", True),
        ("turn", 1),
        ("can take(n: 5)", False),  # the `requires` of take: my.coins >= n
        ("can take(n: 3)", True),
        ("can take()", True),  # n defaults to 1
        ("seat_order(me.next)", (1, 0)),
        ("others(me)", (1,)),
        ("players", (0, 1)),
    ],
)
def test_values(world: World, text: str, expected) -> None:
    assert world.value(text) == expected


def test_value_types_at_run_time(world: World) -> None:
    assert isinstance(world.value("deck.top"), Piece)
    assert isinstance(world.value("me.next"), Player)
    assert isinstance(world.value("my.hand"), ZoneRef)
    assert world.value("number(x.points) + 1", x=Piece("c2")) == 6


def test_copies_share_their_design(world: World) -> None:
    assert sorted(world.value("filter(c in card where c.design == 'pawn')")) == ["pawn-1", "pawn-2"]


def test_a_component_with_count_is_the_list_of_its_copies(world: World) -> None:
    # issue 49: the docs said components are names; one with `count` was not
    assert world.value("pawn") == ("pawn-1", "pawn-2")
    assert world.value("count(pawn)") == 2
    assert world.value("pawn[1]") == "pawn-2"
    assert isinstance(world.value("pawn[0]"), Piece)


def test_division_by_zero_is_a_game_error(world: World) -> None:
    with pytest.raises(GameError):
        world.value("7 // (base - 7)")
    with pytest.raises(GameError):
        world.value("7 % 0")


def test_effects_run(world: World) -> None:
    compiled, problems = world.compiler().effect("for p in players { gain(score, 2, to: p) }")
    assert problems == []
    assert compiled.body.body  # one statement
    # Effects are run by the engine; compiling yields a tree of nodes with stable ids.
    assert all(node_id.startswith("effect#") for node_id in compiled.nodes)


# ---------------------------------------------------------------------- problems
@pytest.mark.parametrize(
    "text, column, message, hint",
    [
        ("1 + 'a'", 5, "`+` works on numbers, but this is a text", None),
        ("count(3)", 7, "must be a collection, but this is a number", "works on a collection"),
        ("count(base)", 7, "must be a collection, but this is a number", None),
        ("not 3", 5, "expected a condition (true/false)", "compare the number"),
        ("base and true", 1, "expected a condition (true/false)", None),
        ("coins", 1, "`coins` belongs to a player", "write `my.coins`"),
        ("my.coinz", 4, "a player has no `coinz`", "did you mean `coins`?"),
        ("deck.siz", 6, "a zone or space has no `siz`", "did you mean `size`?"),
        ("c1.pionts", 4, "no kind of component has a property `pionts`", "did you mean `points`?"),
        ("doubel(1)", 1, "unknown function `doubel`", "did you mean `double`?"),
        ("cuont(nums)", 1, "unknown function `cuont`", "did you mean `count`?"),
        ("bse + 1", 1, "`bse` is not defined", "did you mean `base`?"),
        ("double(1, 2)", 1, "`double` takes 1 argument, not 2", "usage: double(n)"),
        ("double('a')", 8, "argument `n` of `double` must be a number, but this is a text", None),
        ("abs()", 1, "`abs` needs", "usage: abs("),
        ("abs(1, 2)", 8, "`abs` takes at most 1 argument", None),
        (
            "max(nums, defualt: 1)",
            11,
            "`max` has no parameter `defualt`",
            "did you mean `default`?",
        ),
        ("nums['a']", 6, "a collection is indexed by a number", None),
        ("base.size", 6, "a number has no attributes", None),
        ("base == 'seven'", 6, "is always false", None),
        ("can tak()", 5, "`tak` is not an action of this ruleset", "did you mean `take`?"),
        ("can take(m: 1)", 10, "action `take` has no parameter `m`", "its parameters: n"),
        ("gain(coins, 1)", 1, "`gain` is an effect; it gives no value", None),
        ("double", 1, "`double` is a function", "call it: `double(…)`"),
        # issue 49: the values of `min` and `max` go in one list
        ("min(3, 4)", 5, "must be a collection", "`min([3, 4])`"),
        ("max(base, 1)", 5, "must be a collection", "`max([base, 1])`"),
        # issue 49: a component with `count` is the list of its copies; a copy's id
        # written as a name is that list minus a number, and the hint says how to write it
        ("pawn.points", 6, "a collection of components has no attributes", "count(…)"),
        ("pawn-1", 1, "`-` works on numbers, but this is a collection", "copy 1 is `pawn[0]`"),
    ],
)
def test_expression_problems_are_located(
    world: World, text: str, column: int, message: str, hint: str | None
) -> None:
    (problem,) = world.problems(text)
    assert (problem.line, problem.column) == (1, column)
    assert message in problem.message
    if hint:
        assert hint in (problem.hint or "")


@pytest.mark.parametrize(
    "text, line, column, message, hint",
    [
        ("gain(coinz, 1)", 1, 6, "`gain` needs a counter name here", "did you mean `coins`?"),
        ("gain(coins)", 1, 1, "`gain` needs 2 arguments, missing `amount`", None),
        ("gain(coins, 'x')", 1, 13, "argument `amount` of `gain` must be a number", None),
        ("do tak()", 1, 4, "`tak` is not an action of this ruleset", "did you mean `take`?"),
        ("do take(n: 'x')", 1, 12, "parameter `n` of action `take` must be a number", None),
        ("do take(1)", 1, 9, "takes named arguments", None),
        ("emit scord(amount: 1)", 1, 6, "`scord` is not an event", "did you mean `scored`?"),
        ("emit scored()", 1, 6, "event `scored` needs `amount`", None),
        ("let me = 1", 1, 5, "built-in name", None),
        ("c1.points = 3", 1, 1, "cannot be set", None),
        ("my.coins += 'a'", 1, 13, "`+=` needs a number", None),
        ("base = 3", 1, 1, "`base` cannot be set", None),
        ("leader = 3", 1, 10, "`leader` holds a player, but this is a number", None),
        ("if base { stop }", 1, 4, "expected a condition (true/false)", "compare the number"),
        ("if nums { stop }", 1, 4, "expected a condition (true/false)", "any(…)"),
        ("for x in base { stop }", 1, 10, "expected a collection", None),
        ("repeat 'twice' { stop }", 1, 8, "expected a number", None),
        ("count(nums)", 1, 1, "gives a value; it is not an effect", None),
        ("take()", 1, 1, "`take` is an action", "write `do take(…)`"),
        ("gian(coins, 1)", 1, 1, "unknown effect `gian`", "did you mean `gain`?"),
        ("choose { option 'a' { stop } option 'a' { stop } }", 1, 37, "offered twice", None),
        ("stop\n\n  gain(coins, bse)", 3, 15, "`bse` is not defined", "did you mean `base`?"),
        # issue 49: a negative literal amount is refused before any game reaches it
        ("gain(coins, -5)", 1, 13, "`amount` of `gain` must be 0 or more", "`pay(coins, 5)`"),
        ("pay(coins, -2, by: me)", 1, 12, "must be 0 or more, not -2", "`gain(coins, 2)`"),
        # issue 49: a local never hides a function
        ("let double = 2", 1, 5, "`double` is a function of the rules", "`double_value`"),
        ("let count = 2", 1, 5, "`count` is a function of the language", "another name"),
    ],
)
def test_effect_problems_are_located(
    world: World, text: str, line: int, column: int, message: str, hint: str | None
) -> None:
    (problem,) = world.problems(text, effect=True)
    assert (problem.line, problem.column) == (line, column)
    assert message in problem.message
    if hint:
        assert hint in (problem.hint or "")


def test_all_problems_of_a_text_are_reported(world: World) -> None:
    found = world.problems("gain(coinz, 1)\npay(coins, 'x')\ndo tak()", effect=True)
    assert [(p.line, p.column) for p in found] == [(1, 6), (2, 12), (3, 4)]


def test_expected_type_of_a_field(world: World) -> None:
    (problem,) = world.problems("base + 1", expect="bool")
    assert problem.message == "expected a condition (true/false) here, but this is a number"
    assert world.compiler().expression("base > 1", None, "bool")[1] == []


def test_scope_names_shadow_and_types_flow(world: World) -> None:
    compiler = world.compiler()
    _, problems = compiler.effect("let n = 3\nlet m = n + 1\nif m > n { gain(coins, m) }")
    assert problems == []
    _, problems = compiler.effect("let t = 'x'\ngain(coins, t)")
    assert [p.message for p in problems] == [
        "argument `amount` of `gain` must be a number, but this is a text"
    ]


def test_a_binder_name_is_only_in_scope_inside(world: World) -> None:
    (problem,) = world.problems("count(c in card where c.special) + c.points")
    assert "`c` is not defined" in problem.message


def test_did_you_mean() -> None:
    assert did_you_mean("favour_mony", {"favour_money", "round"}) == "did you mean `favour_money`?"
    assert did_you_mean("zzz", {"favour_money"}) is None


def test_did_you_mean_offers_only_writable_names(world: World) -> None:
    (problem,) = world.problems("pawn + 1")
    assert "pawn-" not in (problem.hint or "")


@pytest.mark.parametrize(
    "text",
    [
        "1" + " + 1" * 2000,
        "not " * 2000 + "true",
        "- " * 2000 + "1",
        "if true then 1 else " * 900 + "0",
    ],
)
def test_long_operator_chains_return_problems_not_recursion_errors(world: World, text: str) -> None:
    compiled, problems = world.compiler().expression(text)
    assert compiled is not None or problems


# ------------------------------------------------------------------- properties
ROCOCO_CATALOG = Loader().ruleset(ROCOCO)


@pytest.fixture(scope="module")
def rococo_symbols():
    return Builder(ROCOCO_CATALOG).symbols()


def _rococo_texts() -> list[tuple[str, str]]:
    """Every expression and effect text of Rococo, with its kind."""
    catalog = ROCOCO_CATALOG
    found: list[tuple[str, str]] = []
    effects = {"effect", "setup"}
    expressions = {
        "value",
        "condition",
        "while",
        "order",
        "estimate",
        "skip",
        "when",
        "until",
        "end",
    }

    def walk(node, key=None):
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        elif isinstance(node, str) and key in effects | expressions:
            found.append(("effect" if key in effects else "expr", node))

    for document in catalog.documents:
        walk(document.data)
    return found


ROCOCO_TEXTS = _rococo_texts()
TOKENS = [
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ".",
    ",",
    ":",
    ";",
    "=",
    "==",
    "<",
    ">=",
    "+",
    "-",
    "*",
    "//",
    "%",
    "'",
    '"',
    "#",
    " ",
    "\n",
    "if",
    "then",
    "else",
    "elif",
    "for",
    "in",
    "where",
    "choose",
    "may",
    "option",
    "do",
    "can",
    "let",
    "not",
    "and",
    "or",
    "me",
    "my",
    "players",
    "count(",
    "sum(",
    "1",
    "0",
    "x",
    "as",
    "by",
    "emit",
    "act",
    "stop",
    "repeat",
    "while",
    "none",
    "true",
    "livres",
    "hiring",
    "hire",
    "gain(",
    "é",
    "\t",
]


def _compile(compiler: Compiler, kind: str, text: str) -> None:
    if kind == "effect":
        compiled, problems = compiler.effect(text)
    else:
        compiled, problems = compiler.expression(text)
    assert (compiled is None) == bool(problems)
    for problem in problems:
        assert problem.line >= 1 and problem.column >= 1 and problem.message


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(["effect", "expr"]),
    text=st.lists(st.sampled_from(TOKENS), max_size=30).map(" ".join),
)
def test_random_text_only_returns_problems(rococo_symbols, kind: str, text: str) -> None:
    _compile(Compiler(rococo_symbols), kind, text)


@st.composite
def mutated_text(draw) -> tuple[str, str]:
    kind, text = draw(st.sampled_from(ROCOCO_TEXTS))
    chars = list(text)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, max(0, len(chars) - 1)))
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "insert"]))
        if not chars:
            chars = ["x"]
        elif op == "delete":
            del chars[i]
        elif op == "duplicate":
            chars.insert(i, chars[i])
        elif op == "swap":
            j = min(len(chars) - 1, i + draw(st.integers(1, 4)))
            chars[i], chars[j] = chars[j], chars[i]
        else:
            chars[i:i] = draw(st.sampled_from(TOKENS))
    return kind, "".join(chars)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_text())
def test_mutated_rococo_text_only_returns_problems(rococo_symbols, case) -> None:
    kind, text = case
    _compile(Compiler(rococo_symbols), kind, text)


def test_the_mutated_texts_are_real(rococo_symbols) -> None:
    """The premise of the mutation property: many texts, and they compile as they are
    (with the scope their field gives: parameters and locals are unknown here, so only
    the texts that need none are compiled)."""
    assert len(ROCOCO_TEXTS) > 100
    compiler = Compiler(rococo_symbols)
    clean = 0
    for kind, text in ROCOCO_TEXTS:
        _, problems = compiler.effect(text) if kind == "effect" else compiler.expression(text)
        clean += not problems
    assert clean > len(ROCOCO_TEXTS) // 3
