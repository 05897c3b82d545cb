"""The JSON-lines bot protocol, shared by external bot processes and remote bots over SSH.

One JSON object a line, UTF-8, ``\\n``-terminated (see ``docs/bot-protocol.md``).

Server to bot::

    {"type": "start", "game": "deadwood1876", "seat": 2, "players": 5, "options": {...}}
    {"type": "decide", "seat": 2, "view": {...}, "legal": [{"type": "pass_safe", "index": 0}, ...],
     "deadline_ms": 1000}
    {"type": "end", "outcome": {"scores": [...], "ranks": [...], "winners": [...]}}

Bot to server, one line per ``decide``::

    {"action": 3}

``action`` is an index into ``legal``; other keys are ignored whatever their value, but the line
must be valid JSON and UTF-8 throughout, nested at most :data:`MAX_REPLY_DEPTH` levels, with one
``action`` key (:func:`parse_reply`). Views and actions are the engine's msgspec Structs encoded
with :func:`msgspec.json.encode`; actions are tagged unions, so each carries its ``type``. The
game's seed is never sent: it would reveal every deck and die.

The functions here only build and parse bytes; they do no I/O, so :mod:`bots.external` (pipes to a
subprocess) and the SSH server (a channel) share them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import msgspec

import engine

__all__ = [
    "MAX_LINE_BYTES",
    "MAX_REPLY_DEPTH",
    "PROTOCOL_VERSION",
    "all_options",
    "BotReplyError",
    "decide_message",
    "end_message",
    "parse_reply",
    "start_message",
]

PROTOCOL_VERSION = 1
"""Sent in the ``start`` message as ``"protocol"``; bumped on any incompatible change."""

MAX_LINE_BYTES = 64 * 1024
"""The longest reply line a bot may write (newline included); a longer one is a fault."""

MAX_REPLY_DEPTH = 32
"""The deepest nesting of arrays and objects a reply may have (the reply object itself is level 1).

Checked before decoding: a decoder recurses once per level, and a line of 64 KiB of ``[`` is
32,768 levels, beyond Python's recursion limit."""

_encoder = msgspec.json.Encoder()


class BotReplyError(ValueError):
    """A bot's reply line that is not ``{"action": INDEX}`` with ``0 <= INDEX < len(legal)``.

    Every way a reply can be wrong raises this one error (:func:`parse_reply`), so every bad reply
    is the same fault to the caller.
    """


class _Start(msgspec.Struct, tag="start"):
    game: str
    seat: int
    players: int
    options: Any
    protocol: int = PROTOCOL_VERSION


class _Decide(msgspec.Struct, tag="decide"):
    seat: int
    view: Any
    legal: Sequence[Any]
    deadline_ms: int


class _End(msgspec.Struct, tag="end"):
    outcome: Any


class _Reply(msgspec.Struct):
    action: int


_reply_decoder = msgspec.json.Decoder(_Reply)

_STRUCTURE = re.compile(rb'[][{}"\\]')
"""The bytes that matter to the nesting depth of a JSON text: brackets, quotes and backslashes."""


def _line(message: msgspec.Struct) -> bytes:
    return _encoder.encode(message) + b"\n"


def start_message(game_id: str, seat: int, players: int, options: Any = None) -> bytes:
    """The ``start`` line, sent once before the first decision.

    Args:
        game_id: the game's id.
        seat: the bot's seat (0-based).
        players: the number of seats at the table.
        options: the game's options (a dict, the options Struct, or ``None`` for the defaults); the
            line gives all of them, defaults included (:func:`all_options`).

    Returns:
        One JSON line (ending in ``\\n``).
    """
    return _line(_Start(game=game_id, seat=seat, players=players, options=all_options(game_id, options)))


def all_options(game_id: str, options: Any = None) -> dict[str, Any]:
    """Every option of ``game_id`` with its value, defaults included, as the ``start`` message
    gives them (an options Struct omits its defaults when encoded).

    Args:
        game_id: the game's id; for an unknown game ``options`` is returned as given.
        options: a dict, the game's options Struct, or ``None`` (all defaults).

    Raises:
        engine.InvalidOptions: ``options`` are not options of that game.
    """
    try:
        game = engine.game(game_id)
    except engine.UnknownGame:
        return {} if options is None else dict(msgspec.to_builtins(options))
    parsed = engine.parse_options(game.options_type, options)
    return {name: msgspec.to_builtins(getattr(parsed, name)) for name in parsed.__struct_fields__}


def decide_message(seat: int, view: Any, legal: Sequence[Any], deadline_ms: int) -> bytes:
    """The ``decide`` line for one decision.

    Args:
        seat: the deciding seat.
        view: the seat's view (the engine's view Struct).
        legal: the legal actions (tagged Structs), in canonical order; the reply indexes this list.
        deadline_ms: how long the bot has to answer, in milliseconds.

    Returns:
        One JSON line (ending in ``\\n``).
    """
    return _line(_Decide(seat=seat, view=view, legal=legal, deadline_ms=int(deadline_ms)))


def end_message(outcome: Any) -> bytes:
    """The ``end`` line, sent once when the game is over.

    Args:
        outcome: the game's :class:`engine.Outcome` (scores, ranks, winners).

    Returns:
        One JSON line (ending in ``\\n``).
    """
    return _line(_End(outcome=outcome))


def parse_reply(line: bytes, n_legal: int) -> int:
    """The action index in a bot's reply line.

    Keys other than ``action`` are ignored whatever their value (``1e400`` included: JSON's
    grammar allows it), as the protocol promises, but the line must be valid JSON (``NaN`` and
    ``Infinity`` are not) and UTF-8 throughout: the decoder skips an unknown key's value without
    checking its bytes. The line is refused before it is decoded if it nests arrays or objects
    deeper than :data:`MAX_REPLY_DEPTH` levels, and after if the reply object has the key
    ``action`` twice (which one would count is not obvious, so neither does).

    Args:
        line: one line as read (a trailing ``\\r\\n`` or ``\\n`` is allowed).
        n_legal: the number of legal actions offered.

    Returns:
        The index, ``0 <= index < n_legal``.

    Raises:
        BotReplyError: an empty, oversized, non-UTF-8, too deeply nested, non-JSON or malformed
            line, an ``action`` key given twice, or an index out of range; never any other error.
            The message says which, and quotes the start of the line.
    """
    if len(line) > MAX_LINE_BYTES:
        raise BotReplyError(f"reply line too long ({len(line)} bytes; the limit is {MAX_LINE_BYTES})")
    text = line.rstrip(b"\r\n")
    if not text.strip():
        raise BotReplyError('empty reply line; expected {"action": INDEX}')
    try:
        text.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BotReplyError(
            f'bad reply {_quote(text)}: not UTF-8 at byte {exc.start}; expected {{"action": INDEX}}'
        ) from None
    if _nesting_exceeds(text, MAX_REPLY_DEPTH):
        raise BotReplyError(
            f'bad reply {_quote(text)}: nested deeper than {MAX_REPLY_DEPTH} levels; expected {{"action": INDEX}}'
        )
    try:
        reply = _reply_decoder.decode(text)
        duplicated = _action_given_twice(text)
    except (msgspec.DecodeError, RecursionError, ValueError) as exc:
        raise BotReplyError(f'bad reply {_quote(text)}: {exc}; expected {{"action": INDEX}}') from None
    if duplicated:
        raise BotReplyError(f'bad reply {_quote(text)}: duplicate key action; expected {{"action": INDEX}}')
    index = reply.action
    if not 0 <= index < n_legal:
        raise BotReplyError(f"action index {index} out of range: {n_legal} legal actions (0..{n_legal - 1})")
    return index


def _nesting_exceeds(text: bytes, limit: int) -> bool:
    """Whether a JSON text nests arrays and objects deeper than ``limit`` levels.

    Brackets inside strings do not count. Linear in the length of ``text``; a text with at most
    ``limit`` opening brackets in all is not scanned at all.

    Args:
        text: the JSON text (possibly invalid: then the answer only bounds what a decoder would
            try before it finds the error).
        limit: the deepest nesting allowed (the outermost array or object is level 1).
    """
    if text.count(b"[") + text.count(b"{") <= limit:
        return False
    depth = 0
    in_string = False
    escaped = -1  # the position of the byte after a backslash in a string: it does not count
    for match in _STRUCTURE.finditer(text):
        position = match.start()
        if position == escaped:
            continue
        byte = text[position]
        if in_string:
            if byte == 0x5C:  # backslash
                escaped = position + 1
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return False


class _Pairs(list[tuple[str, Any]]):
    """One JSON object's key-value pairs in order, duplicates kept (:func:`_action_given_twice`)."""


def _action_given_twice(text: bytes) -> bool:
    """Whether the top-level object of a valid JSON text has the key ``action`` more than once.

    msgspec keeps the last of duplicate keys without a word. Only a line that holds ``"action"``
    twice, or an escape (a key may be spelt ``"\\u0061ction"``), is decoded again, by
    :func:`json.loads`, which keeps every pair; its nesting is already bounded, and its numbers
    are left as text (an integer of 5,000 digits would be refused by :class:`int`).
    """
    if text.count(b'"action"') < 2 and b"\\" not in text:
        return False
    pairs = json.loads(text, object_pairs_hook=_Pairs, parse_int=str, parse_float=str)
    return isinstance(pairs, _Pairs) and sum(key == "action" for key, _ in pairs) > 1


def _quote(text: bytes, limit: int = 80) -> str:
    shown = text[:limit].decode("utf-8", "replace")
    return repr(shown + ("..." if len(text) > limit else ""))
