"""Issue 37 at server tables, through the real SSH server at 80x24 (pyte terminals): the result
of a finished game (who won, each seat's result in the game's words, the seed, the replay's
number, the keys) whole on screen and scrolling; a move that is the only choice played at once
(``o`` turns that off); the chat's wrapped lines, its zoom and Esc.

The local table's result and only moves: ``tests/tui/test_only_moves_and_result.py``.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest

import engine
import lobby.tables
from lobby.store import Store
from lobby.tables import Identity, Lobby, SeatSpec, ServerConfig, Table
from serve.ssh_server import SaloonServer
from tests.ssh.termclient import Terminal, make_key, wait_until
from tests.ssh.test_server import new_table
from tui.lobby_screen import SSHApp
from tui.table_screen import ServerTableScreen
from tui.widgets import ActionPicker, GameLog, ResultScreen
from tui.widgets.only_move import only_choice
from tui.widgets.picker import Choice
from tui.widgets.result import headline

SIZE = (80, 24)
KEYS = {
    "pageup": b"\x1b[5~",
    "pagedown": b"\x1b[6~",
    "home": b"\x1b[H",
    "end": b"\x1b[F",
    "up": b"\x1b[A",
    "down": b"\x1b[B",
}
"""What a terminal sends for the keys that scroll."""
SEED = 3
"""The seed of the pilot's tables (the lobby draws one otherwise)."""

TITLE = engine.game("deadwood1876").title  # the new-table form's first game


def _screen_of(server: SaloonServer, table: Table, seat: int = 0) -> ServerTableScreen:
    """The server's screen that controls ``seat`` of ``table`` (the hall's table)."""
    screen = server.front_side(table.seats[seat].controller)
    assert isinstance(screen, ServerTableScreen)
    return screen


def _auto_played(screen: ServerTableScreen) -> list[str]:
    return [line for line in screen.query_one(GameLog).plain_lines if line.startswith("auto-played: ")]


async def _play_to_the_result(server: SaloonServer, term: Terminal, table: Table, timeout: float = 90.0) -> None:
    """Pick one of the first nine choices (seeded) whenever it is this player's move, until the
    result shows."""
    rng = random.Random(SEED)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = await term.wait_for("Your move", "r: replay", timeout=deadline - time.monotonic())
        if found == "r: replay":
            await wait_until(lambda: isinstance(_screen_of(server, table).app.screen, ResultScreen), what="the result")
            await term.wait_for("Esc: the table")  # the result's keys line: on the terminal, not only pushed
            await term.settle(quiet=0.2)
            return
        screen = _screen_of(server, table)
        legal = screen.table.legal_for(screen)
        if not legal or screen._choices_key != screen._move_key(legal):
            await asyncio.sleep(0.02)  # the screen does not show this decision yet (a busy machine)
            continue
        before = term.text()
        shown = len(screen.query_one(ActionPicker).items)
        await term.press(str(rng.randrange(max(1, min(shown, 9))) + 1), pause=0)
        t0 = time.monotonic()
        while term.text() == before and time.monotonic() - t0 < 2:
            await asyncio.sleep(0.02)
    raise AssertionError("the game did not end in time:\n" + term.text())


async def test_the_result_is_whole_at_80_by_24_and_its_keys_work(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice"), size=SIZE) as term:
        await term.wait_for("new table")
        code = await new_table(term, 2, "random")
        table = server.lobby.table(code)
        await _play_to_the_result(server, term, table)
        screen = _screen_of(server, table)
        outcome = table.outcome
        assert outcome is not None and table.game_row is not None
        text = term.text()
        won = headline(outcome, screen._result_names(screen.table.view_for(screen)[1]), 0)
        assert f"{TITLE}: {won}"[:50] in text and all(word in text for word in won.split()), text
        assert "WINNER" in text and "Final Showdown" in text  # the game's own words, not 1 and 0
        assert "alice as " in text and "random (bot) as " in text, text
        assert f"seed {table.seed_if_over()}" in text
        assert f"replay #{table.game_row} (table {code}) · ssh ... replay {table.game_row} > FILE" in text
        assert "r: replay   l: lobby   Esc: the table" in text
        assert "…" not in text  # nothing cut
        await term.press("escape")  # the table, and how to see the result again
        await wait_until(lambda: screen.app.screen is screen, what="back at the table")
        await term.wait_for("e: the result, r: replay, l: lobby")
        await term.press("e")
        await wait_until(lambda: isinstance(screen.app.screen, ResultScreen), what="the result again")
        await term.press("l")
        await term.wait_for("n: new table")  # the lobby


async def test_the_result_of_seven_seats_scrolls_at_80_by_24_and_only_moves_play_themselves(
    server: SaloonServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seven seats do not fit the result's box at 80x24: every scrolling key moves it, its title
    and keys stay; the only moves alice had were played without a key, each said in her log."""
    async with Terminal(server.port, "alice", make_key("alice"), size=SIZE) as term:
        await term.wait_for("new table")
        monkeypatch.setattr(lobby.tables.secrets, "randbits", lambda bits: SEED)  # the game's seed
        code = await new_table(term, 7, ",".join(["random"] * 6))
        table = server.lobby.table(code)
        await _play_to_the_result(server, term, table, timeout=150)
        screen = _screen_of(server, table)
        result = screen.app.screen
        assert isinstance(result, ResultScreen)
        body = result.query_one("#result-body")
        assert body.max_scroll_y > 0
        seed, replay_id = f"seed {table.seed_if_over()}", f"replay #{table.game_row} (table {code})"
        text = term.text()
        assert f"{TITLE}: You " in text and "WINNER" in text and seed not in text

        async def press(key: str) -> str:
            before = body.scroll_y
            term.send(KEYS.get(key, key.encode()))
            await wait_until(lambda: body.scroll_y != before, what=f"{key} to scroll")
            await term.settle(quiet=0.2)
            return term.text()

        await press("down")
        assert body.scroll_y == 1
        await press("up")
        await press("pagedown")
        await press("pageup")
        text = await press("end")
        assert seed in text and replay_id in text, text
        assert "r: replay   l: lobby" in text and f"{TITLE}: You " in text  # the keys and the title stay
        text = await press("home")
        assert "Final Showdown" in text and seed not in text
        auto = _auto_played(screen)
    assert auto, "alice had no only move in a whole 7-player game"
    assert all(line.split(": ", 1)[1] for line in auto)


# Only moves at a server table, in the pilot ----------------------------------------------------------


def _choices(screen: ServerTableScreen) -> list[Choice]:
    """The moves the screen's seat has now, as the screen offers them."""
    table, ui = screen.table, screen.ui
    view = table.view_for(screen)[1]
    return [Choice(ui.describe_action(table.game, a, view), ui.group(a, view), a) for a in table.legal_for(screen)]


async def _only_moves_at_a_table(front: Any, tmp_path: Path, auto: bool) -> tuple[int, int, list[str]]:
    """Alice and three random bots at a server table (seeded), at 80x24 in the pilot; alice
    presses a digit at each decision shown, until an only move is offered (``auto`` off) or the
    game ends.

    Returns:
        The moves alice played with a key, her moves in all, and her log's ``auto-played`` lines.
    """
    lobby = Lobby(Store(tmp_path), ServerConfig(bot_delay_s=0))
    alice = Identity("alice", "key-alice")
    table = lobby.create_table(alice, "deadwood1876", 4, [SeatSpec("me"), *[SeatSpec("bot", "random")] * 3], None)
    mirror = await front(lobby)  # the screen sees the table through a hall, as at a server
    app = SSHApp(mirror, alice)
    pressed = 0
    rng = random.Random(5)
    async with app.run_test(size=SIZE) as pilot:
        screen = ServerTableScreen(mirror.table(table.code), sit=True)
        app.push_screen(screen)
        await pilot.pause()
        if not auto:
            await pilot.press("o")
            assert "auto-play only moves: off" in screen.query_one(GameLog).plain_lines
        picker = screen.query_one(ActionPicker)

        def offered() -> bool:
            """Over, or alice's decision now on the screen (as moves, or played for her)."""
            legal = screen.table.legal_for(screen)
            return screen.table.is_over or (bool(legal) and screen._choices_key == screen._move_key(legal))

        while True:
            await _wait(pilot, offered)
            if screen.table.is_over:
                break
            only = only_choice(_choices(screen))
            moves = table.num_moves
            if only is not None and auto:  # played for her: at once, or as soon as the hall answers
                try:
                    # (or the game is over: the screen may show an only move of a game that just ended)
                    await _wait(pilot, lambda moves=moves: table.num_moves > moves or table.is_over, timeout=10)
                except AssertionError:
                    raise AssertionError(f"{only.label} waits for a key") from None
                continue
            if only is not None:
                await pilot.pause(0.3)
                assert table.num_moves == moves and screen.table.legal_for(screen)  # it waits
                assert picker.items == [only.label]
                await pilot.press("1")
                await _wait(pilot, lambda moves=moves: table.num_moves > moves)
                return 1, 1, _auto_played(screen)
            assert picker.active
            index = rng.randrange(min(len(picker.items), 9))
            group, items, key = " ▸ " in picker.items[index], list(picker.items), screen._choices_key
            pressed += not group  # a move (else a group of moves opens)
            await pilot.press(str(index + 1))
            await _wait(pilot, lambda g=group, i=items, k=key: picker.items != i if g else screen._choices_key != k)
        assert auto, "no only move in a whole game: nothing waited"
        await _wait(pilot, lambda: table.game_row is not None)
        mine = sum(1 for seat, _ in table.replay.move_pairs() if seat == 0)  # type: ignore[union-attr]
        return pressed, mine, _auto_played(screen)


async def _wait(pilot: Any, condition: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting for the table"
        await pilot.pause(0.01)


async def test_only_moves_play_themselves_at_a_server_table(
    front: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby.tables.secrets, "randbits", lambda bits: SEED)
    pressed, mine, auto = await _only_moves_at_a_table(front, tmp_path, auto=True)
    assert auto and mine == pressed + len(auto)  # each of alice's moves was pressed or played for her


async def test_with_auto_play_off_an_only_move_waits_at_a_server_table(
    front: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby.tables.secrets, "randbits", lambda bits: SEED)
    _pressed, _mine, auto = await _only_moves_at_a_table(front, tmp_path, auto=False)
    assert auto == []


# The chat ---------------------------------------------------------------------------------------------


def _chat_rows(text: str) -> list[str]:
    """The chat's rows on an 80x24 table screen: the right column between the chat's top rule and
    the chat line."""
    rows = text.splitlines()
    say = max(i for i, row in enumerate(rows) if "c: chat here" in row or row.rstrip().endswith("│"))
    right = [row[row.index("│") + 1 :] if "│" in row else "" for row in rows[: say + 1]]
    top = max(i for i, part in enumerate(right[:say]) if part.strip().startswith("────"))
    return [part.rstrip(" ▁▂▃▄▅▆▇█").strip() for part in right[top + 1 : say] if part.strip()]  # no scroll bar


async def test_the_chat_shows_four_wrapped_lines_at_80_by_24_and_its_keys_work(server: SaloonServer) -> None:
    said = [
        ("alice", "howdy bob, pull up a chair and deal"),
        ("bob", "ha! good luck alice, you will need it"),
        ("alice", "we shall see who rides out of town"),
        ("bob", "my money is on the Stranger tonight"),
        ("alice", "then keep an eye on your Safes, pardner"),
    ]
    async with Terminal(server.port, "alice", make_key("alice"), size=SIZE) as alice:
        await alice.wait_for("new table")
        code = await new_table(alice, 3, "free,random")
        async with Terminal(server.port, "bob", make_key("bob"), size=SIZE) as bob:
            await bob.wait_for(code)
            await bob.press("w")
            await bob.wait_for("c: chat here")
            table = server.lobby.table(code)
            await wait_until(lambda: len(table.spectators) == 1, what="bob watching")
            screen = _screen_of(server, table)
            terms = {"alice": (alice, screen), "bob": (bob, server.front_side(next(iter(table.spectators))))}
            for term, at in terms.values():
                await term.press("c")
                await wait_until(lambda at=at: at.query_one("#st-say").has_focus, what="the chat line")
            for who, line in said:
                await terms[who][0].type(line + "\r")
                await alice.wait_for(f"{who}: {line.split()[0]}")
            await alice.wait_for("pardner")
            await alice.settle(quiet=0.3)
            rows = _chat_rows(alice.text())
            assert len(rows) >= 4, alice.text()
            shown = " ".join(rows)
            assert "alice: then keep an eye on your Safes, pardner" in shown  # whole, wrapped
            assert "bob: my money is on the Stranger tonight" in shown
            assert all(len(row) <= 32 for row in rows)  # wrapped at the chat's width, not cut
            say = screen.query_one("#st-say")
            assert say.has_focus
            await alice.press("z")  # the empty chat line: z zooms the chat
            await wait_until(lambda: screen.maximized is not None, what="the chat zoomed")
            await alice.wait_for("bob: ha! good luck alice, you will need it")  # one line, at the full width
            await alice.type("zz")  # in the zoomed chat, z is a letter
            await wait_until(lambda: say.value == "zz", what="zz typed")  # type: ignore[attr-defined]
            await alice.press("escape")
            await wait_until(lambda: screen.maximized is None and not say.has_focus, what="Esc back to the moves")
            assert screen.focused is screen.query_one(ActionPicker).options
            await alice.press("c")
            await wait_until(lambda: say.has_focus, what="the chat line again")
            alice.send(KEYS["end"])  # after the text (the line selects it all as it takes the focus)
            await alice.type("z")  # something typed already: z is a letter
            await wait_until(lambda: say.value == "zzz", what="zzz typed")  # type: ignore[attr-defined]
            assert screen.maximized is None
            await alice.press("escape")
            await wait_until(lambda: not say.has_focus, what="Esc back to the moves")
