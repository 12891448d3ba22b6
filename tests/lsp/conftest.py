"""One language server per test module, on a copy of Rococo and a mod of it.

Starting the server and the first check of Rococo take seconds; the server then
keeps the ruleset warm, so each test only pays for its own edits.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for `lsp_client`

from lsp_client import LspClient
from rules_test_support import ROCOCO

MOD = """\
overlay:
  id: gift
  name: Gift
  base: ../rococo

add:
  actions:
    gift:
      label: A gift
      params: {card: piece}
      effect: |
        gain(livres, 1)
        do hire(card: card)
"""


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a copy of Rococo and the mod `mods/gift.yaml` (base ../rococo)."""
    root = tmp_path_factory.mktemp("lsp")
    shutil.copytree(ROCOCO, root / "rococo")
    (root / "mods").mkdir()
    (root / "mods" / "gift.yaml").write_text(MOD, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def server(workspace: Path) -> Iterator[LspClient]:
    client = LspClient(workspace, workspace / "server.log")
    try:
        client.initialize(workspace)
        yield client
    finally:
        client.close()
