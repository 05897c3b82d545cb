"""Soak benchmark of the SSH server's memory (a script, not a timed test): sessions come and go.

    python tests/bench/session_soak.py [--warmup 50] [--sessions 1000] [--wave 10] [--size 80x24]
                                       [--tables 3] [--json]

Starts one server process on 127.0.0.1 (a free port, a temporary data directory, the server's own
garbage-collector policy: :func:`serve.ssh_server.run_server`). With ``--tables N`` the server keeps N
tables of four random bots playing (a new one opens as one ends), so the lobby's list changes and
the sessions have games to watch; ``--tables 0`` runs without bot games.

With ``--resident N`` (default 1), N sessions stay in the lobby all along, so the server is
never idle (an idle server's collector also collects what it froze: see :class:`serve.ssh_server.Collector`).

Each session is a real asyncssh client with a PTY of ``--size``: it waits for the lobby, watches a
table (``w``; with no tables it opens the new-table form and cancels it), watches it for a second,
says one line in the chat, and leaves. Sessions run in waves of ``--wave`` at once, each session
from its own loopback address (127.0.0.x) so the per-address limits do not interfere. After every
wave the server's RSS is read from ``/proc``; the report gives the curve (sessions served -> RSS)
after ``--warmup`` sessions, the growth over the measured ones, and how long the server's garbage
collections held its event loop (median, p99, max, read from its log).

Target (issue 26): after a warm-up of 50 sessions, 1,000 more leave RSS within +30 MB of the
post-warm-up figure, with and without bot games running, at 80x24 and 200x60.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.ssh.server_process import listening_port, rss_mb  # noqa: E402
from tests.ssh.termclient import Terminal, connect  # noqa: E402

_SERVER = """
import asyncio, logging, sys
from lobby.tables import Identity, SeatSpec, ServerConfig, TableError
from serve.ssh_server import RateLimiter, SaloonServer, run_server
logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(message)s")
logging.getLogger("asyncssh").setLevel(logging.WARNING)
logging.getLogger("saloon.server").setLevel(logging.DEBUG)  # every collection's pause
server = SaloonServer(sys.argv[1], port=0, config=ServerConfig(bot_delay_s=0.2),
                      limiter=RateLimiter(burst=1000, per_second=1000, max_concurrent=1000))
TABLES = int(sys.argv[2])
async def keep_tables():
    while server.lobby is None:
        await asyncio.sleep(0.05)
    house = Identity("house", "house-key")
    while True:
        live = [t for t in server.lobby.tables.values() if t.creator == "house" and t.status != "over"]
        for _ in range(TABLES - len(live)):
            try:
                server.lobby.create_table(house, "deadwood1876", 4, [SeatSpec("bot", "random")] * 4)
            except TableError as exc:
                print("table:", exc, file=sys.stderr)
        await asyncio.sleep(0.5)
async def main():
    task = asyncio.get_running_loop().create_task(keep_tables())
    await run_server(server)
    task.cancel()
asyncio.run(main())
"""


class Client:
    """One interactive session: lobby, watch a table, chat a line, leave."""

    def __init__(self, port: int, number: int, size: tuple[int, int]) -> None:
        self.port = port
        self.number = number
        self.size = size
        self.output = b""
        self.ok = False

    async def _shows(self, needle: bytes, since: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while needle not in self.output[since:]:
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    async def run(self, key: asyncssh.SSHKey, tables: bool) -> None:
        address = f"127.0.{(self.number // 250) % 250}.{self.number % 250 + 2}"
        conn = await connect(self.port, f"soak{self.number % 40}", key, local_addr=(address, 0))
        try:
            process = await conn.create_process(term_type="xterm-256color", term_size=self.size, encoding=None)
            reader = asyncio.get_running_loop().create_task(self._read(process))
            try:
                if not await self._shows(b"new table", 0, 30):
                    return
                mark = len(self.output)
                if tables:
                    process.stdin.write(b"w")  # watch the highlighted table
                    watching = await self._shows(b"chat here", mark, 10)
                    await asyncio.sleep(1.0)
                    process.stdin.write(b"c")  # the table's chat line
                    await asyncio.sleep(0.2)
                else:
                    process.stdin.write(b"n")  # the new-table form, then back
                    watching = await self._shows(b"Enter opens it", mark, 10)
                    await asyncio.sleep(1.0)
                    process.stdin.write(b"\x1b")
                    await asyncio.sleep(0.2)
                    process.stdin.write(b"c")  # the lobby's chat line
                    await asyncio.sleep(0.2)
                process.stdin.write(f"soak line {self.number}\r".encode())
                await asyncio.sleep(0.3)
                self.ok = watching
            finally:
                reader.cancel()
                with contextlib.suppress(BaseException):
                    await reader
        finally:
            conn.close()
            with contextlib.suppress(Exception):
                await conn.wait_closed()

    async def _read(self, process: asyncssh.SSHClientProcess[bytes]) -> None:
        while True:
            try:
                data = await process.stdout.read(65536)
            except (asyncssh.Error, OSError):
                return
            if not data:
                return
            self.output = (self.output + data)[-200_000:]


async def main(args: argparse.Namespace) -> dict[str, object]:
    width, height = (int(n) for n in args.size.lower().split("x"))
    data = Path(tempfile.mkdtemp(prefix="saloon-soak-"))
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _SERVER, str(data), str(args.tables), cwd=str(ROOT), stderr=asyncio.subprocess.PIPE
    )
    assert server.stderr is not None
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(40)]
    residents: list[Terminal] = []
    try:
        port, _ = await listening_port(server.stderr)

        pauses: list[float] = []

        async def drain() -> None:
            assert server.stderr is not None
            while line := await server.stderr.readline():
                if match := re.match(rb"garbage collection held the server for ([0-9.]+) ms", line):
                    pauses.append(float(match[1]))
                    continue
                if args.verbose and not line.startswith(b"table "):
                    sys.stderr.write(line.decode(errors="replace"))

        drain_task = asyncio.get_running_loop().create_task(drain())
        for i in range(args.resident):  # sessions that stay all along: the server is never idle
            term = Terminal(port, f"resident{i}", asyncssh.generate_private_key("ssh-ed25519"), size=(width, height))
            await term.__aenter__()
            await term.wait_for("new table", timeout=30)
            residents.append(term)
        total = args.warmup + args.sessions
        curve: list[tuple[int, float]] = [(0, round(rss_mb(server.pid), 1))]
        failed = 0
        started = time.monotonic()
        for start in range(0, total, args.wave):
            clients = [Client(port, n, (width, height)) for n in range(start, min(total, start + args.wave))]
            results = await asyncio.gather(
                *(c.run(keys[c.number % 40], args.tables > 0) for c in clients), return_exceptions=True
            )
            failed += sum(1 for c, r in zip(clients, results, strict=True) if isinstance(r, BaseException) or not c.ok)
            await asyncio.sleep(args.settle)
            served = start + len(clients)
            curve.append((served, round(rss_mb(server.pid), 1)))
            if args.verbose:
                print(f"{served:5d} sessions  RSS {curve[-1][1]:7.1f} MiB  failed {failed}", file=sys.stderr)
        after_warmup = next(rss for served, rss in curve if served >= args.warmup)
        final = curve[-1][1]
        drain_task.cancel()
        return {
            "size": f"{width}x{height}",
            "bot_tables": args.tables,
            "warmup_sessions": args.warmup,
            "measured_sessions": args.sessions,
            "wave": args.wave,
            "resident_sessions": args.resident,
            "failed_sessions": failed,
            "seconds": round(time.monotonic() - started, 1),
            "rss_start_mb": curve[0][1],
            "rss_after_warmup_mb": after_warmup,
            "rss_final_mb": final,
            "rss_peak_after_warmup_mb": max(rss for served, rss in curve if served >= args.warmup),
            "growth_after_warmup_mb": round(final - after_warmup, 1),
            "target_mb": 30,
            "collections": len(pauses),
            "collection_pause_ms": {
                "median": round(statistics.median(pauses), 1) if pauses else None,
                "p99": round(sorted(pauses)[int(len(pauses) * 0.99)], 1) if pauses else None,
                "max": round(max(pauses), 1) if pauses else None,
            },
            "curve": curve,
        }
    finally:
        for term in residents:
            await term.close()
        with contextlib.suppress(ProcessLookupError):
            server.terminate()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait(), 10)
        with contextlib.suppress(ProcessLookupError):
            server.kill()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warmup", type=int, default=50, help="sessions before the baseline (default 50)")
    parser.add_argument("--sessions", type=int, default=1000, help="sessions measured after the warm-up")
    parser.add_argument("--wave", type=int, default=10, help="sessions at once (default 10)")
    parser.add_argument(
        "--resident",
        type=int,
        default=1,
        help="sessions that stay in the lobby all along (default 1; 0 lets the server go idle between waves, "
        "when its collector also collects what it froze)",
    )
    parser.add_argument("--size", default="80x24", help="the clients' terminal size, WxH (default 80x24)")
    parser.add_argument("--tables", type=int, default=3, help="tables of random bots kept playing (0: none)")
    parser.add_argument("--settle", type=float, default=0.5, help="seconds after a wave before RSS is read")
    parser.add_argument("--verbose", action="store_true")
    print(json.dumps(asyncio.run(main(parser.parse_args())), indent=1))
