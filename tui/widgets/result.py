"""The end of a game: the ranks and scores, and what next (play again, watch the replay, save it)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

import engine

__all__ = ["ResultScreen"]


class ResultScreen(ModalScreen[str | None]):
    """The outcome of a game; dismisses with ``"again"``, ``"replay"``, ``"save"``, ``"quit"`` or ``None``.

    Args:
        title: the game's title.
        outcome: the game's outcome.
        names: per seat, the player's name at the table (character and who played it).
        seed: the game's seed (shown now that the game is over).
        you: the person's seat, if any.
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

    def __init__(self, title: str, outcome: engine.Outcome, names: list[str], seed: int, you: int | None) -> None:
        super().__init__(id="result")
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
            table.add_column("score", justify="right")
            table.add_column("")
            for seat in sorted(range(len(outcome.ranks)), key=lambda s: (outcome.ranks[s], s)):
                note = "WINNER" if seat in outcome.winners else ""
                who = self._names[seat]
                table.add_row(str(outcome.ranks[seat]), who, f"{outcome.scores[seat]:g}", note)
            yield Static(table, id="result-table")
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
