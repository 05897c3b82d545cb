"""Helpers for the per-game SSH tests (Wyatt Earp, Deadwood Studios, Deadwood): a table opened
from the lobby's form for a chosen game, two people at it playing turns from their terminals,
and a remote bot playing a seat to the end. What each game's screen must show stays in its own
test file."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import msgspec

import engine
import replays
from lobby.tables import Identity, SeatSpec, Table
from serve.ssh_server import SaloonServer
from tests.ssh.termclient import ScreenClient, Terminal, make_key, wait_until
from tests.ssh.test_server import BotClient, run_command


async def new_table(term: Terminal, game_id: str, players: int, bots: str, form_shows: str) -> str:
    """Open a ``game_id`` table of ``players`` seats from the lobby's form (the game picked in its
    list, the form then showing ``form_shows``: one of the game's options, or that it has none),
    the person seated and ``bots`` (the bots field, e.g. ``"random"``) filling the form's bot
    seats; returns the table's code.

    Raises:
        AssertionError: a screen the form leads to did not show within 10 s.
    """
    await term.press("n")
    await term.wait_for("New table")
    await term.settle()  # the form has focused its first field, the game
    await term.press(" ")  # the game's list (Enter on the game would open the table)
    await term.settle()  # the list is open: each down moves in it
    await term.wait_for(engine.game(game_id).title)
    downs = list(engine.games()).index(game_id)
    await term.press(*(["down"] * downs), "enter")
    await term.wait_for(form_shows)  # the form now is for the game
    await term.press("tab", "backspace", "backspace", str(players), "tab")
    await term.press(*(["backspace"] * 30))
    await term.type(bots)
    await term.press("enter")
    await term.wait_for("Table ")
    line = next(line for line in term.text().splitlines() if "Table " in line)
    return line.split("Table ", 1)[1].split()[0]


async def move_once(term: Terminal, moved: Callable[[], bool]) -> None:
    """Press ``1`` (the first choice, or the first group of choices) until ``moved()``.

    Raises:
        AssertionError: no move within 10 s (with the screen in the message).
    """
    deadline = time.monotonic() + 10
    while not moved():
        assert time.monotonic() < deadline, "no move was made:\n" + term.text()
        before = term.text()
        await term.press("1", pause=0)
        t0 = time.monotonic()
        # press again only when the screen has answered (a group of choices opened) or after 3 s
        # of silence: a second ``1`` while a slow server still draws the first made two moves
        while term.text() == before and not moved() and time.monotonic() - t0 < 3:
            await asyncio.sleep(0.02)


@asynccontextmanager
async def two_people_and_a_bot(
    server: SaloonServer, game_id: str, form_shows: str
) -> AsyncIterator[tuple[Table, str, dict[int, Terminal]]]:
    """Alice opens a 3-seat ``game_id`` table from the lobby's form (see :func:`new_table`): her
    seat, a free seat and a random bot; Bob joins it from the lobby and the game starts. Yields
    the table, its code and the two terminals by seat (``{0: alice, 1: bob}``), both still
    connected."""
    async with Terminal(server.port, "alice", make_key("alice")) as alice:
        await alice.wait_for("Saloon")
        code = await new_table(alice, game_id, 3, "random,free", form_shows)  # alice, a free seat, a random bot
        table = server.lobby.table(code)
        assert table.game.id == game_id and table.status == "waiting"
        async with Terminal(server.port, "bob", make_key("bob")) as bob:
            await bob.wait_for(code)
            await bob.press("enter")  # join the waiting table
            await bob.wait_for("you: seat 1")
            await wait_until(lambda: table.status == "playing", what="the game starts")
            assert table.names() == ["alice", "bob", "random (bot)"]
            yield table, code, {0: alice, 1: bob}


async def play_turns(
    table: Table, terms: dict[int, Terminal], turns: int, until_over: bool = False, and_a_bot_move: bool = False
) -> None:
    """Each seat of ``terms`` makes ``turns`` moves from its terminal (``1`` in the picker, see
    :func:`move_once`), in the order the game asks for them; with ``until_over``, stop early
    when the game ends; with ``and_a_bot_move``, go on (making the moves the game asks of the
    people) until a move not made by the people has been recorded too: a seat's turn may take
    several moves, so the bot's turn may come only after more than ``turns`` of theirs.

    Raises:
        AssertionError: the people did not get their turns (or no bot moved) within 30 s.
    """
    made = dict.fromkeys(terms, 0)
    start = table.num_moves
    deadline = time.monotonic() + 30

    def more() -> bool:
        if until_over and table.is_over:
            return False
        return min(made.values()) < turns or (and_a_bot_move and table.num_moves - start <= sum(made.values()))

    while more():
        assert time.monotonic() < deadline, (
            "the people did not get to play" if min(made.values()) < turns else "no bot moved"
        )
        state = table.state
        assert state is not None
        waiting = [s for s in state.to_act if s in terms]
        if not waiting or len(waiting) < len(state.to_act):
            # nobody here owes a move yet, or a bot owes one at the same time (a decision for
            # everyone at once, which the bots answer without a pause): let the bots move first, so
            # that the next move recorded is the one this seat's keys make
            await asyncio.sleep(0.02)
            continue
        seat = waiting[0]
        await terms[seat].wait_for("Your move")
        moves = table.num_moves
        await move_once(terms[seat], lambda moves=moves: table.num_moves > moves)
        made[seat] += 1


class RemoteBotGame(msgspec.Struct, frozen=True):
    """A game a remote bot played (see :func:`a_remote_bot_plays_seat_1`): the ``table``, every
    message the bot was sent (``messages``, decoded JSON objects), the "decide" ones among them
    (``decides``, in order), and the stored ``replay``."""

    table: Table
    messages: list[dict[str, Any]]
    decides: list[dict[str, Any]]
    replay: replays.Replay


async def a_remote_bot_plays_seat_1(server: SaloonServer, game_id: str, timeout: float) -> RemoteBotGame:
    """Carol makes a 3-seat ``game_id`` table (server bots at seats 0 and 2, seat 1 open); the
    remote bot "robo" takes seat 1 (``bot --table CODE --seat 1``) and plays it to the end,
    within ``timeout`` seconds, answering the first legal action.

    Checks what every game shares: the bot exits 0, its messages run from "start" (the game's
    id, never the seed) to "end", the table ends without faults with "robo (remote bot)" at
    seat 1, and the stored replay verifies with an outcome.
    """
    await run_command(server.port, "carol", make_key("carol"), "help")
    creator = Identity("carol", make_key("carol").get_fingerprint())
    seats = [SeatSpec("bot"), SeatSpec("open"), SeatSpec("bot")]
    table = server.lobby.create_table(creator, game_id, 3, seats)
    bot = BotClient(server.port, "robo", f"bot --table {table.code} --seat 1")
    status, stderr = await asyncio.wait_for(bot.run(), timeout)
    assert status == 0, stderr
    kinds = [m["type"] for m in bot.messages]
    assert kinds[0] == "start" and kinds[-1] == "end"
    start = json.dumps(bot.messages[0])
    assert game_id in start and "seed" not in start
    assert table.is_over and not table.faults
    assert table.names()[1] == "robo (remote bot)"
    for _ in range(50):
        if server.store.games():
            break
        await asyncio.sleep(0.05)
    (record,) = server.store.games()
    replay = replays.load(record.replay)
    replays.verify(replay)
    assert replay.header.game == game_id and replay.outcome is not None
    return RemoteBotGame(table, bot.messages, [m for m in bot.messages if m["type"] == "decide"], replay)


async def count_down_to_a_forced_move(term: ScreenClient) -> None:
    """The turn timer's last seconds on ``term`` (a 3 s timer): 2 s then 1 s left, under the moves
    and in the seats line alike, then the note of the move a bot made for the player.

    Raises:
        AssertionError: a step did not show in time.
    """
    for left in (2, 1):
        await wait_until(  # the moves and the seats line are two widgets: maybe two frames
            lambda left=left: f"{left}s left, then a bot moves for you" in term.text() and f"({left}s)" in term.text(),
            timeout=3,
            what=f"{left}s left under the moves and in the seats line",
        )
    await term.wait_for("Time ran out: a bot played for you: ", timeout=4)


async def watch_and_chat(term: ScreenClient, line: str) -> None:
    """From the lobby: watch the highlighted table (``w``) for a second, say ``line`` in its chat,
    and wait a moment for it to be sent (the session of the memory tests, over either transport)."""
    await term.wait_for("new table")
    await term.press("w")
    await term.wait_for("chat here")
    await asyncio.sleep(1.0)
    await term.press("c")  # the table's chat line
    await term.type(line + "\r")
    await asyncio.sleep(0.3)
