"""``rules play --resume LOG``: the game of a log at its last whole decision, and the
agents that play on.

The log is replayed first (``log/replay.py``): its verdict says whether the game can
go on, and where the log fails if it cannot. A last line cut short (the process was
killed as it wrote it, ``log/stream.py``) is left out with a warning; so is a
decision whose chance outcomes the log does not hold in full (replay stops before it).

Then the game is played again from the header's seed with the log's decisions
(``rebuild``): a log that ``rules play`` wrote gives the same events, and the game
goes on as the game that was not interrupted would have. On the way, when the agents
that go on are the ones the header names (same agent, same seed, seat by seat), each
``reproducible`` agent is asked again about each of its past positions: that brings
its state (its random generator, mcts's saved iterations and MAST means) to what it
was when the game stopped, so the rest of the game is the same too. It costs the time
those agents took for the game so far. A log whose events are not its seed's (typed by
hand, or played with other chance) goes on from the replayed game instead, with
fresh agents.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from interpreter.agents import Agent, parse
from interpreter.engine.game import Game
from interpreter.errors import GameError, RuleError
from interpreter.log.reader import open_log
from interpreter.log.replay import replay
from interpreter.ruleset import resolve_ruleset


@dataclass
class Resumed:
    """A log's game at its last whole decision, and what its header says."""

    game: Game  # the replayed game
    mod_files: tuple[Path, ...]  # the files of the header's mods, as replay found them
    agents: dict[str, tuple[str, str, int]] | None  # player -> (agent, seed, since)
    in_setup: bool  # the log ends inside the setup (before its first decision)


def resume_log(
    log: Path,
    ruleset: str | None,
    expansions: tuple[str, ...],
    mods: tuple[Path, ...],
    at: int | None = None,
) -> Resumed:
    """The game of ``log`` at its last position (``--resume``), or after its first
    ``at`` events (``--from LOG --at N``); or exit 1 saying why it cannot go on."""
    option = "--resume" if at is None else "--from"
    context = click.get_current_context()
    for name, given in (("count", "--players"), ("names", "--names"), ("seed", "--seed")):
        source = context.get_parameter_source(name)
        if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP"):
            raise click.UsageError(f"{given} cannot be used with {option}: the log gives it")
    if expansions:
        raise click.UsageError(f"--with cannot be used with {option}: the log names them")
    folder = None
    if ruleset is not None:
        folder = resolve_ruleset(ruleset)
        if folder is None:
            raise click.UsageError(f"no ruleset {ruleset!r}")
    verdict = replay(
        log, ruleset_folder=folder, mod_files=tuple(mods), cut_tail=True, stop_after=at
    )
    for line, message in verdict.warnings:
        click.echo(f"{log}:{line}: warning: {message}", err=True)
    where = f"{log}:{verdict.line}" if verdict.line else str(log)
    if verdict.kind == "legal" or (verdict.game is not None and verdict.game.is_over()):
        past = "" if at is None else f" after event {verdict.events_applied}"
        what = "resume" if at is None else "play"
        click.echo(f"{log}: error: the game is over{past}: there is nothing to {what}", err=True)
        raise SystemExit(1)
    if verdict.kind not in ("incomplete", "position") or verdict.game is None:
        why = verdict.message or verdict.kind
        what = "resume" if at is None else "go on from this log"
        click.echo(f"{where}: error: cannot {what}: {why}", err=True)
        raise SystemExit(1)
    if at is not None and verdict.events_applied < at:
        click.echo(
            f"{log}: error: --at {at} is past the log's end: it has {verdict.events_applied} "
            "events",
            err=True,
        )
        raise SystemExit(1)
    game = verdict.game
    game.chance_source = None  # from here on chance comes from the seed, as in any game
    game.automaton_source = None
    parsed, events = open_log(log)
    close = getattr(events, "close", None)
    if close is not None:
        close()
    data = parsed.header.data if parsed.header is not None else {}
    in_setup = verdict.need is not None and verdict.next_decision is None
    return Resumed(game, verdict.mod_files, _agents(log, data, game.people), in_setup)


def _agents(log: Path, header: dict[str, Any], people: tuple[str, ...]) -> dict | None:
    """The header's agents by player, or None (an older log, or one typed by hand);
    exit 1 when they name an agent this version does not have, or miss a player."""
    entries = header.get("agents")
    if not entries:
        return None
    agents = {
        entry["player"]: (entry["agent"], entry["seed"], entry.get("since", 0)) for entry in entries
    }
    missing = [name for name in people if name not in agents]
    if missing:
        click.echo(
            f"{log}:1: error: the header's agents name no agent for {', '.join(missing)}; "
            "give the agents with --agents",
            err=True,
        )
        raise SystemExit(1)
    for name, (spec, _seed, _since) in agents.items():
        try:
            parse(spec)
        except ValueError as exc:
            click.echo(f"{log}:1: error: {name}'s agent in the header: {exc}", err=True)
            raise SystemExit(1) from None
    return agents


def rebuild(
    resumed: Resumed, agents: dict[int, Agent], since: dict[int, int] | None
) -> tuple[Game, bool]:
    """The game played again from its seed with the log's decisions, and True; or the
    replayed game and False if the log's events are not the seed's (the agents may
    then have been asked: make them afresh), exit 1 if the log ends inside the setup.

    ``since``: each seat's agent is asked again about its positions from that many
    events on (where it joined the game: 0, or a resume with other agents); None:
    the agents are not the log's, and are not asked."""
    replayed = resumed.game
    logged = replayed.events
    # a rule failing in the setup fails here as in any game (``rules play`` says it)
    game: Game | None = Game(replayed.ruleset, list(replayed.people), seed=replayed.seed)
    same = Same(logged)
    differs: set[int] = set()  # seats whose agents chose otherwise than the log
    try:
        while same.so_far(game.events) and len(game.events) < len(logged):
            event = logged[len(game.events)]
            seat = _seat(game, event)
            if seat is None:
                break
            decision = next(d for d in game.pending() if d.player == seat)
            agent = agents.get(seat) if since is not None else None
            asked = agent is not None and agent.reproducible
            asked = asked and len(game.events) >= since.get(seat, 0)
            if asked and agent.choose(game, decision) != event["choice"]:
                differs.add(seat)
            game.apply(seat, event["choice"])
    except (GameError, RuleError):  # not the log's game: the replay told what it is
        game = None
    if game is not None and len(game.events) >= len(logged) and same.so_far(game.events):
        for seat in sorted(differs):
            click.echo(
                f"warning: {game.state.players[seat]}'s agent would not have made all of the "
                "log's decisions: the rest of the game may differ from an uninterrupted one",
                err=True,
            )
        return game, True
    if resumed.in_setup:
        click.echo(
            "error: cannot resume: the log ends inside the setup, and its chance outcomes "
            "are not those of its seed",
            err=True,
        )
        raise SystemExit(1)
    click.echo(
        "warning: the log's events are not those its seed gives (typed by hand, or other "
        "chance): the game goes on from the log, with fresh agents",
        err=True,
    )
    return replayed, False


class Same:
    """Whether a game's events are the log's so far, each compared once."""

    def __init__(self, logged: list[dict[str, Any]]):
        self.logged = logged
        self.checked = 0  # events found equal

    def so_far(self, played: list[dict[str, Any]]) -> bool:
        end = min(len(played), len(self.logged))
        if played[self.checked : end] != self.logged[self.checked : end]:
            return False
        self.checked = end
        return True


def _seat(game: Game, event: dict[str, Any]) -> int | None:
    """The seat of a logged decision the game waits for, or None (another event)."""
    if "choice" not in event:
        return None
    for decision in game.pending():
        if decision.player_name == event.get("player"):
            return decision.player
    return None
