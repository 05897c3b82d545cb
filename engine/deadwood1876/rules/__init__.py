"""Deadwood 1876's rules, one module per rulebook section, and the phase dispatch tables.

``LEGAL[phase](state, seat)`` lists the legal actions; ``APPLY[phase](state, seat, action)``
applies one already checked to be legal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.deadwood1876.rules import badge_round, fight, heist, laws, mystery, setup, showdown, turn

LEGAL: dict[str, Callable[[Any, int], list[Any]]] = {
    "pass_safe": setup.legal_pass_safe,
    "turn": turn.legal_turn,
    "duster": turn.legal_duster,
    "stetson": turn.legal_stetson,
    "defend": fight.legal_defend,
    "holster": fight.legal_holster,
    "choose_holster": fight.legal_choose_holster,
    "send_away": fight.legal_send_away,
    "give_safe": laws.legal_give_safe,
    "heist": heist.legal_heist,
    "showdown": showdown.legal_showdown,
    "give_to_stranger": setup.legal_give_to_stranger,
    "dagger": mystery.legal_dagger,
    "explosives": mystery.legal_explosives,
    "poker_deck": mystery.legal_poker_deck,
}

APPLY: dict[str, Callable[[Any, int, Any], None]] = {
    "pass_safe": setup.apply_pass_safe,
    "turn": turn.apply_turn,
    "duster": turn.apply_duster,
    "stetson": turn.apply_stetson,
    "defend": fight.apply_defend,
    "holster": fight.apply_holster,
    "choose_holster": fight.apply_choose_holster,
    "send_away": fight.apply_send_away,
    "give_safe": laws.apply_give_safe,
    "heist": heist.apply_heist,
    "showdown": showdown.apply_showdown,
    "give_to_stranger": setup.apply_give_to_stranger,
    "dagger": mystery.apply_dagger,
    "explosives": mystery.apply_explosives,
    "poker_deck": mystery.apply_poker_deck,
}

__all__ = ["APPLY", "LEGAL", "badge_round", "fight", "heist", "laws", "mystery", "setup", "showdown", "turn"]
