"""Whether a YAML file is a scenario file: light, so that `rules validate` asks it of
every file without loading the scenario checks (and jsonschema) for the others."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interpreter.load.yaml_source import Document

SCHEMA = "scenario.schema.json"
# the modeline `rules new` and the tutorial write: `# yaml-language-server: $schema=…`
_MODELINE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=(\S+)", re.MULTILINE)
MODELINE_LINES = 5  # a modeline is looked for in the file's first lines only


def is_scenario_file(document: Document) -> bool:
    """Whether ``document`` is a scenario file: its modeline names the scenario schema,
    or it is a mapping with `scenarios:` and `ruleset:`."""
    head = "\n".join(document.lines[:MODELINE_LINES])
    match = _MODELINE.search(head)
    if match is not None:
        return match.group(1).endswith(SCHEMA)
    data = document.data
    return isinstance(data, dict) and "scenarios" in data and "ruleset" in data
