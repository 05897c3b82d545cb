"""The leaderboard of a tournament run: a rich table, JSON and CSV files, and a rating plot.

:func:`build_report` reads an output directory; :func:`write_files` writes
``OUT/leaderboard.json`` and ``OUT/leaderboard.csv``; :func:`leaderboard_table` and
:func:`rating_plot` render it for the terminal.

The leaderboard shows each bot's games *and* seats: line-ups are not always even (see
:mod:`tournament.schedule`), so one bot may play a few games fewer than the others, or take two
seats of one game, and the two counts make that visible.

Ratings are one order-independent Bradley–Terry fit over all games on the Elo scale (0 = the
mean bot) with block-bootstrap 95% intervals, and every pair of bots says whether it is separated
at 95% (all pairs together): see :mod:`tournament.ratings`; a pair that is not says how many more
games would separate it at its current difference (:func:`games_to_separate`). Bot names are never
cut short: a name column takes the longest name's width, and only in a terminal too narrow for
that do names fold, at word boundaries (``ismcts_`` / ``strong``), onto more lines.
"""

from __future__ import annotations

import csv
import math
import os
import re
from collections.abc import Sequence
from pathlib import Path

import msgspec
from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
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
    "games_to_separate",
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

NAME_BREAK = re.compile(r"[^\s_\-.:/=,]+[\s_\-.:/=,]*|[\s_\-.:/=,]+")
"""The pieces a bot name may fold between: each word with the separators after it (``ismcts_``,
``strong``; ``cmd:``, ``python ``, ``bot.``, ``py``)."""

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


def _json_games(value: float) -> int | None:
    """A :func:`games_to_separate` value for JSON: ``None`` where there is no number (no
    intervals, or a difference of 0)."""
    return None if math.isnan(value) or math.isinf(value) else int(value)


def write_files(report: Report, out: str | Path) -> tuple[Path, Path]:
    """Write ``leaderboard.json`` (the whole report) and ``leaderboard.csv`` (the rows) into ``out``.

    Each pair in the JSON carries ``why`` (:func:`pair_reason`) and ``more_games``
    (:func:`games_to_separate`; ``null`` without intervals or for a difference of 0).
    """
    out = Path(out)
    json_path, csv_path = out / "leaderboard.json", out / "leaderboard.csv"
    summary = {
        "game": report.game,
        "scheduled": report.scheduled,
        "played": report.played,
        "rating_scale": RATING_SCALE,
        "bootstrap_resamples": report.resamples,
        "leaderboard": report.rows,
        "pairs": [
            {
                **msgspec.to_builtins(pair),
                "why": pair_reason(pair, report.rows),
                "more_games": _json_games(games_to_separate(pair, report.played)),
            }
            for pair in report.pairs
        ],
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


class _Name:
    """A bot name as a table cell: whole where its column has room, else folded at word boundaries.

    Its measurement tells rich that the column wants the whole name (the maximum) and can do with
    its longest piece (the minimum, see :data:`NAME_BREAK`), so a table that fits the terminal
    gives the column the longest name's width; only a narrower terminal folds names, between pieces
    (``ismcts_`` / ``strong``, never ``heuristi`` / ``c``). A piece wider than the column itself is
    the one thing still folded inside (a terminal too narrow for any table).
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.pieces = NAME_BREAK.findall(name) or [name]

    def lines(self, width: int) -> list[str]:
        """The name folded between pieces into lines of at most ``width`` cells (trailing spaces dropped)."""
        lines = [""]
        for piece in self.pieces:
            if lines[-1] and cell_len((lines[-1] + piece).rstrip()) > width:
                lines.append("")
            lines[-1] += piece
        return [line.rstrip() or line for line in lines]

    @property
    def widest(self) -> int:
        """The width of the name's widest piece: its column is never narrower (:func:`_name_column`)."""
        return max(cell_len(piece.rstrip() or piece) for piece in self.pieces)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.widest, cell_len(self.name)).clamp(max_width=options.max_width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text("\n".join(self.lines(options.max_width)), overflow="fold")


def _name_column(table: Table, header: str, names: Sequence[str]) -> None:
    """Add a column for bot names (cells: :class:`_Name`), never narrower than its widest piece,
    so that only a terminal too narrow for the table folds a name, and only between pieces."""
    widest = max((_Name(name).widest for name in names), default=1)
    table.add_column(header, justify="left", min_width=max(widest, len(header)))


def leaderboard_table(report: Report) -> Table:
    """The leaderboard as a rich table: one row per bot, best first.

    Only the ``bot`` column (and a ``faults`` cell with forfeits) wraps: the column takes the
    longest name's width, and a terminal too narrow for that folds names at word boundaries
    (:class:`_Name`), never cutting them short; the numbers stay whole (an 80-column terminal fits
    them with a bot column of about fifteen characters). The caption says what the rating means;
    :func:`pairs_table` says which bots are separated.
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
    _name_column(table, "bot", [row.bot for row in report.rows])
    for header in ("rating", "95% interval", "games", "seats", "wins", "mean score", "mean rank"):
        table.add_column(header.replace(" ", "\n"), justify="right", no_wrap=True)
    table.add_column("faults", justify="right")  # "3 (1 forfeited)" may wrap
    for row in report.rows:
        table.add_row(
            str(row.place),
            _Name(row.bot),
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


def games_to_separate(pair: Pair, games: int) -> float:
    """How many games beyond ``games`` would separate ``pair`` if its difference stayed as it is.

    A power estimate: the pair's difference ``d`` has a bootstrap standard error ``se`` over the
    ``games`` played, and its simultaneous 95% interval is ``d ± z·se``, ``z`` the
    Bonferroni-corrected quantile (:mod:`tournament.ratings`), so ``z·se`` is ``d - low``. A
    standard error shrinks as one over the square root of the games, so after ``N`` games the
    bound is ``z·se·sqrt(games / N)``, and ``d`` clears it from ``N = games·(z·se/d)²`` on: the
    answer is ``games·(z·se/d)² - games``, rounded up. It assumes the difference stays and the
    games come like those played (the same line-ups and player counts); ``z`` itself shrinks a
    little with more duplicate sets, so the estimate errs on the high side.

    Returns:
        The games still needed: ``0`` for a separated pair, ``inf`` when ``d`` is 0 (rounds to 0
        Elo, as the table shows it: no number of games separates equal ratings), ``nan`` without
        intervals (bootstrap off).
    """
    if math.isnan(pair.low):
        return math.nan
    if pair.separated:
        return 0.0
    if round(pair.difference) <= 0:
        return math.inf
    bound = pair.difference - pair.low  # z·se
    return float(max(0, math.ceil(games * (bound / pair.difference) ** 2 - games)))


def _more_games(value: float) -> str:
    """A :func:`games_to_separate` value for the pairs table: ``-`` (no intervals), ``—`` (a
    difference of 0), else the number with thousands separators."""
    if math.isnan(value):
        return "-"
    if math.isinf(value):
        return "\u2014"
    return f"{value:,.0f}"


def pairs_table(report: Report) -> Table:
    """Which bots are separated at 95%: one row per pair of rated bots, the higher rated first.

    ``difference`` is the rating difference in Elo points, with its simultaneous 95% interval
    (all pairs together, :mod:`tournament.ratings`); ``separated`` is ``yes`` when that interval
    excludes 0 (``-`` without intervals), ``no*`` where the bots' own intervals do not overlap
    but the pair is not separated (the caption says why; :func:`pair_reason` in words, in
    ``leaderboard.json``); ``more games`` is how many more games would separate the pair at its
    current difference (:func:`games_to_separate`; ``—`` for a difference of 0). Name columns take
    the longest name's width; only a narrow terminal folds names, at word boundaries.
    """
    footnote = any(pair_reason(pair, report.rows).startswith("own intervals") for pair in report.pairs)
    caption = [
        "separated: the interval of the difference, wide enough for all pairs at once, excludes 0",
        f"more games: beyond the {report.played:,} played, for the difference as it is to clear that interval",
    ]
    if footnote:
        caption.append("no*: the bots' own intervals do not overlap, but the difference's interval includes 0")
    table = Table(
        title="which bots are separated at 95% (all pairs together)",
        caption="\n".join(caption),
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    _name_column(table, "higher", [pair.higher for pair in report.pairs])
    _name_column(table, "lower", [pair.lower for pair in report.pairs])
    table.add_column("difference", justify="right", no_wrap=True)
    table.add_column("95%\ninterval", justify="right", no_wrap=True)
    table.add_column("separated", justify="left", no_wrap=True)
    table.add_column("more\ngames", justify="right", no_wrap=True)
    for pair in report.pairs:
        if math.isnan(pair.low):
            separated = "-"
        elif pair.separated:
            separated = "yes"
        else:
            separated = "no*" if pair_reason(pair, report.rows).startswith("own intervals") else "no"
        table.add_row(
            _Name(pair.higher),
            _Name(pair.lower),
            _number(pair.difference),
            _interval(pair.low, pair.high),
            separated,
            _more_games(games_to_separate(pair, report.played)),
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
    _name_column(table, "bot", [row.bot for row in report.by_players])
    for header in ("games", "seats", "wins", "win %", "fair\nshare", "mean\nscore", "mean\nrank"):
        table.add_column(header, justify="right", no_wrap=True)
    for row in report.by_players:
        table.add_row(str(row.players), _Name(row.bot), str(row.games), str(row.seats), *_result_cells(row))
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
