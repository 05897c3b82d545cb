"""Issue 15, "the first hour": what a new player meets at the Deadwood 1876 table.

Positions are exact (every hand, row and die scripted with ``tests.helpers``); the table and the
log are drawn in a small Textual app, the live table and the replay viewer run in the pilot.
"""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Markdown
from tui_helpers import my_turn_or_over, open_viewer, play_screen, random_replay, wait_until, widget_text

import engine
from engine.deadwood1876 import events as E
from engine.deadwood1876.actions import Defend, HeistGun, NoHolster, RideHorse, Robbery
from engine.deadwood1876.rules import heist
from engine.deadwood1876.state import DeadwoodState
from tests.helpers import act, card, new_state, put_turn, safe
from tui import PlaySetup, SaloonApp, screen_text
from tui.games import ui_for
from tui.games.deadwood1876 import Deadwood1876Table, Deadwood1876UI
from tui.widgets import GameLog

GAME = engine.game("deadwood1876")
UI = ui_for("deadwood1876")

# Guns for fights: Stetsons and Dusters, never Holsters (so nobody can give one).
COLT = card("colt", "stetson")
DERRINGER = card("derringer", "stetson")
WINCHESTER = card("winchester", "stetson")
MESSENGER = card("messenger", "stetson")
PEPPERBOX = card("pepperbox", "stetson")
DUSTERS = [card(gun, "duster") for gun in ("pepperbox", "derringer", "colt", "winchester", "messenger")]
WHITE_COLT_HORSE = card("colt", "horse", white=True)


class TableApp(App[None]):
    """The game's table widget and the log, nothing else: :meth:`show` draws one seat's view."""

    CSS_PATH = [Deadwood1876UI.css_path]

    def __init__(self, ui: Any) -> None:
        super().__init__()
        self.ui = ui

    def compose(self) -> ComposeResult:
        yield self.ui.make_table()
        yield GameLog(id="log")

    def show(self, state: engine.State, seat: int | None) -> tuple[str, list[str]]:
        """Draw ``seat``'s view of ``state``; returns the table's text and the log's lines."""
        view, events = state.view(seat), state.events(seat)
        table = self.query_one(Deadwood1876Table)
        table.show(view, events, ["p"] * len(view.players))
        log = self.query_one(GameLog)
        log.show(events, self.ui.event_describer(events, view), rewrite=True)
        return widget_text(table), list(log.plain_lines)


def _robbery_at_0(rolls: tuple[int, ...]) -> DeadwoodState:
    """5 players, seat 0 (Al Swearengen) robs Calamity Jane's Safe #2 (Gold 4) with a Messenger;
    she answers with a Derringer; ``rolls`` are the dice (robber first). The others keep the
    hands they were dealt."""
    hands = {0: [MESSENGER, COLT, PEPPERBOX, DUSTERS[4]], 1: [DERRINGER, *DUSTERS[:3]]}
    st = put_turn(
        new_state(5, 1),
        0,
        hands=hands,
        rows={0: [safe("Gold 1"), safe("Iron Badge")], 1: [safe("Gold 2"), safe("Gold 4")]},
        rolls=rolls,
    )
    act(st, 0, Robbery(MESSENGER, 1, 1))
    act(st, 1, Defend(DERRINGER))
    return st


def _no_holsters(st: DeadwoodState) -> None:
    for seat in st.to_act:
        act(st, seat, NoHolster())


# ------------------------------------------------------------------ the replay viewer's last move


async def test_the_omniscient_replay_names_the_mover_of_a_safe_pass_not_your() -> None:
    replay = random_replay("deadwood1876", 4, 8)
    app = SaloonApp(replay=replay)
    async with app.run_test(size=(120, 40)) as pilot:
        viewer = await open_viewer(pilot, app)
        assert [seat for seat, _ in viewer.cursor.moves[:4]] == [0, 1, 2, 3]
        viewer.pov = engine.OMNISCIENT
        await pilot.press("right", "right")  # seat 1 passed a Safe
        controls = widget_text(viewer.query_one("#controls"))
        assert "Last move: Calamity Jane: Pass Calamity Jane's Safe #2 (Derringer Showdown Gun) to the left" in controls
        assert "your" not in controls
        viewer.pov = 1
        viewer.redraw()
        assert "Last move: Calamity Jane: Pass your Safe #2 (Derringer Showdown Gun) to the left" in widget_text(
            viewer.query_one("#controls")
        )
        viewer.pov = 2
        viewer.redraw()
        assert "Last move: Calamity Jane chose" in widget_text(viewer.query_one("#controls"))


# ------------------------------------------------------------------ the Final Showdown's gold


def test_the_final_showdown_gold_names_only_the_establishments_in_play() -> None:
    """2-3 players play without the Grand Central Hotel (Set Up step 1): it has no gold to show."""
    reveal = E.SafesRevealed(rows=(), gold=(3, 0, 7))
    three = new_state(3, 1).view(0)
    assert [e.name for e in three.establishments] == ["Gem Theatre", "Bella Union"]
    line = UI.describe_event(reveal, three)
    assert line == "══ Final Showdown: all Safes revealed; gold: Gem Theatre 3, Bella Union 7 ══"
    four = new_state(4, 1).view(0)
    line = UI.describe_event(reveal, four)
    assert line == "══ Final Showdown: all Safes revealed; gold: Gem Theatre 3, Grand Central Hotel 0, Bella Union 7 ══"


# ------------------------------------------------------------------ help


async def test_the_help_opens_with_a_legend_for_players(tmp_path) -> None:
    setup = PlaySetup("deadwood1876", 4, 0, ("random",), 3, options={"horse_thief": True})
    app = SaloonApp(play=setup, speed="instant", replay_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen.id == "help"
        shown = screen_text(app, everything=False)
        assert "Reading the table" in shown and "Status line" in shown
        assert "Drawn only from" not in shown and ":class:" not in shown
        legend = next(md.source for md in app.screen.query(Markdown) if "Reading the table" in md.source)
        assert "engine." not in legend and "View" not in legend
        assert "**White Horses** (the Horse Thief rule is on at this table)" in legend


def test_the_legend_explains_white_horses_only_when_they_matter() -> None:
    assert "White Horses" not in UI.for_options(None).legend
    assert "White Horses" not in UI.for_options({"horse_thief": False}).legend
    assert "Horse Thief rule is on at this table" in UI.for_options({"horse_thief": True}).legend
    assert "matters only with the Horse Thief option" in Deadwood1876UI().legend  # options not known


# ------------------------------------------------------------------ the table's words


async def test_the_holster_window_says_holsters_once() -> None:
    st = _robbery_at_0(rolls=(3, 1))
    assert st.phase == "holster"
    app = TableApp(UI.for_options(None))
    async with app.run_test(size=(120, 40)):
        text, _ = app.show(st, 2)
    status = text.splitlines()[0]
    assert status.strip() == "Holsters  those not fighting may each give a fighter one Holster, face down"


async def test_one_turn_left_is_singular() -> None:
    st = new_state(5, 1)
    put_turn(st, 0, segment=st.table.middle_safes)  # the final turns: one each
    app = TableApp(UI.for_options(None))
    async with app.run_test(size=(120, 40)):
        text, _ = app.show(st, 0)
        assert "circle 4 · 1 turn left (final)" in text
        st.segment = 0
        text, _ = app.show(st, 0)
        assert "circle 1 · 4 turns left" in text


async def _draw(ui: Any, st: engine.State, seat: int) -> tuple[str, list[str]]:
    app = TableApp(ui)
    async with app.run_test(size=(120, 40)):
        return app.show(st, seat)


async def test_a_white_horse_is_a_plain_horse_without_the_horse_thief_rule() -> None:
    """HORSE: "Unless using the optional advanced "horse thief" rule, the color of the Horse does not matter"."""
    st = put_turn(new_state(5, 1), 0, hands={0: [WHITE_COLT_HORSE, *DUSTERS[:3]]})
    ride = RideHorse(WHITE_COLT_HORSE, 2)  # from the Gem Theatre to the Bella Union
    assert ride in st.legal_actions(0)
    plain, marked = UI.for_options(None), UI.for_options({"horse_thief": True})
    view = st.view(0)
    assert plain.describe_action(GAME, ride, view) == "Horse (Colt / Horse): ride to the Bella Union"
    assert marked.describe_action(GAME, ride, view) == "Horse (Colt / white Horse): ride to the Bella Union"
    before = {ui: await _draw(ui, st, 0) for ui in (plain, marked)}
    st.apply(0, ride)
    after = {ui: await _draw(ui, st, 0) for ui in (plain, marked)}
    for ui, horse in ((plain, "Colt 011223 Horse"), (marked, "Colt 011223 white Horse")):
        hand = f"Your hand: [Pepperbox 000112 Duster] [Derringer 001122 Duster] [{horse}] [Colt 011223 Duster]"
        assert hand in before[ui][0]
        assert f"Al Swearengen plays {horse} as a Horse" in after[ui][1]
    assert not any("white" in text + "\n".join(log) for text, log in [before[plain], after[plain]])


async def test_a_heist_reroll_is_labelled() -> None:
    guns = [COLT, card("colt", "horse"), PEPPERBOX, DERRINGER, WINCHESTER]
    st = put_turn(new_state(5, 1), 0, hands={s: [gun, DUSTERS[s]] for s, gun in enumerate(guns)})
    # first roll: seats 0 and 4 tie on 3 (Colt 3, Winchester 3); the reroll: Colt 1 against Winchester 2
    st.chance.rolls = [3, 1, 0, 1, 3, 1, 2]  # type: ignore[attr-defined]
    heist.start_heist(st)
    for seat, gun in enumerate(guns):
        act(st, seat, HeistGun(gun))
    app = TableApp(UI.for_options(None))
    async with app.run_test(size=(120, 40)):
        text, log = app.show(st, 0)
    dice = [line for line in log if line.startswith("Dice")]
    assert dice == [
        "Dice (heist): AS Colt 3; CJ Colt 1; KL Pepperbox 0; MJ Derringer 1; PA Winchester 3",
        "Dice (heist, reroll): AS Colt 1; PA Winchester 2",
    ]
    assert "Dice (heist, reroll): AS Colt 1  PA Winchester 2" in text


async def test_the_dice_row_clears_when_the_next_fight_starts() -> None:
    st = _robbery_at_0(rolls=(3, 1))
    _no_holsters(st)  # Messenger 3 against Derringer 1: Al Swearengen takes the Safe
    app = TableApp(UI.for_options(None))
    async with app.run_test(size=(120, 40)):
        text, log = app.show(st, 2)
        assert "Dice (robbery): AS Messenger 3  CJ Derringer 1" in text
        assert "» Al Swearengen wins the Robbery against Calamity Jane" in log
        assert st.phase == "turn" and st.current == 1
        robbery = next(a for a in st.legal_actions(1) if isinstance(a, Robbery))
        act(st, 1, robbery)  # Calamity Jane starts the next Robbery
        text, _ = app.show(st, 2)
        assert "Dice: not rolled yet" in text
        assert "Messenger 3" not in text


# ------------------------------------------------------------------ a Robbery's result


def test_a_robbery_result_is_a_notice_for_the_robber_and_the_robbed() -> None:
    won = _robbery_at_0(rolls=(3, 1))
    _no_holsters(won)
    lost = _robbery_at_0(rolls=(1, 2))
    _no_holsters(lost)
    ui = UI.for_options(None)

    def notices(st: DeadwoodState, seat: int) -> list[str]:
        return ui.notices(st.events(seat), 0, st.view(seat))

    assert notices(won, 0) == ["Robbery won: you take Calamity Jane's Safe #2 (Gold 4)"]
    assert notices(won, 1) == ["Robbery lost: Al Swearengen takes your Safe #2 (Gold 4)"]
    assert notices(won, 2) == []
    assert notices(lost, 0) == ["Robbery failed: Calamity Jane keeps their Safe #2"]
    assert notices(lost, 1) == ["Robbery fought off: you keep your Safe #2, Al Swearengen gets nothing"]
    assert ui.notices(won.events(0), len(won.events(0)), won.view(0)) == []  # only new events


async def test_a_robbery_you_start_pops_up_its_result(tmp_path) -> None:
    app = SaloonApp(play=PlaySetup("deadwood1876", 4, 0, ("random",), 3), speed="instant", replay_dir=tmp_path)
    async with app.run_test(size=(100, 32), notifications=True) as pilot:
        screen = play_screen(app)
        for _ in range(30):  # pass a Safe, then the first choice until a Robbery can be started
            await wait_until(pilot, lambda: my_turn_or_over(app))
            legal = app.session.legal_actions()
            robberies = [a for a in legal if isinstance(a, Robbery)]
            screen.choose(robberies[0] if robberies else legal[0])
            await pilot.pause()
            if robberies:
                break
        for _ in range(10):  # answer whatever the Robbery asks of the robber
            await wait_until(pilot, lambda: my_turn_or_over(app))
            if screen.notices:
                break
            screen.choose(app.session.legal_actions()[0])
            await pilot.pause()
        await pilot.pause(0.05)
        assert screen.notices == ["Robbery won: you take Calamity Jane's Safe #1 (Iron Badge)"]
        assert "Robbery won: you take" in screen_text(app, everything=False)  # the pop-up (it wraps)
        log = screen.query_one(GameLog).plain_lines
        assert "» Al Swearengen wins the Robbery against Calamity Jane" in log
