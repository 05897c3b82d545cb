"""What a client can make ``saloon serve`` write to its log (issue 34, part 2).

Each test runs the operator's command (:func:`serve.ssh_server.main`, default limits, the log in
``DATA/logs/saloon.log``) in a process of its own on 127.0.0.1, drives it with asyncssh clients
and reads the log files it left on disk:

- a forged command line (a newline and a fake log line, ESC, BEL, OSC 52, a bidi override) sent
  by a keyless client and by a key holder reaches the log escaped, on one line;
- a connection opening sessions as fast as it can is refused past its session bucket (told so
  on stderr, with a non-zero exit status), and the log grows by a few lines only;
- other connections from the same address share that address's session bucket;
- the log rotates: its files never take more than ``max * (backups + 1)`` bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest

from lobby.logtext import LogFormatter, loggable
from tests.ssh.termclient import connect, make_key

ROOT = Path(__file__).resolve().parents[2]
SERVE = "import sys; from serve.ssh_server import main; sys.exit(main(sys.argv[1:]))"

FORGED = (
    "help\n2026-11-28 17:00:00,000 FORGED: root signed in from 10.6.6.6"
    "\x1b]52;c;ZWNobyBvd25lZA==\x07\x1b]0;OWNED\x07\x1b[2J\u202e"
)
"""The finding's command: a forged log line, OSC 52 (the reader's clipboard), a title, a clear, RLO."""

# The defaults of saloon serve (serve.ssh_server.SaloonServer): sessions per connection, per address.
CONNECTION_BURST, CONNECTION_PER_S = 10, 0.5
ADDRESS_BURST, ADDRESS_PER_S = 20, 1.0
LINE_BYTES = 400
"""The most one session's log line takes (time, name, address, a command cut to 80 characters:
the flood's ``x`` * 32,000 gives about 140 bytes)."""


@contextlib.asynccontextmanager
async def saloon_serve(data: Path, *options: str) -> AsyncIterator[int]:
    """``saloon serve --port 0 --data-dir DATA --house-bot none OPTIONS`` in a process; yields its port."""
    argv = ["--port", "0", "--data-dir", str(data), "--house-bot", "none", *options]
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", SERVE, *argv, cwd=str(ROOT), stderr=asyncio.subprocess.PIPE
    )
    assert proc.stderr is not None
    try:
        seen = []
        while True:
            line = (await asyncio.wait_for(proc.stderr.readline(), 30)).decode(errors="replace")
            if not line:
                raise RuntimeError("saloon serve did not start:\n" + "".join(seen))
            seen.append(line)
            if found := re.search(r"listening on \S+ port (\d+)", line):
                break
        assert any("logs to" in line for line in seen), seen  # where the log is, on stderr
        yield int(found.group(1))
    finally:
        with contextlib.suppress(ProcessLookupError):
            proc.terminate()
        try:
            await asyncio.wait_for(proc.wait(), 15)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()


def log_files(data: Path) -> list[Path]:
    return sorted((data / "logs").glob("saloon.log*"))


def log_bytes(data: Path) -> int:
    return sum(path.stat().st_size for path in log_files(data))


def assert_clean(raw: bytes) -> None:
    """No control byte but the newlines that end lines, no DEL, nothing outside ASCII (so no
    U+202E), and no line that a forged one could pass for."""
    assert raw.endswith(b"\n")
    bad = sorted({b for b in raw if (b < 0x20 and b != 0x0A) or b >= 0x7F})
    assert not bad, f"raw bytes in the log: {bad}"
    assert "\u202e".encode() not in raw
    for line in raw.decode("ascii").splitlines():
        assert not line.startswith("2026-11-28 17:00:00,000 FORGED"), line
        assert "FORGED" not in line or "help\\n2026-11-28" in line, line  # only ever as escaped text


async def run(conn: asyncssh.SSHClientConnection, command: str) -> asyncssh.SSHCompletedProcess:
    return await asyncio.wait_for(conn.run(command), 20)


def test_loggable_escapes_and_cuts() -> None:
    assert loggable(FORGED).startswith("help\\n2026-11-28 17:00:00,000 FORGED: root signed in from 10.6.6.6\\x1b]5")
    assert loggable(FORGED).endswith(f"...({len(FORGED)} characters)")
    assert loggable("\x07\x7f\x85\u2028\u200b\U0001f600\\") == "\\x07\\x7f\\x85\\u2028\\u200b\\U0001f600\\\\"
    assert loggable(b"ok\xff\n") == "ok\\xff\\n"
    assert loggable("it's", quote=True) == "'it\\'s'"
    line = LogFormatter("%(message)s").format(_record("%s and \x1b[2J\n2026 FORGED", loggable("a\nb")))
    assert line == "a\\nb and \\x1b[2J\\n2026 FORGED"


def _record(msg: str, *args: object) -> object:
    import logging

    return logging.LogRecord("t", logging.INFO, __file__, 1, msg, args, None)


async def test_a_forged_command_reaches_the_log_escaped(tmp_path: Path) -> None:
    data = tmp_path / "data"
    async with saloon_serve(data) as port:
        # A keyless client on a server without --guest: refused, but its command and its
        # unchecked user name (asyncssh refuses control and bidi characters in it, not others)
        # are what asyncssh logged raw before.
        async with await connect(port, "mallory", None) as conn:
            result = await run(conn, FORGED)
            assert result.exit_status == 1 and "offered none" in str(result.stderr)
        async with await connect(port, "Root \u00c9vil's", None) as conn:
            result = await run(conn, FORGED)
            assert result.exit_status == 1 and "not a valid player name" in str(result.stderr)
        async with await connect(port, "alice", make_key("alice")) as conn:
            result = await run(conn, FORGED)
            assert result.exit_status == 0 and "Saloon: Wild West board games" in str(result.stdout)
            result = await run(conn, "\x1b[2J" * 200)
            assert result.exit_status == 2 and "unknown command" in str(result.stderr)
        await asyncio.sleep(0.2)
    raw = b"".join(path.read_bytes() for path in log_files(data))
    assert_clean(raw)
    text = raw.decode("ascii")
    escaped = "'help\\n2026-11-28 17:00:00,000 FORGED: root signed in from 10.6.6.6\\x1b]5"
    assert f"session of alice from 127.0.0.1: command {escaped}" in text
    assert "session of 'mallory' (not logged in) from 127.0.0.1: command 'help\\n2026" in text
    assert "session of 'Root \\xc9vil\\'s' (not logged in) from 127.0.0.1: command 'help\\n2026" in text
    assert "...(800 characters)" in text  # the long command, cut
    assert "Command:" not in text and "Auth for user" not in text  # asyncssh's own lines are off


async def test_a_session_flood_is_refused_and_bounded_in_the_log(tmp_path: Path) -> None:
    data = tmp_path / "data"
    async with saloon_serve(data) as port:
        before = log_bytes(data)
        results: list[asyncssh.SSHCompletedProcess] = []
        async with await connect(port, "flood", make_key("flood")) as conn:
            start = time.monotonic()
            deadline = start + 3.0

            async def opener() -> None:
                while time.monotonic() < deadline:
                    results.append(await run(conn, "x" * 32_000))

            await asyncio.gather(*(opener() for _ in range(4)))
            elapsed = time.monotonic() - start
        await asyncio.sleep(0.2)
        grown = log_bytes(data) - before
    refused = [r for r in results if "too many sessions" in str(r.stderr)]
    admitted = [r for r in results if "too many sessions" not in str(r.stderr)]
    assert len(results) > 30, len(results)  # the client did flood
    assert all(r.exit_status == 1 for r in refused)
    assert all(re.search(r"too many sessions on this connection \(.*\): wait \d+ s", str(r.stderr)) for r in refused)
    # Admitted: the burst, plus one every 2 s (those too long are refused by the command check).
    assert len(admitted) <= CONNECTION_BURST + CONNECTION_PER_S * elapsed + 1, len(admitted)
    assert all(r.exit_status == 2 and "command too long" in str(r.stderr) for r in admitted)
    # The log: a line per admitted session and one refusal line (the rest are counted, not logged).
    bound = (len(admitted) + 2) * LINE_BYTES
    assert grown <= bound < 8 * 1024, (grown, bound)
    text = b"".join(path.read_bytes() for path in log_files(data)).decode("ascii")
    assert text.count("refused a session of flood") == 1
    assert_clean(text.encode())


async def test_connections_of_one_address_share_its_session_bucket(tmp_path: Path) -> None:
    data = tmp_path / "data"
    async with saloon_serve(data) as port:
        key = make_key("many")
        conns = [await connect(port, "many", key) for _ in range(3)]
        try:
            start = time.monotonic()

            async def nine(conn: asyncssh.SSHClientConnection) -> list[asyncssh.SSHCompletedProcess]:
                return [await run(conn, "help") for _ in range(9)]  # under the connection's burst of 10

            results = [r for rs in await asyncio.gather(*(nine(conn) for conn in conns)) for r in rs]
            elapsed = time.monotonic() - start
            # A connection from another address has a bucket of its own.
            async with await connect(port, "many", key, local_addr=("127.0.0.2", 0)) as other:
                assert (await run(other, "help")).exit_status == 0
        finally:
            for conn in conns:
                conn.close()
    refused = [r for r in results if r.exit_status != 0]
    assert refused, "27 sessions from one address at once: some refused"
    assert all(r.exit_status == 1 for r in refused)
    assert all("too many sessions from 127.0.0.1 (at most 20 at once" in str(r.stderr) for r in refused)
    assert ADDRESS_BURST <= len(results) - len(refused) <= ADDRESS_BURST + ADDRESS_PER_S * elapsed + 1


async def test_the_log_rotates_within_its_bound(tmp_path: Path) -> None:
    data = tmp_path / "data"
    max_mb, backups = 0.005, 2
    max_bytes = int(max_mb * 2**20)  # 5,242 bytes
    command = "\x1b" * 80  # a line of about 400 bytes once escaped
    largest = 0
    async with saloon_serve(data, "--log-max-mb", str(max_mb), "--log-backups", str(backups)) as port:
        # Addresses 127.0.0.10.. each: 2 connections of 10 sessions (within the buckets), 20 lines.
        for n in range(10, 14):
            key = make_key("rot")
            for _ in range(2):
                async with await connect(port, "rot", key, local_addr=(f"127.0.0.{n}", 0)) as conn:
                    for _ in range(10):
                        assert (await run(conn, command)).exit_status == 2  # unknown command
                    largest = max(largest, log_bytes(data))
        await asyncio.sleep(0.2)
    files = log_files(data)
    assert [f.name for f in files] == ["saloon.log", "saloon.log.1", "saloon.log.2"]  # it did rotate
    assert all(f.stat().st_size <= max_bytes for f in files), [f.stat().st_size for f in files]
    assert max(largest, log_bytes(data)) <= max_bytes * (backups + 1)
    for f in files:
        assert_clean(f.read_bytes())


def test_serve_refuses_bad_log_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from serve.ssh_server import main

    assert main(["--data-dir", str(tmp_path), "--log-max-mb", "0"]) == 2
    assert main(["--data-dir", str(tmp_path), "--log-backups", "0"]) == 2
    assert main(["--data-dir", str(tmp_path), "--log-max-mb", "nan"]) == 2
    assert "bad --log-max-mb" in capsys.readouterr().err
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert main(["--data-dir", str(tmp_path), "--port", "0", "--log-file", str(blocked / "saloon.log")]) == 2
    assert "saloon serve:" in capsys.readouterr().err
