"""Game results and the SQLite results store of a tournament run (``OUT/results.sqlite``).

One row per finished game, keyed by its schedule index, written together with the game's replay
file; a resumed run skips the indices already stored, so a killed run neither repeats nor loses a
game. The database runs in WAL mode and commits once per batch of games.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path

import msgspec

__all__ = ["GameRecord", "ResultStore", "RunInfo", "StoreMismatch"]


class GameRecord(msgspec.Struct, frozen=True):
    """The result of one tournament game, per seat in seat order.

    Attributes:
        index: the game's schedule index.
        set_index: its duplicate set.
        rotation: its rotation within the set.
        num_players: the player count.
        seed: the game's seed.
        seats: the bot display name in each seat.
        scores: the game's scores.
        ranks: the ranks used for ratings: the game's one recorded result
            (:func:`engine.forfeit_outcome`, as the server records its games): the engine's ranks,
            except that bots that forfeited are ranked last (tied), below every bot that did not,
            unless every bot forfeited.
        winners: that result's winners: the seats it ranks first (nobody if the engine named
            nobody).
        faults: the faults of each seat's bot.
        forfeited: whether each seat's bot forfeited (more than ``max_faults`` faults).
        decisions: the number of moves.
        seconds: how long the game took to play.
        fault_log: what went wrong, one line per fault.
    """

    index: int
    set_index: int
    rotation: int
    num_players: int
    seed: int
    seats: tuple[str, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    faults: tuple[int, ...]
    forfeited: tuple[bool, ...]
    decisions: int
    seconds: float
    fault_log: tuple[str, ...] = ()

    def result_key(self) -> tuple[object, ...]:
        """Everything that must not depend on how the run was executed (no timings)."""
        return (self.index, self.seed, self.seats, self.scores, self.ranks, self.winners, self.faults, self.decisions)


class RunInfo(msgspec.Struct, frozen=True):
    """One invocation of ``tournament run`` on an output directory.

    Attributes:
        started: the start time (seconds since the epoch).
        workers: the number of worker processes.
        backend: ``"local"`` (process pool), ``"inline"`` (one worker, in the process) or ``"dask"``.
        games: the games played by this invocation.
        seconds: the wall time spent playing them.
    """

    started: float
    workers: int
    backend: str
    games: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        """The throughput achieved."""
        return self.games / self.seconds if self.seconds > 0 else 0.0


class StoreMismatch(ValueError):
    """The output directory holds a run of a different configuration."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    idx INTEGER PRIMARY KEY,
    set_idx INTEGER NOT NULL,
    num_players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    ranks TEXT NOT NULL,
    scores TEXT NOT NULL,
    faults TEXT NOT NULL,
    replay TEXT NOT NULL,
    record BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY AUTOINCREMENT, info BLOB NOT NULL);
"""

_encode = msgspec.json.encode


class ResultStore:
    """The SQLite results of one tournament output directory.

    Args:
        path: the database file (created if missing).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db = sqlite3.connect(self.path, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self._db.commit()

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get_meta(self, key: str) -> bytes | None:
        """A stored metadata value, or ``None``."""
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else bytes(row[0])

    def bind(self, identity: bytes, config_json: bytes) -> None:
        """Tie the store to a configuration; a store of another configuration is refused.

        Raises:
            StoreMismatch: the store was started with different settings.
        """
        stored = self.get_meta("identity")
        if stored is None:
            self._db.execute("INSERT INTO meta VALUES ('identity', ?), ('config', ?)", (identity, config_json))
            self._db.commit()
            return
        if stored != identity:
            old, new = msgspec.json.decode(stored), msgspec.json.decode(identity)
            keys = [key for key in new if old.get(key) != new.get(key)]
            raise StoreMismatch(
                f"{self.path.parent} holds a run of a different configuration (differs in: {', '.join(keys)}); "
                "use another --out directory"
            )

    def done(self) -> set[int]:
        """The indices of the games already stored."""
        return {row[0] for row in self._db.execute("SELECT idx FROM games")}

    def add(self, records: Iterable[tuple[GameRecord, str]]) -> None:
        """Store finished games (each with its replay path) in one transaction; stored ones are kept."""
        rows = [
            (
                r.index,
                r.set_index,
                r.num_players,
                r.seed,
                _encode(r.seats).decode(),
                _encode(r.ranks).decode(),
                _encode(r.scores).decode(),
                _encode(r.faults).decode(),
                replay,
                _encode(r),
            )
            for r, replay in records
        ]
        with self._db:
            self._db.executemany("INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def records(self) -> list[GameRecord]:
        """Every stored game, by index."""
        decode = msgspec.json.Decoder(GameRecord).decode
        return [decode(row[0]) for row in self._db.execute("SELECT record FROM games ORDER BY idx")]

    def add_run(self, info: RunInfo) -> None:
        """Record one invocation's throughput."""
        with self._db:
            self._db.execute("INSERT INTO runs (info) VALUES (?)", (_encode(info),))

    def runs(self) -> list[RunInfo]:
        """Every recorded invocation, oldest first."""
        decode = msgspec.json.Decoder(RunInfo).decode
        return [decode(row[0]) for row in self._db.execute("SELECT info FROM runs ORDER BY id")]


def now() -> float:
    """The wall-clock time (seconds since the epoch), for :class:`RunInfo`."""
    return time.time()
