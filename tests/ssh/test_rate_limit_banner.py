"""Issue 23: a client over the connection rate limit is told why and when to retry.

It saw only ``kex_exchange_identification: read: Connection reset by peer``: the server wrote a
line and closed the socket with the client's bytes unread, which resets the connection and drops
the line. Now it sends the reason as an SSH disconnect message (printed by OpenSSH) after a line
for clients that show such lines, and closes gracefully.
"""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path

import asyncssh
import pytest

from serve.ssh_server import RateLimiter, refusal_bytes
from tests.ssh.conftest import make_server
from tests.ssh.termclient import connect, make_key
from tests.ssh.test_server import run_command

SSH = shutil.which("ssh")
WHY = r"too many new connections from 127\.0\.0\.1 \(at most 1 at once, then one every 10 s\); try again in (\d+) s"


def test_the_limiter_says_when_to_retry() -> None:
    limiter = RateLimiter(burst=2, per_second=0.5, max_concurrent=5)
    assert limiter.admit("1.2.3.4") is None and limiter.admit("1.2.3.4") is None
    refusal = limiter.admit("1.2.3.4")
    assert refusal is not None
    found = re.fullmatch(
        r"too many new connections from 1\.2\.3\.4 \(at most 2 at once, then one every 2 s\); try again in (\d) s",
        refusal,
    )
    assert found is not None and found.group(1) in ("1", "2")
    busy = RateLimiter(burst=10, per_second=1, max_concurrent=1)
    assert busy.admit("5.6.7.8") is None
    assert busy.admit("5.6.7.8") == ("too many connections from 5.6.7.8 at once (1); close one of them and try again")


def test_the_refusal_is_a_line_an_identification_and_a_disconnect_packet() -> None:
    data = refusal_bytes("too busy")
    line, ident, packet = data.split(b"\r\n", 2)
    assert line == b"Saloon: too busy" and ident == b"SSH-2.0-Saloon"
    length = int.from_bytes(packet[:4], "big")
    assert len(packet) == 4 + length and len(packet) % 8 == 0
    padding = packet[4]
    payload = packet[5 : 4 + length - padding]
    assert padding >= 4 and payload[0] == 1 and int.from_bytes(payload[1:5], "big") == 12
    size = int.from_bytes(payload[5:9], "big")
    assert payload[9 : 9 + size] == b"Saloon: too busy"


async def test_an_asyncssh_client_over_the_limit_is_told_why(tmp_path: Path) -> None:
    srv = make_server(tmp_path / "data")
    srv.limiter = RateLimiter(burst=1, per_second=0.1, max_concurrent=10)
    await srv.start()
    try:
        status, _, _ = await run_command(srv.port, "alice", make_key("alice"), "help")
        assert status == 0
        with pytest.raises(asyncssh.DisconnectError) as refused:
            await connect(srv.port, "alice", make_key("alice"))
        assert refused.value.code == 12
        assert re.fullmatch("Saloon: " + WHY + r"( \(error 12\))?", refused.value.reason)
        reader, writer = await asyncio.open_connection("127.0.0.1", srv.port)  # a raw client
        writer.write(b"SSH-2.0-test\r\n" + b"x" * 5000)  # unread bytes must not reset the connection
        first = await asyncio.wait_for(reader.readline(), 5)
        assert re.fullmatch(b"Saloon: " + WHY.encode() + b"\r\n", first)
        rest = await asyncio.wait_for(reader.read(), 5)  # then a clean end of stream, no reset
        assert rest.startswith(b"SSH-2.0-Saloon\r\n")
        writer.close()
    finally:
        await srv.stop()


@pytest.mark.skipif(SSH is None, reason="the OpenSSH client (ssh) is not installed")
async def test_the_openssh_client_prints_why_and_when_to_retry(tmp_path: Path) -> None:
    srv = make_server(tmp_path / "data")
    srv.limiter = RateLimiter(burst=1, per_second=0.1, max_concurrent=10)
    await srv.start()
    try:
        status, _, _ = await run_command(srv.port, "alice", make_key("alice"), "help")
        assert status == 0
        proc = await asyncio.create_subprocess_exec(
            str(SSH),
            "-F",
            "/dev/null",
            "-p",
            str(srv.port),
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "BatchMode=yes",
            "alice@127.0.0.1",
            "help",
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        _, err = await asyncio.wait_for(proc.communicate(), 20)
        text = err.decode()
        assert proc.returncode == 255
        assert "Connection reset by peer" not in text
        assert re.search(rf"Received disconnect from 127\.0\.0\.1 port {srv.port}:12: Saloon: {WHY}", text), text
    finally:
        await srv.stop()
