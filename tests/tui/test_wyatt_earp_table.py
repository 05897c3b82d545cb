"""Wyatt Earp at the table: whole games from the keyboard against random bots, the replay viewer
from every seat's view, and the screen parts (log lines, notices, the picker's groups).

No-leak checks: what a seat is shown (the table, the log, the choices, the notices) must be the
same for every deal of the cards it cannot see. ``state.resample(seat, seed)`` redraws exactly
those (the other hands and the supply), so the screen of a seat must read the same in the real
game and in a resampled one; the omniscient screen, which does show the hands, must not (the
check would catch a leak).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
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
from bots import RandomBot, play_game
from engine.wyatt_earp import actions as A
from engine.wyatt_earp import events as E
from engine.wyatt_earp.components import components
from engine.wyatt_earp.state import CARDS
from engine.wyatt_earp.views import GroupView
from tui import PlaySetup, SaloonApp, screen_text
from tui.games import TABLES, ui_for
from tui.games.wyatt_earp import LEGEND, WyattEarpUI, card_list, group_cell, hand_groups, log_names, render_table
from tui.lobby_screen import SSHApp
from tui.replay_screen import ReplayScreen
from tui.table_screen import ServerTableScreen
from tui.widgets import ActionPicker, GameLog

if "wyatt_earp" not in engine.games():  # registered in engine/__init__.py; kept for older checkouts
    from engine.wyatt_earp import GAME as _GAME

    engine.register("wyatt_earp", lambda: _GAME)

GAME = engine.game("wyatt_earp")
UI = ui_for("wyatt_earp")
OUTLAWS = components().outlaw_names


# -- helpers ----------------------------------------------------------------------------------


def seat_text(state: engine.State, seat: int | None, names: list[str]) -> str:
    """All a seat is shown of ``state``, rendered offline as the screens do: the table (wide and
    compact), every log line, the notices, and (when the seat is to act) the choices."""
    view = state.view(seat)
    events = state.events(seat)
    out = [render_text(render_table(view, events, names, 100), 100)]
    out.append(render_text(render_table(view, events, names, 78, True), 80))
    return "\n".join(out + seat_words(state, seat, GAME, UI))


def assert_no_leak(state: Any, seat: int | None, names: list[str], seed: int = 1) -> None:
    """``seat``'s screen reads the same whatever the cards it cannot see (the spectator: for
    redeals around two seats, so that every hand is redrawn at least once)."""
    assert_same_for_any_redeal(lambda st: seat_text(st, seat, names), state, seat, seed, spectator=(0, 1))


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


SHORT = {
    "Billy the Kid": "Billy",
    "Jesse James": "Jesse",
    "Wes Hardin": "Wes",
    "Belle Starr": "Belle",
    "Bob Dalton": "Bob",
    "Butch Cassidy": "Butch",
    "Sundance Kid": "Sundance",
    "Stagecoach robbery": "Stagecoach",
}
"""The short names a small screen may write in the hand (the Outlaws' first names)."""

SCROLLBAR = " ▁▂▃▄▅▆▇█"


def hand_items(hand: tuple[Any, ...]) -> list[Counter[str]]:
    """The ways the hand line may list ``hand``: each card kind once, with its count (``×2``), an
    Outlaw's Photo with it (``+Photo``) or alone (``Photo (Belle Starr)``); in full names, or in
    short ones (:data:`SHORT`: ``Billy ×2 +P``, ``Photo Belle``)."""
    ways = []
    for short in (False, True):
        name = (lambda n: SHORT.get(n, n)) if short else (lambda n: n)
        items: Counter[str] = Counter()
        outlaws = Counter(c.outlaw for c in hand if c.card == "outlaw")
        photos = {c.outlaw for c in hand if c.card == "photo"}
        for o, outlaw in enumerate(OUTLAWS):
            n = outlaws[o]
            if n:
                photo = (" +P" if short else " +Photo") if o in photos else ""
                items[name(outlaw) + (f" ×{n}" if n > 1 else "") + photo] += 1
            elif o in photos:
                items[f"Photo {name(outlaw)}" if short else f"Photo ({outlaw})"] += 1
        for card, n in Counter(c.name for c in hand if c.outlaw < 0).items():
            items[name(card) + (f" ×{n}" if n > 1 else "")] += 1
        ways.append(items)
    return ways


def shown_hand(screen: str) -> Counter[str]:
    """The items of the hand line on ``screen`` (its first line, ``Your hand (N): ...``, and the
    indented lines that carry it on), each once; fails if the count ``N`` is missing."""
    lines = screen.splitlines()
    start = next(k for k, line in enumerate(lines) if line.lstrip().startswith("Your hand ("))
    text = lines[start].split("):", 1)[1]
    for line in lines[start + 1 :]:
        if not line.startswith("   ") or not line.strip(SCROLLBAR):
            break
        text += " · " + line
    return Counter(item.strip(SCROLLBAR) for item in text.split(" · ") if item.strip(SCROLLBAR))


# -- whole games from the keyboard ------------------------------------------------------------


@pytest.mark.parametrize(("players", "seat", "seed", "size"), [(2, 1, 78, (80, 24)), (4, 0, 12, (100, 32))])
async def test_full_game_from_the_keyboard(players: int, seat: int, seed: int, size: tuple[int, int], tmp_path) -> None:
    app = table_app("wyatt_earp", players, seat, "random", seed, tmp_path)
    async with app.run_test(size=size) as pilot:
        names = play_screen(app).names

        def check(state: engine.State, decisions: int) -> None:
            if decisions % 4 == 0:  # nothing hidden is shown: not on the table, in the log or the choices
                assert_no_leak(state, seat, names, seed=decisions)
            if decisions % 25 == 0:
                shown = screen_text(app, everything=False)
                assert "Your move" in shown and f"HAND {state.view(seat).hand_number}" in shown
                assert "Billy the Kid" in shown and "poster" in shown

        played = await play_from_the_keyboard(pilot, app, GAME, UI, strategy, random.Random(seed), check)
        assert played.decisions > 20 and played.levels > played.decisions  # some moves were inside groups
        assert_no_leak(app.session.state, seat, names)
        assert any("scored" in n for n in play_screen(app).notices)  # each hand's scoring popped up
        await assert_the_game_is_recorded_and_saved(pilot, app)


async def test_help_shows_the_legend_and_the_rules(tmp_path) -> None:
    app = SaloonApp(play=PlaySetup("wyatt_earp", 3, 0, ("random",), 3), speed="instant", replay_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        text, body = await open_help(pilot, app)
        assert "Wyatt Earp: help" in text
        assert "H:6" in body and "Capture the seven Outlaws" in body
        await close_help(pilot, app)


async def test_the_table_fits_small_and_large_terminals(tmp_path) -> None:
    app = SaloonApp(play=PlaySetup("wyatt_earp", 4, 0, ("random",), 8), speed="instant", replay_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        assert play_screen(app).has_class("compact")
        small = screen_text(app, everything=False)
        assert "Your move" in small and play_screen(app).query_one(ActionPicker).options.size.height >= 4
        for seen in ("Billy the Kid", "Sundance Kid", "3 random", "$0 10c", "Your hand (10)"):
            assert seen in small
        assert " hand" in small and "…" not in small  # no column cut short
        assert shown_hand(small) in hand_items(app.session.view().hand)  # the whole hand, under the board
        await pilot.resize_terminal(140, 45)
        await pilot.pause()
        assert not play_screen(app).has_class("compact")
        large = screen_text(app, everything=False)
        assert "Your move" in large and "Discard" in large and "3 random" in large


@pytest.mark.parametrize(("players", "seed"), [(2, 21), (3, 22), (4, 23)])
async def test_the_whole_hand_is_in_view_at_80_by_24(players: int, seed: int, tmp_path) -> None:
    """Issue 37: at 80x24, in every position of a game played at random (one every few moves of
    the person), the screen lists the person's whole hand, each card kind with its count (the
    Wyatt Earps too), whatever shows above it (a shot, the last hand's pay, known cards, a
    scrolled board)."""
    app = table_app("wyatt_earp", players, 0, "random", seed, tmp_path)
    rng = random.Random(seed)
    seen: set[str] = set()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        screen = play_screen(app)
        positions = 0
        while not app.session.state.is_over and positions < 30:
            advance(app.session, rng.randint(1, 4), rng)
            screen.redraw()
            await pilot.pause()
            if app.session.state.is_over:
                break
            if positions % 5 == 4:  # now and then the person has scrolled the board to its end
                screen.query_one(".table").scroll_end(animate=False, immediate=True)
                await pilot.pause()
            shown = screen_text(app, everything=False)
            hand = app.session.view().hand
            assert f"Your hand ({len(hand)}):" in shown, shown
            assert shown_hand(shown) in hand_items(hand), (shown, hand)
            info = render_text(render_table(app.session.view(), app.session.events(), screen.names, 76, True), 80)
            seen |= {word for word in ("Shot:", "paid:", "Known in hands") if word in info}
            screen.query_one(".table").scroll_home(animate=False, immediate=True)
            positions += 1
        assert positions >= 10
    assert "Shot:" in seen  # shots were on the board meanwhile


def test_the_log_names_every_player() -> None:
    assert log_names(["you", "random", "heuristic", "random"]) == (
        "seat 0",
        "random (seat 1)",
        "heuristic",
        "random (seat 3)",
    )
    assert log_names(["alice", "heuristic (bot)", "heuristic (bot)", "(free)"]) == (
        "alice",
        "heuristic (bot, seat 1)",
        "heuristic (bot, seat 2)",
        "seat 3",
    )
    ui = UI.for_options(None)
    ui.names = log_names(["alice", "bob", "carl"])
    view = GAME.new_game(3, 1).view(0)
    assert ui.describe_event(E.TurnStarted(2), view) == "── carl's turn ──"
    assert ui.describe_event(E.TurnStarted(0), view) == "── Your turn ──"
    assert ui.describe_event(E.CardDiscarded(1, CARDS[0]), view) == "bob discards Billy the Kid"
    assert UI.describe_event(E.TurnStarted(2), view) == "── Seat 2's turn ──"  # no names known: seats


SEAT = re.compile(r"(?<!\()(?<!, )\b[Ss]eat \d")
"""``Seat 2`` or ``seat 2`` where a player's name should be (not inside ``name (seat 2)``)."""


async def test_a_local_tables_log_names_players_not_seats(tmp_path) -> None:
    """Issue 37: at a local table at 80x24 the log names the bots by their names (with the seat
    where two share one), never ``Seat N``."""
    app = SaloonApp(
        play=PlaySetup("wyatt_earp", 4, 0, ("random", "heuristic", "random"), 5), speed="instant", replay_dir=tmp_path
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        screen = play_screen(app)
        advance(app.session, 12, random.Random(5))
        screen.redraw()
        await pilot.pause()
        lines = screen.query_one(GameLog).plain_lines
        assert [line for line in lines if SEAT.search(line)] == []
        text = "\n".join(lines)
        assert "random (seat 1)" in text and "heuristic " in text and "random (seat 3)" in text
        assert all(SEAT.search(n) is None for n in screen.notices)


async def test_a_server_tables_log_names_players_not_seats(
    front: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 37: at a server table at 80x24 the log names players as the table's seats line does
    (``alice``, ``random (bot)``; ``heuristic (bot, seat 1)`` where two share a name)."""
    import lobby.tables
    from lobby.store import Store
    from lobby.tables import Identity, Lobby, SeatSpec, ServerConfig

    monkeypatch.setattr(lobby.tables.secrets, "randbits", lambda bits: 3)
    lobby_ = Lobby(Store(tmp_path), ServerConfig(bot_delay_s=0))
    alice = Identity("alice", "key-alice")
    seats = [SeatSpec("me"), SeatSpec("bot", "heuristic"), SeatSpec("bot", "random"), SeatSpec("bot", "heuristic")]
    table = lobby_.create_table(alice, "wyatt_earp", 4, seats, None)
    mirror = await front(lobby_)
    app = SSHApp(mirror, alice)
    rng = random.Random(1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)  # the hall tells the front
        shown = mirror.table(table.code)
        screen = ServerTableScreen(shown, sit=True)
        await app.push_screen(screen)
        await pilot.pause(0.2)
        for _ in range(8):
            await wait_until(pilot, lambda: shown.is_over or bool(shown.legal_for(screen)), timeout=20)
            if shown.is_over:
                break
            await shown.play(screen, rng.choice(shown.legal_for(screen)))
        await wait_until(pilot, lambda: shown.is_over or bool(shown.legal_for(screen)), timeout=20)
        screen.redraw()
        await pilot.pause(0.05)
        lines = screen.query_one(GameLog).plain_lines
        assert [line for line in lines if SEAT.search(line)] == []
        text = "\n".join(lines)
        assert "heuristic (bot, seat 1)" in text and "random (bot)" in text and "heuristic (bot, seat 3)" in text
        hand = shown.view_for(screen)[1].hand
        assert shown_hand(screen_text(app, everything=False)) in hand_items(hand)  # the hand in view here too


# -- the replay viewer --------------------------------------------------------------------------


async def test_replay_viewer_from_every_seat_never_leaks() -> None:
    """Through the whole game, from each seat and the spectator: the viewer's table and log read
    the same for any deal of the unseen cards; the omniscient view shows them."""
    app = SaloonApp(replay=random_replay("wyatt_earp", 4, 13))
    async with app.run_test(size=(100, 32)) as pilot:
        viewer = await open_viewer(pilot, app)
        checked, caught = check_every_point_of_view(viewer, 4, 14, "Hands (omniscient view)")
        assert checked > 50 and caught > 10


async def test_replay_viewer_keys_at_80_by_24() -> None:
    app = SaloonApp(replay=random_replay("wyatt_earp", 3, 5))
    async with app.run_test(size=(80, 24)) as pilot:
        start, spectator = await step_with_keys(pilot, await open_viewer(pilot, app), 3)
        assert "HAND 1" in start and "Your hand (10)" in start
        assert "Spectator: no hand" in spectator
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen.id == "help"


# -- the screen parts -----------------------------------------------------------------------------


def test_every_event_has_a_log_line_and_the_table_draws_every_view() -> None:
    seen: set[type] = set()
    for players, options in ((2, None), (3, {"free_photo": True}), (4, {"hideout_reward": 3000})):
        for st in random_games(GAME, players, 2, options):
            for seat in (0, None, engine.OMNISCIENT):
                view = st.view(seat)
                for event in st.events(seat):
                    line = UI.describe_event(event, view)
                    seen.add(type(event))
                    assert line is None or not line.startswith(type(event).__name__), line
            assert "GAME OVER" in render_text(render_table(st.view(0), st.events(0), ["a", "b", "c", "d"]), 100)
    assert len(seen) >= 20


@pytest.mark.parametrize("players", [2, 4])
def test_every_level_of_the_picker_fits_the_digits(players: int) -> None:
    """In every position of random games, each level of the picker (groups within groups) shows
    at most nine items, so every move is a digit or a few away."""
    _, levels = check_the_picker_fits_the_digits(GAME, UI, players, 3)
    assert levels > 100


def test_notices_tell_a_seat_what_was_done_to_it() -> None:
    found: dict[str, int] = {}
    for st in random_games(GAME, 4, 3):
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
    from tui.games import ui_for

    replay = play_game("wyatt_earp", 2, [RandomBot(0), RandomBot(1)], seed=3).replay
    screen = ReplayScreen(replay, ui_for("wyatt_earp"), pov=1)
    assert screen.pov_name(None) == "seat 1 (random)"
