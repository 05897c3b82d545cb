"""The SSH session's app: the lobby (tables, chat, new table) and the server tables' screens.

One :class:`SSHApp` runs per SSH session (see :mod:`tui.server`), configured through its
constructor: the server's :class:`lobby.tables.Lobby` and who is connected. Screens:

* :class:`LobbyScreen`: the tables (game, players, seats, status, spectators), the lobby chat;
  ``n`` opens a table, Enter joins (or returns to your seat; a finished table opens to watch),
  ``w`` watches, ``t`` goes back to your table, ``g`` lists recent games (Enter opens one in the
  replay viewer), ``?`` is the lobby's help.
* :class:`NewTableScreen`: game, player count, which seats are bots (and which bots), options
  (each with its values), whether you sit. By default every seat but yours is a bot.
* :class:`ServerTableScreen`: a table: the game's own table widget (from :mod:`tui.games`), the
  action picker, the log, the seats and the table chat. It is the seat's *controller*: the table
  hands it only its seat's view (a spectator's screen gets the public view). With a turn timer
  it counts down each second, and says what the timer played when it ran out; the creator of a
  waiting table may fill its free seats with bots (``f``).

The screens never touch the engine's state directly: moves go through :meth:`Table.play`, and
views through :meth:`Table.view_for`, which decides what this screen may see.
"""

from __future__ import annotations

import asyncio
import math
import re
import time
import typing
from pathlib import Path
from typing import Any

import msgspec
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Button, Checkbox, DataTable, Footer, Input, Markdown, OptionList, RichLog, Select, Static
from textual.widgets.option_list import Option

import engine
import replays
from lobby.store import GameRecord
from lobby.tables import MAX_CHAT_CHARS, Identity, Lobby, SeatSpec, Table, TableError, shown
from tui.games import TABLES, ui_for
from tui.widgets import ActionPicker, Choice, GameLog, HelpScreen

__all__ = [
    "LobbyHelpScreen",
    "LobbyScreen",
    "NewTableScreen",
    "RecentGamesScreen",
    "SSHApp",
    "ServerTableScreen",
    "option_hints",
]

_REFRESH_S = 0.2
"""At most one redraw of a screen per this many seconds for changes made elsewhere."""

MAX_FORM_CHARS = 200
"""The longest text the new-table form's bots and options lines take."""

RECENT_GAMES = 20
"""How many finished games the lobby's recent-games list (``g``) offers."""


class _Throttle:
    """Coalesces change notifications into at most one redraw per :data:`_REFRESH_S`."""

    def __init__(self, screen: Screen[Any], redraw: Any) -> None:
        self._screen = screen
        self._redraw = redraw
        self._scheduled = False
        self._last = 0.0

    def __call__(self) -> None:
        if self._scheduled:
            return
        self._scheduled = True
        wait = max(0.0, self._last + _REFRESH_S - time.monotonic())
        app = self._screen.app
        if wait == 0:
            app.call_later(self._fire)
        else:
            app.call_later(lambda: self._screen.set_timer(wait, self._fire))

    def _fire(self) -> None:
        self._scheduled = False
        self._last = time.monotonic()
        if self._screen.is_attached:
            self._redraw()


class _Input(Input):
    """An input line whose cursor does not blink: over SSH every blink is a screen update sent."""

    def on_mount(self) -> None:
        self.cursor_blink = False


def _chat_line(line: Any) -> Text:
    stamp = time.strftime("%H:%M", time.localtime(line.at))
    return Text.assemble((f"{stamp} ", "dim"), (f"{line.name}: ", "bold"), line.text)


def _seconds_left(deadline: float) -> int:
    """Whole seconds until ``deadline`` (``time.monotonic()``), rounded up: ``3`` until two are left."""
    return max(0, math.ceil(deadline - time.monotonic()))


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
| `c` | chat in the saloon; `Esc` goes back to the tables |
| `?` | this help; `Esc` or `q` closes it |
| `q` `Ctrl+Q` | leave the saloon |

## At a table

`1`-`9` or the arrows and `Enter` pick a move; `Tab` switches to the table's chat; `?` shows the
game's rules; `Ctrl+L` goes back to the lobby (a bot plays your seat until you come back with
`t` or `Enter`); `Ctrl+R` opens the replay once the game is over. Whoever opened a table that
still waits for players can press `f` to fill its free seats with bots and start.

## Bots

A program can take a free seat over SSH, speaking JSON lines on stdin and stdout:
`ssh -p PORT NAME@HOST bot --table CODE` (add `--seat K` for one seat). Without `--table` it
waits for the first table with a free seat (`--game GAME`: of that game only).
"""
"""The lobby's help (Markdown)."""


class LobbyHelpScreen(ModalScreen[None]):
    """The lobby's keys, the keys at a table and how bots join (``?`` in the lobby)."""

    BINDINGS = [Binding("escape,q,question_mark", "close", "close")]

    def __init__(self) -> None:
        super().__init__(id="help")

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static("The saloon: help   (Esc closes)", id="help-title")
            yield Markdown(LOBBY_HELP)

    def action_close(self) -> None:
        """Back to the lobby."""
        self.dismiss(None)


class RecentGamesScreen(ModalScreen[GameRecord | None]):
    """The server's recent finished games; Enter picks one (its replay opens), Esc closes.

    Dismisses with the chosen :class:`lobby.store.GameRecord`, or ``None``.

    Args:
        games: the games to offer, newest first.
    """

    BINDINGS = [Binding("escape,q,g", "close", "close")]

    def __init__(self, games: list[GameRecord]) -> None:
        super().__init__(id="recent-games")
        self.games = games

    def compose(self) -> ComposeResult:
        with Vertical(id="recent-box"):
            yield Static(Text("Recent games  (Enter opens the replay, Esc closes)", style="bold"), id="recent-title")
            if self.games:
                yield OptionList(*(Option(self._line(g)) for g in self.games), id="recent-list")
            else:
                yield Static(Text("No finished games yet.", style="dim"), id="recent-none")

    @staticmethod
    def _line(record: GameRecord) -> Text:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(record.finished))
        try:
            title = engine.game(record.game).title
        except engine.UnknownGame:
            title = record.game
        winners = ", ".join(record.players[s] for s in record.winners if 0 <= s < len(record.players))
        return Text.assemble(
            (f"{when}  ", "dim"),
            (f"{record.code}  ", "bold"),
            f"{title}: {', '.join(record.players)}",
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


def _load_replay(path: Path) -> replays.Replay:
    """A recorded game's replay, re-simulated and checked (in a worker thread: it reads a file)."""
    replay = replays.load(path)
    replays.verify(replay)
    return replay


class LobbyScreen(Screen[None]):
    """The table list, the lobby chat and recent games."""

    BINDINGS = [
        Binding("n", "new_table", "new table"),
        Binding("enter", "open", "join / open", show=True),
        Binding("w", "watch", "watch"),
        Binding("t", "your_table", "your table"),
        Binding("c", "chat", "chat"),
        Binding("g", "games", "recent games"),
        Binding("question_mark", "help", "help"),
        Binding("q,ctrl+q", "app.quit", "quit"),
    ]

    HINTS = "n: new table  Enter: join  w: watch  t: your table  g: recent games  ?: help"
    """The key hints at the top of the lobby (always shown)."""

    def __init__(self, lobby: Lobby, identity: Identity) -> None:
        super().__init__(id="lobby")
        self.lobby = lobby
        self.identity = identity
        self._chat_shown = 0
        self._refresh = _Throttle(self, self.redraw)
        self._codes: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static(id="lobby-head")
        table: DataTable[str] = DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        yield table
        yield RichLog(id="lobby-chat", wrap=True, markup=False, max_lines=500)
        yield _Input(
            placeholder="say something to the saloon (Enter sends, Esc back to the tables)",
            id="lobby-say",
            max_length=MAX_CHAT_CHARS,
        )
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Columns, the first drawing, and change notifications from the lobby."""
        table = self.query_one("#tables", DataTable)
        table.add_columns("table", "game", "players", "humans", "bots", "free", "status", "watching")
        self.lobby.watch(self)
        self.redraw()
        table.focus()

    def on_unmount(self) -> None:
        """No more notifications."""
        self.lobby.unwatch(self)

    def changed(self, what: Any) -> None:
        """The lobby changed (called by the lobby, outside the app)."""
        self._refresh()

    def on_screen_resume(self) -> None:
        """Back from a table: draw anew."""
        self.redraw()

    def redraw(self) -> None:
        """Show the tables and the new chat lines."""
        mine = {t.code for t, _ in self.lobby.seats_of(self.identity)}
        head = Text.assemble(("Saloon", "bold"), f"  ·  {self.identity.label}  ·  ")
        if mine:
            head.append(f"your seats: {', '.join(sorted(mine))}", style="bold")
            head.append("  ·  ")
        head.append(self.HINTS, style="dim")
        self.query_one("#lobby-head", Static).update(head)
        grid = self.query_one("#tables", DataTable)
        selected = self._codes[grid.cursor_row] if 0 <= grid.cursor_row < len(self._codes) else None
        listing = self.lobby.listing()
        grid.clear()
        self._codes = []
        for table in listing:
            counts = table.counts()
            status = table.status
            if status == "playing" and table.state is not None:
                status = f"playing (move {table.num_moves})"
            marker = "*" if table.code in mine else ""
            grid.add_row(
                table.code + marker,
                table.title,
                str(table.num_players),
                str(counts["human"]),
                str(counts["bot"]),
                str(counts["free"]),
                status,
                str(len(table.spectators)),
                key=table.code,
            )
            self._codes.append(table.code)
        if selected in self._codes:
            grid.move_cursor(row=self._codes.index(selected))
        chat = self.query_one("#lobby-chat", RichLog)
        lines = list(self.lobby.chat)
        if len(lines) < self._chat_shown:
            chat.clear()
            self._chat_shown = 0
        for line in lines[self._chat_shown :]:
            chat.write(_chat_line(line))
        self._chat_shown = len(lines)

    def _selected(self) -> Table | None:
        grid = self.query_one("#tables", DataTable)
        if not 0 <= grid.cursor_row < len(self._codes):
            return None
        try:
            return self.lobby.table(self._codes[grid.cursor_row])
        except TableError:
            return None

    @on(DataTable.RowSelected, "#tables")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
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

    def action_new_table(self) -> None:
        """Open a new table (and sit at it, if you chose a seat)."""

        def made(result: tuple[Table, bool] | None) -> None:
            if result is not None:
                table, sit = result
                self.app.push_screen(ServerTableScreen(table, sit=sit))

        self.app.push_screen(NewTableScreen(self.lobby, self.identity), made)

    def action_chat(self) -> None:
        """Type in the lobby chat."""
        self.query_one("#lobby-say", Input).focus()

    def action_games(self) -> None:
        """The recent finished games; the one picked opens in the replay viewer, in this session."""

        def chosen(record: GameRecord | None) -> None:
            if record is not None:
                self.run_worker(self._open_replay(record), group="replay", exclusive=True)

        self.app.push_screen(RecentGamesScreen(self.lobby.store.games(RECENT_GAMES)), chosen)

    async def _open_replay(self, record: GameRecord) -> None:
        from tui.replay_screen import ReplayScreen

        try:
            replay = await asyncio.to_thread(_load_replay, record.replay)
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
            self.lobby.say(self.identity, event.value)
        event.input.value = ""

    def key_escape(self) -> None:
        """Esc leaves the chat line."""
        self.query_one("#tables", DataTable).focus()


class NewTableScreen(ModalScreen[tuple[Table, bool] | None]):
    """Open a table: game, players, bots, options, whether you sit.

    By default you sit and every other seat is a bot (the lobby's :attr:`Lobby.default_bot`): the
    bots line follows the number of players and the checkbox until it is edited. Seats that are
    neither yours nor a bot's are free for people and remote bots. The bots on offer and each
    option's values are listed under their lines; a line below the checkbox says what the seats
    will be.

    Dismisses with ``(table, you_sit)``, or ``None`` if cancelled.

    Args:
        lobby: the lobby.
        identity: the creator.
    """

    BINDINGS = [Binding("escape", "cancel", "cancel")]

    DEFAULT_PLAYERS = 4
    """The number of players the form starts with."""

    def __init__(self, lobby: Lobby, identity: Identity) -> None:
        super().__init__(id="new-table")
        self.lobby = lobby
        self.identity = identity
        self._done = False  # opened or cancelled: later Enters and clicks do nothing
        self._auto_bots = self._bots_for(self.DEFAULT_PLAYERS, True)

    def _bots_for(self, players: int, me: bool) -> str:
        """The bots line that makes every seat but the creator's (if ``me``) a bot."""
        bot = self.lobby.default_bot
        return "" if bot is None else ",".join([bot] * max(0, players - (1 if me else 0)))

    def compose(self) -> ComposeResult:
        games = engine.games()
        first = next(iter(games))
        with Vertical(id="new-table-box"):
            yield Static(Text("New table  (Enter opens it, Esc cancels)", style="bold"), id="nt-title")
            with Horizontal(classes="nt-row"):
                yield Static("game", classes="nt-label")
                yield Select(
                    [(g.title, gid) for gid, g in games.items()],
                    value=first,
                    id="nt-game",
                    allow_blank=False,
                    compact=True,
                )
            with Horizontal(classes="nt-row"):
                yield Static("players", classes="nt-label")
                yield _Input(
                    value=str(self.DEFAULT_PLAYERS), id="nt-players", type="integer", compact=True, max_length=2
                )
            with Horizontal(classes="nt-row nt-tight"):
                yield Static("bots", classes="nt-label")
                yield _Input(
                    value=self._auto_bots,
                    placeholder="none: the other seats are free for people",
                    id="nt-bots",
                    compact=True,
                    max_length=MAX_FORM_CHARS,
                )
            with Horizontal(classes="nt-row nt-hint"):
                yield Static("", classes="nt-label")
                yield Static(
                    Text(
                        f"bots on offer: {', '.join(self.lobby.config.bots)}  (one name per bot seat, commas between)",
                        style="dim",
                    ),
                    id="nt-offer",
                )
            with Horizontal(classes="nt-row nt-tight"):
                yield Static("options", classes="nt-label")
                yield _Input(
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
                yield Checkbox("I take a seat", True, id="nt-me")
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
        """Start in the players field."""
        self.query_one("#nt-players", Input).focus()
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
        bot_names = [b.strip() for b in self.query_one("#nt-bots", Input).value.split(",") if b.strip()]
        me = self.query_one("#nt-me", Checkbox).value
        open_seats = players - len(bot_names) - (1 if me else 0)
        if open_seats < 0:
            raise TableError(f"{len(bot_names)} bots{' and you' if me else ''} do not fit {players} seats")
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

    @on(Select.Changed, "#nt-game")
    def _game_changed(self, event: Select.Changed) -> None:
        event.stop()
        self.query_one("#nt-opts", Static).update(self._options_text(self._game()))
        self._follow()

    def action_cancel(self) -> None:
        """Close without a table."""
        self._close(None)

    def _close(self, result: tuple[Table, bool] | None) -> None:
        if not self._done:
            self._done = True
            self.dismiss(result)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._create()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "nt-create":
            self._create()
        else:
            self._close(None)

    def _create(self) -> None:
        if self._done:  # a second Enter (or click) before the form closed: the table is open already
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
            table = self.lobby.create_table(self.identity, game_id, players, seats, options or None)
        except TableError as exc:
            error.update(Text(str(exc), style="bold red"))
            return
        self._close((table, me))


class ServerTableScreen(Screen[None]):
    """One server table: the game, the seats, the log, the chat. The seat's controller when seated.

    While a turn timer runs at the table, a one-second interval redraws the countdown (in the
    seats line, and under "Your move" for your own seat); when the timer makes a move for you, the
    screen says which (a notification, and a note under the moves until you move yourself).

    Args:
        table: the table.
        sit: take a seat (your own back, or a free one) rather than watch.
    """

    BINDINGS = [
        Binding("question_mark", "help", "help"),
        Binding("tab", "chat", "chat / moves"),
        Binding("ctrl+l", "leave", "leave table"),
        Binding("ctrl+r", "replay", "replay (after the game)"),
        Binding("f", "fill", "fill with bots & start"),
        Binding("ctrl+q", "app.quit", "quit"),
    ]

    def __init__(self, table: Table, sit: bool) -> None:
        super().__init__(classes="game-screen server-table")
        self.table = table
        self.ui = ui_for(table.game.id).for_options(table.options)
        self.want_seat = sit
        self.identity: Identity = Identity("?", "?")
        self._refresh = _Throttle(self, self.redraw)
        self._choices_key: Any = None
        self._chat_shown = 0
        self._owner: SSHApp | None = None
        self._ticker: Timer | None = None
        self._seat: int | None = None
        self._view: Any = None
        self._forced_seen = 0
        self._forced_note: str | None = None
        self._can_fill = False
        self._noticed: int | None = None  # events already looked at for notices (None: not yet)
        self.notices: list[str] = []

    # Controller protocol ------------------------------------------------------------------

    def changed(self, what: Any) -> None:
        """The table changed (called by the table, outside the app)."""
        self._refresh()

    def seat_lost(self, table: Table, seat: int, reason: str) -> None:
        """Another session took this seat: keep watching as a spectator."""

        def lost() -> None:
            if self.is_attached:
                self.notify(reason, severity="warning", timeout=8)
                table.watch(self, spectator=True)
                self.redraw()

        self.app.call_later(lost)

    # Screen -------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="st-head")
        yield Static(id="st-seats")
        table = self.ui.make_table()
        table.display = False
        yield table
        with Horizontal(id="bottom"):
            yield ActionPicker(id="picker")
            with Vertical(id="st-side"):
                yield GameLog(id="log")
                yield RichLog(id="st-chat", wrap=True, markup=False, max_lines=300)
                yield _Input(placeholder="chat at this table (Tab)", id="st-say", max_length=MAX_CHAT_CHARS)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Sit down or start watching."""
        self._owner = self.app  # type: ignore[assignment]
        self.identity = self._owner.identity
        self._owner.table_screens.add(self)
        if self.want_seat:
            try:
                self.table.sit(self)  # type: ignore[arg-type]
            except TableError as exc:
                self.notify(str(exc), severity="warning", timeout=6)
                self.table.watch(self, spectator=True)
        else:
            self.table.watch(self, spectator=True)
        forced = self.table.forced_for(self)
        self._forced_seen = 0 if forced is None else forced.serial  # only what happens from now on
        self.query_one(ActionPicker).options.focus()
        self.redraw()

    def on_resize(self) -> None:
        """Small terminals get the compact layout."""
        self.set_class(self.size.height < 32, "compact")

    def leave(self, for_good: bool) -> None:
        """Stop being shown this table (``for_good``: a bot takes over a seat at once)."""
        self.table.release(self, leave=for_good)  # type: ignore[arg-type]
        self.table.unwatch(self)
        if self._owner is not None:
            self._owner.table_screens.discard(self)

    def action_leave(self) -> None:
        """Back to the lobby; a bot plays your seat (you can take it back from the lobby)."""
        self.leave(for_good=True)
        self.app.pop_screen()

    def action_chat(self) -> None:
        """Switch between the chat line and the moves."""
        say = self.query_one("#st-say", Input)
        if say.has_focus:
            self.query_one(ActionPicker).options.focus()
        else:
            say.focus()

    def action_help(self) -> None:
        """The game's rules."""
        game = self.table.game
        self.app.push_screen(HelpScreen(game.title, game.rules_help(), self.ui.legend))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``f`` (fill with bots) is there only for the creator of a table that waits for players."""
        if action == "fill":
            return self._fill_allowed()
        return True

    def _fill_allowed(self) -> bool:
        table = self.table
        return (
            table.status == "waiting"
            and self.identity.key == table.creator_key
            and table.counts()["free"] > 0
            and table.lobby.default_bot is not None
        )

    def action_fill(self) -> None:
        """Fill the free seats with bots and start the game (the table's creator, while it waits)."""
        bot = self.table.lobby.default_bot
        if not self._fill_allowed() or bot is None:
            return
        try:
            filled = self.table.fill_with_bots(self.identity, bot)
        except TableError as exc:
            self.notify(str(exc), severity="warning", timeout=5)
            return
        self.notify(f"{filled} {bot} bot{'s' * (filled != 1)} took the free seats: the game starts", timeout=4)
        self.redraw()

    def action_replay(self) -> None:
        """Watch the finished game's replay."""
        replay = self.table.replay
        if replay is None:
            self.notify("the replay opens once the game is over", timeout=3)
            return
        from tui.replay_screen import ReplayScreen

        self.app.push_screen(ReplayScreen(replay, self.ui))

    def redraw(self) -> None:
        """Draw what this screen may see of the table now."""
        table = self.table
        seat, view = table.view_for(self)
        where = f"you: seat {seat}" if seat is not None else "watching"
        head = Text.assemble(
            (f"Table {table.code}", "bold"),
            f"  ·  {table.title}  ·  {table.num_players} players  ·  {table.status}  ·  {where}  ·  ",
            (f"{len(table.spectators)} watching", "dim"),
        )
        self.query_one("#st-head", Static).update(head)
        self.query_one("#st-seats", Static).update(self._seats_line(seat, view))
        widget = self.query_one(".table")
        picker = self.query_one(ActionPicker)
        self._seat, self._view = seat, view
        self._check_forced()
        can_fill = self._fill_allowed()
        if can_fill != self._can_fill:
            self._can_fill = can_fill
            self.refresh_bindings()
        if view is None:
            widget.display = False
            free = table.counts()["free"]
            fill = "\nf: fill the free seats with bots and start now." if can_fill else ""
            picker.wait(
                f"Waiting for {free} more player(s).{fill}\nOthers join with Enter in the lobby; bots with: "
                f"ssh ... bot --table {table.code}"
            )
            self._choices_key = None
        else:
            widget.display = True
            events = table.events_for(self)
            names = table.names()
            widget.show(view, events, names)  # type: ignore[attr-defined]
            self.query_one(GameLog).show(events, self.ui.event_describer(events, view))
            self._notify(events, view)
            self._picker(picker, seat, view)
        self._chat()
        self._clock()

    def _notify(self, events: list[Any], view: Any) -> None:
        """Pop up what this seat should not miss among the events since the last look (a
        Robbery's result); what happened before the screen opened is not news."""
        if self._noticed is not None:
            for text in self.ui.notices(events, min(self._noticed, len(events)), view):
                self.notices.append(text)
                self.notify(text, timeout=8)
        self._noticed = len(events)

    # The turn timer -----------------------------------------------------------------------

    def _deadlines(self) -> dict[int, float]:
        table = self.table
        found = {}
        for seat in table.to_act():
            deadline = table.deadline_of(seat)
            if deadline is not None:
                found[seat] = deadline
        return found

    def _clock(self) -> None:
        """Run the one-second countdown while a deadline is pending, and show it now."""
        pending = bool(self._deadlines())
        if pending and self._ticker is None:
            self._ticker = self.set_interval(1.0, self._tick, name="turn timer")
        elif not pending and self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
        self._show_note()

    def _tick(self) -> None:
        if not self.is_attached:
            return
        self.query_one("#st-seats", Static).update(self._seats_line(self._seat, self._view))
        self._show_note()

    def _show_note(self) -> None:
        """Under the moves: what the timer played for you, and your time left."""
        note = Text()
        if self._forced_note:
            note.append(self._forced_note, style="bold yellow")
        deadline = self._deadlines().get(self._seat) if self._seat is not None else None
        if deadline is not None:
            left = _seconds_left(deadline)
            if note:
                note.append("\n")
            note.append(f"{left}s left", style="bold red" if left <= 5 else "bold")
            note.append(", then a bot moves for you", style="dim")
        self.query_one(ActionPicker).note(note or None)

    def _check_forced(self) -> None:
        """Say it once when the turn timer has made a move for this seat."""
        forced = self.table.forced_for(self)
        if forced is None or forced.serial <= self._forced_seen:
            return
        self._forced_seen = forced.serial
        self._forced_note = f"Time ran out: a bot played for you: {forced.text}"
        self.notify(self._forced_note, title="Turn timer", severity="warning", timeout=10)

    def _seats_line(self, mine: int | None, view: Any) -> Text:
        table = self.table
        to_act = set(table.to_act())
        line = Text()
        for seat in table.seats:
            who = table.names()[seat.index]
            label = f"{seat.index}:{who}"
            if view is not None:
                label += f" [{self.ui.seat_name(view, seat.index)}]"
            style = "bold" if seat.index == mine else ""
            if seat.index in to_act:
                label = "▶ " + label
                deadline = table.deadline_of(seat.index)
                if deadline is not None:
                    label += f" ({_seconds_left(deadline)}s)"
            if seat.status in ("away", "bot plays"):
                label += f" ({seat.status})"
            line.append(label, style=style)
            line.append("   ")
        return line

    def _picker(self, picker: ActionPicker, seat: int | None, view: Any) -> None:
        table = self.table
        if table.is_over:
            key = ("over",)
            if key != self._choices_key:
                outcome = table.outcome
                assert outcome is not None
                names = table.names()
                order = sorted(range(len(outcome.ranks)), key=lambda s: (outcome.ranks[s], s))
                result = "; ".join(f"#{outcome.ranks[s]} {names[s]} {outcome.scores[s]:g}" for s in order)
                picker.wait(f"Game over: {result}.  seed {table.seed_if_over()}.  ctrl+r: replay, ctrl+l: lobby")
                self._choices_key = key
            return
        legal = table.legal_for(self)  # type: ignore[arg-type]
        if legal:
            key = ("move", table.num_moves, tuple(legal))
            if key != self._choices_key:
                choices = [
                    Choice(self.ui.describe_action(table.game, a, view), self.ui.group(a, view), a) for a in legal
                ]
                picker.set_choices("Your move", choices)
                if not self.query_one("#st-say", Input).has_focus:  # never take the chat line from a typist
                    picker.options.focus()
                self._choices_key = key
            return
        waiting = [self.ui.seat_name(view, s) for s in table.to_act() if s != seat]
        key = ("wait", tuple(waiting))
        if key != self._choices_key:
            picker.wait("Waiting for " + (", ".join(waiting) if waiting else "the table") + " …")
            self._choices_key = key

    def _chat(self) -> None:
        chat = self.query_one("#st-chat", RichLog)
        lines = list(self.table.chat)
        if len(lines) < self._chat_shown:
            chat.clear()
            self._chat_shown = 0
        for line in lines[self._chat_shown :]:
            chat.write(_chat_line(line))
        self._chat_shown = len(lines)

    @on(ActionPicker.Chosen)
    def _chosen(self, event: ActionPicker.Chosen) -> None:
        event.stop()
        if event.action not in self.table.legal_for(self):  # type: ignore[arg-type]
            self.notify("too late: the game has moved on", severity="warning", timeout=3)
        else:
            try:
                self.table.play(self, event.action)  # type: ignore[arg-type]
                self._forced_note = None  # a move of your own: the timer's note has served
            except (TableError, engine.IllegalAction) as exc:
                self.notify(f"not played: {exc}", severity="warning", timeout=4)
        self._choices_key = None
        self.redraw()

    @on(Input.Submitted, "#st-say")
    def _say(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.table.say(self.identity, event.value)
        event.input.value = ""

    def key_escape(self) -> None:
        """Esc leaves the chat line for the moves."""
        self.query_one(ActionPicker).options.focus()


class SSHApp(App[None]):
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

    def __init__(self, lobby: Lobby, identity: Identity, guest_mode: bool = False) -> None:
        super().__init__()
        self.lobby = lobby
        self.identity = identity
        self.guest_mode = guest_mode
        self.table_screens: set[ServerTableScreen] = set()

    def on_mount(self) -> None:
        """The lobby; straight back to your table if you have a seat in a game."""
        self.push_screen(LobbyScreen(self.lobby, self.identity))
        for table, _seat in self.lobby.seats_of(self.identity):
            if table.status == "playing":
                self.push_screen(ServerTableScreen(table, sit=True))
                break

    def leave_all(self) -> None:
        """The session ended: let go of every table (seats are kept for the grace time)."""
        for screen in list(self.table_screens):
            screen.leave(for_good=False)
        for lobby_screen in self.query_screens():
            self.lobby.unwatch(lobby_screen)

    def query_screens(self) -> list[LobbyScreen]:
        """The lobby screens of this app (one at most)."""
        return [s for s in self.screen_stack if isinstance(s, LobbyScreen)]
