"""Wyatt Earp on the SSH saloon: a table made from the lobby's form, played by two people and a
bot from their keyboards; a remote bot taking a seat and playing a whole game."""

from __future__ import annotations

import json

import engine
from serve.ssh_server import SaloonServer
from tests.ssh.tablehelpers import a_remote_bot_plays_seat_1, play_turns, two_people_and_a_bot

if "wyatt_earp" not in engine.games():  # registered in engine/__init__.py; kept for older checkouts
    from engine.wyatt_earp import GAME as _GAME

    engine.register("wyatt_earp", lambda: _GAME)

TITLE = engine.game("wyatt_earp").title


async def test_a_wyatt_earp_table_from_the_lobby_with_people_and_a_bot(server: SaloonServer) -> None:
    async with two_people_and_a_bot(server, "wyatt_earp", "hideout_reward") as (table, code, terms):
        await play_turns(table, terms, 3, and_a_bot_move=True)
        for seat, term in terms.items():
            screen = term.text()
            assert f"Table {code}" in screen and TITLE in screen
            assert "HAND " in screen and "poster" in screen and "Billy the Kid" in screen
            assert "Your hand" in screen and f"you: seat {seat}" in screen
            assert "Supply" in screen and "Discard" in screen
        await terms[0].press("?")
        await terms[0].wait_for("Reading the table")
    assert table.num_moves > 6  # three moves each and the bot's


async def test_a_remote_bot_takes_a_wyatt_earp_seat_and_plays_to_the_end(server: SaloonServer) -> None:
    played = await a_remote_bot_plays_seat_1(server, "wyatt_earp", 40)
    assert len(played.decides) > 20
    assert "posters" in json.dumps(played.decides[0])  # the bot sees the seat's Wyatt Earp view
