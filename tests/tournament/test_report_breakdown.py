"""Issue 23, tournament output: a by-seat and by-player-count breakdown as ``simulate`` has, a
rating plot whose legend is not drawn over the lines, and a reason for every pair's "separated"
(in ``leaderboard.json``; issue 37: the terminal table says how many more games would separate a pair)."""

from __future__ import annotations

import json
import math

from conftest import write_config

from saloon.cli import main
from tournament import build_report, load_config, rating_plot, run_tournament
from tournament.ratings import Pair
from tournament.report import LeaderboardRow, Report, games_to_separate, pair_reason, write_files

BOTS = ("alpha", "beta", "gamma", "delta")


def _report() -> Report:
    rows = [
        LeaderboardRow(place, bot, "random", 0.0, 40.0, math.nan, math.nan, 10, 10, 2, 0.0, 2.5, 0, 0)
        for place, bot in enumerate(BOTS, 1)
    ]
    history = {
        bot: [(game, (i + 1) * (-1) ** (game + i) * game * 10) for game in range(11)] for i, bot in enumerate(BOTS)
    }
    return Report("deadwood1876", 10, 10, rows, history, [])


def test_the_legend_is_under_the_plot_not_over_its_lines() -> None:
    plot = rating_plot(_report(), width=80, height=20, color=False)
    lines = plot.splitlines()
    assert lines[-1] == "legend: ** alpha   ++ beta   oo gamma   xx delta"
    canvas = "\n".join(lines[:-1])
    for bot in BOTS:
        assert bot not in canvas  # no legend box drawn inside the plot
    narrow = rating_plot(_report(), width=40, height=20, color=False).splitlines()
    assert narrow[-2:] == ["legend: ** alpha   ++ beta   oo gamma", "        xx delta"]


def test_why_a_pair_is_or_is_not_separated() -> None:
    row = LeaderboardRow(1, "a", "random", 100.0, 10.0, 80.0, 120.0, 10, 10, 5, 1.0, 1.5, 0, 0)
    other = LeaderboardRow(2, "b", "random", 40.0, 10.0, 20.0, 60.0, 10, 10, 1, 0.0, 2.5, 0, 0)
    rows = [row, other]
    apart = Pair("a", "b", 60.0, -5.0, 125.0, False)
    assert pair_reason(apart, rows) == (
        "own intervals do not overlap, but the difference's interval, wide enough for all pairs at once, includes 0"
    )
    overlap = [row, LeaderboardRow(2, "b", "random", 90.0, 10.0, 70.0, 110.0, 10, 10, 4, 0.0, 2.0, 0, 0)]
    assert pair_reason(Pair("a", "b", 10.0, -30.0, 50.0, False), overlap) == "the difference's interval includes 0"
    assert pair_reason(Pair("a", "b", 60.0, 10.0, 110.0, True), rows) == "the difference's interval excludes 0"
    assert pair_reason(Pair("a", "b", 60.0, math.nan, math.nan, False), rows) == (
        "no intervals: bootstrap off, or too few duplicate sets"
    )


def test_the_report_breaks_the_games_down_by_seat_and_player_count(tmp_path, capsys) -> None:
    path = write_config(tmp_path / "t.toml", {"a": "random", "b": "heuristic"}, players=[2, 3], games=6, bootstrap=20)
    out = tmp_path / "out"
    run_tournament(load_config(path), out, workers=1)
    report = build_report(out)
    assert [(r.players, r.seat) for r in report.by_seat] == [(2, 0), (2, 1), (3, 0), (3, 1), (3, 2)]
    for players in (2, 3):
        rows = [r for r in report.by_seat if r.players == players]
        assert len({r.games for r in rows}) == 1  # every game of that count has each seat once
        assert sum(r.wins for r in rows) >= rows[0].games  # every game has a winner (ties: more)
    games_at = {players: report.by_seat[[r.players for r in report.by_seat].index(players)].games for players in (2, 3)}
    assert sum(games_at.values()) == report.played
    by_bot = {(r.bot, r.players): r for r in report.by_players}
    assert set(by_bot) == {("a", 2), ("b", 2), ("a", 3), ("b", 3)}
    for bot in ("a", "b"):
        row = next(r for r in report.rows if r.bot == bot)
        assert by_bot[(bot, 2)].games + by_bot[(bot, 3)].games == row.games
        assert by_bot[(bot, 2)].seats + by_bot[(bot, 3)].seats == row.seats
        assert by_bot[(bot, 2)].wins + by_bot[(bot, 3)].wins == row.wins
    json_path, _ = write_files(report, out)
    board = json.loads(json_path.read_text())
    assert [(r["players"], r["seat"]) for r in board["by_seat"]] == [(2, 0), (2, 1), (3, 0), (3, 1), (3, 2)]
    assert {(r["bot"], r["players"]) for r in board["by_players"]} == set(by_bot)
    assert all(p["why"] == pair_reason(pair, report.rows) for p, pair in zip(board["pairs"], report.pairs, strict=True))
    assert all(
        p["more_games"] == (None if math.isinf(more) or math.isnan(more) else more)
        for p, more in zip(
            board["pairs"], (games_to_separate(pair, report.played) for pair in report.pairs), strict=True
        )
    )

    assert main(["tournament", "show", str(out), "--no-plot"]) == 0
    shown = capsys.readouterr().out
    assert "By seat (all bots)" in shown and "By player count" in shown
    assert "more" in shown and "separated: the interval of the difference" in shown
    seat_lines = [line.split() for line in shown.splitlines() if line.split()[:2] in (["3", "2"], ["2", "1"])]
    assert seat_lines
