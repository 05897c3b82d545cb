"""Issue 25 through the browser transport: the turn timer, spectating and the replay viewer work in a
browser session (the websocket terminal, read through pyte) as they do over SSH.

Each test mirrors an SSH test (named in its docstring) with the browser in the SSH client's place:
the same keys, the same screens, the same table state on the server.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import replays
from lobby.tables import Identity, SeatSpec
from serve.ssh_server import SaloonServer
from tests.ssh.tablehelpers import count_down_to_a_forced_move
from tests.ssh.termclient import Terminal, make_key, wait_until
from tests.ssh.test_server import new_table, play_to_end
from tests.web.conftest import base_of, start_both
from tests.web.webclient import WebTerminal, link_for, signed_in_session, token_of

GAME = "deadwood1876"


async def test_the_turn_timer_counts_down_in_the_browser_and_a_bot_moves_for_the_slow_player(tmp_path: Path) -> None:
    """Mirrors ``tests/ssh/test_first_hour.py::test_the_turn_timer_counts_down_and_shows_the_move_it_forced``."""
    server = await start_both(tmp_path / "data", turn_timer_s=3.0)
    try:
        base = base_of(server)
        session = await signed_in_session(base, token_of(await link_for(server.port, "alice", make_key("alice"))))
        try:
            async with WebTerminal(base, session, size=(200, 50)) as term:
                await term.wait_for("new table")
                code = await new_table(term, 2, "random")  # type: ignore[arg-type]
                await term.wait_for("Your move")
                table = server.lobby.table(code)
                # the opening's Safe pass is for everyone at once: the bot answers it at once, maybe
                # after alice sees "Your move"; from then on the table waits for alice alone
                await wait_until(lambda: table.to_act() == (0,), what="the bot's answer: only alice to act")
                moves = table.num_moves
                await count_down_to_a_forced_move(term)  # 2 s, 1 s left, then a bot's move for alice
                (app,) = server.sessions
                controller = table.seats[0].controller
                assert server.front_side(controller) is app.screen  # the browser session's table screen holds it
                forced = table.forced_for(controller)
                assert forced is not None and forced.serial == 1 and forced.move == moves + 1  # the next move: hers
                assert table.num_moves > moves
                assert f"Time ran out: a bot played for you: {forced.text}" in term.text()
                assert [line.text for line in table.chat] == ["alice's time ran out"]
                # the next decision gets a full new countdown, and the note stays until alice moves
                await term.wait_for("3s left", "2s left", timeout=3)
                assert "Time ran out: a bot played for you" in term.text()
                assert not table.seats[0].substitute
        finally:
            await session.close()
    finally:
        await server.stop()


async def test_a_browser_spectator_sees_an_ssh_players_table_without_her_hand_and_its_chat(
    server: SaloonServer,
) -> None:
    """Mirrors ``tests/ssh/test_server.py::test_spectator_sees_the_public_view_and_chat``: alice plays
    over SSH, bob watches in the browser."""
    base = base_of(server)
    session = await signed_in_session(base, token_of(await link_for(server.port, "bob", make_key("bob"))))
    try:
        async with Terminal(server.port, "alice", make_key("alice")) as alice:
            await alice.wait_for("Saloon")
            code = await new_table(alice, 3, "random,random")
            await alice.wait_for("Your move")
            table = server.lobby.table(code)
            # the opening's Safe pass is for everyone at once: the two bots answer it without a
            # pause, maybe after alice sees "Your move"; from then on only alice's move can come
            await wait_until(lambda: table.to_act() == (0,), what="the bots' answers: only alice to act")
            moves = table.num_moves
            figure = re.search(r"0:alice \[([^\]]+)\]", alice.text())
            assert figure, alice.text()
            async with WebTerminal(base, session) as bob:
                await bob.wait_for(code)
                await bob.press("w")
                await bob.wait_for("c: chat here")
                await bob.wait_for(f"Waiting for {figure.group(1)}")  # alice's figure
                await alice.wait_for("1 watching")
                (watcher,) = map(server.front_side, table.spectators)
                assert watcher.identity.name == "bob"
                assert table.seats[0].controller is not watcher
                # the public view: no seat's hand and no moves, but the same table as alice sees
                await bob.wait_for("Spectator: no hand")
                screen = bob.text()
                assert "Your hand" not in screen and "Your move" not in screen
                assert "watching" in screen and "you: seat" not in screen
                hand = _hand_of(alice.text())
                assert hand, alice.text()
                assert hand not in screen
                # alice's own Safes show their contents to her; every seat's Safes are face down to bob
                assert re.search(r"\(you\) +\d+  \[1 [A-Z][^]]*\] \[2 [A-Z][^]]*\]", alice.text()), alice.text()
                assert len(re.findall(r"\d+  \[1 \?\] \[2 \?\]", screen)) == 3, screen
                await wait_until(
                    lambda: _public(bob.text()) == _public(alice.text()) != [], what="the same public table"
                )
                # the table chat, both ways
                await bob.press("c")
                await wait_until(lambda: watcher.query_one("#st-say").has_focus, what="chat focus")  # not the moves
                await bob.type("howdy from the browser\r")
                await alice.wait_for("bob: howdy from the browser")
                await bob.wait_for("bob: howdy from the browser")
                player = server.front_side(table.seats[0].controller)  # alice's table screen
                assert player is not None
                await alice.press("c")
                await wait_until(lambda: player.query_one("#st-say").has_focus, what="alice's chat focus")
                await alice.type("welcome, stranger\r")
                await bob.wait_for("alice: welcome, stranger")
                said = [(line.name, line.text) for line in table.chat]
                assert said == [("bob", "howdy from the browser"), ("alice", "welcome, stranger")]
                # watching and chatting made no move: the table still waits for alice's
                assert table.num_moves == moves and table.status == "playing" and table.to_act() == (0,)
    finally:
        await session.close()


async def test_g_in_the_browser_lists_recent_games_and_steps_through_one_in_the_replay_viewer(
    server: SaloonServer,
) -> None:
    """Mirrors ``tests/ssh/test_first_hour.py::test_g_lists_recent_games_and_opens_one_in_the_replay_viewer``."""
    table = server.lobby.create_table(Identity("carol", "x"), GAME, 2, [SeatSpec("bot"), SeatSpec("bot")])
    await wait_until(lambda: table.is_over and bool(server.store.games()), timeout=30, what="a finished game")
    (record,) = server.store.games()
    total = table.num_moves
    assert total >= 2
    base = base_of(server)
    session = await signed_in_session(base, token_of(await link_for(server.port, "alice", make_key("alice"))))
    try:
        async with WebTerminal(base, session) as term:
            await term.wait_for("new table")
            await term.press("g")
            await term.wait_for("Recent games")
            await term.wait_for(f"{record.code}  Deadwood 1876: random, random")
            assert "saloon replay" not in term.text() and "DATA/replays" not in term.text()
            await term.press("enter")
            await term.wait_for("REPLAY")
            assert f"move 0/{total}" in term.text()
            await term.press("right")
            await term.wait_for(f"move 1/{total}")
            await term.press("right")
            await term.wait_for(f"move 2/{total}")
            await term.press("left")
            await term.wait_for(f"move 1/{total}")
            await term.press("q")
            await term.wait_for("n: new table")
            await term.settle()
            assert "REPLAY" not in term.text() and not term.closed.is_set()
            assert len(server.sessions) == 1  # the browser session goes on, back in the lobby
    finally:
        await session.close()


def _hand_of(screen: str) -> str:
    """The first line of the "Your hand:" row on a seated player's screen, without the label."""
    line = next((line for line in screen.splitlines() if "Your hand:" in line), "")
    return line.split("Your hand:", 1)[1].strip().split("│")[0].strip() if line else ""


def _public(screen: str) -> list[str]:
    """What every screen at the table shows alike: the saloons' stars, the deck and the discard pile."""
    return re.findall(r"(?:Gem Theatre|Bella Union) [^\n]*?\d/\d|deck \d+ · discard \d+", screen)


async def test_a_browser_guest_plays_a_whole_game_at_an_ssh_players_table(tmp_path: Path) -> None:
    """Issue 25's "done when": a person with only a browser (a guest, on a server that admits
    guests) joins the table an SSH player opened and the two play it to the end, against a bot;
    the game is recorded with both of them, and its replay verifies."""
    server = await start_both(tmp_path / "data", guest=True)
    try:
        async with Terminal(server.port, "alice", make_key("alice")) as alice:
            await alice.wait_for("Saloon")
            code = await new_table(alice, 3, "random,free")  # alice, a free seat, a random bot
            table = server.lobby.table(code)
            session = await signed_in_session(base_of(server), guest="drifter")
            try:
                async with WebTerminal(base_of(server), session) as drifter:
                    await drifter.wait_for(code)
                    await drifter.press("enter")  # join alice's waiting table
                    await drifter.wait_for("you: seat 1")
                    await wait_until(lambda: table.status == "playing", what="the game starts")
                    await asyncio.gather(play_to_end(alice, timeout=120), play_to_end(drifter, timeout=120))  # type: ignore[arg-type]
                    assert table.is_over
                    for term in (alice, drifter):
                        assert str(table.seed_if_over()) in term.text()  # both see the finished game
            finally:
                await session.close()
        await wait_until(lambda: bool(server.store.games()), what="the game to be recorded")
        (record,) = server.store.games()
        assert record.code == code
        assert record.players == ("alice", "drifter (guest)", "random")
        replay = replays.load(record.replay)
        replays.verify(replay)  # the recorded game re-simulates to its digest
        assert replay.outcome is not None
    finally:
        await server.stop()
