"""The grammar's parser as plain data: Lark's LALR tables, lexers and tree shapes.

Lark builds the tables once (``parser.py`` keeps them in the cache folder); ``lalr.py``
parses with them without Lark. Everything here is read from a built Lark parser:

* ``actions[state][symbol]``: shift to (and go to) state ``n`` as ``n``, reduce by rule
  ``r`` as ``~r``;
* ``rules[r]``: the rule's left side, its length, and the shape of its tree (the node's
  name, whether a `?rule` of one child is that child, which children the tree keeps and
  where ``None`` stands for a missing ``[optional]`` part: Lark's
  ``maybe_create_child_filter``);
* ``lexers``: Lark's contextual lexer, one per set of terminals a state accepts: its
  regular expressions in Lark's order, and the keywords a terminal's match turns into
  (Lark's ``UnlessCallback``: ``if`` lexed as a name becomes ``IF`` where ``IF`` is
  acceptable); ``lexer_of[state]`` says which one each state reads with.

``from_lark`` answers None for any parser whose options or internals are not the ones
read here (another Lark release may change them): the texts are then parsed by Lark
itself, which costs speed, never correctness.

Each lexer's regular expressions are kept compiled too (``codes``): ``re`` compiles in
Python, and the 34 lexers a cold `rules validate` reads with took it 3.5 ms a process.
What ``re._compiler`` makes of a pattern (its code, a list of numbers, and its groups)
is what ``_sre.compile`` builds the pattern from, as ``re.compile`` does (``compiled``);
it is kept for the regular expression engine it was made for (``_sre.MAGIC``, and the
cache file's name holds Python's version), and anything else compiles with ``re``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

FORMAT = 2  # the version of this data's shape, part of the cache file's name and contents

# (left side, length, node name, expand a single child, kept children, placeholders after)
# where kept children is None (all, as they are) or ((index, inline, placeholders before), …)
RuleShape = tuple[str, int, str, bool, tuple[tuple[int, bool, int], ...] | None, int]
# (regular expressions with their flags, {terminal: {keyword text: keyword terminal}})
LexerShape = tuple[tuple[tuple[str, int], ...], dict[str, dict[str, str]]]


@dataclass(frozen=True)
class ParseTables:
    """What ``lalr.Parser`` needs of a grammar (module docstring)."""

    starts: dict[str, int]
    ends: dict[str, int]
    actions: list[dict[str, int]]
    rules: list[RuleShape]
    lexers: list[LexerShape]
    lexer_of: list[int]
    newline_terminals: frozenset[str]
    ignored_terminals: frozenset[str]
    # per lexer, per regular expression: what ``_sre.compile`` takes besides the pattern
    # (None where it could not be worked out), for the engine of this ``MAGIC``: the
    # tables' own regular expressions compiled, no part of what they are
    codes: list[tuple[Any, ...]] | None = field(default=None, compare=False)
    engine: int | None = field(default=None, compare=False)

    def as_data(self) -> dict[str, Any]:
        """Plain dicts, lists, tuples and strings (``marshal`` writes them)."""
        return {
            "format": FORMAT,
            "starts": self.starts,
            "ends": self.ends,
            "actions": self.actions,
            "rules": self.rules,
            "lexers": self.lexers,
            "lexer_of": self.lexer_of,
            "newline_terminals": self.newline_terminals,
            "ignored_terminals": self.ignored_terminals,
            # worked out when the tables are written (a process with no cache file to
            # write never needs them): every later process compiles its lexers from them
            "codes": self.codes if self.codes is not None else self._codes(),
            "engine": self.engine if self.codes is not None else _engine(),
        }

    def _codes(self) -> list[tuple[Any, ...]]:
        return [tuple(_code(p, flags) for p, flags in lexer[0]) for lexer in self.lexers]

    def compiled(self, lexer: int) -> list[re.Pattern[str]]:
        """The regular expressions of lexer number ``lexer``, compiled."""
        patterns = self.lexers[lexer][0]
        codes = self.codes[lexer] if self.codes and self.engine == _engine() else None
        if codes is None or len(codes) != len(patterns):
            return [re.compile(pattern, flags) for pattern, flags in patterns]
        pairs = zip(patterns, codes, strict=True)
        return [compiled(pattern, flags, code) for (pattern, flags), code in pairs]

    @classmethod
    def from_data(cls, data: Any) -> ParseTables | None:
        """The tables ``as_data`` gave, or None for anything else (another format)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return None
        try:
            tables = cls(**{key: value for key, value in data.items() if key != "format"})
        except TypeError:
            return None
        states = len(tables.actions)
        if len(tables.lexer_of) != states or not all(
            0 <= index < len(tables.lexers) for index in tables.lexer_of
        ):
            return None
        return tables


def from_lark(parser: Any) -> ParseTables | None:
    """The tables of a built ``lark.Lark`` parser, or None where its options or
    internals are not the ones read here (module docstring)."""
    try:
        return _read(parser)
    except (AttributeError, KeyError, TypeError, ValueError, AssertionError):
        return None


def _read(parser: Any) -> ParseTables | None:
    from lark.lexer import BasicLexer, ContextualLexer, PatternStr, UnlessCallback
    from lark.parsers.lalr_analysis import Shift

    options = parser.options
    frontend = parser.parser
    lalr = frontend.parser.parser
    lexer = frontend.lexer
    conf = frontend.lexer_conf
    supported = (
        options.parser == "lalr"
        and options.propagate_positions is True
        and options.maybe_placeholders
        and options.transformer is None
        and options.postlex is None
        and options.tree_class is None
        and not options.lexer_callbacks
        and type(lexer) is ContextualLexer
        and conf.re_module is re
        and not conf.use_bytes
        and all(not isinstance(key, str) for key in lalr.callbacks)
    )
    if not supported:
        return None
    table = lalr.parse_table
    if sorted(table.states) != list(range(len(table.states))):
        return None
    rules = list(lalr.callbacks)
    number = {rule: index for index, rule in enumerate(rules)}
    actions = [
        {
            str(symbol): (target if action is Shift else ~number[target])
            for symbol, (action, target) in table.states[state].items()
        }
        for state in range(len(table.states))
    ]
    lexers: list[LexerShape] = []
    lexer_index: dict[int, int] = {}
    lexer_of = []
    newline: set[str] = set()
    ignored: set[str] = set()
    for state in range(len(table.states)):
        basic = lexer.lexers[state]
        if id(basic) not in lexer_index:
            if type(basic) is not BasicLexer or basic.user_callbacks:
                return None
            scanner = basic.scanner  # builds Lark's regular expressions and keyword callbacks
            keywords = {}
            for terminal, callback in basic.callback.items():
                if type(callback) is not UnlessCallback:
                    return None
                words = callback.scanner.terminals
                if not all(type(w.pattern) is PatternStr and not w.pattern.flags for w in words):
                    return None
                keywords[str(terminal)] = {str(w.pattern.value): str(w.name) for w in words}
            patterns = tuple((str(mre.pattern), int(mre.flags)) for mre in scanner._mres)
            lexer_index[id(basic)] = len(lexers)
            lexers.append((patterns, keywords))
            newline.update(str(name) for name in basic.newline_types)
            ignored.update(str(name) for name in basic.ignore_types)
        lexer_of.append(lexer_index[id(basic)])
    return ParseTables(
        starts={str(name): state for name, state in table.start_states.items()},
        ends={str(name): state for name, state in table.end_states.items()},
        actions=actions,
        rules=[_shape(rule) for rule in rules],
        lexers=lexers,
        lexer_of=lexer_of,
        newline_terminals=frozenset(newline),
        ignored_terminals=frozenset(ignored),
    )


def _shape(rule: Any) -> RuleShape:
    """How Lark's ``ParseTreeBuilder`` shapes the node of ``rule`` (module docstring)."""
    options = rule.options
    name = rule.alias or options.template_source or rule.origin.name
    include, trailing = _kept_children(rule.expansion, options)
    expand_single = bool(options.expand1 and not rule.alias)
    # plain ``str``: Lark's names may be its tokens, which ``marshal`` cannot write
    return (str(rule.origin.name), len(rule.expansion), str(name), expand_single, include, trailing)


def _kept_children(
    expansion: Any, options: Any
) -> tuple[tuple[tuple[int, bool, int], ...] | None, int]:
    """(index, inlined, placeholders before it) of each child the tree keeps, and the
    placeholders after the last; None for a rule that keeps its children as they are
    (Lark's ``maybe_create_child_filter``)."""
    empty = options.empty_indices
    if empty:
        runs = "".join("1" if missing else "0" for missing in empty).split("0")
        nones_at = [len(run) for run in runs]
    else:
        nones_at = [0] * (len(expansion) + 1)
    include = []
    nones = 0
    for index, symbol in enumerate(expansion):
        nones += nones_at[index]
        if options.keep_all_tokens or not (symbol.is_term and symbol.filter_out):
            inline = not symbol.is_term and symbol.name.startswith("_")
            include.append((index, inline, nones))
            nones = 0
    nones += nones_at[len(expansion)]
    if empty or len(include) < len(expansion) or any(inline for _, inline, _ in include):
        return tuple(include), nones
    return None, 0


def compiled(pattern: str, flags: int, code: Any) -> re.Pattern[str]:
    """``re.compile(pattern, flags)`` from what ``_code`` made of them (``re`` compiles
    again where that is None or this engine refuses it)."""
    if code is not None:
        import _sre

        try:
            return _sre.compile(pattern, *code)
        except Exception:  # not this engine's code: re compiles, and says what it says
            pass
    return re.compile(pattern, flags)


def _code(pattern: str, flags: int) -> tuple[Any, ...] | None:
    """What ``re._compiler.compile`` gives ``_sre.compile`` besides the pattern: its
    flags, code, groups and their names (None where ``re``'s internals differ)."""
    try:
        import _sre
        from re import _compiler, _parser

        parsed = _parser.parse(pattern, flags)
        code = [int(word) for word in _compiler._code(parsed, flags)]  # opcodes: int subclasses
        names = parsed.state.groupdict
        by_index: list[str | None] = [None] * parsed.state.groups
        for name, index in names.items():
            by_index[index] = name
        made = (int(flags | parsed.state.flags), code, parsed.state.groups - 1, dict(names))
        made += (tuple(by_index),)
        _sre.compile(pattern, *made)  # the engine takes it
    except Exception:  # another Python's internals: re compiles each time
        return None
    return made


def _engine() -> int | None:
    """The regular expression engine's version (its code's format)."""
    try:
        import _sre

        return int(_sre.MAGIC)
    except (ImportError, AttributeError, TypeError, ValueError):
        return None
