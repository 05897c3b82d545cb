"""Helpers for the TUI tests: waiting for the app, playing from the keyboard, finding leaks.

The per-game table tests (Wyatt Earp, Deadwood Studios, Deadwood) share the keyboard driver
(:func:`press`, :func:`choose_from_the_keyboard`, :func:`play_from_the_keyboard`), the end-of-game
checks (:func:`assert_the_game_is_recorded_and_saved`), the help screen (:func:`open_help`,
:func:`close_help`), the no-leak frame (:func:`seat_words`, :func:`assert_same_for_any_redeal`)
and the replay viewer's helpers (:func:`random_replay`, :func:`viewer_text`,
:func:`viewer_text_for`); what each game's screen must show stays in its own test file.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import msgspec
from rich.console import Console
from textual.events import Key
from textual.pilot import Pilot
from textual.widgets import Static

import engine
from bots import RandomBot, play_game
from engine.deadwood1876.events import Card
from replays import Player, Replay, verify
from tui import PlaySetup, SaloonApp, screen_text
from tui.games.deadwood1876 import card_text, short_safe
from tui.play_screen import PlayScreen
from tui.replay_screen import ReplayScreen
from tui.widgets import ActionPicker, GameLog, ResultScreen
from tui.widgets.picker import MAX_FLAT, Choice, _tree


async def wait_until(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the app run until ``condition()`` holds (fails after ``timeout`` seconds)."""
    waited = 0.0
    while not condition():
        assert waited < timeout, "timed out waiting for the app"
        await pilot.pause(0.005)
        waited += 0.005


def play_screen(app: SaloonApp) -> PlayScreen:
    """The live table's screen."""
    screen = app.play_screen
    assert screen is not None
    return screen


def my_turn_or_over(app: SaloonApp) -> bool:
    """True when the person must choose (and the picker shows it) or the game is over."""
    screen = app.play_screen
    if screen is None or app.session is None:
        return False
    if app.session.state.is_over:
        return True
    return app.session.human_to_act() and not screen.bots_running and screen.query_one(ActionPicker).active


async def press_a_choice(pilot: Pilot[Any], app: SaloonApp, rng: random.Random) -> None:
    """Choose one of the shown items from the keyboard: a digit, or arrows and Enter."""
    picker = play_screen(app).query_one(ActionPicker)
    items = [i for i, label in enumerate(picker.items) if label != "‹ back"]
    index = rng.choice(items)
    if index < 9 and rng.random() < 0.7:
        await pilot.press(str(index + 1))
    else:
        picker.options.focus()
        await pilot.press("home", *["down"] * index, "enter")


def widget_text(root: Any, width: int = 120) -> str:
    """The text of every :class:`Static` under ``root`` (rendered at ``width``), top to bottom."""
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    statics = [root] if isinstance(root, Static) else list(root.query(Static))
    for static in statics:
        if static.display:
            console.print(static.content)
    return console.export_text()


def resimulate(replay: Replay) -> engine.State:
    """The replay's moves re-applied to a new game, headless, without the replays package."""
    header = replay.header
    state = engine.game(header.game).new_game(len(header.players), header.seed, header.options)
    for seat, index in replay.move_pairs():
        state.apply(seat, state.legal_actions(seat)[index])
    return state


def _cards_in(obj: Any) -> list[Card]:
    """Every card mentioned in builtins decoded from views or events."""
    found = []
    if isinstance(obj, dict):
        if {"gun", "item", "id"} <= set(obj):
            found.append(msgspec.convert(obj, Card))
        for value in obj.values():
            found.extend(_cards_in(value))
    elif isinstance(obj, list | tuple):
        for value in obj:
            found.extend(_cards_in(value))
    return found


def _card_forms(card: Card) -> set[str]:
    """Every way ``card`` may be written; a white Horse also reads as a plain Horse (without the
    Horse Thief rule its colour does not matter, so the table and the choices leave it out)."""
    items = {card.item.capitalize(), *(["white Horse"] if card.white else [])}
    return {card_text(card), card_text(card, white_horses=False)} | {f"{card.gun.capitalize()} / {i}" for i in items}


def secrets_of(state: engine.State, seat: int | None) -> set[str]:
    """Text that would reveal to ``seat`` what it may not know: others' unknown Safes and hands.

    Strings that ``seat`` may legitimately see anyway (an identical Safe or card it knows of,
    from its view or its events) are left out, so a hit is a real leak.
    """
    everything = state.view(engine.OMNISCIENT)
    mine = state.view(seat)
    known = msgspec.json.encode([mine, state.events(seat)]).decode()
    known_cards = set().union(*(_card_forms(c) for c in _cards_in(msgspec.to_builtins([mine, state.events(seat)]))))
    secret: set[str] = set()
    rows = [(p.safes, m.safes) for p, m in zip(everything.players, mine.players, strict=True) if p.seat != seat]
    if everything.stranger is not None:
        rows.append((everything.stranger.safes, mine.stranger.safes))
    for safes, seen in rows:
        for safe, view_of_it in zip(safes, seen, strict=True):
            label = safe.contents
            if label and view_of_it.contents is None and f'"{label}"' not in known:
                secret |= {label, short_safe(label)}
    for p, hand in enumerate(everything.hands):
        if p != seat:
            for card in hand:
                secret |= _card_forms(card) - known_cards
    return secret


def leaks(text: str, state: engine.State, seat: int | None) -> list[str]:
    """The secrets of ``seat`` (see :func:`secrets_of`) that appear in ``text``."""
    return sorted(s for s in secrets_of(state, seat) if s in text)


# -- the per-game tables: the keyboard, the end of a game, the help ------------------------------


def table_app(game_id: str, players: int, seat: int, bot: str, seed: int, replay_dir: Path) -> SaloonApp:
    """A local table of ``game_id``: the person at ``seat``, every other seat a ``bot`` (a bot
    name), bots at instant speed; "play again" deals seed 4242; replays saved in ``replay_dir``."""
    setup = PlaySetup(game_id, players, seat, (bot,), seed)
    return SaloonApp(play=setup, speed="instant", next_seed=lambda: 4242, replay_dir=replay_dir)


async def press(pilot: Any, *keys: str) -> None:
    """Press ``keys`` as the terminal sends them (key events to the app), each handled before the
    next. Lighter than ``Pilot.press``, which also waits for the whole process to idle (some
    40 ms a key): a whole game is some hundred decisions."""
    for key in keys:
        pilot.app.post_message(Key(key, key if len(key) == 1 else None))
        await pilot.pause(0)


async def choose_from_the_keyboard(pilot: Any, app: SaloonApp, action: Any, game: engine.Game, ui: Any) -> int:
    """Press the keys that lead the picker to ``action`` (labelled and grouped by the table's
    ``ui`` for ``game``): a digit per level (arrows and Enter past the ninth item); returns the
    number of levels gone through.

    Raises:
        AssertionError: the action's label is not reached through its groups.
    """
    picker = play_screen(app).query_one(ActionPicker)
    view = app.session.view()
    label = ui.describe_action(game, action, view)
    path = ui.group(action, view)
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


class KeyboardGame(msgspec.Struct, frozen=True):
    """What :func:`play_from_the_keyboard` did: the person's ``decisions``, the picker ``levels``
    gone through for them (more than one a decision: some moves were inside groups), and the
    ``kinds`` (action classes) chosen."""

    decisions: int
    levels: int
    kinds: frozenset[type]


async def play_from_the_keyboard(
    pilot: Any,
    app: SaloonApp,
    game: engine.Game,
    ui: Any,
    strategy: Callable[[Any, list[Any], random.Random], Any],
    rng: random.Random,
    check: Callable[[engine.State, int], None],
) -> KeyboardGame:
    """Play the person's seat to the end from the keyboard, then wait for the result screen.

    At each of the person's turns, ``check(state, decisions so far)`` looks at the table (the
    game's own assertions), then ``strategy(view, legal, rng)`` picks the move that
    :func:`choose_from_the_keyboard` presses; the next turn waits until the move is recorded.
    """
    decisions = levels = 0
    kinds: set[type] = set()
    while True:
        await wait_until(pilot, lambda: my_turn_or_over(app))
        state = app.session.state
        if state.is_over:
            break
        check(state, decisions)
        before = app.session.recorder.num_moves
        wanted = strategy(app.session.view(), app.session.legal_actions(), rng)
        kinds.add(type(wanted))
        levels += await choose_from_the_keyboard(pilot, app, wanted, game, ui)
        await wait_until(pilot, lambda before=before: app.session.recorder.num_moves > before)
        decisions += 1
    await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
    await pilot.pause()
    return KeyboardGame(decisions, levels, frozenset(kinds))


async def assert_the_game_is_recorded_and_saved(pilot: Any, app: SaloonApp) -> None:
    """After a finished game: the recorded replay replays (headless and verified) to the same
    outcome and digest, no bot faulted, the result shows the seed, and ``w`` saves the replay."""
    session = app.session
    replay = session.replay()
    assert resimulate(replay).outcome == session.state.outcome == replay.outcome
    assert verify(replay).digest() == session.state.digest()
    assert session.faults == []
    assert "seed" in screen_text(app, everything=False)
    await pilot.press("w")  # save the replay
    await pilot.pause()
    assert app.saved and app.saved[0].exists()


async def open_help(pilot: Any, app: SaloonApp) -> tuple[str, str]:
    """Press ``?`` at the table; returns the help screen's text and its Markdown blocks' text."""
    await pilot.press("question_mark")
    await pilot.pause()
    assert app.screen.id == "help"
    text = screen_text(app, everything=False)
    assert "Reading the table" in text
    return text, "\n".join(widget_text(m) for m in app.screen.query("MarkdownBlock"))


async def close_help(pilot: Any, app: SaloonApp) -> None:
    """Press Escape on the help screen: back to the table."""
    await pilot.press("escape")
    await pilot.pause()
    assert app.screen is play_screen(app)


# -- the no-leak frame ------------------------------------------------------------------------


def render_text(parts: Iterable[Any], width: int) -> str:
    """Rich renderables printed one after another at ``width`` columns, as plain text."""
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    for part in parts:
        console.print(part)
    return console.export_text()


def seat_words(state: engine.State, seat: int | None, game: engine.Game, ui: Any) -> list[str]:
    """All a seat reads of ``state`` besides the table: every log line (an empty line where the
    log shows none), the notices, and (when the seat is to act) each choice with its groups."""
    view = state.view(seat)
    events = state.events(seat)
    describe = ui.event_describer(events, view)
    out = [describe(e) or "" for e in events]
    out += ui.notices(events, 0, view)
    if isinstance(seat, int) and seat >= 0 and seat in state.to_act:
        out += [f"{ui.group(a, view)} {ui.describe_action(game, a, view)}" for a in state.legal_actions(seat)]
    return out


def assert_same_for_any_redeal(
    shown: Callable[[engine.State], str], state: engine.State, seat: int | None, seed: int, spectator: Iterable[int]
) -> None:
    """``shown(state)`` (what ``seat`` is shown) reads the same after ``state.resample(around,
    seed)`` redraws what ``around`` cannot see: ``around`` is ``seat``, or for the spectator
    each seat of ``spectator``."""
    before = shown(state)
    for around in [seat] if seat is not None else spectator:
        assert shown(state.resample(around, seed)) == before, f"seat {seat} sees something hidden"


# -- the replay viewer ------------------------------------------------------------------------


def random_replay(game_id: str, players: int, seed: int) -> Replay:
    """A whole game of ``game_id`` by random bots (seeded ``seed * 10 + seat``): seat 0 is named
    "you" (a human), the others "random"."""
    names = [Player("you" if seat == 0 else "random", "human" if seat == 0 else "bot") for seat in range(players)]
    bots = [RandomBot(seed * 10 + seat) for seat in range(players)]
    return play_game(game_id, players, bots, seed=seed, players=names).replay


def viewer_text(viewer: ReplayScreen) -> str:
    """The viewer's table and log (the log as written, not as scrolled)."""
    return widget_text(viewer.query_one(".table")) + "\n".join(viewer.query_one(GameLog).plain_lines)


def viewer_text_for(viewer: ReplayScreen, state: engine.State) -> str:
    """What the viewer's table and log show for ``state`` from its point of view (the table
    drawn by the viewer's own widget, the log lines by the same describer)."""
    view, events = state.view(viewer.pov), state.events(viewer.pov)
    table = viewer.query_one(".table")
    table.show(view, events, viewer.names)  # type: ignore[attr-defined]
    describe = viewer.ui.event_describer(events, view)
    lines = [line for line in map(describe, events) if line is not None]
    return widget_text(table) + "\n".join(lines)


def random_games(game: engine.Game, players: int, count: int, options: Any = None) -> list[engine.State]:
    """``count`` finished games of ``players`` (seeds 0, 1, ...), every move chosen at random
    (``random.Random(seed)``)."""
    states = []
    for seed in range(count):
        st = game.new_game(players, seed, options)
        rng = random.Random(seed)
        while not st.is_over:
            seat = st.to_act[0]
            st.apply(seat, rng.choice(st.legal_actions(seat)))
        states.append(st)
    return states


async def open_viewer(pilot: Any, app: SaloonApp) -> ReplayScreen:
    """Wait for ``app`` (started with a replay) to show its replay viewer; returns the viewer."""
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
    viewer = app.screen
    assert isinstance(viewer, ReplayScreen)
    return viewer


def check_every_point_of_view(viewer: ReplayScreen, players: int, stops: int, omniscient: str) -> tuple[int, int]:
    """Step the viewer through its whole replay (some ``stops`` positions) from each seat, the
    spectator and the omniscient view, as :func:`viewer_text` reads it.

    From a seat or the spectator, the table and the log must read the same for a redeal of what
    that point of view cannot see (for the spectator, around each seat in turn); the omniscient
    view must show ``omniscient``; every point of view ends on "GAME OVER" and the log's
    "══ Game over". Returns ``(checked, caught)``: the positions checked from a seat or the
    spectator, and the omniscient positions where a redeal changed the screen (the check would
    catch a leak).
    """
    moves = len(viewer.cursor)
    stride = max(1, moves // stops)
    checked = caught = 0
    for pov in [*range(players), None, engine.OMNISCIENT]:
        viewer.pov = pov
        viewer.action_jump("start")
        while True:
            state = viewer.cursor.state
            shown = viewer_text(viewer)
            if pov == engine.OMNISCIENT:
                assert omniscient in shown
                caught += viewer_text_for(viewer, state.resample(0, checked)) != shown
            else:
                around = pov if pov is not None else checked % players
                redeal = state.resample(around, checked)
                assert viewer_text_for(viewer, redeal) == shown, f"move {viewer.position}, seat {pov}"
                checked += 1
            if viewer.position == moves:
                break
            viewer.action_step(stride)  # forward: the log only grows
        assert "GAME OVER" in shown and "══ Game over" in shown
    return checked, caught


async def step_with_keys(pilot: Any, viewer: ReplayScreen, players: int) -> tuple[str, str]:
    """Drive the viewer of a ``players``-seat replay from the keyboard, from its start (seat 0's
    view): → six times (move 6), ``n`` (a later turn's start), ``p`` and Home (the start again,
    as first shown), ``v`` once a seat (the spectator), End (the game over, on the table and in
    the log). Returns what :func:`viewer_text` read at the start, and then the spectator's."""
    start = viewer_text(viewer)
    assert viewer.pov == 0
    for _ in range(6):
        await pilot.press("right")
    assert viewer.position == 6
    await pilot.press("n")
    assert viewer.position in viewer.turn_marks and viewer.position > 6
    await pilot.press("p", "home")
    assert viewer.position == 0 and viewer_text(viewer) == start
    await pilot.press(*["v"] * players)
    assert viewer.pov is None
    spectator = viewer_text(viewer)
    await pilot.press("end")
    assert viewer.cursor.state.is_over and "GAME OVER" in viewer_text(viewer)
    assert "══ Game over" in "\n".join(viewer.query_one(GameLog).plain_lines)
    return start, spectator


def check_the_picker_fits_the_digits(
    game: engine.Game, ui: Any, players: int, seeds: int, distinct_labels: bool = False
) -> tuple[int, int]:
    """Play random games of ``players`` (seeds 0 to ``seeds - 1``, ``random.Random(seed)``
    choosing) and at every position build the picker's tree of the legal moves as ``ui`` labels
    and groups them: each level shown in groups (more than nine choices in all) must show at
    most nine items, so every move is a digit or a few away; with ``distinct_labels``, no two
    moves may read the same. Returns ``(positions, levels)``: the positions seen and the levels
    shown in groups."""
    positions = levels = 0
    for seed in range(seeds):
        st = game.new_game(players, seed)
        rng = random.Random(seed)
        while not st.is_over:
            seat = st.to_act[0]
            legal = st.legal_actions(seat)
            view = st.view(seat)
            labels = [ui.describe_action(game, a, view) for a in legal]
            if distinct_labels:
                assert len(set(labels)) == len(labels), labels
            stack = [_tree([Choice(label, ui.group(a, view), a) for label, a in zip(labels, legal, strict=True)])]
            while stack:
                node = stack.pop()
                if len(node.all_choices()) <= MAX_FLAT:  # shown flat
                    continue
                levels += 1
                assert len(node.choices) + len(node.groups) <= MAX_FLAT, [c.label for c in node.all_choices()]
                stack.extend(node.groups.values())
            st.apply(seat, rng.choice(legal))
            positions += 1
    return positions, levels


# -- positions for the small-screen tests and the screenshots -----------------------------------


def advance(table: Any, decisions: int | None, rng: random.Random) -> int:
    """Play a local ``table`` on without its screen: the person's seat picks at random (``rng``),
    each bot seat asks its bot, until the person has made ``decisions`` more decisions and is to
    act again with no bot owing one (``None``: until the game is over). Returns the decisions made.

    The screen shows the new position once it is drawn again (``redraw``); its bots must be idle.
    """
    made = 0
    state = table.state
    while not state.is_over:
        bot_seat = table.next_bot()
        if bot_seat is not None:
            bot = table.bots[bot_seat]
            table.play_bot(bot_seat, bot.act(state.view(bot_seat), state.legal_actions(bot_seat), bot_seat))
            continue
        if decisions is not None and made >= decisions:
            break
        table.play(rng.choice(table.legal_actions()))
        made += 1
    return made
