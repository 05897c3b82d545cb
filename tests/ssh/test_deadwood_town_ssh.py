"""Deadwood (worker placement) on the SSH saloon: a table made from the lobby's form, played by two
people and a bot from their keyboards; a remote bot taking a seat and playing a whole game."""

from __future__ import annotations

import msgspec
import pytest

import engine
from engine.deadwood_town import Options
from serve.ssh_server import SaloonServer
from tests.ssh.tablehelpers import a_remote_bot_plays_seat_1, play_turns, two_people_and_a_bot

TITLE = engine.game("deadwood_town").title


@pytest.mark.slow  # some 10-12 s: two SSH terminals, each playing two turns through the picker
async def test_a_deadwood_town_table_from_the_lobby_with_people_and_a_bot(server: SaloonServer) -> None:
    async with two_people_and_a_bot(server, "deadwood_town", "town_hall_build") as (table, code, terms):
        await play_turns(table, terms, 2, until_over=True)
        for seat, term in terms.items():
            screen = term.text()
            assert f"Table {code}" in screen and TITLE in screen
            assert "RAILS " in screen and "CRIME POOL " in screen  # the status line
            assert f"You ({'RG'[seat]}): $" in screen  # the seat's own line
            assert "┌A1" in screen and "Town Hall" in screen and "Sheriff's" in screen  # the town
            assert f"you: seat {seat}" in screen
    assert table.num_moves >= 4


async def test_a_remote_bot_takes_a_deadwood_town_seat_and_plays_to_the_end(server: SaloonServer) -> None:
    played = await a_remote_bot_plays_seat_1(server, "deadwood_town", 60)
    # The bot always answers the first legal action; the table's seed is secret, so the game's
    # length varies (at least 4 decisions of seat 1 in 300 seeds tried offline).
    assert len(played.decides) >= 2
    assert msgspec.convert(played.messages[0]["options"], Options) == Options()  # the standard rules
    decide = played.decides[0]
    assert decide["view"]["game"] == "deadwood_town" and len(decide["view"]["plots"]) == 25
    assert decide["view"]["seat"] == 1 and decide["legal"][0]["type"] in ("hit_the_town", "head_back", "annex")
    assert all(s["order"] == [None] * s["size"] for s in decide["view"]["stacks"])  # the stacks' order is hidden
    assert played.messages[-1]["outcome"]["scores"] == list(played.replay.outcome.scores)
