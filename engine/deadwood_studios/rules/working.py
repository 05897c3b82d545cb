"""Working on a Role (rulebook): act or rehearse; you cannot walk off a role.

Acting: roll one die and add your practice chips; a total equal to or higher than the film's
budget succeeds. On the card: success pays 2 credits, failure nothing. Off the card (an extra):
success pays $1 and 1 credit, failure $1. A success removes one shot counter from the set; the
last one wraps the scene (:mod:`.wrapping`), and a day with one scene left is over
(:mod:`.ending_the_day`).

Rehearsing: take a practice chip (+1 on every roll on this role, for all its shots), as long as
success is not sure yet: at most ``budget - 1`` chips, after which you must act. Chips belong to
the role: they go when the player leaves it (a wrap, or the end of the day).
"""

from __future__ import annotations

from typing import Any

from engine.deadwood_studios.events import Acted, Rehearsed, ShotRemoved
from engine.deadwood_studios.rules import ending_the_day, on_your_turn, wrapping
from engine.deadwood_studios.state import COMP, DeadwoodStudiosState

D6 = (1, 2, 3, 4, 5, 6)
"""The faces of a die (every roll: ``chance.roll(D6)``)."""
ON_CARD_SUCCESS_CREDITS = 2
OFF_CARD_SUCCESS_DOLLARS = 1
OFF_CARD_SUCCESS_CREDITS = 1
OFF_CARD_FAILURE_DOLLARS = 1

_ROOM_IDS = COMP.room_ids
_SCENES = COMP.scenes
_BUDGET = on_your_turn.BUDGET


def role_name(st: DeadwoodStudiosState, seat: int) -> str:
    """The name of the role ``seat`` works on (it must have one)."""
    s = st.room[seat]
    if st.on_card[seat]:
        return _SCENES[st.scene[s]].roles[st.role[seat]].name
    return COMP.extras[s][st.role[seat]].name


def apply_rehearse(st: DeadwoodStudiosState, seat: int, action: Any) -> None:
    """Add a practice chip; the turn ends."""
    st.chips[seat] += 1
    s = st.room[seat]
    st.emit(Rehearsed(seat, _ROOM_IDS[s], role_name(st, seat), st.chips[seat], _BUDGET[st.scene[s]]))
    on_your_turn.end_turn(st, seat)


def apply_act(st: DeadwoodStudiosState, seat: int, action: Any) -> None:
    """Roll, pay, remove a shot on a success; a last shot wraps the scene, and one scene left ends
    the day. Otherwise the turn ends."""
    s = st.room[seat]
    budget = _BUDGET[st.scene[s]]
    chips = st.chips[seat]
    die = st.chance.roll(D6)
    total = die + chips
    success = total >= budget
    on_card = st.on_card[seat]
    if on_card:
        dollars, credits = 0, ON_CARD_SUCCESS_CREDITS if success else 0
    elif success:
        dollars, credits = OFF_CARD_SUCCESS_DOLLARS, OFF_CARD_SUCCESS_CREDITS
    else:
        dollars, credits = OFF_CARD_FAILURE_DOLLARS, 0
    st.dollars[seat] += dollars
    st.credits[seat] += credits
    set_id = _ROOM_IDS[s]
    st.emit(Acted(seat, set_id, role_name(st, seat), on_card, die, chips, total, budget, success, dollars, credits))
    if success:
        st.shots_left[s] -= 1
        st.emit(ShotRemoved(set_id, st.shots_left[s], COMP.shots[s]))
        if st.shots_left[s] == 0:
            wrapping.wrap(st, s, seat)
            if st.scenes_left() == 1:
                ending_the_day.end_day(st, seat)
                return
    on_your_turn.end_turn(st, seat)
