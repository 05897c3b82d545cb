"""The lobby's Ladder screen over a real SSH server (issue 13, "Seeing it"): the standings, the
queue (joining, leaving, being seated with a remote ladder bot and playing), and watching a live
ladder game; and its pieces without a server (the typed player counts, the shared standings reads)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lobby.ladder import Standing
from lobby.matchmaker import MatchPolicy
from lobby.store import Store
from lobby.tables import TableError
from replays import Player, Recorder
from serve.ssh_server import SaloonServer
from tests.ssh.conftest import make_server
from tests.ssh.termclient import Terminal, make_key, wait_until
from tests.ssh.test_ladder import LadderBot
from tui import ladder_screen
from tui.ladder_screen import parse_counts, shared_standings

GAME = "deadwood1876"


@pytest.fixture
async def ladder_server(tmp_path: Path) -> AsyncIterator[SaloonServer]:
    """A server whose ladder seats at once (no rating window, no wait)."""
    srv = make_server(tmp_path / "data", ladder_policy=MatchPolicy(max_wait_s=0.0), ladder_tick_s=0.05)
    await srv.start()
    try:
        yield srv
    finally:
        await srv.stop()


def record_rated_game(store: Store, code: str, names: tuple[str, str], ranks: tuple[int, int]) -> None:
    """Put one finished two-player ladder game between ``names`` in the store, rated by ``ranks``
    (``(1, 2)`` or ``(2, 1)``: the seat ranked 2 forfeited)."""
    recorder = Recorder(GAME, 2, 5, None, [Player(name, "bot") for name in names])
    state = recorder.state
    while not state.is_over:
        seat = state.to_act[0]
        recorder.apply(seat, state.legal_actions(seat)[0])
    store.record_game(code, recorder.replay(), 1.0, 2.0, rated=True, forfeits={ranks.index(2)})


def line_of(term: Terminal, name: str) -> list[str]:
    """The words of the screen line whose second word is ``name`` (a standings row)."""
    for words in (line.split() for line in term.text().splitlines()):
        if len(words) > 1 and words[1] == name:
            return words
    raise AssertionError(f"no row of {name} on the screen:\n{term.text()}")


async def type_counts(term: Terminal, counts: str) -> None:
    """``p``, then ``counts`` typed into the counts line once it has the focus (under load the
    typed keys may arrive before the focus moved, and are lost: then they are typed again)."""
    await term.press("p")
    for _ in range(3):
        await term.settle()  # the counts line has the focus
        await term.type(counts)
        shown = lambda: any("players (p):" in line and counts in line for line in term.text().splitlines())  # noqa: E731
        try:
            await wait_until(shown, timeout=3, what="the counts typed")
            return
        except AssertionError:
            continue
    raise AssertionError(f"the counts line never showed {counts!r}:\n{term.text()}")


async def test_the_ladder_screen_shows_each_games_standings(ladder_server: SaloonServer) -> None:
    srv = ladder_server
    for code, names, ranks in [
        ("AAAA", ("ann", "bob"), (1, 2)),
        ("BBBB", ("ann", "carl"), (1, 2)),
        ("CCCC", ("bob", "ann"), (2, 1)),
        ("DDDD", ("carl", "bob"), (2, 1)),
    ]:
        record_rated_game(srv.store, code, names, ranks)
    standings = srv.ladder.standings(GAME)
    assert [(s.name, s.games, s.recent, s.online) for s in standings] == [
        ("ann", 3, (1, 1, 1), False),
        ("bob", 3, (2, 2, 1), False),
        ("carl", 2, (2, 2), False),
    ]
    async with Terminal(srv.port, "alice", make_key("alice")) as term:
        await term.wait_for("l: ladder")
        await term.press("l")
        await term.wait_for("carl")
        text = term.text()
        assert "Ladder  ·  Deadwood 1876  ·  alice: rating 0.0 (0 games)" in text
        assert "game: [Deadwood 1876]  Wyatt Earp  Deadwood Studios  Deadwood (worker placement)   g: next game" in text
        assert "rank name rating mu ± 3σ games recent online" in " ".join(text.split())
        assert "Not in the queue. j joins the Deadwood 1876 queue (2-9 players" in text
        assert "Live ladder games  (no Deadwood 1876 ladder game is being played now)" in text
        for s in standings:
            spread = f"{3 * s.sigma:.1f}"
            assert line_of(term, s.name) == [
                str(s.rank),
                s.name,
                f"{s.rating:.1f}",
                f"{s.mu:.1f}",
                "±",
                spread,
                str(s.games),
                *map(str, s.recent),
            ]
        # Enter on a player: their rating after each recent game
        await term.press("enter")
        await term.wait_for("ann: rating after each of the last 3 games")
        history = srv.ladder.history(GAME, "ann")
        expected = "   ".join(f"{p.place}: {p.mu - 3 * p.sigma:.1f}" for p in history)
        assert expected in term.text()
        # the next game has no rated games yet
        await term.press("g")
        await term.wait_for("Nobody has played a rated game of Wyatt Earp yet.")
        assert "[Wyatt Earp]" in term.text() and "ann" not in term.text()
        await term.press("?")
        await term.wait_for("The ladder: help")
        await term.press("escape")
        await term.wait_for("[Wyatt Earp]")
        await term.press("escape")  # not queued: back to the lobby
        await term.wait_for("n: new table")
        assert "Ladder  ·" not in term.text()
    srv.lobby.ladder = None  # a server without a ladder
    srv.hall._ladder_changed()  # the fronts are told
    async with Terminal(srv.port, "alice", make_key("alice")) as term:
        await term.wait_for("l: ladder")
        await term.press("l")
        await term.wait_for("The ladder is off on this server.")
        await term.press("j")
        await term.wait_for("The ladder is off on this server.")


async def test_joining_and_leaving_the_queue(ladder_server: SaloonServer) -> None:
    srv = ladder_server
    ladder = srv.ladder
    async with Terminal(srv.port, "alice", make_key("alice")) as term:
        await term.wait_for("l: ladder")
        await term.press("l")
        await term.wait_for("Not in the queue")
        await term.press("j")
        await term.wait_for("(1 queued)")
        assert "Waiting in the queue for 0:0" in term.text()
        assert ": Deadwood 1876, 2-9 players  ·  j or Esc leaves the queue" in term.text()
        assert [(e.name, e.counts) for e in ladder.queued(GAME)] == [("alice", tuple(range(2, 10)))]
        await term.wait_for("Waiting in the queue for 0:01", timeout=3)  # the time waited counts up
        await term.press("j")  # j again leaves
        await term.wait_for("Not in the queue")
        assert ladder.queued(GAME) == [] and ladder.online(GAME) == set()
        # typed player counts; Enter in that line joins
        await type_counts(term, "2, 3")
        await term.press("enter")
        await term.wait_for("Deadwood 1876, 2 or 3 players")
        assert [(e.name, e.counts) for e in ladder.queued(GAME)] == [("alice", (2, 3))]
        await term.press("escape")  # Esc leaves the queue, on the Ladder screen
        await term.wait_for("Not in the queue")
        assert ladder.queued(GAME) == []
        await type_counts(term, "12")
        await term.press("enter")
        await term.wait_for("this game is for 2-9 players, not 12")
        assert ladder.queued(GAME) == []
        await term.press("escape", "escape")  # out of the counts line, then back to the lobby
        await term.wait_for("n: new table")
        await term.press("l")
        await term.wait_for("Not in the queue")
        await term.press("j")
        await term.wait_for("(1 queued)")
        assert [e.name for e in ladder.queued(GAME)] == ["alice"]
    # the session ended while queued: out of the queue, nothing left listening
    await wait_until(lambda: srv.sessions == set(), what="the session to end")
    assert ladder.queued() == [] and ladder.online(GAME) == set()
    assert ladder._listeners == {srv.hall._ladder_watch} and srv.lobby._listeners == {srv.hall._lobby_watch}


async def test_a_queued_person_is_seated_with_a_ladder_bot_plays_and_is_watched(ladder_server: SaloonServer) -> None:
    srv = ladder_server
    ladder = srv.ladder
    bot = LadderBot(srv.port, "rob", "random", players="2")
    run: asyncio.Task[None] | None = None
    try:
        async with Terminal(srv.port, "alice", make_key("alice"), size=(140, 45)) as alice:
            await alice.wait_for("l: ladder")
            await alice.press("l")
            await alice.wait_for("Not in the queue")
            await alice.press("j")
            await alice.wait_for("(1 queued)")
            run = asyncio.create_task(bot.run(games=1))
            await alice.wait_for("you: seat")
            (table,) = ladder.tables(GAME)
            seat = next(s.index for s in table.seats if s.name == "alice")
            assert table.rated and sorted(s.name for s in table.seats) == ["alice", "rob"]
            assert [s.kind for s in table.seats if s.index == seat] == ["human"]
            assert f"Table {table.code}" in alice.text() and f"you: seat {seat}" in alice.text()
            assert type(srv.front_side(table.seats[seat].controller)).__name__ == "ServerTableScreen"
            assert ladder.queued() == []

            # alice plays a move when it is hers (only hers: the bot cannot have moved meanwhile)
            await wait_until(lambda: table.to_act() == (seat,), what="alice's turn")
            await alice.wait_for("Your move")
            before = table.num_moves
            for _ in range(3):  # "1" may open a group of moves first
                await alice.press("1")
                with contextlib.suppress(AssertionError):
                    await wait_until(lambda: table.num_moves > before, timeout=1.0)
                    break
            assert table.num_moves > before

            # bob sees both online and the live game, and watches it
            async with Terminal(srv.port, "bob", make_key("bob"), size=(140, 45)) as bob:
                await bob.wait_for("l: ladder")
                await bob.press("l")
                await bob.wait_for("Live ladder games  (1;")
                # The standings follow within a second (one store read a second for all sessions).
                await wait_until(lambda: all(f" {name} " in bob.text() for name in ("alice", "rob")), what="the rows")
                assert line_of(bob, "alice")[-1] == "yes" and line_of(bob, "rob")[-1] == "yes"
                rows = [line.split() for line in bob.text().splitlines() if line.split()[:1] == [table.code]]
                assert [row[-1] for row in rows] == ["0"], bob.text()  # nobody watching yet
                await bob.press("w")
                await bob.wait_for(f"Table {table.code}")
                await bob.wait_for("watching")
                assert len(table.spectators) == 1
                await bob.press("ctrl+l")  # back to the Ladder screen
                await bob.wait_for("Live ladder games  (1;")
                assert table.spectators == set()
            await alice.press("ctrl+l")  # leaving a ladder game forfeits it: asked first
            await alice.wait_for("You forfeit it.")
            await alice.press("n")  # keep playing
            await alice.wait_for(f"you: seat {seat}")
            assert table.forfeits == set() and table.seats[seat].controller is not None
            await alice.press("ctrl+l")
            await alice.wait_for("You forfeit it.")
            await alice.press("y")  # alice leaves the table: back on the Ladder screen, not queued
            await alice.wait_for(
                f"You are playing at ladder table {table.code} (Deadwood 1876) (a bot plays your seat)"
            )
            assert ladder.queued() == [] and table.forfeits == {seat}  # leaving a rated game forfeits it
            await alice.press("t")  # back to the seat
            await alice.wait_for(f"you: seat {seat}")
            assert type(srv.front_side(table.seats[seat].controller)).__name__ == "ServerTableScreen"
            assert not table.seats[seat].substitute
    finally:
        if run is not None:
            run.cancel()
            with contextlib.suppress(BaseException):
                await run
        # the server sees the bot's connection gone (else its shutdown waits for it)
        await wait_until(lambda: all(s.controller is None for t in ladder.tables() for s in t.seats), timeout=5)


async def test_seated_while_watching_a_ladder_game_the_watch_gives_way_to_the_table(
    ladder_server: SaloonServer,
) -> None:
    srv = ladder_server
    ladder = srv.ladder
    # the pair thinks a little, so that a game of theirs is on the Ladder screen long enough to watch
    pair = [
        LadderBot(srv.port, name, "random", players="2", seed=i, think_s=0.05) for i, name in enumerate(["rob", "sam"])
    ]
    trio = [LadderBot(srv.port, name, "random", players="3", seed=9 + i) for i, name in enumerate(["tom", "uma"])]
    runs: list[asyncio.Task[None]] = []
    try:
        async with Terminal(srv.port, "alice", make_key("alice"), size=(140, 45)) as alice:
            await alice.wait_for("l: ladder")
            await alice.press("l")
            await alice.wait_for("Not in the queue")
            await type_counts(alice, "3")
            await alice.press("enter")
            await alice.wait_for("Deadwood 1876, 3 players")
            runs += [asyncio.create_task(bot.run(games=50)) for bot in pair]
            await alice.wait_for("Live ladder games  (1;")
            await alice.press("w")
            await alice.wait_for("watching")
            (app,) = srv.sessions
            assert [type(s).__name__ for s in app.screen_stack[1:]] == [
                "LobbyScreen",
                "LadderScreen",
                "ServerTableScreen",
            ]
            runs += [asyncio.create_task(bot.run(games=1)) for bot in trio]
            await alice.wait_for("you: seat")
            (table,) = [t for t in ladder.tables(GAME) if t.num_players == 3]
            assert sorted(s.name for s in table.seats) == ["alice", "tom", "uma"]
            assert [type(s).__name__ for s in app.screen_stack[1:]] == [
                "LobbyScreen",
                "LadderScreen",
                "ServerTableScreen",
            ]
            assert app.screen.table.code == table.code and app.screen.want_seat
            shown = [srv.front_side(e) for t in srv.lobby.tables.values() for e in t.spectators]
            assert app.screen not in shown
            await alice.press("ctrl+l")  # back to the Ladder screen, not to the game watched before
            await alice.wait_for("You forfeit it.")
            await alice.press("y")
            await alice.wait_for(f"You are playing at ladder table {table.code}")
    finally:
        for run in runs:
            run.cancel()
            with contextlib.suppress(BaseException):
                await run
        await wait_until(lambda: all(s.controller is None for t in ladder.tables() for s in t.seats), timeout=5)


# The screen's pieces without a server -----------------------------------------------------------


def test_parse_counts_reads_lists_and_ranges() -> None:
    assert parse_counts("", 2, 9) is None and parse_counts("All", 2, 9) is None
    assert parse_counts("2,3", 2, 9) == (2, 3)
    assert parse_counts(" 5 3, 3-4 ", 2, 9) == (3, 4, 5)
    with pytest.raises(TableError, match="this game is for 2-4 players, not 5"):
        parse_counts("2 5", 2, 4)
    with pytest.raises(TableError, match="this game is for 2-9 players, not 4-3"):
        parse_counts("4-3", 2, 9)
    with pytest.raises(TableError, match="player counts are numbers like 2,3 or 2-4, not 'two'"):
        parse_counts("two", 2, 9)


@given(st.sets(st.integers(2, 9), min_size=1))
def test_parse_counts_reads_back_any_set_written_as_a_list(counts: set[int]) -> None:
    assert parse_counts(",".join(map(str, sorted(counts, reverse=True))), 2, 9) == tuple(sorted(counts))


class _CountingLadder:
    """Stands in for the ladder: counts the reads of its standings."""

    def __init__(self) -> None:
        self.reads = 0

    async def standings(self, game: str) -> list[Standing]:
        self.reads += 1
        return [Standing(1, f"read{self.reads}", 0.0, 25.0, 25 / 3, 0, (), False)]


async def test_standings_are_read_once_per_key_and_at_most_once_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(ladder_screen.time, "monotonic", lambda: now[0])
    ladder = _CountingLadder()
    rows, fresh = await shared_standings(ladder, GAME, "k1")
    assert ([r.name for r in rows], fresh, ladder.reads) == (["read1"], True, 1)
    assert await shared_standings(ladder, GAME, "k1") == (rows, True) and ladder.reads == 1  # another session: shared
    now[0] += 0.5
    assert await shared_standings(ladder, GAME, "k2") == (rows, False) and ladder.reads == 1  # too soon: the last read
    now[0] += 0.5
    rows, fresh = await shared_standings(ladder, GAME, "k2")
    assert ([r.name for r in rows], fresh, ladder.reads) == (["read2"], True, 2)
    rows, fresh = await shared_standings(ladder, "wyatt_earp", "k2")  # each game has its own
    assert ([r.name for r in rows], fresh, ladder.reads) == (["read3"], True, 3)
