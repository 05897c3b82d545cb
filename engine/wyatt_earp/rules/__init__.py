"""Wyatt Earp's rules, one module per rulebook section, and the phase dispatch tables.

``LEGAL[phase](state, seat)`` lists the legal actions; ``APPLY[phase](state, seat, action)``
applies one already checked to be legal; ``STEPS[step](state)`` takes the game on to a step of
play. The state reaches the first two through its game (``game.legal``, ``game.apply_rules``), so
it imports no rules module; the rules reach ``STEPS`` the same way (``game.steps``).

Modules: :mod:`.setup` (Setup), :mod:`.game_play` (Game Play: 1. Draw, 2. Play, 3. Discard),
:mod:`.sheriff_cards` (Sherriff Cards and shots), :mod:`.end_of_hand` (End of a Hand),
:mod:`.scoring` (Scoring), :mod:`.end_of_game` (End of the Game).

They import each other one way only, in the order of play: :mod:`.setup` → :mod:`.game_play` →
:mod:`.sheriff_cards` and :mod:`.end_of_hand`; :mod:`.sheriff_cards` → :mod:`.end_of_hand` →
:mod:`.scoring` and :mod:`.end_of_game`. Where play goes back (a hand ends and the next is
dealt), :mod:`.end_of_hand` calls ``state.game.steps["start_hand"](state)`` instead of importing
:mod:`.setup`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.wyatt_earp.rules import end_of_game, end_of_hand, game_play, scoring, setup, sheriff_cards

LEGAL: dict[str, Callable[[Any, int], list[Any]]] = {
    "draw": game_play.legal_draw,
    "play": game_play.legal_play,
    "search": sheriff_cards.legal_search,
    "target": sheriff_cards.legal_target,
    "hideout_response": sheriff_cards.legal_hideout_response,
    "free_photo": sheriff_cards.legal_free_photo,
}

APPLY: dict[str, Callable[[Any, int, Any], None]] = {
    "draw": game_play.apply_draw,
    "play": game_play.apply_play,
    "search": sheriff_cards.apply_search,
    "target": sheriff_cards.apply_target,
    "hideout_response": sheriff_cards.apply_hideout_response,
    "free_photo": sheriff_cards.apply_free_photo,
}

STEPS: dict[str, Callable[[Any], None]] = {
    "start_hand": setup.start_hand,
}
"""The steps of play that rules reach without importing their module (see above), by function name."""

__all__ = ["APPLY", "LEGAL", "STEPS", "end_of_game", "end_of_hand", "game_play", "scoring", "setup", "sheriff_cards"]
