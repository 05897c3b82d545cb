"""The browser transport end to end, over loopback: sign-in links, the session cookie, the websocket
terminal (textual.js's protocol through aiohttp's client, screens read through pyte), and a
browser and an SSH player at one table."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import re
import weakref
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from lobby.tables import Identity, SeatSpec
from serve.ssh_server import RateLimiter, SaloonServer
from serve.ssh_server import main as serve_main
from serve.web import COOKIE_NAME, AddressBuckets, SessionCookies, SignInTokens, WebConfig, origin_of
from tests.ssh.tablehelpers import watch_and_chat
from tests.ssh.termclient import Terminal, make_key, wait_until
from tests.ssh.test_server import new_table, run_command
from tests.ssh.test_session_memory import _frozen_garbage, _session_refs
from tests.web.conftest import base_of, start_both
from tests.web.webclient import WebTerminal, link_for, signed_in_session, token_of

# Signing in -------------------------------------------------------------------------------------


async def test_the_page_asks_to_sign_in_and_serves_textual_serve_assets(server: SaloonServer) -> None:
    base = base_of(server)
    async with aiohttp.ClientSession() as session:
        async with session.get(base + "/") as response:
            page = await response.text()
            assert response.status == 200
            assert f"ssh -p {server.port} NAME@127.0.0.1 web" in page
            assert "guest" not in page.lower()  # the server admits no guests
            assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
        fonts = "/static/fonts/RobotoMono-VariableFont_wght.ttf"
        for path in ("/static/js/textual.js", "/static/css/xterm.css", fonts):
            async with session.get(base + path) as response:
                assert response.status == 200, path
                assert len(await response.read()) > 1000
        async with session.get(base + "/static/../web_secret") as response:
            assert response.status in (403, 404)


async def test_a_sign_in_link_works_once_and_the_cookie_is_strict(server: SaloonServer) -> None:
    base = base_of(server)
    link = await link_for(server.port, "alice", make_key("alice"))
    assert link.startswith(base + "/signin#")
    token = token_of(link)
    async with aiohttp.ClientSession() as session:
        async with session.post(
            base + "/signin", data={"token": token}, headers={"Origin": base}, allow_redirects=False
        ) as response:
            assert response.status == 303 and response.headers["Location"] == "/"
            cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE_NAME}=")
    attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
    assert {"httponly", "max-age", "path", "samesite"} <= attributes and "secure" not in attributes
    assert "SameSite=Strict" in cookie
    async with aiohttp.ClientSession() as session:  # the same token again: refused
        async with session.post(
            base + "/signin", data={"token": token}, headers={"Origin": base}, allow_redirects=False
        ) as response:
            assert response.status == 403
            assert "expired or was used already" in await response.text()
            assert "Set-Cookie" not in response.headers


async def test_an_expired_token_is_refused(tmp_path: Path) -> None:
    server = await start_both(tmp_path / "data", web=WebConfig(token_ttl_s=0.3))
    try:
        base = base_of(server)
        link = await link_for(server.port, "alice", make_key("alice"))
        await asyncio.sleep(0.5)
        with pytest.raises(AssertionError, match="403"):
            await signed_in_session(base, token_of(link))
        fresh = await link_for(server.port, "alice", make_key("alice"))
        session = await signed_in_session(base, token_of(fresh))  # a fresh one, used at once, works
        await session.close()
        with pytest.raises(AssertionError, match="403"):
            await signed_in_session(base, "not-a-token-the-server-issued")
    finally:
        await server.stop()


async def test_the_token_never_reaches_the_logs(server: SaloonServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    base = base_of(server)
    link = await link_for(server.port, "alice", make_key("alice"))
    session = await signed_in_session(base, token_of(link))
    try:
        async with WebTerminal(base, session) as term:
            await term.wait_for("new table")
        with pytest.raises(AssertionError):
            await signed_in_session(base, token_of(link))  # reused: refused, and logged as such
    finally:
        await session.close()
    assert "sign-in link issued for alice" in caplog.text and "alice signed in" in caplog.text
    assert token_of(link) not in caplog.text
    assert token_of(link)[:12] not in caplog.text


async def test_ssh_web_without_a_page_or_for_a_guest(tmp_path: Path) -> None:
    from tests.ssh.conftest import make_server

    plain = make_server(tmp_path / "plain")
    await plain.start()
    try:
        status, _, err = await run_command(plain.port, "alice", make_key("alice"), "web")
        assert status == 1 and "no browser page" in err
    finally:
        await plain.stop()
    server = await start_both(tmp_path / "guests", guest=True)
    try:
        status, out, _ = await run_command(server.port, "drifter", None, "web")
        assert status == 0 and f"open {base_of(server)}/ and choose a guest name" in out
    finally:
        await server.stop()


def test_tokens_and_cookies_on_their_own() -> None:
    now = [100.0]
    tokens = SignInTokens(ttl_s=10, per_account=2, clock=lambda: now[0])
    first, second, third = (tokens.issue("alice", "fp") for _ in range(3))
    assert tokens.redeem(first) is None  # beyond the account's two outstanding tokens: dropped
    assert tokens.redeem(second) == ("alice", "fp") and tokens.redeem(second) is None
    now[0] += 11
    assert tokens.redeem(third) is None  # expired
    assert len(tokens) == 0
    cookies = SessionCookies(b"k" * 32, ttl_s=60, clock=lambda: now[0])
    value = cookies.make("alice", "fp", guest=False)
    assert cookies.read(value) == ("alice", "fp", False)
    assert cookies.read(value[:-2] + ("AA" if value[-2:] != "AA" else "BB")) is None  # forged
    assert SessionCookies(b"x" * 32, ttl_s=60).read(value) is None  # another server's secret
    now[0] += 61
    assert cookies.read(value) is None  # expired
    buckets = AddressBuckets(burst=2, per_s=0.001)
    assert buckets.admit("192.0.2.1") is None and buckets.admit("192.0.2.1") is None
    assert "too many sign-in attempts" in (buckets.admit("192.0.2.1") or "")
    assert buckets.admit("192.0.2.2") is None  # another address has its own
    assert origin_of("https://Saloon.Example.org:443/x") == "https://saloon.example.org"
    assert origin_of("http://[::1]:8080") == "http://[::1]:8080"
    with pytest.raises(ValueError):
        origin_of("javascript:alert(1)")


def test_serve_refuses_a_bad_web_port_or_public_url(capsys: pytest.CaptureFixture[str]) -> None:
    assert serve_main(["--web", "70000"]) == 2
    assert serve_main(["--web", "8080", "--web-public-url", "saloon.example.org"]) == 2
    assert serve_main(["--web", "8080", "--web-public-url", "https://example.org/saloon"]) == 2
    assert "--web-public-url" in capsys.readouterr().err


# Refusals ---------------------------------------------------------------------------------------


async def _ws_status(session: aiohttp.ClientSession, base: str, headers: dict[str, str]) -> int:
    try:
        ws = await session.ws_connect(base.replace("http:", "ws:") + "/ws", headers=headers)
    except aiohttp.WSServerHandshakeError as exc:
        return exc.status
    await ws.close()
    return 101


async def test_a_cross_origin_websocket_is_refused(server: SaloonServer) -> None:
    base = base_of(server)
    link = await link_for(server.port, "alice", make_key("alice"))
    session = await signed_in_session(base, token_of(link))
    try:
        assert await _ws_status(session, base, {"Origin": "http://evil.example"}) == 403
        assert await _ws_status(session, base, {"Origin": "http://127.0.0.1:1"}) == 403  # another port
        assert await _ws_status(session, base, {}) == 403  # no Origin at all
        assert not server.sessions
        # A cross-site form post cannot sign anyone in (login CSRF), and does not use the token up.
        other = await link_for(server.port, "alice", make_key("alice"))
        async with session.post(
            base + "/signin", data={"token": token_of(other)}, headers={"Origin": "http://evil.example"}
        ) as response:
            assert response.status == 403
        await (await signed_in_session(base, token_of(other))).close()  # still works from the page's origin
        async with WebTerminal(base, session) as term:  # the page's own origin: admitted
            await term.wait_for("new table")
    finally:
        await session.close()


async def test_no_cookie_or_a_forged_one_gets_no_terminal(server: SaloonServer) -> None:
    base = base_of(server)
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        assert await _ws_status(session, base, {"Origin": base}) == 401
        forged = SessionCookies(b"not the server's secret, 32 bytes", ttl_s=60).make("alice", "fp", guest=False)
        session.cookie_jar.update_cookies({COOKIE_NAME: forged})
        assert await _ws_status(session, base, {"Origin": base}) == 401
    assert not server.sessions


async def test_websockets_are_rate_limited_per_address(server: SaloonServer) -> None:
    base = base_of(server)
    server.limiter = RateLimiter(burst=10, per_second=0.01, max_concurrent=1)
    link = await link_for(server.port, "alice", make_key("alice"))
    session = await signed_in_session(base, token_of(link))
    try:
        async with WebTerminal(base, session) as term:
            await term.wait_for("new table")
            assert await _ws_status(session, base, {"Origin": base}) == 429  # a second one at once
        await wait_until(lambda: not server.sessions, what="the session to end")
        async with WebTerminal(base, session) as again:  # the first closed: admitted again
            await again.wait_for("new table")
    finally:
        await session.close()


async def test_odd_or_oversized_messages_close_only_that_session(server: SaloonServer) -> None:
    base = base_of(server)
    link = await link_for(server.port, "alice", make_key("alice"))
    session = await signed_in_session(base, token_of(link))
    try:
        async with WebTerminal(base, session) as bystander:
            await bystander.wait_for("new table")
            for bad in ("not json", json.dumps({"stdin": "x"}), json.dumps(["stdin", 5]), "x" * 70_000):
                async with WebTerminal(base, session) as term:
                    await term.wait_for("new table")
                    assert term.ws is not None
                    await term.ws.send_str(bad)
                    await asyncio.wait_for(term.closed.wait(), 10)
            await wait_until(lambda: len(server.sessions) == 1, what="the bad sessions to end")
            await bystander.press("c")
            await bystander.type("still here\r")
            await bystander.wait_for("alice: still here")
            assert bystander.ws is not None
            await bystander.ws.send_str(json.dumps(["ping", "12345"]))
            await wait_until(lambda: bystander.pongs == ["12345"], what="the pong")
            await bystander.ws.send_str(json.dumps(["resize", {"width": 100000, "height": 3}]))
            await bystander.ws.send_str(json.dumps(["focus"]))
            await bystander.ws.send_str(json.dumps(["something-newer", {}]))  # ignored
            app = next(iter(server.sessions))
            await wait_until(lambda: tuple(app.size) == (500, 3), what="the clamped size")
    finally:
        await session.close()


async def test_guests_play_only_where_the_server_admits_them(tmp_path: Path, server: SaloonServer) -> None:
    base = base_of(server)
    with pytest.raises(AssertionError, match="403"):
        await signed_in_session(base, guest="drifter")
    open_server = await start_both(tmp_path / "open", guest=True)
    try:
        base = base_of(open_server)
        await run_command(open_server.port, "alice", make_key("alice"), "help")  # registers alice
        with pytest.raises(AssertionError, match="400"):
            await signed_in_session(base, guest="alice")  # a registered name
        with pytest.raises(AssertionError, match="400"):
            await signed_in_session(base, guest="Bad Name")
        session = await signed_in_session(base, guest="drifter")
        try:
            async with WebTerminal(base, session) as term:
                await term.wait_for("new table")
                (app,) = open_server.sessions
                assert app.identity.guest and app.identity.label == "drifter (guest)"
        finally:
            await session.close()
    finally:
        await open_server.stop()


# Playing ----------------------------------------------------------------------------------------


async def test_a_browser_and_an_ssh_player_at_one_table_see_each_others_moves(server: SaloonServer) -> None:
    from tests.ssh.tablehelpers import play_turns

    base = base_of(server)
    alice_key = make_key("alice")
    link = await link_for(server.port, "alice", alice_key)
    session = await signed_in_session(base, token_of(link))
    try:
        async with WebTerminal(base, session) as alice:
            await alice.wait_for("Saloon")
            code = await new_table(alice, 3, "random,free")  # type: ignore[arg-type]
            table = server.lobby.table(code)
            assert table.status == "waiting"
            async with Terminal(server.port, "bob", make_key("bob")) as bob:
                await bob.wait_for(code)
                await bob.press("enter")  # bob, over SSH, joins the browser player's table
                await bob.wait_for("you: seat")
                await wait_until(lambda: table.status == "playing", what="the game starts")
                assert set(table.names()) == {"alice", "bob", "random (bot)"}
                names = table.names()
                seats = {names.index("alice"): alice, names.index("bob"): bob}
                moves = table.num_moves
                await wait_until(lambda: _public(alice.text()) == _public(bob.text()) != [], what="the first screens")
                before = _public(bob.text())
                await play_turns(table, seats, 2)  # type: ignore[arg-type]
                assert table.num_moves >= moves + 4
                # Both screens show the table as the moves left it (the saloons' stars, the deck
                # and the discard pile); both chat at the table. The screens draw the last moves a
                # moment after they are made: until then both still show the table as it was, alike.
                await wait_until(
                    lambda: _public(alice.text()) == _public(bob.text()) not in ([], before),
                    what="the same table, as the moves left it, on both screens",
                )
                assert _public(alice.text()) != before  # the moves changed what both see
                for term, name, text in ((alice, "alice", "howdy from the browser"), (bob, "bob", "howdy from ssh")):
                    (app,) = [a for a in server.sessions if a.identity.name == name]
                    await term.press("c")
                    await wait_until(lambda app=app: _chat_focused(app), what="chat focus")
                    await term.type(text)
                    await wait_until(lambda app=app, text=text: app.focused.value == text, what="the line typed")
                    await term.press("enter", "escape", pause=0.3)
                said = lambda: [(line.name, line.text) for line in table.chat if "howdy" in line.text]  # noqa: E731
                await wait_until(lambda: len(said()) == 2, timeout=20, what="both chat lines at the table")
                assert said() == [("alice", "howdy from the browser"), ("bob", "howdy from ssh")]
    finally:
        await session.close()


def _chat_focused(app: Any) -> bool:
    focused = app.focused
    return focused is not None and focused.id == "st-say"


def _public(screen: str) -> list[str]:
    """What every seat's screen shows alike: the saloons' stars, the deck and the discard pile."""
    return re.findall(r"(?:Gem Theatre|Bella Union) [^\n]*?\d/\d|deck \d+ · discard \d+", screen)


# Memory -----------------------------------------------------------------------------------------


async def test_a_closed_websocket_session_is_freed_by_reference_counting(
    server: SaloonServer, no_full_collections: None
) -> None:
    server.lobby.create_table(Identity("house", "house-key"), "deadwood1876", 4, [SeatSpec("bot")] * 4)
    base = base_of(server)
    link = await link_for(server.port, "freed", make_key("freed"))
    session = await signed_in_session(base, token_of(link))
    try:
        async with WebTerminal(base, session, size=(80, 24)) as term:  # imports, caches, first screens
            await watch_and_chat(term, "hello from a browser")
        await wait_until(lambda: not server.sessions, what="the warm-up session to end")
        server.lobby.create_table(Identity("house", "house-key"), "deadwood1876", 4, [SeatSpec("bot")] * 4)
        gc.collect()
        gc.freeze()
        refs: dict[str, weakref.ref[Any]] = {}
        async with WebTerminal(base, session, size=(80, 24)) as term:
            await term.wait_for("new table")
            refs.update(_session_refs(server, web.WebSocketResponse, "websocket"))
            gc.collect()  # as the server's collector does, a few seconds after a session starts:
            gc.freeze()  # the session's objects too are frozen; only reference counting can free them now
            await watch_and_chat(term, "hello from a browser")
            refs["table screen"] = weakref.ref(next(iter(server.sessions)).screen)
        await wait_until(lambda: not server.sessions, what="the session to end")
        alive = list(refs)
        for _ in range(50):  # the websocket's handler may still be closing (up to 5 s)
            await asyncio.sleep(0.1)
            gc.collect(1)  # young garbage only
            alive = [name for name, ref in refs.items() if ref() is not None]
            if not alive:
                break
        assert alive == []
        # and nothing of the session is left frozen, its socket transport included
        assert _frozen_garbage(int(base.rsplit(":", 1)[1])) == {}
    finally:
        await session.close()


# Identity across transports, and behind a proxy ------------------------------------------------


async def test_a_seat_taken_in_the_browser_is_taken_back_over_ssh_and_in_the_browser(tmp_path: Path) -> None:
    server = await start_both(tmp_path / "data", grace_s=30.0, bot_delay_s=0.05)
    try:
        base = base_of(server)
        key = make_key("alice")
        session = await signed_in_session(base, token_of(await link_for(server.port, "alice", key)))
        try:
            async with WebTerminal(base, session) as term:
                await term.wait_for("Saloon")
                code = await new_table(term, 2, "random")  # type: ignore[arg-type]
                await term.wait_for("Your move")
            table = server.lobby.table(code)
            async with Terminal(server.port, "alice", key) as ssh:  # the same key over SSH: the same seat
                await _back_to_the_table(ssh)
                assert table.seats[0].controller is not None and not table.seats[0].substitute
            async with WebTerminal(base, session) as term:  # and back in the browser, within the grace time
                await _back_to_the_table(term)
                assert not table.seats[0].substitute
        finally:
            await session.close()
    finally:
        await server.stop()


async def _back_to_the_table(term: Terminal | WebTerminal) -> None:
    """From the lobby (or straight away), back to the table where the player has a seat."""
    if await term.wait_for("you: seat 0", "t to return") != "you: seat 0":
        await term.press("t")
        await term.wait_for("you: seat 0")


async def test_behind_a_proxy_the_public_url_makes_links_origins_and_secure_cookies(tmp_path: Path) -> None:
    from serve.web import WebServer
    from tests.ssh.conftest import make_server

    server = make_server(tmp_path / "data")
    WebServer(server, "127.0.0.1", 0, public_url="https://saloon.example.org/", trusted_proxies=["127.0.0.1"])
    await server.start()
    try:
        public = "https://saloon.example.org"
        link = await link_for(server.port, "alice", make_key("alice"))
        assert link.startswith(public + "/signin#")
        base = base_of(server)
        proxied = {"Origin": public, "Host": "saloon.example.org", "X-Forwarded-For": "198.51.100.7"}
        async with aiohttp.ClientSession() as client:
            async with client.post(
                base + "/signin", data={"token": token_of(link)}, headers=proxied, allow_redirects=False
            ) as response:
                assert response.status == 303
                assert "Secure" in response.headers["Set-Cookie"]
                cookie = response.cookies[COOKIE_NAME].value
            headers = {"Cookie": f"{COOKIE_NAME}={cookie}"}
            local = {**headers, "Origin": base}
            assert await _ws_status(client, base, local) == 403  # only the public origin
            ws = await client.ws_connect(base.replace("http:", "ws:") + "/ws", headers={**proxied, **headers})
            try:
                await wait_until(lambda: bool(server.sessions), what="the session")
                (app,) = server.sessions
                assert app.identity.name == "alice" and app.identity.address == "198.51.100.7"
            finally:
                await ws.close()
    finally:
        await server.stop()
