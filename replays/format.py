"""The replay data model and its file format.

A replay file is::

    MAGIC (b"SALOON-REPLAY\\x00", 14 bytes) + payload (MessagePack of Replay) + checksum (8 bytes)

where the checksum is the 8-byte BLAKE2b digest of the payload. Moves are stored compactly: each
move is two unsigned LEB128 varints, ``seat`` then ``index`` (the position of the action in
``state.legal_actions(seat)`` just before it was applied), so a typical move takes two bytes.
A varint is at most :data:`MAX_VARINT_BYTES` (4) bytes long, so a seat or an index is at most
:data:`MAX_MOVE_VALUE` (``2**28 - 1``); a longer encoding is refused when the moves are decoded
(with the byte offset where it starts), which keeps decoding linear in the size of the field.
Checkpoint ``i`` holds the first 4 bytes (8 hex digits) of ``state.digest()`` after
``i * CHECKPOINT_EVERY`` moves, for ``i = 0 .. len(moves) // CHECKPOINT_EVERY``.

Every failure to read a file is a :class:`ReplayError`: a file larger than
:data:`MAX_FILE_BYTES` (64 MiB), a wrong magic, a bad checksum, a payload
that is not MessagePack of a :class:`Replay` (including invalid UTF-8 in a text field, nesting too
deep or a number out of range), or malformed moves. Text in a replay (player names, the game id,
option keys and values) is untrusted: show it through :func:`printable`.

Files are written with :func:`atomic_write`: to a temporary file beside the target, flushed and
fsynced, renamed over the target, then the directory is fsynced (on POSIX), so a crash leaves the
old file or the whole new one, and a finished save survives a power cut.
"""

from __future__ import annotations

import errno
import hashlib
import os
import unicodedata
from pathlib import Path
from typing import Any, Literal

import msgspec

from engine import Outcome

__all__ = [
    "CHECKPOINT_BYTES",
    "CHECKPOINT_EVERY",
    "FORMAT_VERSION",
    "MAGIC",
    "MAX_FILE_BYTES",
    "MAX_MOVE_VALUE",
    "MAX_VARINT_BYTES",
    "Header",
    "Player",
    "Replay",
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
]

MAGIC = b"SALOON-REPLAY\x00"
"""The first bytes of every replay file."""

FORMAT_VERSION = 1
"""The version of this file format (not of any game's rules)."""

CHECKPOINT_EVERY = 32
"""A digest checkpoint is stored every this many moves (and one before the first move)."""

CHECKPOINT_BYTES = 4
"""Bytes kept of each checkpoint digest (the first 8 hex digits)."""

MAX_VARINT_BYTES = 4
"""The longest varint in :attr:`Replay.moves`, in bytes (7 bits each): a seat or an action index
is at most :data:`MAX_MOVE_VALUE`. Longer encodings are refused."""

MAX_MOVE_VALUE = 2 ** (7 * MAX_VARINT_BYTES) - 1
"""The largest seat or legal-action index a replay can store (``2**28 - 1`` = 268,435,455)."""

MAX_FILE_BYTES = 64 * 1024 * 1024
"""The largest replay file :func:`load` reads (64 MiB; a replay takes about two bytes a move)."""

_CHECKSUM_BYTES = 8

_PAYLOAD_ERRORS = (msgspec.MsgspecError, UnicodeError, OverflowError, RecursionError, ValueError, TypeError)
"""What decoding an untrusted payload may raise (msgspec raises ``UnicodeDecodeError`` for invalid
UTF-8, ``RecursionError`` for deep nesting); each becomes a :class:`ReplayError`."""


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


class Replay(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A recorded game.

    Attributes:
        header: see :class:`Header`.
        moves: the moves as varint pairs ``(seat, index)``; see :func:`decode_moves`.
        checkpoints: ``CHECKPOINT_BYTES`` bytes of digest per checkpoint (see the module docstring).
        final_digest: ``state.digest()`` after the last move, in full.
        outcome: the game's outcome, or ``None`` if the game was not over when recorded.
        faults: the fault log: one line per bot fault during the game (a timeout, a bad or unasked
            reply, a crash), as the table or tournament recorded it; empty for a clean game (and
            then not written, so older files and clean games encode the same).
    """

    header: Header
    moves: bytes
    checkpoints: bytes
    final_digest: str
    outcome: Outcome | None = None
    faults: tuple[str, ...] = ()

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
    """Append ``value`` (``0 .. MAX_MOVE_VALUE``) to ``out`` as an unsigned LEB128 varint.

    Raises:
        ValueError: ``value`` is negative or above :data:`MAX_MOVE_VALUE`; ``out`` is unchanged.
    """
    if not 0 <= value <= MAX_MOVE_VALUE:
        raise ValueError(f"a seat or action index must be from 0 to {MAX_MOVE_VALUE} to fit a replay, got {value}")
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def encode_moves(moves: list[tuple[int, int]]) -> bytes:
    """Encode ``(seat, index)`` pairs as varints.

    Args:
        moves: pairs of ints from 0 to :data:`MAX_MOVE_VALUE`.

    Returns:
        The bytes of :attr:`Replay.moves`.

    Raises:
        ValueError: a seat or index that is negative or above :data:`MAX_MOVE_VALUE`.
    """
    out = bytearray()
    for seat, index in moves:
        _put_varint(out, seat)
        _put_varint(out, index)
    return bytes(out)


def decode_moves(data: bytes) -> list[tuple[int, int]]:
    """Decode :attr:`Replay.moves` back into ``(seat, index)`` pairs, in time linear in ``len(data)``.

    Args:
        data: varints, two per move (see the module docstring).

    Returns:
        The ``(seat, index)`` pairs, each value from 0 to :data:`MAX_MOVE_VALUE`.

    Raises:
        ReplayError: a varint longer than :data:`MAX_VARINT_BYTES` (the message names the byte
            offset where it starts), a varint cut short, or a seat without an index.
    """
    values: list[int] = []
    append = values.append
    value = shift = 0
    start = 0
    for offset, byte in enumerate(data):
        value |= (byte & 0x7F) << shift
        if byte & 0x80:
            shift += 7
            if shift >= 7 * MAX_VARINT_BYTES:
                raise ReplayError(
                    f"malformed moves: the number at byte offset {start} is longer than "
                    f"{MAX_VARINT_BYTES} bytes (the most a seat or action index may take)"
                )
        else:
            append(value)
            value = shift = 0
            start = offset + 1
    if shift:
        raise ReplayError(f"malformed moves: the last number (at byte offset {start}) is cut short")
    if len(values) % 2:
        raise ReplayError("malformed moves: the last move has a seat but no action index")
    return list(zip(values[0::2], values[1::2], strict=True))


def printable(text: object) -> str:
    """``str(text)`` without control characters, safe to write to a terminal.

    Every character of Unicode category C is removed: C0 controls (ESC, BEL, newline, ...), DEL,
    C1 controls (including the one-byte CSI ``\\x9b``), format characters (bidirectional
    overrides), surrogates, private-use and unassigned code points; so are the line and paragraph
    separators (U+2028, U+2029). Use it on all text taken from a replay file (or any untrusted
    source) before printing it.

    >>> printable("\\x1b]0;pwned\\x07Ann\\x9b2J")
    ']0;pwnedAnn2J'
    """
    text = str(text)
    if text.isprintable():  # fast path: nothing of category C (or a separator other than space)
        return text
    return "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" and ch not in "\u2028\u2029")


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

    Only the file is checked here (its magic, checksum, payload and the shape of its moves), not
    the game: use :func:`replays.verify` for that.

    Raises:
        ReplayError: not a replay (wrong magic), truncated or corrupted (checksum mismatch),
            a payload that is not a valid replay (not MessagePack, a wrong shape, invalid UTF-8
            in a text field, nesting too deep, a number out of range), or malformed moves (see
            :func:`decode_moves`). Nothing else escapes, whatever the bytes.
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
    except _PAYLOAD_ERRORS as exc:
        raise _payload_error(exc) from None
    if version != FORMAT_VERSION:
        raise ReplayVersionError(
            f"replay file format version {version} is not supported (this Saloon reads version {FORMAT_VERSION})"
        )
    try:
        replay = _decoder.decode(payload)
    except _PAYLOAD_ERRORS as exc:
        raise _payload_error(exc) from None
    decode_moves(replay.moves)  # the shape of the moves is part of the file
    return replay


def _payload_error(exc: BaseException) -> ReplayError:
    """A :class:`ReplayError` for an exception raised while decoding the payload."""
    if isinstance(exc, UnicodeError):
        reason = "a text field is not valid UTF-8"
    elif isinstance(exc, RecursionError):
        reason = "it is nested too deeply"
    elif isinstance(exc, OverflowError):
        reason = f"a number is out of range ({exc})"
    else:
        reason = str(exc)
    return ReplayError(f"replay payload is not valid: {printable(reason)}")


def _fsync_directory(directory: Path) -> None:
    """fsync ``directory`` so that a rename inside it is durable (POSIX; a no-op elsewhere).

    File systems that cannot fsync a directory (``EINVAL``, ``ENOTSUP``) are tolerated.
    """
    if os.name != "posix":
        return
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
            raise
    finally:
        os.close(fd)


def atomic_write(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically and durably.

    The bytes go to a temporary file beside ``path`` (``.NAME.PID.tmp``, never following a
    symlink), which is flushed and fsynced, then renamed over ``path``; the directory is then
    fsynced (on POSIX) so that the rename itself survives a crash. A crash leaves either the old
    file or the whole new one, never half, and no temporary file is left behind on an error.

    Args:
        path: the file to write (its directory must exist).
        data: the whole new contents.

    Raises:
        OSError: the file cannot be written; ``path`` is then unchanged.
    """
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        with open(os.open(tmp, flags, 0o666), "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    _fsync_directory(target.parent)


def save(replay: Replay, path: str | Path) -> None:
    """Write ``replay`` to ``path`` (see :func:`encode`), atomically and durably (see :func:`atomic_write`).

    Raises:
        OSError: the file cannot be written; ``path`` is then unchanged.
    """
    atomic_write(path, encode(replay))


def load(path: str | Path) -> Replay:
    """Read a replay file (see :func:`decode`).

    Raises:
        ReplayError: the file cannot be read, is larger than :data:`MAX_FILE_BYTES`, or is not a
            valid replay.
    """
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ReplayError(f"cannot read replay {printable(repr(str(path)))}: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise ReplayError(f"replay {printable(repr(str(path)))} is larger than {MAX_FILE_BYTES} bytes")
    return decode(data)
