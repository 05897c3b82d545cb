"""The live table: one person and bots playing a game, through a :class:`lobby.local.LocalTable`."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer

from lobby.local import SPEEDS, LocalTable
from tui.games import GameUI
from tui.widgets import REGION_BINDINGS, ActionPicker, Choice, GameLog, HelpScreen, Regions
from tui.widgets.only_move import AutoPlayed, auto_play_enabled, only_choice, set_auto_play

__all__ = ["PlayScreen"]


class PlayScreen(Regions):
    """A game in progress: the game's table widget, the action picker and the log.

    The game waits for the person and never for a bot: whenever bots owe decisions they play
    (paced by the speed setting) until the person is to act or the game is over. Results the
    person should not miss while the bots play on (the game's :meth:`GameUI.notices`) are
    written in the log, where they stand out, and under the moves' title until the person's
    next move (no pop-up covers the moves); they are kept in :attr:`notices`. The keys that
    reach the board, the log and the moves are :class:`tui.widgets.Regions`'. A decision with a
    single choice is played at once, as if picked, and the log says so (``o`` turns this off and
    on: :mod:`tui.widgets.only_move`).

    Args:
        table: the local table (state, seats, bots).
        ui: the game's screen parts.
        speed: the name of a bot speed in :data:`lobby.local.SPEEDS`.
    """

    BINDINGS = [
        *REGION_BINDINGS,
        Binding("question_mark", "help", "help"),
        Binding("s", "speed", "speed"),
        Binding("r", "result", "result", show=False),
        Binding("o", "auto_play", "auto-play only moves", show=False),
        Binding("ctrl+q", "app.quit", "quit"),
    ]

    def __init__(self, table: LocalTable, ui: GameUI, speed: str = "normal") -> None:
        super().__init__(classes="game-screen")
        self.session = table
        self.ui = ui.for_options(table.options)
        self.speed = speed
        self.session.delay = dict(SPEEDS)[speed]
        self.bots_running = False
        self._result_shown = False
        self.notices: list[str] = []
        self._noticed = 0
        self._news: list[str] = []  # shown under the moves' title until the person's next move
        self._auto_played: Any = None  # the decision whose only move was last played for the person

    def compose(self) -> ComposeResult:
        with Vertical(id="main"):
            yield self.ui.make_table()
            with Horizontal(id="bottom"):
                yield ActionPicker(id="picker")
                yield GameLog(id="log")
        yield Footer(compact=True, show_command_palette=False)

    @property
    def names(self) -> list[str]:
        """Per seat, who plays it (``"you"``, a bot's name)."""
        return [p.name for p in self.session.recorder.header.players]

    def on_mount(self) -> None:
        """Draw the table and let the bots start."""
        self.query_one(ActionPicker).options.focus()
        self.redraw()
        self.start_bots()

    def on_resize(self) -> None:
        """Small terminals get the compact layout (no borders)."""
        self.set_class(self.size.height < 32, "compact")

    def redraw(self) -> None:
        """Show the person's view, the new events and what the person may do now."""
        session = self.session
        view = session.view()
        events = session.events()
        self.query_one(".table").show(view, events, self.names)  # type: ignore[attr-defined]
        self.query_one(GameLog).show(events, self.ui.event_describer(events, view))
        self._notify(events, view)
        picker = self.query_one(ActionPicker)
        state = session.state
        if state.is_over:
            picker.wait("Game over.  r: result, a new game or the replay   ?: help")
            self._show_result()
        elif session.human_to_act() and not self.bots_running:
            choices = [
                Choice(self.ui.describe_action(session.game, a, view), self.ui.group(a, view), a)
                for a in session.legal_actions()
            ]
            only = only_choice(choices) if auto_play_enabled(self.app) else None
            if only is None:
                picker.set_choices("Your move", choices)
            else:  # played for the person, as a pick (_chosen): nothing to wait for
                picker.wait(f"Playing your only move: {only.label}")
                key = self._decision()
                if key != self._auto_played:
                    self._auto_played = key
                    self.tell_log(f"auto-played: {only.label}")
                    self.post_message(AutoPlayed(only.action, key))
        else:
            waiting = [self.ui.seat_name(view, s) for s in state.to_act if s != session.seat]
            picker.wait("Waiting for " + (", ".join(waiting) if waiting else "the bots") + " …")

    def _notify(self, events: list[Any], view: Any) -> None:
        """Tell the notices among the events not seen yet (:meth:`tell`)."""
        for text in self.ui.notices(events, min(self._noticed, len(events)), view):
            self.notices.append(text)
            self.tell(text, result=True)
        self._noticed = len(events)

    def tell(self, text: str, *, result: bool = False) -> None:
        """Say ``text`` where the person looks: under the moves' title (the newest news since the
        person's last move) and in the log (``result``: it stands out there)."""
        self.tell_log(text, result=result)
        self._news.append(text)
        self._show_news()

    def _show_news(self) -> None:
        news = self._news[-1:]  # the newest: the log has them all
        self.query_one(ActionPicker).note(Text(news[0], style="bold yellow") if news else None)

    def start_bots(self) -> None:
        """Let the bots play (in a worker) until the person is to act or the game is over."""
        if self.session.next_bot() is None or self.session.state.is_over:
            return
        self.bots_running = True
        self.run_worker(self._run_bots(), exclusive=True, group="bots")

    async def _run_bots(self) -> None:
        def moved(seat: int, paced: bool) -> None:
            if paced:
                self.redraw()

        self.redraw()
        try:
            await self.session.run_bots(moved)
        finally:
            self.bots_running = False
        self.redraw()

    def _decision(self) -> tuple[int, tuple[Any, ...]]:
        """The person's decision now: the moves played so far and the legal actions."""
        return (self.session.recorder.num_moves, tuple(self.session.legal_actions()))

    @on(ActionPicker.Chosen)
    def _chosen(self, event: ActionPicker.Chosen) -> None:
        if self.bots_running or not self.session.human_to_act():
            return
        if isinstance(event, AutoPlayed):
            if event.key != self._decision():
                return  # another decision by now: the redraw offers it
        else:  # the person's own move: what was told before it has served (the log keeps it)
            self._news = []
            self._show_news()
        self.session.play(event.action)
        self.redraw()
        self.start_bots()

    def _show_result(self) -> None:
        if self._result_shown:
            return
        self._result_shown = True
        self.app.call_later(self.action_result)

    def action_result(self) -> None:
        """Show the result (once the game is over)."""
        if self.session.state.is_over:
            self.app.show_result(self.session)  # type: ignore[attr-defined]

    def action_help(self) -> None:
        """Open the rules help."""
        game = self.session.game
        self.app.push_screen(HelpScreen(game.title, game.rules_help(), self.ui.legend))

    def action_auto_play(self) -> None:
        """Turn the playing of only moves on or off (:mod:`tui.widgets.only_move`)."""
        on = not auto_play_enabled(self.app)
        set_auto_play(self.app, on)
        self.tell(f"auto-play only moves: {'on' if on else 'off'}")
        self._auto_played = None
        self.redraw()

    def action_speed(self) -> None:
        """Cycle the bot speed: slow, normal, fast, instant."""
        names = [name for name, _ in SPEEDS]
        self.speed = names[(names.index(self.speed) + 1) % len(names)]
        self.session.delay = dict(SPEEDS)[self.speed]
        self.tell(f"Bot speed: {self.speed}")

    def choose(self, action: Any) -> None:
        """Play ``action`` as if picked (for tests and scripts)."""
        self.post_message(ActionPicker.Chosen(action))
