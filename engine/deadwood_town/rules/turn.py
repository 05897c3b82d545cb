"""Turn Structure (summary: Turn Structure, Actions; NOTES.md: Cowboys, setup and turns).

On a turn the player does exactly one of: Head Back to the Ranch (one or more of their cowboys
from buildings and/or the Abandoned Mine back to the Ranch, chosen one at a time, then
:class:`~engine.deadwood_town.actions.Finish`) or Hit the Town (one cowboy from the Ranch to a
building). No passing, except a player who can do neither (NOTES.md rule 9).

Hit the Town may not go to the Abandoned Mine, an open plot, a railroad tile, the Train Station
or a building holding one of the player's own cowboys; at a building the Sheriff protects it
costs the toll to the Sheriff's Office controller (not to oneself; nothing if nobody controls
it; not allowed without the money), and is not allowed if another player's cowboy is there
(it would need a shootout), except at the Church. At an empty building the cowboy may annex; at
an occupied one a shootout starts; at the Church (no shootouts, shared) the cowboy joins and
always annexes.
"""

from __future__ import annotations

from typing import Any

from engine.deadwood_town.actions import Finish, HeadBack, HitTheTown
from engine.deadwood_town.components import components
from engine.deadwood_town.events import CowboyHeadedBack, CowboyPlaced, TollPaid, TurnPassed, TurnStarted
from engine.deadwood_town.rules import end_of_game
from engine.deadwood_town.state import MINE, DeadwoodTownState

_COMP = components()
PLACES = (*_COMP.plot_ids, MINE)
"""Place names by place index: the plots, then the Abandoned Mine (index :data:`MINE_INDEX`)."""
MINE_INDEX = _COMP.num_plots
HIT: tuple[tuple[HitTheTown, ...], ...] = tuple(
    tuple(HitTheTown(s, pid) for pid in _COMP.plot_ids) if s else () for s in range(4)
)
HEAD: tuple[tuple[HeadBack | None, ...], ...] = tuple(
    (None, *(HeadBack(place, s) for s in (1, 2, 3))) for place in PLACES
)
FINISH = Finish()
STATION = _COMP.station
MULTI = frozenset(t for t, kind in enumerate(_COMP.tile_kind) if kind in _COMP.multi_occupancy)
NO_SHOOTOUT = frozenset(t for t, kind in enumerate(_COMP.tile_kind) if kind in _COMP.no_shootout)


def enterable(st: DeadwoodTownState, seat: int) -> list[int]:
    """The plots ``seat`` may Hit the Town at (ascending), whatever the cowboy's strength."""
    board, occ = st.board, st.occ
    protected = st.protected()
    toll_ok = st.toll_to(seat) < 0 or st.money[seat] >= _COMP.toll
    out = []
    for plot in range(len(board)):
        tile = board[plot]
        if tile < 0 or tile == STATION:
            continue
        here = occ[plot]
        if here:
            if any(c >> 2 == seat for c in here):
                continue
            if plot in protected and tile not in MULTI:
                continue
        if not toll_ok and plot in protected:
            continue
        out.append(plot)
    return out


def _head_backs(st: DeadwoodTownState, seat: int, out: list[Any]) -> None:
    for plot, here in enumerate(st.occ):
        if here:
            for c in here:
                if c >> 2 == seat:
                    out.append(HEAD[plot][c & 3])
    mine = st.mine[seat]
    for s in (1, 2, 3):
        if mine[s]:
            out.append(HEAD[MINE_INDEX][s])


def legal_turn(st: DeadwoodTownState, seat: int) -> list[Any]:
    """A turn's first decision: :class:`HitTheTown` by strength then plot, then :class:`HeadBack`
    by plot (the Abandoned Mine last) then strength. Empty: the player must pass.

    One pass over the board finds both (the same rules as :func:`enterable`, inlined: this is
    the engine's hottest loop)."""
    ranch = st.ranch[seat]
    hitting = ranch[1] or ranch[2] or ranch[3]
    protected = st.protected()
    toll_ok = st.money[seat] >= _COMP.toll or st.toll_to(seat) < 0
    targets: list[int] = []
    backs: list[Any] = []
    plot = -1
    for tile, here in zip(st.board, st.occ, strict=True):
        plot += 1
        if here:
            mine_here = 0
            for c in here:
                if c >> 2 == seat:
                    mine_here = c
                    break
            if mine_here:
                backs.append(HEAD[plot][mine_here & 3])
                continue
            if plot in protected and (tile not in MULTI or not toll_ok):
                continue
            if hitting:
                targets.append(plot)
            continue
        if hitting and tile >= 0 and tile != STATION and (toll_ok or plot not in protected):
            targets.append(plot)
    out: list[Any] = []
    if targets:
        for s in (1, 2, 3):
            if ranch[s]:
                row = HIT[s]
                out.extend([row[p] for p in targets])
    out.extend(backs)
    mine = st.mine[seat]
    for s in (1, 2, 3):
        if mine[s]:
            out.append(HEAD[MINE_INDEX][s])
    return out


def legal_head_back(st: DeadwoodTownState, seat: int) -> list[Any]:
    """After a cowboy headed back: another :class:`HeadBack`, or :class:`Finish`."""
    out: list[Any] = []
    _head_backs(st, seat, out)
    out.append(FINISH)
    return out


def head_back(st: DeadwoodTownState, seat: int, action: HeadBack) -> None:
    """Move ``seat``'s cowboy named by ``action`` to the Ranch."""
    s = action.strength
    if action.place == MINE:
        st.mine[seat][s] -= 1
    else:
        st.occ[_COMP.plot_index[action.place]].remove(seat * 4 + s)
    st.ranch[seat][s] += 1
    st.emit(CowboyHeadedBack(seat, action.place, s))


def apply_turn(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """Head Back (then more) or Hit the Town (then annex, a shootout or the Church)."""
    if type(action) is HeadBack:
        head_back(st, seat, action)
        st.ask(seat, "head_back")
        return
    s = action.strength
    plot = _COMP.plot_index[action.plot]
    tile = st.board[plot]
    st.ranch[seat][s] -= 1
    if plot in st.protected():
        to = st.toll_to(seat)
        if to >= 0:
            st.money[seat] -= _COMP.toll
            st.money[to] += _COMP.toll
            st.emit(TollPaid(seat, to, _COMP.toll, action.plot))
    st.emit(CowboyPlaced(seat, s, action.plot, _COMP.tile_kind[tile]))
    here = st.occ[plot]
    me = seat * 4 + s
    if here and tile not in NO_SHOOTOUT:
        defender = here[0]
        here.append(me)
        st.queue.append(("shootout", plot, me, defender, seat, 1))
    else:
        here.append(me)
        st.queue.append(("offer", seat, plot, False))


def apply_head_back(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """Another cowboy heads back, or the turn ends."""
    if type(action) is HeadBack:
        head_back(st, seat, action)
        st.ask(seat, "head_back")


def begin_turns(st: DeadwoodTownState, start: int) -> None:
    """Give the turn to ``start``, or the first player clockwise from it who can act; players who
    can neither Head Back nor Hit the Town pass. Nobody able to act ends the game."""
    n = st.n
    for k in range(n):
        seat = (start + k) % n
        st.current = seat
        st.queue.clear()
        st.turns += 1
        st.emit(TurnStarted(seat))
        st.ask(seat, "turn")
        if st._legal_of(seat):
            return
        st.emit(TurnPassed(seat))
    end_of_game.finish(st, st.current, ("stalled",))


def end_turn(st: DeadwoodTownState) -> None:
    """The current player's turn is over: end the game if an end condition holds, else the
    player on the left plays."""
    reasons = end_of_game.triggers(st)
    if not reasons and st.turns >= end_of_game.ROUND_LIMIT * st.n:
        reasons = ("round_limit",)
    if reasons:
        end_of_game.finish(st, st.current, reasons)
        return
    begin_turns(st, (st.current + 1) % st.n)
