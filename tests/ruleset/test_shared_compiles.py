"""Checked builds share compiles only where the declarations a text reads are the same
(interpreter/ruleset/shared_compiles.py): `validate` says the same with or without
sharing, and a combination that changes what a base text reads is compiled afresh."""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_test_support import ROOT, TINY_EXTRA, write_tiny

from interpreter.language.symbols import Signature, Symbols
from interpreter.load.ruleset_files import requirement_chain
from interpreter.ruleset import load
from interpreter.ruleset import shared_compiles as shared
from interpreter.ruleset.shared_compiles import SharedCompiles, WatchedSymbols, ask


def said(folder: Path, expansions: list[str] | None = None, mods: list[Path] | None = None):
    """Everything a checked build of the combination reports."""
    loaded = load(folder, expansions, mods, verdict=True, use_store=False)
    return [(str(d.location), d.message, d.hint, d.severity) for d in loaded.diagnostics]


def without_sharing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SharedCompiles, "compile", lambda self, key, compiler, make: make())


def combinations(folder: Path) -> list[list[str] | None]:
    """The base and every expansion with what it requires: what `validate` checks."""
    from interpreter.load.yaml_source import load_file

    offered = load_file(folder / "ruleset.yaml").data.get("expansions") or {}
    return [None, *(requirement_chain(folder, name, offered) for name in offered)]


ROCOCO = ROOT / "rulesets" / "rococo"
MODS = sorted((ROOT / "examples" / "mods").glob("*.yaml"))
CASES = [(ROCOCO, None), (ROOT / "rulesets" / "queens-necklace", None)]
CASES += [(ROCOCO, mod) for mod in MODS]


@pytest.mark.parametrize(
    ("folder", "mod"), CASES, ids=[f"{f.name}+{m.name if m else '-'}" for f, m in CASES]
)
def test_validate_says_the_same_with_and_without_sharing(
    folder: Path, mod: Path | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    mods = [mod] if mod else None
    shared_ = [said(folder, c, mods) for c in combinations(folder)]
    without_sharing(monkeypatch)
    assert shared_ == [said(folder, c, mods) for c in combinations(folder)]


# an expansion that changes what the base's texts read: `double` takes two numbers,
# `coins` belongs to the game; the base's `take` (`my.coins >= n`, `double(n)`) and
# `richest` (`p.coins`) compiled cleanly in the base and must fail in the combination
CHANGED = TINY_EXTRA + (
    "replace:\n"
    "  functions:\n"
    "    double: {params: {n: number, m: number}, returns: number, value: n * m}\n"
    "  counters:\n"
    "    coins: {per: game, initial: 3}\n"
)


def test_a_changed_declaration_compiles_the_base_texts_again(tmp_path: Path) -> None:
    folder = write_tiny(tmp_path / "tiny")
    (folder / "extra.yaml").write_text(CHANGED, encoding="utf-8")
    assert said(folder) == []  # compiled and kept
    messages = [message for _, message, _, _ in said(folder, ["extra"])]
    assert any("double" in m for m in messages), messages
    assert any("coins" in m for m in messages), messages
    assert said(folder) == []  # the kept compiles of the base still serve the base


def test_a_compile_with_problems_is_not_kept(tmp_path: Path) -> None:
    folder = write_tiny(tmp_path / "tiny")
    content = (folder / "content.yaml").read_text(encoding="utf-8")
    (folder / "content.yaml").write_text(content.replace("n * 2", "n * nothing"))
    assert any("nothing" in message for _, message, _, _ in said(folder))
    assert any("nothing" in message for _, message, _, _ in said(folder))


def test_watched_symbols_note_each_read_and_ask_answers_it_again() -> None:
    symbols = Symbols(counters={"gold": "player"}, functions={"f": Signature({"n": "number"})})
    watched = WatchedSymbols(symbols)
    watched.log = []
    assert watched.counters.get("gold") == "player"
    assert "silver" not in watched.counters
    assert watched.functions["f"].params == {"n": "number"}
    assert set(watched.counters) == {"gold"}
    assert watched.piece_property("colour") is None
    reads = list(watched.log)
    assert [question for question, _ in reads] == [
        ("get", "counters", "gold"),
        ("has", "counters", "silver"),
        ("get", "functions", "f"),
        ("all", "counters", None),
        ("call", "piece_property", ("colour",)),
    ]
    assert all(ask(symbols, question) == answer for question, answer in reads)
    symbols.counters["silver"] = "game"
    assert [ask(symbols, q) == a for q, a in reads] == [True, False, True, False, True]
    watched.log = None
    assert watched.counters.get("gold") == "player" and reads == list(reads)


def test_the_kept_compiles_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shared, "MAX_KEPT", 2)
    kept = SharedCompiles()

    class Compiler:
        def __init__(self) -> None:
            self.symbols = WatchedSymbols(Symbols())
            self.problems: list = []
            self.last_tree = None

    for n in range(5):
        kept.compile(("text", n), Compiler(), lambda n=n: (n, []))
    assert kept._count <= 2


def test_watched_symbols_answer_every_question_symbols_can_be_asked() -> None:
    """A method added to ``Symbols`` must be watched too, or its reads go unnoted."""
    tables = set(Symbols.__dataclass_fields__)
    methods = {
        name
        for name, value in vars(Symbols).items()
        if callable(value) and not name.startswith("_") and name not in tables
    }
    assert methods == {"piece_property", "space_property", "global_names"}
    assert methods <= set(vars(WatchedSymbols))
    watched = WatchedSymbols(Symbols())
    assert all(isinstance(getattr(watched, name), shared._WatchedTable) for name in tables)
