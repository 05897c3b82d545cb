"""Ending the Day (rulebook).

The day is over when only one scene is left on the board (right after the wrap that leaves it).
That last scene does not finish: nobody working on it is paid anything more. Its card is removed:
if nobody ever walked in, it leaves face down and nobody sees it. After the last day (3 days with
2-3 players, else 4) the game is over (:mod:`.scoring`); otherwise everyone's die goes back to the
Trailers, ten new scenes are dealt face down, the shot counters are replaced
(:func:`.setting_up.start_day`) and play continues with the next player (the one after the
player whose turn ended the day).
"""

from __future__ import annotations

from engine.deadwood_studios.components import NUM_SETS, TRAILERS
from engine.deadwood_studios.events import DayEnded
from engine.deadwood_studios.rules import scoring, setting_up
from engine.deadwood_studios.state import COMP, DeadwoodStudiosState


def end_day(st: DeadwoodStudiosState, seat: int) -> None:
    """End the day during ``seat``'s turn: remove the last scene, then the next day or the end."""
    (last,) = [s for s in range(NUM_SETS) if st.scene[s] >= 0]
    card = st.scene[last]
    scene = COMP.scenes[card]
    last_day = st.day >= st.days
    set_id = COMP.room_ids[last]
    if st.face_up[last]:
        st.removed.append(card)
        st.emit(DayEnded(st.day, set_id, scene, last_day))
    else:
        st.removed_unseen.append(card)
        st.emit(DayEnded(st.day, set_id, None, last_day), DayEnded(st.day, set_id, scene, last_day))
    st.scene[last] = -1
    st.star_by[last] = []
    st.extra_by[last] = [-1] * len(st.extra_by[last])
    n = st.n
    st.room = [TRAILERS] * n
    st.role = [-1] * n
    st.on_card = [False] * n
    st.chips = [0] * n
    if last_day:
        scoring.finish(st)
    else:
        setting_up.start_day(st, (seat + 1) % n)
