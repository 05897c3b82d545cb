"""The ladder over SSH: asyncssh clients as ladder bots, rated games, forfeits, a SIGKILLed server,
``leaderboard``, ``replay ID`` and read-only SFTP of the replays folder.

:class:`LadderBot` is also what a load benchmark needs to put ladder bots on a server
(``await LadderBot(port, "h1", "heuristic").run(stop)``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
import msgspec
import pytest

import engine
import replays
from bots import make_bot
from lobby.matchmaker import MatchPolicy
from lobby.store import Store
from serve.ssh_server import SaloonServer
from tests.ssh.conftest import make_server
from tests.ssh.termclient import connect, make_key, wait_until

GAME = "deadwood1876"
ROOT = Path(__file__).resolve().parents[2]


class _Message(msgspec.Struct):
    type: str
    seat: int = 0
    view: msgspec.Raw = msgspec.Raw(b"null")
    legal: msgspec.Raw = msgspec.Raw(b"[]")
    outcome: Any = None


_message = msgspec.json.Decoder(_Message)


class LadderBot:
    """A bot on the ladder over SSH: ``ladder --game GAME --players N,...``, answering each ``decide``
    with a :func:`bots.make_bot` bot (a new one per game), until told to stop.

    Args:
        port: the server's port on 127.0.0.1.
        user: the account name (its key comes from :func:`tests.ssh.termclient.make_key`).
        bot: the :func:`bots.make_bot` name that decides.
        game: the game id.
        players: the ``--players`` argument (``None``: every count).
        seed: the bots' seeds start here (one more per game).
        think_s: seconds to wait before each answer (0: answer at once), so that a game lasts.

    Attributes:
        places: the bot's engine rank in each game it finished (from the ``end`` messages).
        stderr: what the server wrote on stderr (its notes), once :meth:`run` returned.
        status: the exit status, once :meth:`run` returned (``None``: the connection was lost).
    """

    def __init__(
        self,
        port: int,
        user: str,
        bot: str = "random",
        game: str = GAME,
        players: str | None = "2",
        seed: int = 0,
        think_s: float = 0.0,
    ) -> None:
        self.port = port
        self.think_s = think_s
        self.user = user
        self.bot = bot
        self.game = game
        self.players = players
        self.seed = seed
        self.places: list[int] = []
        self.decisions = 0
        self.stderr = ""
        self.status: int | None = None
        self.conn: asyncssh.SSHClientConnection | None = None
        self.seated = asyncio.Event()

    @property
    def command(self) -> str:
        """The ssh command this bot runs."""
        return f"ladder --game {self.game}" + ("" if self.players is None else f" --players {self.players}")

    async def run(self, stop: asyncio.Event | None = None, games: int | None = None, quit_after: int = -1) -> None:
        """Play ladder games until ``stop`` is set (checked after each game) or ``games`` were played.

        Args:
            stop: ends the run when set: at once if the bot is queued, else after its game (the
                bot closes its input: exit status 0).
            games: ends the run after this many games.
            quit_after: drop the connection abruptly (no goodbye) before answering this many
                decisions (``-1``: never); the run then returns at once.
        """
        game = engine.game(self.game)
        view_type = msgspec.json.Decoder(game.view_type)
        legal_type = msgspec.json.Decoder(list[game.action_type])  # type: ignore[name-defined]
        self.conn = conn = await connect(self.port, self.user, make_key(self.user))
        watcher: asyncio.Task[None] | None = None
        try:
            process = await conn.create_process(self.command, encoding=None)
            idle = asyncio.Event()  # queued, between games
            idle.set()
            leaving = False

            def leave() -> None:
                nonlocal leaving
                if not leaving:
                    leaving = True
                    process.stdin.write_eof()

            async def leave_when_idle(stop: asyncio.Event) -> None:
                await stop.wait()
                while not idle.is_set():
                    await idle.wait()
                leave()

            if stop is not None:
                watcher = asyncio.create_task(leave_when_idle(stop))
            bot = make_bot(self.bot, self.seed)
            seat = 0
            while True:
                try:
                    line = await process.stdout.readline()
                except (asyncssh.Error, OSError):
                    return
                if not line:
                    break
                message = _message.decode(line)
                if message.type == "start":
                    idle.clear()
                    bot = make_bot(self.bot, self.seed + len(self.places))
                    seat = message.seat
                    self.seated.set()
                elif message.type == "decide" and not leaving:  # (seated again before the server saw the EOF)
                    if self.decisions == quit_after:
                        conn.abort()
                        return
                    view = view_type.decode(message.view)
                    legal = legal_type.decode(message.legal)
                    index = engine.legal_index(bot.act(view, legal, message.seat), legal)
                    self.decisions += 1
                    if self.think_s:
                        await asyncio.sleep(self.think_s)
                    process.stdin.write(b'{"action": %d}\n' % index)
                elif message.type == "end":
                    self.places.append(message.outcome["ranks"][seat])
                    idle.set()
                    if games is not None and len(self.places) >= games:
                        leave()
            await asyncio.wait_for(process.wait_closed(), 10)
            self.stderr = (await process.stderr.read()).decode()
            self.status = process.exit_status
        finally:
            if watcher is not None:
                watcher.cancel()
            conn.close()


async def run_command(port: int, user: str, command: str) -> tuple[int, bytes, str]:
    """Run ``command`` without a PTY; returns exit status, stdout (bytes) and stderr."""
    conn = await connect(port, user, make_key(user))
    try:
        result = await conn.run(command, encoding=None, timeout=20)
        return int(result.exit_status or 0), bytes(result.stdout or b""), bytes(result.stderr or b"").decode()
    finally:
        conn.close()


def ladder_rows(data_dir: Path) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """From the store on disk: each game row's players, and each game row's history names."""
    db = sqlite3.connect(data_dir / "saloon.db")
    try:
        games = {row[0]: json.loads(row[1]) for row in db.execute("SELECT id, players FROM games")}
        history: dict[int, list[str]] = {}
        for game_row, name in db.execute("SELECT game_row, name FROM ladder_history ORDER BY id"):
            history.setdefault(game_row, []).append(name)
        return games, history
    finally:
        db.close()


@pytest.fixture
async def ladder_server(tmp_path: Path) -> AsyncIterator[SaloonServer]:
    """A server whose ladder seats at once (no rating window, no wait) and gives up on a gone bot fast."""
    srv = make_server(
        tmp_path / "data",
        ladder_policy=MatchPolicy(max_wait_s=0.0),
        ladder_tick_s=0.05,
        bot_grace_s=0.2,
        ladder_connections_per_key=2,
    )
    await srv.start()
    try:
        yield srv
    finally:
        await srv.stop()


# Twelve bots, unattended ------------------------------------------------------------------------


@pytest.mark.slow
async def test_twelve_bots_play_200_rated_games_and_the_heuristic_bots_end_above_the_random_ones(
    tmp_path: Path,
) -> None:
    srv = make_server(tmp_path / "data", ladder_policy=MatchPolicy(max_wait_s=0.5), ladder_tick_s=0.05, bot_grace_s=0.2)
    await srv.start()
    try:
        heuristic = [LadderBot(srv.port, f"heuristic{i}", "heuristic", seed=100 * i) for i in range(6)]
        random = [LadderBot(srv.port, f"random{i}", "random", seed=1000 + 100 * i) for i in range(6)]
        stop = asyncio.Event()
        started = time.monotonic()
        runs = [asyncio.create_task(bot.run(stop)) for bot in heuristic + random]

        def played() -> int:
            return len(srv.store.games(limit=1000))

        await wait_until(lambda: played() >= 200, timeout=90, what="200 ladder games")
        elapsed = time.monotonic() - started
        stopped = time.time()
        stop.set()
        await asyncio.wait_for(asyncio.gather(*runs), 30)
        # A bot may be seated again just before its goodbye reaches the server: that game ends
        # with its seat forfeited after the grace time, played out by substitutes.
        await wait_until(lambda: srv.ladder.tables() == [], timeout=30, what="the last ladder games to end")
        games = played()
        print(f"ladder: {games} games in {elapsed:.1f} s: {60 * 200 / elapsed:.0f} games per minute")

        assert all(bot.status == 0 for bot in heuristic + random)
        assert sum(len(bot.places) for bot in heuristic + random) <= 2 * games
        records = srv.store.games(limit=1000)
        before_stop = [r for r in records if r.started < stopped]
        assert len(before_stop) >= 200 and all(r.faults == () for r in before_stop)
        standings = {s.name: s for s in srv.ladder.standings(GAME)}
        assert len(standings) == 12
        assert sum(s.games for s in standings.values()) == 2 * games
        # Heuristic beats random in about 9 games of 10 at two players. The matchmaker pairs
        # close ratings, so once the two kinds have separated they mostly play their own kind
        # and the ratings inside each kind spread out (one run: heuristic 14.7 to 24.8, random
        # 1.3 to 13.2): "every heuristic above every random" holds but by a margin one unlucky
        # run could eat. What holds by far: the best bot is heuristic, the worst is random, and
        # the heuristic bots' mean rating is well above the random ones' (by 14 in that run).
        shown = {n: round(s.rating, 1) for n, s in standings.items()}
        order = list(standings)
        assert order[0].startswith("heuristic") and order[-1].startswith("random"), shown
        mean_heuristic = sum(standings[b.user].rating for b in heuristic) / len(heuristic)
        mean_random = sum(standings[b.user].rating for b in random) / len(random)
        assert mean_heuristic > mean_random + 5, shown
        # Every game row has one history row per player, and every history row its game.
        rows, history = ladder_rows(srv.data_dir)
        assert len(rows) == games >= 200
        assert {row: sorted(names) for row, names in history.items()} == {
            row: sorted(names) for row, names in rows.items()
        }
    finally:
        await srv.stop()


# Forfeits ---------------------------------------------------------------------------------------


async def test_a_bot_killed_mid_game_forfeits_and_the_game_goes_on(ladder_server: SaloonServer) -> None:
    srv = ladder_server
    victim = LadderBot(srv.port, "victim", "random")
    survivor = LadderBot(srv.port, "survivor", "random", seed=7)
    killed = asyncio.create_task(victim.run(quit_after=3))
    survived = asyncio.create_task(survivor.run(games=1))
    await asyncio.wait_for(killed, 20)
    await asyncio.wait_for(survived, 30)

    assert survivor.status == 0 and len(survivor.places) == 1
    (record,) = srv.store.games()
    assert record.players in (("victim", "survivor"), ("survivor", "victim"))
    assert any("seat" in f and "(victim) forfeits" in f and "ranked last on the ladder" in f for f in record.faults)
    assert [p.place for p in srv.store.ladder_history(GAME, "victim")] == [2]
    assert [p.place for p in srv.store.ladder_history(GAME, "survivor")] == [1]
    assert srv.store.ladder_rating(GAME, "survivor").mu > 25.0 > srv.store.ladder_rating(GAME, "victim").mu
    loaded = replays.load(record.replay)
    assert loaded.outcome is not None and loaded.faults == record.faults


# Leaderboard, replay, SFTP, arguments -----------------------------------------------------------


async def test_leaderboard_replay_and_read_only_sftp(ladder_server: SaloonServer) -> None:
    srv = ladder_server
    long_name = "a-very-long-bot-name-024"  # 24 characters, the longest account name
    bots = [LadderBot(srv.port, long_name, "random", seed=1), LadderBot(srv.port, "bob", "random", seed=2)]
    await asyncio.wait_for(asyncio.gather(*(bot.run(games=2) for bot in bots)), 30)
    assert all(bot.status == 0 for bot in bots)
    assert "queued for the Deadwood 1876 ladder (2 players)" in bots[0].stderr
    assert "seated at rated table" in bots[0].stderr
    records = srv.store.games()
    assert len(records) == 2

    status, out, err = await run_command(srv.port, "carol", f"leaderboard {GAME} --json")
    assert status == 0 and err == ""
    board = json.loads(out)
    assert board["game"] == GAME and board["rating"].startswith("mu - 3 * sigma")
    assert [p["rank"] for p in board["players"]] == [1, 2]
    assert sorted(p["name"] for p in board["players"]) == sorted([long_name, "bob"])
    assert all(p["games"] == 2 and len(p["recent"]) == 2 and p["online"] is False for p in board["players"])
    best, second = board["players"]
    assert best["rating"] >= second["rating"]
    assert best["rating"] == pytest.approx(best["mu"] - 3 * best["sigma"], abs=1e-3)

    status, out, err = await run_command(srv.port, "carol", f"leaderboard {GAME}")
    text = out.decode()
    assert status == 0
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "rating = mu - 3*sigma" in text and "mu ± 3σ" in text
    row = next(line for line in text.splitlines() if long_name in line)
    assert row.split()[:2] in (["1", long_name], ["2", long_name])

    record = records[0]
    status, out, err = await run_command(srv.port, "carol", f"replay {record.id}")
    assert status == 0 and out == record.replay.read_bytes()
    downloaded = srv.data_dir.parent / "fetched.replay"
    downloaded.write_bytes(out)
    replays.verify(replays.load(downloaded))

    async with await connect(srv.port, "carol", make_key("carol")) as conn, conn.start_sftp_client() as sftp:
        names = sorted(n for n in await sftp.listdir("/") if n not in (".", ".."))
        assert names == sorted(r.replay.name for r in records)
        async with sftp.open(f"/{record.replay.name}", "rb") as remote:
            assert await remote.read() == record.replay.read_bytes()
        assert await sftp.realpath("/../..") == "/"
        for attempt in (
            sftp.open("/new.replay", "wb"),
            sftp.open(f"/{record.replay.name}", "r+b"),
            sftp.remove(f"/{record.replay.name}"),
            sftp.rename(f"/{record.replay.name}", "/x.replay"),
            sftp.mkdir("/dir"),
            sftp.chmod(f"/{record.replay.name}", 0o777),
        ):
            with pytest.raises(asyncssh.SFTPPermissionDenied):
                await attempt
    assert sorted(p.name for p in srv.store.replay_dir.iterdir()) == sorted(r.replay.name for r in records)


async def test_bad_ladder_arguments_exit_2_and_the_per_key_limit_refuses_one_more(
    ladder_server: SaloonServer,
) -> None:
    srv = ladder_server
    for command, message in [
        ("ladder", "the following arguments are required: --game"),
        ("ladder --game chess", "unknown game 'chess'"),
        (f"ladder --game {GAME} --players 1", "Deadwood 1876 is for 2-9 players, not 1"),
        (f"ladder --game {GAME} --players two", "--players 'two': expected player counts"),
        (f"ladder --game {GAME} --fast", "unrecognized arguments: --fast"),
        ("leaderboard", "the following arguments are required: game"),
        ("leaderboard chess", "unknown game 'chess'"),
        (f"leaderboard {GAME} --csv", "unrecognized arguments: --csv"),
        ("replay", "the following arguments are required: id"),
        ("replay x-1", "replay ID must be a game's number (digits 0-9 only) or its table's code"),
        ("replay x1", "no finished game of table X1 on this server"),
        ("replay 999", "no finished game 999 on this server"),
    ]:
        status, out, err = await run_command(srv.port, "dave", command)
        assert (status, out) == (2, b""), command
        assert message in err, (command, err)

    # Two ladder connections per key here: a third is refused while they are queued.
    first, second = LadderBot(srv.port, "erin", players="3"), LadderBot(srv.port, "erin", players="3")
    runs = [asyncio.create_task(first.run()), asyncio.create_task(second.run())]
    await wait_until(lambda: srv.ladder.members(make_key("erin").get_fingerprint()) == 2, what="two queued")
    status, out, err = await run_command(srv.port, "erin", f"ladder --game {GAME}")
    assert (status, out) == (1, b"")
    assert "erin already has 2 ladder connections, the most one key may hold" in err
    assert [e.name for e in srv.ladder.queued(GAME)] == ["erin", "erin"]  # never matched with itself
    srv.ladder.tick()
    assert srv.store.games() == [] and srv.ladder.tables(GAME) == []
    for bot in (first, second):
        assert bot.conn is not None
        bot.conn.close()
    await asyncio.wait_for(asyncio.gather(*runs), 10)
    await wait_until(lambda: srv.ladder.queued() == [], what="the queue to empty")


# SIGKILL ----------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _start_serve(data: Path, port: int) -> asyncio.subprocess.Process:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "saloon",
        "serve",
        "--port",
        str(port),
        "--data-dir",
        str(data),
        "--ladder-max-wait",
        "0",
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
        env=env,
        cwd=str(ROOT),
    )
    deadline = time.monotonic() + 30
    while True:
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return proc
        if time.monotonic() > deadline or proc.returncode is not None:
            proc.kill()
            raise AssertionError("saloon serve did not start")
        await asyncio.sleep(0.1)


@pytest.mark.slow
async def test_sigkill_of_the_server_loses_no_finished_game_or_rating(tmp_path: Path) -> None:
    data = tmp_path / "data"
    port = _free_port()
    proc = await _start_serve(data, port)
    try:
        bots = [LadderBot(port, f"bot{i}", "random", seed=i) for i in range(4)]
        runs = [asyncio.create_task(bot.run()) for bot in bots]

        def finished() -> int:
            if not (data / "saloon.db").exists():
                return 0
            return len(ladder_rows(data)[0])

        await wait_until(lambda: finished() >= 6, timeout=60, what="six ladder games")
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        await asyncio.wait_for(asyncio.gather(*runs, return_exceptions=True), 15)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()

    store = Store(data)
    try:
        records = store.games(limit=1000)
        rows, history = ladder_rows(data)
        assert len(records) == len(rows) >= 6
        assert {row: sorted(names) for row, names in history.items()} == {
            row: sorted(names) for row, names in rows.items()
        }
        for record in records:
            replays.verify(replays.load(record.replay))
        games_per_bot = {s.name: s.games for s in store.ladder_standings(GAME)}
        assert games_per_bot == dict(Counter(name for names in rows.values() for name in names))
        assert sum(games_per_bot.values()) == 2 * len(rows)
    finally:
        store.close()

    proc = await _start_serve(data, port)
    try:
        status, out, err = await run_command(port, "bot0", f"leaderboard {GAME} --json")
        assert status == 0
        players = json.loads(out)["players"]
        listed = {p["name"]: p["games"] for p in players if not p["house"]}
        assert listed == games_per_bot
        # saloon serve keeps its house bots on the ladder: listed, marked, with no game here yet
        assert {p["name"]: (p["games"], p["house"]) for p in players if p["house"]} == {
            "house:heuristic": (0, True),
            "house:quick": (0, True),
        }
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(proc.wait(), 15)
        except TimeoutError:
            proc.kill()
            await proc.wait()
