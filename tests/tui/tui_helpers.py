"""Helpers for the TUI tests: waiting for the app, playing from the keyboard, finding leaks."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

import msgspec
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

import engine
from engine.deadwood1876.events import Card
from replays import Replay
from tui import SaloonApp
from tui.games.deadwood1876 import card_text, short_safe
from tui.play_screen import PlayScreen
from tui.widgets import ActionPicker


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
