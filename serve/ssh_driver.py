"""A Textual driver over an SSH channel: one Textual app per SSH session, in the server's process.

Textual ships Linux, Windows, headless and web drivers, none for SSH. :class:`SSHDriver` is the
bridge: the app's output goes to the channel (buffered per frame, sent on ``flush``), and the
session's input bytes are parsed into Textual events by Textual's own xterm parser. That parser is
private (``textual._xterm_parser``); this is the only Saloon module that imports it, and
``pyproject.toml`` bounds the Textual version accordingly.

:func:`run_app` runs an app for one asyncssh process (a session with a PTY, created with
``line_editor=False``): it picks the colour system and mouse support from the client's ``TERM``,
forwards resizes (``asyncssh.TerminalSizeChanged``), closes the session on input that is not
UTF-8 or on a client that stops reading, and restores the client's terminal (main screen,
cursor, no mouse reporting) when the app ends, however it ends.

What one session may cost the server is bounded here (see ``docs/security.md``):

* the terminal size is clamped to :data:`MAX_TERMINAL_SIZE` at the request and on every resize
  (a 65535×65535 PTY would otherwise make Textual build screens of gigabytes);
* input is read at most :data:`MAX_INPUT_CHUNK` bytes at a time and paced by an
  :class:`InputBudget` (:data:`INPUT_BYTES_PER_S` with bursts of :data:`INPUT_BURST_BYTES`):
  a flood waits in its own SSH channel (whose window then stops the client), so it costs only
  the flooding session;
* the xterm parser is :class:`SessionParser`, whose Kitty-key cache belongs to the session:
  Textual's own is an ``lru_cache`` on the class that would keep every closed session alive;
* an app that fails logs one line and a traceback without local variables to the server's log
  (Textual would print locals of its frames to the server's stderr).
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import io
import logging
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import asyncssh
from rich.console import Console
from textual import events
from textual._xterm_parser import XTermParser  # private: keep this the only import of it (see the docstring)
from textual.app import App
from textual.driver import Driver
from textual.geometry import Size

from serve.teardown import dismantle, track_nodes

__all__ = [
    "INPUT_BURST_BYTES",
    "INPUT_BYTES_PER_S",
    "INPUT_EVENTS_BURST",
    "INPUT_EVENTS_PER_S",
    "MAX_PENDING_EVENTS",
    "MAX_INPUT_CHUNK",
    "MAX_OUTPUT_BUFFER",
    "MAX_TERMINAL_SIZE",
    "InputBudget",
    "SSHDriver",
    "SessionParser",
    "clamp_size",
    "color_system_for",
    "drop_input",
    "mouse_for",
    "pending_input",
    "run_app",
]

log = logging.getLogger("saloon.ssh")

MAX_OUTPUT_BUFFER = 4 * 1024 * 1024
"""Bytes of unsent output after which a client is considered gone (it stopped reading): the session closes."""

MAX_INPUT_CHUNK = 4 * 1024
"""The most input bytes read (and parsed into events) at once."""

INPUT_BYTES_PER_S = 2048
"""Input bytes per second one session may feed its app, sustained (typing is ~10, mouse motion ~800)."""

INPUT_BURST_BYTES = 16 * 1024
"""Input bytes one session may feed at once before :data:`INPUT_BYTES_PER_S` paces it (a paste)."""

INPUT_EVENTS_PER_S = 60
"""Input events (keys, mouse reports) per second one session's app is given, sustained: fast typing
is ~15, key repeat ~30; a paste is one event. Beyond it the session's input waits in its channel."""

INPUT_EVENTS_BURST = 240
"""Input events one session may send at once before :data:`INPUT_EVENTS_PER_S` paces it."""

MAX_PENDING_EVENTS = 32
"""Input is read from the channel only while the app has fewer input events than this still to
handle (its own queue, its screen's and the focused widget's; see :func:`pending_input`):
back-pressure, so a flood never piles up in the server's memory and stops with its session."""

MAX_TERMINAL_SIZE = (500, 200)
"""The largest terminal ``(width, height)`` a session gets, in cells; larger requests are clamped."""

_ESCAPE_TICK_S = 0.12
"""When to ask the parser again about a lone ESC (the Escape key, or the start of a sequence)."""

_ENTER = (
    "\x1b[?1049h"  # alternate screen
    "\x1b[?25l"  # hide the cursor
    "\x1b[?2004h"  # bracketed paste
    "\x1b[?7l"  # no line wrap
)
_MOUSE_ON = "\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h"
_MOUSE_OFF = "\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l"
_LEAVE = (
    "\x1b[?2004l"  # bracketed paste off
    "\x1b[?7h"  # line wrap on
    "\x1b[0m"  # plain attributes
    "\x1b[?1049l"  # main screen
    "\x1b[?25h"  # show the cursor
)


def color_system_for(term: str | None, env: dict[str, str] | None = None) -> str | None:
    """The Rich colour system for a client's ``TERM`` (and ``COLORTERM``, if the client sent it).

    Returns:
        ``"truecolor"``, ``"256"``, ``"standard"`` or ``None`` (no colour, for ``dumb``).
    """
    term = (term or "").lower()
    colorterm = ((env or {}).get("COLORTERM") or "").lower()
    if colorterm in ("truecolor", "24bit") or any(tag in term for tag in ("truecolor", "24bit", "direct")):
        return "truecolor"
    if "256" in term:
        return "256"
    if term in ("", "dumb", "unknown"):
        return None
    return "standard"


def mouse_for(term: str | None) -> bool:
    """Whether to ask a client's terminal for mouse reports (not for ``dumb``, ``vt1xx``/``vt2xx`` or ``linux``)."""
    term = (term or "").lower()
    return bool(term) and term not in ("dumb", "unknown", "linux") and not term.startswith("vt")


def clamp_size(width: int, height: int) -> tuple[int, int]:
    """A client's terminal size in cells, clamped to ``1..MAX_TERMINAL_SIZE`` (0 means the 80×24 default)."""
    max_width, max_height = MAX_TERMINAL_SIZE
    return (min(max(1, width or 80), max_width), min(max(1, height or 24), max_height))


class InputBudget:
    """A token bucket pacing one session's input: ``rate`` bytes per second, bursts of ``burst``.

    Args:
        rate: sustained bytes per second (> 0).
        burst: bytes that may come at once (> 0).
        clock: seconds, monotonic (for tests).
    """

    def __init__(
        self,
        rate: float = INPUT_BYTES_PER_S,
        burst: float = INPUT_BURST_BYTES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = burst
        self._stamp = clock()

    def spend(self, size: int) -> float:
        """Take ``size`` bytes from the bucket; returns the seconds to wait before reading again (0: none)."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate) - size
        self._stamp = now
        return 0.0 if self._tokens >= 0 else -self._tokens / self.rate


class SessionParser(XTermParser):
    """Textual's xterm parser without its class-level Kitty-key cache.

    ``XTermParser._parse_extended_key`` is an ``functools.lru_cache`` on the method, so its cache
    (shared by every parser, up to 1,024 entries) holds ``self``: each session that pressed a key
    would stay alive through its parser, with its app, process and connection. Parsing a key
    sequence is cheap; this parser does it uncached.
    """

    def _parse_extended_key(self, sequence: str) -> list[events.Key] | None:  # type: ignore[override]
        return XTermParser._parse_extended_key.__wrapped__(self, sequence)  # type: ignore[attr-defined,no-any-return]

    def close(self) -> None:
        """Stop parsing: the parser's generator holds the parser (a cycle) and the last events it
        made (which hold the app); closing it lets reference counting free them all."""
        self._gen.close()
        self._tokens.clear()


class SSHDriver(Driver):
    """Textual's display and input over one SSH channel.

    The app constructs it (``App.driver_class``); :func:`run_app` binds the channel with
    :func:`functools.partial`-style keyword arguments and feeds it input with :meth:`feed`.

    Args:
        app: the app (passed by Textual).
        debug: Textual's debug flag (ignored: the parser must not log keys to a file).
        mouse: whether to enable mouse reporting.
        size: the initial terminal size ``(width, height)`` (clamped, see :func:`clamp_size`).
        send: writes bytes to the channel.
        buffered: how many bytes the channel holds unsent (for back-pressure).
        on_overflow: called once when the client stops reading (more than :data:`MAX_OUTPUT_BUFFER` unsent).
        on_driver: called with the driver once it is made.
    """

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
        send: Callable[[bytes], None],
        buffered: Callable[[], int] = lambda: 0,
        on_overflow: Callable[[], None] = lambda: None,
        on_driver: Callable[[SSHDriver], None] = lambda driver: None,
    ) -> None:
        super().__init__(app, debug=False, mouse=mouse, size=clamp_size(*size) if size else None)
        self._send = send
        self._buffered = buffered
        self._on_overflow = on_overflow
        self._out: list[str] = []
        self._flush_scheduled = False
        self._parser = SessionParser()
        self._tick_handle: asyncio.TimerHandle | None = None
        self._input_enabled = False
        self._started = False
        self._closed = False
        self.overflowed = False
        on_driver(self)

    # Output -------------------------------------------------------------------------------

    def write(self, data: str) -> None:
        """Queue ``data`` for the channel (sent on :meth:`flush`, or at the next loop turn)."""
        if self._closed:
            return
        self._out.append(data)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            self._loop.call_soon(self.flush)

    def flush(self) -> None:
        """Send the queued output; a client that stopped reading ends the session."""
        self._flush_scheduled = False
        if not self._out or self._closed:
            self._out.clear()
            return
        data = "".join(self._out).encode("utf-8", "replace")
        self._out.clear()
        try:
            self._send(data)
        except (OSError, asyncssh.Error, BrokenPipeError):
            self._closed = True
            return
        if not self.overflowed and self._buffered() > MAX_OUTPUT_BUFFER:
            self.overflowed = True
            self._on_overflow()

    # Application mode ---------------------------------------------------------------------

    def start_application_mode(self) -> None:
        """Switch the client's terminal to the alternate screen, and start taking input."""
        self._started = True
        self.write(_ENTER)
        if self._mouse:
            self.write(_MOUSE_ON)
        self.flush()
        self._input_enabled = True
        width, height = self._size or (80, 24)
        size = Size(width, height)
        self._app.post_message(events.Resize(size, size))

    def disable_input(self) -> None:
        """Stop turning input into events."""
        self._input_enabled = False
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None

    def stop_application_mode(self) -> None:
        """Restore the client's terminal: no mouse reports, the main screen, a visible cursor."""
        self.disable_input()
        self.restore_terminal()

    def restore_terminal(self) -> None:
        """Write the sequences that undo application mode (idempotent)."""
        if not self._started:
            return
        self._started = False
        if self._mouse:
            self.write(_MOUSE_OFF)
        self.write(_LEAVE)
        self.flush()

    def close(self) -> None:
        """Send what is left; further output is dropped, and input is no longer parsed."""
        self.flush()
        self._closed = True
        self.disable_input()
        self._parser.close()

    # Input --------------------------------------------------------------------------------

    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Ignored: a session opens no page (Textual's base driver would open it in a browser on
        the server's own machine)."""

    def send_message(self, message: Any) -> None:
        """Post ``message`` to the app (we are on the app's event loop already)."""
        self._app.post_message(message)

    def feed(self, text: str) -> int:
        """Turn decoded input into Textual events (keys, mouse, paste); returns how many."""
        if not self._input_enabled or self._closed:
            return 0
        count = 0
        for message in self._parser.feed(text):
            self.process_message(message)
            count += 1
        self._schedule_tick()
        return count

    def _schedule_tick(self) -> None:
        if self._tick_handle is not None:
            self._tick_handle.cancel()
        self._tick_handle = self._loop.call_later(_ESCAPE_TICK_S, self._tick)

    def _tick(self) -> None:
        self._tick_handle = None
        if not self._input_enabled:
            return
        for message in self._parser.tick():
            self.process_message(message)

    def resize(self, width: int, height: int) -> None:
        """The client's terminal changed size (clamped, see :func:`clamp_size`)."""
        self._size = clamp_size(width, height)
        size = Size(*self._size)
        self._app.post_message(events.Resize(size, size))


def _is_input(message: Any) -> bool:
    return isinstance(message, events.InputEvent | events.Paste)


def pending_input(app: App[Any]) -> int:
    """How many input events (keys, mouse, paste) ``app`` still has to handle: in its own queue,
    its screen's and the focused widget's (other messages, such as redraws, do not count)."""
    pumps: list[Any] = [app]
    with contextlib.suppress(Exception):
        pumps.append(app.screen)
        if app.focused is not None:
            pumps.append(app.focused)
    total = 0
    for pump in pumps:
        queue = vars(pump).get("_message_queue")  # made on first use (a cached property)
        if queue is not None:
            total += sum(1 for message in queue.values if _is_input(message))
    return total


def drop_input(nodes: Iterable[Any]) -> int:
    """Drop the input events (keys, mouse, paste) still queued for ``nodes`` (an app's message
    pumps): a session that closed has nobody to answer. Returns how many were dropped."""
    dropped = 0
    for node in list(nodes):
        queue = vars(node).get("_message_queue")  # made on first use (a cached property)
        if queue is None or not queue.values:
            continue
        kept = deque(m for m in queue.values if not _is_input(m))
        dropped += len(queue.values) - len(kept)
        if not kept:
            # The pump may already be woken for the next message (Textual's queue pops without
            # looking): it gets a callback that does nothing rather than an empty queue's IndexError.
            kept.append(events.Callback(callback=_nothing))
        queue.values = kept
    return dropped


def _nothing() -> None:
    """The callback :func:`drop_input` leaves in an emptied queue."""


class _NullFile(io.StringIO):
    """Where the app's console 'writes': nowhere (output goes through the driver)."""

    def write(self, text: str) -> int:
        return len(text)


def _configure_console(app: App[Any], color_system: str | None) -> None:
    # Textual prints an app's unhandled exception with its frames' local variables to the
    # error console (the server's stderr): send it nowhere; run_app logs a short report instead.
    app.error_console = Console(file=_NullFile(), markup=False, highlight=False)
    app.console = Console(
        color_system=color_system,  # type: ignore[arg-type]
        file=_NullFile(),
        markup=True,
        highlight=False,
        emoji=False,
        legacy_windows=False,
        force_terminal=True,
        safe_box=False,
        soft_wrap=False,
    )


async def serve_app(
    app: App[Any],
    make_driver: Callable[..., SSHDriver],
    read_input: Callable[[dict[str, SSHDriver], list[str]], Awaitable[None]],
    *,
    size: tuple[int, int],
    mouse: bool,
    on_ready: Callable[[SSHDriver], None] | None,
    on_end: Callable[[], None] | None,
    what: str,
) -> list[str]:
    """Run ``app`` for one session of either transport (SSH, websocket) until it exits or its
    input ends, then stop and dismantle it.

    Args:
        app: a new, not yet running, Textual app.
        make_driver: ``make_driver(app, **kwargs)`` makes the session's driver from Textual's
            arguments plus ``on_overflow`` and ``on_driver`` (the transport adds how it sends).
        read_input: ``read_input(holder, reason)`` feeds the session's input to the driver
            (``holder["driver"]`` once made) and returns when the client has gone; it appends
            to ``reason`` why it closed the session, if it did.
        size: the first terminal size, in cells.
        mouse: whether the app enables mouse reporting.
        on_ready: called with the driver once the app has made it.
        on_end: called once the app has stopped, before it is dismantled.
        what: the session's kind in the log ("a session", "a web session").

    Returns:
        Why the session was closed, for the client (empty if it ended normally or the client left).
    """
    holder: dict[str, SSHDriver] = {}
    reason: list[str] = []

    def overflow() -> None:
        reason.append("your connection is not keeping up with the screen updates")
        app.exit()

    def made(driver: SSHDriver) -> None:
        holder["driver"] = driver
        if on_ready is not None:
            on_ready(driver)

    def factory(app_: App[Any], **kwargs: Any) -> SSHDriver:
        return make_driver(app_, **kwargs, on_overflow=overflow, on_driver=made)

    app.driver_class = factory  # type: ignore[assignment]
    nodes = track_nodes(app)
    _enter_app()
    app_task = asyncio.ensure_future(app.run_async(size=size, mouse=mouse))
    reader = asyncio.ensure_future(read_input(holder, reason))
    try:
        await asyncio.wait({app_task, reader}, return_when=asyncio.FIRST_COMPLETED)
        if not app_task.done():
            driver = holder.get("driver")
            if driver is not None:
                driver.disable_input()
            drop_input([app, *nodes])  # what the client sent before it left is answered by nobody
            app.exit()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(app_task), 5)
    finally:
        reader.cancel()
        if not app_task.done():
            app_task.cancel()
        with contextlib.suppress(BaseException):
            await reader
        with contextlib.suppress(BaseException):
            await app_task
        driver = holder.get("driver")
        if driver is not None:
            driver.restore_terminal()
            driver.close()
        _leave_app()
        error = getattr(app, "_exception", None)  # Textual keeps the unhandled exception here
        try:
            if on_end is not None:
                on_end()
        finally:
            await _stop_pumps([app, *nodes])
            dismantle(app, nodes)
            holder.clear()
    if isinstance(error, Exception):
        log.error("%s's app failed: %s: %s", what, type(error).__name__, str(error)[:200], exc_info=error)
        reason.append("something went wrong on the server (it is logged)")
    return reason


async def run_app(
    app: App[Any],
    process: asyncssh.SSHServerProcess[bytes],
    on_ready: Callable[[SSHDriver], None] | None = None,
    on_end: Callable[[], None] | None = None,
) -> str | None:
    """Run ``app`` for one SSH session with a PTY until the app exits or the client goes away.

    The process must be binary (``encoding=None``) and come from a server made with
    ``line_editor=False``.

    Args:
        app: a new, not yet running, Textual app.
        process: the asyncssh server process of the session.
        on_ready: called with the driver once the app has made it.
        on_end: called once the app has stopped, before it is dismantled (:func:`serve.teardown.dismantle`):
            the last moment the app's screens can be used.

    Returns:
        ``None`` if the app ended normally or the client left; otherwise the reason the session
        was closed (input that is not UTF-8, a client that stopped reading), for the client.
    """
    term = process.get_terminal_type()
    width, height, _, _ = process.get_terminal_size()
    size = clamp_size(width, height)
    _configure_console(app, color_system_for(term, dict(process.env or {})))
    channel = process.channel

    def make_driver(app_: App[Any], **kwargs: Any) -> SSHDriver:
        return SSHDriver(app_, **kwargs, send=process.stdout.write, buffered=channel.get_write_buffer_size)

    reason = await serve_app(
        app,
        make_driver,
        lambda holder, reason: _read_input(process, holder, app, reason),
        size=size,
        mouse=mouse_for(term),
        on_ready=on_ready,
        on_end=on_end,
        what="a session",
    )
    return reason[0] if reason else None


async def _stop_pumps(nodes: Iterable[Any]) -> None:
    """Cancel and wait for the message pumps of ``nodes`` that still run (an app that did not stop
    in time was cancelled, and its widgets' tasks go on): nothing may run on a dismantled node."""
    tasks = [task for node in nodes if (task := vars(node).get("_task")) is not None and not task.done()]
    for task in tasks:
        task.cancel()
    if tasks:
        await asyncio.wait(tasks, timeout=5)


async def _read_input(
    process: asyncssh.SSHServerProcess[bytes], holder: dict[str, SSHDriver], app: App[Any], reason: list[str]
) -> None:
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    budget = InputBudget()
    event_budget = InputBudget(INPUT_EVENTS_PER_S, INPUT_EVENTS_BURST)
    while True:
        while pending_input(app) >= MAX_PENDING_EVENTS:  # the app is behind: leave the rest in the channel
            await asyncio.sleep(0.02)
        try:
            data = await process.stdin.read(MAX_INPUT_CHUNK)
        except asyncssh.TerminalSizeChanged as change:
            driver = holder.get("driver")
            if driver is not None:
                driver.resize(change.width, change.height)
            continue
        except (asyncssh.BreakReceived, asyncssh.SignalReceived):
            continue
        except (asyncssh.Error, OSError, asyncio.IncompleteReadError) as exc:
            # asyncssh keeps the channel's error and raises it again here: its traceback then holds
            # the read's frame, which holds the error (a cycle), and the failed write's callers up
            # to this app, all kept until a full collection.
            exc.__traceback__ = None
            return
        if not data:  # EOF: the client closed its side
            return
        wait = budget.spend(len(data))
        if wait > 0:  # a flood: stop reading for a while; it waits in this session's channel only
            await asyncio.sleep(wait)
        try:
            text = decoder.decode(data)
        except UnicodeDecodeError:
            reason.append("input that is not UTF-8")
            return
        driver = holder.get("driver")
        if driver is not None and text:
            try:
                count = driver.feed(text)
            except Exception:  # the parser is not ours: any failure on odd input closes this session only
                reason.append("input that could not be understood")
                return
            wait = event_budget.spend(count)
            if wait > 0:  # more events than a person makes: the next read waits (in this channel only)
                await asyncio.sleep(wait)


_running = 0
_std_streams: tuple[Any, Any] = (sys.stdout, sys.stderr)


def _enter_app() -> None:
    global _running, _std_streams
    if _running == 0:
        _std_streams = (sys.stdout, sys.stderr)
    _running += 1


def _leave_app() -> None:
    # Textual redirects sys.stdout/sys.stderr while an app runs (contextlib.redirect_*), which is
    # process-global: with many apps starting and ending in any order, a finished app's capture
    # could stay installed. Put the streams back once no app is running.
    global _running
    _running -= 1
    if _running == 0:
        sys.stdout, sys.stderr = _std_streams
