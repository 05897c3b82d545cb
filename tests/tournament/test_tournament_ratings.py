"""Batch tournament ratings: one Bradley–Terry fit, block-bootstrap intervals, separation at 95%.

The games here are synthesized :class:`GameRecord` values fed straight to the rating function:
no engine games. A synthetic duplicate set rotates a lineup through the seats of one "deal"
(a luck value per seat, shared by the set's games), as the schedule does with one seed.
"""

from __future__ import annotations

import io
import math
import random

import msgspec
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from rich.console import Console

from tournament.ratings import ELO, PRIOR_DRAWS, Pair, fit, rate, rating_history, table_ranks, win_matrices
from tournament.report import LeaderboardRow, Report, leaderboard_table, pairs_table
from tournament.results import GameRecord


def _record(index: int, set_index: int, rotation: int, seats: tuple[str, ...], ranks: tuple[int, ...]) -> GameRecord:
    n = len(seats)
    winners = tuple(seat for seat, rank in enumerate(ranks) if rank == 1)
    return GameRecord(
        index, set_index, rotation, n, set_index, seats, (0.0,) * n, ranks, winners, (0,) * n, (False,) * n, 0, 0.0
    )


def _synthetic(seed: int, strengths: dict[str, float], players: int, sets: int) -> list[GameRecord]:
    """Duplicate sets of ``players`` bots (all bots when there are as many seats): seat luck shared
    by the set, each bot's strength and per-game noise; the best performance ranks 1."""
    rng = random.Random(seed)
    names = list(strengths)
    records = []
    for set_index in range(sets):
        lineup = rng.sample(names, players)
        luck = [rng.gauss(0, 1) for _ in range(players)]
        for rotation in range(players):
            seats = tuple(lineup[(seat + rotation) % players] for seat in range(players))
            performance = [luck[seat] + strengths[seats[seat]] + rng.gauss(0, 1) for seat in range(players)]
            order = sorted(range(players), key=lambda seat: -performance[seat])
            ranks = [0] * players
            for place, seat in enumerate(order, 1):
                ranks[seat] = place
            records.append(_record(len(records), set_index, rotation, seats, tuple(ranks)))
    return records


@hs.composite
def _tournaments(draw: hs.DrawFn) -> tuple[list[str], list[GameRecord]]:
    """Any small tournament: 2 to 5 bots (maybe some without games), any ranks, ties included."""
    names = [f"bot_{i}" for i in range(draw(hs.integers(2, 5)))]
    players = draw(hs.integers(2, 4))
    records = []
    for set_index in range(draw(hs.integers(1, 6))):
        lineup = draw(hs.lists(hs.sampled_from(names), min_size=players, max_size=players))
        for rotation in range(players):
            seats = tuple(lineup[(seat + rotation) % players] for seat in range(players))
            ranks = tuple(draw(hs.lists(hs.integers(1, players), min_size=players, max_size=players)))
            records.append(_record(len(records), set_index, rotation, seats, ranks))
    return names, records


@settings(max_examples=40, deadline=None)
@given(_tournaments(), hs.randoms(use_true_random=False))
def test_shuffling_the_games_changes_nothing(tournament, rng):
    names, records = tournament
    shuffled = list(records)
    rng.shuffle(shuffled)
    # nan (bots without games) compares unequal to itself; the JSON encoding (null) does not.
    assert msgspec.json.encode(rate(shuffled, names, 30, 5)) == msgspec.json.encode(rate(records, names, 30, 5))


@settings(max_examples=40, deadline=None)
@given(_tournaments())
def test_a_rating_and_a_difference_always_lie_inside_their_intervals(tournament):
    names, records = tournament
    result = rate(records, names, 30, 7)
    played = {name for record in records for name in record.seats}
    for name in names:
        rating = result.ratings[name]
        if name not in played:
            assert math.isnan(rating.rating) and math.isnan(rating.low)
        elif result.resamples:
            assert rating.low <= rating.rating <= rating.high
        else:
            assert math.isnan(rating.low) and math.isnan(rating.high)
    rated = [name for name in names if name in played]
    assert len(result.pairs) == len(rated) * (len(rated) - 1) // 2
    for pair in result.pairs:
        assert pair.difference >= 0
        assert result.ratings[pair.higher].rating >= result.ratings[pair.lower].rating
        if result.resamples:
            assert pair.low <= pair.difference <= pair.high
            assert pair.separated == (pair.low > 0)
        else:
            assert not pair.separated


@pytest.mark.slow  # about 12 s: 20,000 fits
def test_identical_bots_are_separated_in_about_5_percent_of_tournaments_at_most():
    """200 tournaments of four identical bots (4 players, 20 duplicate sets, 100 resamples each):
    the leaderboard reports some pair separated at 95% in about 5% of them. The bound, 15 of 200
    (7.5%), is what a true rate of 5% exceeds with probability 4% (binomial); these 200 give 14,
    the first 1,000 seeds 45 (4.5%)."""
    strengths = dict.fromkeys(("a", "b", "c", "d"), 0.0)
    separated = 0
    for seed in range(200):
        result = rate(_synthetic(seed, strengths, players=4, sets=20), list(strengths), 100, seed)
        separated += any(pair.separated for pair in result.pairs)
    assert separated <= 15


def test_a_clearly_stronger_bot_is_separated_from_each_other_bot():
    strengths = {"strong": 1.0, "a": 0.0, "b": 0.0, "c": 0.0}
    result = rate(_synthetic(3, strengths, players=4, sets=40), list(strengths), 100, 3)
    assert [(pair.higher, pair.separated) for pair in result.pairs[:3]] == [("strong", True)] * 3
    assert result.ratings["strong"].low > max(result.ratings[name].high for name in "abc")
    assert result.blocks == 40 and result.resamples == 100


def test_the_scale_is_elo_around_the_mean_bot():
    """Two bots: ``a`` ahead 64 times, ``b`` 36 times (plus one virtual draw): the ML difference is
    ``400 log10(64.5 / 36.5)`` Elo points, split evenly around 0."""
    ratings = fit(np.array([[0.0, 64.0], [36.0, 0.0]]))
    difference = 400 * math.log10((64 + PRIOR_DRAWS / 2) / (36 + PRIOR_DRAWS / 2))
    assert ratings.tolist() == pytest.approx([difference / 2, -difference / 2], abs=1e-6)
    assert ELO * math.log(10) == pytest.approx(400)


def test_pairs_of_each_game_count_ties_as_half_and_a_bot_in_two_seats_once():
    record = _record(0, 0, 0, ("a", "b", "a", "c"), (1, 2, 4, 2))  # a: mean rank 2.5
    assert table_ranks(record) == {"a": 2.5, "b": 2.0, "c": 2.0}
    sets, wins = win_matrices([record], ["a", "b", "c"])
    assert sets == [0]
    assert wins[0].tolist() == [[0.0, 0.0, 0.0], [1.0, 0.0, 0.5], [1.0, 0.5, 0.0]]


def test_one_duplicate_set_gives_ratings_without_intervals():
    records = _synthetic(1, {"a": 0.0, "b": 0.0, "c": 0.0}, players=3, sets=1)
    result = rate(records, ["a", "b", "c", "idle"], 100, 1)
    assert result.blocks == 1 and result.resamples == 0
    assert sum(result.ratings[name].rating for name in "abc") == pytest.approx(0, abs=1e-9)
    assert all(math.isnan(result.ratings[name].low) for name in "abc")
    assert math.isnan(result.ratings["idle"].rating)
    assert [pair.separated for pair in result.pairs] == [False] * 3


def test_the_history_ends_at_the_rating_of_all_games():
    strengths = {"a": 0.5, "b": 0.0, "c": 0.0}
    records = _synthetic(2, strengths, players=3, sets=10)
    history = rating_history(records, list(strengths), points=5)
    final = rate(records, list(strengths), 0)
    assert [n for n, _ in history["a"]] == [6, 12, 18, 24, 30]
    for name in strengths:
        assert history[name][-1] == (30, pytest.approx(final.ratings[name].rating, abs=1e-6))


LONG = (
    "heuristic_with_a_really_long_display_name_number_one",
    "random_bot_with_an_even_longer_display_name_that_goes_on_and_on",
    "r",
)


def _column_texts(lines: list[str], start: int, stop: int | None, row_start) -> list[str]:
    """One column of a rendered table (its first word from ``start`` to ``stop`` on each line), one
    entry per row (a row begins at a line where ``row_start(line)``); a folded cell's pieces joined."""
    texts: list[str] = []
    for line in lines:
        if row_start(line):
            texts.append("")
        piece = line[start:stop].split()
        if piece:
            texts[-1] += piece[0]
    return texts


def _render(table) -> list[str]:
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(table)
    return console.file.getvalue().splitlines()


def _body(lines: list[str], header: int) -> list[str]:
    """The lines of a table's rows: after the header and its rule, up to the first blank line."""
    body = []
    for line in lines[header + 2 :]:
        if not line.strip():
            break
        body.append(line)
    return body


def test_long_bot_names_are_never_cut_short_at_80_columns():
    """The leaderboard and the pairs table at 80 columns: every full name is there, folded."""
    rows = [
        LeaderboardRow(
            place, bot, "random", rating, 30.0, rating - 60, rating + 60, 600, 610, 150, 1.5, 2.5, 3, forfeits
        )
        for place, (bot, rating, forfeits) in enumerate(zip(LONG, (120.0, -40.0, -80.0), (1, 0, 0), strict=True), 1)
    ]
    pairs = [
        Pair(LONG[0], LONG[1], 160.0, 20.0, 300.0, True),
        Pair(LONG[0], LONG[2], 200.0, 60.0, 340.0, True),
        Pair(LONG[1], LONG[2], 40.0, -100.0, 180.0, False),
    ]
    report = Report("deadwood1876", 1800, 1800, rows, {}, [], pairs, 200)

    lines = _render(leaderboard_table(report))
    assert max(len(line) for line in lines) <= 80 and not any("…" in line for line in lines)
    header = next(i for i, line in enumerate(lines) if " bot " in line)
    body = _body(lines, header)
    column = lines[header].index("bot")
    assert _column_texts(body, column, None, lambda line: line[:column].strip().isdigit()) == list(LONG)
    assert " ".join(body).split().count("forfeited)") == 1

    lines = _render(pairs_table(report))
    assert max(len(line) for line in lines) <= 80 and not any("…" in line for line in lines)
    header = next(i for i, line in enumerate(lines) if " higher " in line)
    body = _body(lines, header)
    lower = lines[header].index("lower")
    difference = lines[header].index("difference")
    separated = lines[header].index("separated")
    more = lines[header].index("games")

    def row_start(line: str) -> bool:  # a row's first line has its difference
        return any(c.isdigit() for c in line[difference:separated])

    higher = _column_texts(body, 0, lower, row_start)
    lowers = _column_texts(body, lower, difference, row_start)
    assert list(zip(higher, lowers, strict=True)) == [(pair.higher, pair.lower) for pair in pairs]
    assert [line[separated:more].split()[0] for line in body if row_start(line)] == ["yes", "yes", "no"]
