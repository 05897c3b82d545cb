"""A headless Chromium driven through its DevTools protocol (aiohttp's websocket client), for the
real-browser test: Debian's ``chromium`` package, no browser download, loopback only.

The page's terminal is drawn by xterm.js on a canvas, so its text is not in the DOM: a script
added before the page's own scripts records every binary frame the page's websocket receives (the
terminal's output) and every message it sends, and the test replays the output into the pyte
terminal emulator at the size the page asked for.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import re
import shutil
import tempfile
import time
from typing import Any

import aiohttp
import pyte

__all__ = ["Browser", "chromium_path"]

_HOOK = """
(() => {
  const Native = window.WebSocket;
  window.__saloon = {frames: [], sent: [], url: null, open: false};
  function Hooked(url, protocols) {
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    window.__saloon.url = String(url);
    ws.addEventListener("open", () => { window.__saloon.open = true; });
    ws.addEventListener("message", (event) => {
      if (typeof event.data === "string") return;
      const bytes = new Uint8Array(event.data);
      let text = "";
      for (let i = 0; i < bytes.length; i += 8192) {
        text += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
      }
      window.__saloon.frames.push(btoa(text));
    });
    const send = ws.send.bind(ws);
    ws.send = (data) => { window.__saloon.sent.push(String(data)); send(data); };
    return ws;
  }
  Hooked.prototype = Native.prototype;
  for (const name of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Hooked[name] = Native[name];
  window.WebSocket = Hooked;
})();
"""

_KEYS = {
    "enter": ("Enter", 13, "\r"),
    "tab": ("Tab", 9, "\t"),
    "escape": ("Escape", 27, ""),
    "backspace": ("Backspace", 8, ""),
    "down": ("ArrowDown", 40, ""),
    "up": ("ArrowUp", 38, ""),
}


def chromium_path() -> str | None:
    """The ``chromium`` executable (Debian's package), or ``None`` if it is not installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One headless Chromium with one page. Use as ``async with Browser() as browser:``.

    Args:
        window: the window's ``(width, height)`` in CSS pixels.
    """

    def __init__(self, window: tuple[int, int] = (1280, 900)) -> None:
        self.window = window
        self.errors: list[str] = []
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self._frames = 0
        self._sent = 0
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._process: asyncio.subprocess.Process | None = None
        self._client: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._session_id: str | None = None
        self._reader: asyncio.Task[None] | None = None
        self._profile = tempfile.TemporaryDirectory(prefix="saloon-chromium-")

    async def __aenter__(self) -> Browser:
        path = chromium_path()
        assert path is not None
        width, height = self.window
        self._process = await asyncio.create_subprocess_exec(
            path,
            "--headless",
            "--no-sandbox",  # root in a container; the page is our own, on loopback
            "--use-angle=swiftshader",
            "--enable-unsafe-swiftshader",  # software WebGL for xterm.js's renderer
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--remote-debugging-address=127.0.0.1",
            "--remote-debugging-port=0",
            f"--user-data-dir={self._profile.name}",
            f"--window-size={width},{height}",
            "about:blank",
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        url = await self._devtools_url()
        self._client = aiohttp.ClientSession()
        self._ws = await self._client.ws_connect(url, max_msg_size=64 * 1024 * 1024)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        target = await self.command("Target.createTarget", url="about:blank", _browser=True)
        attached = await self.command("Target.attachToTarget", targetId=target["targetId"], flatten=True, _browser=True)
        self._session_id = attached["sessionId"]
        await self.command("Page.enable")
        await self.command("Runtime.enable")
        await self.command("Log.enable")
        await self.command("Page.addScriptToEvaluateOnNewDocument", source=_HOOK)
        return self

    async def __aexit__(self, *exc: object) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.command("Browser.close", _browser=True), 5)
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        if self._ws is not None:
            await self._ws.close()
        if self._client is not None:
            await self._client.close()
        if self._process is not None:
            with contextlib.suppress(ProcessLookupError):
                self._process.kill()
            await self._process.wait()
        self._profile.cleanup()

    async def _devtools_url(self) -> str:
        assert self._process is not None and self._process.stderr is not None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = await asyncio.wait_for(self._process.stderr.readline(), deadline - time.monotonic())
            if not line:
                break
            found = re.search(rb"DevTools listening on (ws://\S+)", line)
            if found:
                return found.group(1).decode()
        raise AssertionError("Chromium did not start its DevTools endpoint")

    async def _read(self) -> None:
        assert self._ws is not None
        async for message in self._ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(message.data)
            future = self._pending.pop(data.get("id", -1), None)
            if future is not None and not future.done():
                if "error" in data:
                    future.set_exception(AssertionError(f"DevTools: {data['error']}"))
                else:
                    future.set_result(data.get("result", {}))
            method = data.get("method")
            if method == "Runtime.exceptionThrown":
                self.errors.append(str(data["params"]["exceptionDetails"].get("exception", {}).get("description")))
            elif method == "Log.entryAdded" and data["params"]["entry"]["level"] == "error":
                self.errors.append(str(data["params"]["entry"]["text"]))

    async def command(self, method: str, _browser: bool = False, **params: Any) -> Any:
        """Send a DevTools command (to the page, or to the browser with ``_browser``); returns its result.

        Raises:
            AssertionError: the command failed.
        """
        assert self._ws is not None
        number = next(self._ids)
        message: dict[str, Any] = {"id": number, "method": method, "params": params}
        if not _browser:
            message["sessionId"] = self._session_id
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[number] = future
        await self._ws.send_str(json.dumps(message))
        return await asyncio.wait_for(future, 30)

    async def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (JSON-serialisable)."""
        result = await self.command("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        return result.get("result", {}).get("value")

    async def goto(self, url: str) -> None:
        """Open ``url`` in the page."""
        await self.command("Page.navigate", url=url)

    async def location(self) -> str:
        """The page's address now."""
        return str(await self.evaluate("window.location.href"))

    async def pump(self) -> None:
        """Replay what the page's terminal received since the last call into :attr:`screen`."""
        state = await self.evaluate(
            f"({{frames: window.__saloon ? window.__saloon.frames.slice({self._frames}) : [],"
            f" sent: window.__saloon ? window.__saloon.sent.slice({self._sent}) : []}})"
        )
        if not state:
            return
        for text in state["sent"]:
            self._sent += 1
            with contextlib.suppress(ValueError, TypeError, KeyError, IndexError):
                kind, data = json.loads(text)[:2]
                if kind == "resize":
                    self.screen.resize(int(data["height"]), int(data["width"]))
        for frame in state["frames"]:
            self._frames += 1
            self.stream.feed(base64.b64decode(frame))

    def text(self) -> str:
        """The page's terminal text as last pumped, line by line."""
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def wait_for(self, *needles: str, timeout: float = 20.0) -> str:
        """Wait until the page's terminal shows one of ``needles``; returns the one found.

        Raises:
            AssertionError: none showed in time (with the screen and the page's errors).
        """
        deadline = time.monotonic() + timeout
        while True:
            await self.pump()
            text = self.text()
            for needle in needles:
                if needle in text:
                    return needle
            if time.monotonic() > deadline:
                raise AssertionError(f"none of {needles!r} in the browser after {timeout}s:\n{text}\n{self.errors}")
            await asyncio.sleep(0.1)

    async def press(self, *keys: str, pause: float = 0.08) -> None:
        """Press named keys (``enter``, ``tab``, ``escape``, ``backspace``, ``up``, ``down``) or type characters."""
        for key in keys:
            if key in _KEYS:
                name, code, text = _KEYS[key]
                event: dict[str, Any] = {"key": name, "code": name, "windowsVirtualKeyCode": code}
                if text:
                    event["text"] = text
                await self.command("Input.dispatchKeyEvent", type="keyDown", **event)
                await self.command("Input.dispatchKeyEvent", type="keyUp", **event)
            else:
                await self.command("Input.insertText", text=key)
            await asyncio.sleep(pause)

    async def screenshot(self) -> bytes:
        """A PNG of the page."""
        shot = await self.command("Page.captureScreenshot", format="png")
        return base64.b64decode(shot["data"])
