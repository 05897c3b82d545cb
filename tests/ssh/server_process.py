"""A Saloon SSH server in its own process (as an operator runs it), for tests that measure the process.

The server runs :func:`serve.ssh_server.run_server` (the operator's garbage-collector policy included) on
127.0.0.1 with a free port and a temporary data directory, with generous connection limits; the
test reads its RSS and CPU time from ``/proc``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path

__all__ = ["ServerProcess", "cpu_s", "listening_port", "rss_mb", "server_process"]

ROOT = Path(__file__).resolve().parents[2]

_SERVER = """
import asyncio, logging, sys
from lobby.tables import ServerConfig
from serve.ssh_server import RateLimiter, SaloonServer, run_server
logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(message)s")
logging.getLogger("asyncssh").setLevel(logging.WARNING)
server = SaloonServer(sys.argv[1], port=0, config=ServerConfig(bot_delay_s=0.2),
                      limiter=RateLimiter(burst=1000, per_second=1000, max_concurrent=1000))
asyncio.run(run_server(server))
"""


def rss_mb(pid: int) -> float:
    """The resident set size of process ``pid`` in MiB (from ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def cpu_s(pid: int) -> float:
    """User + system CPU seconds process ``pid`` used so far (from ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def listening_port(stderr: asyncio.StreamReader, timeout: float = 30) -> tuple[int, list[str]]:
    """Read a starting server's log until it says it listens.

    Returns:
        The port and the log lines read.

    Raises:
        RuntimeError: the log ended first (the process exited), with what it said.
        TimeoutError: no line came within ``timeout`` seconds.
    """
    seen: list[str] = []
    while True:
        line = (await asyncio.wait_for(stderr.readline(), timeout)).decode(errors="replace")
        if not line:
            raise RuntimeError("the server process did not start:\n" + "".join(seen))
        seen.append(line)
        match = re.search(r"listening on \S+ port (\d+)", line)
        if match:
            return int(match.group(1)), seen


class ServerProcess:
    """A running server process: its ``pid``, ``port`` and the log lines it wrote so far (``log``)."""

    def __init__(self, process: asyncio.subprocess.Process, port: int) -> None:
        self.process = process
        self.pid = process.pid
        self.port = port
        self.log: list[str] = []

    def rss_bytes(self) -> int:
        """The process's resident set size in bytes."""
        return int(rss_mb(self.pid) * 1024 * 1024)

    def cpu_s(self) -> float:
        """User + system CPU seconds the process used so far."""
        return cpu_s(self.pid)


@contextlib.asynccontextmanager
async def server_process(data_dir: Path) -> AsyncIterator[ServerProcess]:
    """Start a server process with its data in ``data_dir``; stop it (SIGTERM, then SIGKILL) on exit."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _SERVER, str(data_dir), cwd=str(ROOT), stderr=asyncio.subprocess.PIPE
    )
    assert process.stderr is not None
    drain: asyncio.Task[None] | None = None
    try:
        port, seen = await listening_port(process.stderr)
        server = ServerProcess(process, port)
        server.log.extend(seen)

        async def read_log() -> None:
            assert process.stderr is not None
            while line := await process.stderr.readline():
                server.log.append(line.decode(errors="replace"))

        drain = asyncio.get_running_loop().create_task(read_log())
        yield server
    finally:
        if drain is not None:
            drain.cancel()
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        try:
            await asyncio.wait_for(process.wait(), 10)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
