"""Issue 15, "the first hour": what a new player and a new bot author meet first on the SSH saloon.

The turn timer's countdown and the move it forces, the new-table form's defaults and hints, the
creator's "fill with bots and start", the lobby's keys (help, your table, finished tables, recent
games, the watcher count), the game-over dialog, the login message for a key of another name, and
remote bots (the waiting notice, their own short grace time).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated, Any, Literal

import msgspec
import pytest

import engine
from lobby.store import Store
from lobby.tables import Identity, Lobby, SeatSpec, ServerConfig, TableError
from serve.ssh_server import SaloonServer, main
from tests.ssh.conftest import make_server
from tests.ssh.tablehelpers import count_down_to_a_forced_move
from tests.ssh.termclient import Terminal, connect, make_key, wait_until
from tests.ssh.test_server import new_table, run_command

GAME = "deadwood1876"


class Person:
    """A stand-in for a session: an identity that records what it was told."""

    def __init__(self, name: str, key: str | None = None) -> None:
        self.identity = Identity(name, key or f"key-{name}")
        self.lost: list[str] = []

    def changed(self, what: Any) -> None:
        pass

    def seat_lost(self, table: Any, seat: int, reason: str) -> None:
        self.lost.append(reason)


def row_of(term: Terminal, code: str) -> list[str]:
    """The lobby's row of table ``code``, cell by cell (the code may carry a ``*``)."""
    line = next(line for line in term.text().splitlines() if line.split() and line.split()[0].startswith(code))
    return line.split()


async def wait_row(term: Terminal, code: str, predicate: Any, what: str) -> None:
    """Wait until the lobby row of ``code`` satisfies ``predicate(cells)``."""

    def ok() -> bool:
        try:
            return bool(predicate(row_of(term, code)))
        except StopIteration:
            return False

    try:
        await wait_until(ok, what=what)
    except AssertionError:
        raise AssertionError(f"{what}; the screen:\n{term.text()}") from None


# 1. The turn timer ---------------------------------------------------------------------------


async def test_the_turn_timer_counts_down_and_shows_the_move_it_forced(tmp_path: Path) -> None:
    srv = make_server(tmp_path / "data", turn_timer_s=3.0)
    await srv.start()
    try:
        async with Terminal(srv.port, "alice", make_key("alice"), size=(200, 50)) as term:
            await term.wait_for("new table")
            code = await new_table(term, 2, "random")
            await term.wait_for("Your move")
            await count_down_to_a_forced_move(term)  # 2 s, 1 s left, then a bot's move for alice
            table = srv.lobby.table(code)
            screen = table.seats[0].controller
            assert screen is not None
            forced = table.forced_for(screen)
            assert forced is not None and forced.serial == 1 and forced.move >= 1
            assert f"Time ran out: a bot played for you: {forced.text}" in term.text()
            assert [line.text for line in table.chat] == ["alice's time ran out"]
            # a spectator is not told which move the timer made for alice
            assert table.forced_for(Person("eve")) is None  # type: ignore[arg-type]
            # the next decision gets a full new countdown, and the note stays until alice moves
            await term.wait_for("3s left", "2s left", timeout=3)
            assert "Time ran out: a bot played for you" in term.text()
    finally:
        await srv.stop()


# 2. New-table defaults and "fill with bots" ---------------------------------------------------


async def test_the_new_table_form_fills_every_other_seat_with_bots(server: SaloonServer) -> None:
    async with Terminal(server.port, "solo", make_key("solo")) as term:
        await term.wait_for("new table")
        await term.press("n")
        await term.wait_for("New table")
        assert "random,random,random" in term.text()
        await term.wait_for("seats: you and 3 bots; the game starts at once")
        await term.settle()  # the form has focused its first field, the game
        await term.press("tab")  # game -> players
        await term.settle()
        await term.press("backspace", "6")  # the unedited bots line follows the number of players
        await term.wait_for("seats: you and 5 bots; the game starts at once")
        assert "random,random,random,random,random" in term.text()
        # A focus move takes effect a moment after its key: the next key waits for it (sent at
        # once, it sometimes went to the field being left, 1 run in 15).
        await term.press("tab", "tab", "tab")  # players -> bots -> options -> the checkbox
        await term.settle()
        await term.press(" ")  # off
        await term.wait_for("seats: 6 bots; the game starts at once")
        await term.press(" ")
        await term.wait_for("seats: you and 5 bots; the game starts at once")
        await term.press("shift+tab", "shift+tab")
        await term.settle()
        await term.press("x,free")  # edit the bots line: it no longer follows
        await term.wait_for("seats: you, 1 bot and 4 free seats; the game starts when")
        await term.press("shift+tab")
        await term.settle()
        await term.press("backspace", "3")
        await term.wait_for("seats: you, 1 bot and 1 free seat;")
        await term.press("enter")
        await term.wait_for("'x' is not a bot on offer here")
        await term.press("tab")
        await term.settle()
        await term.press("\x15", "heuristic,free", "enter")
        await term.wait_for("Table ")
    (table,) = server.lobby.tables.values()
    assert [s.kind for s in table.seats][1:] == ["open", "bot"] and table.seats[2].name == "heuristic"


async def test_enter_in_a_fresh_form_starts_a_game_at_once(server: SaloonServer) -> None:
    async with Terminal(server.port, "solo", make_key("solo")) as term:
        await term.wait_for("new table")
        await term.press("n")
        await term.wait_for("New table")
        await term.press("enter")
        await term.wait_for("Your move")
    (table,) = server.lobby.tables.values()
    assert table.names() == ["solo", "random (bot)", "random (bot)", "random (bot)"]
    assert table.status in ("playing", "over")


async def test_only_the_creator_fills_a_waiting_table_and_only_with_offered_bots(tmp_path: Path) -> None:
    lobby = Lobby(Store(tmp_path), ServerConfig(bot_delay_s=0))
    alice, bob = Person("alice"), Person("bob")
    table = lobby.create_table(
        alice.identity, GAME, 4, [SeatSpec("me"), SeatSpec("open"), SeatSpec("open"), SeatSpec("bot")]
    )
    table.sit(alice)  # type: ignore[arg-type]
    table.sit(bob)  # type: ignore[arg-type]
    with pytest.raises(TableError, match=f"only alice, who opened table {table.code}, can fill it with bots"):
        table.fill_with_bots(bob.identity, "random")
    with pytest.raises(
        TableError, match="'cmd:touch /tmp/x' is not a bot on offer here; choose from: random, heuristic"
    ):
        table.fill_with_bots(alice.identity, "cmd:touch /tmp/x")
    assert table.status == "waiting" and table.counts()["free"] == 1
    assert table.fill_with_bots(alice.identity, "heuristic") == 1
    assert table.status == "playing"
    assert table.names() == ["alice", "bob", "heuristic (bot)", "random (bot)"]
    assert [s.bot_spec for s in table.seats] == ["", "", "heuristic", "random"]
    with pytest.raises(TableError, match=f"table {table.code} is not waiting for players \\(it is playing\\)"):
        table.fill_with_bots(alice.identity, "random")
    await table.close()


async def test_the_creator_of_a_waiting_table_presses_f_to_fill_it_and_start(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice")) as term:
        await term.wait_for("new table")
        code = await new_table(term, 3, "")  # no bots: two free seats
        await term.wait_for("f: fill the free seats with bots and start now")
        table = server.lobby.table(code)
        assert table.status == "waiting"
        async with Terminal(server.port, "bob", make_key("bob")) as bob:  # someone else may not
            await bob.wait_for(code)
            await bob.press("enter")
            await bob.wait_for("you: seat 1")
            assert "f: fill" not in bob.text()
            await bob.press("f")
            await bob.settle()
            assert table.status == "waiting" and table.counts()["free"] == 1
            await term.press("f")
            await term.wait_for("Your move")
            await bob.wait_for("Your move", "Waiting for")
        assert table.names() == ["alice", "bob", "random (bot)"]


# 3. The form's hints -------------------------------------------------------------------------


def test_option_hints_come_from_the_options_struct() -> None:
    from tui.lobby_screen import option_hints

    assert option_hints(engine.game(GAME)) == [
        "mystery_safes=0..5",
        "peace_lovin=true|false",
        "fair_share=true|false (6-9 players)",
        "horse_thief=true|false (4-9 players)",
        "prototype_rules=true|false",
    ]

    class Options(msgspec.Struct):
        """Attributes:
        level: how hard (docstring bounds lose to the type's).  (0..9)
        mode: which way (3-5 players only).
        """

        level: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1
        mode: Literal["short", "long"] = "short"
        count: int = 0

    game = SimpleNamespace(options_type=Options)
    assert option_hints(game) == ["level=1..3", "mode=short|long (3-5 players)", "count=a whole number"]  # type: ignore[arg-type]


@pytest.mark.parametrize("width", [60, 80, 120])
async def test_the_form_shows_its_whole_checkbox_the_bots_and_the_options(server: SaloonServer, width: int) -> None:
    async with Terminal(server.port, "alice", make_key("alice"), size=(width, 40)) as term:
        await term.wait_for("new table")
        await term.press("n")
        await term.wait_for("New table")
        await term.settle()
        text = term.text()
        assert "I take a seat" in text
        assert "(the other seats are free for people or remote bots)" not in text  # the old, cut label
        assert "bots on offer: random, heuristic" in text
        for hint in ("mystery_safes=0..5", "fair_share=true|false (6-9 players)", "horse_thief=true|false (4-9"):
            assert hint in text, text
        assert "saloon games" not in text


async def test_an_option_not_for_this_many_players_is_refused_when_the_table_opens(server: SaloonServer) -> None:
    creator = Identity("carol", "x")
    with pytest.raises(TableError, match="^fair_share is only for 6-9 players, not 4$"):
        server.lobby.create_table(creator, GAME, 4, [SeatSpec("bot")] * 4, {"fair_share": "true"})
    assert server.lobby.tables == {}
    async with Terminal(server.port, "alice", make_key("alice")) as term:
        await term.wait_for("new table")
        await term.press("n")
        await term.wait_for("New table")
        await term.settle()  # the form has focused its first field, the game
        await term.press("tab", "tab", "tab")  # game -> players -> bots -> options
        await term.type("horse_thief=true\r")
        await term.wait_for("Your move")  # 4 players: allowed
        await term.press("ctrl+l")
        await term.press("n")
        await term.wait_for("New table")
        await term.settle()  # the form has focused its first field, the game
        await term.press("tab")  # game -> players
        await term.settle()
        await term.press("backspace", "3", "tab", "tab")
        await term.type("horse_thief=true\r")
        await term.wait_for("horse_thief does not apply in 2-3 player games (3 players)")
    assert len(server.lobby.tables) == 1


# 4. The lobby --------------------------------------------------------------------------------


async def test_question_mark_shows_the_lobby_help(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice")) as term:
        await term.wait_for("?: help")
        await term.press("?")
        await term.wait_for("The saloon: help")
        assert "Keys in the lobby" in term.text() and "back to your table" in term.text()
        await term.press("escape")
        # the lobby's header shows behind the help too: wait for the help itself to go
        await wait_until(lambda: "The saloon: help" not in term.text(), what="the help to close")
        assert "n: new table" in term.text()


async def test_the_key_hints_stay_and_t_goes_back_to_your_table(tmp_path: Path) -> None:
    srv = make_server(tmp_path / "data", bot_delay_s=0.5)  # a substitute plays slowly: the game goes on
    await srv.start()
    try:
        async with Terminal(srv.port, "alice", make_key("alice")) as term:
            await term.wait_for("new table")
            await term.press("t")
            await term.wait_for("You have no seat at a table now")
            code = await new_table(term, 2, "random")
            await term.wait_for("Your move")
            await term.press("ctrl+l")
            await term.wait_for(f"your seats: {code}")
            head = term.text()
            assert "n: new table  Enter: join  w: watch  t: your table" in head
            await term.press("t")
            await term.wait_for("you: seat 0")
            assert f"Table {code}" in term.text()
            assert srv.lobby.table(code).seats[0].substitute is False
    finally:
        await srv.stop()


async def test_enter_on_a_finished_table_opens_it_to_watch(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice")) as term:
        await term.wait_for("new table")
        code = await new_table(term, 2, "random")
        await term.wait_for("Your move")
        await term.press("ctrl+l")  # a bot plays alice's seat at once: the game ends without her
        table = server.lobby.table(code)
        await wait_until(lambda: table.is_over, timeout=30, what="the game to end")
        await wait_row(term, code, lambda cells: cells[-6] == "over", "the table listed as over")
        await term.press("enter")
        await term.wait_for("r: replay")
        await term.settle()
        text = term.text()
        assert "watching" in text.splitlines()[0]
        assert "is over" not in text  # no attempt to sit at a finished table


async def test_the_watcher_count_follows_spectators_who_come_and_go(server: SaloonServer) -> None:
    carol = Person("carol")
    table = server.lobby.create_table(carol.identity, GAME, 3, [SeatSpec("me"), SeatSpec("open"), SeatSpec("bot")])
    table.sit(carol)  # type: ignore[arg-type]
    async with Terminal(server.port, "bob", make_key("bob")) as bob:
        await wait_row(bob, table.code, lambda cells: cells[-1] == "0", "nobody watching")
        async with Terminal(server.port, "alice", make_key("alice")) as alice:
            await alice.wait_for(table.code)
            await alice.press("w")
            await alice.wait_for("1 watching")
            await wait_row(bob, table.code, lambda cells: cells[-1] == "1", "one watching")
            await alice.press("ctrl+l")
            await wait_row(bob, table.code, lambda cells: cells[-1] == "0", "nobody watching after alice left")
            await alice.press("w")
            await wait_row(bob, table.code, lambda cells: cells[-1] == "1", "alice watching again")
        # alice's session ended while she watched
        await wait_row(bob, table.code, lambda cells: cells[-1] == "0", "nobody watching after alice quit")
    assert table.spectators == set()
    await table.close()


async def test_a_spectator_leaving_tells_the_lobby(tmp_path: Path) -> None:
    lobby = Lobby(Store(tmp_path), ServerConfig(bot_delay_s=0))
    carol, eve = Person("carol"), Person("eve")
    table = lobby.create_table(carol.identity, GAME, 2, [SeatSpec("me"), SeatSpec("open")])
    table.sit(carol)  # type: ignore[arg-type]
    table.watch(eve, spectator=True)
    before = lobby.version
    table.release(eve)  # type: ignore[arg-type]  # what a screen does when it goes (then unwatch)
    table.unwatch(eve)
    assert table.spectators == set() and lobby.version == before + 1


async def test_g_lists_recent_games_and_opens_one_in_the_replay_viewer(server: SaloonServer) -> None:
    table = server.lobby.create_table(Identity("carol", "x"), GAME, 2, [SeatSpec("bot"), SeatSpec("bot")])
    await wait_until(lambda: table.is_over and bool(server.store.games()), timeout=30, what="a finished game")
    (record,) = server.store.games()
    async with Terminal(server.port, "alice", make_key("alice")) as term:
        await term.wait_for("new table")
        await term.press("g")
        await term.wait_for("Recent games")
        await term.wait_for(f"{record.code}  Deadwood 1876: random, random")
        assert "saloon replay" not in term.text() and "DATA/replays" not in term.text()
        await term.press("enter")
        await term.wait_for("REPLAY")
        total = table.num_moves
        assert f"move 0/{total}" in term.text()
        await term.press("right")
        await term.wait_for(f"move 1/{total}")
        await term.press("q")
        await term.wait_for("n: new table")
        await term.settle()
        assert "REPLAY" not in term.text() and not term.closed.is_set()


async def test_g_without_games_says_so(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice")) as term:
        await term.wait_for("new table")
        await term.press("g")
        await term.wait_for("No finished games yet.")
        await term.press("escape")
        await term.settle()
        assert "Recent games" not in term.text()


# 5. The game-over dialog ---------------------------------------------------------------------


async def test_the_game_over_dialog_keys_make_one_column() -> None:
    from textual.app import App

    import tui
    from tui.widgets import ResultScreen

    class Host(App[None]):
        CSS_PATH = [Path(tui.__file__).with_name("saloon.tcss")]

        def on_mount(self) -> None:
            outcome = engine.Outcome(scores=(3.0, 5.0), ranks=(2, 1), winners=(1,))
            self.push_screen(ResultScreen("Deadwood 1876", outcome, ["alice", "bob"], 42, 0))

    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        lines = [button.render_line(0).text for button in app.screen.query("#result-buttons Button")]
    labels = [line.strip() for line in lines]
    assert labels == ["a  Play again (new seed)", "r  Watch the replay", "w  Save the replay", "q  Quit"]
    columns = {line.index(label[0]) for line, label in zip(lines, labels, strict=True)}
    assert len(columns) == 1, lines


# 6. A key registered to another name ---------------------------------------------------------


async def test_a_new_name_with_a_key_of_another_name_is_told_so(server: SaloonServer) -> None:
    status, _, _ = await run_command(server.port, "alice", make_key("alice"), "help")
    assert status == 0
    status, _, err = await run_command(server.port, "newbie", make_key("alice"), "help")
    assert status == 1
    assert err == (
        "Saloon: The key your client offered is registered to another name, so it cannot register 'newbie'. "
        "Connect with the name that key belongs to, or make a new key for 'newbie' "
        "(ssh-keygen -t ed25519 -f ~/.ssh/saloon_newbie) and connect with ssh -i ~/.ssh/saloon_newbie.\n"
    )
    assert "alice" not in err  # an offered public key proves nothing: the owner's name is not given away
    assert not server.store.name_taken("newbie")
    status, _, err = await run_command(server.port, "nokey", None, "help")  # no key at all: as before
    assert status == 1 and "your client offered none" in err


# 7. Remote bots ------------------------------------------------------------------------------


async def test_bot_without_table_says_it_waits_then_where_it_sat(server: SaloonServer) -> None:
    conn = await connect(server.port, "robo", make_key("robo"))
    try:
        process = await conn.create_process("bot --game deadwood1876", encoding=None)
        line = await asyncio.wait_for(process.stderr.readline(), 5)
        assert line == "Saloon: waiting for a table with a free seat (Deadwood 1876)…\n".encode()
        table = server.lobby.create_table(
            Identity("carol", "x"), GAME, 4, [SeatSpec("open"), SeatSpec("me"), SeatSpec("open"), SeatSpec("bot")]
        )
        line = await asyncio.wait_for(process.stderr.readline(), 10)
        assert line == f"Saloon: seated at table {table.code} (Deadwood 1876), seat 0\n".encode()
        assert table.names()[0] == "robo (remote bot)"
    finally:
        conn.close()
    await wait_until(lambda: table.counts()["free"] == 2, what="the seat to be free again")  # carol's stays hers


async def test_a_named_table_needs_no_waiting_notice(server: SaloonServer) -> None:
    seats = [SeatSpec("open"), SeatSpec("me"), SeatSpec("open")]
    table = server.lobby.create_table(Identity("carol", "x"), GAME, 3, seats)
    conn = await connect(server.port, "robo", make_key("robo"))
    try:
        process = await conn.create_process(f"bot --table {table.code}", encoding=None)
        await wait_until(lambda: table.counts()["free"] == 1, what="the bot to sit")
        process.stdin.write_eof()
        await asyncio.wait_for(process.wait_closed(), 10)
        assert await process.stderr.read() == b""
    finally:
        conn.close()


async def test_a_disconnected_remote_bot_gets_a_short_grace_of_its_own(tmp_path: Path) -> None:
    srv = make_server(tmp_path / "data", grace_s=60.0, bot_grace_s=0.3)
    await srv.start()
    try:
        table = srv.lobby.create_table(Identity("carol", "x"), GAME, 2, [SeatSpec("open"), SeatSpec("bot")])
        conn = await connect(srv.port, "robo", make_key("robo"))
        process = await conn.create_process(f"bot --table {table.code} --seat 0", encoding=None)
        while b'"decide"' not in await asyncio.wait_for(process.stdout.readline(), 10):
            pass
        conn.close()  # gone mid-decision
        await wait_until(lambda: table.seats[0].controller is None, what="the bot's seat to be let go")
        seat = table.seats[0]
        assert table.grace_of(seat) == 0.3 and seat.kind == "remote"
        await wait_until(lambda: seat.substitute, timeout=3, what="a substitute for the remote bot")
        moves = table.num_moves
        await wait_until(lambda: table.num_moves > moves or table.is_over, timeout=5, what="the game to go on")
        # a person keeps the long grace
        assert table.grace_of(table.seats[1]) == 60.0
    finally:
        await srv.stop()


def test_serve_refuses_a_negative_bot_grace(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--bot-grace", "-1", "--port", "0"]) == 2
    assert "saloon serve: bad --port, --grace, --bot-grace or --turn-timer" in capsys.readouterr().err


# The server's table screen uses the game's screen parts as the local table does -------------


@pytest.mark.parametrize("horse_thief", [False, True])
async def test_the_server_table_screen_follows_the_tables_options_and_pops_up_news(
    front: Any, tmp_path: Path, horse_thief: bool
) -> None:
    from tui.lobby_screen import SSHApp
    from tui.table_screen import ServerTableScreen

    lobby = Lobby(Store(tmp_path), ServerConfig(bot_delay_s=0))
    alice = Identity("alice", "key-alice")
    seats = [SeatSpec("me"), SeatSpec("open"), SeatSpec("bot"), SeatSpec("bot")]
    table = lobby.create_table(alice, "deadwood1876", 4, seats, {"horse_thief": str(horse_thief).lower()})
    mirror = await front(lobby)
    app = SSHApp(mirror, alice)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = ServerTableScreen(mirror.table(table.code), sit=True)
        app.push_screen(screen)
        await pilot.pause()
        assert screen.ui.white_horses is horse_thief  # type: ignore[attr-defined]
        seen: list[int] = []

        def notices(events: list[Any], start: int, view: Any) -> list[str]:
            seen.append(start)
            return [f"news since event {start}"] if start < len(events) else []

        screen.ui.notices = notices  # type: ignore[method-assign]

        class Bob:
            identity = Identity("bob", "key-bob")

            def changed(self, what: Any) -> None:
                pass

        bob = Bob()
        table.sit(bob)  # type: ignore[arg-type]
        await wait_until(lambda: table.status == "playing", what="the game to start")
        await wait_until(lambda: bool(screen.table.legal_for(screen)), what="the screen's moves")
        screen.redraw()  # the first look at the game: what happened before is not news
        await pilot.pause()
        assert screen.notices == []
        table.release(bob, leave=True)  # type: ignore[arg-type]  # a substitute bot plays Bob's seat
        await screen.table.play(screen, screen.table.legal_for(screen)[0])
        await wait_until(lambda: table.num_moves >= 4, what="everyone to pass a Safe")
        await pilot.pause(0.1)  # the hall tells the front
        screen.redraw()
        await pilot.pause()
        assert screen.notices and screen.notices[0].startswith("news since event ")
