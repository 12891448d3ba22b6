"""Errors that carry a source location.

Every stage raises or collects ``Diagnostic`` objects; the CLI prints them in the
``path:line:col: error: message`` form compilers use. Lines and columns are 1-based.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, order=True, slots=True)
class Location:
    """A position in a source file (1-based line and column)."""

    path: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line <= 0:
            return self.path
        return f"{self.path}:{self.line}:{self.column}"

    def shifted(self, line_offset: int, column: int) -> Location:
        return Location(self.path, self.line + line_offset, column)


@dataclass
class Diagnostic:
    """One problem found in an input, with where it is and how to fix it."""

    location: Location
    message: str
    hint: str | None = None
    severity: str = "error"
    kind: str = "error"
    json_path: str | None = None
    data_path: tuple = ()  # where in the document's data (for schema errors)
    # the expansions applied when it arose, when `validate` checks several combinations
    combination: tuple[str, ...] = ()

    def headline(self) -> str:
        return f"{self.location}: {self.severity}: {self.message}"

    def as_dict(self) -> dict:
        data = {
            "path": self.location.path,
            "line": self.location.line,
            "column": self.location.column,
            "severity": self.severity,
            "kind": self.kind,
            "message": self.message,
        }
        if self.hint:
            data["hint"] = self.hint
        if self.json_path:
            data["json_path"] = self.json_path
        if self.combination:
            data["with"] = list(self.combination)
        return data

    def combination_note(self) -> str | None:
        """``with: a, b``: the combination of expansions it arises in, if named."""
        return f"with: {', '.join(self.combination)}" if self.combination else None


@dataclass
class RulesError(Exception):
    """Base of the per-stage errors: one or more diagnostics."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join(d.headline() for d in self.diagnostics)


class LoadError(RulesError):
    """A file could not be read or parsed as YAML, or broke a loading limit."""


class CheckError(RulesError):
    """A ruleset is well-formed YAML but breaks its schema, its references or the checks
    of its expressions (names, arity, types)."""


class GameError(Exception):
    """A rule was broken at run time (an illegal move, a step budget exceeded).

    Raised inside an effect, it is named at the statement that raised it (``where``:
    its file, line and column), and the engine adds the moment of the game (``when``:
    round, phase, event), so that even a refusal (a full zone, a payment that cannot be
    made, a `do` whose requirement fails) says where the rules made it."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.where: Location | None = None
        self.when: str | None = None

    def headline(self) -> str:
        place = f"{self.where}: " if self.where is not None else ""
        moment = f" ({self.when})" if self.when else ""
        return f"{place}error: {self.message}{moment}"


class RuleError(GameError):
    """A defect in the rules found while playing: a value of the wrong type, a missing
    player, a run-time cap reached. Unlike an illegal move it is the ruleset's fault,
    so it names the rule (``where``) and the moment of the game (``when``)."""


class IllegalMove(GameError):
    """A decision that is not among the legal options, or that breaks a rule."""

    def __init__(self, message: str, options: tuple[str, ...] = (), hint: str | None = None):
        super().__init__(message, hint)
        self.options = options


class ChanceProblem(GameError):
    """A supplied chance outcome is missing, out of step or impossible (replay)."""


class ImpossibleChance(ChanceProblem):
    """A recorded chance outcome that could not have happened."""

    possible: tuple[str, ...] = ()

    @classmethod
    def with_options(cls, possible: tuple[str, ...], message: str) -> ImpossibleChance:
        error = cls(message)
        error.possible = tuple(possible)
        return error
