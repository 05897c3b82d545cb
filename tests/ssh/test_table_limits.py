"""What one client may hold of the saloon's tables, and what a bot's faults may cost a table (issue 26).

A. One client with many free accounts filled the saloon with waiting tables nobody sat at: now
   waiting tables are bounded per address and per new account, a waiting table nobody is at
   closes within minutes, and waiting tables have their own sub-cap, so the server-wide cap never
   stops a person from playing with bots or joining a table.
B. A remote bot reconnecting to write a stray line, over and over, grew a waiting table's fault
   log (and its replay, and the server log) without limit and kept the table from idling out: now
   a seat's faults are recorded up to a limit and then counted, a bot may sit at a table once a
   second, and only people keep a waiting table alive.

Lobby-level tests use a fake clock (``Lobby(clock=...)``); one test goes over a real SSH session.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from pathlib import Path
from typing import Any

import pytest

import replays
from lobby.store import Store
from lobby.tables import RECLAIM_AFTER_S, Identity, Lobby, SeatSpec, ServerConfig, Table, TableError
from serve.ssh_server import SaloonServer
from tests.ssh.conftest import make_server
from tests.ssh.termclient import connect, make_key, wait_until
from tui.lobby_screen import SSHApp

GAME = "deadwood1876"
STRAY = "output written when no decision was asked"


class Clock:
    """A fake monotonic clock: only :meth:`advance` moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Person:
    """A stand-in for a person's screen: records what it was told."""

    def __init__(self, name: str, address: str = "", registered: float | None = None, guest: bool = False) -> None:
        self.identity = Identity(name, f"key-{name}", guest=guest, address=address, registered=registered)
        self.lost: list[str] = []

    def changed(self, what: Any) -> None:
        pass

    def seat_lost(self, table: Any, seat: int, reason: str) -> None:
        self.lost.append(reason)


class RemoteBot(Person):
    """A stand-in for a remote bot's channel (it never gets to decide in these tests)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.faults: list[str] = []

    def start(self, table: Any, seat: int) -> None:
        pass

    async def decide(self, seat: int, view: Any, legal: list[Any], deadline_ms: int) -> int:
        return 0

    def end(self, outcome: Any) -> None:
        pass

    def fault(self, message: str) -> None:
        self.faults.append(message)


def _lobby(tmp_path: Path, clock: Clock | None = None, **config: Any) -> Lobby:
    return Lobby(Store(tmp_path), ServerConfig(bot_delay_s=0, **config), clock=clock or Clock())


def _waiting(lobby: Lobby, who: Person, sit: bool = False, players: int = 3) -> Table:
    """A table with a bot and seats for people; the creator sits (in the first seat) only with ``sit``."""
    seats = [SeatSpec("me" if sit else "open")] + [SeatSpec("open")] * (players - 2) + [SeatSpec("bot")]
    table = lobby.create_table(who.identity, GAME, players, seats)
    if sit:
        table.sit(who)
    return table


def _with_bots(lobby: Lobby, who: Person) -> Table:
    """A table of ``who`` and bots: it starts as soon as ``who`` sits (at once here)."""
    table = lobby.create_table(who.identity, GAME, 2, [SeatSpec("me"), SeatSpec("bot")])
    table.sit(who)
    return table


# A. Tables one client may hold -------------------------------------------------------------------


async def test_many_accounts_from_one_address_hit_the_address_cap(tmp_path: Path) -> None:
    lobby = _lobby(tmp_path, max_waiting_tables_per_address=3)
    # the attack: a new key is a new account; each opens waiting tables nobody needs to sit at
    squatters = [Person(f"s{i}", address="203.0.113.7") for i in range(5)]
    opened = [_waiting(lobby, squatters[0]), _waiting(lobby, squatters[1]), _waiting(lobby, squatters[1])]
    for who in squatters[2:]:
        with pytest.raises(TableError, match="3 tables opened from your network address are waiting for players"):
            _waiting(lobby, who)
        with pytest.raises(TableError, match="from your network address"):
            lobby.create_table(who.identity, GAME, 2, [SeatSpec("bot")] * 2)  # a bots-only table holds a place too
    assert len(lobby.tables) == 3
    # IPv6: one /64 is one address (a client has billions of addresses in its own /64)
    v6 = [Person(f"v{i}", address=f"2001:db8:1:2::{i + 1}") for i in range(4)]
    for who in v6[:3]:
        _waiting(lobby, who)
    with pytest.raises(TableError, match="from your network address"):
        _waiting(lobby, v6[3])
    _waiting(lobby, Person("other6", address="2001:db8:1:3::1"))  # another /64
    _waiting(lobby, Person("alice", address="198.51.100.4"))  # others are not affected
    _waiting(lobby, Person("local"))  # nor callers that give no address (the lobby's own, tests)
    # someone from that address may still join a table, and once it starts it no longer counts
    opened[0].sit(squatters[4])
    opened[0].sit(Person("bob", address="198.51.100.5"))
    assert opened[0].status == "playing"
    _waiting(lobby, squatters[3])
    await lobby.close()


async def test_a_new_account_may_keep_fewer_tables_waiting(tmp_path: Path) -> None:
    lobby = _lobby(tmp_path, max_waiting_tables_new_account=1, new_account_s=3600, max_open_tables_per_account=3)
    newbie = Person("newbie", address="198.51.100.1", registered=time.time() - 600)  # registered 10 min ago
    first = _waiting(lobby, newbie)
    with pytest.raises(TableError, match=f"a new account may keep 1 table waiting .* first 60 min.*{first.code}"):
        _waiting(lobby, newbie)
    with pytest.raises(TableError, match="a new account may keep 1 table"):
        lobby.create_table(newbie.identity, GAME, 2, [SeatSpec("bot")] * 2)
    _with_bots(lobby, newbie)  # playing with bots is never refused by this limit
    # an account older than an hour has the usual limit; so has a caller that gives no age
    veteran = Person("veteran", address="198.51.100.2", registered=time.time() - 7200)
    for _ in range(3):
        _waiting(lobby, veteran)
    with pytest.raises(TableError, match="you already have 3 open tables"):
        _waiting(lobby, veteran)
    # a guest is always new
    guest = Person("drifter", address="198.51.100.3", guest=True)
    _waiting(lobby, guest)
    with pytest.raises(TableError, match="a new account may keep 1 table"):
        _waiting(lobby, guest)
    await lobby.close()


async def test_an_unattended_waiting_table_closes_after_waiting_unattended_s(tmp_path: Path) -> None:
    clock = Clock()
    lobby = _lobby(tmp_path, clock, waiting_unattended_s=300, waiting_idle_s=1800)
    nobody = _waiting(lobby, Person("mallory"))  # nobody sits, nobody watches
    carol, watcher = Person("carol"), Person("watcher")
    attended = _waiting(lobby, carol, sit=True)  # someone waits at it
    watched = _waiting(lobby, Person("dave"))
    watched.watch(watcher, spectator=True)
    clock.advance(299)
    assert set(lobby.listing()) == {nobody, attended, watched}
    clock.advance(2)
    assert set(lobby.listing()) == {attended, watched}
    assert nobody.status == "closed" and nobody.code not in lobby.tables
    watched.unwatch(watcher)  # the last spectator goes: the clock starts now
    clock.advance(299)
    assert watched in lobby.listing()
    clock.advance(2)
    assert set(lobby.listing()) == {attended}
    # the table someone waits at keeps the 30-minute rule for tables where nothing happens
    clock.advance(1800 - 602)
    assert lobby.listing() == [attended]
    clock.advance(2)
    assert lobby.listing() == [] and attended.status == "closed"
    assert carol.lost == [f"table {attended.code} closed: nobody joined for 30 min"]


async def test_with_the_waiting_tables_full_a_new_player_can_still_play(tmp_path: Path) -> None:
    lobby = _lobby(tmp_path, max_tables=5, max_waiting_tables=2)
    squat = [_waiting(lobby, Person("s1", address="203.0.113.1")), _waiting(lobby, Person("s2", address="203.0.113.2"))]
    newcomer = Person("newcomer", address="198.51.100.9", registered=time.time())
    with pytest.raises(TableError, match="2 tables are waiting for players, the most the saloon keeps"):
        _waiting(lobby, newcomer)
    # a table of the newcomer and bots starts at once: the waiting tables do not count against it
    with_bots = _with_bots(lobby, newcomer)
    assert with_bots.status == "playing"
    bots_only = lobby.create_table(Identity("watcher", "key-watcher"), GAME, 2, [SeatSpec("bot")] * 2)
    assert bots_only.status in ("playing", "over")
    # joining a waiting table is never refused, whatever the counts
    assert squat[0].sit(Person("joiner")) == 0
    assert squat[1].sit(newcomer) == 0
    assert all(t.status == "waiting" for t in squat)
    # full: a person's new table takes the place of a game that only bots play and nobody watches
    bots_too = lobby.create_table(Identity("x", "x"), GAME, 2, [SeatSpec("bot")] * 2)
    lobby.clock.advance(RECLAIM_AFTER_S)  # type: ignore[attr-defined]  # a table just opened is never taken
    late = _with_bots(lobby, Person("late"))
    assert late.status == "playing"
    closed = [t for t in (bots_only, bots_too) if t.status == "closed"]
    assert len(closed) == (1 if bots_only.status != "over" and bots_too.status != "over" else 0)
    assert all(t.code not in lobby.tables for t in closed)
    # a bots-only table someone watches is not taken, and without one the cap holds
    for table in lobby._live():
        if table.holds_place and table.status == "playing":
            table.watch(Person("fan"), spectator=True)
    if len(lobby._live()) >= 5:
        with pytest.raises(TableError, match="the saloon is full"):
            _with_bots(lobby, Person("later"))
    assert squat[0].sit(Person("joiner2")) == 1  # ...but not joining: it starts
    assert squat[0].status == "playing"
    await lobby.close()


# B. A bot's faults and seat-hopping ---------------------------------------------------------------


async def test_a_bots_faults_before_the_game_are_capped_and_the_replay_stays_small(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    lobby = _lobby(tmp_path, clock)  # the defaults: 10 faults a seat before the game, one sit a second
    carol = Person("carol")
    table = lobby.create_table(carol.identity, GAME, 3, [SeatSpec("open"), SeatSpec("me"), SeatSpec("open")])
    table.sit(carol, 1)  # she waits for a third player
    caplog.set_level(logging.INFO, logger="saloon.server")
    for _ in range(300):  # reconnect, write a stray line, be thrown out; again
        evil = RemoteBot("evil")
        assert table.sit(evil, 0, kind="remote") == 0
        table.bot_fault(evil, STRAY)
        assert evil.faults == [STRAY] and table.seats[0].free
        clock.advance(1.0)
    assert len(table.faults) == 11
    assert table.faults[:10] == [f"before the game: seat 0 (evil): {STRAY}"] * 10
    assert table.faults[10] == "before the game: seat 0: 290 more faults not recorded"
    logged = [r for r in caplog.records if "fault" in r.getMessage()]
    assert len(logged) <= 12  # the server log does not grow with the flood either
    # the game is played out; its replay keeps the capped log and stays small
    table.fill_with_bots(carol.identity, "random")
    table.release(carol, leave=True)  # a substitute plays carol's seat
    await wait_until(lambda: table.is_over and table.replay_path is not None, what="the game to end")
    assert table.replay_path is not None
    size = os.path.getsize(table.replay_path)
    assert size < 5_000, f"the replay is {size} bytes"
    assert replays.load(table.replay_path).faults == tuple(table.faults)


async def test_faults_during_the_game_are_capped_per_seat(tmp_path: Path) -> None:
    lobby = _lobby(tmp_path, max_seat_faults_playing=3)
    carol = Person("carol")
    table = lobby.create_table(carol.identity, GAME, 2, [SeatSpec("open"), SeatSpec("me")])
    table.sit(carol, 1)
    bot = RemoteBot("flaky")
    table.sit(bot, 0, kind="remote")
    assert table.status == "playing"
    for _ in range(7):
        table._fault(0, "no answer within 5000 ms")
    assert len(table.faults) == 4
    assert table.faults[3] == "in the game: seat 0: 4 more faults not recorded"
    await table.close()


async def test_a_remote_bot_may_sit_at_a_table_once_a_second(tmp_path: Path) -> None:
    clock = Clock()
    lobby = _lobby(tmp_path, clock, bot_sit_interval_s=1.0)
    carol = Person("carol")
    table = _waiting(lobby, carol, sit=True, players=4)
    evil = RemoteBot("evil")
    table.sit(evil, 1, kind="remote")
    table.bot_fault(evil, STRAY)
    clock.advance(0.5)
    again = RemoteBot("evil")
    with pytest.raises(TableError, match=f"evil sat at table {table.code} less than 1 s ago; wait a moment"):
        table.sit(again, 1, kind="remote")
    with pytest.raises(TableError, match="less than 1 s ago"):
        table.sit(again, None, kind="remote")  # at any seat of the table
    assert table.seats[1].free and len(table.faults) == 1
    goodbot = RemoteBot("goodbot")
    assert table.sit(goodbot, 2, kind="remote") == 2  # another account may
    table.release(goodbot)
    clock.advance(0.5)
    assert table.sit(again, 1, kind="remote") == 1  # a second later it may
    # people are not limited: a returning person takes their seat from an old session at once
    second, third = Person("carol"), Person("carol")
    table.sit(second)
    table.sit(third)
    assert carol.lost == second.lost == ["you took this seat from another session"]
    assert table.seats[0].controller is third
    await lobby.close()


async def test_a_bots_sitting_does_not_keep_a_waiting_table_alive(tmp_path: Path) -> None:
    clock = Clock()
    lobby = _lobby(tmp_path, clock, waiting_idle_s=600)
    carol = Person("carol")
    table = _waiting(lobby, carol, sit=True, players=4)  # carol waits for others; nothing else happens
    for _ in range(70):  # a bot sits, faults and goes every 10 s
        clock.advance(10)
        evil = RemoteBot("evil")
        table.sit(evil, 1, kind="remote")
        table.bot_fault(evil, STRAY)
    assert lobby.listing() == [] and table.status == "closed"
    assert carol.lost == [f"table {table.code} closed: nobody joined for 10 min"]
    # a person who sits does count
    dave = Person("dave")
    other = _waiting(lobby, dave, sit=True, players=4)
    clock.advance(500)
    other.sit(Person("erin"))
    clock.advance(500)
    assert lobby.listing() == [other]
    await lobby.close()


# Over SSH -------------------------------------------------------------------------------------------


async def test_a_remote_bot_reconnecting_to_fault_is_refused_and_the_table_idles_on(tmp_path: Path) -> None:
    srv = make_server(tmp_path / "data", bot_sit_interval_s=5.0)
    await srv.start()
    try:
        carol = Person("carol")
        table = srv.lobby.create_table(carol.identity, GAME, 3, [SeatSpec("open"), SeatSpec("me"), SeatSpec("open")])
        table.sit(carol, 1)
        active = table.active
        results: list[tuple[int | None, str]] = []
        for attempt in range(3):  # sit, write a stray line, reconnect at once
            conn = await connect(srv.port, "evil", make_key("evil"))
            try:
                process = await conn.create_process(f"bot --table {table.code} --seat 0", encoding=None)
                if attempt == 0:
                    await wait_until(lambda: not table.seats[0].free, what="the bot to sit")
                    process.stdin.write(b'{"action": 0}\n')
                try:
                    await asyncio.wait_for(process.wait_closed(), 10 if attempt == 0 else 3)
                except TimeoutError:
                    results.append((None, "the bot sat again"))
                    continue
                results.append((process.exit_status, (await process.stderr.read()).decode()))
            finally:
                conn.close()
        assert results[0] == (1, f"Saloon: bot fault: {STRAY}\n")
        for status, stderr in results[1:]:
            assert status == 2 and f"evil sat at table {table.code} less than 5 s ago" in stderr
        assert table.faults == [f"before the game: seat 0 (evil): {STRAY}"]
        assert table.active == active and table.status == "waiting"  # the bot's visit kept nothing alive
    finally:
        await srv.stop()


async def test_identify_records_the_address_and_the_accounts_age(server: SaloonServer) -> None:
    key = make_key("alice")
    before = time.time()
    identity, refusal = server.identify("alice", key, address="203.0.113.5")
    assert refusal is None and identity is not None
    assert identity.address == "203.0.113.5"
    assert identity.registered is not None and before <= identity.registered <= time.time()
    again, _ = server.identify("alice", key, address="198.51.100.1")  # an existing account keeps its age
    assert again is not None and again.registered == pytest.approx(identity.registered)
    # a real session carries its connection's address
    conn = await connect(server.port, "bob", make_key("bob"))
    try:
        await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        await wait_until(lambda: any(isinstance(a, SSHApp) for a in server.sessions), what="the session")
        (app,) = [a for a in server.sessions if isinstance(a, SSHApp)]
        assert app.identity.address == "127.0.0.1" and app.identity.registered is not None
    finally:
        conn.close()
