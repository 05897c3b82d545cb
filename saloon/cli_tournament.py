"""``saloon tournament run CONFIG.toml`` and ``saloon tournament show DIR`` (see ``DESIGN.md``).

A bad configuration (the message names the key; a base ``seed`` outside ``0..engine.MAX_SEED``
included), a bad argument, or an output directory of a different configuration is one line on
stderr and exit code 2. An interrupted run (Ctrl-C, or killed) keeps every finished game; running
it again resumes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.text import Text

import engine

__all__ = ["add_tournament_parser"]


class _UsageError(ValueError):
    """A bad command line; exit code 2 (a ``ValueError``, as ``saloon.cli.main`` expects)."""


def _default_out(config_path: Path) -> Path:
    return Path("runs") / config_path.stem


def _print_report(out: Path, console: Console, plot: bool) -> None:
    from tournament import build_report, leaderboard_table, pairs_table, player_counts_table, rating_plot, seats_table

    report = build_report(out)
    console.print(leaderboard_table(report))
    if report.pairs:
        console.print(pairs_table(report))
    if report.played:
        console.print(seats_table(report))
        console.print(player_counts_table(report))
    for run in report.runs:
        console.print(
            f"run: {run.games} games in {run.seconds:.1f}s = {run.games_per_s:.1f} games/s "
            f"({run.workers} worker{'s' if run.workers != 1 else ''}, {run.backend})",
            highlight=False,
        )
    if plot and report.played:
        width = max(40, min(console.width, 120))
        console.print(Text.from_ansi(rating_plot(report, width=width, color=console.is_terminal)))


def _cmd_run(args: argparse.Namespace) -> int:
    from tournament import (
        build_report,
        leaderboard_table,
        load_config,
        pairs_table,
        player_counts_table,
        run_tournament,
        seats_table,
        write_files,
    )

    if args.workers is not None and args.workers < 1:
        raise _UsageError(f"--workers must be at least 1, not {args.workers}")
    config = load_config(args.config)
    if not 0 <= config.seed <= engine.MAX_SEED:  # the game seeds derive from it (one range everywhere)
        raise _UsageError(f"{args.config}: key 'seed': must be from 0 to {engine.MAX_SEED}, not {config.seed}")
    out: Path = args.out or _default_out(args.config)
    console = Console()
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task: Any = None

    def on_start(scheduled: int, done: int) -> None:
        nonlocal task
        if done:
            console.print(f"resuming {out}: {done} of {scheduled} games already played", highlight=False)
        task = progress.add_task(f"{config.game} tournament", total=scheduled, completed=done)

    def on_game(record: Any) -> None:
        progress.advance(task)

    try:
        with progress:
            summary = run_tournament(config, out, args.workers, args.dask, on_game=on_game, on_start=on_start)
    except KeyboardInterrupt:
        print(f"saloon: interrupted; finished games are saved in {out}: run again to resume", file=sys.stderr)
        return 130
    except OSError as exc:  # e.g. a Dask scheduler that cannot be reached
        raise _UsageError(f"tournament run failed: {exc}") from None
    report = build_report(out)
    json_path, csv_path = write_files(report, out)
    console.print(leaderboard_table(report))
    if report.pairs:
        console.print(pairs_table(report))
    if report.played:
        console.print(seats_table(report))
        console.print(player_counts_table(report))
    console.print(
        f"played {summary.played} games ({summary.already_done} already done) in {summary.seconds:.1f}s: "
        f"{summary.games_per_s:.1f} games/s with {summary.workers} worker{'s' if summary.workers != 1 else ''} "
        f"({summary.backend})\n"
        f"results: {out / 'results.sqlite'}, {json_path}, {csv_path}; replays in {out / 'replays'}",
        highlight=False,
    )
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    try:
        _print_report(args.dir, Console(), plot=not args.no_plot)
    except FileNotFoundError as exc:
        raise _UsageError(str(exc)) from None
    return 0


def add_tournament_parser(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    """Add ``tournament run`` and ``tournament show`` to the ``saloon`` subcommands."""
    tournament = commands.add_parser("tournament", help="run a tournament between bots, or show its leaderboard")
    actions = tournament.add_subparsers(dest="tournament_command", metavar="run|show", parser_class=parser_class)
    tournament.set_defaults(func=lambda args: _missing(tournament))

    run = actions.add_parser("run", help="play a tournament (resumes an interrupted one)")
    run.add_argument("config", type=Path, metavar="CONFIG.toml")
    run.add_argument("--workers", type=int, metavar="N", help="worker processes (default: the number of cores)")
    run.add_argument("--out", type=Path, metavar="DIR", help="output directory (default: runs/CONFIG-NAME)")
    run.add_argument(
        "--dask", metavar="ADDRESS|local", help="run on a Dask cluster: a scheduler address, or 'local' for one here"
    )
    run.set_defaults(func=_cmd_run)

    show = actions.add_parser("show", help="the leaderboard of a tournament run")
    show.add_argument("dir", type=Path, metavar="DIR")
    show.add_argument("--no-plot", action="store_true", help="leave out the rating plot")
    show.set_defaults(func=_cmd_show)


def _missing(parser: argparse.ArgumentParser) -> int:
    parser.print_usage(sys.stderr)
    return 2
