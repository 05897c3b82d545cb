"""Issue 35: a session's terminal gets only the cells that changed, and ends up showing what it
showed when Textual wrote every update whole.

Each screen update of an SSH session's app goes through :class:`tui.widgets.screen_diff.ScreenDiff`.
These tests feed two terminal emulators (pyte) side by side, one with Textual's own output for each
update and one with the diff's, and compare every cell (character, colours, attributes) after
each update, and with the whole screen as the compositor draws it then (every row: the rows an
update repaints are drawn alone, :mod:`tui.widgets.compositor`): at table screens of every game
watched through a game, in the lobby, across a resize, and for a double-width name.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pyte
import pytest
from rich.color import ColorSystem
from rich.segment import Segment
from rich.style import Style
from textual._compositor import ChopsUpdate, LayoutUpdate
from textual.drivers.headless_driver import HeadlessDriver
from textual.geometry import Region
from textual.strip import Strip
from textual.visual import Visual, visualize

from lobby.store import Store
from lobby.tables import Identity, Lobby, SeatSpec, ServerConfig
from serve.ssh_driver import _configure_console
from tui.lobby_screen import SSHApp
from tui.table_screen import ServerTableScreen
from tui.widgets.board import Board, _line_strip
from tui.widgets.screen_diff import ScreenDiff


class Person:
    """A stand-in for a seated person: the test plays its moves."""

    def __init__(self, name: str) -> None:
        self.identity = Identity(name, f"key-{name}")

    def changed(self, what: Any) -> None:
        pass

    def seat_lost(self, table: Any, seat: int, reason: str) -> None:
        pass


class Terminal:
    """A pyte screen fed with output; :meth:`cells` is every cell with its colours and attributes."""

    def __init__(self, width: int, height: int) -> None:
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.Stream(self.screen)

    def feed(self, data: str) -> None:
        self.stream.feed(data)

    def resize(self, width: int, height: int) -> None:
        self.screen.resize(height, width)

    def cells(self) -> list[list[tuple[Any, ...]]]:
        buffer = self.screen.buffer
        return [[tuple(buffer[y][x]) for x in range(self.screen.columns)] for y in range(self.screen.lines)]


class TwoTerminals:
    """Installed on an app: each update written both ways, each way to its own terminal."""

    def __init__(self, app: SSHApp, width: int, height: int) -> None:
        self.textual = Terminal(width, height)
        self.diffed = Terminal(width, height)
        self.updates = 0
        self.sent = [0, 0]  # bytes: Textual's, the diff's
        self.mismatches: list[int] = []
        self._app = app
        self._diff = ScreenDiff()
        app._screen_diff = self._diff
        original = self._diff.encode

        def encode(update: Any, width: int, height: int, color_system: ColorSystem | None) -> str | None:
            whole = update.render_segments(app.console)
            output = original(update, width, height, color_system)
            assert output is not None
            self.textual.feed(whole)
            self.diffed.feed(output)
            self.sent[0] += len(whole.encode())
            self.sent[1] += len(output.encode())
            self.updates += 1
            if self.textual.cells() != self.diffed.cells():
                self.mismatches.append(self.updates)
            return output

        self._diff.encode = encode  # type: ignore[method-assign]

    def resize(self, width: int, height: int) -> None:
        self.textual.resize(width, height)
        self.diffed.resize(width, height)

    def check(self) -> None:
        """Once the screen is drawn: the terminal shows the whole screen as the compositor draws
        it now, every row (the rows an update repaints are drawn alone)."""
        width, height = self._app.size
        strips = self._app.screen._compositor.render_strips()
        whole = Terminal(width, height)
        update = LayoutUpdate([[strip] for strip in strips], Region(0, 0, width, height))
        whole.feed(update.render_segments(self._app.console))
        if whole.cells() != self.diffed.cells():
            self.mismatches.append(-self.updates)


class WritingDriver(HeadlessDriver):
    """A headless driver that says it is not (the app writes each update); the output is dropped."""

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        pass


async def _watch_a_game(front: Any, tmp_path: Path, game_id: str, size: tuple[int, int], moves: int) -> TwoTerminals:
    rng = random.Random(7)
    lobby = Lobby(Store(tmp_path), ServerConfig(bot_delay_s=0, turn_timer_s=None))
    creator = Identity("creator", "key-creator")
    mirror = await front(lobby)
    app = SSHApp(mirror, Identity("watcher", "key-watcher"))
    async with app.run_test(size=size) as pilot:
        _configure_console(app, "256")
        app._driver.__class__ = WritingDriver  # type: ignore[union-attr]
        terminals = TwoTerminals(app, *size)
        table = lobby.create_table(creator, game_id, 3, [SeatSpec("open")] * 3, None)
        people = [Person(f"p{i}") for i in range(3)]
        for person in people:
            table.sit(person)  # type: ignore[arg-type]
        await pilot.pause(0.2)  # the hall tells the front
        shown = mirror.table(table.code)
        await app.push_screen(ServerTableScreen(shown, sit=False))
        await pilot.pause(0.2)
        for _ in range(moves):
            state = table.state
            assert state is not None
            if state.is_over:
                break
            seat = state.to_act[0]
            table.play(people[seat], rng.choice(state.legal_actions(seat)))  # type: ignore[arg-type]
            while shown.num_moves != table.num_moves:  # the hall tells the front
                await pilot.pause(0.005)
            app.screen.redraw()  # type: ignore[attr-defined]
            await pilot.pause(0.03)
            terminals.check()
        await pilot.press("tab", "z")  # the board zoomed to the whole screen, and back
        await pilot.pause(0.05)
        await pilot.press("z", "escape")
        await pilot.pause(0.05)
        terminals.check()
    return terminals


@pytest.mark.parametrize("game_id", ["deadwood1876", "wyatt_earp", "deadwood_studios", "deadwood_town"])
@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_a_watched_game_shows_the_same_cells_for_fewer_bytes(
    front: Any, game_id: str, size: tuple[int, int], tmp_path: Path
) -> None:
    terminals = await _watch_a_game(front, tmp_path, game_id, size, moves=40)
    assert terminals.updates > 40
    assert terminals.mismatches == []
    assert terminals.sent[1] < terminals.sent[0] / 2


async def test_the_lobby_and_a_resize_show_the_same_cells(front: Any, tmp_path: Path) -> None:
    lobby = Lobby(Store(tmp_path), ServerConfig(bot_delay_s=0, turn_timer_s=None, max_open_tables_per_account=10))
    creator = Identity("creator", "key-creator")
    app = SSHApp(await front(lobby), Identity("watcher", "key-watcher"))
    async with app.run_test(size=(100, 30)) as pilot:
        _configure_console(app, "256")
        app._driver.__class__ = WritingDriver  # type: ignore[union-attr]
        terminals = TwoTerminals(app, 100, 30)
        for n in range(6):
            lobby.create_table(creator, "deadwood1876", 2 + n % 3, [SeatSpec("open")] * (2 + n % 3), None)
            await pilot.pause(0.1)  # the hall tells the front
            app.screen.redraw()  # type: ignore[attr-defined]
            await pilot.pause(0.05)
            terminals.check()
        await pilot.press("down", "down", "up")
        await pilot.pause(0.05)
        terminals.check()
        terminals.resize(80, 24)
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.2)
        await pilot.press("down")
        await pilot.pause(0.05)
        terminals.check()
    assert terminals.updates > 6
    assert terminals.mismatches == []


def test_rows_that_moved_are_scrolled_and_a_wide_character_is_written_whole() -> None:
    diff = ScreenDiff()
    plain, bold = Style(color="white", bgcolor="black"), Style(bold=True)
    width, height = 20, 8

    def frame(lines: list[str]) -> LayoutUpdate:
        strips = [[Strip([Segment(line.ljust(width)[:width], bold if "!" in line else plain)])] for line in lines]
        return LayoutUpdate(strips, Region(0, 0, width, height))  # type: ignore[arg-type]

    terminal = Terminal(width, height)
    first = [f"line {n}" for n in range(height)]
    terminal.feed(diff.encode(frame(first), width, height, ColorSystem.EIGHT_BIT) or "")
    moved = [*first[1:6], "line 5!", "new 字 end", first[7]]
    output = diff.encode(frame(moved), width, height, ColorSystem.EIGHT_BIT) or ""
    terminal.feed(output)
    assert "\x1b[1;6r" in output  # rows 1-5 moved up a line by the terminal
    assert "line 1" not in output
    assert terminal.screen.display[:7] == [line.ljust(width) for line in moved[:6]] + [terminal.screen.display[6]]
    assert terminal.screen.display[6].startswith("new 字 end")
    chops = ChopsUpdate([{0: Strip([Segment("x" * width, plain)])}] * height, [(2, 3, 5)], [[width]] * height)
    output = diff.encode(chops, width, height, ColorSystem.EIGHT_BIT) or ""
    terminal.feed(output)
    assert terminal.screen.display[2].startswith("linxx")


def _cells(strip: Strip) -> list[tuple[str, str]]:
    """A strip's cells: each character and the codes of its style."""
    cells = []
    for segment in strip:
        code = segment.style.render("x", color_system=ColorSystem.EIGHT_BIT) if segment.style else ""
        cells.extend((char, code) for char in segment.text)
    return cells


@pytest.mark.parametrize("game_id", ["deadwood1876", "wyatt_earp", "deadwood_studios", "deadwood_town"])
async def test_a_board_line_drawn_from_its_spans_shows_what_textual_draws(
    front: Any, game_id: str, tmp_path: Path
) -> None:
    """The board draws a line that fits straight from its spans (tui.widgets.board): every line of
    a watched game's board, at 120x40 and 80x24, has the cells Textual's own drawing gives it."""
    lobby = Lobby(Store(tmp_path), ServerConfig(bot_delay_s=0, turn_timer_s=None))
    rng = random.Random(3)
    table = lobby.create_table(Identity("creator", "key-creator"), game_id, 4, [SeatSpec("open")] * 4, None)
    people = [Person(f"p{i}") for i in range(4)]
    for person in people:
        table.sit(person)  # type: ignore[arg-type]
    mirror = await front(lobby)
    app = SSHApp(mirror, Identity("watcher", "key-watcher"))
    compared = 0
    async with app.run_test(size=(120, 40)) as pilot:
        _configure_console(app, "256")
        await pilot.pause(0.1)
        shown = mirror.table(table.code)
        await app.push_screen(ServerTableScreen(shown, sit=False))
        for move in range(30):
            if move == 15:
                await pilot.resize_terminal(80, 24)
            state = table.state
            assert state is not None and not state.is_over
            seat = state.to_act[0]
            table.play(people[seat], rng.choice(state.legal_actions(seat)))  # type: ignore[arg-type]
            while shown.num_moves != table.num_moves:
                await pilot.pause(0.005)
            app.screen.redraw()  # type: ignore[attr-defined]
            await pilot.pause(0.03)
            board = app.screen.query_one(Board)
            width, style = board.size.width, board.visual_style
            for line in board._lines:
                drawn = _line_strip(line, width, style, app.console, {})
                if drawn is not None:
                    textual = Visual.to_strips(board, visualize(board, line), width, None, style)
                    assert len(textual) == 1 and _cells(drawn) == _cells(textual[0]), line
                    compared += 1
    assert compared > 100
