"""The supervisor of ``saloon serve --workers N``: one hall in this process, N front processes.

Like gunicorn's arbiter, the supervisor starts the fronts (``python -m serve.front``, see
:mod:`serve.front`), writes their log lines into the saloon's log, and starts a new front in the
place of one that exits (a crash, ``kill -9``): the sessions of the dead front dropped like lost
connections, their seats wait for the grace time at the hall, and their people take them back
through any front. SIGINT or SIGTERM stops the fronts (SIGTERM, then SIGKILL after
:data:`STOP_GRACE_S`), then the hall. A front that keeps dying at once is started again at most
once a second (:data:`RESTART_PAUSE_S`).

The hall listens on a Unix socket in the data directory (mode 0600, ``DATA/hall.sock``; a path too
long for a Unix socket is put in the system's temporary folder instead) and, with
``hall_listen``, on TCP too, for fronts on other machines (``docs/hall.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import signal
import socket
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from serve.hall import Hall

__all__ = ["RESTART_PAUSE_S", "STOP_GRACE_S", "Supervisor", "free_port", "hall_socket_path"]

log = logging.getLogger("saloon.supervisor")

RESTART_PAUSE_S = 1.0
"""The least time between two starts of the same front."""

STOP_GRACE_S = 10.0
"""How long a front may take to stop after SIGTERM before it is killed."""


def hall_socket_path(data_dir: Path) -> str:
    """Where the hall's Unix socket goes: ``DATA/hall.sock``, or a temporary path for a long ``DATA``."""
    path = str(Path(data_dir).resolve() / "hall.sock")
    if len(path.encode()) < 100:
        return path
    digest = hashlib.sha256(path.encode()).hexdigest()[:16]
    return str(Path(tempfile.gettempdir()) / f"saloon-hall-{digest}.sock")


def free_port(host: str) -> int:
    """A port free on ``host`` now (for ``--port 0``: every front must bind the same one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


class _Front:
    def __init__(self, index: int) -> None:
        self.index = index
        self.process: asyncio.subprocess.Process | None = None
        self.started = 0.0
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()


class Supervisor:
    """One hall and ``workers`` fronts (see the module docstring).

    Args:
        hall: the hall (not started).
        workers: how many front processes.
        front_args: the fronts' command-line arguments after ``--hall``, ``--name`` (``--data-dir``,
            ``--host``, ``--port``, ``--web``...; see :mod:`serve.front`).
        hall_listen: also accept fronts at this ``tcp:HOST:PORT`` (``None``: only the Unix socket).
        tls: the TLS context of the TCP listener.
    """

    def __init__(
        self,
        hall: Hall,
        workers: int,
        front_args: Sequence[str],
        hall_listen: str | None = None,
        tls: Any = None,
    ) -> None:
        self.hall = hall
        self.workers = workers
        self.front_args = list(front_args)
        self.hall_listen = hall_listen
        self.tls = tls
        self.address = ""
        self.tcp_address: str | None = None
        self.fronts = [_Front(i + 1) for i in range(workers)]
        self.restarts = 0
        self._stopping = False

    async def start(self) -> None:
        """Start the hall, its listeners and the fronts."""
        await self.hall.start()
        self.address = await self.hall.listen("unix:" + hall_socket_path(self.hall.data_dir))
        if self.hall_listen:
            self.tcp_address = await self.hall.listen(self.hall_listen, self.tls)
            log.info("the hall accepts fronts at %s", self.tcp_address, extra={"console": True})
        loop = asyncio.get_running_loop()
        for front in self.fronts:
            front.task = loop.create_task(self._keep(front), name=f"front {front.index}")
        await self.ready()

    async def ready(self, timeout: float = 60.0) -> None:
        """Wait until every front listens.

        Raises:
            TimeoutError: one did not within ``timeout`` seconds.
        """
        await asyncio.wait_for(asyncio.gather(*(f.ready.wait() for f in self.fronts)), timeout)

    def pids(self) -> list[int]:
        """The fronts' process ids (those running now)."""
        return [f.process.pid for f in self.fronts if f.process is not None and f.process.returncode is None]

    async def _keep(self, front: _Front) -> None:
        """Run ``front``, and again whenever it exits, until the supervisor stops."""
        while not self._stopping:
            wait = front.started + RESTART_PAUSE_S - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            front.started = time.monotonic()
            front.ready.clear()
            argv = [
                sys.executable,
                "-m",
                "serve.front",
                "--hall",
                self.address,
                "--name",
                f"front-{front.index}",
                *self.front_args,
            ]
            front.process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE,
            )
            log.info("front %d started (process %d)", front.index, front.process.pid)
            assert front.process.stderr is not None
            relay = asyncio.get_running_loop().create_task(self._relay(front, front.process.stderr))
            status = await front.process.wait()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(relay, 5)
            if self._stopping:
                return
            self.restarts += 1
            log.warning("front %d exited with status %s; starting another in its place", front.index, status)

    async def _relay(self, front: _Front, stream: asyncio.StreamReader) -> None:
        """Write a front's log lines into this process's log (its own time stamp taken off)."""
        while True:
            try:
                line = await stream.readline()
            except (ValueError, asyncio.LimitOverrunError):  # a line too long: skip it
                continue
            if not line:
                return
            text = line.decode("ascii", "replace").rstrip("\n")
            parts = text.split(" ", 2)
            if len(parts) == 3 and parts[0][:2].isdigit() and ":" in parts[1]:
                text = parts[2]
            if text.startswith("Saloon listening"):
                front.ready.set()
            if text.startswith(("Saloon logs to", "Saloon listening", "Saloon's browser page")):
                continue  # the supervisor says where the saloon listens, once
            logging.getLogger("saloon.front").info("%s", text)

    async def stop(self) -> None:
        """Stop the fronts (SIGTERM, SIGKILL after :data:`STOP_GRACE_S`), then the hall."""
        self._stopping = True
        for front in self.fronts:
            if front.process is not None and front.process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    front.process.send_signal(signal.SIGTERM)
        for front in self.fronts:
            if front.process is None:
                continue
            try:
                await asyncio.wait_for(front.process.wait(), STOP_GRACE_S)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    front.process.kill()
                await front.process.wait()
        for front in self.fronts:
            if front.task is not None:
                front.task.cancel()
                with contextlib.suppress(BaseException):
                    await front.task
        await self.hall.stop()
        with contextlib.suppress(OSError):
            os.unlink(self.address.removeprefix("unix:"))


async def run_supervisor(
    supervisor: Supervisor, host: str, port: int, web_port: int | None, web_host: str = "127.0.0.1"
) -> None:
    """Run ``supervisor`` until SIGINT or SIGTERM."""
    await supervisor.start()
    log.info(
        "Saloon listening on %s port %d (data in %s; %d fronts)",
        host,
        port,
        supervisor.hall.data_dir,
        supervisor.workers,
        extra={"console": True},
    )
    if web_port is not None:
        log.info("Saloon's browser page on %s port %d", web_host, web_port, extra={"console": True})
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await supervisor.stop()
