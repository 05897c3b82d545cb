"""An asciinema recording of a replay as the spectator sees it (``saloon replay FILE --asciicast OUT``).

The recording is an `asciicast v2 <https://docs.asciinema.org/manual/asciicast/v2/>`_ file: a
JSON header line (``version``, ``width``, ``height``, ``title``, ``env``), then one JSON array a
line per event, ``[seconds, "o", terminal output]``. It plays in ``asciinema play`` and in
asciinema-player, so a game can be shared as a short film of its screen.

Each position of the game, from the start to the last move, is drawn by the replay viewer
(:class:`tui.replay_screen.ReplayScreen`) at the spectator's point of view (``pov=None``: the
public view, never a seat's hidden cards), in Textual's headless mode at the recording's size.
The first frame is sent whole; each later one only as the cells that changed, as a
:class:`tui.widgets.screen_diff.ScreenDiff` writes them for an SSH session (a log that moves up
is scrolled by the terminal). Frames are ``step`` seconds apart and the last is held
:data:`HOLD_LAST` seconds.

What is shared is only what a spectator sees: the title names the game and the players, never
the seed (a known seed reveals every deck and hand); there is no ``timestamp`` either (a replay
stores no date), so the same replay, size and step always give the same file.

>>> from tui.asciicast import write_cast
>>> write_cast(replay, "game.cast", size=(80, 24), step=1.0)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

from rich.color import ColorSystem
from textual.app import App
from textual.pilot import Pilot

import engine
from replays import Replay, atomic_write, printable
from tui.app import SaloonApp
from tui.games import ui_for
from tui.replay_screen import ReplayScreen
from tui.widgets.screen_diff import ScreenDiff

__all__ = [
    "DEFAULT_SIZE",
    "DEFAULT_STEP",
    "HOLD_LAST",
    "CastInfo",
    "check_step",
    "parse_size",
    "record",
    "record_frames",
    "write_cast",
]

DEFAULT_SIZE = (80, 24)
"""The terminal's columns and rows when none are asked for."""

DEFAULT_STEP = 1.0
"""Seconds between two positions when none are asked for."""

HOLD_LAST = 3.0
"""Seconds the last position stays on the screen before the recording ends."""

MIN_SIZE = (40, 10)
"""The smallest terminal recorded (the viewer needs some room)."""

MAX_SIZE = (500, 200)
"""The largest terminal recorded (a larger one only makes the file larger)."""

MAX_STEP = 3600.0
"""The longest pause between two positions, in seconds."""

TERM = "xterm-256color"
"""The terminal the output is written for (the header's ``env``): 256 colours."""

_SETTLE_ROUNDS = 20
"""How many rounds :func:`_settle` gives a screen before it waits as Textual's own tests do."""

_START = "\x1b[?25l\x1b[0m\x1b[2J\x1b[H"
"""Before the first frame: the cursor hidden (as Textual hides it), the screen cleared."""

_END = "\x1b[0m\x1b[?25h"
"""When the last frame has been held: the cursor shown again (for the terminal of ``asciinema play``)."""


@dataclass(frozen=True)
class CastInfo:
    """What :func:`write_cast` wrote.

    Attributes:
        path: the file.
        frames: the positions drawn (the start and one per move).
        events: the output events in the file.
        size_bytes: the file's size.
        duration: the recording's length in seconds.
    """

    path: Path
    frames: int
    events: int
    size_bytes: int
    duration: float


def parse_size(text: str) -> tuple[int, int]:
    """``"COLSxROWS"`` (such as ``"80x24"``) as ``(columns, rows)``.

    Raises:
        ValueError: not of that form, or outside :data:`MIN_SIZE` .. :data:`MAX_SIZE`.
    """
    match = re.fullmatch(r"(\d{1,4})[xX](\d{1,4})", text.strip())
    if match is None:
        raise ValueError(f"bad --size {printable(text)!r}: expected COLSxROWS, such as 80x24")
    width, height = int(match[1]), int(match[2])
    if not (MIN_SIZE[0] <= width <= MAX_SIZE[0] and MIN_SIZE[1] <= height <= MAX_SIZE[1]):
        low, high = "x".join(map(str, MIN_SIZE)), "x".join(map(str, MAX_SIZE))
        raise ValueError(f"--size {width}x{height} is out of range: from {low} to {high}")
    return width, height


def check_step(step: float) -> float:
    """``step`` if it is a pause between positions this module records (more than 0, at most
    :data:`MAX_STEP` seconds).

    Raises:
        ValueError: it is not.
    """
    if not (math.isfinite(step) and 0 < step <= MAX_STEP):
        raise ValueError(f"--step must be more than 0 and at most {MAX_STEP:g} seconds, not {step:g}")
    return step


class _SpectatorApp(App[None]):
    """The replay viewer alone, at the spectator's point of view, styled as :class:`tui.SaloonApp`."""

    TITLE = SaloonApp.TITLE
    CSS_PATH = SaloonApp.CSS_PATH

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self._replay = replay

    def on_mount(self) -> None:
        """Open the viewer at the spectator's view."""
        self.push_screen(ReplayScreen(self._replay, ui_for(self._replay.header.game), pov=None))


async def _settle(pilot: Pilot[None]) -> None:
    """Let the screen finish drawing what it was told: every message handled, the layout and the
    repaint done, the callbacks waiting for a refresh (a log scrolled to its end) run.

    :meth:`textual.pilot.Pilot.pause` makes sure of that too, but sleeps until the process is
    idle besides: four times slower a frame, and slower still on a busy machine. The recordings
    are the same byte for byte (checked on a game of each of the four).
    """
    screen = pilot.app.screen
    for _ in range(_SETTLE_ROUNDS):
        await pilot._wait_for_screen()
        screen._on_timer_update()
        await pilot._wait_for_screen()
        await screen._invoke_and_clear_callbacks()
        pending = screen._layout_required or screen._scroll_required or screen._repaint_required
        if not (pending or screen._recompose_required or screen._dirty_widgets):
            return
    await pilot.pause()  # still busy: wait as Textual's own tests do


async def record_frames(replay: Replay, size: tuple[int, int] = DEFAULT_SIZE) -> list[str]:
    """The terminal output of each position of ``replay`` (the start first) on the spectator's
    screen: the first frame every cell, the others only the cells that changed.

    Args:
        replay: a replay (the viewer re-simulates it: one that does not verify raises
            :class:`replays.ReplayError`).
        size: the terminal's ``(columns, rows)``.

    Returns:
        One string of terminal output per position, to be written in order.
    """
    app = _SpectatorApp(replay)
    app.animation_level = "none"
    diff = ScreenDiff()
    frames: list[str] = []
    width, height = size
    async with app.run_test(size=size) as pilot:
        await pilot.pause()  # the viewer open, the footer's keys shown
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen), "the replay viewer did not open"
        for position in range(len(viewer.cursor) + 1):
            if position != viewer.position:
                viewer.cursor.goto(position)
                viewer.redraw()
            await _settle(pilot)
            update = viewer._compositor.render_update(full=True)
            output = diff.encode(update, width, height, ColorSystem.EIGHT_BIT)
            assert output is not None, "the viewer drew a cell that no terminal can show"
            frames.append(output)
    return frames


def _title(replay: Replay) -> str:
    """The recording's title: the game and the players (printable), not the seed."""
    names = ", ".join(printable(player.name) for player in replay.header.players)
    return f"{engine.game(replay.header.game).title}: {names}"


def record(replay: Replay, size: tuple[int, int] = DEFAULT_SIZE, step: float = DEFAULT_STEP) -> str:
    """The asciicast v2 recording of ``replay`` as the spectator sees it (see the module).

    Args:
        replay: a verified replay (the viewer re-simulates it: one that does not verify raises
            :class:`replays.ReplayError`).
        size: the terminal's ``(columns, rows)``.
        step: seconds between two positions.

    Returns:
        The file's text: the header line, then one line per event, each ending in a newline.

    Raises:
        ValueError: a size or step out of range.
    """
    width, height = parse_size(f"{size[0]}x{size[1]}")
    check_step(step)
    frames = asyncio.run(record_frames(replay, (width, height)))
    header = {"version": 2, "width": width, "height": height, "title": _title(replay), "env": {"TERM": TERM}}
    lines = [json.dumps(header, ensure_ascii=False)]
    moment = 0.0
    for position, output in enumerate(frames):
        moment = round(position * step, 6)
        if position == 0:
            output = _START + output
        if output:
            lines.append(json.dumps([moment, "o", output], ensure_ascii=False))
    lines.append(json.dumps([round(moment + HOLD_LAST, 6), "o", _END]))
    return "\n".join(lines) + "\n"


def write_cast(
    replay: Replay, path: Path | str, size: tuple[int, int] = DEFAULT_SIZE, step: float = DEFAULT_STEP
) -> CastInfo:
    """Write :func:`record`'s recording of ``replay`` to ``path``, whole or not at all.

    Args:
        replay: a verified replay.
        path: the file to write (its directory must exist).
        size: the terminal's ``(columns, rows)``.
        step: seconds between two positions.

    Returns:
        What was written.

    Raises:
        ValueError: a size or step out of range.
        OSError: ``path`` cannot be written (it is then unchanged).
    """
    text = record(replay, size, step)
    data = text.encode()
    path = Path(path)
    atomic_write(path, data)
    lines = text.splitlines()
    duration = float(json.loads(lines[-1])[0])
    return CastInfo(path, len(replay.move_pairs()) + 1, len(lines) - 1, len(data), duration)
