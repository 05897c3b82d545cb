"""The leaderboard of a tournament run: a rich table, JSON and CSV files, and a rating plot.

:func:`build_report` reads an output directory; :func:`write_files` writes
``OUT/leaderboard.json`` and ``OUT/leaderboard.csv``; :func:`leaderboard_table` and
:func:`rating_plot` render it for the terminal.

The leaderboard shows each bot's games *and* seats: line-ups are not always even (see
:mod:`tournament.schedule`), so one bot may play a few games fewer than the others, or take two
seats of one game, and the two counts make that visible.

Ratings are one order-independent Bradley–Terry fit over all games on the Elo scale (0 = the
mean bot) with block-bootstrap 95% intervals, and every pair of bots says whether it is separated
at 95% (all pairs together): see :mod:`tournament.ratings`. Bot names are never cut short: in a
narrow terminal they fold onto more lines.
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Sequence
from pathlib import Path

import msgspec
from rich import box
from rich.table import Table
from rich.text import Text

from tournament.config import TournamentConfig
from tournament.ratings import Pair, rate, rating_history
from tournament.results import GameRecord, ResultStore, RunInfo
from tournament.run import RESULTS_FILE
from tournament.schedule import derive_seed, make_schedule

__all__ = [
    "PLOT_MARKERS",
    "RATING_SCALE",
    "CountRow",
    "LeaderboardRow",
    "Pair",
    "Report",
    "SeatRow",
    "build_report",
    "leaderboard_table",
    "pair_reason",
    "pairs_table",
    "player_counts_table",
    "rating_plot",
    "seats_table",
    "write_files",
]

RATING_SCALE = "Bradley-Terry, Elo scale: 0 = the mean bot; 100 more = ahead 64% of the time"
"""What the leaderboard's ``rating`` means (the terminal table's caption and ``leaderboard.json``)."""

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
        rating: Bradley–Terry strength on the Elo scale, 0 = the mean bot (see
            :mod:`tournament.ratings`); ``nan`` for a bot without games.
        se: its bootstrap standard error (``nan`` without bootstrap).
        low: the bootstrap 95% interval's lower end (``nan`` without bootstrap).
        high: its upper end; ``low <= rating <= high``.
        games: the games it played.
        seats: the seats it took, all games: more than ``games`` when it took several seats of
            one game (fewer bots than seats).
        wins: the games it won.
        mean_score: its mean score per seat.
        mean_rank: its mean rank per seat (forfeits count as last).
        faults: its faults, all games.
        forfeits: the games it forfeited.
        above: the bots it is separated from at 95% (rated above them), best first.
    """

    place: int
    bot: str
    spec: str
    rating: float
    se: float
    low: float
    high: float
    games: int
    seats: int
    wins: int
    mean_score: float
    mean_rank: float
    faults: int
    forfeits: int
    above: tuple[str, ...] = ()


class SeatRow(msgspec.Struct, frozen=True):
    """One seat of one player count, over every bot that sat there (seats rotate over the same
    seeds, so a seat's results show what the seat itself is worth).

    Attributes:
        players: the player count.
        seat: the seat (0 = the first to play).
        games: the games played at that count (each has this seat once).
        wins: the games that seat won.
        mean_score: the seat's mean score.
        mean_rank: the seat's mean rank (forfeits count as last).
    """

    players: int
    seat: int
    games: int
    wins: int
    mean_score: float
    mean_rank: float


class CountRow(msgspec.Struct, frozen=True):
    """One bot at one player count.

    Attributes:
        bot: the display name.
        players: the player count.
        games: the games it played at that count.
        seats: the seats it took in them.
        wins: the games it won.
        mean_score: its mean score per seat.
        mean_rank: its mean rank per seat (forfeits count as last).
    """

    bot: str
    players: int
    games: int
    seats: int
    wins: int
    mean_score: float
    mean_rank: float


class Report(msgspec.Struct, frozen=True):
    """Everything ``tournament show`` prints.

    Attributes:
        game: the game id.
        scheduled: the games in the schedule.
        played: the games stored.
        rows: the leaderboard, best first.
        history: each bot's rating fitted to the first ``N`` games of the schedule:
            ``[(N, rating), ...]`` (:func:`tournament.ratings.rating_history`).
        runs: each ``tournament run`` invocation, with its throughput.
        pairs: every pair of rated bots, the higher rated first, and whether it is separated at
            95% (all pairs together).
        resamples: the bootstrap resamples behind the intervals (0: none).
        by_seat: each seat of each player count, over all bots (:class:`SeatRow`), as
            ``saloon simulate`` shows by seat.
        by_players: each bot at each player count (:class:`CountRow`).
    """

    game: str
    scheduled: int
    played: int
    rows: list[LeaderboardRow]
    history: dict[str, list[tuple[int, float]]]
    runs: list[RunInfo]
    pairs: list[Pair] = []
    resamples: int = 0
    by_seat: list[SeatRow] = []
    by_players: list[CountRow] = []


class _Tally:
    """A bot's counts over the games."""

    def __init__(self) -> None:
        self.games = self.wins = self.seats = self.faults = self.forfeits = 0
        self.score = self.rank = 0.0


def _rows(config: TournamentConfig, records: Sequence[GameRecord]) -> tuple[list[LeaderboardRow], list[Pair], int]:
    names = list(config.bots)
    rated = rate(records, names, config.bootstrap, derive_seed(config.seed, "bootstrap"))
    ratings = rated.ratings
    above: dict[str, list[str]] = {name: [] for name in names}
    for pair in rated.pairs:
        if pair.separated:
            above[pair.higher].append(pair.lower)
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
    order = sorted(names, key=lambda name: (math.isnan(ratings[name].rating), -ratings[name].rating, name))
    rows = []
    for place, name in enumerate(order, 1):
        tally = tallies[name]
        per_seat = tally.seats or 1
        rating = ratings[name]
        rows.append(
            LeaderboardRow(
                place=place,
                bot=name,
                spec=config.bots[name],
                rating=rating.rating,
                se=rating.se,
                low=rating.low,
                high=rating.high,
                games=tally.games,
                seats=tally.seats,
                wins=tally.wins,
                mean_score=tally.score / per_seat,
                mean_rank=tally.rank / per_seat,
                faults=tally.faults,
                forfeits=tally.forfeits,
                above=tuple(above[name]),
            )
        )
    return rows, rated.pairs, rated.resamples


def _breakdown(names: Sequence[str], records: Sequence[GameRecord]) -> tuple[list[SeatRow], list[CountRow]]:
    """The games by seat (per player count) and by bot and player count."""
    seats: dict[tuple[int, int], _Tally] = {}
    counts: dict[tuple[str, int], _Tally] = {}
    for record in records:
        players = len(record.seats)
        for seat in range(players):
            tally = seats.setdefault((players, seat), _Tally())
            tally.games += 1
            tally.seats += 1
            tally.wins += seat in record.winners
            tally.score += record.scores[seat]
            tally.rank += record.ranks[seat]
        for name in set(record.seats):
            tally = counts.setdefault((name, players), _Tally())
            mine = [seat for seat, seated in enumerate(record.seats) if seated == name]
            tally.games += 1
            tally.wins += any(seat in record.winners for seat in mine)
            for seat in mine:
                tally.seats += 1
                tally.score += record.scores[seat]
                tally.rank += record.ranks[seat]
    by_seat = [
        SeatRow(players, seat, t.games, t.wins, t.score / t.games, t.rank / t.games)
        for (players, seat), t in sorted(seats.items())
    ]
    order = {name: index for index, name in enumerate(names)}
    by_players = [
        CountRow(name, players, t.games, t.seats, t.wins, t.score / t.seats, t.rank / t.seats)
        for (name, players), t in sorted(counts.items(), key=lambda item: (item[0][1], order.get(item[0][0], 0)))
    ]
    return by_seat, by_players


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
    rows, pairs, resamples = _rows(config, records)
    history = rating_history(records, list(config.bots))
    by_seat, by_players = _breakdown([row.bot for row in rows], records)
    scheduled = len(make_schedule(config))
    return Report(config.game, scheduled, len(records), rows, history, runs, pairs, resamples, by_seat, by_players)


def write_files(report: Report, out: str | Path) -> tuple[Path, Path]:
    """Write ``leaderboard.json`` (the whole report) and ``leaderboard.csv`` (the rows) into ``out``."""
    out = Path(out)
    json_path, csv_path = out / "leaderboard.json", out / "leaderboard.csv"
    summary = {
        "game": report.game,
        "scheduled": report.scheduled,
        "played": report.played,
        "rating_scale": RATING_SCALE,
        "bootstrap_resamples": report.resamples,
        "leaderboard": report.rows,
        "pairs": [{**msgspec.to_builtins(pair), "why": pair_reason(pair, report.rows)} for pair in report.pairs],
        "by_seat": report.by_seat,
        "by_players": report.by_players,
        "runs": [{**msgspec.to_builtins(run), "games_per_s": run.games_per_s} for run in report.runs],
    }
    json_path.write_bytes(msgspec.json.format(msgspec.json.encode(summary), indent=2) + b"\n")
    with csv_path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(LeaderboardRow.__struct_fields__)
        for row in report.rows:
            writer.writerow(
                [";".join(value) if isinstance(value, tuple) else value for value in msgspec.structs.astuple(row)]
            )
    return json_path, csv_path


def leaderboard_table(report: Report) -> Table:
    """The leaderboard as a rich table: one row per bot, best first.

    Only the ``bot`` column (and a ``faults`` cell with forfeits) wraps: a long name folds onto
    several lines instead of being cut short, and the numbers stay whole (an 80-column terminal
    fits them with a bot column of about fifteen characters). The caption says what the rating
    means; :func:`pairs_table` says which bots are separated.
    """
    if report.resamples:
        intervals = f"95% interval: block bootstrap, {report.resamples} resamples"
    else:
        intervals = "no intervals (bootstrap off, or fewer than 2 duplicate sets)"
    table = Table(
        title=f"{report.game}: {report.played} of {report.scheduled} games",
        caption=f"rating: {RATING_SCALE}\n{intervals}",
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("bot", justify="left", overflow="fold", min_width=8)
    for header in ("rating", "95% interval", "games", "seats", "wins", "mean score", "mean rank"):
        table.add_column(header.replace(" ", "\n"), justify="right", no_wrap=True)
    table.add_column("faults", justify="right")  # "3 (1 forfeited)" may wrap
    for row in report.rows:
        table.add_row(
            str(row.place),
            Text(row.bot),
            _number(row.rating),
            _interval(row.low, row.high),
            str(row.games),
            str(row.seats),
            str(row.wins),
            f"{row.mean_score:.2f}",
            f"{row.mean_rank:.2f}",
            f"{row.faults}" + (f" ({row.forfeits} forfeited)" if row.forfeits else ""),
        )
    return table


def pair_reason(pair: Pair, rows: Sequence[LeaderboardRow]) -> str:
    """Why ``pair`` is separated or not, in words, for the pairs table's ``why`` column.

    The bots' own 95% intervals (the leaderboard's) may not overlap while the pair is not
    separated: the pair's test is the interval of the *difference*, and it is simultaneous (wide
    enough to hold for every pair at once), so it can still include 0. The reason says so.
    """
    if math.isnan(pair.low):
        return "no intervals: bootstrap off, or too few duplicate sets"
    if pair.separated:
        return "the difference's interval excludes 0"
    own = {row.bot: (row.low, row.high) for row in rows}
    (high_low, _), (_, low_high) = own.get(pair.higher, (math.nan, math.nan)), own.get(pair.lower, (math.nan, math.nan))
    apart = not math.isnan(high_low) and not math.isnan(low_high) and high_low > low_high
    if apart:
        return (
            "own intervals do not overlap, but the difference's interval, wide enough for all pairs at once, includes 0"
        )
    return "the difference's interval includes 0"


def pairs_table(report: Report) -> Table:
    """Which bots are separated at 95%: one row per pair of rated bots, the higher rated first.

    ``difference`` is the rating difference in Elo points, with its simultaneous 95% interval
    (all pairs together, :mod:`tournament.ratings`); ``separated`` is ``yes`` when that interval
    excludes 0 (``-`` without intervals), and ``why`` says so in words (:func:`pair_reason`),
    also where the bots' own intervals do not overlap but the pair is not separated. Names fold
    onto several lines in a narrow terminal, never cut short.
    """
    table = Table(
        title="which bots are separated at 95% (all pairs together)",
        caption="separated: the interval of the difference excludes 0",
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("higher", justify="left", overflow="fold", min_width=8)
    table.add_column("lower", justify="left", overflow="fold", min_width=8)
    table.add_column("difference", justify="right", no_wrap=True)
    table.add_column("95% interval", justify="right", no_wrap=True)
    table.add_column("separated", justify="left", no_wrap=True)
    table.add_column("why", justify="left", overflow="fold", min_width=12)
    for pair in report.pairs:
        table.add_row(
            Text(pair.higher),
            Text(pair.lower),
            _number(pair.difference),
            _interval(pair.low, pair.high),
            "-" if math.isnan(pair.low) else ("yes" if pair.separated else "no"),
            pair_reason(pair, report.rows),
        )
    return table


def seats_table(report: Report) -> Table:
    """The games by seat, per player count (as ``saloon simulate`` shows by seat): what each seat
    is worth, whichever bot sat there (seats rotate over the same seeds)."""
    table = Table(
        title="By seat (all bots)",
        caption="win %: wins per game; fair share: 1 / players",
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    for header in ("players", "seat", "games", "wins", "win %", "fair share", "mean score", "mean rank"):
        table.add_column(header, justify="right", no_wrap=True)
    for row in report.by_seat:
        table.add_row(str(row.players), str(row.seat), str(row.games), *_result_cells(row))
    return table


def player_counts_table(report: Report) -> Table:
    """Each bot at each player count: games, seats, wins, mean score and rank."""
    table = Table(
        title="By player count",
        caption="win %: wins per game played; fair share: 1 / players",
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("players", justify="right", no_wrap=True)
    table.add_column("bot", justify="left", overflow="fold", min_width=8)
    for header in ("games", "seats", "wins", "win %", "fair share", "mean score", "mean rank"):
        table.add_column(header, justify="right", no_wrap=True)
    for row in report.by_players:
        table.add_row(str(row.players), Text(row.bot), str(row.games), str(row.seats), *_result_cells(row))
    return table


def _result_cells(row: SeatRow | CountRow) -> tuple[str, ...]:
    """The cells the seat and player-count tables share: wins, win %, fair share (1 / players),
    mean score and mean rank."""
    return (
        str(row.wins),
        f"{100 * row.wins / row.games:.1f}",
        f"{100 / row.players:.1f}",
        f"{row.mean_score:.2f}",
        f"{row.mean_rank:.2f}",
    )


def _number(value: float) -> str:
    """Whole Elo points; ``-`` for ``nan``, and ``0``, not ``-0``, for a small negative value."""
    if math.isnan(value):
        return "-"
    return f"{value:.0f}" if round(value) != 0 else "0"


def _interval(low: float, high: float) -> str:
    return "-" if math.isnan(low) else f"{_number(low)}..{_number(high)}"


def rating_plot(report: Report, width: int = 100, height: int = 20, color: bool = True) -> str:
    """Each bot's rating fitted to the first ``N`` games, for growing ``N``, as a terminal plot (plotext).

    Each bot has its own marker (:data:`PLOT_MARKERS`, by leaderboard place), shown in the legend,
    so the series stay apart without colour too. The legend is under the plot (``legend: ** alpha
    ++ beta ...``, on as many lines as the width needs), never drawn over the lines.

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
    legend: list[str] = []
    for place, row in enumerate(report.rows):
        points = report.history.get(row.bot, [])
        if len(points) > 1:
            marker = PLOT_MARKERS[place % len(PLOT_MARKERS)]
            plt.plot([x for x, _ in points], [y for _, y in points], marker=marker)  # no label: no legend box
            legend.append(f"{marker * 2} {row.bot}")
    plt.title("rating (Elo) fitted to the first N games")
    plt.xlabel("N: games in schedule order")
    text: str = plt.build()
    plt.clear_figure()
    if not color:
        text = plt.uncolorize(text)
    lines: list[str] = []
    for entry in legend:
        if lines and len(lines[-1]) + 3 + len(entry) <= width:
            lines[-1] += "   " + entry
        else:
            lines.append(("legend: " if not lines else "        ") + entry)
    return text.rstrip("\n") + ("\n" + "\n".join(lines) if lines else "")
