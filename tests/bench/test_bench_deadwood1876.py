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
