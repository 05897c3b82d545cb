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
from typing import Any, Self

from rich.console import Console, ConsoleOptions
from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.reactive import Reactive, reactive
from textual.screen import Screen
from textual.strip import Strip
from textual.visual import Visual, VisualType, visualize
from textual.widget import _RenderCache
from textual.widgets import DataTable, Input, OptionList, Static

__all__ = ["DrawnStatic", "LineInput", "QuietOptionList", "SteadyStatic", "content_key", "drawn_text", "update_static"]


class LineInput(Input):
    """Textual's :class:`~textual.widgets.Input` without the screen-wide work per keystroke.

    * The cursor does not blink: over SSH every blink is a screen update sent.
    * Typing does not lay the whole screen out again. Textual's input sets its virtual size (the
      text's width, for horizontal scrolling) on every change of its value, and a widget's virtual
      size is a layout reactive: each keystroke re-arranged the screen and re-rendered every other
      widget on it (the lobby's table list among them), in each of a hundred typing sessions. The
      input's own size never depends on its text (CSS fixes its width and height, never ``auto``),
      so a repaint of the input is enough; its scrolling still reads the new virtual size.
    * Editing keys keep their order with typed characters. Textual runs a widget's key bindings
      (Backspace, Delete, the arrows, Enter...) only once the key event has bubbled up to the app,
      through every container's message queue, while a typed character is inserted as soon as
      the input gets it: over SSH, Backspace then ``6`` typed 50 ms apart turned ``4`` into
      ``""`` (the ``6`` went in first, then Backspace deleted it). The input runs its own
      bindings' actions as it gets the key.
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    EDIT_ACTIONS: dict[str, str] = {key: b.action for b in Input.BINDINGS for key in b.key.split(",")}
    """Key name -> Textual's :class:`~textual.widgets.Input` action for it."""

    def on_mount(self) -> None:
        """No blinking cursor."""
        self.cursor_blink = False

    async def _on_key(self, event: events.Key) -> None:
        action = self.EDIT_ACTIONS.get(event.key)
        if action is not None:  # Input's own _on_key (typed characters) is not called then
            event.stop()
            event.prevent_default()
            await self.run_action(action)


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

    The screen is laid out again only if the Static's size may change: a Static whose width does
    not depend on its content and whose content takes as many lines as it shows (fewer, for a
    :class:`SteadyStatic`) is drawn anew without a layout, and only its lines whose cells changed
    are repainted (the rest of the screen, and its other lines, are not drawn again).

    ``same_size``: the caller knows ``content`` takes as many lines as what is shown (a countdown
    whose digits change); kept for the callers, the lines are counted anyway.

    Returns:
        True if the Static was updated, False if it already showed ``content``.
    """
    key = content_key(content)
    if key is not None and key == content_key(static.content):
        return False
    width = _fixed_width(static)
    if width is None:
        static.update(content)
        return True
    visual = visualize(static, content, markup=static._render_markup)
    strips = Visual.to_strips(static, visual, width, None, static.visual_style)
    shown = static.size.height
    steady = isinstance(static, SteadyStatic) and static.steady
    if len(strips) > shown or (len(strips) < shown and not steady):
        static.update(content)
        return True
    static._Static__content = content  # type: ignore[attr-defined]  # what Static.update sets,
    static._Static__visual = visual  # type: ignore[attr-defined]  # without its whole refresh
    _repaint_rows(static, strips)
    return True


def _repaint_rows(static: Static, rows: list[Strip]) -> None:
    """Show ``rows`` (the Static's content drawn at its width, no more rows than it shows) in
    ``static``, repainting only the rows that differ from what it shows: Textual's own update
    repaints them all, and the screen around them."""
    size = static.size
    old = static._render_cache
    static._render_cache = _RenderCache(size, rows)
    if old.size != size or static._dirty_regions:  # what it shows is not drawn yet: all of it
        static.refresh()
        static._dirty_regions.clear()
        return
    before = old.lines
    changed = [
        y for y in range(max(len(before), len(rows))) if y >= len(before) or y >= len(rows) or before[y] != rows[y]
    ]
    if changed:
        static.refresh(*(Region(0, y, size.width, 1) for y in changed))
        static._dirty_regions.clear()  # the rows are drawn already (Widget.render_line would draw all again)


class SteadyStatic(Static):
    """A Static that keeps the most lines it has shown at its width: when its content takes fewer,
    the lines below are blank, and the screen is not laid out again (the parts below it do not
    move). Only content longer than ever lays the screen out; a new width starts afresh.

    For the parts of a game's table that come and go or change their length (a fight's line, the
    last roll): each change would otherwise lay the whole screen out again.
    """

    _most: tuple[int, int] = (0, 0)  # (width, the most lines at that width)
    steady = True
    """Whether the Static keeps its most lines now; while not, it takes the lines its content
    takes (and starts afresh when steady again)."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The content's height, or the most it has been at ``width`` (if :attr:`steady`)."""
        height = self._content_lines(container, viewport, width)
        known_width, most = self._most
        if self.steady and known_width == width and most > height:
            return most
        self._most = (width, height)
        return height

    def _content_lines(self, container: Size, viewport: Size, width: int) -> int:
        """How many lines the content takes at ``width``."""
        return super().get_content_height(container, viewport, width)


def _fixed_width(static: Static) -> int | None:
    """The width of ``static``'s content if it is laid out on screen and its size depends on its
    content only through its height (``height: auto``, no height limits, a width that is not
    ``auto``); ``None`` if not (then any change of content needs a layout)."""
    styles = static.styles
    if not (static.is_mounted and static.display and static.size.width and static.size.height):
        return None
    width = styles.width
    height = styles.height
    if (width is not None and width.is_auto) or height is None or not height.is_auto:
        return None
    if styles.min_height is not None or styles.max_height is not None:
        return None
    return static.content_size.width


def drawn_text(console: Console, options: ConsoleOptions, renderable: Any, width: int) -> Text:
    """``renderable`` (a Rich table, a group, ...) drawn by ``console`` with ``options`` at
    ``width`` cells, as a :class:`~rich.text.Text` of its lines (each at most ``width`` cells, not
    wrapped again) with their styles: what a Static shows for ``renderable`` at that width."""
    options = options.update(highlight=False, width=width)
    lines = Segment.split_and_crop_lines(console.render(renderable, options), width, include_new_lines=False, pad=False)
    text = Text(no_wrap=True, end="")
    for n, line in enumerate(lines):
        if n:
            text.append("\n")
        for segment in line:
            if not segment.control:
                text.append(segment.text, segment.style)
    return text


class DrawnStatic(SteadyStatic):
    """A Static for Rich renderables (tables, groups) that costs a redraw only what changed.

    Textual draws a Rich renderable in a Static twice when it changes (once to measure its height
    for the layout, once to show it) and cannot tell an unchanged one from a new one. This Static
    draws it once, at its own width, into styled text (:func:`drawn_text`); :func:`update_static`
    then leaves the same text alone and lays the screen out only for a new height. It draws the
    renderable again when its width changes; until it is on screen it shows it as a Static does.
    Text and strings are shown as they are.
    """

    _source: Any = None
    _drawn_width = 0

    def show(self, renderable: Any) -> bool:
        """Show ``renderable``; returns True if anything was drawn (see :func:`update_static`)."""
        self._source = renderable
        return self._draw()

    def _draw(self) -> bool:
        source = self._source
        width = _fixed_width(self)
        if width is None or isinstance(source, str | Text):
            self._drawn_width = 0
            return update_static(self, source)
        self._drawn_width = width
        return update_static(self, drawn_text(self.app.console, self.app.console_options, source, width))

    def on_resize(self) -> None:
        """Draw the renderable again for a new width."""
        if self._source is not None and self.content_size.width != self._drawn_width:
            self._draw()


class QuietOptionList(OptionList):
    """Textual's :class:`~textual.widgets.OptionList` that repaints only the lines that change.

    Textual's list repaints every line it shows, and draws every option again, when the
    highlight moves (a key in the lobby's table list) or one option's prompt is replaced (a move
    at one table): this list repaints the old and the new highlighted lines, and draws again only
    the replaced option (every option when its height changes).

    For a list whose size does not depend on its options (CSS sizes it, never ``auto``): new
    options do not lay the screen out again (Textual's list sets its virtual size, a layout
    reactive, as it takes them); its scrollbar follows them (showing or hiding it still lays the
    screen out).
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    highlighted: reactive[int | None] = reactive(None, repaint=False)
    """The index of the highlighted option, or ``None`` (repaints only the lines it leaves and reaches)."""

    def watch_highlighted(self, old: int | None, new: int | None) -> None:
        """Repaint the lines of the options that lost and took the highlight (and scroll to it)."""
        self._repaint_options(old, new)
        super().watch_highlighted(new)

    def _repaint_options(self, *indexes: int | None) -> None:
        if not self.is_mounted:
            return
        self._update_lines()
        lines = self._line_cache
        for index in indexes:
            if index is None:
                continue
            line = lines.index_to_line.get(index)
            if line is not None:
                self.refresh_lines(line, lines.heights.get(index, 1))

    def replace_option_prompt_at_index(self, index: int, prompt: VisualType) -> Self:
        """Replace the prompt of the option at ``index``: only its lines are drawn again, if it
        takes as many lines as before."""
        option = self.get_option_at_index(index)
        self._update_lines()
        height = self._line_cache.heights.get(index)
        option._set_prompt(prompt)
        cache = self._option_render_cache
        for key in [key for key in cache.keys() if key[0] is option]:
            cache.discard(key)
        if height is None or height != self._option_height(option):
            self._clear_caches()
        else:
            self._repaint_options(index)
        return self

    def _option_height(self, option: Any) -> int:
        """How many lines ``option`` takes (one, for a line of text in a list that does not wrap)."""
        prompt = option.prompt
        if isinstance(prompt, str | Text) and "\n" not in str(prompt) and self.styles.text_wrap == "nowrap":
            return 1
        width = self.scrollable_content_region.width - self._get_left_gutter_width()
        padding = self.get_component_styles("option-list--option").padding
        return self._get_visual(option).get_height(self.styles, width - padding.width)  # type: ignore[no-any-return]


class Throttle:
    """Coalesces change notifications into at most one redraw per ``interval()`` seconds: call it
    at each change; over SSH every redraw lays out and renders the whole screen.

    Args:
        screen: the screen that redraws (nothing is drawn while it is not attached, nor once its
            app is shutting down).
        redraw: draws the screen anew.
        interval: the least time between two redraws, in seconds (asked at each change).
        spread: the first redraw after a quiet time waits a random 0..``spread`` seconds (a number,
            or a function asked at each change).
    """

    def __init__(
        self,
        screen: Screen[Any],
        redraw: Callable[[], None],
        interval: Callable[[], float],
        spread: float | Callable[[], float] = 0.0,
    ) -> None:
        self._screen = screen
        self._redraw = redraw
        self._interval = interval
        self._spread = spread
        self._scheduled = False
        self._last = 0.0

    def __call__(self) -> None:
        if self._scheduled or not self._screen.is_attached:  # not shown, or its session is closing
            return
        self._scheduled = True
        wait = max(0.0, self._last + self._interval() - time.monotonic())
        spread = self._spread() if callable(self._spread) else self._spread
        if spread:
            wait = max(wait, random.uniform(0.0, spread))
        app = self._screen.app
        if wait == 0:
            app.call_later(self._fire)
        else:
            app.call_later(lambda: self._screen.set_timer(wait, self._fire))

    def _fire(self) -> None:
        self._scheduled = False
        self._last = time.monotonic()
        if may_draw(self._screen):
            self._redraw()


def may_draw(screen: Screen[Any]) -> bool:
    """Whether a timer may draw on ``screen``: it is attached and its app is not shutting down.

    An app shutting down (an SSH session closing) removes a screen's widgets before the screen's
    own timers stop, so a timer that comes due then would find its widgets gone.
    """
    return screen.is_attached and screen.app.is_running


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
