"""On Your Turn (rulebook): what a player may do depends on whether they work on a role.

* **Move** (not working): move one step and/or take a role, both optional; at the Casting
  Office, upgrade before or after moving (:mod:`.moving`, :mod:`.upgrading`). The turn ends with
  :class:`~engine.deadwood_studios.actions.TakeRole` (you work on it from your next turn) or
  :class:`~engine.deadwood_studios.actions.EndTurn`, and by itself once nothing else is left to
  do (after moving into a room with no role to take and no upgrade to buy).
* **Work** (on a role): act or rehearse (:mod:`.working`); you cannot walk off a role.

Play passes to the left: seat ``p`` is followed by ``p + 1``. Each turn records whether it made
progress (``state.progressed``: the player worked on a role, took one or upgraded) for the
no-progress rule, which :func:`end_turn` hands to :func:`.ending_the_day.end_turn`.
"""

from __future__ import annotations

from typing import Any

from engine.deadwood_studios.actions import Act, EndTurn, Move, Rehearse, TakeRole
from engine.deadwood_studios.components import CASTING_OFFICE, NUM_SETS
from engine.deadwood_studios.events import TurnStarted
from engine.deadwood_studios.rules import upgrading
from engine.deadwood_studios.state import COMP, DeadwoodStudiosState

END_TURN = EndTurn()
ACT = Act()
REHEARSE = Rehearse()
ACT_ONLY: tuple[Any, ...] = (ACT,)
ACT_OR_REHEARSE: tuple[Any, ...] = (ACT, REHEARSE)
MOVES_FROM: tuple[tuple[Move, ...], ...] = tuple(
    tuple(Move(COMP.room_ids[r]) for r in COMP.neighbors[room]) for room in range(len(COMP.room_ids))
)
"""Per room, the moves to its neighbours in board order."""
MOVE_TO: dict[Move, int] = {Move(room_id): room for room, room_id in enumerate(COMP.room_ids)}
TAKE_EXTRA: tuple[tuple[TakeRole, ...], ...] = tuple(
    tuple(TakeRole(role.name, False) for role in COMP.extras[s]) for s in range(NUM_SETS)
)
"""Per set, taking each of its extras."""
TAKE_STARRING: tuple[tuple[TakeRole, ...], ...] = tuple(
    tuple(TakeRole(role.name, True) for role in scene.roles) for scene in COMP.scenes
)
"""Per scene card, taking each of its starring roles."""
EXTRA_RANKS: tuple[tuple[int, ...], ...] = tuple(tuple(role.rank for role in COMP.extras[s]) for s in range(NUM_SETS))
STARRING_RANKS: tuple[tuple[int, ...], ...] = tuple(tuple(role.rank for role in scene.roles) for scene in COMP.scenes)
BUDGET: tuple[int, ...] = tuple(scene.budget for scene in COMP.scenes)


def start_turn(st: DeadwoodStudiosState, seat: int) -> None:
    """Begin ``seat``'s turn: ``work`` if on a role, else ``move``."""
    st.current = seat
    st.moved = False
    st.upgraded = False
    working = st.role[seat] >= 0
    st.progressed = working  # on a role, the player must act or rehearse: never an idle turn
    st.phase = "work" if working else "move"
    st.waiting = (seat,)
    st._legal = None
    st.emit(TurnStarted(seat, working))


def end_turn(st: DeadwoodStudiosState, seat: int) -> None:
    """The turn is over: the player on the left plays next, unless the no-progress rule calls
    the day (:func:`.ending_the_day.end_turn`, reached through the game's ``steps``, since
    :mod:`.ending_the_day` imports this module)."""
    st.game.steps["end_turn"](st, seat)


def go_on(st: DeadwoodStudiosState, seat: int) -> None:
    """After a move or an upgrade: the turn goes on, or ends if only :class:`EndTurn` is left."""
    legal = legal_move(st, seat)
    if len(legal) == 1:
        end_turn(st, seat)
    else:
        st._legal = legal


def legal_move(st: DeadwoodStudiosState, seat: int) -> list[Any]:
    """Phase ``move``, in this order: upgrades (Casting Office, once a turn: :mod:`.upgrading`);
    the free roles of this set up to ``seat``'s rank, extras in board order then starring roles
    lowest first (only on a set whose scene is face up and not wrapped); a move to each
    neighbour (once a turn); :class:`EndTurn`."""
    room = st.room[seat]
    out: list[Any] = []
    if room == CASTING_OFFICE:
        if not st.upgraded:
            upgrading.legal_upgrades(st, seat, out)
    elif room < NUM_SETS:
        card = st.scene[room]
        if card >= 0:
            rank = st.rank[seat]
            ranks = EXTRA_RANKS[room]
            takes = TAKE_EXTRA[room]
            for i, holder in enumerate(st.extra_by[room]):
                if holder < 0 and ranks[i] <= rank:
                    out.append(takes[i])
            ranks = STARRING_RANKS[card]
            takes = TAKE_STARRING[card]
            for i, holder in enumerate(st.star_by[room]):
                if holder < 0 and ranks[i] <= rank:
                    out.append(takes[i])
    if not st.moved:
        out.extend(MOVES_FROM[room])
    out.append(END_TURN)
    return out


def legal_work(st: DeadwoodStudiosState, seat: int) -> list[Any]:
    """Phase ``work``: :class:`Act`, and :class:`Rehearse` while success is not sure yet (a roll
    of 1 plus the chips would not reach the budget)."""
    if st.chips[seat] + 1 < BUDGET[st.scene[st.room[seat]]]:
        return list(ACT_OR_REHEARSE)
    return list(ACT_ONLY)


def apply_end_turn(st: DeadwoodStudiosState, seat: int, action: Any) -> None:
    """End the turn where ``seat`` stands."""
    end_turn(st, seat)
