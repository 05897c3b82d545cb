"""The SSH server's persistent data: accounts, their public keys and finished games, in SQLite (WAL).

Layout of the data directory::

    DATA/saloon.db          accounts, keys, games (SQLite, write-ahead log)
    DATA/host_key           the server's host key (made once, see :mod:`tui.server`)
    DATA/replays/*.replay   one replay per finished game

A finished game's replay is written (atomically and durably, :func:`replays.save`) before its row
is committed, so a row always points at a whole file and a server killed at any moment loses no
game whose end it reported. Every write is one transaction.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import replays

__all__ = ["NAME_RE", "GameRecord", "NameTaken", "Store", "valid_name"]

NAME_RE = re.compile(r"[a-z][a-z0-9_-]{0,23}")
"""Account names: a lower-case letter, then up to 23 lower-case letters, digits, ``_`` or ``-``."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    name     TEXT PRIMARY KEY,
    created  REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS keys (
    fingerprint TEXT PRIMARY KEY,
    name        TEXT NOT NULL REFERENCES accounts(name),
    public_key  TEXT NOT NULL,
    added       REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS keys_by_name ON keys(name);
CREATE TABLE IF NOT EXISTS games (
    id        INTEGER PRIMARY KEY,
    code      TEXT NOT NULL,
    game      TEXT NOT NULL,
    players   TEXT NOT NULL,
    seed      TEXT NOT NULL,
    started   REAL NOT NULL,
    finished  REAL NOT NULL,
    replay    TEXT NOT NULL,
    outcome   TEXT NOT NULL
);
"""


def valid_name(name: str) -> bool:
    """True if ``name`` is a valid account name (:data:`NAME_RE`); safe to use in paths and logs."""
    return NAME_RE.fullmatch(name) is not None


class NameTaken(ValueError):
    """The account name is registered to another key."""


@dataclass(frozen=True)
class GameRecord:
    """One finished game on the server.

    Attributes:
        id: the row id.
        code: the table's code.
        game: the game id.
        players: the player names, seat order.
        started: when the game started (Unix time).
        finished: when it ended (Unix time).
        replay: the replay file's path.
        winners: the winning seats.
        faults: the game's fault log (remote and server bots' faults), as in the replay.
    """

    id: int
    code: str
    game: str
    players: tuple[str, ...]
    started: float
    finished: float
    replay: Path
    winners: tuple[int, ...]
    faults: tuple[str, ...] = ()


class Store:
    """The server's SQLite database and replay directory.

    Args:
        data_dir: the data directory (created if missing).
    """

    def __init__(self, data_dir: Path | str) -> None:
        self.data_dir = Path(data_dir)
        self.replay_dir = self.data_dir / "replays"
        self.replay_dir.mkdir(parents=True, exist_ok=True)
        self.path = self.data_dir / "saloon.db"
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    # Accounts -----------------------------------------------------------------------------

    def name_for_key(self, fingerprint: str) -> str | None:
        """The account a key belongs to, or ``None`` for a key never seen."""
        row = self._db.execute("SELECT name FROM keys WHERE fingerprint = ?", (fingerprint,)).fetchone()
        return None if row is None else str(row[0])

    def name_taken(self, name: str) -> bool:
        """True if an account called ``name`` exists."""
        return self._db.execute("SELECT 1 FROM accounts WHERE name = ?", (name,)).fetchone() is not None

    def register(self, name: str, fingerprint: str, public_key: str) -> bool:
        """Register the key under ``name``; a new name makes a new account.

        Returns:
            True if the account is new, False if the key was already registered to ``name``.

        Raises:
            NameTaken: ``name`` belongs to other keys, or the key belongs to another account.
            ValueError: ``name`` is not a valid account name.
        """
        if not valid_name(name):
            raise ValueError(f"invalid account name {name!r}")
        now = time.time()
        with self._transaction():
            owner = self.name_for_key(fingerprint)
            if owner is not None:
                if owner != name:
                    raise NameTaken(f"this key is registered to {owner!r}")
                return False
            if self.name_taken(name):
                raise NameTaken(f"the name {name!r} is registered to another key")
            self._db.execute("INSERT INTO accounts(name, created) VALUES (?, ?)", (name, now))
            self._db.execute(
                "INSERT INTO keys(fingerprint, name, public_key, added) VALUES (?, ?, ?, ?)",
                (fingerprint, name, public_key, now),
            )
            return True

    def accounts(self) -> list[str]:
        """Every account name, sorted."""
        return [str(row[0]) for row in self._db.execute("SELECT name FROM accounts ORDER BY name")]

    # Games --------------------------------------------------------------------------------

    def record_game(self, code: str, replay: replays.Replay, started: float, finished: float) -> GameRecord:
        """Save a finished game: its replay file first (durably), then its row.

        Returns:
            The new :class:`GameRecord`.

        Raises:
            ValueError: the replay has no outcome (the game is not over).
            OSError: the replay cannot be written.
        """
        if replay.outcome is None:
            raise ValueError("only finished games are recorded")
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(finished))
        path = self.replay_dir / f"{replay.header.game}-{stamp}-{code}.replay"
        replays.save(replay, path)
        players = tuple(p.name for p in replay.header.players)
        outcome = {"scores": list(replay.outcome.scores), "ranks": list(replay.outcome.ranks)}
        outcome["winners"] = list(replay.outcome.winners)
        outcome["faults"] = list(replay.faults)
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games(code, game, players, seed, started, finished, replay, outcome)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    code,
                    replay.header.game,
                    json.dumps(players),
                    str(replay.header.seed),
                    started,
                    finished,
                    str(path.relative_to(self.data_dir)),
                    json.dumps(outcome),
                ),
            )
            row_id = int(cursor.lastrowid or 0)
        return GameRecord(
            row_id, code, replay.header.game, players, started, finished, path, replay.outcome.winners, replay.faults
        )

    def games(self, limit: int = 50) -> list[GameRecord]:
        """The most recently finished games, newest first."""
        rows = self._db.execute(
            "SELECT id, code, game, players, started, finished, replay, outcome FROM games"
            " ORDER BY finished DESC, id DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [
            GameRecord(
                int(r[0]),
                str(r[1]),
                str(r[2]),
                tuple(json.loads(r[3])),
                float(r[4]),
                float(r[5]),
                self.data_dir / str(r[6]),
                tuple(json.loads(r[7])["winners"]),
                tuple(json.loads(r[7]).get("faults", ())),
            )
            for r in rows
        ]

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self._db.execute("COMMIT" if exc_type is None else "ROLLBACK")
