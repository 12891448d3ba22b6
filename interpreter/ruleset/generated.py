"""Generated components: one design per combination of property values.

A deck of 52 cards is four suits times thirteen ranks; writing each card by hand is
52 lines to keep in step. A component with ``each`` stands for the product of its
value lists (a list, or a range ``{from, to}``), first key slowest:

    card:
      kind: card
      each: {suit: [red, green, blue, black], rank: {from: 2, to: 14}}
      ids: "{suit}_{rank}"                    # optional; default `card_red_2`
      count: {by: rank, counts: [3, 2, 2]}     # optional: copies per value of `rank`

The expansion happens before the build reads the section, so everything after it
(names, types, copies, limits) sees plain components; each generated property keeps
the location of its value list, so an error about it points there. The size of a
product is worked out from the lists' lengths before anything is expanded
(``pieces``), so a hostile product is refused by the piece cap (``check/limits.py``)
and by ``MAX_DESIGNS`` without being built.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

from interpreter.errors import Location
from interpreter.load.ruleset_files import Item

MAX_DESIGNS = 1_000  # designs one `each` may generate (a deck has 52; copies come on top)
MAX_RANGE = 1_000  # numbers one `{from, to}` may give
_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")

Report = Callable[[Location, str, str], None]


def values_of(spec: Any) -> list[Any] | None:
    """The values one `each` entry gives: a list as written, or the whole numbers of a
    range `{from, to}` (both included); None when the entry is neither (or too big)."""
    if isinstance(spec, list):
        return spec
    if isinstance(spec, dict) and set(spec) == {"from", "to"}:
        low, high = spec["from"], spec["to"]
        if _whole(low) and _whole(high) and 0 <= high - low < MAX_RANGE:
            return list(range(low, high + 1))
    return None


def pieces(data: dict[str, Any]) -> int:
    """How many pieces a component stands for, worked out without expanding it (for
    the piece cap): its designs times their copies."""
    each = data.get("each")
    count = data.get("count")
    if not isinstance(each, dict):
        return count if _whole(count) and count > 0 else 1
    sizes = {key: _size(spec) for key, spec in each.items()}
    designs = 1
    for size in sizes.values():
        designs *= max(size, 1)
    if _whole(count) and count > 0:
        return designs * count
    if isinstance(count, dict) and isinstance(count.get("counts"), list):
        per_value = [n for n in count["counts"] if _whole(n)]
        by = sizes.get(str(count.get("by")), 1) or 1
        return designs // by * max(sum(per_value), 1)
    return designs


def expand(
    items: dict[str, Item], report: Report, broken: Callable[[Item], bool]
) -> dict[str, Item]:
    """The components section with every `each` replaced by the designs it stands for,
    in order; problems go to ``report`` (location, message, hint) and leave the item
    out, as does a design that broke the schema (``broken``: reported already)."""
    out: dict[str, Item] = {}
    for key, item in items.items():
        data = item.data
        if not isinstance(data, dict) or "each" not in data:
            out[key] = item
            continue
        if broken(item):
            continue
        for made in _designs(item, report):
            if made.id in out:
                report(item.location(key=True), f"duplicate component id {made.id!r}", _IDS_HINT)
                continue
            out[made.id] = made
    return out


def origin(items: dict[str, Item], design: str) -> Item | None:
    """The component with `each` that generates the design ``design`` (for tools that
    show where a piece is written), or None."""
    for item in items.values():
        if isinstance(item.data, dict) and "each" in item.data:
            made = _designs(item, lambda *_: None)
            if any(m.id == design for m in made):
                return item
    return None


_IDS_HINT = 'give `ids` a field for every property of `each`, e.g. ids: "{suit}_{rank}"'


def _designs(item: Item, report: Report) -> list[Item]:
    data = item.data
    each = data["each"]
    if not isinstance(each, dict) or not each:
        report(item.location("each"), "`each` must map properties to values", _EACH_HINT)
        return []
    lists: dict[str, list[Any]] = {}
    for prop, spec in each.items():
        values = values_of(spec)
        if values is None or not values:
            report(
                item.location("each", prop),
                f"`each.{prop}` must be a list of values or a range {{from, to}}",
                f"e.g. {prop}: [a, b, c] or {prop}: {{from: 1, to: 5}} (at most "
                f"{MAX_RANGE:,} numbers)",
            )
            return []
        if prop in data:
            report(
                item.location(prop, key=True),
                f"{prop!r} is given both here and in `each`",
                "a generated property takes its values from `each` only",
            )
            return []
        lists[prop] = values
    total = 1
    for values in lists.values():
        total *= len(values)
    if total > MAX_DESIGNS:
        report(
            item.location("each", key=True),
            f"`each` makes {total:,} designs; at most {MAX_DESIGNS:,} are allowed",
            "split the component in several, or use `count` for copies",
        )
        return []
    copies = _copies(item, lists, report)
    if copies is None:
        return []
    template = data.get("ids")
    if template is not None and not _valid_template(item, template, lists, report):
        return []
    base = {k: v for k, v in data.items() if k not in ("each", "ids", "count")}
    made = []
    for combination in itertools.product(*lists.values()):
        values = dict(zip(lists, combination, strict=True))
        pid = (
            _FIELD.sub(lambda m, values=values: str(values[m.group(1)]), template)
            if template is not None
            else "_".join([item.id, *(str(v) for v in combination)])
        )
        if not _ID.match(pid):
            report(
                item.location("ids" if template is not None else "each"),
                f"the generated id {pid!r} is not an id (letters, digits and `_`, not "
                "starting with a digit)",
                _IDS_HINT,
            )
            return []
        generated = {**base, **values}
        count = copies(values)
        if count:
            generated["count"] = count
        sources = {(prop,): item.source("each", prop) for prop in lists}
        made.append(Item(pid, item.section, generated, item.document, item.path, sources))
    return made


_EACH_HINT = "e.g. each: {suit: [red, blue], rank: {from: 2, to: 14}}"


def _copies(
    item: Item, lists: dict[str, list[Any]], report: Report
) -> Callable[[dict[str, Any]], int | None] | None:
    """How many copies a design gets, from its values: `count: N` (every design N),
    `count: {by: PROP, counts: [...]}` (by the value of PROP, in the order `each`
    lists them) or none; None when `count` is wrong (reported)."""
    count = item.data.get("count")
    if count is None:
        return lambda values: None
    if _whole(count):
        return lambda values: count
    by = count.get("by") if isinstance(count, dict) else None
    counts = count.get("counts") if isinstance(count, dict) else None
    if by not in lists:
        report(
            item.location("count"),
            "`count` of a generated component is a number or {by: PROPERTY, counts: [...]}",
            f"PROPERTY is one of `each`: {', '.join(lists)}",
        )
        return None
    if (
        not isinstance(counts, list)
        or len(counts) != len(lists[by])
        or not all(_whole(n) and 1 <= n <= 1000 for n in counts)
    ):
        report(
            item.location("count", "counts") if counts is not None else item.location("count"),
            f"`count.counts` must give one number (1 to 1,000) for each of the "
            f"{len(lists[by])} values of `{by}`",
            f"in the order `each.{by}` lists them",
        )
        return None
    table = dict(zip(map(repr, lists[by]), counts, strict=True))
    return lambda values: table[repr(values[by])]


def _valid_template(item: Item, template: Any, lists: dict[str, list[Any]], report: Report) -> bool:
    fields = _FIELD.findall(template) if isinstance(template, str) else []
    missing = [p for p in lists if p not in fields]
    unknown = [f for f in fields if f not in lists]
    if not isinstance(template, str) or missing or unknown:
        report(
            item.location("ids"),
            "`ids` must name every property of `each` in braces, and only those"
            + (f" (missing: {', '.join(missing)})" if missing else "")
            + (f" (not in `each`: {', '.join(unknown)})" if unknown else ""),
            _IDS_HINT,
        )
        return False
    return True


def _size(spec: Any) -> int:
    if isinstance(spec, list):
        return len(spec)
    if isinstance(spec, dict) and _whole(spec.get("from")) and _whole(spec.get("to")):
        return max(spec["to"] - spec["from"] + 1, 0)
    return 1


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
