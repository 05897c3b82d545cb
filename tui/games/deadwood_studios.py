"""Deadwood Studios at the table: the backlot as a map of connected rooms, every set's scene and
roles with the dice on them, the players' ranks and money, and every roll and payout.

For developers: everything is drawn only from :class:`engine.deadwood_studios.views.View` and
the viewer's events (nothing in this game is private to one seat; the face-down scenes and the
deck are hidden from everyone and the view does not hold them), and no rule is decided here.
Every state is written in text or symbols, never in colour alone: each player's die is a
letter (its colour's initial) and the rank it shows, ``R3``.

:func:`render_board` is the text board, a plain function of a view: the players, the map of
the backlot (rooms that share a wall are connected) and every set in detail. The table screen
shows its parts (:func:`board_parts`, styled) and ``saloon replay show`` can print it as plain
text; it reads in full at 100 columns and at 80, and drops the map below 61.
:data:`LEGEND` is the players' guide to it, shown by the help screen (``?``); keep the two in
step.

The picker's groups (:meth:`DeadwoodStudiosUI.group`): upgrades (by currency when there are
more than nine), roles, moves; ending the turn, acting and rehearsing stand alone, last.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from engine.deadwood_studios import actions as A
from engine.deadwood_studios import events as E
from engine.deadwood_studios.components import CREDITS, Scene, components
from engine.deadwood_studios.views import PlayerView, RoleView, SetView, View
from tui.games.base import BOX_JUNCTIONS, GameUI, Recent, TableWidget
from tui.widgets.board import Board
from tui.widgets.log import HIGHLIGHT
from tui.widgets.quiet import SteadyStatic, content_key, update_static

__all__ = [
    "DICE",
    "LEGEND",
    "MAP",
    "DeadwoodStudiosTable",
    "DeadwoodStudiosUI",
    "board_parts",
    "die",
    "render_board",
    "render_map",
    "render_table",
]

COMP = components()
ROOM_NAMES = dict(zip(COMP.room_ids, COMP.room_names, strict=True))
"""Each room's name by its id (public component data)."""

DICE = (
    ("R", "red"),
    ("B", "blue"),
    ("G", "green"),
    ("Y", "yellow"),
    ("V", "magenta"),
    ("O", "dark_orange"),
    ("C", "cyan"),
    ("W", "white"),
)
"""Per seat, its die's letter (the colour's initial: Red, Blue, Green, Yellow, Violet, Orange,
Cyan, White) and colour on screen (decoration only: the letter is always written)."""

MAP = (
    ("train_station", 0, 0, 2, 1),
    ("jail", 0, 1, 1, 1),
    ("main_street", 0, 2, 1, 2),
    ("general_store", 1, 1, 1, 1),
    ("saloon", 1, 2, 1, 1),
    ("trailers", 1, 3, 1, 1),
    ("casting_office", 2, 0, 1, 1),
    ("ranch", 2, 1, 1, 1),
    ("bank", 2, 2, 1, 1),
    ("hotel", 2, 3, 2, 1),
    ("secret_hideout", 3, 0, 1, 2),
    ("church", 3, 2, 1, 1),
)
"""The backlot's layout as on the board (``board.json``'s text map): per room, ``(id, row,
column, rows, columns)`` in a 4 x 4 grid. Rooms that share a wall are exactly the connected ones
(the board's doors); the map is drawn in this order, and the sets are listed in it."""

MAP_MIN_CELL = 14
"""The narrowest map cell (in characters): below it (a width under 61) the map is left out."""

LEGEND = """\
Top to bottom:

- **Status line**: the day (`DAY 2/4`), whose turn it is and what they may do: move, take a
  role (or upgrade, at the Casting Office) or end the turn; or, on a role, act or rehearse.
  Then the scenes left on the board (the day ends when one is left) and the deck.
- **Last roll**: the last acting roll (die + practice chips against the budget) and, after a
  wrap, the bonus dice and who got what.
- **Players**: one line each. `▶` whose turn it is. The *die* is the player's colour letter and
  rank: `R3` is the red die showing rank 3 (R red, B blue, G green, Y yellow, V violet,
  O orange, C cyan, W white). Then dollars (`$`), credits (`cr`), points if the game ended now
  (`pts`: dollars + credits + 5 × rank), and where the player stands: the room, the role
  (`★` starring, on the card; `extra`, on the board) and the practice chips (`+2 chips`);
  `WINNER` once the game is over.
- **The map**: the backlot as it lies on the board. Rooms that share a wall are connected:
  you move one room a turn. In each room: its name and shot counters (`●●○`: 2 of 3 left),
  the scene (`$4M Evil Wears a Hat`, its budget first; `face down`: nobody has walked in yet
  today; `wrapped`: done for the day) and the dice standing there. In the replay viewer's
  omniscient view, a face-down scene is shown too.
- **The sets**, one block each, in the map's order: the scene card (title, budget, scene
  number), then its roles with rank, name, the die on it (`·` free) and the line:
  - `card`: the starring roles on the scene card, top role first: they need someone on them
    for a wrap to pay bonuses.
  - `extras`: the roles printed on the board. A role of a rank above yours is out of reach.
  - `R3+2`: the red die works on this role with 2 practice chips (each +1 on the roll).
  - `here`: dice on the set without a role.
  - The **Trailers** (where every day starts) and the **Casting Office** with its prices.

Acting succeeds when die + chips ≥ budget: on the card 2 credits (nothing on a failure); an
extra $1 + 1 credit ($1 on a failure). The wrap bonus: as many dice as the budget, highest to
the top role and down (wrapping round), each starring player gets their dice in dollars, each
extra the rank of the role; only if someone is on the card.

In the log, `»` marks every roll and every wrap; your own pay from a roll or a wrap, and the
end of each day, also pop up in the corner.

**The Casting Office's prices** (the price of a rank, whatever your rank now; pay all in
dollars or all in credits):

| rank | dollars | credits |
|---|---|---|
""" + "".join(f"| {u.rank} | ${u.dollars} | {u.credits} |\n" for u in COMP.upgrades)
"""How to read the table, for players (the help screen shows it under the rules)."""


# -- words ------------------------------------------------------------------------------------


def die(view: View, seat: int) -> str:
    """``seat``'s die as it stands on the board: its colour letter and rank, e.g. ``"R3"``."""
    letter = DICE[seat][0] if 0 <= seat < len(DICE) else str(seat)
    rank = view.players[seat].rank if 0 <= seat < len(view.players) else 0
    return f"{letter}{rank}"


def _die_style(view: View, seat: int) -> str:
    style = DICE[seat][1] if 0 <= seat < len(DICE) else ""
    if seat == view.seat:
        style += " bold reverse"
    elif seat == view.current:
        style += " underline"
    return style.strip()


def _me(view: Any) -> int | None:
    seat = getattr(view, "seat", None)
    return seat if isinstance(seat, int) and seat >= 0 else None


def _who(view: Any, seat: int, capital: bool = False) -> str:
    """``"you"`` for the viewer's own seat, else ``"seat N"``."""
    word = "you" if seat == _me(view) else f"seat {seat}"
    return word[0].upper() + word[1:] if capital else word


def _verb(view: Any, seat: int, you: str, other: str) -> str:
    return you if seat == _me(view) else other


def _room(room_id: str, article: bool = True) -> str:
    """A room's name, ``"the Saloon"`` in a sentence (but ``"Main Street"``)."""
    name = ROOM_NAMES.get(room_id, room_id)
    return f"the {name}" if article and name != "Main Street" else name


def _money(dollars: int, credits: int) -> str:
    parts = ([f"${dollars}"] if dollars else []) + (
        [f"{credits} credit{'s' if credits != 1 else ''}"] if credits else []
    )
    return " and ".join(parts) or "nothing"


def _cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells, ending in ``…`` when cut."""
    if width <= 0:
        return ""
    return text if len(text) <= width else text[: width - 1] + "…"


def _no_scene(view: View, set_view: SetView) -> bool:
    """The set has no scene for the rest of the game or the day: wrapped, or the game is over and
    its card is gone (the day's last scene, which "does not finish" and is not wrapped)."""
    return set_view.wrapped or (view.phase == "over" and set_view.scene is None and not set_view.face_down)


def _shots(set_view: SetView) -> str:
    """The shot counters: ``●`` still on the set, ``○`` removed (``●●○``: 2 of 3 left)."""
    left = 0 if set_view.wrapped else set_view.shots_left
    return "●" * left + "○" * (set_view.shots - left)


def _hidden_scene(view: View, set_view: SetView) -> Scene | None:
    """The face-down card of ``set_view``, known only in the omniscient view (the replay viewer)."""
    if view.hidden_scenes is None or not set_view.face_down:
        return None
    for s, hidden in zip(view.sets, view.hidden_scenes, strict=False):
        if s.id == set_view.id:
            return hidden
    return None


def _sets(view: View) -> dict[str, SetView]:
    return {s.id: s for s in view.sets}


def _here(view: View, room_id: str) -> list[int]:
    return [p.seat for p in view.players if p.room == room_id]


# -- the players ------------------------------------------------------------------------------


def _where(view: View, p: PlayerView) -> str:
    room = ROOM_NAMES.get(p.room, p.room)
    if p.role is None:
        return room
    kind = "★" if p.on_card else "extra "
    chips = f" +{p.chips} chip{'s' if p.chips != 1 else ''}" if p.chips else ""
    return f"{room}: {kind}{p.role}{chips}"


def _players(view: View, names: list[str], width: int) -> Text:
    """One line per player: turn mark, die, seat and name, money, points, where they stand."""
    labels = [f"{p.seat} {names[p.seat] if p.seat < len(names) else ''}" for p in view.players]
    labels = [label + (" (you)" if seat == view.seat else "") for seat, label in enumerate(labels)]
    name_width = max(6, min(18, max(len(label) for label in labels)))
    head = f"  die {'player':<{name_width}}   $  cr  pts  where"
    out = Text(_cut(head, width), style="dim")
    for p in view.players:
        seat = p.seat
        mark = "▶" if seat == view.current else " "
        who = _cut(labels[seat], name_width)
        out.append("\n")
        out.append(f"{mark} ", style="bold")
        out.append(f"{die(view, seat):<3}", style=_die_style(view, seat))
        out.append(f" {who:<{name_width}}", style="bold" if seat == view.seat else "")
        stats = f" {p.dollars:>3} {p.credits:>3} {p.points:>4}  "
        out.append(stats)
        room = len(head) - len("where")
        where = _where(view, p) + (" · WINNER" if seat in view.winners else "")
        out.append(_cut(where, width - max(room, 2 + 3 + 1 + name_width + len(stats))))
    return out


# -- the map ----------------------------------------------------------------------------------


def _cell_lines(view: View, room_id: str, inner: int) -> list[Text]:
    """What a map cell holds: the name and shots, the scene, the dice standing there."""
    sets = _sets(view)
    set_view = sets.get(room_id)
    name = ROOM_NAMES.get(room_id, room_id)
    first = Text(_cut(name, inner), style="bold")
    if set_view is not None:
        shots = _shots(set_view)
        if len(name) + 1 + len(shots) <= inner:
            first.append(" " * (inner - len(name) - len(shots)) + shots)
    lines = [first]
    if set_view is None:
        lines.append(Text(_cut("start of the day" if room_id == "trailers" else "ranks 2-6", inner), style="dim"))
    elif _no_scene(view, set_view):
        lines.append(Text(_cut("no scene" if view.phase == "over" else "wrapped", inner), style="dim"))
    elif set_view.face_down or set_view.scene is None:
        hidden = _hidden_scene(view, set_view)
        known = f": ${hidden.budget}M {hidden.title}" if hidden is not None else ""
        lines.append(Text(_cut("face down" + known, inner), style="dim"))
    else:
        lines.append(Text(_cut(f"${set_view.scene.budget}M {set_view.scene.title}", inner)))
    dice = Text()
    for seat in _here(view, room_id):
        token = die(view, seat)
        if dice.cell_len and dice.cell_len + 1 + len(token) > inner:
            lines.append(dice)
            dice = Text()
        if dice.cell_len:
            dice.append(" ")
        dice.append(token, style=_die_style(view, seat))
    if dice.cell_len:
        lines.append(dice)
    return lines


def render_map(view: View, width: int = 100) -> Text | None:
    """The backlot as a map of rooms (:data:`MAP`), ``width`` cells wide at most, or ``None``
    when ``width`` is too narrow (under 61). Each cell: the room's name and shot counters, its
    scene (budget and title, ``face down`` or ``wrapped``) and the dice standing there.

    The map is drawn again only when what a room shows changed (:data:`_MAPS`): the returned
    text is shared and must not be changed."""
    columns = max(c + cs for _, _, c, _, cs in MAP)
    rows = max(r + rs for _, r, _, rs, _ in MAP)
    cell = min(26, (width - columns - 1) // columns)
    if cell < MAP_MIN_CELL:
        return None
    contents = {room_id: _cell_lines(view, room_id, cs * cell + cs - 1) for room_id, _, _, _, cs in MAP}
    key = (cell, tuple(tuple(content_key(line) for line in lines) for lines in contents.values()))
    known, drawn = _MAPS.get(key)
    if known:
        return drawn  # type: ignore[no-any-return]
    return _MAPS.put(key, _render_map(contents, columns, rows, cell))  # type: ignore[no-any-return]


@functools.lru_cache(maxsize=16)
def _map_walls(columns: int, cell: int, heights: tuple[int, ...]) -> tuple[list[int], list[int], list[str]]:
    """The map's walls for rooms ``cell`` cells wide and rows ``heights`` lines high: the rooms'
    columns and rows (their walls' x and y) and the map's lines (the same while the rooms keep
    their sizes: drawn once)."""
    ys = [0]
    for h in heights:
        ys.append(ys[-1] + h + 1)
    xs = [c * (cell + 1) for c in range(columns + 1)]
    links: dict[tuple[int, int], set[str]] = defaultdict(set)  # (y, x): the walls that meet there
    canvas = [[" "] * (xs[-1] + 1) for _ in range(ys[-1] + 1)]
    for _, r, c, rs, cs in MAP:
        x0, x1, y0, y1 = xs[c], xs[c + cs], ys[r], ys[r + rs]
        for y in (y0, y1):
            for x in range(x0, x1):
                links[y, x].add("r")
                links[y, x + 1].add("l")
        for x in (x0, x1):
            for y in range(y0, y1):
                links[y, x].add("d")
                links[y + 1, x].add("u")
    for (y, x), walls in links.items():
        canvas[y][x] = BOX_JUNCTIONS[frozenset(walls)]
    return xs, ys, ["".join(row) for row in canvas]


_MAPS = Recent(32)
"""The maps drawn last, by what their rooms hold (see :func:`render_map`): shared, never changed."""


def _render_map(contents: dict[str, list[Text]], columns: int, rows: int, cell: int) -> Text:
    heights = [2] * rows
    for room_id, r, _, rs, _ in MAP:
        if rs == 1:
            heights[r] = max(heights[r], len(contents[room_id]))
    for room_id, r, _, rs, _ in MAP:
        if rs > 1:
            room = sum(heights[r : r + rs]) + rs - 1
            heights[r + rs - 1] += max(0, len(contents[room_id]) - room)
    xs, ys, walls = _map_walls(columns, cell, tuple(heights))
    canvas = [list(row) for row in walls]
    styles: list[list[tuple[int, int, str]]] = [[] for _ in canvas]
    for room_id, r, c, _, _ in MAP:
        x0, y0 = xs[c], ys[r]
        for k, line in enumerate(contents[room_id]):
            y = y0 + 1 + k
            plain = line.plain
            canvas[y][x0 + 1 : x0 + 1 + len(plain)] = plain
            for span in line.spans:
                styles[y].append((x0 + 1 + span.start, x0 + 1 + span.end, str(span.style)))
            if line.style:
                styles[y].append((x0 + 1, x0 + 1 + len(plain), str(line.style)))
    out = Text()
    for y, chars in enumerate(canvas):
        line = Text("".join(chars).rstrip())
        for start, end, style in styles[y]:
            line.stylize(style, start, end)
        if y:
            out.append("\n")
        out.append_text(line)
    return out


# -- the sets in detail -----------------------------------------------------------------------


def _role_line(view: View, label: str, role: RoleView, width: int) -> Text:
    """One role: label (``card``/``extras`` on the first), rank, name, the die on it, its line."""
    line = Text(f"  {label:<7}{role.rank} {role.name:<25} ")
    if role.seat >= 0:
        chips = view.players[role.seat].chips if role.seat < len(view.players) else 0
        token = die(view, role.seat) + (f"+{chips}" if chips else "")
        line.append(token, style=_die_style(view, role.seat))
        line.append(" " * max(1, 6 - len(token)))
    else:
        line.append("·     ", style="dim")
    line.append(_cut(f'"{role.line}"', width - line.cell_len), style="italic")
    return line


def _dice_here(view: View, seats: list[int]) -> Text:
    text = Text()
    for seat in seats:
        if text.cell_len:
            text.append(" ")
        text.append(die(view, seat), style=_die_style(view, seat))
    return text


def _set_block(view: View, room_id: str, width: int) -> Text:
    """One room in detail: name, shots and scene; the card's roles top first; the extras; the dice without a role."""
    set_view = _sets(view).get(room_id)
    name = ROOM_NAMES.get(room_id, room_id)
    head = Text(name, style="bold")
    here = _here(view, room_id)
    lines: list[Text] = []
    if set_view is None:
        if room_id == "casting_office":
            head.append("  the price of a rank, in dollars or credits", style="dim")
            prices = "rank " + " · ".join(f"{u.rank}: ${u.dollars}/{u.credits}cr" for u in view.upgrades)
            lines.append(Text("  " + _cut(prices, width - 2)))
        else:
            head.append("  every day starts here", style="dim")
    else:
        left = 0 if set_view.wrapped else set_view.shots_left
        head.append(f"  {_shots(set_view)} {left}/{set_view.shots} shot{'s' if set_view.shots != 1 else ''}")
        scene = set_view.scene
        hidden = _hidden_scene(view, set_view)
        if _no_scene(view, set_view):
            about = (
                "  no scene: the game is over" if view.phase == "over" else "  wrapped today: no roles until tomorrow"
            )
        elif hidden is not None:
            about = f"  face down: {hidden.title} · ${hidden.budget}M budget · scene {hidden.number}"
        elif scene is None:
            about = "  scene face down: the first to walk in turns it up"
        else:
            about = f"  {scene.title} · ${scene.budget}M budget · scene {scene.number}"
        head.append(_cut(about, width - head.cell_len), style="" if scene is not None else "dim")
        if not _no_scene(view, set_view):
            for k, role in enumerate(reversed(set_view.starring)):
                lines.append(_role_line(view, "card" if k == 0 else "", role, width))
            for k, role in enumerate(set_view.extras):
                lines.append(_role_line(view, "extras" if k == 0 else "", role, width))
        on_roles = {r.seat for r in (*set_view.starring, *set_view.extras) if r.seat >= 0}
        here = [s for s in here if s not in on_roles]
    if here:
        lines.append(Text("  here   ") + _dice_here(view, here))
    out = head
    for line in lines:
        out.append("\n")
        out.append_text(line)
    return out


def _header(view: View) -> Text:
    """The day, the scenes left, the deck and the cards gone."""
    text = Text(f"Day {view.day} of {view.days}", style="bold")
    text.append(f" · {view.scenes_left} scene{'s' if view.scenes_left != 1 else ''} left on the board")
    text.append(f" · deck {view.deck_size}", style="dim")
    if view.winners:
        text.append(" · game over", style="bold")
    return text


def board_parts(view: View, names: list[str], width: int = 100) -> list[Text]:
    """The text board in parts, styled: the day line, the players, the map (left out below 61
    columns) and the rooms in detail (one block each, in the map's order, blank lines between).

    Args:
        view: a Deadwood Studios view: any seat's or the spectator's (they show the same board),
            or the omniscient one, which also shows the face-down scene cards (the replay viewer).
        names: per seat, the player's name (may be shorter than the seats).
        width: the room in cells; lines never run past it.
    """
    parts = [_header(view), _players(view, names, width)]
    board = render_map(view, width)
    if board is not None:
        parts.append(board)
    blocks = Text()
    for k, (room_id, *_) in enumerate(MAP):
        if k:
            blocks.append("\n")
        blocks.append_text(_set_block(view, room_id, width))
    parts.append(blocks)
    return parts


def render_board(view: View, names: list[str], width: int = 100) -> str:
    """The board as plain text (no markup, no colour), at most ``width`` characters a line.

    The backlot as connected rooms: every player's die where it stands (a colour letter and the
    rank, ``R3``), the map of rooms with their shot counters and scenes, then every room in
    detail: the scene card (title, budget), its starring roles and the set's extras with rank,
    the die on each and the line, the dice standing without a role, the Trailers and the Casting
    Office's prices. See :func:`board_parts` for the arguments; :data:`LEGEND` for how to read it.
    """
    return "\n\n".join(part.plain for part in board_parts(view, names, width)) + "\n"


# -- the table screen -------------------------------------------------------------------------


def _status(view: View, width: int = 100) -> Text:
    """The status line: the day, whose turn it is and what they may do now; then the scenes left
    and the deck, if they fit in ``width``."""
    if view.phase == "over":
        best = ", ".join(f"{_who(view, s)} ({view.players[s].points} points)" for s in view.winners) or "nobody"
        return Text.assemble((" GAME OVER ", "reverse bold"), " ", (f"winner: {best}", "bold"))
    cur = view.current
    mine = cur == view.seat
    who = "Your" if mine else f"Seat {cur}'s"
    if view.phase == "work":
        what = f"{who} turn: " + ("act or rehearse" if mine else "working on a role")
    else:
        done = [w for w, flag in (("moved", view.moved), ("upgraded", view.upgraded)) if flag]
        office = view.players[cur].room == "casting_office" if 0 <= cur < len(view.players) else False
        what = f"{who} turn: " + (("upgrade, " if office else "") + "move, take a role" if mine else "moving")
        if done:
            what += f" ({' and '.join(done)})"
    line = Text.assemble((f" DAY {view.day}/{view.days} ", "reverse bold"), " ", (what, "bold"))
    for more in (
        f"   {view.scenes_left} scene{'s' if view.scenes_left != 1 else ''} left",
        f" · deck {view.deck_size}",
    ):
        if line.cell_len + len(more) > width:
            break
        line.append(more, style="dim")
    return line


def _last_roll(view: View, events: list[Any]) -> Text:
    """The last acting roll of the day and, if it wrapped the scene, the wrap."""
    for k in range(len(events) - 1, -1, -1):
        ev = events[k]
        if isinstance(ev, E.DayStarted):
            break
        if isinstance(ev, E.Acted):
            text = Text.assemble(("Last roll: ", "bold"), _acted(view, ev))
            wrap = next((e for e in events[k + 1 :] if isinstance(e, E.SceneWrapped | E.TurnStarted)), None)
            if isinstance(wrap, E.SceneWrapped):
                text.append("\n")
                text.append_text(Text.assemble(("Wrap: ", "bold"), _wrapped(view, wrap)))
            return text
    return Text("Last roll: none yet today", style="dim")


def render_table(view: View, events: list[Any], names: list[str], width: int = 100) -> list[Text]:
    """Everything the table shows for ``view`` (with the viewer's ``events``), top to bottom:
    the status line, the last roll (and wrap), then :func:`board_parts`. For tests and the widget."""
    return [_status(view, width), _last_roll(view, events), *board_parts(view, names, width)]


class DeadwoodStudiosTable(TableWidget):
    """The Deadwood Studios table: status, last roll, players, the map and the sets.

    Drawing the same view again at the same size changes nothing, so it is skipped (the screens
    redraw after every move, a bot's included). Under the status line, the parts are the lines
    of one :class:`~tui.widgets.board.Board`: a new view redraws only the lines that changed.
    """

    _drawn: tuple[Any, ...] | None = None

    def compose(self) -> ComposeResult:
        yield SteadyStatic(id="ds-status")
        yield Board(id="ds-board")

    def draw(self, view: Any, events: list[Any], names: list[str]) -> None:
        """Draw ``view``; ``events`` give the last roll, ``names`` the seats' players.

        On a short terminal (under 32 lines) the players come before the last roll and wrap
        (which take up to six lines, and are in the log too), so that everyone's money and
        points show without scrolling.
        """
        width = max((self.size.width or self.app.size.width) - 4, 40)  # padding, and a scrollbar
        players_first = self.app.size.height < 32
        key = (view, len(events), tuple(names), width, players_first)
        if key == self._drawn:
            return
        self._drawn = key
        status, roll, _, players, *rest = render_table(view, events, names, width)  # the status has the day
        update_static(self.query_one("#ds-status", Static), status)
        board = rest[0] if len(rest) == 2 else None
        first = [(players, 0), (roll, 0)] if players_first else [(roll, 0), (players, 1)]
        self.query_one("#ds-board", Board).show([*first, (board, 1), (rest[-1], 1)], width)


# -- the log ----------------------------------------------------------------------------------


def _acted(view: Any, ev: E.Acted) -> str:
    chips = f" + {ev.chips} chip{'s' if ev.chips != 1 else ''} = {ev.total}" if ev.chips else ""
    result = "success" if ev.success else "failure"
    kind = "the starring role" if ev.on_card else "the extra"
    return (
        f"{_who(view, ev.seat, True)} {_verb(view, ev.seat, 'act', 'acts')} {kind} {ev.role} at "
        f"{_room(ev.set)}: {_verb(view, ev.seat, 'roll', 'rolls')} {ev.die}{chips} against ${ev.budget}M, "
        f"{result}: {_money(ev.dollars, ev.credits)}"
    )


def _wrapped(view: Any, ev: E.SceneWrapped) -> str:
    left = f"{ev.left} scene{'s' if ev.left != 1 else ''} left"
    if not ev.paid:
        return f"{ev.scene.title} at {_room(ev.set)}: nobody on the card, no bonus; {left}"
    dice = " ".join(map(str, ev.dice))
    stars = []
    extras = []
    for share in ev.shares:
        holder = _who(view, share.seat) if share.seat >= 0 else "nobody"
        if share.on_card:
            sums = "+".join(map(str, share.dice)) or "no dice"
            paid = f" = ${share.dollars}" if share.seat >= 0 and len(share.dice) > 1 else ""
            stars.append(f"{share.role} ({holder}) {sums}{paid if share.seat >= 0 else ', unpaid'}")
        else:
            extras.append(f"{share.role} ({holder}) ${share.dollars}")
    text = (
        f"{ev.scene.title} at {_room(ev.set)}: {_who(view, ev.roller)} {_verb(view, ev.roller, 'roll', 'rolls')} "
        f"{dice}; " + ", ".join(stars)
    )
    if extras:
        text += "; extras: " + ", ".join(extras)
    return f"{text}; {left}"


def _roles(scene: E.Scene) -> str:
    return ", ".join(f"{r.name} {r.rank}" for r in reversed(scene.roles))


def _describe_event(ev: Any, view: Any) -> str | None:  # noqa: C901, PLR0911 - one line per event kind
    w = lambda seat: _who(view, seat, True)  # noqa: E731
    v = lambda seat, you, other: _verb(view, seat, you, other)  # noqa: E731
    if isinstance(ev, E.DayStarted):
        first = f"{_who(view, ev.first)} {v(ev.first, 'go', 'goes')} first"
        return f"══ Day {ev.day} of {ev.days}: everyone in the Trailers; {first} ══"
    if isinstance(ev, E.ScenesDealt):
        text = f"Ten scenes dealt face down ({ev.deck} left in the deck)"
        if ev.scenes is not None:
            ids = [s.id for s in view.sets] if getattr(view, "sets", None) else list(COMP.room_ids[:10])
            text += ": " + ", ".join(
                f"{_room(i, False)} {s.title} ${s.budget}M" for i, s in zip(ids, ev.scenes, strict=False)
            )
        return text
    if isinstance(ev, E.TurnStarted):
        working = " (on a role)" if ev.working else ""
        return f"── Your turn{working} ──" if ev.seat == _me(view) else f"── Seat {ev.seat}'s turn{working} ──"
    if isinstance(ev, E.Moved):
        return f"{w(ev.seat)} {v(ev.seat, 'move', 'moves')} from {_room(ev.origin)} to {_room(ev.to)}"
    if isinstance(ev, E.SceneRevealed):
        s = ev.scene
        return (
            f"{w(ev.seat)} {v(ev.seat, 'turn', 'turns')} up the scene at {_room(ev.set)}: {s.title}, "
            f"${s.budget}M (scene {s.number}); on the card: {_roles(s)}"
        )
    if isinstance(ev, E.RoleTaken):
        kind = "the starring role" if ev.on_card else "the extra role"
        return f"{w(ev.seat)} {v(ev.seat, 'take', 'takes')} {kind} {ev.role} (rank {ev.rank}) at {_room(ev.set)}"
    if isinstance(ev, E.Rehearsed):
        return (
            f"{w(ev.seat)} {v(ev.seat, 'rehearse', 'rehearses')} {ev.role}: {ev.chips} practice "
            f"chip{'s' if ev.chips != 1 else ''} against ${ev.budget}M"
        )
    if isinstance(ev, E.Acted):
        return HIGHLIGHT + _acted(view, ev)
    if isinstance(ev, E.ShotRemoved):
        if ev.left == 0:
            return f"The last shot at {_room(ev.set)}: it's a wrap!"
        return f"A shot counter comes off {_room(ev.set)}: {ev.left} of {ev.shots} left"
    if isinstance(ev, E.SceneWrapped):
        return HIGHLIGHT + "Wrap: " + _wrapped(view, ev)
    if isinstance(ev, E.Upgraded):
        price = f"{ev.price} credits" if ev.currency == CREDITS else f"${ev.price}"
        return f"{w(ev.seat)} {v(ev.seat, 'upgrade', 'upgrades')} from rank {ev.old} to rank {ev.new} for {price}"
    if isinstance(ev, E.DayEnded):
        scene = f" ({ev.scene.title})" if ev.scene is not None else " (never turned up)"
        after = "the game is over" if ev.last_day else "everyone goes back to the Trailers"
        return f"══ Day {ev.day} ends: the last scene at {_room(ev.set)}{scene} is not finished; {after} ══"
    if isinstance(ev, E.DayCalled):
        left = ", ".join(
            f"{_room(s, False)} ({scene.title if scene is not None else 'never turned up'})"
            for s, scene in zip(ev.sets, ev.scenes, strict=False)
        )
        after = "the game is over" if ev.last_day else "everyone goes back to the Trailers"
        return (
            f"══ Day {ev.day} is called: {ev.idle_turns} turns in a row without acting, rehearsing, taking a role "
            f"or upgrading; not finished: {left}; {after} ══"
        )
    if isinstance(ev, E.GameEnded):
        scores = ", ".join(
            f"{_who(view, s.seat)} {s.points} (${s.dollars} + {s.credits}cr + 5×{s.rank})"
            for s in sorted(ev.scores, key=lambda s: (s.place, s.seat))
        )
        winners = ", ".join(_who(view, s) for s in ev.winners) or "nobody"
        many = len(ev.winners) != 1 or ev.winners[0] == _me(view)
        return f"══ Game over: {winners} {'win' if many else 'wins'}. Points: {scores} ══"
    return repr(ev)


class DeadwoodStudiosUI(GameUI):
    """Deadwood Studios' screen parts for the shared app."""

    game_id = "deadwood_studios"
    css_path = Path(__file__).with_suffix(".tcss")
    legend = LEGEND

    def make_table(self) -> TableWidget:
        """A new :class:`DeadwoodStudiosTable`."""
        return DeadwoodStudiosTable(classes="table")

    def group(self, action: Any, view: Any) -> tuple[str, ...]:
        """Upgrades (by currency), roles, moves; ending the turn, acting and rehearsing each alone.

        Every action has a group, so the picker lists them in the engine's order (upgrades,
        roles, moves, then ending the turn; act, then rehearse) even when it shows them flat.
        """
        if isinstance(action, A.Upgrade):
            currency = "Pay in credits" if action.currency == CREDITS else "Pay in dollars"
            return ("Upgrade at the Casting Office", currency)
        if isinstance(action, A.Move):
            return ("Move",)
        if isinstance(action, A.TakeRole):
            return ("Take a role",)
        return (type(action).__name__,)  # alone in its group: shown as itself, in the engine's order

    def seat_name(self, view: Any, seat: int) -> str:
        """``"seat N"``, as the log says it."""
        return f"seat {seat}"

    def result_terms(self, view: Any, outcome: Any) -> tuple[str, list[str], str]:
        """Each player's points (dollars, credits and 5 a rank)."""
        order = "Points = dollars + credits + 5 per rank; the most points wins, equal points share a place."
        return "points", [f"{score:g}" for score in outcome.scores], order

    def board_text(self, view: Any, names: list[str], width: int = 100) -> str | None:
        """The backlot as plain text (:func:`render_board`), for ``saloon replay show``."""
        return render_board(view, names, width)

    def is_turn_start(self, event: Any) -> bool:
        """Days and turns start new stages; so does the end of the game."""
        return isinstance(event, E.DayStarted | E.TurnStarted | E.GameEnded)

    def describe_event(self, event: Any, view: Any, previous: Any = None) -> str | None:
        """The event in words, as ``view``'s seat knows it."""
        return _describe_event(event, view)

    def notices(self, events: list[Any], start: int, view: Any) -> list[str]:
        """Among ``events[start:]``: what ``view``'s seat was paid for its rolls and from wraps,
        and the end of each day (for everyone)."""
        me = _me(view)
        out = []
        for ev in events[start:]:
            if isinstance(ev, E.Acted) and ev.seat == me:
                result = "success" if ev.success else "failure"
                out.append(f"You rolled {ev.total} against ${ev.budget}M, {result}: {_money(ev.dollars, ev.credits)}")
            elif isinstance(ev, E.SceneWrapped) and me is not None:
                for share in ev.shares:
                    if share.seat == me:
                        out.append(f"Wrap bonus for {share.role} ({ev.scene.title}): ${share.dollars}")
            elif isinstance(ev, E.DayEnded | E.DayCalled):
                after = "the game is over" if ev.last_day else "everyone goes back to the Trailers"
                called = f" (called after {ev.idle_turns} idle turns)" if isinstance(ev, E.DayCalled) else ""
                out.append(f"Day {ev.day} is over{called}: {after}")
        return out
