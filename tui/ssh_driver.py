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
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import io
import sys
from collections.abc import Callable
from typing import Any

import asyncssh
from rich.console import Console
from textual import events
from textual._xterm_parser import XTermParser  # private: keep this the only import of it (see the docstring)
from textual.app import App
from textual.driver import Driver
from textual.geometry import Size

__all__ = ["MAX_OUTPUT_BUFFER", "MAX_INPUT_CHUNK", "SSHDriver", "color_system_for", "mouse_for", "run_app"]

MAX_OUTPUT_BUFFER = 4 * 1024 * 1024
"""Bytes of unsent output after which a client is considered gone (it stopped reading): the session closes."""

MAX_INPUT_CHUNK = 64 * 1024
"""The most input bytes read at once."""

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


class SSHDriver(Driver):
    """Textual's display and input over one SSH channel.

    The app constructs it (``App.driver_class``); :func:`run_app` binds the channel with
    :func:`functools.partial`-style keyword arguments and feeds it input with :meth:`feed`.

    Args:
        app: the app (passed by Textual).
        debug: Textual's debug flag (ignored: the parser must not log keys to a file).
        mouse: whether to enable mouse reporting.
        size: the initial terminal size ``(width, height)``.
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
        super().__init__(app, debug=False, mouse=mouse, size=size)
        self._send = send
        self._buffered = buffered
        self._on_overflow = on_overflow
        self._out: list[str] = []
        self._flush_scheduled = False
        self._parser = XTermParser()
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
        """Send what is left; further output is dropped."""
        self.flush()
        self._closed = True

    # Input --------------------------------------------------------------------------------

    def send_message(self, message: Any) -> None:
        """Post ``message`` to the app (we are on the app's event loop already)."""
        self._app.post_message(message)

    def feed(self, text: str) -> None:
        """Turn decoded input into Textual events (keys, mouse, paste)."""
        if not self._input_enabled:
            return
        for message in self._parser.feed(text):
            self.process_message(message)
        self._schedule_tick()

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
        """The client's terminal changed size."""
        self._size = (max(1, width), max(1, height))
        size = Size(*self._size)
        self._app.post_message(events.Resize(size, size))


class _NullFile(io.StringIO):
    """Where the app's console 'writes': nowhere (output goes through the driver)."""

    def write(self, text: str) -> int:
        return len(text)


def _configure_console(app: App[Any], color_system: str | None) -> None:
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


async def run_app(
    app: App[Any],
    process: asyncssh.SSHServerProcess[bytes],
    on_ready: Callable[[SSHDriver], None] | None = None,
) -> str | None:
    """Run ``app`` for one SSH session with a PTY until the app exits or the client goes away.

    The process must be binary (``encoding=None``) and come from a server made with
    ``line_editor=False``.

    Args:
        app: a new, not yet running, Textual app.
        process: the asyncssh server process of the session.
        on_ready: called with the driver once the app has made it.

    Returns:
        ``None`` if the app ended normally or the client left; otherwise the reason the session
        was closed (input that is not UTF-8, a client that stopped reading), for the client.
    """
    term = process.get_terminal_type()
    width, height, _, _ = process.get_terminal_size()
    size = (width or 80, height or 24)
    _configure_console(app, color_system_for(term, dict(process.env or {})))
    holder: dict[str, SSHDriver] = {}
    reason: list[str] = []
    channel = process.channel

    def overflow() -> None:
        reason.append("your connection is not keeping up with the screen updates")
        app.exit()

    def made(driver: SSHDriver) -> None:
        holder["driver"] = driver
        if on_ready is not None:
            on_ready(driver)

    def factory(app_: App[Any], **kwargs: Any) -> SSHDriver:
        return SSHDriver(
            app_,
            **kwargs,
            send=process.stdout.write,
            buffered=channel.get_write_buffer_size,
            on_overflow=overflow,
            on_driver=made,
        )

    app.driver_class = factory  # type: ignore[assignment]
    _enter_app()
    app_task = asyncio.ensure_future(app.run_async(size=size, mouse=mouse_for(term)))
    reader = asyncio.ensure_future(_read_input(process, holder, app, reason))
    try:
        await asyncio.wait({app_task, reader}, return_when=asyncio.FIRST_COMPLETED)
        if not app_task.done():
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
    return reason[0] if reason else None


async def _read_input(
    process: asyncssh.SSHServerProcess[bytes], holder: dict[str, SSHDriver], app: App[Any], reason: list[str]
) -> None:
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    while True:
        try:
            data = await process.stdin.read(MAX_INPUT_CHUNK)
        except asyncssh.TerminalSizeChanged as change:
            driver = holder.get("driver")
            if driver is not None:
                driver.resize(change.width, change.height)
            continue
        except (asyncssh.BreakReceived, asyncssh.SignalReceived):
            continue
        except (asyncssh.Error, OSError, asyncio.IncompleteReadError):
            return
        if not data:  # EOF: the client closed its side
            return
        try:
            text = decoder.decode(data)
        except UnicodeDecodeError:
            reason.append("input that is not UTF-8")
            return
        driver = holder.get("driver")
        if driver is not None and text:
            try:
                driver.feed(text)
            except Exception:  # the parser is not ours: any failure on odd input closes this session only
                reason.append("input that could not be understood")
                return


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
