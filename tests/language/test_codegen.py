"""The Python the compiler generates: built from the checked tree only, with names
resolved and constants folded when compiling, and run-time defects reported as rule
errors (issue 13)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from rules_test_support import TINY_CONTENT, TINY_EXTRA, TINY_MANIFEST

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
    folder = tmp_path_factory.mktemp("codegen") / "tiny"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(TINY_MANIFEST, encoding="utf-8")
    (folder / "content.yaml").write_text(TINY_CONTENT, encoding="utf-8")
    (folder / "extra.yaml").write_text(TINY_EXTRA, encoding="utf-8")
    loaded = load(folder)
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
