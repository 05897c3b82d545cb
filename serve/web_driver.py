"""A Textual driver over a websocket: one Textual app per browser tab, in the server's process.

The browser runs xterm.js from textual-serve's bundled ``textual.js``. It speaks a small
protocol, the one textual-serve's ``app_service.py`` bridges to a subprocess (Saloon runs no
subprocess: the app runs here, like an SSH session's, see :mod:`serve.ssh_driver`):

* from the page, text frames holding a JSON array: ``["stdin", TEXT]`` (keys, mouse reports and
  pastes, as a terminal would send them), ``["resize", {"width": W, "height": H}]`` (cells),
  ``["ping", DATA]``, ``["focus"]`` and ``["blur"]``;
* to the page, binary frames of terminal output (UTF-8 bytes, escape sequences and all), and
  text frames ``["pong", DATA]``. The server closes the websocket when the app ends.

:class:`WebSocketDriver` is :class:`serve.ssh_driver.SSHDriver` (its frame buffering, xterm parser,
Escape-key timing and size clamping) with a websocket behind it; :func:`run_web_app` is the
websocket's :func:`serve.ssh_driver.run_app`, with the same bounds on what one session may cost
(``docs/security.md``): the same input budgets (bytes and events per second) and back-pressure
(no message is read while the app has :data:`~serve.ssh_driver.MAX_PENDING_EVENTS` input events
to handle, so a flood waits in its own TCP connection), messages of at most
:data:`MAX_MESSAGE_BYTES`, output that a client does not read closing its session after
:data:`~serve.ssh_driver.MAX_OUTPUT_BUFFER` bytes, and the same teardown
(:func:`serve.teardown.dismantle`), so a closed session is freed by reference counting.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Callable
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web
from textual import events
from textual.app import App

from serve.ssh_driver import (  # the session plumbing both transports share
    INPUT_EVENTS_BURST,
    INPUT_EVENTS_PER_S,
    MAX_PENDING_EVENTS,
    InputBudget,
    SSHDriver,
    _configure_console,
    clamp_size,
    pending_input,
    serve_app,
)

__all__ = ["MAX_MESSAGE_BYTES", "Outbox", "WebSocketDriver", "run_web_app"]

log = logging.getLogger("saloon.web")

MAX_MESSAGE_BYTES = 64 * 1024
"""The largest websocket message a page may send (a paste, with its JSON); a larger one closes the
session (aiohttp refuses it with close code 1009)."""

_MAX_PING_DATA = 64
"""The most characters of a ping's data echoed back in its pong."""


class Outbox:
    """What is to be sent to one websocket, in order, by one writer task.

    :meth:`put` never blocks (the driver writes from the app's callbacks); the writer sends what
    is queued, joining consecutive output into one binary frame, and waits whenever the
    connection's transport is full. :meth:`pending` is what the driver checks against
    :data:`~serve.ssh_driver.MAX_OUTPUT_BUFFER`: a client that stops reading ends its session.

    Args:
        ws: the prepared websocket.
        transport_size: how many bytes the connection's transport holds unsent.
    """

    def __init__(self, ws: web.WebSocketResponse, transport_size: Callable[[], int] = lambda: 0) -> None:
        self._ws = ws
        self._transport_size = transport_size
        self._items: deque[bytes | str] = deque()
        self._queued = 0
        self._ready = asyncio.Event()
        self.failed = False

    def put(self, item: bytes | str) -> None:
        """Queue terminal output (``bytes``, a binary frame) or a JSON message (``str``, a text frame)."""
        if self.failed:
            return
        self._items.append(item)
        self._queued += len(item)
        self._ready.set()

    def pending(self) -> int:
        """Bytes queued here and in the transport, not yet sent."""
        return self._queued + self._transport_size()

    async def run(self) -> None:
        """Send what is queued until cancelled or the connection fails (then :attr:`failed` is set)."""
        items = self._items
        try:
            while True:
                await self._ready.wait()
                self._ready.clear()
                while items:
                    item = items.popleft()
                    if isinstance(item, bytes):
                        chunks = [item]
                        while items and isinstance(items[0], bytes):
                            chunks.append(items.popleft())  # type: ignore[arg-type]
                        data = b"".join(chunks)
                        self._queued -= len(data)
                        await self._ws.send_bytes(data)
                    else:
                        self._queued -= len(item)
                        await self._ws.send_str(item)
        except (ConnectionError, RuntimeError, OSError):
            self.failed = True
            items.clear()
            self._queued = 0


class WebSocketDriver(SSHDriver):
    """Textual's display and input over one websocket (see the module's docstring).

    The same as :class:`serve.ssh_driver.SSHDriver` (whose arguments it takes), with ``send``
    queueing to an :class:`Outbox`, and a browser's manners: :attr:`is_web` is true, and
    :meth:`open_url` does nothing (an app must not make a visitor's browser open pages).
    """

    @property
    def is_web(self) -> bool:
        """True: the app runs in a browser."""
        return True

    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Ignored: a session opens no page in the visitor's browser (nor, as the base driver
        would, in the server's own)."""

    def app_focus(self, focused: bool) -> None:
        """The page's terminal gained (``True``) or lost focus: Textual's ``AppFocus``/``AppBlur``."""
        if self._input_enabled:
            self._app.post_message(events.AppFocus() if focused else events.AppBlur())


def _size_from(query: Any) -> tuple[int, int]:
    """The ``width`` and ``height`` query arguments of the websocket's URL, clamped (80×24 if absent)."""
    try:
        return clamp_size(int(query.get("width", 80)), int(query.get("height", 24)))
    except (TypeError, ValueError):
        return clamp_size(80, 24)


async def run_web_app(
    app: App[Any],
    ws: web.WebSocketResponse,
    request: web.Request,
    on_ready: Callable[[WebSocketDriver], None] | None = None,
    on_end: Callable[[], None] | None = None,
) -> str | None:
    """Run ``app`` for one prepared websocket until the app exits or the page goes away.

    The websocket must have been made with ``max_msg_size`` at most :data:`MAX_MESSAGE_BYTES`
    and prepared (``await ws.prepare(request)``); this closes it.

    Args:
        app: a new, not yet running, Textual app.
        ws: the browser's websocket.
        request: the websocket's HTTP request (its ``width``/``height`` query arguments give the
            first terminal size, in cells; clamped, see :func:`serve.ssh_driver.clamp_size`).
        on_ready: called with the driver once the app has made it.
        on_end: called once the app has stopped, before it is dismantled
            (:func:`serve.teardown.dismantle`): the last moment the app's screens can be used.

    Returns:
        ``None`` if the app ended normally or the page left; otherwise the reason the session
        was closed (a message that could not be understood, a client that stopped reading), which
        is also the websocket's close message.
    """
    size = _size_from(request.query)
    _configure_console(app, "truecolor")  # xterm.js draws 24-bit colour
    transport = request.transport
    outbox = Outbox(ws, transport.get_write_buffer_size if transport is not None else lambda: 0)
    reason: list[str] = []

    def make_driver(app_: App[Any], **kwargs: Any) -> WebSocketDriver:
        return WebSocketDriver(app_, **kwargs, send=outbox.put, buffered=outbox.pending)

    writer = asyncio.ensure_future(outbox.run())
    try:
        reason = await serve_app(
            app,
            make_driver,
            lambda holder, reason: _read_messages(ws, holder, app, outbox, reason),  # type: ignore[arg-type]
            size=size,
            mouse=True,
            on_ready=on_ready,  # type: ignore[arg-type]
            on_end=on_end,
            what="a web session",
        )
    finally:
        with contextlib.suppress(asyncio.TimeoutError):  # the last frames (the terminal restored)
            await asyncio.wait_for(_drained(outbox), 2)
        writer.cancel()
        with contextlib.suppress(BaseException):
            await writer
        message = reason[0] if reason else ""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(code=_close_code(message), message=message.encode()[:120]), 5)
    return reason[0] if reason else None


def _close_code(reason: str) -> int:
    if not reason:
        return int(WSCloseCode.OK)
    if reason.startswith("something went wrong"):
        return int(WSCloseCode.INTERNAL_ERROR)
    return int(WSCloseCode.POLICY_VIOLATION)


async def _drained(outbox: Outbox) -> None:
    while outbox.pending() and not outbox.failed:
        await asyncio.sleep(0.01)


async def _read_messages(
    ws: web.WebSocketResponse, holder: dict[str, WebSocketDriver], app: App[Any], outbox: Outbox, reason: list[str]
) -> None:
    """Turn the page's messages into the driver's input, paced like an SSH session's."""
    budget = InputBudget()
    event_budget = InputBudget(INPUT_EVENTS_PER_S, INPUT_EVENTS_BURST)
    while True:
        while pending_input(app) >= MAX_PENDING_EVENTS:  # the app is behind: leave the rest in the socket
            await asyncio.sleep(0.02)
        message = await ws.receive()
        if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
            return
        if message.type == WSMsgType.ERROR:  # e.g. a message over MAX_MESSAGE_BYTES (aiohttp closes it)
            reason.append("a message that was too large or malformed")
            return
        if message.type != WSMsgType.TEXT:
            reason.append("input that could not be understood")
            return
        text = message.data
        wait = budget.spend(len(text))
        if wait > 0:  # a flood: stop reading for a while; it waits in this session's connection only
            await asyncio.sleep(wait)
        try:
            envelope = json.loads(text)
            kind = envelope[0]
        except (ValueError, TypeError, IndexError, KeyError):
            reason.append("input that could not be understood")
            return
        driver = holder.get("driver")
        try:
            count = _dispatch(kind, envelope, driver, outbox)
        except Exception:  # the parser is not ours: any failure on odd input closes this session only
            reason.append("input that could not be understood")
            return
        if count < 0:
            reason.append("input that could not be understood")
            return
        wait = event_budget.spend(count)
        if wait > 0:  # more events than a person makes: the next read waits (in this socket only)
            await asyncio.sleep(wait)


def _dispatch(kind: Any, envelope: list[Any], driver: WebSocketDriver | None, outbox: Outbox) -> int:
    """Act on one message from the page; returns how many input events it made (-1: malformed).

    Unknown message kinds (a newer ``textual.js``) are ignored.
    """
    if kind == "stdin":
        data = envelope[1]
        if not isinstance(data, str):
            return -1
        return driver.feed(data) if driver is not None and data else 0
    if kind == "resize":
        data = envelope[1]
        if not isinstance(data, dict):
            return -1
        width, height = data.get("width"), data.get("height")
        if type(width) is not int or type(height) is not int:
            return -1
        if driver is not None:
            driver.resize(width, height)
        return 1  # a relayout costs more than a key: it counts as an event
    if kind == "ping":
        data = envelope[1] if len(envelope) > 1 else ""
        outbox.put(json.dumps(["pong", str(data)[:_MAX_PING_DATA]]))
        return 0
    if kind in ("focus", "blur"):
        if driver is not None:
            driver.app_focus(kind == "focus")
        return 0
    return 0 if isinstance(kind, str) else -1
