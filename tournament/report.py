"""The leaderboard of a tournament run: a rich table, JSON and CSV files, and a rating plot.

:func:`build_report` reads an output directory; :func:`write_files` writes
``OUT/leaderboard.json`` and ``OUT/leaderboard.csv``; :func:`leaderboard_table` and
:func:`rating_plot` render it for the terminal.

The leaderboard shows each bot's games *and* seats: line-ups are not always even (see
:mod:`tournament.schedule`), so one bot may play a few games fewer than the others, or take two
seats of one game, and the two counts make that visible.
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Sequence
from pathlib import Path

import msgspec
from rich.table import Table
from rich.text import Text

from tournament.config import TournamentConfig
from tournament.ratings import bootstrap_intervals, rate
from tournament.results import GameRecord, ResultStore, RunInfo
from tournament.run import RESULTS_FILE
from tournament.schedule import make_schedule

__all__ = [
    "PLOT_MARKERS",
    "LeaderboardRow",
    "Report",
    "build_report",
    "leaderboard_table",
    "rating_plot",
    "write_files",
]

PLOT_MARKERS = "*+ox#@%&=~^$" + "ABCDEFGHIJKLMNPQRSTUVWYZ"
"""The rating plot's markers, one per bot in leaderboard order (cycled beyond 36 bots).

Plain ASCII, so that every series stays distinguishable without colour (``NO_COLOR``, a pipe)
and in any terminal font; ``O`` and ``X`` are left out as too close to ``o`` and ``x``.
"""


class LeaderboardRow(msgspec.Struct, frozen=True):
    """One bot's line of the leaderboard.

    Attributes:
        place: 1 for the highest rating.
        bot: the display name.
        spec: the bot (``random``, ``package.module:Class`` or ``cmd:...``).
        rating: OpenSkill ``mu``.
        sigma: OpenSkill ``sigma``.
        low: the bootstrap 95% interval's lower end (``nan`` without bootstrap).
        high: its upper end.
        games: the games it played.
        seats: the seats it took, all games: more than ``games`` when it took several seats of
            one game (fewer bots than seats).
        wins: the games it won.
        mean_score: its mean score per seat.
        mean_rank: its mean rank per seat (forfeits count as last).
        faults: its faults, all games.
        forfeits: the games it forfeited.
    """

    place: int
    bot: str
    spec: str
    rating: float
    sigma: float
    low: float
    high: float
    games: int
    seats: int
    wins: int
    mean_score: float
    mean_rank: float
    faults: int
    forfeits: int


class Report(msgspec.Struct, frozen=True):
    """Everything ``tournament show`` prints.

    Attributes:
        game: the game id.
        scheduled: the games in the schedule.
        played: the games stored.
        rows: the leaderboard, best first.
        history: each bot's rating after each of its games: ``[(games played, mu), ...]``.
        runs: each ``tournament run`` invocation, with its throughput.
    """

    game: str
    scheduled: int
    played: int
    rows: list[LeaderboardRow]
    history: dict[str, list[tuple[int, float]]]
    runs: list[RunInfo]


class _Tally:
    """A bot's counts over the games."""

    def __init__(self) -> None:
        self.games = self.wins = self.seats = self.faults = self.forfeits = 0
        self.score = self.rank = 0.0


def _rows(
    config: TournamentConfig, records: Sequence[GameRecord]
) -> tuple[list[LeaderboardRow], dict[str, list[tuple[int, float]]]]:
    names = list(config.bots)
    ratings, history = rate(records, names)
    intervals = bootstrap_intervals(records, names, config.bootstrap)
    tallies = {name: _Tally() for name in names}
    for record in records:
        for name in set(record.seats):
            tally = tallies[name]
            seats = [seat for seat, seated in enumerate(record.seats) if seated == name]
            tally.games += 1
            tally.wins += any(seat in record.winners for seat in seats)
            tally.forfeits += any(record.forfeited[seat] for seat in seats)
            for seat in seats:
                tally.seats += 1
                tally.score += record.scores[seat]
                tally.rank += record.ranks[seat]
                tally.faults += record.faults[seat]
    order = sorted(names, key=lambda name: (-ratings[name].mu, name))
    rows = []
    for place, name in enumerate(order, 1):
        tally = tallies[name]
        per_seat = tally.seats or 1
        low, high = intervals.get(name, (math.nan, math.nan))
        rows.append(
            LeaderboardRow(
                place=place,
                bot=name,
                spec=config.bots[name],
                rating=ratings[name].mu,
                sigma=ratings[name].sigma,
                low=low,
                high=high,
                games=tally.games,
                seats=tally.seats,
                wins=tally.wins,
                mean_score=tally.score / per_seat,
                mean_rank=tally.rank / per_seat,
                faults=tally.faults,
                forfeits=tally.forfeits,
            )
        )
    return rows, history


def build_report(out: str | Path) -> Report:
    """Read a tournament output directory and rate its games.

    Raises:
        FileNotFoundError: ``out`` holds no tournament results.
    """
    path = Path(out) / RESULTS_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{out} holds no tournament results (no {RESULTS_FILE})")
    with ResultStore(path) as store:
        config_json = store.get_meta("config")
        if config_json is None:
            raise FileNotFoundError(f"{out} holds no tournament results (no configuration stored)")
        config = msgspec.json.decode(config_json, type=TournamentConfig)
        records = store.records()
        runs = store.runs()
    rows, history = _rows(config, records)
    return Report(config.game, len(make_schedule(config)), len(records), rows, history, runs)


def write_files(report: Report, out: str | Path) -> tuple[Path, Path]:
    """Write ``leaderboard.json`` (the whole report) and ``leaderboard.csv`` (the rows) into ``out``."""
    out = Path(out)
    json_path, csv_path = out / "leaderboard.json", out / "leaderboard.csv"
    summary = {
        "game": report.game,
        "scheduled": report.scheduled,
        "played": report.played,
        "leaderboard": report.rows,
        "runs": [{**msgspec.to_builtins(run), "games_per_s": run.games_per_s} for run in report.runs],
    }
    json_path.write_bytes(msgspec.json.format(msgspec.json.encode(summary), indent=2) + b"\n")
    with csv_path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(LeaderboardRow.__struct_fields__)
        for row in report.rows:
            writer.writerow(msgspec.structs.astuple(row))
    return json_path, csv_path


def leaderboard_table(report: Report) -> Table:
    """The leaderboard as a rich table."""
    table = Table(title=f"{report.game}: {report.played} of {report.scheduled} games")
    headers = ("#", "bot", "rating", "95% interval", "games", "seats", "wins", "mean score", "mean rank", "faults")
    for header in headers:
        table.add_column(header, justify="left" if header == "bot" else "right")
    for row in report.rows:
        interval = "-" if math.isnan(row.low) else f"{row.low:.1f} .. {row.high:.1f}"
        faults = f"{row.faults}" + (f" ({row.forfeits} forfeited)" if row.forfeits else "")
        table.add_row(
            str(row.place),
            Text(row.bot),
            f"{row.rating:.2f} ±{row.sigma:.2f}",
            interval,
            str(row.games),
            str(row.seats),
            str(row.wins),
            f"{row.mean_score:.2f}",
            f"{row.mean_rank:.2f}",
            faults,
        )
    return table


def rating_plot(report: Report, width: int = 100, height: int = 20, color: bool = True) -> str:
    """Each bot's rating over its games, as a terminal plot (plotext).

    Each bot has its own marker (:data:`PLOT_MARKERS`, by leaderboard place), shown in the legend,
    so the series stay apart without colour too.

    Args:
        report: the report.
        width: the plot's width in columns.
        height: its height in lines.
        color: colour the plot with ANSI escapes; ignored (no colour) when the ``NO_COLOR``
            environment variable is set and not empty.

    Returns:
        The plot as text, one line per row.
    """
    import plotext as plt

    color = color and not os.environ.get("NO_COLOR")
    plt.clear_figure()
    plt.plotsize(width, height)
    plt.theme("clear" if not color else "pro")
    for place, row in enumerate(report.rows):
        points = report.history.get(row.bot, [])
        if len(points) > 1:
            marker = PLOT_MARKERS[place % len(PLOT_MARKERS)]
            plt.plot([x for x, _ in points], [y for _, y in points], label=row.bot, marker=marker)
    plt.title("rating (mu) over games played")
    plt.xlabel("games played")
    text: str = plt.build()
    plt.clear_figure()
    if not color:
        text = plt.uncolorize(text)
    return text
