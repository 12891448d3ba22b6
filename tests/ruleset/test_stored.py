"""Compiled rulesets kept on disk: used while the files are unchanged, rebuilt after an
edit, never an error when the store is off, broken or unwritable (issue 13)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from rules_test_support import ROCOCO

import interpreter.load.ruleset_files as ruleset_files
from interpreter import cache_folder
from interpreter.agents import RandomAgent
from interpreter.cli.main import cli
from interpreter.engine import executor
from interpreter.engine.game import Game
from interpreter.load.search import files_fixed
from interpreter.ruleset import load, stored


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(where))
    monkeypatch.delenv(cache_folder.CACHE_ENV, raising=False)
    return where / "tabletop-rules" / "rulesets"


def _no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make reading any rules file fail: what loads now comes from the store."""

    def refuse(*args, **kwargs):
        raise AssertionError("the files were read")

    monkeypatch.setattr(ruleset_files.Loader, "ruleset", refuse)


def _game_digest(ruleset, players: int = 3, seed: int = 7) -> str:
    game = Game(ruleset, [f"P{i}" for i in range(players)], seed=seed)
    agents = [RandomAgent(i, f"{seed}:{i}") for i in range(players)]
    moves = []
    while not game.is_over():
        decision = game.pending()[0]
        answer = agents[decision.player].choose(game, decision)
        moves.append(f"{decision.player}:{answer}")
        game.apply(decision.player, answer)
    moves.append(repr(game.result()))
    return hashlib.sha256("\n".join(moves).encode()).hexdigest()


def test_a_second_load_comes_from_the_store_and_plays_the_same_games(
    cache: Path, tiny: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = load(tiny)
    assert first.ruleset is not None and first.stored is not None
    assert list(cache.glob("*.pickle")), "nothing was written"
    _no_reading(monkeypatch)
    second = load(tiny)
    assert second.ruleset is not None and second.stored == first.stored
    assert second.items == first.items and second.files == first.files
    assert _game_digest(second.ruleset, 2) == _game_digest(first.ruleset, 2)


def test_rococo_from_the_store_plays_identical_games_and_explains_refusals(
    cache: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "rococo"
    shutil.copytree(ROCOCO, folder)
    built = load(folder, ["deluxe"])
    kept = load(folder, ["deluxe"])
    assert built.ruleset is not None and kept.ruleset is not None
    assert kept.stored is not None
    assert _game_digest(kept.ruleset) == _game_digest(built.ruleset)
    # a `can …` condition keeps the function that words its refusal (`why`)
    assert _explained(kept.ruleset) == _explained(built.ruleset) > 0


def test_a_stored_ruleset_keeps_its_effect_blocks_compiled(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = load(ROCOCO)
    assert built.ruleset is not None and built.stored is not None
    want = _game_digest(built.ruleset)

    def refuse(*args, **kwargs):
        raise AssertionError("a block was compiled again")

    monkeypatch.setattr(executor, "compile_block", refuse)
    _no_reading(monkeypatch)
    kept = load(ROCOCO)
    assert kept.ruleset is not None and kept.stored == built.stored
    assert _game_digest(kept.ruleset) == want  # every block it ran came from the store


def _explained(ruleset) -> int:
    """How many `can …` terms of choices and options can say why they fail."""
    count = 0
    for action in ruleset.actions.values():
        for node in action.effect.nodes.values():
            terms = getattr(node, "where_terms", ()) or ()
            options = getattr(node, "options", ()) or ()
            terms = (*terms, *(t for option in options for t in option.guard_terms))
            count += sum(callable(getattr(fn, "why", None)) for _, fn in terms)
    return count


def test_editing_one_file_rebuilds(
    cache: Path, tiny: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load(tiny)
    content = tiny / "content.yaml"
    content.write_text(content.read_text() + "\n# an edit\n", encoding="utf-8")
    reads = []
    original = ruleset_files.Loader.ruleset

    def counting(self, *args, **kwargs):
        reads.append(args)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(ruleset_files.Loader, "ruleset", counting)
    again = load(tiny)
    assert again.ruleset is not None and len(reads) == 1
    load(tiny)
    assert len(reads) == 1, "the rebuilt ruleset was not stored again"


def test_an_edit_that_breaks_the_rules_is_reported_not_hidden_by_the_store(
    cache: Path, tiny: Path
) -> None:
    assert load(tiny).ruleset is not None
    content = tiny / "content.yaml"
    content.write_text(content.read_text().replace("gain(", "gian(", 1), encoding="utf-8")
    broken = load(tiny)
    assert broken.ruleset is None
    assert any("gian" in d.message for d in broken.diagnostics)


def test_a_broken_entry_is_a_miss(cache: Path, tiny: Path) -> None:
    load(tiny)
    for entry in cache.glob("*.pickle"):
        entry.write_bytes(b"not a pickle")
    again = load(tiny)
    assert again.ruleset is not None and again.diagnostics == []


def test_the_store_can_be_turned_off(
    cache: Path, tiny: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache_folder.CACHE_ENV, "0")
    loaded = load(tiny)
    assert loaded.ruleset is not None and loaded.stored is None
    assert not cache.exists()


def test_an_unwritable_store_is_no_error(
    tmp_path: Path, tiny: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    loaded = load(tiny)
    assert loaded.ruleset is not None and loaded.diagnostics == []


def test_the_catalog_of_a_stored_load_is_read_when_asked(cache: Path, tiny: Path) -> None:
    first = load(tiny)
    second = load(tiny)
    assert isinstance(second.catalog, stored.StoredCatalog)
    assert second.catalog.item_keys() == first.catalog.item_keys()
    assert second.catalog.document_paths() == first.catalog.document_paths()
    # anything else loads the whole catalog: the documents with their text
    texts = [d.text for d in second.catalog.documents]
    assert texts == [d.text for d in first.catalog.documents]


def test_the_same_rules_named_another_way_are_shown_the_way_they_were_named(
    cache: Path, tiny: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stored paths are those of the load that stored them: a folder named by its
    absolute path once and by a relative one after must not share an entry."""
    monkeypatch.chdir(tiny.parent)
    absolute = load(tiny.resolve())
    relative = load(Path(tiny.name))
    again = load(Path(tiny.name))
    assert again.stored == relative.stored != absolute.stored
    assert str(again.catalog.folder) == tiny.name
    assert str(absolute.catalog.folder) == str(tiny.resolve())
    assert again.catalog.document_paths() == relative.catalog.document_paths()


def test_a_second_validate_reads_only_the_verdict_and_says_the_same(
    cache: Path, tiny: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`validate` of unchanged rules reads the small verdict file of each combination
    (the lint's warnings, the catalog's summary), not the stored code; an edit
    brings back the full check."""
    content = tiny / "content.yaml"  # an unused function: a lint warning to keep
    content.write_text(
        content.read_text().replace(
            "functions:\n", 'functions:\n  unused_fn: {returns: number, value: "1"}\n', 1
        ),
        encoding="utf-8",
    )
    runner = CliRunner()
    first = runner.invoke(cli, ["validate", str(tiny)])
    assert "unused_fn" in first.output and first.exit_code == 0

    def refuse(*args, **kwargs):
        raise AssertionError("the stored entry was read")

    monkeypatch.setattr(stored, "fetch", refuse)
    _no_reading(monkeypatch)
    second = runner.invoke(cli, ["validate", str(tiny)])
    assert (second.output, second.exit_code) == (first.output, first.exit_code)
    strict = runner.invoke(cli, ["validate", "--strict", str(tiny)])
    assert strict.exit_code == 1 and "error" in strict.output and "unused_fn" in strict.output

    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache.parent.parent))
    content.write_text(content.read_text().replace("gain(", "gian(", 1), encoding="utf-8")
    broken = runner.invoke(cli, ["validate", str(tiny)])
    assert broken.exit_code == 1 and "gian" in broken.output


def test_validate_builds_lazily_keeps_its_verdict_but_no_code(cache: Path, tiny: Path) -> None:
    """A verdict load compiles each function only when called and stores no code:
    the first play builds and stores its own; both play the same games."""
    checked = load(tiny, verdict=True)
    assert checked.valid and checked.ruleset is not None
    assert not list(cache.glob("*.pickle"))  # the code is not stored
    played = load(tiny)
    assert played.ruleset is not None and list(cache.glob("*.pickle"))
    assert _game_digest(checked.ruleset, 2) == _game_digest(played.ruleset, 2)


def test_verdicts_without_code_are_pruned_too(
    cache: Path, tiny: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stored, "MAX_ENTRIES", 1)
    runner = CliRunner()
    assert runner.invoke(cli, ["validate", "--with", "extra", str(tiny)]).exit_code == 0
    assert runner.invoke(cli, ["validate", str(tiny)]).exit_code == 0
    kept = {p.stem for p in cache.iterdir() if p.is_file()}
    assert len(kept) == 1, kept


def test_a_small_fact_of_a_file_is_kept_until_the_file_changes(cache: Path, tmp_path: Path) -> None:
    source = tmp_path / "overlay.yaml"
    source.write_text("one")
    calls = []

    def compute(path: Path) -> str:
        calls.append(path)
        return path.read_text()

    assert stored.file_fact(source, "test", compute) == "one"
    assert stored.file_fact(source, "test", compute) == "one"
    assert len(calls) == 1
    source.write_text("two")
    assert stored.file_fact(source, "test", compute) == "two"
    assert len(calls) == 2


def test_a_files_digest_is_worked_out_once_while_the_files_are_fixed(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text("a: 1\n")
    first = stored.digest(path)
    with files_fixed():
        assert stored.digest(path) == first
        path.write_text("a: 2\n")  # a command's files do not change while it runs
        assert stored.digest(path) == first
        with files_fixed():  # nested: the same table
            assert stored.digest(path) == first
    assert stored.digest(path) != first  # outside, every call reads the file
    path.unlink()
    with files_fixed():
        assert stored.digest(path) is None


def test_the_interpreter_s_stamp_lists_its_files_as_os_walk_does(tmp_path: Path) -> None:
    """The files an entry's key depends on, in os.walk's order from the top (folders by
    name, links to folders not followed, ``__pycache__`` left out)."""
    import os

    def walked(top: Path) -> list[str]:
        stamps = []
        for folder, folders, files in os.walk(top):
            folders[:] = sorted(f for f in folders if f != "__pycache__")
            for name in sorted(files):
                if name.endswith((".py", ".lark", ".json")):
                    stat = os.stat(os.path.join(folder, name))
                    where = os.path.relpath(os.path.join(folder, name), top)
                    stamps.append(f"{where}:{stat.st_size}:{stat.st_mtime_ns}")
        return stamps

    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "x.py").write_text("1")
    (tmp_path / "A.py").write_text("22")
    (tmp_path / "a_b").mkdir()
    (tmp_path / "a_b" / "y.json").write_text("3")
    (tmp_path / "a_b" / "notes.txt").write_text("not code")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "z.py").write_text("")
    (tmp_path / "linked").symlink_to(tmp_path / "b")
    (tmp_path / "f.py").symlink_to(tmp_path / "A.py")
    for top in (tmp_path, stored._PACKAGE):
        found: list[str] = []
        stored._stamp_folder(str(top), "", found)
        assert found == walked(top)
