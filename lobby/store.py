"""The SSH server's persistent data: accounts, their public keys and finished games, in SQLite (WAL).

Layout of the data directory::

    DATA/saloon.db          accounts, keys, games, the live games' journal (SQLite, write-ahead log)
    DATA/host_key           the server's host key (made once, see :mod:`serve.ssh_server`)
    DATA/replays/*.replay   one replay per finished game

A finished game's replay is written (atomically and durably, :func:`replays.save`) before its row
is committed, so a row always points at a whole file and a server killed at any moment loses no
game whose end it reported. Every write is one transaction: a rated (ladder) game's row, its
rating updates and its rating history commit together (:mod:`lobby.ratings`), so no rating ever
exists without its game. Tables finish in worker threads: one lock serializes the writes; reads
(games, ratings) use a second connection that sees committed data only and never waits for a
write's commit, so the event loop is not held up by another thread's ``fsync``.

**The journal of live games.** A game is its seed and its moves, so a running table is kept as
one ``journal_games`` row (written when its game starts: the seed and whatever
:mod:`lobby.tables` needs to rebuild the table) and one ``journal_moves`` row per move (its
number, the seat and the index into that seat's legal actions, as a replay stores it, and a digest
of the state after it). Each move is committed before the table shows it to anyone
(:meth:`Store.journal_move`), so a server killed at any moment restarts at the position everyone
saw (:meth:`lobby.tables.Lobby.resume`). The journal goes through its own connection with
``synchronous=NORMAL``: under WAL a commit is then safe from a killed process (the kernel keeps
what was written) without an ``fsync`` on the event loop per move. Measured on the development
machine, a move's digest, INSERT and commit took 20 to 30 µs (p99 under 0.1 ms; the WAL's
checkpoint, every few hundred moves, a few ms), against 0.1 to 2 ms (p99 2 to 8 ms) with an
``fsync`` per commit. A power cut may lose the last moves: the game then resumes a few moves
back. A game's journal rows are deleted in the transaction that records it
(:meth:`Store.record_game`), which stays ``synchronous=FULL``. The journal holds each running
game's seed, which nobody may see before the game is over: the data directory is the operator's
alone (no command or SFTP path reads ``saloon.db``).
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
import replays
from lobby import ratings

__all__ = ["NAME_RE", "GameRecord", "JournaledGame", "NameTaken", "Store", "valid_name"]

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
CREATE TABLE IF NOT EXISTS journal_games (
    code      TEXT PRIMARY KEY,
    game      TEXT NOT NULL,
    seed      TEXT NOT NULL,
    started   REAL NOT NULL,
    detail    TEXT NOT NULL,
    faults    TEXT NOT NULL,
    forfeits  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS journal_moves (
    code      TEXT NOT NULL,
    number    INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    choice    INTEGER NOT NULL,
    digest    TEXT NOT NULL,
    PRIMARY KEY (code, number)
) WITHOUT ROWID;
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
        winners: the winning seats of the game's recorded result (:func:`engine.forfeit_outcome`:
            the engine's, unless some but not all seats forfeited).
        faults: the game's fault log (remote and server bots' faults), as in the replay.
        ranks: the recorded result's ranks, seat order (1 = best): what a ladder game was rated by.
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
    ranks: tuple[int, ...] = ()


@dataclass(frozen=True)
class JournaledGame:
    """A game that was running when the server stopped, as its journal holds it.

    Attributes:
        code: the table's code.
        game: the game id.
        seed: the game's seed (secret until the game is over: never show it).
        started: when the game started (Unix time).
        detail: what :mod:`lobby.tables` wrote to rebuild the table (seats, options, creator, ...).
        moves: per move, in order: ``(seat, index into the seat's legal actions, digest prefix
            of the state after the move)``.
        faults: the table's fault log so far.
        forfeits: the seats that forfeited so far (a rated game).
    """

    code: str
    game: str
    seed: int
    started: float
    detail: dict[str, Any]
    moves: tuple[tuple[int, int, str], ...]
    faults: tuple[str, ...] = ()
    forfeits: tuple[int, ...] = ()


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
        self._lock = threading.RLock()
        self._db.executescript(_SCHEMA)
        self._db.executescript(ratings.SCHEMA)
        self._read = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._read.execute("PRAGMA query_only=ON")
        # the live games' journal: a commit per move, safe from a killed process without an fsync
        self._journal = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._journal.execute("PRAGMA synchronous=NORMAL")

    def close(self) -> None:
        """Close the database."""
        self._journal.close()
        self._read.close()
        self._db.close()

    # Accounts -----------------------------------------------------------------------------

    def name_for_key(self, fingerprint: str) -> str | None:
        """The account a key belongs to, or ``None`` for a key never seen."""
        row = self._db.execute("SELECT name FROM keys WHERE fingerprint = ?", (fingerprint,)).fetchone()
        return None if row is None else str(row[0])

    def name_taken(self, name: str) -> bool:
        """True if an account called ``name`` exists."""
        return self._db.execute("SELECT 1 FROM accounts WHERE name = ?", (name,)).fetchone() is not None

    def account_created(self, name: str) -> float | None:
        """When the account ``name`` was made (Unix time), or ``None`` if there is no such account."""
        row = self._db.execute("SELECT created FROM accounts WHERE name = ?", (name,)).fetchone()
        return None if row is None else float(row[0])

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

    def record_game(
        self,
        code: str,
        replay: replays.Replay,
        started: float,
        finished: float,
        rated: bool = False,
        forfeits: Collection[int] = (),
    ) -> GameRecord:
        """Save a finished game: its replay file first (durably), then its row; the table's journal
        (:meth:`journal_start`) is deleted in the same transaction.

        One outcome, one record: the row holds the game's one result,
        :func:`engine.forfeit_outcome` of the replay's (engine's) outcome and ``forfeits`` (the
        engine's own, unless some but not all seats forfeited); a ladder game is rated by that
        result's ranks, so the game log's winners and the leaderboard's places always agree. The
        replay keeps the engine's outcome, which re-simulating it checks.

        Args:
            code: the table's code.
            replay: the finished game's replay (with its fault log).
            started: when the game started (Unix time).
            finished: when it ended (Unix time).
            rated: a ladder game: the game's row, the players' new ratings and their history rows
                commit in one transaction.
            forfeits: the seats that forfeited (their owner away past the grace time, or gone).

        Returns:
            The new :class:`GameRecord`.

        Raises:
            ValueError: the replay has no outcome (the game is not over), a forfeit is not a seat,
                or a rated game's players cannot be rated (:func:`lobby.ratings.rate_game`: a
                name twice, say); nothing is recorded then.
            OSError: the replay cannot be written.
        """
        if replay.outcome is None:
            raise ValueError("only finished games are recorded")
        result = engine.forfeit_outcome(replay.outcome, forfeits)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(finished))
        path = self.replay_dir / f"{replay.header.game}-{stamp}-{code}.replay"
        replays.save(replay, path)
        players = tuple(p.name for p in replay.header.players)
        outcome = {"scores": list(result.scores), "ranks": list(result.ranks), "winners": list(result.winners)}
        outcome["forfeits"] = sorted(forfeits)
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
            if rated:
                ratings.rate_game(self._db, replay.header.game, players, result.ranks, row_id, finished)
            self._db.execute("DELETE FROM journal_moves WHERE code = ?", (code,))
            self._db.execute("DELETE FROM journal_games WHERE code = ?", (code,))
        return GameRecord(
            row_id,
            code,
            replay.header.game,
            players,
            started,
            finished,
            path,
            result.winners,
            replay.faults,
            result.ranks,
        )

    def games(self, limit: int = 50) -> list[GameRecord]:
        """The most recently finished games, newest first."""
        rows = self._read.execute(
            "SELECT id, code, game, players, started, finished, replay, outcome FROM games"
            " ORDER BY finished DESC, id DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [self._record(r) for r in rows]

    def game(self, row_id: int) -> GameRecord | None:
        """The finished game with row id ``row_id``, or ``None`` if there is none."""
        row = self._read.execute(
            "SELECT id, code, game, players, started, finished, replay, outcome FROM games WHERE id = ?",
            (row_id,),
        ).fetchone()
        return None if row is None else self._record(row)

    def game_by_code(self, code: str) -> GameRecord | None:
        """The latest finished game of the table with code ``code`` (case-insensitive), or ``None``.

        A table's code is what the lobby shows; codes are reused once a table has gone, so the
        newest game of that code is the one meant.
        """
        row = self._read.execute(
            "SELECT id, code, game, players, started, finished, replay, outcome FROM games"
            " WHERE code = ? ORDER BY finished DESC, id DESC LIMIT 1",
            (code.upper(),),
        ).fetchone()
        return None if row is None else self._record(row)

    def _record(self, r: tuple[object, ...]) -> GameRecord:
        outcome = json.loads(str(r[7]))
        return GameRecord(
            int(str(r[0])),
            str(r[1]),
            str(r[2]),
            tuple(json.loads(str(r[3]))),
            float(str(r[4])),
            float(str(r[5])),
            self.data_dir / str(r[6]),
            tuple(outcome["winners"]),
            tuple(outcome.get("faults", ())),
            tuple(outcome.get("ranks", ())),
        )

    # The journal of live games ------------------------------------------------------------------

    def journal_start(
        self,
        code: str,
        game: str,
        seed: int,
        started: float,
        detail: Mapping[str, Any],
        faults: Sequence[str] = (),
        forfeits: Collection[int] = (),
    ) -> None:
        """Journal a game that starts at table ``code`` (replacing any journal of that code).

        Args:
            code: the table's code.
            game: the game id.
            seed: the game's seed.
            started: when it started (Unix time).
            detail: what the table needs to be rebuilt, as JSON builtins.
            faults: the table's fault log so far.
            forfeits: the seats that forfeited so far.

        Raises:
            sqlite3.Error: the journal cannot be written; nothing is.
            TypeError: ``detail`` is not JSON builtins.
        """
        row = (
            code,
            game,
            str(seed),
            started,
            json.dumps(detail),
            json.dumps(list(faults)),
            json.dumps(sorted(forfeits)),
        )
        with self._lock:
            db = self._journal
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("DELETE FROM journal_moves WHERE code = ?", (code,))
                db.execute(
                    "INSERT OR REPLACE INTO journal_games(code, game, seed, started, detail, faults, forfeits)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    row,
                )
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def journal_move(self, code: str, number: int, seat: int, choice: int, digest: str) -> None:
        """Journal move ``number`` (1 for the first) of table ``code``: one INSERT, committed on return.

        It runs on the event loop before anyone is shown the move: 20 to 30 µs (WAL,
        ``synchronous=NORMAL``: no ``fsync``; see the module docstring), longer while another
        thread commits or the WAL is checkpointed.

        Args:
            code: the table's code.
            number: the move's number in the game, 1 for the first.
            seat: the seat that moved.
            choice: the index of its action in the seat's legal actions.
            digest: a prefix of the state's digest after the move (checked when the game resumes).

        Raises:
            sqlite3.Error: the move cannot be written (a move of that number is journaled already).
        """
        with self._lock:
            self._journal.execute(
                "INSERT INTO journal_moves(code, number, seat, choice, digest) VALUES (?, ?, ?, ?, ?)",
                (code, number, seat, choice, digest),
            )

    def journal_faults(self, code: str, faults: Sequence[str], forfeits: Collection[int]) -> None:
        """Replace the journaled fault log and forfeits of table ``code`` (they change seldom).

        Raises:
            sqlite3.Error: they cannot be written.
        """
        with self._lock:
            self._journal.execute(
                "UPDATE journal_games SET faults = ?, forfeits = ? WHERE code = ?",
                (json.dumps(list(faults)), json.dumps(sorted(forfeits)), code),
            )

    def journal_drop(self, code: str) -> None:
        """Delete the journal of table ``code`` (its game will not be resumed); no journal, no change.

        Raises:
            sqlite3.Error: it cannot be deleted.
        """
        with self._lock:
            db = self._journal
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("DELETE FROM journal_moves WHERE code = ?", (code,))
                db.execute("DELETE FROM journal_games WHERE code = ?", (code,))
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def journaled_codes(self) -> list[str]:
        """The codes of the tables whose games are journaled (running when the server stopped), sorted."""
        return [str(row[0]) for row in self._read.execute("SELECT code FROM journal_games ORDER BY code")]

    def journaled_game(self, code: str) -> JournaledGame:
        """The journal of table ``code``.

        Raises:
            KeyError: no game of that code is journaled.
            ValueError: the journal is damaged (bad JSON, a bad seed, moves missing between two).
        """
        row = self._read.execute(
            "SELECT code, game, seed, started, detail, faults, forfeits FROM journal_games WHERE code = ?", (code,)
        ).fetchone()
        if row is None:
            raise KeyError(code)
        moves = []
        for number, seat, choice, digest in self._read.execute(
            "SELECT number, seat, choice, digest FROM journal_moves WHERE code = ? ORDER BY number", (code,)
        ):
            if number != len(moves) + 1:
                raise ValueError(f"table {code}: journaled move {len(moves) + 1} is missing (next is {number})")
            moves.append((int(seat), int(choice), str(digest)))
        detail = json.loads(str(row[4]))
        if not isinstance(detail, dict):
            raise ValueError(f"table {code}: the journal's detail is not an object")
        return JournaledGame(
            code=str(row[0]),
            game=str(row[1]),
            seed=int(str(row[2])),
            started=float(row[3]),
            detail=detail,
            moves=tuple(moves),
            faults=tuple(str(line) for line in json.loads(str(row[5]))),
            forfeits=tuple(int(seat) for seat in json.loads(str(row[6]))),
        )

    # The ladder (ratings kept by :mod:`lobby.ratings`) ----------------------------------------

    def ladder_rating(self, game: str, name: str) -> ratings.LadderRating:
        """``name``'s ladder rating in ``game`` (the default for a player without rated games)."""
        return ratings.rating(self._read, game, name)

    def ladder_standings(self, game: str) -> list[ratings.LadderRating]:
        """``game``'s ladder, best first (:func:`lobby.ratings.standings`)."""
        return ratings.standings(self._read, game)

    def ladder_history(self, game: str, name: str, limit: int = 20) -> list[ratings.HistoryPoint]:
        """``name``'s last ``limit`` ladder games in ``game``, oldest first (:func:`lobby.ratings.history`)."""
        return ratings.history(self._read, game, name, limit)

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self._lock)


class _Transaction:
    def __init__(self, db: sqlite3.Connection, lock: threading.RLock) -> None:
        self._db = db
        self._lock = lock

    def __enter__(self) -> None:
        self._lock.acquire()
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except BaseException:
            self._lock.release()
            raise

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            self._db.execute("COMMIT" if exc_type is None else "ROLLBACK")
        finally:
            self._lock.release()
