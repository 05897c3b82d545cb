"""Playing a whole game between bots, recorded as a replay."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

import msgspec

import engine
from bots.base import Bot
from replays import Player, Recorder, Replay

__all__ = ["MAX_DECISIONS", "GameResult", "TimedBot", "play_game", "random_playout"]

MAX_DECISIONS = 100_000
"""The default bound on decisions in one game: far beyond any real game, it only catches loops."""


class GameResult(msgspec.Struct, frozen=True):
    """A finished game between bots.

    Attributes:
        replay: the game's replay (with its outcome and, as its fault log, ``fault_log``).
        outcome: the game's outcome.
        faults: per seat, how many times the bot raised or returned an action that was not legal
            (each time ``legal_actions[0]`` was played instead).
        fault_log: one line per fault: move number, seat and what went wrong.
        decisions: the number of moves in the game.
    """

    replay: Replay
    outcome: engine.Outcome
    faults: tuple[int, ...]
    fault_log: tuple[str, ...]
    decisions: int


class TimedBot:
    """A bot wrapped to measure its decisions, for :func:`play_game` or any other runner.

    Every call of :meth:`act`, or of ``act_with_sampler`` when the wrapped bot has that hook, adds
    one to :attr:`decisions` and its CPU time to :attr:`cpu`, including calls that raise. The other
    attributes (``start``, ``end``, ``close``, ...) are the wrapped bot's, so a runner sees the same
    optional hooks. CPU time is ``time.process_time()`` of the calling process: it excludes the
    CPU of other processes, such as an external bot's (``cmd:...``), which it only spends waiting.

    Args:
        bot: the bot to measure.

    Attributes:
        bot: the wrapped bot.
        name: the wrapped bot's ``name``.
        cpu: CPU seconds spent in its decisions so far.
        decisions: the number of its decisions so far.
    """

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.cpu = 0.0
        self.decisions = 0
        if callable(getattr(bot, "act_with_sampler", None)):
            self.act_with_sampler = self._act_with_sampler

    def __getattr__(self, attr: str) -> Any:
        # only reached for attributes not set above: the wrapped bot's hooks and other attributes
        if attr == "bot":  # not set yet (a copy being built): no recursion
            raise AttributeError(attr)
        return getattr(self.bot, attr)

    def act(self, view: Any, legal_actions: list[Any], seat: int) -> Any:
        """The wrapped bot's ``act``, timed."""
        started = time.process_time()
        try:
            return self.bot.act(view, legal_actions, seat)
        finally:
            self.cpu += time.process_time() - started
            self.decisions += 1

    def _act_with_sampler(self, view: Any, legal_actions: list[Any], seat: int, sample: Any) -> Any:
        started = time.process_time()
        try:
            return self.bot.act_with_sampler(view, legal_actions, seat, sample)  # type: ignore[attr-defined]
        finally:
            self.cpu += time.process_time() - started
            self.decisions += 1


def play_game(
    game_id: str,
    num_players: int,
    bots: Sequence[Bot],
    seed: int,
    options: Any = None,
    players: Sequence[Player] | None = None,
    max_decisions: int = MAX_DECISIONS,
) -> GameResult:
    """Play one game to the end between ``bots`` (one per seat), recording it.

    While the game is not over, each seat in ``state.to_act`` (ascending) is asked
    ``bot.act(state.view(seat), legal_actions, seat)``, or, for a bot with the optional search
    hook, ``bot.act_with_sampler(view, legal_actions, seat, sample)`` where ``sample(seed)`` is
    ``state.resample(seat, seed)`` (see :class:`bots.Bot`). A bot that raises or answers with anything
    but one of the legal actions gets ``legal_actions[0]`` played for it and a fault counted.

    Optional hooks: a bot with a ``start(game_id, seat, num_players, options)`` method has it
    called before the first move (options parsed into the game's options Struct; raising is a
    fault), one with ``end(outcome)`` has it called after the last move (raising is logged), and
    if the game is abandoned by an exception, ``close()`` is called on the bots that have one.

    Args:
        game_id: a registered game id.
        num_players: the player count; ``len(bots)`` must equal it.
        bots: one bot per seat, seat order.
        seed: the game's seed.
        options: ``None``, a dict or the game's options struct.
        players: the replay's players; by default each seat is a ``"bot"`` named after its bot.
        max_decisions: give up after this many moves.

    Returns:
        A :class:`GameResult`.

    Raises:
        engine.UnknownGame: ``game_id`` is not registered.
        engine.InvalidOptions: unknown options or bad values.
        ValueError: a bad player count, or the wrong number of bots or players.
        RuntimeError: the game did not end within ``max_decisions`` moves, or no seat is to act
            in a game that is not over (the message gives the seed).
    """
    if len(bots) != num_players:
        raise ValueError(f"{len(bots)} bots given for a {num_players}-player game")
    if players is None:
        players = [Player(str(getattr(bot, "name", type(bot).__name__)), "bot") for bot in bots]
    recorder = Recorder(game_id, num_players, seed, options, players)
    state = recorder.state
    faults = [0] * num_players
    fault_log: list[str] = []
    try:
        _play(game_id, num_players, bots, seed, options, max_decisions, recorder, faults, fault_log)
    except BaseException:
        for bot in bots:
            close = getattr(bot, "close", None)
            if callable(close):
                close()
        raise
    for seat, bot in enumerate(bots):
        end = getattr(bot, "end", None)
        if callable(end):
            try:
                end(state.outcome)
            except Exception as exc:  # a bot's bug must not lose the game
                fault_log.append(f"end: seat {seat}: the bot raised {type(exc).__name__}: {exc}")
    return GameResult(
        replay=recorder.replay(fault_log),
        outcome=state.outcome,
        faults=tuple(faults),
        fault_log=tuple(fault_log),
        decisions=recorder.num_moves,
    )


def _play(
    game_id: str,
    num_players: int,
    bots: Sequence[Bot],
    seed: int,
    options: Any,
    max_decisions: int,
    recorder: Recorder,
    faults: list[int],
    fault_log: list[str],
) -> None:
    """The move loop of :func:`play_game` (with the bots' ``start`` hooks)."""
    state = recorder.state
    if any(callable(getattr(bot, "start", None)) for bot in bots):
        parsed = engine.parse_options(engine.game(game_id).options_type, options)
        for seat, bot in enumerate(bots):
            start = getattr(bot, "start", None)
            if callable(start):
                try:
                    start(game_id, seat, num_players, parsed)
                except Exception as exc:
                    faults[seat] += 1
                    fault_log.append(f"start: seat {seat}: the bot raised {type(exc).__name__}: {exc}")
    while not state.is_over:
        to_act = state.to_act
        if not to_act:
            raise RuntimeError(f"{game_id} seed {seed}: no seat is to act, but the game is not over")
        for seat in to_act:
            if seat not in state.to_act:
                continue
            legal = state.legal_actions(seat)
            move = recorder.num_moves + 1
            index = 0
            bot = bots[seat]
            search = getattr(bot, "act_with_sampler", None)
            try:
                if callable(search) and callable(getattr(state, "resample", None)):
                    action = search(state.view(seat), list(legal), seat, _sampler(state, seat))
                else:
                    action = bot.act(state.view(seat), list(legal), seat)
            except Exception as exc:  # a bot's bug must not end the game
                faults[seat] += 1
                fault_log.append(f"move {move}: seat {seat}: the bot raised {type(exc).__name__}: {exc}")
            else:
                try:
                    index = engine.legal_index(action, legal)
                except engine.IllegalAction:
                    faults[seat] += 1
                    fault_log.append(f"move {move}: seat {seat}: not a legal action: {action!r:.200}")
            recorder.apply_index(seat, index)
            if recorder.num_moves >= max_decisions:
                raise RuntimeError(f"{game_id} seed {seed}: no end after {max_decisions} decisions")


def _sampler(state: Any, seat: int) -> Any:
    """The ``sample(seed) -> State`` given to a bot's ``act_with_sampler`` (see :class:`bots.Bot`):
    determinizations of the live ``state`` for ``seat``, each a new state the bot owns."""

    def sample(seed: int) -> Any:
        return state.resample(seat, seed)

    return sample


def random_playout(game: engine.Game, num_players: int, seed: int, max_decisions: int = MAX_DECISIONS) -> int:
    """Play one game with uniformly random legal actions, as fast as possible (no views, no replay).

    The random choices come from ``random.Random(seed)``; the game is seeded with ``seed`` too.
    Used to measure engine throughput.

    Args:
        game: the game.
        num_players: the player count.
        seed: the seed of the game and of the choices.
        max_decisions: give up after this many moves.

    Returns:
        The number of decisions (moves) in the game.

    Raises:
        ValueError: a bad player count.
        RuntimeError: the game did not end within ``max_decisions`` moves.
    """
    state = game.new_game(num_players, seed)
    choose = random.Random(seed).randrange
    decisions = 0
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[choose(len(legal))])
        decisions += 1
        if decisions >= max_decisions:
            raise RuntimeError(f"{game.id} seed {seed}: no end after {max_decisions} decisions")
    return decisions
