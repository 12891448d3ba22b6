"""What one player saw happen since an event: the transcript's lines, for a live game.

A person at the table sees the others move and the chance outcomes land; a terminal
has to say so in words. The words are the transcript's (``log/transcript.py``), so
they hold exactly what ``rules transcript --as PLAYER`` would show that player: the
game's events so far are replayed in memory (with the game's own rules, no file and
no loading) and written for that player's seat, then cut at the event asked for.
"""

from __future__ import annotations

from interpreter.engine.game import Game
from interpreter.log.transcript import Line, read_live_game

SHOWN = ("heading", "event", "reveal")  # not the notes on an unfinished log


def lines_since(game: Game, seat: int, after: int) -> list[Line]:
    """The lines about events after the first ``after`` ones, as ``seat`` may know
    them: headings, events (others' decisions, chance outcomes) and reveals."""
    if len(game.events) <= after:
        return []
    lines = read_live_game(game, seat).lines
    return [line for line in lines if line.event > after and line.kind in SHOWN]
