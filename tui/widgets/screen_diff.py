"""Screen updates that send a terminal only the cells that changed.

Textual writes a screen update (:class:`~textual._compositor.ChopsUpdate`,
:class:`~textual._compositor.LayoutUpdate`) as every cell of every region it repainted, each
segment's style set and reset again: a widget repainted for one changed character sends its whole
area, and a log that moved up a line sends every line of it. Over SSH each byte is the server's
work and the client's bandwidth.

:class:`ScreenDiff` remembers what the terminal shows (each row's characters and styles, as this
class wrote them) and turns an update into the least output it can find:

* the cells of the update that show what the terminal shows already are not sent;
* the runs that changed are sent with a style code only where the style changes (``ESC [0;...m``:
  a reset and the new style in one code), never a reset after each segment;
* rows whose whole content moved up or down (a log that scrolled, a part of the screen that moved
  when another grew) are moved by the terminal itself: a scrolling region (``DECSTBM``) and line
  feeds (``IND``) or reverse line feeds (``RI``), the oldest terminal features there are; only
  the rows that come in are then drawn.

What the terminal shows is only known while nothing else writes to it: :meth:`ScreenDiff.forget`
(the app calls it when the terminal is resized, or when anything but :meth:`ScreenDiff.encode`
draws) makes the next update send every cell it covers.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.cells import get_character_cell_size
from rich.color import ColorSystem
from rich.control import Control
from rich.style import Style
from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate
from textual.strip import Strip

__all__ = ["ScreenDiff", "SendsChanges"]

_Code = tuple[str, str]
"""A cell's style as the terminal gets it: the codes that set it from any other, and (for a
link) those that close it after the text."""

_PLAIN: _Code = ("\x1b[0m", "")
"""No style."""

_Line = tuple[str | None, list[_Code] | None]
"""A row of the screen: one character per cell and the cells' style codes (``(None, None)``: not known)."""

_WIDE = "\x00"
"""Stands in a row for the right half of a double-width character (never written)."""

_GAP = 6
"""Two changed runs of a row closer than this many cells are sent as one (a cursor move costs
about as much as the cells between)."""

_MIN_SCROLL = 3
"""The fewest rows moved by the terminal (fewer are cheaper drawn)."""

_SHIFTS = (1, -1, 2, -2, 3, -3)
"""How far rows are looked for, up (positive) or down, for a scroll: the nearest first."""


class ScreenDiff:
    """What one terminal shows, and the output that brings it to a new screen update."""

    def __init__(self) -> None:
        self._width = 0
        self._height = 0
        self._text: list[str | None] = []  # per row: one character per cell (None: not known)
        self._styles: list[list[_Code] | None] = []  # per row: each cell's style codes
        self._codes: dict[Style, _Code] = {}
        self._color_system: ColorSystem | None = None

    def forget(self) -> None:
        """The terminal may show anything: the next update sends every cell it covers."""
        self._width = self._height = 0
        self._text = []
        self._styles = []

    def encode(self, update: Any, width: int, height: int, color_system: ColorSystem | None) -> str | None:
        """The terminal output for ``update`` on a ``width`` x ``height`` screen, and what the
        terminal then shows remembered; ``None`` if ``update`` is not one this class knows (then
        :meth:`forget` has been called: the caller writes it as Textual would)."""
        if color_system is not self._color_system:
            self._codes.clear()
            self._color_system = color_system
        if (width, height) != (self._width, self._height):
            self._width, self._height = width, height
            self._text = [None] * height
            self._styles = [None] * height
        if isinstance(update, ChopsUpdate):
            pieces = self._chops_pieces(update)
        elif isinstance(update, LayoutUpdate):
            pieces = self._layout_pieces(update)
        else:
            self.forget()
            return None
        rows = self._apply(pieces)
        if rows is None:
            return None
        target = list(zip(self._text, self._styles, strict=True))  # each row once drawn (None: not known whole)
        for y, row in rows.items():
            target[y] = row.whole()
        out: list[str] = []
        brought_in = self._scroll(rows, target, out)
        self._draw(rows, target, brought_in, out)
        return "".join(out)

    # -- what the update draws ---------------------------------------------------------------

    def _chops_pieces(self, update: ChopsUpdate) -> Iterable[tuple[int, int, Strip]]:
        """``(y, x, strip)`` for every part of a partial update (as Textual's own writer cuts them)."""
        chops = update.chops
        chop_ends = update.chop_ends
        for y, x1, x2 in update.spans:
            for end, (x, strip) in zip(chop_ends[y], chops[y].items(), strict=False):
                if strip is None or x >= x2 or end <= x1:
                    continue
                start = max(x, x1)
                if start > x or end > x2:
                    strip = strip.crop(start - x, min(end, x2) - x)
                yield y, start, strip

    def _layout_pieces(self, update: LayoutUpdate) -> Iterable[tuple[int, int, Strip]]:
        x = update.region.x
        for y, line in enumerate(update.strips, update.region.y):
            column = x
            for strip in line:
                yield y, column, strip
                column += strip.cell_length

    def _apply(self, pieces: Iterable[tuple[int, int, Strip]]) -> dict[int, _Row] | None:
        """The rows the update draws: each with the pieces written over what the terminal shows;
        ``None`` (and :meth:`forget`) if a piece holds what a cell cannot (a zero-width character)."""
        width, height = self._width, self._height
        code = self._code
        rows: dict[int, _Row] = {}
        for y, x, strip in pieces:
            if not 0 <= y < height:
                continue
            row = rows.get(y)
            if row is None:
                row = rows[y] = _Row(self._text[y], self._styles[y], width)
            for text, style, control in strip._segments:
                if control or not text:
                    continue
                if text.isascii():
                    cells = list(text)
                else:
                    cells = []
                    for ch in text:
                        size = get_character_cell_size(ch)
                        if size == 1:
                            cells.append(ch)
                        elif size == 2:
                            cells.append(ch)
                            cells.append(_WIDE)
                        else:
                            self.forget()
                            return None
                x = row.write(x, cells, code(style))
        return rows

    # -- scrolling ------------------------------------------------------------------------------

    def _scroll(self, rows: dict[int, _Row], target: list[_Line], out: list[str]) -> set[int]:
        """Let the terminal move the bands of rows whose content moved whole (see the module);
        returns the rows the moves brought in (blank now: they are drawn whole)."""
        brought_in: set[int] = set()
        if len(rows) < _MIN_SCROLL:
            return brought_in
        height = self._height
        shown = self._text
        changed = [y for y in sorted(rows) if target[y][0] is not None and target[y] != (shown[y], self._styles[y])]
        for shift in _SHIFTS:
            if len(changed) < _MIN_SCROLL:
                break
            band: list[int] = []
            for y in [*changed, -1]:
                moved = y >= 0 and 0 <= y + shift < height and shown[y + shift] is not None
                moved = moved and target[y] == (shown[y + shift], self._styles[y + shift])
                if moved and band and y == band[-1] + 1:
                    band.append(y)
                    continue
                if len(band) >= _MIN_SCROLL and self._move(band[0], band[-1], shift, target, brought_in, out):
                    changed = [c for c in changed if not band[0] <= c <= band[-1]]
                band = [y] if moved else []
        return brought_in

    def _move(
        self, first: int, last: int, shift: int, target: list[_Line], brought_in: set[int], out: list[str]
    ) -> bool:
        """Rows ``first``..``last`` take what rows ``first + shift``..``last + shift`` show, by a
        scroll of the band that holds both; the rows it brings in join ``brought_in``. Returns
        False (nothing done) if one of those would not be known whole."""
        top, bottom = min(first, first + shift), max(last, last + shift)
        entering = range(last + 1, bottom + 1) if shift > 0 else range(top, first)
        if any(target[y][0] is None for y in entering):
            return False
        out.append(f"\x1b[0m\x1b[{top + 1};{bottom + 1}r")
        text, styles = self._text, self._styles
        blank: list[Any] = [None] * abs(shift)
        if shift > 0:  # the content moves up: line feeds at the bottom margin
            out.append(f"\x1b[{bottom + 1};1H" + "\n" * shift)
            text[top : bottom + 1] = [*text[top + shift : bottom + 1], *blank]
            styles[top : bottom + 1] = [*styles[top + shift : bottom + 1], *blank]
        else:  # the content moves down: reverse line feeds at the top margin
            out.append(f"\x1b[{top + 1};1H" + "\x1bM" * -shift)
            text[top : bottom + 1] = [*blank, *text[top : bottom + 1 + shift]]
            styles[top : bottom + 1] = [*blank, *styles[top : bottom + 1 + shift]]
        out.append("\x1b[r")
        brought_in.difference_update(range(first, last + 1))
        brought_in.update(entering)
        return True

    # -- drawing --------------------------------------------------------------------------------

    def _draw(self, rows: dict[int, _Row], target: list[_Line], brought_in: set[int], out: list[str]) -> None:
        """Send the cells of ``rows`` (and the whole rows ``brought_in``) that the terminal does not
        show, and remember what it shows then."""
        current: _Code | None = _PLAIN if out else None  # the terminal's style codes (None: not known)
        width = self._width
        for y in sorted(rows.keys() | brought_in):
            text, styles = target[y]
            old_text, old_styles = self._text[y], self._styles[y]
            row = rows.get(y)
            if y in brought_in:
                runs = [(0, width)]
            elif row is None:
                continue
            elif old_text is None or old_styles is None or text is None:
                runs = row.drawn()
                text, styles = row.text(), row.styles
            else:
                runs = _changed_runs(text, styles, old_text, old_styles, row.start, row.end)
            assert text is not None and styles is not None
            self._text[y], self._styles[y] = target[y]
            for a, b in runs:
                if text[a] == _WIDE:
                    a -= 1
                if b < width and text[b] == _WIDE:
                    b += 1
                out.append(f"\x1b[{y + 1};{a + 1}H")
                current = self._write(text, styles, a, b, current, out)
        if current is not None and current != _PLAIN:
            out.append(_PLAIN[0])

    def _write(
        self, text: str, codes: list[_Code], a: int, b: int, current: _Code | None, out: list[str]
    ) -> _Code | None:
        """Write cells ``a``..``b`` of a row; returns the terminal's style codes after them (``None``: not known)."""
        i = a
        while i < b:
            code = codes[i]
            j = i + 1
            while j < b and (codes[j] is code or codes[j] == code):
                j += 1
            if code != current:
                out.append(code[0])
            out.append(text[i:j].replace(_WIDE, ""))
            if code[1]:  # a link: closed after its text
                out.append(code[1])
                current = None
            else:
                current = code
            i = j
        return current

    def _code(self, style: Style | None) -> _Code:
        """The codes that set ``style`` from any other (a reset first), and that close it (links)."""
        if style is None:
            return _PLAIN
        known = self._codes.get(style)
        if known is not None:
            return known
        color_system = self._color_system
        if color_system is None:
            code = _PLAIN
        else:
            ansi = style._ansi if style._ansi is not None else Strip.render_ansi(style, color_system)
            on = f"\x1b[0;{ansi}m" if ansi else _PLAIN[0]
            if style._link:
                code = (f"{on}\x1b]8;id={style._link_id};{style._link}\x1b\\", "\x1b]8;;\x1b\\")
            else:
                code = (on, "")
        self._codes[style] = code
        return code


class _Row:
    """A row being drawn: what the terminal shows (``None``: not known) with the pieces written over it."""

    __slots__ = ("_known", "chars", "end", "pieces", "start", "styles")

    def __init__(self, text: str | None, styles: list[_Code] | None, width: int) -> None:
        self._known = text is not None and styles is not None
        self.chars: list[str] = list(text) if text is not None else [" "] * width
        self.styles: list[_Code] = list(styles) if styles is not None else [_PLAIN] * width
        self.pieces: list[tuple[int, int]] = []
        self.start = width
        self.end = 0

    def write(self, x: int, cells: list[str], code: _Code) -> int:
        """Write ``cells`` from column ``x`` in the style of ``code`` (cut at the row's end);
        returns the column after."""
        end = min(x + len(cells), len(self.chars))
        if end > x:
            self.chars[x:end] = cells[: end - x]
            self.styles[x:end] = [code] * (end - x)
            self.pieces.append((x, end))
            self.start = min(self.start, x)
            self.end = max(self.end, end)
        return x + len(cells)

    def text(self) -> str:
        """The row's characters, one per cell."""
        return "".join(self.chars)

    def whole(self) -> _Line:
        """The row as it will show, if known for every cell (``(None, None)`` if not)."""
        if self._known or self.drawn() == [(0, len(self.chars))]:
            return self.text(), self.styles
        return None, None

    def drawn(self) -> list[tuple[int, int]]:
        """The spans of cells written, in order, those that touch joined."""
        spans: list[tuple[int, int]] = []
        for a, b in sorted(self.pieces):
            if spans and a <= spans[-1][1]:
                spans[-1] = (spans[-1][0], max(b, spans[-1][1]))
            else:
                spans.append((a, b))
        return spans


def _changed_runs(
    text: str, styles: list[_Code], old_text: str, old_styles: list[_Code], start: int, end: int
) -> list[tuple[int, int]]:
    """The runs of cells in ``start``..``end`` whose character or style changed, those closer than
    :data:`_GAP` cells joined."""
    if text[start:end] == old_text[start:end] and styles[start:end] == old_styles[start:end]:
        return []
    runs: list[tuple[int, int]] = []
    run_start = -1
    last = -_GAP - 1
    for i in range(start, end):
        if text[i] != old_text[i] or (styles[i] is not old_styles[i] and styles[i] != old_styles[i]):
            if run_start < 0:
                run_start = i
            elif i - last > _GAP:
                runs.append((run_start, last + 1))
                run_start = i
            last = i
    if run_start >= 0:
        runs.append((run_start, last + 1))
    return runs


class SendsChanges:
    """A Textual :class:`~textual.app.App` mixin (first among the bases): its screen updates are
    written by a :class:`ScreenDiff`, which sends the terminal only the cells that changed.

    Updates this class does not know (an inline app's, a renderable that is not a compositor
    update) are written by Textual, and the terminal's cells are then not known any more; so too
    after a resize (the terminal may have rewrapped or cleared them).
    """

    _screen_diff: ScreenDiff | None = None

    def _display(self, screen: Any, renderable: Any) -> None:
        app: Any = self
        diff = self._screen_diff
        if diff is None:
            diff = self._screen_diff = ScreenDiff()
        driver = app._driver
        if not isinstance(renderable, CompositorUpdate) or driver is None or driver.is_inline:
            diff.forget()
            super()._display(screen, renderable)  # type: ignore[misc]
            return
        if app._batch_count or not app._running or app._closed or app.is_headless:
            return
        try:
            try:
                console = app.console
                width, height = app.size
                output = diff.encode(renderable, width, height, console._color_system)
                if output is None:
                    super()._display(screen, renderable)  # type: ignore[misc]
                    return
                cursor = app.screen.outer_size.clamp_offset(app.cursor_position)
                output += Control.move_to(*cursor).segment.text
                app._previous_cursor_position = cursor
            except Exception as error:  # as Textual's own display: the app reports it
                diff.forget()
                app._handle_exception(error)
                return
            app._begin_update()
            try:
                driver.write(output)
            finally:
                app._end_update()
            driver.flush()
        finally:
            app.post_display_hook()

    def on_resize(self, event: Any) -> None:
        """The terminal was resized: what it shows is not known any more."""
        if self._screen_diff is not None:
            self._screen_diff.forget()
