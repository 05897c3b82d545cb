"""Textual's :class:`~textual.strip.Strip` with its caches made when first used.

A strip (one line of a widget, as Textual draws it) carries seven small caches of what was made
from it (cropped, divided, styled, filtered... copies), each a :class:`~textual.cache.FIFOCache`
made with the strip. A screen keeps a few thousand strips (every line of every widget, drawn and
as the compositor cut it), most of which never use more than one or two of their caches: the
empty caches were nearly half of the objects a table screen made and kept (which every
collection of the cyclic garbage collector scans), and their making a tenth of a redraw's time.

:func:`install` (done when :mod:`tui.widgets` is imported) makes each cache when the strip first
uses it; what the caches hold, and when, is as before. It leaves Textual alone if its strips are
not the ones this was written for (another set of attributes).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.segment import Segment
from textual.cache import FIFOCache
from textual.strip import Strip

__all__ = ["install"]

CACHES = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}
"""A strip's caches and their sizes, as :class:`textual.strip.Strip` makes them."""

SLOTS = {*CACHES, "_segments", "_cell_length", "_render_cache", "_link_ids", "_cell_count"}
"""Every attribute of the strips this module was written for (Textual 8)."""


class _Made:
    """A strip's cache attribute that makes the cache at the first use (a data descriptor in
    front of the slot that holds it)."""

    __slots__ = ("_size", "_slot")

    def __init__(self, slot: Any, size: int) -> None:
        self._slot = slot
        self._size = size

    def __get__(self, strip: Strip | None, owner: type | None = None) -> Any:
        if strip is None:
            return self
        try:
            return self._slot.__get__(strip, owner)
        except AttributeError:
            cache: FIFOCache[Any, Any] = FIFOCache(self._size)
            self._slot.__set__(strip, cache)
            return cache

    def __set__(self, strip: Strip, value: Any) -> None:
        self._slot.__set__(strip, value)


def _strip_init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def install() -> bool:
    """Make strips' caches when first used (see the module); returns True if done (now or before)."""
    if Strip.__init__ is _strip_init:
        return True
    if set(Strip.__slots__) != SLOTS:
        return False
    for name, size in CACHES.items():
        setattr(Strip, name, _Made(Strip.__dict__[name], size))
    Strip.__init__ = _strip_init  # type: ignore[method-assign]
    return True
