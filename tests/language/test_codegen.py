"""The Python the compiler generates: built from the checked tree only, with names
resolved and constants folded when compiling, and run-time defects reported as rule
errors (issue 13)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from rules_test_support import write_tiny

from interpreter.engine.state import State
from interpreter.errors import RuleError
from interpreter.language import codegen
from interpreter.language.compiler import Compiler
from interpreter.language.runtime import Context
from interpreter.language.values import Player
from interpreter.ruleset import load
from interpreter.ruleset.build import Builder
from interpreter.ruleset.tables import Tables


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory):
    loaded = load(write_tiny(tmp_path_factory.mktemp("codegen") / "tiny"))
    assert loaded.ruleset is not None
    symbols = Builder(loaded.catalog).symbols()
    tables = Tables(loaded.ruleset, 2)
    state = State(("ann", "bob"))
    state.counters.update({"coins#0": 3, "coins#1": 8, "score#0": 0, "score#1": 0, "turn": 1})
    for piece in ("c1", "c2", "c3"):
        state.put(piece, "deck")
    return symbols, tables, state


def compiled(world, text: str, scope: dict[str, str] | None = None):
    symbols, _, _ = world
    result, problems = Compiler(symbols).expression(text, scope)
    assert problems == [] and result is not None
    return result


def run(world, text: str, types: dict[str, str] | None = None, **env):
    _, tables, state = world
    fn = compiled(world, text, types or {k: "any" for k in env}).fn
    return fn(Context(state, tables, Player(0), dict(env)))


def source(world, text: str, scope: dict[str, str] | None = None) -> str:
    return ast.unparse(compiled(world, text, scope).code)


def test_constants_are_folded_when_compiling(world) -> None:
    assert source(world, "2 * 3 + 4") == "10"
    assert source(world, "-(7 // 2)") == "-3"
    assert run(world, "2 * 3 + 4") == 10


def test_a_division_by_zero_is_left_to_run_time_where_it_is_located(world) -> None:
    assert "div" in source(world, "1 // 0")
    with pytest.raises(RuleError, match="division by zero"):
        run(world, "1 // 0")


def test_names_become_direct_look_ups(world) -> None:
    assert re.fullmatch(r"ctx\.state\.counters\[_keys\d+\[ctx\.me\]\]", source(world, "my.coins"))
    code = source(world, "turn + my.coins")
    assert "ctx.state.counters['turn']" in code
    assert run(world, "turn + my.coins") == 4


def test_a_local_of_a_scan_is_a_python_local(world) -> None:
    code = source(world, "count(c in card where c.points > 1)")
    assert "v_c" in code and "ctx.env" not in code
    assert run(world, "count(c in card where c.points > 1)") == 2  # c1 (2 points) and c2 (5)


def test_a_text_in_the_rules_stays_a_value_and_is_never_run(world) -> None:
    sneaky = "__import__('os').system('echo hacked')"
    assert run(world, f'"{sneaky}"') == sneaky
    code = source(world, f'"{sneaky}"')
    assert ast.literal_eval(code) == sneaky


def test_the_locals_of_an_effect_are_read_from_its_variables(world) -> None:
    assert re.fullmatch(r"_add\d+\(ctx\.env\['n'\], 1\)", source(world, "n + 1", {"n": "number"}))
    assert run(world, "n * 2", {"n": "number"}, n=21) == 42


def test_a_value_of_the_wrong_kind_is_a_rule_error_not_a_crash(world) -> None:
    with pytest.raises(RuleError, match="cannot compare none with a number"):
        run(world, "x < 3", {"x": "number"}, x=None)  # an unset number variable
    with pytest.raises(RuleError, match="instead of a player"):
        run(world, "p.coins", {"p": "player"}, p=None)
    with pytest.raises(RuleError, match="instead of a component"):
        run(world, "c.points", {"c": "piece"}, c=None)


def test_can_keeps_the_function_that_words_the_refusal(world) -> None:
    _, tables, state = world
    fn = compiled(world, "can take(n: 5)").fn
    ctx = Context(state, tables, Player(0), {})
    assert fn(ctx) is False
    assert fn.why(ctx) == "too poor"


def test_a_ruleset_function_is_called_with_its_arguments(world) -> None:
    _, tables, _ = world
    double = tables.functions["double"]
    assert double(None, 21) == 42  # fn(ctx, n): its parameter is a Python argument
    assert "ctx.rules.functions['double']" in source(world, "double(3)")


def test_an_actions_requires_run_in_one_function(world) -> None:
    _, tables, state = world
    take = tables.actions["take"]
    assert take.checker is not None
    ctx = Context(state, tables, Player(0), {})
    assert tables.allows(ctx, "take", {"n": 3}) is True
    assert tables.allows(ctx, "take", {"n": 4}) is False
    assert tables.failed_requirement(ctx, "take", {"n": 4}) == "too poor"


def test_generated_functions_have_one_file_name_and_are_recorded() -> None:
    emitter = codegen.Emitter()
    fn = emitter.function(ast.BinOp(ast.Constant(2), ast.Mult(), ast.Constant(21)))
    assert fn(None) == 42
    assert fn.__code__.co_filename == codegen.FILENAME
    assert fn.__name__ in emitter.codes
    again = codegen.Emitter.restore(emitter.bound_values(), emitter.codes, {})
    assert again.namespace[fn.__name__](None) == 42


def test_module_has_no_eval_of_text() -> None:
    text = Path(codegen.__file__).read_text(encoding="utf-8")
    assert "eval(" not in text
    assert "compile(module" in text  # only ast modules are compiled


def direct(world, text: str, scope: dict[str, str] | None = None) -> str:
    """The source a whole ruleset's build generates (calls by global names)."""
    symbols, _, _ = world
    result, problems = Compiler(symbols, direct_calls=True).expression(text, scope)
    assert problems == [] and result is not None
    return ast.unparse(result.code)


def test_a_built_ruleset_calls_its_functions_and_checks_by_global_name(world) -> None:
    assert direct(world, "double(3)") == f"{codegen.function_name('double')}(ctx, 3)"
    assert codegen.check_name("take") in direct(world, "can take(n: 5)")
    assert "ctx.rules" not in direct(world, "double(3) > 1 and can take(n: 5)")
    _, tables, _ = world
    take = tables.actions["take"].checker
    assert take.__name__ == codegen.check_name("take")  # what those names call
    assert take.__globals__[codegen.function_name("double")](None, 4) == 8


def test_sum_max_and_min_of_whole_numbers_are_pythons_own(world) -> None:
    total = source(world, "sum(get(prices, k, 0) for k in ['1', '2'])")
    assert re.fullmatch(r"_capped\d+\(sum\(\[.*\]\)\)", total)
    assert "_sum" in source(world, "sum(c.points for c in card)")  # a property: checked
    assert source(world, "max([1, my.coins])").startswith("max(1, ")
    assert source(world, "min([my.coins])").startswith("ctx.state.counters[")
    assert run(world, "max([1, my.coins]) + min([turn, 9])") == 4
    assert run(world, "sum(get(prices, k, 0) for k in ['1', '2', '3'])") == 30
    # values of no declared type keep the checked helpers and their messages
    assert "_max" in source(world, "max(nums)")
    with pytest.raises(RuleError, match="not a number"):
        run(world, "sum(get(t, 'a', 0) for t in [m])", {"m": "map"}, m={"a": "x"})


def test_any_of_a_collection_is_its_truth(world) -> None:
    assert source(world, "any(card)").startswith("bool(")
    assert run(world, "any(deck)") is True and run(world, "any(my.hand)") is False


def test_any_and_all_of_a_short_written_list_test_item_by_item(world) -> None:
    code = source(world, "all(x > 1 for x in [2, 3, 4])")
    assert "for v_x" not in code and "3 > 1" in code  # no generator: each item in place
    assert re.match(r"True if _paid\d+\(ctx, 3\) and ", code)
    assert run(world, "all(x > 1 for x in [2, 3, 4])") is True
    assert run(world, "all(x > 2 for x in [2, 3, 4])") is False
    assert run(world, "any(x in [2, 3, 4] where x > my.coins)") is True
    assert run(world, "any(x in [2, 3] where x > my.coins)") is False
    assert run(world, "any(x == 'b' for x in ['a', 'b'])") is True
    # it stops at the deciding item: the item after it, which would fail, is not tested
    assert run(world, "any(x == 1 or 10 // (x - 2) > 0 for x in [1, 2])") is True
    with pytest.raises(RuleError, match="division by zero"):
        run(world, "all(x == 1 or 10 // (x - 2) > 0 for x in [1, 2])")
    # a list that is not written, or too long, is still scanned
    assert "for v_x" in source(world, "all(x > 1 for x in nums)", {"nums": "list:number"})
    assert "for v_x" in source(world, f"all(x > 0 for x in {list(range(1, 10))})")


def test_a_short_written_list_pays_a_step_per_item_as_a_scan_does(world) -> None:
    _, tables, state = world
    for text in ("all(x > 1 for x in [2, 3, 4])", f"all(x > 1 for x in {list(range(2, 11))})"):
        ctx = Context(state, tables, Player(0), {})
        before = ctx.budget[0]
        assert compiled(world, text).fn(ctx) is True
        assert before - ctx.budget[0] == text.count(",") + 1, text


def test_a_zone_only_looked_up_is_not_made_as_a_value(world) -> None:
    code = source(world, "c.zone.size", {"c": "piece"})
    assert "zone_of" not in code and "ctx.state.where.get(v_c)" not in code  # an env local
    assert run(world, "c.zone.size", {"c": "piece"}, c="c1") == 3
    code = source(world, "c.zone == deck", {"c": "piece"})
    assert "zone_of" not in code and "ctx.state.where.get(" in code
    assert run(world, "c.zone == deck and c.zone != my.hand", {"c": "piece"}, c="c1") is True
    assert run(world, "c.zone == deck", {"c": "piece"}, c="nowhere") is False


def test_a_value_several_requirements_compute_is_computed_once() -> None:
    from interpreter.language.hoist import hoist

    calls = [ast.parse(t, mode="eval").body for t in ("f(x) > 0", "a or f(x) > 1", "g(f(x))")]
    conditions, before = hoist(calls, ["x"])
    assert [ast.unparse(s.value) for s in before[0]] == ["f(x)"]
    assert [ast.unparse(c) for c in conditions] == [
        "shared_0 > 0",
        "a or shared_0 > 1",
        "g(shared_0)",
    ]
    assert ast.unparse(calls[0]) == "f(x) > 0"  # the trees given are left as they were


def test_a_value_computed_only_behind_a_test_is_not_computed_first() -> None:
    from interpreter.language.hoist import hoist

    texts = ("a and f(x) > 0", "f(x) > 1", "[f(v_y) for v_y in ys]", "f(v_y) > 2")
    conditions, before = hoist([ast.parse(t, mode="eval").body for t in texts], ["x"])
    assert before[0] == []  # f(x) may fail where `a` is false
    assert [ast.unparse(c) for c in conditions[:2]] == ["a and f(x) > 0", "f(x) > 1"]
    assert before[2] == []  # a scan's local changes from item to item


def test_a_scan_pays_its_steps_at_every_scan() -> None:
    from interpreter.language.hoist import hoist

    texts = ("any(each(ctx, f(x)))", "all(each(ctx, f(x)))")
    pays = lambda call: isinstance(call.func, ast.Name) and call.func.id == "each"  # noqa: E731
    conditions, before = hoist([ast.parse(t, mode="eval").body for t in texts], ["x"], pays)
    assert [ast.unparse(s.value) for s in before[0]] == ["f(x)"]
    assert [ast.unparse(c) for c in conditions] == [
        "any(each(ctx, shared_0))",
        "all(each(ctx, shared_0))",
    ]


def test_a_value_one_expression_computes_twice_is_computed_once() -> None:
    from interpreter.language.hoist import hoist_within

    text = "f(x) == 'top' and any(t) or f(x) == 'bottom' and g(y)"
    tree = ast.parse(text, mode="eval").body
    value, before = hoist_within(tree, ["x"])
    assert [(s.targets[0].id, ast.unparse(s.value)) for s in before] == [("shared_0", "f(x)")]
    assert ast.unparse(value) == "shared_0 == 'top' and any(t) or (shared_0 == 'bottom' and g(y))"
    assert ast.dump(tree) == ast.dump(ast.parse(text, mode="eval").body)  # left as it was


def test_a_value_an_expression_computes_only_behind_a_test_is_not_computed_first() -> None:
    from interpreter.language.hoist import hoist_within

    for text in ("a and f(x) > 0 or f(x) < 0", "[f(v_y) for v_y in ys] + [f(v_y)]", "g(x) + h(x)"):
        tree = ast.parse(text, mode="eval").body
        value, before = hoist_within(tree, ["x"])
        assert before == [] and ast.dump(value) == ast.dump(tree), text


def test_a_function_computes_a_repeated_value_once() -> None:
    calls: list[int] = []

    def group(x: int) -> int:
        calls.append(x)
        return x % 3

    emitter = codegen.Emitter({"group": group})
    code = ast.parse("group(v_x) == 1 and v_x > 5 or group(v_x) == 2", mode="eval").body
    fn = emitter.function(code, ["v_x"])
    assert [fn(None, x) for x in (7, 4, 5, 3)] == [True, False, True, False]
    assert calls == [7, 4, 5, 3]  # once a call, whichever branch decides


def test_a_lazy_emitter_compiles_each_function_on_its_first_call_only() -> None:
    """`validate` builds with functions compiled when first called: the stub everyone
    holds becomes the real function, attributes and generators included."""
    emitter = codegen.Emitter(lazy=True)
    x = ast.Name("x", ast.Load())
    add = emitter.define([ast.Return(ast.BinOp(x, ast.Add(), ast.Constant(1)))], ["x"], "t")
    walk = emitter.define([ast.Expr(ast.Yield(x))], ["x"], "g")
    add.why = "kept"  # what `Emitter.explain` sets on a `can` test
    assert emitter.codes == {}  # nothing compiled yet
    assert add(None, 2) == 3 and add(None, 5) == 6
    assert list(emitter.codes) == [add.__name__]
    assert emitter.namespace[add.__name__] is add and add.why == "kept"
    assert add.__kwdefaults__ is None  # the real code, with no trace of the stub
    assert list(walk(None, 3)) == [3] and list(walk(None, 4)) == [4]
    assert sorted(emitter.codes) == sorted([add.__name__, walk.__name__])
