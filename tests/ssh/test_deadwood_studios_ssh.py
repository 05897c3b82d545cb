"""Deadwood Studios on the SSH saloon: a table made from the lobby's form, played by two people and
a bot from their keyboards; a remote bot taking a seat and playing a whole game."""

from __future__ import annotations

import pytest

import engine
from serve.ssh_server import SaloonServer
from tests.ssh.tablehelpers import a_remote_bot_plays_seat_1, play_turns, two_people_and_a_bot

TITLE = engine.game("deadwood_studios").title


@pytest.mark.slow  # some 15-20 s: two terminals, the form, three turns each
async def test_a_deadwood_studios_table_from_the_lobby_with_people_and_a_bot(server: SaloonServer) -> None:
    async with two_people_and_a_bot(server, "deadwood_studios", f"{TITLE} has no options") as (table, code, terms):
        await play_turns(table, terms, 3, and_a_bot_move=True)
        for seat, term in terms.items():
            screen = term.text()
            assert f"Table {code}" in screen and TITLE in screen
            assert "DAY 1/3" in screen and "Last roll" in screen
            assert f"{seat} {'alice' if seat == 0 else 'bob'} (you)" in screen  # the players' lines
            assert f"you: seat {seat}" in screen
        await terms[0].press("?")
        await terms[0].wait_for("Reading the table")
    assert table.num_moves > 6  # three moves each and the bot's


async def test_a_remote_bot_takes_a_deadwood_studios_seat_and_plays_to_the_end(server: SaloonServer) -> None:
    played = await a_remote_bot_plays_seat_1(server, "deadwood_studios", 60)
    assert len(played.decides) > 20
    view = played.decides[0]["view"]
    assert view["game"] == "deadwood_studios" and len(view["sets"]) == 10
    assert played.messages[-1]["outcome"]["scores"] == list(played.replay.outcome.scores)
