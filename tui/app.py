"""The Saloon Textual app: a local table against bots, or the replay viewer.

Configured only through its constructor (no ``sys.argv``, no globals): a :class:`PlaySetup` for
a live game, or a :class:`replays.Replay` to watch.
"""

from __future__ import annotations

import io
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.app import App
from textual.widgets import OptionList, RichLog

from bots import Bot, make_bot
from replays import Replay, save
from tui.games import TABLES, ui_for
from tui.play_screen import PlayScreen
from tui.replay_screen import ReplayScreen
from tui.session import SPEEDS, LocalTable
from tui.widgets import ResultScreen

__all__ = ["PlaySetup", "SaloonApp", "screen_text"]


def _secure_seed() -> int:
    return secrets.randbelow(2**32)


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
    """

    game_id: str
    num_players: int
    seat: int | None = 0
    bots: Sequence[str | Bot] = ("random",)
    seed: int | None = None
    options: Any = None
    human_name: str = field(default="you")

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
        return LocalTable(self.game_id, self.num_players, self.seat, seated, seed, self.options, self.human_name)


class SaloonApp(App[None]):
    """Saloon in the terminal.

    Args:
        play: a game to play; exclusive with ``replay``.
        replay: a replay to watch.
        speed: the bots' pace: one of ``slow``, ``normal``, ``fast``, ``instant``.
        next_seed: where "play again" gets a new seed (default: the OS's secure random source).
        replay_dir: where "save the replay" writes.
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
        self.saved: list[Path] = []

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
        self.session = self.setup.make_table(seed)
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
        names = [f"{ui.seat_name(view, s)} ({p.name})" for s, p in enumerate(players)]

        def chosen(choice: str | None) -> None:
            if choice == "again":
                self.new_game(self.next_seed())
            elif choice == "replay":
                self.push_screen(ReplayScreen(session.replay(), ui))
            elif choice == "save":
                path = self.save_replay(session)
                self.notify(f"Replay saved: {path}", timeout=6)
            elif choice == "quit":
                self.exit()

        self.push_screen(ResultScreen(session.game.title, state.outcome, names, session.seed, session.seat), chosen)

    def save_replay(self, session: LocalTable) -> Path:
        """Save ``session``'s replay in :attr:`replay_dir`; returns the path."""
        self.replay_dir.mkdir(parents=True, exist_ok=True)
        path = self.replay_dir / f"{session.game.id}-{session.seed}.replay"
        save(session.replay(), path)
        self.saved.append(path)
        return path


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
