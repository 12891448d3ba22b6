"""Log headers whose expansion and mod ids are garbage (issue 44), for
``test_log_headers.py``.

Case ``k`` of seed ``S`` is ``make_header("S:k")``, built from ``random.Random("S:k")``
alone: the ``options`` of a Rococo log's header with its ``expansions`` and ``mods``
drawn from ``IDS`` and ``MODS`` (empty, NUL, control characters, a newline at the end,
huge, not a text, lookalikes, the real ids, a real combination spelled as one id…), or
not a list at all. Replay must give such a log one verdict whatever the cache holds,
and never a traceback (``verdict``).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from interpreter.cli.main import cli

EVENTS = 6  # events of the base game kept after the header (replay stops early: exit 3)
REAL = ["deluxe", "jewelry_box", "fancy", "festive"]
IDS: list[Any] = [
    "",
    "\x00",
    "deluxe\x00jewelry_box",  # the cache once joined [deluxe, jewelry_box] with a NUL
    "deluxe\n",
    "\ndeluxe",
    " deluxe",
    "deluxe\t",
    "de\x1bluxe",
    "DELUXE",
    "délux",
    "deluxe\u200b",
    "x" * 5000,
    "1deluxe",
    "../deluxe",
    "nope",
    0,
    1.5,
    None,
    True,
    [],
    {},
    ["deluxe"],
    {"id": "deluxe"},
    *REAL,
]
MODS: list[Any] = [
    "",
    "\x00",
    "gift\n",
    "gift\x00",
    "mods/gift.yaml",
    "/etc/passwd",
    "x" * 5000,
    {"id": ""},
    {"id": "gift\n"},
    {"id": "\x00"},
    {"id": 5},
    {"id": "gift", "digest": "sha256:" + "0" * 64},
    {},
    7,
    None,
    [],
]
NOT_A_LIST: list[Any] = ["deluxe", "", None, 5, {"deluxe": True}, "\x00"]


def make_header(seed: str) -> dict[str, Any]:
    """The header options of case ``seed``."""
    rng = random.Random(seed)
    options: dict[str, Any] = {}
    if rng.random() < 0.1:
        options["expansions"] = rng.choice(NOT_A_LIST)
    else:
        count = rng.choice([0, 1, 1, 2, 3])
        options["expansions"] = [
            rng.choice(IDS if rng.random() < 0.7 else REAL) for _ in range(count)
        ]
    roll = rng.random()
    if roll < 0.3:
        options["mods"] = [rng.choice(MODS) for _ in range(rng.choice([1, 1, 2]))]
    elif roll < 0.35:
        options["mods"] = rng.choice(NOT_A_LIST)
    return options


def write_log(base: Path, options: Any, path: Path) -> Path:
    """``base``'s header with these ``options`` and its first ``EVENTS`` events."""
    lines = base.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["options"] = options
    header.pop("ruleset_digest", None)  # expansions change the digest: no warning about it
    text = "\n".join([json.dumps(header), *lines[1 : 1 + EVENTS]]) + "\n"
    path.write_text(text, encoding="utf-8")
    return path


def verdict(log: Path, cache: Path) -> tuple[int, str]:
    """`rules replay LOG` with ``cache`` as the cache folder: its exit code and output.
    A traceback, an exception or an exit code other than 0, 1 or 3 fails."""
    result = CliRunner().invoke(
        cli, ["replay", str(log)], env={"XDG_CACHE_HOME": str(cache)}, catch_exceptions=True
    )
    shown = f"{log.name}: {result.output[-2000:]}"
    assert "Traceback" not in result.output, shown
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{type(result.exception).__name__}: {shown}") from result.exception
    assert result.exit_code in (0, 1, 3), shown
    return result.exit_code, result.output
