"""Shared fixtures: a writable copy of Rococo, a tiny ruleset, a loading memo.

Tests that change a ruleset work on a copy in ``tmp_path``; nothing under
``rulesets/`` is ever written. Helpers live in ``rules_test_support.py``.
"""

from __future__ import annotations

import copy
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for `rules_test_support`

from rules_test_support import ROCOCO, write_tiny

# Stored rulesets and the parser's cache of a test session go to a folder of its own,
# never to the user's cache (interpreter/ruleset/stored.py, language/parser.py).
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="tabletop-rules-tests-")

# In CI the property tests replay the same examples every run, so a landing never
# depends on luck; locally they explore new examples each time.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture
def rococo_copy(tmp_path: Path) -> Path:
    """A writable copy of rulesets/rococo."""
    target = tmp_path / "rococo"
    shutil.copytree(ROCOCO, target)
    return target


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """A small valid ruleset that uses every section (and offers one expansion)."""
    return write_tiny(tmp_path / "tiny")


@pytest.fixture
def memo_loads(monkeypatch: pytest.MonkeyPatch):
    """Load each (path, bytes) only once while a test runs.

    Loading YAML is the slow part of checking a ruleset; property tests that
    change one file of Rococo per example reuse the other files' documents.
    Loading is a pure function of the bytes, so this changes no outcome.
    """
    import interpreter.load.ruleset_files as ruleset_files
    from interpreter.errors import LoadError

    original = ruleset_files.load_file
    cache: dict[tuple, object] = {}

    def load_file(path, *args, **kwargs):
        try:
            raw = Path(path).read_bytes()
        except OSError:
            return original(path, *args, **kwargs)
        key = (str(path), raw, args, tuple(sorted(kwargs.items())))
        if key not in cache:
            try:
                cache[key] = original(path, *args, **kwargs)
            except LoadError as exc:
                cache[key] = exc
        value = cache[key]
        if isinstance(value, LoadError):
            raise value
        return copy.copy(value)  # the loader may rebind `.data` of its copy

    monkeypatch.setattr(ruleset_files, "load_file", load_file)
    return cache
