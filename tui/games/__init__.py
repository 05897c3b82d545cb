"""The per-game screen parts: one module per game, registered in :data:`TABLES`.

Everything else in :mod:`tui` (the action picker, the log, help, result and replay controls) is
shared. A game's module provides a :class:`GameUI`: the table widget that draws its view, how its
actions are grouped in the picker, its events in words, the results worth a notification, and a
legend for the help screen (written for players).
Adding a game is one module here (importing its bases from :mod:`tui.games.base`) plus one line
in :data:`TABLES`.
"""

from __future__ import annotations

from tui.games.base import GameUI, TableWidget

__all__ = ["TABLES", "GameUI", "TableWidget", "ui_for"]


def _deadwood1876() -> GameUI:
    from tui.games.deadwood1876 import Deadwood1876UI

    return Deadwood1876UI()


def _wyatt_earp() -> GameUI:
    from tui.games.wyatt_earp import WyattEarpUI

    return WyattEarpUI()


def _deadwood_studios() -> GameUI:
    from tui.games.deadwood_studios import DeadwoodStudiosUI

    return DeadwoodStudiosUI()


def _deadwood_town() -> GameUI:
    from tui.games.deadwood_town import DeadwoodTownUI

    return DeadwoodTownUI()


TABLES: dict[str, GameUI] = {
    "deadwood1876": _deadwood1876(),
    "wyatt_earp": _wyatt_earp(),
    "deadwood_studios": _deadwood_studios(),
    "deadwood_town": _deadwood_town(),
}
"""The screen parts of every game that has a table screen, by game id."""


def ui_for(game_id: str) -> GameUI:
    """The screen parts for ``game_id``; games without a module of their own get the plain :class:`GameUI`."""
    return TABLES.get(game_id) or GameUI()
