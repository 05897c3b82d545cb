"""How a front reaches the hall: :class:`HallClient` and its mirrors of the lobby, tables and ladder.

A front's screens read the saloon from mirrors kept up to date by the hall's messages
(:mod:`lobby.protocol`): :class:`LobbyMirror` (the table list, the lobby chat),
:class:`TableMirror` (a table's public state, and per session its seat's view, legal actions,
events and forced move) and :class:`LadderMirror` (queues, online players, live ladder tables).
They offer the read API of :class:`lobby.tables.Lobby` and :class:`lobby.tables.Table` that
screens use (``table.names()``, ``table.view_for(screen)``, ...); what changes the saloon is a
message to the hall: fire-and-forget where nothing comes back (``watch``, ``release``, ``say``),
an awaited request where a result or a refusal does (``await table.sit(screen)``,
``await table.play(screen, action)``, ``await lobby.create_table(...)``: a refusal raises
:class:`lobby.tables.TableError` with the hall's words, an illegal move
:class:`engine.IllegalAction`).

Every listener (a screen, a remote bot's channel) is one session endpoint at the hall: the
client numbers it (``sid``) and tells the hall who it is the first time it is used
(:meth:`HallClient.sid_of`); :meth:`HallClient.forget` closes it (its seats are kept for the grace
time). Listeners are called on the event loop outside any app (``changed(mirror)``,
``seat_lost(mirror, seat, reason)``, ``seated(mirror, seat)``), as the lobby's own listeners are.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

import engine
from lobby import protocol as p
from lobby.tables import ChatLine, ForcedMove, Identity, TableError

__all__ = ["HallClient", "HallLost", "LadderMirror", "LobbyMirror", "TableMirror"]

log = logging.getLogger("saloon.front")


class HallLost(ConnectionError):
    """The connection to the hall is gone."""


@functools.cache
def _decoders(game_id: str) -> tuple[Any, Any, Any]:
    game = engine.game(game_id)
    return (
        msgspec.msgpack.Decoder(game.view_type),
        msgspec.msgpack.Decoder(list[game.action_type]),  # type: ignore[name-defined]
        msgspec.msgpack.Decoder(list[game.event_type]),  # type: ignore[name-defined]
    )


def _tell(listener: Any, method: str, *args: Any) -> None:
    """Call ``listener.method(*args)`` soon, outside the caller's context (Textual keeps its active
    app in a context variable), as :func:`lobby.tables._notify` does."""

    def call() -> None:
        fn = getattr(listener, method, None)
        if fn is None:
            return
        try:
            fn(*args)
        except Exception:
            log.exception("a listener failed")

    asyncio.get_running_loop().call_soon(call, context=contextvars.Context())


def _chat_line(info: p.ChatInfo) -> ChatLine:
    return ChatLine(info.at, info.name, info.text, info.serial)


@dataclass
class SeatMirror:
    """A seat as everyone sees it (:class:`lobby.tables.Seat`'s public part)."""

    index: int
    kind: str
    name: str
    owner: str | None
    status: str
    substitute: bool

    @property
    def free(self) -> bool:
        return self.kind == "open"


@dataclass
class _SeatData:
    """What one session may see of its own seat."""

    seat: int
    view: Any = None
    legal: list[Any] | None = None
    events: list[Any] | None = None
    forced: ForcedMove | None = None


class TableMirror:
    """A table as the hall last described it (see the module docstring)."""

    def __init__(self, lobby: LobbyMirror, info: p.TableInfo) -> None:
        self.lobby = lobby
        self.client = lobby.client
        self.code = info.code
        self.game: engine.Game = engine.game(info.game)
        self.options_dict: dict[str, Any] = info.options
        self.options = engine.parse_options(self.game.options_type, info.options or None)
        self.chat: deque[ChatLine] = deque(maxlen=200)
        self.version = -1
        self._info = info
        self._deadlines: dict[int, float] = {}
        self._view: Any = None
        self._events: list[Any] = []
        self._mine: dict[Any, _SeatData] = {}
        self._listeners: set[Any] = set()
        self.update(info)

    # Updates from the hall ------------------------------------------------------------------------

    def update(self, info: p.TableInfo) -> bool:
        """Take ``info`` if it is not older than what is shown; True if taken."""
        if info.version < self.version:
            return False
        self.version = info.version
        self._info = info
        self.seats = [SeatMirror(s.index, s.kind, s.name, s.owner, s.status, s.substitute) for s in info.seats]
        now = time.monotonic()
        self._deadlines = {int(seat): now + left for seat, left in info.deadlines.items()}
        return True

    def _state(self, state: p.TableState) -> None:
        self.update(state.info)
        for line in state.chat:
            if not self.chat or line.serial > self.chat[-1].serial:
                self.chat.append(_chat_line(line))
        views, _, events = _decoders(self.game.id)
        if state.view is not None:
            self._view = views.decode(state.view)
        if state.events is not None:
            if state.events_from != len(self._events):
                if state.events_from == 0:
                    self._events = []
                else:
                    self._resync()
                    return
            self._events.extend(events.decode(state.events))
        self._notify()

    def _seat_state(self, listener: Any, state: p.SeatState) -> None:
        views, actions, events = _decoders(self.game.id)
        data = self._mine.get(listener)
        if data is None or data.seat != state.seat or state.events_from == 0:
            data = self._mine[listener] = _SeatData(state.seat, events=[])
        if state.events_from != len(data.events or []):
            self._resync(listener)
            return
        data.view = None if state.view is None else views.decode(state.view)
        data.legal = actions.decode(state.legal)
        assert data.events is not None
        data.events.extend(events.decode(state.events))
        data.forced = None if state.forced is None else ForcedMove(*state.forced)
        _tell(listener, "changed", self)

    def _resync(self, listener: Any = None) -> None:
        sid = self.client.sid_of(listener) if listener is not None else 0
        self.client.send(p.Resync(sid, self.code))

    def _unseated(self, listener: Any) -> None:
        if self._mine.pop(listener, None) is not None:
            _tell(listener, "changed", self)

    def _notify(self) -> None:
        for listener in list(self._listeners):
            _tell(listener, "changed", self)

    # What anyone may see --------------------------------------------------------------------------

    @property
    def title(self) -> str:
        return self.game.title

    @property
    def num_players(self) -> int:
        return self._info.num_players

    @property
    def status(self) -> str:
        return self._info.status

    @property
    def creator(self) -> str:
        return self._info.creator

    @property
    def creator_key(self) -> str:
        return self._info.creator_key

    @property
    def created(self) -> float:
        return self._info.created

    @property
    def started(self) -> float | None:
        return self._info.started

    @property
    def finished(self) -> float | None:
        return self._info.finished

    @property
    def rated(self) -> bool:
        return self._info.rated

    @property
    def num_moves(self) -> int:
        return self._info.num_moves

    @property
    def game_row(self) -> int | None:
        return self._info.game_row

    @property
    def is_over(self) -> bool:
        return self._info.status == "over"

    @property
    def spectators(self) -> range:
        """As many items as the table has spectators (``len(table.spectators)`` is their count)."""
        return range(self._info.spectators)

    @property
    def outcome(self) -> engine.Outcome | None:
        found = self._info.outcome
        return None if found is None else engine.Outcome(found.scores, found.ranks, found.winners)

    def seed_if_over(self) -> int | None:
        return self._info.seed if self.is_over else None

    def names(self) -> list[str]:
        """Per seat, who plays it (as :meth:`lobby.tables.Table.names`)."""
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

    def counts(self) -> dict[str, int]:
        human = sum(1 for s in self.seats if s.kind == "human")
        bot = sum(1 for s in self.seats if s.kind in ("bot", "remote"))
        return {"human": human, "bot": bot, "free": sum(1 for s in self.seats if s.free)}

    def seat_of(self, who: Any) -> int | None:
        """The seat ``who`` controls (a listener of this front) or owns (an :class:`Identity`)."""
        if isinstance(who, Identity):
            for seat in self.seats:
                if seat.owner is not None and seat.owner == who.key:
                    return seat.index
            return None
        data = self._mine.get(who)
        return None if data is None else data.seat

    def to_act(self) -> tuple[int, ...]:
        return tuple(self._info.to_act)

    def deadline_of(self, seat: int) -> float | None:
        """When the seat's turn timer runs out (this process's ``time.monotonic()``), or ``None``."""
        return self._deadlines.get(seat)

    def view_for(self, listener: Any) -> tuple[int | None, Any]:
        data = self._mine.get(listener)
        if data is not None:
            return data.seat, data.view
        return None, self._view if self._info.started is not None else None

    def events_for(self, listener: Any, since: int = 0) -> list[Any]:
        data = self._mine.get(listener)
        events = data.events if data is not None and data.events is not None else self._events
        return events[since:] if since else list(events)

    def events_seen(self, listener: Any) -> int:
        """How many events ``listener``'s seat has been told (the table's public events for a
        spectator). They come in the same message as the seat's legal actions, so a new decision
        of the seat always comes with more of them, even while the table's move count, which
        travels apart, lags."""
        data = self._mine.get(listener)
        events = data.events if data is not None and data.events is not None else self._events
        return len(events)

    def legal_for(self, listener: Any) -> list[Any]:
        data = self._mine.get(listener)
        if data is None or data.legal is None or self.status != "playing":
            return []
        return list(data.legal)

    def forced_for(self, listener: Any) -> ForcedMove | None:
        data = self._mine.get(listener)
        return None if data is None else data.forced

    # What changes the table (messages to the hall) ------------------------------------------------

    def watch(self, listener: Any, spectator: bool = False) -> None:
        """Tell ``listener`` about every change (``spectator``: counted as one)."""
        self._listeners.add(listener)
        self.client.send(p.Watch(self.client.sid_of(listener), self.code, spectator))

    def unwatch(self, listener: Any) -> None:
        self._listeners.discard(listener)
        sid = self.client.known_sid(listener)
        if sid is not None:
            self.client.send(p.Unwatch(sid, self.code))

    def release(self, listener: Any, leave: bool = False) -> None:
        """``listener`` lets go of its seat (see :meth:`lobby.tables.Table.release`)."""
        self._listeners.discard(listener)
        self._mine.pop(listener, None)
        sid = self.client.known_sid(listener)
        if sid is not None:
            self.client.send(p.Release(sid, self.code, leave))

    async def released(self, listener: Any, leave: bool = False) -> None:
        """:meth:`release`, returning once the hall has let go and this mirror shows it."""
        self._listeners.discard(listener)
        self._mine.pop(listener, None)
        sid = self.client.known_sid(listener)
        if sid is not None:
            await self.client.request(lambda rid: p.Release(sid, self.code, leave, rid))

    async def sit(self, listener: Any, seat: int | None = None) -> int:
        """Take a seat (see :meth:`lobby.tables.Table.sit`); the seat's view has arrived when this returns.

        Raises:
            TableError: the hall refused (its reason).
        """
        self._listeners.add(listener)
        reply = await self.client.request(lambda rid: p.Sit(rid, self.client.sid_of(listener), self.code, seat))
        return int(reply.value)

    async def play(self, listener: Any, action: Any) -> None:
        """Play ``action`` for ``listener``'s seat.

        Raises:
            TableError: no seat here, or the game is not running.
            engine.IllegalAction: the action is not legal now.
        """
        data = msgspec.msgpack.encode(action)
        await self.client.request(lambda rid: p.Play(rid, self.client.sid_of(listener), self.code, data))

    async def fill_with_bots(self, listener: Any, bot: str) -> int:
        """The creator fills the free seats with ``bot``: how many seats were filled."""
        reply = await self.client.request(lambda rid: p.Fill(rid, self.client.sid_of(listener), self.code, bot))
        return int(reply.value)

    def say(self, listener: Any, text: str) -> None:
        self.client.send(p.Say(self.client.sid_of(listener), self.code, text))

    async def replay(self) -> Any:
        """The finished game's replay (``None`` while the game is not over)."""
        import replays

        if not self.is_over:
            return None
        reply = await self.client.request(lambda rid: p.Query(rid, "replay", code=self.code))
        return None if reply.value is None else replays.decode(reply.value)


@dataclass(frozen=True)
class FrontConfig:
    """What a front knows of the hall's settings: the bots on offer, by name."""

    bots: tuple[str, ...]


@dataclass(frozen=True)
class GameRow:
    """A finished game's row, as the recent-games list shows it (:class:`lobby.protocol.GameInfo`)."""

    id: int
    code: str
    game: str
    players: tuple[str, ...]
    started: float
    finished: float
    winners: tuple[int, ...]
    faults: tuple[str, ...] = ()
    ranks: tuple[int, ...] = ()


class LobbyMirror:
    """The lobby as the hall last described it (see the module docstring)."""

    def __init__(self, client: HallClient) -> None:
        self.client = client
        self.config = FrontConfig(())
        self.tables: dict[str, TableMirror] = {}
        self.chat: deque[ChatLine] = deque(maxlen=200)
        self.version = 0
        self._listing: list[str] = []
        self._listeners: set[Any] = set()

    @property
    def ladder(self) -> LadderMirror | None:
        return self.client.ladder if self.client.has_ladder else None

    @property
    def default_bot(self) -> str | None:
        offered = self.config.bots
        return "random" if "random" in offered else next(iter(offered), None)

    def watch(self, listener: Any) -> None:
        self._listeners.add(listener)

    def unwatch(self, listener: Any) -> None:
        self._listeners.discard(listener)

    @property
    def watchers(self) -> int:
        return len(self._listeners)

    def mirror(self, info: p.TableInfo) -> TableMirror:
        """The mirror of ``info``'s table, made or brought up to date."""
        table = self.tables.get(info.code)
        if table is None or table.game.id != info.game or info.created != table.created:
            table = self.tables[info.code] = TableMirror(self, info)
        else:
            table.update(info)
        return table

    def _state(self, state: p.LobbyState) -> None:
        self.version = state.version
        listed = [self.mirror(info).code for info in state.tables]
        gone = set(self._listing) - set(listed)
        self._listing = listed
        for code in gone:  # no longer listed: kept while a session follows it or it is a live ladder table
            table = self.tables.get(code)
            if table is not None and not table._listeners and not table._mine and not table.rated:
                del self.tables[code]
        for line in state.chat:
            if not self.chat or line.serial > self.chat[-1].serial:
                self.chat.append(_chat_line(line))
        if state.quiet:
            return
        for listener in list(self._listeners):
            _tell(listener, "changed", self)

    def listing(self) -> list[TableMirror]:
        """The tables to show: waiting first, then playing, then recently finished; newest first within each."""
        return [self.tables[code] for code in self._listing if code in self.tables]

    def table(self, code: str) -> TableMirror:
        found = self.tables.get(code.strip().upper())
        if found is None:
            from lobby.tables import shown

            raise TableError(f"no table {shown(code.strip().upper())}")
        return found

    def seats_of(self, identity: Identity) -> list[tuple[TableMirror, int]]:
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

    async def create_table(
        self, listener: Any, game_id: str, num_players: int, seats: list[Any], options: Any = None
    ) -> TableMirror:
        """Open a table for ``listener``'s identity (see :meth:`lobby.tables.Lobby.create_table`).

        Raises:
            TableError: the hall refused (its reason).
        """
        specs = [p.NewSeat(s.kind, s.bot) for s in seats]
        opts = None if options is None else {str(k): str(v) for k, v in dict(options).items()}
        reply = await self.client.request(
            lambda rid: p.Create(rid, self.client.sid_of(listener), game_id, num_players, specs, opts)
        )
        return self.table(str(reply.value))

    def say(self, listener: Any, text: str) -> None:
        self.client.send(p.Say(self.client.sid_of(listener), None, text))

    async def recent_games(self, limit: int) -> list[GameRow]:
        reply = await self.client.request(lambda rid: p.Query(rid, "games", limit=limit))
        return [GameRow(*msgspec.structs.astuple(g)) for g in reply.games]

    async def replay_bytes(self, number: int) -> bytes | None:
        """A finished game's replay file, by its number."""
        reply = await self.client.request(lambda rid: p.Query(rid, "replay", number=number))
        return reply.value  # type: ignore[no-any-return]


@dataclass(frozen=True)
class QueueEntryMirror:
    """A ladder queue entry (:class:`lobby.matchmaker.QueueEntry`), its ``joined`` on this process's clock."""

    ticket: int
    name: str
    game: str
    counts: tuple[int, ...]
    rating: float
    joined: float


class LadderMirror:
    """The ladder as the hall last described it: queues, who is online, live ladder tables."""

    def __init__(self, client: HallClient) -> None:
        self.client = client
        self.tables_formed = 0
        self._queued: list[QueueEntryMirror] = []
        self._online: dict[str, set[str]] = {}
        self._tables: list[str] = []
        self._listeners: set[Any] = set()

    def clock(self) -> float:
        return time.monotonic()

    def _state(self, state: p.LadderState) -> None:
        now = time.monotonic()
        self._queued = [
            QueueEntryMirror(e.ticket, e.name, e.game, e.counts, e.rating, now - e.waited) for e in state.queued
        ]
        self._online = {game: set(names) for game, names in state.online.items()}
        lobby = self.client.lobby
        self._tables = [lobby.mirror(info).code for info in state.tables]
        self.tables_formed = state.formed
        self.client.has_ladder = state.on
        for listener in list(self._listeners):
            _tell(listener, "changed", self)

    def watch(self, listener: Any) -> None:
        self._listeners.add(listener)

    def unwatch(self, listener: Any) -> None:
        self._listeners.discard(listener)

    def queued(self, game: str | None = None) -> list[QueueEntryMirror]:
        return [e for e in self._queued if game is None or e.game == game]

    def online(self, game: str) -> set[str]:
        return set(self._online.get(game, ()))

    def tables(self, game: str | None = None) -> list[TableMirror]:
        tables = self.client.lobby.tables
        found = [tables[c] for c in self._tables if c in tables]
        return [t for t in found if game is None or t.game.id == game]

    async def join(self, listener: Any, game: str, counts: tuple[int, ...] | None, kind: str = "human") -> bool:
        """Queue ``listener`` (see :meth:`lobby.ladder.Ladder.join`): True if it was seated back at its game."""
        reply = await self.client.request(
            lambda rid: p.LadderJoin(rid, self.client.sid_of(listener), game, counts, kind)
        )  # type: ignore[arg-type]
        return bool(reply.value)

    def leave(self, listener: Any) -> None:
        sid = self.client.known_sid(listener)
        if sid is not None:
            self.client.send(p.LadderLeave(sid))

    async def standings(self, game: str) -> list[p.StandingInfo]:
        reply = await self.client.request(lambda rid: p.Query(rid, "standings", game=game))
        return list(reply.rows)

    async def history(self, game: str, name: str, limit: int = 20) -> list[p.HistoryInfo]:
        reply = await self.client.request(lambda rid: p.Query(rid, "history", game=game, name=name, limit=limit))
        return list(reply.points)


class HallClient:
    """A front's connection to the hall (see the module docstring).

    Args:
        front: this front's name (for the hall's log).
    """

    def __init__(self, front: str = "front") -> None:
        self.front = front
        self.lobby = LobbyMirror(self)
        self.ladder = LadderMirror(self)
        self.has_ladder = True
        self.guest = False
        self.boot = ""
        self.lost: asyncio.Future[None] | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._rid = 0
        self._sid = 0
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._sids: dict[Any, int] = {}
        self._by_sid: dict[int, Any] = {}

    # Connecting ---------------------------------------------------------------------------------

    async def connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, secret: bytes) -> None:
        """Authenticate (see :mod:`lobby.protocol`) and start reading the hall's messages.

        Raises:
            HallLost: the hall did not answer as the protocol says, or did not prove it holds ``secret``.
        """
        try:
            challenge = p.out_decoder.decode(await asyncio.wait_for(p.read_frame(reader, p.MAX_HELLO_FRAME), 10))
            if not isinstance(challenge, p.Challenge) or challenge.protocol != p.PROTOCOL:
                raise HallLost("the hall speaks another protocol")
            nonce = secrets.token_bytes(32)
            mac = p.front_mac(secret, challenge.nonce, nonce, self.front)
            writer.write(p.encode(p.Hello(p.PROTOCOL, self.front, nonce, mac)))
            welcome = p.out_decoder.decode(await asyncio.wait_for(p.read_frame(reader), 10))
        except (TimeoutError, asyncio.IncompleteReadError, ConnectionError, OSError, p.ProtocolError) as exc:
            writer.close()
            raise HallLost(f"the hall refused this front or went away: {exc or type(exc).__name__}") from None
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            writer.close()
            raise HallLost(f"not a hall: {exc}") from None
        if not isinstance(welcome, p.Welcome) or not secrets.compare_digest(
            welcome.mac, p.hall_mac(secret, challenge.nonce, nonce)
        ):
            writer.close()
            raise HallLost("the hall did not prove it holds the secret")
        self.boot = welcome.boot
        self.lobby.config = FrontConfig(tuple(welcome.bots))
        self.guest = welcome.guest
        self.has_ladder = welcome.ladder
        self._writer = writer
        loop = asyncio.get_running_loop()
        self.lost = loop.create_future()
        self._reader_task = loop.create_task(self._read(reader), name="hall client")

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        if self._reader_task is not None:
            self._reader_task.cancel()
            with contextlib.suppress(BaseException):
                await self._reader_task

    async def _read(self, reader: asyncio.StreamReader) -> None:
        why = "the hall closed the connection"
        try:
            while True:
                frame = await p.read_frame(reader)
                self._dispatch(p.out_decoder.decode(frame))
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        except asyncio.CancelledError:
            why = "the front stopped"
            raise
        except Exception as exc:
            log.exception("the hall's message failed here")
            why = f"a message from the hall failed: {exc}"
        finally:
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(HallLost(why))
            self._pending.clear()
            if self.lost is not None and not self.lost.done():
                self.lost.set_result(None)
            for listener in list(self._by_sid.values()):
                done = getattr(listener, "hall_lost", None)
                if done is not None:
                    with contextlib.suppress(Exception):
                        done(why)

    # Sending ------------------------------------------------------------------------------------

    def send(self, message: Any) -> None:
        writer = self._writer
        if writer is None or writer.transport.is_closing():
            return
        writer.write(p.encode(message))

    async def request(self, make: Callable[[int], Any]) -> Any:
        """Send ``make(rid)`` and wait for its reply.

        Raises:
            TableError: the hall refused (``Failed``), with its words.
            engine.IllegalAction: ... because the move was not legal.
            HallLost: the connection is gone.
        """
        if self._writer is None or self._writer.transport.is_closing():
            raise HallLost("no connection to the hall")
        self._rid += 1
        rid = self._rid
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[rid] = future
        self.send(make(rid))
        try:
            reply = await future
        finally:
            self._pending.pop(rid, None)
        if isinstance(reply, p.Failed):
            if reply.illegal:
                raise engine.IllegalAction(reply.error)
            raise TableError(reply.error)
        return reply

    # Session endpoints --------------------------------------------------------------------------

    def sid_of(self, listener: Any) -> int:
        """``listener``'s session number at the hall, opened (with its ``identity``) on first use."""
        sid = self._sids.get(listener)
        if sid is None:
            self._sid += 1
            sid = self._sid
            self._sids[listener] = sid
            self._by_sid[sid] = listener
            identity: Identity = listener.identity
            who = p.Who(identity.name, identity.key, identity.guest, identity.address, identity.registered)
            self.send(p.Open(sid, who))
        return sid

    def listener(self, sid: int) -> Any:
        """The listener numbered ``sid`` (``None`` once forgotten)."""
        return self._by_sid.get(sid)

    def known_sid(self, listener: Any) -> int | None:
        return self._sids.get(listener)

    def forget(self, listener: Any) -> None:
        """``listener`` is gone: the hall lets go of it (its seats are kept for the grace time)."""
        sid = self._sids.pop(listener, None)
        if sid is None:
            return
        self._by_sid.pop(sid, None)
        for table in self.lobby.tables.values():
            table._listeners.discard(listener)
            table._mine.pop(listener, None)
        self.send(p.Close(sid))

    # Receiving ----------------------------------------------------------------------------------

    def _dispatch(self, message: Any) -> None:  # noqa: C901  (one case per message)
        match message:
            case (
                p.Done(rid)
                | p.Failed(rid)
                | p.Number(rid)
                | p.Text(rid)
                | p.Blob(rid)
                | p.Games(rid)
                | p.Standings(rid)
                | p.History(rid)
                | p.Identified(rid)
            ):
                future = self._pending.get(rid)
                if future is not None and not future.done():
                    future.set_result(message)
            case p.LobbyState():
                self.lobby._state(message)
            case p.TableState(info):
                table = self.lobby.mirror(info)
                table._state(message)
            case p.SeatState(sid, code):
                listener = self._by_sid.get(sid)
                table = self.lobby.tables.get(code)
                if listener is not None and table is not None:
                    table._seat_state(listener, message)
            case p.Unseated(sid, code):
                listener = self._by_sid.get(sid)
                table = self.lobby.tables.get(code)
                if listener is not None and table is not None:
                    table._unseated(listener)
            case p.SeatLost(sid, code, seat, reason):
                listener = self._by_sid.get(sid)
                table = self.lobby.tables.get(code)
                if listener is not None and table is not None:
                    table._mine.pop(listener, None)
                    table._listeners.discard(listener)
                    _tell(listener, "seat_lost", table, seat, reason)
            case p.Seated(sid, code, seat):
                listener = self._by_sid.get(sid)
                table = self.lobby.tables.get(code)
                if listener is not None and table is not None:
                    _tell(listener, "seated", table, seat)
            case p.LadderState():
                self.ladder._state(message)
            case p.BotLine(sid, data):
                bot = self._by_sid.get(sid)
                if bot is not None:
                    bot.write(data)
            case p.Decide(sid, did, data, legal):
                bot = self._by_sid.get(sid)
                if bot is None:
                    self.send(p.Answer(did, None, "the bot is gone"))
                else:
                    bot.decide(did, data, legal)
            case p.BotNote(sid, text):
                bot = self._by_sid.get(sid)
                if bot is not None:
                    bot.note(text)
            case p.BotDone(sid, text, status):
                bot = self._by_sid.get(sid)
                if bot is not None:
                    bot.finish(text, status)
            case _:
                log.warning("the hall sent %s out of place: ignored", type(message).__name__)

    # Accounts and limits ------------------------------------------------------------------------

    async def admit(self, address: str) -> str | None:
        """Ask the hall whether a new connection from ``address`` may go on (``None``) or why not."""
        reply = await self.request(lambda rid: p.Admit(rid, address))
        return reply.value  # type: ignore[no-any-return]

    def left(self, address: str) -> None:
        self.send(p.Left(address))

    async def session_token(self, address: str) -> float:
        reply = await self.request(lambda rid: p.SessionToken(rid, address))
        value = float(reply.value)
        return float("inf") if value < 0 else value

    async def check_key(self, username: str, fingerprint: str) -> int:
        reply = await self.request(lambda rid: p.CheckKey(rid, username, fingerprint))
        return int(reply.value)

    async def identify(
        self, username: str, fingerprint: str | None, public_key: str, foreign_key: bool, address: str
    ) -> tuple[Identity | None, str | None]:
        reply = await self.request(lambda rid: p.Identify(rid, username, fingerprint, public_key, foreign_key, address))
        return _identity(reply.who), reply.refusal

    async def account(self, name: str, key: str, guest: bool, address: str) -> Identity | None:
        reply = await self.request(lambda rid: p.Account(rid, name, key, guest, address))
        return _identity(reply.who)

    async def issue_link(self, name: str, key: str, ttl_s: float = 300.0) -> str:
        reply = await self.request(lambda rid: p.IssueLink(rid, name, key, ttl_s))
        return str(reply.value)

    async def redeem(self, token: str) -> Identity | None:
        reply = await self.request(lambda rid: p.Redeem(rid, token))
        return _identity(reply.who)

    async def query(self, **fields: Any) -> Any:
        return await self.request(lambda rid: p.Query(rid, **fields))

    async def seat_bot(self, bot: Any, table: str | None, seat: int | None, game: str | None) -> str | None:
        reply = await self.request(lambda rid: p.SeatBot(rid, self.sid_of(bot), table, seat, game))
        return reply.value  # type: ignore[no-any-return]


def _identity(who: p.Who | None) -> Identity | None:
    if who is None:
        return None
    return Identity(who.name, who.key, who.guest, who.address, who.registered)
