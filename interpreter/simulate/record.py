"""What each player did with each item during one game, decision by decision.

A decision's words name items (components, spaces, actions): a chosen option counts
as a *use* of each item it names, and an item named by any option of a player's
decision was *offered* to that player. An option that names no item ("bonus", "yes")
belongs to the component whose ability it runs: the component bound where the
decision is asked (``Game.scope``) one of whose properties names an action also bound
there (a card whose `bonus` property is the action on offer). It is counted as
"TEXT ID" ("bonus E02"), and what the player's counters gained from it, until the
player's next decision at the same depth of actions or another player's decision, is
added up under that key, if that next decision comes in the same round and phase
(else what the phase's end gives would count as its gain: not measured). Nothing
here knows a game: only ids, properties and counters.
"""

from __future__ import annotations

import re
from typing import Any

from interpreter.engine.game import Game
from interpreter.language.values import ActionRef, Piece

WORD = re.compile(r"[^\s,;:()\[\]{}=]+")
MAX_TEXTS = 4096  # option texts (and sets of options) remembered with the items they name
MAX_OPEN = 64  # abilities whose gains are followed at once (more: the oldest are dropped)


# per dict of items (one per ruleset, kept by ``play.named_items``): the items each
# option text names, and the items each set of options names
_CACHES: dict[int, tuple[dict[str, tuple[str, ...]], dict[tuple[str, ...], frozenset[str]]]] = {}


class Recorder:
    """Plays decisions into a game and counts, per player: ``used`` (chosen options'
    items and "VERB id"), ``offered`` (decisions that offered the item), ``measured``
    (abilities whose gain was measured) and ``gained`` (key -> counter -> total)."""

    def __init__(self, game: Game, names: list[str], items: dict[str, str]):
        self.game = game
        self.items = items
        self.seat_of = {game.state.players.index(n): p for p, n in enumerate(names)}
        ruleset = game.ruleset
        self.counters = [n for n, c in ruleset.counters.items() if c.per == "player"]
        self.pieces = ruleset.pieces
        self.used: list[dict[str, int]] = [{} for _ in names]
        self.offered: list[dict[str, int]] = [{} for _ in names]
        self.measured: list[dict[str, int]] = [{} for _ in names]
        self.gained: list[dict[str, dict[str, int]]] = [{} for _ in names]
        self._named, self._offers = _CACHES.setdefault(id(items), ({}, {}))
        # (player, seat, depth, key, counters at the start, round and phase) of the
        # abilities under way
        self._open: list[tuple[int, int, int, str, list[int], tuple]] = []

    def apply(self, seat: int, options: tuple[str, ...], text: str) -> None:
        """Make ``seat``'s decision ``text`` (one of ``options``) and count it."""
        p = self.seat_of.get(seat)
        if p is None:  # a rules-driven seat: not a player of the report
            self.game.apply(seat, text)
            return
        env, depth = self.game.scope(seat)
        self._close(seat, depth)
        offered = self.offered[p]
        for item in self._offer(options):
            offered[item] = offered.get(item, 0) + 1
        named = self._names(text)
        keys: list[str] = []
        if named:
            words = WORD.findall(text)
            verb = words[0] if words[0] not in self.items else ""
            keys += named
            if verb:  # "play X": X played, as opposed to taken or rented
                keys += [f"{verb} {item}" for item in named]
        else:
            owners = self._owners(env)
            keys += [f"{text} {owner}" for owner in owners]
        used = self.used[p]
        for key in keys:
            used[key] = used.get(key, 0) + 1
        if not named and keys:
            if len(self._open) >= MAX_OPEN:
                del self._open[0]
            start, when = self._values(seat), self._when()
            self._open += [(p, seat, depth, key, start, when) for key in keys]
        self.game.apply(seat, text)

    def finish(self) -> None:
        """The game is over: an ability still under way is not measured (the final
        scoring would be counted as its gain)."""
        self._open.clear()

    def _close(self, seat: int, depth: int) -> None:
        """Measure the abilities this decision ends: another player's, or one at their
        own depth of actions or above."""
        still = []
        now = self._when()
        for entry in self._open:
            p, owner, at, key, start, when = entry
            if owner == seat and depth > at:
                still.append(entry)
                continue
            if when != now:
                continue
            measured = self.measured[p]
            measured[key] = measured.get(key, 0) + 1
            gains = self.gained[p].setdefault(key, {})
            for name, before, now in zip(self.counters, start, self._values(owner), strict=True):
                if now != before:
                    gains[name] = gains.get(name, 0) + now - before
        self._open = still

    def _when(self) -> tuple:
        engine = self.game.state.engine
        return engine.get("round"), engine.get("phase")

    def _values(self, seat: int) -> list[int]:
        counters = self.game.state.counters
        return [counters.get(f"{name}#{seat}", 0) for name in self.counters]

    def _offer(self, options: tuple[str, ...]) -> frozenset[str]:
        """The items any of ``options`` names (remembered: the same sets recur)."""
        offer = self._offers.get(options)
        if offer is None:
            if len(self._offers) >= MAX_TEXTS:
                self._offers.clear()
            offer = frozenset(i for option in options for i in self._names(option))
            self._offers[options] = offer
        return offer

    def _names(self, text: str) -> tuple[str, ...]:
        """The items ``text`` names, in order (remembered: options recur all game)."""
        named = self._named.get(text)
        if named is None:
            if len(self._named) >= MAX_TEXTS:
                self._named.clear()
            items = self.items
            named = self._named[text] = tuple(w for w in WORD.findall(text) if w in items)
        return named

    def _owners(self, env: dict[str, Any]) -> list[str]:
        """The components bound in ``env`` one of whose properties names an action
        bound there too: whose ability the decision is about."""
        actions = {v for v in env.values() if type(v) is ActionRef}
        if not actions:
            return []
        owners = []
        for value in env.values():
            if type(value) is Piece:
                piece = self.pieces.get(value)
                if piece is not None and any(
                    isinstance(v, str) and v in actions for v in piece.properties.values()
                ):
                    owners.append(str(value))
        return owners

    def into(self, record: dict[str, Any]) -> None:
        record["used"] = self.used
        record["offered"] = self.offered
        record["measured"] = self.measured
        record["gained"] = self.gained
