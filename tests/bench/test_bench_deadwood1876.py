"""Engine throughput for Deadwood 1876: one full random playout per round.

A normal test run executes each benchmark once, untimed; measure with
``pytest tests/bench --benchmark-enable``.
"""

from __future__ import annotations

import pytest

import engine
from bots import random_playout


@pytest.mark.bench
@pytest.mark.parametrize("players", [4, 5, 7])
def test_random_playout(benchmark, players):
    game = engine.game("deadwood1876")
    decisions = benchmark(random_playout, game, players, 1)
    assert decisions > 0
    benchmark.extra_info["decisions_per_game"] = decisions


def _midgame(players: int, seed: int = 3, decisions: int = 120) -> engine.State:
    """A 5-player game after ``decisions`` random decisions (past the first reshuffle, Heist and
    Stetson views, so the resample has knowledge to keep)."""
    import random

    state = engine.game("deadwood1876").new_game(players, seed)
    choose = random.Random(seed)
    for _ in range(decisions):
        seat = choose.choice(state.to_act)
        legal = state.legal_actions(seat)
        state.apply(seat, legal[choose.randrange(len(legal))])
    assert not state.is_over
    return state


@pytest.mark.bench
def test_clone_5_players(benchmark):
    state = _midgame(5)
    copy = benchmark(state.clone)
    assert copy.digest() == state.digest()


@pytest.mark.bench
def test_resample_5_players(benchmark):
    """``resample`` as IS-MCTS calls it: many seeds on one live state (what the seat knows is read
    from the log once and cached)."""
    import itertools

    state = _midgame(5)
    seat = state.to_act[0]
    seeds = itertools.count()
    copy = benchmark(lambda: state.resample(seat, next(seeds)))
    assert copy.to_act == state.to_act
