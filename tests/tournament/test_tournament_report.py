"""The leaderboard and the rating plot: seats per bot, one marker per bot without colour."""

from __future__ import annotations

import csv
import json
import math
import re
from collections import Counter

import pytest
from conftest import ROOT, write_config

from saloon.cli import main
from tournament import build_report, leaderboard_table, load_config, make_schedule, rating_plot, run_tournament
from tournament.report import PLOT_MARKERS, LeaderboardRow, Report, write_files

BOTS = ("alpha", "beta", "gamma", "delta")

_LEGEND = re.compile(r"(?:legend:| ) +(\S)\1 (\w+)")
"""An entry of the plot's legend (under the plot): the series' marker twice, then its label."""


def _report() -> Report:
    """A report of four bots whose ratings cross, without running a tournament."""
    rows = [
        LeaderboardRow(place, bot, "random", 0.0, 40.0, math.nan, math.nan, 10, 10, 2, 0.0, 2.5, 0, 0)
        for place, bot in enumerate(BOTS, 1)
    ]
    history = {
        bot: [(game, (i + 1) * (-1) ** (game + i) * game * 10) for game in range(11)] for i, bot in enumerate(BOTS)
    }
    return Report("deadwood1876", 10, 10, rows, history, [])


def _legend(plot: str) -> list[tuple[str, str]]:
    lines = plot.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("legend: ")), len(lines))
    return [match.groups() for line in lines[start:] for match in _LEGEND.finditer(line)]


@pytest.mark.parametrize(
    ("no_color", "color"),
    [("1", True), (None, False)],
    ids=["NO_COLOR", "piped"],
)
def test_rating_plot_gives_each_bot_its_own_marker_without_colour(monkeypatch, no_color, color):
    """``NO_COLOR=1`` (even on a terminal) or piped output: no ANSI escapes, and distinct markers."""
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    plot = rating_plot(_report(), width=80, height=20, color=color)
    assert "\x1b[" not in plot
    assert _legend(plot) == [("*", "alpha"), ("+", "beta"), ("o", "gamma"), ("x", "delta")]
    body = "\n".join(line.split("│", 1)[-1] for line in plot.splitlines()[2:-1])  # the canvas, not the legend
    for marker in "*+ox":
        assert marker in body


def test_rating_plot_keeps_the_markers_with_colour(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    plot = rating_plot(_report(), width=80, height=20, color=True)
    assert "\x1b[" in plot
    assert _legend(re.sub(r"\x1b\[[0-9;]*m", "", plot)) == [
        ("*", "alpha"),
        ("+", "beta"),
        ("o", "gamma"),
        ("x", "delta"),
    ]


def test_plot_markers_are_distinct_single_ascii_characters():
    assert len(PLOT_MARKERS) == len(set(PLOT_MARKERS)) == 36
    assert all(len(marker) == 1 and marker.isascii() and not marker.isspace() for marker in PLOT_MARKERS)


def test_leaderboard_shows_seats_per_bot_when_bots_underfill_the_table(tmp_path, capsys):
    """Two bots at 5 seats: one takes three seats of every game, the other two; the board says so."""
    path = write_config(tmp_path / "t.toml", {"a": "random", "b": "random"}, players=[5], games=5, bootstrap=0)
    config = load_config(path)
    expected = Counter(name for spec in make_schedule(config) for name in spec.seats)
    assert sorted(expected.values()) == [10, 15]
    out = tmp_path / "out"
    run_tournament(config, out, workers=1)
    report = build_report(out)
    assert {row.bot: (row.games, row.seats) for row in report.rows} == {
        "a": (5, expected["a"]),
        "b": (5, expected["b"]),
    }

    table = leaderboard_table(report)
    headers = [str(column.header) for column in table.columns]
    assert headers[4:6] == ["games", "seats"]
    assert list(table.columns[5].cells) == [str(row.seats) for row in report.rows]

    json_path, csv_path = write_files(report, out)
    board = json.loads(json_path.read_text())
    assert {row["bot"]: row["seats"] for row in board["leaderboard"]} == dict(expected)
    with csv_path.open(newline="") as file:
        assert {row["bot"]: int(row["seats"]) for row in csv.DictReader(file)} == dict(expected)

    # `tournament show` to a pipe: the seats column and one marker per bot in the plot.
    assert main(["tournament", "show", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "seats" in shown and "\x1b[" not in shown
    assert _legend(shown) == [("*", report.rows[0].bot), ("+", report.rows[1].bot)]


def test_example_lineups_are_as_uneven_as_the_readme_says():
    """examples/deadwood1876.toml: four bots at 3, 4 and 5 seats give 558 or 564 games (README)."""
    schedule = make_schedule(load_config(ROOT / "examples" / "deadwood1876.toml"))
    games = Counter(name for spec in schedule for name in set(spec.seats))
    seats = Counter(name for spec in schedule for name in spec.seats)
    assert sorted((games[name], seats[name]) for name in games) == [(558, 628), (564, 624), (564, 624), (564, 624)]
    readme = (ROOT / "README.md").read_text()
    assert "558 games in 628 seats and the others 564 games in 624 seats" in readme


@pytest.mark.parametrize(("bots", "players"), [(5, 3), (2, 5), (3, 4), (4, 4)])
def test_one_player_count_and_games_a_multiple_of_seats_times_bots_are_even(tmp_path, bots, players):
    """The README's recipe for even line-ups: games a multiple of n times the number of bots."""
    names = {f"b{i}": "random" for i in range(bots)}
    config = load_config(write_config(tmp_path / "t.toml", names, players=[players], games=bots * players))
    schedule = make_schedule(config)
    assert len(schedule) == bots * players
    games = Counter(name for spec in schedule for name in set(spec.seats))
    seats = Counter(name for spec in schedule for name in spec.seats)
    assert set(games) == set(names) and len(set(games.values())) == 1 and len(set(seats.values())) == 1
