"""Deadwood (the worker-placement game) at the table: the town as a grid of plots, every
cowboy by colour and strength, the Sheriff and his three plots, the railroad and the Train
Station, each player's Ranch, money, cartridges, ponies, wanted posters and Boot Hill, the
Crime Pool, the building stacks and each shootout die by die.

For developers: everything is drawn only from :class:`engine.deadwood_town.views.View` and the
viewer's events (the one secret of this game, the order of the building stacks, is in the view
only where the viewer knows it), and no rule is decided here. Every state is written in text or
symbols, never in colour alone: a cowboy is its player's colour letter and its strength (``R3``,
the red Trail Boss).

:func:`render_board` is the text board, a plain function of a view: the players, the town as
the brick-pyramid grid of plots the data file describes (rows A to E, each shifted half a plot),
the Crime Pool, Sheriff and railroad lines and the stacks. The table screen shows its parts
(:func:`board_parts`, styled) and ``saloon replay show`` can print it as plain text; it reads
in full at 100 columns and at 80 and lists the plots row by row below 64 columns.
:data:`LEGEND` is the players' guide to it, shown by the help screen (``?``) with the rules and
their building table (``help.md``); keep the two in step.

The picker's groups (:meth:`DeadwoodTownUI.group`) keep every level at nine items or fewer:
Hit the Town by cowboy, then by row of the town; Head Back to the Ranch; the General Store's,
the Grifter's and the new buildings' plots by row; the Sheriff's corners by the rows they join.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import msgspec
from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult

from engine.core import GameCapped, InvalidOptions, parse_options
from engine.deadwood_town import actions as A
from engine.deadwood_town import events as E
from engine.deadwood_town.components import components
from engine.deadwood_town.events import Cowboy
from engine.deadwood_town.game import Options
from engine.deadwood_town.state import MINE
from engine.deadwood_town.views import PlayerView, PlotView, View
from tui.games.base import BOX_JUNCTIONS, GameUI, Recent, TableWidget
from tui.widgets.board import Board
from tui.widgets.log import HIGHLIGHT, capped_line
from tui.widgets.quiet import DrawnStatic

__all__ = [
    "COLOURS",
    "LEGEND",
    "SHORT_NAMES",
    "DeadwoodTownTable",
    "DeadwoodTownUI",
    "board_parts",
    "legend",
    "render_board",
    "render_grid",
    "render_table",
    "table_parts",
    "token",
    "town_row",
]

COMP = components()
NAMES = COMP.names
"""Each building's printed name by its id (public component data)."""

TYPES = COMP.type_names
"""The cowboys' names by strength: ``TYPES[3] == "Trail Boss"``."""

COLOURS = (("R", "red"), ("G", "green"), ("Y", "yellow"), ("P", "magenta"), ("O", "dark_orange"))
"""Per seat, its colour letter (Red, Green, Yellow, Purple, Orange: none of them a row of the
town, A to E) and the colour on screen (decoration only: the letter is always written)."""

SHORT_NAMES = {
    "town_hall": "Town Hall",
    "sheriffs_office": "Sheriff's",
    "church": "Church",
    "saloon_x": "X Saloon",
    "saloon": "Saloon",
    "bank": "Bank",
    "gunsmith": "Gunsmith",
    "blacksmith": "Blacksmith",
    "casino": "Casino",
    "general_store": "Gen. Store",
    "hotel": "Hotel",
    "laundry": "Laundry",
    "stage_depot": "Stage Dep.",
    "undertaker": "Undertaker",
    "gold_mine": "Gold Mine",
    "fortune_teller": "Fortune T.",
    "courthouse": "Courthouse",
    "grifter": "Grifter",
    "newspaper": "Newspaper",
    "dance_hall": "Dance Hall",
    "telegraph_office": "Telegraph",
    "train_station": "Station",
}
"""A name of at most ten characters per building, for the grid's narrow cells (80 columns)."""

FACES = {"skull": "a skull", "crossed_guns": "crossed guns", "star": "a star", "blank": "a blank"}
"""The shootout die's faces in words, as rolled ("rolls a skull", "rolls crossed guns")."""

GRID_MIN_CELL = 9
"""The narrowest grid cell (in characters, a border included): below it (a width under 64) the
town is listed row by row instead."""

GRID_MAX_CELL = 16
"""The widest grid cell: the grid stops growing at 113 columns."""

CELL_LINES = 2
"""Lines inside a grid cell: the building, then the cowboys."""


@functools.cache
def _geometry() -> tuple[dict[str, tuple[int, float]], dict[str, tuple[float, float]]]:
    """From the engine's data file: per plot ``(row, x)`` of its centre, per Sheriff corner its
    ``(x, y)`` (plot centres are at ``y = row``, corners between two rows; unit squares)."""
    text = resources.files("engine.deadwood_town").joinpath("deadwood_town.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    plots = {p["id"]: (int(p["row"]), float(p["x"])) for p in data["board"]["plots"]}
    corners = {s["id"]: (float(s["x"]), float(s["y"])) for s in data["sheriff"]["intersections"]}
    return plots, corners


RAIL_NUMBER = {COMP.plot_ids[p]: n + 1 for n, p in enumerate(COMP.rail_route)}
"""Per plot of the rail route, the number of the railroad tile laid there (1 first)."""

RED_ROW = frozenset(COMP.plot_ids[p] for p in COMP.red_row)
"""The plots where the Train Station may go."""


# -- words ------------------------------------------------------------------------------------


def token(owner: int, strength: int) -> str:
    """A cowboy as the board writes it: its owner's colour letter and its strength, ``"R3"``."""
    letter = COLOURS[owner][0] if 0 <= owner < len(COLOURS) else str(owner)
    return f"{letter}{strength}"


def _style(view: Any, owner: int) -> str:
    style = COLOURS[owner][1] if 0 <= owner < len(COLOURS) else ""
    return f"{style} bold reverse" if owner == _me(view) else style


def _me(view: Any) -> int | None:
    seat = getattr(view, "seat", None)
    return seat if isinstance(seat, int) and seat >= 0 else None


def _who(view: Any, seat: int, capital: bool = False) -> str:
    """``"you"`` for the viewer's own seat, else ``"seat N"``."""
    word = "you" if seat == _me(view) else f"seat {seat}"
    return word[0].upper() + word[1:] if capital else word


def _whose(view: Any, seat: int, capital: bool = False) -> str:
    word = "your" if seat == _me(view) else f"seat {seat}'s"
    return word[0].upper() + word[1:] if capital else word


def _verb(view: Any, seat: int, you: str, other: str) -> str:
    return you if seat == _me(view) else other


def _cowboy(view: Any, cowboy: Cowboy, capital: bool = False, actor: int | None = None) -> str:
    """``"your Trail Boss (R3)"``, ``"seat 1's Greenhorn (G1)"``; ``"their ..."`` when ``actor``
    (the seat doing something with it) owns it and is not the viewer."""
    whose = "their" if actor == cowboy.owner and actor != _me(view) else _whose(view, cowboy.owner, capital)
    return f"{whose} {TYPES[cowboy.strength]} ({token(cowboy.owner, cowboy.strength)})"


def _name(kind: str) -> str:
    return NAMES.get(kind, kind.replace("_", " ").title())


def _at(kind: str, plot: str) -> str:
    """``"the Bank (C3)"``; ``"the Abandoned Mine"``; a plot without a known building: its id."""
    if plot == MINE:
        return "the Abandoned Mine"
    return f"the {_name(kind)} ({plot})" if kind else plot


def _place(view: Any, plot: str, town: dict[str, str] | None = None) -> str:
    """A plot or ``"mine"`` in words, with the building there in ``town`` (plot id to building id,
    as the events built it up to then) or else the one ``view`` shows now."""
    if plot == MINE:
        return "the Abandoned Mine"
    if town is not None:
        return _at(town.get(plot, ""), plot)
    for p in getattr(view, "plots", ()):
        if p.id == plot:
            return _at(p.building, plot)
    return plot


def _dollars(amount: int) -> str:
    return f"-${-amount}" if amount < 0 else f"${amount}"


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells, ending in ``…`` when cut."""
    if width <= 0:
        return ""
    return text if len(text) <= width else text[: width - 1] + "…"


def _fit(kind: str, width: int) -> str:
    """A building's name in ``width`` cells: in full, else its short name, else cut."""
    name = _name(kind)
    if len(name) <= width:
        return name
    short = SHORT_NAMES.get(kind, name)
    return short if len(short) <= width else _cut(short, width)


def _strengths(counts: tuple[int, ...]) -> str:
    """Cowboys counted by strength ``(1, 2, 3)`` as digits, one a cowboy: ``(1, 0, 2)`` is ``"133"``."""
    return "".join(str(s) * n for s, n in enumerate(counts, start=1)) or "–"


def _corner(intersection: str) -> str:
    """A Sheriff corner's plots: ``"S_A2_B2_B3"`` is ``"A2, B2, B3"``."""
    return intersection.removeprefix("S_").replace("_", ", ")


def _flow(label: Text, items: list[str], width: int, sep: str = " · ") -> Text:
    """``label`` and ``items`` (joined by ``sep``) on as few lines as fit in ``width``; an item
    longer than a line breaks between words."""
    indent = 2
    pieces: list[tuple[str, str]] = []  # (separator before, words)
    for n, item in enumerate(items):
        gap = sep if n else " "
        if len(item) <= width - indent:
            pieces.append((gap, item))
            continue
        for k, word in enumerate(item.split(" ")):
            pieces.append((gap if k == 0 else " ", word))
    out = label.copy()
    column = out.cell_len
    for gap, text in pieces:
        if column + len(gap) + len(text) > width and column > indent:
            out.append("\n" + " " * indent)
            column = indent
            gap = ""
        out.append(gap + text)
        column += len(gap) + len(text)
    return out


# -- the town grid ----------------------------------------------------------------------------


def _cowboys(view: Any, cowboys: tuple[Cowboy, ...], width: int) -> Text:
    """The cowboys on a plot as tokens (``R3 G1``), closer together if need be, else counted."""
    tokens = [token(c.owner, c.strength) for c in cowboys]
    for sep in (" ", ""):
        if len(sep.join(tokens)) <= width:
            out = Text()
            for k, c in enumerate(cowboys):
                if k:
                    out.append(sep)
                out.append(tokens[k], style=_style(view, c.owner))
            return out
    return Text(_cut(_plural(len(tokens), "cowboy"), width))


def _cell(view: Any, plot: PlotView, inner: int) -> list[Text]:
    """A grid cell's lines: the building's name and the cowboys there; a rail; or nothing."""
    if plot.rail:
        label = f" rail {RAIL_NUMBER.get(plot.id, '')} ".replace("  ", " ")
        return [Text(label.center(inner, "═")[:inner], style="bold"), Text("═" * inner, style="dim")]
    if not plot.building:
        return []
    style = "bold reverse" if plot.building == "train_station" else "bold"
    return [Text(_fit(plot.building, inner), style=style), _cowboys(view, plot.cowboys, inner)]


def render_grid(view: View, width: int = 100) -> Text | None:
    """The town as the board lays it out, ``width`` cells wide at most, or ``None`` when ``width``
    is too narrow (under 64): rows A (top, three plots) to E (seven), each shifted half a plot.

    Each plot is a box with its id on its top edge (``B2★``: the Sheriff protects it) holding the
    building's name and the cowboys there (``R3``: seat 0's Trail Boss), a rail (``═ rail 2 ═``)
    or nothing (an open plot). The Sheriff is the ``★`` on the corner where his three plots meet.

    The grid is drawn again only when the plots, the Sheriff, the viewer or ``width`` changed
    (:data:`_GRIDS`): the returned text is shared and must not be changed.
    """
    key = (view.plots, view.sheriff, _me(view), width)
    known, grid = _GRIDS.get(key)
    if known:
        return grid  # type: ignore[no-any-return]
    return _GRIDS.put(key, _render_grid(view, width))  # type: ignore[no-any-return]


@functools.lru_cache(maxsize=16)
def _grid_walls(cell: int, plot_ids: tuple[str, ...]) -> list[str]:
    """The grid's walls, as lines, for plots ``cell`` cells wide: what is written in the plots
    (and their ids on their top walls) is written over them. The same while the plots' width is:
    drawn once."""
    plots, _ = _geometry()
    xs = [x for _, x in plots.values()]
    left, right = min(xs) - 0.5, max(xs) + 0.5
    rows = 1 + max(r for r, _ in plots.values())

    def column(u: float) -> int:
        return int((u - left) * cell + 0.5)  # half a cell rounds the same way everywhere

    size_x, size_y = column(right) + 1, rows * (CELL_LINES + 1) + 1
    links: list[list[set[str]]] = [[set() for _ in range(size_x)] for _ in range(size_y)]
    for plot_id in plot_ids:
        r, x = plots[plot_id]
        x0, x1 = column(x - 0.5), column(x + 0.5)
        y0, y1 = r * (CELL_LINES + 1), (r + 1) * (CELL_LINES + 1)
        for y in (y0, y1):
            for i in range(x0, x1):
                links[y][i].add("r")
                links[y][i + 1].add("l")
        for i in (x0, x1):
            for y in range(y0, y1):
                links[y][i].add("d")
                links[y + 1][i].add("u")
    return ["".join(BOX_JUNCTIONS.get(frozenset(walls), " ") if walls else " " for walls in row) for row in links]


_GRIDS = Recent(32)
"""The grids drawn last (see :func:`render_grid`)."""


def _render_grid(view: View, width: int) -> Text | None:
    plots, corners = _geometry()
    xs = [x for _, x in plots.values()]
    left, right = min(xs) - 0.5, max(xs) + 0.5
    cell = min(GRID_MAX_CELL, int((width - 1) // (right - left)))  # every cell as wide
    if cell < GRID_MIN_CELL:
        return None

    def column(u: float) -> int:
        return int((u - left) * cell + 0.5)  # half a cell rounds the same way everywhere

    canvas = [list(row) for row in _grid_walls(cell, tuple(p.id for p in view.plots))]
    styles: list[list[tuple[int, int, str]]] = [[] for _ in canvas]

    def write(y: int, x: int, text: Text) -> None:
        plain = text.plain
        canvas[y][x : x + len(plain)] = plain
        for span in text.spans:
            styles[y].append((x + span.start, x + span.end, str(span.style)))
        if text.style:
            styles[y].append((x, x + len(plain), str(text.style)))

    for p in view.plots:
        r, x = plots[p.id]
        x0, x1 = column(x - 0.5), column(x + 0.5)
        y0 = r * (CELL_LINES + 1)
        label = Text(p.id, style="red" if p.id in RED_ROW else "")
        if p.protected:
            label.append("★", style="bold")
        write(y0, x0 + 1, label)
        for k, line in enumerate(_cell(view, p, x1 - x0 - 1)):
            write(y0 + 1 + k, x0 + 1, line)
    if view.sheriff in corners:
        sx, sy = corners[view.sheriff]
        write(int(sy + 0.5) * (CELL_LINES + 1), column(sx), Text("★", style="bold reverse"))
    out = Text()
    for y, chars in enumerate(canvas):
        line = Text("".join(chars).rstrip())
        for start, end, style in styles[y]:
            line.stylize(style, start, end)
        if y:
            out.append("\n")
        out.append_text(line)
    return out


def _plot_list(view: View, width: int) -> Text:
    """The town row by row, for narrow screens: ``A  A1 Town Hall · A2★ Sheriff's Office R2 ·``."""
    plots, _ = _geometry()
    out = Text()
    rows: dict[int, list[PlotView]] = {}
    for p in view.plots:
        rows.setdefault(plots[p.id][0], []).append(p)
    for n, (_, row) in enumerate(sorted(rows.items())):
        items = []
        for p in row:
            what = f"rail {RAIL_NUMBER.get(p.id, '')}" if p.rail else (_name(p.building) if p.building else "open")
            cowboys = " ".join(token(c.owner, c.strength) for c in p.cowboys)
            items.append(f"{p.id}{'★' if p.protected else ''} {what}" + (f" {cowboys}" if cowboys else ""))
        if n:
            out.append("\n")
        out.append_text(_flow(Text(f"{row[0].id[0]} ", style="bold"), items, width))
    return out


# -- the players, the town's lines, the stacks ------------------------------------------------


def _players(view: View, names: list[str], width: int) -> Text:
    """One line per player: turn mark, colour letter, seat and name, money, cartridges, ponies,
    wanted posters, then the cowboys by strength in the Ranch, the Abandoned Mine, the supply
    (still to hire) and on Boot Hill."""
    labels = [f"{p.seat} {names[p.seat] if p.seat < len(names) else ''}".rstrip() for p in view.players]
    labels = [label + (" (you)" if seat == _me(view) else "") for seat, label in enumerate(labels)]
    name_width = max(6, min(18, max(len(label) for label in labels)))
    columns: list[tuple[str, Callable[[PlayerView], str], bool]] = [
        ("$", lambda p: _dollars(p.money), True),
        ("cart", lambda p: str(p.cartridges), True),
        ("pony", lambda p: str(p.ponies), True),
        ("wanted", lambda p: str(p.posters), True),
        ("ranch", lambda p: _strengths(p.ranch), False),
        ("mine", lambda p: _strengths(p.mine), False),
        ("to hire", lambda p: _strengths(p.unhired), False),
        ("Boot Hill", lambda p: _strengths(p.boot_hill), False),
    ]
    cells = [[get(p) for _, get, _ in columns] for p in view.players]
    sizes = [max(len(head), *(len(row[k]) for row in cells)) for k, (head, _, _) in enumerate(columns)]
    fixed = 5 + name_width  # mark, colour letter, seat and name, spaces

    def line(values: list[str]) -> str:
        parts = []
        used = fixed
        for k, (_, _, right) in enumerate(columns):
            if used + 1 + sizes[k] > width:
                break
            parts.append(values[k].rjust(sizes[k]) if right else values[k].ljust(sizes[k]))
            used += 1 + sizes[k]
        return " ".join(parts).rstrip()

    out = Text(f"    {'player':<{name_width}} " + line([head for head, _, _ in columns]), style="dim")
    for p, row in zip(view.players, cells, strict=True):
        seat = p.seat
        if view.phase == "over":
            mark = "W" if seat in view.winners else " "
        else:
            mark = "▶" if seat == view.current else ("…" if seat in view.to_act else " ")
        out.append("\n")
        out.append(f"{mark} ", style="bold")
        out.append(COLOURS[seat][0] if seat < len(COLOURS) else str(seat), style=_style(view, seat))
        out.append(f" {_cut(labels[seat], name_width):<{name_width}} ", style="bold" if seat == _me(view) else "")
        values = line(row)
        out.append(values)
        if seat in view.winners and fixed + len(values) + 8 <= width:
            out.append("  WINNER", style="bold")
    return out


def _town(view: View, width: int) -> Text:
    """The Crime Pool and the supply; the Sheriff and who takes his toll; the railroad."""
    red = sorted(RED_ROW)[0][:1] if RED_ROW else "?"
    crime = [
        f"{_plural(view.crime_pool, 'wanted poster')} (box {view.box})",
        f"supply: {_plural(view.cartridge_supply, 'cartridge')}, {_plural(view.pony_supply, 'pony', 'ponies')}",
    ]
    office = view.sheriffs_office
    if 0 <= office < len(view.players):
        holds = _verb(view, office, "hold", "holds")
        toll = f"{_who(view, office)} ({COLOURS[office][0]}) {holds} the Sheriff's Office: $1 toll into ★ plots"
    else:
        toll = "nobody holds the Sheriff's Office: no toll"
    sheriff = [f"on the corner of {_corner(view.sheriff)}", toll]
    route = [COMP.plot_ids[p] for p in COMP.rail_route]
    rail = [f"{view.rails} of {view.rails_total} laid"]
    if view.station:
        rail.append(f"the Train Station stands on {view.station}")
    elif view.rails < len(route):
        later = f", then {', '.join(route[view.rails + 1 :])}" if view.rails + 1 < len(route) else ""
        rail += [f"next on {route[view.rails]}{later}", f"then the Train Station on row {red}"]
    else:
        rail.append(f"the next Town Hall annex builds the Train Station on row {red}")
    out = Text()
    for k, (label, items) in enumerate((("Crime Pool", crime), ("Sheriff ★", sheriff), ("Railroad", rail))):
        if k:
            out.append("\n")
        out.append_text(_flow(Text(label, style="bold"), items, width))
    return out


def _stacks(view: View, width: int) -> Text:
    """The building stacks: how many tiles, the buildings in them, and their order top first
    where the viewer knows it (``?`` where not)."""
    out = Text()
    for k, stack in enumerate(view.stacks):
        if k:
            out.append("\n")
        label = Text(f"Stack {stack.stack} ", style="bold")
        label.append(f"({stack.size})")
        if not stack.size:
            out.append_text(label + Text(" empty", style="dim"))
            continue
        if any(b is not None for b in stack.order):
            label.append(" top first:")
            items = [_name(b) if b is not None else "?" for b in stack.order]
        else:
            label.append(":")
            items = [_name(b) for b in stack.contents]
        out.append_text(_flow(label, items, width, sep=", "))
    return out


def board_parts(view: View, names: list[str], width: int = 100) -> list[Text]:
    """The text board in parts, styled: the players, the town (the grid, or row by row below 64
    columns), the Crime Pool, Sheriff and railroad lines, and the building stacks.

    Args:
        view: a Deadwood view (any seat's, the spectator's or the omniscient one; the stacks show
            the order only where ``view`` knows it).
        names: per seat, the player's name (may be shorter than the seats).
        width: the room in cells; lines never run past it.
    """
    grid = render_grid(view, width)
    return [
        _players(view, names, width),
        grid if grid is not None else _plot_list(view, width),
        _town(view, width),
        _stacks(view, width),
    ]


def render_board(view: View, names: list[str], width: int = 100) -> str:
    """The board as plain text (no markup, no colour), at most ``width`` characters a line.

    The players (money, cartridges, ponies, wanted posters; cowboys in the Ranch, the Abandoned
    Mine, still to hire and on Boot Hill), the town as a grid of plots with the buildings, the
    cowboys by colour and strength (``R3``), the Sheriff (``★``) and his three plots, the rails
    and the Train Station, then the Crime Pool, the Sheriff's toll, the railroad and the building
    stacks. See :func:`board_parts` for the arguments; :data:`LEGEND` for how to read it.
    """
    return "\n\n".join(part.plain for part in board_parts(view, names, width)) + "\n"


# -- the table screen -------------------------------------------------------------------------


def _doing(view: View, seat: int) -> str:
    """What ``seat`` decides now, in words (``view.phase``)."""
    pending = view.pending
    fight = view.shootout
    plot = _place(view, pending.plot) if pending is not None and pending.plot else "a building"
    if view.phase == "turn":
        return "Hit the Town or Head Back to the Ranch"
    if view.phase == "head_back":
        return "Head Back: another cowboy, or stop"
    if view.phase == "annex":
        again = " again (bonus: a rail next to it)" if pending is not None and pending.bonus else ""
        return f"annex {plot}{again}, or not"
    if view.phase == "skedaddle" and fight is not None:
        return "skedaddle or stand and fight"
    if view.phase == "cartridge" and fight is not None:
        return "use a cartridge, or not"
    if view.phase == "gs_move" and pending is not None and pending.cowboy is not None:
        return f"General Store: where {_cowboy(view, pending.cowboy)} goes"
    if view.phase == "arrange" and pending is not None:
        put = f": {', '.join(_name(b) for b in pending.arranged)} so far" if pending.arranged else ""
        return f"Fortune Teller: putting stack {pending.stack} back, top first{put}"
    if view.phase == "choose_tile" and pending is not None:
        return "Town Hall: build one of " + ", ".join(_name(b) for b in pending.tiles)
    if view.phase == "build" and view.tile:
        return f"build the {_name(view.tile)} next to the town"
    return {
        "steal": "Casino: steal $1 from a player",
        "gs_pick": "General Store: pick a cowboy to move",
        "grift": "Grifter: send cowboys to the Abandoned Mine",
        "give_poster": "Newspaper: give a wanted poster away",
        "dance": "Dance Hall: bring cowboys back to the Ranch",
        "telegraph": "Telegraph Office: add or remove 2 wanted posters",
        "look": "Fortune Teller: look at a stack",
        "hire": "Saloon: hire a cowboy",
        "sheriff": "Sheriff's Office: move the Sheriff",
        "station": f"Town Hall: build the Train Station on row {sorted(RED_ROW)[0][0]}",
        "stage_stack": "Stage Depot: draw a building from a stack",
    }.get(view.phase, view.phase)


def _status(view: View, width: int = 100) -> Text:
    """The status line, one line of at most ``width`` cells (cut with ``…`` if need be; the
    picker says the rest): the railroad and the Crime Pool, whose turn it is, who decides what."""
    if view.phase == "over":
        best = ", ".join(f"{_who(view, s)} ({_dollars(view.players[s].money)})" for s in view.winners) or "nobody"
        return Text.assemble((" GAME OVER ", "reverse bold"), " ", (f"winner: {best}", "bold"))
    cur = view.current
    whose = f"{_whose(view, cur, True)} turn"
    decider = view.to_act[0] if view.to_act else cur
    if decider == cur:
        what = f"{whose}: {_doing(view, decider)}"
    else:
        what = f"{whose} · {_who(view, decider, True)}: {_doing(view, decider)}"
    rails = f"RAILS {view.rails}/{view.rails_total}"
    for pool in ("CRIME POOL", "POOL"):
        title = f" {rails} · {pool} {view.crime_pool} "
        if len(title) + 1 + len(what) <= width:
            break
    return Text.assemble((title, "reverse bold"), " ", (_cut(what, width - len(title) - 1), "bold"))


def _you(view: View) -> Text | None:
    """The viewer's own line (a seat's view only): money, cartridges, ponies, wanted posters,
    the Ranch and the Abandoned Mine."""
    me = _me(view)
    if me is None or me >= len(view.players):
        return None
    p = view.players[me]
    text = Text("You (", style="bold")
    text.append(COLOURS[me][0] if me < len(COLOURS) else str(me), style=_style(view, me))
    text.append(
        f"): {_dollars(p.money)}, {_plural(p.cartridges, 'cartridge')}, {_plural(p.ponies, 'pony', 'ponies')}, "
        f"{p.posters} wanted · Ranch {_strengths(p.ranch)} · Mine {_strengths(p.mine)}"
    )
    return text


def _fight_line(view: Any, ev: E.ShootoutStarted) -> str:
    return f"Shootout at {_at(ev.building, ev.plot)}: {_cowboy(view, ev.attacker)} attacks {_cowboy(view, ev.defender)}"


def _shot(view: Any, ev: E.ShotRolled, fight: E.ShootoutStarted | None) -> str:
    """One die in words: ``"G3 rolls a skull at R2: killed"``."""
    if fight is not None:
        by = fight.attacker if fight.attacker.owner == ev.shooter else fight.defender
        at = fight.defender if by is fight.attacker else fight.attacker
        shooter, target = token(by.owner, by.strength), token(at.owner, at.strength)
    else:
        shooter, target = _who(view, ev.shooter, True), f"{_whose(view, ev.target)} cowboy"
    face = FACES.get(ev.face, ev.face)
    if ev.effect == "kill" or ev.killed:
        result = "killed" if ev.effect == "kill" else "a second wound: killed"
    elif ev.effect == "wound":
        result = f"wounded ({_plural(ev.wounds, 'wound')})"
    else:
        result = "a miss"
    verb = "rolls" if fight is not None else _verb(view, ev.shooter, "roll", "rolls")
    return f"{shooter} {verb} {face} at {target}: {result}"


_RESULTS = {
    "attacker_won": "the attacker wins and stays",
    "defender_won": "the defender wins and stays",
    "both_killed": "both are killed: the building is empty",
    "both_survived": "both survive: the attacker goes to the Abandoned Mine; wounds heal",
    "skedaddled": "the defender skedaddled: the attacker stays",
}


def _last_shootout_start(view: View, events: list[Any]) -> int:
    """Where in ``events`` the last shootout started, if it started since everyone's last turn
    (or is on now); ``-1`` if none did."""
    turns = 0
    for k in range(len(events) - 1, -1, -1):
        ev = events[k]
        if isinstance(ev, E.TurnStarted):
            turns += 1
            if turns > len(view.players):
                return -1
        elif isinstance(ev, E.ShootoutStarted):
            return k
    return -1


def _last_shootout(view: View, events: list[Any]) -> Text | None:
    """The last shootout, die by die, if it started since everyone's last turn (or is on now)."""
    start = _last_shootout_start(view, events)
    if start < 0:
        return None
    fight = events[start]
    text = Text(_fight_line(view, fight), style="bold")
    ended = False
    for ev in events[start + 1 :]:
        line = ""
        if isinstance(ev, E.Skedaddled):
            line = f"{token(ev.seat, ev.strength)} skedaddles to the Abandoned Mine (a pony spent)"
        elif isinstance(ev, E.CartridgeDeclared):
            if ev.used:
                line = f"{_who(view, ev.seat, True)} ({ev.role}) {_verb(view, ev.seat, 'spend', 'spends')} a cartridge"
        elif isinstance(ev, E.DiceCounted):
            line = _dice(ev)
        elif isinstance(ev, E.ShotRolled):
            line = f"  {ev.volley}. {_shot(view, ev, fight)}"
        elif isinstance(ev, E.ShootoutEnded):
            line = "» " + _RESULTS.get(ev.result, ev.result)
            ended = True
        if line:
            text.append("\n" + line)
        if ended:
            break
    if not ended and view.shootout is not None:
        waiting = view.to_act[0] if view.to_act else view.current
        decides = _verb(view, waiting, "decide", "decides")
        text.append(f"\n{_who(view, waiting, True)} {decides}: {_doing(view, waiting)}", style="dim")
    return text


def _dice(ev: E.DiceCounted) -> str:
    dice = f"Dice: attacker {ev.attacker_dice}, defender {ev.defender_dice}"
    if ev.first < 0:
        return f"{dice}: both roll together, a die each at a time"
    side = "attacker" if ev.attacker_dice > ev.defender_dice else "defender"
    return f"{dice}: the {side} rolls {_plural(ev.extra, 'die', 'dice')} first, one at a time"


def town_row(view: View, plot: str, width: int = 100) -> Text | None:
    """The row of the town grid (:func:`render_grid`) that holds ``plot``, its boxes alone
    (``CELL_LINES + 2`` lines, borders included), or ``None`` where the grid does not fit."""
    plots, _ = _geometry()
    if plot not in plots:
        return None
    row = plots[plot][0]
    alone = msgspec.structs.replace(view, plots=tuple(p for p in view.plots if plots[p.id][0] == row))
    grid = render_grid(alone, width)
    if grid is None:
        return None
    top = row * (CELL_LINES + 1)
    return Text("\n").join(grid.split("\n", allow_blank=True)[top : top + CELL_LINES + 2])


def _shootout_here(view: View, events: list[Any], width: int) -> Text | None:
    """For a small screen, where the town shows only its top rows: the last shootout (see
    :func:`_last_shootout`) with its plot's row of the town under its first line, then who decides
    now or how it ended (its dice stay in the full account under the town)."""
    start = _last_shootout_start(view, events)
    full = _last_shootout(view, events)
    if start < 0 or full is None:
        return None
    lines = full.split("\n", allow_blank=True)
    row = town_row(view, events[start].plot, width)
    rest = lines[1:] if view.shootout is not None else lines[-1:]
    return Text("\n").join([lines[0], *([row] if row is not None else []), *rest])


def table_parts(
    view: View, events: list[Any], names: list[str], width: int = 100, compact: bool = False
) -> dict[str, Text | None]:
    """The table's parts by name, top to bottom, styled (``None``: not shown now).

    ``status``; ``you`` (a seat's own line; ``None`` for the spectator and the omniscient view);
    ``players`` (before the town, so that everyone's money shows without scrolling on a small
    terminal: the town then shows whole when the board is zoomed, ``z``, or scrolled);
    ``fight`` (the shootout waiting for a decision, above the town so that the one deciding sees
    it); ``town`` (the grid, or row by row below 64 columns); ``shootout`` (the last shootout, die
    by die, once over, if it began since everyone's last turn); ``lines`` (Crime Pool, Sheriff,
    railroad); ``stacks``.

    ``compact`` (a short terminal, where only the town's top rows show under the players): the
    ``fight`` part holds the last shootout, waiting or over, with its plot's row of the town
    (:func:`town_row`), so that a shootout on row D is in view when it happens.
    """
    players, town, lines, stacks = board_parts(view, names, width)
    fight = _last_shootout(view, events)
    waiting = view.shootout is not None
    return {
        "status": _status(view, width),
        "you": _you(view),
        "players": players,
        "fight": _shootout_here(view, events, width) if compact else fight if waiting else None,
        "town": town,
        "shootout": None if waiting else fight,
        "lines": lines,
        "stacks": stacks,
    }


def render_table(view: View, events: list[Any], names: list[str], width: int = 100) -> list[RenderableType]:
    """Everything the table shows for ``view`` (with the viewer's ``events``), top to bottom: the
    parts of :func:`table_parts` that are there. For tests (the widget shows the same parts)."""
    return [part for part in table_parts(view, events, names, width).values() if part is not None]


class DeadwoodTownTable(TableWidget):
    """The Deadwood table: status, your line, the players, the shootout being decided, the town,
    the last shootout, the Crime Pool, Sheriff and railroad lines, the stacks (see
    :func:`table_parts`).

    Under the status line, the parts are the lines of one :class:`~tui.widgets.board.Board`:
    drawing the same view again at the same size changes nothing, so it is skipped (the screens
    redraw after every move, a bot's included), and a new view redraws only the lines that
    changed.
    """

    _drawn: tuple[Any, ...] | None = None
    PARTS = ("status", "you", "players", "fight", "town", "shootout", "lines", "stacks")
    GAPS = {"players", "town", "shootout", "lines"}
    """The parts with a blank line above them (not on a short terminal)."""

    def compose(self) -> ComposeResult:
        yield DrawnStatic(id="dt-status")
        yield Board(id="dt-board")

    def draw(self, view: Any, events: list[Any], names: list[str]) -> None:
        """Draw ``view``; ``events`` give the last shootout, ``names`` the seats' players."""
        width = max((self.size.width or self.app.size.width - 1) - 1, 40)  # room for the scrollbar (.tcss)
        compact = self.app.size.height < 32
        key = (view, len(events), tuple(names), width, compact)
        if key == self._drawn:
            return
        self._drawn = key
        parts = table_parts(view, events, names, width, compact)
        self.query_one("#dt-status", DrawnStatic).show(parts["status"])
        gap = 0 if compact else 1
        board = [(parts[name], gap if name in self.GAPS else 0) for name in self.PARTS[1:]]
        self.query_one("#dt-board", Board).show(board, width)


# -- the log ----------------------------------------------------------------------------------

_ENDINGS = {
    "train_station": "the Train Station is built",
    "crime_pool_empty": "the Crime Pool is empty",
    "no_living_cowboys": "a player has no living cowboys",
    "stalled": "nobody can move",
    "decision_cap": "the game reached its decision cap",
}

_BOTTOM = {
    "destroyed": "destroyed",
    "no_plot": "no open plot for it",
    "not_chosen": "not chosen",
}


def _reason(reason: str) -> str:
    """A payment's or a poster's reason in words (a building id, ``"shootout"``...)."""
    if reason in NAMES:
        return _name(reason)
    return {"shootout": "a shootout", "train_station": "the Train Station"}.get(reason, reason.replace("_", " "))


def _describe_event(  # noqa: C901, PLR0911, PLR0912 - one line per event kind
    ev: Any, view: Any, fight: E.ShootoutStarted | None = None, town: dict[str, str] | None = None
) -> str | None:
    """The event in words, as ``view``'s seat knows it; ``fight``: the shootout it belongs to;
    ``town``: the buildings on the plots when it happened (see :func:`_context`)."""
    w = lambda seat: _who(view, seat, True)  # noqa: E731
    v = lambda seat, you, other: _verb(view, seat, you, other)  # noqa: E731
    if isinstance(ev, GameCapped):
        return capped_line(ev)
    if isinstance(ev, E.GameStarted):
        built = ", ".join(f"{_name(kind)} ({plot})" for plot, kind in ev.town)
        return f"══ Deadwood for {ev.players}: {built}; {ev.crime_pool} wanted posters in the Crime Pool ══"
    if isinstance(ev, E.StartRoll):
        face = FACES.get(ev.face, ev.face)
        return f"First player, roll {ev.round}: {_who(view, ev.seat)} {v(ev.seat, 'roll', 'rolls')} {face}"
    if isinstance(ev, E.TurnStarted):
        if ev.seat == _me(view):
            return "── Your turn ──"
        return f"── Seat {ev.seat}'s turn ({COLOURS[ev.seat][0] if ev.seat < len(COLOURS) else ev.seat}) ──"
    if isinstance(ev, E.TurnPassed):
        return f"{w(ev.seat)} can neither head back nor hit the town, and {v(ev.seat, 'pass', 'passes')}"
    if isinstance(ev, E.CowboyHeadedBack):
        cowboy = _cowboy(view, Cowboy(ev.seat, ev.strength), actor=ev.seat)
        where = _place(view, ev.place, town)
        return f"{w(ev.seat)} {v(ev.seat, 'bring', 'brings')} {cowboy} back to the Ranch from {where}"
    if isinstance(ev, E.CowboyPlaced):
        cowboy = _cowboy(view, Cowboy(ev.seat, ev.strength), actor=ev.seat)
        return f"{w(ev.seat)} {v(ev.seat, 'send', 'sends')} {cowboy} to {_at(ev.building, ev.plot)}"
    if isinstance(ev, E.TollPaid):
        paid = f"{v(ev.seat, 'pay', 'pays')} {_who(view, ev.to)} ${ev.amount}"
        return f"{w(ev.seat)} {paid} toll to enter {ev.plot} (the Sheriff's Office)"
    if isinstance(ev, E.BuildingAnnexed):
        again = " again (next to the new rail)" if ev.bonus else ""
        return f"{w(ev.seat)} {v(ev.seat, 'annex', 'annexes')} {_at(ev.building, ev.plot)}{again}"
    if isinstance(ev, E.AnnexDeclined):
        return f"{w(ev.seat)} {v(ev.seat, 'do', 'does')} not annex {_at(ev.building, ev.plot)}"
    if isinstance(ev, E.ShootoutStarted):
        poster = (
            f"{_who(view, ev.poster_to)} {v(ev.poster_to, 'take', 'takes')} a wanted poster"
            if ev.poster_to >= 0
            else "the Crime Pool is empty: no poster"
        )
        return f"{HIGHLIGHT}{_fight_line(view, ev)}; {poster}"
    if isinstance(ev, E.Skedaddled):
        return f"{_cowboy(view, Cowboy(ev.seat, ev.strength), True)} skedaddles to the Abandoned Mine (a pony spent)"
    if isinstance(ev, E.StoodGround):
        return f"{w(ev.seat)} {v(ev.seat, 'stand', 'stands')} and {v(ev.seat, 'fight', 'fights')}"
    if isinstance(ev, E.CartridgeDeclared):
        if ev.used:
            return f"{w(ev.seat)} ({ev.role}) {v(ev.seat, 'spend', 'spends')} a cartridge: one more die"
        return f"{w(ev.seat)} ({ev.role}) {v(ev.seat, 'use', 'uses')} no cartridge"
    if isinstance(ev, E.DiceCounted):
        return _dice(ev)
    if isinstance(ev, E.ShotRolled):
        return f"  die {ev.volley}: {_shot(view, ev, fight)}"
    if isinstance(ev, E.ShootoutEnded):
        where = _at(fight.building, ev.plot) if fight is not None else _place(view, ev.plot, town)
        return f"{HIGHLIGHT}Shootout at {where}: {_RESULTS.get(ev.result, ev.result)}"
    if isinstance(ev, E.CowboyKilled):
        return f"{_cowboy(view, ev.cowboy, True)} is killed at {ev.plot}: to Boot Hill"
    if isinstance(ev, E.MoneyGained):
        why = {
            "hotel": "the Hotel: the railroad comes",
            "undertaker": "the Undertaker: cowboys killed",
            "stage_depot": "the Stage Depot at the end: no Train Station",
        }.get(ev.reason, _reason(ev.reason))
        return f"{w(ev.seat)} {v(ev.seat, 'get', 'gets')} ${ev.amount} ({why})"
    if isinstance(ev, E.MoneyPaid):
        if ev.to >= 0:
            return (
                f"{w(ev.seat)} {v(ev.seat, 'lose', 'loses')} ${ev.amount} to {_who(view, ev.to)} ({_reason(ev.reason)})"
            )
        per = ": $1 per wanted poster" if ev.reason == "courthouse" else ""
        return f"{w(ev.seat)} {v(ev.seat, 'pay', 'pays')} ${ev.amount} to the bank ({_reason(ev.reason)}{per})"
    if isinstance(ev, E.SuppliesGained):
        item = _plural(ev.amount, "cartridge") if ev.item == "cartridge" else _plural(ev.amount, "pony", "ponies")
        return f"{w(ev.seat)} {v(ev.seat, 'take', 'takes')} {item} from the supply"
    if isinstance(ev, E.PostersTaken):
        return (
            f"{w(ev.seat)} {v(ev.seat, 'take', 'takes')} {_plural(ev.count, 'wanted poster')} from the Crime Pool "
            f"({_reason(ev.reason)})"
        )
    if isinstance(ev, E.PostersReturned):
        return (
            f"{w(ev.seat)} {v(ev.seat, 'return', 'returns')} {_plural(ev.count, 'wanted poster')} to the box "
            f"({_reason(ev.reason)})"
        )
    if isinstance(ev, E.PosterGiven):
        return f"{w(ev.seat)} {v(ev.seat, 'give', 'gives')} {_who(view, ev.to)} a wanted poster (Newspaper)"
    if isinstance(ev, E.CrimePoolAdjusted):
        verb = v(ev.seat, "add", "adds") if ev.delta > 0 else v(ev.seat, "remove", "removes")
        where = "to" if ev.delta > 0 else "from"
        return (
            f"{w(ev.seat)} {verb} {_plural(abs(ev.delta), 'wanted poster')} {where} the Crime Pool "
            f"(Telegraph Office): {ev.pool} there"
        )
    if isinstance(ev, E.CowboyHired):
        cowboy = _cowboy(view, Cowboy(ev.seat, ev.strength), actor=ev.seat)
        hires = f"{v(ev.seat, 'hire', 'hires')} {cowboy} for ${ev.cost}"
        return f"{w(ev.seat)} {hires} (Saloon): it waits in the Abandoned Mine"
    if isinstance(ev, E.CowboyMoved):
        by = {"general_store": "General Store", "grifter": "Grifter", "rail": "railroad"}.get(ev.reason, ev.reason)
        return (
            f"{_whose(view, ev.seat, True)} {by} {'moves' if ev.to != MINE else 'sends'} "
            f"{_cowboy(view, ev.cowboy)} from {_place(view, ev.source, town)} to {_place(view, ev.to, town)}"
        )
    if isinstance(ev, E.CowboyReturned):
        cowboy = _cowboy(view, Cowboy(ev.seat, ev.strength), actor=ev.seat)
        where = _place(view, ev.place, town)
        return f"{w(ev.seat)} {v(ev.seat, 'bring', 'brings')} {cowboy} back to the Ranch from {where} (Dance Hall)"
    if isinstance(ev, E.SheriffMoved):
        return f"{w(ev.seat)} {v(ev.seat, 'move', 'moves')} the Sheriff to the corner of {', '.join(ev.plots)}"
    if isinstance(ev, E.StackSeen):
        if ev.order is not None:
            return f"{w(ev.seat)} {v(ev.seat, 'look', 'looks')} at stack {ev.stack}, top first: " + ", ".join(
                _name(b) for b in ev.order
            )
        return f"{w(ev.seat)} {v(ev.seat, 'look', 'looks')} at stack {ev.stack} (Fortune Teller)"
    if isinstance(ev, E.StackArranged):
        if ev.order is not None:
            return f"{w(ev.seat)} {v(ev.seat, 'put', 'puts')} stack {ev.stack} back, top first: " + ", ".join(
                _name(b) for b in ev.order
            )
        knows = f"{_who(view, ev.seat)} {v(ev.seat, 'know', 'knows')}"
        return f"{w(ev.seat)} {v(ev.seat, 'put', 'puts')} stack {ev.stack} back in an order only {knows}"
    if isinstance(ev, E.TileDrawn):
        why = {"town_hall": "Town Hall", "stage_depot": "Stage Depot"}.get(ev.reason, ev.reason)
        return f"{w(ev.seat)} {v(ev.seat, 'draw', 'draws')} the {_name(ev.building)} from stack {ev.stack} ({why})"
    if isinstance(ev, E.TileBuilt):
        return f"{w(ev.seat)} {v(ev.seat, 'build', 'builds')} the {_name(ev.building)} on {ev.plot}"
    if isinstance(ev, E.TileToBottom):
        return f"The {_name(ev.building)} goes under stack {ev.stack} ({_BOTTOM.get(ev.reason, ev.reason)})"
    if isinstance(ev, E.RailPlaced):
        return f"{HIGHLIGHT}{w(ev.seat)} {v(ev.seat, 'lay', 'lays')} rail {ev.number} of {COMP.rails} on {ev.plot}"
    if isinstance(ev, E.BuildingDestroyed):
        gone = (
            ": " + ", ".join(token(c.owner, c.strength) for c in ev.cowboys) + " to the Abandoned Mine"
            if ev.cowboys
            else ""
        )
        return f"The {_name(ev.building)} on {ev.plot} is destroyed{gone}"
    if isinstance(ev, E.StationBuilt):
        return (
            f"{HIGHLIGHT}{w(ev.seat)} {v(ev.seat, 'build', 'builds')} the Train Station on {ev.plot}: "
            f"{_plural(ev.adjacent, 'building')} next to it pay ${ev.payout}"
        )
    if isinstance(ev, E.GoldMineRolled):
        return f"{w(ev.seat)} {v(ev.seat, 'roll', 'rolls')} {FACES.get(ev.face, ev.face)} at the Gold Mine: ${ev.money}"
    if isinstance(ev, E.GameEnding):
        why = " and ".join(_ENDINGS.get(r, r) for r in ev.reasons)
        return f"══ The game ends after {_whose(view, ev.seat)} turn: {why} ══"
    if isinstance(ev, E.FinalScore):
        bonus = f" + ${ev.bonus} Stage Depot" if ev.bonus else ""
        return (
            f"{w(ev.seat)}: ${ev.money}{bonus} − ${ev.fine} fine ({_plural(ev.posters, 'wanted poster')}) "
            f"= {_dollars(ev.score)}; {ev.boot_hill} on Boot Hill"
        )
    if isinstance(ev, E.GameOver):
        winners = ", ".join(f"{_who(view, s)} ({_dollars(ev.scores[s])})" for s in ev.winners) or "nobody"
        many = len(ev.winners) != 1 or ev.winners[0] == _me(view)
        return f"══ Game over: {winners} {'win' if many else 'wins'} ══"
    return repr(ev)


def _against(ev: Any, view: Any, me: int, fight: E.ShootoutStarted | None, town: dict[str, str] | None) -> str | None:
    """A notice when ``ev`` is something another player did to ``me`` (or a shootout ``me`` was in),
    in the words of ``view`` (``me``'s view)."""
    if isinstance(ev, E.ShootoutEnded) and fight is not None and me in (fight.attacker.owner, fight.defender.owner):
        return f"{_fight_line(view, fight)}: {_RESULTS.get(ev.result, ev.result)}"
    if isinstance(ev, E.MoneyPaid) and ev.seat == me and ev.to != me:
        whom = "the bank" if ev.to < 0 else f"seat {ev.to}"
        return f"You paid ${ev.amount} to {whom} ({_reason(ev.reason)})"
    if isinstance(ev, E.PosterGiven) and ev.to == me:
        return f"Seat {ev.seat}'s Newspaper gave you a wanted poster"
    if isinstance(ev, E.CowboyMoved) and ev.cowboy.owner == me and ev.seat != me:
        return _describe_event(ev, view, town=town)
    if isinstance(ev, E.BuildingDestroyed) and any(c.owner == me for c in ev.cowboys):
        mine = ", ".join(token(c.owner, c.strength) for c in ev.cowboys if c.owner == me)
        return f"The {_name(ev.building)} on {ev.plot} was destroyed: your {mine} went to the Abandoned Mine"
    return None


def _context(events: list[Any]) -> tuple[dict[int, E.ShootoutStarted], dict[int, dict[str, str]]]:
    """What the words of ``events`` need from the events before them, by each event's ``id``:
    the :class:`~E.ShootoutStarted` a shootout's event belongs to, and the town (plot id to
    building id) when each event happened (so the log names the building that stood there then).

    A table's screen asks at each redraw with the events so far: what was found for the events
    before (the same events, :data:`_CONTEXTS`) is taken up where it stopped. The returned
    mappings are shared: never change them."""
    if not events:
        return {}, {}
    found = _CONTEXTS.get(id(events[0]))
    if found is not None and found.first is events[0] and len(events) >= found.length:
        if found.length == 0 or events[found.length - 1] is found.last:
            found.extend(events)
            return found.fights, found.towns
    found = _Context(events[0])
    _CONTEXTS[id(events[0])] = found
    if len(_CONTEXTS) > 64:
        del _CONTEXTS[next(iter(_CONTEXTS))]
    found.extend(events)
    return found.fights, found.towns


class _Context:
    """:func:`_context` of a game's events, so far (the first event, how many, and the last)."""

    def __init__(self, first: Any) -> None:
        self.first = first
        self.last: Any = None
        self.length = 0
        self.fights: dict[int, E.ShootoutStarted] = {}
        self.towns: dict[int, dict[str, str]] = {}
        self.current: E.ShootoutStarted | None = None
        self.town: dict[str, str] = {}

    def extend(self, events: list[Any]) -> None:
        """Take in ``events[self.length:]``."""
        fights, towns, current, town = self.fights, self.towns, self.current, self.town
        for ev in events[self.length :]:
            towns[id(ev)] = town
            if isinstance(ev, E.ShootoutStarted):
                current = ev
            elif current is not None:
                fights[id(ev)] = current
                if isinstance(ev, E.ShootoutEnded):
                    current = None
            if isinstance(ev, E.GameStarted):
                town = dict(ev.town)
            elif isinstance(ev, E.TileBuilt | E.CowboyPlaced | E.BuildingAnnexed | E.AnnexDeclined | E.ShootoutStarted):
                if town.get(ev.plot) != ev.building:
                    town = {**town, ev.plot: ev.building}
            elif isinstance(ev, E.StationBuilt):
                town = {**town, ev.plot: "train_station"}
            elif isinstance(ev, E.BuildingDestroyed | E.RailPlaced):
                town = {k: b for k, b in town.items() if k != ev.plot}
        self.current, self.town = current, town
        self.length = len(events)
        self.last = events[-1] if events else None


_CONTEXTS: dict[int, _Context] = {}
""":func:`_context` of the last games asked about, by the ``id`` of their first event."""


# -- the legend -------------------------------------------------------------------------------

LEGEND = """\
Top to bottom:

- **Status line**: the railroad (`RAILS 1/4`) and the Crime Pool (`CRIME POOL 12`), whose turn
  it is and what is decided now (a defender decides in someone else's turn).
- **Your line** (`You (R): $5, 1 cartridge, 1 pony, 0 wanted · Ranch 123 · Mine –`): your colour,
  money, cartridges, ponies, wanted posters, and your cowboys by strength in the Ranch and the
  Abandoned Mine (see *Players*).
- **A shootout waiting for a decision** shows above the town: who attacked whom, the cartridges
  declared so far, and who decides now. On a small screen (where only the town's top rows show)
  every shootout since everyone's last turn shows there, with its plot's row of the town, and
  then how it ended.
- **The town**: the board's plots, rows A (top) to E, each row shifted half a plot like bricks;
  plots that share an edge are neighbours. Each box:
  - its id on its top edge (`C3`); `★` after the id: the **Sheriff** protects the plot (no
    shootouts there; entering costs the $1 toll to whoever holds the Sheriff's Office);
  - the building's name (short names on narrow screens: `Gen. Store`, `Sheriff's` is the
    Sheriff's Office, `Fortune T.`, `Stage Dep.`), or nothing on an open plot;
  - the cowboys there: colour letter and strength, `R3` is red's Trail Boss (yours are shown
    reversed). A cowboy alone on a building **controls** it. Only the Church holds several.
  - `═ rail 1 ═`: a railroad tile (nobody goes there; it destroyed what stood there).
  - **The Sheriff** is the reversed `★` on the corner where his three plots meet.
  - Row E is the red row, where the **Train Station** will stand (its name shown reversed).
- **Last shootout** (once over, when it began since everyone's last turn): who attacked whom,
  the cartridges, the dice of each side, then every die as it was rolled (`G3 rolls a star at
  R2: wounded (1 wound)`; a skull kills, crossed guns or a star wound, a second wound kills, a
  blank misses) and how it ended.
- **Players**: one line each. `▶` whose turn it is, `…` deciding now in someone else's turn,
  `W` (and `WINNER`) a winner once the game is over. The
  letter is the player's colour: **R** red, **G** green, **Y** yellow, **P** purple, **O** orange
  (seats 0 to 4). Then `$` money, `cart` cartridges, `pony` ponies, `wanted` wanted posters
  (each costs $1 at the end), and the cowboys by strength, one digit each (`1` Greenhorn,
  `2` Gunslinger, `3` Trail Boss; `223` is two Gunslingers and a Trail Boss; `–` none): in the
  `ranch` (ready to Hit the Town), in the Abandoned Mine (`mine`: Head Back to bring them home),
  still in the supply (`to hire` at a Saloon) and dead on `Boot Hill` (a tie-break at the end).
- **Crime Pool** (the wanted posters left: the game ends when it is empty), the box and the
  supply of cartridges and ponies; **Sheriff**: his corner and who takes the toll;
  **Railroad**: the rails laid and where the next ones go (the route D6, D5, D4, D3: a rail
  destroys the building there); after the fourth, the next Town Hall annex builds the Train
  Station (which ends the game).
- **Stacks**: the three building stacks, with what is in them (public). Their order is secret;
  after a Fortune Teller look you see the order you know, top first (`?` where you do not).

In the log, `»` marks a shootout starting and ending, a rail and the Train Station; every die
has its line. A shootout you were in, money you lost, a poster given to you, your cowboys moved
or sent away, and the end of the game also pop up in the corner.
"""
"""How to read the table, for players (the help screen shows it before the rules and their
building table, ``help.md``)."""


def legend(options: Options | None = None) -> str:
    """The players' legend (:data:`LEGEND`), with the table's options when they are known."""
    if options is None:
        return LEGEND
    notes = []
    if not options.adjacent_reannex:
        notes.append("**no bonus annex** next to a new rail")
    else:
        notes.append("the **bonus annex** next to a new rail is on")
    if options.town_hall_build == "one":
        notes.append("the Town Hall draws a tile from each stack and **builds only one**")
    if options.die == "alternative":
        notes.append("the **alternative die** (skull, crossed guns, star, 3 blanks)")
    return LEGEND + "\nAt this table: " + "; ".join(notes) + ".\n"


# -- the screen parts -------------------------------------------------------------------------


def _row(plot: str) -> str:
    return f"Row {plot[:1]}"


class DeadwoodTownUI(GameUI):
    """Deadwood's screen parts for the shared app.

    Args:
        options: the table's options (:class:`engine.deadwood_town.game.Options`), or ``None``
            when not known (the legend then leaves them out). See :meth:`for_options`.
    """

    game_id = "deadwood_town"
    css_path = Path(__file__).with_suffix(".tcss")

    def __init__(self, options: Options | None = None) -> None:
        self.options = options
        self.legend = legend(options)

    def for_options(self, options: Any) -> DeadwoodTownUI:
        """The screen parts for a table with ``options`` (``None``, a dict or :class:`Options`)."""
        try:
            return DeadwoodTownUI(parse_options(Options, options))
        except InvalidOptions:
            return DeadwoodTownUI()

    def make_table(self) -> TableWidget:
        """A new :class:`DeadwoodTownTable`."""
        return DeadwoodTownTable(classes="table")

    def describe_action(self, game: Any, action: Any, view: Any, seat: int | None = None) -> str:
        """``game.describe``, with the viewer's own cowboys called "your" (General Store, Grifter)."""
        text = super().describe_action(game, action, view, seat)
        me = _me(view)
        if me is not None and (seat is None or seat == me):
            text = text.replace(f"seat {me}'s", "your")
        return text

    def group(self, action: Any, view: Any) -> tuple[str, ...]:  # noqa: PLR0911 - one group per kind
        """Hit the Town by cowboy then row; Head Back; plots by row; the Sheriff's corners by rows."""
        if isinstance(action, A.HitTheTown):
            return ("Hit the Town", f"Send your {TYPES[action.strength]} ({action.strength})", _row(action.plot))
        if isinstance(action, A.HeadBack):
            return ("Head Back to the Ranch", f"Your {TYPES[action.strength]}s")
        if isinstance(action, A.PickCowboy | A.SendToMine):
            return (_row(action.plot),)
        if isinstance(action, A.MoveTo | A.BuildOn):
            return (_row(action.plot),)
        if isinstance(action, A.ReturnCowboy):
            return (f"Your {TYPES[action.strength]}s",)
        if isinstance(action, A.MoveSheriff):
            _, corners = _geometry()
            plots = _corner(action.intersection).split(", ")
            rows = sorted({p[:1] for p in plots})
            x = corners.get(action.intersection, (0.0, 0.0))[0]
            return (f"Corners of rows {' and '.join(rows)}", "West" if x < 0 else "East")
        return ()

    def seat_name(self, view: Any, seat: int) -> str:
        """``"seat N"``, as the log says it."""
        return f"seat {seat}"

    def result_terms(self, view: Any, outcome: Any) -> tuple[str, list[str], str]:
        """Each player's final money (after the fines for wanted posters)."""
        order = (
            "Final money ($1 fine per wanted poster, $10 to the Stage Depot's owner without a Train "
            "Station); ties: fewer posters, then fewer cowboys on Boot Hill."
        )
        return "money", [f"-${-score:g}" if score < 0 else f"${score:g}" for score in outcome.scores], order

    def board_text(self, view: Any, names: list[str], width: int = 100) -> str | None:
        """The town as plain text (:func:`render_board`), for ``saloon replay show``."""
        return render_board(view, names, width)

    def is_turn_start(self, event: Any) -> bool:
        """Turns start new stages; so does the end of the game."""
        return isinstance(event, E.TurnStarted | E.GameOver)

    def describe_event(self, event: Any, view: Any, previous: Any = None) -> str | None:
        """The event in words, as ``view``'s seat knows it (a die without its shootout names seats)."""
        return _describe_event(event, view)

    def event_describer(self, events: list[Any], view: Any) -> Callable[[Any], str | None]:
        """Like :meth:`GameUI.event_describer`, but each die names the cowboys of its shootout."""
        fights, towns = _context(events)
        return lambda event: _describe_event(event, view, fights.get(id(event)), towns.get(id(event)))

    def notices(self, events: list[Any], start: int, view: Any) -> list[str]:
        """Among ``events[start:]``: how each shootout ``view``'s seat was in ended, money it lost,
        posters given to it, its cowboys moved or sent away by others, and the end of the game (for
        everyone)."""
        me = _me(view)
        fights, towns = _context(events)
        out = []
        for ev in events[start:]:
            if me is not None:
                text = _against(ev, view, me, fights.get(id(ev)), towns.get(id(ev)))
                if text:
                    out.append(text)
            if isinstance(ev, E.GameEnding):
                out.append(f"The game ends: {' and '.join(_ENDINGS.get(r, r) for r in ev.reasons)}")
        return out
