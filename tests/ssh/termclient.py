"""Test clients for the SSH server: an asyncssh client with a PTY read through pyte, and a bot client."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import asyncssh
import pyte

__all__ = ["KEYS", "Terminal", "connect", "make_key", "wait_until"]

KEYS = {
    "enter": b"\r",
    "tab": b"\t",
    "shift+tab": b"\x1b[Z",
    "escape": b"\x1b",
    "up": b"\x1b[A",
    "down": b"\x1b[B",
    "right": b"\x1b[C",
    "left": b"\x1b[D",
    "backspace": b"\x7f",
    "ctrl+l": b"\x0c",
    "ctrl+q": b"\x11",
    "ctrl+r": b"\x12",
}

_KEY_CACHE: dict[str, asyncssh.SSHKey] = {}


async def wait_until(predicate: Any, timeout: float = 10.0, what: str = "the condition") -> None:
    """Poll ``predicate()`` (server-side state, in the test's own event loop) until it is true.

    Raises:
        AssertionError: still false after ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not hold within {timeout}s")
        await asyncio.sleep(0.02)


def make_key(name: str) -> asyncssh.SSHKey:
    """A fresh Ed25519 key, one per ``name`` per test run."""
    if name not in _KEY_CACHE:
        _KEY_CACHE[name] = asyncssh.generate_private_key("ssh-ed25519")
    return _KEY_CACHE[name]


class _Client(asyncssh.SSHClient):
    """Answers keyboard-interactive auth with no responses (the server asks for none)."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name: str, instructions: str, lang: str, prompts: Any) -> list[str]:
        return []


async def connect(port: int, user: str, key: asyncssh.SSHKey | None, **kwargs: Any) -> asyncssh.SSHClientConnection:
    """An SSH connection to the test server on 127.0.0.1 (no known_hosts check; only the given key)."""
    options: dict[str, Any] = dict(
        username=user,
        known_hosts=None,
        # None, not []: asyncssh loads the default keys (~/.ssh/id_*) for an empty list
        client_keys=[key] if key is not None else None,
        agent_path=None,
        kbdint_auth=True,
        password_auth=False,
        preferred_auth="publickey,keyboard-interactive",
        config=[],
        client_factory=_Client,
    )
    options.update(kwargs)
    return await asyncssh.connect("127.0.0.1", port, **options)


class ScreenClient:
    """What a test reads and types at a terminal, whichever transport carries it: the screen kept
    by the pyte terminal emulator from the bytes received (:meth:`received`), and keys sent with
    :meth:`send` (each transport's own). :class:`Terminal` (SSH) and
    :class:`tests.web.webclient.WebTerminal` (the browser's websocket) are the two."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()
        self.last_output = time.monotonic()

    def received(self, data: bytes) -> None:
        """Bytes from the server: onto the screen."""
        self.raw += data
        self.stream.feed(data)
        self.last_output = time.monotonic()
        self.changed.set()

    def send(self, data: bytes | str) -> None:
        """Type raw bytes (or text): each transport's own."""
        raise NotImplementedError

    def text(self) -> str:
        """The screen's text now, line by line."""
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def press(self, *keys: str, pause: float = 0.05) -> None:
        """Press named keys (see :data:`KEYS`) or type single characters."""
        for key in keys:
            self.send(KEYS.get(key, key.encode()))
            await asyncio.sleep(pause)

    async def type(self, text: str) -> None:
        """Type ``text`` at once (as a person types ahead; not a bracketed paste)."""
        self.send(text)
        await asyncio.sleep(0.05)

    async def wait_for(self, *needles: str, timeout: float = 10.0) -> str:
        """Wait until the screen shows one of ``needles``; returns the one found.

        Raises:
            AssertionError: none showed within ``timeout`` (with the screen in the message).
        """
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            for needle in needles:
                if needle in text:
                    return needle
            left = deadline - time.monotonic()
            if left <= 0 or self.closed.is_set():
                raise AssertionError(f"none of {needles!r} on screen after {timeout}s:\n{text}")
            self.changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))

    async def settle(self, quiet: float = 0.3, timeout: float = 5.0) -> None:
        """Wait until no output came for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if time.monotonic() - self.last_output >= quiet:
                return
            await asyncio.sleep(0.05)


class Terminal(ScreenClient):
    """A PTY session on the server, its screen kept by the pyte terminal emulator.

    Use as ``async with Terminal(port, "alice", key) as term:``.
    """

    def __init__(
        self,
        port: int,
        user: str,
        key: asyncssh.SSHKey | None,
        size: tuple[int, int] = (120, 40),
        source: str | None = None,
    ) -> None:
        super().__init__(size)
        self.port = port
        self.user = user
        self.key = key
        self.source = source  # the client's own loopback address (e.g. 127.0.0.2), to be another address
        self.conn: asyncssh.SSHClientConnection | None = None
        self.process: Any = None
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Terminal:
        options = {} if self.source is None else {"local_addr": (self.source, 0)}
        self.conn = await connect(self.port, self.user, self.key, **options)
        self.process = await self.conn.create_process(term_type="xterm-256color", term_size=self.size, encoding=None)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Drop the connection."""
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        if self.conn is not None:
            self.conn.close()
            with contextlib.suppress(Exception):
                await self.conn.wait_closed()

    async def _read(self) -> None:
        try:
            while True:
                data = await self.process.stdout.read(65536)
                if not data:
                    break
                self.received(data)
        except (asyncssh.Error, OSError):
            pass
        finally:
            self.closed.set()
            self.changed.set()

    def send(self, data: bytes | str) -> None:
        """Type raw bytes (or text)."""
        self.process.stdin.write(data.encode() if isinstance(data, str) else data)
