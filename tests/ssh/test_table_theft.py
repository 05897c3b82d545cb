"""Security round three (issue 34), findings 1 and 3, through the real server.

1. A remote bot waiting for any table (``ssh … bot`` without ``--table``) took the creator's seat
   of every new table: the creator's seat was open until their screen sat in it. Now the seat is
   theirs from the moment the table exists.
3. One address held nearly every table: "me + bots" tables whose creator left were not counted.
   Now a table that only bots play counts against the address that opened it, one address may
   run a bounded number of tables at once, such tables play at the bots' speed (nobody follows
   them), and a person's new table takes the place of one of them when the saloon is full.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

import lobby.tables as lobby_tables
from serve.ssh_server import SaloonServer
from tests.ssh.conftest import make_server
from tests.ssh.termclient import Terminal, connect, make_key, wait_until


async def test_a_waiting_remote_bot_never_takes_a_new_tables_creator_seat(server: SaloonServer) -> None:
    conn = await connect(server.port, "mallory", make_key("mallory"))
    try:
        bot = await conn.create_process("bot", encoding=None)
        line = await asyncio.wait_for(bot.stderr.readline(), 5)
        assert b"waiting for a table" in line
        async with Terminal(server.port, "victim", make_key("victim")) as term:
            for attempt in range(3):  # the reproduction, three times over (her open-table cap)
                await term.wait_for("new table")
                await term.press("n")
                await term.wait_for("New table")
                await term.press("enter")  # the default: you + bots
                await term.wait_for("Your move", "Waiting for", timeout=15)
                assert "seat 0" in term.text()  # "you: seat 0", not "watching"
                mine = [t for t, seat in server.lobby.seats_of(term_identity(server, "victim")) if seat == 0]
                assert len(mine) == attempt + 1
                assert all(t.names()[0] == "victim" for t in mine)
                assert all("mallory" not in " ".join(t.names()) for t in server.lobby.tables.values())
                await term.press("ctrl+l")
        with contextlib.suppress(asyncio.TimeoutError):  # the bot was never seated: no start came
            out = await asyncio.wait_for(bot.stdout.readline(), 0.5)
            assert b'"start"' not in out
    finally:
        conn.close()


def term_identity(server: SaloonServer, name: str):  # type: ignore[no-untyped-def]
    """The identity that owns ``name``'s seats (any session of the account)."""
    for table in server.lobby.tables.values():
        for seat in table.seats:
            if seat.name == name and seat.owner is not None:
                from lobby.tables import Identity

                return Identity(name, seat.owner)
    raise AssertionError(f"{name} owns no seat")


@pytest.mark.slow
async def test_one_address_with_many_accounts_cannot_lock_a_new_player_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby_tables, "RECLAIM_AFTER_S", 1.0)  # the attack's tables are seconds old here
    # a small saloon, so the attack fills it quickly; the per-address caps are the defaults
    slow = {"random": "random", "slow": "tests.ssh.slow_bot:SlowBot"}  # slow: a game lasts many seconds
    srv = make_server(tmp_path / "data", max_tables=6, bot_delay_s=0.5, bots=slow)
    await srv.start()
    try:
        opened, refused = 0, ""
        for i in range(6):  # fresh keys, each opens "me + bots" tables and leaves them to the bots
            async with Terminal(srv.port, f"squat{i}", make_key(f"squat{i}")) as term:
                for _ in range(3):
                    await term.wait_for("new table")
                    await term.press("n")
                    await term.wait_for("New table")
                    await term.settle(0.2)
                    await term.press("tab", "tab")  # game -> players -> bots
                    await term.settle(0.2)  # the focus moved before typing on
                    await term.press("\x15", "slow", "enter")
                    found = await term.wait_for("Your move", "Waiting for", "tables opened from your", timeout=15)
                    if found == "tables opened from your":
                        refused = " ".join(term.text().split())
                        await term.press("escape")
                        break
                    opened += 1
                    await term.press("ctrl+l")
            if refused:
                break
        assert refused, "one address was never refused"
        assert "6 tables opened from your network address are waiting for players" in refused, refused
        from_here = [t for t in srv.lobby._live() if t._creator_address == "127.0.0.1"]
        assert len(from_here) == srv.lobby.config.max_waiting_tables_per_address == 6
        assert len(srv.lobby._live()) == srv.lobby.config.max_tables  # the saloon is full of bots-only games
        # a newcomer from another address opens a table with bots and plays, however full the saloon
        async with Terminal(srv.port, "newcomer", make_key("newcomer"), source="127.0.0.2") as term:
            await term.wait_for("new table")
            await term.press("n")
            await term.wait_for("New table")
            await term.press("enter")
            await term.wait_for("Your move", timeout=15)
            await term.press("1")
            assert sum(t.status == "closed" for t in from_here) == 1  # one bots-only game made room
            await wait_until(
                lambda: any(t.names()[0] == "newcomer" and t.num_moves > 0 for t in srv.lobby.tables.values()),
                what="the newcomer's game to go on",
            )
    finally:
        await srv.stop()
