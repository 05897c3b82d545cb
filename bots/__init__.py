"""Saloon bots: the :class:`Bot` protocol, built-in bots, loading submissions and playing games.

>>> from bots import make_bot, play_game
>>> bots = [make_bot("random", seed=seat) for seat in range(5)]
>>> result = play_game("deadwood1876", 5, bots, seed=1)  # doctest: +SKIP
>>> result.outcome.winners  # doctest: +SKIP

Each game's ``heuristic`` strategy registers here, one line a game (its module is imported at its
first decision; see :mod:`bots.heuristic`).
"""

from __future__ import annotations

from bots.base import Bot, RandomBot, UnknownBot, make_bot
from bots.heuristic import HeuristicBot, register_strategy
from bots.ismcts import IsmctsBot
from bots.pimc import HouseSearchBot, PimcBot
from bots.play import GameResult, TimedBot, play_game, random_playout

register_strategy("deadwood1876", "bots.deadwood1876_heuristic:Deadwood1876Strategy")
register_strategy("wyatt_earp", "bots.wyatt_earp_heuristic:WyattEarpStrategy")
register_strategy("deadwood_studios", "bots.deadwood_studios_heuristic:DeadwoodStudiosStrategy")
register_strategy("deadwood_town", "bots.deadwood_town_heuristic:DeadwoodTownStrategy")

__all__ = [
    "Bot",
    "GameResult",
    "HeuristicBot",
    "HouseSearchBot",
    "IsmctsBot",
    "PimcBot",
    "RandomBot",
    "TimedBot",
    "UnknownBot",
    "make_bot",
    "play_game",
    "random_playout",
    "register_strategy",
]
