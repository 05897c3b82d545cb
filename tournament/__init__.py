"""Saloon tournaments: rank bot submissions over thousands of seeded games.

``saloon tournament run CONFIG.toml`` plays a tournament; ``saloon tournament show DIR`` prints
its leaderboard. From Python:

>>> from tournament import load_config, run_tournament, build_report
>>> config = load_config("examples/deadwood1876.toml")  # doctest: +SKIP
>>> summary = run_tournament(config, "out/deadwood1876", workers=2)  # doctest: +SKIP
>>> build_report("out/deadwood1876").rows[0].bot  # doctest: +SKIP

Modules: :mod:`~tournament.config` (the TOML file), :mod:`~tournament.schedule` (duplicate sets,
seeds), :mod:`~tournament.run` (workers, Dask, resuming), :mod:`~tournament.results` (SQLite),
:mod:`~tournament.ratings` (one Bradley–Terry fit over all games, block bootstrap, which bots are
separated) and :mod:`~tournament.report` (leaderboard).
"""

from __future__ import annotations

from tournament.config import ConfigError, TournamentConfig, load_config, parse_config
from tournament.ratings import Pair, Rating, Ratings, rate
from tournament.report import (
    Report,
    build_report,
    leaderboard_table,
    pairs_table,
    player_counts_table,
    rating_plot,
    seats_table,
    write_files,
)
from tournament.results import GameRecord, StoreMismatch
from tournament.run import RunSummary, run_tournament
from tournament.schedule import GameSpec, derive_seed, make_schedule

__all__ = [
    "ConfigError",
    "GameRecord",
    "GameSpec",
    "Pair",
    "Rating",
    "Ratings",
    "Report",
    "RunSummary",
    "StoreMismatch",
    "TournamentConfig",
    "build_report",
    "derive_seed",
    "leaderboard_table",
    "load_config",
    "make_schedule",
    "pairs_table",
    "player_counts_table",
    "parse_config",
    "rate",
    "rating_plot",
    "seats_table",
    "run_tournament",
    "write_files",
]
