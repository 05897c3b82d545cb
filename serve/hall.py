"""The hall: the saloon's shared state, served to the fronts over the protocol (:mod:`lobby.protocol`).

One hall runs per saloon. It holds the accounts and the store, the lobby and its tables (their
games, seats, bots and chat), the ladder and its ratings, and the per-address limits; it draws no
screen and holds no SSH or browser connection. Fronts (:class:`serve.ssh_server.SaloonServer`)
connect to it over a Unix socket (the same machine), TCP (another machine: through an SSH tunnel
or TLS, see ``docs/hall.md``) or a socket pair (one process), authenticate with the secret in
``DATA/hall_secret`` and then speak :data:`lobby.protocol.HallIn`; the hall answers with
:data:`lobby.protocol.HallOut`.

For each session endpoint a front opens (:class:`lobby.protocol.Open`) the hall keeps an
:class:`Endpoint`: the listener or controller the tables know (it is what sits in a seat), which
turns the tables' calls into messages to its front. A table's change reaches each front once
(:class:`lobby.protocol.TableState`, whatever the number of its sessions that follow the table:
the front fans out), plus a :class:`lobby.protocol.SeatState` per seated session. A front that
goes away (closed, crashed, killed) is as if each of its sessions lost its connection: their
seats wait for the grace time and come back to their owners through any front.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import secrets
import socket
import ssl
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

import engine
import replays
from bots import workers
from bots.protocol import BotReplyError, decide_message, end_message, start_message
from lobby import protocol as p
from lobby.ladder import Ladder
from lobby.logtext import loggable
from lobby.store import NameTaken, Store, valid_name
from lobby.tables import Identity, Lobby, SeatSpec, ServerConfig, Table, TableError
from serve.limits import RateLimiter

__all__ = ["Endpoint", "Hall", "open_hall", "parse_address"]

log = logging.getLogger("saloon.hall")

NAME_HELP = "a lower-case letter, then lower-case letters, digits, '-' or '_' (24 at most)"

MOVES_TICK_S = 1.0
"""The lobby's move numbers reach the fronts at most this often (quietly: see :class:`lobby.protocol.LobbyState`)."""

MAX_UNSENT_BYTES = 64 * 2**20
"""A front that leaves this much unread is dropped (its sessions keep their seats for the grace time)."""

_encode = msgspec.msgpack.Encoder().encode


def parse_address(address: str) -> tuple[str, str, int]:
    """``unix:PATH`` -> ``("unix", PATH, 0)``; ``tcp:HOST:PORT`` -> ``("tcp", HOST, PORT)``.

    Raises:
        ValueError: neither form.
    """
    kind, _, rest = address.partition(":")
    if kind == "unix" and rest:
        return "unix", rest, 0
    if kind == "tcp":
        host, _, port = rest.rpartition(":")
        if host and port.isdigit():
            return "tcp", host.strip("[]"), int(port)
    raise ValueError(f"a hall address is unix:PATH or tcp:HOST:PORT, not {address!r}")


def _who(identity: Identity) -> p.Who:
    return p.Who(identity.name, identity.key, identity.guest, identity.address, identity.registered)


def table_info(table: Table) -> p.TableInfo:
    """``table``'s public state as sent to fronts."""
    now = time.monotonic()
    deadlines = {}
    for seat in table.to_act():
        deadline = table.deadline_of(seat)
        if deadline is not None:
            deadlines[seat] = deadline - now
    outcome = table.outcome
    return p.TableInfo(
        code=table.code,
        version=table.version,
        game=table.game.id,
        num_players=table.num_players,
        options=table.options_dict,
        creator=table.creator,
        creator_key=table.creator_key,
        status=table.status,
        created=table.created,
        started=table.started,
        finished=table.finished,
        seats=[p.SeatInfo(s.index, s.kind, s.name, s.owner, s.status, s.substitute) for s in table.seats],
        spectators=len(table.spectators),
        num_moves=table.num_moves,
        rated=table.rated,
        to_act=list(table.to_act()),
        deadlines=deadlines,
        outcome=None if outcome is None else p.OutcomeInfo(outcome.scores, outcome.ranks, outcome.winners),
        seed=table.seed_if_over(),
        game_row=table.game_row,
    )


def _chat(lines: Any, after: int) -> list[p.ChatInfo]:
    return [p.ChatInfo(line.at, line.name, line.text, line.serial) for line in lines if line.serial > after]


@dataclass
class _Sent:
    """What a front was last sent of a table (or a session of its seat)."""

    table: Table
    chat: int = 0
    events: int = 0
    seat: int | None = None


class Endpoint:
    """A front's session endpoint, as the tables, the lobby and the ladder know it: a listener, a
    seat's controller (a person's table screen, a person's Ladder screen) or a remote bot's channel.

    Its calls become messages to its front (see the module docstring).
    """

    def __init__(self, link: Link, sid: int, identity: Identity) -> None:
        self.link = link
        self.sid = sid
        self.identity = identity
        self.mode = "person"  # "bot" (ssh ... bot), "ladder" (ssh ... ladder)
        self.tables: set[Table] = set()
        self.seats_sent: dict[str, _Sent] = {}
        self.bot_table: Table | None = None
        self.ladder_game = ""
        self.ladder_counts: tuple[int, ...] | None = None
        self.done = False
        self.task: asyncio.Task[None] | None = None
        self._decisions: dict[int, asyncio.Future[p.Answer]] = {}

    @property
    def is_bot(self) -> bool:
        return self.mode != "person"

    # Listener / Controller ----------------------------------------------------------------------

    def changed(self, what: Any) -> None:
        if not isinstance(what, Table):
            return
        if self.is_bot:
            if what.status == "closed" and (self.mode == "bot" or what is self.bot_table):
                self.finish("the ladder table closed" if self.mode == "ladder" else "the table closed", 1)
            return
        self.link.mark(what, self)

    def seat_lost(self, table: Table, seat: int, reason: str) -> None:
        if self.is_bot:
            self.finish(reason, 1)
            return
        self.link.mark(table, self)
        self.link.flush()
        self.link.send(p.SeatLost(self.sid, table.code, seat, reason))

    def seated(self, table: Table, seat: int) -> None:
        """The ladder seated this endpoint (:class:`lobby.ladder.Ladder`)."""
        self.tables.add(table)
        if self.is_bot:
            others = ", ".join(s.name for s in table.seats if s.index != seat)
            self.note(f"seated at rated table {table.code} ({table.title}), seat {seat}, against {others}")
            return
        self.link.send_table(table)
        self.link.send_seat(self, table)
        self.link.send(p.Seated(self.sid, table.code, seat))

    # RemoteController ---------------------------------------------------------------------------

    def start(self, table: Table, seat: int) -> None:
        self.bot_table = table
        self.tables.add(table)
        self.link.send(p.BotLine(self.sid, start_message(table.game.id, seat, table.num_players, table.options_dict)))

    async def decide(self, seat: int, view: Any, legal: list[Any], deadline_ms: int) -> int:
        if self.done or self.link.closed:
            raise ConnectionError("the bot is gone")
        did = self.link.next_decision()
        future: asyncio.Future[p.Answer] = asyncio.get_running_loop().create_future()
        self._decisions[did] = future
        self.link.decisions[did] = self
        self.link.send(p.Decide(self.sid, did, decide_message(seat, view, legal, deadline_ms), len(legal)))
        try:
            answer = await future
        finally:
            self._decisions.pop(did, None)
            self.link.decisions.pop(did, None)
        if answer.index is None:
            raise BotReplyError(answer.error or "no answer")
        if not 0 <= answer.index < len(legal):
            raise BotReplyError(f"index {answer.index} out of range (0..{len(legal) - 1})")
        return answer.index

    def answered(self, answer: p.Answer) -> None:
        future = self._decisions.get(answer.did)
        if future is not None and not future.done():
            future.set_result(answer)

    def end(self, outcome: engine.Outcome) -> None:
        self.link.send(p.BotLine(self.sid, end_message(outcome)))
        if self.mode != "ladder":
            self.finish(None, 0)
            return
        table, self.bot_table = self.bot_table, None
        if table is not None:
            table.release(self)  # type: ignore[arg-type]  # the game is over: only stops listening
        if self.done:
            return
        ladder = self.link.hall.ladder
        try:
            ladder.join(self, self.ladder_game, self.ladder_counts, kind="remote")  # type: ignore[arg-type]
        except TableError as exc:
            self.finish(f"ladder: {exc}", 1)
            return
        self.note("queued again")

    def fault(self, message: str) -> None:
        self.finish(f"bot fault: {message}", 1)

    def note(self, text: str) -> None:
        if not self.done:
            self.link.send(p.BotNote(self.sid, text))

    def finish(self, message: str | None, status: int) -> None:
        """The remote bot's session is over: its front says ``message`` and exits with ``status``."""
        if self.done:
            return
        self.done = True
        for future in self._decisions.values():
            if not future.done():
                future.set_exception(ConnectionError(message or "the bot is gone"))
        self.link.send(p.BotDone(self.sid, message, status))

    # Going away ---------------------------------------------------------------------------------

    def close(self) -> None:
        """The front closed this endpoint (or went away): every table lets go of it."""
        self.done = True
        if self.task is not None:
            self.task.cancel()
        for future in self._decisions.values():
            if not future.done():
                future.set_exception(ConnectionError("the bot is gone"))
        hall = self.link.hall
        if hall.ladder is not None:
            hall.ladder.leave(self)  # type: ignore[arg-type]
        for table in list(self.tables):
            with contextlib.suppress(Exception):
                table.release(self)  # type: ignore[arg-type]
                table.unwatch(self)
        self.tables.clear()


class Link:
    """One front's connection to the hall."""

    def __init__(self, hall: Hall, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.hall = hall
        self.reader = reader
        self.writer = writer
        self.name = "?"
        self.closed = False
        self.authenticated = False
        self.endpoints: dict[int, Endpoint] = {}
        self.decisions: dict[int, Endpoint] = {}
        self.admitted: Counter[str] = Counter()
        self.lobby_chat = 0
        self.tables_sent: dict[str, _Sent] = {}
        self._dirty: dict[Table, None] = {}
        self._dirty_seats: dict[tuple[Endpoint, Table], None] = {}
        self._scheduled = False
        self._decision_ids = 0

    # Sending ------------------------------------------------------------------------------------

    def send(self, message: Any) -> None:
        if self.closed:
            return
        self.send_frame(p.encode(message))

    def send_frame(self, frame: bytes) -> None:
        if self.closed:
            return
        transport = self.writer.transport
        if transport.is_closing():
            return
        if transport.get_write_buffer_size() > MAX_UNSENT_BYTES:
            log.warning("front %s does not read what it is sent: dropped", loggable(self.name))
            self.writer.close()
            return
        self.writer.write(frame)

    def next_decision(self) -> int:
        self._decision_ids += 1
        return self._decision_ids

    def mark(self, table: Table, endpoint: Endpoint | None = None) -> None:
        """``table`` changed for this front (and for ``endpoint``'s seat): sent at the next flush."""
        self._dirty[table] = None
        if endpoint is not None and (table.seat_of(endpoint) is not None or table.code in endpoint.seats_sent):
            self._dirty_seats[(endpoint, table)] = None
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Send every table marked since the last flush: once per table, then once per seat."""
        self._scheduled = False
        dirty, self._dirty = self._dirty, {}
        seats, self._dirty_seats = self._dirty_seats, {}
        for table in dirty:
            self.send_table(table)
        for endpoint, table in seats:
            if endpoint.sid in self.endpoints:
                self.send_seat(endpoint, table)

    def send_table(self, table: Table, whole: bool = False) -> None:
        """A :class:`lobby.protocol.TableState` for ``table`` (``whole``: chat and events from the start)."""
        sent = self.tables_sent.get(table.code)
        if sent is None or sent.table is not table or whole:
            sent = self.tables_sent[table.code] = _Sent(table)
        chat = _chat(table.chat, sent.chat)
        if chat:
            sent.chat = chat[-1].serial
        state = table.state
        view = events = None
        start = sent.events
        if state is not None:
            view = _encode(state.view(None))
            new = state.events(None, start)
            events = _encode(new)
            sent.events = start + len(new)
        self.send(p.TableState(table_info(table), chat, view, events, start))
        if table.status == "closed" or (table.status == "over" and table.code not in self.hall.lobby.tables):
            self.tables_sent.pop(table.code, None)

    def send_seat(self, endpoint: Endpoint, table: Table, whole: bool = False) -> None:
        """What ``endpoint`` may see of its seat at ``table`` (or that it has none there now)."""
        seat = table.seat_of(endpoint)
        sent = endpoint.seats_sent.get(table.code)
        if seat is None:
            if sent is not None:
                del endpoint.seats_sent[table.code]
                self.send(p.Unseated(endpoint.sid, table.code))
            return
        if sent is None or sent.table is not table or sent.seat != seat or whole:
            sent = endpoint.seats_sent[table.code] = _Sent(table, seat=seat)
        state = table.state
        start = sent.events
        new = [] if state is None else state.events(seat, start)
        sent.events = start + len(new)
        forced = table.forced_for(endpoint)
        self.send(
            p.SeatState(
                sid=endpoint.sid,
                code=table.code,
                version=table.version,
                seat=seat,
                view=None if state is None else _encode(state.view(seat)),
                legal=_encode(table.legal_for(endpoint)),  # type: ignore[arg-type]
                events=_encode(new),
                events_from=start,
                forced=None if forced is None else (forced.serial, forced.move, forced.text),
            )
        )

    # Receiving ----------------------------------------------------------------------------------

    async def run(self) -> None:
        """Authenticate the front, then serve its messages until it goes away."""
        hall = self.hall
        peer = self.writer.get_extra_info("peername") or "a local socket"
        try:
            if not await self._handshake():
                log.warning("refused a front from %s: it did not prove it holds the hall's secret", loggable(peer))
                return
            log.info("front %s connected", loggable(self.name))
            hall.links.add(self)
            self.send_frame(hall.lobby_frame(self))
            self.send_frame(hall.ladder_frame())
            while True:
                frame = await p.read_frame(self.reader)
                try:
                    message = p.in_decoder.decode(frame)
                except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                    log.warning("front %s sent what is not a message (%s): dropped", loggable(self.name), loggable(exc))
                    return
                await self.handle(message)
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        except p.ProtocolError as exc:
            log.warning("front %s broke the protocol (%s): dropped", loggable(self.name), loggable(exc))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("front %s: the hall failed on its message; dropped", loggable(self.name))
        finally:
            self.close()

    async def _handshake(self) -> bool:
        hall = self.hall
        nonce = secrets.token_bytes(32)
        self.writer.write(p.encode(p.Challenge(p.PROTOCOL, nonce)))
        try:
            frame = await asyncio.wait_for(p.read_frame(self.reader, p.MAX_HELLO_FRAME), 10)
            hello = p.in_decoder.decode(frame)
        except (TimeoutError, p.ProtocolError, msgspec.ValidationError, msgspec.DecodeError):
            return False
        if not isinstance(hello, p.Hello) or hello.protocol != p.PROTOCOL or len(hello.nonce) < 16:
            return False
        expected = p.front_mac(hall.secret, nonce, hello.nonce, hello.front)
        if not secrets.compare_digest(expected, hello.mac):
            return False
        self.name = hello.front[:64]
        self.authenticated = True
        self.writer.write(
            p.encode(
                p.Welcome(
                    hall.boot,
                    p.hall_mac(hall.secret, nonce, hello.nonce),
                    list(hall.config.bots),
                    hall.guest,
                    hall.ladder is not None,
                )
            )
        )
        return True

    def close(self) -> None:
        """The front went away: each of its sessions is as if its connection dropped."""
        if self.closed:
            return
        self.closed = True
        self.hall.links.discard(self)
        for endpoint in list(self.endpoints.values()):
            endpoint.close()
        self.endpoints.clear()
        limiter = self.hall.limiter
        for address, count in self.admitted.items():
            for _ in range(count):
                limiter.done(address)
        self.admitted.clear()
        with contextlib.suppress(Exception):
            self.writer.close()
        if self.authenticated:
            log.info("front %s disconnected", loggable(self.name))

    def _endpoint(self, sid: int) -> Endpoint | None:
        """This front's endpoint ``sid`` (another front's sids are not seen here)."""
        return self.endpoints.get(sid)

    async def _settled(self) -> None:
        """Let the tables' notifications of what a request did run, and send what they marked
        (so a reply comes after the state it changed)."""
        await asyncio.sleep(0)
        self.flush()

    async def handle(self, message: Any) -> None:  # noqa: C901  (one dispatch, one case per message)
        hall = self.hall
        lobby = hall.lobby
        match message:
            case p.Open(sid, who):
                old = self.endpoints.get(sid)
                if old is not None:
                    old.close()
                identity = Identity(who.name, who.key, who.guest, who.address, who.registered)
                self.endpoints[sid] = Endpoint(self, sid, identity)
            case p.Close(sid):
                endpoint = self.endpoints.pop(sid, None)
                if endpoint is not None:
                    endpoint.close()
            case p.Watch(sid, code, spectator):
                endpoint = self._endpoint(sid)
                table = lobby.tables.get(code)
                if endpoint is not None and table is not None:
                    endpoint.tables.add(table)
                    table.watch(endpoint, spectator=spectator)
                    self.send_table(table)
                    self.send_seat(endpoint, table, whole=True)
            case p.Unwatch(sid, code):
                endpoint = self._endpoint(sid)
                table = lobby.tables.get(code)
                if endpoint is not None and table is not None:
                    table.unwatch(endpoint)
                    if table.seat_of(endpoint) is None:
                        endpoint.tables.discard(table)
            case p.Release(sid, code, leave, rid):
                endpoint = self._endpoint(sid)
                table = lobby.tables.get(code)
                if endpoint is not None and table is not None:
                    table.release(endpoint, leave=leave)  # type: ignore[arg-type]
                    self.mark(table)  # what the release did reaches this front's mirror too
                    await self._settled()
                if rid:
                    self.send(p.Done(rid))
            case p.Resync(sid, code):
                endpoint = self._endpoint(sid)
                table = lobby.tables.get(code)
                if table is not None:
                    self.send_table(table, whole=True)
                    if endpoint is not None:
                        self.send_seat(endpoint, table, whole=True)
            case p.Say(sid, code, text):
                endpoint = self._endpoint(sid)
                if endpoint is None:
                    return
                if code is None:
                    lobby.say(endpoint.identity, text)
                else:
                    table = lobby.tables.get(code)
                    if table is not None:
                        table.say(endpoint.identity, text)
            case p.Sit(rid, sid, code, seat):
                await self._request(rid, lambda: self._sit(sid, code, seat))
            case p.Play(rid, sid, code, action):
                await self._request(rid, lambda: self._play(sid, code, action))
            case p.Fill(rid, sid, code, bot):
                await self._request(rid, lambda: self._fill(sid, code, bot))
            case p.Create(rid, sid, game, players, seats, options):
                await self._request(rid, lambda: self._create(sid, game, players, seats, options))
            case p.SeatBot(rid, sid, table, seat, game):
                endpoint = self._endpoint(sid)
                if endpoint is None:
                    self.send(p.Failed(rid, "no such session"))
                    return
                endpoint.mode = "bot"
                endpoint.task = asyncio.get_running_loop().create_task(self._seat_bot(rid, endpoint, table, seat, game))
            case p.Answer(did):
                endpoint = self.decisions.get(did)
                if endpoint is not None:
                    endpoint.answered(message)
            case p.BotFault(sid, text):
                endpoint = self._endpoint(sid)
                if endpoint is not None and endpoint.is_bot and not endpoint.done:
                    table = endpoint.bot_table
                    if table is not None:
                        table.bot_fault(endpoint, text)  # type: ignore[arg-type]
                    endpoint.finish(f"bot fault: {text}", 1)
            case p.LadderJoin(rid, sid, game, counts, kind):
                await self._request(rid, lambda: self._ladder_join(sid, game, counts, kind))
            case p.LadderLeave(sid):
                endpoint = self._endpoint(sid)
                if endpoint is not None and hall.ladder is not None:
                    hall.ladder.leave(endpoint)  # type: ignore[arg-type]
                    await self._settled()
                    self.send_frame(hall.ladder_frame())
            case p.Query():
                await self._request(message.rid, lambda: hall.query(message))
            case p.Admit(rid, address):
                refusal = hall.limiter.admit(address)
                if refusal is None:
                    self.admitted[address] += 1
                self.send(p.Text(rid, refusal))
            case p.Left(address):
                if self.admitted[address] > 0:
                    self.admitted[address] -= 1
                    hall.limiter.done(address)
            case p.SessionToken(rid, address):
                wait = hall.address_sessions.take(address)
                self.send(p.Number(rid, -1.0 if math.isinf(wait) else wait))
            case p.CheckKey(rid, username, fingerprint):
                self.send(p.Number(rid, hall.check_key(username, fingerprint)))
            case p.Identify(rid, username, fingerprint, public_key, foreign_key, address):
                identity, refusal = hall.identify(username, fingerprint, public_key, foreign_key, address)
                self.send(p.Identified(rid, None if identity is None else _who(identity), refusal))
            case p.Account(rid, name, key, guest, address):
                identity = hall.account(name, key, guest, address)
                self.send(p.Identified(rid, None if identity is None else _who(identity)))
            case p.IssueLink(rid, name, key, ttl_s):
                ttl = max(0.0, min(ttl_s, 3600.0)) if math.isfinite(ttl_s) else 300.0
                self.send(p.Text(rid, hall.tokens.issue(name, key, ttl)))
            case p.Redeem(rid, token):
                found = hall.tokens.redeem(token)
                who = None
                if found is not None and hall.store.name_for_key(found[1]) == found[0]:
                    who = p.Who(found[0], found[1], registered=hall.store.account_created(found[0]))
                self.send(p.Identified(rid, who))
            case _:  # a Hello again, or anything else a front has no business sending now
                log.warning("front %s sent %s out of place: ignored", loggable(self.name), type(message).__name__)

    async def _request(self, rid: int, work: Any) -> None:
        """Do ``work`` (returns the reply, or raises), let its notifications go out, then reply."""
        try:
            reply = work()
            if asyncio.iscoroutine(reply):
                reply = await reply
        except TableError as exc:
            reply = p.Failed(rid, str(exc))
        except engine.IllegalAction as exc:
            reply = p.Failed(rid, str(exc), illegal=True)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            reply = p.Failed(rid, f"not understood: {exc}")
        await self._settled()
        if reply is None:
            reply = p.Done(rid)
        elif isinstance(reply, int | float) and not isinstance(reply, bool):
            reply = p.Number(rid, reply)
        elif isinstance(reply, str):
            reply = p.Text(rid, reply)
        elif hasattr(reply, "rid") and reply.rid == 0:
            reply = msgspec.structs.replace(reply, rid=rid)
        self.send(reply)

    def _person(self, sid: int) -> Endpoint:
        endpoint = self._endpoint(sid)
        if endpoint is None:
            raise TableError("no such session")
        return endpoint

    def _table(self, code: str) -> Table:
        return self.hall.lobby.table(code)

    def _sit(self, sid: int, code: str, seat: int | None) -> int:
        endpoint = self._person(sid)
        table = self._table(code)
        endpoint.tables.add(table)
        index = table.sit(endpoint, seat)  # type: ignore[arg-type]
        self.mark(table, endpoint)
        return index

    def _play(self, sid: int, code: str, action: bytes) -> None:
        endpoint = self._person(sid)
        table = self._table(code)
        decoded = msgspec.msgpack.decode(action, type=table.game.action_type)
        table.play(endpoint, decoded)  # type: ignore[arg-type]

    def _fill(self, sid: int, code: str, bot: str) -> int:
        endpoint = self._person(sid)
        return self._table(code).fill_with_bots(endpoint.identity, bot)

    def _create(self, sid: int, game: str, players: int, seats: list[p.NewSeat], options: dict[str, str] | None) -> str:
        endpoint = self._person(sid)
        specs = [SeatSpec(s.kind, s.bot) for s in seats]
        table = self.hall.lobby.create_table(endpoint.identity, game, players, specs, options)
        self.send_table(table)
        return table.code

    def _ladder_join(self, sid: int, game: str, counts: tuple[int, ...] | None, kind: str) -> int:
        endpoint = self._person(sid)
        ladder = self.hall.ladder
        if ladder is None:
            raise TableError("the ladder is off on this server")
        if kind == "remote":
            endpoint.mode = "ladder"
            endpoint.ladder_game, endpoint.ladder_counts = game, counts
        back = ladder.join(endpoint, game, counts, kind=kind)  # type: ignore[arg-type]
        self.send_frame(self.hall.ladder_frame())
        return 0 if back is None else 1

    async def _seat_bot(
        self, rid: int, endpoint: Endpoint, code: str | None, seat: int | None, game: str | None
    ) -> None:
        """``ssh ... bot``: seat the bot at its table, waiting for one with a free seat if none was named."""
        lobby = self.hall.lobby
        try:
            if code:
                table = lobby.table(code)
                endpoint.tables.add(table)
                table.sit(endpoint, seat, kind="remote")  # type: ignore[arg-type]
                endpoint.bot_table = table
                self.send(p.Text(rid, table.code))
                return
            if seat is not None:
                raise TableError("--seat needs --table")
        except TableError as exc:
            self.send(p.Failed(rid, str(exc)))
            return
        event = asyncio.Event()

        class _Wake:
            def changed(self, what: Any) -> None:
                event.set()

        waker = _Wake()
        lobby.watch(waker)
        told = False
        try:
            while not endpoint.done:
                identity = endpoint.identity
                own = [t for t, _ in lobby.seats_of(identity) if t.seats[t.seat_of(identity) or 0].kind == "remote"]
                table = own[0] if own else lobby.first_free(game)
                if table is not None:
                    with contextlib.suppress(TableError):
                        index = table.sit(endpoint, None, kind="remote")  # type: ignore[arg-type]
                        endpoint.tables.add(table)
                        endpoint.bot_table = table
                        if told:
                            endpoint.note(f"seated at table {table.code} ({table.title}), seat {index}")
                        self.send(p.Text(rid, table.code))
                        return
                if not told:
                    which = engine.game(game).title if game else "any game"
                    endpoint.note(f"waiting for a table with a free seat ({which})…")
                    told = True
                event.clear()
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(event.wait(), 5)
            self.send(p.Text(rid, None))
        finally:
            lobby.unwatch(waker)


class _Watcher:
    """The hall's own listener on the lobby or the ladder: each change goes to every front once."""

    def __init__(self, call: Any) -> None:
        self._call = call
        self._scheduled = False

    def changed(self, what: Any) -> None:
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._run)

    def _run(self) -> None:
        self._scheduled = False
        self._call()


class Hall:
    """The saloon's shared state and the fronts' links to it (see the module docstring).

    Args:
        data_dir: accounts, replays, the hall's secret.
        config: how tables behave.
        guest: whether clients without a key may play as guests.
        limiter: the per-address connection limits (on every front together).
        address_sessions: the per-address session bucket; ``None``: twice ``limiter``'s burst and rate.
        clock: the lobby's clock (tests).
    """

    def __init__(
        self,
        data_dir: Path | str,
        config: ServerConfig | None = None,
        guest: bool = False,
        limiter: RateLimiter | None = None,
        address_sessions: RateLimiter | None = None,
    ) -> None:
        from serve.web import SignInTokens

        self.data_dir = Path(data_dir)
        self.config = config or ServerConfig()
        self.guest = guest
        self.limiter = limiter or RateLimiter()
        self.address_sessions = address_sessions or RateLimiter(
            burst=2 * self.limiter.burst, per_second=2 * self.limiter.per_second
        )
        self.tokens = SignInTokens()
        """The browser's one-time sign-in tokens: issued and redeemed here, so a link from one front works on any."""
        self.boot = secrets.token_hex(8)
        self.secret = b""
        self.store: Store = None  # type: ignore[assignment]
        self.lobby: Lobby = None  # type: ignore[assignment]
        self.ladder: Ladder = None  # type: ignore[assignment]
        self.links: set[Link] = set()
        self._servers: list[asyncio.AbstractServer] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._lobby_watch = _Watcher(self._lobby_changed)
        self._ladder_watch = _Watcher(self._ladder_changed)
        self._expiry: asyncio.Task[None] | None = None
        self._adopted = False  # serving a lobby made elsewhere (adopt): its owner closes it

    async def start(self) -> None:
        """Open the store, the lobby and the ladder."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.secret = p.load_hall_secret(self.data_dir)
        self.store = Store(self.data_dir)
        self.lobby = Lobby(self.store, self.config)
        self.ladder = Ladder(self.lobby)
        self.lobby.resume()  # the games running when the hall stopped or was killed (the store's journal)
        self.lobby.watch(self._lobby_watch)
        self.ladder.watch(self._ladder_watch)
        self.ladder.start()

    def adopt(self, lobby: Lobby) -> None:
        """Serve ``lobby`` (and its store and ladder, if any), made elsewhere, instead of opening
        the data directory's (:meth:`start` is not called then): tests build a lobby and show it to
        a front through the protocol. The secret is made in memory."""
        self.secret = secrets.token_bytes(32)
        self._adopted = True
        self.store = lobby.store
        self.lobby = lobby
        self.ladder = lobby.ladder
        self.config = lobby.config
        lobby.watch(self._lobby_watch)
        if self.ladder is not None:
            self.ladder.watch(self._ladder_watch)

    async def connect_front(self, client: Any) -> None:
        """Connect ``client`` (a :class:`lobby.client.HallClient` of this process) over a socket pair."""
        near, far = socket.socketpair()
        self.attach(far)
        reader, writer = await asyncio.open_connection(sock=near, limit=p.MAX_FRAME + 4)
        await client.connect(reader, writer, self.secret)

    async def listen(self, address: str, tls: ssl.SSLContext | None = None) -> str:
        """Accept fronts at ``address`` (``unix:PATH``, made mode 0600, or ``tcp:HOST:PORT``).

        Returns:
            The address listened on (a TCP port 0 replaced by the port chosen).
        """
        self._ticking()
        kind, where, port = parse_address(address)
        if kind == "unix":
            with contextlib.suppress(FileNotFoundError):
                os.unlink(where)
            old = os.umask(0o177)
            try:
                server = await asyncio.start_unix_server(self._accept, where, limit=p.MAX_FRAME + 4)
            finally:
                os.umask(old)
            self._servers.append(server)
            return address
        server = await asyncio.start_server(self._accept, where, port, ssl=tls, limit=p.MAX_FRAME + 4)
        self._servers.append(server)
        port = server.sockets[0].getsockname()[1]
        return f"tcp:{where}:{port}"

    def _ticking(self) -> None:
        if self._expiry is None:
            self._expiry = asyncio.get_running_loop().create_task(self._expire(), name="hall expiry")

    def attach(self, sock: socket.socket) -> None:
        """Serve a front on ``sock`` (one end of a socket pair: the front in this process)."""
        loop = asyncio.get_running_loop()
        self._ticking()

        async def run() -> None:
            reader, writer = await asyncio.open_connection(sock=sock, limit=p.MAX_FRAME + 4)
            await self._accept(reader, writer)

        task = loop.create_task(run(), name="hall link")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await Link(self, reader, writer).run()
        finally:
            if task is not None:
                self._tasks.discard(task)

    async def stop(self) -> None:
        """Stop accepting fronts, drop them, stop every table and the ladder, close the store."""
        try:
            for server in self._servers:
                server.close()
            if self._expiry is not None:
                self._expiry.cancel()
            for link in list(self.links):
                link.close()
            for task in list(self._tasks):
                task.cancel()
            for task in list(self._tasks):
                with contextlib.suppress(BaseException):
                    await task
            if self._adopted:
                self.lobby.unwatch(self._lobby_watch)
                if self.ladder is not None:
                    self.ladder.unwatch(self._ladder_watch)
                return
            if self.ladder is not None:
                await self.ladder.stop()
            if self.lobby is not None:
                await self.lobby.close()
        finally:
            if not self._adopted:
                if self.store is not None:
                    self.store.close()
                workers.shutdown()  # the search bots' worker processes, if any were started

    async def _expire(self) -> None:
        """Idle waiting tables close, and finished ones leave the listing, even when nobody looks
        (every 5 s); the listed games' move numbers go out quietly every :data:`MOVES_TICK_S`."""
        ticks = 0
        shown: dict[str, int] = {}
        while True:
            await asyncio.sleep(MOVES_TICK_S)
            ticks += 1
            with contextlib.suppress(Exception):
                if ticks % 5 == 0:
                    before = len(self.lobby.tables)
                    self.lobby.listing()
                    if len(self.lobby.tables) != before:
                        self.lobby.changed()
                listed = [t for t in self.lobby.tables.values() if not t.rated]
                moves = {t.code: t.num_moves for t in listed}
                if moves != shown and any(moves.get(code) != shown.get(code) for code in moves):
                    tables = [table_info(t) for t in self.lobby.listing()]
                    for link in list(self.links):
                        link.send_frame(self.lobby_frame(link, tables, quiet=True))
                shown = moves

    # What every front is sent ---------------------------------------------------------------------

    def lobby_frame(self, link: Link, tables: list[p.TableInfo] | None = None, quiet: bool = False) -> bytes:
        if tables is None:
            tables = [table_info(t) for t in self.lobby.listing()]
        chat = [] if quiet else _chat(self.lobby.chat, link.lobby_chat)
        if chat:
            link.lobby_chat = chat[-1].serial
        return p.encode(p.LobbyState(self.lobby.version, tables, chat, quiet))

    def _lobby_changed(self) -> None:
        tables = [table_info(t) for t in self.lobby.listing()]
        for link in list(self.links):
            link.send_frame(self.lobby_frame(link, tables))

    def ladder_frame(self) -> bytes:
        ladder = self.ladder
        if ladder is None or self.lobby.ladder is None:
            return p.encode(p.LadderState([], {}, [], 0, on=False))
        now = ladder.clock()
        queued = [p.QueueInfo(e.ticket, e.name, e.game, e.counts, e.rating, now - e.joined) for e in ladder.queued()]
        online = {game: sorted(ladder.online(game)) for game in engine.games()}
        tables = [table_info(t) for t in ladder.tables()]
        return p.encode(p.LadderState(queued, online, tables, ladder.tables_formed))

    def _ladder_changed(self) -> None:
        frame = self.ladder_frame()
        for link in list(self.links):
            link.send_frame(frame)

    # Questions ------------------------------------------------------------------------------------

    async def query(self, q: p.Query) -> Any:
        store = self.store
        if q.what == "games":
            records = await asyncio.to_thread(store.games, max(1, min(q.limit, 200)))
            return p.Games(0, [_game_info(r) for r in records])
        if q.what == "game":
            record = store.game_by_code(q.code) if q.code else store.game(q.number)
            return p.Games(0, [] if record is None else [_game_info(record)])
        if q.what == "replay":
            if q.code:
                table = self.lobby.tables.get(q.code)
                replay = None if table is None else table.replay
                return p.Blob(0, None if replay is None else replays.encode(replay))
            record = store.game(q.number)
            if record is None:
                return p.Blob(0, None)
            try:
                return p.Blob(0, await asyncio.to_thread(record.replay.read_bytes))
            except OSError as exc:
                raise TableError(f"game {q.number}'s replay cannot be read: {exc.strerror}") from None
        if q.what == "standings":
            if q.game not in engine.games():
                raise TableError(f"unknown game {q.game!r}")
            rows = self.ladder.standings(q.game)
            return p.Standings(0, [_standing(r) for r in rows])
        if q.game not in engine.games():
            raise TableError(f"unknown game {q.game!r}")
        points = self.ladder.history(q.game, q.name, max(1, min(q.limit, 200)))
        return p.History(0, [p.HistoryInfo(x.game_row, x.place, x.players, x.mu, x.sigma, x.at) for x in points])

    # Accounts -------------------------------------------------------------------------------------

    def check_key(self, username: str, fingerprint: str) -> int:
        """1 if ``username`` may log in with the key ``fingerprint`` (it is theirs, or both are new),
        2 if the key is another account's, else 0."""
        if not valid_name(username):
            return 0
        owner = self.store.name_for_key(fingerprint)
        if owner == username or (owner is None and not self.store.name_taken(username)):
            return 1
        return 2 if owner is not None else 0

    def identify(
        self, username: str, fingerprint: str | None, public_key: str, foreign_key: bool = False, address: str = ""
    ) -> tuple[Identity | None, str | None]:
        """Who logged in as ``username`` with the key ``fingerprint`` (``None``: no key accepted).

        The first login with a new key registers it under ``username`` (a name registers once,
        whichever front the client reached).

        Returns:
            ``(identity, None)``, or ``(None, message)`` saying why the client cannot play.
        """
        store = self.store
        if not valid_name(username):
            return None, f"{username!r} is not a valid player name: use {NAME_HELP}, e.g. ssh -p PORT alice@HOST"
        if fingerprint is not None:
            try:
                if store.register(username, fingerprint, public_key):
                    log.info("registered %s (%s)", username, fingerprint)
            except NameTaken as exc:
                return None, f"Sorry: {exc}. Connect with that key, or choose another name."
            registered = store.account_created(username)
            return Identity(username, fingerprint, address=address, registered=registered), None
        if store.name_taken(username):
            return None, (
                f"The name {username!r} is registered to another key, and your client offered none that "
                "matches. Connect with that key, or choose another name."
            )
        if foreign_key and not self.guest:
            new_key = f"~/.ssh/saloon_{username}"
            return None, (
                f"The key your client offered is registered to another name, so it cannot register {username!r}. "
                f"Connect with the name that key belongs to, or make a new key for {username!r} "
                f"(ssh-keygen -t ed25519 -f {new_key}) and connect with ssh -i {new_key}."
            )
        if not self.guest:
            return None, (
                "Saloon knows players by their SSH key, and your client offered none. Make one "
                "(ssh-keygen -t ed25519) and connect again: the first login registers it under your name."
            )
        return Identity(username, "guest:" + secrets.token_hex(8), guest=True, address=address), None

    def account(self, name: str, key: str, guest: bool, address: str) -> Identity | None:
        """The identity a browser's session cookie names, if it still holds
        (:meth:`serve.web.WebServer.identity_of`)."""
        store = self.store
        if guest:
            if not self.guest or store.name_taken(name) or not valid_name(name):
                return None
            return Identity(name, key, guest=True, address=address)
        if store.name_for_key(key) != name:
            return None
        return Identity(name, key, address=address, registered=store.account_created(name))


def _standing(row: Any) -> p.StandingInfo:
    return p.StandingInfo(
        row.rank, row.name, row.rating, row.mu, row.sigma, row.games, tuple(row.recent), row.online, row.house
    )


def _game_info(record: Any) -> p.GameInfo:
    return p.GameInfo(
        record.id,
        record.code,
        record.game,
        tuple(record.players),
        record.started,
        record.finished,
        tuple(record.winners),
        tuple(record.faults),
        tuple(record.ranks),
    )


async def open_hall(
    address: str, tls: ssl.SSLContext | None = None
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Open a connection to the hall at ``address`` (``unix:PATH`` or ``tcp:HOST:PORT``; ``tls`` for TCP).

    Raises:
        OSError: nothing listens there.
    """
    kind, where, port = parse_address(address)
    if kind == "unix":
        return await asyncio.open_unix_connection(where, limit=p.MAX_FRAME + 4)
    return await asyncio.open_connection(where, port, ssl=tls, limit=p.MAX_FRAME + 4)
