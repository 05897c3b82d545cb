"""Deadwood Studios' rules, one module per rulebook section, and the dispatch tables.

``LEGAL[phase](state, seat)`` lists the legal actions; ``APPLY[type(action)](state, seat, action)``
applies one already checked to be legal; ``STEPS[step](state, seat)`` takes the turn on to a step
of play. The state reaches the first two through its game (``game.legal``, ``game.apply_rules``),
so it imports no rules module; the rules reach ``STEPS`` the same way (``game.steps``).

Modules: :mod:`.setting_up` (Setting Up, Setup for Different Group Sizes), :mod:`.on_your_turn`
(On Your Turn), :mod:`.moving` (Moving and Taking Roles), :mod:`.working` (Working on a Role),
:mod:`.wrapping` (It's a Wrap!), :mod:`.upgrading` (Upgrading), :mod:`.ending_the_day` (Ending
the Day), :mod:`.scoring` (Scoring).

They import each other one way only: :mod:`.working` → :mod:`.wrapping`, :mod:`.ending_the_day`
and :mod:`.on_your_turn`; :mod:`.ending_the_day` → :mod:`.scoring`, :mod:`.on_your_turn` and
:mod:`.setting_up` → :mod:`.on_your_turn` → :mod:`.upgrading`; :mod:`.moving` →
:mod:`.on_your_turn`. Where play goes back (after an upgrade the turn goes on; at the end of a
turn, the no-progress rule may call the day), :mod:`.upgrading` calls
``state.game.steps["go_on"](state, seat)`` instead of importing :mod:`.on_your_turn`, and
:func:`.on_your_turn.end_turn` calls ``state.game.steps["end_turn"](state, seat)``
(:func:`.ending_the_day.end_turn`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.deadwood_studios.actions import Act, EndTurn, Move, Rehearse, TakeRole, Upgrade
from engine.deadwood_studios.rules import (
    ending_the_day,
    moving,
    on_your_turn,
    scoring,
    setting_up,
    upgrading,
    working,
    wrapping,
)

LEGAL: dict[str, Callable[[Any, int], list[Any]]] = {
    "move": on_your_turn.legal_move,
    "work": on_your_turn.legal_work,
}

APPLY: dict[type, Callable[[Any, int, Any], None]] = {
    Move: moving.apply_move,
    TakeRole: moving.apply_take_role,
    Upgrade: upgrading.apply_upgrade,
    EndTurn: on_your_turn.apply_end_turn,
    Act: working.apply_act,
    Rehearse: working.apply_rehearse,
}

STEPS: dict[str, Callable[[Any, int], None]] = {
    "go_on": on_your_turn.go_on,
    "end_turn": ending_the_day.end_turn,
}
"""The steps of play that rules reach without importing their module (see above), by function name."""

__all__ = [
    "APPLY",
    "LEGAL",
    "STEPS",
    "ending_the_day",
    "moving",
    "on_your_turn",
    "scoring",
    "setting_up",
    "upgrading",
    "working",
    "wrapping",
]
