"""A person at the terminal: a play-testing table.

Before each decision the person sees, on the terminal (never stdout: see
``terminal.py``), what the others did since their last decision (in the
transcript's words, only what they may know: ``history.py``), the board as their
seat's view shows it (``screen.py``), their own moves so far in this turn (which
bonus, which piece they are finishing), and the numbered options with what each is
about and what it costs or gains them at once (``screen.prices``). They answer with
a number, an option's text or a unique beginning of it; ``?WORD`` explains an option
word, action, piece, space, zone or counter by id or label; ``board`` shows the whole
board, which is shown in full only at their first decision (and after the device
passed hands in hot-seat): after that, only the lines that changed since they last
saw it.
"""

from __future__ import annotations

from interpreter.agents.base import Agent
from interpreter.agents.history import lines_since
from interpreter.agents.screen import Sight, board, changes, explain, option_line, prices
from interpreter.agents.terminal import Table, Terminal
from interpreter.engine.game import Decision, Game
from interpreter.engine.seat import Seat
from interpreter.log.transcript import Line

HISTORY = 15  # lines of history shown at most (the first decision follows the setup)
HELP = "number, option text, ?WORD to explain a word, card, space or action, board for all of it"


class HumanAgent(Agent):
    reproducible = False  # a person is not asked again about the positions of a resumed log

    def __init__(self, seat: int, seed: int | str = 0):
        super().__init__(seat, seed)
        self.table = Table()  # alone at its table, unless ``seat_humans`` seats it
        self._decided: int | None = None  # events in the game at this player's last decision
        self._where: tuple | None = None  # (round, phase) of that decision
        self._since: list[Line] = []
        self._first = True  # no decision of theirs yet: the history is the game's start
        self._turn: list[str] = []  # this player's moves so far in this turn
        self._seen: dict | None = None  # the view this player was last shown the board of

    def choose(self, game: Game, decision: Decision) -> str:
        """The table's side: what happened since this player's last decision, read for
        their seat by the transcript's rules (never more than they may know), then
        the decision from the seat alone."""
        self._first = self._decided is None
        after = 0 if self._decided is None else self._decided + 1  # past their own move
        self._since = lines_since(game, decision.player, after)
        others = any(
            "choice" in e and e.get("player") != decision.player_name for e in game.events[after:]
        )
        where = (game.state.engine["round"], game.state.engine["phase"])
        if others or where != self._where:
            self._turn = []
        self._decided, self._where = len(game.events), where
        answer = super().choose(game, decision)
        self._turn.append(answer)
        return answer

    def decide(self, seat: Seat) -> str:
        if self.table.hand_to(seat.name):
            self._seen = None  # the screen was cleared: the whole board again
        terminal = self.table.terminal
        priced = prices(seat, self.rng.getrandbits(32))
        sight = Sight(seat.ruleset, seat.tables, seat.view(), seat.options, priced)
        self._show(terminal, seat, sight)
        self._seen = sight.shown
        decision = seat.decision
        while True:
            answer = terminal.ask(f"{seat.name}>").strip()
            if answer.startswith("?"):
                for line in explain(sight, answer[1:]):
                    terminal.say(line)
                continue
            if answer == "board" and "board" not in decision.options:
                for line in board(sight):
                    terminal.say(f"  {line}")
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(decision.options):
                return decision.options[int(answer) - 1]
            if answer in decision.options:
                return answer
            matches = [o for o in decision.options if answer and o.startswith(answer)]
            if len(matches) == 1:
                return matches[0]
            why = seat.why_not(answer) if answer else "nothing typed"
            terminal.say(f"not an option: {why}; {HELP}", "problem")

    def _show(self, terminal: Terminal, seat: Seat, sight: Sight) -> None:
        terminal.say()
        terminal.say(f"=== {seat.name}: {_heading(sight)} ===", "heading")
        if self._since:
            since = "Since the start:" if self._first else "Since your last decision:"
            terminal.say(since, "heading")
            hidden = len(self._since) - HISTORY
            if hidden > 0:
                terminal.say(f"  ({hidden} earlier lines not shown)", "history")
            for line in self._since[-HISTORY:]:
                text = f"-- {line.text} --" if line.kind == "heading" else line.text
                terminal.say(f"  {text}", "history")
        if self._seen is None:
            terminal.say("Board:", "heading")
            shown = board(sight)
        else:
            shown = changes(sight, self._seen)
            terminal.say("Board, what changed (board: all of it):" if shown else "Board: as before")
        for line in shown:
            terminal.say(f"  {line}")
        if self._turn:
            terminal.say(
                "Your turn so far: " + " → ".join(option_line(sight, t) for t in self._turn)
            )
        prompt = seat.prompt
        what = ""
        if prompt != "option":
            label = sight.action_label(prompt)
            what = f" ({prompt}: {label})" if label else f" ({prompt})"
        terminal.say(f"{terminal.style(seat.name, 'player')}, choose{what}:")
        for number, option in enumerate(seat.options, start=1):
            terminal.say(
                f"  {terminal.style(f'{number:>3}.', 'number')} {option_line(sight, option)}"
            )
        terminal.say(f"({HELP})")


def _heading(sight: Sight) -> str:
    """Where the game is: "round 2, Actions" (the phase by its label)."""
    shown, ruleset = sight.shown, sight.ruleset
    phase = next((p for p in ruleset.phases if p.id == shown["phase"]), None)
    if phase is None:
        return f"round {shown['round']}, {shown['stage']}"
    return f"round {shown['round']}, {ruleset.label(phase.id, 'phases', phase.label)}"
