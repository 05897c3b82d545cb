"""Ratings: OpenSkill Plackett–Luce over all games, with bootstrap 95% intervals.

Games are rated one at a time in schedule order. Each distinct bot at a table is one team; a bot
that holds several seats of one game (fewer bots than seats) gets the mean of its seats' ranks.
Ranks are the :attr:`GameRecord.ranks` (forfeits last).

The intervals come from a block bootstrap over duplicate sets (the games of one set share their
seed and are resampled together): resample the sets with replacement, rate the resampled games,
take the 2.5th and 97.5th percentiles of each bot's ``mu``. The resampling uses a fixed seed, so
the same results always give the same intervals.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

import msgspec
from openskill.models import PlackettLuce

from tournament.results import GameRecord

__all__ = ["BOOTSTRAP_SEED", "Rating", "bootstrap_intervals", "rate", "table_ranks"]

BOOTSTRAP_SEED = 20_250_101
"""The seed of the bootstrap resampling."""


class Rating(msgspec.Struct, frozen=True):
    """A bot's rating.

    Attributes:
        mu: the estimated skill (OpenSkill's default scale: 25 for a new player).
        sigma: its uncertainty.
        ordinal: ``mu - 3 * sigma``, a conservative estimate.
    """

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma


def table_ranks(record: GameRecord) -> dict[str, float]:
    """Each distinct bot's rank in a game (the mean over its seats), in order of first seat."""
    ranks: dict[str, list[int]] = defaultdict(list)
    for name, rank in zip(record.seats, record.ranks, strict=True):
        ranks[name].append(rank)
    return {name: sum(values) / len(values) for name, values in ranks.items()}


def _rate_sequence(
    model: PlackettLuce, names: Sequence[str], games: Sequence[dict[str, float]], history: list[dict[str, float]] | None
) -> dict[str, Rating]:
    current = {name: model.rating(name=name) for name in names}
    for table in games:
        if len(table) < 2:
            continue  # one bot in every seat: nothing to learn
        players = list(table)
        rated = model.rate([[current[name]] for name in players], ranks=[table[name] for name in players])
        for name, team in zip(players, rated, strict=True):
            current[name] = team[0]
        if history is not None:
            history.append({name: current[name].mu for name in players})
    return {name: Rating(float(r.mu), float(r.sigma)) for name, r in current.items()}


def rate(
    records: Sequence[GameRecord], names: Sequence[str]
) -> tuple[dict[str, Rating], dict[str, list[tuple[int, float]]]]:
    """Rate every bot over ``records`` (in index order).

    Args:
        records: the games.
        names: every bot's display name (bots without games keep the initial rating).

    Returns:
        The final ratings, and each bot's rating history: ``(games played so far, mu)`` after
        each of its games.
    """
    model = PlackettLuce()
    tables = [table_ranks(record) for record in sorted(records, key=lambda r: r.index)]
    steps: list[dict[str, float]] = []
    final = _rate_sequence(model, names, tables, steps)
    history: dict[str, list[tuple[int, float]]] = {name: [(0, model.rating().mu)] for name in names}
    played = 0
    for step in steps:
        played += 1
        for name, mu in step.items():
            history[name].append((played, mu))
    return final, history


def bootstrap_intervals(
    records: Sequence[GameRecord], names: Sequence[str], resamples: int = 200, seed: int = BOOTSTRAP_SEED
) -> dict[str, tuple[float, float]]:
    """Bootstrap 95% intervals of each bot's ``mu`` (see the module docstring).

    Args:
        records: the games.
        names: every bot's display name.
        resamples: the number of bootstrap resamples (at least 2 for an interval).
        seed: the resampling seed.

    Returns:
        ``{name: (low, high)}``; empty when ``resamples < 2`` or there are no games.
    """
    if resamples < 2 or not records:
        return {}
    sets: dict[int, list[dict[str, float]]] = defaultdict(list)
    for record in sorted(records, key=lambda r: r.index):
        sets[record.set_index].append(table_ranks(record))
    blocks = list(sets.values())
    rng = random.Random(seed)
    model = PlackettLuce()
    samples: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(resamples):
        tables = [table for block in rng.choices(blocks, k=len(blocks)) for table in block]
        for name, rating in _rate_sequence(model, names, tables, None).items():
            samples[name].append(rating.mu)
    return {name: (_percentile(values, 2.5), _percentile(values, 97.5)) for name, values in samples.items()}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)
