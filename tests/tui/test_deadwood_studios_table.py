"""Deadwood Studios at the table: whole games from the keyboard at 2 and 8 players against
heuristic bots, the replay viewer stepping through a game from every point of view, the text board, and
the screen parts (log lines, notices, the picker's groups).

No-leak checks: the face-down scene cards and the deck are hidden from everyone, and
``state.resample(seat, seed)`` redeals exactly those, so what any seat is shown (board, log,
choices, notices) must read the same in the real game and in a resampled one.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import (
    assert_same_for_any_redeal,
    assert_the_game_is_recorded_and_saved,
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
    table_app,
    viewer_text,
    wait_until,
)

import engine
from bots import make_bot
from bots.protocol import decide_message
from engine.deadwood_studios import actions as A
from engine.deadwood_studios import events as E
from engine.deadwood_studios.components import Role, Scene, components
from tui import PlaySetup, SaloonApp, screen_text
from tui.games import TABLES, ui_for
from tui.games.deadwood_studios import (
    DICE,
    LEGEND,
    MAP,
    DeadwoodStudiosUI,
    board_parts,
    die,
    render_board,
    render_map,
    render_table,
)
from tui.widgets import ActionPicker, GameLog
from tui.widgets.picker import Choice, _tree

GAME = engine.game("deadwood_studios")
UI = ui_for("deadwood_studios")


# -- helpers ----------------------------------------------------------------------------------


def seat_text(state: engine.State, seat: int | None, names: list[str]) -> str:
    """All a seat is shown of ``state``, rendered offline as the screens do: the table at 100
    and 80 columns, every log line, the notices, and (when the seat is to act) the choices."""
    view = state.view(seat)
    events = state.events(seat)
    out = [
        render_text(render_table(view, events, names, 100), 100),
        render_text(render_table(view, events, names, 76), 80),
    ]
    return "\n".join(out + seat_words(state, seat, GAME, UI))


def assert_no_leak(state: Any, seat: int | None, names: list[str], seed: int = 1) -> None:
    """``seat``'s screen reads the same whatever the face-down scenes and the deck hold."""
    assert_same_for_any_redeal(lambda st: seat_text(st, seat, names), state, seat, seed, spectator=(0,))


def strategy(view: Any, legal: list[Any], rng: random.Random) -> Any:
    """The keyboard player: acts when the odds are fair and rehearses otherwise, takes the best
    role it may, upgrades when it can, else walks; one move in five is random."""
    if rng.random() < 0.2:
        return rng.choice(legal)
    me = view.players[view.seat]
    if view.phase == "work":
        here = next(s for s in view.sets if s.id == me.room)
        budget = here.scene.budget if here.scene is not None else 1
        rehearse = [a for a in legal if isinstance(a, A.Rehearse)]
        return rehearse[0] if rehearse and me.chips + 3 < budget else legal[0]
    roles = [a for a in legal if isinstance(a, A.TakeRole)]
    if roles:
        return roles[-1]
    upgrades = [a for a in legal if isinstance(a, A.Upgrade)]
    if upgrades:
        return upgrades[-1]
    moves = [a for a in legal if isinstance(a, A.Move)]
    if moves and not view.moved:
        return rng.choice(moves)
    return legal[-1]


# -- whole games from the keyboard ------------------------------------------------------------


@pytest.mark.slow  # some 20-30 s each: a whole game is 60-150 decisions of the person's, each redrawn
@pytest.mark.parametrize(("players", "seat", "seed", "size"), [(2, 1, 21, (80, 24)), (8, 5, 8, (100, 40))])
async def test_full_game_from_the_keyboard(players: int, seat: int, seed: int, size: tuple[int, int], tmp_path) -> None:
    app = table_app("deadwood_studios", players, seat, "heuristic", seed, tmp_path)  # they wrap scenes: a shorter game
    async with app.run_test(size=size) as pilot:
        names = play_screen(app).names

        def check(state: engine.State, decisions: int) -> None:
            view = state.view(seat)
            if decisions % 15 == 0:  # nothing hidden is shown: not on the table, in the log or the choices
                assert_no_leak(state, seat, names, seed=decisions)
            if decisions % 25 == 0:
                shown = screen_text(app, everything=False)
                assert "Your move" in shown and f"DAY {view.day}/{view.days}" in shown
                assert f"{die(view, seat)}  {seat} you (you)" in shown  # the players' lines

        played = await play_from_the_keyboard(pilot, app, GAME, UI, strategy, random.Random(seed), check)
        session = app.session
        assert played.decisions > 20 and played.levels >= played.decisions
        assert {A.Move, A.TakeRole, A.Act} <= played.kinds
        assert_no_leak(session.state, seat, names)
        notices = play_screen(app).notices
        days = session.state.view(seat).days
        assert sum(n.startswith("Day ") for n in notices) == days  # each day's end popped up
        acted = [e for e in session.state.events(seat) if isinstance(e, E.Acted) and e.seat == seat]
        assert sum(n.startswith("You rolled") for n in notices) == len(acted) > 0
        await assert_the_game_is_recorded_and_saved(pilot, app)


async def test_help_shows_the_legend_and_the_upgrade_table(tmp_path) -> None:
    app = SaloonApp(play=PlaySetup("deadwood_studios", 3, 0, ("random",), 3), speed="instant", replay_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        text, body = await open_help(pilot, app)
        assert "Deadwood Studios: help" in text
        assert "R3" in body and "Casting Office" in body and "It's a wrap!" in body
        legend = app.screen.query("Markdown").first()
        assert len(legend.query("MarkdownTable")) == 1  # the Casting Office's prices
        await close_help(pilot, app)


async def test_the_table_fits_small_and_large_terminals(tmp_path) -> None:
    app = SaloonApp(play=PlaySetup("deadwood_studios", 4, 0, ("random",), 8), speed="instant", replay_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        assert play_screen(app).has_class("compact")
        small = screen_text(app, everything=False)
        assert "Your move" in small and play_screen(app).query_one(ActionPicker).options.size.height >= 4
        for seen in ("DAY 1/4", "Last roll", "0 you (you)", "3 random"):
            assert seen in small
        await pilot.resize_terminal(140, 50)
        await pilot.pause()
        assert not play_screen(app).has_class("compact")
        large = screen_text(app, everything=False)
        assert "Your move" in large and "Train Station" in large and "┌" in large


# -- the replay viewer --------------------------------------------------------------------------


async def test_replay_viewer_steps_forward_and_back_from_every_point_of_view() -> None:
    app = SaloonApp(replay=random_replay("deadwood_studios", 3, 5))
    async with app.run_test(size=(100, 32)) as pilot:
        viewer = await open_viewer(pilot, app)
        start = viewer_text(viewer)
        assert viewer.pov == 0 and "DAY 1/3" in start and "0 you (you)" in start and "══ Day 1 of 3" in start
        for _ in range(6):
            await pilot.press("right")
        assert viewer.position == 6
        await pilot.press("left")
        assert viewer.position == 5
        await pilot.press("n")
        assert viewer.position in viewer.turn_marks and viewer.position > 5
        await pilot.press("p", "home")
        assert viewer.position == 0 and viewer_text(viewer) == start
        await pilot.press("v")
        assert viewer.pov == 1 and "1 random (you)" in viewer_text(viewer)
        await pilot.press("v", "v")
        assert viewer.pov is None and "(you)" not in viewer_text(viewer)
        await pilot.press("v")
        assert viewer.pov == engine.OMNISCIENT
        omniscient = "\n".join(viewer.query_one(GameLog).plain_lines)
        assert "Ten scenes dealt face down (30 left in the deck): Train Station " in omniscient
        await pilot.press("end")
        shown = viewer_text(viewer)
        assert viewer.cursor.state.is_over and "GAME OVER" in shown and "══ Game over" in shown
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen.id == "help"


async def test_replay_viewer_never_leaks_a_face_down_scene() -> None:
    """Through a whole game, from a seat and the spectator: the table and the log read the same
    for any redeal of the face-down scenes and the deck."""
    app = SaloonApp(replay=random_replay("deadwood_studios", 4, 13))
    async with app.run_test(size=(100, 32)) as pilot:
        viewer = await open_viewer(pilot, app)
        moves = len(viewer.cursor)
        stride = max(1, moves // 12)
        checked = 0
        for pov in (2, None):
            viewer.pov = pov
            viewer.action_jump("start")
            while True:
                state = viewer.cursor.state
                assert seat_text(state.resample(pov or 0, checked), pov, viewer.names) == seat_text(
                    state, pov, viewer.names
                )
                checked += 1
                if viewer.position == moves:
                    break
                viewer.action_step(stride)
        assert checked >= 24


# -- the text board ---------------------------------------------------------------------------


def _midgame(players: int, seed: int, moves: int) -> Any:
    st = GAME.new_game(players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = st.to_act[0]
        st.apply(seat, rng.choice(st.legal_actions(seat)))
    return st


@pytest.mark.parametrize("width", [100, 80])
def test_the_board_is_plain_text_within_its_width(width: int) -> None:
    for players in (2, 5, 8):
        for moves in (0, 40, 160):
            st = _midgame(players, players * 7 + moves, moves)
            view = st.view(None)
            text = render_board(view, [f"p{s}" for s in range(players)], width)
            lines = text.splitlines()
            assert max(len(line) for line in lines) <= width
            assert "[" not in text and "\x1b" not in text  # no markup, no escape codes
            assert text.count("┌") == 1 and text.count("┘") == 1  # one map
            for name in components().room_names:  # every room, in the map and in detail
                assert sum(name in line for line in lines) >= 2, name
            for p in view.players:  # every die where it stands: in the players' lines and in its room
                assert sum(die(view, p.seat) in line for line in lines) >= 2


def test_the_board_shows_a_set_with_its_scene_roles_and_dice() -> None:
    st = GAME.new_game(3, 4)
    while True:  # the first player walks into a set and takes its best role
        seat = st.to_act[0]
        legal = st.legal_actions(seat)
        roles = [a for a in legal if isinstance(a, A.TakeRole) and a.on_card]
        if roles:
            st.apply(seat, roles[-1])
            break
        moves = [a for a in legal if isinstance(a, A.Move) and a.to != "casting_office"]
        st.apply(seat, moves[0] if moves else legal[-1])
    view = st.view(None)
    me = view.players[seat]
    here = next(s for s in view.sets if s.id == me.room)
    assert here.scene is not None
    text = render_board(view, ["ann", "bob", "cy"], 100)
    block = text[text.index(f"\n{here.name}  ") + 1 :].split("\n\n")[0]
    head, *roles = block.split("\n")
    shots = "●" * here.shots
    assert head == f"{here.name}  {shots} {here.shots}/{here.shots} shot{'s' if here.shots > 1 else ''}  " + (
        f"{here.scene.title} · ${here.scene.budget}M budget · scene {here.scene.number}"
    )
    top = here.starring[-1]
    taken = next(r for r in here.starring if r.seat == seat)
    line = next(r for r in roles if f" {taken.name} " in r)
    assert f"{taken.rank} {taken.name:<25} {die(view, seat)}" in line and f'"{taken.line}"' in line
    assert roles[0].startswith(f"  card   {top.rank} {top.name}")
    assert any(r.startswith("  extras ") for r in roles)
    assert f"{die(view, seat)}  {seat} {['ann', 'bob', 'cy'][seat]}" in text
    assert f"{here.name}: ★{me.role}" in text


def test_the_map_draws_the_backlot_and_leaves_out_when_narrow() -> None:
    view = GAME.new_game(8, 1).view(None)
    board = render_map(view, 80)
    assert board is not None
    lines = board.plain.splitlines()
    assert lines[0] == "┌" + "─" * 18 + "┬" + "─" * 18 + "┬" + "─" * 37 + "┐"
    assert lines[1].startswith("│Train Station  ●●●│Jail             ●│Main Street")
    trailers = "".join(lines)
    assert all(f"{letter}2" in trailers for letter, _ in DICE)  # 7-8 players start at rank 2, all in the Trailers
    assert render_map(view, 60) is None
    assert "┌" not in render_board(view, [], 60) and "Train Station" in render_board(view, [], 60)


def test_every_event_has_a_log_line_and_the_table_draws_every_view() -> None:
    seen: set[type] = set()
    for players in (2, 4, 8):
        for st in random_games(GAME, players, 2):
            for seat in (0, None, engine.OMNISCIENT):
                view = st.view(seat)
                for event in st.events(seat):
                    line = UI.describe_event(event, view)
                    seen.add(type(event))
                    assert line is not None and not line.startswith(type(event).__name__), line
            final = render_text(render_table(st.view(0), st.events(0), ["a"] * players), 100)
            assert "GAME OVER" in final and "Day " in final and "WINNER" in final
            assert "no scene: the game is over" in final and "wrapped" not in final
    assert seen == {
        E.DayStarted,
        E.ScenesDealt,
        E.TurnStarted,
        E.Moved,
        E.SceneRevealed,
        E.RoleTaken,
        E.Rehearsed,
        E.Acted,
        E.ShotRemoved,
        E.SceneWrapped,
        E.Upgraded,
        E.DayEnded,
        E.DayCalled,
        E.GameEnded,
    }


def test_the_log_lines_of_a_roll_and_a_wrap() -> None:
    scene = Scene(3, "Evil Wears a Hat", 5, 7, "", (Role("Low", 2, "a"), Role("Mid", 3, "b"), Role("Top", 4, "c")))
    view = GAME.new_game(3, 0).view(1)
    acted = E.Acted(1, "saloon", "Top", True, 4, 1, 5, 5, True, 0, 2)
    assert UI.describe_event(acted, view) == (
        "» You act the starring role Top at the Saloon: roll 4 + 1 chip = 5 against $5M, success: 2 credits"
    )
    missed = E.Acted(2, "main_street", "Railroad Worker", False, 1, 0, 1, 4, False, 1, 0)
    assert UI.describe_event(missed, view) == (
        "» Seat 2 acts the extra Railroad Worker at Main Street: rolls 1 against $4M, failure: $1"
    )
    shares = (
        E.BonusShare("Top", 4, True, 1, (6, 2), 8),
        E.BonusShare("Mid", 3, True, 2, (5, 1), 6),
        E.BonusShare("Low", 2, True, -1, (3,), 0),
        E.BonusShare("Reluctant Farmer", 1, False, 0, (), 1),
    )
    wrapped = E.SceneWrapped("saloon", scene, True, 1, (6, 5, 3, 2, 1), shares, 6)
    assert UI.describe_event(wrapped, view) == (
        "» Wrap: Evil Wears a Hat at the Saloon: you roll 6 5 3 2 1; Top (you) 6+2 = $8, Mid (seat 2) 5+1 = $6, "
        "Low (nobody) 3, unpaid; extras: Reluctant Farmer (seat 0) $1; 6 scenes left"
    )
    assert UI.notices([acted, wrapped], 0, view) == [
        "You rolled 5 against $5M, success: 2 credits",
        "Wrap bonus for Top (Evil Wears a Hat): $8",
    ]
    assert UI.notices([acted, wrapped], 0, GAME.new_game(3, 0).view(None)) == []
    assert UI.notices([wrapped], 0, GAME.new_game(3, 0).view(0)) == [
        "Wrap bonus for Reluctant Farmer (Evil Wears a Hat): $1"
    ]
    nobody = E.SceneWrapped("bank", scene, False, 2, (), (), 1)
    assert UI.describe_event(nobody, view) == (
        "» Wrap: Evil Wears a Hat at the Bank: nobody on the card, no bonus; 1 scene left"
    )


@pytest.mark.parametrize("players", [2, 8])
def test_every_level_of_the_picker_fits_the_digits(players: int) -> None:
    """In every position of random games, each level of the picker shows at most nine items."""
    positions, _ = check_the_picker_fits_the_digits(GAME, UI, players, 2)
    assert positions > 300


def test_the_casting_office_groups_upgrades_by_currency() -> None:
    """The most choices a turn can offer: every upgrade in both currencies, the moves, the end."""
    view = GAME.new_game(2, 0).view(0)
    upgrades = [A.Upgrade(rank, money) for rank in range(2, 7) for money in ("dollars", "credits")]
    legal = [*upgrades, A.Move("train_station"), A.Move("ranch"), A.Move("secret_hideout"), A.EndTurn()]
    root = _tree([Choice(UI.describe_action(GAME, a, view), UI.group(a, view), a) for a in legal])
    assert list(root.groups) == ["Upgrade at the Casting Office", "Move", "EndTurn"] and root.choices == []
    office = root.groups["Upgrade at the Casting Office"]
    assert list(office.groups) == ["Pay in dollars", "Pay in credits"]
    assert [c.label for c in office.groups["Pay in credits"].choices] == [
        "Upgrade to rank 2 for 5 credits",
        "Upgrade to rank 3 for 10 credits",
        "Upgrade to rank 4 for 15 credits",
        "Upgrade to rank 5 for 20 credits",
        "Upgrade to rank 6 for 25 credits",
    ]
    assert [UI.group(a, view) for a in (A.Act(), A.Rehearse(), A.EndTurn())] == [("Act",), ("Rehearse",), ("EndTurn",)]
    flat = root.all_choices()  # the engine's order when shown flat: the end of the turn last
    assert flat[0].label == "Upgrade to rank 2 for $4" and flat[-1].action == A.EndTurn()


def test_the_screen_parts_are_registered() -> None:
    assert isinstance(TABLES["deadwood_studios"], DeadwoodStudiosUI) and UI is TABLES["deadwood_studios"]
    assert UI.legend == LEGEND and "| 6 | $40 | 25 |" in LEGEND
    assert UI.for_options(None) is UI and UI.seat_name(None, 3) == "seat 3"
    assert [type(p).__name__ for p in board_parts(GAME.new_game(2, 0).view(0), [], 100)] == ["Text"] * 4


def test_the_bot_protocol_doc_shows_a_real_decision() -> None:
    """docs/bot-protocol.md's example is the decide message of seed 4 after nine moves of two
    heuristic bots (four of its ten sets shown), and the heuristic's answer is the doc's."""
    st = GAME.new_game(2, 4)
    bots = [make_bot("heuristic", seat) for seat in range(2)]
    for _ in range(9):
        seat = st.to_act[0]
        st.apply(seat, bots[seat].act(st.view(seat), st.legal_actions(seat), seat))
    (seat,) = st.to_act
    legal = st.legal_actions(seat)
    sent = json.loads(decide_message(seat, st.view(seat), legal, 1000))
    doc = (Path(__file__).resolve().parents[2] / "docs" / "bot-protocol.md").read_text()
    shown = json.loads(doc.split("### A Deadwood Studios decision", 1)[1].split("```json\n", 1)[1].split("```", 1)[0])
    assert len(sent["view"]["sets"]) == 10
    ids = [s["id"] for s in shown["view"]["sets"]]
    assert ids == ["train_station", "main_street", "general_store", "saloon"]
    sent["view"]["sets"] = [s for s in sent["view"]["sets"] if s["id"] in ids]
    assert shown == sent
    answer = bots[seat].act(st.view(seat), legal, seat)
    assert legal.index(answer) == 1 and answer == A.TakeRole("Sleeping Man", True)  # the doc: {"action":1}


def test_the_maps_shared_walls_are_the_boards_doors() -> None:
    """Two rooms of :data:`MAP` share a stretch of wall exactly when the board connects them."""
    comp = components()
    cells = {room: set() for room, *_ in MAP}
    for room, row, column, rows, columns in MAP:
        cells[room] = {(r, c) for r in range(row, row + rows) for c in range(column, column + columns)}
    assert sorted(cells) == sorted(comp.room_ids) and sum(map(len, cells.values())) == 16  # the 4 x 4 grid, once
    walls = set()
    for a, mine in cells.items():
        for b, theirs in cells.items():
            if a != b and any(abs(r - r2) + abs(c - c2) == 1 for r, c in mine for r2, c2 in theirs):
                walls.add(frozenset((a, b)))
    doors = {frozenset((comp.room_ids[k], comp.room_ids[n])) for k, ns in enumerate(comp.neighbors) for n in ns}
    assert walls == doors and len(doors) == 20
