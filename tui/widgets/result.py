"""The end of a game: the ranks and scores, and what next (play again, watch the replay, save it)."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

import engine

__all__ = ["ResultScreen", "result_summary", "seat_label"]


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


class ResultScreen(ModalScreen[str | None]):
    """The outcome of a game; dismisses with ``"again"``, ``"replay"``, ``"save"``, ``"quit"`` or ``None``.

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
    """

    DEFAULT_CSS = """
    ResultScreen #result-buttons > Button {
        content-align: left middle;
        text-align: left;
    }
    """
    """The buttons' labels start at their left edge, so their keys make one straight column."""

    BINDINGS = [
        Binding("a", "finish('again')", "play again"),
        Binding("r", "finish('replay')", "watch the replay"),
        Binding("w", "finish('save')", "save the replay"),
        Binding("q", "finish('quit')", "quit"),
        Binding("escape", "finish", "look at the table"),
    ]

    def __init__(
        self,
        title: str,
        outcome: engine.Outcome,
        names: list[str],
        seed: int,
        you: int | None,
        terms: tuple[str, list[str], str] | None = None,
    ) -> None:
        super().__init__(id="result")
        self._terms = terms or ("score", [f"{score:g}" for score in outcome.scores], "")
        self._title = title
        self._outcome = outcome
        self._names = names
        self._seed = seed
        self._you = you

    def compose(self) -> ComposeResult:
        outcome = self._outcome
        with Vertical(id="result-box"):
            if self._you is not None and self._you in outcome.winners:
                headline = "You win!"
            elif self._you is not None:
                headline = f"You finish #{outcome.ranks[self._you]}"
            else:
                headline = "Game over"
            yield Static(Text(f"{self._title}: {headline}", style="bold"), id="result-title")
            table = Table(box=None, padding=(0, 2), header_style="bold")
            table.add_column("rank", justify="right")
            table.add_column("player")
            heading, results, order = self._terms
            table.add_column(heading, justify="right")
            table.add_column("")
            for seat in sorted(range(len(outcome.ranks)), key=lambda s: (outcome.ranks[s], s)):
                note = "WINNER" if seat in outcome.winners else ""
                who = self._names[seat]
                table.add_row(str(outcome.ranks[seat]), who, results[seat], note)
            with VerticalScroll(id="result-scroll"):  # many seats on a small screen: it scrolls
                yield Static(table, id="result-table")
                if order:
                    yield Static(Text(order, style="dim"), id="result-order")
            yield Static(Text(f"seed {self._seed}", style="dim"), id="result-seed")
            with Vertical(id="result-buttons"):
                yield Button("a  Play again (new seed)", id="again", variant="primary")
                yield Button("r  Watch the replay", id="replay")
                yield Button("w  Save the replay", id="save")
                yield Button("q  Quit", id="quit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A button does what its key does."""
        self.dismiss(event.button.id)

    def action_finish(self, choice: str | None = None) -> None:
        """Close with ``choice``."""
        self.dismiss(choice)
