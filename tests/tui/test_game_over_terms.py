"""Issue 23: the game-over result names seats by player and character, explains the order and
uses each game's own scoring terms (Deadwood 1876 ended with "#1 heuristic (bot) 1; #2 ... 0")."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
import replays
from bots import RandomBot, play_game
from tui.games import ui_for
from tui.widgets.result import result_summary, seat_label


def _final(game_id: str, players: int, seed: int) -> tuple[object, engine.Outcome]:
    replay = play_game(game_id, players, [RandomBot(seed + s) for s in range(players)], seed=seed).replay
    state = replays.verify(replay)
    assert state.is_over
    return state, state.outcome


def test_seat_labels_name_the_player_and_the_character() -> None:
    assert seat_label("Calamity Jane", 2, "heuristic (bot)") == "heuristic (bot) as Calamity Jane"
    assert seat_label("seat 1", 1, "alice") == "alice (seat 1)"


def test_deadwood1876_says_who_won_the_showdown_not_1_and_0() -> None:
    state, outcome = _final("deadwood1876", 4, 7)
    ui = ui_for("deadwood1876")
    view = state.view(None)
    heading, results, order = ui.result_terms(view, outcome)
    assert heading == "Final Showdown"
    assert order == (
        "No points: the winner keeps all the gold. Then those who advanced and lost the Final "
        "Showdown, the later out the better; then those who did not advance (tied)."
    ) or order.startswith("Nobody wins")
    for seat in range(4):
        if seat in outcome.winners:
            assert results[seat] in ("won the Final Showdown", "won (team victory)")
        elif seat in view.advanced:
            assert results[seat].startswith("advanced, lost the Showdown")
        else:
            assert results[seat] == "did not advance"
    players = ["you", "heuristic (bot)", "heuristic (bot)", "heuristic (bot)"]
    line = result_summary(ui, view, outcome, players)
    best = min(range(4), key=lambda s: (outcome.ranks[s], s))
    character = view.players[best].character
    assert line.startswith(f"#{outcome.ranks[best]} {players[best]} as {character}: {results[best]}; ")
    assert line.endswith(order)
    assert " 1;" not in line and " 0;" not in line


@pytest.mark.parametrize(
    ("game_id", "players", "heading", "unit"),
    [("wyatt_earp", 3, "money", "$"), ("deadwood_studios", 3, "points", ""), ("deadwood_town", 3, "money", "$")],
)
def test_the_other_games_show_money_or_points(game_id: str, players: int, heading: str, unit: str) -> None:
    state, outcome = _final(game_id, players, 3)
    ui = ui_for(game_id)
    got_heading, results, order = ui.result_terms(state.view(0), outcome)
    assert got_heading == heading and order
    for seat, score in enumerate(outcome.scores):
        if unit == "$":
            assert results[seat] in (f"${score:,.0f}", f"${score:g}", f"-${-score:g}")
        else:
            assert results[seat] == f"{score:g}"
    line = result_summary(ui, state.view(0), outcome, ["you"] + ["random (bot)"] * (players - 1))
    assert "you (seat 0): " in line and line.endswith(order)


async def test_the_result_screen_shows_the_games_terms_and_the_order() -> None:
    from textual.app import App

    import tui
    from tui.widgets import ResultScreen

    terms = ("Final Showdown", ["did not advance", "won the Final Showdown"], "Why: the order.")

    class Host(App[None]):
        CSS_PATH = [Path(tui.__file__).with_name("saloon.tcss")]

        def on_mount(self) -> None:
            outcome = engine.Outcome(scores=(0.0, 1.0), ranks=(2, 1), winners=(1,))
            names = ["alice as Calamity Jane", "bob as Wild Bill"]
            self.push_screen(ResultScreen("Deadwood 1876", outcome, names, 42, 0, terms))

    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#result-table").render_line(0).text
        order = app.screen.query_one("#result-order").render_line(0).text
        rows = [app.screen.query_one("#result-table").render_line(y).text.split() for y in range(3)]
    assert "Final Showdown" in table
    assert rows[1][:3] == ["1", "bob", "as"] and "won the Final Showdown" in " ".join(rows[1])
    assert "did not advance" in " ".join(rows[2]) and "1.0" not in " ".join(rows[1])
    assert order.strip() == "Why: the order."
