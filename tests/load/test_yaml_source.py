"""Loading one YAML file: plain data, positions of every node, guarded limits."""

from __future__ import annotations

import re
import traceback
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, reject, settings
from hypothesis import strategies as st
from rules_test_support import ROCOCO, mutate_text, position

from interpreter.errors import LoadError, Location
from interpreter.load.yaml_source import Limits, load_bytes, load_file, load_text

PATH = "f.yaml"


def error_of(text: str, limits: Limits | None = None) -> tuple[int, int, str]:
    with pytest.raises(LoadError) as info:
        load_text(text, PATH, *([limits] if limits else []))
    (diagnostic,) = info.value.diagnostics
    assert diagnostic.location.path == PATH
    return diagnostic.location.line, diagnostic.location.column, diagnostic.message


def at(text: str, mark: str, nth: int = 0) -> tuple[int, int]:
    return position(text, [m.start() for m in re.finditer(re.escape(mark), text)][nth])


# ------------------------------------------------------------------------- data
def test_plain_data_only() -> None:
    doc = load_text("a: 1\nb: [x, 'y', true, null]\nc: {d: -2}\n", PATH)
    assert doc.data == {"a": 1, "b": ["x", "y", True, None], "c": {"d": -2}}
    assert type(doc.data) is dict and type(doc.data["b"]) is list
    assert type(doc.data["b"][1]) is str  # no ruamel string subclasses leak out


def test_integer_keys_become_text() -> None:
    assert load_text('prices: {1: 10, "2": 20}\n', PATH).data == {"prices": {"1": 10, "2": 20}}


def test_byte_order_mark_is_accepted() -> None:
    assert load_bytes("\ufeffa: 1\n".encode(), PATH).data == {"a": 1}


def test_crlf_line_ends_keep_positions() -> None:
    doc = load_text("a: 1\r\nb:\r\n  c: x\r\n", PATH)
    assert doc.data == {"a": 1, "b": {"c": "x"}}
    assert doc.key_positions[("b", "c")] == Location(PATH, 3, 3)


# -------------------------------------------------------------------- positions
POSITIONS = """\
x: 1
y:
  z: [a, b]
  w: {k: v}
  q:
    - 1
    - two
"""


def test_key_and_value_positions() -> None:
    doc = load_text(POSITIONS, PATH)
    assert doc.key_positions[("x",)] == Location(PATH, *at(POSITIONS, "x"))
    assert doc.value_positions[("x",)] == Location(PATH, *at(POSITIONS, "1"))
    assert doc.key_positions[("y", "z")] == Location(PATH, *at(POSITIONS, "z"))
    assert doc.value_positions[("y", "z")] == Location(PATH, *at(POSITIONS, "[a"))
    assert doc.value_positions[("y", "z", 1)] == Location(PATH, *at(POSITIONS, "b]"))
    assert doc.key_positions[("y", "w", "k")] == Location(PATH, *at(POSITIONS, "k:"))
    assert doc.value_positions[("y", "w", "k")] == Location(PATH, *at(POSITIONS, "v}"))
    assert doc.value_positions[("y", "q", 1)] == Location(PATH, *at(POSITIONS, "two"))


def test_location_falls_back_to_the_nearest_parent() -> None:
    doc = load_text(POSITIONS, PATH)
    assert doc.location(("y", "z", 7)) == doc.value_positions[("y", "z")]
    assert doc.location(("y", "nothing", "deeper")) == doc.value_positions[("y",)]
    assert doc.location(("y", "z"), key=True) == doc.key_positions[("y", "z")]
    assert doc.location(("missing",)).line == 1


def test_block_scalar_span() -> None:
    text = "a:\n  effect: |\n    one\n    two\n"
    span = load_text(text, PATH).spans[("a", "effect")]
    assert (span.line, span.indent, span.block) == (3, 5, True)


def test_quoted_scalar_span_starts_after_the_quote() -> None:
    text = "a: 'xy'\nb: \"z\"\nc: plain\n"
    doc = load_text(text, PATH)
    assert (doc.spans[("a",)].line, doc.spans[("a",)].column) == at(text, "xy")
    assert (doc.spans[("b",)].line, doc.spans[("b",)].column) == at(text, 'z"')
    assert (doc.spans[("c",)].line, doc.spans[("c",)].column) == at(text, "plain")


# Where does a character of the string at `path` sit in the file? Each case is a
# YAML text and a path; the mark `,, 1` occurs once in the string and once in the
# file: its (line, column) in the string must map to its place in the file.
def _xfail(reason: str):
    return pytest.mark.xfail(strict=True, reason="BUG: " + reason)


EXPRESSION_CASES = [
    pytest.param(
        "a:\n  effect: |\n    gain(c, 1)\n    pay(c,, 1)\n", ("a", "effect"), id="literal-block"
    ),
    pytest.param(
        "a:\n  effect: |-\n    x\n    pay(c,, 1)\n", ("a", "effect"), id="literal-block-strip"
    ),
    pytest.param("- effect: |\n    x\n    pay(c,, 1)\n", (0, "effect"), id="literal-block-in-list"),
    pytest.param("a:\n  effect: pay(c,, 1)\n", ("a", "effect"), id="plain"),
    pytest.param("a: 'pay(c,, 1)'\n", ("a",), id="single-quoted"),
    pytest.param('a: "pay(c,, 1)"\n', ("a",), id="double-quoted"),
    pytest.param("a:\n  - x\n  - pay(c,, 1)\n", ("a", 1), id="list-item"),
    pytest.param("a: [x, {effect: 'pay(c,, 1)'}]\n", ("a", 1, "effect"), id="flow-mapping"),
    pytest.param(
        "a:\n  effect: >\n    gain(c, 1)\n    pay(c,, 1)\n", ("a", "effect"), id="folded-block"
    ),
    pytest.param(
        "a:\n  effect: gain(c, 1)\n    pay(c,, 1)\n", ("a", "effect"), id="multi-line-plain"
    ),
    pytest.param(
        'a:\n  effect: "gain(c, 1)\n    pay(c,, 1)"\n',
        ("a", "effect"),
        id="multi-line-double-quoted",
    ),
    pytest.param("a: 'fail(''x'') pay(c,, 1)'\n", ("a",), id="escaped-single-quote"),
    pytest.param('a: "fail(\\"x\\") pay(c,, 1)"\n', ("a",), id="escaped-double-quote"),
    pytest.param(
        "a:\n  effect: |\n\n    pay(c,, 1)\n", ("a", "effect"), id="literal-leading-blank-line"
    ),
    pytest.param("a: >-\n  x or\n    pay(c,, 1)\n", ("a",), id="folded-more-indented"),
    pytest.param(
        "a:\n  effect: |2\n      gain(c, 1)\n    pay(c,, 1)\n",
        ("a", "effect"),
        id="literal-indentation-indicator",
    ),
]


@pytest.mark.parametrize("text, path", EXPRESSION_CASES)
def test_expression_location(text: str, path: tuple) -> None:
    mark = ",, 1"
    doc = load_text(text, PATH)
    value = doc.data
    for key in path:
        value = value[key]
    assert value.count(mark) == 1 and text.count(mark) == 1
    line, column = position(value, value.index(mark))
    assert doc.expression_location(path, line, column) == Location(PATH, *at(text, mark))


# ----------------------------------------------------------------------- errors
def test_empty_and_blank_files() -> None:
    assert error_of("")[:2] == (1, 1)
    assert "empty" in error_of("   \n\n")[2]


def test_comment_only_file_is_refused() -> None:
    with pytest.raises(LoadError):
        load_text("# nothing but a comment\n", PATH)


def test_duplicate_key_points_at_the_second_key() -> None:
    # reported, but not fatal: the rest of the file is still loaded and checked
    text = "a:\n  b: 1\n  c: 2\n  b: 3\n"
    doc = load_text(text, PATH)
    (problem,) = doc.problems
    assert (problem.location.line, problem.location.column) == at(text, "b", 1)
    assert problem.message == "YAML syntax: duplicate key 'b'"
    assert doc.data == {"a": {"b": 1, "c": 2}}  # the first value is kept


def test_mapping_value_in_plain_scalar() -> None:
    text = "a: b: c\n"
    line, column, message = error_of(text)
    assert (line, column) == at(text, ": c")
    assert "mapping values are not allowed" in message


def test_tab_indentation_has_a_hint() -> None:
    with pytest.raises(LoadError) as info:
        load_text("a:\n\tb: 1\n", PATH)
    (diagnostic,) = info.value.diagnostics
    assert diagnostic.location.line == 2
    assert "tab" in (diagnostic.hint or "") + diagnostic.message


def test_unclosed_flow_mapping() -> None:
    line, column, message = error_of("a: {b: 1\nc: 2\n")
    assert line >= 1 and column >= 1
    assert message.startswith("YAML syntax:")


def test_undefined_alias() -> None:
    text = "a: *nowhere\n"
    line, column, message = error_of(text)
    assert (line, column) == at(text, "*nowhere")
    assert "nowhere" in message


def test_too_many_aliases_points_at_the_first_one_too_many() -> None:
    text = "a: &x 1\nb: [" + ", ".join(["*x"] * 70) + "]\n"
    line, column, message = error_of(text)
    assert (line, column) == at(text, "*x", 64)
    assert message == "more than 64 aliases"


def test_aliases_within_the_limit_are_expanded() -> None:
    doc = load_text("a: &x {k: 1}\nb: [*x, *x]\n", PATH)
    assert doc.data["b"] == [{"k": 1}, {"k": 1}]


def test_alias_bomb_is_refused_quickly() -> None:
    text = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
    for prev, name in zip("abcdef", "bcdefg", strict=True):
        text += f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]\n"
    with pytest.raises(LoadError):
        load_text(text, PATH)
    with pytest.raises(LoadError) as info:  # the node limit holds with more aliases allowed
        load_text(text, PATH, Limits(max_aliases=1000, max_nodes=5000))
    assert "nodes after aliases" in info.value.diagnostics[0].message


def test_nesting_limit() -> None:
    text = "a: " + "[" * 10_000 + "]" * 10_000 + "\n"
    line, column, message = error_of(text)
    assert line == 1 and text[column - 1] == "["
    assert message == "nesting deeper than 48 levels"
    assert load_text("a: " + "[" * 40 + "]" * 40 + "\n", PATH).data is not None


def test_deep_block_nesting() -> None:
    text = "".join(" " * i + f"k{i}:\n" for i in range(60)) + " " * 60 + "v\n"
    line, _column, message = error_of(text)
    assert "nesting deeper than" in message and line <= 50


@pytest.mark.parametrize("number", ["1" * 13, "-" + "9" * 50, "1_000_000_000_000_000"])
def test_long_numbers_are_refused(number: str) -> None:
    text = f"a:\n  b: {number}\n"
    line, column, message = error_of(text)
    assert (line, column) == at(text, number)
    assert "more than 12 digits" in message


def test_twelve_digit_numbers_and_quoted_long_digits_are_fine() -> None:
    assert load_text("a: 999999999999\n", PATH).data == {"a": 999_999_999_999}
    assert load_text("a: '1234567890123456789'\n", PATH).data == {"a": "1234567890123456789"}


@pytest.mark.parametrize(
    "tag",
    [
        "!!python/object:os.system",
        "!!python/name:os.system",
        "!!binary",
        "!!set",
        "!!omap",
        "!custom",
        "!!timestamp",
    ],
)
def test_object_tags_are_refused(tag: str) -> None:
    text = f"a:\n  b: {tag} x\n"
    line, column, message = error_of(text)
    assert (line, column) == at(text, tag)
    assert "is not allowed" in message


def test_second_document_is_refused() -> None:
    text = "a: 1\n---\nb: 2\n"
    line, column, message = error_of(text)
    assert (line, column) == at(text, "---")
    assert "one YAML document" in message


@pytest.mark.parametrize("key", ["[1, 2]", "{a: 1}", "1.5"])
def test_complex_keys_are_refused(key: str) -> None:
    with pytest.raises(LoadError):
        load_text(f"? {key}\n: v\n", PATH)


def test_binary_and_bad_utf8() -> None:
    with pytest.raises(LoadError) as info:
        load_bytes(b"a: 1\n\x00\x01", PATH)
    assert "binary" in info.value.diagnostics[0].message
    with pytest.raises(LoadError) as info:
        load_bytes(b"a: 1\nb: 2\nc: caf\xe9\n", PATH)
    assert info.value.diagnostics[0].location == Location(PATH, 3, 1)


def test_size_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: " + b"x" * 2_000_001 + b"\n")
    with pytest.raises(LoadError) as info:
        load_file(big)
    assert "the limit is 2,000,000" in info.value.diagnostics[0].message
    with pytest.raises(LoadError):
        load_bytes(b"a: 1\n" * 10, PATH, Limits(max_bytes=20))


def test_unreadable_paths(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.yaml", tmp_path):
        with pytest.raises(LoadError) as info:
            load_file(path)
        assert "cannot read" in info.value.diagnostics[0].message


def test_display_path_is_used_in_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [\n", encoding="utf-8")
    with pytest.raises(LoadError) as info:
        load_file(bad, display="shown/bad.yaml")
    assert info.value.diagnostics[0].location.path == "shown/bad.yaml"


# Plain scalars that ruamel.yaml resolves as numbers or dates and then cannot build,
# and core tags put on the wrong text.
ODD_SCALARS = [
    "-_",
    "+_",
    "._",
    "-._",
    "0x_",
    "0o_",
    "0b_",
    "2001-13-45",
    "!!int abc",
    "!!float abc",
    "!!bool maybe",
]


@pytest.mark.parametrize("scalar", ODD_SCALARS)
def test_odd_scalars_are_located_errors(scalar: str) -> None:
    text = f"a:\n  b: {scalar}\n"
    try:
        doc = load_text(text, PATH)
    except LoadError as exc:
        (diagnostic,) = exc.diagnostics
        assert (diagnostic.location.line, diagnostic.location.column) == at(text, scalar)
    else:  # read as a text is fine too
        assert isinstance(doc.data["a"]["b"], str)


# ------------------------------------------------------------------- properties
YAMLISH = st.sampled_from(
    list(":-[]{}&*!|>'\"#%@`,? \n\t")
    + list("abz019_.eE+")
    + [
        "\u00e9",
        "\ufeff",
        "\x85",
        "\u2028",
        "\r",
        "0x",
        "~",
        "<<",
        "---",
        "...",
        "!!",
        "- ",
        ": ",
        "\n  ",
        "&a ",
        "*a",
        "!!str ",
        "!!int ",
        "|\n",
        ">-\n",
    ]
)


def _is_known_scalar_crash(exc: BaseException) -> bool:
    """The crash of `test_odd_scalars_are_located_errors` (an xfail): ruamel's constructor
    failing on a scalar. Skipped here so that this property keeps guarding against every
    OTHER way of escaping LoadError; delete this once that bug is fixed."""
    frames = traceback.extract_tb(exc.__traceback__)
    return isinstance(exc, ValueError | IndexError | KeyError) and any(
        "ruamel/yaml/constructor.py" in f.filename.replace("\\", "/") for f in frames
    )


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(st.lists(YAMLISH, max_size=40).map("".join))
@example("a: [1, {b: &x c}, *x]\n")
@example("? |\n  k\n: v\n")
def test_random_text_only_ever_raises_load_error(text: str) -> None:
    try:
        doc = load_text(text, PATH)
    except LoadError as exc:
        assert exc.diagnostics and all(d.location.path == PATH for d in exc.diagnostics)
        return
    except Exception as exc:
        if _is_known_scalar_crash(exc):
            reject()
        raise
    assert doc.data is not None


def _rococo_heads() -> list[str]:
    """The first 40 lines of each Rococo file: real text, quick to load."""
    return [
        "".join(p.read_text(encoding="utf-8").splitlines(keepends=True)[:40])
        for p in sorted(ROCOCO.rglob("*.yaml"))
    ]


@st.composite
def mutated_rococo(draw) -> str:
    text = draw(st.sampled_from(_rococo_heads()))
    return mutate_text(draw, st, text, draw(st.integers(1, 4)), YAMLISH)


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated_rococo())
def test_mutated_rococo_text_only_ever_raises_load_error(text: str) -> None:
    try:
        load_text(text, PATH)
    except LoadError as exc:
        assert exc.diagnostics
        for d in exc.diagnostics:
            assert d.location.line >= 1 and d.location.column >= 1
