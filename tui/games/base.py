"""The base of every game's screen parts: :class:`GameUI` and its :class:`TableWidget`.

Kept apart from :mod:`tui.games` (which imports each game's module to fill ``TABLES``) so that a
game's module imports its bases from here without an import cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.pretty import Pretty
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

__all__ = ["BOX_JUNCTIONS", "GameUI", "Recent", "TableWidget"]

BOX_JUNCTIONS = {
    frozenset("lr"): "─",
    frozenset("ud"): "│",
    frozenset("rd"): "┌",
    frozenset("ld"): "┐",
    frozenset("ru"): "└",
    frozenset("lu"): "┘",
    frozenset("lrd"): "┬",
    frozenset("lru"): "┴",
    frozenset("udr"): "├",
    frozenset("udl"): "┤",
    frozenset("lrud"): "┼",
}
"""The box-drawing character where lines meet, by the directions they leave in (``l``eft,
``r``ight, ``u``p, ``d``own): the walls of boards drawn as grids of rooms or plots."""


class Recent:
    """The results of a drawing function for the last few inputs (a board's map, drawn again
    only when what it shows changed): ``get`` a key's result, ``put`` a new one.

    The results are shared by every screen of the process: they must never be changed.

    Args:
        size: how many results are kept (the oldest go first).
    """

    def __init__(self, size: int = 16) -> None:
        self._size = size
        self._results: dict[Any, Any] = {}

    def get(self, key: Any) -> tuple[bool, Any]:
        """``(True, result)`` if ``key``'s result is kept, else ``(False, None)``."""
        if key in self._results:
            return True, self._results[key]
        return False, None

    def put(self, key: Any, result: Any) -> Any:
        """Keep ``result`` for ``key``; returns it."""
        self._results[key] = result
        if len(self._results) > self._size:
            del self._results[next(iter(self._results))]
        return result


class TableWidget(VerticalScroll):
    """The base of every game's table: it draws one seat's view and the recent events.

    Subclasses override :meth:`draw`. The widget must show only what ``view`` and ``events``
    hold: they are already what the viewer may know. It draws again by itself when resized.
    """

    _shown: tuple[Any, list[Any], list[str]] | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="generic-view")

    def show(self, view: Any, events: list[Any], names: list[str]) -> None:
        """Show ``view`` (one seat's view), given the viewer's ``events`` so far and the seats' ``names``."""
        self._shown = (view, events, names)
        self.draw(view, events, names)

    def on_resize(self) -> None:
        """Draw again for the new width, then lay the table out again: a part drawn while the
        screen is being resized may change its height (a short terminal's parts leave out a
        header) without its layout following."""
        if self._shown is not None:
            self.draw(*self._shown)
            self.call_after_refresh(self._lay_out_parts)

    def action_page_down(self) -> None:
        """``PgDn``: a page on, less the status line that stays on top and one line kept in view."""
        self.scroll_to(y=self.scroll_y + self._page(), animate=False)

    def action_page_up(self) -> None:
        """``PgUp``: a page back (see :meth:`action_page_down`)."""
        self.scroll_to(y=self.scroll_y - self._page(), animate=False)

    def _page(self) -> int:
        docked = sum(child.outer_size.height for child in self.children if child.styles.dock == "top")
        return max(1, self.scrollable_content_region.height - docked - 1)

    def _lay_out_parts(self) -> None:
        """Measure every part's height anew (a resize is rare: the cost does not matter)."""
        for part in self.query(Static):
            part.refresh(layout=True)

    def draw(self, view: Any, events: list[Any], names: list[str]) -> None:
        """Draw ``view``: a plain dump, for games without a table of their own."""
        self.query_one("#generic-view", Static).update(Pretty(view))


class GameUI:
    """How one game appears on screen. The defaults work for any game (a plain dump of the view).

    Attributes:
        game_id: the engine's game id.
        css_path: the game's ``.tcss`` file (loaded by the app), or ``None``.
        legend: Markdown for the help screen: how to read the table.
    """

    game_id = ""
    css_path: Path | None = None
    legend = ""

    def for_options(self, options: Any) -> GameUI:
        """These screen parts for a table played with ``options`` (``None``, a dict or the game's
        options struct), for screens that know them; by default the options change nothing."""
        return self

    def make_table(self) -> TableWidget:
        """A new table widget for this game."""
        return TableWidget(classes="table")

    def describe_action(self, game: Any, action: Any, view: Any, seat: int | None = None) -> str:
        """``action`` in words as the picker and the replay viewer show it: ``game.describe``
        (``seat``, the mover, as in :meth:`engine.Game.describe`)."""
        text: str = game.describe(action, view) if seat is None else game.describe(action, view, seat)
        return text

    def group(self, action: Any, view: Any) -> tuple[str, ...]:
        """The picker's group path for ``action`` (outermost first); ``()`` for no group."""
        return (type(action).__name__,)

    def describe_event(self, event: Any, view: Any, previous: Any = None) -> str | None:
        """One log line for ``event`` as ``view``'s seat knows it, or ``None`` to leave it out.

        ``previous`` is the event just before it in the viewer's events (``None`` at the start
        or when unknown), for lines that depend on it (a reroll follows a roll).
        """
        return repr(event)

    def event_describer(self, events: list[Any], view: Any) -> Callable[[Any], str | None]:
        """A describer of the events of ``events`` for :meth:`tui.widgets.GameLog.show`: each in
        words by :meth:`describe_event`, given the event before it in ``events`` (found without
        going through them all: the log describes only its new events, in order)."""
        at = [-1]  # where the event described last is in ``events`` (the log describes them in order)

        def describe(event: Any) -> str | None:
            index = at[0] + 1
            if not (index < len(events) and events[index] is event):  # look for it from the end
                index = next((k for k in range(len(events) - 1, -1, -1) if events[k] is event), -1)
            at[0] = index
            return self.describe_event(event, view, events[index - 1] if index > 0 else None)

        return describe

    def notices(self, events: list[Any], start: int, view: Any) -> list[str]:
        """What ``view``'s seat should not miss among ``events[start:]`` (a result that comes
        while bots play on), each shown as a notification; by default nothing."""
        return []

    def is_turn_start(self, event: Any) -> bool:
        """True if ``event`` starts a new turn or stage (the replay viewer's "next turn" stops there)."""
        return False

    def seat_name(self, view: Any, seat: int) -> str:
        """A person's name for ``seat`` in ``view``."""
        return f"seat {seat}"

    def result_terms(self, view: Any, outcome: Any) -> tuple[str, list[str], str]:
        """The game-over table in the game's own terms.

        Args:
            view: the final view of whoever looks (a seat's, or the public one).
            outcome: the game's :class:`engine.Outcome`.

        Returns:
            ``(heading, per seat, order)``: the heading of the result column (``"money"``,
            ``"points"``), each seat's result under it (``"$25,000"``, ``"won the Showdown"``), and
            one sentence saying how the places were decided.
        """
        return "score", [f"{score:g}" for score in outcome.scores], "Places go by score; equal scores share a place."

    def board_text(self, view: Any, names: list[str], width: int = 100) -> str | None:
        """The board of ``view`` as plain text (no markup) at most ``width`` columns wide, for
        ``saloon replay show``; ``None`` for games without a text board (the default)."""
        return None
