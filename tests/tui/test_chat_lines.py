"""Issue 26: the chats keep showing new lines after their 200th.

A table's and the lobby's chat keep the newest 200 lines (a ``deque(maxlen=200)``); the screens
counted the lines they had shown, so once a chat was full its length stayed 200 and no session
ever showed another line. Each line now carries its number in its chat (``ChatLine.serial``)
and :func:`tui.table_screen.show_chat` shows the lines numbered after the last one shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.widgets import RichLog

from lobby.store import Store
from lobby.tables import Identity, Lobby, SeatSpec, ServerConfig
from tui.lobby_screen import LobbyScreen, SSHApp
from tui.table_screen import ServerTableScreen, show_chat

ALICE = Identity("alice", "key-alice")
BOB = Identity("bob", "key-bob")


class Written:
    """A stand-in for the chat's RichLog: what was written to it since the last look."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.clears = 0

    def write(self, line: Text) -> None:
        self.lines.append(line.plain.split(" ", 1)[1])  # without the time stamp

    def clear(self) -> None:
        self.clears += 1

    def take(self) -> list[str]:
        lines, self.lines = self.lines, []
        return lines


def new_lobby(tmp_path: Path) -> Lobby:
    return Lobby(Store(tmp_path), ServerConfig(bot_delay_s=0))


def chat_texts(log: RichLog) -> list[str]:
    """The chat lines a RichLog shows, without their time stamps."""
    return [strip.text.rstrip().split(" ", 1)[1] for strip in log.lines]


async def test_show_chat_shows_exactly_the_new_lines_past_200(tmp_path: Path) -> None:
    lobby = new_lobby(tmp_path)
    written = Written()
    shown = 0
    posted = 0
    for step in (1, 150, 49, 1, 1, 7, 191, 50):  # 450 lines in steps, across the deque's 200
        for _ in range(step):
            posted += 1
            lobby.say(BOB, f"line {posted}")
        shown = show_chat(written, list(lobby.chat), shown)  # type: ignore[arg-type]
        assert written.take() == [f"bob: line {n}" for n in range(posted - step + 1, posted + 1)]
        shown = show_chat(written, list(lobby.chat), shown)  # type: ignore[arg-type]  # nothing new
        assert written.take() == []
    assert posted == 450 and len(lobby.chat) == 200 and written.clears == 0


async def test_show_chat_after_more_than_200_unseen_lines_shows_the_200_kept(tmp_path: Path) -> None:
    lobby = new_lobby(tmp_path)
    written = Written()
    lobby.say(BOB, "line 1")
    shown = show_chat(written, list(lobby.chat), 0)  # type: ignore[arg-type]
    assert written.take() == ["bob: line 1"]
    for n in range(2, 303):
        lobby.say(BOB, f"line {n}")
    shown = show_chat(written, list(lobby.chat), shown)  # type: ignore[arg-type]
    assert written.take() == [f"bob: line {n}" for n in range(103, 303)]  # lines 2-102 were dropped
    lobby.say(BOB, "line 303")
    show_chat(written, list(lobby.chat), shown)  # type: ignore[arg-type]
    assert written.take() == ["bob: line 303"] and written.clears == 0


async def test_chat_lines_are_numbered_from_one_in_each_chat(tmp_path: Path) -> None:
    lobby = new_lobby(tmp_path)
    table = lobby.create_table(ALICE, "deadwood1876", 3, [SeatSpec("open")] * 3, None)
    for n in range(1, 206):
        lobby.say(BOB, f"lobby {n}")
    table.say(BOB, "table 1")
    table.say(BOB, "\x1b")  # nothing left once cleaned: not posted, not numbered
    table.say(BOB, "table 2")
    assert [line.serial for line in lobby.chat] == list(range(6, 206))
    assert [(line.serial, line.text) for line in table.chat] == [(1, "table 1"), (2, "table 2")]


async def _say_and_redraw(
    say: Callable[[Identity, str], None], screen: Any, pilot: Any, numbers: Iterable[int]
) -> None:
    """Bob says ``line N`` for each of ``numbers`` (through ``say``), then ``screen`` redraws."""
    for n in numbers:
        say(BOB, f"line {n}")
    await pilot.pause(0.1)  # the hall tells the front
    screen.redraw()
    await pilot.pause()


async def test_the_lobby_chat_shows_line_201_and_beyond(front: Any, tmp_path: Path) -> None:
    lobby = new_lobby(tmp_path)
    app = SSHApp(await front(lobby), ALICE)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        log = screen.query_one("#lobby-chat", RichLog)
        await _say_and_redraw(lobby.say, screen, pilot, range(1, 201))
        assert chat_texts(log) == [f"bob: line {n}" for n in range(1, 201)]
        for last in (201, 202, 260):
            await _say_and_redraw(lobby.say, screen, pilot, range(len(log.lines) + 1, last + 1))
            assert chat_texts(log) == [f"bob: line {n}" for n in range(1, last + 1)]


async def test_a_table_chat_shows_line_201_and_beyond(front: Any, tmp_path: Path) -> None:
    lobby = new_lobby(tmp_path)
    table = lobby.create_table(BOB, "deadwood1876", 3, [SeatSpec("me"), SeatSpec("open"), SeatSpec("open")], None)
    mirror = await front(lobby)
    app = SSHApp(mirror, ALICE)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = ServerTableScreen(mirror.table(table.code), sit=False)
        app.push_screen(screen)
        await pilot.pause()
        log = screen.query_one("#st-chat", RichLog)
        await _say_and_redraw(table.say, screen, pilot, range(1, 201))
        assert chat_texts(log) == [f"bob: line {n}" for n in range(1, 201)]
        for n in (201, 202):
            await _say_and_redraw(table.say, screen, pilot, [n])
            assert chat_texts(log)[-3:] == [f"bob: line {k}" for k in range(n - 2, n + 1)]
        assert len(log.lines) == 202
