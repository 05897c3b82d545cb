"""Ladder ratings: OpenSkill (Plackett–Luce) per game, updated game by game and kept in SQLite.

The ladder rates sequentially, unlike batch tournaments (:mod:`tournament.ratings`, one fit over
all games): ladder bots change between games, and a sequential rating follows them. Each finished
ladder game updates the ratings of its players from their ranks (ties share a rank) and appends
one history row per player, in the caller's transaction, so a game's row, its ratings and its
history commit together or not at all (see :meth:`lobby.store.Store.record_game`).

A rating is a ``mu`` and a ``sigma`` (OpenSkill's defaults: 25 and 25/3). Leaderboards sort by
the conservative estimate ``mu - 3 * sigma`` (OpenSkill's *ordinal*), which starts at 0.

Tables::

    ladder_ratings(game, name, mu, sigma, games, updated)       one row per player and game
    ladder_history(id, game, name, game_row, place, players, mu, sigma, at)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = ["SCHEMA", "HistoryPoint", "LadderRating", "history", "rate_game", "rating", "standings"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS ladder_ratings (
    game     TEXT NOT NULL,
    name     TEXT NOT NULL,
    mu       REAL NOT NULL,
    sigma    REAL NOT NULL,
    games    INTEGER NOT NULL,
    updated  REAL NOT NULL,
    PRIMARY KEY (game, name)
);
CREATE TABLE IF NOT EXISTS ladder_history (
    id        INTEGER PRIMARY KEY,
    game      TEXT NOT NULL,
    name      TEXT NOT NULL,
    game_row  INTEGER NOT NULL,
    place     INTEGER NOT NULL,
    players   INTEGER NOT NULL,
    mu        REAL NOT NULL,
    sigma     REAL NOT NULL,
    at        REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS ladder_history_by_player ON ladder_history(game, name, id);
"""
"""The ladder's tables (created by the store with its own schema)."""

_MODEL = PlackettLuce()


@dataclass(frozen=True)
class LadderRating:
    """One player's rating in one game's ladder.

    Attributes:
        game: the game id.
        name: the account name.
        mu: the mean skill (OpenSkill units; a new player has 25).
        sigma: its uncertainty (a new player has 25/3).
        games: rated games played.
    """

    game: str
    name: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu - 3 * sigma`` leaderboards sort by (0 for a new player)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class HistoryPoint:
    """A player's rating after one ladder game.

    Attributes:
        game_row: the finished game's row id in the store.
        place: the player's rank in that game (1 = best; ties share it).
        players: how many played.
        mu: the rating's mean after the game.
        sigma: its uncertainty after the game.
        at: when the game finished (Unix time).
    """

    game_row: int
    place: int
    players: int
    mu: float
    sigma: float
    at: float


def rating(db: sqlite3.Connection, game: str, name: str) -> LadderRating:
    """``name``'s rating in ``game``'s ladder; a player without rated games gets the default."""
    row = db.execute("SELECT mu, sigma, games FROM ladder_ratings WHERE game = ? AND name = ?", (game, name)).fetchone()
    if row is None:
        return LadderRating(game, name, _MODEL.mu, _MODEL.sigma, 0)
    return LadderRating(game, name, row[0], row[1], row[2])


def rate_game(
    db: sqlite3.Connection, game: str, names: Sequence[str], ranks: Sequence[int], game_row: int, at: float
) -> list[LadderRating]:
    """Update the ratings of one finished ladder game's players; the caller commits.

    Args:
        db: the store's connection, inside the transaction that records the game.
        game: the game id.
        names: the players, seat order; all different.
        ranks: their ranks (1 = best, ties share), seat order; a forfeit is ranked last.
        game_row: the game's row id (for the history).
        at: when it finished (Unix time).

    Returns:
        The new ratings, seat order.

    Raises:
        ValueError: fewer than two players, a name twice, or ``ranks`` of another length.
    """
    if len(names) < 2 or len(set(names)) != len(names) or len(ranks) != len(names):
        raise ValueError(f"a rated game needs two or more different players with one rank each: {names!r}, {ranks!r}")
    before = [rating(db, game, name) for name in names]
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma, name=r.name)] for r in before]
    after = _MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    result = []
    for old, place, (new,) in zip(before, ranks, after, strict=True):
        updated = LadderRating(game, old.name, new.mu, new.sigma, old.games + 1)
        db.execute(
            "INSERT INTO ladder_ratings (game, name, mu, sigma, games, updated) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (game, name) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "games = excluded.games, updated = excluded.updated",
            (game, old.name, updated.mu, updated.sigma, updated.games, at),
        )
        db.execute(
            "INSERT INTO ladder_history (game, name, game_row, place, players, mu, sigma, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game, old.name, game_row, place, len(names), updated.mu, updated.sigma, at),
        )
        result.append(updated)
    return result


def standings(db: sqlite3.Connection, game: str) -> list[LadderRating]:
    """``game``'s ladder, best first (by :attr:`LadderRating.ordinal`, then more games, then name)."""
    rows = db.execute("SELECT name, mu, sigma, games FROM ladder_ratings WHERE game = ?", (game,)).fetchall()
    ladder = [LadderRating(game, name, mu, sigma, games) for name, mu, sigma, games in rows]
    return sorted(ladder, key=lambda r: (-r.ordinal, -r.games, r.name))


def history(db: sqlite3.Connection, game: str, name: str, limit: int = 20) -> list[HistoryPoint]:
    """``name``'s last ``limit`` ladder games in ``game``, oldest first."""
    rows = db.execute(
        "SELECT game_row, place, players, mu, sigma, at FROM ladder_history WHERE game = ? AND name = ? "
        "ORDER BY id DESC LIMIT ?",
        (game, name, limit),
    ).fetchall()
    return [HistoryPoint(*row) for row in reversed(rows)]
