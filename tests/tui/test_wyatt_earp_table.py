"""Wyatt Earp at the table: whole games from the keyboard against random bots, the replay viewer
from every seat's view, and the screen parts (log lines, notices, the picker's groups).

No-leak checks: what a seat is shown (the table, the log, the choices, the notices) must be the
same for every deal of the cards it cannot see. ``state.resample(seat, seed)`` redraws exactly
those (the other hands and the supply), so the screen of a seat must read the same in the real
game and in a resampled one; the omniscient screen, which does show the hands, must not (the
check would catch a leak).
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from rich.console import Console
from textual.events import Key
from tui_helpers import my_turn_or_over, play_screen, resimulate, wait_until, widget_text

import engine
from bots import RandomBot, play_game
from engine.wyatt_earp import actions as A
from engine.wyatt_earp import events as E
from engine.wyatt_earp.state import CARDS
from engine.wyatt_earp.views import GroupView
from replays import Player, verify
from tui import PlaySetup, SaloonApp, screen_text
from tui.games import TABLES, ui_for
from tui.games.wyatt_earp import LEGEND, WyattEarpUI, card_list, group_cell, hand_groups, render_table
from tui.replay_screen import ReplayScreen
from tui.widgets import ActionPicker, GameLog, ResultScreen
from tui.widgets.picker import MAX_FLAT, Choice, _tree

if "wyatt_earp" not in engine.games():  # registered in engine/__init__.py; kept for older checkouts
    from engine.wyatt_earp import GAME as _GAME

    engine.register("wyatt_earp", lambda: _GAME)

GAME = engine.game("wyatt_earp")
UI = ui_for("wyatt_earp")


# -- helpers ----------------------------------------------------------------------------------


def _text(parts: list[Any], width: int) -> str:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    for part in parts:
        console.print(part)
    return console.export_text()


def seat_text(state: engine.State, seat: int | None, names: list[str]) -> str:
    """All a seat is shown of ``state``, rendered offline as the screens do: the table (wide and
    compact), every log line, the notices, and (when the seat is to act) the choices."""
    view = state.view(seat)
    events = state.events(seat)
    describe = UI.event_describer(events, view)
    out = [_text(render_table(view, events, names, 100), 100), _text(render_table(view, events, names, 78, True), 80)]
    out += [describe(e) or "" for e in events]
    out += UI.notices(events, 0, view)
    if isinstance(seat, int) and seat >= 0 and seat in state.to_act:
        out += [f"{UI.group(a, view)} {UI.describe_action(GAME, a, view)}" for a in state.legal_actions(seat)]
    return "\n".join(out)


def assert_no_leak(state: Any, seat: int | None, names: list[str], seed: int = 1) -> None:
    """``seat``'s screen reads the same whatever the cards it cannot see (the spectator: for
    redeals around two seats, so that every hand is redrawn at least once)."""
    shown = seat_text(state, seat, names)
    for around in [seat] if seat is not None else [0, 1]:
        other = state.resample(around, seed)
        assert seat_text(other, seat, names) == shown, f"seat {seat} sees something hidden"


def strategy(view: Any, legal: list[Any], rng: random.Random) -> Any:
    """The keyboard player: lays the biggest batch of Outlaw cards it can, then a Photo or a shot,
    draws from the supply and discards what it holds least of; one move in five is random (to
    meet every kind of decision)."""
    if rng.random() < 0.2:
        return rng.choice(legal)
    for kind in (A.PlayOutlaws, A.PlayPhoto, A.PlaySheriff, A.ChooseTarget, A.DrawFromSupply):
        found = [a for a in legal if isinstance(a, kind)]
        if found:
            return max(found, key=lambda a: getattr(a, "count", 0))
    discards = [a for a in legal if isinstance(a, A.Discard)]
    if discards:
        held = lambda a: sum(1 for c in view.hand if c.card == a.card and c.outlaw == a.outlaw)  # noqa: E731
        return min(discards, key=held)
    return rng.choice(legal)


async def press(pilot: Any, *keys: str) -> None:
    """Press ``keys`` as the terminal sends them (key events to the app), each handled before the
    next. Lighter than ``Pilot.press``, which also waits for the whole process to idle (some
    40 ms a key): a Wyatt Earp game is some hundred decisions."""
    for key in keys:
        pilot.app.post_message(Key(key, key if len(key) == 1 else None))
        await pilot.pause(0)


async def choose_from_the_keyboard(pilot: Any, app: SaloonApp, action: Any) -> int:
    """Press the keys that lead the picker to ``action``: a digit per level (arrows and Enter past
    the ninth item); returns the number of levels gone through."""
    picker = play_screen(app).query_one(ActionPicker)
    view = app.session.view()
    label = UI.describe_action(GAME, action, view)
    path = UI.group(action, view)
    for depth in range(len(path) + 1):
        items = picker.items
        if label in items:
            index = items.index(label)
        else:
            index = next(i for i, item in enumerate(items) if item.split(" ▸ ")[0] in path)
        if index < MAX_FLAT:
            await press(pilot, str(index + 1))
        else:
            picker.options.focus()
            await press(pilot, "home", *["down"] * index, "enter")
        if label in items:
            return depth + 1
        await wait_until(pilot, lambda shown=items: picker.items != shown)  # the group opened
    raise AssertionError(f"{label!r} not reachable in the picker")


# -- whole games from the keyboard ------------------------------------------------------------


@pytest.mark.parametrize(("players", "seat", "seed", "size"), [(2, 1, 78, (80, 24)), (4, 0, 12, (100, 32))])
async def test_full_game_from_the_keyboard(players: int, seat: int, seed: int, size: tuple[int, int], tmp_path) -> None:
    setup = PlaySetup("wyatt_earp", players, seat, ("random",), seed)
    app = SaloonApp(play=setup, speed="instant", next_seed=lambda: 4242, replay_dir=tmp_path)
    rng = random.Random(seed)
    decisions = levels = 0
    async with app.run_test(size=size) as pilot:
        names = play_screen(app).names
        while True:
            await wait_until(pilot, lambda: my_turn_or_over(app))
            state = app.session.state
            if state.is_over:
                break
            if decisions % 4 == 0:  # nothing hidden is shown: not on the table, in the log or the choices
                assert_no_leak(state, seat, names, seed=decisions)
            if decisions % 25 == 0:
                shown = screen_text(app, everything=False)
                assert "Your move" in shown and f"HAND {state.view(seat).hand_number}" in shown
                assert "Billy the Kid" in shown and "poster" in shown
            before = app.session.recorder.num_moves
            wanted = strategy(state.view(seat), app.session.legal_actions(), rng)
            levels += await choose_from_the_keyboard(pilot, app, wanted)
            await wait_until(pilot, lambda before=before: app.session.recorder.num_moves > before)
            decisions += 1
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        await pilot.pause()
        session = app.session
        assert decisions > 20 and levels > decisions  # some moves were inside groups
        assert_no_leak(session.state, seat, names)
        replay = session.replay()
        assert resimulate(replay).outcome == session.state.outcome == replay.outcome
        assert verify(replay).digest() == session.state.digest()
        assert session.faults == []
        assert any("scored" in n for n in play_screen(app).notices)  # each hand's scoring popped up
        assert "seed" in screen_text(app, everything=False)
        await pilot.press("w")  # save the replay
        await pilot.pause()
        assert app.saved and app.saved[0].exists()


async def test_help_shows_the_legend_and_the_rules(tmp_path) -> None:
    app = SaloonApp(play=PlaySetup("wyatt_earp", 3, 0, ("random",), 3), speed="instant", replay_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen.id == "help"
        text = screen_text(app, everything=False)
        assert "Reading the table" in text and "Wyatt Earp: help" in text
        body = "\n".join(widget_text(m) for m in app.screen.query("MarkdownBlock"))
        assert "H:6" in body and "Capture the seven Outlaws" in body
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is play_screen(app)


async def test_the_table_fits_small_and_large_terminals(tmp_path) -> None:
    app = SaloonApp(play=PlaySetup("wyatt_earp", 4, 0, ("random",), 8), speed="instant", replay_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        assert play_screen(app).has_class("compact")
        small = screen_text(app, everything=False)
        assert "Your move" in small and play_screen(app).query_one(ActionPicker).options.size.height >= 4
        for seen in ("Billy the Kid", "Sundance Kid", "3 random", "$0 10c", "Supply", "Your hand (10)"):
            assert seen in small
        assert " hand" in small and "…" not in small  # no column cut short
        await pilot.resize_terminal(140, 45)
        await pilot.pause()
        assert not play_screen(app).has_class("compact")
        large = screen_text(app, everything=False)
        assert "Your move" in large and "Discard" in large and "3 random" in large


# -- the replay viewer --------------------------------------------------------------------------


def _replay(players: int, seed: int) -> Any:
    names = [Player("you" if seat == 0 else "random", "human" if seat == 0 else "bot") for seat in range(players)]
    bots = [RandomBot(seed * 10 + seat) for seat in range(players)]
    return play_game("wyatt_earp", players, bots, seed=seed, players=names).replay


def _shown(viewer: ReplayScreen) -> str:
    """The viewer's table and log (the log as written, not as scrolled)."""
    return widget_text(viewer.query_one(".table")) + "\n".join(viewer.query_one(GameLog).plain_lines)


def _shown_for(viewer: ReplayScreen, state: Any) -> str:
    """What the viewer's table and log show for ``state`` from its point of view (the table
    drawn by the viewer's own widget, the log lines by the same describer)."""
    view, events = state.view(viewer.pov), state.events(viewer.pov)
    table = viewer.query_one(".table")
    table.show(view, events, viewer.names)  # type: ignore[attr-defined]
    describe = viewer.ui.event_describer(events, view)
    lines = [line for line in map(describe, events) if line is not None]
    return widget_text(table) + "\n".join(lines)


async def test_replay_viewer_from_every_seat_never_leaks() -> None:
    """Through the whole game, from each seat and the spectator: the viewer's table and log read
    the same for any deal of the unseen cards; the omniscient view shows them."""
    players = 4
    app = SaloonApp(replay=_replay(players, 13))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        moves = len(viewer.cursor)
        stride = max(1, moves // 14)
        checked = caught = 0
        for pov in [*range(players), None, engine.OMNISCIENT]:
            viewer.pov = pov
            viewer.action_jump("start")
            while True:
                state = viewer.cursor.state
                shown = _shown(viewer)
                if pov == engine.OMNISCIENT:
                    assert "Hands (omniscient view)" in shown
                    caught += _shown_for(viewer, state.resample(0, checked)) != shown
                else:
                    around = pov if pov is not None else checked % players
                    redeal = state.resample(around, checked)
                    assert _shown_for(viewer, redeal) == shown, f"move {viewer.position}, seat {pov}"
                    checked += 1
                if viewer.position == moves:
                    break
                viewer.action_step(stride)  # forward: the log only grows
            assert "GAME OVER" in shown and "══ Game over" in shown
        assert checked > 50 and caught > 10


async def test_replay_viewer_keys_at_80_by_24() -> None:
    app = SaloonApp(replay=_replay(3, 5))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        start = _shown(viewer)
        assert viewer.pov == 0 and "HAND 1" in start and "Your hand (10)" in start
        for _ in range(6):
            await pilot.press("right")
        assert viewer.position == 6
        await pilot.press("n")
        assert viewer.position in viewer.turn_marks and viewer.position > 6
        await pilot.press("p", "home")
        assert viewer.position == 0 and _shown(viewer) == start
        await pilot.press("v", "v", "v")
        assert viewer.pov is None
        assert "Spectator: no hand" in _shown(viewer)
        await pilot.press("end")
        assert viewer.cursor.state.is_over and "GAME OVER" in _shown(viewer)
        assert "══ Game over" in "\n".join(viewer.query_one(GameLog).plain_lines)
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen.id == "help"


# -- the screen parts -----------------------------------------------------------------------------


def _games(players: int, count: int, options: Any = None) -> list[Any]:
    states = []
    for seed in range(count):
        st = GAME.new_game(players, seed, options)
        rng = random.Random(seed)
        while not st.is_over:
            seat = st.to_act[0]
            st.apply(seat, rng.choice(st.legal_actions(seat)))
        states.append(st)
    return states


def test_every_event_has_a_log_line_and_the_table_draws_every_view() -> None:
    seen: set[type] = set()
    for players, options in ((2, None), (3, {"free_photo": True}), (4, {"hideout_reward": 3000})):
        for st in _games(players, 2, options):
            for seat in (0, None, engine.OMNISCIENT):
                view = st.view(seat)
                for event in st.events(seat):
                    line = UI.describe_event(event, view)
                    seen.add(type(event))
                    assert line is None or not line.startswith(type(event).__name__), line
            assert "GAME OVER" in _text(render_table(st.view(0), st.events(0), ["a", "b", "c", "d"]), 100)
    assert len(seen) >= 20


@pytest.mark.parametrize("players", [2, 4])
def test_every_level_of_the_picker_fits_the_digits(players: int) -> None:
    """In every position of random games, each level of the picker (groups within groups) shows
    at most nine items, so every move is a digit or a few away."""
    levels = 0
    for seed in range(3):
        st = GAME.new_game(players, seed)
        rng = random.Random(seed)
        while not st.is_over:
            seat = st.to_act[0]
            legal = st.legal_actions(seat)
            view = st.view(seat)
            stack = [_tree([Choice(UI.describe_action(GAME, a, view), UI.group(a, view), a) for a in legal])]
            while stack:
                node = stack.pop()
                if len(node.all_choices()) <= MAX_FLAT:  # shown flat
                    continue
                levels += 1
                assert len(node.choices) + len(node.groups) <= MAX_FLAT, [c.label for c in node.all_choices()]
                stack.extend(node.groups.values())
            st.apply(seat, rng.choice(legal))
    assert levels > 100


def test_notices_tell_a_seat_what_was_done_to_it() -> None:
    found: dict[str, int] = {}
    for st in _games(4, 3):
        view = st.view(0)
        events = st.events(0)
        notices = UI.notices(events, 0, view)
        hands = sum(isinstance(e, E.HandEnded) for e in events)
        scored = [n for n in notices if n.startswith("Hand ") and "scored" in n]
        assert len(scored) == hands
        hideouts = sum(isinstance(e, E.SheriffPlaced) and e.owner == 0 and e.seat != 0 for e in events)
        stolen = sum(isinstance(e, E.CardStolen) and e.owner == 0 and e.seat != 0 for e in events)
        assert sum("Hideout on your" in n for n in notices) == hideouts
        assert sum("from your territory" in n for n in notices) == stolen
        found["hideout"] = found.get("hideout", 0) + hideouts
        found["stolen"] = found.get("stolen", 0) + stolen
        assert UI.notices(events, len(events), view) == []
        spectator = UI.notices(st.events(None), 0, st.view(None))
        assert all("your" not in n for n in spectator)
    assert found["hideout"] + found["stolen"] > 0


def test_cells_and_hands_in_words() -> None:
    billy = [c for c in CARDS if c.card == "outlaw" and c.outlaw == 0]
    photo = next(c for c in CARDS if c.card == "photo" and c.outlaw == 0)
    belle = next(c for c in CARDS if c.card == "photo" and c.outlaw == 3)
    bank = [c for c in CARDS if c.card == "bank_robbery"]
    wyatt = next(c for c in CARDS if c.card == "wyatt_earp")
    hand = [wyatt, bank[0], belle, billy[2], photo, billy[0], billy[1], bank[1]]
    assert hand_groups(hand) == ["Billy the Kid ×3 +Photo", "Photo (Belle Starr)", "Bank robbery ×2", "Wyatt Earp"]
    assert card_list(hand[:3]) == "Wyatt Earp, Bank robbery, Photo (Belle Starr)"
    group = GroupView(0, (billy[0], billy[1], billy[2], photo, bank[0]), 12, 12)
    assert group_cell(group, leader=True) == "★12 PB"
    hideout = next(c for c in CARDS if c.card == "hideout")
    assert group_cell(GroupView(0, tuple(billy[:3]), 0, 6, hideout), leader=False) == "H:6"
    assert group_cell(None, False) == "·"


def test_the_legend_follows_the_tables_options() -> None:
    assert TABLES["wyatt_earp"] is UI and UI.legend == LEGEND
    ui = UI.for_options({"hideout_reward": 3000, "free_photo": True})
    assert isinstance(ui, WyattEarpUI) and "$3,000" in ui.legend and "free Photo" in ui.legend
    assert "**free Photo**" not in UI.for_options(None).legend and "$1,000" in UI.for_options(None).legend
    assert UI.for_options({"nonsense": 1}).legend == LEGEND


def test_the_replay_viewer_names_a_seat_once_when_the_game_has_no_other_name() -> None:
    from bots import RandomBot, play_game
    from tui.games import ui_for
    from tui.replay_screen import ReplayScreen

    replay = play_game("wyatt_earp", 2, [RandomBot(0), RandomBot(1)], seed=3).replay
    screen = ReplayScreen(replay, ui_for("wyatt_earp"), pov=1)
    assert screen.pov_name(None) == "seat 1 (random)"
