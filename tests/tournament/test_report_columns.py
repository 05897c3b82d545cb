"""Issue 37, the tournament report: bot names stay whole in an 80-column table, and a pair that is
not separated says how many more games would separate it at its current difference."""

from __future__ import annotations

import io
import math

from rich.console import Console
from rich.table import Table

from tournament.ratings import Pair
from tournament.report import (
    CountRow,
    LeaderboardRow,
    Report,
    games_to_separate,
    leaderboard_table,
    pairs_table,
    player_counts_table,
)

BOTS = ("ismcts_strong", "heuristic", "quick", "random")


def _report() -> Report:
    """Four bots 60 Elo apart, each pair's simultaneous interval ±80 (separated from 120 on), 400 games."""
    rows = [
        LeaderboardRow(
            place,
            bot,
            "x",
            90.0 - 60 * place,
            20.0,
            50.0 - 60 * place,
            130.0 - 60 * place,
            400,
            400,
            100,
            0.5,
            2.5,
            0,
            0,
        )
        for place, bot in enumerate(BOTS, 1)
    ]
    pairs = [
        Pair(a, b, 60.0 * (j - i), 60.0 * (j - i) - 80, 60.0 * (j - i) + 80, 60.0 * (j - i) > 80)
        for i, a in enumerate(BOTS)
        for j, b in enumerate(BOTS)
        if j > i
    ]
    by_players = [CountRow(bot, 4, 400, 400, 100, 0.5, 2.5) for bot in BOTS]
    return Report("deadwood1876", 400, 400, rows, {}, [], pairs, 100, [], by_players)


def _render(table: Table, width: int) -> list[str]:
    out = io.StringIO()
    Console(file=out, width=width, no_color=True, color_system=None).print(table)
    return [line.rstrip() for line in out.getvalue().splitlines()]


def test_names_stay_whole_in_an_80_column_table() -> None:
    """Every table fits 80 columns with every name on one line: ``heuristic``, never ``heuristi`` / ``c``."""
    report = _report()
    for table, name_rows in (
        (leaderboard_table(report), {bot: 1 for bot in BOTS}),
        (pairs_table(report), {"ismcts_strong": 3, "heuristic": 3, "quick": 3, "random": 3}),
        (player_counts_table(report), {bot: 1 for bot in BOTS}),
    ):
        lines = _render(table, 80)
        assert max(map(len, lines)) <= 80
        words = [word for line in lines for word in line.split()]
        assert {bot: words.count(bot) for bot in BOTS} == name_rows
        assert not any(word != bot and bot.startswith(word) and len(word) > 2 for word in words for bot in BOTS)


def test_names_fold_at_word_boundaries_in_a_narrow_terminal() -> None:
    """Where the name column cannot take the whole name, it folds between pieces: ``ismcts_`` then ``strong``."""
    lines = _render(pairs_table(_report()), 60)
    higher = [line.split()[0] for line in lines if line.split() and line.startswith(" ")]
    assert "ismcts_" in higher and "strong" in higher
    assert not any(word in ("ismcts_s", "heuristi", "c", "trong") for line in lines for word in line.split())


def test_games_to_separate_a_made_up_pair() -> None:
    """d = 60 Elo, z·se = 80 (the interval -20..140) over n = 400 games: 400·(80/60)² - 400 = 311.1, so 312
    more games; a separated pair needs none; a difference of 0 is never separated (inf, shown as —); no
    intervals, no estimate."""
    assert games_to_separate(Pair("a", "b", 60.0, -20.0, 140.0, False), 400) == 312
    assert games_to_separate(Pair("a", "b", 40.0, -40.0, 120.0, False), 100) == 300  # 100·(80/40)² - 100
    assert games_to_separate(Pair("a", "b", 120.0, 40.0, 200.0, True), 400) == 0
    assert math.isinf(games_to_separate(Pair("a", "b", 0.0, -80.0, 80.0, False), 400))
    assert math.isnan(games_to_separate(Pair("a", "b", 60.0, math.nan, math.nan, False), 400))


def test_the_pairs_table_shows_the_games_to_separate() -> None:
    """The ``more games`` column: 312 for the pairs 60 apart, 0 for the separated ones, — for equal ratings."""
    report = _report()
    equal = Pair("quick", "random", 0.0, -80.0, 80.0, False)
    report = Report(report.game, 400, 400, report.rows, {}, [], [*report.pairs[:-1], equal], 100)
    rows = {
        tuple(line.split()[:2]): line.split()[-2:]
        for line in _render(pairs_table(report), 80)
        if line.split()[:1] and line.split()[0] in BOTS
    }
    assert rows[("ismcts_strong", "heuristic")] == ["no", "312"]
    assert rows[("ismcts_strong", "quick")] == ["yes", "0"]
    assert rows[("heuristic", "quick")] == ["no", "312"]
    assert rows[("quick", "random")] == ["no", "\u2014"]
