"""Re-run a logged game against the rules and give a verdict.

Decisions are applied through the engine exactly as agents apply them; chance
outcomes come from the log, never from a random generator, and the engine checks
each was possible. The verdict follows ``docs/logs.md``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.state import UNFOLLOWED
from interpreter.errors import (
    CheckError,
    IllegalMove,
    ImpossibleChance,
    RuleError,
)
from interpreter.load.search import file_digest, find_mod, find_ruleset, overlay_id, rules_path
from interpreter.log.feed import (
    ChanceOutOfStep,
    Feed,
    MalformedLine,
    NeedChance,
    PositionHook,
    Reached,
)
from interpreter.log.reader import BadLine, LogLine, ParsedLog, open_log
from interpreter.ruleset import load_found, load_or_raise
from interpreter.ruleset.model import Ruleset

EXIT = {
    "legal": 0,
    "position": 0,
    "illegal": 1,
    "impossible": 1,
    "mismatch": 1,
    "malformed": 1,
    "missing-ruleset": 1,  # the header's ruleset id is on no rules path
    "missing-mod": 1,  # the header's mod is found nowhere
    "changed-mod": 1,  # found, but not the file the game was played with (its digest)
    "rule-error": 1,
    "incomplete": 3,
}


# what a failed replay is called where it is said (`file:line: error: LABEL: …`)
FAILURE_LABELS = {
    "illegal": "illegal",
    "impossible": "impossible chance outcome",
    "mismatch": "checkpoint mismatch",
    "malformed": "malformed log",
    "missing-ruleset": "missing ruleset",
    "missing-mod": "missing mod",
    "changed-mod": "changed mod",
}


@dataclass
class Verdict:
    # legal | illegal | impossible | mismatch | malformed | missing-ruleset | missing-mod
    # | changed-mod | rule-error | incomplete | position
    kind: str
    message: str = ""
    line: int | None = None
    event: dict[str, Any] | None = None
    options: list[str] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[tuple[int, str]] = field(default_factory=list)
    game: Game | None = None
    events_applied: int = 0
    need: dict[str, Any] | None = None  # a chance outcome the log must give next
    next_decision: dict[str, Any] | None = None  # the decision that needed it
    mod_files: tuple[Path, ...] = ()  # the files of the header's mods, as replay found them

    @property
    def exit_code(self) -> int:
        return EXIT[self.kind]


YAML = (".yaml", ".yml")
NOT_FOUND_HINT = (
    "point at it with --ruleset FOLDER, or add the folder that holds it to --rules-path "
    "or RULES_PATH"
)


def load_ruleset_for(
    parsed: ParsedLog,
    strict: bool,
    ruleset_folder: Path | None = None,
    mod_files: tuple[Path, ...] = (),
) -> tuple[Ruleset | None, Verdict | None]:
    """The ruleset a log names, found by id on the rules path (or ``ruleset_folder``),
    with its expansions and its mods (found by id: ``mod_files`` first, then the rules
    path). A log's header never makes replay open a path it names."""
    header = parsed.header
    assert header is not None
    data = header.data
    options = data.get("options") or {}
    expansions = list(options.get("expansions") or [])
    warnings = list(parsed.warnings)
    folder = ruleset_folder or find_ruleset(str(data["ruleset"]))
    if folder is None:
        return None, Verdict(
            "missing-ruleset",
            f"unknown ruleset {data['ruleset']!r}: it is not on the rules path "
            f"({', '.join(str(p) for p in rules_path())}); {NOT_FOUND_HINT}",
            header.line,
        )
    mods = []
    given = {overlay_id(p) or p.stem: p for p in mod_files}
    for entry in options.get("mods") or []:
        path, failure = _find_mod(entry, given, Path(parsed.path).parent, header.line)
        if failure is not None:
            return None, failure
        mods.append(path)
    try:
        if ruleset_folder is None:  # found by id: its ruleset.yaml is there
            ruleset = load_found(folder, expansions, mods)
        else:
            ruleset = load_or_raise(folder, expansions, mods)
    except FileNotFoundError:
        return None, Verdict(
            "missing-ruleset", f"unknown ruleset {data['ruleset']!r}; {NOT_FOUND_HINT}", header.line
        )
    except CheckError as exc:
        first = exc.diagnostics[0].headline() if exc.diagnostics else ""
        return None, Verdict(
            "malformed", f"ruleset {data['ruleset']!r} does not load: {first}", header.line
        )
    if ruleset.id != data["ruleset"]:
        message = f"the log is a game of {data['ruleset']!r}; {folder} holds {ruleset.id!r}"
        if strict:
            return None, Verdict("malformed", message + " (--strict)", header.line)
        warnings.append((header.line, message))
    version = data.get("ruleset_version")
    if version is not None and version != ruleset.version:
        message = (
            f"the log was written for {ruleset.id} {version}; this ruleset is {ruleset.version}"
        )
        if strict:
            return None, Verdict("malformed", message + " (--strict)", header.line)
        warnings.append((header.line, message))
    digest = data.get("ruleset_digest")
    if digest is not None and digest != ruleset.digest:
        message = "the ruleset's content differs from the one the log was written with (digest)"
        if strict:
            return None, Verdict("malformed", message + " (--strict)", header.line)
        warnings.append((header.line, message))
    parsed.warnings = warnings
    parsed.mod_files = tuple(mods)
    return ruleset, None


def _find_mod(
    entry: Any, given: dict[str, Path], log_folder: Path, line: int
) -> tuple[Path | None, Verdict | None]:
    """The file of a mod the header names: the `--mod` file of its id, else the file at
    its `path` beside the log, else the one of its id on the rules path; the first of
    these whose digest is the header's (any, when it records none). A `path` is only
    read to compare its digest: replay never applies a file the log names unless it is
    the one the game was played with."""
    mod_id = entry["id"] if isinstance(entry, dict) else str(entry)
    digest = entry.get("digest") if isinstance(entry, dict) else None
    candidates = []
    if mod_id in given or Path(mod_id).stem in given:
        candidates.append(given.get(mod_id) or given[Path(mod_id).stem])
    relative = entry.get("path") if isinstance(entry, dict) else None
    if relative and not Path(relative).is_absolute() and Path(relative).suffix in YAML:
        beside = Path(os.path.normpath(log_folder / relative))
        if beside.is_file():
            candidates.append(beside)
    if "/" not in mod_id and not mod_id.endswith(".yaml"):
        found = find_mod(mod_id)
        if found is not None:
            candidates.append(found)
    for path in candidates:
        if digest is None or file_digest(path) == digest:
            return path, None
    if candidates:
        return None, Verdict(
            "changed-mod",
            f"the mod {mod_id!r} is not the one the log was played with: {candidates[0]} "
            "has another digest; replay with the mod's file as it was then (--mod FILE)",
            line,
        )
    where = f"not at {relative} beside the log, " if relative else ""
    return None, Verdict(
        "missing-mod",
        f"the log uses the mod {mod_id!r}, which is {where}not on the rules path: give its "
        "file with --mod FILE, or add its folder to --rules-path or RULES_PATH",
        line,
    )


def replay(
    path: Path,
    strict: bool = False,
    stop_after: int | None = None,
    on_position: PositionHook | None = None,
    ruleset_folder: Path | None = None,
    mod_files: tuple[Path, ...] = (),
    views: bool = True,
    cut_tail: bool = False,
) -> Verdict:
    """Replay the log at ``path``; with ``stop_after``, stop at the position after that
    many events (verdict ``position``); ``on_position`` sees every position on the way;
    ``cut_tail``: a last line cut short is left out with a warning (``open_log``).

    ``views=False``: the verdict alone is wanted (legal or not, the scores), so the game
    does not follow what each player knows of hidden components, which only views and
    digests read (a twentieth of a game with hidden hands); its game refuses to be
    viewed. A position asked for is always followed, and a log with a digest
    checkpoint is replayed again with views when one is reached."""
    views = views or stop_after is not None or on_position is not None
    parsed, events = open_log(path, strict, cut_tail)  # read as replay needs them
    if parsed.errors:
        line, message = parsed.errors[0]
        return Verdict("malformed", message, line, warnings=parsed.warnings)
    try:
        verdict: Verdict | None = _replay(
            parsed, events, strict, stop_after, on_position, ruleset_folder, mod_files, views
        )
    except _ViewsNeeded:
        verdict = None
    finally:
        close = getattr(events, "close", None)
        if close is not None:
            close()  # the file, when replay stops before its end
    if verdict is None:  # a digest checkpoint: what each player knows is digested too
        return replay(
            path, strict, stop_after, on_position, ruleset_folder, mod_files, True, cut_tail
        )
    return verdict


def _replay(
    parsed: ParsedLog,
    events: Iterable[LogLine],
    strict: bool,
    stop_after: int | None,
    on_position: PositionHook | None,
    ruleset_folder: Path | None,
    mod_files: tuple[Path, ...],
    views: bool,
) -> Verdict:
    ruleset, failure = load_ruleset_for(parsed, strict, ruleset_folder, mod_files)
    if failure is not None:
        failure.warnings = parsed.warnings
        return failure
    players = parsed.header.data["players"]
    refusal = ruleset.players_refusal(len(players))
    if refusal is not None:
        return Verdict(
            "malformed",
            f"{refusal}; the log has {len(players)} players",
            parsed.header.line,
            warnings=parsed.warnings,
        )
    verdict = _fed(ruleset, parsed, Feed(events, stop_after, on_position), views)
    verdict.warnings = parsed.warnings
    verdict.mod_files = parsed.mod_files
    return verdict


class _ViewsNeeded(Exception):
    """A digest checkpoint in a replay without views: replayed again with them."""


def _fed(ruleset: Ruleset, parsed: ParsedLog, feed: Feed, views: bool) -> Verdict:
    """``_run``'s verdict, or the one of a malformed line or of the position asked for.

    The game keeps the feed as its chance source; the feed lets go of the game at the
    end, so that no cycle is left between them: a replayed game is freed as soon as
    its last reference goes, not by the cycle collector (whose runs took 3.1 % of
    replaying 120 games, 1.9 % without the cycle: benchmarks/README.md)."""
    try:
        return _run(ruleset, parsed, feed, views)
    except (MalformedLine, BadLine) as exc:  # read by the engine, or by the replay loop
        return Verdict("malformed", exc.message, exc.line)
    except Reached as stop:
        verdict = Verdict("position", game=feed.game, events_applied=feed.index)
        if stop.chance is not None:
            verdict.need = {"chance": stop.chance}
        verdict.pending = [] if stop.chance is not None else _pending(feed.game)
        return verdict
    finally:
        feed.game = None


def replay_events(
    ruleset: Ruleset,
    parsed: ParsedLog,
    on_position: PositionHook | None = None,
    views: bool = True,
) -> Verdict:
    """Replay events already in memory (a live game's, with its header) on ``ruleset``:
    for readers of a game under way, with no file and no loading (``views``: as for
    ``replay``)."""
    views = views or on_position is not None
    try:
        return _fed(ruleset, parsed, Feed(parsed.events, on_position=on_position), views)
    except _ViewsNeeded:
        return replay_events(ruleset, parsed, on_position)


def _run(ruleset: Ruleset, parsed: ParsedLog, feed: Feed, views: bool) -> Verdict:
    header = parsed.header
    game = Game(
        ruleset,
        list(header.data["players"]),
        seed=header.data.get("seed", 0),
        chance_source=feed.chance,
        start=False,
    )
    if views:
        game.follow_knowledge()  # from the start: views are asked along the way
    else:
        game.state.engine["known"] = UNFOLLOWED
    game.automaton_source = feed.automaton
    game.lazy_choices = True
    feed.game = game
    try:
        game.start()
    except NeedChance as exc:
        return Verdict(
            "incomplete",
            f"during the setup: {exc.message}",
            None,
            game=game,
            events_applied=feed.index,
            need=_need(exc),
        )
    except ChanceOutOfStep as exc:
        return _bad_chance(exc.line, exc.message, game)
    except ImpossibleChance as exc:
        return _bad_chance(feed.last, exc.message, game, "impossible", exc.possible)
    except RuleError as exc:
        return _rule_error(exc, feed, game)
    seats = {name: seat for seat, name in enumerate(game.state.players)}
    next_event = feed.next_event
    while (entry := next_event()) is not None:
        if entry.kind != "decision":
            verdict = _not_a_decision(game, entry)
            if verdict is not None:
                return verdict
            continue
        player, choice = entry.data["player"], entry.data["choice"]
        seat = seats.get(player)
        if seat is None:
            return Verdict(
                "illegal",
                f"there is no player {player!r} in this game ({', '.join(game.state.players)})",
                entry.line,
                entry.data,
                game=game,
            )
        try:
            game.apply(seat, choice)
        except NeedChance as exc:
            return Verdict(
                "incomplete",
                f"after {choice!r} on line {entry.line}: {exc.message}",
                None,
                pending=_pending(game),
                game=game,
                events_applied=feed.index - 1,
                need=_need(exc),
                next_decision=entry.data,
            )
        except ChanceOutOfStep as exc:
            return _bad_chance(exc.line, exc.message, game)
        except ImpossibleChance as exc:
            return _bad_chance(feed.last, exc.message, game, "impossible", exc.possible)
        except RuleError as exc:
            return _rule_error(exc, feed, game)
        except IllegalMove as exc:
            if game.is_over():  # told here, not asked before every move
                return Verdict(
                    "illegal", "the game is already over", entry.line, entry.data, game=game
                )
            options = list(game.legal(player))  # the position is as it was before the move
            if not options:
                waiting = ", ".join(d.player_name for d in game.pending()) or "nobody"
                reason = f"{player} has no decision to make now (waiting for: {waiting})"
                options = [o for d in game.pending() for o in d.options]
            else:
                reason = exc.message
            return Verdict(
                "illegal",
                reason,
                entry.line,
                entry.data,
                options,
                game=game,
                events_applied=feed.index - 1,
            )
    if not game.is_over():
        return Verdict(
            "incomplete",
            "",
            None,
            pending=_pending(game),
            game=game,
            events_applied=feed.index,
        )
    return Verdict("legal", "", None, game=game, events_applied=feed.index)


def _not_a_decision(game: Game, entry: LogLine) -> Verdict | None:
    """The verdict of a checkpoint that does not hold, or of a chance outcome where the
    game waits for a decision; None for a checkpoint that holds."""
    if entry.kind == "chance":
        pending = ", ".join(f"{d.player_name}" for d in game.pending()) or "nobody"
        return _bad_chance(
            entry,
            f"the log has a chance outcome ({entry.data['chance']}) "
            f"where the game waits for a decision by {pending}",
            game,
        )
    if entry.kind == "score_checkpoint":
        return _check_scores(game, entry)
    if game.state.engine["known"] is UNFOLLOWED:
        raise _ViewsNeeded
    digest = game.state.digest()  # a digest checkpoint
    if digest != entry.data["state_digest"]:
        return Verdict(
            "mismatch",
            f"state digest differs: the log says "
            f"{entry.data['state_digest']}, the replay has {digest}",
            entry.line,
            entry.data,
            game=game,
        )
    return None


def _rule_error(exc: RuleError, feed: Feed, game: Game) -> Verdict:
    """The rules themselves failed at this event: a defect of the ruleset, not of the log."""
    entry = feed.last
    return Verdict(
        "rule-error",
        exc.headline() + (f"; hint: {exc.hint}" if exc.hint else ""),
        entry.line if entry else None,
        entry.data if entry else None,
        game=game,
        events_applied=max(feed.index - 1, 0),
    )


def _check_scores(game: Game, entry: LogLine) -> Verdict | None:
    score = game.ruleset.score
    actual = {
        name: game.state.counters.get(f"{score}#{seat}", 0)
        for seat, name in enumerate(game.state.players)
    }
    logged = entry.data["scores"]
    unknown = sorted(set(logged) - set(actual))
    if unknown:
        return Verdict(
            "mismatch",
            f"the checkpoint names unknown player(s) {', '.join(unknown)}",
            entry.line,
            entry.data,
            game=game,
        )
    differs = {
        name: (logged[name], actual[name]) for name in logged if logged[name] != actual[name]
    }
    if differs:
        text = "; ".join(
            f"{name}: the log says {a}, the replay has {b}" for name, (a, b) in differs.items()
        )
        return Verdict("mismatch", f"scores differ: {text}", entry.line, entry.data, game=game)
    return None


def _bad_chance(
    entry: LogLine | None,
    message: str,
    game: Game | None,
    kind: str = "illegal",
    possible: tuple[str, ...] = (),
) -> Verdict:
    return Verdict(
        "impossible" if kind == "impossible" else "illegal",
        message,
        entry.line if entry else None,
        entry.data if entry else None,
        list(possible),
        game=game,
    )


def _need(exc: NeedChance) -> dict[str, Any]:
    """The chance line the log needs next (for --suggest)."""
    count = exc.count if exc.count is not None else len(exc.items)
    return {"chance": exc.key, "from": list(exc.items), "count": count}


def _pending(game: Game) -> list[dict[str, Any]]:
    return [
        {"player": d.player_name, "prompt": d.prompt, "options": list(d.options)}
        for d in game.pending()
    ]
