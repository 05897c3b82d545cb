"""The SSH session's app: the lobby (tables, chat, new table) and the server tables' screens.

One :class:`SSHApp` runs per SSH session (see :mod:`serve.ssh_server`), configured through its
constructor: the front's mirror of the hall's lobby (:class:`lobby.client.LobbyMirror`) and who is
connected. Screens:

* :class:`LobbyScreen`: the tables (game, players, seats, status, spectators), the lobby chat;
  ``n`` opens a table, Enter joins (or returns to your seat; a finished table opens to watch),
  ``w`` watches, ``t`` goes back to your table, ``g`` lists recent games (Enter opens one in the
  replay viewer), ``l`` opens the Ladder screen (:mod:`tui.ladder_screen`), ``?`` is the lobby's help.
* :class:`NewTableScreen`: game, player count, which seats are bots (and which bots), options
  (each with its values), whether you sit. By default every seat but yours is a bot.
* :class:`~tui.table_screen.ServerTableScreen` (in :mod:`tui.table_screen`): a table: the game's
  own table widget (from :mod:`tui.games`), the
  action picker, the log, the seats and the table chat. It is the seat's *controller*: the table
  hands it only its seat's view (a spectator's screen gets the public view). With a turn timer
  it counts down each second, and says what the timer played when it ran out; the creator of a
  waiting table may fill its free seats with bots (``f``).

The screens never touch the engine's state directly: moves go to the hall through
:meth:`lobby.client.TableMirror.play`, and views come from it (the hall's :meth:`Table.view_for`
decides what this screen may see; the mirror keeps only that).
"""

from __future__ import annotations

import asyncio
import re
import sys
import time
import typing
from pathlib import Path
from typing import Any

import msgspec
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Footer, Input, OptionList, RichLog, Select, Static
from textual.widgets.option_list import Option

import engine
import replays
from lobby.client import GameRow, LobbyMirror, TableMirror
from lobby.tables import MAX_CHAT_CHARS, Identity, SeatSpec, TableError, shown
from tui.games import TABLES, ui_for
from tui.ladder_screen import LadderScreen
from tui.table_screen import ServerTableScreen, show_chat
from tui.widgets import LineInput, PageHelpScreen, Throttle, may_draw, update_static
from tui.widgets.quiet import QuietOptionList
from tui.widgets.screen_diff import SendsChanges

__all__ = [
    "LobbyHelpScreen",
    "LobbyScreen",
    "NewTableScreen",
    "RecentGamesScreen",
    "SSHApp",
    "option_hints",
]

_LOBBY_REFRESH_S = 1.0
"""At most one redraw of the lobby's table list per this many seconds (a hundred sessions each
render it anew: ~5-10 ms each)."""

_LOBBY_SPREAD_PER_SESSION_S = 0.02
"""A lobby change reaches every session at once; each lobby redraws at a random moment within
this many seconds per session watching the lobby (at most :data:`_LOBBY_SPREAD_MAX_S`), so that
their redraws (~10 ms each) leave the event loop about half free for keystrokes instead of
holding them up in one block. Measured with 100 sessions and 5 tables of ``ismcts`` bots
(``tests/bench/ssh_load.py --seconds 40``): keystroke p95 88-159 ms with all redraws within
0.5 s, 40 ms within 2 s."""

_LOBBY_SPREAD_MAX_S = 2.0
"""The longest a lobby waits to show a change (chat lines and the table list)."""


def _table_list_columns(room: int = 0) -> tuple[tuple[str, int], ...]:
    """The lobby's table list: ``(heading, width in cells)`` per column, for ``room`` cells (0:
    no limit).

    Fixed widths, wide enough for every value (a table code and its ``*``, the longest game title
    registered, ``playing (move 99999)``), two cells apart. Where that is wider than ``room`` (an
    80-column terminal), the compact list fits 77 cells: one cell apart, no players column (the
    humans, bots and free seats add up to it), the last headings cut to ``human`` and ``watch``
    (see :func:`_table_list_line`). The status comes before the counts either way.
    """
    title = max(len(engine.game(game_id).title) for game_id in engine.games())
    full = (
        ("table", 6),
        ("game", max(4, title)),
        ("status", len("playing (move 99999)")),
        ("players", 7),
        ("humans", 6),
        ("bots", 4),
        ("free", 4),
        ("watching", 8),
    )
    if not room or sum(width for _, width in full) + 2 * (len(full) - 1) <= room:
        return full
    compact = {"players": 0, "humans": 5, "watching": 5}
    return tuple((heading, compact.get(heading, width)) for heading, width in full)


def _table_list_line(cells: typing.Iterable[str], widths: typing.Sequence[int]) -> Text:
    """One line of the lobby's table list (or its headings): the cells in columns of ``widths``
    cells (see :func:`_table_list_columns`), a longer one cut to its column's width; columns of
    width 0 are left out, and then (the compact list) the columns are one cell apart, not two.

    The list is an :class:`OptionList` of such lines, not a ``DataTable``: every session in the
    lobby draws it anew at each lobby change (a game starting or ending), and a ``DataTable``
    renders every cell of every row again for one changed cell (~12 ms with 12 tables, measured
    with ``tests/bench/redraw_cost.py --lobby 12``), where an option list renders a line of text
    per table.
    """
    sep = "  " if all(widths) else " "
    return Text(sep.join(f"{cell[:width]:<{width}}" for cell, width in zip(cells, widths, strict=True) if width))


MAX_FORM_CHARS = 200
"""The longest text the new-table form's bots and options lines take."""

RECENT_GAMES = 20
"""How many finished games the lobby's recent-games list (``g``) offers."""


_Input = LineInput
"""Every input line of these screens: no blinking cursor, no screen layout per keystroke."""


def _docstring_attributes(doc: str | None) -> dict[str, str]:
    """The ``Attributes:`` section of a Google-style docstring: name -> its text, lines joined."""
    found: dict[str, str] = {}
    inside = False
    current: str | None = None
    indent = 0
    for line in (doc or "").splitlines():
        stripped = line.strip()
        if stripped == "Attributes:":
            inside = True
            continue
        if not inside:
            continue
        if not stripped:
            current = None
            continue
        depth = len(line) - len(line.lstrip())
        entry = re.match(r"(\w+):\s*(.*)", stripped)
        if entry and (current is None or depth <= indent):
            current, indent = entry.group(1), depth
            found[current] = entry.group(2)
        elif current is not None and depth > indent:
            found[current] += " " + stripped
        else:
            break
    return found


def option_hints(game: engine.Game) -> list[str]:
    """The game's options as a person types them, with their values: ``["mystery_safes=0..5", ...]``.

    Read from the game's options struct (``game.options_type``): each field's type gives the
    values (``true|false`` for a flag, ``LO..HI`` for a number with bounds, the choices of a
    literal); bounds and player counts the type does not carry come from the struct's docstring
    (its ``Attributes:`` section: ``(0..5)``, ``(6-9 players only)``). The TUI adds no rule of
    its own. A game without options gives ``[]``.
    """
    info = msgspec.inspect.type_info(game.options_type)
    notes = _docstring_attributes(game.options_type.__doc__)
    raw = {f.name: f.type for f in msgspec.structs.fields(game.options_type)}
    hints = []
    for field in getattr(info, "fields", ()):
        kind = field.type
        note = notes.get(field.name, "")
        if isinstance(kind, msgspec.inspect.BoolType):
            values = "true|false"
        elif isinstance(kind, msgspec.inspect.IntType):
            low = kind.ge if kind.ge is not None else (None if kind.gt is None else kind.gt + 1)
            high = kind.le if kind.le is not None else (None if kind.lt is None else kind.lt - 1)
            written = re.search(r"\((-?\d+)\s*\.\.\s*(-?\d+)\)", note)
            if (low is None or high is None) and written:
                low, high = int(written.group(1)), int(written.group(2))
            values = f"{low}..{high}" if low is not None and high is not None else "a whole number"
        elif isinstance(kind, msgspec.inspect.LiteralType):
            written_order = typing.get_args(raw.get(field.name))  # as declared, not sorted
            values = "|".join(str(v) for v in (written_order or sorted(kind.values, key=str)))
        elif isinstance(kind, msgspec.inspect.FloatType):
            values = "a number"
        else:
            values = "a value"
        hint = f"{field.name}={values}"
        players = re.search(r"\((\d+)\s*-\s*(\d+) players", note)
        if players:
            hint += f" ({players.group(1)}-{players.group(2)} players)"
        hints.append(hint)
    return hints


LOBBY_HELP = """\
## Keys in the lobby

| key | does |
|-----|------|
| `n` | open a new table: the game, the number of players, which seats are bots, options |
| `Enter` | join the selected table (a free seat, or your own seat back); a full or finished table opens to watch |
| `w` | watch the selected table (what every spectator may see) |
| `t` | back to your table (a bot plays your seat while you are away) |
| `g` | recent games: pick one (`Enter`) to step through its replay |
| `l` | the ladder: each game's rated standings, its live games to watch, and its queue (`j` joins) |
| `c` | chat in the saloon; `Esc` goes back to the tables |
| `?` | this help; `Esc` or `q` closes it |
| `q` `Ctrl+Q` | leave the saloon |

## At a table

`1`-`9` or the arrows and `Enter` pick a move; `Tab` goes on to the board, the log and the chat
(the arrows and `PgUp` `PgDn` scroll them, `z` zooms one to the whole screen, `Esc` comes back to
the moves); `c` goes straight to the table's chat; `?` shows the game's rules and every key;
`l` (or `Ctrl+L`) goes back to the lobby (a bot plays your seat until you come back with `t` or `Enter`);
`r` (or `Ctrl+R`) opens the replay once the game is over. Whoever opened a table that
still waits for players can press `f` to fill its free seats with bots and start.

## Bots

A program can take a free seat over SSH, speaking JSON lines on stdin and stdout:
`ssh -p PORT NAME@HOST bot --table CODE` (add `--seat K` for one seat). Without `--table` it
waits for the first table with a free seat (`--game GAME`: of that game only).
"""
"""The lobby's help (Markdown)."""


class LobbyHelpScreen(PageHelpScreen):
    """The lobby's keys, the keys at a table and how bots join (``?`` in the lobby)."""

    def __init__(self) -> None:
        super().__init__("The saloon", LOBBY_HELP)


class RecentGamesScreen(ModalScreen[GameRow | None]):
    """The server's recent finished games; Enter picks one (its replay opens), Esc closes.

    Dismisses with the chosen :class:`lobby.client.GameRow`, or ``None``.

    Args:
        games: the games to offer, newest first.
    """

    BINDINGS = [Binding("escape,q,g", "close", "close")]

    def __init__(self, games: list[GameRow]) -> None:
        super().__init__(id="recent-games")
        self.games = games

    def compose(self) -> ComposeResult:
        with Vertical(id="recent-box"):
            yield Static(
                Text.assemble(
                    ("Recent games  (Enter opens the replay, Esc closes)", "bold"),
                    ("\n#number and table code: ssh ... replay NUMBER (or CODE) > FILE fetches one", "dim"),
                ),
                id="recent-title",
            )
            if self.games:
                yield OptionList(*(Option(self._line(g)) for g in self.games), id="recent-list")
            else:
                yield Static(Text("No finished games yet.", style="dim"), id="recent-none")

    @staticmethod
    def _line(record: GameRow) -> Text:
        """The game's line; its names and codes come from a replay, through :func:`replays.printable`."""
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(record.finished))
        try:
            title = engine.game(record.game).title
        except engine.UnknownGame:
            title = replays.printable(record.game)
        players = [replays.printable(name) for name in record.players]
        winners = ", ".join(players[s] for s in record.winners if 0 <= s < len(players))
        return Text.assemble(
            (f"{when}  ", "dim"),
            (f"#{record.id} ", "bold"),
            (f"{replays.printable(record.code)}  ", "bold"),
            f"{title}: {', '.join(players)}",
            (f"  won by {winners or 'nobody'}", "dim"),
        )

    def on_mount(self) -> None:
        """The list takes the keys."""
        if self.games:
            self.query_one("#recent-list", OptionList).focus()

    @on(OptionList.OptionSelected, "#recent-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.games[event.option_index])

    def action_close(self) -> None:
        """Back to the lobby without a game."""
        self.dismiss(None)


def _load_replay(data: bytes) -> replays.Replay:
    """A recorded game's replay, re-simulated and checked (in a worker thread)."""
    replay = replays.decode(data)
    replays.verify(replay)
    return replay


class LobbyScreen(Screen[None]):
    """The table list, the lobby chat and recent games.

    Above the top bar, a line of its own tells of the games going on at the person's seats that
    they have not gone back to in this session (a bot plays those seats: ``t`` returns); it goes
    once those games are over, or once the person went to the table and came back.
    """

    BINDINGS = [
        Binding("n", "new_table", "new table"),
        Binding("enter", "open", "join / open", show=True),
        Binding("w", "watch", "watch"),
        Binding("t", "your_table", "your table"),
        Binding("c", "chat", "chat"),
        Binding("g", "games", "recent games"),
        Binding("l", "ladder", "ladder"),
        Binding("question_mark", "help", "help"),
        Binding("q,ctrl+q", "app.quit", "quit"),
    ]

    HINTS = "n: new table  Enter: join  w: watch  t: your table  g: recent games  l: ladder  ?: help"
    """The key hints at the top of the lobby (always shown)."""

    def __init__(self, lobby: LobbyMirror, identity: Identity) -> None:
        super().__init__(id="lobby")
        self.lobby = lobby
        self.identity = identity
        self._chat_shown = 0
        self._refresh = Throttle(self, self._redraw_if_shown, lambda: _LOBBY_REFRESH_S, spread=self._spread)
        self._codes: list[str] = []
        self._rows: list[tuple[str, ...]] = []  # the cells shown, a tuple per table (in _codes order)
        self._row_of: dict[str, tuple[Any, tuple[str, ...]]] = {}  # code: (what the row was made of, the row)
        self._columns = _table_list_columns()
        self._widths = [width for _, width in self._columns]
        self.form_memory: dict[str, Any] = {}
        """The new-table form's fields as last opened (:class:`NewTableScreen` starts with them)."""
        self._returned_to: set[TableMirror] = set()
        """The tables at which this session took the person's seat (the notice leaves them out)."""

    def _spread(self) -> float:
        """How long a redraw may wait, at random (see :data:`_LOBBY_SPREAD_PER_SESSION_S`)."""
        return min(_LOBBY_SPREAD_MAX_S, _LOBBY_SPREAD_PER_SESSION_S * self.lobby.watchers)

    def compose(self) -> ComposeResult:
        yield Static(id="lobby-notice")
        yield Static(id="lobby-head")
        yield Static(_table_list_line([heading for heading, _ in self._columns], self._widths), id="tables-head")
        yield QuietOptionList(id="tables")  # a move or a key repaints one or two lines, not the list
        yield RichLog(id="lobby-chat", wrap=True, markup=False, max_lines=500)
        yield _Input(
            placeholder="say something to the saloon (Enter sends, Esc back to the tables)",
            id="lobby-say",
            max_length=MAX_CHAT_CHARS,
        )
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """The first drawing, and change notifications from the lobby (and from the app: which
        tables this session goes to)."""
        table = self.query_one("#tables", OptionList)
        self.app.screen_change_signal.subscribe(self, self._screen_shown, immediate=True)
        self.lobby.watch(self)
        self.redraw()
        table.focus()

    def on_resize(self) -> None:
        """The table list's columns for the new width (compact on an 80-column terminal)."""
        columns = _table_list_columns(self.size.width - 3)  # the list's padding and scrollbar
        if columns == self._columns or not self.is_mounted:
            return
        self._columns = columns
        self._widths = [width for _, width in columns]
        head = _table_list_line([heading for heading, _ in columns], self._widths)
        update_static(self.query_one("#tables-head", Static), head)
        listed = self.query_one("#tables", OptionList)
        for index, row in enumerate(self._rows):
            listed.replace_option_prompt_at_index(index, _table_list_line(row, self._widths))

    def _screen_shown(self, screen: Screen[Any]) -> None:
        """A screen came up in this session: one that takes the person's seat at a table (from the
        lobby, the form or the ladder screen) means they went back to that game."""
        if isinstance(screen, ServerTableScreen) and screen.want_seat:
            self._returned_to.add(screen.table)

    def on_unmount(self) -> None:
        """No more notifications."""
        self.lobby.unwatch(self)
        self.lobby.client.forget(self)

    def changed(self, what: Any) -> None:
        """The lobby changed (called by the lobby, outside the app): redraw soon, if shown (a
        lobby under a table screen or a form redraws when it is shown again)."""
        if self.is_current:
            self._refresh()

    def on_screen_resume(self) -> None:
        """Back from a table: draw anew (not while the session closes: its widgets go)."""
        if may_draw(self):
            self.redraw()

    def _redraw_if_shown(self) -> None:
        """The throttled redraw: skipped if a table screen or a form covered the lobby since the
        change (it redraws when it is shown again, :meth:`on_screen_resume`)."""
        if self.is_current:
            self.redraw()

    def redraw(self) -> None:
        """Show the tables and the new chat lines."""
        seats = self.lobby.seats_of(self.identity)
        mine = {t.code for t, _ in seats}
        self._show_notice([t for t, _ in seats])
        head = Text()
        head.append_text(Text.assemble(("Saloon", "bold"), f"  ·  {self.identity.label}  ·  "))
        if mine:
            head.append(f"your seats: {', '.join(sorted(mine))}", style="bold")
            head.append("  ·  ")
        head.append(self.HINTS, style="dim")
        update_static(self.query_one("#lobby-head", Static), head)
        self._show_tables(mine)
        self._chat_shown = show_chat(self.query_one("#lobby-chat", RichLog), list(self.lobby.chat), self._chat_shown)

    def _show_notice(self, held: list[TableMirror]) -> None:
        """The line above the top bar: the games going on at the person's seats (``held``: the
        live tables where they hold one) that this session did not go back to; hidden if none."""
        self._returned_to.intersection_update(held)  # only tables where the person still sits
        playing = sorted(t.code for t in held if t.status == "playing" and t not in self._returned_to)
        box = self.query_one("#lobby-notice", Static)
        if playing:
            games = "a game" if len(playing) == 1 else "games"
            update_static(box, Text(f"You have {games} on at {', '.join(playing)}: t to return"))
        if box.display != bool(playing):
            box.display = bool(playing)

    def _show_tables(self, mine: set[str]) -> None:
        """The table list: only the lines that changed are drawn anew."""
        codes: list[str] = []
        rows: list[tuple[str, ...]] = []
        known = self._row_of
        self._row_of = {}
        for table in self.lobby.listing():
            # a table's row is made anew only if the table changed since (a move, a seat, a watcher)
            key = (table, table.version, table.num_moves, table.status, len(table.spectators), table.code in mine)
            found = known.get(table.code)
            if found is not None and found[0] == key:
                row = found[1]
            else:
                counts = table.counts()
                status = table.status
                if status == "playing" and table.started is not None:
                    status = f"playing (move {table.num_moves})"
                row = (
                    table.code + ("*" if table.code in mine else ""),
                    table.title,
                    status,
                    str(table.num_players),
                    str(counts["human"]),
                    str(counts["bot"]),
                    str(counts["free"]),
                    str(len(table.spectators)),
                )
            self._row_of[table.code] = (key, row)
            codes.append(table.code)
            rows.append(row)
        if rows == self._rows and codes == self._codes:
            return
        listed = self.query_one("#tables", OptionList)
        selected = self._highlighted_code()
        at_top = listed.highlighted in (None, 0)
        # the list's lines are kept and only those that changed are replaced, whether tables came
        # or went or not (a list cleared and filled anew lays the screen out, and draws every line)
        for index, (row, old) in enumerate(zip(rows, self._rows, strict=False)):
            if row != old:
                listed.replace_option_prompt_at_index(index, _table_list_line(row, self._widths))
        if len(rows) > len(self._rows):
            listed.add_options(Option(_table_list_line(row, self._widths)) for row in rows[len(self._rows) :])
        for index in range(len(self._rows) - 1, len(rows) - 1, -1):
            listed.remove_option_at_index(index)
        if codes != self._codes:
            if rows:
                # a cursor on the top row stays on the top row (a new table comes first); one the
                # person moved down stays on its table while that table is still on
                keep = selected in codes and not at_top and rows[codes.index(selected)][2] not in ("over", "closed")
                listed.highlighted = codes.index(selected) if keep else 0
        self._codes, self._rows = codes, rows

    def _highlighted_code(self) -> str | None:
        """The code of the table highlighted in the list as last drawn, if any."""
        highlighted = self.query_one("#tables", OptionList).highlighted
        if highlighted is None or not 0 <= highlighted < len(self._codes):
            return None
        return self._codes[highlighted]

    def _selected(self) -> TableMirror | None:
        code = self._highlighted_code()
        if code is None:
            return None
        try:
            return self.lobby.table(code)
        except TableError:
            return None

    @on(OptionList.OptionSelected, "#tables")
    def _row_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        """Join the selected table (your own seat, or a free one), else watch it.

        A finished (or closed) table always opens to watch: its game, result and replay.
        """
        table = self._selected()
        if table is None:
            return
        if table.status not in ("waiting", "playing"):
            self.app.push_screen(ServerTableScreen(table, sit=False))
            return
        owns = table.seat_of(self.identity) is not None and not self.identity.guest
        if owns or (table.status == "waiting" and table.counts()["free"] > 0):
            self.app.push_screen(ServerTableScreen(table, sit=True))
        else:
            self.app.push_screen(ServerTableScreen(table, sit=False))

    def action_watch(self) -> None:
        """Watch the selected table (the public view)."""
        table = self._selected()
        if table is not None:
            self.app.push_screen(ServerTableScreen(table, sit=False))

    def action_your_table(self) -> None:
        """Back to a table where you have a seat (a game being played first, the oldest first)."""
        seats = self.lobby.seats_of(self.identity)
        if not seats:
            self.notify("You have no seat at a table now: Enter joins the selected table, n opens one.", timeout=5)
            return
        table = min((t for t, _ in seats), key=lambda t: (t.status != "playing", t.created))
        self.app.push_screen(ServerTableScreen(table, sit=True))

    def action_help(self) -> None:
        """The lobby's help."""
        self.app.push_screen(LobbyHelpScreen())

    def action_ladder(self) -> None:
        """The Ladder screen: standings, live ladder games and the queue (:mod:`tui.ladder_screen`)."""
        self.app.push_screen(LadderScreen(self.lobby, self.identity))

    def action_new_table(self) -> None:
        """Open a new table (and sit at it, if you chose a seat)."""

        def made(result: tuple[TableMirror, bool] | None) -> None:
            if result is not None:
                table, sit = result
                self.app.push_screen(ServerTableScreen(table, sit=sit))

        self.app.push_screen(NewTableScreen(self.lobby, self.identity, self.form_memory), made)

    def action_chat(self) -> None:
        """Type in the lobby chat."""
        self.query_one("#lobby-say", Input).focus()

    async def action_games(self) -> None:
        """The recent finished games; the one picked opens in the replay viewer, in this session."""

        def chosen(record: GameRow | None) -> None:
            if record is not None:
                self.run_worker(self._open_replay(record), group="replay", exclusive=True)

        try:
            games = await self.lobby.recent_games(RECENT_GAMES)
        except ConnectionError:
            return
        if self.is_attached:
            self.app.push_screen(RecentGamesScreen(games), chosen)

    async def _open_replay(self, record: GameRow) -> None:
        from tui.replay_screen import ReplayScreen

        try:
            data = await self.lobby.replay_bytes(record.id)
            if data is None:
                raise OSError(f"game {record.id} has no replay on this server")
            replay = await asyncio.to_thread(_load_replay, data)
            screen = ReplayScreen(replay, ui_for(replay.header.game))
        except (replays.ReplayError, engine.UnknownGame, KeyError, OSError) as exc:
            self.notify(f"The replay of table {record.code} cannot be opened: {exc}", severity="error", timeout=8)
            return
        if self.is_attached:
            self.app.push_screen(screen)

    @on(Input.Submitted, "#lobby-say")
    def _say(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.lobby.say(self, event.value)
        event.input.value = ""

    def key_escape(self) -> None:
        """Esc leaves the chat line."""
        self.query_one("#tables", OptionList).focus()


FREE_SEAT = "free"
"""The word that stands for a seat left free for people (or remote bots) in the new-table form's
bots line: ``random,free`` is a random bot and a free seat."""


class SeatCheckbox(Checkbox):
    """The new-table form's "I take a seat": Space ticks or clears it, Enter opens the table (as in
    every other field of the form), and a cleared box is empty (``▐ ▌``), not a dimmer ``X``."""

    BINDINGS = [
        Binding("space", "toggle_button", "tick / clear", show=False),
        Binding("enter", "submit", "open the table", show=False),
    ]

    class Submitted(Message):
        """Enter was pressed on the checkbox: open the table."""

    @property
    def _button(self) -> Content:
        """The box, with an ``X`` only when ticked."""
        self.BUTTON_INNER = "X" if self.value else " "
        return super()._button

    def action_submit(self) -> None:
        """Enter: ask the form to open the table."""
        self.post_message(self.Submitted())


class GameSelect(Select[str]):
    """The new-table form's game: Enter opens the table (as in every other field of the form);
    the arrows and Space open the list of games, where the arrows move and Enter picks one (the
    list's own keys: Enter there picks the game and closes the list, it does not open the table)."""

    BINDINGS = [Binding("enter", "submit", "open the table", show=False)]

    class Submitted(Message):
        """Enter was pressed on the game (its list closed): open the table."""

    def action_submit(self) -> None:
        """Enter: ask the form to open the table."""
        self.post_message(self.Submitted())


class NewTableScreen(ModalScreen[tuple[TableMirror, bool] | None]):
    """Open a table: game, players, bots, options, whether you sit.

    By default you sit and every other seat is a bot (the lobby's :attr:`Lobby.default_bot`): the
    bots line follows the number of players and the checkbox until it is edited. One bot name
    fills every seat but yours, as ``saloon play --bots NAME`` does; several names (commas between)
    take a seat each, and ``free`` (:data:`FREE_SEAT`), or seats no name covers, are free for
    people and remote bots. The bots on offer and each option's values are listed under their
    lines; a line below the checkbox says what the seats will be. The form opens on the game (its
    first field). Enter opens the table from any field, the game and the checkbox included (the
    arrows or Space open the list of games, Space ticks the checkbox). The form starts with what
    was last opened from it in this session (``memory``).

    Dismisses with ``(table, you_sit)``, or ``None`` if cancelled.

    Args:
        lobby: the lobby.
        identity: the creator.
        memory: the last table's fields (game, players, bots, options, sit), kept by the lobby
            screen between forms; the form fills it when a table opens.
    """

    BINDINGS = [Binding("escape", "cancel", "cancel")]

    DEFAULT_PLAYERS = 4
    """The number of players the form starts with."""

    def __init__(self, lobby: LobbyMirror, identity: Identity, memory: dict[str, Any] | None = None) -> None:
        super().__init__(id="new-table")
        self.lobby = lobby
        self.identity = identity
        self.memory: dict[str, Any] = {} if memory is None else memory
        self._done = False  # opened or cancelled: later Enters and clicks do nothing
        self._busy = False  # the hall is opening the table
        players, me = self._remembered("players", self.DEFAULT_PLAYERS), self._remembered("me", True)
        self._auto_bots = self._bots_for(players, me)

    def _remembered(self, field: str, default: Any) -> Any:
        """The last table's value of ``field``, or ``default``."""
        return self.memory.get(field, default)

    def _bots_for(self, players: int, me: bool) -> str:
        """The bots line that makes every seat but the creator's (if ``me``) a bot."""
        bot = self.lobby.default_bot
        return "" if bot is None else ",".join([bot] * max(0, players - (1 if me else 0)))

    def compose(self) -> ComposeResult:
        games = engine.games()
        first = self._remembered("game", next(iter(games)))
        if first not in games:
            first = next(iter(games))
        with Vertical(id="new-table-box"):
            yield Static(Text("New table  (Enter opens it, Esc cancels)", style="bold"), id="nt-title")
            with Horizontal(classes="nt-row"):
                yield Static("game", classes="nt-label")
                yield GameSelect(
                    [(g.title, gid) for gid, g in games.items()],
                    value=first,
                    id="nt-game",
                    allow_blank=False,
                    compact=True,
                )
            with Horizontal(classes="nt-row"):
                yield Static("players", classes="nt-label")
                yield _Input(
                    value=str(self._remembered("players", self.DEFAULT_PLAYERS)),
                    id="nt-players",
                    type="integer",
                    compact=True,
                    max_length=2,
                )
            with Horizontal(classes="nt-row nt-tight"):
                yield Static("bots", classes="nt-label")
                yield _Input(
                    value=self._remembered("bots", self._auto_bots),
                    placeholder="none: the other seats are free for people",
                    id="nt-bots",
                    compact=True,
                    max_length=MAX_FORM_CHARS,
                )
            with Horizontal(classes="nt-row nt-hint"):
                yield Static("", classes="nt-label")
                yield Static(
                    Text(
                        f"bots on offer: {', '.join(self.lobby.config.bots)}  (one name fills every other seat; "
                        f"or a name per seat, commas between, {FREE_SEAT} for a seat left free)",
                        style="dim",
                    ),
                    id="nt-offer",
                )
            with Horizontal(classes="nt-row nt-tight"):
                yield Static("options", classes="nt-label")
                yield _Input(
                    value=self._remembered("options", ""),
                    placeholder="KEY=VALUE KEY=VALUE ... (none: the standard rules)",
                    id="nt-options",
                    compact=True,
                    max_length=MAX_FORM_CHARS,
                )
            with Horizontal(classes="nt-row nt-hint"):
                yield Static("", classes="nt-label")
                yield Static(self._options_text(games[first]), id="nt-opts")
            with Horizontal(classes="nt-row nt-tight"):
                yield Static("", classes="nt-label")
                yield SeatCheckbox("I take a seat", self._remembered("me", True), id="nt-me")
            with Horizontal(classes="nt-row nt-hint"):
                yield Static("", classes="nt-label")
                yield Static(id="nt-seats")
            yield Static(id="nt-error")
            with Horizontal(id="nt-buttons"):
                yield Button("Open the table", id="nt-create", variant="primary", compact=True)
                yield Button("Cancel", id="nt-cancel", compact=True)

    @staticmethod
    def _options_text(game: engine.Game) -> Text:
        hints = option_hints(game)
        if not hints:
            return Text(f"{game.title} has no options", style="dim")
        return Text("options: " + "  ".join(hints), style="dim")

    def on_mount(self) -> None:
        """Start in the game, the first field."""
        self.query_one("#nt-game", Select).focus()
        self._show_seats()

    def _game(self) -> engine.Game:
        return engine.game(str(self.query_one("#nt-game", Select).value))

    def _plan(self) -> tuple[int, list[str], bool, int]:
        """What the form says: ``(players, bot names, you sit, free seats)``.

        Raises:
            TableError: the players line is not a number, or the bots (and you) do not fit.
        """
        try:
            players = int(self.query_one("#nt-players", Input).value)
        except ValueError:
            raise TableError("the number of players must be a number") from None
        names = [b.strip() for b in self.query_one("#nt-bots", Input).value.split(",") if b.strip()]
        me = self.query_one("#nt-me", Checkbox).value
        others = players - (1 if me else 0)
        if len(names) == 1 and names[0] != FREE_SEAT:  # one name fills every other seat, as on the command line
            names = names * max(0, others)
        bot_names = [name for name in names if name != FREE_SEAT]
        open_seats = others - len(bot_names)
        if open_seats < 0 or len(names) > others:
            seats = f"{len(names)} seats" if FREE_SEAT in names else f"{len(bot_names)} bots"
            raise TableError(f"{seats}{' and you' if me else ''} do not fit {players} seats")
        return players, bot_names, me, open_seats

    def _show_seats(self) -> None:
        """Say what the seats will be (or what is wrong)."""
        box = self.query_one("#nt-seats", Static)
        try:
            _players, bot_names, me, free = self._plan()
        except TableError as exc:
            box.update(Text(str(exc), style="yellow"))
            return
        parts = (["you"] if me else []) + ([f"{len(bot_names)} bot{'s' * (len(bot_names) != 1)}"] if bot_names else [])
        if free:
            parts.append(f"{free} free seat{'s' * (free != 1)}")
        who = " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts) or "nobody"
        when = (
            "the game starts at once" if not free else "the game starts when people or remote bots take the free seats"
        )
        box.update(Text(f"seats: {who}; {when}", style="dim"))

    def _follow(self) -> None:
        """The players, the game or the checkbox changed: an unedited bots line follows them."""
        bots = self.query_one("#nt-bots", Input)
        try:
            players = int(self.query_one("#nt-players", Input).value)
        except ValueError:
            players = 0
        game = self._game()
        if bots.value == self._auto_bots and game.min_players <= players <= game.max_players:
            self._auto_bots = self._bots_for(players, self.query_one("#nt-me", Checkbox).value)
            bots.value = self._auto_bots
        self._show_seats()

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        if event.input.id == "nt-players":
            self._follow()
        else:
            self._show_seats()

    @on(Checkbox.Changed, "#nt-me")
    def _me_changed(self, event: Checkbox.Changed) -> None:
        event.stop()
        self._follow()

    @on(SeatCheckbox.Submitted)
    @on(GameSelect.Submitted)
    async def _field_enter(self, event: SeatCheckbox.Submitted | GameSelect.Submitted) -> None:
        event.stop()
        await self._create()

    @on(Select.Changed, "#nt-game")
    def _game_changed(self, event: Select.Changed) -> None:
        event.stop()
        self.query_one("#nt-opts", Static).update(self._options_text(self._game()))
        self._follow()

    def action_cancel(self) -> None:
        """Close without a table."""
        self._close(None)

    def _close(self, result: tuple[TableMirror, bool] | None) -> None:
        if not self._done:
            self._done = True
            self.lobby.client.forget(self)
            self.dismiss(result)

    @on(Input.Submitted)
    async def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        await self._create()

    @on(Button.Pressed)
    async def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "nt-create":
            await self._create()
        else:
            self._close(None)

    async def _create(self) -> None:
        if self._done or self._busy:  # a second Enter (or click) before the form closed: the table is coming
            return
        error = self.query_one("#nt-error", Static)
        try:
            game_id = str(self.query_one("#nt-game", Select).value)
            players, bot_names, me, open_seats = self._plan()
            options: dict[str, str] = {}
            for word in self.query_one("#nt-options", Input).value.split():
                key, eq, value = word.partition("=")
                if not eq or not key:
                    raise TableError(f"option {shown(word)}: expected KEY=VALUE")
                options[key] = value
            seats = [SeatSpec("me")] if me else []
            seats += [SeatSpec("open")] * open_seats + [SeatSpec("bot", name) for name in bot_names]
            self._busy = True
            try:
                table = await self.lobby.create_table(self, game_id, players, seats, options or None)
            finally:
                self._busy = False
        except TableError as exc:
            error.update(Text(str(exc), style="bold red"))
            return
        except ConnectionError:
            error.update(Text("the saloon is restarting: try again in a moment", style="bold red"))
            return
        self.memory.update(
            game=game_id,
            players=players,
            bots=self.query_one("#nt-bots", Input).value,
            options=self.query_one("#nt-options", Input).value,
            me=me,
        )
        self._close((table, me))


class SSHApp(SendsChanges, App[None]):
    """The app of one SSH session: the lobby and the server's tables.

    Args:
        lobby: the server's lobby.
        identity: who is connected.
        guest_mode: whether the server admits guests (shown in the lobby).
    """

    TITLE = "Saloon"
    CSS_PATH = [
        Path(__file__).with_name("saloon.tcss"),
        *(ui.css_path for ui in TABLES.values() if ui.css_path),
        Path(__file__).with_name("lobby.tcss"),
    ]
    ENABLE_COMMAND_PALETTE = False
    """Textual's command palette would let a remote user save screenshots into the server's
    working directory (and change its theme); the lobby's own keys do all a player needs."""

    def __init__(self, lobby: LobbyMirror, identity: Identity, guest_mode: bool = False) -> None:
        super().__init__()
        # Textual swaps sys.stdout and sys.stderr for the running app's own print capture, which
        # refers to the app. A server runs many apps in one process: the swaps interleave (an app
        # that stops restores the capture of another, maybe closed, app), and whatever copies
        # sys.stderr while a session runs keeps that session's app (every threading.Thread keeps
        # it, so a worker thread of asyncio.to_thread started then kept a closed session's app
        # for the life of the process). A session's "prints" go to the process's own streams.
        self._capture_stdout = sys.__stdout__  # type: ignore[assignment]
        self._capture_stderr = sys.__stderr__  # type: ignore[assignment]
        self.lobby = lobby
        self.identity = identity
        self.guest_mode = guest_mode
        self.table_screens: set[ServerTableScreen] = set()

    def on_mount(self) -> None:
        """The lobby. With a seat in a game going on, the lobby says so on a line above its top
        bar ("You have a game on at CODE: t to return"): keys typed for the lobby never make moves
        at a table the person did not look at yet."""
        self.push_screen(LobbyScreen(self.lobby, self.identity))

    def leave_all(self) -> None:
        """The session ended: let go of every table (seats are kept for the grace time)."""
        for screen in list(self.table_screens):
            screen.leave(for_good=False)
        for lobby_screen in self.query_screens():
            self.lobby.unwatch(lobby_screen)
        for screen in self.screen_stack:  # the hall lets go of every screen of this session
            self.lobby.client.forget(screen)
            player = getattr(screen, "player", None)
            if player is not None:
                self.lobby.client.forget(player)

    def query_screens(self) -> list[LobbyScreen]:
        """The lobby screens of this app (one at most)."""
        return [s for s in self.screen_stack if isinstance(s, LobbyScreen)]
