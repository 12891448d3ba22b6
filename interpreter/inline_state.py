"""Objects restored from a pickle with their attributes set one by one.

CPython 3.11 keeps an instance's attributes in a compact inline layout, which its
attribute reads are specialised for, until something asks for the instance's
``__dict__``; pickle's default restore does, and every later read of that object's
attributes takes the slower, general path. A stored ruleset (``ruleset/stored.py``)
played about 2 % slower than the same ruleset built afresh for that reason
(instructions counted, issue 13). Every class whose instances a ruleset holds takes
this base (``tests/test_inline_state.py`` checks).
"""

from __future__ import annotations

from typing import Any


class InlineState:
    __slots__ = ()

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)  # frozen dataclasses too
