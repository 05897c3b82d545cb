"""Issue 23: the replay viewer says what another seat's public move was, not "seat 2 chose"."""

from __future__ import annotations

import engine
from bots import RandomBot, play_game
from replays import Player
from tui import SaloonApp
from tui.replay_screen import ReplayScreen


def _wyatt_earp_replay():
    names = [Player("you", "human"), Player("random", "bot"), Player("random", "bot")]
    return play_game("wyatt_earp", 3, [RandomBot(seat) for seat in range(3)], seed=5, players=names).replay


async def test_a_public_discard_is_told_from_another_seats_view() -> None:
    app = SaloonApp(replay=_wyatt_earp_replay())
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen) and viewer.pov == 0
        viewer.cursor.goto(4)  # seat 1 discards: seen by everyone
        assert type(viewer.cursor.moves[3][1]).__name__ == "Discard" and viewer.cursor.moves[3][0] == 1
        assert viewer._last_move() == "Last move: random (seat 1) discards Photo (Billy the Kid)"
        viewer.cursor.goto(3)  # seat 1 draws two cards: which ones is hidden from seat 0
        assert viewer._last_move() == "Last move: random (seat 1) draws 2 cards from the supply"
        viewer.pov = None  # the spectator sees the discard too
        viewer.cursor.goto(4)
        assert viewer._last_move() == "Last move: random (seat 1) discards Photo (Billy the Kid)"
        viewer.pov = 1  # the mover's own view describes the action
        assert viewer._last_move().startswith("Last move: seat 1: ")
        viewer.pov = engine.OMNISCIENT
        assert "chose" not in viewer._last_move()


async def test_a_hidden_choice_says_it_is_hidden() -> None:
    names = [Player("you", "human")] + [Player("random", "bot")] * 3
    replay = play_game("deadwood1876", 4, [RandomBot(s) for s in range(4)], seed=3, players=names).replay
    app = SaloonApp(replay=replay)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        hidden = []
        for k, (seat, _action) in enumerate(viewer.cursor.moves[:200], start=1):
            if seat == 0:
                continue
            viewer.cursor.goto(k)
            line = viewer._last_move()
            assert line != f"Last move: {viewer.ui.seat_name(viewer.cursor.state.view(0), seat)} chose"
            if line.endswith(" chose (hidden from this point of view)"):
                hidden.append(k)
        assert hidden  # the simultaneous Safe passes and gun choices stay secret
