"""Sessions end when they end: a closed session's memory is given back at once, and a flood stops
with its flooder (issue 26).

* In the test's own process, with the cyclic garbage collector kept from full collections: a
  closed session's app, driver, screens and connection are freed by reference counting alone.
* In a server process run as an operator runs it (``serve.ssh_server.run_server``): the RSS after 60
  interactive sessions, and another user's keystrokes and the server's CPU after a key flood.
"""

from __future__ import annotations

import asyncio
import collections
import gc
import statistics
import sys
import time
import weakref
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from textual import events
from textual._queue import Queue
from textual.app import App

from lobby.tables import Identity, SeatSpec
from serve.ssh_driver import _read_input, drop_input
from serve.ssh_server import Collector, SaloonServer
from tests.ssh.server_process import ServerProcess, server_process
from tests.ssh.tablehelpers import watch_and_chat
from tests.ssh.termclient import Terminal, connect, make_key, wait_until

_SESSION_MODULES = ("textual.", "tui.", "serve.", "asyncssh.", "asyncio.selector_events")
"""The packages whose objects a session makes: none of them may be frozen garbage."""


def _frozen_garbage(port: int) -> collections.Counter[str]:
    """What was frozen and is garbage now (found by unfreezing and collecting with
    ``gc.DEBUG_SAVEALL``), of the session's packages, by type; what was not frozen is collected
    first, and what the test's own SSH clients left (their connections, channels and processes,
    what those reach, and the sockets whose peer is the server's ``port``) is not counted.
    Everything is collected afterwards."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.unfreeze()
        gc.collect()
        garbage = {id(obj): obj for obj in gc.garbage}
        client_kinds = (asyncssh.SSHClientConnection, asyncssh.SSHClientChannel, asyncssh.SSHClientProcess)
        clients = [
            obj
            for obj in garbage.values()
            if isinstance(obj, client_kinds)
            or (isinstance(obj, asyncio.Transport) and (obj.get_extra_info("peername") or ("", 0))[1] == port)
        ]
        seen: set[int] = set()
        while clients:  # the clients' own cycles: everything garbage they reach
            obj = clients.pop()
            if id(obj) not in seen:
                seen.add(id(obj))
                clients.extend(o for o in gc.get_referents(obj) if id(o) in garbage)
        kinds = collections.Counter(
            f"{type(obj).__module__}.{type(obj).__qualname__}"
            for key, obj in garbage.items()
            if key not in seen and type(obj).__module__.startswith(_SESSION_MODULES)
        )
        del garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.collect()
    return kinds


def _session_refs(server: SaloonServer, transport: type, name: str) -> dict[str, weakref.ref[Any]]:
    """Weak references to the server's one live session: its app, lobby screen and driver, and
    every live ``transport`` object (its connection: ``name 0``, ``name 1``, ...).

    Raises:
        AssertionError: no ``transport`` object is tracked (it was made after the freeze).
    """
    app = next(iter(server.sessions))
    refs = {"app": weakref.ref(app), "lobby": weakref.ref(app.screen), "driver": weakref.ref(app._driver)}
    found = [o for o in gc.get_objects() if isinstance(o, transport)]
    refs.update({f"{name} {i}": weakref.ref(o) for i, o in enumerate(found)})
    assert found, f"the session's {name} was made after the freeze"
    return refs


async def test_a_closed_session_is_freed_by_reference_counting(server: SaloonServer, no_full_collections: None) -> None:
    """A session frozen in the lobby (as the server's collector freezes sessions while they are
    built) opens and closes the new-table form, watches a table and chats, then leaves: its app,
    screens, driver and connection are freed by reference counting alone. Nothing it drops while
    live is left as frozen garbage of the kinds the server cuts (Textual's styles-only nodes, at
    each restyle and widget removal), and nothing of it once closed (its socket transport too)."""
    server.lobby.create_table(Identity("house", "house-key"), "deadwood1876", 4, [SeatSpec("bot")] * 4)
    key = make_key("freed")
    async with Terminal(server.port, "freed", key, size=(80, 24)) as term:  # imports, caches, first screens
        await watch_and_chat(term, "hello from a soak session")
    await wait_until(lambda: not server.sessions, what="the warm-up session to end")
    gc.collect()
    gc.freeze()
    refs: dict[str, weakref.ref[Any]] = {}
    async with Terminal(server.port, "freed", key, size=(80, 24)) as term:
        await term.wait_for("new table")
        refs.update(_session_refs(server, asyncssh.SSHServerConnection, "connection"))
        gc.collect()  # as the server's collector does while sessions start:
        gc.freeze()  # the session's objects too are frozen; only reference counting can free them now
        await term.press("n")  # the new-table form, then back: a screen's widgets come and go
        await term.wait_for("Enter opens it")
        await term.press("escape", pause=0.3)
        await watch_and_chat(term, "hello from a soak session")
        refs["table screen"] = weakref.ref(next(iter(server.sessions)).screen)
        live = _frozen_garbage(server.port)
        gc.freeze()
    await wait_until(lambda: not server.sessions, what="the session to end")
    await asyncio.sleep(0.5)
    gc.collect(1)  # young garbage (the last layout's closures) only
    alive = [name for name, ref in refs.items() if ref() is not None]
    assert alive == []
    # What the live session dropped after its freeze: none of Textual's styles-only nodes (cut at
    # each restyle and widget removal; the closed form's widgets may stay until the session ends);
    # what the closed session left: nothing (its socket transport included).
    assert (live["textual.dom.DOMNode"], _frozen_garbage(server.port)) == (0, {})


async def test_a_session_leaves_the_process_streams_alone(server: SaloonServer) -> None:
    """Textual swaps ``sys.stdout``/``sys.stderr`` for the running app's print capture, which refers
    to the app; every thread started meanwhile keeps ``sys.stderr`` for its life (``asyncio.to_thread``
    starts them on demand), so a closed session's app stayed with it. Sessions leave the streams be."""
    async with Terminal(server.port, "streams", make_key("streams"), size=(80, 24)) as term:
        await term.wait_for("new table")
        (app,) = server.sessions
        assert all(getattr(stream, "app", None) is not app for stream in (sys.stdout, sys.stderr))
        assert sys.stderr is sys.__stderr__ and sys.stdout is sys.__stdout__
        del app


# The operator's process ----------------------------------------------------------------------


async def _session(server: ServerProcess, number: int, key: asyncssh.SSHKey) -> None:
    """One interactive session from its own loopback address: lobby, the new-table form, a chat line."""
    address = f"127.0.1.{number % 250 + 2}"
    conn = await connect(server.port, f"rss{number % 10}", key, local_addr=(address, 0))
    term = Terminal(server.port, "unused", None, size=(80, 24))
    try:
        term.conn = conn
        term.process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        term._reader = asyncio.get_running_loop().create_task(term._read())
        await term.wait_for("new table", timeout=30)
        await term.press("n")
        await term.wait_for("Enter opens it")
        await term.press("escape", pause=0.3)  # a lone ESC is the Escape key after a moment
        await term.press("c")
        await term.type(f"line {number}\r")
        await asyncio.sleep(0.2)
    finally:
        await term.close()


@pytest.mark.slow
@pytest.mark.serial
async def test_sixty_sessions_leave_the_servers_memory_flat(tmp_path: Path) -> None:
    """The issue measured 2.3 MB kept per closed session (92 MB over these 40); sessions after the
    first 20 must keep less than 1 MB each on average. The noise of this measurement, with the
    fix: usually +/- 5 MB over 40 sessions (the allocator's pools and the store's cache), and up
    to 24.5 MB (1 run in 5, 26 Nov 2026) when the server's collection landed while a wave's sessions
    were mid-way and froze what they dropped afterwards until a sweep. With the collector's pacing
    (every 0.25 s while sessions start) and nothing a session drops left frozen past its end:
    1.6, 7.0 and 14.3 MB in three runs (27 Nov 2026)."""
    keys = [make_key(f"rss{i}") for i in range(10)]
    async with server_process(tmp_path / "data") as server:
        keep = Terminal(server.port, "resident", make_key("resident"), size=(80, 24))
        async with keep:  # one session stays: the server is never idle, its collections never total
            await keep.wait_for("new table", timeout=30)
            for wave in range(2):
                await asyncio.gather(*(_session(server, wave * 10 + i, keys[i]) for i in range(10)))
            await asyncio.sleep(3)  # the collector's freeze after the last start
            after_20 = server.rss_bytes()
            for wave in range(2, 6):
                await asyncio.gather(*(_session(server, wave * 10 + i, keys[i]) for i in range(10)))
            await asyncio.sleep(3)
            after_60 = server.rss_bytes()
    growth = after_60 - after_20
    assert growth < 40 * 1024 * 1024, f"RSS grew {growth / 2**20:.1f} MiB over 40 sessions"


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[18] if len(values) > 1 else values[0]


async def _keystroke_ms(term: Terminal, char: str) -> float:
    start = time.perf_counter()
    mark = bytes(term.raw)
    term.send(char)
    deadline = start + 5
    while time.perf_counter() < deadline:
        if len(term.raw) > len(mark) and char.encode() in term.raw[len(mark) :]:
            return (time.perf_counter() - start) * 1000
        term.changed.clear()
        try:
            await asyncio.wait_for(term.changed.wait(), 0.05)
        except TimeoutError:
            pass
    return 5000.0


@pytest.mark.slow
@pytest.mark.serial
async def test_a_key_flood_stops_with_its_session(tmp_path: Path) -> None:
    """One connection, 4 sessions typing ``c`` then 4,096 ``a`` again and again for 10 s, then it
    closes: within 5 s another user's keystrokes come back under 100 ms (p95), and within 10 s
    the server is idle (under 10% of a core)."""
    async with server_process(tmp_path / "data") as server:
        async with Terminal(server.port, "bystander", make_key("bystander"), size=(80, 24)) as bystander:
            await bystander.wait_for("new table", timeout=30)
            await bystander.press("c")
            conn = await connect(server.port, "flooder", make_key("flooder"))
            processes = []
            for _ in range(4):
                process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
                processes.append(process)
            await asyncio.sleep(2)
            end = time.monotonic() + 10
            flood = b"c" + b"a" * 4096
            while time.monotonic() < end:
                for process in processes:
                    if process.channel.get_write_buffer_size() < 1_000_000:
                        process.stdin.write(flood)
                await asyncio.sleep(0.05)
            conn.abort()
            gone = time.monotonic()
            await asyncio.sleep(5 - (time.monotonic() - gone))
            latencies = [await _keystroke_ms(bystander, ch) for ch in "abcdefghijklmnopqrst"]
            assert _p95(latencies) < 100, f"keystrokes 5 s after the flood: {sorted(latencies)}"
            await asyncio.sleep(max(0.0, 8 - (time.monotonic() - gone)))
            cpu = server.cpu_s()
            await asyncio.sleep(2)
            share = (server.cpu_s() - cpu) / 2
    assert share < 0.10, f"the server used {share:.0%} of a core 8-10 s after the flood ended"


class _Cycle:
    me: object = None


def test_the_collector_paces_its_collections_while_sessions_start_then_stops() -> None:
    async def run() -> tuple[int, int, int]:
        collector = Collector(interval_s=0.05, settle_s=0.5)
        for _ in range(5):
            collector.session_started()  # a burst shares the paced collections
        cycle = _Cycle()
        cycle.me = cycle  # a cycle dropped while sessions start is collected, not frozen
        gone = weakref.ref(cycle)
        del cycle
        await asyncio.sleep(1.0)
        assert gone() is None
        settled = len(collector.pauses_ms)
        frozen = gc.get_freeze_count()
        await asyncio.sleep(0.3)
        later = len(collector.pauses_ms)
        collector.session_ended(0)
        return settled, later, frozen

    try:
        settled, later, frozen = asyncio.run(run())
    finally:
        gc.unfreeze()
    assert settled >= 2  # every 0.05 s (each as long as it takes) until 0.5 s after the latest start
    assert later == settled  # then none until a session starts or one ends
    assert frozen > 0


def test_the_collector_sweeps_what_it_froze_when_few_sessions_are_left() -> None:
    async def run() -> list[int]:
        collector = Collector(sweep_sessions=1, sweep_interval_s=0.5)
        sweeps = []
        for live, wait in ((5, 0.0), (1, 0.0), (1, 0.0), (1, 0.7), (2, 0.7), (0, 0.0)):
            await asyncio.sleep(wait)
            collector.session_ended(live)
            sweeps.append(len(collector.pauses_ms))
        return sweeps

    try:
        sweeps = asyncio.run(run())
    finally:
        gc.unfreeze()
    # not with 5 live; with 1 live, once per interval; not with 2; always when none is left
    assert sweeps == [0, 1, 1, 2, 2, 3]


class _Held:
    """What a failed write's frames hold (the session's driver and app, in the server)."""


class _FailedStdin:
    """A closed channel's stdin: asyncssh raises the channel's error again at every read."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    async def read(self, n: int) -> bytes:
        raise self.error


class _ClosedProcess:
    def __init__(self, error: BaseException) -> None:
        self.stdin = _FailedStdin(error)


def _failed_write(held: _Held) -> BrokenPipeError:
    """A write that failed, as the socket transport's does: the error's traceback holds this frame."""
    try:
        raise BrokenPipeError(32, "Broken pipe")
    except BrokenPipeError as error:
        return error


def test_a_closed_channels_error_keeps_no_frames_once_read(no_full_collections: None) -> None:
    """asyncssh keeps a closed channel's error and raises it at the session's next read; that read's
    frame then holds the error, whose traceback holds the frame (a cycle), and the failed write's
    frames held the session's app: gone only at a full collection (or, frozen, at a sweep)."""
    held = _Held()
    freed = weakref.ref(held)
    error = _failed_write(held)
    del held
    assert freed() is not None  # the traceback's frame holds it
    reason: list[str] = []
    asyncio.run(_read_input(_ClosedProcess(error), {}, App(), reason))  # type: ignore[arg-type]
    assert (freed(), reason) == (None, [])  # by reference counting, the error still kept (as asyncssh does)
    assert error.__traceback__ is None


def test_dropped_input_leaves_a_woken_message_pump_something_to_take() -> None:
    """Textual's queue pops without looking once its event is set: a pump woken for a key that is
    then dropped (its session closed) took an empty queue's IndexError, and its task ended with it."""

    class Pump:
        def __init__(self) -> None:
            self._message_queue: Queue[Any] = Queue()

    async def run() -> tuple[int, Any]:
        pump = Pump()
        taking = asyncio.ensure_future(pump._message_queue.get())
        await asyncio.sleep(0)  # the pump waits for a message
        pump._message_queue.put_nowait(events.Key("a", "a"))  # and is woken
        dropped = drop_input([pump])
        return dropped, await taking

    dropped, taken = asyncio.run(run())
    assert dropped == 1
    assert isinstance(taken, events.Callback)
    assert taken.callback() is None


async def test_a_table_screen_closed_before_it_was_built_does_not_sit(tmp_path: Path) -> None:
    """A session that closes while its table screen is being built (its widgets gone, its Mount
    still to run) neither fails ("a session's app failed") nor takes a seat or watches."""
    from lobby.store import Store
    from lobby.tables import Lobby, ServerConfig
    from tui.table_screen import ServerTableScreen

    lobby = Lobby(Store(tmp_path), ServerConfig(bot_delay_s=0))
    table = lobby.create_table(Identity("alice", "key-alice"), "deadwood1876", 2, [SeatSpec("human"), SeatSpec("bot")])
    screen = ServerTableScreen(table, sit=True)
    screen.on_mount()  # no widgets: what a closing session's screen has when its Mount comes
    assert (table._listeners, table.spectators, screen._owner) == (set(), set(), None)
