"""Test clients for the browser page: sign-in through ``ssh ... web`` and a websocket terminal
speaking textual.js's protocol (aiohttp's client), its screen kept by the pyte terminal emulator."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re

import aiohttp
import asyncssh

from tests.ssh.termclient import ScreenClient, connect

__all__ = ["WebTerminal", "link_for", "signed_in_session", "token_of"]


async def link_for(ssh_port: int, user: str, key: asyncssh.SSHKey | None) -> str:
    """The sign-in link ``ssh -p PORT USER@127.0.0.1 web`` prints (no PTY).

    Raises:
        AssertionError: the command failed or printed no link.
    """
    conn = await connect(ssh_port, user, key)
    try:
        result = await conn.run("web", encoding="utf-8", timeout=20)
    finally:
        conn.close()
    assert result.exit_status == 0, result.stderr
    found = re.search(r"(https?://\S+/signin#\S+)", str(result.stdout))
    assert found, result.stdout
    return found.group(1)


def token_of(link: str) -> str:
    """The token of a sign-in link (what follows ``#``)."""
    return link.split("#", 1)[1]


async def signed_in_session(base: str, token: str | None = None, guest: str | None = None) -> aiohttp.ClientSession:
    """A client session holding the session cookie, signed in with ``token`` (or as guest ``guest``).

    Raises:
        AssertionError: the server refused.
    """
    session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    path, data = ("/signin", {"token": token}) if token is not None else ("/guest", {"name": guest})
    async with session.post(base + path, data=data, headers={"Origin": base}, allow_redirects=False) as response:
        if response.status != 303:
            text = await response.text()
            await session.close()
            raise AssertionError(f"sign-in refused: {response.status} {text[:500]}")
    return session


class WebTerminal(ScreenClient):
    """A browser session's terminal over the websocket, as textual.js drives it.

    Use as ``async with WebTerminal(base, session) as term:``; the same reading and typing methods
    as :class:`tests.ssh.termclient.Terminal`, so the SSH tests' helpers work with it.

    Args:
        base: the page's URL (``http://127.0.0.1:PORT``).
        session: a client session holding the session cookie (see :func:`signed_in_session`).
        size: the terminal's ``(width, height)`` in cells.
        origin: the ``Origin`` header sent (the page's own by default).
    """

    def __init__(
        self, base: str, session: aiohttp.ClientSession, size: tuple[int, int] = (120, 40), origin: str | None = None
    ) -> None:
        super().__init__(size)
        self.base = base
        self.session = session
        self.origin = origin or base
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.pongs: list[str] = []
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> WebTerminal:
        width, height = self.size
        url = self.base.replace("http:", "ws:", 1) + f"/ws?width={width}&height={height}"
        self.ws = await self.session.ws_connect(url, headers={"Origin": self.origin}, autoping=True)
        await self.ws.send_str(json.dumps(["resize", {"width": width, "height": height}]))
        self._reader = asyncio.get_running_loop().create_task(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the websocket (as a tab that is closed)."""
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for message in self.ws:
                if message.type == aiohttp.WSMsgType.BINARY:
                    self.received(message.data)
                elif message.type == aiohttp.WSMsgType.TEXT:
                    envelope = json.loads(message.data)
                    if envelope[0] == "pong":
                        self.pongs.append(envelope[1])
        finally:
            self.closed.set()
            self.changed.set()

    def send(self, data: bytes | str) -> None:
        """Type raw text, as xterm.js's ``onData`` sends it."""
        assert self.ws is not None
        text = data.decode() if isinstance(data, bytes) else data
        asyncio.get_running_loop().create_task(self.ws.send_str(json.dumps(["stdin", text])))

    async def resize(self, width: int, height: int) -> None:
        """Resize the page's terminal to ``width`` × ``height`` cells."""
        assert self.ws is not None
        self.screen.resize(height, width)
        await self.ws.send_str(json.dumps(["resize", {"width": width, "height": height}]))
