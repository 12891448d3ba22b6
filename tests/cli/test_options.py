"""Options several commands share (``cli/options.py``): an expansion named with
``--with`` is an id as the schemas spell one, or a usage error (issue 44: an empty id
could name what the cache holds for no expansion, and `rules play --with ""` played
the plain game once it was cached)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_test_support import invoke

MOD = """\
overlay:
  id: {id}
  name: Gift
  base: rococo

add:
  actions:
    gift:
      label: A gift
      params: {{card: piece}}
      effect: |
        gain(livres, 1)
        do hire(card: card)
"""


@pytest.mark.parametrize("bad", ["", "\x00", "deluxe\x00jewelry_box", "deluxe\n", "x" * 201])
@pytest.mark.parametrize(
    "command",
    [
        ["validate", "rococo", "--with"],
        ["play", "rococo", "--players", "2", "--with"],
        ["simulate", "rococo", "--games", "1", "--with"],
        ["simulate", "rococo", "--games", "1", "--versus-with"],
    ],
)
def test_an_expansion_that_is_no_id_is_a_usage_error(command: list[str], bad: str) -> None:
    result = invoke(*command, bad)
    assert result.exit_code == 2, result.output
    option = command[-1]
    assert f"Invalid value for '{option}'" in result.output
    assert "is not an expansion id" in result.output


@pytest.mark.parametrize("mod_id", ['""', '"gift\\n"', '"gi\\u0000ft"'])
def test_a_mod_whose_id_is_no_id_is_refused(tmp_path: Path, mod_id: str) -> None:
    mod = tmp_path / "gift.yaml"
    mod.write_text(MOD.format(id=mod_id), encoding="utf-8")
    result = invoke("validate", str(mod))
    assert result.exit_code == 1
    assert f"{mod}:2:7: error: " in result.output, result.output
    assert invoke("play", "rococo", "--players", "2", "--mod", str(mod)).exit_code == 1


def test_an_expansion_id_is_taken() -> None:
    result = invoke("validate", "rococo", "--with", "deluxe", "--with", "jewelry_box")
    assert result.exit_code == 0, result.output
