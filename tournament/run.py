"""Running a tournament: games in batches on worker processes (or Dask), results to SQLite.

:func:`run_tournament` plays every scheduled game that the output directory does not hold yet:

* ``OUT/results.sqlite``: one row per game (see :mod:`tournament.results`);
* ``OUT/replays/game-NNNNNN.replay``: every game's replay;
* ``OUT/logs/BOT.stderr.log``: the standard error of external bots.

Games are independent: each builds its own bots from the game's seeds, so a game's result does not
depend on the worker, the batch or the order, and the results are identical for any number of
workers. Local workers save each replay (atomically and durably: :func:`replays.atomic_write`) as
they finish it; the parent stores each finished batch's results in one transaction (Dask workers
send their replays back to the parent, which saves them first). A game counts as done once its row
is stored, so a killed run resumes where it stopped, neither repeating nor losing a game (a replay
saved without its row is simply played and saved again, identically).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import math
import multiprocessing
import os
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec

import engine
import replays
from bots import Bot, make_bot, play_game
from bots.external import ExternalBot
from tournament.config import TournamentConfig
from tournament.results import GameRecord, ResultStore, RunInfo, now
from tournament.schedule import GameSpec, bot_seed, make_schedule

__all__ = ["RunSummary", "default_workers", "play_batch", "play_one", "run_tournament"]

RESULTS_FILE = "results.sqlite"
REPLAYS_DIR = "replays"
LOGS_DIR = "logs"


class RunSummary(msgspec.Struct, frozen=True):
    """What one :func:`run_tournament` call did.

    Attributes:
        scheduled: the games in the schedule.
        already_done: the games found in the output directory (skipped).
        played: the games played now.
        seconds: the wall time spent playing them (start-up of workers included).
        workers: the number of workers.
        backend: ``"inline"``, ``"local"`` or ``"dask"``.
    """

    scheduled: int
    already_done: int
    played: int
    seconds: float
    workers: int
    backend: str

    @property
    def games_per_s(self) -> float:
        """Games played per second of wall time."""
        return self.played / self.seconds if self.seconds > 0 else 0.0


def default_workers() -> int:
    """The number of cores this process may use."""
    with contextlib.suppress(AttributeError):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _log_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:80] or "bot"


def _make(config: TournamentConfig, name: str, seed: int, log_dir: str | None) -> Bot:
    spec = config.bots[name].strip()
    if spec.startswith("cmd:"):
        return ExternalBot(
            spec[len("cmd:") :].strip(),
            seed,
            decision_timeout_s=config.decision_timeout_s,
            startup_timeout_s=config.startup_timeout_s,
            memory_limit_mb=config.memory_limit_mb,
            name=name,
            cwd=config.base_dir,
            stderr_path=None if log_dir is None else Path(log_dir) / f"{_log_name(name)}.stderr.log",
        )
    return make_bot(spec, seed)


def play_one(config: TournamentConfig, spec: GameSpec, log_dir: str | None = None) -> tuple[GameRecord, bytes]:
    """Play one scheduled game.

    Returns:
        The game's :class:`GameRecord` and its encoded replay.
    """
    started = time.perf_counter()
    bots = [
        _make(config, name, bot_seed(config.seed, spec.index, seat), log_dir) for seat, name in enumerate(spec.seats)
    ]
    players = [replays.Player(name, "bot") for name in spec.seats]
    try:
        result = play_game(config.game, spec.num_players, bots, spec.seed, config.options or None, players)
    finally:
        for bot in bots:
            close = getattr(bot, "close", None)
            if callable(close):
                close()
    forfeited = tuple(faults > config.max_faults for faults in result.faults)
    # one outcome, one record: the result the server would record for the same game
    outcome = engine.forfeit_outcome(result.outcome, [seat for seat, out in enumerate(forfeited) if out])
    record = GameRecord(
        index=spec.index,
        set_index=spec.set_index,
        rotation=spec.rotation,
        num_players=spec.num_players,
        seed=spec.seed,
        seats=spec.seats,
        scores=tuple(float(score) for score in outcome.scores),
        ranks=outcome.ranks,
        winners=outcome.winners,
        faults=result.faults,
        forfeited=forfeited,
        decisions=result.decisions,
        seconds=time.perf_counter() - started,
        fault_log=result.fault_log[:50],
    )
    return record, replays.encode(result.replay)


def replay_path(replay_dir: str | Path, index: int) -> Path:
    """Where game ``index``'s replay is saved."""
    return Path(replay_dir) / f"game-{index:06d}.replay"


def _save_replay(path: Path, data: bytes) -> None:
    """Save an encoded replay atomically and durably (fsync of the file, rename, fsync of the directory).

    A killed run never leaves half a replay, and a replay whose row is stored survives a power cut.
    """
    replays.atomic_write(path, data)


def play_batch(
    config: TournamentConfig, specs: Sequence[GameSpec], log_dir: str | None = None, replay_dir: str | None = None
) -> list[tuple[GameRecord, bytes]]:
    """Play a batch of games (one worker task).

    Args:
        config: the tournament.
        specs: the games.
        log_dir: where external bots' stderr goes (``None``: discarded).
        replay_dir: if given, each replay is saved there by the worker and returned empty;
            otherwise the encoded replays are returned (for workers that share no file system).

    Returns:
        Each game's record and encoded replay (empty when saved by the worker).
    """
    results = []
    for spec in specs:
        record, data = play_one(config, spec, log_dir)
        if replay_dir is not None:
            _save_replay(replay_path(replay_dir, spec.index), data)
            data = b""
        results.append((record, data))
    return results


def _init_worker(parent_pid: int) -> None:
    """Worker set-up: Ctrl-C is the parent's business, and a worker exits if the parent dies.

    A pool worker whose parent was killed would otherwise wait for work forever.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            try:
                os.kill(parent_pid, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:
                pass

    threading.Thread(target=watch, name="saloon-parent-watch", daemon=True).start()


def _batches(specs: Sequence[GameSpec], size: int) -> list[list[GameSpec]]:
    return [list(specs[i : i + size]) for i in range(0, len(specs), size)]


def _batch_size(config: TournamentConfig, todo: int, workers: int) -> int:
    if config.batch_size is not None:
        return config.batch_size
    return max(1, min(25, math.ceil(todo / (workers * 8))))


Batches = Iterator[list[tuple[GameRecord, bytes]]]


def _run_inline(config: TournamentConfig, batches: list[list[GameSpec]], log_dir: str, replay_dir: str) -> Batches:
    for batch in batches:
        yield play_batch(config, batch, log_dir, replay_dir)


def _run_pool(
    config: TournamentConfig, batches: list[list[GameSpec]], log_dir: str, replay_dir: str, workers: int
) -> Batches:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["tournament.run"])
    pool = concurrent.futures.ProcessPoolExecutor(
        workers, mp_context=context, initializer=_init_worker, initargs=(os.getpid(),)
    )
    try:
        futures = [pool.submit(play_batch, config, batch, log_dir, replay_dir) for batch in batches]
        for future in concurrent.futures.as_completed(futures):
            yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _run_dask(
    config: TournamentConfig, batches: list[list[GameSpec]], log_dir: str, workers: int, address: str
) -> Batches:
    try:
        import distributed
    except ImportError:
        raise RuntimeError("the Dask backend needs the 'dask' extra: pip install 'saloon[dask]'") from None
    with contextlib.ExitStack() as stack:
        if address == "local":
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
                )
            )
            client = stack.enter_context(distributed.Client(cluster))
        else:
            client = stack.enter_context(distributed.Client(address))
        futures = [client.submit(play_batch, config, batch, log_dir, pure=False) for batch in batches]
        try:
            for future in distributed.as_completed(futures):
                yield future.result()
        finally:
            client.cancel(futures)


def run_tournament(
    config: TournamentConfig,
    out: str | Path,
    workers: int | None = None,
    dask: str | None = None,
    on_game: Callable[[GameRecord], Any] | None = None,
    on_start: Callable[[int, int], Any] | None = None,
) -> RunSummary:
    """Play the tournament's games that ``out`` does not hold yet.

    Args:
        config: the tournament.
        out: the output directory (created if missing; an existing one is resumed).
        workers: worker processes (default: the number of cores). With 1 and no Dask, the games
            run in this process.
        dask: ``None``, ``"local"`` (a local Dask cluster of ``workers`` processes) or the address
            of a Dask scheduler whose workers can import Saloon.
        on_game: called with each finished game (in the order they finish).
        on_start: called once with (games scheduled, games already done) before playing.

    Returns:
        A :class:`RunSummary`.

    Raises:
        tournament.results.StoreMismatch: ``out`` holds a run of another configuration.
    """
    out = Path(out)
    (out / REPLAYS_DIR).mkdir(parents=True, exist_ok=True)
    (out / LOGS_DIR).mkdir(exist_ok=True)
    workers = workers or default_workers()
    schedule = make_schedule(config)
    with ResultStore(out / RESULTS_FILE) as store:
        store.bind(config.identity(), msgspec.json.encode(config))
        done = store.done()
        todo = [spec for spec in schedule if spec.index not in done]
        if on_start is not None:
            on_start(len(schedule), len(schedule) - len(todo))
        backend = "dask" if dask else ("inline" if workers == 1 else "local")
        batches = _batches(todo, _batch_size(config, len(todo), workers))
        log_dir = str((out / LOGS_DIR).resolve())
        replay_dir = str((out / REPLAYS_DIR).resolve())
        started = time.perf_counter()
        played = 0
        if not todo:
            results: Batches = iter(())
        elif backend == "dask":
            results = _run_dask(config, batches, log_dir, workers, dask or "local")
        elif backend == "inline":
            results = _run_inline(config, batches, log_dir, replay_dir)
        else:
            results = _run_pool(config, batches, log_dir, replay_dir, min(workers, len(batches)))
        try:
            for batch in results:
                stored = []
                for record, data in batch:
                    path = replay_path(out / REPLAYS_DIR, record.index)
                    if data:  # from a Dask worker: saved here
                        _save_replay(path, data)
                    stored.append((record, f"{REPLAYS_DIR}/{path.name}"))
                store.add(stored)
                played += len(batch)
                if on_game is not None:
                    for record, _ in batch:
                        on_game(record)
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                close()
            seconds = time.perf_counter() - started
            if played:
                store.add_run(RunInfo(now() - seconds, workers, backend, played, seconds))
    return RunSummary(len(schedule), len(schedule) - len(todo), played, seconds, workers, backend)
