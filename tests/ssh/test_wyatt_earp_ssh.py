"""Wyatt Earp on the SSH saloon: a table made from the lobby's form, played by two people and a
bot from their keyboards; a remote bot taking a seat and playing a whole game."""

from __future__ import annotations

import asyncio
import json
import time

import engine
import replays
from lobby.tables import Identity, SeatSpec
from tests.ssh.termclient import Terminal, make_key, wait_until
from tests.ssh.test_server import BotClient, run_command
from tui.server import SaloonServer

if "wyatt_earp" not in engine.games():  # registered in engine/__init__.py; kept for older checkouts
    from engine.wyatt_earp import GAME as _GAME

    engine.register("wyatt_earp", lambda: _GAME)

TITLE = engine.game("wyatt_earp").title


async def new_wyatt_earp_table(term: Terminal, players: int, bots: str) -> str:
    """Open a Wyatt Earp table from the lobby's form (the game picked in its list); returns its code."""
    await term.press("n")
    await term.wait_for("New table")
    await term.settle()  # the form has focused the players field
    await term.press("shift+tab", "enter")  # the game's list
    await term.wait_for(TITLE)
    await term.press("down", "enter")
    await term.wait_for("hideout_reward")  # the form now offers Wyatt Earp's options
    await term.press("tab", "backspace", "backspace", str(players), "tab")
    await term.press(*(["backspace"] * 30))
    await term.type(bots)
    await term.press("enter")
    await term.wait_for("Table ")
    line = next(line for line in term.text().splitlines() if "Table " in line)
    return line.split("Table ", 1)[1].split()[0]


async def move_once(term: Terminal, moved: callable) -> None:  # type: ignore[valid-type]
    """Press ``1`` (the first choice, or the first group of choices) until ``moved()``."""
    deadline = time.monotonic() + 10
    while not moved():
        assert time.monotonic() < deadline, "no move was made:\n" + term.text()
        before = term.text()
        await term.press("1", pause=0)
        t0 = time.monotonic()
        while term.text() == before and not moved() and time.monotonic() - t0 < 1:
            await asyncio.sleep(0.02)


async def test_a_wyatt_earp_table_from_the_lobby_with_people_and_a_bot(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice")) as alice:
        await alice.wait_for("Saloon")
        code = await new_wyatt_earp_table(alice, 3, "random")  # alice, a free seat, a random bot
        table = server.lobby.table(code)
        assert table.game.id == "wyatt_earp" and table.status == "waiting"
        async with Terminal(server.port, "bob", make_key("bob")) as bob:
            await bob.wait_for(code)
            await bob.press("enter")  # join the waiting table
            await bob.wait_for("you: seat 1")
            await wait_until(lambda: table.status == "playing", what="the game starts")
            assert table.names() == ["alice", "bob", "random (bot)"]
            terms = {0: alice, 1: bob}
            turns = {0: 0, 1: 0}
            deadline = time.monotonic() + 30
            while min(turns.values()) < 3:
                assert time.monotonic() < deadline, "the people did not get to play"
                state = table.state
                assert state is not None
                waiting = [s for s in state.to_act if s in terms]
                if not waiting:
                    await asyncio.sleep(0.02)
                    continue
                seat = waiting[0]
                await terms[seat].wait_for("Your move")
                moves = table.num_moves
                await move_once(terms[seat], lambda moves=moves: table.num_moves > moves)
                turns[seat] += 1
            for seat, term in terms.items():
                screen = term.text()
                assert f"Table {code}" in screen and TITLE in screen
                assert "HAND " in screen and "poster" in screen and "Billy the Kid" in screen
                assert "Your hand" in screen and f"you: seat {seat}" in screen
                assert "Supply" in screen and "Discard" in screen
            await alice.press("?")
            await alice.wait_for("Reading the table")
    assert table.num_moves > 6


async def test_a_remote_bot_takes_a_wyatt_earp_seat_and_plays_to_the_end(server: SaloonServer) -> None:
    await run_command(server.port, "carol", make_key("carol"), "help")
    creator = Identity("carol", make_key("carol").get_fingerprint())
    table = server.lobby.create_table(creator, "wyatt_earp", 3, [SeatSpec("bot"), SeatSpec("open"), SeatSpec("bot")])
    bot = BotClient(server.port, "robo", f"bot --table {table.code} --seat 1")
    status, stderr = await asyncio.wait_for(bot.run(), 40)
    assert status == 0, stderr
    kinds = [m["type"] for m in bot.messages]
    assert kinds[0] == "start" and kinds[-1] == "end" and kinds.count("decide") > 20
    start = json.dumps(bot.messages[0])
    assert "wyatt_earp" in start and "seed" not in start
    decide = next(m for m in bot.messages if m["type"] == "decide")
    assert "posters" in json.dumps(decide)  # the bot sees the seat's Wyatt Earp view
    assert table.is_over and not table.faults
    assert table.names()[1] == "robo (remote bot)"
    for _ in range(50):
        if server.store.games():
            break
        await asyncio.sleep(0.05)
    (record,) = server.store.games()
    replay = replays.load(record.replay)
    replays.verify(replay)
    assert replay.header.game == "wyatt_earp" and replay.outcome is not None
