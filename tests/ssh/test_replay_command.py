"""Issue 26: ``ssh ... replay ID`` takes ASCII digits in the range of the store's row ids.

``replay 9223372036854775808`` (2**63) exited 1 without a word (SQLite cannot hold the number: an
OverflowError in the server log), and ``replay ١`` (an Arabic-Indic digit, which ``str.isdigit``
accepts) fetched game 1. Now every ID that is not 1 to 2**63-1 in the digits 0-9 exits 2 with a
message saying why; a real ID still sends its replay file.
"""

from __future__ import annotations

import logging
import time

import pytest

from bots import RandomBot, play_game
from replays import Player
from serve.ssh_server import SaloonServer
from tests.ssh.termclient import connect, make_key


async def run_replay(port: int, argument: str) -> tuple[int, bytes, str]:
    """``ssh ... replay ARGUMENT`` without a PTY: exit status, stdout (bytes) and stderr."""
    conn = await connect(port, "dave", make_key("dave"))
    try:
        result = await conn.run(f"replay {argument}", encoding=None, timeout=20)
        return int(result.exit_status or 0), bytes(result.stdout or b""), bytes(result.stderr or b"").decode()
    finally:
        conn.close()


NOT_DIGITS = "replay ID must be a game's number (digits 0-9 only) or its table's code (letters and digits), not {}"
OUT_OF_RANGE = "replay ID must be from 1 to 9223372036854775807, not {}"


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ("9223372036854775808", OUT_OF_RANGE.format("'9223372036854775808'")),
        ("99999999999999999999999999", OUT_OF_RANGE.format("'99999999999999999999999999'")),
        ("0", OUT_OF_RANGE.format("'0'")),
        ("١", NOT_DIGITS.format("'\\u0661'")),
        ("+1", NOT_DIGITS.format("'+1'")),
        ("' 1'", NOT_DIGITS.format("' 1'")),
        ("1_0", NOT_DIGITS.format("'1_0'")),
        ("-1", NOT_DIGITS.format("'-1'")),
        ("x" * 50, NOT_DIGITS.format(repr("x" * 40 + "..."))),
        ("9223372036854775807", "no finished game 9223372036854775807 on this server"),
    ],
)
async def test_a_bad_replay_id_exits_2_with_a_message(
    server: SaloonServer, argument: str, message: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        status, out, err = await run_replay(server.port, argument)
    assert (status, out) == (2, b"")
    assert err.splitlines()[0] == f"Saloon: replay: {message}"
    assert [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR] == []


async def test_a_real_replay_id_sends_the_replay(server: SaloonServer) -> None:
    players = [Player("alice", "human"), Player("random", "bot")]
    replay = play_game("deadwood1876", 2, [RandomBot(1), RandomBot(2)], seed=4, players=players).replay
    now = time.time()
    record = server.store.record_game("RPL26", replay, now - 60, now)
    for argument in (str(record.id), f"000{record.id}"):
        status, out, err = await run_replay(server.port, argument)
        assert (status, out, err) == (0, record.replay.read_bytes(), "")
