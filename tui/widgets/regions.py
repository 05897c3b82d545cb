"""The keys that reach every region of a game's screen: the moves, the board, the log and the chat.

A table screen is made for the smallest terminal first (80x24): the board, the moves and the
log cannot all show whole there, so each is a region the keyboard reaches and scrolls:

* ``Tab`` and ``Shift+Tab`` focus the next and the previous region (moves → board → log → chat,
  at tables with a chat); the focused region is tinted, and the moves' title says what the keys
  do there;
* the arrows, ``PgUp`` ``PgDn`` ``Home`` ``End`` scroll the focused region (in the moves: move the
  highlight);
* ``z`` zooms the board to the whole screen (the log or the chat if it has the focus), and back
  (``Esc`` too); leaving a zoom brings every region back to where it shows what matters: the
  moves at their top level (out of any group), the board at its top (or where the game's table
  widget says, its ``home_y()``), the log at its newest lines;
* ``1``-``9`` pick a move from any region but the chat line; ``Esc`` goes back to the moves.

:class:`Regions` gives a screen these keys; :data:`KEYS_HELP` is their part of the ``?`` help.
"""

from __future__ import annotations

from textual import events, on
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from tui.widgets.log import GameLog
from tui.widgets.picker import MOVES_HINT, ActionPicker

__all__ = ["KEYS_HELP", "REGION_BINDINGS", "REGION_HINTS", "Regions"]

REGION_BINDINGS = [
    Binding("1", "pick(1)", "move", key_display="1-9"),
    *(Binding(str(d), f"pick({d})", show=False) for d in range(2, 10)),
    Binding("tab", "region(1)", "board/log", key_display="tab", priority=True),
    Binding("shift+tab", "region(-1)", "back", show=False, priority=True),
    Binding("z", "zoom", "zoom"),
]
"""The region keys, for a screen's ``BINDINGS`` (shown in the footer: ``1-9 move``, ``tab
board/log``, ``z zoom``). ``Tab`` takes priority: the chat line and the moves keep no use for it."""

REGION_HINTS = {
    "moves": MOVES_HINT,
    "board": "board: ↑↓ PgUp PgDn, Esc back",
    "log": "log: ↑↓ PgUp PgDn, Esc back",
    "chat": "chat: Enter sends, Esc back",
}
"""What the moves' title says the keys do in each region, while that region has the focus:
short, so that the title keeps its one line on an 80-column terminal (no new layout)."""

KEYS_HELP = """\
| `Tab` `Shift+Tab` | the next (previous) region: moves, board, log, chat (server tables) |
| `↑` `↓` `PgUp` `PgDn` `Home` `End` | scroll the focused board or log (the chat: `PgUp` `PgDn`) |
| `z` | zoom the board to the whole screen, or the log or chat if focused (`z` or `Esc`: back) |
| `Esc` | back to the moves (from the board, the log or the chat) |
"""
"""The region keys, as rows of the help screen's key table (Markdown)."""


class Regions(Screen[None]):
    """A game's screen whose regions the keyboard reaches: see the module's docstring.

    The screen composes an :class:`ActionPicker` (the moves), the game's table widget (class
    ``table``: the board), a :class:`GameLog` and, at server tables, a chat log and its line
    (ids ``st-chat`` and ``st-say``: the chat region is the line, Tab goes on from it).
    """

    ESCAPE_TO_MINIMIZE = False  # Esc out of a zoom goes back to the moves (key_escape)
    _zoomed_from: Widget | None = None

    def watch_maximized(self, before: Widget | None, now: Widget | None) -> None:
        """Out of a zoom, by whichever key: every region where it shows what matters
        (:meth:`home_regions`)."""
        if before is not None and now is None:
            self.home_regions()

    def home_regions(self) -> None:
        """The moves at their top level (a digit pressed in the zoom may have opened a group the
        person did not see), the board at its top or where its widget says (``home_y()``: a game
        whose top is not what matters most), the log at its newest lines."""
        self.query_one(ActionPicker).to_top()
        log = self.query_one(GameLog)
        log.scroll_end(animate=False, immediate=True, x_axis=False)  # the log follows its end again
        table = self.query(".table")
        if table:
            board = table.first()
            home = getattr(board, "home_y", None)
            board.scroll_to(y=0, animate=False, immediate=True)
            if home is not None:  # laid out at its new size first
                self.call_after_refresh(lambda: board.scroll_to(y=home(), animate=False, immediate=True))

    def region_widgets(self) -> list[tuple[str, Widget]]:
        """The regions shown now, in Tab order: ``(name, the widget that takes the focus)``."""
        found: list[tuple[str, Widget]] = [("moves", self.query_one(ActionPicker).options)]
        table = self.query(".table")
        if table and table.first().display:
            found.append(("board", table.first()))
        found.append(("log", self.query_one(GameLog)))
        say = self.query("#st-say")
        if say:
            found.append(("chat", say.first()))
        return found

    def focused_region(self) -> str | None:
        """The name of the region that has the focus (``None``: none of them)."""
        focused = self.focused
        chat = self.query("#st-chat")
        for name, widget in self.region_widgets():
            if focused is widget or (name == "chat" and chat and focused is chat.first()):
                return name
        return None

    def action_region(self, step: int) -> None:
        """Focus the next (``step`` 1) or the previous (-1) region."""
        if self.maximized is not None:
            self.minimize()
        regions = self.region_widgets()
        names = [name for name, _ in regions]
        now = self.focused_region()
        index = names.index(now) if now in names else 0
        regions[(index + step) % len(regions)][1].focus()

    def action_zoom(self) -> None:
        """Zoom the board (the log or the chat when it has the focus) to the whole screen, or back
        (the focus goes back where it was)."""
        if self.maximized is not None:
            self.minimize()
            back = self._zoomed_from
            if back is not None and back.is_attached:
                back.focus()
            return
        self._zoomed_from = self.focused
        now = self.focused_region()
        regions = dict(self.region_widgets())
        if now not in ("log", "chat"):
            now = "board" if "board" in regions else "log"
        focus = regions[now]
        self.maximized = focus.parent if now == "chat" and focus.parent is not None else focus  # the chat with its log
        focus.focus()

    def action_pick(self, number: int) -> None:
        """A digit pressed outside the moves picks there too (the chat line keeps its digits)."""
        if isinstance(self.focused, Input):
            return
        self.query_one(ActionPicker).action_pick(number)

    def key_escape(self, event: events.Key) -> None:
        """Esc outside the moves: back to the moves (and out of a zoom)."""
        if self.focused_region() not in (None, "moves") or self.maximized is not None:
            event.stop()
            if self.maximized is not None:
                self.minimize()
            self.query_one(ActionPicker).options.focus()

    def key_pageup(self) -> None:
        """``PgUp`` on the chat line scrolls the chat (the line itself has nothing to scroll)."""
        self._scroll_chat(-1)

    def key_pagedown(self) -> None:
        """``PgDn`` on the chat line scrolls the chat."""
        self._scroll_chat(1)

    def _scroll_chat(self, pages: int) -> None:
        chat = self.query("#st-chat")
        if chat and isinstance(self.focused, Input):
            if pages < 0:
                chat.first().scroll_page_up()
            else:
                chat.first().scroll_page_down()

    @on(events.DescendantFocus)
    def _focus_moved(self, event: events.DescendantFocus) -> None:
        """Say in the moves' title what the keys do in the region that now has the focus."""
        self.show_region_hint()

    def show_region_hint(self) -> None:
        """The moves' title: the keys of the focused region."""
        name = self.focused_region() or "moves"
        self.query_one(ActionPicker).hint(REGION_HINTS[name])

    def tell_log(self, text: str, *, result: bool = False) -> None:
        """Write ``text`` in the log (``result``: it stands out, as a fight's result does)."""
        self.query_one(GameLog).note(text, result=result)
