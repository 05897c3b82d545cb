"""Engine throughput for every game: one full random playout per round, and what search costs
(``clone`` and ``resample`` of a mid-game state, as IS-MCTS calls them).

A normal test run executes each benchmark once, untimed; measure with
``pytest tests/bench --benchmark-enable`` (or ``saloon bench`` / ``saloon bench --search``).
"""

from __future__ import annotations

import itertools
import random

import pytest

import engine
from bots import random_playout
from saloon.cli import BENCH_PLAYER_COUNTS

GAMES = sorted(engine.games())

MIDGAME: dict[str, tuple[int, int]] = {
    "deadwood1876": (5, 120),  # past the first reshuffle, Heist and Stetson views: knowledge to keep
    "wyatt_earp": (3, 60),
    "deadwood_studios": (4, 150),  # scenes face up and down, players on roles
    "deadwood_town": (4, 60),
}
"""Per game: the player count and the random decisions played before ``clone`` and ``resample``
are measured."""


def _midgame(game_id: str) -> engine.State:
    """A game of :data:`MIDGAME`'s size after its number of random decisions."""
    players, decisions = MIDGAME[game_id]
    state = engine.game(game_id).new_game(players, 3)
    choose = random.Random(3)
    for _ in range(decisions):
        seat = choose.choice(state.to_act)
        legal = state.legal_actions(seat)
        state.apply(seat, legal[choose.randrange(len(legal))])
    assert not state.is_over
    return state


def test_every_game_is_benchmarked() -> None:
    assert sorted(MIDGAME) == GAMES and sorted(BENCH_PLAYER_COUNTS) == GAMES


@pytest.mark.bench
@pytest.mark.parametrize(
    ("game_id", "players"), [(game_id, n) for game_id in GAMES for n in BENCH_PLAYER_COUNTS.get(game_id, ())]
)
def test_random_playout(benchmark, game_id: str, players: int) -> None:
    decisions = benchmark(random_playout, engine.game(game_id), players, 1)
    assert decisions > 0
    benchmark.extra_info["decisions_per_game"] = decisions


@pytest.mark.bench
@pytest.mark.parametrize("game_id", GAMES)
def test_clone(benchmark, game_id: str) -> None:
    state = _midgame(game_id)
    copy = benchmark(state.clone)
    assert copy.digest() == state.digest()


@pytest.mark.bench
@pytest.mark.parametrize("game_id", GAMES)
def test_resample(benchmark, game_id: str) -> None:
    """``resample`` as IS-MCTS calls it: many seeds on one live state."""
    state = _midgame(game_id)
    seat = state.to_act[0]
    seeds = itertools.count()
    copy = benchmark(lambda: state.resample(seat, next(seeds)))
    assert copy.to_act == state.to_act and copy.view(seat) == state.view(seat)
