"""Issue 37, "the table, third pass": the new-table form and the lobby's "you have a game on"
notice, through the real server at 80×24.

The form opens on the game, its first field, and Enter there opens the table (as its title says),
while the arrows and Space open the list of games. The notice is a line of its own above the top
bar, which stays whole; it goes once the game is over, or once the person went back to the table
and left it again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import engine
from lobby.tables import Identity, SeatSpec, Table
from serve.ssh_server import SaloonServer
from tests.ssh.conftest import make_server
from tests.ssh.termclient import Terminal, make_key, wait_until
from tui.lobby_screen import LobbyScreen

GAME = "deadwood1876"

LONG_NAME = "wilhelmina_hardcastle_jr"
"""24 characters, the longest name: with two seats the lobby's top bar takes three lines at 80
columns."""


class Watcher:
    """A spectator outside any session: a table someone watches paces its bots' moves."""

    def __init__(self, name: str) -> None:
        self.identity = Identity(name, f"key-{name}")

    def changed(self, what: Any) -> None:
        pass

    def seat_lost(self, table: Any, seat: int, reason: str) -> None:
        pass


def focused(server: SaloonServer) -> str | None:
    """The id of the widget that has the focus in the (only) session's app."""
    (app,) = server.sessions
    return None if app.focused is None else app.focused.id


def top_of_lobby(screen: str) -> list[str]:
    """The lobby's lines above its table list's headings (the notice, if any, and the top bar), in
    the text of a ``screen``."""
    lines = screen.splitlines()
    heading = next(i for i, line in enumerate(lines) if line.split()[:2] == ["table", "game"])
    return [line.strip() for line in lines[:heading]]


def words(text: str) -> str:
    """``text`` with its runs of spaces and line ends made one space (the top bar wraps)."""
    return " ".join(text.split())


def top_bar(name: str, codes: list[str]) -> str:
    """The lobby's whole top bar for ``name`` holding seats at ``codes``, its words one space apart."""
    return words(f"Saloon · {name} · your seats: {', '.join(sorted(codes))} · {LobbyScreen.HINTS}")


def notice(codes: list[str]) -> str:
    """The lobby's notice for games going on at ``codes``."""
    games = "a game" if len(codes) == 1 else "games"
    return f"You have {games} on at {', '.join(sorted(codes))}: t to return"


async def table_for(server: SaloonServer, name: str) -> Table:
    """A table of ``name`` (seat 0, away: its owner is not at it) and a random bot, playing."""
    owner = Identity(name, make_key(name).get_fingerprint())
    table = server.lobby.create_table(owner, GAME, 2, [SeatSpec("me"), SeatSpec("bot", "random")])
    await wait_until(lambda: table.status == "playing", what="the table to start")
    return table


# The new-table form ---------------------------------------------------------------------------


async def test_the_form_opens_on_the_game_and_enter_there_opens_the_table(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice"), size=(80, 24)) as term:
        await term.wait_for("new table")
        await term.press("n")
        await term.wait_for("New table  (Enter opens it, Esc cancels)")
        await wait_until(lambda: focused(server) == "nt-game", what="the game to have the focus")
        await term.settle()
        await term.press("enter")  # the defaults: Deadwood 1876, you and a bot in every other seat
        await term.wait_for("Your move", "Table ", timeout=15)
        assert "New table" not in term.text()
    (table,) = server.lobby.tables.values()
    assert table.game.id == GAME
    assert table.names() == ["alice", "random (bot)", "random (bot)", "random (bot)"]


async def test_the_arrows_change_the_game_and_enter_then_opens_a_table_of_it(server: SaloonServer) -> None:
    other = list(engine.games())[1]
    title = engine.game(other).title
    async with Terminal(server.port, "alice", make_key("alice"), size=(80, 24)) as term:
        await term.wait_for("new table")
        await term.press("n")
        await term.wait_for("New table")
        await wait_until(lambda: focused(server) == "nt-game", what="the game to have the focus")
        await term.settle()
        await term.press("down")  # opens the list of games, on the game shown
        await wait_until(lambda: focused(server) != "nt-game", what="the list of games to open")
        await term.wait_for(title)
        await term.press("down", "enter")  # the next game, picked: the list closes, the form stays
        await wait_until(lambda: focused(server) == "nt-game", what="the list of games to close")
        await term.wait_for(f"{engine.game(other).title} ")
        assert "New table" in term.text() and not server.lobby.tables
        await term.press("enter")  # and now Enter opens the table
        await term.wait_for("Your move", "Table ", timeout=15)
    (table,) = server.lobby.tables.values()
    assert table.game.id == other
    assert table.names()[0] == "alice" and len(table.names()) == 4


async def test_space_opens_the_list_and_esc_closes_it_without_closing_the_form(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice"), size=(80, 24)) as term:
        await term.wait_for("new table")
        await term.press("n")
        await term.wait_for("New table")
        await wait_until(lambda: focused(server) == "nt-game", what="the game to have the focus")
        await term.settle()
        await term.press(" ")
        await wait_until(lambda: focused(server) != "nt-game", what="the list of games to open")
        for title in (g.title for g in engine.games().values()):
            await term.wait_for(title)
        await term.press("escape")
        await wait_until(lambda: focused(server) == "nt-game", what="the list of games to close")
        await term.settle()
        assert "New table" in term.text() and not server.lobby.tables
        await term.press("tab")  # on to the players, which take keys as before
        await wait_until(lambda: focused(server) == "nt-players", what="the players field to have the focus")
        await term.press("backspace", "2")
        await term.wait_for("seats: you and 1 bot; the game starts at once")
        await term.press("enter")
        await term.wait_for("Your move", "Table ", timeout=15)
    (table,) = server.lobby.tables.values()
    assert table.names() == ["alice", "random (bot)"]


# The notice ------------------------------------------------------------------------------------


async def test_the_notice_is_a_line_of_its_own_and_goes_when_the_game_is_over_or_left(tmp_path: Path) -> None:
    srv = make_server(tmp_path / "data", grace_s=60.0, bot_delay_s=0.3)
    await srv.start()
    try:
        first = await table_for(srv, LONG_NAME)
        second = await table_for(srv, LONG_NAME)
        codes = [first.code, second.code]
        async with Terminal(srv.port, LONG_NAME, make_key(LONG_NAME), size=(80, 24)) as term:
            await term.wait_for(notice(codes))
            await term.settle()
            top = top_of_lobby(term.text())
            assert top[0] == notice(codes), term.text()  # a line of its own, first
            assert words(" ".join(top[1:])) == top_bar(LONG_NAME, codes), term.text()  # the top bar, whole
            assert all(len(line) <= 80 for line in term.text().splitlines())

            # the first game ends (another session of hers goes to it and leaves: bots finish it)
            async with Terminal(srv.port, LONG_NAME, make_key(LONG_NAME), size=(80, 24)) as other:
                await other.wait_for("new table")
                await other.press("t")  # the oldest game going on: the first
                await other.wait_for("you: seat 0")
                assert f"Table {first.code}" in other.text()
                await other.press("l")
                await other.wait_for("n: new table")
            await wait_until(lambda: first.is_over, timeout=30, what="the first game to end")
            await term.wait_for(notice([second.code]))
            await wait_until(lambda: notice(codes) not in term.text(), what="the ended game to leave the notice")
            top = top_of_lobby(term.text())
            assert top[0] == notice([second.code])
            assert words(" ".join(top[1:])) == top_bar(LONG_NAME, [second.code]), term.text()

            # she goes back to the second game and leaves it: the notice goes, the game goes on
            second.watch(Watcher("eve"), spectator=True)  # a watched game paces its bots: it stays on
            await term.press("t")
            await term.wait_for("you: seat 0")
            assert f"Table {second.code}" in term.text()
            await term.press("l")
            await term.wait_for("n: new table")
            await wait_until(lambda: "You have a game on" not in term.text(), what="the notice to go")
            screen = term.text()
            assert second.status == "playing", "the game should still go on"
            assert words(" ".join(top_of_lobby(screen))) == top_bar(LONG_NAME, [second.code]), screen
    finally:
        await srv.stop()
