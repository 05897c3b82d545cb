"""Load benchmark of the SSH server (a script, not a timed test): many concurrent PTY sessions.

    python tests/bench/ssh_load.py [--sessions 100] [--seconds 30] [--rate 1.0] [--tables 5] [--table-bot ismcts]

Starts one server process on 127.0.0.1 (a free port, a temporary data directory), connects
``--sessions`` asyncssh clients with a PTY (120x40, xterm-256color), each in the lobby typing into
the chat line, one keystroke per ``1/--rate`` seconds (jittered). Optionally ``--tables`` tables of
bots play meanwhile, each watched by one of the sessions (so their screens redraw as the bots
move; ``--table-bot`` names the server's offered bot that fills them, ``random`` by default, or
``ismcts`` to check that searching bots, which think in worker processes, do not slow anyone's
screen). Reports:

* keystroke-to-screen latency (p50, p95, max): from sending a key to receiving the first screen
  update that contains the typed character;
* memory per session: (server RSS with every session open - RSS before the first) / sessions.

Targets (issue 5): p95 <= 100 ms and <= 20 MB per session with 100 sessions on a 2-core machine.
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

import asyncssh

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.ssh.termclient import connect  # noqa: E402

_SERVER = """
import asyncio, logging, sys
from tui.server import RateLimiter, SaloonServer, run_server
from lobby.tables import ServerConfig
logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(message)s")
logging.getLogger("asyncssh").setLevel(logging.WARNING)
import gc, os, time
def _err(text):
    os.write(2, (text + chr(10)).encode())
_t = [0.0]
def _gc(phase, info):
    if phase == "start":
        _t[0] = time.perf_counter()
    else:
        d = time.perf_counter() - _t[0]
        if d > 0.05:
            _err(f"GC gen{info['generation']} {d*1000:.0f} ms collected {info['collected']}")
gc.callbacks.append(_gc)
server = SaloonServer(sys.argv[1], port=0, config=ServerConfig(bot_delay_s=0.5),
                      limiter=RateLimiter(burst=1000, per_second=1000, max_concurrent=1000))
async def _lag():
    while True:
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        d = time.perf_counter() - t - 0.01
        if d > 0.1:
            _err(f"LAG {d*1000:.0f} ms")
async def _main():
    asyncio.get_running_loop().create_task(_lag())
    await run_server(server)
asyncio.run(_main())
"""


def cpu_s(pid: int) -> float:
    """User + system CPU seconds used by process ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100


def rss_mb(pid: int) -> float:
    """The resident set size of process ``pid`` in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Session:
    """One PTY client; records keystroke latencies."""

    def __init__(self, port: int, name: str) -> None:
        self.port = port
        self.name = name
        self.ssh_key = asyncssh.generate_private_key("ssh-ed25519")
        self.conn: asyncssh.SSHClientConnection | None = None
        self.process: asyncssh.SSHClientProcess[bytes] | None = None
        self.waiting: tuple[bytes, float, asyncio.Future[float]] | None = None
        self.output = 0
        self.latencies: list[float] = []
        self.errors = 0
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        self.conn = await connect(self.port, self.name, self.ssh_key)
        self.process = await self.conn.create_process(term_type="xterm-256color", term_size=(120, 40), encoding=None)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        await self.wait_quiet(b"palette", 30)

    async def wait_quiet(self, needle: bytes, timeout: float) -> None:
        """Wait until ``needle`` was output (used for the first screen)."""
        deadline = time.monotonic() + timeout
        while needle not in self._seen:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: no {needle!r}")
            await asyncio.sleep(0.05)

    _seen = b""

    async def _read(self) -> None:
        assert self.process is not None
        while True:
            try:
                data = await self.process.stdout.read(65536)
            except (asyncssh.Error, OSError):
                return
            if not data:
                return
            self.output += len(data)
            if len(self._seen) < 200_000:
                self._seen += data
            waiting = self.waiting
            if waiting is not None and waiting[0] in data and not waiting[2].done():
                waiting[2].set_result(time.perf_counter() - waiting[1])

    async def key(self, char: str) -> None:
        """Type ``char`` and wait for the screen update that shows it."""
        assert self.process is not None
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiting = (char.encode(), time.perf_counter(), future)
        self.process.stdin.write(char.encode())
        try:
            self.latencies.append(await asyncio.wait_for(future, 5))
        except TimeoutError:
            self.errors += 1
        finally:
            self.waiting = None

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        if self.conn is not None:
            self.conn.close()


async def main(args: argparse.Namespace) -> dict[str, float]:
    data = Path(tempfile.mkdtemp(prefix="saloon-bench-"))
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _SERVER, str(data), cwd=str(ROOT), stderr=asyncio.subprocess.PIPE
    )
    assert server.stderr is not None
    sessions: list[Session] = []
    try:
        port = 0
        while not port:
            line = (await asyncio.wait_for(server.stderr.readline(), 20)).decode()
            if not line:
                raise RuntimeError("the server did not start")
            match = re.search(r"listening on \S+ port (\d+)", line)
            port = int(match.group(1)) if match else 0

        started: list[bytes] = []

        async def drain() -> None:
            assert server.stderr is not None
            while line := await server.stderr.readline():
                if b"started for" in line:
                    started.append(line)
                if args.verbose and line.startswith((b"GC", b"LAG")):
                    sys.stderr.write(line.decode())

        drain_task = asyncio.get_running_loop().create_task(drain())
        await asyncio.sleep(0.5)
        base = rss_mb(server.pid)
        t0 = time.monotonic()
        for start in range(0, args.sessions, 10):  # connect in waves of 10
            wave = [Session(port, f"user{i}") for i in range(start, min(args.sessions, start + 10))]
            await asyncio.gather(*(s.open() for s in wave))
            sessions.extend(wave)
        connect_s = time.monotonic() - t0
        watchers = sessions[: args.tables]
        for s in watchers:  # each opens a table of bots and watches it
            assert s.process is not None
            s.process.stdin.write(b"n")
            await asyncio.sleep(0.5)
            bots = ",".join([args.table_bot] * 5).encode()
            # 5 players, the bots, "I take a seat" off, open: a step at a time (the form refills the
            # bots field when the player count changes)
            for keys in (b"\x7f", b"5", b"\t", b"\x7f" * 60, bots, b"\t", b"\t", b" ", b"\x1b[Z", b"\r"):
                s.process.stdin.write(keys)
                await asyncio.sleep(0.4)
        await asyncio.sleep(2)
        for s in sessions[args.tables :]:
            assert s.process is not None
            s.process.stdin.write(b"c")  # into the chat line
        await asyncio.sleep(2)
        loaded = rss_mb(server.pid)
        typists = sessions[args.tables :]
        for s in typists:
            s.latencies.clear()
        stop = time.monotonic() + args.seconds
        cpu0 = (cpu_s(server.pid), time.process_time())

        async def typist(s: Session) -> None:
            letters = "abcdefghijklmnopqrstuvwxyz"
            i = random.randrange(26)
            await asyncio.sleep(random.random() / args.rate)
            while time.monotonic() < stop:
                await s.key(letters[i % 26])
                i += 1
                await asyncio.sleep(random.uniform(0.5, 1.5) / args.rate)

        await asyncio.gather(*(typist(s) for s in typists))
        server_cpu = (cpu_s(server.pid) - cpu0[0]) / args.seconds
        client_cpu = (time.process_time() - cpu0[1]) / args.seconds
        latencies = sorted(x * 1000 for s in typists for x in s.latencies)
        peak = rss_mb(server.pid)
        q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
        result = {
            "sessions": float(args.sessions),
            "tables_of_bots_watched": float(args.tables),
            "table_bot": args.table_bot,  # type: ignore[dict-item]
            "tables_started": float(len(started)),
            "keystrokes": float(len(latencies)),
            "timeouts": float(sum(s.errors for s in typists)),
            "p50_ms": round(q[49], 1),
            "p95_ms": round(q[94], 1),
            "max_ms": round(latencies[-1], 1) if latencies else 0.0,
            "rss_base_mb": round(base, 1),
            "rss_loaded_mb": round(loaded, 1),
            "rss_peak_mb": round(peak, 1),
            "mb_per_session": round((peak - base) / args.sessions, 2),
            "connect_all_s": round(connect_s, 1),
            "server_cpu_share": round(server_cpu, 2),
            "client_cpu_share": round(client_cpu, 2),
        }
        drain_task.cancel()
        if args.verbose:
            per = sorted(
                (statistics.median(s.latencies) * 1000, s.name, len(s.latencies)) for s in typists if s.latencies
            )
            firsts = [s.latencies[0] * 1000 for s in typists if s.latencies]
            rest = sorted(x * 1000 for s in typists for x in s.latencies[1:])
            print(
                f"first keys: median {statistics.median(firsts):.0f} ms; other keys p95 "
                f"{statistics.quantiles(rest, n=100)[94]:.0f} ms max {rest[-1]:.0f} ms",
                file=sys.stderr,
            )
            print(
                "slowest sessions (median ms, name, keys):",
                [(round(m), n, k) for m, n, k in per[-12:]],
                file=sys.stderr,
            )
        return result
    finally:
        for s in sessions:
            await s.close()
        with contextlib.suppress(ProcessLookupError):
            server.terminate()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait(), 10)
        with contextlib.suppress(ProcessLookupError):
            server.kill()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--rate", type=float, default=1.0, help="keystrokes per second per session")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--tables", type=int, default=0, help="tables of bots, each watched by one session")
    parser.add_argument("--table-bot", default="random", help="the offered bot at those tables (e.g. ismcts)")
    print(json.dumps(asyncio.run(main(parser.parse_args())), indent=2))
