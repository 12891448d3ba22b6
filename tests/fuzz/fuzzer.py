"""Valid means playable, by fuzzing: the case generator and the case runner.

A case is made from one seed alone (``random.Random(f"{seed}:{index}")``), so a case is
the same on every machine and every run. Two kinds of case:

* ``ruleset``: the toy ruleset (tests/engine/toy) with its YAML text mutated: numbers
  replaced by 0, -1 or huge ones, names swapped, lines deleted or duplicated (duplicate
  keys), zone visibility, phase kinds, ``once``, ``while: true``, ``until: false``…
* ``effect``: a valid effect or condition (from the toy, from Rococo, from a list of
  effects written for the toy) with its tokens mutated (operators, numbers, names of
  the ruleset, ``+`` and ``*``, wider ranges, loops without end, an action doing itself,
  a list that doubles…), plugged into the toy as the action ``fuzz`` that a phase, a
  trigger or the setup does.

``run`` loads the case and plays it with random agents for at most ``DECISIONS``
decisions under a CPU-time alarm, and sorts the outcome: refused (every diagnostic
located), played (to the end, or cut at the decision cap), rule error (located), illegal
move (located), or FAILURE (an exception of another kind, an unlocated error or diagnostic, a
hang). Used by test_fuzz.py (a fixed few hundred cases) and run_fuzz.py (many).
"""

from __future__ import annotations

import random
import re
import signal
import traceback
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ruamel.yaml import YAML

from interpreter.agents import make
from interpreter.engine.game import Game
from interpreter.errors import GameError, IllegalMove, RuleError
from interpreter.language import compiler, parser
from interpreter.load import ruleset_files
from interpreter.ruleset import load

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "engine" / "toy"
ROCOCO = ROOT / "rulesets" / "rococo"

DECISIONS = 300  # decisions of play a case may take before it is cut short
SECONDS = 20.0  # CPU seconds a case may take (load and play) before it is a hang

MANIFEST_TEXT = (TOY / "ruleset.yaml").read_text()
CONTENT_TEXT = (TOY / "toy.yaml").read_text()
# an effect case keeps the toy's definitions in a file of their own (the same text in
# every case: read once), its course (triggers, structure, scoring: a few variants, each
# read once) in course.yaml, and the action `fuzz` alone in fuzz.yaml
HEAD_TEXT, _, _ = CONTENT_TEXT.partition("triggers:\n")
COURSE_TEXT = "triggers:\n" + CONTENT_TEXT.partition("triggers:\n")[2]
EFFECT_MANIFEST = MANIFEST_TEXT.replace(
    "include: [toy.yaml]", "include: [toy.yaml, course.yaml, fuzz.yaml]"
)

# ---------------------------------------------------------------------------- corpus
# Effects written for the toy (each valid there in an action done by a player).
TOY_EFFECTS = [
    "gain(coins, 1)",
    "pay(coins, 1)",
    "move(c1, my.hand)",
    "draw(bag, my.hand, 2)",
    "shuffle(bag)",
    "for p in players { gain(score, 1, to: p) }",
    "let l = [1, 2, 3]\nfor x in l { gain(coins, x) }",
    "repeat 3 { gain(coins, 1) }",
    "while loops < 10 { loops += 1 }",
    "if my.coins > 3 { pay(coins, 2) } else { gain(coins, 1) }",
    'choose c in my.hand as "drop" { move(c, pool) }',
    'may choose s in slot where s.free as "claim" { claim(s) }',
    'choose { option "a" { gain(coins, 1) } option "b" { gain(score, 1) } }',
    "emit played(card: c1)",
    "leader = me",
    "let n = count(c in card where c.points > 2)\ngain(score, n)",
    "gain(score, hand_points(me))",
    "act as leader { gain(coins, 1) }",
    'choose p in players by chance as "lucky" { gain(coins, 1, to: p) }',
    "for i in range(0, 10) { loops += 1 }",
    "do buy(price: 1)",
    "if can buy(price: 2) { do buy(price: 2) }",
    "let x = 2\nrepeat 5 { x = x * x }\nloops = x % 7",
    "gain(coins, sum(c.points for c in my.table.pieces))",
    "move(first(my.hand.pieces), my.table)",
    "for c in my.hand.pieces where c.points > 2 { move(c, pool) }",
    "let best = max(c.points for c in card)\ngain(score, best)",
    "if any(s in slot where s.owner == me) { gain(score, 2) }",
    "loops += my.coins // 2",
    "for p in others(me) { gain(coins, 1, to: p) }",
    "let t = [c1, c2, c3]\nmove(t[1], pool)",
    "draw(deck, my.hand, 1)\nmove(filter(c in my.hand.pieces where c.points > 4), my.vault)",
    "simultaneous for p in players {\n"
    '  act as p { choose c in my.hand as "hide" { move(c, my.vault) } }\n}',
]
TOY_CONDITIONS = [
    "my.coins >= 2",
    "my.hand.size > 0",
    "loops < 3",
    "count(players) == 2",
    "leader == me",
    "any(s in slot where s.free)",
    "hand_points(me) > 3 and not pool.empty",
    "sum(c.points for c in my.table.pieces) % 2 == 1",
    "can buy(price: 1) or my.score > 5",
]
# wrappers around an effect X (structural mutations)
WRAPS = [
    "while true {{ {x} }}",
    "repeat 100000 {{ {x} }}",
    "for i in range(0, 100000) {{ {x} }}",
    "{x}\ndo fuzz()",
    "if loops < 50 {{\n  loops += 1\n  {x}\n  do fuzz()\n}}",
    "let l = [1]\nwhile true {{ l = l + l }}\n{x}",
    "let x = 2\nwhile true {{ x = x * x }}\n{x}",
    "{x}\n{x}",
    'choose c in my.hand as "pick" {{ {x} }}',
    'may choose c in my.hand as "pick" {{ {x} }}',
    "act as leader {{ {x} }}",
    "for p in players {{ act as p {{ {x} }} }}",
    "simultaneous for p in players {{ act as p {{ {x} }} }}",
    "emit played(card: c1)\n{x}",
    "{x}\nstop",
    "fail('no')\n{x}",
    "while my.coins < 1000000000 {{ gain(coins, my.coins + 1) }}\n{x}",
    "let l = range(0, 100000)\nfor a in l {{ for b in l {{ {x} }} }}",
    "draw(bag, my.hand, 1000000)\n{x}",
    "repeat -1 {{ {x} }}",
    'choose p in players by chance as "who" {{ act as p {{ {x} }} }}',
    "let l = [[1]]\nrepeat 60 {{ l = [l] }}\n{x}",
]
NAMES = re.findall(
    r"\S+",
    "coins score round loops leader bag deck pool hand table vault card c1 c2 c3 c4 c5 "
    "c6 chip slot slot1 slot2 played hand_points buy spin secret_pick lottery typed halt "
    "fuzz players me my none true false points size pieces free owner value empty zone "
    "id count sum range first last filter max min any all others move draw gain pay "
    "claim release shuffle reveal fail get keys number text index_of contains distinct "
    "reverse seat_order price c p s x l t n i",
)
NUMBERS = ["0", "-1", "1", "2", "3", "7", "50", "1000", "100000", "1000000000", "9" * 30]
OPERATORS = ["+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "not"]
TOKEN = re.compile(
    r'"[^"\n]*"|\'[^\'\n]*\'|\d+|[A-Za-z_][A-Za-z_0-9]*|==|!=|<=|>=|\+=|-=|//'
    r"|[-+*%<>=(){}\[\],.:;]|\s+|."
)


def _effects_in(data, found: list[tuple[str, str]]) -> None:
    """Collect the effect and condition texts of a parsed YAML document."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, str) and key in ("effect", "setup"):
                found.append(("effect", value))
            elif isinstance(value, str) and key in ("condition", "while", "when", "until", "value"):
                found.append(("condition", value))
            else:
                _effects_in(value, found)
    elif isinstance(data, list):
        for item in data:
            _effects_in(item, found)


@lru_cache(maxsize=2)
def corpus(game: str = "toy") -> tuple[tuple[str, str], ...]:
    """The effects and conditions of the toy (with ``TOY_EFFECTS``), or of Rococo."""
    found: list[tuple[str, str]] = []
    if game == "toy":
        found += [("effect", e) for e in TOY_EFFECTS]
        found += [("condition", c) for c in TOY_CONDITIONS]
        _effects_in(YAML(typ="safe").load(CONTENT_TEXT), found)
    else:
        for name in ("actions.yaml", "bonuses.yaml", "structure.yaml", "scoring.yaml"):
            _effects_in(YAML(typ="safe").load((ROCOCO / name).read_text()), found)
    return tuple((kind, text.strip()) for kind, text in found if text.strip())


# ------------------------------------------------------------------------- mutation
def mutate_tokens(rng: random.Random, text: str) -> str:
    tokens = TOKEN.findall(text)
    places = [i for i, t in enumerate(tokens) if not t.isspace()]
    if not places:
        return text
    i = rng.choice(places)
    token = tokens[i]
    roll = rng.random()
    if token.isdigit() or roll < 0.15:
        tokens[i] = rng.choice(NUMBERS) if token.isdigit() else token
        if not token.isdigit():
            numbers = [j for j in places if tokens[j].isdigit()]
            if numbers:
                tokens[rng.choice(numbers)] = rng.choice(NUMBERS)
    elif token in OPERATORS or token in ("+=", "-=", "="):
        tokens[i] = rng.choice([*OPERATORS, "+=", "-=", "="])
    elif re.match(r"[A-Za-z_]", token) and roll < 0.75:
        tokens[i] = rng.choice(NAMES)
    elif roll < 0.82:
        del tokens[i]
    elif roll < 0.9:
        tokens.insert(i, token)
    else:
        j = rng.choice(places)
        tokens[i], tokens[j] = tokens[j], tokens[i]
    return "".join(tokens)


def mutate_effect(rng: random.Random, text: str, kind: str) -> str:
    """1 to 3 mutations of an effect (or of a condition)."""
    for _ in range(rng.choice([1, 1, 2, 3])):
        roll = rng.random()
        if roll < 0.35:
            text = mutate_tokens(rng, text)
        elif roll < 0.42:
            text = text.replace("range(0, 10)", "range(0, 100000)").replace("+", "*")
        elif roll < 0.5 and kind == "condition":
            text = rng.choice(["true", "false", "none", "1", "'x'", "my", "players"])
        elif kind == "effect":
            text = rng.choice(WRAPS).format(x=text)
        else:
            text = f"({text}) {rng.choice(['and', 'or', '==', '+', '*'])} ({text})"
    return text


def _indent(text: str, spaces: int) -> str:
    pad = " " * spaces
    return "\n".join(pad + line if line.strip() else "" for line in text.splitlines())


def plug(rng: random.Random, text: str, kind: str) -> tuple[str, str]:
    """An action ``fuzz`` doing ``text`` (an effect, or a condition the action tests),
    and the toy's course with a place of the game that does ``fuzz``."""
    if kind == "condition":
        if rng.random() < 0.5:
            effect = f"if {text} {{ gain(coins, 1) }} else {{ pay(coins, 1) }}"
            action = f"  fuzz:\n    params: {{}}\n    effect: |\n{_indent(effect, 6)}\n"
        else:
            action = (
                "  fuzz:\n    params: {}\n    requires:\n      - condition: |-\n"
                f"{_indent(text, 10)}\n        message: fuzzed\n    effect: gain(coins, 1)\n"
            )
    else:
        action = f"  fuzz:\n    params: {{}}\n    effect: |\n{_indent(text, 6)}\n"
    content = COURSE_TEXT
    place = rng.random()
    if place < 0.55:  # a phase of its own, somewhere in the round
        phase_kind = rng.choice(["each_player", "each_player", "simultaneous", "once", "turns"])
        extra = ', while: "my.coins < 9"' if phase_kind == "turns" else ""
        step = f'    - {{id: fuzzing, kind: {phase_kind}, effect: "do fuzz()"{extra}}}\n'
        anchor = rng.choice(["    - id: pick\n", "    - id: turns\n", "    - id: income\n"])
        content = content.replace(anchor, step + anchor, 1)
    elif place < 0.7:  # an option of the turn
        content = content.replace(
            '        may choose s in slot where s.free as "claim" { claim(s) }\n',
            '        may choose s in slot where s.free as "claim" { claim(s) }\n'
            '        may choose { option "fuzz" if can fuzz() { do fuzz() } }\n',
            1,
        )
    elif place < 0.85:  # a trigger
        content = content.replace(
            "triggers:\n", "triggers:\n  fuzzed:\n    on: played\n    effect: do fuzz()\n", 1
        )
    elif place < 0.93:  # a scoring step
        content = content.replace(
            "  steps:\n",
            "  steps:\n    - id: fuzzing\n"
            "      effect: for p in players { act as p { do fuzz() } }\n",
            1,
        )
    else:  # the setup
        content = content.replace(
            "    leader = first(players)\n",
            "    leader = first(players)\n    act as leader { do fuzz() }\n",
            1,
        )
    return "actions:\n" + action, content


YAML_SWAPS = [
    ("visibility: public", "visibility: secret"),
    ("visibility: secret", "visibility: private"),
    ("visibility: private", "visibility: public"),
    ("kind: turns", "kind: once"),
    ("kind: each_player", "kind: turns"),
    ("kind: simultaneous", "kind: each_player"),
    ("kind: simultaneous", "kind: once"),
    ("once: player", "once: game"),
    ("once: player", "once: round"),
    ("while: my.hand.size > 0", "while: true"),
    ("while: my.hand.size > 0", "while: my.hand.size >= 0"),
    ("rounds: {count: 2, counter: round}", "rounds: {until: false}"),
    ("rounds: {count: 2, counter: round}", "rounds: {until: round > 999999, counter: round}"),
    ("rounds: {count: 2, counter: round}", "rounds: {count: 1000000}"),
    ("when: my.coins >= 5", "when: true"),
    ("when: my.coins >= 5", "when: my.coins >= 0"),
    ("order: random", "order: bottom"),
    ("per: player", "per: game"),
    ("per: game", "per: player"),
    ("type: number", "type: text"),
    ("type: player", "type: number"),
    ("capacity: 1", "capacity: 0"),
    ("claimable: true", "claimable: false"),
    ("effect: pay(coins, price)", "effect: do buy(price: price + 1)"),
    ("seat_order(leader)", "seat_order(none)"),
    ("leader = first(players)", "leader = none"),
    ("draw(bag, p.hand, 2)", "draw(bag, p.hand, 1000)"),
    ("min: 2, max: 3", "min: 1, max: 16"),
    ("include: [toy.yaml]", "include: [toy.yaml, toy.yaml]"),
]


def mutate_yaml(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    roll = rng.random()
    if roll < 0.25:  # a number
        spots = [(i, m) for i, line in enumerate(lines) for m in re.finditer(r"\d+", line)]
        if spots:
            i, m = rng.choice(spots)
            new = rng.choice(["0", "-1", "1", "1000", "100000", "1000000000", "9" * 30])
            lines[i] = lines[i][: m.start()] + new + lines[i][m.end() :]
    elif roll < 0.45:  # a name by another name of the ruleset
        spots = [(i, m) for i, line in enumerate(lines) for m in re.finditer(r"[A-Za-z_]\w*", line)]
        i, m = rng.choice(spots)
        lines[i] = lines[i][: m.start()] + rng.choice(NAMES) + lines[i][m.end() :]
    elif roll < 0.55:  # a line deleted
        del lines[rng.randrange(len(lines))]
    elif roll < 0.65:  # a line duplicated (a duplicate key, a phase twice…)
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif roll < 0.7:  # two lines swapped
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif roll < 0.74:  # indentation
        i = rng.randrange(len(lines))
        lines[i] = (
            (" " * rng.choice([1, 2, 4])) + lines[i] if rng.random() < 0.5 else lines[i].lstrip()
        )
    else:
        joined = "\n".join(lines)
        present = [(a, b) for a, b in YAML_SWAPS if a in joined]
        if present:
            a, b = rng.choice(present)
            return joined.replace(a, b, 1 if rng.random() < 0.7 else -1)
    return "\n".join(lines)


# ---------------------------------------------------------------------------- cases
@dataclass
class Case:
    seed: str
    kind: str  # "ruleset" or "effect"
    files: dict[str, str]
    players: int
    text: str = ""  # the mutated effect or condition (an effect case)

    def reproduction(self) -> str:
        head = f"case {self.seed} ({self.kind}, {self.players} players)"
        if self.kind == "effect":
            return f"{head}, the action `fuzz` does:\n{self.text}"
        return (
            f"{head}, toy.yaml:\n{self.files['toy.yaml']}\nruleset.yaml:\n"
            + self.files["ruleset.yaml"]
        )


def make_case(seed: str) -> Case:
    rng = random.Random(seed)
    players = rng.choice([2, 2, 3])
    if rng.random() < 0.3:
        manifest, content = MANIFEST_TEXT, CONTENT_TEXT
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.12:
                manifest = mutate_yaml(rng, manifest)
            else:
                content = mutate_yaml(rng, content)
        return Case(seed, "ruleset", {"ruleset.yaml": manifest, "toy.yaml": content}, players)
    texts = corpus("toy" if rng.random() < 0.75 else "rococo")
    kind, text = rng.choice(texts)
    if rng.random() < 0.1:  # two texts joined
        other_kind, other = rng.choice(texts)
        if other_kind == kind:
            text = f"{text}\n{other}" if kind == "effect" else f"{text} and {other}"
    text = mutate_effect(rng, text, kind)
    action, course = plug(rng, text, kind)
    if rng.random() < 0.1:
        if rng.random() < 0.5:
            action = mutate_yaml(rng, action)
        else:
            course = mutate_yaml(rng, course)
    files = {"ruleset.yaml": EFFECT_MANIFEST, "toy.yaml": HEAD_TEXT}
    files.update({"course.yaml": course, "fuzz.yaml": action})
    return Case(seed, "effect", files, players, text)


# ---------------------------------------------------------------------------- running
class Hang(BaseException):
    """The case ran out of CPU time (BaseException: no rule code may swallow it)."""


def _alarm(_signum, _frame):
    raise Hang()


@dataclass
class Outcome:
    kind: str  # refused / played / cut / rule error / illegal move / FAILURE
    detail: str = ""
    decisions: int = 0
    extra: dict = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        return self.kind == "FAILURE"


_parse = parser.parse


@lru_cache(maxsize=4096)
def _cached_parse(text: str, start: str):
    try:
        return _parse(text, start), None
    except parser.SyntaxProblem as exc:
        return None, exc


def _parse_once(text: str, start: str):
    """The effects of the toy are the same in most cases: parse each text once."""
    tree, problem = _cached_parse(text, start)
    if problem is not None:
        raise problem
    return tree


_read_checked = ruleset_files._read_checked
_documents: dict[tuple, tuple] = {}


def _read_once(path: Path, display: str, schema: str | None):
    """A file read and checked once per text (not per modification time: a case
    rewrites its files faster than the clock of the file system ticks)."""
    try:
        key = (display, schema, path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        key = None
    if key is not None and key in _documents:
        return _documents[key]
    ruleset_files._READ_CACHE.clear()
    found = _read_checked(path, display, schema)
    if key is not None:
        if len(_documents) >= 64:
            _documents.pop(next(iter(_documents)))
        _documents[key] = found
    return found


def reuse_parses() -> None:
    """Read and parse what is the same in every case once per process."""
    compiler.parse = _parse_once
    ruleset_files._read_checked = _read_once


def restore() -> None:
    """Undo ``reuse_parses`` (the rest of a test session reads files as usual)."""
    compiler.parse = _parse
    ruleset_files._read_checked = _read_checked
    _documents.clear()


def write(case: Case, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        if old.name not in case.files:
            old.unlink()
    for name, text in case.files.items():
        (folder / name).write_text(text, encoding="utf-8")


def run(case: Case, folder: Path, seconds: float = SECONDS, decisions: int = DECISIONS) -> Outcome:
    """Load and play ``case`` in ``folder``; never raises (but KeyboardInterrupt)."""
    write(case, folder)
    previous = signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        return _run(case, folder, decisions)
    except Hang:
        return Outcome("FAILURE", f"hang: more than {seconds} CPU seconds\n{_short_trace()}")
    except RecursionError:
        return Outcome("FAILURE", "RecursionError\n" + _short_trace())
    except MemoryError:
        return Outcome("FAILURE", "MemoryError")
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def _short_trace() -> str:
    lines = traceback.format_exc().splitlines()
    return "\n".join(lines[-12:])


def _run(case: Case, folder: Path, decisions: int) -> Outcome:
    try:
        loaded = load(folder)
    except Hang:
        raise
    except Exception as exc:
        return Outcome("FAILURE", f"load raised {type(exc).__name__}: {exc}\n{_short_trace()}")
    if loaded.diagnostics:
        for d in loaded.diagnostics:
            if not d.location.path or d.location.line <= 0:
                return Outcome("FAILURE", f"unlocated diagnostic: {d.headline()}")
        return Outcome("refused", loaded.diagnostics[0].message)
    if loaded.ruleset is None:
        return Outcome("FAILURE", "load gave neither a ruleset nor a diagnostic")
    players = [f"P{i + 1}" for i in range(case.players)]
    made = 0
    try:
        game = Game(loaded.ruleset, players, seed=case.seed)
        agents = {seat: make("random", seat, case.seed) for seat in range(len(players))}
        while not game.is_over():
            if made >= decisions:
                return Outcome("cut", decisions=made)
            pending = game.pending()
            if not pending:
                return Outcome("FAILURE", "the game is not over and nobody has a decision")
            decision = pending[0]
            option = agents[decision.player].choose(game, decision)
            made += 1
            game.apply(decision.player, option)
        game.result()
    except Hang:
        raise
    except RecursionError:
        raise
    except RuleError as exc:
        if exc.where is None or exc.where.line <= 0:
            return Outcome("FAILURE", f"unlocated rule error: {exc.headline()}", made)
        return Outcome("rule error", exc.headline(), made)
    except IllegalMove as exc:  # an option the rules offered, then refused: located too
        if exc.where is None or exc.where.line <= 0:
            return Outcome("FAILURE", f"unlocated illegal move: {exc.headline()}", made)
        return Outcome("illegal move", exc.headline(), made)
    except GameError as exc:
        return Outcome("FAILURE", f"unlocated {type(exc).__name__}: {exc.message}", made)
    except Exception as exc:
        return Outcome("FAILURE", f"{type(exc).__name__}: {exc}\n{_short_trace()}", made)
    return Outcome("played", decisions=made)
