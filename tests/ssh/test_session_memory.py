"""Sessions end when they end: a closed session's memory is given back at once, and a flood stops
with its flooder (issue 26).

* In the test's own process, with the cyclic garbage collector kept from full collections: a
  closed session's app, driver, screens and connection are freed by reference counting alone.
* In a server process run as an operator runs it (``tui.server.run_server``): the RSS after 60
  interactive sessions, and another user's keystrokes and the server's CPU after a key flood.
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import sys
import time
import weakref
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from lobby.tables import Identity, SeatSpec
from tests.ssh.server_process import ServerProcess, server_process
from tests.ssh.tablehelpers import watch_and_chat
from tests.ssh.termclient import Terminal, connect, make_key, wait_until
from tui.server import Collector, SaloonServer


async def test_a_closed_session_is_freed_by_reference_counting(server: SaloonServer, no_full_collections: None) -> None:
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
        app = next(iter(server.sessions))
        refs.update(app=weakref.ref(app), lobby=weakref.ref(app.screen), driver=weakref.ref(app._driver))
        connections = [o for o in gc.get_objects() if isinstance(o, asyncssh.SSHServerConnection)]
        refs.update({f"connection {i}": weakref.ref(c) for i, c in enumerate(connections)})
        assert connections, "the session's connection was made after the freeze"
        del app, connections
        gc.collect()  # as the server's collector does, a few seconds after a session starts:
        gc.freeze()  # the session's objects too are frozen; only reference counting can free them now
        await watch_and_chat(term, "hello from a soak session")
        refs["table screen"] = weakref.ref(next(iter(server.sessions)).screen)
    await wait_until(lambda: not server.sessions, what="the session to end")
    await asyncio.sleep(0.5)
    gc.collect(1)  # young garbage (the last layout's closures) only
    alive = [name for name, ref in refs.items() if ref() is not None]
    assert alive == []


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
    to 24.5 MB (1 run in 5, 26 Nov 2026) when the server's collection lands while a wave's sessions
    are mid-way: what they drop afterwards (the new-table form) stays frozen until a sweep."""
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
