"""Moving and Taking Roles (rulebook).

Moving: a player not working on a role may move one step, to any adjacent room. The first player
to move into a set whose scene card is face down turns it face up.

Taking a role: put your die on a free role of the set you stand in, of a rank equal to or lower
than yours: an extra printed on the board or a starring role on the scene card. Only on a scene
that is face up and not wrapped; one player per role. You may take a role without moving, or
after moving on the same turn, but you do not work on it until your next turn: taking a role
ends the turn.
"""

from __future__ import annotations

from typing import Any

from engine.deadwood_studios.components import NUM_SETS
from engine.deadwood_studios.events import Moved, RoleTaken, SceneRevealed
from engine.deadwood_studios.rules import on_your_turn
from engine.deadwood_studios.state import COMP, DeadwoodStudiosState

_ROOM_IDS = COMP.room_ids
_EXTRA_INDEX: tuple[dict[Any, int], ...] = tuple(
    {take: i for i, take in enumerate(takes)} for takes in on_your_turn.TAKE_EXTRA
)
_STARRING_INDEX: tuple[dict[Any, int], ...] = tuple(
    {take: i for i, take in enumerate(takes)} for takes in on_your_turn.TAKE_STARRING
)


def apply_move(st: DeadwoodStudiosState, seat: int, action: Any) -> None:
    """Move ``seat`` one step; turn the scene face up if nobody has walked in yet today."""
    origin = st.room[seat]
    to = on_your_turn.MOVE_TO[action]
    st.room[seat] = to
    st.moved = True
    st.emit(Moved(seat, _ROOM_IDS[origin], _ROOM_IDS[to]))
    if to < NUM_SETS and st.scene[to] >= 0 and not st.face_up[to]:
        st.face_up[to] = True
        st.emit(SceneRevealed(seat, _ROOM_IDS[to], COMP.scenes[st.scene[to]]))
    on_your_turn.go_on(st, seat)


def apply_take_role(st: DeadwoodStudiosState, seat: int, action: Any) -> None:
    """Put ``seat``'s die on the role; the turn ends."""
    s = st.room[seat]
    if action.on_card:
        i = _STARRING_INDEX[st.scene[s]][action]
        st.star_by[s][i] = seat
        rank = COMP.scenes[st.scene[s]].roles[i].rank
    else:
        i = _EXTRA_INDEX[s][action]
        st.extra_by[s][i] = seat
        rank = COMP.extras[s][i].rank
    st.role[seat] = i
    st.on_card[seat] = action.on_card
    st.chips[seat] = 0
    st.progressed = True
    st.emit(RoleTaken(seat, _ROOM_IDS[s], action.role, rank, action.on_card))
    on_your_turn.end_turn(st, seat)
