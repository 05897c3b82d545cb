"""The page in a real browser: headless Chromium (Debian's ``chromium`` package) opens a sign-in
link, the terminal page signs in and connects, and the player opens a table with bots from the
lobby's form and makes moves, read back from what the page's terminal received."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from serve.ssh_server import SaloonServer
from tests.ssh.termclient import make_key, wait_until
from tests.web.cdp import Browser, chromium_path
from tests.web.webclient import link_for

if chromium_path() is None and os.environ.get("SALOON_REQUIRE_BROWSER") == "1":
    # .ci/run sets this once it has installed Chromium: in CI the test must run, not skip.
    raise RuntimeError("SALOON_REQUIRE_BROWSER=1 but no chromium executable was found")
pytestmark = pytest.mark.skipif(
    chromium_path() is None,
    reason="needs Debian's chromium package for the real-browser test (apt-get install chromium)",
)


async def test_a_browser_signs_in_opens_a_table_with_bots_and_plays(server: SaloonServer, tmp_path: Path) -> None:
    link = await link_for(server.port, "alice", make_key("alice"))
    async with Browser(window=(1280, 860)) as browser:
        await browser.goto(link)
        await browser.wait_for("new table", timeout=30)  # signed in: the lobby, in xterm.js
        location = await browser.location()
        assert location.rstrip("/").endswith(f"127.0.0.1:{server.web.port}") and "#" not in location
        cookie = await browser.evaluate("document.cookie")
        assert cookie == ""  # HttpOnly: the page's scripts cannot read the session
        (app,) = server.sessions
        assert app.identity.name == "alice" and not app.identity.guest
        # the terminal has the keys from the start: no click, no Tab (issue 37)
        focused = "document.activeElement && document.activeElement.classList.contains('xterm-helper-textarea')"
        deadline = time.monotonic() + 10
        while not await browser.evaluate(focused):
            assert time.monotonic() < deadline, "the terminal is not focused on load"
            await asyncio.sleep(0.1)
        await browser.press("n")
        await browser.wait_for("New table")
        await browser.press("enter")  # the form's defaults: Deadwood 1876, every other seat a bot
        await browser.wait_for("Table ")
        (table,) = [t for t, _ in server.lobby.seats_of(app.identity)]
        assert table.game.id == "deadwood1876" and table.status == "playing"
        moves_by_alice = 0
        deadline = time.monotonic() + 60
        while moves_by_alice < 3 and not table.is_over:
            assert time.monotonic() < deadline, browser.text()
            state = table.state
            assert state is not None
            if state.to_act != (0,):  # not her turn, or the bots still answer a decision for everyone at once
                await browser.pump()
                continue
            await browser.wait_for("Your move")
            before = table.num_moves
            await browser.press("1")
            try:
                await wait_until(lambda before=before: table.num_moves > before, timeout=3, what="a move")
            except AssertionError:
                continue  # the choice needed another key (a group of choices): pick again
            moves_by_alice += 1
        await browser.wait_for(f"Table {table.code}")
        screen = browser.text()
        assert "Deadwood 1876" in screen and "you: seat 0" in screen
        shot = await browser.screenshot()
        assert shot.startswith(b"\x89PNG")
        (tmp_path / "browser.png").write_bytes(shot)
        if os.environ.get("SALOON_SCREENSHOT"):  # e.g. for the README's picture
            Path(os.environ["SALOON_SCREENSHOT"]).write_bytes(shot)
        assert not [e for e in browser.errors if "Content Security Policy" in e], browser.errors
