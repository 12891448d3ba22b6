"""libyaml reads YAML as the pure reader does (interpreter/load/fast_yaml.py): the same
Document for every bundled file and for tricky texts, the pure reader for whatever
libyaml refuses or could read otherwise, and the same limits on both paths."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interpreter.errors import LoadError
from interpreter.load import fast_yaml, plain
from interpreter.load.yaml_source import Document, Limits, load_text

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(ROOT.glob("rulesets/**/*.yaml")) + sorted(ROOT.glob("examples/**/*.yaml"))
needs_clib = pytest.mark.skipif(fast_yaml.CParser is None, reason="ruamel.yaml.clib is absent")


@pytest.fixture(autouse=True)
def _libyaml_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test picks its path itself, whatever TABLETOP_RULES_PURE_YAML says outside."""
    monkeypatch.delenv(fast_yaml.PURE_SWITCH, raising=False)


def typed(data: Any) -> Any:
    """Data with every leaf's type spelled out (1 == 1.0 == True otherwise)."""
    if isinstance(data, dict):
        return {key: typed(value) for key, value in data.items()}
    if isinstance(data, list):
        return [typed(value) for value in data]
    return (type(data).__name__, data)


def reading(text: str, monkeypatch: pytest.MonkeyPatch, *, pure: bool, **limits: int) -> Any:
    """Everything a load keeps (data, positions, spans, problems), or its error."""
    with monkeypatch.context() as patch:
        if pure:
            patch.setenv(fast_yaml.PURE_SWITCH, "1")
        else:
            patch.delenv(fast_yaml.PURE_SWITCH, raising=False)
        try:
            doc = load_text(text, "f.yaml", Limits(**limits))
        except LoadError as exc:
            return [(str(d.location), d.message, d.hint) for d in exc.diagnostics]
    spans = {path: vars(span) for path, span in doc.spans.items()}
    return typed(doc.data), doc.key_positions, doc.value_positions, spans, doc.problems


def goes_fast(text: str) -> bool:
    """Whether libyaml reads ``text`` (rather than leaving it to the pure reader)."""
    doc = Document(path="f.yaml", text=text, data=None)

    def convert(events: Any, scalar: Any) -> Any:
        return plain.from_events(events, doc, Limits(), scalar)

    try:
        return fast_yaml.read(text, convert) is not None
    except LoadError:  # the fast path's own error (a number out of range, a bad key)
        return True


def same(text: str, monkeypatch: pytest.MonkeyPatch, **limits: int) -> Any:
    fast = reading(text, monkeypatch, pure=False, **limits)
    assert fast == reading(text, monkeypatch, pure=True, **limits)
    return fast


@needs_clib
@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_every_bundled_file_loads_the_same_through_libyaml(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = path.read_text(encoding="utf-8")
    loaded = same(text, monkeypatch)
    if path.parent.name == "rococo" and path.name != "functions.yaml":
        assert goes_fast(text)
        assert loaded[1] and loaded[2]  # positions were compared, not two empty tables


@needs_clib
def test_libyaml_reads_nearly_all_bundled_files() -> None:
    texts = {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8") for path in FILES}
    slow = sorted(name for name, text in texts.items() if not goes_fast(text))
    # a syntax error, anchors and a duplicate key (the first value counts: plain.Unusual);
    # a nesting too deep is refused on the fast path too, as the event scan refuses it
    # for the pure reader; no bundled ruleset (a bare colon in a flow mapping,
    # `{tiles: list:piece}`, which libyaml refuses, is written quoted: docs/format.md)
    assert slow == [
        "examples/broken/alias-bomb.yaml",
        "examples/broken/duplicate-key.yaml",
        "examples/broken/yaml-syntax.yaml",
    ]


SCALARS = [
    "yes",
    "no",
    "on",
    "off",
    "Yes",
    "NO",
    "y",
    "n",
    "true",
    "false",
    "True",
    "FALSE",
    "TRUE",
    "010",
    "0o10",
    "0O10",
    "0x1F",
    "0X1f",
    "0b101",
    "1_000",
    "+12",
    "-0",
    "-7",
    "0",
    "00",
    "09",
    "1e3",
    "1E3",
    "1.5e3",
    "1.5",
    ".5",
    "5.",
    "-.5",
    "1_0.5",
    "~",
    "null",
    "Null",
    "NULL",
    "1:20",
    "1:20:30",
    "190:20:30",
    "2024-01-01",
    "2001-12-14t21:59:43.10-05:00",
    "=",
    "<<x",
    "0.0",
    "-0.0",
    "1e-3",
    "12e03",
    "0xGG",
    "0o9",
    "1__0",
    "_1",
    "1_",
    "0b2",
    "++1",
    "1.2.3",
    "nan",
    "inf",
    "1,000",
    "$1",
    "0777",
    "0o777",
    "12:30",
    "-1:30",
    ".1e1",
    "1234567890",
    "-x",
    "x#y",
]


@needs_clib
def test_tricky_scalars_mean_what_the_yaml_1_2_reader_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "".join(f"k{i}: {scalar}\n" for i, scalar in enumerate(SCALARS))
    text += "".join(f"{scalar}: key{i}\n" for i, scalar in enumerate(["yes", "010", "0o10"]))
    assert goes_fast(text)
    data = same(text, monkeypatch)[0]
    meaning = {SCALARS[int(key[1:])]: value for key, value in data.items() if key[0] == "k"}
    assert meaning["yes"] == ("str", "yes") and meaning["on"] == ("str", "on")
    assert meaning["true"] == ("bool", True) and meaning["0o10"] == ("int", 8)
    assert meaning["010"] == ("int", 10) and meaning["1_000"] == ("int", 1000)
    assert meaning["~"] == ("NoneType", None) and meaning["1:20"] == ("str", "1:20")
    assert meaning["2024-01-01"] == ("str", "2024-01-01")
    assert data["yes"] == ("str", "key0") and data["8"] == ("str", "key2")


@needs_clib
@pytest.mark.parametrize("scalar", [".inf", "-.inf", "+.inf", ".Inf", ".NAN", ".nan", "1e400"])
def test_numbers_out_of_range_are_refused_alike(scalar: str, monkeypatch: pytest.MonkeyPatch):
    assert goes_fast(f"a: {scalar}\n")
    ((where, message, _),) = same(f"a: {scalar}\n", monkeypatch)
    assert where == "f.yaml:1:4" and "out of range" in message


SHAPES = {
    "quoted": 'a: "yes"\nb: \'010\'\nc: "x\\ty\\u00e9\\x41\\N"\n'
    "d: 'it''s'\ne: \"multi\n  line\"\n",
    "blocks": "a: |\n  one\n  two\nb: >\n  folded\n  text\n\n  para\nc: |2\n    indented\n"
    "d: >-\n  strip\ne: |+\n  keep\n\nf: x\n",
    "blank-lines": "a: |\n\n  lead\n   \n  b\n\nb: >\n  one\n    more\n  two\n\n\n  three\n"
    "c: >+\n  k\n\n\nd: 1\n",
    "multi-line": "a: one\n\n  two\n\n\n  three\nb: \"q1\n\n  q2\"\nc: 's1\n  s2\n\n  s3'\n",
    "flow": 'a: [1, two, "3", {x: y}]\nb: {p: 1, q: [a, b]}\nc: [one,\n  two]\n',
    "keys": '1: a\nno: b\n0x10: c\n"quoted": d\n? complex\n: e\n',
    "crlf": 'a: 1\r\nb: |\r\n  x\r\n  y\r\nc: "q\r\n  r"\r\n',
    "unicode": 'é: "ü 😀"\nb: 😀 x\nc: [😀, é]\nd: x\u00a0y\n',
    "comments": "# c\na: 1 # x\n# d\nb: |  # h\n  t\n",
    "sequences": "- a: 1\n  b: 2\n- [x, y]\n- {z: 3}\n- - deep\n- |\n  lit\n",
    "deep": "a:\n  b:\n    - c:\n        - d: >-\n            folded text\n            here\n",
    "markers": "---\na: 1\n...\n",
    "json": '{"a":1, "b":[1,2]}\n',
    "only-comments": "# nothing\n",
    "null-key": "~: a\n",
    "float-key": "1.5: a\n",
    "numbers": "a: 1e20\nb: 123456789012\nc: -0.0\n",
}


@needs_clib
@pytest.mark.parametrize("text", SHAPES.values(), ids=SHAPES.keys())
def test_tricky_texts_load_the_same_through_libyaml(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert goes_fast(text)
    same(text, monkeypatch)


PURE_ONLY = {
    "refused": "f: {tiles: list:piece}\n",  # YAML 1.2 that libyaml refuses
    "syntax": "a: [1, 2\nb: 3\n",
    "tab": "a:\t1\n",  # libyaml takes it, the pure reader refuses it
    "directive": "%YAML 1.1\n---\na: yes\n",  # 1.1 scalars: the pure reader knows
    "line-separator": 'a: "x\u2028y"\n',
    "empty-value": "a:\nb: 1\n",  # placed at the next token by the pure reader
    "empty-item": "a:\n  - \n  - x\n",
    "tag": "a: !!str 10\n",  # a TaggedScalar there
    "foreign-tag": "a: !foo x\n",
    "tagged-mapping": "a: !!map {x: 1}\n",  # a collection's tag, as a scalar's
    "tagged-list": "a: !!seq [1]\n",
    "bad-int": "a: !!int abc\n",
    "colon-in-flow": "d: [e:f]\n",
    "bare-scalar": "just text\n",
    "bare-block": "# c\n| # x\n  z\n",  # the pure reader fails on it: a located error
    "header-comment": "a: |# x\n  z\n",
    "spaced-blank-line": "a: |\n  \n    z\n",
    "anchor-name": "&a:b x\n",  # libyaml ends the name at the colon
    "anchored-bool": "a: &x true\nb: *x\n",  # libyaml's nodes lose the anchor
    "merge": "base: &b\n  x: 1\n  y: 2\nder:\n  <<: *b\n  y: 3\n",
    "inline-merge": "der:\n  <<: {x: 1}\n  y: 3\n",
    # a key equal to an earlier one, also to Python (`true` after `1`): the first counts
    "duplicates": "a: 1\nb: 2\na: 3\nc: {x: 1, x: 2}\n",
    "equal-keys": "1: a\ntrue: b\n",
    "anchors": "a: &n 5\nb: *n\nc: &s text\nd: [*s, *n]\ne: &l [1, 2]\nf: *l\n",
    "comment-after-bar": "a:\n  # c\n  | # x\n  z\n",  # the pure reader fails on it
}


@needs_clib
@pytest.mark.parametrize("text", PURE_ONLY.values(), ids=PURE_ONLY.keys())
def test_what_libyaml_refuses_or_reads_otherwise_goes_to_the_pure_reader(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not goes_fast(text)
    same(text, monkeypatch)


@needs_clib
def test_a_refused_file_still_loads_and_errors_stay_located(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = same(PURE_ONLY["refused"], monkeypatch)[0]
    assert data == {"f": {"tiles": ("str", "list:piece")}}
    ((where, message, _hint),) = same(PURE_ONLY["syntax"], monkeypatch)
    assert where.startswith("f.yaml:") and message.startswith("YAML syntax")


LIMITS = {
    "depth": ("a: " + "[" * 60 + "]" * 60 + "\n", "nesting deeper than 48 levels"),
    "digits": ("a: 1234567890123\n", "number has more than 12 digits"),
    "documents": ("a: 1\n---\nb: 2\n", "one YAML document"),
    "mapping-key": ("a: {{x: 1}: 2}\n", "a mapping cannot be a key"),
    "deepest": ("a: " + "[" * 5000 + "]" * 5000 + "\n", "nesting deeper than 48 levels"),
    # the libyaml path refuses as it walks: the same error where the scan meets one first
    "digits-key": ("1234567890123: a\n", "number has more than 12 digits"),
    "list-key": ("a: {[1]: 2}\n", "a list cannot be a key"),
    "key-before-depth": ("a: {[1]: " + "[" * 60 + "]" * 60 + "}\n", "a list cannot be a key"),
    "duplicate-then-deep": ("a: 1\na: 2\nb: " + "[" * 60 + "]" * 60 + "\n", "nesting deeper"),
    "deep-second-document": ("a: 1\n---\nb: " + "[" * 60 + "]" * 60 + "\n", "one YAML document"),
}


@needs_clib
@pytest.mark.parametrize("text, message", LIMITS.values(), ids=LIMITS.keys())
def test_the_limits_hold_on_the_libyaml_path(
    text: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert fast_yaml.suitable(text) and fast_yaml.same_reading(fast_yaml.events(text), text)
    ((where, said, hint),) = same(text, monkeypatch)
    assert message in said and hint and where.startswith("f.yaml:")


@needs_clib
def test_alias_bombs_go_to_the_pure_reader_and_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    aliases = "a: &x 1\n" + "".join(f"b{i}: *x\n" for i in range(70))
    bomb = "a: &a [1, 2, 3, 4]\nb: &b [*a, *a, *a, *a]\nc: [*b, *b, *b, *b]\n"
    assert not goes_fast(aliases) and not goes_fast(bomb)
    assert "more than 64 aliases" in same(aliases, monkeypatch)[0][1]
    assert "more than 40 nodes" in same(bomb, monkeypatch, max_nodes=40)[0][1]


@needs_clib
def test_node_count_on_the_libyaml_path_and_duplicate_keys_located(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    flat = "".join(f"k{i}: [1, 2]\n" for i in range(20))
    assert goes_fast(flat)
    ((_, message, _),) = same(flat, monkeypatch, max_nodes=40)
    assert "more than 40 nodes after aliases" in message
    problems = same(PURE_ONLY["duplicates"], monkeypatch)[4]
    assert [(p.location.line, p.location.column) for p in problems] == [(3, 1), (4, 11)]
    assert all("duplicate key" in p.message for p in problems)


@needs_clib
def test_the_environment_switch_forces_the_pure_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(fast_yaml.PURE_SWITCH, raising=False)
    assert fast_yaml.enabled()
    monkeypatch.setenv(fast_yaml.PURE_SWITCH, "0")
    assert fast_yaml.enabled()
    monkeypatch.setenv(fast_yaml.PURE_SWITCH, "1")
    assert not fast_yaml.enabled()
    assert fast_yaml.read("a: 1\n", lambda events, scalar: {}) is None
    assert load_text("a: 1\n", "f.yaml").data == {"a": 1}


def test_without_the_clib_the_pure_reader_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(fast_yaml.PURE_SWITCH, raising=False)
    monkeypatch.setattr(fast_yaml, "CParser", None)
    assert not fast_yaml.enabled()
    assert load_text("a: [1, yes]\n", "f.yaml").data == {"a": [1, "yes"]}


@needs_clib
def test_a_comment_the_pure_reader_fails_on_is_read_by_libyaml(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ruamel's pure reader raises NotImplementedError on this comment: it is the one
    known text the two paths load differently (libyaml rightly, the pure reader with a
    located error instead of a traceback)."""
    text = "a:  # c\n  value\n\nb: 1\n"
    assert reading(text, monkeypatch, pure=False)[0] == {"a": ("str", "value"), "b": ("int", 1)}
    ((where, message, hint),) = reading(text, monkeypatch, pure=True)
    assert where == "f.yaml:1:1" and "comment" in message and hint
