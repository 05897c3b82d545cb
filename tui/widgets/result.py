"""The end of a game, for a local table (``saloon play``) and a server table alike: who won, the
ranks and each seat's result in the game's own words, how the places were decided, the seed
(and on a server table the replay's number), and what next.

Made for 80x24 first: the result scrolls (``↑`` ``↓`` ``PgUp`` ``PgDn`` ``Home`` ``End``) when many
seats do not fit, while its title and its keys stay in sight.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

import engine

__all__ = [
    "LOCAL_CHOICES",
    "TABLE_CHOICES",
    "ResultChoice",
    "ResultScreen",
    "headline",
    "result_summary",
    "seat_label",
]


def seat_label(character: str, seat: int, player: str) -> str:
    """A seat at game over, by player and character: ``"alice as Calamity Jane"``, or
    ``"alice (seat 2)"`` in a game whose seats have no other name (``character`` is ``"seat N"``)."""
    if character == f"seat {seat}":
        return f"{player} (seat {seat})"
    return f"{player} as {character}"


def result_summary(ui: Any, view: Any, outcome: engine.Outcome, players: list[str]) -> str:
    """The game's result in one line, best first, in the game's own terms: ``"#1 alice (seat 0)
    $25,000; #2 bob (seat 1) $18,000. The most money wins ..."``.

    Args:
        ui: the game's screen parts (:class:`tui.games.GameUI`: ``seat_name``, ``result_terms``).
        view: the final view of whoever looks.
        outcome: the outcome.
        players: per seat, who played it.
    """
    _heading, results, order = ui.result_terms(view, outcome)
    seats = sorted(range(len(outcome.ranks)), key=lambda s: (outcome.ranks[s], s))
    parts = [f"#{outcome.ranks[s]} {seat_label(ui.seat_name(view, s), s, players[s])}: {results[s]}" for s in seats]
    return "; ".join(parts) + ". " + str(order)


def headline(outcome: engine.Outcome, names: Sequence[str], you: int | None) -> str:
    """Who won, for the person at seat ``you`` (``None``: a spectator).

    >>> outcome = engine.Outcome(scores=(3.0, 5.0), ranks=(2, 1), winners=(1,))
    >>> headline(outcome, ["alice (seat 0)", "bob (seat 1)"], 0)
    'You finish #2. Winner: bob (seat 1)'
    >>> headline(outcome, ["alice (seat 0)", "bob (seat 1)"], 1)
    'You win!'
    >>> headline(engine.Outcome(scores=(0.0, 0.0), ranks=(1, 1), winners=()), ["a", "b"], None)
    'Nobody wins'
    """
    winners = [names[seat] for seat in outcome.winners]
    if you is not None and you in outcome.winners:
        others = [names[seat] for seat in outcome.winners if seat != you]
        return "You win!" if not others else "You share the win with " + ", ".join(others)
    if not winners:
        won = "Nobody wins"
    else:
        won = ("Winner: " if len(winners) == 1 else "Winners: ") + ", ".join(winners)
    if you is not None:
        return f"You finish #{outcome.ranks[you]}. {won}"
    return won


class ResultChoice(NamedTuple):
    """What the result screen offers next: its ``key``, the ``choice`` it dismisses with, its ``label``."""

    key: str
    choice: str
    label: str


LOCAL_CHOICES = (
    ResultChoice("a", "again", "Play again (new seed)"),
    ResultChoice("r", "replay", "Watch the replay"),
    ResultChoice("w", "save", "Save the replay"),
    ResultChoice("q", "quit", "Quit"),
)
"""A local table's choices (``saloon play``), shown as buttons."""

TABLE_CHOICES = (
    ResultChoice("r", "replay", "replay"),
    ResultChoice("l", "lobby", "lobby"),
)
"""A server table's choices, shown as one line of keys (``r: replay  l: lobby``)."""


class ResultScreen(ModalScreen[str | None]):
    """The outcome of a game; dismisses with the ``choice`` of one of its ``choices`` (by its key
    or its button) or ``None`` (Esc: back to the table).

    The title says who won; below it, in a part that scrolls: a row per seat (rank, who played
    it, the result in the game's words, ``WINNER``), how the places were decided, the seed and,
    for a server table, the replay's number; at the bottom, the keys (or buttons), always shown.

    Args:
        title: the game's title.
        outcome: the game's outcome.
        names: per seat, the player's name at the table (character and who played it:
            :func:`seat_label`).
        seed: the game's seed (shown now that the game is over).
        you: the person's seat, if any.
        terms: the game's own words for the result (:meth:`tui.games.GameUI.result_terms`): the
            result column's heading, each seat's result, and how the places were decided; by
            default the outcome's scores under "score".
        replay_id: where the replay is kept, on a server table: a line such as ``"replay #17
            (table K7QX) · ssh ... replay 17 > FILE"``.
        choices: what the person may do next: :data:`LOCAL_CHOICES` (the default, as buttons) or
            :data:`TABLE_CHOICES` (a line of keys); every choice's key must have a binding here.
    """

    DEFAULT_CSS = """
    ResultScreen #result-buttons > Button {
        content-align: left middle;
        text-align: left;
    }
    ResultScreen #result-body {
        height: auto;
        max-height: 45vh;
    }
    ResultScreen #result-box.-keys #result-body {
        max-height: 60vh;
    }
    ResultScreen #result-body > Static {
        margin-top: 1;
    }
    ResultScreen #result-body > #result-table, ResultScreen #result-body > #result-replay {
        margin-top: 0;
    }
    ResultScreen #result-box.-keys #result-keys {
        margin-top: 1;
    }
    """
    """The buttons' labels start at their left edge, so their keys make one straight column. The
    result between the title and the keys scrolls: at 80x24 it keeps 10 lines over a local table's
    buttons, 14 over a server table's line of keys (the title may take two)."""

    AUTO_FOCUS = "#result-body"
    """The scrolling part takes the keys (a button still takes a click, and Tab reaches it)."""

    BINDINGS = [
        Binding("a", "finish('again')", "play again", show=False),
        Binding("r", "finish('replay')", "watch the replay", show=False),
        Binding("w", "finish('save')", "save the replay", show=False),
        Binding("q", "finish('quit')", "quit", show=False),
        Binding("l", "finish('lobby')", "back to the lobby", show=False),
        Binding("escape", "finish", "look at the table"),
        Binding("down", "scroll('down')", show=False, priority=True),
        Binding("up", "scroll('up')", show=False, priority=True),
        Binding("pagedown", "scroll('page_down')", show=False, priority=True),
        Binding("pageup", "scroll('page_up')", show=False, priority=True),
        Binding("home", "scroll('home')", show=False, priority=True),
        Binding("end", "scroll('end')", show=False, priority=True),
    ]
    """Every choice's key (only the offered ones work: :meth:`check_action`), Esc, and the keys
    that scroll the result wherever the focus is in the box (a button may have it), at once: no
    animation (over SSH each of its frames is sent)."""

    def __init__(
        self,
        title: str,
        outcome: engine.Outcome,
        names: list[str],
        seed: int,
        you: int | None,
        terms: tuple[str, list[str], str] | None = None,
        *,
        replay_id: str | None = None,
        choices: Sequence[ResultChoice] = LOCAL_CHOICES,
    ) -> None:
        super().__init__(id="result")
        self._terms = terms or ("score", [f"{score:g}" for score in outcome.scores], "")
        self._title = title
        self._outcome = outcome
        self._names = names
        self._seed = seed
        self._you = you
        self._replay_id = replay_id
        self.choices = tuple(choices)

    def compose(self) -> ComposeResult:
        outcome = self._outcome
        with Vertical(id="result-box", classes="" if self.choices == LOCAL_CHOICES else "-keys"):
            won = headline(outcome, self._names, self._you)
            yield Static(Text(f"{self._title}: {won}", style="bold"), id="result-title")
            with VerticalScroll(id="result-body"):  # many seats on a small screen: it scrolls
                yield Static(self._table(), id="result-table")
                heading, results, order = self._terms
                if order:
                    yield Static(Text(order, style="dim"), id="result-order")
                yield Static(Text(f"seed {self._seed}", style="dim"), id="result-seed")
                if self._replay_id:
                    yield Static(Text(self._replay_id, style="dim"), id="result-replay")
            if self.choices == LOCAL_CHOICES:
                with Vertical(id="result-buttons"):
                    for key, choice, label in self.choices:
                        primary = choice == "again"
                        yield Button(f"{key}  {label}", id=choice, variant="primary" if primary else "default")
                yield Static(Text("Esc: the table   ↑↓ PgUp PgDn: scroll", style="dim"), id="result-keys")
            else:
                keys = "   ".join(f"{key}: {label}" for key, _choice, label in self.choices)
                yield Static(Text(f"{keys}   Esc: the table   ↑↓ PgUp PgDn: scroll"), id="result-keys")

    def _table(self) -> Table:
        """A row per seat, best first: rank, who played it, the result in the game's words, ``WINNER``."""
        outcome = self._outcome
        table = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold")
        table.add_column("#", justify="right")
        table.add_column("player")
        heading, results, _order = self._terms
        table.add_column(heading, justify="right")
        table.add_column("")
        for seat in sorted(range(len(outcome.ranks)), key=lambda s: (outcome.ranks[s], s)):
            note = "WINNER" if seat in outcome.winners else ""
            table.add_row(str(outcome.ranks[seat]), self._names[seat], results[seat], note)
        return table

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the offered choices' keys work."""
        if action == "finish" and parameters:
            return any(choice == parameters[0] for _key, choice, _label in self.choices)
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A button does what its key does."""
        self.dismiss(event.button.id)

    def action_finish(self, choice: str | None = None) -> None:
        """Close with ``choice``."""
        self.dismiss(choice)

    def action_scroll(self, how: str) -> None:
        """Scroll the result: ``"down"``, ``"up"``, ``"page_down"``, ``"page_up"``, ``"home"``, ``"end"``."""
        scroll = self.query_one("#result-body", VerticalScroll)
        getattr(scroll, f"scroll_{how}")(animate=False)
