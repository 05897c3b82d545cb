"""A server table's screen (:class:`ServerTableScreen`): the game's own table widget, the action
picker, the log, the seats and the table's chat, for a player or a spectator. Opened from the lobby
(:mod:`tui.lobby_screen`) and from the Ladder screen (:mod:`tui.ladder_screen`).
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Footer, Input, RichLog, Static

import engine
from lobby.client import TableMirror
from lobby.tables import MAX_CHAT_CHARS, Identity, TableError
from tui.games import ui_for
from tui.widgets import (
    REGION_BINDINGS,
    ActionPicker,
    Choice,
    GameLog,
    HelpScreen,
    LineInput,
    Regions,
    Throttle,
    may_draw,
    update_static,
)
from tui.widgets.only_move import AutoPlayed, auto_play_enabled, only_choice, set_auto_play
from tui.widgets.result import TABLE_CHOICES, ResultScreen, headline, seat_label

__all__ = ["ChatLine", "ChatLog", "ForfeitScreen", "ServerTableScreen", "chat_line", "seconds_left", "show_chat"]

_REFRESH_S = 0.2
"""At most one redraw of a seated player's table screen per this many seconds for changes made elsewhere."""

_WATCH_REFRESH_S = 0.5
"""At most one redraw per this many seconds of a spectator's table screen (a table of bots moves
many times a second, and each redraw costs the server's one event loop some 12-19 ms of CPU at
120x40, more when a part changes height and the screen is laid out again: see
``tests/bench/redraw_cost.py``)."""


def chat_line(line: Any) -> Text:
    """A chat line (:class:`lobby.tables.ChatLine`) as the chat logs show it: time, name, text."""
    stamp = time.strftime("%H:%M", time.localtime(line.at))
    return Text.assemble((f"{stamp} ", "dim"), (f"{line.name}: ", "bold"), line.text)


def show_chat(chat: RichLog, lines: Sequence[Any], shown: int) -> int:
    """Write to ``chat`` the lines of a chat it does not show yet.

    Args:
        chat: the log the chat is shown in.
        lines: the chat's kept lines, oldest first (:class:`lobby.tables.ChatLine`, numbered by
            ``serial``): ``Table.chat`` or ``Lobby.chat``, which keep only the newest 200.
        shown: the ``serial`` of the last line written to ``chat`` (0: none yet).

    Returns:
        The ``serial`` of the newest line now shown, to pass as ``shown`` next time: the lines
        numbered after it are written then, however many the chat dropped meanwhile. When every
        line is numbered below ``shown`` (another chat), ``chat`` is cleared and shows them all.
    """
    newest = lines[-1].serial if lines else 0
    if newest < shown:
        chat.clear()
        shown = 0
    for line in lines:
        if line.serial > shown:
            chat.write(chat_line(line))
    return newest


def seconds_left(deadline: float) -> int:
    """Whole seconds until ``deadline`` (``time.monotonic()``), rounded up: ``3`` until two are left."""
    return max(0, math.ceil(deadline - time.monotonic()))


class ChatLog(RichLog):
    """The table's chat lines, each wrapped at the chat's width (a RichLog draws 78 columns at least
    otherwise: a line cut at the chat's edge, and a scroll bar across), and wrapped again at its new
    width when that width changes (``z`` zooms the chat to the whole screen, and back): it posts
    :class:`ChatLog.Resized` then, and the screen writes its lines anew.

    Args:
        id: the widget's id.
    """

    class Resized(Message):
        """The chat's width changed: its lines are to be written anew."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, max_lines=300, min_width=1)
        self._wrapped_at = 0

    def on_resize(self, event: events.Resize) -> None:
        """Ask for the lines anew at a new width (RichLog's own handler runs too)."""
        width, self._wrapped_at = self._wrapped_at, event.size.width
        if self.lines and width and width != event.size.width:
            self.post_message(self.Resized())


class ChatLine(LineInput):
    """The table's chat line. ``z`` typed on the empty line is the screen's (it zooms the chat, as
    ``z`` zooms the other regions: :meth:`ServerTableScreen.action_chat_zoom`); once something is
    typed, or in the zoomed chat, ``z`` is a letter like the others."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """Every printable key but ``z`` on the empty line of an unzoomed screen."""
        if key == "z" and not self.value and self.screen.maximized is None:
            return False
        return super().check_consume_key(key, character)


class ForfeitScreen(ModalScreen[bool]):
    """Asks whether to leave a ladder game one plays in: leaving forfeits it (ranked last for the
    rating; a bot plays the seat to the end). Dismisses with ``True`` (leave) or ``False``.

    Keys: ``y`` leaves, ``n`` or Esc goes back to the table.

    Args:
        code: the table's code (shown).
    """

    DEFAULT_CSS = """
    ForfeitScreen { align: center middle; }
    ForfeitScreen #forfeit-box { width: 70; max-width: 100%; height: auto; border: thick $warning;
        background: $surface; padding: 1 2; }
    """
    BINDINGS = [
        Binding("y", "answer(True)", "leave and forfeit"),
        Binding("n,escape", "answer(False)", "keep playing"),
    ]

    def __init__(self, code: str) -> None:
        super().__init__(id="forfeit")
        self._code = code

    def compose(self) -> ComposeResult:
        with Vertical(id="forfeit-box"):
            yield Static(Text(f"Leave ladder game {self._code}? You forfeit it.", style="bold"))
            yield Static("You are ranked last for the rating, and a bot plays your seat to the end.")
            yield Static("y: leave and forfeit    n: keep playing")

    def action_answer(self, leave: bool) -> None:
        """Close with the answer."""
        self.dismiss(leave)


class ServerTableScreen(Regions):
    """One server table: the game, the seats, the log, the chat. The seat's controller when seated.

    While a turn timer runs at the table, a one-second interval redraws the countdown (in the
    seats line, and under "Your move" for your own seat); when the timer makes a move for you, the
    screen says which (in the log, and a note under the moves until you move yourself). What the
    person should not miss (the game's :meth:`GameUI.notices`, a seat lost, a move refused) is
    said the same way: no pop-up covers the moves. The keys that reach the board, the log, the
    chat and the moves are :class:`tui.widgets.Regions`'; ``c`` goes to the chat line at once.

    Changes made elsewhere redraw the screen at most every :data:`_REFRESH_S` for a seated player
    and every :data:`_WATCH_REFRESH_S` for a spectator; a redraw repaints only the parts whose
    content changed, and lays the whole screen out again (on the server's one event loop) only
    when a part's height changed (:func:`tui.widgets.update_static`); the countdown repaints its
    line alone.

    Args:
        table: the table.
        sit: take a seat (your own back, or a free one) rather than watch.
    """

    BINDINGS = [
        *REGION_BINDINGS,
        Binding("c", "chat", "chat"),
        Binding("question_mark", "help", "help"),
        Binding("f", "fill", "fill with bots"),
        # l and r, not only Ctrl+L and Ctrl+R: a browser takes those (the address bar, reload)
        Binding("l,ctrl+l", "leave", "leave", key_display="l"),
        Binding("r,ctrl+r", "replay", "replay", key_display="r"),
        Binding("e", "result", "result"),
        Binding("o", "auto_play", "auto-play only moves", show=False),
        # before the chat line takes it: z on the empty line zooms the chat (typed once it is zoomed)
        Binding("z", "chat_zoom", "zoom", priority=True),
        Binding("ctrl+q", "app.quit", "quit"),
    ]

    def __init__(self, table: TableMirror, sit: bool) -> None:
        super().__init__(classes="game-screen server-table")
        self.table = table
        self.ui = ui_for(table.game.id).for_options(table.options)
        self.want_seat = sit
        self.identity: Identity = Identity("?", "?")
        self._refresh = Throttle(self, self.redraw, lambda: _REFRESH_S if self._seat is not None else _WATCH_REFRESH_S)
        self._choices_key: Any = None
        self._chat_shown = 0
        self._owner: Any = None  # the SSH session's app (tui.lobby_screen.SSHApp)
        self._ticker: Timer | None = None
        self._seat: int | None = None
        self._view: Any = None
        self._forced_seen = 0
        self._forced_note: str | None = None
        self._can_fill = False
        self._noticed: int | None = None  # events already looked at for notices (None: not yet)
        self.notices: list[str] = []
        self._news: list[str] = []  # shown under the moves' title until the person's next move
        self._result_opened = False
        self._auto_played: Any = None  # the decision whose only move was last played for the person

    # Controller protocol ------------------------------------------------------------------

    def changed(self, what: Any) -> None:
        """The table changed (called by the table, outside the app)."""
        self._refresh()

    def seat_lost(self, table: TableMirror, seat: int, reason: str) -> None:
        """Another session took this seat: keep watching as a spectator."""

        def lost() -> None:
            if self.is_attached:
                self.tell(reason)
                table.watch(self, spectator=True)
                self.redraw()

        self.app.call_later(lost)

    # Screen -------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="st-head")
        yield Static(id="st-seats")
        with Vertical(id="main"):
            table = self.ui.make_table()
            table.display = False
            yield table
            with Horizontal(id="bottom"):
                yield ActionPicker(id="picker")
                with Vertical(id="st-side"):
                    yield GameLog(id="log")
                    yield ChatLog(id="st-chat")
                    yield ChatLine(placeholder="c: chat here (Enter sends)", id="st-say", max_length=MAX_CHAT_CHARS)
        yield Footer(compact=True, show_command_palette=False)

    async def on_mount(self) -> None:
        """Sit down or start watching (unless the session closed while the screen was being built:
        its widgets are gone then, and nobody is there to sit)."""
        if not self.query(ActionPicker):
            return
        self._owner = self.app  # type: ignore[assignment]
        self.identity = self._owner.identity
        self._owner.table_screens.add(self)
        refused = None
        if self.want_seat:
            try:
                await self.table.sit(self)
            except TableError as exc:
                refused = str(exc)
                self.table.watch(self, spectator=True)
            except ConnectionError:
                refused = "the saloon is restarting: come back in a moment"
            if not self.is_attached or not self.query(ActionPicker):  # the session closed meanwhile
                return
        else:
            self.table.watch(self, spectator=True)
        forced = self.table.forced_for(self)
        self._forced_seen = 0 if forced is None else forced.serial  # only what happens from now on
        self.query_one(ActionPicker).options.focus()
        self.redraw()
        if refused is not None:
            self.tell(refused)

    def on_resize(self) -> None:
        """Small terminals get the compact layout; the head line fits the new width."""
        self.set_class(self.size.height < 32, "compact")
        if self.is_mounted:
            update_static(self.query_one("#st-head", Static), self._head_line(self._seat))
            update_static(self.query_one("#st-seats", Static), self._seats_line(self._seat, self._view))

    def leave(self, for_good: bool) -> None:
        """Stop being shown this table (``for_good``: a bot takes over a seat at once)."""
        self.table.release(self, leave=for_good)
        self.table.unwatch(self)
        self.table.client.forget(self)
        if self._owner is not None:
            self._owner.table_screens.discard(self)

    def action_leave(self) -> None:
        """Back to the lobby; a bot plays your seat (you can take it back from the lobby).

        Leaving a rated (ladder) game you play in forfeits it: the person is asked first
        (:class:`ForfeitScreen`).
        """
        table = self.table
        if table.rated and table.status == "playing" and self._seat is not None:

            async def answered(leave: bool | None) -> None:
                if leave:
                    await self._leave_and_go()

            self.app.push_screen(ForfeitScreen(table.code), answered)
            return
        self.leave(for_good=True)
        self.app.pop_screen()

    async def _leave_and_go(self) -> None:
        """Let go of a ladder seat, wait until the hall has (so the Ladder screen below shows the
        seat played by a bot), then go."""
        with contextlib.suppress(ConnectionError, TableError):
            await self.table.released(self, leave=True)
        self.leave(for_good=True)
        if self.is_current:
            self.app.pop_screen()

    def action_chat(self) -> None:
        """Go to the chat line (from any region but the chat line itself, where ``c`` is typed)."""
        if self.maximized is not None:
            self.minimize()
        self.query_one("#st-say", Input).focus()

    def action_help(self) -> None:
        """The game's rules."""
        game = self.table.game
        self.app.push_screen(HelpScreen(game.title, game.rules_help(), self.ui.legend))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``f`` (fill with bots) is there only for the creator of a table that waits for players;
        ``r`` (the replay) once the game is over; ``1``-``9`` for a seated player while the game is on."""
        if action == "fill":
            return self._fill_allowed()
        if action in ("replay", "result"):
            return self.table.is_over
        if action == "chat_zoom":  # else z is the regions' zoom (or a letter in the chat line)
            say = self.query("#st-say")
            return bool(say) and say.first().has_focus and not say.first().value and self.maximized is None
        if action == "pick":
            return self.table.status == "playing" and self._seat is not None  # a spectator picks nothing
        return True

    def _fill_allowed(self) -> bool:
        table = self.table
        return (
            table.status == "waiting"
            and self.identity.key == table.creator_key
            and table.counts()["free"] > 0
            and table.lobby.default_bot is not None
        )

    async def action_fill(self) -> None:
        """Fill the free seats with bots and start the game (the table's creator, while it waits)."""
        bot = self.table.lobby.default_bot
        if not self._fill_allowed() or bot is None:
            return
        try:
            filled = await self.table.fill_with_bots(self, bot)
        except (TableError, ConnectionError) as exc:
            self.tell(str(exc))
            return
        self.redraw()
        self.tell(f"{filled} {bot} bot{'s' * (filled != 1)} took the free seats: the game starts")

    async def action_replay(self) -> None:
        """Watch the finished game's replay."""
        try:
            replay = await self.table.replay()
        except (TableError, ConnectionError):
            replay = None
        if replay is None:
            self.tell("the replay opens once the game is over")
            return
        from tui.replay_screen import ReplayScreen

        self.app.push_screen(ReplayScreen(replay, self.ui))

    def redraw(self) -> None:
        """Draw what this screen may see of the table now."""
        table = self.table
        seat, view = table.view_for(self)
        update_static(self.query_one("#st-head", Static), self._head_line(seat))
        update_static(self.query_one("#st-seats", Static), self._seats_line(seat, view))
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

    def _head_line(self, seat: int | None) -> Text:
        """The table's line: its code, the game, the players, the status, your seat and how many
        watch; the parts that do not fit the screen's width are shortened, then left out, from
        the least needed (the seats line below names every player)."""
        table = self.table
        where = f"you: seat {seat}" if seat is not None else "watching"
        short = f"seat {seat}" if seat is not None else "watching"
        watching = f"{len(table.spectators)} watching"
        room = max(self.size.width - 2, 20)
        players = f"{table.num_players} players"
        for sep, shown in (
            ("  ·  ", (table.title, players, table.status, where, watching)),
            (" · ", (table.title, players, table.status, where, watching)),
            (" · ", (table.title, f"{table.num_players}p", table.status, where, watching)),
            (" · ", (table.title, f"{table.num_players}p", table.status, short, watching)),
            (" · ", (f"{table.num_players}p", table.status, short, watching)),
        ):
            head = Text(f"Table {table.code}", style="bold")
            for part in shown:
                head.append(sep)
                head.append(part, style="dim" if part is watching else "")
            if head.cell_len <= room:
                return head
        return head

    def _notify(self, events: list[Any], view: Any) -> None:
        """Tell what this seat should not miss among the events since the last look (a
        Robbery's result, :meth:`tell`); what happened before the screen opened is not news."""
        if self._noticed is not None:
            for text in self.ui.notices(events, min(self._noticed, len(events)), view):
                self.notices.append(text)
                self.tell(text, result=True)
        self._noticed = len(events)

    def tell(self, text: str, *, result: bool = False) -> None:
        """Say ``text`` where the person looks: under the moves' title (the newest news since the
        person's last move) and in the log (``result``: it stands out there)."""
        self.tell_log(text, result=result)
        self._news.append(text)
        self._show_note()

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
        if not may_draw(self):
            return
        update_static(self.query_one("#st-seats", Static), self._seats_line(self._seat, self._view), same_size=True)
        self._show_note()

    def _show_note(self) -> None:
        """Under the moves: the news since your last move (:meth:`tell`), what the timer played
        for you, and your time left."""
        note = Text()
        news = [text for text in self._news[-1:] if text != self._forced_note]  # the log has them all
        if news:
            note.append(news[0], style="bold yellow")
        if self._forced_note:
            if note:
                note.append("\n")
            note.append(self._forced_note, style="bold yellow")
        deadline = self._deadlines().get(self._seat) if self._seat is not None else None
        if deadline is not None:
            left = seconds_left(deadline)
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
        self.tell_log(self._forced_note, result=True)

    def _seats_line(self, mine: int | None, view: Any) -> Text:
        table = self.table
        to_act = set(table.to_act())
        line = Text()
        room = max(self.size.width - 2, 20)  # the line's padding
        column = 0
        for seat in table.seats:
            who = table.names()[seat.index]
            label = f"{seat.index}:{who}"
            if view is not None and self.ui.seat_name(view, seat.index) != f"seat {seat.index}":
                label += f" [{self.ui.seat_name(view, seat.index)}]"  # a character's name
            style = "bold" if seat.index == mine else ""
            if seat.index in to_act:
                label = "▶ " + label
                deadline = table.deadline_of(seat.index)
                if deadline is not None:
                    label += f" ({seconds_left(deadline)}s)"
            if seat.status in ("away", "bot plays"):
                label += f" ({seat.status})"
            if line:  # a seat's label is never cut in two: the next line takes it whole
                column += 2 + cell_len(label)
                line.append("\n" if column > room else "  ")
                if column > room:
                    column = cell_len(label)
            else:
                column = cell_len(label)
            line.append(label, style=style)
        return line

    def _picker(self, picker: ActionPicker, seat: int | None, view: Any) -> None:
        table = self.table
        if table.is_over:
            key = ("over",)
            if key != self._choices_key:
                outcome = table.outcome
                assert outcome is not None
                won = headline(outcome, self._result_names(view), seat).rstrip("!.") + "."
                picker.wait(f"Game over. {won} Seed {table.seed_if_over()}.\ne: the result, r: replay, l: lobby")
                self._choices_key = key
            self._open_result()
            return
        legal = table.legal_for(self)  # type: ignore[arg-type]
        if legal:
            key = self._move_key(legal)
            if key != self._choices_key:
                choices = [
                    Choice(self.ui.describe_action(table.game, a, view), self.ui.group(a, view), a) for a in legal
                ]
                only = only_choice(choices) if auto_play_enabled(self.app) else None
                if only is not None:  # played for the person, as a pick (_chosen): nothing to wait for
                    picker.wait(f"Playing your only move: {only.label}")
                    if key != self._auto_played:  # once, however long the hall takes to answer
                        self._auto_played = key
                        self.tell_log(f"auto-played: {only.label}")
                        self.post_message(AutoPlayed(only.action, key))
                    self._choices_key = key
                    return
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
        self._chat_shown = show_chat(chat, list(self.table.chat), self._chat_shown)
        chat.set_class(not self._chat_shown, "-empty")  # no chat yet: its line alone, the log has the room

    @on(ActionPicker.Chosen)
    async def _chosen(self, event: ActionPicker.Chosen) -> None:
        event.stop()
        if isinstance(event, AutoPlayed) and event.key != self._move_key(self.table.legal_for(self)):
            return  # the decision changed before its only move was played: the redraw offers the new one
        mine = not isinstance(event, AutoPlayed)  # an only move played for the person is not theirs
        if event.action not in self.table.legal_for(self):
            self.tell("too late: the game has moved on")
        else:
            try:
                if mine:
                    self._news = []  # told before this move: the log keeps it
                await self.table.play(self, event.action)
                # Played: the hall answers after the state it changed, so what the mirror shows now
                # is the next decision, and an only move there is a new one to play, even with the
                # same key (the move count travels apart and may lag).
                self._auto_played = None
                if mine:
                    self._forced_note = None  # a move of your own: the timer's note has served
            except (TableError, engine.IllegalAction, ConnectionError) as exc:
                self.tell(f"not played: {exc}")
        if not may_draw(self):
            return
        self._choices_key = None
        self.redraw()

    @on(ChatLog.Resized)
    def _rewrap_chat(self, event: ChatLog.Resized) -> None:
        """The chat at its new width: every line written anew."""
        event.stop()
        chat = self.query_one("#st-chat", RichLog)
        chat.clear()
        self._chat_shown = show_chat(chat, list(self.table.chat), 0)

    @on(Input.Submitted, "#st-say")
    def _say(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.table.say(self, event.value)
        event.input.value = ""
        self._open_result()  # a game that ended while the person typed

    @on(events.DescendantBlur, "#st-say")
    def _left_the_chat_line(self) -> None:
        """Show the result of a game that ended while the person typed (now that they left the line)."""
        self.call_later(self._open_result)

    def action_chat_zoom(self) -> None:
        """``z`` on the empty chat line (:class:`ChatLine`) zooms the chat and its log to the whole
        screen, as ``z`` zooms the other regions (``Esc``: back to the moves); anywhere else, or
        once something is typed, ``z`` does what it does there (:meth:`check_action`)."""
        self.action_zoom()

    # Only moves, and the game over -------------------------------------------------------

    def _move_key(self, legal: list[Any]) -> tuple[Any, ...]:
        """The person's decision now, given its ``legal`` actions (what the moves were drawn for):
        the move count, the seat's events so far (they come with the legal actions, so two only
        moves in a row are two decisions even before the move count reaches the front) and the
        actions."""
        return ("move", self.table.num_moves, self.table.events_seen(self), tuple(legal))

    def action_auto_play(self) -> None:
        """Turn the playing of only moves on or off (:mod:`tui.widgets.only_move`), for the session."""
        on = not auto_play_enabled(self.app)
        set_auto_play(self.app, on)
        self.tell(f"auto-play only moves: {'on' if on else 'off'}")
        self._choices_key = self._auto_played = None  # an only move now: played at once (on) or offered (off)
        self.redraw()

    def _result_names(self, view: Any) -> list[str]:
        """Per seat, its player and character (:func:`tui.widgets.result.seat_label`)."""
        names = self.table.names()
        return [seat_label(self.ui.seat_name(view, s), s, names[s]) for s in range(len(names))]

    def _open_result(self) -> None:
        """Show the result once the game is over, as soon as nothing else is in the way: not while
        the person types in the chat line (a key typed would act in the result), nor over another
        screen (the help)."""
        if self._result_opened or not self.table.is_over or not self.is_mounted:
            return
        say = self.query("#st-say")
        if self.app.screen is not self or not say or say.first().has_focus:
            return
        self._result_opened = True
        self.action_result()

    def on_screen_resume(self) -> None:
        """Back on this screen (a help or a replay closed): the result of a game that ended meanwhile."""
        self.call_later(self._open_result)

    def action_result(self) -> None:
        """The finished game's result (:class:`tui.widgets.ResultScreen`): ``r`` its replay, ``l`` the
        lobby, Esc back to the table."""
        table = self.table
        outcome, seed = table.outcome, table.seed_if_over()
        if outcome is None or seed is None or self._view is None:
            return
        row = table.game_row
        where = f"replay #{row} (table {table.code}) · ssh ... replay {row} > FILE" if row is not None else None
        result = ResultScreen(
            table.title,
            outcome,
            self._result_names(self._view),
            seed,
            self._seat,
            self.ui.result_terms(self._view, outcome),
            replay_id=where or f"replay of table {table.code} · ssh ... replay {table.code} > FILE",
            choices=TABLE_CHOICES,
        )

        async def chosen(choice: str | None) -> None:
            if choice == "replay":
                await self.action_replay()
            elif choice == "lobby":
                self.action_leave()

        self.app.push_screen(result, chosen)
