"""A Saloon SSH server in its own process (as an operator runs it), for tests that measure the process.

The server runs :func:`tui.server.run_server` (the operator's garbage-collector policy included) on
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

__all__ = ["ServerProcess", "server_process"]

ROOT = Path(__file__).resolve().parents[2]

_SERVER = """
import asyncio, logging, sys
from lobby.tables import ServerConfig
from tui.server import RateLimiter, SaloonServer, run_server
logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(message)s")
logging.getLogger("asyncssh").setLevel(logging.WARNING)
server = SaloonServer(sys.argv[1], port=0, config=ServerConfig(bot_delay_s=0.2),
                      limiter=RateLimiter(burst=1000, per_second=1000, max_concurrent=1000))
asyncio.run(run_server(server))
"""


class ServerProcess:
    """A running server process: its ``pid``, ``port`` and the log lines it wrote so far (``log``)."""

    def __init__(self, process: asyncio.subprocess.Process, port: int) -> None:
        self.process = process
        self.pid = process.pid
        self.port = port
        self.log: list[str] = []

    def rss_bytes(self) -> int:
        """The process's resident set size in bytes."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise RuntimeError("no VmRSS")

    def cpu_s(self) -> float:
        """User + system CPU seconds the process used so far."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.asynccontextmanager
async def server_process(data_dir: Path) -> AsyncIterator[ServerProcess]:
    """Start a server process with its data in ``data_dir``; stop it (SIGTERM, then SIGKILL) on exit."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _SERVER, str(data_dir), cwd=str(ROOT), stderr=asyncio.subprocess.PIPE
    )
    assert process.stderr is not None
    drain: asyncio.Task[None] | None = None
    try:
        port = 0
        seen: list[str] = []
        while not port:
            line = (await asyncio.wait_for(process.stderr.readline(), 30)).decode(errors="replace")
            if not line:
                raise RuntimeError("the server process did not start:\n" + "".join(seen))
            seen.append(line)
            match = re.search(r"listening on \S+ port (\d+)", line)
            port = int(match.group(1)) if match else 0
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
