"""The lobby's Ladder screen (``l`` in the lobby): each game's rated ladder, its live games and its queue.

:class:`LadderScreen` shows, for the game picked with ``g`` (every registered game in turn):

* the standings (:meth:`lobby.ladder.Ladder.standings`): rank, name, the rating ``mu - 3σ``,
  the likely range ``mu ± 3σ``, rated games, the places in the last games (oldest first) and who
  is online (queued or playing); Enter on a player shows their rating after each recent game;
* the live ladder tables (:meth:`lobby.ladder.Ladder.tables`): Enter or ``w`` watches one in the
  same :class:`tui.table_screen.ServerTableScreen` a spectator gets from the lobby (Enter at a table
  where you own a seat takes it back);
* the queue: ``j`` joins it with the player counts typed after ``p`` (default: every count the
  game allows), and shows the time waited and how many are queued; ``j`` again or Esc leaves.

The screen's place on the ladder is a :class:`LadderPlayer` (the *controller* the ladder queues
and seats). When the matchmaker seats it, the person is taken to that table's
:class:`~tui.table_screen.ServerTableScreen` as a player, as if they had sat down from the lobby (the
table screen takes the seat over from the :class:`LadderPlayer`).

Redraws follow the ladder's and the lobby's change notifications, at most one per
:data:`REFRESH_S` (at a random moment within :data:`SPREAD_S`, like the lobby); the standings are
read from the store again only when a ladder table was formed or ended or who is online changed,
and then at most once per :data:`STANDINGS_MIN_S` for all sessions (:func:`shared_standings`);
the grids change only the cells whose text changed. The screen stops listening and leaves the
queue when it is closed or the session ends (on unmount).
"""

from __future__ import annotations

import re
import time
import weakref
from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import DataTable, Footer, Input, Static

import engine
from lobby.client import LobbyMirror, TableMirror
from lobby.ladder import Standing
from lobby.tables import Identity, TableError
from tui.table_screen import ServerTableScreen
from tui.widgets import LineInput, PageHelpScreen, Throttle, may_draw, update_grid, update_static

__all__ = ["LADDER_HELP", "LadderHelpScreen", "LadderPlayer", "LadderScreen", "parse_counts", "shared_standings"]

REFRESH_S = 1.0
"""At most one redraw of the Ladder screen per this many seconds (a busy ladder changes many times a second)."""

SPREAD_S = 0.5
"""Each Ladder screen redraws within this many seconds of a change, at a random moment (as the lobby does)."""

STANDINGS_MIN_S = 1.0
"""The standings of a game are read from the store at most once per this many seconds for all the
sessions of a server (:func:`shared_standings`): ~4 ms for 100 rated players."""

HISTORY_GAMES = 10
"""How many of a player's last games the history line (Enter on a player) shows."""

LADDER_HELP = """\
## The ladder

Every game has a rated ladder. People (from here) and bots (over SSH) join a game's queue; the
matchmaker seats queued players of close ratings together, at a player count everyone accepts,
and nobody waits long if a game can be formed. Every ladder game is rated and its replay kept.

**rating** is OpenSkill's conservative estimate `mu - 3σ` (0 for a new player): the skill is
likely within `mu ± 3σ`, and the range narrows with every game. **recent** lists the places in
the last games, oldest first (1 = first). **online**: queued or playing on this ladder now.

## Keys

| key | does |
|-----|------|
| `g` | the next game's ladder |
| `j` | join this game's queue (the player counts typed after `p`; none: every count); again: leave it |
| `p` | type the player counts you accept: `2,3` or `2-4` (`Enter` joins the queue with them) |
| `Enter` `w` | on a live game: watch it (`Enter` at a table where you have a seat takes it back) |
| `Enter` | on a player: their rating after each of their last games |
| `t` | back to your ladder game (if you left it, a bot plays your seat and you forfeit) |
| `Tab` | between the standings and the live games |
| `Esc` | leave the queue; when not queued, back to the lobby (`l` or `Ctrl+L` always) |
| `?` | this help; `Esc` or `q` closes it |

Leaving this screen, or the saloon, leaves the queue. When the ladder seats you, your table
opens: play it as any table. `l` (or `Ctrl+L`) there comes back here, but a ladder game left before its
end is forfeited: a bot plays your seat on and you are ranked last. A lost connection forfeits
only if you are not back within the server's grace time.

## Bots

A program joins the queue over SSH and plays one game after another, speaking JSON lines:
`ssh -p PORT NAME@HOST ladder --game GAME [--players 2,3]`. Without a PTY,
`ssh -p PORT NAME@HOST leaderboard GAME [--json]` prints the standings.
"""
"""The Ladder screen's help (Markdown)."""


def parse_counts(text: str, low: int, high: int) -> tuple[int, ...] | None:
    """The player counts a person typed: ``"2,3"``, ``"2 3"``, ``"2-4"``; empty or ``all``: every count.

    Args:
        text: what was typed.
        low: the game's fewest players.
        high: the game's most players.

    Returns:
        The counts, sorted, without repeats; ``None`` for every count.

    Raises:
        TableError: a word that is not a count or a range, or a count outside ``low..high``.

    >>> parse_counts("3, 2-3", 2, 9)
    (2, 3)
    >>> parse_counts(" all ", 2, 9) is None
    True
    """
    words = [w for w in re.split(r"[,\s]+", text.strip().lower()) if w]
    if not words or words == ["all"]:
        return None
    counts: set[int] = set()
    for word in words:
        found = re.fullmatch(r"(\d{1,2})(?:-(\d{1,2}))?", word)
        if found is None:
            raise TableError(f"player counts are numbers like 2,3 or 2-4, not {word[:20]!r}")
        first = int(found.group(1))
        last = int(found.group(2) or first)
        if not low <= first <= last <= high:
            raise TableError(f"this game is for {low}-{high} players, not {word[:20]}")
        counts.update(range(first, last + 1))
    return tuple(sorted(counts))


def _counts_text(counts: Sequence[int] | None, low: int, high: int) -> str:
    """``"2-9"``, ``"2 or 3"``, ``"2, 3 or 5"``."""
    if not counts or tuple(counts) == tuple(range(low, high + 1)):
        return f"{low}-{high}"
    shown = [str(n) for n in counts]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def _waited(seconds: float) -> str:
    """``"0:07"``, ``"12:31"``: minutes and seconds."""
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


_standings_cache: weakref.WeakKeyDictionary[Any, dict[str, tuple[Any, list[Standing], float]]] = (
    weakref.WeakKeyDictionary()
)
"""Per ladder, per game: the key the standings were last read for, the standings, and when (``time.monotonic()``)."""


async def shared_standings(ladder: Any, game: str, key: Any) -> tuple[list[Standing], bool]:
    """``game``'s standings (:meth:`lobby.ladder.Ladder.standings`), read at most once per
    :data:`STANDINGS_MIN_S` for all the sessions of a server.

    Args:
        ladder: the server's ladder.
        game: the game id.
        key: what the standings depend on now (the caller's; equal keys mean equal standings).

    Returns:
        ``(standings, fresh)``: ``fresh`` is False when the standings were read for another key
        less than :data:`STANDINGS_MIN_S` ago (the caller should ask again after that).
    """
    per_game = _standings_cache.setdefault(ladder, {})
    cached = per_game.get(game)
    now = time.monotonic()
    if cached is not None and (cached[0] == key or now - cached[2] < STANDINGS_MIN_S):
        return cached[1], cached[0] == key
    standings: list[Standing] = await ladder.standings(game)
    per_game[game] = (key, standings, time.monotonic())
    return standings, True


class LadderPlayer:
    """The Ladder screen's place on the ladder: the controller the ladder queues and seats.

    The ladder calls :meth:`seated` when it seats this player (on the event loop, outside the
    app); the screen then opens the table, whose screen takes the seat over (this player is told
    :meth:`seat_lost` and stops being the seat's controller).

    Args:
        screen: the Ladder screen it belongs to.
        identity: the person.
    """

    def __init__(self, screen: LadderScreen, identity: Identity) -> None:
        self.screen = screen
        self.identity = identity

    def changed(self, what: Any) -> None:
        """The table it was seated at changed: the table's screen shows it (nothing to do here)."""

    def seat_lost(self, table: TableMirror, seat: int, reason: str) -> None:
        """The table's screen took the seat over (as intended), or the table closed: nothing to do."""

    def seated(self, table: TableMirror, seat: int) -> None:
        """The ladder seated this player at ``table``: open it, or give the seat up if the screen is gone."""
        screen = self.screen
        if screen.is_attached:
            screen.app.call_later(screen.open_seat, table, seat)
        else:  # the session ended as the table formed: a bot plays the seat (the grace rules apply)
            table.release(self, leave=False)


class LadderHelpScreen(PageHelpScreen):
    """What the ladder is, the Ladder screen's keys and how bots join (``?`` on the Ladder screen)."""

    def __init__(self) -> None:
        super().__init__("The ladder", LADDER_HELP)


class LadderScreen(Screen[None]):
    """A game's ladder: standings, live ladder games (to watch) and its queue (see the module docstring).

    Args:
        lobby: the server's lobby (``lobby.ladder`` is the ladder; ``None``: the ladder is off).
        identity: who is looking (a guest may watch, not queue).
        game: the game shown first (default: the first registered game).
    """

    BINDINGS = [
        Binding("g", "next_game", "next game"),
        Binding("j", "queue", "queue"),
        Binding("p", "players", "counts"),
        Binding("w", "watch", "watch"),
        Binding("t", "your_table", "your game"),
        Binding("question_mark", "help", "help"),
        Binding("escape", "back", "back"),
        Binding("l,ctrl+l", "lobby", "lobby", key_display="l"),  # l: a browser takes Ctrl+L
        Binding("ctrl+q", "app.quit", "quit"),
    ]

    AUTO_FOCUS = "#ld-standings"
    """The standings take the keys when the screen opens."""

    HINTS = "g: next game  j: join/leave the queue  p: player counts  Enter/w: watch  ?: help  Esc: back"
    """The key hints at the top of the screen."""

    DEFAULT_CSS = """
    LadderScreen #ld-head {
        height: auto;
        max-height: 3;
        padding: 0 1;
        background: $primary-background;
    }
    LadderScreen #ld-games, LadderScreen #ld-queue, LadderScreen #ld-history, LadderScreen #ld-live {
        height: auto;
        padding: 0 1;
    }
    LadderScreen #ld-count-row {
        height: 1;
        padding: 0 1;
    }
    LadderScreen #ld-count-label {
        width: auto;
    }
    LadderScreen #ld-players {
        width: 24;
        height: 1;
        border: none;
        padding: 0 1;
    }
    LadderScreen #ld-standings {
        height: 2fr;
        min-height: 5;
    }
    LadderScreen #ld-live {
        border-top: solid $secondary;
    }
    LadderScreen #ld-tables {
        height: 1fr;
        min-height: 3;
    }
    """

    def __init__(self, lobby: LobbyMirror, identity: Identity, game: str | None = None) -> None:
        super().__init__(id="ladder")
        self.lobby = lobby
        self.identity = identity
        self.games = list(engine.games())
        self.game = game if game in self.games else self.games[0]
        self.player = LadderPlayer(self, identity)
        self._ticket: int | None = None  # our place in the queue (QueueEntry.ticket), if queued
        self._queue_game: str | None = None
        self._refresh = Throttle(self, self.redraw, lambda: REFRESH_S, spread=SPREAD_S)
        self._ticker: Timer | None = None
        self._standings_key: Any = None  # what the standings shown were read for (see _show_standings)
        self._mine: tuple[float, int] | None = None  # this person's rating and games in the game shown
        self._names: list[str] = []
        self._standing_rows: list[tuple[str, ...]] = []
        self._codes: list[str] = []
        self._table_rows: list[tuple[str, ...]] = []
        self._standing_columns: list[Any] = []
        self._table_columns: list[Any] = []

    @property
    def ladder(self) -> Any:
        """The server's :class:`lobby.ladder.Ladder`, or ``None`` when the server runs none."""
        return self.lobby.ladder

    # Screen -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="ld-head")
        yield Static(id="ld-games")
        yield Static(id="ld-queue")
        with Horizontal(id="ld-count-row"):
            yield Static("players (p): ", id="ld-count-label")
            yield LineInput(id="ld-players", compact=True, max_length=40)
        standings: DataTable[str] = DataTable(id="ld-standings", cursor_type="row", zebra_stripes=True)
        yield standings
        yield Static(id="ld-history")
        yield Static(id="ld-live")
        tables: DataTable[str] = DataTable(id="ld-tables", cursor_type="row")
        yield tables
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Columns, the first drawing, and change notifications from the ladder and the lobby.

        Nothing when the session is already closing (the screen was pushed just before it did:
        its widgets are being removed).
        """
        if not may_draw(self):
            return
        standings = self.query_one("#ld-standings", DataTable)
        self._standing_columns = standings.add_columns("rank", "name", "rating", "mu ± 3σ", "games", "recent", "online")
        tables = self.query_one("#ld-tables", DataTable)
        self._table_columns = tables.add_columns("table", "players", "started", "watching")
        if self.ladder is not None:
            self.ladder.watch(self)
        self.lobby.watch(self)
        self._game_changed()

    def on_unmount(self) -> None:
        """Closed (or the session ended): out of the queue, no more notifications."""
        self.lobby.unwatch(self)
        if self.ladder is not None:
            self.ladder.unwatch(self)
            self.ladder.leave(self.player)
        self.lobby.client.forget(self)
        self.lobby.client.forget(self.player)
        self._ticket = None
        self._stop_ticker()

    def changed(self, what: Any) -> None:
        """The ladder or the lobby changed (called outside the app): redraw soon, if shown."""
        if self.is_current:
            self._refresh()

    def on_screen_resume(self) -> None:
        """Back from a table or the help: draw anew (not while the session closes: its widgets go)."""
        if may_draw(self):
            self.redraw()

    # Drawing ----------------------------------------------------------------------------------

    def redraw(self) -> None:
        """Show the game's standings, live ladder tables and the queue as they are now."""
        self._show_standings()
        self._draw_head()
        self._show_tables()
        self._show_queue()

    def _draw_head(self) -> None:
        head = Text.assemble(("Ladder", "bold"), f"  ·  {engine.game(self.game).title}  ·  {self.identity.label}")
        if self._mine is not None:
            rating, games = self._mine
            head.append(f": rating {rating:.1f} ({games} game{'s' * (games != 1)})")
        head.append("  ·  ")
        head.append(self.HINTS, style="dim")
        update_static(self.query_one("#ld-head", Static), head)

    def _show_games(self) -> None:
        """The game selector line: every game, the one shown highlighted."""
        line = Text("game: ", style="bold")
        for gid in self.games:
            title = engine.game(gid).title
            line.append(f"[{title}]" if gid == self.game else title, style="bold" if gid == self.game else "dim")
            line.append("  ")
        line.append(" g: next game", style="dim")
        update_static(self.query_one("#ld-games", Static), line)

    def _show_standings(self) -> None:
        """The standings, read from the store again only when a ladder table formed or ended (the
        ratings may have changed) or who is online changed."""
        ladder = self.ladder
        grid = self.query_one("#ld-standings", DataTable)
        if ladder is None:
            update_grid(grid, self._standing_columns, [], [], self._names, self._standing_rows)
            self._names, self._standing_rows = [], []
            return
        online = ladder.online(self.game)
        live = tuple(t.code for t in ladder.tables(self.game))
        key = (self.game, ladder.tables_formed, live, tuple(sorted(online)))
        if key == self._standings_key:
            return
        self._standings_key = key
        self.run_worker(self._load_standings(key), group="standings", exclusive=True)

    async def _load_standings(self, key: Any) -> None:
        """Ask the hall for the standings (at most once per :data:`STANDINGS_MIN_S` for this front's
        sessions), then show them if nothing newer was asked meanwhile."""
        try:
            standings, fresh = await shared_standings(self.ladder, self.game, key)
        except ConnectionError:
            return
        if key != self._standings_key or not may_draw(self):
            return
        if not fresh:  # another session read them a moment ago: shown now, read again soon
            self._standings_key = None
            self.set_timer(STANDINGS_MIN_S, self._refresh)
        self._draw_standings(standings)
        self._draw_head()

    def _draw_standings(self, standings: list[Any]) -> None:
        grid = self.query_one("#ld-standings", DataTable)
        if not self.identity.guest:
            me = next((r for r in standings if r.name == self.identity.name), None)
            self._mine = (me.rating, me.games) if me is not None else (0.0, 0)
        names: list[str] = []
        rows: list[tuple[str, ...]] = []
        for row in standings:
            names.append(row.name)
            rows.append(
                (
                    str(row.rank),
                    row.name + (" (you)" if row.name == self.identity.name and not self.identity.guest else ""),
                    f"{row.rating:.1f}",
                    f"{row.mu:.1f} ± {3 * row.sigma:.1f}",
                    str(row.games),
                    " ".join(str(place) for place in row.recent),
                    "yes" if row.online else "",
                )
            )
        update_grid(grid, self._standing_columns, names, rows, self._names, self._standing_rows)
        self._names, self._standing_rows = names, rows
        if not names:
            update_static(
                self.query_one("#ld-history", Static),
                Text(f"Nobody has played a rated game of {engine.game(self.game).title} yet.", style="dim"),
            )

    def _show_tables(self) -> None:
        ladder = self.ladder
        live: list[TableMirror] = [] if ladder is None else ladder.tables(self.game)
        mine = {t.code for t, _ in self.lobby.seats_of(self.identity)}
        codes = [t.code for t in live]
        rows: list[tuple[str, ...]] = [
            (
                t.code + ("*" if t.code in mine else ""),
                ", ".join(s.name for s in t.seats),
                time.strftime("%H:%M:%S", time.localtime(t.started or t.created)),
                str(len(t.spectators)),
            )
            for t in live
        ]
        grid = self.query_one("#ld-tables", DataTable)
        update_grid(grid, self._table_columns, codes, rows, self._codes, self._table_rows)
        self._codes, self._table_rows = codes, rows
        title = Text.assemble(("Live ladder games", "bold"))
        if live:
            title.append(f"  ({len(live)}; Enter or w watches the selected one)", style="dim")
        else:
            title.append(f"  (no {engine.game(self.game).title} ladder game is being played now)", style="dim")
        update_static(self.query_one("#ld-live", Static), title)

    def _queued_entry(self) -> Any:
        """Our :class:`lobby.matchmaker.QueueEntry`, or ``None`` when not queued (any more)."""
        ladder = self.ladder
        if ladder is None or self._ticket is None or self._queue_game is None:
            return None
        return next((e for e in ladder.queued(self._queue_game) if e.ticket == self._ticket), None)

    def _playing(self) -> TableMirror | None:
        """The live ladder table where this person owns a seat (any game), if any."""
        seats = [t for t, _ in self.lobby.seats_of(self.identity) if t.rated and t.status == "playing"]
        return min(seats, key=lambda t: t.created, default=None)

    def _show_queue(self) -> None:
        """The queue line: queued (and for how long), playing, or how to join."""
        ladder = self.ladder
        entry = self._queued_entry()
        if entry is None:
            self._ticket = None
        line = Text()
        if ladder is None:
            line.append("The ladder is off on this server.", style="bold")
        elif entry is not None:
            spec = engine.game(entry.game)
            waiting = len(ladder.queued(entry.game))
            line.append(f"Waiting in the queue for {_waited(ladder.clock() - entry.joined)}", style="bold yellow")
            line.append(f" ({waiting} queued)", style="bold")
            line.append(f": {spec.title}, {_counts_text(entry.counts, spec.min_players, spec.max_players)} players")
            line.append("  ·  j or Esc leaves the queue", style="dim")
        elif self.identity.guest:
            line.append("Guests can watch the ladder; connect with an SSH key to play on it.", style="dim")
        else:
            playing = self._playing()
            if playing is not None:
                line.append(f"You are playing at ladder table {playing.code} ({playing.title})", style="bold")
                seat = playing.seat_of(self.identity)
                if seat is not None and playing.seats[seat].substitute:
                    line.append(" (a bot plays your seat)", style="bold")
                line.append(": t goes back to it.", style="dim")
            else:
                spec = engine.game(self.game)
                line.append("Not in the queue. ", style="bold")
                line.append(
                    f"j joins the {spec.title} queue ({spec.min_players}-{spec.max_players} players, "
                    "or the counts typed after p)",
                    style="dim",
                )
        update_static(self.query_one("#ld-queue", Static), line, same_size=entry is not None)
        if entry is not None and self._ticker is None:
            self._ticker = self.set_interval(1.0, self._tick, name="queue clock")
        elif entry is None:
            self._stop_ticker()

    def _tick(self) -> None:
        if may_draw(self):
            self._show_queue()

    def _stop_ticker(self) -> None:
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def _game_changed(self) -> None:
        spec = engine.game(self.game)
        players = self.query_one("#ld-players", Input)
        players.value = ""
        players.placeholder = f"all: {spec.min_players}-{spec.max_players}"
        update_static(self.query_one("#ld-history", Static), "")
        self._show_games()
        self.redraw()

    # Actions ----------------------------------------------------------------------------------

    def action_next_game(self) -> None:
        """The next game's ladder (the queue you are in, if any, stays)."""
        self.game = self.games[(self.games.index(self.game) + 1) % len(self.games)]
        self._game_changed()

    async def action_queue(self) -> None:
        """Join this game's queue (with the counts typed after ``p``), or leave the queue if queued."""
        if self._queued_entry() is not None:
            self.leave_queue()
        else:
            await self.join_queue()

    async def join_queue(self) -> None:
        """Join the shown game's queue with the typed player counts (again, with new counts, if queued)."""
        ladder = self.ladder
        if ladder is None:
            self.notify("The ladder is off on this server.", severity="warning", timeout=4)
            return
        playing = self._playing()
        if playing is not None:
            self.notify(f"You are playing at ladder table {playing.code}: t goes back to it.", timeout=5)
            return
        spec = engine.game(self.game)
        try:
            counts = parse_counts(self.query_one("#ld-players", Input).value, spec.min_players, spec.max_players)
            game = self.game
            await ladder.join(self.player, game, counts, kind="human")
        except (TableError, ConnectionError) as exc:  # lobby.ladder.LadderError is one
            self.notify(str(exc), severity="warning", timeout=6)
            return
        if not may_draw(self):
            return
        mine = [e for e in ladder.queued(game) if e.name == self.identity.name]
        # The entry just made has the highest ticket of this account's (join numbers them in order).
        self._ticket = max((e.ticket for e in mine), default=None)
        self._queue_game = game
        self.query_one("#ld-standings", DataTable).focus()
        self.redraw()

    def leave_queue(self) -> None:
        """Leave the ladder's queue."""
        if self.ladder is not None:
            self.ladder.leave(self.player)
        self._ticket = None
        self.notify("You left the queue.", timeout=3)
        self.redraw()

    def action_players(self) -> None:
        """Type the player counts to queue for."""
        self.query_one("#ld-players", Input).focus()

    @on(Input.Submitted, "#ld-players")
    async def _players_typed(self, event: Input.Submitted) -> None:
        event.stop()
        await self.join_queue()

    def action_back(self) -> None:
        """Esc: out of the player counts line, else out of the queue, else back to the lobby."""
        players = self.query_one("#ld-players", Input)
        if players.has_focus:
            self.query_one("#ld-standings", DataTable).focus()
        elif self._queued_entry() is not None:
            self.leave_queue()
        else:
            self.app.pop_screen()

    def action_lobby(self) -> None:
        """Back to the lobby (out of the queue)."""
        self.app.pop_screen()

    def action_help(self) -> None:
        """The ladder's help."""
        self.app.push_screen(LadderHelpScreen())

    def _selected_table(self) -> TableMirror | None:
        grid = self.query_one("#ld-tables", DataTable)
        if not 0 <= grid.cursor_row < len(self._codes):
            return None
        try:
            return self.lobby.table(self._codes[grid.cursor_row])
        except TableError:
            return None

    def action_watch(self) -> None:
        """Watch the selected live ladder game."""
        table = self._selected_table()
        if table is None:
            self.notify(f"No {engine.game(self.game).title} ladder game is being played now.", timeout=3)
            return
        self.app.push_screen(ServerTableScreen(table, sit=False))

    def action_your_table(self) -> None:
        """Back to your live ladder game (your seat)."""
        table = self._playing()
        if table is None:
            self.notify("You are not playing a ladder game now: j joins the queue.", timeout=4)
            return
        self.app.push_screen(ServerTableScreen(table, sit=True))

    @on(DataTable.RowSelected, "#ld-tables")
    def _table_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        table = self._selected_table()
        if table is None:
            return
        owns = table.seat_of(self.identity) is not None and not self.identity.guest
        self.app.push_screen(ServerTableScreen(table, sit=owns))

    @on(DataTable.RowSelected, "#ld-standings")
    async def _player_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if self.ladder is None or not 0 <= event.cursor_row < len(self._names):
            return
        name = self._names[event.cursor_row]
        try:
            points = await self.ladder.history(self.game, name, HISTORY_GAMES)
        except (TableError, ConnectionError):
            return
        if not may_draw(self):
            return
        line = Text.assemble((f"{name}", "bold"), f": rating after each of the last {len(points)} games (place: ")
        line.append("mu - 3σ), oldest first:  ")
        line.append("   ".join(f"{p.place}: {p.mu - 3 * p.sigma:.1f}" for p in points) or "no rated game yet")
        update_static(self.query_one("#ld-history", Static), line)

    # Seated by the ladder -----------------------------------------------------------------------

    def open_seat(self, table: TableMirror, seat: int) -> None:
        """The ladder seated this person at ``table``: open it as a player (spectated tables above close).

        Called by :class:`LadderPlayer` inside the app. If the screen was closed meanwhile, the
        seat is given up (a bot plays it, under the table's grace rules).
        """
        self._ticket = None
        self._stop_ticker()
        if not self.is_attached:
            table.release(self.player, leave=False)
            return
        stack = self.app.screen_stack
        above = stack[stack.index(self) + 1 :] if self in stack else []
        if all(isinstance(s, ModalScreen) or (isinstance(s, ServerTableScreen) and not s.want_seat) for s in above):
            for screen in reversed(above):
                if isinstance(screen, ServerTableScreen):
                    screen.leave(for_good=False)
                self.app.pop_screen()
        self.notify(f"The ladder seated you at table {table.code}, seat {seat}.", timeout=5)
        self.app.push_screen(ServerTableScreen(table, sit=True))
