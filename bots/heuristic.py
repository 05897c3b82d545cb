"""The built-in ``heuristic`` bot: a hand-written strategy per game, chosen by ``view.game``.

>>> from bots.heuristic import HeuristicBot
>>> bot = HeuristicBot(seed=1)
>>> bot.name
'heuristic'
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["HeuristicBot"]


def _strategy(game: str, seed: int) -> Any:
    """The strategy object for ``game`` (with a ``choose(view, legal, seat)`` method), or ``None``."""
    if game == "deadwood1876":
        from bots.deadwood1876_heuristic import Deadwood1876Strategy

        return Deadwood1876Strategy(seed)
    if game == "wyatt_earp":
        from bots.wyatt_earp_heuristic import WyattEarpStrategy

        return WyattEarpStrategy(seed)
    return None


class HeuristicBot:
    """Plays by a per-game heuristic that reads only its view and the legal actions.

    Games without a heuristic strategy are played uniformly at random. The same seed and the same
    decisions give the same choices.

    Args:
        seed: seeds the strategy's tie-breaking (and the random fallback).
    """

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._strategies: dict[str, Any] = {}
        self._random = random.Random(seed)

    def act(self, view: Any, legal_actions: list[Any], seat: int) -> Any:
        """Choose one of ``legal_actions``."""
        game = getattr(view, "game", "")
        if game not in self._strategies:
            self._strategies[game] = _strategy(game, self.seed)
        strategy = self._strategies[game]
        if strategy is None:
            return legal_actions[self._random.randrange(len(legal_actions))]
        return strategy.choose(view, legal_actions, seat)
