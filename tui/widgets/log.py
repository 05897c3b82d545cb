"""The game log: what happened, as the viewer may know it, one line per event, scrollable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

from rich.style import Style
from rich.text import Text
from textual.events import Resize
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widgets import RichLog

from engine import GameCapped
from tui.widgets.quiet import _repaint_rows

__all__ = ["HIGHLIGHT", "GameLog", "QuietScrollBar"]

HIGHLIGHT = "» "
"""Lines that start with this (a fight's result) stand out in the log (bold, reversed)."""


class QuietScrollBar(ScrollBar):
    """A scrollbar that repaints only its rows that change when it moves or its window grows (a
    log's thumb moves a fraction of a row per new line: Textual's scrollbar repaints every row)."""

    window_virtual_size: Reactive[int] = Reactive(100, repaint=False)
    window_size: Reactive[int] = Reactive(0, repaint=False)
    position: Reactive[float] = Reactive(0, repaint=False)

    def watch_window_virtual_size(self) -> None:
        self._repaint_bar()

    def watch_window_size(self) -> None:
        self._repaint_bar()

    def watch_position(self) -> None:
        self._repaint_bar()

    _repainting = False

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        """A whole repaint (what Textual asks of a log's scrollbar at each new line) repaints only
        the rows that changed; anything else is Textual's refresh."""
        if regions or layout or recompose or not repaint or self._repainting:
            return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        self._repaint_bar()
        return self

    _pending = False

    def _repaint_bar(self) -> None:
        """Repaint the rows that changed, once for all the changes of this turn of the loop (a
        new line changes the window, then the position, then asks for a whole repaint)."""
        if not self._pending:
            self._pending = True
            self.call_next(self._repaint_now)

    def _repaint_now(self) -> None:
        self._pending = False
        width, height = self.size
        self._repainting = True
        try:
            if not (self.is_mounted and self.display and width and height and self.parent is not None):
                self.refresh()
                return
            visual = visualize(self, self.render(), markup=False)
            _repaint_rows(self, Visual.to_strips(self, visual, width, height, self.visual_style))
        finally:
            self._repainting = False


class GameLog(RichLog):
    """A scrollable log of events; it remembers how many events it has shown.

    Call :meth:`show` with the viewer's full event list: only the new ones are added. When the
    list is shorter than what was shown (the replay viewer stepped back, or the point of view
    changed), the log is rewritten.

    A new line does not lay the whole screen out again: Textual's log sets its virtual size (its
    lines, for scrolling) on every write, and a widget's virtual size is a layout reactive, yet
    the log's own size never depends on its lines (CSS sizes it, never ``auto``). Only its
    scrollbar follows the new size; showing or hiding the scrollbar still lays the screen out.

    Nor does it draw the log twice, or every line of it anew: Textual's log repaints itself when
    a line is written, and again once it has scrolled to the new end (after the screen's next
    refresh). This log scrolls at once, and a scroll moves the lines it has drawn already up (or
    down) in its cache of drawn lines: only the lines that come into view are drawn. Its
    scrollbar repaints only the rows that change (:class:`QuietScrollBar`).
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        """The log's vertical scrollbar: a :class:`QuietScrollBar`."""
        bar = super().vertical_scrollbar
        if type(bar) is ScrollBar:
            bar.__class__ = QuietScrollBar
        return bar

    _pass_style: Style | None = None  # the log's style during one drawing of its lines

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, min_width=20, max_lines=2000, id=id, classes=classes)
        self.shown = 0
        self.plain_lines: list[str] = []
        self._styled: list[Text] = []  # every line as written, to wrap again at a new width
        self._wrapped_at = 0
        self._rows = 0  # the lines the log showed at its last size

    def watch_virtual_size(self, size: Size) -> None:
        """The scrollbar follows the lines (what a layout would have done for it)."""
        if self.is_mounted and self.container_size:
            self._scroll_update(size)
            if not self.has_focus:  # the newest line in view once its scrollbar shows too
                self.call_after_refresh(self._to_end)

    def on_resize(self, event: Resize) -> None:
        """A new width (the log zoomed to the whole screen, or back): wrap every line again; a
        new size: the newest line stays in view (unless the viewer is in the log, reading)."""
        # at its end as shown until now (or as far as the new size lets it scroll)
        at_end = self.scroll_offset.y >= min(self.virtual_size.height - self._rows, self.max_scroll_y)
        self._rows = self.scrollable_content_region.height
        super().on_resize(event)  # the lines written before the log had a size are written now
        self.refresh()  # (and a new virtual size repaints nothing by itself)
        before, self._wrapped_at = self._wrapped_at, event.size.width
        # the viewer does not read back in it (or reads its end): its end stays in view
        follow = not self.has_focus or at_end
        if before and before != self._wrapped_at and self._styled:
            lines = max(1, self.virtual_size.height)
            at = self.scroll_offset.y / lines  # how far into the log the viewer reads
            super().clear()
            self.write(Text("\n").join(self._styled), scroll_end=follow)
            if not follow:  # the same part of the log in view, wrapped anew (not its first line)
                self.scroll_to(y=round(at * self.virtual_size.height), animate=False, immediate=True)
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
        follow = self._following()
        before = len(self.lines)
        self.write(text, scroll_end=False)
        if follow:
            self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True)
        self.refresh_lines(before, len(self.lines) - before)  # where the new lines show, if they do

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """Scrolled: the lines drawn already move in the cache of drawn lines, and only those that
        come into view are drawn (Textual's log draws every line again)."""
        if self.show_vertical_scrollbar:
            self.vertical_scrollbar.position = new_value
        shift = round(new_value) - round(old_value)
        if not shift:
            return
        height = self.size.height
        gutter = self.styles.gutter
        if abs(shift) >= height or gutter.top or gutter.bottom or not self.is_mounted:
            self.refresh()
            return
        cache = self._styles_cache
        cache._cache = {y - shift: strip for y, strip in cache._cache.items() if 0 <= y - shift < height}
        coming = (
            Region(0, height - shift, self.size.width, shift) if shift > 0 else Region(0, 0, self.size.width, -shift)
        )
        cache.set_dirty(coming)
        self._repaint_regions.add(self.outer_size.region)  # every line shows elsewhere on screen
        self._repaint_required = True
        self.check_idle()

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines of ``crop``, the log's style worked out once for them all (Textual's log works
        it out, walking the widget's ancestors, two or three times a line)."""
        self._pass_style = self.rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._pass_style = None

    @property
    def _line_style(self) -> Style:
        style = self._pass_style
        return self.rich_style if style is None else style

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the log's view (as Textual's log draws it)."""
        scroll_x, scroll_y = self.scroll_offset
        line = self._render_line(scroll_y + y, scroll_x, self.scrollable_content_region.width)
        return line.apply_style(self._line_style)

    def _render_line(self, y: int, scroll_x: int, width: int) -> Strip:
        style = self._line_style
        if y >= len(self.lines):
            return Strip.blank(width, style)
        key = (y + self._start_line, scroll_x, width, self._widest_line_width)
        if key in self._line_cache:
            return self._line_cache[key]
        line = self.lines[y].crop_extend(scroll_x, scroll_x + width, style)
        self._line_cache[key] = line
        return line

    def _following(self) -> bool:
        """Whether a new line scrolls the log to its end: not while the viewer, who moved into the
        log, reads an earlier part of it (the keys scroll it there; the end comes back with End)."""
        return not self.has_focus or self.scroll_offset.y >= self.max_scroll_y


def capped_line(event: GameCapped) -> str:
    """The log line of the engine's :class:`engine.GameCapped` (the same in every game)."""
    return f"══ The game reached its cap of {event.decisions:,} decisions: it ends here, scored as it stands ══"
