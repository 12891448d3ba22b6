"""Copies of a game and its step replayed: what search, worlds and replay build on.

A game taken mid-step is copied by replaying the step from its starting snapshot
with the answers and chance outcomes recorded so far (``Game._rebuild``); a copy
for one player leaves out the others' secret decisions of a simultaneous step, and
``replayed`` runs the same step from another start (a world dealt afresh,
``seat.py``). A mixin of ``Game``, which keeps the running of a step itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.engine.state import State

if TYPE_CHECKING:
    from interpreter.engine.game import Game


class Copies:
    """A mixin of ``Game``: copies, the step's start and its histories."""

    def _histories(self) -> dict[str, tuple]:
        """Every runner's history of the step under way, oldest entry first."""
        return unchained(self.state.engine["history"])

    def copy(
        self, hide_from: int | None = None, same_chance: bool = False, seed: int | str | None = None
    ) -> Game:
        """An independent game in the same position (for search and look-ahead).

        A copy draws its future chance outcomes from another stream, so looking ahead
        never reveals the real game's next draws (``same_chance`` keeps the stream:
        an exact twin; ``seed`` gives it its own). With ``hide_from``, the decisions
        other players made in branches still running (a simultaneous step) are left
        out: what that player may know of the position.
        """
        self.follow_knowledge()  # a copy cannot work it out: it has no record
        other = self._blank(self.seed if same_chance else f"{self.seed}~" if seed is None else seed)
        if self._runners and self._snapshot is not None:
            other._snapshot = self._snapshot
            other._unit_specs = self._unit_specs
            other._rebuild(self._histories_seen(hide_from))
        else:
            other.state = self.state.copy()
            other._snapshot = None
        return other

    def _histories_seen(self, hide_from: int | None) -> dict[str, tuple]:
        """The step's histories, but the others' secret decisions with ``hide_from``."""
        histories = self._histories()
        if hide_from is None:
            return histories
        secret = self._simultaneous_keys()
        return {
            key: _hidden(entries, hide_from) if key in secret else entries
            for key, entries in histories.items()
        }

    def step_start(self, hide_from: int | None = None) -> tuple[State, dict[str, tuple]] | None:
        """The state at the start of the step under way and what happened in it since
        (answers and chance outcomes by runner), or None between steps. With
        ``hide_from``, without the secret decisions of the others (as ``copy``)."""
        if not self._runners or self._snapshot is None:
            return None
        self.follow_knowledge()
        return self._snapshot.copy(), self._histories_seen(hide_from)

    def replayed(
        self, start: State, histories: dict[str, tuple], seed: int | str | None = None
    ) -> Game:
        """This game's current step replayed from another ``start`` with ``histories``
        (raises ``GameError`` when they do not fit it): a game in another position with
        the same course so far, drawing its future chance from ``seed`` if given."""
        other = self._blank(self.seed if seed is None else seed)
        other._snapshot = start
        other._unit_specs = self._unit_specs
        other._rebuild(histories)
        return other

    def has_secret_decisions(self) -> bool:
        """Whether a simultaneous step is under way (some decisions are still secret)."""
        return bool(self._runners) and bool(self._simultaneous_keys())

    def _simultaneous_keys(self) -> set[str]:
        """Runners whose decisions are still secret: the roots of a simultaneous phase,
        and the branches of a `simultaneous for` that has not finished."""
        roots = [t for t in self._runners.values() if t.parent is None]
        keys = {t.key for t in roots} if len(roots) > 1 else set()
        for runner in self._runners.values():
            parent = self._runners.get(runner.parent) if runner.parent else None
            if parent is not None and not parent.done and parent.choice is None:
                keys.add(runner.key)
        return keys


def unchained(chains: dict[str, tuple | None]) -> dict[str, tuple]:
    """Each runner's history as a tuple, oldest entry first, from its chain of pairs."""
    out = {}
    for key, chain in chains.items():
        entries = []
        while chain is not None:
            chain, entry = chain
            entries.append(entry)
        out[key] = tuple(reversed(entries))
    return out


def _hidden(entries: tuple, seat: int) -> tuple:
    """A runner's history up to the first decision someone other than ``seat`` made."""
    out = []
    for entry in entries:
        if entry[0] == "choice" and len(entry) > 2 and entry[2] != seat:
            break
        out.append(entry)
    return tuple(out)
