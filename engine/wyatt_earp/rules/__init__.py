"""Wyatt Earp's rules, one module per rulebook section, and the phase dispatch tables.

``LEGAL[phase](state, seat)`` lists the legal actions; ``APPLY[phase](state, seat, action)``
applies one already checked to be legal.

Modules: :mod:`.setup` (Setup), :mod:`.game_play` (Game Play: 1. Draw, 2. Play, 3. Discard),
:mod:`.sheriff_cards` (Sherriff Cards and shots), :mod:`.end_of_hand` (End of a Hand),
:mod:`.scoring` (Scoring), :mod:`.end_of_game` (End of the Game).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.wyatt_earp.rules import end_of_game, end_of_hand, game_play, scoring, setup, sheriff_cards

LEGAL: dict[str, Callable[[Any, int], list[Any]]] = {
    "draw": game_play.legal_draw,
    "play": game_play.legal_play,
    "target": sheriff_cards.legal_target,
    "hideout_response": sheriff_cards.legal_hideout_response,
    "free_photo": sheriff_cards.legal_free_photo,
}

APPLY: dict[str, Callable[[Any, int, Any], None]] = {
    "draw": game_play.apply_draw,
    "play": game_play.apply_play,
    "target": sheriff_cards.apply_target,
    "hideout_response": sheriff_cards.apply_hideout_response,
    "free_photo": sheriff_cards.apply_free_photo,
}

__all__ = ["APPLY", "LEGAL", "end_of_game", "end_of_hand", "game_play", "scoring", "setup", "sheriff_cards"]
