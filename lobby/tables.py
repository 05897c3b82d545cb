"""The server's lobby and tables: games that run inside the server, independent of any connection.

A :class:`Lobby` owns the tables and the lobby chat; a :class:`Table` owns its seats, spectators,
chat and, once every seat is taken, the game (through a :class:`replays.Recorder`) and the task
that runs it. Sessions come and go; the table plays on:

* A seat is ``human`` (an account's), ``bot`` (a built-in bot), ``remote`` (an account's bot
  speaking the JSON-lines protocol over SSH) or ``open`` (free for a person or a remote bot).
* A seat acts only through its **controller**: the session that sat in it (a person's screen or a
  remote bot's channel). :meth:`Table.play` checks it; views are handed out by controller too
  (:meth:`Table.view_for`), so a spectator or another player never receives a hidden view.
* A person or remote bot that disconnects keeps the seat. After ``grace_s`` seconds (a remote
  bot: ``bot_grace_s``, much shorter: nobody waits for a crashed program) a substitute bot plays
  for it, until the owner (same account key) comes back and takes the seat again at the current
  position.
* With ``turn_timer_s`` set, a person who does not move in time has a substitute bot move once;
  the move is kept for that seat's controller (:meth:`Table.forced_for`) so its screen can say
  what was played.
* While a table waits for players its creator may fill the free seats with bots and start
  (:meth:`Table.fill_with_bots`).
* A remote bot that times out or answers nonsense gets a legal default move (the first legal
  action), a logged fault, and its channel closed, as local external bots are restarted
  (:mod:`bots.external`).
* A **rated** table (the ladder's: :meth:`Lobby.open_rated_table`, formed by
  :class:`lobby.ladder.Ladder`) updates its players' ladder ratings when it ends, in the same
  transaction as its row. A human or remote seat whose substitute bot takes over (its owner
  away past the grace time, or left) **forfeits**: the fault log says so, the game goes on, and
  the seat is ranked last (:func:`engine.forfeit_outcome`). That result, the game's one record, is
  what the table reports, the game log keeps and the ladder rates; if every seat forfeited (an
  abandoned game, played out by substitutes) it is the engine's outcome, as for any other game.
* The game's seed comes from :func:`secrets.randbits` and is kept in a private attribute. Nothing
  hands it out (no view, log line, bot message or lobby row) until the game is over; then
  :attr:`Table.replay` and :meth:`Table.seed_if_over` give it to anyone.

When a game ends its replay is saved and recorded in the :class:`lobby.store.Store` before the table
reports the end.

A restart loses no running game. When a game starts its table is journaled in the store (the seed,
the options, each seat's kind, name, owner key and bot spec, the creator, the rated flag), and
every move is journaled (its seat and index into the legal actions) before any listener is told
of it; the fault log and forfeits too. A game that ends drops its journal in the transaction that
records it; a table that stops on an error or is closed to make room drops it too, but a server
shutdown keeps it (:meth:`Table.close`). On start :meth:`Lobby.resume` rebuilds every journaled
game under its code, its moves played again (each checked against the journaled digest), bots
made again from their specs, and each person's or remote bot's seat owned by the same key, away
from that moment: its owner takes it back as after a lost connection (:meth:`Table.sit`, or
``bot --table CODE``), and after the grace time a substitute plays it. Chat, spectators, turn
timers and the ladder's queue are not kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import ipaddress
import logging
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

import msgspec

import engine
from bots import Bot, RandomBot, make_bot, workers
from lobby.matchmaker import MatchPolicy
from replays import Player, Recorder, Replay

if TYPE_CHECKING:
    from lobby.store import JournaledGame

__all__ = [
    "DEFAULT_SERVER_BOTS",
    "HOUSE_PREFIX",
    "ChatLine",
    "HouseBot",
    "ForcedMove",
    "Identity",
    "Lobby",
    "SeatSpec",
    "ServerConfig",
    "Table",
    "TableError",
    "address_group",
    "clean_text",
    "default_house_bots",
    "shown",
]

log = logging.getLogger("saloon.server")

_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
_JOURNAL_DIGEST_CHARS = 16
"""How much of the state's digest the journal keeps per move (hex characters): checked on resume."""
MAX_CHAT_CHARS = 300
"""The longest chat message kept (longer ones are cut)."""

DEFAULT_SERVER_BOTS: Mapping[str, str] = {
    "random": "random",
    "heuristic": "heuristic",
    "ismcts": "ismcts:ms=100,depth=0,cutoff=heuristic",
    "quick": "quick",
    "strong": "strong",
}
"""The bots a server offers its users unless the operator says otherwise: offered name -> bot spec.

``ismcts`` searches 100 ms a decision and scores new nodes by the heuristics' estimates instead
of random rollouts: at that budget it measured at least as strong as random rollouts in every
game, and much stronger in some (``docs/ismcts.md``). ``quick`` and ``strong`` are the house
search bots, the strongest measured setting per game and player count at 100 ms and 1 s of CPU a
decision, and the heuristic where no search measured stronger (:class:`bots.pimc.HouseSearchBot`,
``docs/search.md``).

Users pick bots by offered name only (see :meth:`Lobby.create_table`); the spec, which may be any
:func:`bots.make_bot` name (a Python object path, an external command), comes from the operator
(``saloon serve --bot NAME=SPEC``) and never from a connection.
"""


RECLAIM_AFTER_S = 10.0
"""How long a game must have gone with nobody at it before a person's new table may take its
place when the saloon is full (:meth:`Lobby._reclaim`): a table just opened, whose creator's
screen has not sat down yet, is never taken."""

HOUSE_PREFIX = "house:"
"""The start of a house bot's player name on the ladder (``house:heuristic``): a ``:`` is never
in an account name, so a house bot's rating is never an account's."""


def default_house_bots() -> dict[str, str]:
    """The house bots ``saloon serve`` keeps on every ladder: ``heuristic`` and the strongest
    built-in search bot, ``quick`` (the strongest measured search per game at 100 ms a decision);
    on an installation whose bots have no ``quick``, ``ismcts`` (the server's 100 ms setting)
    takes its place.
    """
    from bots import UnknownBot

    try:
        bot = make_bot("quick", 0)
    except UnknownBot:
        return {"heuristic": "heuristic", "ismcts": DEFAULT_SERVER_BOTS["ismcts"]}
    close = getattr(bot, "close", None)
    if callable(close):
        close()
    return {"heuristic": "heuristic", "quick": "quick"}


@dataclass(frozen=True)
class HouseBot:
    """A house bot's seat at a rated table (:meth:`Lobby.open_rated_table`).

    Attributes:
        name: the player name it is rated under (``house:NAME``).
        spec: the :func:`bots.make_bot` spec that plays it.
    """

    name: str
    spec: str


class TableError(ValueError):
    """A lobby or table request that cannot be done (the message says why, for the person)."""


@dataclass(frozen=True)
class ServerConfig:
    """How the server's tables behave.

    Attributes:
        grace_s: how long a disconnected person keeps control of their seat before a substitute
            bot plays for them.
        bot_grace_s: the same for a remote bot (its channel closed or faulted): short, since a
            program that lost its connection rarely comes back within a minute.
        turn_timer_s: seconds a person has per decision (``None``: no timer).
        bot_delay_s: the pause before a visible bot move at tables with people, or with spectators
            if the table is not rated (0: none).
        remote_deadline_ms: the per-decision deadline of remote bots.
        max_tables: the most tables not yet over (waiting or playing, ladder tables included):
            what the server runs at once. It is checked when a table is opened, never when
            someone joins one (a join only starts a game that already holds its place).
        max_waiting_tables: the most tables waiting for players, a sub-cap of :attr:`max_tables`.
            Only a new table with a free seat for someone else is refused when it is reached;
            a table of its creator and bots, or of bots only, is not (it starts at once), so
            tables nobody joins can never keep anyone from playing: the other
            ``max_tables - max_waiting_tables`` places are for games that start.
        max_open_tables_per_account: the most waiting or playing tables one account (or one
            guest session) may have opened; one more is refused.
        max_waiting_tables_per_address: the most tables opened from one network address (an IPv4
            address, or an IPv6 /64: a client holds a whole /64) that wait for players or that
            only bots play, whichever accounts opened them; accounts are free, so this is what
            bounds one client. A new table is refused when it is reached, but anyone from the
            address may still join a table. Identities without an address (the lobby's own
            callers, tests) are not counted.
        max_waiting_tables_new_account: the most tables waiting for players or played by bots
            only that an account younger than :attr:`new_account_s` (or a guest) may hold. It
            is checked only for such tables: a table of its creator and bots is never refused
            by it.
        max_live_tables_per_address: the most tables opened from one network address (grouped as
            for :attr:`max_waiting_tables_per_address`) that wait or play at once, whoever plays
            them and whichever accounts opened them: what bounds one client that makes many
            accounts and leaves each table to its bots. A new table is refused beyond it.
        new_account_s: how long an account counts as new after it registered its key.
        waiting_idle_s: a waiting table where nothing a person did happened (nobody sat, left,
            watched or chatted; a remote bot sitting or leaving does not count) for this long
            is closed, so tables nobody joins cannot fill :attr:`max_waiting_tables`.
        waiting_unattended_s: a waiting table that nobody is at (no one seated, no spectator)
            closes after this long: its creator never sat, or everyone left and nobody watches.
            :attr:`waiting_idle_s` still applies to attended tables.
        bot_sit_interval_s: a remote bot account may sit at one table at most once in this many
            seconds (a reconnecting bot is refused until then, with a message); people are not
            limited (a person's new session takes their seat back at once).
        max_seat_faults_waiting: the faults recorded per seat before the game starts (a bot
            that reconnects to break the protocol again and again); past it one line, kept up
            to date, says how many more there were.
        max_seat_faults_playing: the same for each seat during the game.
        finished_keep_s: how long a finished table stays listed.
        bots: the bots users may seat, by offered name: name -> :func:`bots.make_bot` spec
            (:data:`DEFAULT_SERVER_BOTS` unless the operator adds or replaces some).
        ladder_policy: how patient the ladder's matchmaker is (:class:`lobby.matchmaker.MatchPolicy`:
            the longest wait, the rating window).
        ladder_connections_per_key: the most ladder connections (queued or seated at a ladder
            table) one account key may hold at once; one more is refused.
        ladder_tick_s: seconds between two rounds of the ladder's matchmaker.
        house_bots: the ladder's house bots: name -> :func:`bots.make_bot` spec. When a queued
            player has waited longer than the policy's ``max_wait_s`` and no table can be formed
            for them, the house bots of their game join them at a rated table (each house bot
            may play at several tables at once). They are rated like everyone, under the name
            ``house:NAME`` (:data:`HOUSE_PREFIX`: no account can have it). Empty here (none);
            ``saloon serve`` gives :data:`DEFAULT_HOUSE_BOTS` unless told otherwise.
    """

    grace_s: float = 60.0
    bot_grace_s: float = 5.0
    turn_timer_s: float | None = None
    bot_delay_s: float = 0.5
    remote_deadline_ms: int = 5000
    max_tables: int = 200
    max_waiting_tables: int = 150
    max_open_tables_per_account: int = 3
    max_waiting_tables_per_address: int = 6
    max_waiting_tables_new_account: int = 1
    max_live_tables_per_address: int = 12
    new_account_s: float = 3600.0
    waiting_idle_s: float = 1800.0
    waiting_unattended_s: float = 300.0
    bot_sit_interval_s: float = 1.0
    max_seat_faults_waiting: int = 10
    max_seat_faults_playing: int = 50
    finished_keep_s: float = 600.0
    bots: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_SERVER_BOTS))
    ladder_policy: MatchPolicy = MatchPolicy()
    ladder_connections_per_key: int = 4
    ladder_tick_s: float = 0.5
    house_bots: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Identity:
    """Who is connected: an account (by key) or a guest.

    Attributes:
        name: the display name (the account name).
        key: what proves it is the same account again: the key's fingerprint, or a one-off
            token for a guest (guests cannot reclaim seats after a reconnect).
        guest: True for a keyless guest.
        address: the network address the client connected from (``""``: unknown, e.g. the
            lobby's own callers); tables are bounded per address
            (:attr:`ServerConfig.max_waiting_tables_per_address`).
        registered: when the account registered its key (Unix time); ``None``: unknown, taken
            as an established account (a guest is always new, see :meth:`is_new`).
    """

    name: str
    key: str
    guest: bool = False
    address: str = ""
    registered: float | None = None

    @property
    def label(self) -> str:
        """The name as others see it."""
        return f"{self.name} (guest)" if self.guest else self.name

    def is_new(self, within_s: float, now: float | None = None) -> bool:
        """True for a guest, or an account registered less than ``within_s`` seconds before ``now`` (Unix time)."""
        if self.guest:
            return True
        if self.registered is None:
            return False
        return (time.time() if now is None else now) - self.registered < within_s


def address_group(address: str) -> str:
    """The group of network addresses one client is taken to hold: an IPv4 address itself, an
    IPv6 address's /64 (an IPv4-mapped IPv6 address is its IPv4 address); ``""`` for no address.
    """
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass(frozen=True)
class SeatSpec:
    """How a new table's seat is filled.

    Attributes:
        kind: ``"me"`` (the creator), ``"open"`` (a person or remote bot joins), ``"bot"``.
        bot: the name of a bot the server offers (``kind == "bot"``; a key of
            :attr:`ServerConfig.bots`, never a spec).
    """

    kind: Literal["me", "open", "bot"]
    bot: str = "random"


@dataclass(frozen=True)
class ForcedMove:
    """A move the turn timer made for a person who did not move in time.

    Attributes:
        serial: increases with every forced move at the table (tells a new one from one already shown).
        move: the move's number in the game (1 = the first move).
        text: the move in words, as the seat's own view describes it (``Game.describe``).
    """

    serial: int
    move: int
    text: str


@dataclass(frozen=True)
class ChatLine:
    """One chat message: when (Unix time), who and what, and its number in its chat.

    ``serial`` counts the lines ever posted to the chat (1 for the first), so a screen that
    remembers the last number it showed finds the new lines even after the chat's deque
    (the newest 200 lines) has dropped old ones.
    """

    at: float
    name: str
    text: str
    serial: int


def _post_chat(chat: deque[ChatLine], name: str, text: str) -> None:
    """Append a line to ``chat``, numbered one after its newest line (1 for the first line).

    A chat deque only ever drops its oldest lines, so its newest line's number is the count of
    lines ever posted to it.
    """
    serial = chat[-1].serial + 1 if chat else 1
    chat.append(ChatLine(time.time(), name, text, serial))


class Listener(Protocol):
    """Something shown a table or the lobby (a session); called on the event loop, outside any app."""

    def changed(self, what: Any) -> None:
        """``what`` (a :class:`Table` or the :class:`Lobby`) changed."""


class Controller(Listener, Protocol):
    """A session that controls a seat: a person's screen or a remote bot's channel."""

    identity: Identity

    def seat_lost(self, table: Table, seat: int, reason: str) -> None:
        """Another session (of the same account) took the seat, or the table closed."""


class RemoteController(Controller, Protocol):
    """A remote bot's channel."""

    def start(self, table: Table, seat: int) -> None:
        """Send the ``start`` message (at the start of the game, or when the bot takes its seat back)."""

    async def decide(self, seat: int, view: Any, legal: list[Any], deadline_ms: int) -> int:
        """Ask for a decision; returns the index. Raises on a timeout or a bad reply (a fault)."""

    def end(self, outcome: engine.Outcome) -> None:
        """Send the ``end`` message."""

    def fault(self, message: str) -> None:
        """The bot faulted: close its channel with ``message``."""


def clean_text(text: str, limit: int = MAX_CHAT_CHARS) -> str:
    """``text`` without control or formatting characters (no terminal escapes), spaces collapsed, cut to ``limit``."""
    kept = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text[: 4 * limit + 64])
    return " ".join(kept.split())[:limit]


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message to a person: control characters removed, cut to ``limit`` with ``…``."""
    cleaned = clean_text(text, limit + 1)
    return repr(cleaned if len(cleaned) <= limit else cleaned[:limit] + "…")


@dataclass
class Seat:
    """One seat at a table (see the module docstring for the kinds)."""

    index: int
    kind: Literal["human", "bot", "remote", "open"]
    name: str = ""
    owner: str | None = None  # the owner's Identity.key (human, remote)
    bot_spec: str = ""
    controller: Controller | None = None
    away_since: float | None = None
    substitute: bool = False  # a bot plays for the owner now

    @property
    def free(self) -> bool:
        """True if anyone may take the seat."""
        return self.kind == "open"

    @property
    def status(self) -> str:
        """A short word for the seat list: ``free``, ``bot``, ``here``, ``away`` or ``bot plays``."""
        if self.kind == "open":
            return "free"
        if self.kind == "bot":
            return "bot"
        if self.substitute:
            return "bot plays"
        return "here" if self.controller is not None else "away"


class Table:
    """One table: seats, spectators, chat and the game (see the module docstring).

    Made by :meth:`Lobby.create_table`; not meant to be constructed directly.
    """

    def __init__(
        self,
        lobby: Lobby,
        code: str,
        game_id: str,
        num_players: int,
        options: Any,
        creator: Identity,
        seats: list[Seat],
    ) -> None:
        self.lobby = lobby
        self.code = code
        self.game: engine.Game = engine.game(game_id)
        self.num_players = num_players
        self.options = options
        self.options_dict: dict[str, Any] = msgspec.to_builtins(options)
        self.creator = creator.label
        self.creator_key = creator.key
        self.seats = seats
        self.status: Literal["waiting", "playing", "over", "closed"] = "waiting"
        self.created = time.time()
        self.active = lobby.clock()  # the last thing a person did here (see ServerConfig.waiting_idle_s)
        self.unattended_since: float | None = self.active  # since when nobody is at the table, or None
        self._creator_address = address_group(creator.address)  # for the per-address limit; never shown
        self.started: float | None = None
        self.finished: float | None = None
        self.chat: deque[ChatLine] = deque(maxlen=200)
        self.faults: list[str] = []
        self.spectators: set[Listener] = set()
        self.replay_path: str | None = None
        self.game_row: int | None = None
        self.rated = False
        self.forfeits: set[int] = set()
        self.ladder_ranks: tuple[int, ...] | None = None
        self.version = 0
        self._listeners: set[Listener] = set()
        self.__seed: int | None = None
        self._recorder: Recorder | None = None
        self._bots: dict[int, Bot] = {}
        self._substitutes: dict[int, Bot] = {}
        self._deadlines: dict[int, float] = {}
        self._forced: dict[int, ForcedMove] = {}
        self._forced_serial = 0
        self._pending: dict[int, asyncio.Task[None]] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._outcome: engine.Outcome | None = None
        self._sat: dict[str, float] = {}  # a remote bot account's key -> when it last sat (lobby clock)
        self._fault_counts: dict[tuple[bool, int], int] = {}  # (before the game, seat) -> faults
        self._fault_summaries: dict[tuple[bool, int], int] = {}  # (before the game, seat) -> its line
        self._journaled = False  # the game is in the store's journal (see Lobby.resume)

    # What anyone may see ------------------------------------------------------------------

    @property
    def title(self) -> str:
        """The game's title."""
        return self.game.title

    @property
    def state(self) -> engine.State | None:
        """The live state for the server's own use (``None`` before the start). Never show it whole."""
        return None if self._recorder is None else self._recorder.state

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.status == "over"

    @property
    def outcome(self) -> engine.Outcome | None:
        """The game's result once it is over: the engine's outcome, with the seats that forfeited a
        rated game ranked last (:func:`engine.forfeit_outcome`), as the game log and ladder record it."""
        return self._outcome

    @property
    def num_moves(self) -> int:
        """Moves played so far."""
        return 0 if self._recorder is None else self._recorder.num_moves

    @property
    def replay(self) -> Replay | None:
        """The finished game's replay (with its seed), ``None`` while the game is not over."""
        if self._recorder is None or not self.is_over:
            return None
        return self._recorder.replay()

    def seed_if_over(self) -> int | None:
        """The seed, once the game is over (``None`` before)."""
        return self.__seed if self.is_over else None

    def names(self) -> list[str]:
        """Per seat, who plays it (a name, ``"bot NAME"`` or ``"(free)"``)."""
        out = []
        for seat in self.seats:
            if seat.kind == "open":
                out.append("(free)")
            elif seat.kind == "bot":
                out.append(f"{seat.name} (bot)")
            elif seat.kind == "remote":
                out.append(f"{seat.name} (remote bot)")
            else:
                out.append(seat.name)
        return out

    @property
    def attended(self) -> bool:
        """True if someone is at the table: a session in a seat (a person's screen or a remote
        bot's channel) or a spectator."""
        return bool(self.spectators) or any(s.controller is not None for s in self.seats)

    @property
    def played_by_someone(self) -> bool:
        """True if a person or a remote bot plays a seat here now: its session is in the seat and
        no substitute bot plays for it. A seat whose owner left or lost the connection does not
        count (its substitute, a built-in bot, plays it)."""
        return any(s.kind in ("human", "remote") and s.controller is not None and not s.substitute for s in self.seats)

    @property
    def holds_place(self) -> bool:
        """True while the table holds a place that nobody plays: it waits for players, or only
        bots play it (built-in ones, or substitutes for people and remote bots who left or lost
        the connection). What :attr:`ServerConfig.max_waiting_tables_per_address` and
        :attr:`ServerConfig.max_waiting_tables_new_account` count."""
        if self.status == "waiting":
            return True
        return self.status == "playing" and not self.played_by_someone

    def counts(self) -> dict[str, int]:
        """How many seats are ``human``, ``bot`` (built-in and remote) and ``free``."""
        human = sum(1 for s in self.seats if s.kind == "human")
        bot = sum(1 for s in self.seats if s.kind in ("bot", "remote"))
        return {"human": human, "bot": bot, "free": sum(1 for s in self.seats if s.free)}

    def seat_of(self, who: Controller | Identity) -> int | None:
        """The seat ``who`` controls (a controller) or owns (an identity), or ``None``."""
        for seat in self.seats:
            if isinstance(who, Identity):
                if seat.owner is not None and seat.owner == who.key:
                    return seat.index
            elif seat.controller is who:
                return seat.index
        return None

    def view_for(self, controller: Listener) -> tuple[int | None, Any]:
        """The view ``controller`` may see: its seat's if it controls one, else the spectator's.

        Returns:
            ``(seat or None, view)``; the view is ``None`` before the game starts.
        """
        seat = self.seat_of(controller)  # type: ignore[arg-type]
        state = self.state
        return seat, None if state is None else state.view(seat)

    def events_for(self, controller: Listener, since: int = 0) -> list[Any]:
        """The events ``controller`` may know (its seat's, or the public ones)."""
        state = self.state
        if state is None:
            return []
        return state.events(self.seat_of(controller), since)  # type: ignore[arg-type]

    def events_seen(self, controller: Listener) -> int:
        """How many events ``controller`` may know so far (:meth:`events_for`), as the fronts'
        mirrors count them (:meth:`lobby.client.TableMirror.events_seen`)."""
        return len(self.events_for(controller))

    def legal_for(self, controller: Controller) -> list[Any]:
        """The legal actions of the seat ``controller`` controls now (empty if none owed)."""
        seat = self.seat_of(controller)
        state = self.state
        if seat is None or state is None or state.is_over or seat not in state.to_act:
            return []
        return state.legal_actions(seat)

    def deadline_of(self, seat: int) -> float | None:
        """When the seat's turn timer runs out (``time.monotonic()``), or ``None``."""
        return self._deadlines.get(seat)

    def forced_for(self, controller: Listener) -> ForcedMove | None:
        """The last move the turn timer made for the seat ``controller`` controls (``None``: none, or no seat).

        Only the seat's own controller gets it: the move may be a hidden choice.
        """
        seat = self.seat_of(controller)  # type: ignore[arg-type]
        return None if seat is None else self._forced.get(seat)

    def grace_of(self, seat: Seat) -> float:
        """How long ``seat``'s owner may be away before a substitute bot plays for it.

        :attr:`ServerConfig.bot_grace_s` for a remote bot's seat, else :attr:`ServerConfig.grace_s`.
        """
        config = self.lobby.config
        return config.bot_grace_s if seat.kind == "remote" else config.grace_s

    def to_act(self) -> tuple[int, ...]:
        """The seats that owe a decision now."""
        state = self.state
        return () if state is None or state.is_over else state.to_act

    # Listeners ----------------------------------------------------------------------------

    def watch(self, listener: Listener, spectator: bool = False) -> None:
        """Tell ``listener`` about every change; a ``spectator`` is counted as one."""
        self._listeners.add(listener)
        if spectator:
            self.spectators.add(listener)
        self._changed()

    def unwatch(self, listener: Listener) -> None:
        """Stop telling ``listener``."""
        self._listeners.discard(listener)
        if listener in self.spectators:
            self.spectators.discard(listener)
            self._changed()

    def _changed(self, lobby_too: bool = True, person: bool = True) -> None:
        """Tell the listeners (and the lobby's, with ``lobby_too``) that the table changed.

        ``person``: a person did it, which keeps a waiting table from idling out
        (:attr:`ServerConfig.waiting_idle_s`); a remote bot's sitting or leaving does not.
        """
        now = self.lobby.clock()
        if person:
            self.active = now
        if self.attended:
            self.unattended_since = None
        elif self.unattended_since is None:
            self.unattended_since = now
        self.version += 1
        _notify(self._listeners, self)
        if lobby_too:
            if self.rated:  # a ladder table: on the Ladder screen, not in the lobby's list
                self.lobby.ladder_changed()
            else:
                self.lobby.changed()

    # Seats --------------------------------------------------------------------------------

    def sit(self, controller: Controller, seat: int | None = None, kind: Literal["human", "remote"] = "human") -> int:
        """Take a seat: the owner's own seat back, or a free one (``seat``, or the first free).

        A person or remote bot that owns a seat here (same key) always gets that seat back, from
        any previous session of theirs (which is told it lost the seat).

        Returns:
            The seat index.

        A remote bot's account may sit at a table at most once in
        :attr:`ServerConfig.bot_sit_interval_s` (a bot that reconnects to fault again and again
        is refused until then); a person's sessions are not limited.

        Raises:
            TableError: no such seat, not free, the table is closed, or a remote bot sat here
                too recently.
        """
        identity = controller.identity
        if self.status in ("over", "closed"):
            raise TableError(f"table {self.code} is {self.status}")
        if kind == "remote":
            self._check_sit_interval(identity)
        own = self.seat_of(identity)
        # A guest's key is one session's: it owns a seat only as the creator's reserved seat,
        # which that session takes once.
        reserved = own is not None and self.seats[own].controller is None
        if own is not None and (seat is None or seat == own) and (not identity.guest or reserved):
            target = self.seats[own]
            if target.kind != kind:
                raise TableError(f"your seat {own} at table {self.code} is a {target.kind} seat")
            old = target.controller
            target.controller = controller
            target.away_since = None
            target.substitute = False
            if old is not None and old is not controller:
                self._listeners.discard(old)
                old.seat_lost(self, own, "you took this seat from another session")
            self._listeners.add(controller)
            if kind == "remote":
                self._note_sit(identity)
                if self.status == "playing":
                    self._start_remote(target)
            self._changed(person=kind == "human")
            self._wake.set()
            return own
        if own is not None and seat is not None and seat != own:
            raise TableError(f"you already have seat {own} at table {self.code}")
        if own is not None and identity.guest:
            raise TableError(f"a guest named {identity.name} already sits at table {self.code}")
        if seat is None:
            seat = next((s.index for s in self.seats if s.free), None)
            if seat is None:
                raise TableError(f"table {self.code} has no free seat")
        if not 0 <= seat < self.num_players:
            raise TableError(f"table {self.code} has seats 0..{self.num_players - 1}, not {seat}")
        target = self.seats[seat]
        if not target.free:
            raise TableError(f"seat {seat} at table {self.code} is taken")
        target.kind = kind
        target.name = identity.label
        target.owner = identity.key
        target.controller = controller
        self.spectators.discard(controller)
        self._listeners.add(controller)
        if kind == "remote":
            self._note_sit(identity)
        self._changed(person=kind == "human")
        if self.status == "waiting" and not any(s.free for s in self.seats):
            self._start()
        return seat

    def release(self, controller: Controller, leave: bool = False) -> None:
        """``controller``'s session ends (or the person leaves the table with ``leave``).

        Before the game starts the seat becomes free again, except the creator's own seat when
        their connection drops (it stays reserved for their key until the table starts or
        closes; a guest cannot come back, so a guest's is freed). During the game the owner
        keeps the seat: after the grace time (at once if ``leave``) a substitute bot plays for it.
        """
        self._listeners.discard(controller)
        was_watching = controller in self.spectators
        self.spectators.discard(controller)
        seat = self.seat_of(controller)
        if seat is None:
            if was_watching:
                self._changed()  # the watcher count in the lobby
            return
        target = self.seats[seat]
        target.controller = None
        person = target.kind == "human"
        if self.status == "waiting":
            creators = target.owner == self.creator_key and target.kind == "human"
            if not creators or leave or controller.identity.guest:
                target.kind, target.name, target.owner = "open", "", None
            if not any(s.kind in ("human", "remote") for s in self.seats):
                self.lobby.drop(self)
        elif self.status == "playing":
            target.away_since = time.monotonic()
            if leave or self.grace_of(target) <= 0:
                self._substitute(target, "left the table" if leave else "disconnected")
        self._changed(person=person)
        self._wake.set()

    def _check_sit_interval(self, identity: Identity) -> None:
        """Refuse a remote bot account's sitting here within :attr:`ServerConfig.bot_sit_interval_s` of its last."""
        interval = self.lobby.config.bot_sit_interval_s
        last = self._sat.get(identity.key)
        if last is not None and self.lobby.clock() - last < interval:
            raise TableError(
                f"{identity.label} sat at table {self.code} less than {interval:g} s ago; "
                "wait a moment before sitting again"
            )

    def _note_sit(self, identity: Identity) -> None:
        """A remote bot account sat here (see :meth:`_check_sit_interval`)."""
        now = self.lobby.clock()
        interval = self.lobby.config.bot_sit_interval_s
        for key, when in list(self._sat.items()):  # only the last interval's sits are kept
            if now - when >= interval:
                del self._sat[key]
        if interval > 0:
            self._sat[identity.key] = now

    def fill_with_bots(self, identity: Identity, bot: str) -> int:
        """The creator fills every free seat with the offered bot ``bot``; the game starts at once.

        Returns:
            How many seats were filled.

        Raises:
            TableError: ``identity`` did not open this table, the table is not waiting for
                players, it has no free seat, or ``bot`` is not a bot on offer (an offered name,
                never a spec: see :meth:`Lobby.create_table`).
        """
        if identity.key != self.creator_key:
            raise TableError(f"only {self.creator}, who opened table {self.code}, can fill it with bots")
        if self.status != "waiting":
            raise TableError(f"table {self.code} is not waiting for players (it is {self.status})")
        free = [s for s in self.seats if s.free]
        if not free:
            raise TableError(f"table {self.code} has no free seat")
        offered = self.lobby.config.bots
        if bot not in offered:
            raise TableError(f"{shown(bot)} is not a bot on offer here; choose from: {', '.join(offered)}")
        for seat in free:
            seat.kind, seat.name, seat.bot_spec = "bot", bot, offered[bot]
        log.info("table %s: %s filled %d free seat(s) with %s", self.code, identity.label, len(free), bot)
        self._changed()
        self._start()
        return len(free)

    # Chat ---------------------------------------------------------------------------------

    def say(self, identity: Identity, text: str) -> None:
        """Post a chat line at this table (control characters removed, cut to a sane length)."""
        text = clean_text(text)
        if text:
            _post_chat(self.chat, identity.label, text)
            self._changed(lobby_too=False)

    # Playing ------------------------------------------------------------------------------

    def play(self, controller: Controller, action: Any) -> None:
        """Play ``action`` for the seat ``controller`` controls.

        Raises:
            TableError: ``controller`` controls no seat here, or the game is not running.
            engine.IllegalAction: the action is not legal for that seat now.
        """
        seat = self.seat_of(controller)
        if seat is None or self.seats[seat].kind != "human":
            raise TableError("you have no seat at this table")
        if self._recorder is None or self.status != "playing":
            raise TableError("the game is not running")
        self._record(seat, action)

    def _players(self) -> list[Player]:
        """The replay's players, seat order."""
        return [Player(s.name, "human" if s.kind == "human" else "bot") for s in self.seats]

    def _start(self) -> None:
        self.__seed = secrets.randbits(64)
        self._recorder = Recorder(self.game.id, self.num_players, self.__seed, self.options, self._players())
        for seat in self.seats:
            if seat.kind == "bot":
                self._bots[seat.index] = make_bot(seat.bot_spec, secrets.randbits(32))
            self._substitutes[seat.index] = RandomBot(secrets.randbits(32))
        self.status = "playing"
        self.started = time.time()
        now = time.monotonic()
        for seat in self.seats:
            if seat.kind == "remote" and seat.controller is not None:
                self._start_remote(seat)
            elif seat.kind in ("human", "remote") and seat.controller is None:
                seat.away_since = now  # the creator's reserved seat, not yet sat in: away until they do
        self._journal_start()
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table {self.code}")
        log.info("table %s: %s started for %s", self.code, self.game.id, ", ".join(s.name for s in self.seats))
        self._changed()

    def _record(self, seat: int, action: Any) -> None:
        """Play ``action`` for ``seat``, journal the move, then tell the listeners (:meth:`_moved`).

        The move is committed to the store's journal before anyone is shown it, so a restart
        resumes the game at the position everyone saw (:meth:`Lobby.resume`).

        Raises:
            engine.IllegalAction: the action is not legal for ``seat`` now; nothing changed.
        """
        recorder = self._recorder
        assert recorder is not None
        try:
            choice = engine.legal_index(action, recorder.state.legal_actions(seat))
        except engine.IllegalAction:
            raise engine.IllegalAction(f"seat {seat} may not play {action!r:.200} now") from None
        recorder.apply_index(seat, choice)
        if self._journaled:
            digest = recorder.state.digest()[:_JOURNAL_DIGEST_CHARS]
            try:
                self.lobby.store.journal_move(self.code, recorder.num_moves, seat, choice, digest)
            except Exception:
                self._journal_failed()
        self._moved()

    def _journal_detail(self) -> dict[str, Any]:
        """What :meth:`_resumed` needs besides the seed, the moves, the faults and the forfeits (JSON builtins)."""
        return {
            "rules_version": self.game.rules_version,
            "num_players": self.num_players,
            "options": self.options_dict,
            "creator": {"label": self.creator, "key": self.creator_key, "address": self._creator_address},
            "rated": self.rated,
            "created": self.created,
            "seats": [{"kind": s.kind, "name": s.name, "owner": s.owner, "bot_spec": s.bot_spec} for s in self.seats],
        }

    def _journal_start(self) -> None:
        """Journal the game that starts (see the module docstring); a failure is logged, and the
        game goes on without a journal (a restart will not resume it)."""
        assert self.__seed is not None and self.started is not None
        try:
            self.lobby.store.journal_start(
                self.code, self.game.id, self.__seed, self.started, self._journal_detail(), self.faults, self.forfeits
            )
        except Exception:
            log.exception("table %s: the game cannot be journaled; a restart will not resume it", self.code)
            return
        self._journaled = True

    def _journal_notes(self) -> None:
        """Journal the fault log and the forfeits, which changed."""
        if self._journaled:
            try:
                self.lobby.store.journal_faults(self.code, self.faults, self.forfeits)
            except Exception:
                self._journal_failed()

    def _journal_failed(self) -> None:
        """A journal write failed: logged, and the game goes on without its journal (dropped if it
        can be, so that a restart does not resume it a few moves back)."""
        log.exception("table %s: the journal cannot be written; a restart will not resume this game", self.code)
        self._journaled = False
        with contextlib.suppress(Exception):
            self.lobby.store.journal_drop(self.code)

    def _drop_journal(self) -> None:
        """Drop the game's journal: it is not to be resumed (it stopped on an error, or was closed)."""
        if self._journaled:
            self._journaled = False
            try:
                self.lobby.store.journal_drop(self.code)
            except Exception:
                log.exception("table %s: its journal cannot be dropped", self.code)

    def _moved(self) -> None:
        state = self.state
        assert state is not None
        for seat in list(self._deadlines):
            if seat not in state.to_act:
                del self._deadlines[seat]
        self._changed(lobby_too=state.is_over)
        self._wake.set()

    def _substitute(self, seat: Seat, why: str) -> None:
        """A substitute bot plays for ``seat`` from now on; at a rated table its owner forfeits."""
        seat.substitute = True
        if self.rated and seat.kind in ("human", "remote") and seat.index not in self.forfeits:
            self.forfeits.add(seat.index)
            self.faults.append(
                f"move {self.num_moves + 1}: seat {seat.index} ({seat.name}) forfeits ({why}): "
                "ranked last on the ladder; a substitute bot plays on"
            )
            self._journal_notes()

    def _automatic(self, seat: Seat) -> bool:
        return seat.kind == "bot" or seat.substitute

    async def _run(self) -> None:
        try:
            state = self.state
            assert state is not None
            while not state.is_over:
                self._wake.clear()
                self._dispatch()
                timeout = self._next_timer()
                if timeout is None or timeout > 0:
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(self._wake.wait(), timeout)
                self._expire()
            await self._finish()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s stopped on an error", self.code)
            self.status = "closed"
            self._drop_journal()
            self._changed()
        finally:
            for task in self._pending.values():
                task.cancel()

    def _start_remote(self, seat: Seat) -> None:
        controller = seat.controller
        try:
            controller.start(self, seat.index)  # type: ignore[union-attr]
        except Exception as exc:  # a remote bot's channel: any failure is its fault
            self._fault(seat.index, f"start failed: {exc}")

    def _dispatch(self) -> None:
        state = self.state
        assert state is not None
        now = time.monotonic()
        for index in state.to_act:
            if index in self._pending:
                continue
            seat = self.seats[index]
            if self._automatic(seat):
                self._spawn(index, self._bot_move(index, self._bots.get(index) or self._substitutes[index]))
            elif seat.kind == "remote" and seat.controller is not None:
                self._spawn(index, self._remote_move(index, seat.controller))  # type: ignore[arg-type]
            elif seat.kind == "human" and self.lobby.config.turn_timer_s and index not in self._deadlines:
                self._deadlines[index] = now + self.lobby.config.turn_timer_s
                self._changed(lobby_too=False)

    def _spawn(self, seat: int, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._pending[seat] = task

        def done(t: asyncio.Task[None]) -> None:
            if self._pending.get(seat) is t:
                del self._pending[seat]
            self._wake.set()

        task.add_done_callback(done)

    def _next_timer(self) -> float | None:
        now = time.monotonic()
        times = list(self._deadlines.values())
        times += [s.away_since + self.grace_of(s) for s in self.seats if s.away_since is not None and not s.substitute]
        return None if not times else max(0.0, min(times) - now)

    def _expire(self) -> None:
        now = time.monotonic()
        for seat in self.seats:
            if seat.away_since is not None and not seat.substitute and now >= seat.away_since + self.grace_of(seat):
                self._substitute(seat, f"away for more than {self.grace_of(seat):g} s")
                log.info("table %s: seat %d (%s) is away; a bot plays for it", self.code, seat.index, seat.name)
                self._changed()
        for index, deadline in list(self._deadlines.items()):
            if now >= deadline and index not in self._pending:
                del self._deadlines[index]
                _post_chat(self.chat, "table", f"{self.seats[index].name}'s time ran out")
                self._spawn(index, self._bot_move(index, self._substitutes[index], paced=False, forced=True))

    async def _bot_move(self, index: int, bot: Bot, paced: bool = True, forced: bool = False) -> None:
        state = self.state
        assert state is not None
        moves = self.num_moves
        delay = self.lobby.config.bot_delay_s
        # Paced where people follow the game: a person's session in a seat, or someone watching
        # an unrated table (a ladder game of bots is never held up by its spectators). A table
        # whose people all left plays at the bots' speed.
        person = any(s.kind == "human" and s.controller is not None for s in self.seats)
        watched = bool(self.spectators) and not self.rated
        if paced and delay > 0 and len(state.to_act) == 1 and (watched or person):
            await asyncio.sleep(delay)
        if state.is_over or index not in state.to_act:
            return
        view = state.view(index)
        legal = state.legal_actions(index)
        try:
            if workers.is_search_bot(bot, state):  # searching takes long: a worker process, not the loop's
                choice, searched = await workers.decide(bot, state, index)
                if self._bots.get(index) is bot:
                    self._bots[index] = searched  # the bot as it is after deciding (its random state)
                action = legal[choice]
            else:
                action = await asyncio.to_thread(bot.act, view, list(legal), index)
        except Exception as exc:  # a bot is outside code: any failure is its fault, not the table's
            self._record_fault(index, f"move {moves + 1}: seat {index}: the bot raised {type(exc).__name__}: {exc}")
            action = legal[0]
        played = self._apply_auto(index, action, legal)
        if forced and played is not None:
            self._forced_serial += 1
            try:
                text = self.game.describe(played, view)
            except Exception:  # describing is only for the screen: never stop the game for it
                log.exception("table %s: cannot describe a forced move", self.code)
                text = "a move"
            self._forced[index] = ForcedMove(self._forced_serial, self.num_moves, text)
            self._changed(lobby_too=False)

    async def _remote_move(self, index: int, controller: RemoteController) -> None:
        state = self.state
        assert state is not None
        view = state.view(index)
        legal = state.legal_actions(index)
        deadline_ms = self.lobby.config.remote_deadline_ms
        try:
            choice = await asyncio.wait_for(controller.decide(index, view, legal, deadline_ms), deadline_ms / 1000)
        except TimeoutError:
            self._fault(index, f"no answer within {deadline_ms} ms")
            choice = 0
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # bad reply, closed channel: the bot's fault
            self._fault(index, str(exc) or type(exc).__name__)
            choice = 0
        self._apply_auto(index, legal[choice], legal)

    def bot_fault(self, controller: Controller, message: str) -> None:
        """A remote bot broke the protocol outside a decision (output nobody asked for, an over-long
        line): the fault is logged like any other (:attr:`faults`, then the replay's fault log;
        past :attr:`ServerConfig.max_seat_faults_waiting` or ``..._playing`` a seat's faults are
        only counted) and the bot's channel is closed with ``message``.
        """
        seat = self.seat_of(controller)
        if seat is None:
            controller.fault(message)  # type: ignore[attr-defined]
            return
        if self.status != "waiting":
            self._fault(seat, message)
            return
        # Before the game: logged all the same, and the seat is free again for someone else.
        if self._record_fault(seat, f"before the game: seat {seat} ({self.seats[seat].name}): {message}"):
            log.info("table %s: remote bot fault: seat %d: %s", self.code, seat, message)
        self.release(controller)
        controller.fault(message)  # type: ignore[attr-defined]

    def _record_fault(self, index: int, line: str) -> bool:
        """Add ``line``, a fault of seat ``index``, to :attr:`faults`, unless the seat already has
        :attr:`ServerConfig.max_seat_faults_waiting` (before the game) or
        :attr:`ServerConfig.max_seat_faults_playing` (during it) recorded: then one line, made
        once and kept up to date, says how many more there were.

        Returns:
            True if ``line`` was recorded (the caller may log it), False if it was only counted.
        """
        before = self.status == "waiting"
        config = self.lobby.config
        limit = config.max_seat_faults_waiting if before else config.max_seat_faults_playing
        key = (before, index)
        count = self._fault_counts[key] = self._fault_counts.get(key, 0) + 1
        if count <= limit:
            self.faults.append(line)
            self._journal_notes()
            return True
        more = count - limit
        when = "before the game" if before else "in the game"
        summary = f"{when}: seat {index}: {more} more fault{'s' if more != 1 else ''} not recorded"
        where = self._fault_summaries.get(key)
        if where is None:
            self._fault_summaries[key] = len(self.faults)
            self.faults.append(summary)
            log.info(
                "table %s: seat %d: more than %d faults %s; the rest are only counted", self.code, index, limit, when
            )
        else:
            self.faults[where] = summary
        self._journal_notes()
        return False

    def _fault(self, index: int, message: str) -> None:
        seat = self.seats[index]
        if self._record_fault(index, f"move {self.num_moves + 1}: seat {index} ({seat.name}): {message}"):
            log.info("table %s: remote bot fault: seat %d: %s", self.code, index, message)
        controller = seat.controller
        if controller is not None:
            seat.controller = None
            seat.away_since = time.monotonic()
            self._listeners.discard(controller)
            controller.fault(message)  # type: ignore[attr-defined]

    def _apply_auto(self, index: int, action: Any, legal: list[Any]) -> Any:
        """Apply a bot's (or a default) move; returns the action applied, or ``None`` if none was."""
        state = self.state
        assert state is not None and self._recorder is not None
        if state.is_over or index not in state.to_act:
            return None
        try:
            action = legal[engine.legal_index(action, legal)]
        except engine.IllegalAction:
            self._record_fault(index, f"move {self.num_moves + 1}: seat {index}: not a legal action: {action!r:.200}")
            action = legal[0]
        try:
            self._record(index, action)
        except engine.IllegalAction:
            return None  # the position moved on (a simultaneous choice resolved): decide again
        return action

    async def _finish(self) -> None:
        assert self._recorder is not None
        state = self._recorder.state
        # one outcome, one record: the same result here, in the game log and on the ladder
        self._outcome = engine.forfeit_outcome(state.outcome, self.forfeits)
        self.finished = time.time()
        self._deadlines.clear()
        if self.rated:
            self.ladder_ranks = self._outcome.ranks
        replay = self._recorder.replay(self.faults)
        try:
            record = await asyncio.to_thread(
                self.lobby.store.record_game,
                self.code,
                replay,
                self.started or self.finished,
                self.finished,
                self.rated,
                tuple(sorted(self.forfeits)),
            )
            self.replay_path = str(record.replay)
            self.game_row = record.id
        except Exception:
            log.exception("table %s: the replay could not be saved", self.code)
        self.status = "over"
        log.info("table %s: over; winners %s", self.code, list(self._outcome.winners))
        for seat in self.seats:
            if seat.kind == "remote" and seat.controller is not None:
                with contextlib.suppress(Exception):
                    seat.controller.end(self._outcome)  # type: ignore[attr-defined]
        self._changed()

    async def close(self) -> None:
        """Stop the table's game (server shutdown); an unfinished game is not recorded, but its
        journal is kept: a shutdown is a restart too, and the next start resumes it (:meth:`Lobby.resume`)."""
        if self.status in ("waiting", "playing"):
            self.status = "closed"
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        for seat in self.seats:
            if seat.controller is not None:
                with contextlib.suppress(Exception):
                    seat.controller.seat_lost(self, seat.index, "the server is shutting down")
        self._changed()

    @classmethod
    def _resumed(cls, lobby: Lobby, journal: JournaledGame) -> Table:
        """The table of a journaled game (:meth:`Lobby.resume`), its moves played again.

        The table has the journal's code, seats, options, creator, rated flag, fault log and
        forfeits; its status is ``playing``; its bots are made again from their specs (a spec
        that cannot be made any more is a fault, and a random bot plays the seat); each person's
        and remote bot's seat is owned by the same key, with no session and away from now, so its
        grace time starts at the restart. Its task is not started.

        Raises:
            ValueError: the journal does not fit this engine or is damaged: another rules
                version, bad options or seats, a move that is not legal, a state whose digest
                differs from the journal's after some move (:class:`TableError`,
                :class:`engine.InvalidOptions` and :class:`engine.IllegalAction` among them).
            KeyError, TypeError: a damaged journal (a field missing or of the wrong type).
        """
        detail = journal.detail
        num_players = int(detail["num_players"])
        game = _checked_game(journal.game, num_players)
        if detail["rules_version"] != game.rules_version:
            raise ValueError(
                f"the game was journaled under {game.id} rules version {detail['rules_version']!r}; "
                f"this engine has {game.rules_version!r}"
            )
        options = engine.parse_options(game.options_type, detail["options"])
        seats = [
            Seat(i, s["kind"], name=str(s["name"]), owner=s["owner"], bot_spec=str(s["bot_spec"]))
            for i, s in enumerate(detail["seats"])
        ]
        if len(seats) != num_players or any(
            s.kind not in ("human", "bot", "remote") or (s.kind != "bot") != isinstance(s.owner, str) for s in seats
        ):
            raise ValueError(f"the journaled seats do not fit a {num_players}-player game")
        creator = detail["creator"]
        table = cls(lobby, journal.code, game.id, num_players, options, Identity(str(creator["label"]), ""), seats)
        table.creator_key = str(creator["key"])
        table._creator_address = str(creator["address"])
        table.created = float(detail["created"])
        table.rated = bool(detail["rated"])
        table.faults = list(journal.faults)
        table.forfeits = {seat for seat in journal.forfeits if 0 <= seat < num_players}
        table._replay_journal(journal.seed, journal.started, journal.moves)
        return table

    def _replay_journal(self, seed: int, started: float, moves: tuple[tuple[int, int, str], ...]) -> None:
        """Play the journaled ``moves`` again from ``seed`` and make the table ``playing`` (see :meth:`_resumed`).

        Raises:
            ValueError: a move is not legal, or the state's digest after it is not the journal's.
        """
        recorder = Recorder(self.game.id, self.num_players, seed, self.options, self._players())
        for number, (seat, choice, digest) in enumerate(moves, 1):
            try:
                recorder.apply_index(seat, choice)
            except engine.IllegalAction as exc:
                raise ValueError(f"journaled move {number} is not legal: {exc}") from None
            if recorder.state.digest()[:_JOURNAL_DIGEST_CHARS] != digest:
                raise ValueError(f"after journaled move {number} the state differs from the journal's")
        self.__seed = seed
        self._recorder = recorder
        self.status = "playing"
        self.started = started
        self._journaled = True
        for seat in self.seats:
            if seat.kind == "bot":
                try:
                    self._bots[seat.index] = make_bot(seat.bot_spec, secrets.randbits(32))
                except Exception as exc:  # the operator changed the bots: the game goes on
                    self._record_fault(
                        seat.index,
                        f"move {recorder.num_moves + 1}: seat {seat.index} ({seat.name}): the bot cannot be made "
                        f"after a restart ({type(exc).__name__}: {exc}); a random bot plays for it",
                    )
                    self._bots[seat.index] = RandomBot(secrets.randbits(32))
            self._substitutes[seat.index] = RandomBot(secrets.randbits(32))
        now = time.monotonic()
        for seat in self.seats:
            if seat.kind in ("human", "remote"):
                seat.away_since = now  # as after a lost connection: the grace time starts now


def _new_seat(index: int, spec: SeatSpec, creator: Identity, offered: Mapping[str, str]) -> Seat:
    """The seat ``spec`` asks for at a new table: a bot, a free seat, or the creator's, reserved
    for ``creator`` (a ``human`` seat with their key and no session yet)."""
    if spec.kind == "bot":
        return Seat(index, "bot", name=spec.bot, bot_spec=offered[spec.bot])
    if spec.kind == "me":
        return Seat(index, "human", name=creator.label, owner=creator.key)
    return Seat(index, "open")


def _checked_game(game_id: str, num_players: int) -> engine.Game:
    """The game ``game_id`` for a table of ``num_players``.

    Raises:
        TableError: an unknown game, or a player count it does not allow.
    """
    try:
        game = engine.game(game_id)
    except engine.UnknownGame as exc:
        raise TableError(str(exc)) from None
    if not game.min_players <= num_players <= game.max_players:
        raise TableError(f"{game.title} is for {game.min_players}-{game.max_players} players, not {num_players}")
    return game


def _notify(listeners: set[Listener], what: Any) -> None:
    # Each listener is called on its own, outside the caller's context (the caller may be inside
    # another session's app, and Textual keeps its active app in a context variable), and only if
    # it still listens when its turn comes: a session that closed in between is gone.
    loop = asyncio.get_running_loop()
    for listener in list(listeners):
        loop.call_soon(_safe_call, listeners, listener, what, context=contextvars.Context())


def _safe_call(listeners: set[Listener], listener: Listener, what: Any) -> None:
    if listener not in listeners:
        return
    try:
        listener.changed(what)
    except Exception:
        log.exception("a listener failed")


@dataclass
class _LobbyChat:
    lines: deque[ChatLine] = field(default_factory=lambda: deque(maxlen=200))


class Lobby:
    """The server's tables and lobby chat.

    Args:
        store: the server's :class:`lobby.store.Store` (finished games are recorded there).
        config: how tables behave.
        clock: the monotonic clock (seconds) of the lobby's limits: idle and unattended waiting
            tables, a remote bot's sitting again (:func:`time.monotonic`; tests pass a fake one).
    """

    def __init__(
        self, store: Any, config: ServerConfig | None = None, clock: Callable[[], float] | None = None
    ) -> None:
        self.store = store
        self.config = config or ServerConfig()
        self.clock: Callable[[], float] = clock or time.monotonic
        self.tables: dict[str, Table] = {}
        self.chat: deque[ChatLine] = deque(maxlen=200)
        self._listeners: set[Listener] = set()
        self.version = 0
        self.ladder: Any = None  # the server's lobby.ladder.Ladder, which sets itself here

    @property
    def default_bot(self) -> str | None:
        """The offered bot that fills seats when a person names none: ``random`` if offered, else the first."""
        offered = self.config.bots
        return "random" if "random" in offered else next(iter(offered), None)

    def watch(self, listener: Listener) -> None:
        """Tell ``listener`` when the table list or the lobby chat changes."""
        self._listeners.add(listener)

    def unwatch(self, listener: Listener) -> None:
        """Stop telling ``listener``."""
        self._listeners.discard(listener)

    @property
    def watchers(self) -> int:
        """How many listeners the lobby tells of its changes (one per session in the lobby)."""
        return len(self._listeners)

    def changed(self) -> None:
        """Something in the table list changed."""
        self.version += 1
        _notify(self._listeners, self)

    def say(self, identity: Identity, text: str) -> None:
        """Post a chat line in the lobby."""
        text = clean_text(text)
        if text:
            _post_chat(self.chat, identity.label, text)
            self.changed()

    def ladder_changed(self) -> None:
        """A ladder table started or ended: the ladder's listeners (the Ladder screens) are told;
        the lobby's are not (a busy ladder starts and ends several games a second, and a hundred
        lobby screens redrawing for each would hold up everyone's keystrokes)."""
        if self.ladder is not None:
            self.ladder.table_changed()

    def listing(self) -> list[Table]:
        """The tables to show: waiting first, then playing, then recently finished; newest first within each.

        Ladder tables are not listed (the Ladder screen shows them). Idle waiting tables are
        closed first (see :meth:`expire_idle`).
        """
        self.expire_idle()
        now = time.time()
        for table in list(self.tables.values()):
            if (
                table.status in ("over", "closed")
                and now - (table.finished or table.created) > self.config.finished_keep_s
            ):
                del self.tables[table.code]
        order = {"waiting": 0, "playing": 1, "over": 2, "closed": 3}
        return sorted((t for t in self.tables.values() if not t.rated), key=lambda t: (order[t.status], -t.created))

    def expire_idle(self) -> list[Table]:
        """Close the waiting tables idle for more than :attr:`ServerConfig.waiting_idle_s` (nothing
        a person did), and those nobody has been at for more than
        :attr:`ServerConfig.waiting_unattended_s` (no one seated, no spectator).

        Whoever sits at one is told (``seat_lost``) and the table leaves the listing.

        Returns:
            The tables closed.
        """
        limit = self.config.waiting_idle_s
        unattended = self.config.waiting_unattended_s
        now = self.clock()
        idle = [
            t
            for t in self.tables.values()
            if t.status == "waiting"
            and (now - t.active > limit or (t.unattended_since is not None and now - t.unattended_since > unattended))
        ]
        for table in idle:
            if now - table.active > limit:
                log.info("table %s: closed after %.0f s waiting with nothing happening", table.code, now - table.active)
            else:
                away = now - (table.unattended_since or now)
                log.info("table %s: closed after %.0f s waiting with nobody at it", table.code, away)
            table.status = "closed"
            del self.tables[table.code]
            minutes = max(1, round(limit / 60))
            for seat in table.seats:
                if seat.controller is not None:
                    with contextlib.suppress(Exception):
                        seat.controller.seat_lost(
                            table, seat.index, f"table {table.code} closed: nobody joined for {minutes} min"
                        )
            table._changed(lobby_too=False)
        if idle:
            self.changed()
        return idle

    def table(self, code: str) -> Table:
        """The table with ``code`` (case-insensitive).

        Raises:
            TableError: no such table.
        """
        found = self.tables.get(code.strip().upper())
        if found is None:
            raise TableError(f"no table {shown(code.strip().upper())}")
        return found

    def create_table(
        self,
        creator: Identity,
        game_id: str,
        num_players: int,
        seats: list[SeatSpec],
        options: Any = None,
    ) -> Table:
        """Open a new table; the creator's ``"me"`` seat is reserved for them (their identity's
        key) from this moment: nobody else, and no waiting remote bot, can take it, and
        :meth:`Table.sit` gives it to the creator's session, or their next one after a
        reconnect. Only ``"open"`` seats are offered to others.

        Returns:
            The new table: status ``waiting`` until every open seat is taken; a table of its
            creator and bots (or of bots only) starts at once, the creator's seat away until
            they sit (:attr:`ServerConfig.grace_s`, as for any seat whose owner is away).

        Raises:
            TableError: an unknown game or bot, bad options (the game's checks included, e.g. an
                option not for this many players), a bad player count, seats that do not match it,
                too many tables (:attr:`ServerConfig.max_tables`; for a table with a free seat
                for someone else also :attr:`ServerConfig.max_waiting_tables`), or too many open
                tables of this creator (:attr:`ServerConfig.max_open_tables_per_account`; for a
                new account's table that waits or that only bots play
                :attr:`ServerConfig.max_waiting_tables_new_account`) or from the creator's
                address (:attr:`ServerConfig.max_waiting_tables_per_address`).
        """
        game = _checked_game(game_id, num_players)
        if len(seats) != num_players:
            raise TableError(f"{len(seats)} seats described for {num_players} players")
        if sum(1 for s in seats if s.kind == "me") > 1:
            raise TableError("you can take only one seat")
        try:
            opts = engine.parse_options(game.options_type, options)
            game.new_game(num_players, 0, opts)  # the game's own checks (an option's player counts)
        except engine.InvalidOptions as exc:
            raise TableError(str(exc)) from None
        offered = self.config.bots
        for spec in seats:
            if spec.kind == "bot" and spec.bot not in offered:
                # A dictionary look-up and nothing else: a name from a connection never reaches
                # make_bot, an import, a path or a process.
                raise TableError(f"{shown(spec.bot)} is not a bot on offer here; choose from: {', '.join(offered)}")
        self.expire_idle()
        live = self._live()
        own = [t.code for t in live if t.creator_key == creator.key]
        if len(own) >= self.config.max_open_tables_per_account:
            raise TableError(
                f"you already have {len(own)} open tables ({', '.join(own)}); play or leave one before opening another"
            )
        self._check_waiting(creator, live, seats)
        if len(live) >= self.config.max_tables and any(s.kind == "me" for s in seats):
            self._reclaim(live)  # a person's new game takes the place of a game nobody plays
            live = self._live()
        self._check_room(live)
        code = self._new_code()
        made = [_new_seat(i, spec, creator, offered) for i, spec in enumerate(seats)]
        table = Table(self, code, game.id, num_players, opts, creator, made)
        self.tables[code] = table
        log.info("table %s: %s for %d opened by %s", code, game.id, num_players, creator.label)
        self.changed()
        if not any(s.free for s in made):
            table._start()  # bots only: play now
        return table

    def open_rated_table(
        self, game_id: str, players: list[tuple[Controller, Literal["human", "remote"]] | HouseBot]
    ) -> Table:
        """Open a ladder table for ``players`` (seat order) and seat them: the game starts at once.

        Made for :class:`lobby.ladder.Ladder`. The table is ``rated`` (its result updates the
        ladder ratings, see :meth:`lobby.store.Store.record_game`; a seat away past its grace
        time forfeits and is ranked last). It counts towards :attr:`ServerConfig.max_tables` but
        not towards anyone's :attr:`ServerConfig.max_open_tables_per_account` (nor any address's).

        Args:
            game_id: the game (default options).
            players: per seat, the controller (a person's screen or a remote bot's channel) and
                the seat kind, ``"human"`` or ``"remote"``, or a :class:`HouseBot` (a bot seat the
                server plays); different accounts.

        Raises:
            TableError: an unknown game, a player count the game does not allow, the saloon is
                full, or a seat cannot be taken.
        """
        game = _checked_game(game_id, len(players))
        self._check_room(self._live())
        opts = engine.parse_options(game.options_type, None)
        code = self._new_code()
        seats = [Seat(i, "open") for i in range(len(players))]
        table = Table(self, code, game.id, len(players), opts, Identity("ladder", "ladder:"), seats)
        table.rated = True
        self.tables[code] = table
        names = [p.name if isinstance(p, HouseBot) else p[0].identity.label for p in players]
        log.info("table %s: rated %s for %s", code, game.id, ", ".join(names))
        for index, player in enumerate(players):  # the house bots first: the last person to sit starts the game
            if isinstance(player, HouseBot):
                seat = table.seats[index]
                seat.kind, seat.name, seat.bot_spec = "bot", player.name, player.spec
        for index, player in enumerate(players):
            if not isinstance(player, HouseBot):
                controller, kind = player
                table.sit(controller, index, kind=kind)
        return table

    def _live(self) -> list[Table]:
        """The tables waiting for players or playing."""
        return [t for t in self.tables.values() if t.status in ("waiting", "playing")]

    def _check_waiting(self, creator: Identity, live: list[Table], seats: list[SeatSpec]) -> None:
        """Raise :class:`TableError` if ``creator`` may not open a table of ``seats`` now: the
        limits on tables that wait for players or that only bots play (see :class:`ServerConfig`).

        A table of its creator and bots starts as soon as the creator sits: only the per-address
        limit applies to it (it counts while its creator has not sat).
        """
        config = self.config
        waits = any(s.kind == "open" for s in seats)  # a free seat for someone else
        holds = waits or all(s.kind == "bot" for s in seats)
        held = [t for t in live if t.holds_place]
        if holds and creator.is_new(config.new_account_s):
            mine = [t.code for t in held if t.creator_key == creator.key]
            if len(mine) >= config.max_waiting_tables_new_account:
                cap = config.max_waiting_tables_new_account
                raise TableError(
                    f"a new account may keep {cap} table{'s' if cap != 1 else ''} waiting for players (or played by "
                    f"bots alone) in its first {max(1, round(config.new_account_s / 60))} min, and you have "
                    f"{', '.join(mine)}; play or leave it first, or open a table of you and bots (it starts at once)"
                )
        group = address_group(creator.address)
        if group:
            running = sum(1 for t in live if t._creator_address == group and not t.rated)
            if running >= config.max_live_tables_per_address:
                raise TableError(
                    f"{running} tables opened from your network address are waiting or playing, the most allowed; "
                    "join a table, or wait until one of them ends"
                )
            from_here = sum(1 for t in held if t._creator_address == group)
            if from_here >= config.max_waiting_tables_per_address:
                raise TableError(
                    f"{from_here} tables opened from your network address are waiting for players or played by "
                    "bots alone, the most allowed; join a table, or wait until one of them starts or closes"
                )
        if waits:
            waiting = sum(1 for t in live if t.status == "waiting")
            if waiting >= config.max_waiting_tables:
                raise TableError(
                    f"{waiting} tables are waiting for players, the most the saloon keeps; join one of them, "
                    "or open a table of you and bots (it starts at once)"
                )

    def _reclaim(self, live: list[Table]) -> Table | None:
        """Close the game that has gone longest with nobody at it (no person or remote bot
        playing a seat, no spectator), to make room for a person's new game when the saloon is
        full (:attr:`ServerConfig.max_tables`): tables that only bots play never lock a person
        out. The closed game is not recorded (nor resumed after a restart); whoever owned a seat
        there finds it gone.

        Returns:
            The table closed, or ``None`` if every table has someone at it.
        """
        now = self.clock()

        def idle_for(table: Table) -> float:
            return now - (table.unattended_since if table.unattended_since is not None else now)

        idle = [
            t
            for t in live
            if t.status == "playing"
            and not t.rated
            and t.holds_place
            and not t.spectators
            and idle_for(t) >= RECLAIM_AFTER_S  # not a table whose creator's screen is still opening
        ]
        if not idle:
            return None
        victim = max(idle, key=idle_for)
        log.info("table %s: closed to make room: only bots played it and nobody watched", victim.code)
        victim.status = "closed"
        if victim._task is not None:
            victim._task.cancel()
        victim._drop_journal()
        del self.tables[victim.code]
        self.changed()
        return victim

    def _check_room(self, live: list[Table]) -> None:
        """Raise :class:`TableError` if ``live`` (:meth:`_live`) is already :attr:`ServerConfig.max_tables`."""
        if len(live) >= self.config.max_tables:
            raise TableError("the saloon is full: too many tables; try again later")

    def drop(self, table: Table) -> None:
        """Remove a table nobody sits at any more (before its game started)."""
        if self.tables.get(table.code) is table and table.status == "waiting":
            table.status = "closed"
            del self.tables[table.code]
            self.changed()

    def seats_of(self, identity: Identity) -> list[tuple[Table, int]]:
        """The live tables where ``identity`` (by key) owns a seat, with the seat."""
        if identity.guest:
            return []
        found = []
        for table in self.tables.values():
            if table.status in ("waiting", "playing"):
                seat = table.seat_of(identity)
                if seat is not None:
                    found.append((table, seat))
        return found

    def first_free(self, game_id: str | None = None) -> Table | None:
        """The oldest waiting table with a free seat (of ``game_id``, if given)."""
        waiting = [
            t
            for t in self.tables.values()
            if t.status == "waiting" and any(s.free for s in t.seats) and (game_id is None or t.game.id == game_id)
        ]
        return min(waiting, key=lambda t: t.created, default=None)

    def resume(self) -> list[Table]:
        """Resume the games that were running when the server stopped (or was killed).

        Every game in the store's journal (:meth:`lobby.store.Store.journaled_codes`) is rebuilt
        as its table under the same code, playing, at the last journaled move (see
        :meth:`Table._resumed`: bots made again, people's and remote bots' seats waiting for
        their owners through the grace time), and its task started. A journal that cannot be
        resumed (an engine whose rules changed, a damaged row) is logged and dropped; it never
        stops the start. Call it once, on the event loop, before anyone connects.

        Returns:
            The tables resumed.
        """
        store = self.store
        try:
            codes = store.journaled_codes()
        except Exception:
            log.exception("the journal of running games cannot be read; no game is resumed")
            return []
        resumed = []
        for code in codes:
            if code in self.tables:  # resumed already (resume called twice): that table goes on
                continue
            try:
                table = Table._resumed(self, store.journaled_game(code))
            except Exception:
                log.exception("table %r: its journal cannot be resumed; the game is dropped", code)
                with contextlib.suppress(Exception):
                    store.journal_drop(code)
                continue
            self.tables[table.code] = table
            table._task = asyncio.get_running_loop().create_task(table._run(), name=f"table {table.code}")
            log.info(
                "table %s: %s resumed at move %d for %s",
                table.code,
                table.game.id,
                table.num_moves,
                ", ".join(s.name for s in table.seats),
            )
            resumed.append(table)
        if resumed:
            self.changed()
            self.ladder_changed()
        return resumed

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(4))
            if code not in self.tables:
                return code

    async def close(self) -> None:
        """Stop every table (server shutdown)."""
        for table in list(self.tables.values()):
            await table.close()
