"""Saloon's rules engines behind one contract (see ``DESIGN.md``: The engine contract).

>>> import engine
>>> g = engine.game("deadwood1876")
>>> st = g.new_game(5, seed=7)
>>> sorted(st.to_act)
[0, 1, 2, 3, 4]

The engine does no I/O and holds no global random state: every state owns its
:class:`~engine.core.Chance`, seeded by ``seed``.
"""

from __future__ import annotations

from engine.core import (
    MAX_SEED,
    OMNISCIENT,
    Chance,
    Game,
    GameCapped,
    IllegalAction,
    InvalidOptions,
    Outcome,
    State,
    UnknownGame,
    forfeit_outcome,
    game,
    games,
    legal_index,
    parse_options,
    rank_by_scores,
    register,
)


def _deadwood1876() -> Game:
    from engine.deadwood1876 import GAME

    return GAME


register("deadwood1876", _deadwood1876)


def _wyatt_earp() -> Game:
    from engine.wyatt_earp import GAME

    return GAME


register("wyatt_earp", _wyatt_earp)


def _deadwood_studios() -> Game:
    from engine.deadwood_studios import GAME

    return GAME


register("deadwood_studios", _deadwood_studios)


def _deadwood_town() -> Game:
    from engine.deadwood_town import GAME

    return GAME


register("deadwood_town", _deadwood_town)

__all__ = [
    "OMNISCIENT",
    "Chance",
    "Game",
    "GameCapped",
    "MAX_SEED",
    "IllegalAction",
    "InvalidOptions",
    "Outcome",
    "State",
    "UnknownGame",
    "forfeit_outcome",
    "game",
    "games",
    "legal_index",
    "parse_options",
    "rank_by_scores",
    "register",
]
