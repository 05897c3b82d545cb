"""Deadwood (Lamy 2011) components, decoded once from ``deadwood_town.toml`` into int-indexed tables.

The TOML file is the project's copy of ``shared/data/deadwood_town/deadwood_town.toml``; its
``NOTES.md`` marks every value FOUND or ASSUMED. Nothing here is a rule: the rules modules read
these tables, so a corrected board, die or building is a change of the data file only.

Ids:
    * plots: ``0..24`` in the data file's order (``A1``, ``A2``, ... ``E7``); actions and views
      name plots by their printed id (``"B2"``).
    * intersections (Sheriff spots): ``0..31`` in the data file's order, named ``"S_A2_B2_B3"``.
    * tiles: one id per physical building tile: the fixed buildings (Town Hall, Sheriff's Office,
      Church), the "X" Saloon, then stack 1, 2 and 3 in the data file's order, then the Train
      Station. A tile's *kind* is its building id in the data (``"general_store"``); the two
      copies of a building are different tiles of the same kind, in different stacks.
    * cowboys are ``(owner, strength)``; strength ``1..3`` (Greenhorn, Gunslinger, Trail Boss).
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any

import msgspec

STACKS = ("1", "2", "3")
"""The building stacks, by the symbol on their backs."""


class Op(msgspec.Struct, frozen=True):
    """One step of a building's effect, as the data file writes it.

    Attributes:
        op: the op key (``"gain_money"``, ``"hire_cowboy"``, ...).
        n: its main amount (0 if the data gives none).
        params: every other parameter of the op, as in the data file.
    """

    op: str
    n: int
    params: dict[str, Any]


class Components(msgspec.Struct, frozen=True):
    """Every Deadwood component as int-indexed tuples (see the module docstring for ids).

    Attributes:
        plot_ids: plot id per plot; ``plot_index`` the reverse.
        neighbors: per plot, the plots sharing an edge with it (ascending ids).
        fixed: ``(plot, building kind)`` of the top-row buildings.
        starred: plots that get the starting tiles (four from stack 1 and the "X" Saloon).
        red_row: plots where the Train Station may go.
        rail_route: the plots of railroad tiles R1..R4, in the order they are laid.
        intersection_ids, intersection_plots: per Sheriff intersection, its id and its 3 plots.
        sheriff_start: the Sheriff's starting intersection.
        toll: dollars paid to the Sheriff's Office controller to enter a protected building.
        die_faces, alt_die_faces: the six faces of the shootout die (default and alternative).
        face_result: per face symbol, ``"kill"``, ``"wound"`` or ``"miss"``.
        start_rank: the first-player roll's symbols, best first.
        gold_mine: dollars per face symbol for the Gold Mine.
        strengths: ``(1, 2, 3)``; ``type_ids``, ``type_names``, ``hire_cost``, ``per_player``
            indexed by strength (index 0 unused).
        start_ranch: strengths placed in each Ranch at setup.
        money, cartridges, ponies: each player's starting supply.
        crime_pool_per_player, wanted_total, cartridges_total, ponies_total: the common supply.
        tile_kind, tile_stack: per tile, its building kind and the stack it returns to
            (``"1"``..``"3"``; the "X" Saloon returns to ``"1"``; ``""`` for fixed tiles).
        stack_tiles: per stack, its tiles in the data file's order.
        saloon_x: the "X" Saloon's tile; ``station``: the Train Station's tile.
        annex: per building kind, its annex ops; ``control``: its control ops.
        names: per building kind, its printed name.
        no_shootout, multi_occupancy, always_annex: building kinds with these specials (the Church).
        rails: railroad tiles; ``hotel_rail``, ``hotel_station`` the Hotel's control payouts.
        station_per_building: dollars per building next to the Train Station.
        stage_depot_bonus: the Stage Depot's end bonus when the game ends without the station.
    """

    plot_ids: tuple[str, ...]
    plot_index: dict[str, int]
    neighbors: tuple[tuple[int, ...], ...]
    fixed: tuple[tuple[int, str], ...]
    starred: tuple[int, ...]
    red_row: tuple[int, ...]
    rail_route: tuple[int, ...]
    intersection_ids: tuple[str, ...]
    intersection_plots: tuple[tuple[int, int, int], ...]
    sheriff_start: int
    toll: int
    die_faces: tuple[str, ...]
    alt_die_faces: tuple[str, ...]
    face_result: dict[str, str]
    start_rank: tuple[str, ...]
    gold_mine: dict[str, int]
    type_ids: tuple[str, ...]
    type_names: tuple[str, ...]
    hire_cost: tuple[int, ...]
    per_player: tuple[int, ...]
    start_ranch: tuple[int, ...]
    money: int
    cartridges: int
    ponies: int
    crime_pool_per_player: int
    wanted_total: int
    cartridges_total: int
    ponies_total: int
    tile_kind: tuple[str, ...]
    tile_stack: tuple[str, ...]
    stack_tiles: dict[str, tuple[int, ...]]
    saloon_x: int
    station: int
    annex: dict[str, tuple[Op, ...]]
    control: dict[str, tuple[Op, ...]]
    names: dict[str, str]
    no_shootout: frozenset[str]
    multi_occupancy: frozenset[str]
    always_annex: frozenset[str]
    rails: int
    hotel_rail: int
    hotel_station: int
    station_per_building: int
    stage_depot_bonus: int
    adjacent_reannex: bool

    @property
    def num_plots(self) -> int:
        """Plots on the board (25)."""
        return len(self.plot_ids)

    @property
    def num_tiles(self) -> int:
        """Building tiles, the Train Station included (26)."""
        return len(self.tile_kind)


NAMES = {
    "town_hall": "Town Hall",
    "sheriffs_office": "Sheriff's Office",
    "church": "Church",
    "saloon_x": "X Saloon",
    "saloon": "Saloon",
    "bank": "Bank",
    "gunsmith": "Gunsmith",
    "blacksmith": "Blacksmith",
    "casino": "Casino",
    "general_store": "General Store",
    "hotel": "Hotel",
    "laundry": "Laundry",
    "stage_depot": "Stage Depot",
    "undertaker": "Undertaker",
    "gold_mine": "Gold Mine",
    "fortune_teller": "Fortune Teller",
    "courthouse": "Courthouse",
    "grifter": "Grifter",
    "newspaper": "Newspaper",
    "dance_hall": "Dance Hall",
    "telegraph_office": "Telegraph Office",
    "train_station": "Train Station",
}
"""Printed building names (the data file names buildings by id only)."""

TYPE_NAMES = {"greenhorn": "Greenhorn", "gunslinger": "Gunslinger", "trail_boss": "Trail Boss"}


def _ops(raw: list[dict[str, Any]]) -> tuple[Op, ...]:
    return tuple(
        Op(item["op"], int(item.get("n", 0)), {k: v for k, v in item.items() if k not in ("op", "n")}) for item in raw
    )


def load(data: dict[str, Any]) -> Components:
    """Index a decoded ``deadwood_town.toml`` (a dict as :func:`tomllib.loads` returns it)."""
    board = data["board"]
    plots = board["plots"]
    plot_ids = tuple(p["id"] for p in plots)
    index = {pid: i for i, pid in enumerate(plot_ids)}
    neighbors = tuple(tuple(sorted(index[q] for q in p["neighbors"])) for p in plots)
    sheriff = data["sheriff"]
    inters = sheriff["intersections"]
    inter_ids = tuple(s["id"] for s in inters)
    dice = data["dice"]
    types = sorted(data["cowboys"]["types"], key=lambda t: t["strength"])
    stacks = data["stacks"]
    tile_kind: list[str] = []
    tile_stack: list[str] = []
    fixed = tuple((index[pid], kind) for pid, kind in board["fixed_buildings"].items())
    for _plot, kind in fixed:
        tile_kind.append(kind)
        tile_stack.append("")
    for kind in stacks["starting"]:
        if kind not in {k for _p, k in fixed}:
            tile_kind.append(kind)
            tile_stack.append("1")  # railroad.destroyed_tile_goes_to: the X Saloon to stack 1
    stack_tiles: dict[str, tuple[int, ...]] = {}
    for stack in STACKS:
        ids = []
        for kind in stacks[stack]:
            ids.append(len(tile_kind))
            tile_kind.append(kind)
            tile_stack.append(stack)
        stack_tiles[stack] = tuple(ids)
    station_kind = stacks["special"][0]
    tile_kind.append(station_kind)
    tile_stack.append("")
    buildings = data["buildings"]
    specials = {kind: set(b.get("special", ())) for kind, b in buildings.items()}
    railroad = data["railroad"]
    hotel_control = {op.op: op.n for op in _ops(buildings["hotel"].get("control", []))}
    depot_control = {op.op: op.n for op in _ops(buildings["stage_depot"].get("control", []))}
    setup = data["setup"]
    supply = data["supply"]
    return Components(
        plot_ids=plot_ids,
        plot_index=index,
        neighbors=neighbors,
        fixed=fixed,
        starred=tuple(index[p] for p in board["starred"]),
        red_row=tuple(index[p] for p in board["red_row"]),
        rail_route=tuple(index[p] for p in railroad["route"]),
        intersection_ids=inter_ids,
        intersection_plots=tuple((index[s["plots"][0]], index[s["plots"][1]], index[s["plots"][2]]) for s in inters),
        sheriff_start=inter_ids.index(sheriff["start"]),
        toll=int(sheriff["toll"]),
        die_faces=tuple(dice["faces"]),
        alt_die_faces=tuple(dice["alternative"]),
        face_result=dict(dice["result"]),
        start_rank=tuple(dice["start_player_rank"]),
        gold_mine={k: int(v) for k, v in data["gold_mine_table"].items() if k != "status" and k != "expected_value"},
        type_ids=("", *(t["id"] for t in types)),
        type_names=("", *(TYPE_NAMES.get(t["id"], t["id"]) for t in types)),
        hire_cost=(0, *(int(t["hire_cost"]) for t in types)),
        per_player=(0, *(int(t["count_per_player"]) for t in types)),
        start_ranch=tuple(
            next(t["strength"] for t in types if t["id"] == i) for i in data["cowboys"]["start_in_ranch"]
        ),
        money=int(setup["money"]),
        cartridges=int(setup["cartridges"]),
        ponies=int(setup["ponies"]),
        crime_pool_per_player=int(setup["crime_pool_per_player"]),
        wanted_total=int(supply["wanted_posters_total"]),
        cartridges_total=int(supply["cartridges_total"]),
        ponies_total=int(supply["ponies_total"]),
        tile_kind=tuple(tile_kind),
        tile_stack=tuple(tile_stack),
        stack_tiles=stack_tiles,
        saloon_x=tile_kind.index("saloon_x"),
        station=len(tile_kind) - 1,
        annex={kind: _ops(b.get("annex", [])) for kind, b in buildings.items()},
        control={kind: _ops(b.get("control", [])) for kind, b in buildings.items()},
        names={kind: NAMES.get(kind, kind.replace("_", " ").title()) for kind in buildings},
        no_shootout=frozenset(k for k, s in specials.items() if "no_shootouts" in s),
        multi_occupancy=frozenset(k for k, s in specials.items() if "multi_occupancy" in s),
        always_annex=frozenset(k for k, s in specials.items() if "always_annex_on_entry" in s),
        rails=int(railroad["tiles"]),
        hotel_rail=hotel_control.get("on_rail_placed_gain", 0),
        hotel_station=hotel_control.get("on_station_placed_gain", 0),
        station_per_building=int(data["train_station"]["payout_per_adjacent_building"]),
        stage_depot_bonus=depot_control.get("end_bonus_if_no_station", 0),
        adjacent_reannex=bool(railroad["adjacent_reannex"]),
    )


@functools.cache
def components() -> Components:
    """Load and index the package's ``deadwood_town.toml`` (once per process)."""
    raw = resources.files(__package__).joinpath("deadwood_town.toml").read_text(encoding="utf-8")
    return load(tomllib.loads(raw))
