"""The replay viewer: stepping both ways, jumps, points of view; and it never leaks a seat's secrets."""

from __future__ import annotations

import pytest
from tui_helpers import leaks, wait_until, widget_text

import engine
from bots import RandomBot, play_game
from replays import Player
from tui import SaloonApp, screen_text
from tui.replay_screen import ReplayScreen


def _replay(players: int, seed: int):
    names = [Player("you" if seat == 0 else "random", "human" if seat == 0 else "bot") for seat in range(players)]
    bots = [RandomBot(seed * 10 + seat) for seat in range(players)]
    return play_game("deadwood1876", players, bots, seed=seed, players=names).replay


def _table_text(app: SaloonApp) -> str:
    """The table and the replay controls (not the log, whose scrolling is the person's)."""
    return widget_text(app.screen.query_one(".table")) + widget_text(app.screen.query_one("#controls"))


async def _viewer(pilot, app: SaloonApp) -> ReplayScreen:
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
    assert isinstance(app.screen, ReplayScreen)
    return app.screen


async def test_replay_steps_forward_and_back() -> None:
    replay = _replay(5, 3)
    app = SaloonApp(replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = await _viewer(pilot, app)
        assert viewer.position == 0 and viewer.pov == 0  # the human's seat first
        start = _table_text(app)
        assert "move 0/" in start
        shown = [start]
        for _ in range(12):
            await pilot.press("right")
            shown.append(_table_text(app))
        assert viewer.position == 12
        assert len(set(shown)) > 3  # the table changes as the game goes on
        for k in range(12, 0, -1):
            assert _table_text(app) == shown[k]
            await pilot.press("left")
        assert viewer.position == 0
        assert _table_text(app) == start
        await pilot.press("left")  # already at the start: nothing happens
        assert viewer.position == 0

        await pilot.press("end")
        assert viewer.position == len(viewer.cursor)
        assert viewer.cursor.state.is_over
        assert "Game over" in _table_text(app)
        await pilot.press("right")
        assert viewer.position == len(viewer.cursor)
        await pilot.press("home")
        assert viewer.position == 0
        assert _table_text(app) == start


async def test_replay_jumps_turns_and_switches_point_of_view() -> None:
    replay = _replay(4, 8)
    app = SaloonApp(replay=replay)
    async with app.run_test(size=(120, 40)) as pilot:
        viewer = await _viewer(pilot, app)
        marks = viewer.turn_marks
        assert len(marks) > 5
        await pilot.press("n")
        assert viewer.position == marks[1]
        await pilot.press("n")
        assert viewer.position == marks[2]
        await pilot.press("p")
        assert viewer.position == marks[1]
        assert "TURN" in _table_text(app)

        seen = []
        for _ in range(len(viewer.povs)):
            seen.append(viewer.pov)
            await pilot.press("v")
        assert seen == [0, 1, 2, 3, None, engine.OMNISCIENT]
        assert viewer.pov == 0
        await pilot.press("v", "v", "v", "v", "v")
        assert viewer.pov == engine.OMNISCIENT
        assert "omniscient" in _table_text(app)
        assert "Hands (omniscient view)" in _table_text(app)


@pytest.mark.parametrize(("players", "step"), [(4, 7), pytest.param(7, 17, marks=pytest.mark.slow)])
async def test_no_seat_sees_another_seats_secrets_in_the_viewer(players: int, step: int) -> None:
    """Every ``step`` moves, from every seat and the spectator: no unknown Safe or other hand on screen."""
    replay = _replay(players, 13)
    app = SaloonApp(replay=replay)
    async with app.run_test(size=(120, 40)) as pilot:
        viewer = await _viewer(pilot, app)
        checked = caught = 0
        while True:
            state = viewer.cursor.state
            for pov in [*range(players), None]:
                viewer.pov = pov
                viewer.redraw()
                assert leaks(screen_text(app), state, pov) == [], f"move {viewer.position}, seat {pov}"
                checked += 1
            # the check finds secrets when they are there: the omniscient screen shows them
            viewer.pov = engine.OMNISCIENT
            viewer.redraw()
            caught += bool(leaks(screen_text(app), state, 0))
            if viewer.position == len(viewer.cursor):
                break
            viewer.action_step(step)
        assert checked > 20 and caught > 3
