"""A decision's options on demand (``choice_module.Choice``): replay asks whether the logged
option is legal without working out every other option, and gets the same answers as
the options worked out at once."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.agents import RandomAgent
from interpreter.engine import choice as choice_module
from interpreter.engine.choice import Choice
from interpreter.engine.game import Game
from interpreter.language.values import Piece, Player, ZoneRef, text_id
from interpreter.log import writer
from interpreter.log.replay import replay
from interpreter.ruleset import load_or_raise

NODE = SimpleNamespace(id="node")
CTX = SimpleNamespace(state=SimpleNamespace(players=("Ann", "Bob")))


def _pair(items: list[str], legal: list[bool], optional: bool) -> tuple[Choice, Choice, list]:
    """The same decision twice: worked out at once, and on demand (counting tests)."""
    at_once = Choice(
        "pick",
        NODE,
        CTX,
        [i for i, ok in zip(items, legal, strict=True) if ok],
        "",
        None,
        optional,
        [i for i, ok in zip(items, legal, strict=True) if ok],
    )
    asked: list[_Item] = []
    candidates = [_Item(text, ok) for text, ok in zip(items, legal, strict=True)]
    on_demand = Choice("pick", NODE, CTX, candidates, "", _Item.test(asked), optional)
    return at_once, on_demand, asked


class _Item:
    """A candidate of its own (duplicates' legality may differ), read by its text."""

    def __init__(self, text: str, legal: bool):
        self.text, self.legal = text, legal

    def __str__(self) -> str:
        return self.text

    @staticmethod
    def test(asked: list) -> object:
        def check(item: _Item) -> bool:
            asked.append(item)
            return item.legal

        return check


TEXTS = st.sampled_from(["a", "b", "c", "pass", "a #2"])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(TEXTS, st.booleans()), max_size=7),
    st.booleans(),
    st.lists(TEXTS | st.just("a #3"), max_size=4),
)
def test_on_demand_answers_as_at_once(cases, optional, asked_texts) -> None:
    items = [text for text, _ in cases]
    legal = [ok for _, ok in cases]
    at_once, on_demand, _ = _pair(items, legal, optional)
    if not optional and not at_once.texts:
        assert not on_demand.any_legal()
        return
    for text in [*asked_texts, *at_once.texts]:
        expected = at_once.slot(text)
        got = on_demand.slot(text)
        if expected is None:
            assert got is None, text
        else:
            assert got is not None, text
            want = at_once.candidates[expected] if expected < at_once.pass_slot else "pass"
            value = on_demand.candidates[got] if got < on_demand.pass_slot else "pass"
            assert str(value) == str(want), text
    fresh = _pair(items, legal, optional)[1]
    slot, text = fresh.first_offer()
    want_slot, want_text = at_once.first_offer()
    assert text == want_text
    assert (slot == fresh.pass_slot) == (want_slot == at_once.pass_slot)
    assert on_demand.texts == at_once.texts


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["", "hire", "take card"]),
    st.lists(
        st.sampled_from(
            [Piece("c1"), Piece("c2"), ZoneRef("hall#1"), "x", Player(0), Player(1), 3, True]
        ),
        max_size=6,
    ),
    st.lists(st.booleans(), min_size=6, max_size=6),
    st.lists(
        st.sampled_from(["c1", "hire c1", "hire c2", "take card hall#1", "Ann", "hire Bob", "3"]),
        max_size=4,
    ),
)
def test_a_labelled_item_is_found_by_its_text_as_at_once(label, items, legal, asked) -> None:
    """Items are found by their id without making each candidate's text: the same
    slots as the texts worked out at once, for ids, players, numbers and flags."""
    oks = legal[: len(items)]
    at_once = Choice(
        "pick",
        NODE,
        CTX,
        [i for i, ok in zip(items, oks, strict=True) if ok],
        label,
        None,
        False,
        [choice_module.option_text(CTX, label, i) for i, ok in zip(items, oks, strict=True) if ok],
    )
    verdicts = dict(enumerate(oks))
    on_demand = Choice("pick", NODE, CTX, list(items), label, None, False)
    on_demand._legal = [verdicts[s] for s in range(len(items))]
    for text in [*asked, *at_once.texts]:
        expected, got = at_once.slot(text), on_demand.slot(text)
        assert (expected is None) == (got is None), text
        if got is not None:
            assert text_id(on_demand.candidates[got]) == text_id(at_once.candidates[expected])


def test_a_logged_option_is_checked_alone() -> None:
    items = ["a", "b", "c", "d"]
    _, on_demand, asked = _pair(items, [False, True, True, True], optional=False)
    assert on_demand.any_legal()  # up to the first legal candidate only
    assert [str(i) for i in asked] == ["a", "b"]
    assert on_demand.slot("d") == 3
    assert [str(i) for i in asked] == ["a", "b", "d"]
    assert on_demand.slot("b") == 1  # known: not asked again
    assert len(asked) == 3
    assert on_demand.slot("a") is None
    assert on_demand.slot("zz") is None
    assert len(asked) == 3


def test_numbered_duplicates_count_only_the_legal_ones() -> None:
    _, on_demand, _ = _pair(["a", "a", "a"], [False, True, True], optional=True)
    assert on_demand.texts == ("a", "a #2", "pass")
    _, fresh, _ = _pair(["a", "a", "a"], [False, True, True], optional=True)
    assert fresh.slot("a") == 1
    assert fresh.slot("a #2") == 2
    assert fresh.slot("pass") == 3


def _rococo_game(players: int, seed: int) -> Game:
    ruleset = load_or_raise("rococo")
    game = Game(ruleset, [f"P{i}" for i in range(players)], seed=seed)
    agents = [RandomAgent(i, f"{seed}:{i}") for i in range(players)]
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
    return game


def test_replay_works_out_fewer_options_than_play(tmp_path: Path, monkeypatch) -> None:
    game = _rococo_game(3, 7)
    path = tmp_path / "game.jsonl"
    with path.open("w") as stream:
        writer.write(game, stream)
    worked_out, on_demand = [], []
    texts, slot = Choice.texts, Choice.slot

    def counting_texts(choice: Choice) -> tuple[str, ...]:
        if choice._texts is None:
            worked_out.append(choice.node_id)
        return texts.fget(choice)

    def counting_slot(choice: Choice, text: str) -> int | None:
        if choice._texts is None:
            on_demand.append(text)
        return slot(choice, text)

    monkeypatch.setattr(choice_module.Choice, "texts", property(counting_texts))
    monkeypatch.setattr(choice_module.Choice, "slot", counting_slot)
    verdict = replay(path)
    assert verdict.kind == "legal"
    assert verdict.game.result().scores == game.result().scores
    decisions = sum(1 for e in game.events if "choice" in e)
    # no decision works out all its options: where options have conditions, the
    # logged option is checked alone (in a simultaneous step, on the state as it was
    # when the decision was reached)
    assert worked_out == []
    assert decisions / 2 < len(on_demand) < decisions


def test_replayed_logs_agree_with_play(tmp_path: Path) -> None:
    for players, seed in ((2, 11), (4, 12), (5, 13)):
        game = _rococo_game(players, seed)
        stream = io.StringIO()
        writer.write(game, stream)
        path = tmp_path / f"{players}.jsonl"
        path.write_text(stream.getvalue())
        verdict = replay(path)
        assert verdict.kind == "legal", verdict.message
        assert verdict.game.state.digest() == game.state.digest()


GRAB = {  # both players take a card from one pool at once, each from the pool they saw
    "ruleset.yaml": "id: grab\nname: Grab\nversion: 0.1.0\nplayers: {min: 2, max: 2}\n"
    "include: [content.yaml]\n",
    "content.yaml": """
counters:
  score: {per: player}
  taken: {per: game}
zones:
  pool: {per: game}
  hand: {per: player}
kinds:
  card: {}
components:
  c1: {kind: card}
  c2: {kind: card}
structure:
  setup: |
    move(card, pool)
  rounds: {count: 1}
  phases:
    - id: grab
      kind: simultaneous
      effect: |
        choose c in pool where taken < c.zone.size as "take" {
          taken += 1
          move(c, my.hand)
        }
scoring:
  score: score
  steps:
    - {id: s, effect: "for p in players { gain(score, p.hand.size, to: p) }"}
""",
}


def test_simultaneous_options_are_judged_on_the_state_they_were_reached_in(
    tmp_path: Path,
) -> None:
    """Bob's options were offered before Ann's move took c1 from the pool and counted
    it: "take c2" stays legal for him in play, and replay, which works out only the
    logged option and only when it comes, judges it on the state as it was then, not
    as Ann's move left it (where one taken is not fewer than the one card left)."""
    for name, text in GRAB.items():
        (tmp_path / name).write_text(text)
    game = Game(load_or_raise(tmp_path), ["Ann", "Bob"], seed=1)
    assert [d.options for d in game.pending()] == [("take c1", "take c2")] * 2
    game.apply("Ann", "take c1")
    game.apply("Bob", "take c2")  # offered when nothing was taken yet
    assert game.state.counters["taken"] == 2
    path = tmp_path / "game.jsonl"
    with path.open("w") as stream:
        writer.write(game, stream)
    verdict = replay(path, ruleset_folder=tmp_path, views=False)
    assert verdict.kind == "legal", verdict.message
    assert verdict.game.state.zones == game.state.zones
