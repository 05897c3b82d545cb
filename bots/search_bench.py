"""What search costs per game: ``clone`` and ``resample`` times and IS-MCTS iterations per second.

``saloon bench --search`` prints these (see :func:`measure`). Positions are taken from seeded
random games (every :data:`POSITION_EVERY`-th decision), so the figures are comparable across runs
and machines; each figure is the median over the positions.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import engine
from bots.ismcts import IsmctsBot

__all__ = ["POSITION_EVERY", "measure", "positions"]

POSITION_EVERY = 10
"""Take a position every this many decisions of a random game."""


def positions(game: engine.Game, players: int, count: int, seed: int = 0) -> list[tuple[engine.State, int]]:
    """``count`` mid-game ``(state, seat to act)`` pairs from seeded random games of ``players``."""
    found: list[tuple[engine.State, int]] = []
    rng = random.Random(seed)
    game_seed = seed
    while len(found) < count:
        state = game.new_game(players, game_seed)
        game_seed += 1
        decisions = 0
        while not state.is_over and len(found) < count:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            if decisions % POSITION_EVERY == POSITION_EVERY - 1 and len(legal) > 1:
                found.append((state.clone(), seat))
            state.apply(seat, legal[rng.randrange(len(legal))])
            decisions += 1
    return found


def _per_call_us(fn: Any, repeat: int) -> float:
    started = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - started) / repeat * 1e6


def measure(game_id: str, players: int, seconds: float = 2.0, count: int = 20) -> dict[str, Any]:
    """Search costs of ``game_id`` at ``players``, spending about ``seconds`` in all.

    Returns:
        ``{"game", "players", "positions", "clone_us", "resample_us", "ismcts_iterations_per_s"}``:
        medians over ``count`` positions of microseconds per ``clone`` and per ``resample``, and of
        IS-MCTS iterations per second of the default ``ismcts`` bot (random rollouts; its one heuristic
        call per decision, for the prior, is counted) within a time budget per position.

    Raises:
        engine.UnknownGame, ValueError: an unknown game or player count.
    """
    game = engine.game(game_id)
    sample = positions(game, players, count)
    clones = [_per_call_us(state.clone, 20) for state, _ in sample]
    resamples = [_per_call_us(lambda s=state, k=seat: s.resample(k, 1), 20) for state, seat in sample]
    budget_ms = max(1, int(seconds * 1000 / len(sample)))
    rates: list[float] = []
    for state, seat in sample:
        bot = IsmctsBot(ms=budget_ms, seed=0)
        bot.act_with_sampler(
            state.view(seat), state.legal_actions(seat), seat, lambda k, s=state, t=seat: s.resample(t, k)
        )
        if bot.last_seconds > 0:
            rates.append(bot.last_iterations / bot.last_seconds)
    return {
        "game": game.id,
        "players": players,
        "positions": len(sample),
        "clone_us": round(statistics.median(clones), 1),
        "resample_us": round(statistics.median(resamples), 1),
        "ismcts_iterations_per_s": round(statistics.median(rates), 1) if rates else 0.0,
    }
