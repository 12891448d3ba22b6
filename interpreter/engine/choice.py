"""A decision an effect waits for, and its options worked out on demand.

Agents are shown every legal option's text at once; replay only needs to know whether
the logged option is legal, which for most decisions means evaluating one condition
instead of all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.language.runtime import Context
from interpreter.language.values import AS_THEY_ARE, Player, text_id


class Choice:
    """A decision an effect waits for: who decides, among which candidates.

    Its options are worked out when first asked for: every legal option's text at once
    (``texts``, what an agent is shown), or one text's legality alone (``slot``), all
    that replaying a recorded move needs. A candidate's condition is evaluated at most
    once. The game asks before anything else can change the state (``Game._drive``).
    The effect is answered with a *slot*: the candidate's index among all candidates,
    ``len(candidates)`` for `pass`.
    """

    __slots__ = (
        "_label", "_legal", "_slots", "_test", "_texts", "candidates", "ctx", "node",
        "node_id", "optional", "pass_slot", "player", "prompt",
    )  # fmt: skip

    def __init__(
        self,
        prompt: str,
        node: Any,
        ctx: Context,
        candidates: list[Any],
        label: str | None,
        test: Callable[[Any], bool] | None,
        optional: bool,
        texts: list[str] | None = None,
    ):
        """``label`` words an item's text (None: candidates are (option, item) of a
        `choose` between written options); ``test`` tells a candidate's legality (None:
        all are legal); ``texts``, when the options were worked out at once, are the
        candidates' texts (all legal) before duplicates are numbered."""
        self.player = 0  # set by the effect once the options are known to exist
        self.prompt, self.node, self.ctx = prompt, node, ctx
        self.node_id = node.id
        self.candidates, self.optional = candidates, optional
        self.pass_slot = len(candidates)
        self._label, self._test = label, test
        self._texts: tuple[str, ...] | None = None
        self._slots: tuple[int, ...] | None = None  # None: each text's slot is its index
        if texts is None:
            self._legal: list[bool | None] = [None if test else True] * len(candidates)
        else:
            if optional:
                texts.append("pass")
            self._texts = _unique(texts)

    def legal(self, slot: int) -> bool:
        known = self._legal[slot]
        if known is None:
            known = self._legal[slot] = bool(self._test(self.candidates[slot]))  # type: ignore[misc]
        return known

    def any_legal(self) -> bool:
        """Whether any candidate is legal: evaluated up to the first legal one only."""
        known, test = self._legal, self._test
        if test is None:
            return bool(self.candidates)
        for slot, candidate in enumerate(self.candidates):
            legal = known[slot]
            if legal is None:
                legal = known[slot] = bool(test(candidate))
            if legal:
                return True
        return False

    def _base(self, candidate: Any) -> str:
        """A candidate's text, before the duplicates among the legal ones are numbered."""
        if self._label is None:  # (option, item) of a `choose` between written options
            option, item = candidate
            return option.text if option.items is None else option_text(self.ctx, "", item)
        return option_text(self.ctx, self._label, candidate)

    @property
    def texts(self) -> tuple[str, ...]:
        """Every legal option's text, in the order written; `pass` last."""
        if self._texts is None:
            known, test, candidates = self._legal, self._test, self.candidates
            slots = []
            for slot, candidate in enumerate(candidates):  # the hot path of play: inline
                legal = known[slot]
                if legal is None:
                    legal = known[slot] = bool(test(candidate))  # type: ignore[misc]
                if legal:
                    slots.append(slot)
            if self._label is None:
                texts = [self._base(candidates[s]) for s in slots]
            else:
                ctx, label = self.ctx, self._label
                texts = option_texts(ctx, label, [candidates[s] for s in slots])
            if self.optional:
                texts.append("pass")
                slots.append(self.pass_slot)
            self._texts, self._slots = _unique(texts), tuple(slots)
        return self._texts

    @property
    def slots(self) -> tuple[int, ...]:
        """The slot of each of ``texts``."""
        texts = self.texts
        return tuple(range(len(texts))) if self._slots is None else self._slots

    def slot(self, text: str) -> int | None:
        """The slot of the legal option ``text``, or None: only the candidates that
        could bear that text are evaluated, unless the texts are already known."""
        known = self._texts
        if known is not None:
            if text not in known:
                return None
            index = known.index(text)
            return index if self._slots is None else self._slots[index]
        if " #" not in text:
            if text == "pass" and self._label:  # a labelled item reads "label id", never
                return self.pass_slot if self.optional else None  # "pass": told at once
            same = self._bearing(text)
            if text != "pass":  # the first legal candidate of a text keeps it as it is
                for slot in same:
                    if self.legal(slot):
                        return slot
                return None
            if not same:
                return self.pass_slot if self.optional else None
        try:
            return self.slots[self.texts.index(text)]
        except ValueError:
            return None

    def _bearing(self, text: str) -> list[int]:
        """The slots of the candidates whose text is ``text``, legal or not. A text of
        a labelled item is ``label id``: an id (a component's, a zone's, a text) is
        compared as it is, without making each candidate's text."""
        label, ctx, candidates = self._label, self.ctx, self.candidates
        if label is None:  # options written in the rules: their own texts (``_base``)
            return [
                s
                for s, (option, item) in enumerate(candidates)
                if (option.text if option.items is None else option_text(ctx, "", item)) == text
            ]
        wanted = text
        if label:
            if not text.startswith(label + " "):
                return []
            wanted = text[len(label) + 1 :]
        return [
            s
            for s, c in enumerate(candidates)
            if (c == wanted if type(c) in AS_THEY_ARE else option_text(ctx, label, c) == text)
        ]

    def first_offer(self) -> tuple[int, str]:
        """The slot and text of the first legal option that is not `pass` (else `pass`)."""
        if self._texts is None:
            for slot, candidate in enumerate(self.candidates):
                if self.legal(slot):
                    text = self._base(candidate)
                    if text == "pass":
                        break  # a candidate reads "pass": go by the texts
                    return slot, text
            else:
                if self.optional:
                    return self.pass_slot, "pass"
        index = next((i for i, t in enumerate(self.texts) if t != "pass"), 0)
        return self.slots[index], self.texts[index]


def option_text(ctx: Context, label: str, value: Any) -> str:
    text = ctx.state.players[int(value)] if type(value) is Player else text_id(value)
    return f"{label} {text}" if label else text


def option_texts(ctx: Context, label: str, values: list[Any]) -> list[str]:
    """``option_text`` of each value: a component's, a zone's or a text's written out
    (the options of most decisions; this runs for every decision of play)."""
    if label:
        prefix = label + " "
        return [
            prefix + v if type(v) in AS_THEY_ARE else option_text(ctx, label, v) for v in values
        ]
    return [str(v) if type(v) in AS_THEY_ARE else option_text(ctx, label, v) for v in values]


def _unique(texts: list[str]) -> tuple[str, ...]:
    if len(set(texts)) == len(texts):
        return tuple(texts)
    seen: dict[str, int] = {}
    out = []
    for text in texts:
        seen[text] = seen.get(text, 0) + 1
        out.append(text if seen[text] == 1 else f"{text} #{seen[text]}")
    return tuple(out)
