"""Names a ruleset declares: the symbol table expressions are checked against, and
collisions (one name, one meaning)."""

from __future__ import annotations

from interpreter.language.symbols import Symbols
from interpreter.language.values import (
    ANY,
)
from interpreter.load.ruleset_files import Item
from interpreter.ruleset import keyed
from interpreter.ruleset.conversions import (
    article,
    infer_type,
    signature,
)


class NamesMixin:
    """A part of ``Builder`` (build.py)."""

    # -------------------------------------------------------------- symbols
    def symbols(self) -> Symbols:
        s = Symbols()
        for item in self.items("counters"):
            s.counters[item.id] = item.data.get("per", "player")
        for item in self.items("variables"):
            s.variables[item.id] = (item.data.get("per", "game"), item.data.get("type", ANY))
        for item in self.items("zones"):
            s.zones[item.id] = item.data.get("per", "game")
        for item in self.items("kinds"):
            props = item.data.get("properties") or {}
            s.kinds[item.id] = {
                k: (v.get("type", ANY) if isinstance(v, dict) else ANY) for k, v in props.items()
            }
        for item in self.items("components"):
            kind = item.data.get("kind")
            count = item.data.get("count")
            ids = [item.id] if not count else [f"{item.id}-{n}" for n in range(1, count + 1)]
            for pid in ids:
                s.components[pid] = kind
        for item in self.items("spaces"):
            props = item.data.get("properties") or {}
            s.groups[item.id] = {
                k: (v.get("type", ANY) if isinstance(v, dict) else ANY) for k, v in props.items()
            }
            for space_id in item.data.get("items") or {}:
                s.spaces[space_id] = item.id
        for item in self.items("constants"):
            s.constants[item.id] = item.data.get("type") or infer_type(
                item.data["value"]
                if "value" in item.data
                else next(iter((item.data.get("per_side") or {None: None}).values()))
            )
        for item in self.items("functions"):
            s.functions[item.id] = signature(
                item.data.get("params"), item.data.get("returns", ANY), self.broken(item)
            )
        for item in self.items("actions"):
            s.actions[item.id] = signature(item.data.get("params"), unchecked=self.broken(item))
            for name, value in (item.data.get("properties") or {}).items():
                s.action_properties[name] = infer_type(value)
        for item in self.items("events"):
            s.events[item.id] = signature(item.data.get("params"), unchecked=self.broken(item))
        members: dict[str, list[str]] = {}  # a kind's components: the keys a kind names
        for pid, kind in s.components.items():
            members.setdefault(str(kind), []).append(pid)
        s.keyed = keyed.declared(
            self.items("counters") + self.items("zones"),
            self.section["constants"],
            members,
            {i.id: i.data.get("properties") or {} for i in self.items("kinds")},
            lambda where, message, hint: self.error(where, message, hint, kind="schema"),
        )
        self._check_collisions(s)
        s.ambiguous = set(self.ambiguous)
        return s

    def _check_collisions(self, s: Symbols) -> None:
        """A name may denote one thing only: among the names expressions use bare,
        and among a player's counters, zones and variables (``p.name``)."""
        bare: dict[str, tuple[str, Item]] = {}
        per_player: dict[str, tuple[str, Item]] = {}
        for section, word in (
            ("constants", "constant"),
            ("kinds", "kind"),
            ("spaces", "space group"),
            ("functions", "function"),
            ("actions", "action"),
            ("zones", "zone"),
            ("counters", "counter"),
            ("variables", "variable"),
            ("components", "component"),
        ):
            for item in self.items(section):
                if section == "components" and item.data.get("count"):
                    # the list of its copies (ID-1, ID-2, …) where no other declaration
                    # takes the name (a kind named as its one design lists the same pieces)
                    continue
                per = item.data.get("per", "game")
                table = (
                    per_player
                    if section in ("zones", "counters", "variables") and per == "player"
                    else bare
                )
                self._claim_name(table, item.id, word, item)
        for group in self.items("spaces"):
            for space_id in group.data.get("items") or {}:
                self._claim_name(bare, space_id, "space", group, ("items", space_id))
        reserved = {"me", "my", "players", "player_count"}
        for section in ("constants", "counters", "variables", "zones", "functions", "actions"):
            for item in self.section[section].values():
                if item.id in reserved:
                    self.error(
                        item.location(key=True),
                        f"{item.id!r} is a built-in name",
                        "choose another id",
                        kind="duplicate-id",
                    )

    def _claim_name(self, table: dict, name: str, word: str, item: Item, sub: tuple = ()) -> None:
        if name in table and table[name][1] is not item:
            first_word, first = table[name]
            self.ambiguous.add(name)
            here = item.location(*sub, key=True)
            self.error(
                here,
                f"{name!r} is both {article(first_word)} and {article(word)}: "
                f"the {first_word} at {first.location(key=True)}, the {word} at {here}",
                f"a name has one meaning in expressions: rename one of them, the {word} to "
                f"`{name}_{word.replace(' ', '_')}` say, here and wherever the rules name it",
                kind="duplicate-id",
            )
            return
        table.setdefault(name, (word, item))
