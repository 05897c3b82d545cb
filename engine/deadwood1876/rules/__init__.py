"""Deadwood 1876's rules, one module per rulebook section, and the dispatch tables.

``LEGAL[phase](state, seat)`` lists the legal actions; ``APPLY[phase](state, seat, action)``
applies one already checked to be legal; ``STEPS[step](state)`` takes the game on to a step of
play. The state reaches the first two through its game (``game.legal``, ``game.apply_rules``), so
it imports no rules module; the rules reach ``STEPS`` the same way (``game.steps``).

The modules import each other one way only, in the order of play: :mod:`.setup` → :mod:`.turn`
→ :mod:`.heist` and :mod:`.badge_round`; :mod:`.heist` → :mod:`.fight` → :mod:`.laws`;
:mod:`.badge_round` → :mod:`.mystery` and :mod:`.showdown`; :mod:`.showdown` → :mod:`.mystery`
and :mod:`.fight`. Where play goes back (a fight or a gained Safe ends the turn, a Heist is
followed by the next turn, the Mystery Safes by the Final Showdown), the rule calls
``state.game.steps[step](state)`` instead of importing a module that imports it.
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

STEPS: dict[str, Callable[[Any], None]] = {
    "start_turn": turn.start_turn,
    "end_turn": turn.end_turn,
    "finish_heist": heist.finish_heist,
    "start_showdown": showdown.start_showdown,
}
"""The steps of play that rules reach without importing their module (see above), by function name."""

__all__ = ["APPLY", "LEGAL", "STEPS", "badge_round", "fight", "heist", "laws", "mystery", "setup", "showdown", "turn"]
