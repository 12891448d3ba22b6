"""The per-process cache of compiled rulesets (``interpreter.ruleset.load_or_raise``):
the same object while no file of the ruleset changes, a new build after an edit."""

from __future__ import annotations

from pathlib import Path

from interpreter.ruleset import load_or_raise


def test_an_unchanged_ruleset_is_loaded_once_and_an_edited_one_again(tiny: Path) -> None:
    first = load_or_raise(tiny)
    assert load_or_raise(tiny) is first
    manifest = tiny / "ruleset.yaml"
    manifest.write_text(manifest.read_text().replace("name: Tiny", "name: Tinier"))
    again = load_or_raise(tiny)
    assert again is not first and again.name == "Tinier"
