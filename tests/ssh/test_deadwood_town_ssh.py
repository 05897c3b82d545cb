"""Deadwood (worker placement) on the SSH saloon: a table made from the lobby's form, played by two
people and a bot from their keyboards; a remote bot taking a seat and playing a whole game."""

from __future__ import annotations

import asyncio
import json
import time

import msgspec
import pytest

import engine
import replays
from engine.deadwood_town import Options
from lobby.tables import Identity, SeatSpec
from tests.ssh.termclient import Terminal, make_key, wait_until
from tests.ssh.test_server import BotClient, run_command
from tests.ssh.test_wyatt_earp_ssh import move_once
from tui.server import SaloonServer

TITLE = engine.game("deadwood_town").title


async def new_deadwood_town_table(term: Terminal, players: int, bots: str) -> str:
    """Open a Deadwood table from the lobby's form (the game picked in its list); returns its code."""
    await term.press("n")
    await term.wait_for("New table")
    await term.settle()  # the form has focused the players field
    await term.press("shift+tab", "enter")  # the game's list
    await term.wait_for(TITLE)
    downs = list(engine.games()).index("deadwood_town")
    await term.press(*(["down"] * downs), "enter")
    await term.wait_for("town_hall_build")  # the form now offers Deadwood's options
    await term.press("tab", "backspace", "backspace", str(players), "tab")
    await term.press(*(["backspace"] * 30))
    await term.type(bots)
    await term.press("enter")
    await term.wait_for("Table ")
    line = next(line for line in term.text().splitlines() if "Table " in line)
    return line.split("Table ", 1)[1].split()[0]


@pytest.mark.slow  # some 10-12 s: two SSH terminals, each playing two turns through the picker
async def test_a_deadwood_town_table_from_the_lobby_with_people_and_a_bot(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice")) as alice:
        await alice.wait_for("Saloon")
        code = await new_deadwood_town_table(alice, 3, "random")  # alice, a free seat, a random bot
        table = server.lobby.table(code)
        assert table.game.id == "deadwood_town" and table.status == "waiting"
        async with Terminal(server.port, "bob", make_key("bob")) as bob:
            await bob.wait_for(code)
            await bob.press("enter")  # join the waiting table
            await bob.wait_for("you: seat 1")
            await wait_until(lambda: table.status == "playing", what="the game starts")
            assert table.names() == ["alice", "bob", "random (bot)"]
            terms = {0: alice, 1: bob}
            turns = {0: 0, 1: 0}
            deadline = time.monotonic() + 30
            while min(turns.values()) < 2 and not table.is_over:
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
                assert "RAILS " in screen and "CRIME POOL " in screen  # the status line
                assert f"You ({'RG'[seat]}): $" in screen  # the seat's own line
                assert "┌A1" in screen and "Town Hall" in screen and "Sheriff's" in screen  # the town
                assert f"you: seat {seat}" in screen
    assert table.num_moves >= 4


async def test_a_remote_bot_takes_a_deadwood_town_seat_and_plays_to_the_end(server: SaloonServer) -> None:
    await run_command(server.port, "carol", make_key("carol"), "help")
    creator = Identity("carol", make_key("carol").get_fingerprint())
    seats = [SeatSpec("bot"), SeatSpec("open"), SeatSpec("bot")]
    table = server.lobby.create_table(creator, "deadwood_town", 3, seats)
    bot = BotClient(server.port, "robo", f"bot --table {table.code} --seat 1")
    status, stderr = await asyncio.wait_for(bot.run(), 60)
    assert status == 0, stderr
    kinds = [m["type"] for m in bot.messages]
    # The bot always answers the first legal action; the table's seed is secret, so the game's
    # length varies (at least 4 decisions of seat 1 in 300 seeds tried offline).
    assert kinds[0] == "start" and kinds[-1] == "end" and kinds.count("decide") >= 2
    start = json.dumps(bot.messages[0])
    assert "deadwood_town" in start and "seed" not in start
    assert msgspec.convert(bot.messages[0]["options"], Options) == Options()  # the standard rules
    decide = next(m for m in bot.messages if m["type"] == "decide")
    assert decide["view"]["game"] == "deadwood_town" and len(decide["view"]["plots"]) == 25
    assert decide["view"]["seat"] == 1 and decide["legal"][0]["type"] in ("hit_the_town", "head_back", "annex")
    assert all(s["order"] == [None] * s["size"] for s in decide["view"]["stacks"])  # the stacks' order is hidden
    assert table.is_over and not table.faults
    assert table.names()[1] == "robo (remote bot)"
    for _ in range(50):
        if server.store.games():
            break
        await asyncio.sleep(0.05)
    (record,) = server.store.games()
    replay = replays.load(record.replay)
    replays.verify(replay)
    assert replay.header.game == "deadwood_town" and replay.outcome is not None
    assert bot.messages[-1]["outcome"]["scores"] == list(replay.outcome.scores)
