"""Issue 35, item 3: a restart loses no running game.

Every move is journaled in the store before anyone is shown it; on start the lobby resumes each
journaled game under its code (:meth:`lobby.tables.Lobby.resume`): bots made again, people's and
remote bots' seats waiting for their owners through the grace time. Lobby-level tests restart a
:class:`Lobby` on the same store; one test kills a real ``saloon serve`` process with SIGKILL in
the middle of a person's game and starts it again on the same data directory and port.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sqlite3
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import engine
import replays
from lobby.store import Store
from lobby.tables import RECLAIM_AFTER_S, HouseBot, Identity, Lobby, SeatSpec, ServerConfig, Table
from tests.ssh.server_process import ROOT, listening_port
from tests.ssh.termclient import Terminal, connect, make_key, wait_until
from tests.ssh.test_server import new_table, play_to_end
from tests.ssh.test_table_limits import Clock
from tests.ssh.test_tables import Screen

GAME = "deadwood1876"


def _lobby(store: Store, clock: Any = None, **config: Any) -> Lobby:
    return Lobby(store, ServerConfig(**{"bot_delay_s": 0.0, "grace_s": 60.0, **config}), clock=clock)


def _journaled_moves(store: Store, code: str) -> int:
    return len(store.journaled_game(code).moves)


async def _play_until_over(table: Table, screen: Screen, timeout: float = 30) -> None:
    """``screen`` plays its seat's first legal action whenever it owes one, until the game is over."""
    deadline = time.monotonic() + timeout
    while not table.is_over:
        assert time.monotonic() < deadline, "the game did not end in time"
        legal = table.legal_for(screen)  # type: ignore[arg-type]
        if legal:
            table.play(screen, legal[0])  # type: ignore[arg-type]
        await asyncio.sleep(0)


async def _record_of(store: Store, code: str) -> Any:
    await wait_until(lambda: store.game_by_code(code) is not None, what="the game's record")
    return store.game_by_code(code)


class _JournalWatcher:
    """A listener that checks, each time it is told of a change, that every move shown is journaled."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.calls = 0
        self.behind: list[tuple[int, int]] = []

    def changed(self, what: Any) -> None:
        if isinstance(what, Table) and what.status == "playing":
            self.calls += 1
            journaled = _journaled_moves(self.store, what.code)
            if journaled != what.num_moves:
                self.behind.append((what.num_moves, journaled))


async def test_a_new_lobby_on_the_same_store_resumes_the_game_which_goes_on_to_the_end(tmp_path: Path) -> None:
    store = Store(tmp_path)
    lobby = _lobby(store)
    alice = Screen("alice")
    seats = [SeatSpec("me"), SeatSpec("bot", "random"), SeatSpec("bot", "heuristic")]
    table = lobby.create_table(alice.identity, GAME, 3, seats)
    table.sit(alice)  # type: ignore[arg-type]
    watcher = _JournalWatcher(store)
    table.watch(watcher, spectator=True)
    for _ in range(4):  # alice plays a few moves; the bots answer
        await wait_until(lambda: table.to_act() == (0,), what="alice alone to act")
        table.play(alice, table.legal_for(alice)[0])  # type: ignore[arg-type]
    await wait_until(lambda: table.to_act() == (0,), what="alice alone to act")
    await asyncio.sleep(0.05)  # the watcher's last calls
    assert watcher.calls > 4 and watcher.behind == []  # no listener saw a move before its journal did
    code, moves, view = table.code, table.num_moves, table.view_for(alice)[1]  # type: ignore[arg-type]
    seed = table._Table__seed  # type: ignore[attr-defined]
    journal = store.journaled_game(code)
    assert len(journal.moves) == moves and journal.seed == seed and journal.game == GAME

    await lobby.close()  # a shutdown is a restart too: the journal stays
    assert table.status == "closed" and store.journaled_codes() == [code]

    again = _lobby(store)
    (resumed,) = again.resume()
    assert again.tables == {code: resumed}
    assert (resumed.code, resumed.status, resumed.num_moves) == (code, "playing", moves)
    assert resumed.names() == ["alice", "random (bot)", "heuristic (bot)"]
    assert resumed.creator == "alice" and resumed.creator_key == alice.identity.key and not resumed.rated
    seat = resumed.seats[0]
    assert seat.owner == alice.identity.key and seat.controller is None and seat.away_since is not None
    assert not seat.substitute  # the grace time starts at the restart
    assert resumed.seed_if_over() is None

    back = Screen("alice")  # her new session, the same key
    assert again.seats_of(back.identity) == [(resumed, 0)]
    assert resumed.sit(back) == 0  # type: ignore[arg-type]
    assert resumed.view_for(back) == (0, view)  # type: ignore[arg-type]
    await _play_until_over(resumed, back)

    record = await _record_of(store, code)
    replay = replays.load(record.replay)
    replays.verify(replay)
    assert replay.header.seed == seed and resumed.seed_if_over() == seed
    assert [(s, c) for s, c, _ in journal.moves] == replay.move_pairs()[:moves]
    assert record.players == ("alice", "random", "heuristic")
    assert store.journaled_codes() == []  # recorded: the journal went in the same transaction
    store.close()


async def test_a_journal_that_cannot_be_resumed_is_logged_and_dropped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = Store(tmp_path)
    lobby = _lobby(store)
    people = [Screen(name) for name in ("ann", "bob", "cat")]
    tables = []
    for person in people:
        table = lobby.create_table(person.identity, GAME, 2, [SeatSpec("me"), SeatSpec("bot")])
        table.sit(person)  # type: ignore[arg-type]
        tables.append(table)
    for table, person in zip(tables, people, strict=True):
        await wait_until(lambda t=table: t.to_act() == (0,), what="the person alone to act")
        table.play(person, table.legal_for(person)[0])  # type: ignore[arg-type]
        await wait_until(lambda t=table: t.to_act() == (0,), what="the person alone to act")
    await lobby.close()
    good, bad_digest, bad_rules = (t.code for t in tables)
    db = sqlite3.connect(tmp_path / "saloon.db")
    with db:
        db.execute("UPDATE journal_moves SET digest = '0000' WHERE code = ? AND number = 1", (bad_digest,))
        db.execute(
            "UPDATE journal_games SET detail = json_set(detail, '$.rules_version', 'an old engine') WHERE code = ?",
            (bad_rules,),
        )
    db.close()

    again = _lobby(store)
    with caplog.at_level(logging.INFO, logger="saloon.server"):
        (resumed,) = again.resume()
    assert resumed.code == good and resumed.num_moves == tables[0].num_moves
    assert store.journaled_codes() == [good]
    messages = "\n".join(r.getMessage() for r in caplog.records)
    assert f"table {bad_digest!r}: its journal cannot be resumed" in messages
    assert f"table {bad_rules!r}: its journal cannot be resumed" in messages
    assert f"table {good}: {GAME} resumed at move {resumed.num_moves}" in messages
    await again.close()
    store.close()


async def test_a_table_stopped_on_an_error_or_closed_for_room_drops_its_journal(tmp_path: Path) -> None:
    store = Store(tmp_path)
    clock = Clock()
    lobby = _lobby(store, clock, max_tables=2)
    broken = lobby.create_table(Identity("ann", "key-ann"), GAME, 2, [SeatSpec("bot"), SeatSpec("bot")])

    def boom() -> None:
        raise RuntimeError("a bug")

    broken._dispatch = boom  # type: ignore[method-assign]  # before the table's task first runs
    assert store.journaled_codes() == [broken.code]
    await wait_until(lambda: broken.status == "closed", what="the table stops on the error")
    assert store.journaled_codes() == []

    # two games nobody plays (their creators never sat) fill the saloon; a third person's new game
    # takes the place of one of them, which is closed for good
    idle = [
        lobby.create_table(Identity(name, f"key-{name}"), GAME, 2, [SeatSpec("me"), SeatSpec("bot")])
        for name in ("bob", "cat")
    ]
    assert sorted(store.journaled_codes()) == sorted(t.code for t in idle)
    clock.advance(RECLAIM_AFTER_S)
    new = lobby.create_table(Identity("dan", "key-dan"), GAME, 2, [SeatSpec("me"), SeatSpec("bot")])
    (closed,) = [t for t in idle if t.status == "closed"]
    assert sorted(store.journaled_codes()) == sorted(t.code for t in (*idle, new) if t is not closed)
    await lobby.close()
    store.close()


class _RemoteBot:
    """A remote bot's channel in memory: answers the first legal action, or never (``stuck``)."""

    def __init__(self, name: str, stuck: bool = False) -> None:
        self.identity = Identity(name, f"key:{name}")
        self.stuck = stuck
        self.ended: list[engine.Outcome] = []

    def changed(self, what: Any) -> None:
        pass

    def seat_lost(self, table: Table, seat: int, reason: str) -> None:
        pass

    def start(self, table: Table, seat: int) -> None:
        pass

    async def decide(self, seat: int, view: Any, legal: list[Any], deadline_ms: int) -> int:
        if self.stuck:
            await asyncio.Event().wait()
        return 0

    def end(self, outcome: engine.Outcome) -> None:
        self.ended.append(outcome)

    def fault(self, message: str) -> None:
        pass


async def test_a_rated_game_resumes_rated_with_its_forfeits_and_its_remote_bots_sit_again(tmp_path: Path) -> None:
    store = Store(tmp_path)
    config = {"remote_deadline_ms": 60_000, "bot_grace_s": 60.0}
    lobby = _lobby(store, **config)
    quitter, waiter = _RemoteBot("quitter"), _RemoteBot("waiter", stuck=True)
    house = HouseBot("house:heuristic", "heuristic")
    table = lobby.open_rated_table(GAME, [(quitter, "remote"), (waiter, "remote"), house])  # type: ignore[list-item]
    table.release(quitter, leave=True)  # type: ignore[arg-type]  # forfeits: ranked last
    await wait_until(lambda: table.to_act() == (1,) and 1 in table._pending, what="the game waits for the stuck bot")
    code, moves, faults = table.code, table.num_moves, list(table.faults)
    assert table.forfeits == {0} and any("forfeits" in line for line in faults)
    await lobby.close()

    again = _lobby(store, **{**config, "bot_grace_s": 0.05})
    (resumed,) = again.resume()
    assert resumed.rated and resumed.forfeits == {0} and resumed.faults == faults
    assert resumed.num_moves == moves and resumed.names()[2] == "house:heuristic (bot)"
    assert [s.kind for s in resumed.seats] == ["remote", "remote", "bot"]
    back = _RemoteBot("waiter")  # the remote bot connects again: `bot --table CODE` sits it at its seat
    assert resumed.sit(back, None, kind="remote") == 1  # type: ignore[arg-type]
    await wait_until(lambda: resumed.is_over, timeout=30, what="the game ends (a substitute plays seat 0)")
    record = await _record_of(store, code)
    assert record.ranks[0] == 3 and back.ended  # the forfeit survived the restart: seat 0 ranked last
    replays.verify(replays.load(record.replay))
    assert store.ladder_rating(GAME, "quitter").games == 1
    assert store.journaled_codes() == []
    store.close()


# The real server, killed with SIGKILL ---------------------------------------------------------------


@contextlib.asynccontextmanager
async def _serve(data: Path, port: int = 0) -> AsyncIterator[tuple[asyncio.subprocess.Process, int, list[str]]]:
    """``saloon serve`` on 127.0.0.1 (``port``; 0: a free one), its log on stderr, read into a list."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "saloon",
        "serve",
        "--port",
        str(port),
        "--data-dir",
        str(data),
        "--bot-delay",
        "0",
        "--log-file",
        "-",
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
        cwd=str(ROOT),
    )
    assert proc.stderr is not None
    drain: asyncio.Task[None] | None = None
    try:
        port, lines = await listening_port(proc.stderr)

        async def read_log() -> None:
            assert proc.stderr is not None
            while line := await proc.stderr.readline():
                lines.append(line.decode(errors="replace"))

        drain = asyncio.get_running_loop().create_task(read_log())
        yield proc, port, lines
    finally:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()
        if drain is not None:
            drain.cancel()


def _journal_on_disk(data: Path, code: str) -> list[tuple[int, int]]:
    """The journaled moves of table ``code``, read from the database on disk."""
    db = sqlite3.connect(data / "saloon.db")
    try:
        return list(db.execute("SELECT seat, choice FROM journal_moves WHERE code = ? ORDER BY number", (code,)))
    finally:
        db.close()


@pytest.mark.slow
async def test_a_server_killed_mid_game_resumes_it_and_the_person_plays_on(tmp_path: Path) -> None:
    data = tmp_path / "data"
    async with _serve(data) as (proc, port, _):
        async with Terminal(port, "alice", make_key("alice")) as term:
            await term.wait_for("Saloon")
            code = await new_table(term, 2, "random")
            deadline = time.monotonic() + 30
            while len(_journal_on_disk(data, code)) < 3:  # a few moves on disk (on a busy machine a key
                assert time.monotonic() < deadline, term.text()  # may open a group: pick again)
                await term.wait_for("Your move")
                await term.settle()
                await term.press("1")
                await term.settle()
            await term.wait_for("Your move")
            await term.settle(quiet=0.5)  # the bot has answered: only alice owes a move
            before = _journal_on_disk(data, code)
            assert len(before) >= 3
            proc.send_signal(signal.SIGKILL)  # mid-game, alice still connected
            await proc.wait()
    assert _journal_on_disk(data, code) == before

    async with _serve(data, port) as (proc, again, log):
        assert again == port
        assert any(f"table {code}: {GAME} resumed at move {len(before)}" in line for line in log)
        async with Terminal(port, "alice", make_key("alice")) as term:
            await term.wait_for(f"You have a game on at {code}: t to return")
            await term.wait_for(f"playing (move {len(before)})")
            await term.press("t")
            await term.wait_for("Your move")
            assert f"Table {code}" in term.text()
            await play_to_end(term)
        conn = await connect(port, "alice", make_key("alice"))
        try:
            result = await conn.run(f"replay {code}", encoding=None, timeout=20)
        finally:
            conn.close()
        assert result.exit_status == 0
        replay = replays.decode(bytes(result.stdout or b""))
        replays.verify(replay)
        assert replay.outcome is not None and [p.name for p in replay.header.players] == ["alice", "random"]
        assert replay.move_pairs()[: len(before)] == before
        assert _journal_on_disk(data, code) == []
