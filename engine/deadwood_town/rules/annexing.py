"""Annexing Buildings (summary: Annexing Buildings, the building tables; NOTES.md: Buildings).

A cowboy alone at a building (after Hit the Town at an empty building, or after winning a
shootout there or seeing the defender skedaddle) may annex it: all of its effect or none of it
(NOTES.md, ASSUMED). At the Church every entrant annexes, shared. With the
``adjacent_reannex`` option (the data's default), after a railroad tile is laid each player
whose cowboy is alone on a building next to it, the active player first and then clockwise, may
annex that building once more (the Town Hall excepted).

A building's effect is the list of ops in the data file (``buildings.<id>.annex``), resolved in
order by the handlers of :data:`OPS`; an op that needs a choice asks for it (phases ``steal``,
``gs_pick``/``gs_move``, ``grift``, ``give_poster``, ``dance``, ``telegraph``, ``hire``,
``sheriff`` here; the stacks' and the railroad's in :mod:`.railroad`). An op whose choice has no
legal option is skipped (a Saloon with nothing affordable, a Grifter with no opponent in town).

Our readings where the summary and NOTES.md are silent:

* General Store: any other cowboy on a building (the player's own included) may be moved to any
  other building except one holding a cowboy of the same player, the Train Station, or an
  occupied building the Sheriff protects (the Church excepted). A move onto an occupied building
  starts a shootout (the moved cowboy attacks, the General Store's player takes the poster, the
  moved cowboy never annexes); onto the Church it just joins.
* Grifter: at least one opponent cowboy goes to the Abandoned Mine if there is one; the second
  is optional (:class:`~engine.deadwood_town.actions.Finish`).
* Dance Hall: one or two of the player's cowboys in town or in the Mine, the Dance Hall's own
  included; the second is optional.
* Telegraph Office: each direction moves as many posters as there are, up to two; a direction
  with none is not offered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.deadwood_town.actions import (
    AdjustCrimePool,
    Annex,
    DeclineAnnex,
    Finish,
    GivePoster,
    Hire,
    MoveSheriff,
    MoveTo,
    PickCowboy,
    ReturnCowboy,
    SendToMine,
    StealFrom,
)
from engine.deadwood_town.components import Op, components
from engine.deadwood_town.events import (
    AnnexDeclined,
    BuildingAnnexed,
    Cowboy,
    CowboyHired,
    CowboyMoved,
    CowboyReturned,
    CrimePoolAdjusted,
    GoldMineRolled,
    MoneyGained,
    MoneyPaid,
    PosterGiven,
    PostersReturned,
    PostersTaken,
    SheriffMoved,
    SuppliesGained,
)
from engine.deadwood_town.rules import railroad
from engine.deadwood_town.state import MINE, DeadwoodTownState

_COMP = components()
ANNEX = Annex()
DECLINE = DeclineAnnex()
FINISH = Finish()
PLOTS = _COMP.plot_ids
STATION = _COMP.station
TOWN_HALL = "town_hall"
MULTI = frozenset(t for t, kind in enumerate(_COMP.tile_kind) if kind in _COMP.multi_occupancy)
NO_SHOOTOUT = frozenset(t for t, kind in enumerate(_COMP.tile_kind) if kind in _COMP.no_shootout)
STEAL = tuple(StealFrom(p) for p in range(8))
GIVE = tuple(GivePoster(p) for p in range(8))
MOVE_TO = tuple(MoveTo(pid) for pid in PLOTS)
HIRE = (None, Hire(1), Hire(2), Hire(3))
SHERIFF = tuple(MoveSheriff(i) for i in _COMP.intersection_ids)
ADD = AdjustCrimePool(True)
REMOVE = AdjustCrimePool(False)


def ask_if_any(st: DeadwoodTownState, seat: int, phase: str, pending: tuple[Any, ...] = ()) -> None:
    """Ask ``seat`` for a ``phase`` choice, or skip it if there is no legal choice."""
    st.ask(seat, phase, pending)
    if not st._legal_of(seat):
        st.waiting = ()
        st.phase = "resolving"
        st.pending = ()
        st._legal = {}


# ---------------------------------------------------------------------------------------------- annex


def _alone(st: DeadwoodTownState, seat: int, plot: int) -> bool:
    here = st.occ[plot]
    tile = st.board[plot]
    if tile in MULTI:
        return any(c >> 2 == seat for c in here)
    return len(here) == 1 and here[0] >> 2 == seat


def offer(st: DeadwoodTownState, item: tuple[Any, ...]) -> None:
    """Queue item ``("offer", seat, plot, bonus)``: ``seat``'s cowboy alone on ``plot`` may annex
    (the Church annexes at once). Skipped if that is no longer so (a bonus annex after a move)."""
    _kind, seat, plot, bonus = item
    tile = st.board[plot]
    if tile < 0 or tile == STATION or not _alone(st, seat, plot):
        return
    kind = _COMP.tile_kind[tile]
    if kind in _COMP.always_annex:
        annex(st, seat, plot, bonus)
    else:
        st.ask(seat, "annex", (plot, bonus))


def annex(st: DeadwoodTownState, seat: int, plot: int, bonus: bool) -> None:
    """``seat`` annexes the building on ``plot``: queue its ops, first op on top."""
    kind = _COMP.tile_kind[st.board[plot]]
    st.emit(BuildingAnnexed(seat, PLOTS[plot], kind, bonus))
    queue = st.queue
    for op in reversed(_COMP.annex[kind]):
        queue.append(("op", seat, plot, kind, op))


def legal_annex(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`Annex`, :class:`DeclineAnnex`."""
    return [ANNEX, DECLINE]


def apply_annex(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """Annex (queue the building's effect) or decline."""
    plot, bonus = st.pending
    if type(action) is Annex:
        annex(st, seat, plot, bonus)
    else:
        st.emit(AnnexDeclined(seat, PLOTS[plot], _COMP.tile_kind[st.board[plot]]))


def reannex(st: DeadwoodTownState, item: tuple[Any, ...]) -> None:
    """Queue item ``("reannex", seat, rail plot)``: the bonus annex next to a rail just laid,
    ``seat`` first, then clockwise; by plot within a player (the Town Hall excepted)."""
    _kind, active, rail = item
    offers = []
    board, occ, kinds = st.board, st.occ, _COMP.tile_kind
    for k in range(st.n):
        p = (active + k) % st.n
        for q in _COMP.neighbors[rail]:
            tile = board[q]
            if tile >= 0 and tile != STATION and kinds[tile] != TOWN_HALL and _alone(st, p, q):
                if len(occ[q]) == 1:
                    offers.append(("offer", p, q, True))
    st.queue.extend(reversed(offers))


# ---------------------------------------------------------------------------------------------- ops


def do_op(st: DeadwoodTownState, item: tuple[Any, ...]) -> None:
    """Queue item ``("op", seat, plot, building kind, op)``: resolve one op of an annex."""
    _kind, seat, plot, kind, op = item
    OPS[op.op](st, seat, plot, kind, op)


def gain_money(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """``$n`` from the bank."""
    st.money[seat] += op.n
    st.emit(MoneyGained(seat, op.n, kind))


def take_wanted_from_pool(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Bank: take ``n`` posters from the Crime Pool (as many as it has)."""
    count = min(op.n, st.crime_pool)
    if count:
        st.crime_pool -= count
        st.posters[seat] += count
        st.emit(PostersTaken(seat, count, kind))


def gain_cartridges(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Gunsmith: ``n`` cartridges from the supply (as many as it has)."""
    count = min(op.n, st.cartridge_supply)
    if count:
        st.cartridge_supply -= count
        st.cartridges[seat] += count
        st.emit(SuppliesGained(seat, "cartridge", count))


def gain_ponies(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Blacksmith: ``n`` ponies from the supply (as many as it has)."""
    count = min(op.n, st.pony_supply)
    if count:
        st.pony_supply -= count
        st.ponies[seat] += count
        st.emit(SuppliesGained(seat, "pony", count))


def return_own_wanted_to_box(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Church, Town Hall: return ``n`` of your posters to the box (the Church: one more per
    Laundry you control); skipped without posters."""
    extra = op.params.get("plus_per_controlled_laundry", 0)
    wanted = op.n + (extra * st.controls(seat, "laundry") if extra else 0)
    count = min(wanted, st.posters[seat])
    if count:
        st.posters[seat] -= count
        st.box += count
        st.emit(PostersReturned(seat, count, kind))


def steal_money(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Casino: choose a player to steal ``$n`` from."""
    ask_if_any(st, seat, "steal", (op.n,))


def legal_steal(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`StealFrom` every other seat, by seat."""
    return [STEAL[p] for p in range(st.n) if p != seat]


def apply_steal(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """Take up to ``$n`` (what the player has)."""
    (amount,) = st.pending
    victim = action.seat
    taken = min(amount, st.money[victim])
    st.money[victim] -= taken
    st.money[seat] += taken
    st.emit(MoneyPaid(victim, taken, seat, "casino"))


def _destinations(st: DeadwoodTownState, source: int, c: int) -> list[int]:
    """Buildings a General Store may move cowboy ``c`` (now on ``source``) to."""
    owner = c >> 2
    board, occ = st.board, st.occ
    protected = st.protected()
    out = []
    for plot, tile in enumerate(board):
        if tile < 0 or tile == STATION or plot == source:
            continue
        here = occ[plot]
        if here:
            if any(x >> 2 == owner for x in here):
                continue
            if plot in protected and tile not in MULTI:
                continue
        out.append(plot)
    return out


def move_other_cowboy(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """General Store: pick another cowboy in town to move (skipped if none can move)."""
    ask_if_any(st, seat, "gs_pick", (plot,))


def legal_gs_pick(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`PickCowboy` by plot, then owner and strength: every cowboy on a building but the
    General Store's own, that has somewhere to go."""
    (store,) = st.pending
    out = []
    for plot, here in enumerate(st.occ):
        for c in sorted(here):
            if plot == store and c >> 2 == seat:
                continue
            if _destinations(st, plot, c):
                out.append(PickCowboy(PLOTS[plot], c >> 2, c & 3))
    return out


def apply_gs_pick(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """Then choose where it goes."""
    (store,) = st.pending
    source = _COMP.plot_index[action.plot]
    st.ask(seat, "gs_move", (store, source, action.owner * 4 + action.strength))


def legal_gs_move(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`MoveTo` every building the picked cowboy may go to, by plot."""
    _store, source, c = st.pending
    return [MOVE_TO[p] for p in _destinations(st, source, c)]


def apply_gs_move(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """Move it; onto an occupied building (not the Church), a shootout it starts as attacker."""
    _store, source, c = st.pending
    dest = _COMP.plot_index[action.plot]
    st.occ[source].remove(c)
    st.emit(CowboyMoved(seat, Cowboy(c >> 2, c & 3), PLOTS[source], action.plot, "general_store"))
    here = st.occ[dest]
    if here and st.board[dest] not in NO_SHOOTOUT:
        defender = here[0]
        here.append(c)
        st.queue.append(("shootout", dest, c, defender, seat, 0))
    else:
        here.append(c)


def send_opponent_cowboys_to_mine(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Grifter: send up to ``n`` opponent cowboys from buildings to the Abandoned Mine."""
    ask_if_any(st, seat, "grift", (op.n, 0))


def legal_grift(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`SendToMine` every opponent cowboy on a building (by plot, owner, strength); after
    the first, :class:`Finish`."""
    _limit, sent = st.pending
    out: list[Any] = []
    for plot, here in enumerate(st.occ):
        for c in sorted(here):
            if c >> 2 != seat:
                out.append(SendToMine(PLOTS[plot], c >> 2, c & 3))
    if sent:
        out.append(FINISH)
    return out


def apply_grift(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """Send one; ask for the next while the limit allows."""
    limit, sent = st.pending
    if type(action) is Finish:
        return
    c = action.owner * 4 + action.strength
    st.occ[_COMP.plot_index[action.plot]].remove(c)
    st.mine[action.owner][action.strength] += 1
    st.emit(CowboyMoved(seat, Cowboy(action.owner, action.strength), action.plot, MINE, "grifter"))
    if sent + 1 < limit:
        ask_if_any(st, seat, "grift", (limit, sent + 1))


def give_own_wanted_to_player(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Newspaper: give one of your posters to another player (skipped without posters)."""
    if st.posters[seat] > 0:
        ask_if_any(st, seat, "give_poster")


def legal_give_poster(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`GivePoster` to every other seat, by seat."""
    return [GIVE[p] for p in range(st.n) if p != seat]


def apply_give_poster(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """The poster changes hands."""
    st.posters[seat] -= 1
    st.posters[action.seat] += 1
    st.emit(PosterGiven(seat, action.seat))


def return_own_cowboys_to_ranch(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Dance Hall: return ``min``..``max`` of your cowboys (town or Mine) to the Ranch."""
    ask_if_any(st, seat, "dance", (op.params.get("min", 1), op.params.get("max", 2), 0))


def legal_dance(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`ReturnCowboy` by plot (the Mine last) and strength; :class:`Finish` once the
    minimum is back."""
    low, _high, done = st.pending
    out: list[Any] = []
    for plot, here in enumerate(st.occ):
        for c in here:
            if c >> 2 == seat:
                out.append(ReturnCowboy(PLOTS[plot], c & 3))
    mine = st.mine[seat]
    out.extend(ReturnCowboy(MINE, s) for s in (1, 2, 3) if mine[s])
    if done >= low:
        out.append(FINISH)
    return out


def apply_dance(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """Return one; ask for the next while the maximum allows."""
    low, high, done = st.pending
    if type(action) is Finish:
        return
    s = action.strength
    if action.place == MINE:
        st.mine[seat][s] -= 1
    else:
        st.occ[_COMP.plot_index[action.place]].remove(seat * 4 + s)
    st.ranch[seat][s] += 1
    st.emit(CowboyReturned(seat, action.place, s))
    if done + 1 < high:
        ask_if_any(st, seat, "dance", (low, high, done + 1))


def adjust_crime_pool(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Telegraph Office: add ``n`` posters from the box to the Crime Pool, or remove ``n``."""
    ask_if_any(st, seat, "telegraph", (op.n,))


def legal_telegraph(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`AdjustCrimePool` add (if the box has posters), then remove (if the pool has)."""
    out = []
    if st.box > 0:
        out.append(ADD)
    if st.crime_pool > 0:
        out.append(REMOVE)
    return out


def apply_telegraph(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """Move up to ``n`` posters between the box and the Crime Pool. Adding to an empty pool (it
    ran out earlier in this turn: every turn starts with posters in it) does not undo that end
    condition (:mod:`.end_of_game`)."""
    (amount,) = st.pending
    if st.crime_pool <= 0:
        st.pool_emptied = True
    if action.add:
        count = min(amount, st.box)
        st.box -= count
        st.crime_pool += count
    else:
        count = -min(amount, st.crime_pool)
        st.box -= count
        st.crime_pool += count
    st.emit(CrimePoolAdjusted(seat, count, st.crime_pool))


def hire_cowboy(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Saloon: hire one cowboy from your supply (skipped if none is left or affordable)."""
    ask_if_any(st, seat, "hire")


def legal_hire(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`Hire` by strength: those in the player's supply they can pay for."""
    money, unhired, cost = st.money[seat], st.unhired[seat], _COMP.hire_cost
    return [HIRE[s] for s in (1, 2, 3) if unhired[s] and money >= cost[s]]


def apply_hire(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """Pay; the new cowboy goes to the Abandoned Mine."""
    s = action.strength
    cost = _COMP.hire_cost[s]
    st.money[seat] -= cost
    st.unhired[seat][s] -= 1
    st.mine[seat][s] += 1
    st.emit(CowboyHired(seat, s, cost))


def move_sheriff(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Sheriff's Office: move the Sheriff."""
    ask_if_any(st, seat, "sheriff")


def legal_sheriff(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`MoveSheriff` to every intersection touching a building (the current one too)."""
    board = st.board
    return [
        SHERIFF[i]
        for i, (a, b, c) in enumerate(_COMP.intersection_plots)
        if board[a] >= 0 or board[b] >= 0 or board[c] >= 0
    ]


def apply_sheriff(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """The Sheriff moves."""
    st.sheriff = _COMP.intersection_ids.index(action.intersection)
    plots = tuple(PLOTS[p] for p in _COMP.intersection_plots[st.sheriff])
    st.emit(SheriffMoved(seat, action.intersection, plots))


def roll_gold_mine(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Gold Mine: roll a die; the money by the symbol (``gold_mine_table``)."""
    face = st.roll()
    money = _COMP.gold_mine.get(face, 0)
    st.money[seat] += money
    st.emit(GoldMineRolled(seat, face, money))


def fine_all_players_per_wanted(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Courthouse: every player, you too, pays ``$n`` per poster (down to $0)."""
    for p in range(st.n):
        fine = min(st.money[p], op.n * st.posters[p])
        if fine:
            st.money[p] -= fine
            st.emit(MoneyPaid(p, fine, -1, kind))


def place_rail_or_station(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Town Hall: the next railroad tile, or the Train Station after the last one."""
    railroad.place_rail_or_station(st, seat)


def build_from_each_stack(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Town Hall: new buildings from the stacks (not on the Train Station's turn)."""
    if op.params.get("skip_on_station_turn", True) and st.station_plot >= 0:
        return
    railroad.build_from_stacks(st, seat)


def draw_and_build(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Stage Depot: draw a tile from a stack of your choice and build it."""
    ask_if_any(st, seat, "stage_stack")


def inspect_and_reorder_stack(st: DeadwoodTownState, seat: int, plot: int, kind: str, op: Op) -> None:
    """Fortune Teller: look at a stack and rearrange it."""
    ask_if_any(st, seat, "look")


OPS: dict[str, Callable[[DeadwoodTownState, int, int, str, Op], None]] = {
    "gain_money": gain_money,
    "take_wanted_from_pool": take_wanted_from_pool,
    "gain_cartridges": gain_cartridges,
    "gain_ponies": gain_ponies,
    "return_own_wanted_to_box": return_own_wanted_to_box,
    "steal_money": steal_money,
    "move_other_cowboy": move_other_cowboy,
    "send_opponent_cowboys_to_mine": send_opponent_cowboys_to_mine,
    "give_own_wanted_to_player": give_own_wanted_to_player,
    "return_own_cowboys_to_ranch": return_own_cowboys_to_ranch,
    "adjust_crime_pool": adjust_crime_pool,
    "hire_cowboy": hire_cowboy,
    "move_sheriff": move_sheriff,
    "roll_gold_mine": roll_gold_mine,
    "fine_all_players_per_wanted": fine_all_players_per_wanted,
    "place_rail_or_station": place_rail_or_station,
    "build_from_each_stack": build_from_each_stack,
    "draw_and_build": draw_and_build,
    "inspect_and_reorder_stack": inspect_and_reorder_stack,
}
"""The annex op handlers, by the data file's op key."""

MISSING = sorted({op.op for ops in _COMP.annex.values() for op in ops} - set(OPS))
if MISSING:  # pragma: no cover - a data file with an op the engine does not know
    raise ValueError(f"deadwood_town.toml uses annex ops the engine does not know: {MISSING}")
