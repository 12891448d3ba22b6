"""Check a catalog's references and types and compile it into a ``Ruleset``.

This is the stage after the JSON Schema: every name an item uses must be
declared, every property must have its declared type, and every expression is
compiled here, once. All problems are collected; a ruleset is built only when
there are none.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.check import limits
from interpreter.errors import Diagnostic, Location
from interpreter.language.codegen import Emitter
from interpreter.language.compiler import Compiler
from interpreter.load.ruleset_files import Catalog, Item
from interpreter.ruleset import counts, generated, keyed
from interpreter.ruleset.conversions import per_side, players_notes
from interpreter.ruleset.definitions import DefinitionsMixin
from interpreter.ruleset.dice import kinds_faces
from interpreter.ruleset.expressions import ExpressionsMixin
from interpreter.ruleset.grid import GRID_HINT, grid_problems, with_grids
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.names import NamesMixin
from interpreter.ruleset.playability import PlayabilityMixin
from interpreter.ruleset.rules import RulesMixin
from interpreter.ruleset.secrecy import SecrecyMixin
from interpreter.ruleset.shared_compiles import WatchedSymbols


@dataclass
class BuildResult:
    ruleset: Ruleset | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    items: int = 0
    provisional: int = 0
    emitter: Emitter | None = None  # the generated code of the ruleset (to store it)


class Builder(
    NamesMixin, DefinitionsMixin, ExpressionsMixin, RulesMixin, SecrecyMixin, PlayabilityMixin
):
    """Builds one catalog; each family of sections is a mixin, in data-flow order."""

    def __init__(self, catalog: Catalog, lazy: bool = False):
        self.catalog = catalog
        self.lazy = lazy  # functions compiled on their first call (``Emitter``)
        self.diagnostics: list[Diagnostic] = []
        # a component with `each` stands for the designs it generates (generated.py)
        components = generated.expand(
            catalog.sections["components"], self._generation_error, self.broken
        )
        self.section = {
            **catalog.sections,
            "components": components,
            # a grid's cells are generated here, so every check sees them as written spaces
            "spaces": with_grids(catalog.sections["spaces"]),
        }
        self.ambiguous: set[str] = set()
        self.expression_trees: dict = {}  # (section, id, path) -> parse tree, for secrecy
        self.effect_trees: dict = {}
        self.effect_places: dict = {}  # the same keys -> (line, column) -> Location

    # ----------------------------------------------------------- utilities
    def error(
        self, location: Location, message: str, hint: str | None = None, kind: str = "reference"
    ) -> None:
        self.diagnostics.append(Diagnostic(location, message, hint, kind=kind))

    def _generation_error(self, location: Location, message: str, hint: str) -> None:
        self.error(location, message, hint, kind="schema")

    def items(self, section: str) -> list[Item]:
        return [i for i in self.section[section].values() if isinstance(i.data, dict)]

    def layouts(self) -> dict[str, str]:
        """How the views draw each space group that says (``layout``); a grid layout
        needs `row` and `col` numbers on every space of the group."""
        found = {}
        for group in self.items("spaces"):
            layout = group.data.get("layout")
            if layout is None:
                continue
            found[group.id] = layout
            if layout == "grid":
                for problem in grid_problems(group):
                    self.error(group.location("layout"), problem, GRID_HINT, kind="type")
        return found

    def broken(self, item: Item) -> bool:
        """The item broke the schema (already reported): skip checks inside it."""
        return (item.document.path, item.section, item.id) in self.catalog.broken

    # ---------------------------------------------------------------- build
    def build(self) -> BuildResult:
        symbols = self.symbols()
        # a checked build shares its compiles with the process's other checked builds
        # (shared_compiles.py): the compiler's reads of the declarations are watched
        read = WatchedSymbols(symbols) if self.lazy else symbols
        compiler = Compiler(read, direct_calls=True, lazy=self.lazy)  # type: ignore[arg-type]
        self.compiler = compiler
        sides = self.sides()
        pieces = self.pieces(symbols)
        spaces, groups = self.spaces(symbols, sides)
        constants = self.constants(sides, symbols)
        symbols.constant_values.update(
            (name, value) for name, value in constants.items() if not per_side(value)
        )
        counters = self.counters(sides)
        variables = self.variables()
        zones = self.zones()
        functions = self.functions(symbols)
        actions = self.actions(symbols)
        triggers = self.triggers(symbols)
        structure = self.structure(symbols)
        scoring = self.scoring(symbols)
        self.check_secrecy(zones, counters, variables, spaces)
        self.check_playability()
        manifest = self.catalog.manifest
        provisional = self.provisional_count()
        self.check_player_counts()
        layouts = self.layouts()
        dice = kinds_faces(self.items("kinds"), self.error)
        count = sum(len(s) for s in self.section.values()) + len(self.catalog.singletons)
        if self.diagnostics:
            return BuildResult(None, self.diagnostics, count, provisional)
        players = self.catalog.players
        min_players, max_players = players.get("min", 1), players.get("max", 1)
        ruleset = Ruleset(
            id=str(manifest.get("id", "")),
            name=str(manifest.get("name", "")),
            version=str(manifest.get("version", "")),
            # a checked build's ruleset is never played: the digest of every item (a JSON
            # text of the whole catalog) would cost a cold validate 4 % for nothing
            digest="" if self.lazy else self.catalog.digest(),
            min_players=min_players,
            max_players=max_players,
            players_notes=players_notes(players.get("note")),
            labels={i.id: str(i.data) for i in self.section["labels"].values()},
            descriptions=self.descriptions(),
            automata=self.automata(),
            layouts=layouts,
            dice=dice,
            expansions=tuple(self.catalog.applied),
            sides=sides,
            constants=constants,
            # a keyed family is its members from here on (ruleset/keyed.py)
            counters=keyed.expand(counters, symbols.keyed),
            variables=variables,
            zones=keyed.expand(zones, symbols.keyed),
            keyed=keyed.members(symbols.keyed),
            spaces=spaces,
            groups=groups,
            pieces=pieces,
            kinds=symbols.kinds,
            functions=functions,
            actions=actions,
            events={n: tuple(s.params) for n, s in symbols.events.items()},
            triggers=triggers,
            offered_expansions=dict(manifest.get("expansions") or {}),
            provisional=provisional,
            files=tuple(d.path for d in self.catalog.documents),
            locations={
                **{
                    f"{i.section}.{i.id}": i.location(key=True)
                    for s in self.section.values()
                    for i in s.values()
                },
                **self.course_locations(),
            },
            symbols=symbols,
            **structure,
            **scoring,
        )
        return BuildResult(ruleset, [], count, provisional, self.compiler.emitter)

    def descriptions(self) -> dict[str, str]:
        """Every item's `description` as one line, by "section.id" (``Ruleset.descriptions``);
        the structure's phases and the scoring steps as `phases.ID` and `scoring.ID`."""
        out = {
            f"{name}.{item.id}": item.data["description"]
            for name, section in self.section.items()
            for item in section.values()
            if isinstance(item.data, dict) and isinstance(item.data.get("description"), str)
        }
        for singleton, key, section in (
            ("structure", "phases", "phases"),
            ("scoring", "steps", "scoring"),
        ):
            item = self.catalog.singletons.get(singleton)
            entries = (
                item.data.get(key) if item is not None and isinstance(item.data, dict) else None
            )
            for entry in entries if isinstance(entries, list) else []:
                if isinstance(entry, dict) and isinstance(entry.get("description"), str):
                    out[f"{section}.{entry.get('id')}"] = entry["description"]
        return {key: " ".join(text.split()) for key, text in out.items()}

    def check_player_counts(self) -> None:
        players = self.catalog.manifest.get("players")
        document = self.catalog.manifest_document
        if isinstance(players, dict) and document is not None:
            low, high = players.get("min"), players.get("max")
            if isinstance(low, int) and isinstance(high, int) and low > high:
                self.error(
                    document.location(("players",)),
                    f"players: min {low} is more than max {high}",
                    kind="schema",
                )

    def course_locations(self) -> dict[str, Location]:
        """Where the structure's parts are written: `structure`, `structure.rounds`,
        `structure.setup`, `phase.<id>` and `scoring.<id>` (run-time errors of the
        course, and the game's step budget, are reported there)."""
        item = self.catalog.singletons.get("structure")
        if item is None or not isinstance(item.data, dict):
            return {}
        out = {"structure": item.location(key=True)}
        for part in ("rounds", "setup"):
            if part in item.data:
                out[f"structure.{part}"] = item.location(part)
        for index, phase in enumerate(item.data.get("phases") or []):
            if isinstance(phase, dict):
                out[f"phase.{phase.get('id', index)}"] = item.location("phases", index)
        scoring = self.catalog.singletons.get("scoring")
        steps = scoring.data.get("steps") if scoring and isinstance(scoring.data, dict) else None
        for index, step in enumerate(steps if isinstance(steps, list) else []):
            if isinstance(step, dict):
                out[f"scoring.{step.get('id', index)}"] = scoring.location("steps", index)
        return out

    # ------------------------------------------------------------ counting
    def provisional_count(self) -> int:
        return len(self.catalog.provisional_keys())


def build(catalog: Catalog, lazy: bool = False) -> BuildResult:
    """Build ``catalog``, its counts written as constants worked out first
    (``counts.py``: a problem there stands in for the count and the build goes on); one
    that declares too many pieces is refused before any `count` is expanded
    (``check/limits.py``). ``lazy``: compile each generated
    function on its first call, for a build that is checked rather than played."""
    catalog, counted = counts.resolved(catalog)  # counts written as constants
    problems = limits.check(catalog)
    if problems:
        return BuildResult(None, counted + problems)
    result = Builder(catalog, lazy).build()
    if counted:  # a count that is none is one error; the rest of the rules still checked
        return BuildResult(None, counted + result.diagnostics, result.items, result.provisional)
    return result


# -------------------------------------------------------------------- helpers
