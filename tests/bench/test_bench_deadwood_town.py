"""Engine throughput for Deadwood (worker placement): one full random playout per round.

A normal test run executes each benchmark once, untimed; measure with
``pytest tests/bench --benchmark-enable``.
"""

from __future__ import annotations

import itertools
import random

import pytest

import engine
from bots import random_playout


@pytest.mark.bench
@pytest.mark.parametrize("players", [2, 4, 5])
def test_random_playout(benchmark, players):
    game = engine.game("deadwood_town")
    decisions = benchmark(random_playout, game, players, 1)
    assert decisions > 0
    benchmark.extra_info["decisions_per_game"] = decisions


def _midgame(players: int, seed: int = 3, decisions: int = 60) -> engine.State:
    """A game after ``decisions`` random decisions."""
    state = engine.game("deadwood_town").new_game(players, seed)
    choose = random.Random(seed)
    for _ in range(decisions):
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[choose.randrange(len(legal))])
    assert not state.is_over
    return state


@pytest.mark.bench
def test_clone_4_players(benchmark):
    state = _midgame(4)
    copy = benchmark(state.clone)
    assert copy.digest() == state.digest()


@pytest.mark.bench
def test_resample_4_players(benchmark):
    """``resample`` as IS-MCTS calls it: many seeds on one live state."""
    state = _midgame(4)
    seat = state.to_act[0]
    seeds = itertools.count()
    copy = benchmark(lambda: state.resample(seat, next(seeds)))
    assert copy.to_act == state.to_act
