"""The SSH session's app: the lobby (tables, chat, new table) and the server tables' screens.

One :class:`SSHApp` runs per SSH session (see :mod:`tui.server`), configured through its
constructor: the server's :class:`tui.tables.Lobby` and who is connected. Screens:

* :class:`LobbyScreen`: the tables (game, players, seats, status, spectators), the lobby chat,
  recent games; ``n`` opens a table, Enter joins (or returns to your seat), ``w`` watches.
* :class:`NewTableScreen`: game, player count, which seats are bots (and which bots), options.
* :class:`ServerTableScreen`: a table: the game's own table widget (from :mod:`tui.games`), the
  action picker, the log, the seats and the table chat. It is the seat's *controller*: the table
  hands it only its seat's view (a spectator's screen gets the public view).

The screens never touch the engine's state directly: moves go through :meth:`Table.play`, and
views through :meth:`Table.view_for`, which decides what this screen may see.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, DataTable, Footer, Input, RichLog, Select, Static

import engine
from tui.games import TABLES, ui_for
from tui.tables import MAX_CHAT_CHARS, Identity, Lobby, SeatSpec, Table, TableError
from tui.widgets import ActionPicker, Choice, GameLog, HelpScreen

__all__ = ["LobbyScreen", "NewTableScreen", "SSHApp", "ServerTableScreen"]

_REFRESH_S = 0.2
"""At most one redraw of a screen per this many seconds for changes made elsewhere."""

MAX_FORM_CHARS = 200
"""The longest text the new-table form's bots and options lines take."""


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


class LobbyScreen(Screen[None]):
    """The table list, the lobby chat and recent games."""

    BINDINGS = [
        Binding("n", "new_table", "new table"),
        Binding("enter", "open", "join / open", show=True),
        Binding("w", "watch", "watch"),
        Binding("c", "chat", "chat"),
        Binding("g", "games", "recent games"),
        Binding("q,ctrl+q", "app.quit", "quit"),
    ]

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
        yield Static(id="lobby-games")
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
        self.query_one("#lobby-games", Static).display = False
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
        head = Text.assemble(
            ("Saloon", "bold"),
            f"  ·  {self.identity.label}  ·  ",
            (f"your seats: {', '.join(sorted(mine))}" if mine else "n: new table  Enter: join  w: watch", "dim"),
        )
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
        """Join the selected table (your own seat, or a free one), else watch it."""
        table = self._selected()
        if table is None:
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
        """Show or hide the recent finished games (``saloon replay FILE`` opens their replays)."""
        box = self.query_one("#lobby-games", Static)
        if box.display:
            box.display = False
            return
        games = self.lobby.store.games(8)
        lines = Text("Recent games (on the server: saloon replay DATA/replays/FILE)\n", style="bold")
        for record in games:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(record.finished))
            winners = ", ".join(record.players[s] for s in record.winners) or "nobody"
            lines.append(f"{when}  {record.code}  {record.game}  won by {winners}  {record.replay.name}\n")
        if not games:
            lines.append("none yet\n", style="dim")
        box.update(lines)
        box.display = True

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
    """Open a table: game, players, bots, whether you sit, options.

    Dismisses with ``(table, you_sit)``, or ``None`` if cancelled.

    Args:
        lobby: the lobby.
        identity: the creator.
    """

    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, lobby: Lobby, identity: Identity) -> None:
        super().__init__(id="new-table")
        self.lobby = lobby
        self.identity = identity
        self._done = False  # opened or cancelled: later Enters and clicks do nothing

    def compose(self) -> ComposeResult:
        games = engine.games()
        with Vertical(id="new-table-box"):
            yield Static(Text("New table  (Enter opens it, Esc cancels)", style="bold"), id="nt-title")
            with Horizontal(classes="nt-row"):
                yield Static("game", classes="nt-label")
                yield Select(
                    [(g.title, gid) for gid, g in games.items()],
                    value=next(iter(games)),
                    id="nt-game",
                    allow_blank=False,
                    compact=True,
                )
            with Horizontal(classes="nt-row"):
                yield Static("players", classes="nt-label")
                yield _Input(value="4", id="nt-players", type="integer", compact=True, max_length=2)
            with Horizontal(classes="nt-row"):
                yield Static("bots", classes="nt-label")
                yield _Input(
                    value="random,random",
                    placeholder="one bot name per bot seat",
                    id="nt-bots",
                    compact=True,
                    max_length=MAX_FORM_CHARS,
                )
            with Horizontal(classes="nt-row"):
                yield Static("", classes="nt-label")
                yield Static(Text("bots on offer: " + ", ".join(self.lobby.config.bots), style="dim"), id="nt-offer")
            with Horizontal(classes="nt-row"):
                yield Static("options", classes="nt-label")
                yield _Input(
                    placeholder="KEY=VALUE ... (saloon games lists them)",
                    id="nt-options",
                    compact=True,
                    max_length=MAX_FORM_CHARS,
                )
            with Horizontal(classes="nt-row"):
                yield Static("", classes="nt-label")
                yield Checkbox("I take a seat (the other seats are free for people or remote bots)", True, id="nt-me")
            yield Static(id="nt-error")
            with Horizontal(id="nt-buttons"):
                yield Button("Open the table", id="nt-create", variant="primary", compact=True)
                yield Button("Cancel", id="nt-cancel", compact=True)

    def on_mount(self) -> None:
        """Start in the players field."""
        self.query_one("#nt-players", Input).focus()

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
            try:
                players = int(self.query_one("#nt-players", Input).value)
            except ValueError:
                raise TableError("the number of players must be a number") from None
            bot_names = [b.strip() for b in self.query_one("#nt-bots", Input).value.split(",") if b.strip()]
            me = self.query_one("#nt-me", Checkbox).value
            options: dict[str, str] = {}
            for word in self.query_one("#nt-options", Input).value.split():
                key, eq, value = word.partition("=")
                if not eq or not key:
                    raise TableError(f"option {word!r}: expected KEY=VALUE")
                options[key] = value
            open_seats = players - len(bot_names) - (1 if me else 0)
            if open_seats < 0:
                raise TableError(f"{len(bot_names)} bots{' and you' if me else ''} do not fit {players} seats")
            seats = [SeatSpec("me")] if me else []
            seats += [SeatSpec("open")] * open_seats + [SeatSpec("bot", name) for name in bot_names]
            table = self.lobby.create_table(self.identity, game_id, players, seats, options or None)
        except TableError as exc:
            error.update(Text(str(exc), style="bold red"))
            return
        self._close((table, me))


class ServerTableScreen(Screen[None]):
    """One server table: the game, the seats, the log, the chat. The seat's controller when seated.

    Args:
        table: the table.
        sit: take a seat (your own back, or a free one) rather than watch.
    """

    BINDINGS = [
        Binding("question_mark", "help", "help"),
        Binding("tab", "chat", "chat / moves"),
        Binding("ctrl+l", "leave", "leave table"),
        Binding("ctrl+r", "replay", "replay (after the game)"),
        Binding("ctrl+q", "app.quit", "quit"),
    ]

    def __init__(self, table: Table, sit: bool) -> None:
        super().__init__(classes="game-screen server-table")
        self.table = table
        self.ui = ui_for(table.game.id)
        self.want_seat = sit
        self.identity: Identity = Identity("?", "?")
        self._refresh = _Throttle(self, self.redraw)
        self._choices_key: Any = None
        self._chat_shown = 0
        self._owner: SSHApp | None = None

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
        if view is None:
            widget.display = False
            free = table.counts()["free"]
            picker.wait(
                f"Waiting for {free} more player(s). Others join with Enter in the lobby; bots with: "
                f"ssh ... bot --table {table.code}"
            )
            self._choices_key = None
        else:
            widget.display = True
            events = table.events_for(self)
            names = table.names()
            widget.show(view, events, names)  # type: ignore[attr-defined]
            self.query_one(GameLog).show(events, lambda e: self.ui.describe_event(e, view))
            self._picker(picker, seat, view)
        self._chat()

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
                    label += f" ({max(0, int(deadline - time.monotonic()))}s)"
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
                choices = [Choice(table.game.describe(a, view), self.ui.group(a, view), a) for a in legal]
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
