"""The server's protocol, without a browser (Starlette's test client).

A token opens its own seat only; a page is sent its seat's view and nothing of the
others' options; an illegal option, a stale decision, a malformed message and a bad
token are refused with the game unchanged; a page that reconnects finds the game as
it was; two pages on one seat see the same.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed")
pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2")

from starlette.testclient import TestClient

from interpreter.engine.game import Game
from interpreter.engine.view import view
from interpreter.ruleset import load_or_raise
from interpreter.serve.app import make_app
from interpreter.serve.host import Host, Seat


def hosted(seats: tuple[str, ...] = ("human", "human", "random"), seed: int = 3) -> Host:
    from interpreter.agents import make

    ruleset = load_or_raise("queens-necklace", [], [])
    players = [f"P{i + 1}" for i in range(len(seats))]
    game = Game(ruleset, players, seed=seed)
    table = [
        Seat(i, name, kind, agent=None if kind == "human" else make(kind, i, seed))
        for i, (name, kind) in enumerate(zip(players, seats, strict=True))
    ]
    return Host(game, table)


def hello(socket, token: str) -> dict:
    socket.send_text(json.dumps({"type": "hello", "token": token}))
    return socket.receive_json()


def choose(socket, decision: int, option: str) -> dict:
    socket.send_text(json.dumps({"type": "choose", "decision": decision, "option": option}))
    return socket.receive_json()


def deciding(host: Host) -> int:
    """The human seat the game waits for (agents move first, as the server lets them)."""
    while (turn := host.agent_decision()) is not None:
        seat, decision = turn
        host.apply(seat.index, seat.agent.choose(host.game, decision))
    return host.game.pending()[0].player


def test_a_token_opens_its_own_seat_and_only_its_view():
    host = hosted()
    seat = deciding(host)
    other = 1 - seat
    with TestClient(make_app(host)) as client:
        with client.websocket_connect("/ws") as page:
            mine = hello(page, host.seats[seat].token)
        with client.websocket_connect("/ws") as page:
            theirs = hello(page, host.seats[other].token)
        with client.websocket_connect("/ws") as page:
            watching = hello(page, host.spectator)
    assert mine["you"] == f"P{seat + 1}" and theirs["you"] == f"P{other + 1}"
    assert mine["view"] == json.loads(json.dumps(view(host.game, seat)))
    assert theirs["view"] == json.loads(json.dumps(view(host.game, other)))
    assert watching["you"] is None
    assert watching["view"] == json.loads(json.dumps(view(host.game, None)))
    assert mine["decision"]["options"] and theirs["decision"] is None
    assert watching["decision"] is None
    # nothing of the deciding seat's options reaches the others, by any field
    for option in mine["decision"]["options"]:
        if " " not in option["text"]:  # a word like "pass" may be anyone's
            continue
        assert option["text"] not in json.dumps(theirs)
    hand = mine["view"]["players"][seat]["zones"]["hand"]
    assert isinstance(hand, list) and hand
    for text in (json.dumps(theirs), json.dumps(watching)):
        assert theirs["view"]["players"][seat]["zones"]["hand"] == {"count": len(hand)}
        assert not [card for card in hand if f'"{card}"' in text]


def test_a_bad_token_opens_nothing():
    host = hosted()
    with TestClient(make_app(host)) as client, client.websocket_connect("/ws") as page:
        refused = hello(page, "not-a-token")
        assert refused["type"] == "error" and "opens no seat" in refused["message"]
        refused = choose(page, 0, "pass")  # no seat yet: a move is no hello
        assert refused["type"] == "error" and "hello" in refused["message"]


def test_an_illegal_option_a_stale_decision_and_junk_change_nothing():
    host = hosted()
    seat = deciding(host)
    events = list(host.game.events)
    with TestClient(make_app(host)) as client, client.websocket_connect("/ws") as page:
        table = hello(page, host.seats[seat].token)
        decision = table["decision"]
        refused = choose(page, decision["id"], "no such option")
        assert refused["type"] == "error" and refused["message"].startswith("not an option")
        refused = choose(page, decision["id"] - 1, decision["options"][0]["text"])
        assert refused["type"] == "error" and "earlier decision" in refused["message"]
        for junk in ("{", "[]", '{"type": "choose"}', '{"type": "steal"}', "x" * 5000):
            page.send_text(junk)
            assert page.receive_json()["type"] == "error"
        page.send_bytes(b"\x00")
        assert page.receive_json()["type"] == "error"
        assert host.game.events == events and host.moves == 0
        with client.websocket_connect("/ws") as other_page:  # another seat cannot move for it
            hello(other_page, host.seats[1 - seat].token)
            refused = choose(other_page, decision["id"], decision["options"][0]["text"])
            assert refused["type"] == "error" and "no decision" in refused["message"]
        with client.websocket_connect("/ws") as watcher:
            hello(watcher, host.spectator)
            assert "spectator" in choose(watcher, decision["id"], "x")["message"]
        assert host.game.events == events


def test_a_move_reaches_every_page_of_the_seat_and_a_reconnect_resumes():
    host = hosted(("human", "human", "human"))
    seat = deciding(host)
    token = host.seats[seat].token
    with TestClient(make_app(host)) as client:
        with client.websocket_connect("/ws") as first, client.websocket_connect("/ws") as second:
            table = hello(first, token)
            assert hello(second, token) == table  # two browsers on one seat see the same
            option = table["decision"]["options"][0]["text"]
            moved = choose(first, table["decision"]["id"], option)
            assert moved["type"] == "table" and moved["moves"] == 1
            assert second.receive_json() == moved
        assert host.game.events[-1].get("choice") == option or any(
            e.get("choice") == option for e in host.game.events
        )
        with client.websocket_connect("/ws") as again:  # the page comes back
            assert hello(again, token) == moved
