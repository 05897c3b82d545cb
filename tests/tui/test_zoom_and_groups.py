"""Issue 37, "the table, third pass": the moves' groups, leaving a zoom, and the seats' notes.

* The moves are never inside a group the person does not see: new choices start at the top
  level, leaving a zoom (by ``Esc``, ``z`` or ``Tab``) goes back to it, and while a group is open
  its name leads the moves' title (the town: ``1`` opens Hit the Town; after ``z`` and ``Esc``,
  ``1 3`` is Hit the Town then the Trail Boss, not a Greenhorn sent to the third plot).
* Leaving a zoom brings each region back to where it shows what matters: Deadwood Studios'
  board to its top (the $/credits/points table and your own role, not the scene text that
  ``End`` showed in the zoom), the side log to its newest lines (not its first).
* No region of the board shows two scrollbars (the board, or the screen around a zoomed one).
* Deadwood 1876 at 200x60: a player's notes (OUT, WINNER) sit right after their Safes, not a
  hundred columns away at the table's far edge.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static
from tui_helpers import advance, my_turn_or_over, play_screen, table_app, wait_until

from tui import screen_text
from tui.games.deadwood_studios import _where
from tui.widgets import ActionPicker, GameLog, ResultScreen

SIZE = (80, 24)


def title_of(picker: ActionPicker) -> str:
    """The moves' title as plain text."""
    content = picker.query_one("#picker-title", Static).content
    return str(getattr(content, "plain", content))


def shown(app: Any) -> str:
    """The screen's text now, as the person sees it."""
    return screen_text(app, everything=False)


# -- the groups -----------------------------------------------------------------------------


async def test_leaving_a_zoom_leaves_the_group_the_moves_were_in(tmp_path: Path) -> None:
    app = table_app("deadwood_town", 4, 0, "random", 3, tmp_path)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        screen = play_screen(app)
        picker = screen.query_one(ActionPicker)
        moves = app.session.recorder.num_moves
        assert picker.path == () and picker.items[0].startswith("Hit the Town ▸")
        await pilot.press("1")  # into Hit the Town: its name leads the title, on the screen
        assert picker.path == ("Hit the Town",)
        assert title_of(picker).startswith("Your move › Hit the Town") and "Your move › Hit the Town" in shown(app)
        await pilot.press("z", "escape")  # a look at the whole board, and back: the top level
        await pilot.pause()
        assert screen.maximized is None and picker.path == () and "›" not in title_of(picker)
        await pilot.press("1", "3")  # Hit the Town, then the Trail Boss (a group of plots)
        assert picker.path == ("Hit the Town", "Send your Trail Boss (3)")
        assert "Send your Trail Boss (3)" in title_of(picker) and app.session.recorder.num_moves == moves
        await pilot.press("0", "0")
        for leave in (["z"], ["escape"], ["tab"]):  # a digit in the zoom opens a group unseen
            await pilot.press("z", "1")
            assert screen.maximized is not None and picker.path == ("Hit the Town",)
            await pilot.press(*leave)
            await pilot.pause()
            assert screen.maximized is None and picker.path == (), leave
        await pilot.press("escape", "1")
        assert picker.path == ("Hit the Town",)
        screen.redraw()  # the moves drawn again (the same choices): from the top level
        assert picker.path == () and "›" not in title_of(picker)
        assert app.session.recorder.num_moves == moves  # no move was made by any of it


# -- leaving a zoom -------------------------------------------------------------------------


async def studios_midgame(pilot: Any, app: Any) -> Any:
    """Deadwood Studios some decisions in (the log long, the board longer than the screen)."""
    await wait_until(pilot, lambda: my_turn_or_over(app))
    screen = play_screen(app)
    advance(app.session, 15, random.Random(1))
    screen.redraw()
    await wait_until(pilot, lambda: my_turn_or_over(app))
    await pilot.pause()
    return screen


async def test_studios_board_comes_back_to_its_top_after_a_zoom(tmp_path: Path) -> None:
    app = table_app("deadwood_studios", 4, 0, "random", 3, tmp_path)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        screen = await studios_midgame(pilot, app)
        board = screen.query_one(".table")
        view = app.session.view()
        me = view.players[view.seat]
        before = shown(app)
        assert "$  cr  pts" in before and _where(view, me) in before  # the players, your role
        for leave in ("escape", "z"):
            await pilot.press("z", "end")  # the zoomed board at its end: scene text
            await pilot.pause()
            assert board.scroll_offset.y > 0 and "$  cr  pts" not in shown(app)
            await pilot.press(leave)
            await pilot.pause()
            text = shown(app)
            assert screen.maximized is None and board.scroll_offset.y == 0, leave
            assert "$  cr  pts" in text and "0 you (you)" in text and _where(view, me) in text, leave
        board.home_y = lambda: 3  # type: ignore[attr-defined]  # a game whose board says where it rests
        await pilot.press("z", "end", "escape")
        await pilot.pause()
        await pilot.pause()
        assert board.scroll_offset.y == 3


async def test_the_side_log_comes_back_to_its_newest_lines_after_a_zoom(tmp_path: Path) -> None:
    app = table_app("deadwood_studios", 4, 0, "random", 3, tmp_path)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        screen = await studios_midgame(pilot, app)
        log = screen.query_one(GameLog)
        newest = log.plain_lines[-1]
        assert log.max_scroll_y > 0 and log.scroll_offset.y == log.max_scroll_y
        steps = [  # z back leaves the focus in the log: the third zoom starts there
            (["tab", "tab", "z"], "escape"),
            (["tab", "tab", "z"], "z"),
            (["z", "home"], "escape"),  # read from the log's first line in the zoom, then back
        ]
        for keys, leave in steps:
            await pilot.press(*keys)  # the log zoomed
            await pilot.pause()
            assert screen.maximized is log
            if "home" not in keys:  # zoomed, it still shows its newest lines
                assert log.scroll_offset.y == log.max_scroll_y and newest[:30] in shown(app), keys
            await pilot.press(leave)
            await pilot.pause()
            await pilot.pause()
            assert screen.maximized is None and log.scroll_offset.y == log.max_scroll_y > 0, (keys, leave)
            assert newest[:25] in re.sub(r"\s*│\s*\n?", " ", shown(app)) or newest.split()[0] in shown(app)


# -- scrollbars and the seats' notes ---------------------------------------------------------


@pytest.mark.parametrize("game_id", ["deadwood1876", "deadwood_studios", "wyatt_earp", "deadwood_town"])
async def test_the_board_never_shows_two_scrollbars(game_id: str, tmp_path: Path) -> None:
    """In the board pane, zoomed or not, at each size: at most one widget shows a scrollbar (no
    widget showing one inside another that does), and the screen never scrolls."""
    app = table_app(game_id, 4, 0, "random", 5, tmp_path)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        screen = play_screen(app)
        advance(app.session, 6, random.Random(2))
        screen.redraw()
        await wait_until(pilot, lambda: my_turn_or_over(app))
        for size in [(80, 24), (100, 32), (200, 60)]:
            await pilot.resize_terminal(*size)
            for keys in ([], ["z"], ["tab", "end", "z"]):
                await pilot.press(*keys)
                await pilot.pause()
                visible = screen._compositor.visible_widgets
                bars = [w for w in screen.query("*") if w in visible and w.show_vertical_scrollbar]
                nested = [(a, b) for a in bars for b in bars if a is not b and a in b.ancestors]
                assert nested == [] and not screen.show_vertical_scrollbar, (size, keys, nested)
                await pilot.press("escape")
                await pilot.pause()


async def test_deadwood1876_notes_sit_beside_their_row_at_200_by_60(tmp_path: Path) -> None:
    app = table_app("deadwood1876", 5, 0, "random", 5, tmp_path)
    app.animation_level = "none"
    async with app.run_test(size=(200, 60)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        advance(app.session, None, random.Random(1))  # to the end: every seat OUT, advanced or WINNER
        play_screen(app).redraw()
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        await pilot.press("escape")
        await pilot.pause()
        rows = [line for line in shown(app).splitlines() if re.search(r"\] +(OUT|Showdown|WINNER)", line)]
        assert len(rows) >= 4 and any("WINNER" in row for row in rows)
        for row in rows:
            safes_end = row.rindex("]") + 1
            note = re.search(r"OUT|Showdown|WINNER", row[safes_end:])
            assert note is not None and note.start() <= 20, row  # within 20 columns of the Safes' end
