"""A logged game to read: one line per event in the rules' own words, from one replay.

``read_game(path, as_player=...)`` replays the log once (``replay(on_position=...)``)
and notes at every position what a reader needs: the round and phase, who is asked
what (the prompt of each open decision), where every piece is and which pieces the
reader may see, the counters and the markers. From those it writes the lines:
headings when the round or phase changes, one line per event (a decision with its
option made readable, a chance outcome with what was drawn and where it went, a
checkpoint) with what it did in brackets (``effects.py``), the reason where an
illegal log fails, and the final result table.

For a player (``as_player``) the lines hold only what that player may know, by the
same rules as their view (``engine/view.py``): a chance outcome that moves pieces
where they cannot see them gives only counts; another player's decision whose option
names a piece they could not see before it nor after it says only that a choice was
made; another player's decision made in a simultaneous step is one line, "P3 chose
in secret", with nothing of what it did, and is told once the step is over only if
the rules above let them see it.
Any piece id left in a message they may not see is replaced by ``?``.

``capture(n, game, seat)`` is called at every position too, for callers that keep a
view of each (the stepper, the HTML viewer): the game object moves on after the call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.state import knowledge
from interpreter.engine.words import describe, render_result
from interpreter.log.effects import changes
from interpreter.log.reader import LogLine, ParsedLog, log_line, read
from interpreter.log.replay import FAILURE_LABELS, Verdict, replay, replay_events
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.visibility import seen_by

Capture = Callable[[int, Game, "int | None"], Any]

HIDDEN = "?"  # what stands for a piece id the reader may not see


class UnknownPlayer(Exception):
    """``as_player`` is not at the table."""

    def __init__(self, name: str, players: tuple[str, ...]):
        super().__init__(f"no player {name!r} in this game ({', '.join(players)})")
        self.name, self.players = name, players


@dataclass
class Line:
    event: int  # the event's n (0: none)
    kind: str  # heading | event | reveal | failure | note | result
    text: str


@dataclass
class Stop:
    """What a reader needs of the position after ``n`` events."""

    n: int
    stage: str
    round: int
    phase: int
    everything: bool  # the final scoring or later: everything is public
    secret: bool  # a simultaneous step is under way
    prompts: dict[str, str]  # deciding player -> the prompt of their decision
    where: dict[str, str]  # piece -> zone or space
    counters: dict[str, int]  # the state's counters (``name#seat`` for a player's)
    owners: dict[str, int]  # space -> the seat whose marker is on it
    known: frozenset[str]  # pieces the reader knows in zones they cannot see
    chance: str | None  # the chance outcome the game asks for next


@dataclass
class Reading:
    verdict: Verdict
    events: list[LogLine]
    stops: list[Stop] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    captured: list[Any] = field(default_factory=list)
    ruleset: Ruleset | None = None
    players: tuple[str, ...] = ()
    seat: int | None = None
    failed_at: int | None = None  # the n of the event where the log fails

    @property
    def player(self) -> str | None:
        """The reader's name; None for an omniscient reader and for a spectator."""
        if self.seat is None or self.seat >= len(self.players):
            return None
        return self.players[self.seat]

    @property
    def last(self) -> int:
        """The last position (-1: none, the log did not get to the game)."""
        return len(self.stops) - 1

    def failure(self) -> str | None:
        """Why the log fails, as one line (None for a legal or unfinished log)."""
        verdict = self.verdict
        if verdict.kind not in FAILURE_LABELS:
            return None
        where = f"line {verdict.line}: " if verdict.line is not None else ""
        return self._redact(
            f"{where}{FAILURE_LABELS[verdict.kind]}: {verdict.message}", self.last_stop()
        )

    def last_stop(self) -> Stop | None:
        return self.stops[-1] if self.stops else None

    # ------------------------------------------------------------ visibility
    def visible(self, piece: str, stop: Stop | None) -> bool:
        """Whether the reader sees ``piece`` (or knows where it is) at ``stop``."""
        if self.seat is None or (stop is not None and stop.everything):
            return True
        if stop is None:
            return False
        zone = stop.where.get(piece)
        if zone is None:
            return False
        return self._tables.sees(zone, self.seat) or piece in stop.known

    def open(self, piece: str, stop: Stop | None) -> bool:
        """Whether the reader sees the zone ``piece`` is in (so its place there too)."""
        if self.seat is None or (stop is not None and stop.everything):
            return True
        zone = stop.where.get(piece) if stop is not None else None
        return zone is not None and self._tables.sees(zone, self.seat)

    def _redact(self, text: str, *stops: Stop | None) -> str:
        """``text`` with every piece id the reader sees at none of ``stops`` hidden."""
        if self.seat is None or self.ruleset is None:
            return text
        pieces = self.ruleset.pieces

        def hide(match: re.Match[str]) -> str:
            word = match.group(0)
            if word in pieces and not any(self.visible(word, s) for s in stops):
                return HIDDEN
            return word

        return _WORD.sub(hide, text)

    _tables: Any = None


_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.:-]*[A-Za-z0-9_]|[A-Za-z0-9_]")


def read_game(
    path: Path,
    strict: bool = False,
    as_player: str | None = None,
    capture: Capture | None = None,
    **replay_options: Any,
) -> Reading:
    """Replay the log at ``path`` once and describe it (for ``as_player``, if given);
    ``replay_options`` go to ``replay`` as they are.

    Raises ``UnknownPlayer`` when ``as_player`` is not at the table.
    """
    parsed = read(path, strict)
    reading = Reading(verdict=Verdict("malformed"), events=list(parsed.events))

    def hook(n: int, game: Game, chance: str | None) -> None:
        if reading.ruleset is None:
            reading.ruleset, reading._tables = game.ruleset, game.tables
            reading.players = tuple(game.state.players)
            if as_player is not None:
                if as_player not in game.state.players:
                    raise UnknownPlayer(as_player, reading.players)
                reading.seat = game.state.players.index(as_player)
        reading.stops.append(_stop(n, game, chance, reading.seat))
        if capture is not None:
            reading.captured.append(capture(n, game, reading.seat))

    reading.verdict = replay(path, strict=strict, on_position=hook, **replay_options)
    if reading.verdict.game is not None and reading.ruleset is None:
        game = reading.verdict.game
        reading.ruleset, reading._tables = game.ruleset, game.tables
        reading.players = tuple(game.state.players)
    if reading.verdict.kind in FAILURE_LABELS:
        reading.failed_at = _failing_event(reading)
    reading.lines = _Writer(reading).lines()
    return reading


def read_live_game(game: Game, seat: int | None) -> Reading:
    """A game under way, read for ``seat``: its events so far are replayed in memory
    with the game's own rules and described as ``read_game`` describes a log.

    ``seat`` None is a spectator (``rules serve``): read as from a seat nobody holds,
    so the lines say only what is public, as ``view(game, None)`` shows it."""
    return read_live_games(game, [seat])[seat]


def read_live_games(game: Game, seats: Iterable[int | None]) -> dict[int | None, Reading]:
    """``read_live_game`` for each of ``seats``, from one replay of the game."""
    events = [log_line(n, {"n": n, **event}) for n, event in enumerate(game.events, start=1)]
    players = tuple(game.state.players)
    readings: dict[int | None, Reading] = {}
    for seat in seats:
        reading = Reading(verdict=Verdict("malformed"), events=events)
        reading.ruleset, reading._tables = game.ruleset, game.tables
        # a spectator reads from a seat nobody holds: no private zone, counter or choice
        reading.players, reading.seat = players, len(players) if seat is None else seat
        readings[seat] = reading
    header = log_line(0, {"players": list(game.people), "seed": game.seed})
    parsed = ParsedLog("(this game)", header=header, events=events)

    def hook(n: int, position: Game, chance: str | None) -> None:
        for reading in readings.values():
            reading.stops.append(_stop(n, position, chance, reading.seat))

    verdict = replay_events(game.ruleset, parsed, hook)
    for reading in readings.values():
        reading.verdict = verdict
        reading.lines = _Writer(reading).lines()
    return readings


def _stop(n: int, game: Game, chance: str | None, seat: int | None) -> Stop:
    engine = game.state.engine
    known = knowledge(game.state)
    return Stop(
        n=n,
        stage=engine["stage"],
        round=engine["round"],
        phase=engine["phase"],
        everything=engine["stage"] in ("scoring", "over"),
        secret=game.has_secret_decisions(),
        prompts={d.player_name: d.prompt for d in game.pending()},
        where=dict(game.state.where),
        counters=dict(game.state.counters),
        owners=dict(game.state.owners),
        known=frozenset(p for p, seats in known.items() if seat is not None and seat in seats),
        chance=chance,
    )


def headings(reading: Reading) -> list[str]:
    """Where the game is at each position, in the words of the transcript's headings
    ("Round 2: Actions"): an event belongs to the heading of the position before it."""
    writer = _Writer(reading)
    return [writer.heading(stop) for stop in reading.stops]


def _failing_event(reading: Reading) -> int | None:
    line = reading.verdict.line
    for entry in reading.events:
        if line is not None and entry.line == line:
            return entry.data["n"]
    following = len(reading.stops)  # the event after the last position reached
    return following if 1 <= following <= len(reading.events) and reading.stops else None


class _Writer:
    """Writes a reading's lines (see the module's docstring)."""

    def __init__(self, reading: Reading):
        self.r = reading
        self.ruleset = reading.ruleset
        self.out: list[Line] = []
        self.deferred: list[int] = []  # others' decisions in a simultaneous step under way

    # ------------------------------------------------------------------ words
    def label(self, term: str, section: str | None = None) -> str:
        if self.ruleset is None:
            return term
        default = None
        if section == "zones" and term in self.ruleset.zones:
            default = self.ruleset.zones[term].label or None
        return self.ruleset.label(term, section, default)

    def describe(self, item: str) -> str:
        if self.ruleset is None:
            return ""
        return describe(self.ruleset, self.r._tables, {"spaces": {}}, item)

    def place(self, zone: str) -> str:
        """A zone key or space in words: "Ann's hand", "s_window1", "the box"."""
        name, _, seat = zone.partition("#")
        if seat.isdigit() and int(seat) < len(self.r.players):
            return f"{self.r.players[int(seat)]}'s {self.label(name, 'zones')}"
        if self.r._tables is not None and zone in self.r._tables.spaces:
            return zone
        return self.label(zone, "zones")

    def readable(self, text: str) -> str:
        """An option's text with each piece and space described, other words labelled."""
        words = []
        for word in text.split(" "):
            about = ""
            if self.ruleset is not None and (
                word in self.ruleset.pieces
                or (self.r._tables is not None and word in self.r._tables.spaces)
            ):
                about = self.describe(word)
            if about:
                words.append(f"{word} ({about})")
            else:
                words.append(self.label(word) if word else word)
        return " ".join(words)

    def heading(self, stop: Stop) -> str:
        if stop.stage == "over":
            return "Game over"
        if stop.stage == "scoring":
            return "Final scoring"
        if stop.stage == "setup" or stop.round == 0 or self.ruleset is None:
            return "Setup"
        if stop.phase < len(self.ruleset.phases):
            phase = self.ruleset.phases[stop.phase]
            return f"Round {stop.round}: {self.ruleset.label(phase.id, 'phases', phase.label)}"
        return f"Round {stop.round}"

    # ------------------------------------------------------------------ lines
    def lines(self) -> list[Line]:
        r = self.r
        shown_heading = None
        reached = len(r.stops) - 1  # events 1..reached were applied
        for entry in r.events:
            n = entry.data["n"]
            if n > reached + 1 or (n == reached + 1 and r.failed_at is None):
                break
            before = r.stops[n - 1]
            after = r.stops[n] if n <= reached else None
            heading = self.heading(before)
            if heading != shown_heading:
                self.out.append(Line(n, "heading", heading))
                shown_heading = heading
            if after is None:  # the event where the log fails
                self.out.append(Line(n, "event", self.event(entry, before, before)))
                break
            self.out.append(Line(n, "event", self.event(entry, before, after)))
            if self.deferred and not after.secret:
                self.reveal(n, after)
        self.end(shown_heading)
        return self.out

    def end(self, shown_heading: str | None) -> None:
        r = self.r
        verdict = r.verdict
        failure = r.failure()
        if failure is not None:
            self.out.append(Line(r.failed_at or 0, "failure", failure))
            return
        last = r.last_stop()
        if verdict.kind == "incomplete":
            text = "the log ends before the game does"
            if verdict.message:
                text += f": {verdict.message}"
            self.out.append(Line(r.last, "note", r._redact(text, last)))
            for player, prompt in (last.prompts if last else {}).items():
                what = f" ({prompt})" if prompt != "option" and player == r.player else ""
                if r.seat is None:
                    what = f" ({prompt})" if prompt != "option" else ""
                self.out.append(Line(r.last, "note", f"waiting for {player}{what}"))
            return
        game = verdict.game
        if game is not None and game.is_over():
            if shown_heading != "Game over":
                self.out.append(Line(r.last, "heading", "Game over"))

            table = render_result(game.result(), game.ruleset)
            self.out.extend(Line(r.last, "result", row) for row in table.splitlines())

    def event(self, entry: LogLine, before: Stop, after: Stop) -> str:
        """The event's line: what it was, then in brackets what it did (``effects.py``)."""
        kind, data = entry.kind, entry.data
        actor, drawn = None, ()
        if kind == "decision":
            actor = str(data["player"])
            text = self.decision(entry.data["n"], data, before, after)
            if self.deferred and self.deferred[-1] == data["n"]:
                return text  # a secret choice: nothing of what it did either
        elif kind == "chance":
            text = self.chance(data["chance"], list(data["outcome"]), after)
            drawn = data["outcome"] if str(data["chance"]).startswith("draw ") else ()
        elif kind == "score_checkpoint":
            return self.scores(data["scores"], before)
        else:
            return "checkpoint: the state's digest"
        r = self.r
        if r.seat is not None and actor != r.player and (before.secret or after.secret):
            return text  # within a simultaneous step only the reader's own moves say more
        did = changes(r, self.place, before, after, actor, drawn)
        return f"{text} [{did}]" if did else text

    def decision(self, n: int, data: dict, before: Stop, after: Stop) -> str:
        r = self.r
        player, choice = str(data["player"]), str(data["choice"])
        if r.seat is not None and player != r.player and not before.everything:
            if before.secret:
                self.deferred.append(n)
                return f"{player} chose in secret"
            if not self.may_see(choice, before, after):
                return f"{player} makes a choice"
        return self.said(player, choice, before.prompts.get(player))

    def said(self, player: str, choice: str, prompt: str | None) -> str:
        text = self.readable(choice)
        if prompt and prompt != "option" and not choice.startswith(prompt):
            text = f"{self.label(prompt)}: {text}"
        return f"{player}: {text}"

    def may_see(self, choice: str, before: Stop, after: Stop) -> bool:
        """Whether the reader may see every piece ``choice`` names: it was in a zone
        they see before it, or they see it (or follow it) after. Knowing that a piece
        is in a hidden zone is not enough: which one was chosen there is not known."""
        pieces = self.ruleset.pieces if self.ruleset is not None else {}
        return all(
            self.r.open(w, before) or self.r.visible(w, after)
            for w in choice.split(" ")
            if w in pieces
        )

    def reveal(self, n: int, after: Stop) -> None:
        """The step is over: the others' decisions in it the reader may now see."""
        events = {e.data["n"]: e.data for e in self.r.events}
        for m in self.deferred:
            data = events[m]
            before = self.r.stops[m - 1]
            choice = str(data["choice"])
            if self.may_see(choice, before, after):  # else it stays a secret: no line
                player = str(data["player"])
                said = self.said(player, choice, before.prompts.get(player))
                did = changes(self.r, self.place, before, self.r.stops[m], player, seen_at=after)
                said += f" [{did}]" if did else ""
                self.out.append(Line(n, "reveal", f"(event {m}) {said}"))
        self.deferred = []

    def chance(self, key: str, outcome: list[str], after: Stop) -> str:
        r = self.r
        verb, _, what = key.partition(" ")
        zone_name = (
            self.label(what, "zones") if self.ruleset and what in self.ruleset.zones else what
        )
        if verb == "shuffle":
            if all(r.open(p, after) for p in outcome):
                return f"shuffle {zone_name}: {' '.join(outcome)}"
            return f"shuffle {zone_name}: {_count(len(outcome))}, order hidden"
        if verb == "roll":  # `roll ZONE`: the faces, to whoever sees the zone
            if r.seat is None or after.everything or r._tables.sees(what, r.seat):
                return f"roll {self.place(what)}: {' '.join(outcome)}"
            return f"roll {self.place(what)}: {_count(len(outcome))}, faces hidden"
        if verb == "draw":
            parts, hidden = [], {}
            for piece in outcome:
                zone = after.where.get(piece)
                to = f" → {self.place(zone)}" if zone is not None else ""
                if r.visible(piece, after):
                    about = self.describe(piece) if len(outcome) <= 3 else ""
                    parts.append(f"{piece}" + (f" ({about})" if about else "") + to)
                else:
                    hidden[to] = hidden.get(to, 0) + 1
            parts += [f"{_count(k)}{to}" for to, k in hidden.items()]
            return f"draw {zone_name}: " + "; ".join(parts)
        return r._redact(f"{key}: {' '.join(outcome)}", after)

    def scores(self, scores: dict[str, int], stop: Stop) -> str:
        r = self.r
        counter = self.ruleset.counters.get(self.ruleset.score) if self.ruleset else None
        name = self.label(self.ruleset.score, "counters") if self.ruleset else "score"
        shown = []
        for player, value in scores.items():
            seen = (
                r.seat is None
                or stop.everything
                or counter is None
                or seen_by(counter.visibility, _seat_of(r.players, player), r.seat)
            )
            shown.append(f"{player} {value if seen else HIDDEN}")
        return f"checkpoint: {name} " + ", ".join(shown)


def _seat_of(players: tuple[str, ...], name: str) -> int | None:
    return players.index(name) if name in players else None


def _count(k: int) -> str:
    return f"{k} piece" + ("" if k == 1 else "s")


def transcript(reading: Reading) -> str:
    """The reading as text: headings, numbered events, the failure or the result."""
    out: list[str] = []
    for line in reading.lines:
        if line.kind == "heading":
            out.extend(["", f"== {line.text} =="])
        elif line.kind == "event":
            out.append(f"{line.event:>4}. {line.text}")
        elif line.kind == "reveal":
            out.append(f"      {line.text}")
        elif line.kind == "failure":
            out.append(f"      error: {line.text}")
        else:
            out.append(line.text)
    return "\n".join(out).lstrip("\n")
