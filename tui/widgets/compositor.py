"""Textual's compositor drawing, for a partial update, only the rows that update repaints.

To repaint a few rows of the screen (a changed line of the lobby's table list, a new log line),
Textual's :class:`~textual._compositor.Compositor` asks every widget that overlaps the box around
them for *all* of its lines (a container's, the screen's: forty rows for one), then uses only
the rows being repainted. The lines come from each widget's cache, but each costs a few
microseconds all the same (a cache look-up, the line filters, a crop): a one-row change of a
table screen went through some two hundred lines.

:func:`install` (done when :mod:`tui.widgets` is imported) replaces ``Compositor._render_chops``
with one that asks each widget only for its lines in the rows being repainted (each run of
consecutive rows at once), and not for a row where the widgets in front of it (asked first) have
drawn every part of it that it covers: a container behind its children is asked for nothing.
What it returns is what Textual's returned: the same strips, cut the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from textual._compositor import Compositor
from textual.geometry import Region
from textual.strip import Strip

__all__ = ["install"]


def _rendered_runs(crop: Region, is_rendered_line: Callable[[int], bool]) -> list[tuple[int, int]]:
    """The runs ``(first row, row after)`` of consecutive rows of ``crop`` that are repainted."""
    runs: list[tuple[int, int]] = []
    start = end = -1
    for y in crop.line_range:
        if not is_rendered_line(y):
            continue
        if y == end:
            end += 1
        else:
            if start >= 0:
                runs.append((start, end))
            start, end = y, y + 1
    if start >= 0:
        runs.append((start, end))
    return runs


def _render_chops(
    self: Compositor, crop: Region, is_rendered_line: Callable[[int], bool]
) -> Sequence[Mapping[int, Strip | None]]:
    """``Compositor._render_chops``, each widget asked only for its lines in the rows repainted
    where a widget in front of it has not drawn every part of the row it covers."""
    cuts = self.cuts
    chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
    runs = _rendered_runs(crop, is_rendered_line)
    if not runs:
        return chops
    crop_overlaps = crop.overlaps
    intersection = Region.intersection
    for widget, (region, clip) in self.visible_widgets.items():  # front to back
        if not crop_overlaps(clip):
            continue
        render_region = intersection(region, clip)
        render_x, render_y, render_width, render_height = render_region
        if not (render_width and render_height):
            continue
        first_cut, last_cut = render_region.column_span
        render_bottom = render_y + render_height
        for start, end in runs:
            rows = []  # (row, its cuts in the widget) where a cut is not drawn yet
            for y in range(max(start, render_y), min(end, render_bottom)):
                chops_line = chops[y]
                final_cuts = [cut for cut in cuts[y] if last_cut >= cut >= first_cut]
                if any(chops_line.get(cut, True) is None for cut in final_cuts):
                    rows.append((y, final_cuts))
            for part in _consecutive(rows):
                top = part[0][0]
                strips = widget.render_lines(Region(render_x - region.x, top - region.y, render_width, len(part)))
                for (y, final_cuts), strip in zip(part, strips, strict=False):
                    chops_line = chops[y]
                    cut_strips = strip.divide([cut - render_x for cut in final_cuts[1:]])
                    get_chops_line = chops_line.get
                    for cut, cut_strip in zip(final_cuts, cut_strips, strict=False):
                        if get_chops_line(cut) is None:  # front to back: the first strip for a cut wins
                            chops_line[cut] = cut_strip
    return chops


def _consecutive(rows: list[tuple[int, list[int]]]) -> list[list[tuple[int, list[int]]]]:
    """``rows`` in runs of consecutive rows."""
    parts: list[list[tuple[int, list[int]]]] = []
    for row in rows:
        if parts and row[0] == parts[-1][-1][0] + 1:
            parts[-1].append(row)
        else:
            parts.append([row])
    return parts


_original: Any = None


def install() -> bool:
    """Draw only the repainted rows of partial updates (see the module); returns True if done."""
    global _original
    if Compositor._render_chops is _render_chops:
        return True
    if not hasattr(Compositor, "_render_chops") or not hasattr(Compositor, "visible_widgets"):
        return False
    _original = Compositor._render_chops
    Compositor._render_chops = _render_chops  # type: ignore[method-assign]
    return True
