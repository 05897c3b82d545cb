"""Ratings of a batch tournament: one Bradley–Terry fit over all games, block-bootstrap intervals.

**Model.** Every game is broken into all its pairs of distinct bots (full rank breaking): in each
pair the bot with the better rank wins, and a tie counts as half a win each way. A bot that holds
several seats of one game (fewer bots than seats) is one player with the mean of its seats' ranks
(:func:`table_ranks`); ranks are the :attr:`GameRecord.ranks` (forfeits last). The wins are added
up in a matrix ``wins[i, j]`` (how often bot ``i`` finished ahead of bot ``j``) and one
Bradley–Terry model is fitted to it by maximum likelihood with `choix
<https://github.com/lucasmaystre/choix>`_ (``choix.ilsr_pairwise_dense``, iterative Luce spectral
ranking, which converges to the maximum-likelihood estimate). Plackett–Luce on whole rankings
was the alternative; pairs were chosen because ties (shared ranks, a bot's mean rank over two
seats, several forfeits tied last) need no tie-breaking rule there.

To every pair of rated bots one virtual drawn game is added (half a win each way,
:data:`PRIOR_DRAWS`): without it the maximum-likelihood estimate does not exist when a bot won
(or lost) every comparison, e.g. against bots that forfeit. Over thousands of games its pull
towards equal ratings is far below the intervals' width.

The fit depends only on the sum of the games' win matrices, so it is the same whatever the order
of the games (sums of halves are exact in floating point).

**Scale.** A rating is the fitted log-strength on the Elo scale (``400 / ln 10`` times the
natural log-strength), with ``0`` the mean of the rated bots: a bot ``D`` points above another
finishes ahead of it, in a game they both play, with odds ``10 ** (D / 400)`` (``D = 100``: 64%,
``D = 200``: 76%). Ratings compare the bots of one tournament; they are not comparable across
tournaments or with the ladder's OpenSkill ratings (:mod:`lobby.ratings`).

**Intervals.** A block bootstrap of the same estimator: the blocks are the duplicate sets (the
seat rotations of one seed, :attr:`GameRecord.set_index`), which share their deck and dice luck;
each resample draws as many blocks as there are, with replacement, and refits. The resampling
is seeded (:func:`rate`'s ``seed``; the leaderboard derives it from the tournament's seed), so
the same results always give the same intervals.

- A bot's 95% interval is the percentile interval of its bootstrap ratings (2.5th and 97.5th
  percentiles), widened, if needed, to include the rating fitted on all games. Percentile (and
  basic) intervals can miss the point estimate when the bootstrap distribution is skewed; a
  rating outside its own interval is a contradiction to a reader, so the interval is stretched
  to the point instead (never narrowed: this only makes it more conservative).
- Two bots are **separated at 95%** when the simultaneous 95% interval of their rating
  difference excludes 0. Each pair's difference gets its own bootstrap standard error ``se``
  (the spread of the difference over the same resamples: a bootstrap of the difference, not a
  comparison of the two bots' own intervals, which overlap more often than the difference is
  unclear), and its interval is ``difference ± c * se``, with ``c`` the Student t quantile at
  ``1 - 0.025 / m`` for ``m`` pairs: Bonferroni over all pairs, so that identical bots are
  reported separated *anywhere in the table* in at most about 5% of tournaments, however many
  bots there are. The t has ``blocks - 1`` degrees of freedom, fewer for few resamples
  (Satterthwaite), and ``se`` is scaled by ``sqrt(blocks / (blocks - 1))`` (the bootstrap
  variance of a mean is that much smaller than the unbiased estimate), as a t test over the
  blocks would do. The difference always lies inside its interval. Why not the bootstrap max-t
  (the 95th percentile of the largest studentized deviation) or normal quantiles: in simulated
  tournaments of four identical bots (15 to 30 duplicate sets, 100 resamples) max-t, whose tail
  quantile is noisy with so few resamples, reported a separation in 8 to 12% of tournaments and
  normal quantiles in 6 to 10%; this rule reported one in 4 to 5% (4.5% over 1,000 tournaments
  of 20 sets).

With fewer than two blocks or fewer than two resamples there are no intervals (``nan``) and no
pair is separated.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

import choix
import msgspec
import numpy as np
from scipy.special import stdtrit

from tournament.results import GameRecord

__all__ = [
    "BOOTSTRAP_SEED",
    "ELO",
    "PRIOR_DRAWS",
    "Pair",
    "Rating",
    "Ratings",
    "fit",
    "rate",
    "rating_history",
    "table_ranks",
    "win_matrices",
]

BOOTSTRAP_SEED = 20_250_101
"""The default seed of the bootstrap resampling (the leaderboard uses one derived from the tournament's seed)."""

ELO = 400 / math.log(10)
"""Elo points per unit of natural log-strength (about 173.7)."""

PRIOR_DRAWS = 1.0
"""Virtual drawn games added between every pair of rated bots (half a win each way)."""

_FLAT = 1e-3
"""Bootstrap spreads (Elo points) below this count as none: every resample gave the same fit."""


class Rating(msgspec.Struct, frozen=True):
    """A bot's rating (see the module docstring for the scale and the interval).

    Attributes:
        rating: Elo-scale strength, 0 = the mean of the rated bots; ``nan`` for a bot without games.
        low: the 95% interval's lower end (``nan`` without bootstrap).
        high: its upper end; ``low <= rating <= high`` always.
        se: the bootstrap standard error of ``rating`` (``nan`` without bootstrap).
    """

    rating: float
    low: float
    high: float
    se: float


class Pair(msgspec.Struct, frozen=True):
    """Two bots' rating difference and whether it is clear at 95% (all pairs together).

    Attributes:
        higher: the bot with the higher rating (by name when equal).
        lower: the other bot.
        difference: ``rating(higher) - rating(lower)``, Elo points (never negative).
        low: the simultaneous 95% interval's lower end (``nan`` without bootstrap).
        high: its upper end; ``low <= difference <= high``.
        separated: the interval excludes 0: ``higher`` is the stronger bot at 95%.
    """

    higher: str
    lower: str
    difference: float
    low: float
    high: float
    separated: bool


class Ratings(msgspec.Struct, frozen=True):
    """Everything :func:`rate` finds.

    Attributes:
        ratings: each bot's rating, by display name (every name given, with or without games).
        pairs: every pair of rated bots, the higher rating first, in order of ``higher``'s then
            ``lower``'s rating.
        blocks: the duplicate sets the games came in (the bootstrap's blocks).
        resamples: the bootstrap resamples used (0 when there are no intervals).
    """

    ratings: dict[str, Rating]
    pairs: list[Pair]
    blocks: int
    resamples: int


def table_ranks(record: GameRecord) -> dict[str, float]:
    """Each distinct bot's rank in a game (the mean over its seats), in order of first seat."""
    ranks: dict[str, list[int]] = defaultdict(list)
    for name, rank in zip(record.seats, record.ranks, strict=True):
        ranks[name].append(rank)
    return {name: sum(values) / len(values) for name, values in ranks.items()}


def win_matrices(records: Sequence[GameRecord], names: Sequence[str]) -> tuple[list[int], np.ndarray]:
    """The pairwise wins of each duplicate set.

    Args:
        records: the games, in any order.
        names: the bots, in the order of the matrices' rows; a game seating a bot not in
            ``names`` raises ``KeyError``.

    Returns:
        The set indices, ascending, and an array of shape ``(sets, len(names), len(names))``:
        ``[s, i, j]`` is how often bot ``i`` finished ahead of bot ``j`` in set ``s`` (ties: half).
    """
    position = {name: i for i, name in enumerate(names)}
    sets = sorted({record.set_index for record in records})
    block = {set_index: b for b, set_index in enumerate(sets)}
    wins = np.zeros((len(sets), len(names), len(names)))
    for record in records:
        table = list(table_ranks(record).items())
        b = block[record.set_index]
        for k, (first, first_rank) in enumerate(table):
            i = position[first]
            for second, second_rank in table[k + 1 :]:
                j = position[second]
                if first_rank < second_rank:
                    wins[b, i, j] += 1
                elif second_rank < first_rank:
                    wins[b, j, i] += 1
                else:
                    wins[b, i, j] += 0.5
                    wins[b, j, i] += 0.5
    return sets, wins


def fit(wins: np.ndarray, initial: np.ndarray | None = None) -> np.ndarray:
    """The Bradley–Terry maximum-likelihood ratings of a win matrix (with the virtual draws).

    Args:
        wins: shape ``(n, n)``, ``wins[i, j]`` = how often ``i`` finished ahead of ``j``.
        initial: a starting point (Elo scale), e.g. the fit on all games for a bootstrap resample.

    Returns:
        Shape ``(n,)``: Elo-scale ratings with mean 0 (all 0 for ``n < 2``), rounded to 1e-6.

    Raises:
        RuntimeError: choix did not converge (not seen with the virtual draws in place).
    """
    n = wins.shape[0]
    if n < 2:
        return np.zeros(n)
    data = wins + PRIOR_DRAWS / 2 * (1 - np.eye(n))
    start = None if initial is None else initial / ELO
    params = choix.ilsr_pairwise_dense(data, initial_params=start, max_iter=10_000, tol=1e-9)
    # Rounded to a millionth of a point: bots with the same results get the same rating, not two
    # that differ in the last bits of the iteration.
    ratings: np.ndarray = np.round((params - params.mean()) * ELO, 6)
    return ratings


def rate(
    records: Sequence[GameRecord], names: Sequence[str], resamples: int = 200, seed: int = BOOTSTRAP_SEED
) -> Ratings:
    """Rate every bot over ``records`` (see the module docstring); the order of ``records`` does not matter.

    Args:
        records: the games.
        names: every bot's display name; bots without games get ``nan`` everywhere and are left
            out of the fit (and of ``pairs``).
        resamples: bootstrap resamples (fewer than 2: no intervals).
        seed: the resampling seed.

    Returns:
        The :class:`Ratings`.
    """
    played = {name for record in records for name in record.seats}
    rated = [name for name in names if name in played]
    sets, wins = win_matrices(records, rated)
    point = fit(wins.sum(axis=0))
    blocks = len(sets)
    nan = math.nan
    if resamples < 2 or blocks < 2 or len(rated) < 2:
        resamples = 0
        samples = np.empty((0, len(rated)))
    else:
        rng = np.random.default_rng(seed)
        counts = rng.multinomial(blocks, np.full(blocks, 1 / blocks), size=resamples)
        totals = np.tensordot(counts, wins, axes=1)
        samples = np.array([fit(total, point) for total in totals])

    ratings = dict.fromkeys(names, Rating(nan, nan, nan, nan))
    if resamples:
        low, high = np.percentile(samples, [2.5, 97.5], axis=0)
        se = samples.std(axis=0, ddof=1)
        for i, name in enumerate(rated):
            value = float(point[i])
            ratings[name] = Rating(value, min(float(low[i]), value), max(float(high[i]), value), float(se[i]))
    else:
        for i, name in enumerate(rated):
            ratings[name] = Rating(float(point[i]), nan, nan, nan)
    return Ratings(ratings, _pairs(rated, point, samples, blocks), blocks, resamples)


def _pairs(rated: list[str], point: np.ndarray, samples: np.ndarray, blocks: int) -> list[Pair]:
    """Every pair's difference and simultaneous (Bonferroni) 95% interval; see the module docstring."""
    order = sorted(range(len(rated)), key=lambda i: (-point[i], rated[i]))
    index = [(a, b) for k, a in enumerate(order) for b in order[k + 1 :]]
    if not index:
        return []
    first, second = (np.array(side) for side in zip(*index, strict=True))
    difference = point[first] - point[second]
    if not len(samples):
        return [
            Pair(rated[a], rated[b], float(d), math.nan, math.nan, False)
            for (a, b), d in zip(index, difference, strict=True)
        ]
    # The bootstrap variance of a mean over blocks is (blocks - 1) / blocks times the unbiased
    # estimate: undo that, as the t quantile with blocks - 1 degrees of freedom assumes.
    se = (samples[:, first] - samples[:, second]).std(axis=0, ddof=1) * math.sqrt(blocks / (blocks - 1))
    spread = se > _FLAT
    # Student t for an estimated standard error: the data give it blocks - 1 degrees of freedom and
    # the finite number of resamples takes some away (Satterthwaite: the two variances add).
    freedom = 1 / (1 / (blocks - 1) + 1 / (len(samples) - 1))
    c = float(stdtrit(freedom, 1 - 0.025 / len(index)))
    pairs = []
    for (a, b), d, s, varies in zip(index, difference, se, spread, strict=True):
        half = c * float(s) if varies else 0.0
        d = float(d)
        separated = d - half > 0 if varies else d > _FLAT
        pairs.append(Pair(rated[a], rated[b], d, d - half, d + half, bool(separated)))
    return pairs


def rating_history(
    records: Sequence[GameRecord], names: Sequence[str], points: int = 40
) -> dict[str, list[tuple[int, float]]]:
    """The ratings fitted to the first ``N`` games of the schedule, for growing ``N`` (for a plot).

    Only the last point (all games) is the tournament's rating; the earlier ones show how it
    settled as games came in, in schedule order.

    Args:
        records: the games (sorted here by index).
        names: the bots.
        points: at most this many values of ``N``, evenly spaced, the last one all games.

    Returns:
        ``{name: [(N, rating), ...]}``, from the first ``N`` that includes one of the bot's games
        (a bot without games has an empty list).
    """
    ordered = sorted(records, key=lambda r: r.index)
    history: dict[str, list[tuple[int, float]]] = {name: [] for name in names}
    if not ordered:
        return history
    played = {name for record in ordered for name in record.seats}
    rated = [name for name in names if name in played]
    position = {name: i for i, name in enumerate(rated)}
    steps = sorted({math.ceil(len(ordered) * (k + 1) / points) for k in range(points)})
    wins = np.zeros((len(rated), len(rated)))
    seen: set[str] = set()
    done = 0
    for step in steps:
        chunk = ordered[done:step]
        done = step
        wins += win_matrices([msgspec.structs.replace(r, set_index=0) for r in chunk], rated)[1].sum(axis=0)
        seen.update(name for record in chunk for name in record.seats)
        ratings = fit(wins)
        for name in seen:
            history[name].append((step, float(ratings[position[name]])))
    return history
