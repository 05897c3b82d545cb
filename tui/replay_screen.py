"""The replay viewer: the same table widgets as live play, stepped through a recorded game."""

from __future__ import annotations

from typing import Any

import msgspec
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer

import engine
from replays import Replay, ReplayCursor, printable
from tui.games import GameUI
from tui.widgets import GameLog, HelpScreen, ReplayControls

__all__ = ["ReplayScreen"]


def _printable_names(replay: Replay) -> Replay:
    """``replay`` with every player name through :func:`replays.printable` (the game is the same:
    names play no part in it); ``replay`` itself when every name is printable already."""
    players = replay.header.players
    cleaned = tuple(msgspec.structs.replace(p, name=printable(p.name)) for p in players)
    if cleaned == players:
        return replay
    return msgspec.structs.replace(replay, header=msgspec.structs.replace(replay.header, players=cleaned))


class ReplayScreen(Screen[None]):
    """Step through a replay from any seat's view, the spectator's or the omniscient one.

    Every viewer (``saloon replay``, a finished table, the lobby's recent games) opens here, so
    the player names, the only text of the file that is drawn (the game id, rules version and
    options must be the engine's own for the replay to verify), go through
    :func:`replays.printable` here once: a name cannot send escape sequences to the terminal.

    Args:
        replay: a decoded replay (it is verified on load: a replay that does not re-simulate
            raises :class:`replays.ReplayError`); :attr:`replay` is this replay with its player
            names printable.
        ui: the game's screen parts.
        pov: the first point of view (a seat, ``None`` for the spectator, ``engine.OMNISCIENT``);
            by default the first human's seat, else the omniscient view.
    """

    BINDINGS = [
        Binding("right,l", "step(1)", "forward", priority=True, show=False),
        Binding("left,h", "step(-1)", "back", priority=True, show=False),
        Binding("home", "jump('start')", "start", priority=True, show=False),
        Binding("end", "jump('end')", "end", priority=True, show=False),
        Binding("n", "turn(1)", "next turn", show=False),
        Binding("p", "turn(-1)", "prev turn", show=False),
        Binding("v", "pov", "point of view", show=False),
        Binding("question_mark", "help", "help"),
        Binding("q", "close", "close"),
    ]

    def __init__(self, replay: Replay, ui: GameUI, pov: int | None | str = "auto") -> None:
        super().__init__(classes="game-screen")
        replay = _printable_names(replay)
        self.replay = replay
        self.ui = ui.for_options(replay.header.options)
        self.cursor = ReplayCursor(replay)
        players = replay.header.players
        self.povs: list[int | None] = [*range(len(players)), None, engine.OMNISCIENT]
        if pov == "auto":
            humans = [seat for seat, p in enumerate(players) if p.kind == "human"]
            pov = humans[0] if humans else engine.OMNISCIENT
        self.pov: int | None = pov  # type: ignore[assignment]
        self.turn_marks = self._turn_marks()
        self._pov_drawn: int | None | str = "none yet"

    def compose(self) -> ComposeResult:
        yield self.ui.make_table()
        with Horizontal(id="bottom"):
            with Vertical(id="replay-side"):
                yield ReplayControls(id="controls")
            yield GameLog(id="log")
        yield Footer(compact=True)

    @property
    def names(self) -> list[str]:
        """Per seat, who played it."""
        return [p.name for p in self.replay.header.players]

    @property
    def position(self) -> int:
        """How many moves have been applied."""
        return self.cursor.position

    def on_mount(self) -> None:
        """Draw the start of the game."""
        self.redraw()

    def on_resize(self) -> None:
        """Small terminals get the compact layout."""
        self.set_class(self.size.height < 32, "compact")

    def _turn_marks(self) -> list[int]:
        """The positions at which a turn or stage starts (position 0 included)."""
        marks = [0]
        state = self.cursor.goto(0)
        seen = len(state.events(None))
        for k in range(1, len(self.cursor) + 1):
            state = self.cursor.goto(k)
            new = state.events(None, seen)
            seen += len(new)
            if any(self.ui.is_turn_start(e) for e in new):
                marks.append(k)
        self.cursor.goto(0)
        return marks

    def pov_name(self, view: Any) -> str:
        """The point of view in words."""
        if self.pov is None:
            return "spectator (public only)"
        if self.pov == engine.OMNISCIENT:
            return "omniscient (everything)"
        name = self.ui.seat_name(view, self.pov)
        if name == f"seat {self.pov}":  # a game whose seats have no other names (Wyatt Earp)
            return f"{name} ({self.names[self.pov]})"
        return f"{name} ({self.names[self.pov]}, seat {self.pov})"

    def _last_move(self) -> str:
        k = self.position
        if k == 0:
            return "Start of the game"
        seat, action = self.cursor.moves[k - 1]
        if self.pov not in (seat, engine.OMNISCIENT):
            # another seat's move, as this point of view saw it: the events it made public
            # (a discard, a card played); a choice nobody else sees stays hidden
            seen = len(self.cursor.goto(k - 1).events(self.pov))
            state = self.cursor.goto(k)
            view = state.view(self.pov)
            events = state.events(self.pov)
            describe = self.ui.event_describer(events, view)
            told = [text for event in events[seen:] if not self.ui.is_turn_start(event) and (text := describe(event))]
            if told:
                return "Last move: " + "; ".join(told)
            who = self.ui.seat_name(view, seat)
            return f"Last move: {who} chose (hidden from this point of view)"
        # described from the point of view just before the move: the mover's own view says
        # "your Safe", the omniscient one names the mover's Safes
        before = self.cursor.goto(k - 1).view(self.pov)
        self.cursor.goto(k)
        who = self.ui.seat_name(before, seat)
        return f"Last move: {who}: {self.ui.describe_action(self.cursor.game, action, before, seat)}"

    def redraw(self) -> None:
        """Show the state at the cursor from the point of view."""
        last = self._last_move()
        state = self.cursor.state
        view = state.view(self.pov)
        events = state.events(self.pov)
        self.query_one(".table").show(view, events, self.names)  # type: ignore[attr-defined]
        rewrite = self._pov_drawn != self.pov
        self._pov_drawn = self.pov
        self.query_one(GameLog).show(events, self.ui.event_describer(events, view), rewrite=rewrite)
        self.query_one(ReplayControls).show(self.position, len(self.cursor), self.pov_name(view), last)

    def action_step(self, delta: int) -> None:
        """Step ``delta`` moves (clamped to the game)."""
        target = min(max(self.position + delta, 0), len(self.cursor))
        if target != self.position:
            self.cursor.goto(target)
            self.redraw()

    def action_jump(self, where: str) -> None:
        """Jump to the ``"start"`` or the ``"end"``."""
        self.cursor.goto(0 if where == "start" else len(self.cursor))
        self.redraw()

    def action_turn(self, direction: int) -> None:
        """Jump to the next (``1``) or previous (``-1``) start of a turn or stage."""
        if direction > 0:
            target = next((m for m in self.turn_marks if m > self.position), len(self.cursor))
        else:
            target = next((m for m in reversed(self.turn_marks) if m < self.position), 0)
        self.cursor.goto(target)
        self.redraw()

    def action_pov(self) -> None:
        """Switch to the next point of view: each seat, the spectator, the omniscient view."""
        self.pov = self.povs[(self.povs.index(self.pov) + 1) % len(self.povs)]
        self.redraw()

    def action_help(self) -> None:
        """Open the rules help."""
        game = self.cursor.game
        self.app.push_screen(HelpScreen(game.title, game.rules_help(), self.ui.legend))

    def action_close(self) -> None:
        """Leave the replay (back to the table it came from, or quit)."""
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()
