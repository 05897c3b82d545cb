"""What a seat may know of a Deadwood game.

Everything is public (the town, the Ranches, the Abandoned Mine, Boot Hill, money, cartridges,
ponies, wanted posters, the Crime Pool, the Sheriff, the rails, a shootout under way) except the
order of the building stacks. Their contents are public (every tile that leaves or joins a stack
does so face up), their order is not: a view shows a stack's tile at a position only if the
viewer knows it (a tile put under the stack in front of everyone; every tile of a stack the
viewer looked at with the Fortune Teller, until someone else looks at it). The Fortune Teller's
rearrangement in progress shows only to its player.

Views are immutable, so :func:`make_view` shares identical pieces between them: plots, boards and
stacks come from bounded caches keyed by the state's plain values (:data:`VIEW_CACHE` entries each).
"""

from __future__ import annotations

import functools

import msgspec

from engine.core import OMNISCIENT
from engine.deadwood_town.components import STACKS, components
from engine.deadwood_town.events import Cowboy
from engine.deadwood_town.state import RAIL, DeadwoodTownState

_COMP = components()
KINDS = _COMP.tile_kind
PLOTS = _COMP.plot_ids


class PlotView(msgspec.Struct, frozen=True):
    """One plot of the board.

    Attributes:
        id: the printed id (``"B2"``).
        building: the building's id (``"bank"``; ``"train_station"``), ``""`` if none.
        rail: a railroad tile lies there.
        cowboys: the cowboys there (several only at the Church), sorted.
        protected: the Sheriff protects it.
    """

    id: str
    building: str
    rail: bool
    cowboys: tuple[Cowboy, ...]
    protected: bool


class PlayerView(msgspec.Struct, frozen=True):
    """One player, as everyone sees them. Cowboy counts are by strength ``(1, 2, 3)``.

    Attributes:
        seat: the seat (0-based, clockwise).
        money, cartridges, ponies, posters: what the player holds (posters: wanted posters).
        ranch: cowboys in the Ranch; ``mine``: in the Abandoned Mine; ``unhired``: still in the
            player's supply; ``boot_hill``: dead.
        living: cowboys in the Ranch, in town and in the Abandoned Mine.
    """

    seat: int
    money: int
    cartridges: int
    ponies: int
    posters: int
    ranch: tuple[int, int, int]
    mine: tuple[int, int, int]
    unhired: tuple[int, int, int]
    boot_hill: tuple[int, int, int]
    living: int


class StackView(msgspec.Struct, frozen=True):
    """A building stack.

    Attributes:
        stack: ``"1"``, ``"2"`` or ``"3"``.
        size: tiles in it.
        contents: its buildings, sorted (public).
        order: top first, a building where the viewer knows it, else ``None``.
    """

    stack: str
    size: int
    contents: tuple[str, ...]
    order: tuple[str | None, ...]


class ShootoutView(msgspec.Struct, frozen=True):
    """The shootout waiting for a decision.

    Attributes:
        plot: where; ``attacker``, ``defender`` the cowboys.
        attacker_cartridge, defender_cartridge: declared (``None``: not yet).
    """

    plot: str
    attacker: Cowboy
    defender: Cowboy
    attacker_cartridge: bool | None
    defender_cartridge: bool | None


class PendingView(msgspec.Struct, frozen=True):
    """The context of the decision owed now (fields that do not apply are empty).

    Attributes:
        plot: the building offered for annexing, or the General Store's plot.
        bonus: the annex offered is the bonus next to a new rail.
        tile: the building to be built (phase ``build``).
        tiles: the buildings drawn to choose from (phase ``choose_tile``).
        cowboy, source: the cowboy the General Store moves, and from where (phase ``gs_move``).
        stack: the stack the Fortune Teller rearranges; ``arranged``: the buildings put back so
            far, top first (only for that player).
        count: Grifter: cowboys sent so far; Dance Hall: cowboys returned so far.
    """

    plot: str = ""
    bonus: bool = False
    tile: str = ""
    tiles: tuple[str, ...] = ()
    cowboy: Cowboy | None = None
    source: str = ""
    stack: str = ""
    arranged: tuple[str, ...] = ()
    count: int = 0


class View(msgspec.Struct, frozen=True, kw_only=True):
    """Everything one seat may know (``seat`` ``None``: a spectator; -1: omniscient).

    Attributes:
        game: ``"deadwood_town"``.
        seat: the viewer.
        phase: the decision pending (see :mod:`engine.deadwood_town.rules`).
        to_act: the seats that owe a decision.
        current: whose turn it is; ``first``: the first player.
        plots: the 25 plots, in plot order.
        players: every seat, in seat order.
        stacks: the three building stacks.
        sheriff: the Sheriff's intersection id; ``protected`` its plots.
        sheriffs_office: who controls the Sheriff's Office (-1: nobody).
        rails: railroad tiles laid (of ``rails_total``); ``station``: the Train Station's plot or ``""``.
        crime_pool, box: wanted posters in the Crime Pool and in the box.
        cartridge_supply, pony_supply: what the supply has left.
        shootout: the shootout waiting for a decision, if any.
        pending: the context of the decision owed now.
        tile: the building to be built now (``""`` if none; phase ``build``).
        winners: the winners once the game is over.
    """

    game: str = "deadwood_town"
    seat: int | None
    phase: str
    to_act: tuple[int, ...]
    current: int
    first: int
    plots: tuple[PlotView, ...]
    players: tuple[PlayerView, ...]
    stacks: tuple[StackView, ...]
    sheriff: str
    protected: tuple[str, ...]
    sheriffs_office: int
    rails: int
    rails_total: int
    station: str
    crime_pool: int
    box: int
    cartridge_supply: int
    pony_supply: int
    shootout: ShootoutView | None = None
    pending: PendingView | None = None
    tile: str = ""
    winners: tuple[int, ...] = ()


def _cowboy(c: int) -> Cowboy:
    return Cowboy(c >> 2, c & 3)


VIEW_CACHE = 4096
"""How many boards and stacks the view builder remembers (each cache is bounded by this)."""

_PROTECTED = tuple(tuple(p in plots for p in range(_COMP.num_plots)) for plots in _COMP.intersection_plots)
"""Per Sheriff intersection, whether each plot is protected."""
_PROTECTED_IDS = tuple(tuple(PLOTS[p] for p in plots) for plots in _COMP.intersection_plots)
"""Per Sheriff intersection, the printed ids of its plots."""


@functools.lru_cache(maxsize=VIEW_CACHE)
def _plot_view(p: int, tile: int, occ: tuple[int, ...], protected: bool) -> PlotView:
    """The :class:`PlotView` of plot ``p`` holding ``tile`` and the cowboys coded ``occ``."""
    return PlotView(
        PLOTS[p], KINDS[tile] if tile >= 0 else "", tile == RAIL, tuple(sorted(_cowboy(c) for c in occ)), protected
    )


@functools.lru_cache(maxsize=VIEW_CACHE)
def _board_view(
    board: tuple[int, ...], occ: tuple[tuple[int, ...], ...], sheriff: int
) -> tuple[tuple[PlotView, ...], tuple[int, ...]]:
    """The plots of a board (tiles, cowboys coded, the Sheriff's intersection), and how many
    cowboys each seat has in town (indexed by seat; eight entries, more than any table has)."""
    plots = tuple(map(_plot_view, range(len(board)), board, occ, _PROTECTED[sheriff]))
    town = [0] * 8
    for here in occ:
        for c in here:
            town[c >> 2] += 1
    return plots, tuple(town)


@functools.lru_cache(maxsize=VIEW_CACHE)
def _stack_view(stack: str, tiles: tuple[int, ...], order: tuple[int, ...] | None) -> StackView:
    """A :class:`StackView` of ``stack`` holding ``tiles`` (sorted ids); ``order``: the tiles top
    first, -1 where the viewer does not know it (``None``: it knows none)."""
    contents = tuple(sorted(KINDS[t] for t in tiles))
    if order is None:
        return StackView(stack, len(tiles), contents, (None,) * len(tiles))
    return StackView(stack, len(tiles), contents, tuple(KINDS[t] if t >= 0 else None for t in order))


@functools.lru_cache(maxsize=VIEW_CACHE)
def _hidden_stacks(tiles: tuple[tuple[int, ...], ...]) -> tuple[StackView, ...]:
    """The three stacks holding ``tiles`` (per stack, any order), none of whose order the viewer knows."""
    return tuple(_stack_view(s, tuple(sorted(t)), None) for s, t in zip(STACKS, tiles, strict=True))


def _stacks(st: DeadwoodTownState, known: set[int] | None) -> tuple[StackView, ...]:
    """The building stacks as a viewer who knows the tiles ``known`` sees them (``None``: all)."""
    stacks = [st.stacks[s] for s in STACKS]
    if known is not None and (not known or all(map(known.isdisjoint, stacks))):
        return _hidden_stacks(tuple(map(tuple, stacks)))
    out = []
    for s in STACKS:
        tiles = st.stacks[s]
        if known is not None and known.isdisjoint(tiles):
            order = None
        else:
            order = tuple(t if known is None or t in known else -1 for t in reversed(tiles))
        out.append(_stack_view(s, tuple(sorted(tiles)), order))
    return tuple(out)


def _pending(st: DeadwoodTownState, seat: int | None) -> PendingView | None:
    phase, p = st.phase, st.pending
    if not st.waiting:
        return None
    if phase == "annex":
        return PendingView(plot=PLOTS[p[0]], bonus=p[1])
    if phase == "build":
        return PendingView(tile=KINDS[p[0]])
    if phase == "choose_tile":
        return PendingView(tiles=tuple(KINDS[t] for t in p[0]))
    if phase == "gs_pick":
        return PendingView(plot=PLOTS[p[0]])
    if phase == "gs_move":
        return PendingView(plot=PLOTS[p[0]], cowboy=_cowboy(p[2]), source=PLOTS[p[1]])
    if phase == "arrange":
        mine = seat == OMNISCIENT or seat in st.waiting
        return PendingView(stack=p[0], arranged=tuple(KINDS[t] for t in p[1]) if mine else (), count=len(p[1]))
    if phase == "grift":
        return PendingView(count=p[1])
    if phase == "dance":
        return PendingView(count=p[2])
    return None


def make_view(st: DeadwoodTownState, seat: int | None) -> View:
    """Build the :class:`View` of ``seat`` (``None``: spectator; ``OMNISCIENT``: everything).

    Identical plots, boards and stacks are built once and shared between views (they are
    frozen): bounded caches keyed by the state's plain values (:data:`VIEW_CACHE`)."""
    plots, town = _board_view(tuple(st.board), tuple(map(tuple, st.occ)), st.sheriff)
    ranch, mine, unhired, boot_hill = st.ranch, st.mine, st.unhired, st.boot_hill
    players = tuple(
        PlayerView(
            p,
            st.money[p],
            st.cartridges[p],
            st.ponies[p],
            st.posters[p],
            (ranch[p][1], ranch[p][2], ranch[p][3]),
            (mine[p][1], mine[p][2], mine[p][3]),
            (unhired[p][1], unhired[p][2], unhired[p][3]),
            (boot_hill[p][1], boot_hill[p][2], boot_hill[p][3]),
            sum(ranch[p]) + sum(mine[p]) + town[p],
        )
        for p in range(st.n)
    )
    if seat == OMNISCIENT:
        known = None
    elif seat is None:
        known = st.public_known
    else:
        known = st.known[seat]
    stacks = _stacks(st, known)
    fight = st.fight
    shootout = None
    if fight is not None:
        shootout = ShootoutView(
            PLOTS[fight[0]],
            _cowboy(fight[1]),
            _cowboy(fight[2]),
            None if fight[5] < 0 else bool(fight[5]),
            None if fight[6] < 0 else bool(fight[6]),
        )
    sheriffs_office = st.toll_to(-1)
    pending = _pending(st, seat)
    return View(
        seat=seat,
        phase=st.phase,
        to_act=st.waiting,
        current=st.current,
        first=st.first,
        plots=plots,
        players=players,
        stacks=stacks,
        sheriff=_COMP.intersection_ids[st.sheriff],
        protected=_PROTECTED_IDS[st.sheriff],
        sheriffs_office=sheriffs_office,
        rails=st.rails,
        rails_total=_COMP.rails,
        station=PLOTS[st.station_plot] if st.station_plot >= 0 else "",
        crime_pool=st.crime_pool,
        box=st.box,
        cartridge_supply=st.cartridge_supply,
        pony_supply=st.pony_supply,
        shootout=shootout,
        pending=pending,
        tile=pending.tile if pending is not None else "",
        winners=st.result.winners if st.result else (),
    )
