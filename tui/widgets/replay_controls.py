"""The replay viewer's control bar: where we are, whose view, and the keys."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

__all__ = ["ReplayControls"]


class ReplayControls(Static):
    """One or two lines: move number, point of view, the last move and the keys."""

    def show(self, position: int, total: int, pov: str, last_move: str) -> None:
        """Show move ``position`` of ``total``, seen by ``pov``, after ``last_move``."""
        text = Text.assemble(
            (" REPLAY ", "reverse bold"),
            f" move {position}/{total}\n",
            ("view: ", "dim"),
            (pov, "bold"),
            "\n",
            (last_move, ""),
            "\n",
            ("←→ step · Home End · n p turn · v view", "dim"),
        )
        self.update(text)
