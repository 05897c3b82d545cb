"""Saloon replays: record a game, save and load it, verify it, step through it.

A replay is a :class:`Header` (game id, rules version, options, seed, players) plus the moves, each
stored as ``(seat, index into state.legal_actions(seat))``, with digests of the state at regular
checkpoints, the final digest and the outcome. Since every game is a deterministic function of its
seed and its moves, re-simulating the moves with the engine reproduces the game exactly; the digests
prove it did.

>>> import replays
>>> rec = replays.Recorder("deadwood1876", 5, seed=7)  # doctest: +SKIP
>>> rec.apply(seat, action)  # doctest: +SKIP
>>> replays.save(rec.replay(), "game.replay")  # doctest: +SKIP
>>> final_state = replays.verify(replays.load("game.replay"))  # doctest: +SKIP

Errors are all :class:`ReplayError` (a ``ValueError``): :class:`ReplayVersionError` for a replay
of another rules or format version, :class:`ReplayMismatch` for one that does not re-simulate.
Text read from a replay is untrusted: print it through :func:`printable`.
"""

from __future__ import annotations

from replays.format import (
    CHECKPOINT_EVERY,
    FORMAT_VERSION,
    MAGIC,
    MAX_FILE_BYTES,
    MAX_MOVE_VALUE,
    MAX_VARINT_BYTES,
    Header,
    Player,
    Replay,
    ReplayError,
    ReplayMismatch,
    ReplayVersionError,
    atomic_write,
    decode,
    decode_moves,
    encode,
    encode_moves,
    load,
    printable,
    save,
)
from replays.record import Recorder
from replays.verify import ReplayCursor, verify

__all__ = [
    "CHECKPOINT_EVERY",
    "FORMAT_VERSION",
    "MAGIC",
    "MAX_FILE_BYTES",
    "MAX_MOVE_VALUE",
    "MAX_VARINT_BYTES",
    "Header",
    "Player",
    "Recorder",
    "Replay",
    "ReplayCursor",
    "ReplayError",
    "ReplayMismatch",
    "ReplayVersionError",
    "atomic_write",
    "decode",
    "decode_moves",
    "encode",
    "encode_moves",
    "load",
    "printable",
    "save",
    "verify",
]
