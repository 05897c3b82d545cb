"""Deadwood's rules, one module per part of the rules summary, the phase tables and the effect loop.

``LEGAL[phase](state, seat)`` lists the legal actions; ``APPLY[phase](state, seat, action)``
applies one already checked to be legal; :func:`run` then resolves the effect queue up to the
next decision. ``HANDLERS[item[0]](state, item)`` resolves one queue item.

Modules: :mod:`.setup` (Setup), :mod:`.turn` (Turn Structure: Head Back to the Ranch, Hit the
Town, the next player), :mod:`.shootout` (Shootouts), :mod:`.annexing` (Annexing Buildings: every
building's effect), :mod:`.railroad` (The Railroad, the Train Station, new buildings, the stacks
and the Fortune Teller), :mod:`.end_of_game` (Game End Triggers and Final Scoring).

Phases: ``turn``, ``head_back``, ``annex``, ``skedaddle``, ``cartridge``, ``steal``, ``gs_pick``,
``gs_move``, ``grift``, ``give_poster``, ``dance``, ``telegraph``, ``look``, ``arrange``,
``hire``, ``sheriff``, ``station``, ``choose_tile``, ``build``, ``stage_stack``, ``over``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.deadwood_town.rules import annexing, end_of_game, railroad, setup, shootout, turn

LEGAL: dict[str, Callable[[Any, int], list[Any]]] = {
    "turn": turn.legal_turn,
    "head_back": turn.legal_head_back,
    "annex": annexing.legal_annex,
    "skedaddle": shootout.legal_skedaddle,
    "cartridge": shootout.legal_cartridge,
    "steal": annexing.legal_steal,
    "gs_pick": annexing.legal_gs_pick,
    "gs_move": annexing.legal_gs_move,
    "grift": annexing.legal_grift,
    "give_poster": annexing.legal_give_poster,
    "dance": annexing.legal_dance,
    "telegraph": annexing.legal_telegraph,
    "hire": annexing.legal_hire,
    "sheriff": annexing.legal_sheriff,
    "look": railroad.legal_look,
    "arrange": railroad.legal_arrange,
    "station": railroad.legal_station,
    "choose_tile": railroad.legal_choose_tile,
    "build": railroad.legal_build,
    "stage_stack": railroad.legal_stage_stack,
}

APPLY: dict[str, Callable[[Any, int, Any], None]] = {
    "turn": turn.apply_turn,
    "head_back": turn.apply_head_back,
    "annex": annexing.apply_annex,
    "skedaddle": shootout.apply_skedaddle,
    "cartridge": shootout.apply_cartridge,
    "steal": annexing.apply_steal,
    "gs_pick": annexing.apply_gs_pick,
    "gs_move": annexing.apply_gs_move,
    "grift": annexing.apply_grift,
    "give_poster": annexing.apply_give_poster,
    "dance": annexing.apply_dance,
    "telegraph": annexing.apply_telegraph,
    "hire": annexing.apply_hire,
    "sheriff": annexing.apply_sheriff,
    "look": railroad.apply_look,
    "arrange": railroad.apply_arrange,
    "station": railroad.apply_station,
    "choose_tile": railroad.apply_choose_tile,
    "build": railroad.apply_build,
    "stage_stack": railroad.apply_stage_stack,
}

HANDLERS: dict[str, Callable[[Any, tuple[Any, ...]], None]] = {
    "offer": annexing.offer,
    "op": annexing.do_op,
    "reannex": annexing.reannex,
    "shootout": shootout.start,
    "draw": railroad.draw_for_town_hall,
}

ASKED_ALWAYS = frozenset({"turn", "annex"})
"""Phases asked even with a single legal action (a turn, an annex); any other decision with one
legal choice is taken by the engine."""


def run(st: Any) -> None:
    """Resolve the effect queue until a decision is owed or the game is over; at the end of a
    turn, start the next one (:func:`.turn.end_turn`)."""
    while True:
        waiting = st.waiting
        if waiting:
            if st.phase in ASKED_ALWAYS:
                return
            seat = waiting[0]
            legal = st._legal_of(seat)
            if len(legal) != 1:
                return
            phase = st.phase
            st._legal = {}
            st.waiting = ()
            APPLY[phase](st, seat, legal[0])
            continue
        if st.queue:
            item = st.queue.pop()
            HANDLERS[item[0]](st, item)
            continue
        if st.result is not None:
            return
        turn.end_turn(st)


__all__ = ["APPLY", "HANDLERS", "LEGAL", "annexing", "end_of_game", "railroad", "run", "setup", "shootout", "turn"]
