"""Issue 23, "flow traps": the new-table form, logging in while holding a seat, the lobby's cursor
after a new table, game numbers in the recent games and ``replay CODE``.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bots import RandomBot, play_game
from lobby.tables import Identity, SeatSpec
from replays import Player
from serve.ssh_server import SaloonServer
from tests.ssh.conftest import make_server
from tests.ssh.termclient import Terminal, connect, make_key, wait_until

GAME = "deadwood1876"


def form_line(term: Terminal, label: str) -> str:
    """The new-table form's line that starts with ``label`` (its field's text after the label)."""
    for line in term.text().splitlines():
        stripped = line.strip(" │┃|")
        if stripped.startswith(label):
            return stripped[len(label) :].strip()
    raise AssertionError(f"no {label!r} line in the form:\n{term.text()}")


def focused(server: SaloonServer) -> str | None:
    """The id of the widget that has the focus in the (only) session's app."""
    (app,) = server.sessions
    return None if app.focused is None else app.focused.id


async def focus(term: Terminal, server: SaloonServer, key: str, widget: str) -> None:
    """Press ``key`` and wait until ``widget`` (an id) has the focus."""
    await term.press(key)
    await wait_until(lambda: focused(server) == widget, what=f"{widget} to have the focus")


async def open_form(term: Terminal, server: SaloonServer) -> None:
    """``n`` in the lobby; the form is up with its first field (the game) focused, then Tab: the
    players field has the focus."""
    await term.press("n")
    await term.wait_for("New table")
    await wait_until(lambda: focused(server) == "nt-game", what="the game to have the focus")
    await term.settle()
    await focus(term, server, "tab", "nt-players")
    await term.settle()


async def set_players(term: Terminal, count: int) -> None:
    """Replace the focused players field with ``count`` and wait until the form shows it."""
    await term.press("backspace")
    await wait_until(lambda: form_line(term, "players") == "", what="the players field to be empty")
    await term.type(str(count))
    await wait_until(lambda: form_line(term, "players") == str(count), what=f"the players field to say {count}")


async def set_bots(term: Terminal, text: str) -> None:
    """Replace the focused bots line with ``text`` and wait until the form shows it."""
    await term.press("\x15")
    await term.settle()
    await term.type(text)
    deadline = time.monotonic() + 10
    while not form_line(term, "bots").startswith(text):
        assert time.monotonic() < deadline, term.text()
        await asyncio.sleep(0.05)


async def test_enter_on_the_checkbox_opens_the_table_and_a_cleared_box_is_empty(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice")) as term:
        await term.wait_for("new table")
        await open_form(term, server)
        assert "▐X▌ I take a seat" in term.text()
        await focus(term, server, "tab", "nt-bots")
        await focus(term, server, "tab", "nt-options")
        await focus(term, server, "tab", "nt-me")
        await term.press(" ")  # the checkbox: cleared
        await term.wait_for("seats: 4 bots; the game starts at once")
        assert "▐ ▌ I take a seat" in term.text() and "▐X▌" not in term.text()
        await term.press(" ")  # ticked again
        await term.wait_for("seats: you and 3 bots; the game starts at once")
        assert "▐X▌ I take a seat" in term.text()
        await term.press("enter")  # Enter on the checkbox opens the table, as the title says
        await term.wait_for("Your move")
        assert "do not fit" not in term.text()
    (table,) = server.lobby.tables.values()
    assert table.names() == ["alice", "random (bot)", "random (bot)", "random (bot)"]


async def test_one_bot_name_fills_every_other_seat_and_free_leaves_one(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice")) as term:
        await term.wait_for("new table")
        await open_form(term, server)
        await set_players(term, 5)
        await term.wait_for("random,random,random,random ")
        await focus(term, server, "tab", "nt-bots")
        await set_bots(term, "heuristic")
        await term.wait_for("seats: you and 4 bots; the game starts at once")
        await set_bots(term, "heuristic,free,random")
        await term.wait_for("seats: you, 2 bots and 2 free seats;")
        await set_bots(term, "free")
        await term.wait_for("seats: you and 4 free seats;")
        await set_bots(term, "heuristic")
        await term.wait_for("seats: you and 4 bots; the game starts at once")
        await term.press("enter")
        await term.wait_for("Your move")
    (table,) = server.lobby.tables.values()
    assert table.names() == ["alice"] + ["heuristic (bot)"] * 4


async def test_the_form_remembers_the_last_table(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice")) as term:
        await term.wait_for("new table")
        await open_form(term, server)
        await set_players(term, 3)
        await term.wait_for("random,random ")
        await focus(term, server, "tab", "nt-bots")
        await set_bots(term, "heuristic,free")
        await term.wait_for("seats: you, 1 bot and 1 free seat;")
        await focus(term, server, "tab", "nt-options")
        await term.type("peace_lovin=true")
        await term.wait_for("peace_lovin=true ")
        await term.press("enter")
        await term.wait_for("Table ")
        (table,) = server.lobby.tables.values()
        assert table.options_dict["peace_lovin"] is True and table.names() == ["alice", "(free)", "heuristic (bot)"]
        await term.press("ctrl+l")
        await term.wait_for("n: new table")
        await open_form(term, server)
        await term.settle()
        assert form_line(term, "players") == "3"
        assert form_line(term, "bots").startswith("heuristic,free")
        assert form_line(term, "options").startswith("peace_lovin=true")
        assert "seats: you, 1 bot and 1 free seat;" in term.text()
        await term.press("escape")


async def test_logging_in_while_holding_a_seat_starts_in_the_lobby_with_a_banner(tmp_path: Path) -> None:
    srv = make_server(tmp_path / "data", grace_s=60.0, bot_delay_s=0.05)
    await srv.start()
    try:
        async with Terminal(srv.port, "alice", make_key("alice")) as term:
            await term.wait_for("new table")
            await open_form(term, srv)
            await set_players(term, 2)
            await term.press("enter")
            await term.wait_for("Your move")
        (table,) = srv.lobby.tables.values()
        await wait_until(lambda: table.seats[0].controller is None, what="alice's seat to be let go")
        # the bot answers the opening's Safe pass (everyone at once) without a pause: once it has,
        # only alice's seat owes a move, so any move from here would be one of her keys'
        await wait_until(lambda: table.to_act() == (0,), what="the bot's answer: only alice to act")
        moves = table.num_moves
        async with Terminal(srv.port, "alice", make_key("alice")) as term:
            await term.wait_for(f"You have a game on at {table.code}: t to return")
            await term.press("n")  # keys meant for the lobby: the form opens, no move is made
            await term.wait_for("New table")
            await term.press("escape")
            await wait_until(lambda: "New table" not in term.text(), what="the form to close")
            await term.settle()
            await term.press("1", "2", "1")  # move keys at a table: nothing in the lobby
            await term.settle()
            assert table.num_moves == moves and table.seats[0].controller is None and table.to_act() == (0,)
            assert "Your move" not in term.text()
            await term.press("t")  # back to the table, by choice
            await term.wait_for("you: seat 0")
            assert table.seats[0].controller is not None
    finally:
        await srv.stop()


async def test_a_new_table_at_the_top_of_the_lobby_takes_the_cursor(server: SaloonServer) -> None:
    carol = Identity("carol", "x")
    old = server.lobby.create_table(carol, GAME, 2, [SeatSpec("bot"), SeatSpec("bot")])
    await wait_until(lambda: old.is_over, timeout=30, what="the first table's game to end")
    async with Terminal(server.port, "alice", make_key("alice")) as term:
        await term.wait_for(old.code)
        await term.settle()
        screen = next(iter(server.sessions)).screen
        assert screen._highlighted_code() == old.code
        new = server.lobby.create_table(carol, GAME, 3, [SeatSpec("me"), SeatSpec("open"), SeatSpec("bot")])
        await term.wait_for(new.code)
        await wait_until(lambda: screen._highlighted_code() == new.code, what="the cursor on the new table")
        lines = term.text().splitlines()
        assert [line.split()[0] for line in lines if line.split() and line.split()[0] in (old.code, new.code)] == [
            new.code,
            old.code,
        ]
        await term.press("w")
        await term.wait_for(f"Table {new.code}")


async def test_recent_games_show_their_number_and_replay_takes_the_table_code(server: SaloonServer) -> None:
    players = [Player("alice", "human"), Player("random", "bot")]
    replay = play_game(GAME, 2, [RandomBot(1), RandomBot(2)], seed=4, players=players).replay
    now = time.time()
    first = server.store.record_game("AB3C", replay, now - 120, now - 60)
    record = server.store.record_game("AB3C", replay, now - 60, now)  # a code used again: the latest
    async with Terminal(server.port, "alice", make_key("alice")) as term:
        await term.wait_for("new table")
        await term.press("g")
        await term.wait_for(f"#{record.id} AB3C  Deadwood 1876: alice, random")
        assert f"#{first.id} AB3C  Deadwood 1876: alice, random" in term.text()
    conn = await connect(server.port, "dave", make_key("dave"))
    try:
        for argument in ("AB3C", "ab3c", str(record.id)):
            result = await conn.run(f"replay {argument}", encoding=None, timeout=20)
            assert (result.exit_status, result.stdout, result.stderr) == (0, record.replay.read_bytes(), b"")
        result = await conn.run("replay ZZ9Z", encoding=None, timeout=20)
        assert result.exit_status == 2
        assert bytes(result.stderr).decode().splitlines()[0] == (
            "Saloon: replay: no finished game of table ZZ9Z on this server"
        )
    finally:
        conn.close()
