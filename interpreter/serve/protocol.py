"""The messages between a page and the server: JSON text, checked before use.

Page → server, one JSON object a message:

* ``{"type": "hello", "token": T}``: the first message; the token opens a seat (or
  the spectator's view). Until it does, nothing else is read.
* ``{"type": "choose", "decision": ID, "option": TEXT}``: the option chosen, and the
  id of the decision it answers (as the last table message gave it).

Server → page: ``{"type": "table", …}`` (``table.py``) after the hello and after
every move; ``{"type": "error", "message": TEXT}`` for a message refused, which
changes nothing. A message that is not one of these is refused with the reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from interpreter.serve.host import Refused

MAX_MESSAGE = 4096  # characters of a page's message: a token and an option text fit well
MAX_OPTION = 1000  # characters of an option text


@dataclass(frozen=True)
class Hello:
    token: str


@dataclass(frozen=True)
class Choose:
    decision: int
    option: str


def parse(text: Any) -> Hello | Choose:
    """A page's message, or ``Refused`` saying what is wrong with it."""
    if not isinstance(text, str):
        raise Refused("a message is JSON text")
    if len(text) > MAX_MESSAGE:
        raise Refused(f"a message is at most {MAX_MESSAGE} characters")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise Refused(f"a message is one JSON object ({exc})") from None
    if not isinstance(data, dict):
        raise Refused("a message is one JSON object")
    kind = data.get("type")
    if kind == "hello":
        token = data.get("token")
        if not isinstance(token, str) or not token:
            raise Refused('"hello" needs "token": the key in your link')
        return Hello(token)
    if kind == "choose":
        decision, option = data.get("decision"), data.get("option")
        if type(decision) is not int:
            raise Refused('"choose" needs "decision": the id of the decision it answers')
        if not isinstance(option, str) or not option or len(option) > MAX_OPTION:
            raise Refused(f'"choose" needs "option": an option\'s text (1 to {MAX_OPTION})')
        return Choose(decision, option)
    raise Refused(f'unknown message type {str(kind)[:40]!r}: "hello" or "choose"')


def error(message: str) -> str:
    return json.dumps({"type": "error", "message": message}, ensure_ascii=False)


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False)
