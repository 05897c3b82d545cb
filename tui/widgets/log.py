"""The game log: what happened, as the viewer may know it, one line per event, scrollable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.events import Resize
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import RichLog

from engine import GameCapped

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
        self._styled: list[Text] = []  # every line as written, to wrap again at a new width
        self._wrapped_at = 0

    def watch_virtual_size(self, size: Size) -> None:
        """The scrollbar follows the lines (what a layout would have done for it)."""
        if self.is_mounted and self.container_size:
            self._scroll_update(size)
            if not self.has_focus:  # the newest line in view once its scrollbar shows too
                self.call_after_refresh(self._to_end)

    def on_resize(self, event: Resize) -> None:
        """A new width (the log zoomed to the whole screen, or back): wrap every line again; a
        new size: the newest line stays in view (unless the viewer is in the log, reading)."""
        super().on_resize(event)
        before, self._wrapped_at = self._wrapped_at, event.size.width
        follow = not self.has_focus  # the viewer does not read back in it: its end stays in view
        if before and before != self._wrapped_at and self._styled:
            super().clear()
            self.write(Text("\n").join(self._styled), scroll_end=follow)
        if follow:  # a new height (the screen laid out again) keeps the newest line in view
            self.call_after_refresh(self._to_end)

    def _to_end(self) -> None:
        self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True)

    def show(self, events: list[Any], describe: Callable[[Any], str | None], rewrite: bool = False) -> None:
        """Add the events after the ones shown already (all of them if ``rewrite`` or if fewer now)."""
        if rewrite or len(events) < self.shown:
            self.clear()
            self.shown = 0
            self.plain_lines = []
            self._styled = []
        added = []
        for event in events[self.shown :]:
            line = capped_line(event) if type(event) is GameCapped else describe(event)
            if line is None:
                continue
            self.plain_lines.append(line)
            if line.startswith(HIGHLIGHT):
                style = "bold reverse"
            else:
                style = "bold" if line.startswith(("──", "══")) else ""
            added.append(Text(line, style=style))
        if added:  # one write for them all: each write lays the screen out again
            self._styled.extend(added)
            if self.max_lines and len(self._styled) > self.max_lines:
                del self._styled[: -self.max_lines]
            self._write(Text("\n").join(added))
        self.shown = len(events)

    def note(self, text: str, *, result: bool = False) -> None:
        """Add a line that is not an event: a result the viewer should not miss (``result``: it
        stands out as a fight's result does) or what the screen did (a replay saved, the bots'
        speed), in italics."""
        self.plain_lines.append(text)
        line = Text(text, style="bold reverse" if result else "italic")
        self._styled.append(line)
        self._write(line)

    def _write(self, text: Text) -> None:
        """Write ``text``; its end shows, unless the viewer reads back in the log."""
        self.write(text, scroll_end=self._following())

    def _following(self) -> bool:
        """Whether a new line scrolls the log to its end: not while the viewer, who moved into the
        log, reads an earlier part of it (the keys scroll it there; the end comes back with End)."""
        return not self.has_focus or self.scroll_offset.y >= self.max_scroll_y


def capped_line(event: GameCapped) -> str:
    """The log line of the engine's :class:`engine.GameCapped` (the same in every game)."""
    return f"══ The game reached its cap of {event.decisions:,} decisions: it ends here, scored as it stands ══"
