"""What one spectator redraw of a server table screen costs the server (a script, not a timed test).

    python tests/bench/redraw_cost.py [--games deadwood1876,wyatt_earp,...] [--players 4]
                                      [--moves 150] [--stride 1] [--seed 1] [--profile 25]
                                      [--check FILE] [--lobby N | --keys N | --build]

For each game, a table of ``--players`` stand-in people (no bots, no turn timer) is opened in a
lobby, served by a hall to a front in this process (over a socket pair, as the tests' ``front``
fixture does), and an :class:`~tui.lobby_screen.SSHApp` of that front (120x40, 256 colours, as an
SSH session) opens its :class:`~tui.table_screen.ServerTableScreen` as a spectator. The script
then plays the game with random legal moves (``random.Random(--seed)``), ``--stride`` moves at a
time (a spectator of a bot table sees several moves per throttled redraw), waits until the front
has them, and after each stride measures the CPU time (``time.process_time``, not wall-clock:
the machine may be shared) of one redraw: the screen's
``redraw()`` plus the layout, the compositor's update and the rendering of that update into
terminal output that Textual then does on its own (the app is made to render as if it had a
terminal; the output is counted and dropped). Games are replayed with new seeds until ``--moves``
redraws were measured.

Prints per game: the median, mean and 90th percentile of ms per redraw, the median bytes of
terminal output per redraw, and how many redraws laid the screen out again; the idle cost of
the same wait without a redraw is measured and subtracted. With ``--profile N`` the top ``N``
functions (by own time and by cumulative time) of all the measured redraws are printed.

With ``--lobby N``, the script measures a lobby's redraw instead: a lobby listing ``N`` tables of
``--players`` stand-ins (each a few moves into its game), redrawn after each change that a
session's lobby sees over and over when bots play: a move at one table (one cell changes: its
``playing (move N)``) or a table coming (a new row, and the oldest table dropped so the list keeps
its length). ``--moves`` redraws are measured, one in five after a table came; the two kinds are
reported apart.

With ``--keys N``, the script measures a keystroke in the lobby instead: a lobby session listing
``N`` tables (as with ``--lobby``) presses Down through the listing and Up back again, ``--moves``
keys, each posted to the app as the SSH driver posts it; the CPU time of each key's handling, the
layout, the compositor's update and its rendering into terminal output is measured as a redraw's
is (the idle cost subtracted), with the bytes of terminal output per key.

With ``--build``, the script measures what building a table screen costs instead: per game, a
spectator's :class:`~tui.table_screen.ServerTableScreen` is pushed (composed, mounted and drawn
once) ``--moves`` times over (at most 20), each at a new table a few moves into its game, with the
garbage collector off; it reports the median CPU time of one build and how many objects the
collector tracks (``gc.get_objects()``) that it did not track before: all that the build left
(``made``: what a collection right then would have to scan) and what stays once a collection
has run (``kept``); the medians, and the first build's (the session's first table screen). The
hall that serves the front runs in the same process here: what it makes for the new watcher
(a few hundred objects) is counted too.

The games are the same from run to run (the tables' seeds and codes come from ``--seed``), so
``--check FILE`` can show that a change to the screens leaves what they show as it was: the
first run writes a digest of the whole screen (every cell's text and style, and the
notifications) after each redraw to ``FILE``; a later run with the same arguments compares its
screens with those and reports the redraws that differ.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import hashlib
import json
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from rich.color import ColorSystem  # noqa: E402
from textual import events  # noqa: E402
from textual.drivers.headless_driver import HeadlessDriver  # noqa: E402
from textual.screen import Screen  # noqa: E402

import lobby.tables as lobby_tables  # noqa: E402
import serve.hall as hall_module  # noqa: E402
from lobby.client import HallClient  # noqa: E402
from lobby.store import Store  # noqa: E402
from lobby.tables import Identity, Lobby, SeatSpec, ServerConfig, Table  # noqa: E402
from serve.hall import Hall  # noqa: E402
from serve.ssh_driver import _configure_console  # noqa: E402
from tui.lobby_screen import SSHApp  # noqa: E402
from tui.table_screen import ServerTableScreen  # noqa: E402

GAMES = ("deadwood1876", "wyatt_earp", "deadwood_studios", "deadwood_town")
MOVES_TICK_S = 0.02
"""How often the hall sends the lobby's move numbers to the front here (the server's every second)."""
SETTLE_S = 0.04
"""How long the app runs after a redraw for Textual to lay out and render it (its update timer
fires at 60 Hz)."""


class RenderingDriver(HeadlessDriver):
    """A headless driver that says it is not: the app renders each update into terminal output
    (as over SSH), which is counted here and dropped."""

    written = 0

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        RenderingDriver.written += len(data.encode("utf-8"))


class Person:
    """A stand-in for a seated person: the script plays its moves through :meth:`Table.play`."""

    def __init__(self, name: str) -> None:
        self.identity = Identity(name, f"key-{name}")

    def changed(self, what: Any) -> None:
        pass

    def seat_lost(self, table: Any, seat: int, reason: str) -> None:
        pass


class Layouts:
    """Counts the screen layouts Textual makes while installed."""

    count = 0

    @classmethod
    def install(cls) -> None:
        original = Screen._refresh_layout

        def counted(screen: Screen[Any], *args: Any, **kwargs: Any) -> None:
            cls.count += 1
            original(screen, *args, **kwargs)

        Screen._refresh_layout = counted  # type: ignore[method-assign]


class SeededSecrets:
    """Stands in for :mod:`secrets` in :mod:`lobby.tables`: tables' seeds and codes from a seed."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def randbits(self, k: int) -> int:
        return self._rng.getrandbits(k)

    def choice(self, seq: Any) -> Any:
        return self._rng.choice(seq)


def screen_digest(app: SSHApp, notes: list[str]) -> str:
    """A digest of the whole screen now (each cell's text and the terminal codes of its style,
    however Textual cut the lines into segments, empty segments left out) and of ``notes``."""
    digest = hashlib.sha256()
    codes: dict[Any, str] = {}
    for strip in app.screen._compositor.render_strips():
        runs: list[list[str]] = []
        for segment in strip:
            if not segment.text:  # no cell
                continue
            style = segment.style
            if style not in codes:
                codes[style] = "" if style is None else style.render("\x00", color_system=ColorSystem.EIGHT_BIT)
            if runs and runs[-1][0] == codes[style]:
                runs[-1][1] += segment.text
            else:
                runs.append([codes[style], segment.text])
        digest.update(repr(runs).encode())
    digest.update("\x02".join(notes).encode())
    return digest.hexdigest()[:16]


@contextlib.asynccontextmanager
async def front_of(lobby: Lobby, data_dir: str) -> AsyncIterator[Any]:
    """The lobby as a front's sessions see it: a :class:`lobby.client.LobbyMirror` kept by a hall
    serving ``lobby`` over the protocol (a socket pair in this event loop), as the tests' front
    fixture does. The lobby's move numbers reach it every :data:`MOVES_TICK_S`."""
    hall_module.MOVES_TICK_S = MOVES_TICK_S
    hall = Hall(data_dir, lobby.config)
    hall.adopt(lobby)
    client = HallClient("bench front")
    await hall.connect_front(client)
    try:
        yield client.lobby
    finally:
        await client.close()
        await hall.stop()


async def until(pilot: Any, condition: Any, what: str, timeout: float = 10.0) -> None:
    """Let the app run (the hall's messages reach the front) until ``condition()`` holds."""
    waited = 0.0
    while not condition():
        if waited > timeout:
            raise TimeoutError(f"the front never saw {what}")
        await pilot.pause(0.005)
        waited += 0.005


def new_table(lobby: Lobby, game_id: str, players: int) -> tuple[Table, list[Person]]:
    """A started table of ``players`` stand-ins (seat ``i`` is ``people[i]``)."""
    creator = Identity("creator", "key-creator")
    table = lobby.create_table(creator, game_id, players, [SeatSpec("open")] * players, None)
    people = [Person(f"p{i}") for i in range(players)]
    for person in people:
        table.sit(person)  # type: ignore[arg-type]
    assert table.status == "playing"
    return table, people


def play_random(table: Table, people: list[Person], rng: random.Random) -> bool:
    """Play one random legal move at ``table`` for whichever stand-in is to act; False (and no
    move) once the game is over."""
    state = table.state
    assert state is not None
    if state.is_over:
        return False
    seat = state.to_act[0]
    table.play(people[seat], rng.choice(state.legal_actions(seat)))  # type: ignore[arg-type]
    return True


async def measure_game(
    game_id: str,
    players: int,
    moves: int,
    stride: int,
    seed: int,
    profiler: cProfile.Profile | None,
    digests: list[str] | None = None,
) -> dict[str, Any]:
    """Redraw costs of a spectator's table screen of ``game_id`` (see the module docstring);
    with ``digests``, each redraw's :func:`screen_digest` is appended to it."""
    rng = random.Random(seed)
    lobby_tables.secrets = SeededSecrets(seed)  # type: ignore[attr-defined]
    measured: tuple[list[float], list[int], list[float], list[bool]] = ([], [], [], [])
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(bot_delay_s=0, turn_timer_s=None, max_open_tables_per_account=1000)
        lobby = Lobby(Store(tmp), config)
        async with front_of(lobby, tmp) as mirror:
            app = SSHApp(mirror, Identity("watcher", "key-watcher"))
            notes: list[str] = []
            app.notify = lambda message, **kwargs: notes.append(str(message))  # type: ignore[method-assign]
            async with app.run_test(size=(120, 40)) as pilot:
                _configure_console(app, "256")
                app._driver.__class__ = RenderingDriver  # type: ignore[union-attr]
                await pilot.pause(0.2)
                run = (game_id, players, moves, stride)
                await measure_redraws(app, pilot, lobby, mirror, run, rng, profiler, measured, digests, notes)
    costs, sizes, idle, laid_out = measured
    base = statistics.median(idle)
    all_ms = [max(0.0, c - base) * 1000 for c in costs]
    ms = sorted(all_ms)
    quiet = [m for m, laid in zip(all_ms, laid_out, strict=True) if not laid] or [0.0]
    return {
        "game": game_id,
        "players": players,
        "redraws": len(ms),
        "median_ms": round(statistics.median(ms), 2),
        "mean_ms": round(statistics.fmean(ms), 2),
        "p90_ms": round(ms[int(0.9 * (len(ms) - 1))], 2),
        "median_bytes": int(statistics.median(sizes)),
        "layouts": sum(laid_out),
        "median_ms_without_layout": round(statistics.median(quiet), 2),
        "idle_ms": round(base * 1000, 2),
    }


async def measure_redraws(
    app: SSHApp,
    pilot: Any,
    lobby: Lobby,
    mirror: Any,
    run: tuple[str, int, int, int],
    rng: random.Random,
    profiler: cProfile.Profile | None,
    measured: tuple[list[float], list[int], list[float], list[bool]],
    digests: list[str] | None,
    notes: list[str],
) -> None:
    """The redraws of :func:`measure_game` (``run``: the game, players, redraws and stride), into
    ``measured`` (costs, sizes, idle costs, layouts)."""
    game_id, players, moves, stride = run
    costs, sizes, idle, laid_out = measured
    while len(costs) < moves:
        table, people = new_table(lobby, game_id, players)
        await until(pilot, lambda: table.code in {t.code for t in mirror.listing()}, "the new table")  # noqa: B023
        screen = ServerTableScreen(mirror.table(table.code), sit=False)
        await app.push_screen(screen)
        screen._refresh = lambda: None  # type: ignore[method-assign]  # only the measured redraws
        await pilot.pause(0.3)
        shown = mirror.table(table.code)
        while len(costs) < moves and not table.is_over:
            for _ in range(stride):
                if not play_random(table, people, rng):
                    break
            await until(pilot, lambda: shown.num_moves == table.num_moves, "the move")  # noqa: B023
            sizes.append(await measure_one(pilot, screen.redraw, profiler, costs, idle))
            laid_out.append(LAST_LAID[0])
            if digests is not None:
                digests.append(screen_digest(app, notes))
        screen.leave(for_good=True)
        app.pop_screen()
        await pilot.pause(0.1)


LAST_LAID = [False]
"""Whether the last :func:`measure_one` laid the screen out."""


async def measure_one(
    pilot: Any, act: Any, profiler: cProfile.Profile | None, costs: list[float], idle: list[float]
) -> int:
    """The CPU time of ``act()`` and the drawing it causes (appended to ``costs``), less nothing:
    the same wait without it is appended to ``idle``; returns the bytes written to the terminal."""
    t0 = time.process_time()
    await pilot.pause(SETTLE_S)  # the same wait, nothing to draw
    idle.append(time.process_time() - t0)
    written, laid = RenderingDriver.written, Layouts.count
    if profiler is not None:
        profiler.enable()
    t0 = time.process_time()
    act()
    await pilot.pause(SETTLE_S)
    costs.append(time.process_time() - t0)
    if profiler is not None:
        profiler.disable()
    LAST_LAID[0] = Layouts.count > laid
    return RenderingDriver.written - written


async def measure_lobby(
    game_id: str, players: int, tables: int, redraws: int, seed: int, profiler: cProfile.Profile | None
) -> dict[str, Any]:
    """Redraw costs of a lobby listing ``tables`` tables (see the module docstring)."""
    rng = random.Random(seed)
    lobby_tables.secrets = SeededSecrets(seed)  # type: ignore[attr-defined]
    costs: dict[str, list[float]] = {"move": [], "table": []}
    idle: list[float] = []
    laid_out: dict[str, int] = {"move": 0, "table": 0}
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(bot_delay_s=0, turn_timer_s=None, max_open_tables_per_account=1000)
        lobby = Lobby(Store(tmp), config)
        live: list[tuple[Table, list[Person]]] = []

        def open_one() -> None:
            table, people = new_table(lobby, game_id, players)
            for _ in range(rng.randrange(1, 20)):
                play_random(table, people, rng)
            live.append((table, people))

        for _ in range(tables):
            open_one()
        async with front_of(lobby, tmp) as mirror:
            app = SSHApp(mirror, Identity("watcher", "key-watcher"))
            async with app.run_test(size=(120, 40)) as pilot:
                _configure_console(app, "256")
                app._driver.__class__ = RenderingDriver  # type: ignore[union-attr]
                screen = app.screen
                screen._refresh = lambda: None  # type: ignore[attr-defined]  # only the measured redraws
                await pilot.pause(0.3)
                for n in range(redraws):
                    kind = "table" if n % 5 == 4 else "move"
                    if kind == "table":
                        del lobby.tables[live.pop(0)[0].code]  # gone from the list (as a table long over)
                        open_one()
                        listed = {t.code for t, _ in live}
                        await until(pilot, lambda: {t.code for t in mirror.listing()} == listed, "the new table")  # noqa: B023
                    else:
                        table, people = rng.choice(live)
                        play_random(table, people, rng)
                        await until(pilot, lambda: mirror.table(table.code).num_moves == table.num_moves, "the move")  # noqa: B023
                    await measure_one(pilot, screen.redraw, profiler, costs[kind], idle)  # type: ignore[attr-defined]
                    laid_out[kind] += LAST_LAID[0]
    base = statistics.median(idle)
    result: dict[str, Any] = {"tables": tables, "idle_ms": round(base * 1000, 2)}
    for kind, spent in costs.items():
        result[f"{kind}_median_ms"] = round(statistics.median(max(0.0, c - base) * 1000 for c in spent), 2)
        result[f"{kind}_layouts"] = f"{laid_out[kind]}/{len(spent)}"
    return result


async def measure_keys(
    game_id: str, players: int, tables: int, keys: int, seed: int, profiler: cProfile.Profile | None
) -> dict[str, Any]:
    """CPU time per keystroke of a lobby session moving through a listing of ``tables`` tables
    (see the module docstring)."""
    rng = random.Random(seed)
    lobby_tables.secrets = SeededSecrets(seed)  # type: ignore[attr-defined]
    costs: list[float] = []
    idle: list[float] = []
    sizes: list[int] = []
    laid_out = 0
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(bot_delay_s=0, turn_timer_s=None, max_open_tables_per_account=1000)
        lobby = Lobby(Store(tmp), config)
        for _ in range(tables):
            table, people = new_table(lobby, game_id, players)
            for _ in range(rng.randrange(1, 20)):
                play_random(table, people, rng)
        async with front_of(lobby, tmp) as mirror:
            app = SSHApp(mirror, Identity("watcher", "key-watcher"))
            async with app.run_test(size=(120, 40)) as pilot:
                _configure_console(app, "256")
                app._driver.__class__ = RenderingDriver  # type: ignore[union-attr]
                app.screen._refresh = lambda: None  # type: ignore[attr-defined]  # no lobby redraws
                await pilot.pause(0.3)
                steps = ["down"] * (tables - 1) + ["up"] * (tables - 1)
                for n in range(keys):
                    key = events.Key(steps[n % len(steps)], None)
                    sizes.append(await measure_one(pilot, lambda: app.post_message(key), profiler, costs, idle))  # noqa: B023
                    laid_out += LAST_LAID[0]
    base = statistics.median(idle)
    ms = sorted(max(0.0, c - base) * 1000 for c in costs)
    return {
        "tables": tables,
        "keys": len(ms),
        "median_ms": round(statistics.median(ms), 2),
        "p90_ms": round(ms[int(0.9 * (len(ms) - 1))], 2),
        "median_bytes": int(statistics.median(sizes)),
        "layouts": f"{laid_out}/{len(ms)}",
        "idle_ms": round(base * 1000, 2),
    }


async def measure_build(game_id: str, players: int, builds: int, seed: int) -> dict[str, Any]:
    """What building a spectator's table screen of ``game_id`` costs (see the module docstring)."""
    rng = random.Random(seed)
    lobby_tables.secrets = SeededSecrets(seed)  # type: ignore[attr-defined]
    cpu: list[float] = []
    made: list[int] = []
    kept: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(bot_delay_s=0, turn_timer_s=None, max_open_tables_per_account=1000)
        lobby = Lobby(Store(tmp), config)
        async with front_of(lobby, tmp) as mirror:
            app = SSHApp(mirror, Identity("watcher", "key-watcher"))
            async with app.run_test(size=(120, 40)) as pilot:
                _configure_console(app, "256")
                app._driver.__class__ = RenderingDriver  # type: ignore[union-attr]
                await pilot.pause(0.2)
                for _ in range(builds):
                    table, people = new_table(lobby, game_id, players)
                    for _ in range(rng.randrange(5, 40)):
                        play_random(table, people, rng)
                    await until(pilot, lambda: table.code in {t.code for t in mirror.listing()}, "the table")  # noqa: B023
                    await pilot.pause(0.1)
                    screen = ServerTableScreen(mirror.table(table.code), sit=False)
                    gc.collect()
                    gc.disable()
                    try:
                        before = {id(o) for o in gc.get_objects()}
                        t0 = time.process_time()
                        await app.push_screen(screen)
                        await until(pilot, lambda: screen._view is not None, "the table's view")  # noqa: B023
                        await pilot.pause(SETTLE_S)
                        cpu.append(time.process_time() - t0)
                        made.append(sum(1 for o in gc.get_objects() if id(o) not in before))
                        gc.collect()
                        kept.append(sum(1 for o in gc.get_objects() if id(o) not in before))
                    finally:
                        gc.enable()
                        del before
                    screen.leave(for_good=True)
                    app.pop_screen()
                    await pilot.pause(0.1)
    return {
        "game": game_id,
        "builds": len(cpu),
        "median_ms": round(statistics.median(cpu) * 1000, 1),
        "made_objects": int(statistics.median(made)),
        "kept_objects": int(statistics.median(kept)),
        "first_made_objects": made[0],
        "first_kept_objects": kept[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--moves", type=int, default=150, help="redraws measured per game")
    parser.add_argument("--stride", type=int, default=1, help="moves between two redraws")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the top N functions")
    parser.add_argument("--check", type=Path, metavar="FILE", help="write, or compare with, the screens' digests")
    parser.add_argument("--lobby", type=int, default=0, metavar="N", help="measure a lobby listing N tables")
    parser.add_argument("--keys", type=int, default=0, metavar="N", help="measure keys in a lobby listing N tables")
    parser.add_argument("--build", action="store_true", help="measure building a table screen")
    args = parser.parse_args()
    Layouts.install()
    profiler = cProfile.Profile() if args.profile else None
    if args.build:
        for game_id in args.games.split(","):
            print(json.dumps(asyncio.run(measure_build(game_id, args.players, min(args.moves, 20), args.seed))))
        return
    if args.keys:
        game_id = args.games.split(",")[0]
        result = asyncio.run(measure_keys(game_id, args.players, args.keys, args.moves, args.seed, profiler))
        print(json.dumps(result))
        if profiler is not None:
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.profile)
        return
    if args.lobby:
        game_id = args.games.split(",")[0]
        result = asyncio.run(measure_lobby(game_id, args.players, args.lobby, args.moves, args.seed, profiler))
        print(json.dumps(result))
        if profiler is not None:
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.profile)
        return
    expected = json.loads(args.check.read_text()) if args.check and args.check.exists() else None
    found: dict[str, list[str]] = {}
    print(
        f"{'game':18} {'players':>7} {'redraws':>7} {'median ms':>9} {'mean ms':>8} {'p90 ms':>7} "
        f"{'bytes':>6} {'layouts':>7} {'no-layout median ms':>19}"
    )
    for game_id in args.games.split(","):
        digests: list[str] = []
        r = asyncio.run(measure_game(game_id, args.players, args.moves, args.stride, args.seed, profiler, digests))
        found[game_id] = digests
        print(
            f"{r['game']:18} {r['players']:>7} {r['redraws']:>7} {r['median_ms']:>9.2f} {r['mean_ms']:>8.2f} "
            f"{r['p90_ms']:>7.2f} {r['median_bytes']:>6} {r['layouts']:>7} {r['median_ms_without_layout']:>19.2f}"
            f"   (idle wait {r['idle_ms']:.2f} ms)",
            flush=True,
        )
    if args.check and expected is None:
        args.check.write_text(json.dumps(found))
        print(f"screens written to {args.check}")
    elif args.check and expected is not None:
        for game_id, digests in found.items():
            differ = [n for n, (a, b) in enumerate(zip(digests, expected.get(game_id, []), strict=False)) if a != b]
            print(f"{game_id}: {len(digests)} screens, {len(differ)} differ from {args.check}: {differ[:20]}")
    if profiler is not None:
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime").print_stats(args.profile)
        stats.sort_stats("cumulative").print_stats(args.profile)


if __name__ == "__main__":
    main()
