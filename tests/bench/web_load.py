"""Load benchmark of both transports at once (a script, not a timed test): SSH and browser sessions.

    python tests/bench/web_load.py [--sessions 100] [--web-share 0.5] [--seconds 20] [--rate 1.0]

Starts one server process on 127.0.0.1 as an operator runs it (:func:`serve.ssh_server.run_server`, the
SSH server and its browser page, free ports, a temporary data directory), connects
``--sessions`` sessions: ``--web-share`` of them websockets speaking textual.js's protocol
(aiohttp's client, each signed in with its own one-time link from ``ssh ... web``), the rest
asyncssh clients with a PTY; all 120x40, in the lobby, typing into the chat line.

Three measurements of ``--seconds`` each: only the SSH sessions type, only the browser sessions
type, then all of them. Reports (JSON), per transport:

* keystroke-to-screen latency (p50, p95, p99, max) in the mixed phase: from sending a key to
  receiving the first screen update that contains the typed character;
* memory per session: the server's RSS growth while that transport's sessions connected;
* server CPU per keystroke (each keystroke is one redraw of the typist's chat line) in the phase
  where only that transport typed, and the ratio web / SSH of both costs.

Issue 25's target: a websocket session costs no more memory or CPU per redraw than an SSH one,
within 20%.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.ssh_load import Session, Typist  # noqa: E402
from tests.ssh.server_process import cpu_s, rss_mb  # noqa: E402
from tests.ssh.termclient import connect  # noqa: E402

_SERVER = """
import asyncio, logging, sys
from lobby.tables import ServerConfig
from serve.ssh_server import RateLimiter, SaloonServer, run_server
from serve.web import WebConfig, WebServer
logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(message)s")
logging.getLogger("asyncssh").setLevel(logging.WARNING)
server = SaloonServer(sys.argv[1], port=0, config=ServerConfig(bot_delay_s=0.5),
                      limiter=RateLimiter(burst=1000, per_second=1000, max_concurrent=1000))
WebServer(server, "127.0.0.1", 0, config=WebConfig(signin_burst=1000, signin_per_s=1000))
asyncio.run(run_server(server))
"""


LOBBY = b"new table"
"""What the lobby shows once drawn (its header's keys)."""


class SSHSession(Session):
    """One PTY client (:class:`tests.bench.ssh_load.Session`), ready once the lobby is drawn."""

    async def open(self) -> None:
        self.conn = await connect(self.port, self.name, self.ssh_key)
        self.process = await self.conn.create_process(term_type="xterm-256color", term_size=(120, 40), encoding=None)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        if not await self.shows(LOBBY, 0, 30):
            raise TimeoutError(f"{self.name}: no lobby")


class WebSession(Typist):
    """One browser session over the websocket; records keystroke latencies like :class:`Session`."""

    def __init__(self, ssh_port: int, web_port: int, name: str) -> None:
        super().__init__(name)
        self.ssh_port = ssh_port
        self.base = f"http://127.0.0.1:{web_port}"
        self.client: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None

    async def open(self) -> None:
        conn = await connect(self.ssh_port, self.name, self.ssh_key)
        try:
            result = await conn.run("web", encoding="utf-8", timeout=20)
        finally:
            conn.close()
        token = re.search(r"/signin#(\S+)", str(result.stdout))
        if token is None:
            raise RuntimeError(f"{self.name}: no sign-in link: {result.stderr}")
        self.client = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        async with self.client.post(
            self.base + "/signin", data={"token": token.group(1)}, headers={"Origin": self.base}, allow_redirects=False
        ) as response:
            if response.status != 303:
                raise RuntimeError(f"{self.name}: sign-in refused ({response.status})")
        url = self.base.replace("http:", "ws:") + "/ws?width=120&height=40"
        self.ws = await self.client.ws_connect(url, headers={"Origin": self.base})
        self._reader = asyncio.get_running_loop().create_task(self._read())
        deadline = time.monotonic() + 30
        while LOBBY not in self.tail:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: no lobby")
            await asyncio.sleep(0.05)

    async def _read(self) -> None:
        assert self.ws is not None
        async for message in self.ws:
            if message.type != aiohttp.WSMsgType.BINARY:
                continue
            self.received(message.data)

    def write(self, keys: bytes) -> None:
        assert self.ws is not None
        asyncio.get_running_loop().create_task(self.ws.send_str(json.dumps(["stdin", keys.decode()])))

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
        if self.client is not None:
            await self.client.close()


async def _ports(stderr: asyncio.StreamReader) -> tuple[int, int]:
    ssh = web = 0
    while not (ssh and web):
        line = (await asyncio.wait_for(stderr.readline(), 30)).decode(errors="replace")
        if not line:
            raise RuntimeError("the server exited")
        if found := re.search(r"Saloon listening on \S+ port (\d+)", line):
            ssh = int(found.group(1))
        if found := re.search(r"browser page on \S+ port (\d+)", line):
            web = int(found.group(1))
    return ssh, web


def _quantiles(values: list[float]) -> dict[str, float]:
    values = sorted(v * 1000 for v in values)
    if len(values) > 1:
        q = statistics.quantiles(values, n=100, method="inclusive")
    else:
        q = [values[0] if values else 0.0] * 99
    return {
        "keystrokes": len(values),
        "p50_ms": round(q[49], 1),
        "p95_ms": round(q[94], 1),
        "p99_ms": round(q[98], 1),
        "max_ms": round(values[-1], 1) if values else 0.0,
    }


async def _type(sessions: list[Session] | list[WebSession], seconds: float, rate: float) -> int:
    """Every session types a letter every ~1/rate s for ``seconds``; returns the keystrokes answered."""
    end = time.monotonic() + seconds
    for s in sessions:
        s.latencies.clear()

    async def typist(s: Session | WebSession) -> None:
        letters = "abcdefghijklmnopqrstuvwxyz"
        i = random.randrange(26)
        await asyncio.sleep(random.random() / rate)
        while time.monotonic() < end:
            await s.key(letters[i % 26])
            i += 1
            await asyncio.sleep(random.uniform(0.5, 1.5) / rate)

    await asyncio.gather(*(typist(s) for s in sessions))
    return sum(len(s.latencies) for s in sessions)


async def main(args: argparse.Namespace) -> dict[str, object]:
    data = Path(tempfile.mkdtemp(prefix="saloon-bench-"))
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _SERVER, str(data), cwd=str(ROOT), stderr=asyncio.subprocess.PIPE
    )
    assert server.stderr is not None
    n_web = round(args.sessions * args.web_share)
    n_ssh = args.sessions - n_web
    ssh_sessions: list[Session] = []
    web_sessions: list[WebSession] = []
    drain: asyncio.Task[None] | None = None
    try:
        ssh_port, web_port = await _ports(server.stderr)

        async def drain_log() -> None:
            assert server.stderr is not None
            while await server.stderr.readline():
                pass

        drain = asyncio.get_running_loop().create_task(drain_log())
        await asyncio.sleep(0.5)
        base = rss_mb(server.pid)
        for start in range(0, n_ssh, 10):
            wave = [SSHSession(ssh_port, f"ssh{i}") for i in range(start, min(n_ssh, start + 10))]
            await asyncio.gather(*(s.open() for s in wave))
            ssh_sessions.extend(wave)
        await asyncio.sleep(3)  # the collector's freeze after the last start
        after_ssh = rss_mb(server.pid)
        for start in range(0, n_web, 10):
            web_wave = [WebSession(ssh_port, web_port, f"web{i}") for i in range(start, min(n_web, start + 10))]
            await asyncio.gather(*(s.open() for s in web_wave))
            web_sessions.extend(web_wave)
        await asyncio.sleep(3)
        after_web = rss_mb(server.pid)
        for s in [*ssh_sessions, *web_sessions]:
            s.write(b"c")  # into the chat line
        await asyncio.sleep(2)

        cpu_per_key: dict[str, float] = {}
        for name, group in (("ssh", ssh_sessions), ("web", web_sessions)):
            if not group:
                continue
            cpu0 = cpu_s(server.pid)
            keys = await _type(group, args.seconds, args.rate)  # type: ignore[arg-type]
            cpu_per_key[name] = (cpu_s(server.pid) - cpu0) / max(1, keys) * 1000
        cpu0 = cpu_s(server.pid)
        await asyncio.gather(_type(ssh_sessions, args.seconds, args.rate), _type(web_sessions, args.seconds, args.rate))
        mixed_cpu = (cpu_s(server.pid) - cpu0) / args.seconds
        ssh_mb = (after_ssh - base) / n_ssh if n_ssh else 0.0
        web_mb = (after_web - after_ssh) / n_web if n_web else 0.0
        result: dict[str, object] = {
            "sessions": args.sessions,
            "ssh": {
                "sessions": n_ssh,
                **_quantiles([x for s in ssh_sessions for x in s.latencies]),
                "timeouts": sum(s.errors for s in ssh_sessions),
                "mb_per_session": round(ssh_mb, 2),
                "server_cpu_ms_per_keystroke": round(cpu_per_key.get("ssh", 0.0), 2),
            },
            "web": {
                "sessions": n_web,
                **_quantiles([x for s in web_sessions for x in s.latencies]),
                "timeouts": sum(s.errors for s in web_sessions),
                "mb_per_session": round(web_mb, 2),
                "server_cpu_ms_per_keystroke": round(cpu_per_key.get("web", 0.0), 2),
            },
            "web_over_ssh": {
                "memory": round(web_mb / ssh_mb, 2) if ssh_mb > 0 else None,
                "cpu_per_keystroke": round(cpu_per_key["web"] / cpu_per_key["ssh"], 2)
                if cpu_per_key.get("ssh") and cpu_per_key.get("web")
                else None,
            },
            "rss_base_mb": round(base, 1),
            "rss_loaded_mb": round(rss_mb(server.pid), 1),
            "server_cpu_share_mixed": round(mixed_cpu, 2),
        }
        return result
    finally:
        for s in ssh_sessions:
            await s.close()
        for w in web_sessions:
            await w.close()
        if drain is not None:
            drain.cancel()
        with contextlib.suppress(ProcessLookupError):
            server.terminate()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait(), 10)
        with contextlib.suppress(ProcessLookupError):
            server.kill()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--web-share", type=float, default=0.5, help="the share of browser sessions (0..1)")
    parser.add_argument("--seconds", type=float, default=20, help="each of the three measurements")
    parser.add_argument("--rate", type=float, default=1.0, help="keystrokes per second per session")
    print(json.dumps(asyncio.run(main(parser.parse_args())), indent=2))
