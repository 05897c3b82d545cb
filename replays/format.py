"""The replay data model and its file format.

A replay file is::

    MAGIC (b"SALOON-REPLAY\\x00", 14 bytes) + payload (MessagePack of Replay) + checksum (8 bytes)

where the checksum is the 8-byte BLAKE2b digest of the payload. Moves are stored compactly: each
move is two unsigned LEB128 varints, ``seat`` then ``index`` (the position of the action in
``state.legal_actions(seat)`` just before it was applied), so a typical move takes two bytes.
Checkpoint ``i`` holds the first 4 bytes (8 hex digits) of ``state.digest()`` after
``i * CHECKPOINT_EVERY`` moves, for ``i = 0 .. len(moves) // CHECKPOINT_EVERY``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, Literal

import msgspec

from engine import Outcome

__all__ = [
    "CHECKPOINT_BYTES",
    "CHECKPOINT_EVERY",
    "FORMAT_VERSION",
    "MAGIC",
    "Header",
    "Player",
    "Replay",
    "ReplayError",
    "ReplayMismatch",
    "ReplayVersionError",
    "decode",
    "decode_moves",
    "encode",
    "encode_moves",
    "load",
    "save",
]

MAGIC = b"SALOON-REPLAY\x00"
"""The first bytes of every replay file."""

FORMAT_VERSION = 1
"""The version of this file format (not of any game's rules)."""

CHECKPOINT_EVERY = 32
"""A digest checkpoint is stored every this many moves (and one before the first move)."""

CHECKPOINT_BYTES = 4
"""Bytes kept of each checkpoint digest (the first 8 hex digits)."""

_CHECKSUM_BYTES = 8


class ReplayError(ValueError):
    """A replay that cannot be read, or that does not reproduce its game."""


class ReplayVersionError(ReplayError):
    """A replay written by another rules version of its game, or another version of the file format."""


class ReplayMismatch(ReplayError):
    """A replay whose moves do not re-simulate to the recorded game.

    Attributes:
        move: the 1-based number of the first move that went wrong, or ``None`` when the
            mismatch is not tied to one move (the final digest or the outcome).
    """

    def __init__(self, message: str, move: int | None = None) -> None:
        super().__init__(message)
        self.move = move


class Player(msgspec.Struct, frozen=True, forbid_unknown_fields=True, array_like=True):
    """One seat's player, as the replay remembers it (encoded as a ``[name, kind]`` pair).

    Attributes:
        name: a display name (a user name, or a bot name such as ``"random"``).
        kind: ``"human"`` or ``"bot"``.
    """

    name: str
    kind: Literal["human", "bot"]


class Header(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What is needed to start the game again.

    Attributes:
        format_version: :data:`FORMAT_VERSION` of the writer.
        game: the game id (``engine.game(game)``).
        rules_version: ``Game.rules_version`` of the engine that recorded the game.
        options: the game's options struct as builtins (``msgspec.to_builtins(options)``).
        seed: the game's seed.
        players: one :class:`Player` per seat, seat order; ``len(players)`` is the player count.
    """

    format_version: int
    game: str
    rules_version: str
    options: dict[str, Any]
    seed: int
    players: tuple[Player, ...]


class Replay(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A recorded game.

    Attributes:
        header: see :class:`Header`.
        moves: the moves as varint pairs ``(seat, index)``; see :func:`decode_moves`.
        checkpoints: ``CHECKPOINT_BYTES`` bytes of digest per checkpoint (see the module docstring).
        final_digest: ``state.digest()`` after the last move, in full.
        outcome: the game's outcome, or ``None`` if the game was not over when recorded.
    """

    header: Header
    moves: bytes
    checkpoints: bytes
    final_digest: str
    outcome: Outcome | None = None

    def move_pairs(self) -> list[tuple[int, int]]:
        """The moves as ``(seat, index)`` pairs; raises :class:`ReplayError` if they are malformed."""
        return decode_moves(self.moves)


class _HeaderProbe(msgspec.Struct):
    format_version: int


class _ReplayProbe(msgspec.Struct):
    header: _HeaderProbe


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Replay)
_probe_decoder = msgspec.msgpack.Decoder(_ReplayProbe)


def _put_varint(out: bytearray, value: int) -> None:
    """Append ``value`` (a non-negative int) to ``out`` as an unsigned LEB128 varint."""
    if value < 0:
        raise ValueError(f"varint must be non-negative, got {value}")
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def encode_moves(moves: list[tuple[int, int]]) -> bytes:
    """Encode ``(seat, index)`` pairs as varints.

    Args:
        moves: pairs of non-negative ints.

    Returns:
        The bytes of :attr:`Replay.moves`.

    Raises:
        ValueError: a negative seat or index.
    """
    out = bytearray()
    for seat, index in moves:
        _put_varint(out, seat)
        _put_varint(out, index)
    return bytes(out)


def decode_moves(data: bytes) -> list[tuple[int, int]]:
    """Decode :attr:`Replay.moves` back into ``(seat, index)`` pairs.

    Raises:
        ReplayError: a varint is cut short, or a seat has no index.
    """
    values: list[int] = []
    value = shift = 0
    for byte in data:
        value |= (byte & 0x7F) << shift
        if byte & 0x80:
            shift += 7
        else:
            values.append(value)
            value = shift = 0
    if shift:
        raise ReplayError("malformed moves: the last number is cut short")
    if len(values) % 2:
        raise ReplayError("malformed moves: the last move has a seat but no action index")
    return list(zip(values[0::2], values[1::2], strict=True))


def encode(replay: Replay) -> bytes:
    """The bytes of a replay file: magic, MessagePack payload, BLAKE2b checksum.

    Args:
        replay: the replay to encode.

    Returns:
        The file contents.
    """
    payload = _encoder.encode(replay)
    return MAGIC + payload + hashlib.blake2b(payload, digest_size=_CHECKSUM_BYTES).digest()


def decode(data: bytes) -> Replay:
    """Parse the bytes of a replay file (the inverse of :func:`encode`).

    Only the file is checked here, not the game: use :func:`replays.verify` for that.

    Raises:
        ReplayError: not a replay (wrong magic), truncated or corrupted (checksum mismatch),
            or a payload that is not a valid replay.
        ReplayVersionError: a replay written by another version of the file format.
    """
    if not data.startswith(MAGIC):
        if MAGIC.startswith(data):
            raise ReplayError("not a replay: the file is empty or truncated inside its magic header")
        raise ReplayError("not a replay: the file does not start with the Saloon replay magic bytes")
    if len(data) < len(MAGIC) + _CHECKSUM_BYTES:
        raise ReplayError("replay is truncated: too short to hold a payload and its checksum")
    payload = data[len(MAGIC) : -_CHECKSUM_BYTES]
    checksum = data[-_CHECKSUM_BYTES:]
    if hashlib.blake2b(payload, digest_size=_CHECKSUM_BYTES).digest() != checksum:
        raise ReplayError("replay is truncated or corrupted: checksum mismatch")
    try:
        version = _probe_decoder.decode(payload).header.format_version
    except msgspec.DecodeError as exc:
        raise ReplayError(f"replay payload is not valid: {exc}") from None
    if version != FORMAT_VERSION:
        raise ReplayVersionError(
            f"replay file format version {version} is not supported (this Saloon reads version {FORMAT_VERSION})"
        )
    try:
        return _decoder.decode(payload)
    except msgspec.DecodeError as exc:
        raise ReplayError(f"replay payload is not valid: {exc}") from None


def save(replay: Replay, path: str | Path) -> None:
    """Write ``replay`` to ``path`` (see :func:`encode`), atomically and durably.

    The bytes go to a temporary file beside ``path``, are flushed to disk, and the file is then
    renamed over ``path``: a crash leaves either the old file or the whole new one, never half.

    Raises:
        OSError: the file cannot be written.
    """
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(encode(replay))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def load(path: str | Path) -> Replay:
    """Read a replay file (see :func:`decode`).

    Raises:
        ReplayError: the file cannot be read, or is not a valid replay.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ReplayError(f"cannot read replay {str(path)!r}: {exc.strerror or exc}") from None
    return decode(data)
