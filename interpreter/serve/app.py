"""The web app: one page, one WebSocket per open page, the agents' turns.

Starlette (ASGI, run by uvicorn in ``cli/serve.py``). ``GET /`` is the table page
(``static/table.html``: plain HTML, CSS and JS, no network beyond this server); the
page reads its token from the URL's fragment (never sent in a request, so never in
a server's or a proxy's access log) and says hello with it on ``/ws``.

Every game access happens under one ``asyncio.Lock``: a person's move, an agent's
turn, the building of a page's message. An agent thinks in the event loop's
executor (``off_loop``) so the server keeps answering pages while it does; the
lock keeps the game still meanwhile. After each move every open page is sent its
seat's whole table again: two browsers on one seat see the same, and a page that
reconnects finds the game as it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import sys
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from importlib import resources
from typing import Any, TypeVar

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketState

from interpreter.serve.host import Host, Refused
from interpreter.serve.protocol import Hello, encode, error, parse
from interpreter.serve.table import table_messages

T = TypeVar("T")
HANGUP = hasattr(signal, "SIGHUP")  # not on Windows
MAX_PAGES = 64  # pages open at once (a table of friends needs a handful)
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; script-src 'unsafe-inline'; "
    "style-src 'unsafe-inline'; img-src data:; connect-src 'self'",
}


class Server:
    """The host behind its lock, the open pages, the agents' task."""

    def __init__(self, host: Host):
        self.host = host
        self.lock = asyncio.Lock()
        self.pages: dict[WebSocket, int | None] = {}  # open page -> its seat
        self._cache: dict[int | None, tuple[int, str]] = {}  # seat -> (moves, message)
        self._agents: asyncio.Task | None = None

    async def messages(self, seats: Iterable[int | None]) -> dict[int | None, str]:
        """The table message of each of ``seats`` (called under the lock), each built
        once per move, all of one move from one replay of the game (``table_messages``)."""
        moves = self.host.moves
        missing = [s for s in seats if self._cache.get(s, (-1,))[0] != moves]
        if missing:
            built = await off_loop(table_messages, self.host, missing)
            for seat, message in built.items():
                self._cache[seat] = (moves, encode(message))
        return {seat: self._cache[seat][1] for seat in seats}

    async def broadcast(self) -> None:
        """Send every open page its seat's table as it is now."""
        async with self.lock:
            texts = await self.messages(set(self.pages.values()))
        for page, seat in list(self.pages.items()):
            if seat in texts:
                await _send(page, texts[seat])

    def wake_agents(self) -> None:
        """Let the agents take their turns (one task at a time)."""
        if self._agents is None or self._agents.done():
            self._agents = asyncio.create_task(self.run_agents())

    async def run_agents(self) -> None:
        """Agents' moves until the game waits for a person (or is over)."""
        while True:
            async with self.lock:
                turn = self.host.agent_decision()
                if turn is None:
                    return
                seat, decision = turn
                answer = await off_loop(seat.agent.choose, self.host.game, decision)
                try:
                    self.host.apply(seat.index, answer)
                except Refused as exc:  # a rule failed on the agent's move: the table stops
                    print(f"error: {seat.name}'s agent ({seat.kind}): {exc}", file=sys.stderr)
                    return
            await self.broadcast()

    async def socket(self, page: WebSocket) -> None:
        """One page: its hello opens a seat, then its moves (see ``protocol.py``)."""
        await page.accept()
        if len(self.pages) >= MAX_PAGES:
            await _send(page, error(f"this table has {MAX_PAGES} pages open already"))
            await page.close()
            return
        seated, seat = False, None
        try:
            while True:
                received = await page.receive()
                if received["type"] == "websocket.disconnect":
                    return
                try:
                    message = parse(received.get("text"))
                    if not seated:
                        if not isinstance(message, Hello):
                            raise Refused('the first message is "hello" with your token')
                        seat, seated = self.host.seat_of(message.token), True
                        self.pages[page] = seat
                        async with self.lock:
                            text = (await self.messages([seat]))[seat]
                        await _send(page, text)
                        continue
                    if isinstance(message, Hello):
                        raise Refused("this page has its seat already")
                    async with self.lock:
                        self.host.choose(seat, message.decision, message.option)
                    await self.broadcast()
                    self.wake_agents()
                except Refused as exc:
                    await _send(page, error(str(exc)))
        finally:
            self.pages.pop(page, None)


async def off_loop(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` in the loop's default executor: the loop answers pages meanwhile."""
    return await asyncio.get_running_loop().run_in_executor(None, work, *args)


async def _send(page: WebSocket, text: str) -> None:
    """Send, unless the page has gone (it will get the whole table when it is back)."""
    if page.application_state != WebSocketState.CONNECTED:
        return
    try:
        await page.send_text(text)
    except Exception:  # a page that went away mid-send: nothing of the game changes
        return


def page_text() -> str:
    return resources.files("interpreter.serve").joinpath("static/table.html").read_text("utf-8")


def make_app(host: Host) -> Starlette:
    """The ASGI app of one hosted game; the agents start when it does."""
    server = Server(host)
    page = page_text()

    async def index(request: Request) -> Response:
        return HTMLResponse(page, headers=HEADERS)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.wake_agents()  # an agent may have the first move
        yield

    app = Starlette(
        routes=[Route("/", index), WebSocketRoute("/ws", server.socket)], lifespan=lifespan
    )
    app.state.server = server
    return app


def run(app: Starlette, sockets: list[socket.socket]) -> int | None:
    """Serve ``app`` until a signal (Ctrl-C, SIGTERM, SIGHUP) stops it; return it.

    uvicorn raises the signal again once it has shut down, which would end the process
    before ``rules serve`` closes the log and says how to go on; here it is returned."""

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            stops = [signal.SIGINT, signal.SIGTERM, *([signal.SIGHUP] if HANGUP else [])]
            before = {number: signal.signal(number, self.handle_exit) for number in stops}
            try:
                yield
            finally:
                for number, handler in before.items():
                    signal.signal(number, handler)

    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio")
    server = Server(config)
    server.run(sockets=sockets)
    return server._captured_signals[0] if server._captured_signals else None
