"""What search costs per game: ``clone`` and ``resample`` times, IS-MCTS iterations per second,
and heuristic and random playouts per second (what a ``pimc`` search runs on).

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

__all__ = ["POSITION_EVERY", "heuristic_speed", "measure", "playouts_per_s", "positions"]

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


def playouts_per_s(sample: list[tuple[engine.State, int]], policy: str, seconds: float) -> float:
    """Playouts per CPU second (``time.process_time``) from the positions of ``sample``, in turn,
    each from a fresh ``resample`` of the position for its seat, to the end of the game.

    Args:
        sample: ``(state, seat)`` positions (:func:`positions`).
        policy: ``"heuristic"`` (the built-in heuristic bot for every seat, a ``view`` per decision
            with a choice) or ``"random"`` (uniform legal moves).
        seconds: CPU seconds to spend (at least one playout runs).
    """
    from bots.heuristic import HeuristicBot

    bot = HeuristicBot(1)
    rng = random.Random(0)
    done = 0
    started = time.process_time()
    while True:
        state, seat = sample[done % len(sample)]
        state = state.resample(seat, done)
        while not state.is_over:
            mover = state.to_act[0]
            legal = state.legal_actions(mover)
            if policy == "heuristic" and len(legal) > 1:
                action = bot.act(state.view(mover), legal, mover)
            else:
                action = legal[int(rng.random() * len(legal))]
            state.apply(mover, action)
        done += 1
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return done / elapsed


def heuristic_speed(game_id: str, players: int, seconds: float = 4.0, count: int = 12) -> dict[str, Any]:
    """What the ``heuristic`` bot costs inside a playout: CPU microseconds per decision with a
    choice, split into building the seat's ``view`` and the strategy's choice, and heuristic and
    random playouts per CPU second, from the same positions as :func:`measure`.

    The playouts are the ones :func:`playouts_per_s` runs (each a fresh ``resample`` of a position,
    played to the end by the heuristic for every seat), so two runs of the same code time the same
    decisions; ``seconds`` of CPU time are spent on the heuristic playouts, half as many on random.

    Returns:
        ``{"game", "players", "decisions", "view_us", "choose_us", "decision_us",
        "heuristic_playouts_per_s", "random_playouts_per_s"}``; ``decision_us`` is
        ``view_us + choose_us`` (means over every decision with more than one legal action).

    Raises:
        engine.UnknownGame, ValueError: an unknown game or player count.
    """
    from bots.heuristic import HeuristicBot

    game = engine.game(game_id)
    sample = positions(game, players, count)
    bot = HeuristicBot(1)
    clock = time.process_time
    view_s = choose_s = 0.0
    decisions = done = 0
    started = clock()
    while clock() - started < seconds or done == 0:
        state, seat = sample[done % len(sample)]
        state = state.resample(seat, done)
        while not state.is_over:
            mover = state.to_act[0]
            legal = state.legal_actions(mover)
            if len(legal) > 1:
                t0 = clock()
                view = state.view(mover)
                t1 = clock()
                action = bot.act(view, legal, mover)
                t2 = clock()
                view_s += t1 - t0
                choose_s += t2 - t1
                decisions += 1
            else:
                action = legal[0]
            state.apply(mover, action)
        done += 1
    elapsed = clock() - started
    view_us = view_s / max(1, decisions) * 1e6
    choose_us = choose_s / max(1, decisions) * 1e6
    return {
        "game": game.id,
        "players": players,
        "decisions": decisions,
        "view_us": round(view_us, 1),
        "choose_us": round(choose_us, 1),
        "decision_us": round(view_us + choose_us, 1),
        "heuristic_playouts_per_s": round(done / elapsed, 1),
        "random_playouts_per_s": round(playouts_per_s(sample, "random", seconds / 2), 1),
    }


def measure(game_id: str, players: int, seconds: float = 2.0, count: int = 20) -> dict[str, Any]:
    """Search costs of ``game_id`` at ``players``, spending about ``seconds`` in all.

    Returns:
        ``{"game", "players", "positions", "clone_us", "resample_us", "ismcts_iterations_per_s",
        "heuristic_playouts_per_s", "random_playouts_per_s"}``: medians over ``count`` positions of
        microseconds per ``clone`` and per ``resample``, and of IS-MCTS iterations per second of
        the default ``ismcts`` bot (random rollouts; its one heuristic call per decision, for the
        prior, is counted) within a time budget per position; then playouts to the end of the game
        per CPU second from those positions (:func:`playouts_per_s`), heuristic and random, each
        with the same budget again.

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
        "heuristic_playouts_per_s": round(playouts_per_s(sample, "heuristic", seconds), 1),
        "random_playouts_per_s": round(playouts_per_s(sample, "random", seconds), 1),
    }
