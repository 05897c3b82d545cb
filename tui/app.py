"""The Saloon Textual app: a local table against bots, or the replay viewer.

Configured only through its constructor (no ``sys.argv``, no globals): a :class:`PlaySetup` for
a live game, or a :class:`replays.Replay` to watch.

A local game is never lost: every finished game's replay is saved in the app's ``replay_dir``
when the result shows, Ctrl+Q during a game asks first (:class:`QuitScreen`), and a game left
unfinished is saved too (its replay has no outcome) when the person quits or, for any other way
out, when the caller runs :meth:`SaloonApp.wrap_up` after :meth:`~textual.app.App.run`.
"""

from __future__ import annotations

import io
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, OptionList, RichLog, Static

from bots import Bot, make_bot
from bots.external import ExternalBot
from lobby.local import SPEEDS, LocalTable
from replays import Replay, save
from tui.games import TABLES, ui_for
from tui.play_screen import PlayScreen
from tui.replay_screen import ReplayScreen
from tui.widgets import ResultScreen
from tui.widgets.result import seat_label

__all__ = ["PlaySetup", "PlayedGame", "QuitScreen", "SaloonApp", "screen_text"]


def _secure_seed() -> int:
    return secrets.randbelow(2**32)


@dataclass(frozen=True)
class PlayedGame:
    """What ``saloon play`` reports of a table once its bots are done with (the table itself, its
    state and its bots are dropped then, so a long session does not keep every game it played).

    Attributes:
        number: the table's number in the session, from 1.
        bot_names: by seat, each bot's name.
        faults: the bots' faults, as :attr:`lobby.local.LocalTable.faults` lists them.
        bot_logs: by seat, the file an external bot's standard error went to.
    """

    number: int
    bot_names: dict[int, str]
    faults: tuple[str, ...]
    bot_logs: dict[int, Path]

    @classmethod
    def of(cls, number: int, table: LocalTable) -> PlayedGame:
        """The report of ``table``, the session's ``number``-th."""
        names = {seat: str(getattr(bot, "name", "bot")) for seat, bot in table.bots.items()}
        return cls(number, names, tuple(table.faults), dict(table.bot_logs))


@dataclass(frozen=True)
class PlaySetup:
    """A local game to play.

    Attributes:
        game_id: a registered game id.
        num_players: the player count.
        seat: the person's seat (``None``: watch the bots).
        bots: one bot per other seat, in seat order: a bot name for :func:`bots.make_bot` (made
            with the seed ``seed * 1000 + seat``) or a :class:`bots.Bot`.
        seed: the game's seed; ``None`` draws one from the operating system's secure source.
        options: ``None``, a dict or the game's options struct.
        human_name: the person's name in the replay.
        bot_log_dir: where external bots' standard error goes, one file per game and seat
            (``GAME-YYYYmmdd-HHMMSS-seatN.stderr.log``; the directory is made when a game has an
            external bot); ``None``: discarded.
    """

    game_id: str
    num_players: int
    seat: int | None = 0
    bots: Sequence[str | Bot] = ("random",)
    seed: int | None = None
    options: Any = None
    human_name: str = field(default="you")
    bot_log_dir: Path | None = None

    def other_seats(self) -> list[int]:
        """The bots' seats, ascending."""
        return [s for s in range(self.num_players) if s != self.seat]

    def make_table(self, seed: int) -> LocalTable:
        """A new :class:`LocalTable` for this setup with ``seed``."""
        others = self.other_seats()
        specs = list(self.bots) if len(self.bots) != 1 else list(self.bots) * len(others)
        if len(specs) != len(others):
            raise ValueError(f"{len(specs)} bots given for {len(others)} bot seats")
        seated: dict[int, Bot] = {}
        for seat, spec in zip(others, specs, strict=True):
            seated[seat] = make_bot(spec, seed * 1000 + seat) if isinstance(spec, str) else spec
        table = LocalTable(self.game_id, self.num_players, self.seat, seated, seed, self.options, self.human_name)
        if self.bot_log_dir is not None:
            stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(table.started))
            for seat, bot in seated.items():
                if isinstance(bot, ExternalBot):
                    self.bot_log_dir.mkdir(parents=True, exist_ok=True)
                    bot.stderr_path = self.bot_log_dir / f"{self.game_id}-{stamp}-seat{seat}.stderr.log"
                    table.bot_logs[seat] = bot.stderr_path
        return table


class QuitScreen(ModalScreen[bool]):
    """Asks whether to abandon the game in progress; dismisses with ``True`` (quit) or ``False``.

    Keys: ``y`` (or Ctrl+Q again) quits, ``n`` or Esc goes back to the table.

    Args:
        replay_dir: where the unfinished game's replay will be saved (shown to the person);
            ``None`` when nothing has been played yet (nothing to save).
    """

    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen #quit-box { width: 70; max-width: 100%; height: auto; border: thick $warning;
        background: $surface; padding: 1 2; }
    QuitScreen #quit-buttons { height: auto; margin-top: 1; }
    QuitScreen Button { margin-right: 2; }
    """
    BINDINGS = [
        Binding("y", "answer(True)", "quit"),
        Binding("n,escape", "answer(False)", "keep playing"),
    ]

    def __init__(self, replay_dir: Path | None) -> None:
        super().__init__(id="quit")
        self._replay_dir = replay_dir

    def compose(self) -> ComposeResult:
        with Vertical(id="quit-box"):
            yield Static(Text("Quit? The game is not over.", style="bold"), id="quit-title")
            where = (
                "Nothing has been played yet."
                if self._replay_dir is None
                else f"Its replay (unfinished) will be saved in {self._replay_dir}"
            )
            yield Static(Text(where), id="quit-where")
            with Horizontal(id="quit-buttons"):
                yield Button("y  Quit", id="yes", variant="error")
                yield Button("n  Keep playing", id="no", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A button does what its key does."""
        self.dismiss(event.button.id == "yes")

    def action_answer(self, quit_game: bool) -> None:
        """Close with the answer."""
        self.dismiss(quit_game)


class SaloonApp(App[None]):
    """Saloon in the terminal.

    Args:
        play: a game to play; exclusive with ``replay``.
        replay: a replay to watch.
        speed: the bots' pace: one of ``slow``, ``normal``, ``fast``, ``instant``.
        next_seed: where "play again" gets a new seed (default: the OS's secure random source).
        replay_dir: where every finished or abandoned game's replay is saved (made when needed).

    Attributes:
        saved: every replay file saved, in order.
        sessions: the local tables whose bots are not done with yet (the last one is
            :attr:`session`); a table leaves this list for :attr:`played` once a new game replaced
            it and its bots are closed.
        played: the report of every table done with, in order.
    """

    TITLE = "Saloon"
    CSS_PATH = [Path(__file__).with_name("saloon.tcss"), *(ui.css_path for ui in TABLES.values() if ui.css_path)]

    def __init__(
        self,
        *,
        play: PlaySetup | None = None,
        replay: Replay | None = None,
        speed: str = "normal",
        next_seed: Callable[[], int] = _secure_seed,
        replay_dir: Path | str = ".",
    ) -> None:
        super().__init__()
        if (play is None) == (replay is None):
            raise ValueError("give exactly one of play= and replay=")
        if speed not in dict(SPEEDS):
            raise ValueError(f"unknown speed {speed!r}; use one of {', '.join(name for name, _ in SPEEDS)}")
        self.setup = play
        self.start_replay = replay
        self.speed = speed
        self.next_seed = next_seed
        self.replay_dir = Path(replay_dir)
        self.session: LocalTable | None = None
        self.sessions: list[LocalTable] = []
        self.played: list[PlayedGame] = []
        self.saved: list[Path] = []
        self._numbers: dict[int, int] = {}  # id(table) -> its number in the session
        self._tables_made = 0
        self._lock = threading.Lock()

    def on_mount(self) -> None:
        """Open the table or the replay."""
        if self.start_replay is not None:
            self.push_screen(ReplayScreen(self.start_replay, ui_for(self.start_replay.header.game)))
        else:
            assert self.setup is not None
            self.new_game(self.setup.seed if self.setup.seed is not None else self.next_seed())

    def new_game(self, seed: int) -> None:
        """Start a new game of the setup with ``seed`` (replacing the table shown)."""
        assert self.setup is not None
        self.setup = replace(self.setup, seed=seed)
        previous = self.session
        if previous is not None:
            self._save_if_played(previous)
            self._in_thread(self._retire, previous)
        self.session = self.setup.make_table(seed)
        with self._lock:
            self._tables_made += 1
            self._numbers[id(self.session)] = self._tables_made
            self.sessions.append(self.session)
        screen = PlayScreen(self.session, ui_for(self.setup.game_id), self.speed)
        if isinstance(self.screen, PlayScreen | ReplayScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    @property
    def play_screen(self) -> PlayScreen | None:
        """The live table's screen, if one is open."""
        return next((s for s in self.screen_stack if isinstance(s, PlayScreen)), None)

    def show_result(self, session: LocalTable) -> None:
        """The result screen for a finished game, and what the person chooses next."""
        state = session.state
        view = state.view(session.seat)
        ui = ui_for(session.game.id)
        players = session.recorder.header.players
        names = [seat_label(ui.seat_name(view, s), s, p.name) for s, p in enumerate(players)]
        if session.saved_to is None or not session.saved_to[1]:
            self._tell(f"Replay saved: {self.save_replay(session)}")
            self._in_thread(LocalTable.close_bots, session)

        def chosen(choice: str | None) -> None:
            if choice == "again":
                self.new_game(self.next_seed())
            elif choice == "replay":
                self.push_screen(ReplayScreen(session.replay(), ui))
            elif choice == "save":
                path = self.save_replay(session)
                self._tell(f"Replay saved: {path}")
            elif choice == "quit":
                self.leave()

        terms = ui.result_terms(view, state.outcome)
        result = ResultScreen(session.game.title, state.outcome, names, session.seed, session.seat, terms)
        self.push_screen(result, chosen)

    def _tell(self, text: str) -> None:
        """Say ``text`` at the table (its log and under its moves): no pop-up covers the result."""
        screen = self.play_screen
        if screen is not None:
            screen.tell(text)
        else:
            self.notify(text, timeout=6)

    def save_replay(self, session: LocalTable) -> Path:
        """Save ``session``'s replay in :attr:`replay_dir` and return the path.

        The name is ``GAME-YYYYmmdd-HHMMSS-seedS.replay`` (the table's start time; ``-unfinished``
        before ``.replay`` while the game is not over; ``-2``, ``-3``... if the name is taken).
        Saving the same game again in the same state returns the same path without writing.
        """
        over = session.state.is_over
        if session.saved_to is not None and session.saved_to[1] == over:
            return session.saved_to[0]
        self.replay_dir.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(session.started))
        stem = f"{session.game.id}-{stamp}-seed{session.seed}" + ("" if over else "-unfinished")
        path = self.replay_dir / f"{stem}.replay"
        number = 1
        while path.exists():
            number += 1
            path = self.replay_dir / f"{stem}-{number}.replay"
        save(session.replay(), path)
        session.saved_to = (path, over)
        self.saved.append(path)
        return path

    def game_in_progress(self) -> bool:
        """True while a live game is shown and not over (quitting then asks first)."""
        return self.session is not None and not self.session.state.is_over

    async def action_quit(self) -> None:
        """Ctrl+Q: quit, after asking if a game is in progress (Ctrl+Q on the question quits)."""
        if isinstance(self.screen, QuitScreen) or not self.game_in_progress():
            self.leave()
            return

        def answered(quit_game: bool | None) -> None:
            if quit_game:
                self.leave()

        assert self.session is not None
        self.push_screen(QuitScreen(self.replay_dir if self.session.recorder.num_moves else None), answered)

    def leave(self) -> None:
        """Save the game in progress (if any move was made) and exit the app."""
        if self.session is not None:
            self._save_if_played(self.session)
        self.exit()

    def wrap_up(self) -> list[Path]:
        """After the app has exited: save an unfinished game that was not saved yet (if any move
        was made) and stop every table's bots (external processes included). Safe to call more
        than once; returns :attr:`saved`."""
        for session in list(self.sessions):
            self._retire(session)
        return self.saved

    def _save_if_played(self, session: LocalTable) -> None:
        if session.saved_to is None and (session.recorder.num_moves > 0 or session.state.is_over):
            self.save_replay(session)

    def _in_thread(self, work: Callable[[LocalTable], object], table: LocalTable) -> None:
        """Run ``work(table)`` in a worker thread. Textual keeps a finished worker, and the work it
        ran, reachable for a while (through contexts that copied its ``active_worker``), so the work
        takes ``table`` from a one-item list it empties rather than holding it."""
        box = [table]
        self.run_worker(lambda: work(box.pop()), thread=True, group="close-bots")

    def _retire(self, session: LocalTable) -> None:
        """Save ``session`` if played, close its bots (blocks: run in a thread), and keep only its
        :class:`PlayedGame` report. Safe to call twice, from any thread."""
        self._save_if_played(session)
        session.close_bots()
        with self._lock:
            if session in self.sessions:
                self.sessions.remove(session)
                self.played.append(PlayedGame.of(self._numbers.pop(id(session)), session))
                self.played.sort(key=lambda game: game.number)


def screen_text(app: App[Any], everything: bool = True) -> str:
    """The text on ``app``'s screen now (no colour); with ``everything``, also all log lines and options.

    Scrolled-away log lines and options are part of what a person can see by scrolling, so the
    no-leak tests check them too.
    """
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, color_system=None, legacy_windows=False
    )
    console.print(app.screen._compositor.render_update(full=True))
    parts = [console.export_text()]
    if everything:
        for log in app.screen.query(RichLog):
            parts.extend(line.text for line in log.lines)
        for options in app.screen.query(OptionList):
            parts.extend(str(options.get_option_at_index(i).prompt) for i in range(options.option_count))
    return "\n".join(parts)
