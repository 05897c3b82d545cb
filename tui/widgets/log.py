"""The game log: what happened, as the viewer may know it, one line per event, scrollable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import RichLog

__all__ = ["HIGHLIGHT", "GameLog"]

HIGHLIGHT = "» "
"""Lines that start with this (a fight's result) stand out in the log (bold, reversed)."""


class GameLog(RichLog):
    """A scrollable log of events; it remembers how many events it has shown.

    Call :meth:`show` with the viewer's full event list: only the new ones are added. When the
    list is shorter than what was shown (the replay viewer stepped back, or the point of view
    changed), the log is rewritten.

    A new line does not lay the whole screen out again: Textual's log sets its virtual size (its
    lines, for scrolling) on every write, and a widget's virtual size is a layout reactive, yet
    the log's own size never depends on its lines (CSS sizes it, never ``auto``). Only its
    scrollbar follows the new size; showing or hiding the scrollbar still lays the screen out.
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, min_width=20, max_lines=2000, id=id, classes=classes)
        self.shown = 0
        self.plain_lines: list[str] = []

    def watch_virtual_size(self, size: Size) -> None:
        """The scrollbar follows the lines (what a layout would have done for it)."""
        if self.is_mounted and self.container_size:
            self._scroll_update(size)

    def show(self, events: list[Any], describe: Callable[[Any], str | None], rewrite: bool = False) -> None:
        """Add the events after the ones shown already (all of them if ``rewrite`` or if fewer now)."""
        if rewrite or len(events) < self.shown:
            self.clear()
            self.shown = 0
            self.plain_lines = []
        added = []
        for event in events[self.shown :]:
            line = describe(event)
            if line is None:
                continue
            self.plain_lines.append(line)
            if line.startswith(HIGHLIGHT):
                style = "bold reverse"
            else:
                style = "bold" if line.startswith(("──", "══")) else ""
            added.append(Text(line, style=style))
        if added:  # one write for them all: each write lays the screen out again
            self.write(Text("\n").join(added))
        self.shown = len(events)
