"""Load benchmark of the saloon (a script, not a timed test): many concurrent SSH and browser sessions.

    python tests/bench/ssh_load.py [--workers N] [--sessions 100] [--web-share 0] [--typists N]
                                   [--seconds 30] [--rate 1.0] [--tables 5] [--bots SPEC] [--ladder N]
                                   [--burst N] [--burst-at S] [--profile PATH] [--verbose]

The server, on 127.0.0.1 with free ports and a temporary data directory:

* with ``--workers N``: the real thing, as an operator runs it: ``python -m saloon serve --host
  127.0.0.1 --port 0 --web 0 --workers N --data-dir TMP --house-bot none --bot-delay 0.5
  --log-file -`` (plus ``--bot bench=SPEC`` for a ``--bots`` spec the server does not offer).
  ``--workers 1`` is one process (the hall and one front); more is the supervisor with the hall
  and N front processes (``docs/hall.md``). The server keeps its own connection limits
  (:class:`serve.limits.RateLimiter`'s defaults, per address): every session connects from its own
  loopback address (127.10.x.y), as people do from theirs, so the limits never refuse the load.
* without ``--workers``: the old one-process script (:class:`serve.ssh_server.SaloonServer` under
  :func:`serve.ssh_server.run_server` in a ``python -c`` program, with generous limits, a lag probe
  and a garbage-collection callback that log to stderr, and ``--profile``), which the figures of
  issues 4, 5 and 26 were measured with.

The client, this process, connects ``--sessions`` sessions in waves of ten: ``--web-share`` of
them are browser sessions (aiohttp websockets speaking textual.js's protocol, each signed in with
its own one-time link from ``ssh ... web``), the rest asyncssh clients with a PTY; all 120x40
(xterm-256color). ``--typists`` of them (default: all but the watchers below, SSH and browser in
the ``--web-share`` proportion) type into the lobby's chat line, one keystroke per ``1/--rate``
seconds (jittered), for ``--seconds``; the others stay in the lobby.

With ``--tables N``, N of the SSH sessions each open a table of four bots through the lobby's
new-table form (nobody sits) and watch it, so their screens redraw as the bots move, and the
lobby's table list changes for every session as games start and end. Each of them opens its table
and checks in the server's log that it started (up to five tries), and opens the next one as soon
as a game ends, so N tables play during the whole measurement. ``--bots`` picks the bots: a name
the server offers (``random``, ``heuristic``, ``ismcts``, ``quick``, ``strong``), or any bot spec,
which the server then offers as ``bench`` (``--bots ismcts:ms=100``). Search bots think in the
hall's worker processes (:mod:`bots.workers`), never on an event loop that draws screens.

With ``--ladder N``, N more connections run ``ladder --game deadwood1876 --players 2`` as random
bots (no PTY) and play rated games one after another all through the measurement.

With ``--burst N``, ``--burst-at`` seconds into the measurement (default: a third of it) N more
sessions (``--web-share`` of them browser sessions) log in at once, each from its own address, and
stay in the lobby. The burst's window runs from its first connection to 2.5 s after the last of
them shows its lobby (the server's collector collects for 2 s after the latest start); the report
gives the other sessions' keystrokes that were waiting at some moment of the window: how many,
their p95 and max, and the timeouts among them.

Reports (JSON):

* keystroke-to-screen latency (p50, p95, p99, max; all typists, then per transport): from sending
  a key to receiving the first screen update that contains the typed character; timeouts (no
  update within 5 s);
* memory of the whole server process tree (the hall or supervisor, every front, the search
  workers): the sum of RSS (pages shared between processes counted in each) and of PSS (shared
  pages divided among them), before the first session, with every session open and tables
  playing, and at the end; per session: (RSS at the end - RSS before) / sessions opened;
* CPU shares (CPU seconds / wall seconds) during the measurement: the whole tree, the hall's (or
  the one server's) process, the fronts together, the other processes (search workers), and
  this client's;
* tables asked for, tables playing when the measurement began, games started and finished during
  it, the bots' faults in the recorded games, ladder games finished during it;
* without ``--workers``: the server's garbage-collection pauses over 50 ms (the ten longest, in
  ms) while the sessions connected and during the measurement.

Targets: issues 4 and 5: p95 <= 100 ms and <= 20 MB per session with 100 sessions on a 2-core
machine; issue 35: with ``--workers 2``, 200 sessions (100 SSH, 100 browser) and 10 watched tables
of random bots, p95 <= 100 ms, p99 <= 250 ms, no timeouts; a burst of 20 logins while 100
sessions type delays no other keystroke past 200 ms. ``tests/bench/load_curve.py`` runs this
script at several sizes for 1 and 2 workers. Latencies depend on whatever else runs on the
machine (this client included: its CPU share is reported): compare runs made back to back.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import resource
import signal
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import aiohttp
import asyncssh

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from lobby.tables import DEFAULT_SERVER_BOTS  # noqa: E402
from tests.ssh.termclient import connect  # noqa: E402
from tests.ssh.test_ladder import LadderBot  # noqa: E402

_SERVER = """
import asyncio, json, logging, sys
from serve.ssh_server import RateLimiter, SaloonServer, run_server
from lobby.tables import DEFAULT_SERVER_BOTS, ServerConfig
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
if sys.argv[3]:  # --profile: SIGUSR1 starts profiling the server, SIGUSR2 writes the profile there
    import cProfile, signal
    _profile = cProfile.Profile()
    signal.signal(signal.SIGUSR1, lambda *_: _profile.enable())
    def _dump(*_):
        _profile.disable()
        _profile.dump_stats(sys.argv[3])
    signal.signal(signal.SIGUSR2, _dump)
bots = {**DEFAULT_SERVER_BOTS, **json.loads(sys.argv[2])}
server = SaloonServer(sys.argv[1], port=0, config=ServerConfig(bot_delay_s=0.5, bots=bots),
                      limiter=RateLimiter(burst=1000, per_second=1000, max_concurrent=1000))
if sys.argv[4]:  # the browser page too
    from serve.web import WebConfig, WebServer
    WebServer(server, "127.0.0.1", 0, config=WebConfig(signin_burst=1000, signin_per_s=1000))
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

OFFERED = tuple(DEFAULT_SERVER_BOTS)
"""The bot names the benchmark's server offers as they are; any other ``--bots`` is offered as ``bench``."""

SEATS = 4
"""Players at each table of bots: the new-table form's default number (editing it is another key to lose)."""

TAIL_BYTES = 65536
"""How much of its latest output each session keeps (to find the new-table form on screen)."""

LOBBY = b"new table"
"""What the lobby shows once drawn (its header's keys)."""

KEY_TIMEOUT_S = 5.0
"""A keystroke whose screen update has not come after this long counts as a timeout."""

BURST_TAIL_S = 2.5
"""How long the burst's window lasts after its last session shows the lobby (the collector's 2 s, and a margin)."""

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def address(number: int) -> str:
    """The loopback address the client's ``number``-th connection comes from (127.10.0.2, 127.10.0.3, ...)."""
    return f"127.{10 + number // 62500}.{(number // 250) % 250}.{number % 250 + 2}"


# The server's process tree ------------------------------------------------------------------------


def tree_pids(root: int) -> list[int]:
    """``root`` and every process descended from it (the fronts, the search workers, their helpers)."""
    children: dict[int, list[int]] = defaultdict(list)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            children[int(stat.read_text().rsplit(")", 1)[1].split()[1])].append(int(stat.parent.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


def _cpu_s(pid: int) -> float:
    """CPU seconds of ``pid`` and of its children that exited and were waited for (utime, stime, cutime, cstime)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / CLOCK_TICKS


def _memory_kb(pid: int, field: str, source: str) -> int:
    for line in Path(f"/proc/{pid}/{source}").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


class BenchServer:
    """The server under load: its process, ports and log, and measurements of its process tree.

    ``start`` starts it (see the module docstring); ``log_readers`` get each line of its log.
    """

    def __init__(self, process: asyncio.subprocess.Process, command: list[str], workers: int | None) -> None:
        self.process = process
        self.pid = process.pid
        self.command = command
        self.workers = workers
        self.ssh_port = 0
        self.web_port = 0
        self.log_readers: list[object] = []
        self._drain: asyncio.Task[None] | None = None

    @classmethod
    async def start(
        cls, data: Path, workers: int | None, bots: str = "random", web: bool = True, profile: str | None = None
    ) -> BenchServer:
        """Start the server with its data in ``data``; ``bots`` as ``--bots`` (a name it offers, or a spec
        offered as ``bench``); ``web``: the browser page too. Returns once it listens."""
        extra = {} if bots in OFFERED else {"bench": bots}
        if workers is None:
            command = [sys.executable, "-c", _SERVER, str(data), json.dumps(extra), profile or "", "web" if web else ""]
        else:
            if profile:
                raise ValueError("--profile needs the one-process script (no --workers)")
            command = [
                sys.executable, "-m", "saloon", "serve", "--host", "127.0.0.1", "--port", "0",
                "--workers", str(workers), "--data-dir", str(data), "--house-bot", "none",
                "--bot-delay", "0.5", "--log-file", "-",
            ]  # fmt: skip
            if web:
                command += ["--web", "0"]
            for name, spec in extra.items():
                command += ["--bot", f"{name}={spec}"]
        process = await asyncio.create_subprocess_exec(
            *command, cwd=str(ROOT), stdin=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
        )
        server = cls(process, command, workers)
        try:
            await server._ports(web)
        except BaseException:
            await server.stop()
            raise
        server._drain = asyncio.get_running_loop().create_task(server._read_log())
        return server

    async def _ports(self, web: bool, timeout: float = 60) -> None:
        assert self.process.stderr is not None
        seen: list[str] = []
        while not (self.ssh_port and (self.web_port or not web)):
            line = (await asyncio.wait_for(self.process.stderr.readline(), timeout)).decode(errors="replace")
            if not line:
                raise RuntimeError("the server did not start:\n" + "".join(seen))
            seen.append(line)
            if found := re.search(r"listening on \S+ port (\d+)", line):
                self.ssh_port = int(found.group(1))
            if found := re.search(r"browser page on \S+ port (\d+)", line):
                self.web_port = int(found.group(1))

    async def _read_log(self) -> None:
        assert self.process.stderr is not None
        while True:
            try:
                line = await self.process.stderr.readline()
            except (ValueError, asyncio.LimitOverrunError):
                continue
            if not line:
                return
            text = line.decode(errors="replace")
            for reader in self.log_readers:
                reader(text)  # type: ignore[operator]

    def pids(self) -> list[int]:
        """The server's processes now (the first is the one started)."""
        return tree_pids(self.pid)

    def role(self, pid: int) -> str:
        """``hall`` (the process started: the supervisor and its hall, or the one server), ``fronts``
        (``serve.front`` processes) or ``others`` (search workers and their helpers)."""
        if pid == self.pid:
            return "hall"
        with contextlib.suppress(OSError):
            if b"serve.front" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return "fronts"
        return "others"

    def cpu(self) -> dict[int, tuple[str, float]]:
        """Each process's role and CPU seconds so far (see :meth:`cpu_shares`)."""
        found = {}
        for pid in self.pids():
            with contextlib.suppress(OSError, IndexError, ValueError):
                found[pid] = (self.role(pid), _cpu_s(pid))
        return found

    @staticmethod
    def cpu_shares(
        before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]], seconds: float
    ) -> dict[str, float]:
        """CPU seconds per wall second between two :meth:`cpu` readings, per role and for the tree
        (``tree``): a process started between them counts from zero; one that exited counts through
        its parent's cutime/cstime once waited for."""
        shares = {"tree": 0.0, "hall": 0.0, "fronts": 0.0, "others": 0.0}
        for pid, (role, cpu) in after.items():
            used = cpu - before.get(pid, (role, 0.0))[1]
            shares[role] += used
            shares["tree"] += used
        return {role: round(used / seconds, 2) for role, used in shares.items()}

    def memory(self) -> dict[str, float]:
        """The tree's RSS and PSS sums in MiB and its number of processes."""
        rss = pss = 0
        pids = self.pids()
        for pid in pids:
            with contextlib.suppress(OSError):
                rss += _memory_kb(pid, "VmRSS", "status")
                pss += _memory_kb(pid, "Pss", "smaps_rollup")
        return {"rss_mb": round(rss / 1024, 1), "pss_mb": round(pss / 1024, 1), "processes": len(pids)}

    def signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(sig)

    async def stop(self) -> None:
        """SIGTERM (the supervisor stops its fronts, then the hall), SIGKILL to the tree after 20 s."""
        pids = self.pids()
        self.signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), 20)
        except TimeoutError:
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            await self.process.wait()
        if self._drain is not None:
            self._drain.cancel()


class ServerLog:
    """What the server's log says about tables: who opened which, which started and which ended."""

    def __init__(self) -> None:
        self.opened: dict[str, list[str]] = defaultdict(list)  # creator -> table codes, oldest first
        self.started: set[str] = set()
        self.over: set[str] = set()
        self.lines = 0

    def read(self, line: str) -> None:
        """Take one line of the server's log (after its time stamp, if any)."""
        self.lines += 1
        if match := re.search(r"table (\w+): \S+ for \d+ opened by (\S+)", line):
            self.opened[match.group(2)].append(match.group(1))
        elif match := re.search(r"table (\w+): \S+ started for ", line):
            self.started.add(match.group(1))
        elif match := re.search(r"table (\w+): over;", line):
            self.over.add(match.group(1))


async def until(predicate: object, timeout: float) -> bool:
    """Poll ``predicate()`` every 50 ms; whether it held within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


# The clients --------------------------------------------------------------------------------------


class Typist:
    """What every load client shares, whatever its transport: the output's tail and size, and
    keystroke latencies (:meth:`key`: from sending a character to the first output holding it).
    A transport feeds what it reads to :meth:`received` and sends with :meth:`write`; it connects
    from ``source`` (a loopback address)."""

    transport = ""

    def __init__(self, name: str, source: str = "127.0.0.1") -> None:
        self.name = name
        self.source = source
        self.ssh_key = asyncssh.generate_private_key("ssh-ed25519")
        self.waiting: tuple[bytes, float, asyncio.Future[float]] | None = None
        self.output = 0
        self.tail = b""
        self.latencies: list[float] = []
        self.samples: list[tuple[float, float]] = []
        """Every keystroke as (sent at, ``time.perf_counter()``; latency in s, ``math.inf`` if it timed out)."""
        self.errors = 0
        self._reader: asyncio.Task[None] | None = None

    def received(self, data: bytes) -> None:
        """Output from the server: kept in the tail; it ends the wait of :meth:`key` if it shows the key."""
        self.output += len(data)
        self.tail = (self.tail + data)[-TAIL_BYTES:]
        waiting = self.waiting
        if waiting is not None and waiting[0] in data and not waiting[2].done():
            waiting[2].set_result(time.perf_counter() - waiting[1])

    def write(self, keys: bytes) -> None:
        """Send ``keys``: each transport's own."""
        raise NotImplementedError

    async def open(self) -> None:
        """Connect and wait for the lobby: each transport's own."""
        raise NotImplementedError

    async def close(self) -> None:
        """Disconnect: each transport's own."""
        raise NotImplementedError

    def forget(self) -> None:
        """Forget the keystrokes so far (before a measurement)."""
        self.latencies.clear()
        self.samples.clear()
        self.errors = 0

    async def key(self, char: str) -> None:
        """Type ``char`` and wait for the screen update that shows it."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        sent = time.perf_counter()
        self.waiting = (char.encode(), sent, future)
        self.write(char.encode())
        try:
            latency = await asyncio.wait_for(future, KEY_TIMEOUT_S)
            self.latencies.append(latency)
            self.samples.append((sent, latency))
        except TimeoutError:
            self.errors += 1
            self.samples.append((sent, math.inf))
        finally:
            self.waiting = None

    async def shows(self, needle: bytes, since: int, timeout: float) -> bool:
        """Whether ``needle`` is output after the first ``since`` bytes, within ``timeout`` seconds."""

        def found() -> bool:
            start = max(0, len(self.tail) - (self.output - since))
            return needle in self.tail[start:]

        return await until(found, timeout)


class Session(Typist):
    """One PTY client (asyncssh, 120x40), ready once the lobby is drawn."""

    transport = "ssh"

    def __init__(self, port: int, name: str, source: str = "127.0.0.1") -> None:
        super().__init__(name, source)
        self.port = port
        self.conn: asyncssh.SSHClientConnection | None = None
        self.process: asyncssh.SSHClientProcess[bytes] | None = None

    async def open(self) -> None:
        self.conn = await connect(self.port, self.name, self.ssh_key, local_addr=(self.source, 0))
        self.process = await self.conn.create_process(term_type="xterm-256color", term_size=(120, 40), encoding=None)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        if not await self.shows(LOBBY, 0, 30):
            raise TimeoutError(f"{self.name}: no lobby")

    async def _read(self) -> None:
        assert self.process is not None
        while True:
            try:
                data = await self.process.stdout.read(65536)
            except (asyncssh.Error, OSError):
                return
            if not data:
                return
            self.received(data)

    def write(self, keys: bytes) -> None:
        assert self.process is not None
        self.process.stdin.write(keys)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        if self.conn is not None:
            self.conn.close()


class WebSession(Typist):
    """One browser session over the websocket (120x40), signed in with a one-time link from ``ssh ... web``."""

    transport = "web"

    def __init__(self, ssh_port: int, web_port: int, name: str, source: str = "127.0.0.1") -> None:
        super().__init__(name, source)
        self.ssh_port = ssh_port
        self.base = f"http://127.0.0.1:{web_port}"
        self.client: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None

    async def open(self) -> None:
        conn = await connect(self.ssh_port, self.name, self.ssh_key, local_addr=(self.source, 0))
        try:
            result = await conn.run("web", encoding="utf-8", timeout=20)
        finally:
            conn.close()
        token = re.search(r"/signin#(\S+)", str(result.stdout))
        if token is None:
            raise RuntimeError(f"{self.name}: no sign-in link: {result.stderr}")
        self.client = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(self.source, 0)), cookie_jar=aiohttp.CookieJar(unsafe=True)
        )
        async with self.client.post(
            self.base + "/signin", data={"token": token.group(1)}, headers={"Origin": self.base}, allow_redirects=False
        ) as response:
            if response.status != 303:
                raise RuntimeError(f"{self.name}: sign-in refused ({response.status})")
        url = self.base.replace("http:", "ws:") + "/ws?width=120&height=40"
        self.ws = await self.client.ws_connect(url, headers={"Origin": self.base})
        self._reader = asyncio.get_running_loop().create_task(self._read())
        if not await self.shows(LOBBY, 0, 30):
            raise TimeoutError(f"{self.name}: no lobby")

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


def raise_open_files() -> int:
    """Raise this process's limit of open files to its hard limit (the server started from here
    inherits it: a thousand sessions hold a thousand sockets); returns the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def quantiles(values: list[float]) -> dict[str, float | int]:
    """How many ``values`` (seconds) and their p50, p95, p99 and max in ms."""
    ms = sorted(v * 1000 for v in values)
    if len(ms) > 1:
        q = statistics.quantiles(ms, n=100, method="inclusive")
    else:
        q = [ms[0] if ms else 0.0] * 99
    return {
        "keystrokes": len(ms),
        "p50_ms": round(q[49], 1),
        "p95_ms": round(q[94], 1),
        "p99_ms": round(q[98], 1),
        "max_ms": round(ms[-1], 1) if ms else 0.0,
    }


async def open_table(s: Session, log: ServerLog, bot: str, tries: int = 5) -> str | None:
    """From the lobby, open a table of :data:`SEATS` ``bot`` bots that ``s`` watches; its code once it started.

    The form is typed a field at a time, once it is on screen, and sent only once it says "4 bots;
    the game starts at once" (under load a key typed into the form may be lost); a try counts if
    the server's log says a table of ``s`` opened and started. After a failed try, Esc closes the
    form.
    """
    bots = ",".join([bot] * SEATS).encode()
    for _ in range(tries):
        known = len(log.opened[s.name])
        mark = s.output
        s.write(b"n")
        if await s.shows(b"Enter opens it", mark, 15):
            await asyncio.sleep(2.0)  # the game field takes the focus after the form is drawn (late under load)
            # past the game and the form's 4 players, the bots, past the options, "I take a seat" off,
            # back to the options (where Enter opens the table; on the checkbox it would toggle it)
            mark = s.output
            for keys in (b"\t", b"\t", b"\x7f" * 80, bots, b"\t", b"\t", b" ", b"\x1b[Z"):
                s.write(keys)
                await asyncio.sleep(0.4)
            if not await s.shows(b"4 bots; the game starts at once", mark, 10):
                print(f"{s.name}: the form does not say 4 bots; trying again", file=sys.stderr)
                s.write(b"\x1b")
                await asyncio.sleep(1.0)
                continue
            s.write(b"\r")
            if await until(lambda known=known: len(log.opened[s.name]) > known, 10):  # type: ignore[misc]
                code = log.opened[s.name][-1]
                if await until(lambda code=code: code in log.started, 10):  # type: ignore[misc]
                    return code
                print(f"{s.name}: table {code} opened but did not start", file=sys.stderr)
                return None
            print(f"{s.name}: no table opened; trying again", file=sys.stderr)
        else:
            print(f"{s.name}: no new-table form; trying again", file=sys.stderr)
        s.write(b"\x1b")  # close the form (or a message) and try again
        await asyncio.sleep(1.0)
    return None


async def keep_a_table(s: Session, log: ServerLog, bot: str, stop: float, first: asyncio.Future[str | None]) -> int:
    """Keep a table of bots playing that ``s`` watches until ``stop`` (``time.monotonic()``): when a
    game ends, back to the lobby (``l``) and open the next. Sets ``first`` to the first table's
    code (``None`` if it never started); returns how many tables started."""
    started = 0
    while time.monotonic() < stop:
        code = await open_table(s, log, bot)
        if not first.done():
            first.set_result(code)
        if code is None:
            break
        started += 1
        await until(lambda code=code: code in log.over, stop - time.monotonic())  # type: ignore[misc]
        if time.monotonic() < stop:
            await asyncio.sleep(1.0)  # the game's end on screen
            s.write(b"l")  # back to the lobby (the result screen's key, and the table's; Ctrl+L is the table's only)
            await asyncio.sleep(1.0)
    return started


def bot_faults(data: Path) -> int:
    """The bot faults recorded in the finished games' replays under ``data``."""
    import replays

    total = 0
    for path in data.rglob("*.replay"):
        with contextlib.suppress(Exception):
            total += len(replays.load(path).faults)
    return total


async def open_sessions(group: list[Typist], opened: list[Typist], wave: int = 10) -> None:
    """Connect ``group`` ``wave`` at a time, each wave once the previous one shows its lobbies
    (added to ``opened``, to be closed, even if one of them failed)."""
    for start in range(0, len(group), wave):
        clients = group[start : start + wave]
        results = await asyncio.gather(*(s.open() for s in clients), return_exceptions=True)
        opened.extend(clients)
        for result in results:
            if isinstance(result, BaseException):
                raise result


def make_sessions(
    server: BenchServer, prefix: str, count: int, web_share: float, first_address: int
) -> tuple[list[Session], list[WebSession]]:
    """``count`` clients not yet connected: ``round(count * web_share)`` of them browser sessions."""
    n_web = round(count * web_share)
    ssh = [Session(server.ssh_port, f"{prefix}{i}", address(first_address + i)) for i in range(count - n_web)]
    web = [
        WebSession(server.ssh_port, server.web_port, f"{prefix}w{i}", address(first_address + count + i))
        for i in range(n_web)
    ]
    return ssh, web


async def burst_of_logins(
    server: BenchServer, count: int, web_share: float, at: float, opened: list[Typist]
) -> dict[str, object]:
    """After ``at`` seconds, ``count`` sessions log in at once; the burst's window and its logins' times."""
    await asyncio.sleep(at)
    ssh, web = make_sessions(server, "burst", count, web_share, 50_000)
    group: list[Typist] = [*ssh, *web]
    opened.extend(group)

    async def login(s: Typist) -> float:
        t = time.perf_counter()
        await s.open()
        return time.perf_counter() - t

    start = time.perf_counter()
    results = await asyncio.gather(*(login(s) for s in group), return_exceptions=True)
    last = time.perf_counter()
    times = sorted(r for r in results if isinstance(r, float))
    for r in results:
        if isinstance(r, BaseException):
            print(f"burst: a login failed: {r!r}", file=sys.stderr)
    return {
        "start": start,
        "end": last + BURST_TAIL_S,
        "logins": count,
        "ssh": len(ssh),
        "web": len(web),
        "failed": len(results) - len(times),
        "login_s_median": round(statistics.median(times), 2) if times else None,
        "login_s_max": round(times[-1], 2) if times else None,
    }


def in_window(typists: list[Typist], start: float, end: float) -> list[float]:
    """The latencies (``math.inf``: a timeout) of the keystrokes waiting at some moment in [start, end]."""
    return [lat for s in typists for sent, lat in s.samples if sent <= end and sent + lat >= start]


async def main(args: argparse.Namespace) -> dict[str, object]:
    open_files = raise_open_files()
    data = Path(tempfile.mkdtemp(prefix="saloon-bench-"))
    bot = args.bots if args.bots in OFFERED else "bench"
    web = args.web_share > 0
    server = await BenchServer.start(data, args.workers, args.bots, web=web, profile=args.profile)
    sessions: list[Typist] = []
    burst_sessions: list[Typist] = []
    log = ServerLog()
    keepers: list[asyncio.Task[int]] = []
    ladder_stop = asyncio.Event()
    ladder_runs: list[asyncio.Task[None]] = []
    gc_pauses: list[float] = []  # every collection over 50 ms, in milliseconds (the script's gc callback)

    def gc_line(line: str) -> None:
        if match := re.match(r"GC gen\d+ (\d+) ms", line):
            gc_pauses.append(float(match[1]))
        if args.verbose and line.startswith(("GC", "LAG")):
            sys.stderr.write(line)

    server.log_readers += [log.read, gc_line]
    try:
        await asyncio.sleep(0.5)
        base = server.memory()
        ssh, web_sessions = make_sessions(server, "user", args.sessions, args.web_share, 0)
        if args.tables > len(ssh):
            raise SystemExit(f"--tables {args.tables}: only {len(ssh)} SSH sessions to watch them")
        t0 = time.monotonic()
        await open_sessions([*ssh, *web_sessions], sessions)
        connect_s = time.monotonic() - t0
        watchers = ssh[: args.tables]
        rest_ssh, rest_web = ssh[args.tables :], web_sessions
        if args.typists is None:
            typists: list[Typist] = [*rest_ssh, *rest_web]
        else:
            n_web = min(len(rest_web), round(args.typists * args.web_share))
            n_ssh = args.typists - n_web
            if n_ssh > len(rest_ssh):
                raise SystemExit(
                    f"--typists {args.typists}: only {len(rest_ssh) + len(rest_web)} sessions not watching"
                )
            typists = [*rest_ssh[:n_ssh], *rest_web[:n_web]]
        for s in typists:
            s.write(b"c")  # into the chat line
        connected = server.memory()
        stop = float("inf")  # the keepers are cancelled once the measurement is over
        firsts: list[asyncio.Future[str | None]] = [asyncio.get_running_loop().create_future() for _ in watchers]
        keepers = [
            asyncio.get_running_loop().create_task(keep_a_table(s, log, bot, stop, f))
            for s, f in zip(watchers, firsts, strict=True)
        ]
        first_codes = await asyncio.gather(*firsts)
        playing = sum(1 for code in first_codes if code is not None)
        ladder_bots = [
            LadderBot(server.ssh_port, f"ladder{i}", "random", players="2", seed=i) for i in range(args.ladder)
        ]
        ladder_runs = [asyncio.get_running_loop().create_task(b.run(ladder_stop)) for b in ladder_bots]
        await asyncio.sleep(2)
        loaded = server.memory()
        for s in typists:
            s.forget()
        games_before = (len(log.started), len(log.over))
        ladder_before = sum(len(b.places) for b in ladder_bots)
        measure_start = time.monotonic()
        measure_end = measure_start + args.seconds
        measure_end_pc = time.perf_counter() + args.seconds
        gc_before = len(gc_pauses)
        cpu0 = (server.cpu(), time.process_time())
        if args.profile:
            server.signal(signal.SIGUSR1)

        async def typist(s: Typist) -> None:
            letters = "abcdefghijklmnopqrstuvwxyz"
            i = random.randrange(26)
            await asyncio.sleep(random.random() / args.rate)
            while time.monotonic() < measure_end:
                await s.key(letters[i % 26])
                i += 1
                await asyncio.sleep(random.uniform(0.5, 1.5) / args.rate)

        burst_task = None
        if args.burst:
            at = args.seconds / 3 if args.burst_at is None else args.burst_at
            burst_task = asyncio.get_running_loop().create_task(
                burst_of_logins(server, args.burst, args.web_share, at, burst_sessions)
            )
        await asyncio.gather(*(typist(s) for s in typists))
        burst = await burst_task if burst_task is not None else None
        if args.profile:
            server.signal(signal.SIGUSR2)
        elapsed = time.monotonic() - measure_start
        cpu = BenchServer.cpu_shares(cpu0[0], server.cpu(), elapsed)
        client_cpu = (time.process_time() - cpu0[1]) / elapsed
        games = (len(log.started) - games_before[0], len(log.over) - games_before[1])
        ladder_games = sum(len(b.places) for b in ladder_bots) - ladder_before
        peak = server.memory()
        opened = len(sessions) + sum(1 for s in burst_sessions if s.output)
        result: dict[str, object] = {
            "server": "one-process script" if args.workers is None else f"saloon serve --workers {args.workers}",
            "server_processes": peak["processes"],
            "sessions": args.sessions,
            "ssh_sessions": len(ssh),
            "web_sessions": len(web_sessions),
            "typists": len(typists),
            "seconds": round(elapsed, 1),
            "tables_asked": args.tables,
            "bots": args.bots,
            "tables_started": playing,
            "games_started_during": games[0],
            "games_over_during": games[1],
            "ladder_bots": args.ladder,
            "ladder_games_during": ladder_games // 2,  # two players a game
            **quantiles([x for s in typists for x in s.latencies]),
            "timeouts": sum(s.errors for s in typists),
        }
        if web:
            for name, group in (
                ("ssh", [s for s in typists if s.transport == "ssh"]),
                ("web", [s for s in typists if s.transport == "web"]),
            ):
                result[name] = {
                    "typists": len(group),
                    **quantiles([x for s in group for x in s.latencies]),
                    "timeouts": sum(s.errors for s in group),
                }
        if burst is not None:
            window: tuple[float, float] = (burst.pop("start"), burst.pop("end"))  # type: ignore[assignment]
            waited = in_window(typists, *window)
            answered = [x for x in waited if math.isfinite(x)]
            q = quantiles(answered)
            burst = {
                **burst,
                "window_s": round(window[1] - window[0], 1),
                "window_ended_in_measurement": window[1] <= measure_end_pc,
                "others_keystrokes_in_window": len(waited),
                "others_timeouts_in_window": len(waited) - len(answered),
                "others_p95_ms_in_window": q["p95_ms"],
                "others_max_ms_in_window": q["max_ms"],
            }
            result["burst"] = burst
        result.update(
            {
                "rss_base_mb": base["rss_mb"],
                "rss_connected_mb": connected["rss_mb"],
                "rss_loaded_mb": loaded["rss_mb"],
                "rss_peak_mb": peak["rss_mb"],
                "pss_base_mb": base["pss_mb"],
                "pss_loaded_mb": loaded["pss_mb"],
                "pss_peak_mb": peak["pss_mb"],
                "mb_per_session": round((peak["rss_mb"] - base["rss_mb"]) / max(1, opened), 2),
                "pss_mb_per_session": round((peak["pss_mb"] - base["pss_mb"]) / max(1, opened), 2),
                "connect_all_s": round(connect_s, 1),
                "tree_cpu_share": cpu["tree"],
                "server_cpu_share": cpu["hall"],
                "fronts_cpu_share": cpu["fronts"],
                "workers_cpu_share": cpu["others"],
                "client_cpu_share": round(client_cpu, 2),
                "open_files_limit": open_files,
            }
        )
        if args.workers is None:
            result["gc_pauses_over_50ms_connecting"] = sorted(gc_pauses[:gc_before], reverse=True)[:10]
            result["gc_pauses_over_50ms_during"] = sorted(gc_pauses[gc_before:], reverse=True)[:10]
        for task in keepers:
            task.cancel()
        ladder_stop.set()
        for run in ladder_runs:
            run.cancel()
        result["bot_faults_in_replays"] = bot_faults(data)
        if args.verbose:
            per = sorted(
                (statistics.median(s.latencies) * 1000, s.name, len(s.latencies)) for s in typists if s.latencies
            )
            firsts_ms = [s.latencies[0] * 1000 for s in typists if s.latencies]
            rest = sorted(x * 1000 for s in typists for x in s.latencies[1:])
            if firsts_ms and len(rest) > 1:
                print(
                    f"first keys: median {statistics.median(firsts_ms):.0f} ms; other keys p95 "
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
        for task in keepers:
            task.cancel()
        for run in ladder_runs:
            run.cancel()
        for s in [*sessions, *burst_sessions]:
            with contextlib.suppress(Exception):
                await s.close()
        await server.stop()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="run `saloon serve --workers N` (1: one process); default: the old one-process script",
    )
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--web-share", type=float, default=0.0, help="the share of browser sessions (0..1)")
    parser.add_argument(
        "--typists", type=int, default=None, help="sessions that type (default: all but the tables' watchers)"
    )
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--rate", type=float, default=1.0, help="keystrokes per second per session")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument(
        "--profile", metavar="PATH", help="write a cProfile of the server during the measurement here (no --workers)"
    )
    parser.add_argument(
        "--tables", type=int, default=0, help="tables of four bots kept playing, each watched by an SSH session"
    )
    parser.add_argument(
        "--bots",
        "--table-bot",
        dest="bots",
        default="random",
        help="the bots at those tables: an offered name (random, heuristic, ismcts, quick, strong) or a bot spec",
    )
    parser.add_argument(
        "--ladder",
        type=int,
        default=0,
        help="ladder bots (random, 2-player Deadwood 1876) playing rated games throughout; they connect from "
        "127.0.0.1, so with --workers at most 10 at once (the server's per-address limits)",
    )
    parser.add_argument("--burst", type=int, default=0, help="sessions logging in at once during the measurement")
    parser.add_argument(
        "--burst-at", type=float, default=None, help="seconds into the measurement (default: a third of --seconds)"
    )
    return parser


if __name__ == "__main__":
    parser = build_parser()
    arguments = parser.parse_args()
    if arguments.profile and arguments.workers is not None:
        parser.error("--profile needs the one-process script (no --workers)")
    print(json.dumps(asyncio.run(main(arguments)), indent=2))
