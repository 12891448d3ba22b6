"""Parse effect and expression text with the grammar (Lark's LALR parser), once per text.

``grammar.lark`` is the language; Lark builds its parser, which is kept in the cache
folder (``Lark.save``/``Lark.load`` through the folder's integrity check), parses, and
gives the trees (``lark.Tree``, ``lark.Token``) the compiler reads. Its error
(``UnexpectedInput``) becomes the ``SyntaxProblem`` a user reads.
"""

from __future__ import annotations

import contextlib
import io
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import lark
from lark import Lark, Token, Tree
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)

from interpreter import cache_folder

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")
MAX_TEXT = 20_000
MAX_NESTING = 64
MAX_TREE_DEPTH = 160

_FRIENDLY = {
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "DOT": "'.'",
    "COLON": "':'",
    "SEMICOLON": "';'",
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a text in quotes",
    "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '//' or '%'",
    "ASSIGN_OP": "'=', '+=' or '-='",
    "MINUS": "'-'",
    "EQUAL": "'='",
    "$END": "the end of the text",
}


@dataclass
class SyntaxProblem(Exception):
    """A parse error at a 1-based line and column of the parsed text."""

    line: int
    column: int
    message: str
    hint: str | None = None
    related: tuple[int, int] | None = None  # a second position the hint refers to ({at})


MAX_PARSED = 8192  # parsed texts kept per process (a ruleset has about a thousand)


@lru_cache(maxsize=1)
def grammar() -> Lark:
    """Lark's LALR parser of the grammar: it builds the tables and words the errors.
    Its own tables come from a per-user cache file when one fits, since building them
    costs a fifth of a second.

    The file is written with ``Lark.save`` and read with ``Lark.load``, not through
    Lark's own ``cache=`` option: that one writes and unpickles the file itself, past
    the cache folder's integrity check (a planted pickle would run), and counts the
    file's path in its key. The file's name holds the digest that matters."""
    text = GRAMMAR_PATH.read_text()
    cache = grammar_cache_file(text)
    built = None
    kept = cache_folder.read_entry(cache)  # None: missing, not trusted, or not ours
    if kept is not None:
        with contextlib.suppress(Exception):  # of another format: built again
            built = Lark.load(io.BytesIO(kept))
    if built is None:
        built = Lark(
            text,
            parser="lalr",
            start=["effect", "expr"],
            propagate_positions=True,
            maybe_placeholders=True,
        )
        if cache is not None:
            saved = io.BytesIO()
            built.save(saved)
            cache_folder.write_entry(cache, saved.getvalue())  # not kept: only slower
    return built


def grammar_cache_file(text: str) -> Path | None:
    """Where Lark's built parser for this grammar text is kept, or None for no cache
    (``cache_folder.derived_file``: the name holds a digest of the grammar, of Lark's
    version and the file's format, so a stale file is never read; Lark itself checks
    the digest inside the file again)."""
    # "Lark.save": the file's format (Lark's own cache= wrote another under this name)
    return cache_folder.derived_file(
        "grammar", text, "Lark.save", lark.__version__, suffix="lark-cache"
    )


@lru_cache(maxsize=MAX_PARSED)
def parse(text: str, start: str) -> Tree:
    """Parse ``text`` as an ``effect`` or an ``expr``; raise ``SyntaxProblem``.

    Kept per process (the trees are only read): checking every combination of a
    ruleset's expansions compiles the same texts again, and parsing is most of it."""
    if len(text) > MAX_TEXT:
        raise SyntaxProblem(
            1, 1, f"expression is longer than {MAX_TEXT:,} characters", "split it into functions"
        )
    _check_nesting(text)
    try:
        tree = grammar().parse(text, start=start)
    except UnexpectedInput as exc:
        raise _problem(exc, start, text) from None
    except (LarkError, RecursionError) as exc:
        raise SyntaxProblem(1, 1, f"cannot parse: {exc}") from None
    _check_depth(tree)
    return tree


def _check_depth(tree: Any) -> None:
    """Refuse trees deeper than the compiler may walk (long operator chains)."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            meta = getattr(node, "meta", None)
            line = getattr(meta, "line", 1) if meta is not None and not meta.empty else 1
            column = getattr(meta, "column", 1) if meta is not None and not meta.empty else 1
            raise SyntaxProblem(
                line,
                column,
                f"expression nested deeper than {MAX_TREE_DEPTH} levels",
                "split it into parts with `let` or ruleset functions",
            )
        for child in node.children:
            if child is not None and not isinstance(child, str):
                stack.append((child, depth + 1))


def _check_nesting(text: str) -> None:
    """Refuse brackets nested deeper than ``MAX_NESTING`` before parsing them."""
    if text.count("(") + text.count("[") + text.count("{") <= MAX_NESTING:
        return  # too few to nest that deep: most texts, without a walk of every character
    depth = 0
    line, col = 1, 0
    for char in text:
        col += 1
        if char == "\n":
            line, col = line + 1, 0
        elif char in "([{":
            depth += 1
            if depth > MAX_NESTING:
                raise SyntaxProblem(
                    line,
                    col,
                    f"brackets nested deeper than {MAX_NESTING} levels",
                    "use `let` or a function to name a part",
                )
        elif char in ")]}":
            depth -= 1


def _problem(exc: UnexpectedInput, start: str, text: str) -> SyntaxProblem:
    line, column = max(exc.line, 1), max(exc.column, 1)
    if isinstance(exc, UnexpectedCharacters):
        char = exc.char
        hint = None
        if char == "/":
            hint = "integer division is written `//`"
        elif char in "&|":
            hint = "write `and` / `or`"
        elif char == "!":
            hint = "write `not` (or `!=` for 'differs')"
        elif char == "=":
            hint = "compare with `==`"
        return SyntaxProblem(line, column, f"unexpected character {char!r}", hint)
    if isinstance(exc, UnexpectedEOF):
        expected = _expected(exc.expected, start)
        line, column = _end_position(text)
        unclosed = _unclosed(text, line, column)
        if unclosed:
            return SyntaxProblem(
                line,
                column,
                f"the text ends too early; expected {expected}",
                f"the {unclosed[0]!r} opened at {{at}} is not closed",
                (unclosed[1], unclosed[2]),
            )
        return SyntaxProblem(
            line,
            column,
            f"the text ends too early; expected {expected}",
            "check for a missing ')' or '}'",
        )
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        found = "end of the text" if token.type == "$END" else f"{str(token)!r}"
        if token.type == "$END":
            line, column = _end_position(text)
        expected = _expected(exc.expected, start)
        if not exc.expected:
            return SyntaxProblem(
                line,
                column,
                f"unexpected {found}: two values side by side",
                "join them with an operator (+, -, and, or, ==, …) or a ','",
            )
        hint = None
        if token.type == "EQUAL" or (token.type == "ASSIGN_OP" and start == "expr"):
            hint = "compare with `==`; `=` sets a value and only stands in effects"
        elif start == "expr" and token.type in ("LBRACE",):
            hint = "a condition or value is one expression; effects go in `effect:` fields"
        elif str(token) == "if" and _after_else(text, token):
            hint = "write `elif CONDITION { … }` (one word) for a further branch"
        elif token.type in ("NAME", "INT", "STRING") and "COMMA" in exc.expected:
            hint = "separate arguments with ','"
        unclosed = _unclosed(text, line, column)
        related = None
        if unclosed is not None and (
            "RPAR" in exc.expected or "RSQB" in exc.expected or "RBRACE" in exc.expected
        ):
            hint = f"the {unclosed[0]!r} opened at {{at}} is not closed"
            related = (unclosed[1], unclosed[2])
        return SyntaxProblem(
            line, column, f"unexpected {found}; expected {expected}", hint, related
        )
    return SyntaxProblem(line, column, "cannot parse this text")


def _after_else(text: str, token: Token) -> bool:
    """Whether the word before ``token`` is `else` (`else if`, the spelling of other
    languages, where this one writes `elif`)."""
    start = getattr(token, "start_pos", None)
    return isinstance(start, int) and re.search(r"\belse\s*$", text[:start]) is not None


def _unclosed(text: str, line: int, column: int) -> tuple[str, int, int] | None:
    """The innermost bracket still open before (line, column), outside strings."""
    stack: list[tuple[str, int, int]] = []
    row, col, quote = 1, 0, None
    pairs = {")": "(", "]": "[", "}": "{"}
    for char in text:
        col += 1
        if (row, col) >= (line, column):
            break
        if char == "\n":
            row, col = row + 1, 0
            continue
        if quote:
            if char == quote:
                quote = None
            continue
        if char in "'\"":
            quote = char
        elif char in "([{":
            stack.append((char, row, col))
        elif char in pairs and stack and stack[-1][0] == pairs[char]:
            stack.pop()
    return stack[-1] if stack else None


def _end_position(text: str) -> tuple[int, int]:
    """The position just after the last non-blank character."""
    stripped = text.rstrip()
    lines = stripped.split("\n")
    return len(lines), len(lines[-1]) + 1


_STATEMENT_ONLY = {
    "';'",
    "'act'",
    "'choose'",
    "'do'",
    "'emit'",
    "'for'",
    "'let'",
    "'repeat'",
    "'stop'",
    "'while'",
    "'may'",
    "'simultaneous'",
    "'option'",
}


def _expected(names: set[str] | frozenset[str], start: str = "effect") -> str:
    shown = sorted({_FRIENDLY.get(n, _anon(n)) for n in names})
    if start == "expr":
        shown = [s for s in shown if s not in _STATEMENT_ONLY]
    if len(shown) > 6:
        shown = [*shown[:6], "…"]
    return ", ".join(shown) or "something else"


def _anon(name: str) -> str:
    try:
        for term in grammar().terminals:
            if term.name == name:
                pattern = term.pattern
                if pattern.type == "str":
                    return repr(pattern.value)
    except LarkError:
        pass
    return name.lower()
