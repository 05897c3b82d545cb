"""Ending the Day (rulebook), and our no-progress rule that calls a day nobody works on.

The day is over when only one scene is left on the board (right after the wrap that leaves it).
That last scene does not finish: nobody working on it is paid anything more, and its set is not
wrapped. Its card is removed: if nobody ever walked in, it leaves face down and nobody sees it.
After the last day (3 days with 2-3 players, else 4) the game is over (:mod:`.scoring`);
otherwise everyone's die goes back to the Trailers, ten new scenes are dealt face down, the shot
counters are replaced (:func:`.setting_up.start_day`) and play continues with the next player
(the one after the player whose turn ended the day).

The no-progress rule (not in the rulebook; see the package docstring): a turn in which the player
did not work on a role (act or rehearse), take a role or upgrade is an *idle* turn. After
:data:`IDLE_ROUNDS` rounds of idle turns in a row (``IDLE_ROUNDS`` x players turns), the day is
*called* at the end of the turn that completes them (:func:`end_turn`): it ends exactly as a day
ends with one scene left, except that every scene still on the board does not finish (each is
removed as the rulebook's last scene is, face down if nobody walked in), announced by a public
:class:`~engine.deadwood_studios.events.DayCalled`; the next day or the scoring follows as usual.
"""

from __future__ import annotations

from engine.deadwood_studios.components import NUM_SETS, TRAILERS
from engine.deadwood_studios.events import DayCalled, DayEnded
from engine.deadwood_studios.rules import on_your_turn, scoring, setting_up
from engine.deadwood_studios.state import COMP, DeadwoodStudiosState

IDLE_ROUNDS = 5
"""The no-progress rule: the day is called after ``IDLE_ROUNDS`` x players idle turns in a row
(turns in which nobody acted, rehearsed, took a role or upgraded). Longer than any walk: the
backlot is 4 steps across, and a role can be taken on the turn one arrives; the heuristic bot's
longest run of idle turns over 420 measured games was 2 rounds."""


def end_day(st: DeadwoodStudiosState, seat: int) -> None:
    """End the day during ``seat``'s turn (one scene left): remove the last scene, then the next
    day or the end."""
    (last,) = [s for s in range(NUM_SETS) if st.scene[s] >= 0]
    card = st.scene[last]
    scene = COMP.scenes[card]
    last_day = st.day >= st.days
    set_id = COMP.room_ids[last]
    if st.face_up[last]:
        st.emit(DayEnded(st.day, set_id, scene, last_day))
    else:
        st.emit(DayEnded(st.day, set_id, None, last_day), DayEnded(st.day, set_id, scene, last_day))
    _close_day(st, seat, (last,))


def end_turn(st: DeadwoodStudiosState, seat: int) -> None:
    """``seat``'s turn is over: count it for the no-progress rule, then call the day
    (:func:`call_day`) if it completes :data:`IDLE_ROUNDS` rounds of idle turns in a row, else
    the player on the left plays next (:func:`.on_your_turn.start_turn`)."""
    if st.progressed:
        st.idle_turns = 0
    else:
        st.idle_turns += 1
        if st.idle_turns >= IDLE_ROUNDS * st.n:
            call_day(st, seat)
            return
    on_your_turn.start_turn(st, (seat + 1) % st.n)


def call_day(st: DeadwoodStudiosState, seat: int) -> None:
    """The no-progress rule calls the day at the end of ``seat``'s turn: a public
    :class:`DayCalled` naming every scene still on the board (a face-down one only in the
    omniscient version), then the day ends as it does with one scene left, none of them
    finishing."""
    left = tuple(s for s in range(NUM_SETS) if st.scene[s] >= 0)
    last_day = st.day >= st.days
    sets = tuple(COMP.room_ids[s] for s in left)
    shown = tuple(COMP.scenes[st.scene[s]] if st.face_up[s] else None for s in left)
    public = DayCalled(st.day, st.idle_turns, sets, shown, last_day)
    if all(st.face_up[s] for s in left):
        st.emit(public)
    else:
        st.emit(public, DayCalled(st.day, st.idle_turns, sets, tuple(COMP.scenes[st.scene[s]] for s in left), last_day))
    _close_day(st, seat, left)


def _close_day(st: DeadwoodStudiosState, seat: int, left: tuple[int, ...]) -> None:
    """The steps of Ending the Day during ``seat``'s turn, the scenes on the sets ``left`` not
    finishing: their cards are removed (face down if nobody walked in), everyone's die goes back
    to the Trailers without a role; then the next day with the next player, or the scoring."""
    for s in left:
        card = st.scene[s]
        (st.removed if st.face_up[s] else st.removed_unseen).append(card)
        st.scene[s] = -1
        st.star_by[s] = []
        st.extra_by[s] = [-1] * len(st.extra_by[s])
    n = st.n
    st.room = [TRAILERS] * n
    st.role = [-1] * n
    st.on_card = [False] * n
    st.chips = [0] * n
    st.idle_turns = 0
    if st.day >= st.days:
        st.unfinished = left  # the final board shows those sets as not wrapped
        scoring.finish(st)
    else:
        setting_up.start_day(st, (seat + 1) % n)
