"""Finding a ruleset's files, loading them and merging them (with overlays)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_test_support import ROCOCO, place, shown

from interpreter.load.ruleset_files import SECTIONS, Loader, resolve_ruleset


def catalog_of(folder: Path, expansions=None, mods=None):
    loader = Loader()
    catalog = loader.ruleset(folder, expansions, mods)
    return catalog, loader.diagnostics


def messages(diagnostics) -> list[str]:
    return [d.message for d in diagnostics]


# ---------------------------------------------------------------------- finding
def test_resolve_by_folder_manifest_and_id(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert resolve_ruleset(str(ROCOCO)) == ROCOCO
    assert resolve_ruleset(str(ROCOCO / "ruleset.yaml")) == ROCOCO
    monkeypatch.chdir(tmp_path)  # ids are found in the project's rulesets/ from anywhere
    assert resolve_ruleset("rococo").resolve() == ROCOCO.resolve()
    assert resolve_ruleset("no-such-game") is None
    assert resolve_ruleset(str(tmp_path)) is None  # a folder without ruleset.yaml


# ---------------------------------------------------------------------- loading
@pytest.fixture(scope="module")
def rococo():
    return catalog_of(ROCOCO)


def test_rococo_catalog(rococo) -> None:
    catalog, diagnostics = rococo
    assert diagnostics == []
    assert catalog.manifest["id"] == "rococo"
    assert len(catalog.documents) == 1 + len(catalog.manifest["include"])
    assert set(catalog.sections) == set(SECTIONS)
    assert set(catalog.singletons) == {"structure", "scoring"}
    assert "hire" in catalog.sections["actions"]
    assert "D01" in catalog.sections["components"]


def test_items_remember_where_they_were_written(rococo) -> None:
    catalog, _ = rococo
    hire = catalog.sections["actions"]["hire"]
    assert str(hire.location(key=True)) == place(ROCOCO / "actions.yaml", "hire:")
    label = hire.location("label")
    assert label.line == hire.location(key=True).line + 1


def test_tiny_ruleset_loads_without_diagnostics(tiny: Path) -> None:
    catalog, diagnostics = catalog_of(tiny)
    assert diagnostics == []
    assert sorted(catalog.sections["components"]) == ["c1", "c2", "c3", "pawn"]


def test_missing_include_is_reported_at_its_entry(tiny: Path) -> None:
    manifest = tiny / "ruleset.yaml"
    manifest.write_text(
        manifest.read_text().replace("[content.yaml]", "[content.yaml, nothere.yaml]")
    )
    _, diagnostics = catalog_of(tiny)
    (d,) = diagnostics
    assert str(d.location) == place(manifest, "nothere.yaml")
    assert d.message == "included file 'nothere.yaml' does not exist"


def test_missing_manifest_file(tmp_path: Path) -> None:
    catalog, diagnostics = catalog_of(tmp_path)
    assert catalog.manifest == {}
    assert len(diagnostics) == 1 and "cannot read" in diagnostics[0].message


def test_duplicate_id_across_files_points_at_both(tiny: Path) -> None:
    (tiny / "more.yaml").write_text("components:\n  c2: {kind: card, suit: red, points: 1}\n")
    manifest = tiny / "ruleset.yaml"
    manifest.write_text(manifest.read_text().replace("[content.yaml]", "[content.yaml, more.yaml]"))
    _, diagnostics = catalog_of(tiny)
    (d,) = diagnostics
    assert str(d.location) == place(tiny / "more.yaml", "c2")
    assert d.message == "duplicate id 'c2' in `components`"
    assert f"first defined at {place(tiny / 'content.yaml', 'c2:')}" in d.hint


def test_singleton_defined_twice(tiny: Path) -> None:
    (tiny / "more.yaml").write_text("scoring:\n  score: coins\n  steps: []\n")
    manifest = tiny / "ruleset.yaml"
    manifest.write_text(manifest.read_text().replace("[content.yaml]", "[content.yaml, more.yaml]"))
    _, diagnostics = catalog_of(tiny)
    (d,) = diagnostics
    assert str(d.location) == place(tiny / "more.yaml", "scoring")
    assert "`scoring` is defined twice" in d.message


def test_a_broken_file_does_not_stop_the_others(tiny: Path) -> None:
    (tiny / "broken.yaml").write_text("constants: {a: [\n")
    (tiny / "fine.yaml").write_text("constants:\n  extra_value: {value: 1}\n")
    manifest = tiny / "ruleset.yaml"
    manifest.write_text(
        manifest.read_text().replace("[content.yaml]", "[content.yaml, broken.yaml, fine.yaml]")
    )
    catalog, diagnostics = catalog_of(tiny)
    assert len(diagnostics) == 1 and diagnostics[0].location.path == shown(tiny / "broken.yaml")
    assert "extra_value" in catalog.sections["constants"]


# --------------------------------------------------------------------- overlays
def test_expansion_adds_patches_and_removes(tiny: Path) -> None:
    catalog, diagnostics = catalog_of(tiny, expansions=["extra"])
    assert diagnostics == []
    components = catalog.sections["components"]
    assert "c4" in components and "c3" not in components
    assert components["c1"].data["points"] == 4
    assert components["c1"].data["suit"] == "red"  # a patch merges keys
    assert catalog.applied == ["extra"]


def test_patched_key_is_located_in_the_overlay(tiny: Path) -> None:
    catalog, _ = catalog_of(tiny, expansions=["extra"])
    c1 = catalog.sections["components"]["c1"]
    assert str(c1.location("points")) == place(tiny / "extra.yaml", "4}")
    assert str(c1.location("suit")) == place(tiny / "content.yaml", "red, points: 2")


def test_expansion_not_offered(tiny: Path) -> None:
    _, diagnostics = catalog_of(tiny, expansions=["nope"])
    (d,) = diagnostics
    assert "offers no expansion 'nope'" in d.message
    assert "extra" in d.hint


def _mod(tmp_path: Path, text: str) -> Path:
    mod = tmp_path / "mod.yaml"
    mod.write_text(text, encoding="utf-8")
    return mod


@pytest.mark.parametrize(
    "body, message, mark",
    [
        (
            "add:\n  components:\n    c1: {kind: card, suit: red, points: 1}\n",
            "duplicate id 'c1' in `components`",
            "c1",
        ),
        (
            "replace:\n  components:\n    c9: {kind: card, suit: red, points: 1}\n",
            "cannot replace 'c9': `components` has no such item",
            "c9",
        ),
        (
            "patch:\n  components:\n    c9: {points: 1}\n",
            "cannot patch 'c9': `components` has no such item",
            "c9",
        ),
        (
            "remove:\n  components: [c9]\n",
            "cannot remove 'c9': `components` has no such item",
            "c9",
        ),
        (
            "overlay: {id: m2, name: M2, requires: [extra]}\n",
            "'m2' requires 'extra', which is not applied",
            "extra]",
        ),
    ],
)
def test_overlay_mistakes(tiny: Path, tmp_path: Path, body: str, message: str, mark: str) -> None:
    header = "" if body.startswith("overlay:") else "overlay: {id: m, name: M}\n"
    mod = _mod(tmp_path, header + body)
    _, diagnostics = catalog_of(tiny, mods=[mod])
    assert message in messages(diagnostics)
    (d,) = [d for d in diagnostics if d.message == message]
    assert str(d.location) == place(mod, mark)


def test_overlay_replaces_whole_items(tiny: Path, tmp_path: Path) -> None:
    mod = _mod(
        tmp_path,
        "overlay: {id: m, name: M}\nreplace:\n  components:\n"
        "    c1: {kind: card, suit: black, points: 3}\n",
    )
    catalog, diagnostics = catalog_of(tiny, mods=[mod])
    assert diagnostics == []
    assert catalog.sections["components"]["c1"].data == {
        "kind": "card",
        "suit": "black",
        "points": 3,
    }


def test_missing_overlay_file(tiny: Path, tmp_path: Path) -> None:
    _, diagnostics = catalog_of(tiny, mods=[tmp_path / "nothing.yaml"])
    assert messages(diagnostics) == ["overlay file does not exist"]


# ----------------------------------------------------------------------- digest
def test_digest_is_stable_and_follows_the_data(tiny: Path) -> None:
    first, _ = catalog_of(tiny)
    again, _ = catalog_of(tiny)
    assert first.digest() == again.digest()
    assert first.digest().startswith("sha256:") and len(first.digest()) == 7 + 64
    content = tiny / "content.yaml"
    # Comments, spacing and quoting do not change the data, so not the digest.
    content.write_text(
        "# a comment\n" + content.read_text().replace("{value: 7}", "{ value:  '7' }")
    )
    changed, _ = catalog_of(tiny)
    assert changed.digest() != first.digest()  # '7' is a text, not the number 7
    content.write_text(
        "# a comment\n" + content.read_text().replace("{ value:  '7' }", "{value:   7}")
    )
    commented, _ = catalog_of(tiny)
    assert commented.digest() == first.digest()
    expanded, _ = catalog_of(tiny, expansions=["extra"])
    assert expanded.digest() != first.digest()
