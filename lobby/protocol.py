"""The hall's protocol: what fronts and the hall say to each other, as typed msgspec messages.

The hall (:mod:`serve.hall`) holds the saloon's shared state: accounts, tables, games, seats,
bots, chat, the ladder and the store. Fronts (:mod:`serve.front`) hold the SSH and browser
sessions and draw their screens; they reach the hall only through these messages, over a local
socket or TCP (:mod:`lobby.client`). Like lila-ws's ``LilaIn``/``LilaOut`` there is one closed set
of tagged, frozen Structs per direction: :data:`HallIn` (front to hall) and :data:`HallOut` (hall
to front). Each side decodes with ``msgspec.msgpack.Decoder(Union[...])``, so a message of any
other shape is refused at the edge.

Framing: every message is a 4-byte big-endian length, then that many bytes of MessagePack. A
frame longer than :data:`MAX_FRAME` (:data:`MAX_HELLO_FRAME` before the front has proved it
holds the hall's secret) closes the connection.

Handshake (:func:`front_mac`, :func:`hall_mac`): the hall sends :class:`Challenge` (a random
nonce); the front answers :class:`Hello` with its own nonce and an HMAC-SHA256, under the secret
both read from ``DATA/hall_secret``, of both nonces; the hall answers :class:`Welcome` with its own
HMAC, so each side knows the other holds the secret. Anything else first, or a wrong MAC, closes
the connection without a word.

Sessions: a front names each of its sessions' endpoints (a lobby screen, a table screen, a remote
bot's channel) by a number of its own choosing, ``sid``, after :class:`Open` has told the hall who
it is. The hall keys them by (front connection, sid): a front addresses only its own.

Requests carry a request id ``rid``; the hall answers each with exactly one reply
(:class:`Done`, :class:`Failed` or a typed reply with the same ``rid``), after it has sent what
the request changed (a table's new state reaches the front before the reply to ``Sit``).

Tables are versioned: every :class:`TableInfo` carries the table's ``version`` (it grows at each
change) and events come with the index of the first one sent (``events_from``), so a front that
finds a gap asks :class:`Resync` and gets the whole table again, as lila-ws's
``RoundResyncPlayer``.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import Any, Literal, Union

import msgspec

__all__ = [
    "MAX_FRAME",
    "MAX_HELLO_FRAME",
    "PROTOCOL",
    "HallIn",
    "HallOut",
    "front_mac",
    "hall_mac",
    "load_hall_secret",
]

PROTOCOL = 1
"""The protocol's version: a front and a hall of different versions do not talk."""

MAX_FRAME = 16 * 2**20
"""The longest frame either side accepts once authenticated (a replay is the largest payload)."""

MAX_HELLO_FRAME = 512
"""The longest frame the hall accepts before the front has authenticated."""


class _Msg(msgspec.Struct, frozen=True, tag_field="t", forbid_unknown_fields=True):
    """A protocol message: a frozen Struct tagged by its class name in the field ``t``."""


# Shared shapes ---------------------------------------------------------------------------------


class Who(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An identity (:class:`lobby.tables.Identity`) as sent."""

    name: str
    key: str
    guest: bool = False
    address: str = ""
    registered: float | None = None


class SeatInfo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One seat as everyone may see it."""

    index: int
    kind: str
    name: str
    owner: str | None
    status: str
    substitute: bool


class OutcomeInfo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]


class ChatInfo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    at: float
    name: str
    text: str
    serial: int


class TableInfo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A table's public state: what the lobby lists and every spectator may know.

    ``deadlines``: per seat, the seconds its turn timer had left when this was sent.
    """

    code: str
    version: int
    game: str
    num_players: int
    options: dict[str, Any]
    creator: str
    creator_key: str
    status: str
    created: float
    started: float | None
    finished: float | None
    seats: list[SeatInfo]
    spectators: int
    num_moves: int
    rated: bool
    to_act: list[int]
    deadlines: dict[int, float]
    outcome: OutcomeInfo | None = None
    seed: int | None = None
    game_row: int | None = None


class QueueInfo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A ladder queue entry (:class:`lobby.matchmaker.QueueEntry`); ``waited``: seconds queued when sent."""

    ticket: int
    name: str
    game: str
    counts: tuple[int, ...]
    rating: float
    waited: float


class StandingInfo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    rank: int
    name: str
    rating: float
    mu: float
    sigma: float
    games: int
    recent: tuple[int, ...]
    online: bool
    house: bool = False


class HistoryInfo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A rating after one ladder game (:class:`lobby.ratings.HistoryPoint`)."""

    game_row: int
    place: int
    players: int
    mu: float
    sigma: float
    at: float


class GameInfo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A finished game's row (:class:`lobby.store.GameRecord`), without its file's path."""

    id: int
    code: str
    game: str
    players: tuple[str, ...]
    started: float
    finished: float
    winners: tuple[int, ...]
    faults: tuple[str, ...] = ()
    ranks: tuple[int, ...] = ()


# Front -> hall -----------------------------------------------------------------------------------


class Hello(_Msg, frozen=True):
    """The front's answer to :class:`Challenge`: its name, its nonce and :func:`front_mac`."""

    protocol: int
    front: str
    nonce: bytes
    mac: bytes


class Open(_Msg, frozen=True):
    """Session endpoint ``sid`` of this front is ``who`` (whom the front authenticated)."""

    sid: int
    who: Who


class Close(_Msg, frozen=True):
    """Endpoint ``sid`` is gone: every table lets go of it (seats are kept for the grace time), it
    leaves the lobby's and the ladder's listeners and queue."""

    sid: int


class Watch(_Msg, frozen=True):
    """``sid`` follows table ``code`` (``spectator``: counted as one)."""

    sid: int
    code: str
    spectator: bool


class Unwatch(_Msg, frozen=True):
    sid: int
    code: str


class Release(_Msg, frozen=True):
    """``sid`` lets go of its seat at ``code`` (``leave``: for good, a bot plays it at once);
    with a ``rid``, :class:`Done` once the table's new state is sent."""

    sid: int
    code: str
    leave: bool
    rid: int = 0


class Say(_Msg, frozen=True):
    """A chat line at table ``code`` (``None``: the lobby)."""

    sid: int
    code: str | None
    text: str


class Sit(_Msg, frozen=True):
    """Take a seat at ``code`` (the own seat back, or ``seat``, or the first free): :class:`Number`."""

    rid: int
    sid: int
    code: str
    seat: int | None = None


class Play(_Msg, frozen=True):
    """Play ``action`` (the game's action Struct, MessagePack) for ``sid``'s seat: :class:`Done`."""

    rid: int
    sid: int
    code: str
    action: bytes


class Fill(_Msg, frozen=True):
    """The creator fills the free seats with the offered ``bot``: :class:`Number` (seats filled)."""

    rid: int
    sid: int
    code: str
    bot: str


class NewSeat(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    kind: Literal["me", "open", "bot"]
    bot: str = "random"


class Create(_Msg, frozen=True):
    """Open a table for ``sid``'s identity: :class:`Text` (its code)."""

    rid: int
    sid: int
    game: str
    players: int
    seats: list[NewSeat]
    options: dict[str, str] | None = None


class Resync(_Msg, frozen=True):
    """Send table ``code`` whole again (the front found a gap in its versions or events)."""

    sid: int
    code: str


class SeatBot(_Msg, frozen=True):
    """``ssh ... bot``: seat remote bot ``sid`` at ``table`` (``seat``), or at the first table with a
    free seat (of ``game``), waiting for one: :class:`Text` (the code) once seated."""

    rid: int
    sid: int
    table: str | None = None
    seat: int | None = None
    game: str | None = None


class Answer(_Msg, frozen=True):
    """A remote bot's answer to :class:`Decide` ``did``: the index, or what was wrong."""

    did: int
    index: int | None = None
    error: str = ""


class BotFault(_Msg, frozen=True):
    """Remote bot ``sid`` broke the protocol outside a decision."""

    sid: int
    message: str


class LadderJoin(_Msg, frozen=True):
    """Queue ``sid`` on ``game``'s ladder: :class:`Number` (1: seated back at a game, 0: queued)."""

    rid: int
    sid: int
    game: str
    counts: tuple[int, ...] | None
    kind: Literal["human", "remote"]


class LadderLeave(_Msg, frozen=True):
    sid: int


class Query(_Msg, frozen=True):
    """A question answered from the store or the ladder.

    ``what``: ``games`` (the newest ``limit`` finished games: :class:`Games`), ``game`` (the finished
    game numbered ``number``, or of table ``code``: :class:`Games`), ``replay`` (a finished game's
    replay file, by ``number``, or a finished live table's replay by ``code``: :class:`Blob`),
    ``standings`` (``game``'s: :class:`Standings`), ``history`` (``name``'s last ``limit`` rated
    games of ``game``: :class:`History`).
    """

    rid: int
    what: Literal["games", "game", "replay", "standings", "history"]
    game: str = ""
    name: str = ""
    code: str = ""
    number: int = 0
    limit: int = 20


class Admit(_Msg, frozen=True):
    """A connection from ``address`` asks in (before its handshake): :class:`Text` (the refusal, or ``None``)."""

    rid: int
    address: str


class Left(_Msg, frozen=True):
    """An admitted connection from ``address`` closed."""

    address: str


class SessionToken(_Msg, frozen=True):
    """A new session from ``address``: :class:`Number` (0: go on; else seconds to wait, -1: never)."""

    rid: int
    address: str


class CheckKey(_Msg, frozen=True):
    """May ``username`` log in with the key of ``fingerprint``? :class:`Number` (1 yes, 0 no, 2 the
    key is another account's)."""

    rid: int
    username: str
    fingerprint: str


class Identify(_Msg, frozen=True):
    """Who logged in (:meth:`serve.hall.Hall.identify`): :class:`Identified`."""

    rid: int
    username: str
    fingerprint: str | None
    public_key: str
    foreign_key: bool
    address: str


class Account(_Msg, frozen=True):
    """Does account ``name`` hold ``key`` (``guest``: is ``name`` free for a guest)? :class:`Identified`."""

    rid: int
    name: str
    key: str
    guest: bool
    address: str


class IssueLink(_Msg, frozen=True):
    """A one-time browser sign-in token for account ``name`` (``key``), working ``ttl_s`` seconds
    (at most an hour): :class:`Text`."""

    rid: int
    name: str
    key: str
    ttl_s: float = 300.0


class Redeem(_Msg, frozen=True):
    """Use up a sign-in token: :class:`Identified` (the account, or nobody)."""

    rid: int
    token: str


HallIn = Union[  # noqa: UP007  (msgspec decodes a Union of tagged Structs)
    Hello,
    Open,
    Close,
    Watch,
    Unwatch,
    Release,
    Say,
    Sit,
    Play,
    Fill,
    Create,
    Resync,
    SeatBot,
    Answer,
    BotFault,
    LadderJoin,
    LadderLeave,
    Query,
    Admit,
    Left,
    SessionToken,
    CheckKey,
    Identify,
    Account,
    IssueLink,
    Redeem,
]
"""Every message a front may send the hall."""


# Hall -> front -----------------------------------------------------------------------------------


class Challenge(_Msg, frozen=True):
    protocol: int
    nonce: bytes


class Welcome(_Msg, frozen=True):
    """The hall proved it holds the secret (:func:`hall_mac`); ``boot`` names this run of the hall
    (a front that sees a new one resyncs everything, as after lila-ws's ``LilaBoot``); ``bots``:
    the bots on offer, by name; ``ladder``: whether the hall runs one."""

    boot: str
    mac: bytes
    bots: list[str]
    guest: bool
    ladder: bool


class Done(_Msg, frozen=True):
    rid: int


class Failed(_Msg, frozen=True):
    """A request refused: ``error`` is for the person (a :class:`lobby.tables.TableError`'s text)."""

    rid: int
    error: str
    illegal: bool = False


class Number(_Msg, frozen=True):
    rid: int
    value: float


class Text(_Msg, frozen=True):
    rid: int
    value: str | None


class Blob(_Msg, frozen=True):
    rid: int
    value: bytes | None


class Games(_Msg, frozen=True):
    rid: int
    games: list[GameInfo]


class Standings(_Msg, frozen=True):
    rid: int
    rows: list[StandingInfo]


class History(_Msg, frozen=True):
    rid: int
    points: list[HistoryInfo]


class Identified(_Msg, frozen=True):
    """``who``, or ``None`` and why not (``refusal``)."""

    rid: int
    who: Who | None
    refusal: str | None = None


class LobbyState(_Msg, frozen=True):
    """The lobby: its listed tables (waiting, playing, recently finished; newest first within
    each) and the chat lines this front has not been sent yet. ``quiet``: only games moved on (the
    lobby's move numbers, sent at most every :data:`serve.hall.MOVES_TICK_S`): the mirrors take it,
    nobody is told to redraw (the next redraw shows it, as the lobby always read live tables)."""

    version: int
    tables: list[TableInfo]
    chat: list[ChatInfo]
    quiet: bool = False


class TableState(_Msg, frozen=True):
    """A table's public state, for the front's spectators and lists: new chat lines, the public
    view (MessagePack of the game's view Struct) and the public events from ``events_from`` on."""

    info: TableInfo
    chat: list[ChatInfo]
    view: bytes | None = None
    events: bytes | None = None
    events_from: int = 0


class SeatState(_Msg, frozen=True):
    """What session ``sid``, in seat ``seat`` of ``code``, may see: its view, legal actions
    (MessagePack, the game's types), events from ``events_from`` on, and the turn timer's last
    forced move for it (``forced``: serial, move number, text)."""

    sid: int
    code: str
    version: int
    seat: int
    view: bytes | None
    legal: bytes
    events: bytes
    events_from: int
    forced: tuple[int, int, str] | None = None


class Unseated(_Msg, frozen=True):
    """``sid`` no longer controls a seat at ``code`` (it watches as a spectator, if at all)."""

    sid: int
    code: str


class SeatLost(_Msg, frozen=True):
    sid: int
    code: str
    seat: int
    reason: str


class Seated(_Msg, frozen=True):
    """The ladder seated ``sid`` (a person's Ladder screen) at ``code``, seat ``seat``."""

    sid: int
    code: str
    seat: int


class LadderState(_Msg, frozen=True):
    """The ladder: every queue, who is online per game, the live ladder tables, and how many
    tables it has formed."""

    queued: list[QueueInfo]
    online: dict[str, list[str]]
    tables: list[TableInfo]
    formed: int
    on: bool = True


class BotLine(_Msg, frozen=True):
    """Write ``data`` (a JSON line of the bot protocol: start or end) to remote bot ``sid``."""

    sid: int
    data: bytes


class Decide(_Msg, frozen=True):
    """Ask remote bot ``sid`` (the decide line ``data``); the front answers :class:`Answer` ``did``
    with an index below ``legal``."""

    sid: int
    did: int
    data: bytes
    legal: int


class BotNote(_Msg, frozen=True):
    """Tell remote bot ``sid``'s operator ``text`` (on its stderr)."""

    sid: int
    text: str


class BotDone(_Msg, frozen=True):
    """Remote bot ``sid``'s session is over: say ``message`` (if any) and exit with ``status``."""

    sid: int
    message: str | None
    status: int


HallOut = Union[  # noqa: UP007
    Challenge,
    Welcome,
    Done,
    Failed,
    Number,
    Text,
    Blob,
    Games,
    Standings,
    History,
    Identified,
    LobbyState,
    TableState,
    SeatState,
    Unseated,
    SeatLost,
    Seated,
    LadderState,
    BotLine,
    Decide,
    BotNote,
    BotDone,
]
"""Every message the hall may send a front."""


# Authentication --------------------------------------------------------------------------------


def load_hall_secret(data_dir: Path | str) -> bytes:
    """The fronts' shared secret from ``DATA/hall_secret`` (32 bytes), made (mode 0600) on first use.

    A front on another machine needs a copy of this file (mode 0600 there too).

    Raises:
        ValueError: the file holds fewer than 32 bytes, or others may read it.
    """
    return secret_file(Path(data_dir) / "hall_secret", private=True)


def secret_file(path: Path, private: bool = False) -> bytes:
    """The 32-byte (or longer) secret in ``path``, made on first use: written whole to a temporary
    file of mode 0600, synced, then renamed into place, so a crash never leaves half a secret.

    Args:
        path: the file (its folder is made if missing).
        private: refuse a file that others may read (group or world permission bits).

    Raises:
        ValueError: the file holds fewer than 32 bytes, or (``private``) others may read it.
    """
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(secrets.token_bytes(32))
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
    if private and path.stat().st_mode & 0o077:
        raise ValueError(f"{path} may be read by others: chmod 600 it")
    secret = path.read_bytes()
    if len(secret) < 32:
        raise ValueError(f"{path} holds fewer than 32 bytes: remove it and a new one is made")
    return secret


def front_mac(secret: bytes, hall_nonce: bytes, front_nonce: bytes, front: str) -> bytes:
    """What a front proves it holds the secret with (HMAC-SHA256)."""
    data = b"saloon front\0" + hall_nonce + b"\0" + front_nonce + b"\0" + front.encode()
    return hmac.new(secret, data, hashlib.sha256).digest()


def hall_mac(secret: bytes, hall_nonce: bytes, front_nonce: bytes) -> bytes:
    """What the hall proves it holds the secret with (HMAC-SHA256; another label than the front's)."""
    data = b"saloon hall\0" + front_nonce + b"\0" + hall_nonce
    return hmac.new(secret, data, hashlib.sha256).digest()


def encode(message: Any) -> bytes:
    """``message`` as a frame: its length (4 bytes, big-endian) and its MessagePack."""
    payload = _encoder.encode(message)
    return len(payload).to_bytes(4, "big") + payload


_encoder = msgspec.msgpack.Encoder()

in_decoder: msgspec.msgpack.Decoder[Any] = msgspec.msgpack.Decoder(HallIn)
"""Decodes what fronts send (anything not in :data:`HallIn` raises ``msgspec.ValidationError``)."""

out_decoder: msgspec.msgpack.Decoder[Any] = msgspec.msgpack.Decoder(HallOut)
"""Decodes what the hall sends."""


class ProtocolError(Exception):
    """The other side broke the protocol (a frame too long, a message that does not decode)."""


async def read_frame(reader: Any, limit: int = MAX_FRAME) -> bytes:
    """One frame's payload from an :class:`asyncio.StreamReader`.

    Raises:
        ProtocolError: the frame is longer than ``limit``.
        asyncio.IncompleteReadError: the stream ended.
    """
    head = await reader.readexactly(4)
    size = int.from_bytes(head, "big")
    if size > limit:
        raise ProtocolError(f"a frame of {size} bytes (at most {limit})")
    return bytes(await reader.readexactly(size))
