"""What one SSH session may cost the server: terminal size, input floods, memory after it closes.

Each test reproduces an attack from the hardening issue over a real asyncssh session on 127.0.0.1
and checks that the server bounds it and keeps serving everyone else.
"""

from __future__ import annotations

import asyncio
import gc
import os
from pathlib import Path
from typing import Any

import pytest

import replays
from lobby.store import Store
from lobby.tables import Identity, Lobby, SeatSpec, ServerConfig, Table, TableError
from serve.ssh_driver import (
    INPUT_BURST_BYTES,
    INPUT_BYTES_PER_S,
    MAX_TERMINAL_SIZE,
    InputBudget,
    SessionParser,
    SSHDriver,
    clamp_size,
)
from serve.ssh_server import SaloonServer
from tests.ssh.conftest import make_server
from tests.ssh.termclient import Terminal, connect, make_key, wait_until
from tests.ssh.test_server import BotClient
from tui.lobby_screen import LobbyScreen, SSHApp


def _apps(server: SaloonServer) -> list[SSHApp]:
    return [app for app in server.sessions if isinstance(app, SSHApp)]


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


# Terminal size -------------------------------------------------------------------------------


def test_clamp_size() -> None:
    assert clamp_size(65535, 65535) == MAX_TERMINAL_SIZE == (500, 200)
    assert clamp_size(0, 0) == (80, 24)  # a client that sends no size gets the usual default
    assert clamp_size(120, 40) == (120, 40)
    assert clamp_size(501, 3) == (500, 3)


async def test_a_huge_pty_request_and_resize_are_clamped(server: SaloonServer) -> None:
    conn = await connect(server.port, "giant", make_key("giant"))
    try:
        process = await conn.create_process(term_type="xterm", term_size=(65535, 65535), encoding=None)
        await wait_until(lambda: _apps(server) and _apps(server)[0].size.width > 0, what="the session's app")
        app = _apps(server)[0]
        await wait_until(lambda: tuple(app.size) == MAX_TERMINAL_SIZE, what="the clamped size")
        process.change_terminal_size(80, 24)
        await wait_until(lambda: tuple(app.size) == (80, 24), what="the resize")
        process.change_terminal_size(40000, 30000)
        await wait_until(lambda: tuple(app.size) == MAX_TERMINAL_SIZE, what="the clamped resize")
        # the screen it was sent fits the clamped size: nothing near 40000 columns of output
        output = await asyncio.wait_for(process.stdout.read(1 << 20), 5)
        assert len(output) < 1 << 20
        # and someone else is served as usual
        async with Terminal(server.port, "neighbour", make_key("neighbour")) as other:
            await other.wait_for("new table")
    finally:
        conn.close()


# Input floods --------------------------------------------------------------------------------


def test_input_budget_paces_a_flood_and_lets_typing_through() -> None:
    now = [0.0]
    budget = InputBudget(rate=1000, burst=4000, clock=lambda: now[0])
    assert budget.spend(10) == 0.0  # typing
    assert budget.spend(3990) == 0.0  # a paste up to the burst
    assert budget.spend(2000) == pytest.approx(2.0)  # 2000 bytes over: wait 2 s at 1000 B/s
    now[0] += 2.0
    assert budget.spend(0) == 0.0  # the debt is paid
    now[0] += 100.0
    assert budget.spend(4000) == 0.0  # refills to the burst, not beyond
    assert budget.spend(1) == pytest.approx(0.001)
    assert INPUT_BYTES_PER_S >= 1000 and INPUT_BURST_BYTES >= 4096  # room for a person typing and pasting


async def test_an_input_flood_costs_only_the_flooding_session(server: SaloonServer) -> None:
    # Before the pacing, a million keystrokes typed into the lobby chat line held every session's
    # screen for ~30 s and grew the server by ~150 MB (all of them parsed and queued at once).
    async with (
        Terminal(server.port, "flood", make_key("flood")) as flood,
        Terminal(server.port, "bystander", make_key("bystander")) as bystander,
    ):
        await flood.wait_for("new table")
        await bystander.wait_for("new table")
        await flood.press("c")
        await flood.wait_for("say something")
        before = _rss_bytes()
        chunk = b"a" * 1000
        for _ in range(1000):
            flood.send(chunk)
        await asyncio.sleep(0.5)
        await bystander.press("n")
        await bystander.wait_for("New table", timeout=5)
        await bystander.press("escape")
        await bystander.wait_for("new table", timeout=5)
        assert _rss_bytes() - before < 40 * 1024 * 1024
        assert not flood.closed.is_set()  # the flooder is paced, not thrown out


# Memory after sessions close -----------------------------------------------------------------


def test_session_parser_has_no_class_level_cache() -> None:
    parser = SessionParser()
    keys = list(parser.feed("\x1b[97;5u"))  # a Kitty-protocol key: ctrl+a
    assert [k.key for k in keys] == ["ctrl+a"]  # type: ignore[attr-defined]
    other = SessionParser()
    gc.collect()
    # nothing but this test holds the parsers: they are collectable once dropped
    assert sum(isinstance(o, SessionParser) for o in gc.get_objects()) >= 2
    del parser, other, keys
    gc.collect()
    assert not any(isinstance(o, SessionParser) for o in gc.get_objects())


async def _cycle(port: int, key: object, user: str, kitty: bool) -> None:
    async with Terminal(port, user, key, size=(80, 24)) as term:  # type: ignore[arg-type]
        await term.wait_for("new table")
        term.send(b"\x1b[99;1u" if kitty else b"c")  # a key through the parser's Kitty path (or plain)
        term.send(b"hello")
        await asyncio.sleep(0.05)


@pytest.mark.slow
async def test_closed_sessions_are_given_back(server: SaloonServer) -> None:
    key = make_key("cycler")
    for i in range(10):  # warm up: imports, caches, the first screens
        await _cycle(server.port, key, "cycler", kitty=i % 2 == 0)
    await wait_until(lambda: not server.sessions, what="the warm-up sessions to end")
    gc.collect()
    before = _rss_bytes()
    for i in range(40):  # every app, driver and parser is freed (checked below), and RSS stays put
        await _cycle(server.port, key, "cycler", kitty=i % 2 == 0)
    await wait_until(lambda: not server.sessions, what="every session to end")
    gc.collect()
    live = [o for o in gc.get_objects() if isinstance(o, SSHApp | SSHDriver | SessionParser)]
    assert live == []
    growth = _rss_bytes() - before
    # The operator's view (RSS of a server process over 60 sessions, no forced collection) is
    # tests/ssh/test_session_memory.py; this bound only catches a gross leak in this process.
    assert growth < 10 * 1024 * 1024, f"RSS grew {growth / 2**20:.1f} MiB over 40 sessions"


# Tables --------------------------------------------------------------------------------------


class Person:
    """A stand-in for a person's session at a table: records what it was told."""

    def __init__(self, name: str) -> None:
        self.identity = Identity(name, f"key-{name}")
        self.lost: list[str] = []

    def changed(self, what: Any) -> None:
        pass

    def seat_lost(self, table: Any, seat: int, reason: str) -> None:
        self.lost.append(reason)


def _waiting_table(lobby: Lobby, who: Person) -> Table:
    table = lobby.create_table(who.identity, "deadwood1876", 3, [SeatSpec("me"), SeatSpec("open"), SeatSpec("bot")])
    table.sit(who)  # type: ignore[arg-type]
    return table


async def test_one_account_may_keep_only_a_few_tables_open(tmp_path: Path) -> None:
    lobby = Lobby(Store(tmp_path), ServerConfig(max_open_tables_per_account=2))
    mallory, alice = Person("mallory"), Person("alice")
    first, second = _waiting_table(lobby, mallory), _waiting_table(lobby, mallory)
    with pytest.raises(TableError, match=f"you already have 2 open tables \\({first.code}, {second.code}\\)"):
        _waiting_table(lobby, mallory)
    assert len(lobby.tables) == 2
    _waiting_table(lobby, alice)  # others are not affected
    first.release(mallory, leave=True)  # leaving a waiting table nobody else sits at closes it
    _waiting_table(lobby, mallory)
    assert len(lobby.tables) == 3


async def test_idle_waiting_tables_close_and_cannot_lock_the_saloon(tmp_path: Path) -> None:
    lobby = Lobby(Store(tmp_path), ServerConfig(max_tables=2, waiting_idle_s=600))
    squatters = [Person("s1"), Person("s2")]
    idle = [_waiting_table(lobby, who) for who in squatters]
    with pytest.raises(TableError, match="the saloon is full"):
        _waiting_table(lobby, Person("alice"))
    busy = idle[1]
    for table in idle:
        table.active -= 601  # ten minutes with nothing happening...
    busy.say(squatters[1].identity, "anyone?")  # ...except a chat line here, which counts as activity
    assert [t.code for t in lobby.listing()] == [busy.code]
    assert squatters[0].lost == [f"table {idle[0].code} closed: nobody joined for 10 min"]
    assert idle[0].status == "closed" and squatters[1].lost == []
    _waiting_table(lobby, Person("alice"))  # room again


async def test_enter_twice_in_the_new_table_form_opens_one_table(server: SaloonServer) -> None:
    async with Terminal(server.port, "quick", make_key("quick")) as term:
        await term.wait_for("new table")
        await term.press("n")
        await term.wait_for("New table")
        term.send(b"\r\r\r")  # three Enters before the form closes
        await term.wait_for("Table ")
        await term.settle()
        assert len(server.lobby.tables) == 1
        assert not term.closed.is_set()
        await term.press("ctrl+q")


async def test_a_failing_action_logs_no_local_variables(
    server: SaloonServer, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str], caplog: Any
) -> None:
    def explode(self: Any) -> None:
        account_secret = "hunter2-do-not-print"  # a local variable Textual would print with the traceback
        raise RuntimeError(f"boom ({len(account_secret)})")

    monkeypatch.setattr(LobbyScreen, "action_games", explode)
    async with Terminal(server.port, "victim", make_key("victim")) as term:
        await term.wait_for("new table")
        await term.press("g")
        await asyncio.wait_for(term.closed.wait(), 10)
        assert "something went wrong on the server" in term.text()
    out, err = capfd.readouterr()
    assert "hunter2" not in out + err + caplog.text
    assert "RuntimeError: boom (20)" in caplog.text  # the operator still learns what failed
    async with Terminal(server.port, "next", make_key("next")) as other:  # the server goes on
        await other.wait_for("new table")


# Remote bots ---------------------------------------------------------------------------------


async def test_unasked_output_from_a_remote_bot_is_a_recorded_fault(tmp_path: Path) -> None:
    srv = make_server(tmp_path / "data", grace_s=0.0)
    await srv.start()
    try:
        creator = Identity("carol", "x")
        table = srv.lobby.create_table(creator, "deadwood1876", 2, [SeatSpec("open"), SeatSpec("bot")])
        chatty = BotClient(srv.port, "chatty", f"bot --table {table.code} --seat 0", answer=b'{"action": 0}\n' * 2)
        status, stderr = await asyncio.wait_for(chatty.run(), 20)
        assert status == 1 and "bot fault: output written when no decision was asked" in stderr
        await wait_until(lambda: table.is_over, timeout=30, what="the substitute to finish the game")
        (fault,) = table.faults
        assert "seat 0 (chatty): output written when no decision was asked" in fault
        replay = replays.load(table.replay_path)  # type: ignore[arg-type]
        assert replay.faults == (fault,)
        (record,) = srv.store.games()
        assert record.faults == (fault,)
    finally:
        await srv.stop()


async def test_unasked_output_before_the_game_is_a_fault_and_frees_the_seat(server: SaloonServer) -> None:
    carol = Person("carol")
    seats = [SeatSpec("me"), SeatSpec("open"), SeatSpec("open"), SeatSpec("bot")]
    table = server.lobby.create_table(carol.identity, "deadwood1876", 4, seats)
    table.sit(carol)  # type: ignore[arg-type]
    conn = await connect(server.port, "early", make_key("early"))
    try:
        process = await conn.create_process(f"bot --table {table.code}", encoding=None)
        await wait_until(lambda: table.counts()["free"] == 1, what="the bot to sit")
        process.stdin.write(b'{"action": 0}\n')
        await asyncio.wait_for(process.wait_closed(), 10)
        assert process.exit_status == 1
        assert b"output written when no decision was asked" in await process.stderr.read()
    finally:
        conn.close()
    assert table.faults == ["before the game: seat 1 (early): output written when no decision was asked"]
    assert table.counts()["free"] == 2 and table.status == "waiting"
