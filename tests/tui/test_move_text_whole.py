"""Issue 37: every legal move's whole text is readable at 80x24, in every game.

The moves are an :class:`~textual.widgets.OptionList`: an option longer than the list is wide
wraps, and every one of its lines must show, also once the list has a scrollbar (it then wraps
to the width the scrollbar leaves). Checked as a property over seeded random games of each game
at 2 and 4 players (Deadwood 1876 also at its most, 9): every few decisions of the person's seat,
each level of the picker (the groups opened one by one with the digits) is read off the screen,
scrolled page by page, and must hold every option's words in order.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList
from tui_helpers import advance, my_turn_or_over, play_screen, table_app, wait_until

import engine
from tui import screen_text
from tui.widgets import ActionPicker, ResultScreen
from tui.widgets.picker import MAX_FLAT

POSITIONS = 12
"""Positions looked at per game and player count (fewer if the game ends first)."""

EVERY = 4
"""The most decisions of the person's between two positions looked at (1 to this many)."""

COUNTS = [(game_id, players) for game_id in sorted(engine.games()) for players in (2, 4)] + [("deadwood1876", 9)]


def words(text: str) -> str:
    """``text`` with its spaces and line breaks made one space each."""
    return " ".join(text.split())


async def read_the_list(pilot: Any, app: Any, options: OptionList) -> str:
    """The move list as the screen shows it, scrolled from its top to its end a page at a time:
    each of its lines once, in order, without the scrollbar's column."""
    lines: dict[int, str] = {}
    top = 0
    while True:
        options.scroll_to(y=top, animate=False, immediate=True)
        await pilot.pause(0)  # a scroll lays nothing out: the screen shows it drawn again
        region = options.scrollable_content_region
        shown = screen_text(app, everything=False).splitlines()
        offset = round(options.scroll_offset.y)
        for row in range(region.height):
            lines.setdefault(offset + row, shown[region.y + row][region.x : region.right])
        if offset >= options.max_scroll_y:
            break
        top = offset + region.height
    return "\n".join(lines[y] for y in sorted(lines))


async def check_every_level(pilot: Any, app: Any) -> int:
    """Read each level of the picker (opening each group with its digit, then back); every
    item's words must show in order, after its key. Returns the levels read."""
    picker = play_screen(app).query_one(ActionPicker)
    read = 0

    async def level() -> None:
        nonlocal read
        items = picker.items
        shown = words(await read_the_list(pilot, app, picker.options))
        read += 1
        for n, label in enumerate(items, start=1):
            key = "0" if label == "‹ back" else (str(n) if n <= MAX_FLAT else "")
            assert words(f"{key} {label}") in shown, (label, shown)
        for n, label in enumerate(items[:MAX_FLAT], start=1):
            if " ▸ " in label:  # a group: in, read it, back
                picker.action_pick(n)
                await pilot.pause()
                await level()
                picker.action_back()  # the next group's digit, or the next position, lays it out
                assert picker.items == items

    await level()
    return read


@pytest.mark.slow  # some 30-40 s in all (2-6 s a game and player count): every group of 108 positions read
@pytest.mark.parametrize(("game_id", "players"), COUNTS)
async def test_every_move_reads_whole_at_80_by_24(game_id: str, players: int, tmp_path: Path) -> None:
    """Between two positions looked at, the game goes on a few of the person's decisions without
    the screen (random moves, random bots), then one through it, as at a real table: the moves
    empty while the bots play, then fill again; every level of the moves is then read."""
    app = table_app(game_id, players, 0, "random", 37, tmp_path)
    app.animation_level = "none"
    rng = random.Random(f"{game_id}/{players}")
    levels = looked = 0
    async with app.run_test(size=(80, 24)) as pilot:
        screen = play_screen(app)
        session = app.session
        while looked < POSITIONS:
            await wait_until(pilot, lambda: my_turn_or_over(app))
            if session.state.is_over:
                break
            await pilot.pause()
            levels += await check_every_level(pilot, app)
            looked += 1
            advance(session, rng.randrange(EVERY), rng)
            screen.redraw()
            if session.state.is_over:
                break
            before = session.recorder.num_moves
            screen.choose(rng.choice(session.legal_actions()))
            await wait_until(pilot, lambda before=before: session.recorder.num_moves > before)
        await wait_until(pilot, lambda: my_turn_or_over(app))  # the bots done before the app closes
        if session.state.is_over:  # and the result shown, as the game's end shows it
            await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
            await pilot.pause()
    assert looked >= 3 and levels >= looked
