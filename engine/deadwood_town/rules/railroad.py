"""The Railroad, the Train Station, new buildings and the building stacks (summary: The Railroad,
Game End Triggers 1; NOTES.md: Board, rules 5-7, Buildings notes).

* Each Town Hall annex lays the next railroad tile on the fixed route (``railroad.route``). A
  building there is destroyed: its tile goes to the bottom of its own stack (the "X" Saloon to
  stack 1), in front of everyone, and its cowboys go to the Abandoned Mine. Then the Hotel's
  controller gets $2. With ``adjacent_reannex`` the bonus annexes follow the Town Hall's effect
  (see :mod:`.annexing`).
* The Town Hall annex after the fourth rail builds the Train Station on an open red-row plot (a
  red-row building is destroyed for it only if none is open); its builder gets $5 per building
  next to it, the Hotel's controller $4; no tiles are drawn on that turn and the game ends.
* New buildings (Town Hall with ``town_hall_build = "each"``: the top tile of each non-empty
  stack, 1 then 2 then 3, each built; ``"one"``: the three drawn, one chosen and built, the
  others under their stacks; Stage Depot: the top tile of a stack of the player's choice) go on
  an open plot next to a building tile (rails do not count); with no such plot the tile goes
  under its stack.
* Fortune Teller: the player looks at a stack and puts it back in any order, one tile at a time
  from the top (:class:`~engine.deadwood_town.actions.PutNext`; :class:`Finish` keeps the rest
  in their order). Only that player learns the order; everybody else forgets what they knew of
  that stack (they cannot tell how it was rearranged).
"""

from __future__ import annotations

from typing import Any

from engine.deadwood_town.actions import BuildOn, ChooseTile, DrawFrom, Finish, LookAtStack, PlaceStation, PutNext
from engine.deadwood_town.components import STACKS, components
from engine.deadwood_town.events import (
    BuildingDestroyed,
    Cowboy,
    MoneyGained,
    RailPlaced,
    StackArranged,
    StackSeen,
    StationBuilt,
    TileBuilt,
    TileDrawn,
    TileToBottom,
)
from engine.deadwood_town.state import EMPTY, RAIL, DeadwoodTownState

_COMP = components()
PLOTS = _COMP.plot_ids
KINDS = _COMP.tile_kind
BUILD_ON = tuple(BuildOn(pid) for pid in PLOTS)
PLACE_STATION = tuple(PlaceStation(pid) for pid in PLOTS)
DRAW_FROM = {s: DrawFrom(s) for s in STACKS}
LOOK = {s: LookAtStack(s) for s in STACKS}
FINISH = Finish()


# ---------------------------------------------------------------------------------------------- stacks


def forget(st: DeadwoodTownState, tile: int) -> None:
    """``tile`` left its stack: nobody needs to remember its place."""
    st.public_known.discard(tile)
    for known in st.known:
        known.discard(tile)


def to_bottom(st: DeadwoodTownState, tile: int, reason: str) -> None:
    """Put ``tile`` under its stack, in front of everyone."""
    stack = _COMP.tile_stack[tile]
    st.stacks[stack].insert(0, tile)
    st.public_known.add(tile)
    for known in st.known:
        known.add(tile)
    st.emit(TileToBottom(stack, KINDS[tile], reason))


def destroy(st: DeadwoodTownState, plot: int) -> None:
    """The building on ``plot`` is destroyed: its cowboys to the Abandoned Mine, its tile under its stack."""
    tile = st.board[plot]
    here = st.occ[plot]
    for c in here:
        st.mine[c >> 2][c & 3] += 1
    st.emit(BuildingDestroyed(PLOTS[plot], KINDS[tile], tuple(Cowboy(c >> 2, c & 3) for c in sorted(here))))
    st.occ[plot] = []
    st.board[plot] = EMPTY
    st.tile_plot[tile] = -1
    to_bottom(st, tile, "destroyed")


def _pay_hotel(st: DeadwoodTownState, amount: int) -> None:
    if amount:
        hotel = st.controller("hotel")
        if hotel >= 0:
            st.money[hotel] += amount
            st.emit(MoneyGained(hotel, amount, "hotel"))


def place_rail_or_station(st: DeadwoodTownState, seat: int) -> None:
    """Lay the next railroad tile (destroying what is there; the Hotel pays; the bonus annexes
    are queued after the Town Hall's effect), or ask where the Train Station goes."""
    if st.rails < _COMP.rails:
        plot = _COMP.rail_route[st.rails]
        st.rails += 1
        if st.board[plot] >= 0:
            destroy(st, plot)
        st.board[plot] = RAIL
        st.emit(RailPlaced(seat, st.rails, PLOTS[plot]))
        _pay_hotel(st, _COMP.hotel_rail)
        if st.options.adjacent_reannex:
            st.queue.insert(0, ("reannex", seat, plot))
        return
    st.ask(seat, "station")


def legal_station(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`PlaceStation` on every open red-row plot; if none is open, every red-row building."""
    board = st.board
    open_plots = [p for p in _COMP.red_row if board[p] == EMPTY]
    if not open_plots:
        open_plots = [p for p in _COMP.red_row if board[p] >= 0]
    return [PLACE_STATION[p] for p in sorted(open_plots)]


def apply_station(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """Build the Train Station; its builder gets $5 per adjacent building, the Hotel $4."""
    plot = _COMP.plot_index[action.plot]
    if st.board[plot] >= 0:
        destroy(st, plot)
    st.board[plot] = _COMP.station
    st.tile_plot[_COMP.station] = plot
    st.station_plot = plot
    adjacent = sum(1 for q in _COMP.neighbors[plot] if st.board[q] >= 0)
    payout = adjacent * _COMP.station_per_building
    st.money[seat] += payout
    st.emit(StationBuilt(seat, action.plot, adjacent, payout))
    _pay_hotel(st, _COMP.hotel_station)


def buildable(st: DeadwoodTownState) -> list[int]:
    """Open plots next to a plot holding a building tile (ascending)."""
    board = st.board
    neighbors = _COMP.neighbors
    return [p for p, tile in enumerate(board) if tile == EMPTY and any(board[q] >= 0 for q in neighbors[p])]


def draw(st: DeadwoodTownState, seat: int, stack: str, reason: str) -> int:
    """Draw the top tile of ``stack`` (in front of everyone)."""
    tile = st.stacks[stack].pop()
    forget(st, tile)
    st.emit(TileDrawn(seat, stack, KINDS[tile], reason))
    return tile


def ask_build(st: DeadwoodTownState, seat: int, tile: int) -> None:
    """Ask where ``tile`` goes; under its stack if nowhere."""
    if buildable(st):
        st.ask(seat, "build", (tile,))
    else:
        to_bottom(st, tile, "no_plot")


def build_from_stacks(st: DeadwoodTownState, seat: int) -> None:
    """Town Hall's new buildings, by the ``town_hall_build`` option."""
    if st.options.town_hall_build == "each":
        for stack in reversed(STACKS):
            st.queue.append(("draw", seat, stack))
        return
    tiles = tuple(draw(st, seat, s, "town_hall") for s in STACKS if st.stacks[s])
    if tiles:
        st.ask(seat, "choose_tile", (tiles,))


def draw_for_town_hall(st: DeadwoodTownState, item: tuple[Any, ...]) -> None:
    """Queue item ``("draw", seat, stack)``: draw and build one tile (an empty stack is skipped)."""
    _kind, seat, stack = item
    if st.stacks[stack]:
        ask_build(st, seat, draw(st, seat, stack, "town_hall"))


def legal_choose_tile(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`ChooseTile` for each drawn tile, in stack order."""
    (tiles,) = st.pending
    return [ChooseTile(_COMP.tile_stack[t], KINDS[t]) for t in tiles]


def apply_choose_tile(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """The others go under their stacks; the chosen one is built."""
    (tiles,) = st.pending
    chosen = next(t for t in tiles if _COMP.tile_stack[t] == action.stack)
    for t in tiles:
        if t != chosen:
            to_bottom(st, t, "not_chosen")
    ask_build(st, seat, chosen)


def legal_build(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`BuildOn` every buildable plot, by plot."""
    return [BUILD_ON[p] for p in buildable(st)]


def apply_build(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """The tile goes on the plot."""
    (tile,) = st.pending
    plot = _COMP.plot_index[action.plot]
    st.board[plot] = tile
    st.tile_plot[tile] = plot
    st.emit(TileBuilt(seat, action.plot, KINDS[tile]))


def legal_stage_stack(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`DrawFrom` every non-empty stack."""
    return [DRAW_FROM[s] for s in STACKS if st.stacks[s]]


def apply_stage_stack(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """Draw from the chosen stack and build."""
    ask_build(st, seat, draw(st, seat, action.stack, "stage_depot"))


# ---------------------------------------------------------------------------------------------- Fortune Teller


def legal_look(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`LookAtStack` every non-empty stack."""
    return [LOOK[s] for s in STACKS if st.stacks[s]]


def _top_first(st: DeadwoodTownState, stack: str) -> tuple[str, ...]:
    return tuple(KINDS[t] for t in reversed(st.stacks[stack]))


def apply_look(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """Only ``seat`` sees the order; the others forget what they knew of the stack. A stack of
    two or more tiles may then be rearranged."""
    stack = action.stack
    tiles = st.stacks[stack]
    for p, known in enumerate(st.known):
        if p != seat:
            known.difference_update(tiles)
    st.public_known.difference_update(tiles)
    st.known[seat].update(tiles)
    st.emit(StackSeen(seat, stack), (seat,), StackSeen(seat, stack, _top_first(st, stack)))
    if len(tiles) >= 2:
        st.ask(seat, "arrange", (stack, ()))
    else:
        st.emit(StackArranged(seat, stack), (seat,), StackArranged(seat, stack, _top_first(st, stack)))


def legal_arrange(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`PutNext` for each tile not yet placed (top first as the stack lies now), then
    :class:`Finish` (the rest keep their order)."""
    stack, placed = st.pending
    out: list[Any] = [PutNext(KINDS[t]) for t in reversed(st.stacks[stack]) if t not in placed]
    out.append(FINISH)
    return out


def apply_arrange(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """Place one more from the top; with one tile or none left (or :class:`Finish`) the stack
    goes back in its new order."""
    stack, placed = st.pending
    tiles = st.stacks[stack]
    if type(action) is PutNext:
        tile = next(t for t in tiles if KINDS[t] == action.building)
        placed = (*placed, tile)
        if len(tiles) - len(placed) >= 2:
            st.ask(seat, "arrange", (stack, placed))
            return
    rest = [t for t in reversed(tiles) if t not in placed]
    top_first = list(placed) + rest
    st.stacks[stack] = top_first[::-1]
    st.emit(StackArranged(seat, stack), (seat,), StackArranged(seat, stack, _top_first(st, stack)))
