"""The server with the OpenSSH client (skipped without ``ssh``), and a server killed with SIGKILL."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import pty
import re
import shutil
import signal
import struct
import sys
import termios
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pyte
import pytest

import replays
from lobby.store import Store
from lobby.tables import Identity, SeatSpec
from serve.ssh_server import SaloonServer
from tests.ssh.conftest import make_server
from tests.ssh.termclient import Terminal, connect, make_key, wait_until
from tests.ssh.test_server import new_table

SSH = shutil.which("ssh")
needs_ssh = pytest.mark.skipif(SSH is None, reason="the OpenSSH client (ssh) is not installed")


def _ssh_args(port: int, user: str, key_file: Path, *extra: str) -> list[str]:
    return [
        str(SSH),
        "-F",
        "/dev/null",
        "-p",
        str(port),
        "-i",
        str(key_file),
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "BatchMode=yes",
        "-o",
        "LogLevel=ERROR",
        *extra,
        f"{user}@127.0.0.1",
    ]


def _key_file(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"id_{name}"
    make_key(name).write_private_key(str(path))
    path.chmod(0o600)
    return path


@needs_ssh
async def test_openssh_remote_bot_plays_a_seat(server: SaloonServer, tmp_path: Path) -> None:
    key = _key_file(tmp_path, "olivia")
    table = server.lobby.create_table(Identity("x", "x"), "deadwood1876", 2, [SeatSpec("open"), SeatSpec("bot")])
    proc = await asyncio.create_subprocess_exec(
        *_ssh_args(server.port, "olivia", key),
        "bot",
        "--table",
        table.code,
        "--seat",
        "0",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    kinds = []
    try:
        while True:
            line = await asyncio.wait_for(proc.stdout.readline(), 30)
            if not line:
                break
            message = json.loads(line)
            kinds.append(message["type"])
            if message["type"] == "decide":
                proc.stdin.write(b'{"action": 0}\n')
                await proc.stdin.drain()
        assert await asyncio.wait_for(proc.wait(), 10) == 0
    finally:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
    assert kinds[0] == "start" and kinds[-1] == "end"
    assert table.is_over and table.names()[0] == "olivia (remote bot)"
    assert server.store.name_for_key(make_key("olivia").get_fingerprint()) == "olivia"


@needs_ssh
async def test_openssh_terminal_session(server: SaloonServer, tmp_path: Path) -> None:
    key = _key_file(tmp_path, "oscar")
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    screen = pyte.Screen(120, 40)
    stream = pyte.ByteStream(screen)
    proc = await asyncio.create_subprocess_exec(
        *_ssh_args(server.port, "oscar", key, "-tt"),
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env={**os.environ, "TERM": "xterm-256color"},
    )
    os.close(slave)
    loop = asyncio.get_running_loop()
    raw = bytearray()

    def readable() -> None:
        try:
            data = os.read(master, 65536)
        except OSError:
            data = b""
        if not data:
            loop.remove_reader(master)
            return
        raw.extend(data)
        stream.feed(data)

    loop.add_reader(master, readable)

    async def wait_for(text: str) -> None:
        deadline = time.monotonic() + 15
        while text not in "\n".join(screen.display):
            assert time.monotonic() < deadline, f"{text!r} not on screen:\n" + "\n".join(screen.display)
            await asyncio.sleep(0.05)

    try:
        await wait_for("oscar")
        await wait_for("n new table")
        os.write(master, b"q")
        assert await asyncio.wait_for(proc.wait(), 15) == 0
        await asyncio.sleep(0.1)
        assert b"\x1b[?1049l" in raw and b"so long, oscar" in raw
    finally:
        loop.remove_reader(master)
        os.close(master)
        with contextlib.suppress(ProcessLookupError):
            proc.kill()


@contextlib.asynccontextmanager
async def _server_process(data: Path) -> AsyncIterator[tuple[asyncio.subprocess.Process, int]]:
    code = "import sys; from serve.ssh_server import main; sys.exit(main(sys.argv[1:]))"
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        code,
        "--port",
        "0",
        "--data-dir",
        str(data),
        "--bot-delay",
        "0",
        stderr=asyncio.subprocess.PIPE,
        cwd=str(Path(__file__).resolve().parents[2]),
    )
    assert proc.stderr is not None
    try:
        port = 0
        deadline = time.monotonic() + 20
        while not port and time.monotonic() < deadline:
            line = (await asyncio.wait_for(proc.stderr.readline(), 20)).decode()
            match = re.search(r"listening on \S+ port (\d+)", line)
            if match:
                port = int(match.group(1))
        assert port, "the server did not start"
        yield proc, port
    finally:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()


async def test_sigkill_loses_no_finished_game_and_restart_keeps_accounts(tmp_path: Path) -> None:
    data = tmp_path / "data"
    async with _server_process(data) as (proc, port):
        async with Terminal(port, "alice", make_key("alice")) as term:
            await term.wait_for("Saloon")
            code = await new_table(term, 2, "random,random", sit=False)
            await term.wait_for("r: replay", timeout=30)
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    store = Store(data)
    try:
        (record,) = store.games()
        assert record.code == code
        replays.verify(replays.load(record.replay))
        assert store.name_for_key(make_key("alice").get_fingerprint()) == "alice"
    finally:
        store.close()
    async with _server_process(data) as (proc, port):
        conn = await connect(port, "alice", make_key("mallory"))
        try:
            result = await conn.run("help", encoding="utf-8")
            assert result.exit_status == 1 and "registered to another key" in str(result.stderr)
        finally:
            conn.close()


async def test_turn_timer_lets_a_bot_move_for_a_slow_human(tmp_path: Path) -> None:
    srv = make_server(tmp_path / "data", turn_timer_s=0.5)
    await srv.start()
    try:
        async with Terminal(srv.port, "alice", make_key("alice")) as term:
            await term.wait_for("Saloon")
            code = await new_table(term, 2, "random")
            await term.wait_for("Your move")
            table = srv.lobby.table(code)
            # the bot answers the opening's Safe pass (everyone at once) without a pause, maybe after
            # alice sees "Your move": count from when only alice owes a move, so a new one is hers
            await wait_until(lambda: table.to_act() == (0,), what="the bot's answer: only alice to act")
            before = table.num_moves
            await asyncio.sleep(1.5)
            assert table.num_moves > before
            assert any("time ran out" in line.text for line in table.chat)
    finally:
        await srv.stop()
