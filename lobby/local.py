"""A local table (``saloon play``): the engine state, who sits in each seat, and the loop that lets the bots play.

The table holds no rules. It asks the engine who is to act (``state.to_act``), what they may do
(``state.legal_actions``) and applies their choices (``state.apply``, through a
:class:`replays.Recorder` so the finished game can be saved as a replay).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import engine
from bots import Bot, workers
from replays import Player, Recorder, Replay

__all__ = ["SPEEDS", "LocalTable", "user_data_dir"]

SPEEDS: tuple[tuple[str, float], ...] = (("slow", 1.5), ("normal", 0.6), ("fast", 0.2), ("instant", 0.0))
"""The bot pacing settings: a name and the pause before each bot move, in seconds."""


def user_data_dir() -> Path:
    """Saloon's directory in the user's data directory (XDG): ``$XDG_DATA_HOME/saloon``, or
    ``~/.local/share/saloon`` when ``XDG_DATA_HOME`` is unset, empty or not an absolute path
    (as the XDG Base Directory specification says). Nothing is created. A local table's replays
    go under ``replays/`` there, bots' logs under ``logs/``."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "saloon"


class LocalTable:
    """One game at a local table: a person in one seat (or none, to watch) and bots in the others.

    Args:
        game_id: a registered game id.
        num_players: the player count.
        seat: the person's seat, or ``None`` to watch bots play (the spectator's view).
        bots: a bot for every other seat, by seat.
        seed: the game's seed (kept secret from the screen until the game is over).
        options: ``None``, a dict or the game's options struct.
        human_name: the person's name in the replay.

    Attributes:
        recorder: records every move; its ``state`` is the live game.
        delay: the pause before each visible bot move, in seconds (0: instant).
        faults: one line per bot fault: a move that was not legal or a bot that raised
            (``legal_actions[0]`` was played instead), or a ``start``/``end`` hook that raised;
            each line names the seat (``seat N``). They go into the replay's fault log.
        bot_logs: by seat, the file an external bot's standard error is appended to (set by
            whoever made the bots; empty: none).
        started: when the table was made (``time.time()``), for file names.
        saved_to: where the replay was last saved (``None``: not yet), and whether the game was
            over then; set by the app.
    """

    def __init__(
        self,
        game_id: str,
        num_players: int,
        seat: int | None,
        bots: Mapping[int, Bot],
        seed: int,
        options: Any = None,
        human_name: str = "you",
    ) -> None:
        expected = {s for s in range(num_players) if s != seat}
        if set(bots) != expected:
            raise ValueError(f"bots must fill exactly the seats {sorted(expected)}, not {sorted(bots)}")
        players = [
            Player(human_name, "human") if s == seat else Player(getattr(bots[s], "name", "bot"), "bot")
            for s in range(num_players)
        ]
        self.recorder = Recorder(game_id, num_players, seed, options, players)
        self.game: engine.Game = self.recorder.game
        self.seat = seat
        self.bots = dict(bots)
        self.seed = seed
        self.options = options
        self.num_players = num_players
        self.delay = 0.0
        self.faults: list[str] = []
        self.bot_logs: dict[int, Path] = {}
        self.started = time.time()
        self.saved_to: tuple[Path, bool] | None = None
        self._bots_started = False
        self._bots_closed = False
        self._closing = threading.Lock()

    @property
    def state(self) -> engine.State:
        """The live game state (read only: moves go through :meth:`play` and :meth:`run_bots`)."""
        return self.recorder.state

    @property
    def viewer(self) -> int | None:
        """Whose view the screen shows: the person's seat, or ``None`` (spectator)."""
        return self.seat

    def view(self) -> Any:
        """The person's view of the game."""
        return self.state.view(self.seat)

    def events(self, since: int = 0) -> list[Any]:
        """What the person may know happened, from the ``since``-th event on."""
        return self.state.events(self.seat, since)

    def human_to_act(self) -> bool:
        """True when the game waits for the person."""
        return self.seat is not None and self.seat in self.state.to_act

    def legal_actions(self) -> list[Any]:
        """The person's legal actions now (empty when the person owes nothing)."""
        return self.state.legal_actions(self.seat) if self.human_to_act() else []

    def next_bot(self) -> int | None:
        """The first bot seat that owes a decision, or ``None``."""
        return next((s for s in self.state.to_act if s != self.seat), None)

    def play(self, action: Any) -> None:
        """Play the person's ``action``; raises :class:`engine.IllegalAction` if it is not legal."""
        if self.seat is None:
            raise engine.IllegalAction("a spectator cannot play")
        self.recorder.apply(self.seat, action)

    def play_bot(self, seat: int, action: Any) -> None:
        """Play ``action`` for the bot in ``seat``; a move that is not legal becomes the first legal one."""
        legal = self.state.legal_actions(seat)
        try:
            action = legal[engine.legal_index(action, legal)]
        except engine.IllegalAction:
            self.faults.append(f"move {self.recorder.num_moves + 1}: seat {seat}: not a legal action: {action!r:.200}")
            action = legal[0]
        self.recorder.apply(seat, action)

    async def run_bots(self, on_move: Callable[[int, bool], None]) -> None:
        """Let the bots play until the game waits for the person or is over.

        Each bot thinks in a thread, a search bot in a worker process (:mod:`bots.workers`).
        Before each move that others can watch there is a pause of
        :attr:`delay` seconds (read anew before every move, so the speed can change mid-game);
        hidden simultaneous choices (several seats to act) are made without a pause.

        Args:
            on_move: called after each bot move with the seat and whether the move was paced.
        """
        if not self._bots_started:
            await asyncio.to_thread(self.start_bots)
        while not self.state.is_over:
            seat = self.next_bot()
            if seat is None:
                return
            paced = self.delay > 0 and len(self.state.to_act) == 1
            if paced:
                await asyncio.sleep(self.delay)
            view = self.state.view(seat)
            legal = self.state.legal_actions(seat)
            bot = self.bots[seat]
            try:
                if workers.is_search_bot(bot, self.state):  # a search: in a worker process, not a thread
                    choice, self.bots[seat] = await workers.decide(bot, self.state, seat)
                    action = legal[choice]
                else:
                    action = await asyncio.to_thread(bot.act, view, legal, seat)
            except Exception as exc:  # a bot is outside code: any failure is its fault, not the table's
                move = self.recorder.num_moves + 1
                self.faults.append(f"move {move}: seat {seat}: the bot raised {type(exc).__name__}: {exc}")
                action = legal[0]
            self.play_bot(seat, action)
            on_move(seat, paced)

    def start_bots(self) -> None:
        """Call each bot's ``start(game_id, seat, players, options)`` hook, once (an external bot
        starts its process and gets the ``start`` message). A hook that raises is a fault."""
        if self._bots_started:
            return
        self._bots_started = True
        options = engine.parse_options(self.game.options_type, self.options)
        for seat, bot in sorted(self.bots.items()):
            start = getattr(bot, "start", None)
            if callable(start):
                try:
                    start(self.game.id, seat, self.num_players, options)
                except Exception as exc:  # outside code
                    self.faults.append(f"start: seat {seat}: the bot raised {type(exc).__name__}: {exc}")

    def close_bots(self) -> None:
        """Done with the bots, once: a finished game calls each bot's ``end(outcome)`` hook, an
        unfinished one its ``close()`` (an external bot's process is stopped either way). Blocks
        up to about half a second per external bot; a hook that raises is logged in :attr:`faults`.
        Safe to call from several threads: the first call does the work, the others wait for it."""
        with self._closing:
            if self._bots_closed:
                return
            self._bots_closed = True
            self._close_bots()

    def _close_bots(self) -> None:
        over = self.state.is_over
        for seat, bot in sorted(self.bots.items()):
            hook = getattr(bot, "end" if over else "close", None)
            if not callable(hook):
                continue
            try:
                if over:
                    hook(self.state.outcome)
                else:
                    hook()
            except Exception as exc:  # outside code
                self.faults.append(f"end: seat {seat}: the bot raised {type(exc).__name__}: {exc}")
        for bot in self.bots.values():  # whatever end() left running
            close = getattr(bot, "close", None)
            if over and callable(close):
                with contextlib.suppress(Exception):
                    close()

    def replay(self) -> Replay:
        """The game so far as a replay (with its outcome once it is over, and the fault log)."""
        return self.recorder.replay(self.faults)

    def describe(self, action: Any) -> str:
        """``action`` in words, as the person sees the game."""
        return self.game.describe(action, self.view())
