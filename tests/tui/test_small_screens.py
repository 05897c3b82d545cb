"""Issue 23, "playable at 80x24 by keyboard alone": every region of every game at every size.

For each game, one local table (you and three heuristic bots) is looked at in three positions
(the opening, a mid-game position, the game's end) at 80x24, 100x32 and 200x60 (the terminal is
resized, the app kept). At each, the screen must show, without a key:

* the game's status line at the top (it never scrolls away: the screen itself never scrolls);
* every player's name with their money or points on one line (Wyatt Earp: in their column);
* the moves (at least five lines of them) and the newest log line, and the footer's keys whole;
* no pop-up (toast) anywhere: the news goes to the log and under the moves' title;

and every part of the board must be reachable by the documented keys (``Tab`` to the board,
then ``End``; ``z`` zooms it), as must the start of the log (``Tab`` twice, ``Home``). No widget
is cut short without a way to scroll it (:func:`clipped`). Deadwood Studios' role lists are
reached on the board; Deadwood's players table shows at once. At the end the result box shows
whole, every seat named, ``WINNER`` uncut.

The server table's own lines (the table's head and the seats) and its chat are checked at 80x24
for each game in :func:`test_a_server_table_at_80_by_24`.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from textual.widget import Widget
from textual.widgets import Footer, Input, Static
from tui_helpers import advance, my_turn_or_over, play_screen, table_app, wait_until

import engine
from lobby.store import Store
from lobby.tables import Identity, Lobby, SeatSpec, ServerConfig
from tui import screen_text
from tui.games import ui_for
from tui.games.deadwood_studios import die
from tui.games.deadwood_town import _dollars
from tui.games.wyatt_earp import _kilo, _money
from tui.lobby_screen import SSHApp
from tui.table_screen import ServerTableScreen
from tui.widgets import ActionPicker, GameLog, Regions, ResultScreen

SIZES = [(80, 24), (100, 32), (200, 60)]
GAMES = {  # game id: (seed, the person's decisions from the opening to the mid-game position)
    "deadwood1876": (5, 12),
    "wyatt_earp": (3, 8),
    "deadwood_studios": (8, 14),
    "deadwood_town": (4, 8),
}
STATUS = {
    "deadwood1876": "dw-status",
    "wyatt_earp": "we-status",
    "deadwood_studios": "ds-status",
    "deadwood_town": "dt-status",
}


# -- what the screen shows --------------------------------------------------------------------


def lines_of(app: Any) -> list[str]:
    """The screen as lines of text, as they show now."""
    return screen_text(app, everything=False).splitlines()


def on_one_line(lines: list[str], *parts: str) -> bool:
    """Some line of ``lines`` holds every one of ``parts``."""
    return any(all(part in line for part in parts) for line in lines)


def player_facts(game_id: str, view: Any, names: list[str]) -> list[tuple[str, ...]]:
    """Per player, what must show together on one line: who it is and what they have.

    Deadwood 1876: the character and their first Safe; Deadwood Studios: the die, seat
    and name, dollars and points; Deadwood: seat and name and money. Wyatt Earp's columns hold a
    player's seat and name above their money: :func:`assert_players_shown` looks at those.
    """
    facts: list[tuple[str, ...]] = []
    for p in view.players:
        seat = p.seat
        if game_id == "deadwood1876":
            facts.append((p.character, *(["[1 "] if p.safes else [])))
        elif game_id == "deadwood_studios":
            label = f"{seat} {names[seat]}"[:12]
            facts.append((die(view, seat), label, f" {p.dollars} ", f" {p.points} "))
        elif game_id == "deadwood_town":
            facts.append((f"{seat} {names[seat]}"[:10], _dollars(p.money)))
    return facts


def assert_players_shown(game_id: str, lines: list[str], view: Any, names: list[str]) -> None:
    """Every player's name and money or points on the screen (see :func:`player_facts`)."""
    text = "\n".join(lines)
    if game_id == "wyatt_earp":
        for p in view.players:
            who = "you" if p.seat == view.seat else names[p.seat][:5]
            assert f"{p.seat} {who}" in text, (p.seat, text)
            assert _money(p.money) in text or _kilo(p.money) in text, (p.money, text)
        return
    for fact in player_facts(game_id, view, names):
        assert on_one_line(lines, *fact), (fact, text)


def clipped(screen: Any) -> list[str]:
    """The widgets of ``screen`` whose content does not fit and that the keys cannot scroll:
    a Static cut to a height its text does not fit, or a scrolling widget that is not one of the
    screen's regions (the board, the log, the moves, the chat, the result's box)."""
    reachable: set[Widget] = set()
    if isinstance(screen, Regions):
        reachable = {widget for _, widget in screen.region_widgets()}
        reachable |= set(screen.query("#st-chat"))  # PgUp PgDn on the chat line
    bad = []
    for widget in screen.query("*"):
        if not widget.display or not widget.region.area:
            continue
        if widget.allow_vertical_scroll:
            if widget not in reachable and not (widget.can_focus and isinstance(screen, ResultScreen)):
                bad.append(f"{widget!r} scrolls, but no key reaches it")
        elif isinstance(widget, Static) and not isinstance(widget, Input):
            width = widget.content_region.width
            need = widget.get_content_height(widget.content_region.size, widget.content_region.size, width)
            if need > widget.content_region.height:
                bad.append(f"{widget!r} needs {need} lines, has {widget.content_region.height}")
    return bad


def assert_the_screen_holds_still(app: Any) -> None:
    """The screen itself never scrolls, and its parts lie within it, the footer at the bottom."""
    screen = app.screen
    width, height = app.size
    assert screen.scroll_offset.y == 0
    footer = screen.query_one(Footer)
    assert footer.region.bottom == height
    for part in screen.query("#st-head, #st-seats, #main"):
        assert part.region.bottom <= footer.region.y and part.region.right <= width, part


# -- the keys ---------------------------------------------------------------------------------


async def resize(pilot: Any, app: Any, size: tuple[int, int]) -> None:
    """The terminal at ``size`` (nothing to do if it is already), and the screen laid out anew."""
    if tuple(app.size) != size:
        await pilot.resize_terminal(*size)
    await pilot.pause()


async def reach(pilot: Any, app: Any, text: str, keys: list[str]) -> int:
    """Press ``keys`` one at a time until ``text`` shows; returns how many were pressed.

    Raises:
        AssertionError: ``text`` never showed.
    """
    for pressed in range(len(keys) + 1):
        if text in screen_text(app, everything=False):
            return pressed
        if pressed < len(keys):
            await pilot.press(keys[pressed])
            await pilot.pause()
    raise AssertionError(f"{text!r} not reached with {keys}:\n" + screen_text(app, everything=False))


def start_of(line: str) -> str:
    """The first two words of a log line (they stay on one line however the log wraps it)."""
    return " ".join(line.split()[:2])[:20]


def last_line(static: Static) -> str:
    """The last non-blank line of a Static's text (its start, 30 cells)."""
    content = static.content
    plain = content.plain if hasattr(content, "plain") else str(content)
    return [line.strip() for line in plain.splitlines() if line.strip()][-1][:30]


# -- the checks at a position -----------------------------------------------------------------


def board_text(screen: Any) -> str:
    """All the board holds (every part, whether scrolled into view or not)."""
    table = screen.query_one(".table")
    return "\n".join(str(getattr(s.content, "plain", s.content)) for s in table.query(Static) if s.display)


def assert_on_the_board(screen: Any, shown: str, text: str) -> None:
    """``text`` shows, or the board holds it and scrolls (``Tab`` reaches the board, ``End``,
    ``PgDn`` or ``z`` bring it into view: :func:`check_the_keys` presses them)."""
    if text in shown:
        return
    table = screen.query_one(".table")
    assert text in board_text(screen) and table.allow_vertical_scroll, text


async def check_the_table(app: Any, game_id: str) -> None:
    """Everything the module's docstring asks of a live table's screen, without a key."""
    screen = play_screen(app)
    view = app.session.view()
    lines = lines_of(app)
    shown = "\n".join(lines)
    assert_the_screen_holds_still(app)
    status = last_line(screen.query_one(f"#{STATUS[game_id]}", Static))
    assert status in lines[0], (status, lines[0])  # the status line tops the screen
    assert_players_shown(game_id, lines, view, screen.names)
    picker = screen.query_one(ActionPicker)
    if picker.items:
        assert picker.options.size.height >= 5  # moves, not three of them
        assert picker.items[0][:20] in shown
    log = screen.query_one(GameLog)
    assert log.size.height >= 5 and start_of(log.plain_lines[-1]) in shown
    for key in ("1-9 move", "tab board/log", "z zoom", "? help"):
        assert key in lines[-1], lines[-1]
    assert not app._notifications, "a pop-up covers the screen"
    assert clipped(screen) == []
    table = screen.query_one(".table")
    parts = [s for s in table.query(Static) if s.display and s.id != STATUS[game_id] and str(s.content).strip()]
    assert_on_the_board(screen, shown, last_line(parts[-1]))  # the board's last line
    if game_id == "deadwood_studios" and view.phase != "over":  # every role of every set in play
        for room in view.sets:
            if not room.wrapped:
                for role in (*room.starring, *room.extras):
                    assert_on_the_board(screen, shown, role.name[:20])


async def check_the_keys(pilot: Any, app: Any, game_id: str) -> None:
    """The board and the log by the keys: ``Tab`` (the board), ``End`` shows its last line,
    ``Home``, ``PgDn`` page by page show all of it (Deadwood Studios: every role); ``z`` zooms it
    (the status line stays); ``Esc``: the moves. ``Tab`` twice (the log), ``Home`` its first line,
    ``End`` its newest, ``z`` zooms it to the whole width; ``Esc``: the moves."""
    screen = play_screen(app)
    moves = screen.query_one(ActionPicker).options
    table = screen.query_one(".table")
    parts = [s for s in table.query(Static) if s.display and s.id != STATUS[game_id] and str(s.content).strip()]
    await pilot.press("tab")
    assert screen.focused is table and "board: ↑↓ PgUp PgDn" in screen_text(app, everything=False)
    await reach(pilot, app, last_line(parts[-1]), ["end"])
    status = last_line(screen.query_one(f"#{STATUS[game_id]}", Static))
    assert status in lines_of(app)[0]  # the status line stays on top of a scrolled board
    await pilot.press("home")
    seen = screen_text(app, everything=False)
    while table.scroll_offset.y < table.max_scroll_y:
        await pilot.press("pagedown")
        seen += screen_text(app, everything=False)
    for part in parts:  # every part's lines came into view
        for line in str(getattr(part.content, "plain", part.content)).splitlines():
            assert line.strip()[:30] in seen, line
    await pilot.press("z")
    assert screen.maximized is table and table.size.height == min(app.size.height - 1, table.virtual_size.height)
    assert status in screen_text(app, everything=False)
    await pilot.press("escape")
    assert screen.maximized is None and screen.focused is moves
    log = screen.query_one(GameLog)
    await pilot.press("tab", "tab")
    assert screen.focused is log
    await reach(pilot, app, start_of(log.plain_lines[0]), ["home"])
    await reach(pilot, app, start_of(log.plain_lines[-1]), ["end"])
    await pilot.press("z")
    assert screen.maximized is log and log.size.width >= app.size.width - 1
    await pilot.press("escape")
    assert screen.maximized is None and screen.focused is moves
    table.scroll_home(animate=False, immediate=True)  # as the person left it before, for the next checks


async def check_the_result(app: Any, game_id: str) -> None:
    """The result box whole on the screen, every seat named, ``WINNER`` uncut, no pop-up."""
    screen = app.screen
    assert isinstance(screen, ResultScreen)
    width, height = app.size
    box = screen.query_one("#result-box")
    assert box.region.bottom <= height and box.region.right <= width
    text = screen_text(app, everything=False)
    state = app.session.state
    view = state.view(0)
    ui = ui_for(game_id)
    for seat in range(len(state.outcome.ranks)):
        assert all(word in text for word in ui.seat_name(view, seat).split())
    assert "WINNER" in text and "WI…" not in text
    assert not app._notifications, "a pop-up covers the result"
    assert clipped(screen) == []


# -- the tests --------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", list(GAMES))
async def test_every_region_at_every_size(game_id: str, tmp_path: Path) -> None:
    seed, mid = GAMES[game_id]
    app = table_app(game_id, 4, 0, "heuristic", seed, tmp_path)
    app.animation_level = "none"  # scrolling jumps: nothing to wait for
    rng = random.Random(seed)
    async with app.run_test(size=SIZES[0], notifications=True) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        screen = play_screen(app)
        for size in SIZES:  # the opening: 80x24 first
            await resize(pilot, app, size)
            await check_the_table(app, game_id)
        advance(app.session, mid, rng)
        screen.redraw()
        await wait_until(pilot, lambda: my_turn_or_over(app))
        for size in reversed(SIZES):  # the mid-game position: 80x24 last, then its keys
            await resize(pilot, app, size)
            await check_the_table(app, game_id)
        await check_the_keys(pilot, app, game_id)
        advance(app.session, None, rng)  # the end: the result at 80x24, where pop-ups covered it
        screen.redraw()
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        await pilot.pause()
        await check_the_result(app, game_id)
        await pilot.press("escape")  # look at the table
        assert app.screen is screen
        assert any(line.startswith("Replay saved: ") for line in screen.query_one(GameLog).plain_lines)
        for size in SIZES:
            await resize(pilot, app, size)
            await check_the_table(app, game_id)
            if game_id == "wyatt_earp":
                text = screen_text(app, everything=False)
                assert "WINNER" in text and "WI…" not in text


@pytest.mark.parametrize("game_id", list(GAMES))
async def test_a_server_table_at_80_by_24(
    front: Any, game_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table's head and seats lines whole, the footer whole, the chat (``c``, Esc back) and
    the log (``Tab`` twice, ``PgUp``) reached by the keys, the news said without a pop-up."""
    import lobby.tables

    monkeypatch.setattr(lobby.tables.secrets, "randbits", lambda bits: GAMES[game_id][0])
    lobby_ = Lobby(Store(tmp_path), ServerConfig(bot_delay_s=0))
    alice = Identity("alice", "key-alice")
    seats = [SeatSpec("me"), *[SeatSpec("bot", "heuristic")] * 3]
    table = lobby_.create_table(alice, game_id, 4, seats, None)
    mirror = await front(lobby_)
    app = SSHApp(mirror, alice)
    rng = random.Random(1)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = ServerTableScreen(mirror.table(table.code), sit=True)
        app.push_screen(screen)
        await pilot.pause()
        for moves in (0, 4):  # the opening, then four moves of yours on
            for _ in range(moves):
                await wait_until(pilot, lambda: table.is_over or bool(screen.table.legal_for(screen)), timeout=20)
                if table.is_over:
                    break
                await screen.table.play(screen, rng.choice(screen.table.legal_for(screen)))
            await wait_until(pilot, lambda: table.is_over or bool(screen.table.legal_for(screen)), timeout=20)
            screen.redraw()
            await pilot.pause(0.05)
            lines = lines_of(app)
            assert_the_screen_holds_still(app)
            head = lines[0]
            assert head.strip().startswith(f"Table {table.code}") and "seat 0" in head and "0 watching" in head
            names = table.names()
            seats_text = " ".join(line.strip() for line in lines[1:3])
            assert all(f"{seat}:{name}" in seats_text for seat, name in enumerate(names))
            status = last_line(screen.query_one(f"#{STATUS[game_id]}", Static))
            assert any(status in line for line in lines[1:4])  # under the head and the seats
            view = screen.table.view_for(screen)[1]
            assert_players_shown(
                game_id, lines, view, ["alice (you)" if game_id != "wyatt_earp" else "you", *names[1:]]
            )
            for key in ("tab board/log", "c chat", "? help", "l leave"):
                assert key in lines[-1], lines[-1]
            assert screen.query_one(ActionPicker).options.size.height >= 4
            assert clipped(screen) == []
            assert not app._notifications
        await pilot.press("c")  # the chat line, and back
        assert screen.focused is screen.query_one("#st-say", Input)
        await pilot.press("h", "i", "enter", "escape")
        await pilot.pause()
        assert screen.focused is screen.query_one(ActionPicker).options and table.chat[-1].text == "hi"
        log = screen.query_one(GameLog)
        await pilot.press("tab", "tab")
        assert screen.focused is log
        if log.max_scroll_y:
            await pilot.press("end", "pageup")
            assert log.scroll_offset.y < log.max_scroll_y  # the keys scroll it
        await pilot.press("z")
        await pilot.pause()
        assert screen.maximized is log and log.size.width >= 78
        await pilot.press("escape")
        await pilot.pause()
        assert screen.maximized is None


async def test_news_goes_to_the_log_and_under_the_moves_not_a_pop_up(tmp_path: Path) -> None:
    """What the person should not miss (here: the bots' speed) is told under the moves' title and
    in the log, never as a pop-up over the moves; the person's next move clears the title."""
    app = table_app("deadwood_studios", 3, 0, "random", 3, tmp_path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        screen = play_screen(app)
        await pilot.press("s")
        await pilot.pause()
        assert not app._notifications
        moves = next(k for k, line in enumerate(lines_of(app)) if "Your move" in line)
        assert "Bot speed: slow" in lines_of(app)[moves + 1]  # under the moves' title
        assert screen.query_one(GameLog).plain_lines[-1] == "Bot speed: slow"
        screen.session.delay = 0
        await pilot.press("1")
        await wait_until(pilot, lambda: my_turn_or_over(app))
        picker = screen.query_one(ActionPicker)
        assert "Bot speed" not in str(picker.query_one("#picker-title", Static).content)


def test_the_games_are_the_four() -> None:
    assert set(GAMES) == set(engine.games())
