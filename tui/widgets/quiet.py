"""Screen parts that send less over SSH: an input line and Static updates that skip what did not change.

Over SSH every screen update is work for the server's one event loop, shared by every session: a
Static's :meth:`~textual.widgets.Static.update` lays the whole screen out again (every widget's
size and place, then a render of every widget in the changed area), even when the new content is
the one already shown. These helpers keep redraws to what changed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from rich.text import Text
from textual.geometry import Size
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static

__all__ = ["LineInput", "content_key", "update_static"]


class LineInput(Input):
    """Textual's :class:`~textual.widgets.Input` without the screen-wide work per keystroke.

    * The cursor does not blink: over SSH every blink is a screen update sent.
    * Typing does not lay the whole screen out again. Textual's input sets its virtual size (the
      text's width, for horizontal scrolling) on every change of its value, and a widget's virtual
      size is a layout reactive: each keystroke re-arranged the screen and re-rendered every other
      widget on it (the lobby's table list among them), in each of a hundred typing sessions. The
      input's own size never depends on its text (CSS fixes its width and height, never ``auto``),
      so a repaint of the input is enough; its scrolling still reads the new virtual size.
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def on_mount(self) -> None:
        """No blinking cursor."""
        self.cursor_blink = False


def content_key(content: Any) -> Any:
    """What decides how ``content`` looks, comparable with ``==``; ``None`` if unknown.

    A ``str`` is its own key; a :class:`rich.text.Text` is its text, spans, style and wrapping
    settings; anything else (a rich Table, a Pretty) has no key: it is always drawn anew.
    """
    if isinstance(content, str):
        return ("str", content)
    if isinstance(content, Text):
        return (
            "text",
            content.plain,
            tuple(content.spans),
            str(content.style),
            content.justify,
            content.overflow,
            content.no_wrap,
            content.end,
        )
    return None


def update_static(static: Static, content: Any, *, same_size: bool = False) -> bool:
    """Show ``content`` in ``static`` unless it shows exactly that already.

    ``same_size``: the caller knows ``content`` takes as many lines as what is shown (a countdown
    whose digits change): the Static is repainted without laying the screen out again. It is
    honoured only when the text's length is also unchanged.

    Returns:
        True if the Static was updated, False if it already showed ``content``.
    """
    key = content_key(content)
    if key is not None and key == content_key(static.content):
        return False
    layout = True
    if same_size and isinstance(content, Text) and isinstance(static.content, Text):
        layout = content.cell_len != static.content.cell_len or content.plain.count("\n") != static.content.plain.count(
            "\n"
        )
    static.update(content, layout=layout)
    return True


class Throttle:
    """Coalesces change notifications into at most one redraw per ``interval()`` seconds: call it
    at each change; over SSH every redraw lays out and renders the whole screen.

    Args:
        screen: the screen that redraws (nothing is drawn while it is not attached).
        redraw: draws the screen anew.
        interval: the least time between two redraws, in seconds (asked at each change).
        spread: the first redraw after a quiet time waits a random 0..``spread`` seconds.
    """

    def __init__(
        self, screen: Screen[Any], redraw: Callable[[], None], interval: Callable[[], float], spread: float = 0.0
    ) -> None:
        self._screen = screen
        self._redraw = redraw
        self._interval = interval
        self._spread = spread
        self._scheduled = False
        self._last = 0.0

    def __call__(self) -> None:
        if self._scheduled:
            return
        self._scheduled = True
        wait = max(0.0, self._last + self._interval() - time.monotonic())
        if self._spread:
            wait = max(wait, random.uniform(0.0, self._spread))
        app = self._screen.app
        if wait == 0:
            app.call_later(self._fire)
        else:
            app.call_later(lambda: self._screen.set_timer(wait, self._fire))

    def _fire(self) -> None:
        self._scheduled = False
        self._last = time.monotonic()
        if self._screen.is_attached:
            self._redraw()


def update_grid(
    grid: DataTable[str],
    columns: Sequence[Any],
    keys: list[str],
    rows: list[tuple[str, ...]],
    shown_keys: list[str],
    shown_rows: list[tuple[str, ...]],
) -> bool:
    """Show ``rows`` (one per key) in ``grid``, changing only what differs from what it shows
    (``shown_keys`` and ``shown_rows``, as the caller last passed them): a DataTable cleared and
    filled anew lays the whole screen out again.

    The same keys in the same order: only the cells whose text changed are updated. Otherwise
    the rows are laid anew, the cursor staying on the row it was on (by key) if that is still there.

    Returns:
        True if anything was drawn.
    """
    if keys == shown_keys and rows == shown_rows:
        return False
    if keys == shown_keys:
        for key, row, old in zip(keys, rows, shown_rows, strict=True):
            for column, cell, old_cell in zip(columns, row, old, strict=True):
                if cell != old_cell:
                    grid.update_cell(key, column, cell, update_width=True)
        return True
    selected = shown_keys[grid.cursor_row] if 0 <= grid.cursor_row < len(shown_keys) else None
    grid.clear()
    for key, row in zip(keys, rows, strict=True):
        grid.add_row(*row, key=key)
    if selected in keys:
        grid.move_cursor(row=keys.index(selected))
    return True
