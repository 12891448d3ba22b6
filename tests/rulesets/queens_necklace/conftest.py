"""Position set-up helpers for Queen's Necklace rule tests.

A test builds a game, clears the table (every play card back in the box), arranges
the exact position the rule needs (hands, display slots with their ring markers, the
draw pile in a known order, the fashion row, counters), runs one action with the
engine's sandbox, answers its decisions, and checks the outcome. Random draws (the
Thief) are forced with ``rig``.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

import pytest

from interpreter.engine.game import Game
from interpreter.engine.view import view
from interpreter.language.values import Piece, Player, ZoneRef
from interpreter.ruleset import load_or_raise

PLAY_KINDS = ("gem", "ring", "necklace", "character", "merchant")
GEMS = ("ruby", "emerald", "diamond", "amber")
ROWS = {g: f"show[{g}]" for g in GEMS}  # the keyed zone `show` (core.yaml)


@lru_cache(maxsize=1)
def qn():
    return load_or_raise("queens-necklace")


def play_cards() -> list[str]:
    rs = qn()
    return [p for p in rs.pieces if _kind(p) in PLAY_KINDS]


def _kind(piece: str) -> str:
    return qn().pieces[piece].kind


class Table:
    """A Queen's Necklace game with helpers to arrange positions and drive decisions."""

    def __init__(self, players: int = 3, seed: int = 0, chance=None, clean: bool = True):
        self.forced: deque = deque()
        self.chance_log: list[tuple[str, tuple]] = []
        self.game = Game(
            qn(), [f"P{i + 1}" for i in range(players)], seed=seed, chance_source=chance
        )
        if clean:
            self.clean()
        # from now on random draws are forced by `rig` (or the first items are taken)
        self.game.chance_source = self._chance

    ruleset = staticmethod(qn)
    play_cards = staticmethod(play_cards)

    # --- chance -----------------------------------------------------------
    def _chance(self, key: str, items: tuple[str, ...], count: int | None) -> tuple[str, ...]:
        self.chance_log.append((key, items))
        if self.forced:
            want_key, outcome = self.forced.popleft()
            assert key.startswith(want_key), f"chance {key!r} came, {want_key!r} was rigged"
            return tuple(outcome)
        return tuple(items) if count is None else tuple(items[:count])

    def rig(self, key: str, *outcome: str) -> Table:
        """Force the next chance outcome (``rig('draw hand#1', 'musketeer-1')``)."""
        self.forced.append((key, outcome))
        return self

    # --- state ------------------------------------------------------------
    @property
    def state(self):
        return self.game.state

    def clean(self) -> Table:
        """Every play card to the box, markers on the highest price, a fixed fashion
        row (ruby, emerald, diamond, amber), no sale held, seat 0 to play."""
        st = self.state
        for piece in play_cards():
            st.put(piece, "box")
        st.put("the_necklace", "box")
        for m in ("marker1", "marker2", "marker3", "marker4", "marker5"):
            st.put(m, "ring_step0")
        self.fashion(*GEMS)
        for r in ("rarity30", "rarity20", "rarity10", "rarity0"):
            st.put(r, "rarity_supply")
        st.counters["sales_done"] = 0
        for seat in range(len(st.players)):
            st.counters[f"money#{seat}"] = 0
            st.counters[f"ducats#{seat}"] = 0
        st.variables["current"] = Player(0)
        st.variables["start_player"] = Player(0)
        st.engine["known"] = {}
        return self

    def fashion(self, *gems: str) -> Table:
        """The gem tiles, most fashionable (+30) first."""
        self.state.set_order("fashion_gems", tuple(f"tile_{g}" for g in gems))
        return self

    def current(self, seat: int | None) -> Table:
        self.state.variables["current"] = None if seat is None else Player(seat)
        return self

    def set(self, seat: int, counter: str, value: int) -> Table:
        self.state.counters[f"{counter}#{seat}"] = value
        return self

    def get(self, seat: int, counter: str) -> int:
        return self.state.counters[f"{counter}#{seat}"]

    def counter(self, name: str) -> int:
        return self.state.counters[name]

    def hand(self, seat: int, *cards: str) -> Table:
        """Give ``seat`` exactly these cards (the old hand goes to the box)."""
        self.clear("hand", seat)
        for c in cards:
            self.state.put(c, f"hand#{seat}")
        self.sync_necklace()
        return self

    def row(self, seat: int, gem: str, *cards: str) -> Table:
        """Put cards straight into a player's sale packet row."""
        for c in cards:
            self.state.put(c, f"{ROWS[gem]}#{seat}")
        return self

    def deck(self, *cards: str) -> Table:
        """The draw pile is exactly these cards, top first (the old one to the box)."""
        self.clear("deck")
        for c in cards:
            self.state.put(c, "deck")
        return self

    def slot(self, index: int, card: str | None, step: int = 0) -> Table:
        """Display slot ``index`` (1-5) holds ``card`` with its marker on ``step``."""
        self.clear(f"slot{index}")
        if card is not None:
            self.state.put(card, f"slot{index}")
        self.state.put(f"marker{index}", f"ring_step{step}")
        return self

    def clear(self, zone: str, seat: int | None = None, to: str = "box") -> Table:
        key = zone if seat is None else f"{zone}#{seat}"
        for piece in self.state.zones.get(key, ()):
            self.state.put(piece, to)
        return self

    def sync_necklace(self) -> None:
        """The necklace token follows its card (as the ruleset's sync does)."""
        where = self.state.where.get("queens_necklace", "")
        if "#" in where and not where.startswith(("drawn",)):
            self.state.put("the_necklace", f"worn#{where.split('#')[1]}")
        else:
            self.state.put("the_necklace", "box")

    def zone(self, zone: str, seat: int | None = None) -> tuple[str, ...]:
        return self.state.zones.get(zone if seat is None else f"{zone}#{seat}", ())

    def where(self, piece: str) -> str | None:
        return self.state.where.get(piece)

    def step_of(self, index: int) -> int:
        """The ring step of display slot ``index``."""
        return int(self.where(f"marker{index}").removeprefix("ring_step"))

    # --- running ----------------------------------------------------------
    def act(self, action: str, seat: int, **args) -> Table:
        """Run one action in the sandbox; piece, zone and player arguments by name:
        ``card='thief-1'``, ``slot=ZoneRef('slot2')``, ``gem='ruby3-1'``."""
        converted = {}
        for name, value in args.items():
            if isinstance(value, str) and not isinstance(value, ZoneRef) and value in qn().pieces:
                value = Piece(value)
            converted[name] = value
        self.game.run_action(action, seat, **converted)
        return self

    def pending(self) -> list[tuple[int, tuple[str, ...]]]:
        return [(d.player, d.options) for d in self.game.pending()]

    def options(self, seat: int | None = None) -> tuple[str, ...]:
        pending = self.game.pending()
        if seat is None:
            return pending[0].options if pending else ()
        return self.game.legal(seat)

    def waiting(self) -> list[int]:
        return [d.player for d in self.game.pending()]

    def answer(self, *texts: str) -> Table:
        """Answer the first open decision with each text in turn."""
        for text in texts:
            pending = self.game.pending()
            assert pending, f"no decision is open for {text!r}"
            self.game.apply(pending[0].player, text)
        return self

    def answer_as(self, seat: int, *texts: str) -> Table:
        for text in texts:
            self.game.apply(seat, text)
        return self

    def passes(self, *seats: int) -> Table:
        """Each of these seats in turn is asked and has nothing but `pass` (a reaction
        window put to everyone, or an influence phase with nothing to play): pass."""
        for seat in seats:
            assert self.pending() == [(seat, ("pass",))], (seat, self.pending())
            self.game.apply(seat, "pass")
        return self

    def pass_all(self, limit: int = 200) -> Table:
        """Answer `pass` to every open decision (until none is open)."""
        for _ in range(limit):
            pending = self.game.pending()
            if not pending:
                return self
            d = pending[0]
            assert "pass" in d.options, f"{d.player_name} cannot pass: {d.options}"
            self.game.apply(d.player, "pass")
        raise AssertionError("too many decisions")

    def show(self, seat: int, *cards: str) -> Table:
        """In a sale: show these cards (``'ring-1:ruby'`` places a non-gem with a
        type), then pass."""
        for spec in cards:
            card, _, gem = spec.partition(":")
            self.game.apply(seat, f"show {card}")
            if gem:
                self.game.apply(seat, f"with {gem}")
        self.game.apply(seat, "pass")
        return self

    def view(self, seat: int | None) -> dict:
        return view(self.game, seat)

    def eval(self, text: str, seat: int | None = None, **env):
        return self.game.evaluate(text, seat, **env)


@pytest.fixture
def table() -> Table:
    return Table(3)


@pytest.fixture
def make_table():
    return Table
