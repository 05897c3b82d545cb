"""Deadwood (worker placement) at the table: whole games from the keyboard at 2 and 5 players
against random bots, the replay viewer stepping through a game from every point of view, the
text board, a shootout die by die, and the screen parts (log lines, notices, the picker's groups).

No-leak checks: the one secret of the game is the order of the building stacks (a Fortune
Teller's look shows it to its player only), and ``state.resample(seat, seed)`` redraws exactly
what ``seat`` does not know of it, so what a seat is shown (board, log, choices, notices) must
read the same in the real game and in a resampled one; the omniscient view, which shows every
stack's order, must not (the check would catch a leak).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from textual.widgets import Markdown
from tui_helpers import (
    advance,
    assert_same_for_any_redeal,
    assert_the_game_is_recorded_and_saved,
    check_every_point_of_view,
    check_the_picker_fits_the_digits,
    close_help,
    my_turn_or_over,
    open_help,
    open_viewer,
    play_from_the_keyboard,
    play_screen,
    random_games,
    random_replay,
    render_text,
    seat_words,
    step_with_keys,
    table_app,
    wait_until,
)

import engine
from bots import make_bot
from bots.protocol import decide_message
from engine.core import GameCapped
from engine.deadwood_town import actions as A
from engine.deadwood_town import events as E
from engine.deadwood_town.events import Cowboy
from tests.deadwood_town_helpers import act, position
from tui import PlaySetup, SaloonApp, screen_text
from tui.games import TABLES, ui_for
from tui.games.deadwood_town import (
    LEGEND,
    DeadwoodTownUI,
    render_board,
    render_grid,
    render_table,
    table_parts,
    token,
)
from tui.widgets import ActionPicker, GameLog

GAME = engine.game("deadwood_town")
UI = ui_for("deadwood_town")
NAMES = ["ann", "bob", "cat", "dan", "eve"]


# -- helpers ----------------------------------------------------------------------------------


def seat_text(state: engine.State, seat: int | None, names: list[str]) -> str:
    """All a seat is shown of ``state``, rendered offline as the screens do: the table at 100
    and 80 columns, the board listed at 60, every log line, the notices, and (when the seat is to
    act) the choices."""
    view = state.view(seat)
    events = state.events(seat)
    out = [render_text(render_table(view, events, names, w), w) for w in (100, 78)]
    out.append(render_board(view, names, 60))
    return "\n".join(out + seat_words(state, seat, GAME, UI))


def assert_no_leak(state: Any, seat: int | None, names: list[str], seed: int = 1) -> None:
    """``seat``'s screen reads the same whatever the stack order it does not know (the
    spectator: for redraws around two seats)."""
    assert_same_for_any_redeal(lambda st: seat_text(st, seat, names), state, seat, seed, spectator=(0, 1))


def strategy(view: Any, legal: list[Any], rng: random.Random) -> Any:
    """The keyboard player, out for a short game: annexes, takes the Town Hall (the railroad),
    picks fights (each takes a wanted poster from the Crime Pool), else an empty building; one
    move in four is random (to meet every kind of decision)."""
    if rng.random() < 0.25:
        return rng.choice(legal)
    if A.Annex() in legal:
        return A.Annex()
    hits = [a for a in legal if isinstance(a, A.HitTheTown)]
    town = {p.id: p for p in view.plots}
    hall = [a for a in hits if town[a.plot].building == "town_hall" and not town[a.plot].cowboys]
    fights = [a for a in hits if town[a.plot].cowboys and town[a.plot].building != "church"]
    empty = [a for a in hits if not town[a.plot].cowboys]
    for found in (hall, fights, empty):
        if found:
            return max(found, key=lambda a: (a.strength, a.plot))
    return rng.choice(legal)


# -- whole games from the keyboard ------------------------------------------------------------


@pytest.mark.parametrize(("players", "seat", "seed", "size"), [(2, 1, 22, (80, 24)), (5, 0, 27, (100, 32))])
async def test_full_game_from_the_keyboard(players: int, seat: int, seed: int, size: tuple[int, int], tmp_path) -> None:
    app = table_app("deadwood_town", players, seat, "random", seed, tmp_path)
    async with app.run_test(size=size) as pilot:
        names = play_screen(app).names

        def check(state: engine.State, decisions: int) -> None:
            if decisions % 5 == 0:  # nothing hidden is shown: not on the table, in the log or the choices
                assert_no_leak(state, seat, names, seed=decisions)
            if decisions % 10 == 0:
                shown = screen_text(app, everything=False)
                assert "Your move" in shown and "RAILS " in shown and f"You ({'RGYPO'[seat]})" in shown
                assert "player" in shown and f"{seat} you (you)" in shown  # everyone's money, above the town
                view, events = state.view(seat), state.events(seat)
                above = table_parts(view, events, names, 78, compact=app.size.height < 32)["fight"]
                if above is None:
                    assert "Town Hall" in shown and "┌A1" in shown  # the town's top (z zooms it whole)
                else:  # a shootout shows above the town (on a small screen, with its plot's row)
                    assert above.plain.splitlines()[0][:40] in shown

        played = await play_from_the_keyboard(pilot, app, GAME, UI, strategy, random.Random(seed), check)
        assert played.decisions > 10 and played.levels > played.decisions  # some moves were inside groups
        assert_no_leak(app.session.state, seat, names)
        assert any(n.startswith("The game ends: ") for n in play_screen(app).notices)
        await assert_the_game_is_recorded_and_saved(pilot, app)


async def test_the_table_fits_80_by_24_and_100_by_32_and_help_explains_it(tmp_path) -> None:
    app = SaloonApp(play=PlaySetup("deadwood_town", 5, 0, ("random",), 8), speed="instant", replay_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        assert play_screen(app).has_class("compact")
        small = screen_text(app, everything=False)
        assert "Your move" in small and play_screen(app).query_one(ActionPicker).options.size.height >= 6
        assert "You (R): $5, 1 cartridge" in small and "to hire" in small  # your line, the players
        assert all(f"{seat} {'you (you)' if seat == 0 else 'random'}" in small for seat in range(5))
        assert "┌A1" in small and "Town Hall" in small and "Sheriff's" in small  # the town's top rows
        await pilot.press("z")  # the board zoomed to the whole screen: every row of the town
        await pilot.pause()
        lines = screen_text(app, everything=False).splitlines()
        top = next(k for k, line in enumerate(lines) if "┌A1" in line)
        assert all(any(f"┌{row}1" in line for line in lines[top:]) for row in "ABCDE")
        assert "…" not in "\n".join(lines[top:])  # every name of the town whole
        await pilot.press("end")  # its last line, and what follows it
        await pilot.pause()
        assert "└─" in screen_text(app, everything=False)
        await pilot.press("home", "escape")  # the board's top again, and back to the moves
        await pilot.pause()
        assert play_screen(app).maximized is None
        await pilot.resize_terminal(100, 32)
        await pilot.pause()
        assert not play_screen(app).has_class("compact")
        large = screen_text(app, everything=False)
        assert "Your move" in large and "┌A1" in large  # the town follows the players (z zooms it)
        assert "player" in large and "to hire" in large  # the players' lines, above the town
        text, body = await open_help(pilot, app)  # the help: the legend, the keys and the rules
        assert f"{GAME.title}: help" in text
        assert "Status line: the railroad (RAILS 1/4)" in body  # the legend
        sources = "\n".join(m.source for m in app.screen.query(Markdown))
        assert "`R3` is red's Trail Boss" in sources and "`Stage Dep.`" in sources and "`═ rail 1 ═`" in sources
        assert "| Fortune Teller | 3 | $1; look at a stack and rearrange it | |" in sources  # help.md's table
        assert len(app.screen.query("MarkdownTable")) == 2  # the building table and the keys
        await close_help(pilot, app)


# -- the replay viewer ------------------------------------------------------------------------


async def test_replay_viewer_from_every_seat_never_leaks() -> None:
    """Through the whole game, from each seat and the spectator: the viewer's table and log read
    the same for any order of the stacks they do not know; the omniscient view shows it."""
    app = SaloonApp(replay=random_replay("deadwood_town", 4, 13))
    async with app.run_test(size=(100, 32)) as pilot:
        viewer = await open_viewer(pilot, app)
        checked, caught = check_every_point_of_view(viewer, 4, 10, "top first:")
        assert checked > 40 and caught > 5


async def test_replay_viewer_keys_at_80_by_24() -> None:
    app = SaloonApp(replay=random_replay("deadwood_town", 3, 5))
    async with app.run_test(size=(80, 24)) as pilot:
        start, spectator = await step_with_keys(pilot, await open_viewer(pilot, app), 3)
        assert "RAILS 0/4" in start and "You (R): $5" in start
        assert "You (" not in spectator


# -- the text board ---------------------------------------------------------------------------

START_GRID_80 = """\
                      ┌A1────────┬A2★───────┬A3────────┐
                      │Town Hall │Sheriff's │Church    │
                      │          │G2        │R1 G3     │
                 ┌B1──┴─────┬B2★─┴─────★B3★─┴─────┬B4──┴─────┐
                 │Bank      │Gen. Store│Stage Dep.│          │
                 │R3        │          │          │          │
           ┌C1───┴────┬C2───┴────┬C3───┴────┬C4───┴────┬C5───┴────┐
           │          │          │          │          │          │
           │          │          │          │          │          │
      ┌D1──┴─────┬D2──┴─────┬D3──┴─────┬D4──┴─────┬D5──┴─────┬D6──┴─────┐
      │          │          │          │          │          │═ rail 1 ═│
      │          │          │          │          │          │══════════│
┌E1───┴────┬E2───┴────┬E3───┴────┬E4───┴────┬E5───┴────┬E6───┴────┬E7───┴────┐
│          │          │          │          │          │          │          │
│          │          │          │          │          │          │          │
└──────────┴──────────┴──────────┴──────────┴──────────┴──────────┴──────────┘"""


def _town_position() -> Any:
    return position(
        2,
        town={"B1": "bank", "B2": "general_store", "B3": "stage_depot"},
        cowboys={"A2": [(1, 2)], "A3": [(0, 1), (1, 3)], "B1": [(0, 3)]},
        rails=1,
        ranch={0: (0, 1, 0), 1: (1, 0, 0)},
        money=[7, 12],
        posters=[2, 0],
    )


def test_the_grid_at_80_columns_shows_buildings_cowboys_sheriff_and_rails() -> None:
    view = _town_position().view(0)
    grid = render_grid(view, 80)
    assert grid is not None
    assert grid.plain == START_GRID_80


def test_the_text_board_is_plain_and_fits_every_width() -> None:
    """Plain text (no markup) within the width; the grid down to 64 columns, then row by row."""
    st = _town_position()
    for seat in (0, None, engine.OMNISCIENT):
        view = st.view(seat)
        for width in (120, 100, 80, 64, 63, 50):
            board = render_board(view, ["ann", "bob"], width)
            assert all(len(line) <= width for line in board.splitlines()), width
            assert "[" not in board and "\x1b" not in board
            assert ("┌A1" in board) == (width >= 64)
            assert "Crime Pool 10 wanted posters" in board and "Sheriff ★ on the corner of A2, B2, B3" in board
            assert "Railroad 1 of 4 laid" in board and "next on D5, then D4, D3" in board
    over = random_games(GAME, 5, 1)[0]
    for width in (100, 80, 64, 50, 40):
        board = render_board(over.view(None), NAMES, width)
        assert all(len(line) <= width for line in board.splitlines()), width
        assert sum(line.startswith("W ") for line in board.splitlines()) == len(over.outcome.winners)
    listed = render_board(st.view(0), ["ann", "bob"], 60)
    assert "A  A1 Town Hall · A2★ Sheriff's Office G2 · A3 Church R1 G3" in listed
    assert "D  D1 open · D2 open · D3 open · D4 open · D5 open\n  D6 rail 1\n" in listed
    players = render_board(st.view(0), ["ann", "bob"], 100).split("\n\n")[0].splitlines()
    assert players == [
        "    player        $ cart pony wanted ranch mine to hire Boot Hill",
        "▶ R 0 ann (you)  $7    1    1      2 2     –    112233  –",
        "  G 1 bob       $12    1    1      0 1     –    112233  –",
    ]


@settings(max_examples=60, deadline=None)
@given(
    players=hst.integers(2, 5),
    seed=hst.integers(0, 2**32),
    moves=hst.integers(0, 200),
    width=hst.integers(30, 140),
    pov=hst.sampled_from([0, 1, None, engine.OMNISCIENT]),
)
def test_the_text_board_never_runs_past_its_width(players: int, seed: int, moves: int, width: int, pov: Any) -> None:
    """Any position of a random game, any point of view, any width: plain lines of at most
    ``width`` characters, the grid exactly from 64 columns, every plot once."""
    state = GAME.new_game(players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    view = state.view(pov)
    board = render_board(view, NAMES[:players], width)
    assert max(len(line) for line in board.splitlines()) <= width
    assert (render_grid(view, width) is not None) == (width >= 64)
    town = board.split("\n\n")[1]
    assert all(town.count(p.id) == 1 for p in view.plots)


def test_the_stacks_show_only_the_order_a_seat_knows() -> None:
    st = position(2, town={"B1": "fortune_teller"}, stacks={"3": ["grifter", "newspaper"]}, dice=[])
    act(st, 0, A.HitTheTown(3, "B1"))
    act(st, 0, A.Annex())
    act(st, 0, A.LookAtStack("3"))
    act(st, 0, A.Finish())  # keeps the order
    mine = render_board(st.view(0), NAMES[:2], 100)
    theirs = render_board(st.view(1), NAMES[:2], 100)
    assert "Stack 3 (5) top first: Grifter, Newspaper, Courthouse, Dance Hall, Telegraph Office" in mine
    assert "Stack 3 (5): Courthouse, Dance Hall, Grifter, Newspaper, Telegraph Office" in theirs
    assert "Stack 3 (5) top first: Grifter, Newspaper, Courthouse, Dance Hall, Telegraph Office" in render_board(
        st.view(engine.OMNISCIENT), NAMES[:2], 100
    )


def test_a_shootout_die_by_die_on_the_table_and_in_the_log() -> None:
    """2 dice against 1 (no cartridges, no ponies): the attacker's first die, then one each."""
    st = position(
        town={"B1": "bank"},
        cowboys={"B1": [(1, 1)]},
        dice=["star", "blank", "crossed_guns"],
        cartridges=[0, 0],
        ponies=[0, 0],
    )
    act(st, 0, A.HitTheTown(2, "B1"))
    view, events = st.view(1), st.events(1)
    parts = table_parts(view, events, NAMES[:2], 100)
    fight = parts["shootout"]
    assert fight is not None and parts["fight"] is None
    assert fight.plain.splitlines() == [
        "Shootout at the Bank (B1): seat 0's Gunslinger (R2) attacks your Greenhorn (G1)",
        "Dice: attacker 2, defender 1: the attacker rolls 1 die first, one at a time",
        "  1. R2 rolls a star at G1: wounded (1 wound)",
        "  2. R2 rolls a blank at G1: a miss",
        "  2. G1 rolls crossed guns at R2: wounded (1 wound)",
        "» both survive: the attacker goes to the Abandoned Mine; wounds heal",
    ]
    describe = UI.event_describer(events, view)
    start = next(k for k, e in enumerate(events) if isinstance(e, E.ShootoutStarted))
    assert [describe(e) for e in events[start:]] == [
        "» Shootout at the Bank (B1): seat 0's Gunslinger (R2) attacks your Greenhorn (G1); "
        "seat 0 takes a wanted poster",
        "Seat 0 takes 1 wanted poster from the Crime Pool (a shootout)",
        "You stand and fight",
        "Seat 0 (attacker) uses no cartridge",
        "You (defender) use no cartridge",
        "Dice: attacker 2, defender 1: the attacker rolls 1 die first, one at a time",
        "  die 1: R2 rolls a star at G1: wounded (1 wound)",
        "  die 2: R2 rolls a blank at G1: a miss",
        "  die 2: G1 rolls crossed guns at R2: wounded (1 wound)",
        "» Shootout at the Bank (B1): both survive: the attacker goes to the Abandoned Mine; wounds heal",
        "── Your turn ──",
    ]
    assert UI.notices(events, start, view) == [
        "Shootout at the Bank (B1): seat 0's Gunslinger (R2) attacks your Greenhorn (G1): "
        "both survive: the attacker goes to the Abandoned Mine; wounds heal"
    ]
    assert (
        UI.describe_event(events[start + 6], view) == "  die 1: Seat 0 rolls a star at your cowboy: wounded (1 wound)"
    )


def _grifter_shootout(**kwargs: Any) -> Any:
    """Seat 1's Greenhorn holds the Grifter on D2, a row the town shows only when scrolled at
    80x24; seat 0 (the person) is to play, its Gunslinger may attack it."""
    return position(
        2,
        town={"D2": "grifter", "B1": "bank"},
        cowboys={"D2": [(1, 1)]},
        dice=["star", "blank", "crossed_guns"],
        cartridges=[0, 0],
        **kwargs,
    )


def row_on_screen(shown: str, row: str, plot: str, building: str) -> bool:
    """The town's ``row`` is on the screen, ``plot`` in it with its ``building``: the row's top
    edge (``┌D1``) with the plot's id, and the building's name under the plot's id."""
    lines = shown.splitlines()
    for k, line in enumerate(lines[:-1]):
        if f"┌{row}1" in line and plot in line:
            column = line.index(plot)
            if lines[k + 1][column : column + len(building)] == building:
                return True
    return False


async def test_a_shootout_off_the_top_rows_comes_into_view_at_80_by_24(tmp_path) -> None:
    """Issue 37: at 80x24 the town shows rows A and B under the players. A move that leads to a
    shootout says so, with whom; once fought, the shootout and its plot's row of the town show
    above the town (the players still in view), and the log names the plot."""
    app = table_app("deadwood_town", 2, 0, "random", 1, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        screen = play_screen(app)
        app.session.recorder.state = _grifter_shootout(ponies=[0, 0])
        screen.redraw()
        await pilot.pause()
        shown = screen_text(app, everything=False)
        assert not row_on_screen(shown, "D", "D2", "Grifter")  # the town's top rows only
        labels = [choice.label for choice in screen.query_one(ActionPicker)._root.all_choices()]
        attack = "Hit the Town: send your Gunslinger to the Grifter (D2) — shootout with seat 1's Greenhorn"
        assert attack in labels
        assert "Hit the Town: send your Gunslinger to the Bank (B1)" in labels  # no shootout there
        app.session.play(A.HitTheTown(2, "D2"))
        advance(app.session, 0, random.Random(1))
        screen.redraw()
        await pilot.pause()
        shown = screen_text(app, everything=False)
        assert row_on_screen(shown, "D", "D2", "Grifter"), shown
        assert "Shootout at the Grifter (D2): your Gunslinger (R2) attacks seat 1's Greenhorn" in shown
        assert "» both survive" in shown and "1 random" in shown and "0 you" in shown
        log = screen.query_one(GameLog).plain_lines
        assert any(line.startswith("» Shootout at the Grifter (D2): ") for line in log)
        await pilot.resize_terminal(100, 40)  # a tall screen: the town whole, the shootout under it
        await pilot.pause()
        parts = table_parts(app.session.view(), app.session.events(), NAMES[:2], 78)
        assert parts["fight"] is None and parts["shootout"] is not None


def test_a_shootout_waiting_for_the_defender_shows_its_row_on_a_small_screen() -> None:
    st = _grifter_shootout(ponies=[0, 1])
    act(st, 0, A.HitTheTown(2, "D2"))
    assert st.to_act == (1,)  # skedaddle or stand
    view, events = st.view(1), st.events(1)
    fight = table_parts(view, events, NAMES[:2], 78, compact=True)["fight"]
    assert fight is not None
    lines = fight.plain.splitlines()
    assert lines[0] == "Shootout at the Grifter (D2): seat 0's Gunslinger (R2) attacks your Greenhorn (G1)"
    assert row_on_screen(fight.plain, "D", "D2", "Grifter") and "│R2 G1 " in fight.plain  # both on the plot
    assert lines[-1] == "You decide: skedaddle or stand and fight"
    assert table_parts(view, events, NAMES[:2], 78)["fight"].plain.splitlines() == [lines[0], lines[-1]]


# -- the screen parts -------------------------------------------------------------------------

EVERY_EVENT = [
    (
        E.GameStarted(2, (("A1", "town_hall"), ("B2", "saloon_x")), 10),
        "══ Deadwood for 2: Town Hall (A1), X Saloon (B2); 10 wanted posters in the Crime Pool ══",
    ),
    (E.StartRoll(1, 1, "star"), "First player, roll 1: seat 1 rolls a star"),
    (E.TurnStarted(1), "── Seat 1's turn (G) ──"),
    (E.TurnPassed(0), "You can neither head back nor hit the town, and pass"),
    (E.CowboyHeadedBack(1, "mine", 3), "Seat 1 brings their Trail Boss (G3) back to the Ranch from the Abandoned Mine"),
    (E.CowboyPlaced(0, 1, "C3", "bank"), "You send your Greenhorn (R1) to the Bank (C3)"),
    (E.TollPaid(0, 1, 1, "B2"), "You pay seat 1 $1 toll to enter B2 (the Sheriff's Office)"),
    (E.BuildingAnnexed(1, "C3", "hotel", True), "Seat 1 annexes the Hotel (C3) again (next to the new rail)"),
    (E.AnnexDeclined(0, "A1", "town_hall"), "You do not annex the Town Hall (A1)"),
    (
        E.ShootoutStarted("C3", "bank", Cowboy(1, 3), Cowboy(0, 2), -1),
        "» Shootout at the Bank (C3): seat 1's Trail Boss (G3) attacks your Gunslinger (R2); "
        "the Crime Pool is empty: no poster",
    ),
    (E.Skedaddled(0, 2, "C3"), "Your Gunslinger (R2) skedaddles to the Abandoned Mine (a pony spent)"),
    (E.StoodGround(1), "Seat 1 stands and fights"),
    (E.CartridgeDeclared(1, "attacker", True), "Seat 1 (attacker) spends a cartridge: one more die"),
    (E.DiceCounted(2, 2, -1, 0), "Dice: attacker 2, defender 2: both roll together, a die each at a time"),
    (E.ShotRolled(1, 1, 0, "skull", "kill", 0, True), "  die 1: Seat 1 rolls a skull at your cowboy: killed"),
    (E.ShootoutEnded("C3", "defender_won"), "» Shootout at C3: the defender wins and stays"),
    (E.CowboyKilled(Cowboy(0, 2), "C3"), "Your Gunslinger (R2) is killed at C3: to Boot Hill"),
    (E.MoneyGained(1, 2, "hotel"), "Seat 1 gets $2 (the Hotel: the railroad comes)"),
    (E.MoneyPaid(0, 1, 1, "casino"), "You lose $1 to seat 1 (Casino)"),
    (E.SuppliesGained(0, "pony", 1), "You take 1 pony from the supply"),
    (E.PostersTaken(1, 1, "bank"), "Seat 1 takes 1 wanted poster from the Crime Pool (Bank)"),
    (E.PostersReturned(0, 2, "church"), "You return 2 wanted posters to the box (Church)"),
    (E.PosterGiven(1, 0), "Seat 1 gives you a wanted poster (Newspaper)"),
    (E.CrimePoolAdjusted(0, -2, 6), "You remove 2 wanted posters from the Crime Pool (Telegraph Office): 6 there"),
    (E.CowboyHired(1, 2, 1), "Seat 1 hires their Gunslinger (G2) for $1 (Saloon): it waits in the Abandoned Mine"),
    (
        E.CowboyMoved(1, Cowboy(0, 3), "B1", "mine", "grifter"),
        "Seat 1's Grifter sends your Trail Boss (R3) from B1 to the Abandoned Mine",
    ),
    (
        E.CowboyReturned(0, "mine", 1),
        "You bring your Greenhorn (R1) back to the Ranch from the Abandoned Mine (Dance Hall)",
    ),
    (E.SheriffMoved(1, "S_B1_C1_C2", ("B1", "C1", "C2")), "Seat 1 moves the Sheriff to the corner of B1, C1, C2"),
    (E.StackSeen(1, "2"), "Seat 1 looks at stack 2 (Fortune Teller)"),
    (E.StackArranged(0, "2", ("saloon", "gold_mine")), "You put stack 2 back, top first: Saloon, Gold Mine"),
    (E.TileDrawn(0, "3", "grifter", "stage_depot"), "You draw the Grifter from stack 3 (Stage Depot)"),
    (E.TileBuilt(0, "C4", "grifter"), "You build the Grifter on C4"),
    (E.TileToBottom("1", "bank", "destroyed"), "The Bank goes under stack 1 (destroyed)"),
    (E.RailPlaced(1, 2, "D5"), "» Seat 1 lays rail 2 of 4 on D5"),
    (E.BuildingDestroyed("D5", "bank", (Cowboy(0, 1),)), "The Bank on D5 is destroyed: R1 to the Abandoned Mine"),
    (E.StationBuilt(0, "E4", 3, 15), "» You build the Train Station on E4: 3 buildings next to it pay $15"),
    (E.GoldMineRolled(1, "crossed_guns", 2), "Seat 1 rolls crossed guns at the Gold Mine: $2"),
    (E.GameEnding(1, ("crime_pool_empty",)), "══ The game ends after seat 1's turn: the Crime Pool is empty ══"),
    (
        E.FinalScore(0, 12, 10, 3, 19, 3, 1),
        "You: $12 + $10 Stage Depot − $3 fine (3 wanted posters) = $19; 1 on Boot Hill",
    ),
    (E.GameOver((19, 8), (1, 2), (0,)), "══ Game over: you ($19) win ══"),
    (GameCapped(8000), "══ The game reached its cap of 8,000 decisions: it ends here, scored as it stands ══"),
]


def test_every_event_kind_has_its_words() -> None:
    view = position(2).view(0)
    assert len({type(ev) for ev, _ in EVERY_EVENT}) == len(EVERY_EVENT) == len(E.Event.__args__)  # type: ignore[attr-defined]
    for ev, words in EVERY_EVENT:
        assert UI.describe_event(ev, view) == words


def test_every_event_of_random_games_has_a_log_line_and_the_table_draws_every_view() -> None:
    seen: set[type] = set()
    for players, options in ((2, None), (3, {"town_hall_build": "one"}), (5, {"die": "alternative"})):
        for st in random_games(GAME, players, 3, options):
            for seat in (0, None, engine.OMNISCIENT):
                view = st.view(seat)
                events = st.events(seat)
                describe = UI.event_describer(events, view)
                for event in events:
                    line = describe(event)
                    seen.add(type(event))
                    assert line is not None and not line.startswith(type(event).__name__), line
                assert "GAME OVER" in render_text(render_table(view, events, NAMES), 100)
    assert len(seen) >= 25


@pytest.mark.parametrize("players", [2, 5])
def test_every_level_of_the_picker_fits_the_digits(players: int) -> None:
    """In every position of random games, each level of the picker (groups within groups) shows
    at most nine items, and no two moves read the same."""
    _, levels = check_the_picker_fits_the_digits(GAME, UI, players, 4, distinct_labels=True)
    assert levels > 20


def test_the_picker_groups_hit_the_town_by_cowboy_and_row() -> None:
    view = position(2).view(0)
    assert UI.group(A.HitTheTown(3, "C4"), view) == ("Hit the Town", "Send your Trail Boss (3)", "Row C")
    assert UI.group(A.HeadBack("mine", 1), view) == ("Head Back to the Ranch", "Your Greenhorns")
    assert UI.group(A.MoveSheriff("S_D1_E1_E2"), view) == ("Corners of rows D and E", "West")
    assert UI.group(A.Annex(), view) == ()
    picked = UI.describe_action(GAME, A.PickCowboy("B1", 0, 3), view)
    assert picked == "General Store: move your Trail Boss from B1"


def test_notices_tell_a_seat_what_was_done_to_it() -> None:
    found = 0
    for st in random_games(GAME, 4, 4):
        view = st.view(0)
        events = st.events(0)
        notices = UI.notices(events, 0, view)
        fights = sum(isinstance(e, E.ShootoutStarted) and 0 in (e.attacker.owner, e.defender.owner) for e in events)
        moved = sum(isinstance(e, E.CowboyMoved) and e.cowboy.owner == 0 and e.seat != 0 for e in events)
        assert sum(n.startswith("Shootout at ") for n in notices) == fights
        assert sum(" your " in n and ("moves" in n or "sends" in n) for n in notices) == moved
        assert notices[-1].startswith("The game ends: ")
        found += fights + moved
        assert UI.notices(events, len(events), view) == []
        spectator = UI.notices(st.events(None), 0, st.view(None))
        assert len(spectator) == 1 and "your" not in spectator[0]
    assert found > 0


def test_tokens_and_the_legend_follow_the_tables_options() -> None:
    assert token(0, 3) == "R3" and token(4, 1) == "O1"
    assert TABLES["deadwood_town"] is UI and UI.legend == LEGEND
    ui = UI.for_options({"adjacent_reannex": False, "town_hall_build": "one", "die": "alternative"})
    assert isinstance(ui, DeadwoodTownUI)
    assert "**no bonus annex**" in ui.legend and "builds only one" in ui.legend and "3 blanks" in ui.legend
    assert "bonus annex** next to a new rail is on" in UI.for_options(None).legend
    assert UI.for_options({"nonsense": 1}).legend == LEGEND


def test_the_bot_protocol_doc_shows_a_real_decision() -> None:
    """docs/bot-protocol.md's example is the decide message of seed 7 after these five moves (two
    heuristic bots'), and the heuristic bot's answer there is the doc's (``{"action":0}``)."""
    st = GAME.new_game(2, 7)
    for seat, action in [
        (1, A.HitTheTown(3, "B4")),
        (1, A.Annex()),
        (0, A.HitTheTown(3, "B4")),
        (1, A.StandAndFight()),
        (0, A.DeclareCartridge(True)),
    ]:
        act(st, seat, action)
    (seat,) = st.to_act
    legal = st.legal_actions(seat)
    sent = json.loads(decide_message(seat, st.view(seat), legal, 1000))
    doc = (Path(__file__).resolve().parents[2] / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
    part = doc.split("### A Deadwood (worker placement) decision", 1)[1]
    assert json.loads(part.split("```json\n", 1)[1].split("```", 1)[0]) == sent
    answer = make_bot("heuristic", 1).act(st.view(seat), legal, seat)
    assert legal.index(answer) == 0 and answer == A.DeclareCartridge(True)
