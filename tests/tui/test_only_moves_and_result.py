"""Issue 37 at a local table (``saloon play``), in the pilot at 80x24: a move that is the person's
only choice is played at once and the log says so (``o`` turns that off: the move waits for a
key), and the result screen says who won, scrolls, and keeps its keys in sight.

The same at a server table: ``tests/ssh/test_table_end.py``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tui_helpers import my_turn_or_over, play_screen, press_a_choice, table_app, wait_until

import engine
from tui import PlaySetup, SaloonApp, screen_text
from tui.games import ui_for
from tui.widgets import ActionPicker, GameLog, ResultScreen
from tui.widgets.only_move import only_choice
from tui.widgets.picker import Choice
from tui.widgets.result import headline

GAME = "deadwood1876"
UI = ui_for(GAME)


def _choices(app: SaloonApp) -> list[Choice]:
    """The person's choices now, as the picker is given them."""
    session = app.session
    view = session.view()
    return [Choice(UI.describe_action(session.game, a, view), UI.group(a, view), a) for a in session.legal_actions()]


def _auto_played(app: SaloonApp) -> list[str]:
    return [line for line in play_screen(app).query_one(GameLog).plain_lines if line.startswith("auto-played: ")]


def test_only_choice_is_one_label_in_one_group() -> None:
    one, same, other = Choice("Give no Holster", (), 1), Choice("Give no Holster", (), 2), Choice("Holster", (), 3)
    assert only_choice([one]) is one and only_choice([one, same]) is one
    assert only_choice([one, other]) is None and only_choice([]) is None
    assert only_choice([one, Choice("Give no Holster", ("Holster",), 4)]) is None  # another group: two choices


def test_the_headline_says_who_won() -> None:
    outcome = engine.Outcome(scores=(1.0, 0.0, 1.0), ranks=(1, 3, 1), winners=(0, 2))
    names = ["alice (seat 0)", "bob (seat 1)", "carol (seat 2)"]
    assert headline(outcome, names, 0) == "You share the win with carol (seat 2)"
    assert headline(outcome, names, 1) == "You finish #3. Winners: alice (seat 0), carol (seat 2)"
    assert headline(outcome, names, None) == "Winners: alice (seat 0), carol (seat 2)"


async def test_only_moves_are_played_at_once_and_logged(tmp_path: Path) -> None:
    app = table_app(GAME, 4, 0, "random", 3, tmp_path)
    rng = random.Random(3)
    pressed = 0
    async with app.run_test(size=(80, 24)) as pilot:
        while True:
            await wait_until(pilot, lambda: my_turn_or_over(app), timeout=30)
            if app.session.state.is_over:
                break
            assert only_choice(_choices(app)) is None  # an only move never waits for a key
            before = app.session.recorder.num_moves
            await press_a_choice(pilot, app, rng)  # a move, or a group of moves opened
            await pilot.pause()
            pressed += app.session.recorder.num_moves > before
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        auto = _auto_played(app)
        mine = sum(1 for seat, _ in app.session.replay().move_pairs() if seat == 0)
    assert auto and mine == pressed + len(auto)  # every move of seat 0 was pressed or auto-played
    assert "auto-played: Give no Holster" in auto


async def test_with_auto_play_off_an_only_move_waits_for_its_key(tmp_path: Path) -> None:
    app = table_app(GAME, 4, 0, "random", 3, tmp_path)
    rng = random.Random(3)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        await pilot.press("o")
        screen = play_screen(app)
        assert "auto-play only moves: off" in screen.query_one(GameLog).plain_lines
        while True:
            await wait_until(pilot, lambda: my_turn_or_over(app), timeout=30)
            assert not app.session.state.is_over, "no only move in the whole game"
            only = only_choice(_choices(app))
            if only is not None:
                break
            await press_a_choice(pilot, app, rng)  # a move, or a group of moves opened
            await pilot.pause()
        picker = screen.query_one(ActionPicker)
        before = app.session.recorder.num_moves
        await pilot.pause(0.3)
        assert app.session.recorder.num_moves == before and app.session.human_to_act()  # it waits
        assert picker.items == [only.label] and only.label in screen_text(app, everything=False)
        await pilot.press("1")
        await wait_until(pilot, lambda: app.session.recorder.num_moves > before)
        assert _auto_played(app) == []
        await pilot.press("o")  # on again: the next only move is played at once
        assert "auto-play only moves: on" in screen.query_one(GameLog).plain_lines


async def _result_at_80_by_24(app: SaloonApp, pilot: Any) -> ResultScreen:
    await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen), timeout=60)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ResultScreen)
    box = screen.query_one("#result-box")
    assert box.region.bottom <= 24 and box.region.right <= 80 and box.region.y >= 0
    return screen


async def test_the_local_result_says_who_won_and_scrolls_with_its_keys_in_sight(tmp_path: Path) -> None:
    """Nine seats at 80x24: the result is taller than the box; every scrolling key moves it, the
    title and the keys stay, and the seed is at its end."""
    app = SaloonApp(play=PlaySetup(GAME, 9, None, ("random",), 11), speed="instant", replay_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _result_at_80_by_24(app, pilot)
        state = app.session.state
        body = screen.query_one("#result-body")
        assert body.max_scroll_y > 0  # nine seats do not fit: it scrolls

        def shown() -> str:
            return screen_text(app, everything=False)

        text = shown()
        view = state.view(None)
        winner = min(range(9), key=lambda s: (state.outcome.ranks[s], s))
        assert "Deadwood 1876: Winner" in text or "Deadwood 1876: Nobody wins" in text
        assert all(word in text for word in UI.seat_name(view, winner).split())
        assert "WINNER" in text and "Final Showdown" in text  # the game's own words
        for keys in ("a  Play again", "r  Watch the replay", "w  Save the replay", "q  Quit", "Esc: the table"):
            assert keys in text
        seed = f"seed {app.session.seed}"
        assert seed not in text
        for key, after in (("down", 1), ("up", 0), ("pagedown", min(body.max_scroll_y, 9)), ("pageup", 0)):
            await pilot.press(key)
            await pilot.pause()
            assert body.scroll_y == after if key != "pagedown" else body.scroll_y > 1, key
        await pilot.press("end")
        await pilot.pause()
        text = shown()
        assert body.scroll_y == body.max_scroll_y and seed in text
        assert "q  Quit" in text and "Deadwood 1876: " in text  # the keys and the title stay
        await pilot.press("home")
        await pilot.pause()
        assert body.scroll_y == 0 and seed not in shown()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is play_screen(app)
