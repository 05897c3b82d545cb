"""Search bots think in worker processes wherever people wait (the SSH server, ``saloon play``).

A bot with ``act_with_sampler`` (see :class:`bots.Bot`; :class:`bots.ismcts.IsmctsBot`) searches
for tens or hundreds of milliseconds per decision. In a thread it would hold the interpreter lock
and delay every screen of the process, so :func:`decide` sends the decision to a process pool
instead: the bot (with its random state), a copy of the live state and the seat go to a worker,
which samples determinizations with ``state.resample(seat, seed)`` and sends back the index of
the chosen action and the bot as it is afterwards (so a seeded bot stays deterministic across
decisions). The worker is Saloon's own trusted code; the bot still sees only ``view(seat)`` and
determinizations, which are drawn only from what the seat knows.

The pool is made on first use, one per process (:func:`pool`), with the ``spawn`` start method (the
server's process has threads and an event loop that a ``fork`` must not copy), and
:data:`SEARCH_WORKERS` processes. Workers (and multiprocessing's resource tracker) are started
with the process's real standard streams: while a Textual app runs, ``sys.stderr`` is Textual's
capture, whose ``fileno()`` is -1, and starting a process then fails ("bad value(s) in
fds_to_keep").
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import engine

__all__ = ["SEARCH_WORKERS", "decide", "decide_here", "is_search_bot", "pool", "shutdown"]

SEARCH_WORKERS = max(1, (os.cpu_count() or 2) - 1)
"""Worker processes for search bots: all cores but one, which the event loop keeps."""

_pool: ProcessPoolExecutor | None = None


def is_search_bot(bot: Any, state: Any) -> bool:
    """True if ``bot`` searches (has ``act_with_sampler``) and ``state`` can be resampled."""
    return callable(getattr(bot, "act_with_sampler", None)) and callable(getattr(state, "resample", None))


def decide_here(bot: Any, state: Any, seat: int) -> tuple[int, Any]:
    """One decision of a search bot, in this process: the index of its action among
    ``state.legal_actions(seat)`` and the bot afterwards.

    Raises:
        engine.IllegalAction: the bot chose something that is not a legal action.
        Exception: whatever the bot raises (a fault for the caller to record).
    """
    legal = state.legal_actions(seat)
    action = bot.act_with_sampler(state.view(seat), legal, seat, lambda seed: state.resample(seat, seed))
    return engine.legal_index(action, legal), bot


NICE = 10
"""The search workers' niceness (added to the server's): search yields the CPU to the event loop."""


def pool() -> ProcessPoolExecutor:
    """This process's pool of search workers (made on first use)."""
    global _pool
    if _pool is None:
        # Niced: on a busy machine the server's event loop (people's screens) wins the CPU.
        _pool = ProcessPoolExecutor(
            SEARCH_WORKERS, mp_context=multiprocessing.get_context("spawn"), initializer=os.nice, initargs=(NICE,)
        )
    return _pool


def shutdown(wait: bool = False) -> None:
    """Stop the pool's workers (at server shutdown; a new pool is made if needed again).

    Args:
        wait: wait until every worker process has exited.
    """
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=wait, cancel_futures=True)
        _pool = None


@contextlib.contextmanager
def _real_streams() -> Iterator[None]:
    """``sys.stdout``/``sys.stderr`` as the process started with, for starting processes."""
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.__stdout__ or saved[0]
    sys.stderr = sys.__stderr__ or saved[1]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


async def decide(bot: Any, state: Any, seat: int) -> tuple[int, Any]:
    """One decision of a search bot in a worker process, without blocking the event loop.

    Args:
        bot: a search bot (:func:`is_search_bot`); it is pickled, so it must be picklable.
        state: the live state; a clone is sent, so the caller may go on changing the state.
        seat: the seat to decide for (it must owe a decision).

    Returns:
        ``(index, bot)``: the index into ``state.legal_actions(seat)`` as it was at the call, and
        the bot after the decision (use it for the seat's next decision).

    Raises:
        engine.IllegalAction, Exception: as :func:`decide_here`, raised here.
    """
    with _real_streams():  # submit may start worker processes (see the module docstring)
        future = pool().submit(decide_here, bot, state.clone(), seat)
    return await asyncio.wrap_future(future)
