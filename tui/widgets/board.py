"""A game's board as one widget: its lines drawn once each, and repainted only when they change.

A game's table used to be a column of Statics (the town, the players, the fight, the dice...):
each one a widget to lay out, and each change of a part's height (a fight's line that comes and
goes) a layout of the whole screen. :class:`Board` shows all those parts as the lines of one
widget: a part that grows or shrinks moves the lines below it within the board, and the board
keeps the most lines it has shown (:class:`~tui.widgets.quiet.SteadyStatic`), blank at its end,
so the screen is laid out again only when the board grows longer than ever.

Each line is drawn (turned into the cells Textual shows) once, and drawn again only when it
changes; a redraw repaints only the lines whose cells changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.geometry import Size
from textual.strip import Strip
from textual.style import Style as TextualStyle
from textual.visual import Visual, visualize
from textual.widget import _RenderCache

from tui.widgets.quiet import SteadyStatic, _fixed_width, _repaint_rows, content_key, drawn_text

__all__ = ["Board", "Drawings", "board_lines"]


class Drawings:
    """What was drawn for the last board (a table's rows, a group's texts...), by content, for
    the next one to reuse: what the next one does not reuse is forgotten after it."""

    def __init__(self) -> None:
        self._last: dict[Any, Any] = {}
        self._now: dict[Any, Any] = {}

    def get(self, key: Any) -> Any:
        """What was drawn for ``key``, if known (it is kept for the next board too)."""
        found = self._now.get(key)
        if found is None:
            found = self._last.get(key)
            if found is not None:
                self._now[key] = found
        return found

    def __setitem__(self, key: Any, drawing: Any) -> None:
        self._now[key] = drawing

    def done(self) -> None:
        """A board is drawn: keep only what it used."""
        self._last, self._now = self._now, {}


def board_lines(
    parts: Iterable[tuple[RenderableType | None, int]],
    width: int,
    console: Console,
    options: ConsoleOptions,
    drawn: Drawings | None = None,
) -> list[Text]:
    """The lines of a board made of ``parts``: ``(part, blank lines before it)``, a part ``None``
    left out (with its blank lines). A :class:`~rich.text.Text` is split at its line ends (a
    line wider than ``width`` wraps when shown, as in a Static); anything else (a Rich table, a
    group) is drawn at ``width`` as :func:`~tui.widgets.quiet.drawn_text` draws it.

    ``drawn``: what was drawn for the board before at this width, by content (a table's rows, a
    group's texts), reused when the same comes again.
    """
    if drawn is None:
        drawn = Drawings()
    lines: list[Text] = []
    for part, gap in parts:
        if part is None:
            continue
        lines.extend(Text() for _ in range(gap))
        if isinstance(part, Text):
            if "\n" not in part.plain:
                lines.append(part)
                continue
            key = ("text", content_key(part))
            split = drawn.get(key)
            if split is None:
                split = drawn[key] = part.split("\n", allow_blank=True)
            lines.extend(split)
        else:
            lines.extend(_drawn_lines(part, width, console, options, drawn))
    drawn.done()
    return lines


def _drawn_lines(
    part: RenderableType, width: int, console: Console, options: ConsoleOptions, drawn: Drawings
) -> list[Text]:
    """``part`` drawn at ``width`` (see :func:`board_lines`): a group item by item, a table row
    by row (the rows of a Rich table at widths it works out are drawn independently of each
    other), each reused from ``drawn`` when known."""
    if isinstance(part, Group):
        return [line for item in part.renderables for line in _drawn_lines(item, width, console, options, drawn)]
    if isinstance(part, Table):
        lines = _table_lines(part, width, console, options.update(highlight=False, width=width), drawn)
        if lines is not None:
            return lines
    key = content_key(part)
    if key is None:
        return _split(drawn_text(console, options, part, width))
    key = ("part", key)
    found = drawn.get(key)
    if found is None:
        found = drawn[key] = _split(drawn_text(console, options, part, width))
    return found


def _split(text: Text) -> list[Text]:
    return text.split("\n", allow_blank=True) if "\n" in text.plain else [text]


def _measure(cell: Any) -> tuple[int, int] | None:
    """What a Rich table measures of a cell of text (the longest word, the longest line:
    ``Text.__rich_measure__``), or ``None`` for a cell of anything else (or of markup)."""
    if isinstance(cell, Text):
        plain = cell.plain
    elif isinstance(cell, str) and "[" not in cell:
        plain = cell
    else:
        return None
    lines = plain.splitlines()
    longest = max(cell_len(line) for line in lines) if lines else 0
    words = plain.split()
    return (max(cell_len(word) for word in words) if words else longest), longest


def _cell_key(cell: Any) -> Any:
    return ("str", cell) if isinstance(cell, str) else content_key(cell)


def _table_lines(
    table: Table, width: int, console: Console, options: ConsoleOptions, drawn: Drawings
) -> list[Text] | None:
    """``table``'s lines at ``width``, as Rich draws it, its rows drawn one at a time and reused
    from ``drawn`` when the same row comes at the same column widths; ``None`` for a table this
    does not draw (a box, a title, a cell that is not text...).

    Rich draws each row of a box-less table on its own once it has worked out the columns'
    widths; the widths depend only on what it measures of each cell (and the table's and the
    columns' settings), so they are reused too for the same measures.
    """
    if table.box is not None or table.title or table.caption or table.row_styles or table.show_footer:
        return None
    columns = table.columns
    if not columns or any(row.style or row.end_section for row in table.rows):
        return None
    max_width = options.max_width if table.width is None else table.width
    settings = (
        max_width,
        table.expand,
        table.min_width,
        table.padding,
        table.pad_edge,
        table.collapse_padding,
        table.show_header,
        table.show_edge,
        table.leading,
        str(table.style),
        str(table.header_style),
        table.highlight,
    )
    measures = []
    for column in columns:
        cells = [column.header, *column._cells] if table.show_header else column._cells
        measured = [_measure(cell) for cell in cells]
        if None in measured:
            return None
        form = (column.width, column.min_width, column.max_width, column.ratio, column.no_wrap, column.overflow)
        form += (column.justify, column.vertical, str(column.style), str(column.header_style), column.highlight)
        measures.append((form, tuple(measured)))  # type: ignore[arg-type]
    key = ("widths", settings, tuple(measures))
    known = drawn.get(key)
    if known is None:
        widths = table._calculate_column_widths(console, options.update_width(max_width - table._extra_width))
        drawn[key] = widths
    else:
        widths = known
    render_options = options.update(width=sum(widths) + table._extra_width, highlight=table.highlight, height=None)
    form_key = (settings, tuple(form for form, _ in measures), tuple(widths))
    get_style = console.get_style
    null = Style.null()
    cells_by_row: list[tuple[Any, ...]] | None = None  # Rich's cells (padded), made if a row is drawn
    lines: list[Text] = []
    for index in range(len(table.rows) + table.show_header):
        header_row = index == 0 and table.show_header
        raw = [column.header if header_row else column._cells[index - table.show_header] for column in columns]
        row_key = ("row", form_key, header_row, tuple(_cell_key(cell) for cell in raw))
        row_lines = drawn.get(row_key)
        if row_lines is None:
            if cells_by_row is None:
                by_column = [list(table._get_cells(console, n, column)) for n, column in enumerate(columns)]
                cells_by_row = list(zip(*by_column, strict=True))
            row_cells = cells_by_row[index]
            cells: list[tuple[list[list[Segment]], Style, str]] = []
            for cell_width, cell, column, raw_cell in zip(widths, row_cells, columns, raw, strict=True):
                style = get_style(cell.style) + null
                padding = cell.renderable
                pads = (
                    (padding.top, padding.right, padding.bottom, padding.left) if isinstance(padding, Padding) else ()
                )
                cell_key = ("cell", _cell_key(raw_cell), pads, str(cell.style), cell_width, column.justify)
                cell_key += (column.no_wrap, column.overflow, column.highlight)
                rendered = drawn.get(cell_key)
                if rendered is None:
                    cell_options = render_options.update(
                        width=cell_width,
                        justify=column.justify,
                        no_wrap=column.no_wrap,
                        overflow=column.overflow,
                        height=None,
                        highlight=column.highlight,
                    )
                    rendered = drawn[cell_key] = console.render_lines(cell.renderable, cell_options, style=style)
                cells.append((rendered, style, "bottom" if header_row else cell.vertical))
            row_lines = drawn[row_key] = _row_lines(cells, widths, width)
        lines.extend(row_lines)
    return lines


def _row_lines(cells: list[tuple[list[list[Segment]], Style, str]], widths: list[int], width: int) -> list[Text]:
    """A table row's lines from its cells' (as Rich's ``Table._render`` puts them side by side
    in a table without a box: each aligned to the row's height, then joined)."""
    height = max(len(lines) for lines, _, _ in cells)
    aligned = []
    for (lines, style, vertical), cell_width in zip(cells, widths, strict=True):
        if vertical == "top":
            shaped = Segment.align_top(lines, cell_width, height, style)
        elif vertical == "middle":
            shaped = Segment.align_middle(lines, cell_width, height, style)
        else:
            shaped = Segment.align_bottom(lines, cell_width, height, style)
        aligned.append(Segment.set_shape(shaped, cell_width, height))
    segments: list[Segment] = []
    for line_no in range(height):
        for shaped in aligned:
            segments.extend(shaped[line_no])
        segments.append(Segment.line())
    return _segment_lines(segments, width)


def _segment_lines(segments: Iterable[Segment], width: int) -> list[Text]:
    """Rendered ``segments`` as lines of text (as :func:`~tui.widgets.quiet.drawn_text` makes them)."""
    lines: list[Text] = []
    for line in Segment.split_and_crop_lines(segments, width, include_new_lines=False, pad=False):
        text = Text(no_wrap=True, end="")
        for segment in line:
            if not segment.control:
                text.append(segment.text, segment.style)
        lines.append(text)
    return lines


def _line_strip(line: Text, width: int, base: Any, console: Console, styles: dict[Any, Style]) -> Strip | None:
    """``line`` as the one row a Static shows it in, drawn straight from its spans: each piece of
    text in the widget's style (``base``, a Textual style) with the piece's own on top, as
    Textual's content drawing makes it (without the offsets a text selection reads); ``None`` for
    a line that Textual would wrap or that holds a tab or a control character (Textual draws it).

    ``styles``: the pieces' styles made so far for ``base`` (by the piece's Rich style)."""
    if line.cell_len > width or not line.plain.isprintable():
        return None
    segments = []
    for segment in line.render(console):
        text = segment.text
        if not text:
            continue
        piece = segment.style
        if piece is None and line.style:
            piece = console.get_style(line.style)
        style = styles.get(piece)
        if style is None:
            style = styles[piece] = (base if piece is None else base + TextualStyle.from_rich_style(piece)).rich_style
        segments.append(Segment(text, style))
    return Strip(segments)


class Board(SteadyStatic):
    """Lines of styled text, shown as a Static shows them joined (its :attr:`content`).

    :meth:`show_lines` shows new lines: only those that changed are drawn again, only the rows
    whose cells changed are repainted, and the screen is laid out again only when the board takes
    more rows than it ever has at its width.

    A line is drawn once wherever it shows, so the board is no text to select with the mouse (a
    selection reads where each character was drawn): a game's board is not a document.
    """

    ALLOW_SELECT = False

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._parts: list[tuple[RenderableType | None, int]] | None = None
        self._parts_width = 0  # the width the parts' Rich renderables were drawn at
        self._drawings = Drawings()
        self._lines: list[Text] = []
        self._keys: list[Any] = []
        self._joined: Text | None = Text()
        self._drawn: dict[Any, list[Strip]] = {}  # a line's key: its rows
        self._drawn_as: tuple[int, Any] = (0, None)  # the width and style they were drawn at
        self._styles: dict[Any, Style] = {}  # the Rich style of each piece of a line, drawn

    @property
    def content(self) -> Text:  # type: ignore[override]
        """The lines, joined."""
        if self._joined is None:
            self._joined = Text("\n").join(self._lines)
        return self._joined

    def render(self) -> Visual:
        """The joined lines (for Textual's own uses: a text selection's copy)."""
        return visualize(self, self.content)

    def show(self, parts: Iterable[tuple[RenderableType | None, int]], width: int) -> bool:
        """Show ``parts`` (see :func:`board_lines`), their Rich renderables drawn at the board's
        width (``width`` until it is laid out; drawn again for any new width); returns False if
        the board shows them already."""
        self._parts = list(parts)
        return self._show_parts(_fixed_width(self) or width)

    def _show_parts(self, width: int) -> bool:
        return self.show_lines(self._part_lines(width))

    def _part_lines(self, width: int) -> list[Text]:
        """The parts' lines, their Rich renderables drawn at ``width``."""
        assert self._parts is not None
        if width != self._parts_width:
            self._drawings = Drawings()
        self._parts_width = width
        app = self.app
        return board_lines(self._parts, width, app.console, app.console_options, self._drawings)

    def _at_width(self, width: int) -> None:
        """The parts' lines at ``width`` (before Textual lays the board out or draws it there)."""
        if self._parts is not None and width and width != self._parts_width:
            self._set_lines(self._part_lines(width))

    def on_resize(self) -> None:
        """A new width: the parts drawn again for it."""
        width = self.content_size.width
        if self._parts is not None and width and width != self._parts_width:
            self._show_parts(width)

    def show_lines(self, lines: list[Text]) -> bool:
        """Show ``lines``; returns False if the board shows them already."""
        if not self._set_lines(lines):
            return False
        width = _fixed_width(self)
        if width is None:
            self.refresh(layout=True)
            return True
        rows = self._rows(width)
        if len(rows) > self.size.height:
            self.refresh(layout=True)
            return True
        _repaint_rows(self, rows)
        return True

    def _set_lines(self, lines: list[Text]) -> bool:
        keys = [content_key(line) for line in lines]
        if keys == self._keys:
            return False
        self._lines, self._keys, self._joined = lines, keys, None
        return True

    def _rows(self, width: int) -> list[Strip]:
        """The rows of every line at ``width`` (each line drawn again only if new)."""
        style = self.visual_style
        if self._drawn_as != (width, style):
            self._drawn = {}
            self._styles = {}
            self._drawn_as = (width, style)
        known = self._drawn
        drawn: dict[Any, list[Strip]] = {}
        rows: list[Strip] = []
        console = self.app.console
        for line, key in zip(self._lines, self._keys, strict=True):
            strips = drawn.get(key)
            if strips is None:
                strips = known.get(key)
                if strips is None:
                    strip = _line_strip(line, width, style, console, self._styles)
                    if strip is None:
                        strips = Visual.to_strips(self, visualize(self, line), width, None, style)
                    else:
                        strips = [strip]
                drawn[key] = strips
            rows.extend(strips)
        self._drawn = drawn
        return rows

    def _render_content(self) -> None:
        width, height = self.size
        self._at_width(width)
        self._render_cache = _RenderCache(self.size, self._rows(width)[:height])
        self._dirty_regions.clear()

    def _content_lines(self, container: Size, viewport: Size, width: int) -> int:
        self._at_width(width)
        return len(self._rows(width))
