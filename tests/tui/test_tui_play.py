"""Full games of Deadwood 1876 played from the keyboard against random bots, in the Textual pilot."""

from __future__ import annotations

import random

import pytest
from tui_helpers import (
    assert_the_game_is_recorded_and_saved,
    leaks,
    my_turn_or_over,
    play_screen,
    press_a_choice,
    table_app,
    wait_until,
)

import engine
from tui import PlaySetup, SaloonApp, screen_text
from tui.widgets import ActionPicker, ResultScreen

GAME = engine.game("deadwood1876")


@pytest.mark.parametrize(
    ("players", "seat", "seed"),
    [
        pytest.param(
            2,
            1,
            11,
            marks=pytest.mark.skipif(
                GAME.min_players > 2, reason=f"the engine plays {GAME.min_players}-{GAME.max_players} players, not 2"
            ),
        ),
        (5, 0, 21),
        (9, 4, 31),
    ],
)
async def test_full_game_from_the_keyboard(players: int, seat: int, seed: int, tmp_path) -> None:
    app = table_app("deadwood1876", players, seat, "random", seed, tmp_path)
    rng = random.Random(seed)
    decisions = 0
    async with app.run_test(size=(80, 24)) as pilot:
        while True:
            await wait_until(pilot, lambda: my_turn_or_over(app))
            state = app.session.state
            if state.is_over:
                break
            # nothing hidden is ever shown: not on screen, not in the log, not in the choices
            assert leaks(screen_text(app), state, seat) == []
            before = app.session.recorder.num_moves
            await press_a_choice(pilot, app, rng)
            await pilot.pause()
            if app.session.recorder.num_moves > before:
                decisions += 1
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        session = app.session
        assert decisions > 0
        await assert_the_game_is_recorded_and_saved(pilot, app)

        play_screen(app).action_result()
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        await pilot.press("a")  # play again, with a new seed
        await wait_until(pilot, lambda: app.session is not session and my_turn_or_over(app))
        assert app.session.seed == 4242
        assert not app.session.state.is_over


async def test_bots_are_paced_and_the_speed_changes(tmp_path) -> None:
    setup = PlaySetup("deadwood1876", 4, 0, ("random",), 5)
    app = SaloonApp(play=setup, speed="fast", replay_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        await pilot.press("1")  # pass a Safe: the bots' turns follow, paced
        await pilot.pause(0.05)
        screen = play_screen(app)
        assert app.session.delay == 0.2
        await pilot.press("s")
        assert screen.speed == "instant" and app.session.delay == 0.0
        await wait_until(pilot, lambda: my_turn_or_over(app))


async def test_help_screen_opens_and_closes(tmp_path) -> None:
    app = SaloonApp(play=PlaySetup("deadwood1876", 5, 0, ("random",), 3), speed="instant", replay_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen.id == "help"
        assert "Reading the table" in screen_text(app, everything=False)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is play_screen(app)


async def test_groups_open_with_a_digit_and_close_with_zero(tmp_path) -> None:
    app = SaloonApp(play=PlaySetup("deadwood1876", 9, 0, ("random",), 8), speed="instant", replay_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        rng = random.Random(1)
        for _ in range(200):  # play until a level shows groups
            await wait_until(pilot, lambda: my_turn_or_over(app))
            picker = play_screen(app).query_one(ActionPicker)
            groups = [i for i, label in enumerate(picker.items) if "▸" in label]
            if groups:
                break
            await press_a_choice(pilot, app, rng)
        else:
            pytest.fail("no grouped choices in 200 decisions")
        top = picker.items
        await pilot.press(str(groups[0] + 1))
        assert picker.items != top and picker.items[-1] == "‹ back"
        await pilot.press("0")
        assert picker.items == top


async def test_screen_resizes(tmp_path) -> None:
    app = SaloonApp(play=PlaySetup("deadwood1876", 9, 0, ("random",), 2), speed="instant", replay_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        assert play_screen(app).has_class("compact")
        small = screen_text(app, everything=False)
        assert "Your move" in small and "Gem Theatre" in small
        await pilot.resize_terminal(140, 45)
        await pilot.pause()
        assert not play_screen(app).has_class("compact")
        assert "Your move" in screen_text(app, everything=False)
