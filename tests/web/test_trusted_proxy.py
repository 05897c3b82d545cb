"""Who the browser page's client is (issue 34): ``X-Forwarded-For`` only from ``--trusted-proxy``
peers, and the page's ``Host`` and ``Origin`` checks against DNS rebinding.

The limits are checked through ``saloon serve`` itself, in a process of its own with its default
limits (a new-connection bucket of 10 per address, then one every 2 s; 20 open at once): 30
websockets from 127.0.0.1, each claiming another address in ``X-Forwarded-For``, count as one
address unless 127.0.0.1 is a trusted proxy.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from serve.ssh_server import SaloonServer
from serve.ssh_server import main as serve_main
from serve.web import TrustedProxies, WebServer, check_web_host, parse_trusted_proxy
from tests.ssh.conftest import make_server
from tests.ssh.termclient import wait_until
from tests.web.conftest import base_of, start_both
from tests.web.webclient import signed_in_session

ROOT = Path(__file__).resolve().parents[2]
SERVE = "import sys; from saloon.cli import main; sys.exit(main())"


class _Served:
    """A ``saloon serve`` process: its page's URL and its log."""

    def __init__(self, base: str, stderr: list[str], data_dir: Path) -> None:
        self.base = base
        self.stderr = stderr
        self.log_file = data_dir / "logs" / "saloon.log"

    def log(self) -> list[str]:
        """The log lines so far: the log file's (``DATA/logs/saloon.log``), or without one stderr's."""
        if self.log_file.exists():
            return self.log_file.read_text(errors="replace").splitlines()
        return list(self.stderr)


@contextlib.asynccontextmanager
async def _saloon_serve(data_dir: Path, *options: str) -> AsyncIterator[_Served]:
    """Run ``saloon serve --port 0 --web 0 --guest --house-bot none OPTIONS`` until the block ends."""
    argv = ["serve", "--port", "0", "--web", "0", "--guest", "--house-bot", "none", "--data-dir", str(data_dir)]
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", SERVE, *argv, *options, cwd=str(ROOT), stderr=asyncio.subprocess.PIPE
    )
    assert process.stderr is not None
    log: list[str] = []
    drain: asyncio.Task[None] | None = None
    try:
        while True:
            line = (await asyncio.wait_for(process.stderr.readline(), 60)).decode(errors="replace")
            if not line:
                raise RuntimeError("saloon serve did not start:\n" + "".join(log))
            log.append(line)
            if found := re.search(r"browser page on \S+ port (\d+)", line):
                break

        async def read_log() -> None:
            assert process.stderr is not None
            while line := await process.stderr.readline():
                log.append(line.decode(errors="replace"))

        drain = asyncio.get_running_loop().create_task(read_log())
        yield _Served(f"http://127.0.0.1:{found.group(1)}", log, data_dir)
    finally:
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        try:
            await asyncio.wait_for(process.wait(), 15)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
        if drain is not None:
            drain.cancel()
            with contextlib.suppress(BaseException):
                await drain


async def _open_websockets(base: str, count: int) -> list[int]:
    """Sign in as a guest, then open ``count`` websockets one after another, each with its own
    ``X-Forwarded-For`` (a client-sent entry, then 198.51.100.N), keeping the admitted ones open
    until all were tried.

    Returns:
        Each attempt's HTTP status (101: admitted).
    """
    session = await signed_in_session(base, guest="drifter")
    statuses: list[int] = []
    sockets: list[aiohttp.ClientWebSocketResponse] = []
    url = base.replace("http:", "ws:") + "/ws"
    try:
        for n in range(count):
            headers = {"Origin": base, "X-Forwarded-For": f"203.0.113.9, 198.51.100.{n + 1}"}
            try:
                sockets.append(await session.ws_connect(url, headers=headers))
                statuses.append(101)
            except aiohttp.WSServerHandshakeError as exc:
                statuses.append(exc.status)
    finally:
        for ws in sockets:
            await ws.close()
        await session.close()
    return statuses


async def test_forwarded_for_from_loopback_is_ignored_without_trusted_proxy(tmp_path: Path) -> None:
    async with _saloon_serve(tmp_path / "data") as served:
        started = time.monotonic()
        statuses = await _open_websockets(served.base, 30)
        elapsed = time.monotonic() - started
        refusals = lambda: [line for line in served.log() if "refused a websocket" in line]  # noqa: E731
        # refusals are logged once a minute per address and kind, not once each (a flood costs a line)
        await wait_until(lambda: len(refusals()) == 1, what="one log line for the refusals")
    # One address's budget: a burst of 10, and a token refilled every 2 s while the test runs.
    assert statuses[:10] == [101] * 10 and set(statuses) == {101, 429}, statuses
    assert statuses.count(101) <= 10 + int(elapsed / 2) + 1, (statuses, elapsed)
    assert all("too many new connections from 127.0.0.1" in line for line in refusals()), refusals()
    assert not any("198.51.100." in line for line in served.log())


async def test_forwarded_for_from_a_trusted_proxy_counts_per_forwarded_address(tmp_path: Path) -> None:
    async with _saloon_serve(tmp_path / "data", "--trusted-proxy", "127.0.0.1") as served:
        statuses = await _open_websockets(served.base, 30)
        assert statuses == [101] * 30  # past the burst of 10 and the 20 open at once of one address
        opened = lambda: re.findall(r"opened a browser session from (\S+)", "\n".join(served.log()))  # noqa: E731
        await wait_until(lambda: len(opened()) == 30, timeout=30, what="30 sessions")
    assert sorted(opened()) == sorted(f"198.51.100.{n}" for n in range(1, 31))
    assert not any("refused a websocket" in line for line in served.log())


def test_serve_refuses_bad_trusted_proxies_and_a_public_page_without_public_url(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert serve_main(["--web", "0", "--web-host", "0.0.0.0"]) == 2
    err = capsys.readouterr().err
    assert "a browser page on '0.0.0.0' needs --web-public-url" in err
    for host in ("::", "", "192.0.2.1", "saloon.example.org"):
        assert serve_main(["--web", "0", "--web-host", host]) == 2
        assert "needs --web-public-url" in capsys.readouterr().err
    assert serve_main(["--web", "0", "--trusted-proxy", "proxy.example"]) == 2
    assert "--trusted-proxy 'proxy.example': not an IP address or network" in capsys.readouterr().err
    assert serve_main(["--web", "0", "--trusted-proxy", "10.1.2.3/8"]) == 2
    assert "host bits set" in capsys.readouterr().err


def test_check_web_host() -> None:
    for host in ("127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost", "LOCALHOST"):
        check_web_host(host, None)
    for host in ("0.0.0.0", "::", "", "192.0.2.1", "fe80::1", "saloon.example.org", "localhost.example.org"):
        check_web_host(host, "https://saloon.example.org")
        with pytest.raises(ValueError, match="needs --web-public-url"):
            check_web_host(host, None)
    with pytest.raises(ValueError, match="needs --web-public-url"):
        WebServer(make_server(Path("/nonexistent")), "0.0.0.0", 0)


# The rule on its own ------------------------------------------------------------------------------


def test_only_a_trusted_peer_names_the_client(caplog: pytest.LogCaptureFixture) -> None:
    assert parse_trusted_proxy(" 10.0.0.0/8 ").num_addresses == 1 << 24
    assert not TrustedProxies()
    none = TrustedProxies()
    assert none.client_address("127.0.0.1", ["198.51.100.7"]) == "127.0.0.1"  # the default: nobody
    proxies = TrustedProxies(["127.0.0.1", "10.0.0.0/8", "fd00::/8"])
    assert proxies.client_address("127.0.0.2", ["198.51.100.7"]) == "127.0.0.2"  # another loopback address
    assert proxies.client_address("192.0.2.1", ["198.51.100.7"]) == "192.0.2.1"
    assert proxies.client_address("127.0.0.1", ["198.51.100.7"]) == "198.51.100.7"
    assert proxies.client_address("::ffff:127.0.0.1", ["198.51.100.7"]) == "198.51.100.7"  # dual-stack socket
    assert proxies.client_address("10.2.3.4", ["1.1.1.1, 198.51.100.7"]) == "198.51.100.7"  # the last entry
    assert proxies.client_address("10.2.3.4", ["198.51.100.6", "198.51.100.7 "]) == "198.51.100.7"  # last header
    assert proxies.client_address("fd00::1", ["2001:DB8:0:0::1"]) == "2001:db8::1"  # one spelling per address
    assert proxies.client_address("127.0.0.1", ["::ffff:198.51.100.7"]) == "198.51.100.7"
    assert proxies.client_address("127.0.0.1", []) == "127.0.0.1"  # no header: the proxy itself
    with caplog.at_level(logging.WARNING, logger="saloon.web"):
        for bad in ("unknown", "198.51.100.7:4321", "", "198.51.100.7, ", "1.2.3.4, x\x1b[2J"):
            assert proxies.client_address("127.0.0.1", [bad]) == "127.0.0.1", bad
    warnings = [record.getMessage() for record in caplog.records if record.name == "saloon.web"]
    assert len(warnings) == 1 and "does not end in an IP address ('unknown')" in warnings[0]


# Host, Origin and DNS rebinding (in this process) -----------------------------------------------


@pytest.fixture
async def guest_server(tmp_path: Path) -> AsyncIterator[SaloonServer]:
    """A running server with its page on 127.0.0.1 (no public URL) that admits guests."""
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    server = await start_both(tmp_path / "data", guest=True)
    try:
        yield server
    finally:
        await server.stop()


async def test_a_rebinding_page_cannot_sign_in_a_guest_or_open_a_websocket(guest_server: SaloonServer) -> None:
    base = base_of(guest_server)
    port = guest_server.web.port
    rebound = f"rebind.example:{port}"  # an attacker's name that now resolves to 127.0.0.1
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
        forged = {"Host": rebound, "Origin": f"http://{rebound}"}
        async with client.post(base + "/guest", data={"name": "mallory"}, headers=forged) as response:
            assert response.status == 403
            assert "Set-Cookie" not in response.headers
        async with client.post(base + "/signin", data={"token": "x" * 43}, headers=forged) as response:
            assert response.status == 403
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.ws_connect(base.replace("http:", "ws:") + "/ws", headers=forged)
        assert refused.value.status == 403
    # The page's own addresses still work: the IP address the links give, and localhost.
    for own in (f"127.0.0.1:{port}", f"localhost:{port}"):
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
            headers = {"Host": own, "Origin": f"http://{own}"}
            async with client.post(
                base + "/guest", data={"name": "drifter"}, headers=headers, allow_redirects=False
            ) as response:
                assert response.status == 303, own
            ws = await client.ws_connect(base.replace("http:", "ws:") + "/ws", headers=headers)
            try:
                await wait_until(lambda: bool(guest_server.sessions), what="the guest's session")
            finally:
                await ws.close()
        await wait_until(lambda: not guest_server.sessions, what="the session to end")


async def test_a_client_cannot_choose_its_address_without_a_trusted_proxy(guest_server: SaloonServer) -> None:
    base = base_of(guest_server)
    session = await signed_in_session(base, guest="drifter")
    try:
        headers = {"Origin": base, "X-Forwarded-For": "198.51.100.7"}
        ws = await session.ws_connect(base.replace("http:", "ws:") + "/ws", headers=headers)
        try:
            await wait_until(lambda: bool(guest_server.sessions), what="the session")
            (app,) = guest_server.sessions
            assert app.identity.address == "127.0.0.1"
        finally:
            await ws.close()
    finally:
        await session.close()


async def test_a_flood_of_refused_posts_costs_the_log_a_line_not_a_line_each(tmp_path: Path) -> None:
    async with _saloon_serve(tmp_path / "data") as served:
        async with aiohttp.ClientSession() as session:

            async def post(n: int) -> int:
                async with session.post(served.base + "/guest", data={"name": f"x{n}"}) as response:  # no Origin
                    return response.status

            statuses = [await post(n) for n in range(300)]
        assert set(statuses) == {403}
        await asyncio.sleep(0.5)
        lines = [line for line in served.log() if "refused a" in line]
        assert len(lines) == 1, lines  # a refused request flood logs once a minute per address, not 300 times
