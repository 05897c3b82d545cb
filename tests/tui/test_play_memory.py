"""``saloon play`` keeps only a small report of each game it played (issue 26): a person who plays
game after game in one process does not keep every table, its state and its bots in memory."""

from __future__ import annotations

import gc
import random
import weakref
from pathlib import Path

from tui_helpers import my_turn_or_over, play_screen, wait_until

from tui import PlaySetup, SaloonApp
from tui.widgets import ResultScreen


async def test_tables_and_screens_of_finished_games_are_freed(tmp_path: Path) -> None:
    seeds = iter(range(100, 200))
    setup = PlaySetup("deadwood1876", 2, 0, ("random",), 7)
    app = SaloonApp(play=setup, speed="instant", next_seed=lambda: next(seeds), replay_dir=tmp_path)
    rng = random.Random(7)
    tables: list[weakref.ref[object]] = []
    screens: list[weakref.ref[object]] = []
    async with app.run_test(size=(80, 24)) as pilot:
        for number in range(1, 4):
            assert app.session is not None
            tables.append(weakref.ref(app.session))
            screens.append(weakref.ref(play_screen(app)))
            while True:
                await wait_until(pilot, lambda: my_turn_or_over(app), timeout=60)
                if app.session.state.is_over:
                    break
                play_screen(app).choose(rng.choice(app.session.legal_actions()))
                await pilot.pause()
            await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
            await pilot.press("a")  # play again
            await wait_until(pilot, lambda n=number: len(app.played) == n and my_turn_or_over(app), timeout=30)
            await app.workers.wait_for_complete()  # the thread that closed the old table's bots

            def freed() -> bool:  # once the app has handled what was queued for the old table
                gc.collect()
                return all(ref() is None for ref in (*tables, *screens))

            try:
                await wait_until(pilot, freed, timeout=0.5)  # 100 pauses, a collection each
            except AssertionError:
                pass  # the asserts below say what was kept
            assert [ref() for ref in tables] == [None] * number, f"tables kept after game {number}"
            assert [ref() for ref in screens] == [None] * number, f"screens kept after game {number}"
            assert app.sessions == [app.session]
    assert [game.number for game in app.played] == [1, 2, 3]
    assert all(game.bot_names == {1: "random"} and game.faults == () for game in app.played)
    assert len(app.saved) == 3  # every finished game's replay was saved before its table went
    app.wrap_up()
    assert [game.number for game in app.played] == [1, 2, 3, 4] and app.sessions == []
