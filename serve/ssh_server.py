"""Saloon's SSH server: one asyncssh server process, a Textual app per terminal session, remote bots.

``saloon serve`` runs :func:`serve`; anyone with an SSH client plays::

    ssh -p 2222 NAME@HOST                                    the lobby (needs a terminal)
    ssh -p 2222 NAME@HOST bot [--table CODE] [--seat K]      a remote bot (JSON lines, no terminal)
    ssh -p 2222 NAME@HOST ladder --game GAME [--players N,..]  a bot on the rated ladder (JSON lines)
    ssh -p 2222 NAME@HOST leaderboard GAME [--json]           a game's ladder
    ssh -p 2222 NAME@HOST replay ID > game.replay             a finished game's replay (number or table code)
    sftp -P 2222 NAME@HOST                                    the replays folder, read-only
    ssh -p 2222 NAME@HOST web                                 a one-time sign-in link for the browser page

With ``--web PORT`` the same process serves the lobby to browsers too (:mod:`serve.web`).

Identity is the client's public key: the first login with a new key registers it under the SSH
user name; a name registered to another key is refused with a message saying so, and so is a
key registered to another name (without naming it: offering a public key proves nothing). With
``guest=True`` a client without a key plays as a guest (it cannot take a seat back after a
reconnect). The host key is made once in the data directory and reused.

Connections are rate-limited per address before the SSH handshake (a token bucket for new
connections and a cap on concurrent ones), and sessions per connection and per address (two more
buckets, :class:`SaloonServer`). What a client sent reaches the log only escaped and cut
(:func:`lobby.logtext.loggable`); ``saloon serve`` logs to a rotated file (:func:`start_logging`).
Bad input on a channel (bytes that are not UTF-8,
over-long lines, unknown commands, protocol nonsense from a bot) closes that channel with a
message and touches nothing else.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import logging
import logging.handlers
import math
import os
import re
import shlex
import signal
import socket
import sys
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import asyncssh

import engine
from bots.protocol import MAX_LINE_BYTES, parse_reply
from lobby import protocol as hall_protocol
from lobby.client import HallClient
from lobby.ladder import Ladder, LadderError, accepted_counts, leaderboard_json, leaderboard_text
from lobby.logtext import LogFormatter, loggable
from lobby.matchmaker import MatchPolicy
from lobby.store import Store, valid_name
from lobby.tables import (
    DEFAULT_SERVER_BOTS,
    Identity,
    Lobby,
    ServerConfig,
    TableError,
    clean_text,
    default_house_bots,
    shown,
)
from serve.hall import Hall, open_hall
from serve.limits import LogThrottle, RateLimiter

__all__ = [
    "LogThrottle",
    "RateLimiter",
    "SaloonServer",
    "bot_offers",
    "house_bot_offers",
    "main",
    "serve",
    "start_logging",
    "stop_logging",
]

log = logging.getLogger("saloon.server")

MAX_SESSIONS_PER_CONNECTION = 4
"""Sessions (channels) one SSH connection may have open at once."""

_NAME_HELP = "a lower-case letter, then lower-case letters, digits, '-' or '_' (24 at most)"


MAX_REFUSALS_SAYING_WHY = 64
"""Refused connections told why at once (:func:`_refuse`); past that, more are only closed."""

REFUSAL_DRAIN_S = 2.0
"""How long a refused connection is read (and its bytes dropped) before it is closed: closing a
socket with unread data sends a reset, which discards the message the client was sent."""


def refusal_bytes(message: str) -> bytes:
    """What a connection refused before the SSH handshake is sent: ``message`` as a line before
    the SSH identification (shown by clients that print such lines, and by ``nc``), the
    identification, and an unencrypted ``SSH_MSG_DISCONNECT`` (reason 12, too many connections)
    carrying ``message``, which the OpenSSH client prints ("Received disconnect from HOST port P:12:
    ...") instead of a bare "Connection reset by peer". No key exchange: it costs the server nothing.
    """
    text = f"Saloon: {message}".encode()
    payload = b"\x01" + (12).to_bytes(4, "big") + len(text).to_bytes(4, "big") + text + (0).to_bytes(4, "big")
    padding = 8 - (5 + len(payload)) % 8
    padding += 8 if padding < 4 else 0
    packet = (1 + len(payload) + padding).to_bytes(4, "big") + bytes([padding]) + payload + b"\x00" * padding
    return text + b"\r\nSSH-2.0-Saloon\r\n" + packet


async def _refuse(client: socket.socket, message: str) -> None:
    """Tell a refused connection why (:func:`refusal_bytes`), then close it gracefully: our side
    first, then what the client sends is read and dropped for up to :data:`REFUSAL_DRAIN_S`."""
    loop = asyncio.get_running_loop()
    try:
        await asyncio.wait_for(loop.sock_sendall(client, refusal_bytes(message)), 5)
        client.shutdown(socket.SHUT_WR)
        deadline = loop.time() + REFUSAL_DRAIN_S
        while (left := deadline - loop.time()) > 0:
            if not await asyncio.wait_for(loop.sock_recv(client, 4096), left):
                break
    except (OSError, TimeoutError):
        pass
    finally:
        client.close()


_connection_numbers = itertools.count(1)


@dataclass
class _Login:
    """What authentication decided for a connection (kept in the connection's extra info)."""

    identity: Identity | None = None
    refusal: str | None = None
    sessions: int = 0
    address: str = ""
    username: str = ""
    """The SSH user name the client gave (not checked: only :func:`loggable` may log it)."""
    key: str = field(default_factory=lambda: f"connection {next(_connection_numbers)}")
    """The connection's key in :attr:`SaloonServer.connection_sessions`."""
    identified: asyncio.Future[None] | None = None
    """Done once the hall said who this is (:meth:`SaloonServer.identify_login`)."""


def load_host_key(data_dir: Path) -> asyncssh.SSHKey:
    """The server's host key from ``DATA/host_key``, made (Ed25519, mode 0600) on first use."""
    path = data_dir / "host_key"
    if not path.exists():
        key = asyncssh.generate_private_key("ssh-ed25519")
        tmp = path.with_name(f".host_key.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(key.export_private_key())
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        log.info("made a new host key: %s", key.get_fingerprint())
    return asyncssh.read_private_key(str(path))


class _Auth(asyncssh.SSHServer):
    """Authentication for one connection: keys register accounts (at the hall); keyless clients are
    guests or refused."""

    def __init__(self, server: SaloonServer) -> None:
        self._server = server
        self._conn: asyncssh.SSHServerConnection | None = None
        self._key: asyncssh.SSHKey | None = None
        self._keyless = False
        self._foreign_key = False  # a key offered was registered to another name

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername")
        conn.set_extra_info(saloon_login=_Login(address=str(peer[0]) if peer else ""))

    def connection_lost(self, exc: Exception | None) -> None:
        if self._conn is not None:
            self._server.connection_sessions.forget(self._conn.get_extra_info("saloon_login").key)

    def begin_auth(self, username: str) -> bool:
        self._conn.get_extra_info("saloon_login").username = username  # type: ignore[union-attr]
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if not valid_name(username):
            return False
        try:
            answer = await self._server.client.check_key(username, key.get_fingerprint())
        except ConnectionError:
            return False
        if answer == 1:
            self._key = key
            return True
        if answer == 2:
            self._foreign_key = True
        return False

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        # No key was accepted. Let the client in without a prompt: its session is a guest's, or
        # only tells it why it cannot play (a clearer message than "Permission denied").
        self._keyless = True
        return True

    def auth_completed(self) -> None:
        conn = self._conn
        assert conn is not None
        login: _Login = conn.get_extra_info("saloon_login")
        username = str(conn.get_extra_info("username") or "")
        key = None if self._keyless else self._key
        login.identified = asyncio.get_running_loop().create_task(
            self._server.identify_login(login, username, key, self._foreign_key)
        )


class _RemoteBot:
    """A remote bot's channel: the JSON-lines bot protocol over an SSH session without a PTY.

    The hall decides what it is sent (:class:`serve.hall.Endpoint`): this end writes the hall's
    lines to the bot, reads the bot's and answers the hall's decisions with the index the bot chose.
    """

    def __init__(self, identity: Identity, process: asyncssh.SSHServerProcess[bytes], client: HallClient) -> None:
        self.identity = identity
        self._process = process
        self._client = client
        self._waiting: int | None = None
        self._legal = 0
        self.done = asyncio.get_running_loop().create_future()

    # What the hall asks -----------------------------------------------------------------------

    def write(self, data: bytes) -> None:
        """A line of the protocol (start, end) from the hall."""
        self._send(data)

    def decide(self, did: int, data: bytes, legal: int) -> None:
        """Ask the bot (the hall's decision ``did``); its answer goes back when its line comes."""
        if self.done.done():
            self._client.send(hall_protocol.Answer(did, None, "the bot is gone"))
            return
        self._waiting, self._legal = did, legal
        self._send(data)

    def note(self, message: str) -> None:
        """Tell the bot's operator ``message`` on stderr (its log; stdout carries only the protocol)."""
        if not self.done.done():
            with contextlib.suppress(Exception):
                self._process.stderr.write(f"Saloon: {message}\n".encode())

    def finish(self, message: str | None, status: int) -> None:
        """The bot's session is over (the hall said so, or its channel closed)."""
        if not self.done.done():
            self.done.set_result((message, status))

    def hall_lost(self, why: str) -> None:
        self.finish(f"the saloon is restarting: {why}", 1)

    # Channel --------------------------------------------------------------------------------

    def _send(self, data: bytes) -> None:
        if not self.done.done():
            self._process.stdout.write(data)

    def _protocol_fault(self, message: str) -> None:
        """A fault outside a decision: the hall's table logs it (results, replay); the channel closes."""
        if not self.done.done():
            self._client.send(hall_protocol.BotFault(self._client.sid_of(self), message))
        self.finish(f"bot fault: {message}", 1)

    def line(self, data: bytes) -> None:
        """One line from the bot: the answer to the open decision, or a fault."""
        if self._waiting is not None:
            did, self._waiting = self._waiting, None
            try:
                index = parse_reply(data, self._legal)
            except Exception as exc:  # a bad reply: the hall records the fault
                self._client.send(hall_protocol.Answer(did, None, str(exc) or type(exc).__name__))
            else:
                self._client.send(hall_protocol.Answer(did, index))
        elif not self.done.done():
            self._protocol_fault("output written when no decision was asked")

    async def read_lines(self) -> None:
        """Read the bot's lines until EOF; an over-long line is a fault."""
        buffer = b""
        while not self.done.done():
            try:
                data = await self._process.stdin.read(MAX_LINE_BYTES)
            except (asyncssh.TerminalSizeChanged, asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except (asyncssh.Error, OSError):
                data = b""
            if not data:
                self.finish("the bot closed its input", 0)
                return
            buffer += data
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                self.line(line)
            if len(buffer) > MAX_LINE_BYTES:
                self._protocol_fault(f"a line longer than {MAX_LINE_BYTES} bytes")
                return


def _strict_parser(prog: str) -> argparse.ArgumentParser:
    """An argument parser that raises ``ValueError`` instead of printing and exiting."""
    parser = argparse.ArgumentParser(prog=prog, add_help=False, exit_on_error=False)

    def error(message: str) -> None:
        raise ValueError(message)

    parser.error = error  # type: ignore[method-assign]
    return parser


def _known_game(game: str) -> str:
    if game not in engine.games():
        raise ValueError(f"unknown game {shown(game)}; games: {', '.join(engine.games())}")
    return game


def _bot_arguments(args: Sequence[str]) -> argparse.Namespace:
    parser = _strict_parser("bot")
    parser.add_argument("--table")
    parser.add_argument("--seat", type=int)
    parser.add_argument("--game")
    options = parser.parse_args(list(args))
    if options.game is not None:
        _known_game(options.game)
    return options


def _ladder_arguments(args: Sequence[str]) -> tuple[str, tuple[int, ...] | None]:
    """``ladder --game GAME [--players N,...]`` -> ``(game, counts or None)``; ``ValueError`` if bad."""
    parser = _strict_parser("ladder")
    parser.add_argument("--game", required=True)
    parser.add_argument("--players")
    options = parser.parse_args(list(args))
    game = _known_game(options.game)
    if options.players is None:
        return game, None
    try:
        counts = [int(n) for n in options.players.split(",")]
    except ValueError:
        raise ValueError(f"--players {shown(options.players)}: expected player counts like 2,3") from None
    try:
        return game, accepted_counts(game, counts)
    except LadderError as exc:  # a bad request (exit status 2), not a refusal by the ladder
        raise ValueError(str(exc)) from None


def _leaderboard_arguments(args: Sequence[str]) -> argparse.Namespace:
    parser = _strict_parser("leaderboard")
    parser.add_argument("game")
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args(list(args))
    _known_game(options.game)
    return options


def _replay_arguments(args: Sequence[str]) -> int | str:
    """``replay ID`` -> the game's row id, ``1 .. 2**63 - 1`` (what the store's SQLite rows hold),
    or a table's code (what the lobby shows: 1 to 8 ASCII letters and digits with a letter among
    them), upper-cased.

    Raises:
        ValueError: no ID or other arguments; an ID that is neither the ASCII digits 0-9 alone (a
            sign, a space, an underscore or another script's digits, all of which ``int`` takes)
            nor a table's code; a number out of range. The message quotes the ID as :func:`ascii`
            writes it (cut to 40 characters), so it shows exactly what came and nothing reaches
            the terminal raw.
    """
    parser = _strict_parser("replay")
    parser.add_argument("id")
    text = str(parser.parse_args(list(args)).id)
    quoted = ascii(text if len(text) <= 40 else text[:40] + "...")
    if re.fullmatch(r"[A-Za-z0-9]{1,8}", text) and not text.isdigit():
        return text.upper()
    if not re.fullmatch(r"[0-9]+", text):
        raise ValueError(
            f"replay ID must be a game's number (digits 0-9 only) or its table's code (letters and digits), "
            f"not {quoted}"
        )
    highest = 2**63 - 1
    if len(text.lstrip("0")) > len(str(highest)) or not 1 <= int(text) <= highest:
        raise ValueError(f"replay ID must be from 1 to {highest}, not {quoted}")
    return int(text)


class _ReplaysSFTP(asyncssh.SFTPServer):
    """Read-only SFTP of ``DATA/replays``: the folder is the client's root; every change is refused.

    Args:
        chan: the SFTP session's channel.
        root: the replays folder.
        refusal: why the session sees nothing (``None``: it sees the folder): a connection that
            did not log in as an account or guest, or a session over the limits (it may open
            the session, and every request is refused with this reason).
    """

    def __init__(
        self, chan: asyncssh.SSHServerChannel[bytes], root: Path, refusal: str | None = None, login: Any = None
    ) -> None:
        super().__init__(chan, chroot=os.fsencode(root))
        self._refusal = refusal
        self._login = login  # the connection's _Login: who it is may still be on its way from the hall

    @staticmethod
    def _refuse() -> NoReturn:
        raise asyncssh.SFTPPermissionDenied("the replays folder is read-only")

    def refuse_all(self, refusal: str) -> None:
        """From now on every request is refused with ``refusal``."""
        self._refusal = refusal

    def map_path(self, path: bytes) -> bytes:
        if self._refusal is not None:
            raise asyncssh.SFTPPermissionDenied(self._refusal)
        if self._login is not None and self._login.identity is None:
            raise asyncssh.SFTPPermissionDenied(self._login.refusal or "not logged in")
        return super().map_path(path)

    def open(self, path: bytes, pflags: int, attrs: asyncssh.SFTPAttrs) -> Any:
        if pflags & (asyncssh.FXF_WRITE | asyncssh.FXF_APPEND | asyncssh.FXF_CREAT | asyncssh.FXF_TRUNC):
            self._refuse()
        return super().open(path, asyncssh.FXF_READ, attrs)

    def open56(self, path: bytes, desired_access: int, flags: int, attrs: asyncssh.SFTPAttrs) -> Any:
        writing = asyncssh.ACE4_WRITE_DATA | asyncssh.ACE4_APPEND_DATA | asyncssh.ACE4_WRITE_ATTRIBUTES
        if desired_access & writing or flags & asyncssh.FXF_ACCESS_DISPOSITION != asyncssh.FXF_OPEN_EXISTING:
            self._refuse()
        return super().open56(path, desired_access, flags, attrs)

    def write(self, file_obj: object, offset: int, data: bytes) -> int:
        self._refuse()

    def setstat(self, path: bytes, attrs: asyncssh.SFTPAttrs) -> None:
        self._refuse()

    def lsetstat(self, path: bytes, attrs: asyncssh.SFTPAttrs) -> None:
        self._refuse()

    def fsetstat(self, file_obj: object, attrs: asyncssh.SFTPAttrs) -> None:
        self._refuse()

    def remove(self, path: bytes) -> None:
        self._refuse()

    def mkdir(self, path: bytes, attrs: asyncssh.SFTPAttrs) -> None:
        self._refuse()

    def rmdir(self, path: bytes) -> None:
        self._refuse()

    def rename(self, oldpath: bytes, newpath: bytes) -> None:
        self._refuse()

    def posix_rename(self, oldpath: bytes, newpath: bytes) -> None:
        self._refuse()

    def symlink(self, oldpath: bytes, newpath: bytes) -> None:
        self._refuse()

    def link(self, oldpath: bytes, newpath: bytes) -> None:
        self._refuse()


_USAGE = """\
Saloon: Wild West board games over SSH.
  ssh -p PORT NAME@HOST                                   the lobby (in a terminal)
  ssh -p PORT NAME@HOST bot [--table CODE] [--seat K]     a remote bot: JSON lines on stdin/stdout
  ssh -p PORT NAME@HOST ladder --game GAME [--players N,...]
                                                          a bot on GAME's rated ladder: JSON lines,
                                                          one game after another until it leaves
  ssh -p PORT NAME@HOST leaderboard GAME [--json]         GAME's ladder: ratings, games, who is online
  ssh -p PORT NAME@HOST replay ID > FILE                  a finished game's replay (ID: its number
                                                          or its table's code, as in the lobby's g)
  sftp -P PORT NAME@HOST                                  the replays folder, read-only
  ssh -p PORT NAME@HOST web                               a one-time sign-in link for the browser page
"""


class SaloonServer:
    """A front: the SSH server's listening socket, authentication and sessions, reaching the hall
    (:mod:`serve.hall`) through :class:`lobby.client.HallClient`.

    Without ``hall`` the server runs its own hall in this process and talks to it over a socket
    pair, through the same protocol as any front (one code path): :attr:`lobby`, :attr:`store`
    and :attr:`ladder` are then that hall's. With ``hall`` (``unix:PATH`` or ``tcp:HOST:PORT``,
    what ``saloon serve --workers N`` gives each front) it connects to that hall.

    Args:
        data_dir: where accounts, the host key and replays live.
        host: the address to listen on.
        port: the port (0: any free port; read :attr:`port` after :meth:`start`).
        guest: let clients without a key play as guests.
        config: how tables behave (grace time, turn timer, ...).
        limiter: the per-address connection limits.
        address_sessions: the per-address session bucket (:meth:`RateLimiter.take`: its ``burst``
            and ``per_second``); ``None``: twice ``limiter``'s burst and rate (bursts of 20, then
            one a second, by default).
        connection_sessions: the per-connection session bucket; ``None``: ``limiter``'s burst
            and rate (bursts of 10, then one every 2 s, by default).
        hall: the hall's address (``None``: a hall of this process's own). ``limiter``,
            ``address_sessions`` and ``config`` are the hall's: a front with a ``hall`` address
            ignores them.
        reuse_port: listen with ``SO_REUSEPORT``, so several fronts share the port (the kernel
            spreads the connections).
        name: this front's name in the hall's log.
        tls: a TLS context for a ``tcp:`` hall address (see ``docs/hall.md``).

    Sessions (a terminal, a command, a bot, SFTP) are rate-limited per connection and per
    address, whoever opens them, logged in or not: every session takes a token from both
    buckets, and one that finds either empty is refused before anything else happens (a line
    on its stderr, ``too many sessions ...: wait N s``, and exit status 1). The defaults leave
    people and bots alone: a person's terminal and their ``ssh ... leaderboard`` or ``replay``
    commands each come on a connection of their own, which the connection limits already pace
    (bursts of 10, then one every 2 s), so the session buckets only bind where one connection
    carries many sessions (OpenSSH's ``ControlMaster`` sharing, a script or a bot re-sitting
    with ``bot --table`` over one connection). A bot sits once per game, and at most once a
    second per table (:attr:`ServerConfig.bot_sit_interval_s`), so ten at once and one every
    2 s a connection leaves it room; twice that per address covers a person's terminal, their
    bot and their commands at once. What they bound: without them, one keyless connection
    opened 2,716 sessions in 5 s. Each admitted session writes one log line (about 150 bytes),
    so an address can make the server log at most 20 lines at once, then about 60 a minute (9 kB),
    plus one line a minute saying how many sessions were refused (:class:`LogThrottle`). An
    operator who loosens ``limiter`` (bots of a tournament all coming from one address) loosens
    the session buckets with it, unless they are given.
    """

    def __init__(
        self,
        data_dir: Path | str,
        host: str = "127.0.0.1",
        port: int = 2222,
        guest: bool = False,
        config: ServerConfig | None = None,
        limiter: RateLimiter | None = None,
        address_sessions: RateLimiter | None = None,
        connection_sessions: RateLimiter | None = None,
        hall: str | None = None,
        reuse_port: bool = False,
        name: str = "front",
        tls: Any = None,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.host = host
        self.port = port
        self.guest = guest
        self.hall_address = hall
        self.reuse_port = reuse_port
        self.name = name
        self.tls = tls
        self.hall: Hall | None = None
        """The hall of this process (``None`` for a front of another process's hall)."""
        if hall is None:
            self.hall = Hall(data_dir, config, guest, limiter, address_sessions)
        limits = limiter or RateLimiter()
        self.connection_sessions = connection_sessions or RateLimiter(burst=limits.burst, per_second=limits.per_second)
        """Sessions per connection (a token bucket keyed by the connection, dropped when it closes)."""
        self.log_throttle = LogThrottle()
        """What bounds the lines about refusals: one a minute per address and kind."""
        self.client = HallClient(name)
        """This front's connection to the hall; its mirrors are what the screens read."""
        self.sessions: set[Any] = set()
        self.collector: Collector | None = None
        """The garbage-collector policy (:func:`run_server` sets it; in-process test servers have none)."""
        self.web: Any = None
        """The browser page (a :class:`serve.web.WebServer`, which sets this); it starts and stops with this server."""
        self.stopped: asyncio.Event | None = None
        """Set when the hall's connection is lost (a front then stops: its supervisor starts another)."""
        self._sock: socket.socket | None = None
        self._accept_task: asyncio.Task[None] | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self._refusals: set[asyncio.Task[None]] = set()
        self._options: asyncssh.SSHServerConnectionOptions | None = None

    # The hall's state, when the hall is this process's (tests, --workers 1) -----------------------

    @property
    def config(self) -> ServerConfig:
        return self.hall.config if self.hall is not None else ServerConfig()

    @property
    def lobby(self) -> Lobby:
        """The hall's lobby (``None`` in a front of another process's hall)."""
        return self.hall.lobby if self.hall is not None else None  # type: ignore[return-value]

    @property
    def store(self) -> Store:
        return self.hall.store if self.hall is not None else None  # type: ignore[return-value]

    @property
    def ladder(self) -> Ladder:
        return self.hall.ladder if self.hall is not None else None  # type: ignore[return-value]

    @property
    def limiter(self) -> RateLimiter:
        assert self.hall is not None
        return self.hall.limiter

    @limiter.setter
    def limiter(self, limiter: RateLimiter) -> None:
        assert self.hall is not None
        self.hall.limiter = limiter

    @property
    def address_sessions(self) -> RateLimiter:
        assert self.hall is not None
        return self.hall.address_sessions

    def front_side(self, endpoint: Any) -> Any:
        """What stands at this front for one of this process's hall's endpoints (a screen, a remote
        bot's channel): tests reach a session's screen from the table it sits or watches at."""
        return self.client.listener(endpoint.sid)

    def identify(
        self, username: str, key: asyncssh.SSHKey | None, foreign_key: bool = False, address: str = ""
    ) -> tuple[Identity | None, str | None]:
        """The hall's :meth:`serve.hall.Hall.identify` for ``key`` (this process's hall only: tests)."""
        assert self.hall is not None
        fingerprint = None if key is None else key.get_fingerprint()
        public = "" if key is None else key.export_public_key().decode().strip()
        return self.hall.identify(username, fingerprint, public, foreign_key, address)

    async def start(self) -> None:
        """Reach the hall (starting this process's own first: it opens the store and resumes the games
        that were running, :meth:`lobby.tables.Lobby.resume`), load (or make) the host key and start listening.

        asyncssh's own log lines below WARNING are turned off (unless its logger's level was set
        already): at INFO it logs every client's user name and command line raw, before Saloon
        looks at them. The server logs what it needs itself, through :func:`lobby.logtext.loggable`.

        Raises:
            lobby.client.HallLost: the hall cannot be reached, or refused this front.
            OSError: the port cannot be listened on.
        """
        asyncssh_log = logging.getLogger("asyncssh")
        if asyncssh_log.level == logging.NOTSET:
            asyncssh_log.setLevel(logging.WARNING)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        loop = asyncio.get_running_loop()
        if self.hall is not None:
            await self.hall.start()
            await self.hall.connect_front(self.client)
        else:
            assert self.hall_address is not None
            reader, writer = await open_hall(self.hall_address, self.tls)
            await self.client.connect(reader, writer, hall_protocol.load_hall_secret(self.data_dir))
        self.guest = self.client.guest if self.hall is None else self.guest
        self.stopped = asyncio.Event()
        assert self.client.lost is not None
        self.client.lost.add_done_callback(lambda _: self.stopped.set() if self.stopped else None)
        host_key = load_host_key(self.data_dir)
        self._options = asyncssh.SSHServerConnectionOptions(
            server_factory=lambda: _Auth(self),
            server_host_keys=[host_key],
            process_factory=self._session,
            sftp_factory=self._sftp,
            encoding=None,
            line_editor=False,
            allow_pty=True,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            login_timeout=30,
            keepalive_interval=30,
            keepalive_count_max=3,
        )
        sock = socket.create_server((self.host, self.port), backlog=256, reuse_port=self.reuse_port)
        sock.setblocking(False)
        self._sock = sock
        self.port = sock.getsockname()[1]
        self._accept_task = loop.create_task(self._accept(), name="ssh accept")
        log.info(
            "Saloon listening on %s port %d (data in %s)", self.host, self.port, self.data_dir, extra={"console": True}
        )
        if self.web is not None:
            await self.web.start()

    async def stop(self) -> None:
        """Stop listening, close every connection, and (this process's hall) every table and the store."""
        try:
            if self.web is not None:
                await self.web.stop()
            if self._accept_task is not None:
                self._accept_task.cancel()
                with contextlib.suppress(BaseException):
                    await self._accept_task
            if self._sock is not None:
                self._sock.close()
            for task in [*self._connections, *self._refusals]:
                task.cancel()
            for task in [*self._connections, *self._refusals]:
                with contextlib.suppress(BaseException):
                    await task
            await self.client.close()
        finally:
            if self.hall is not None:
                await self.hall.stop()

    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        assert self._sock is not None
        while True:
            client, peer = await loop.sock_accept(self._sock)
            task = loop.create_task(self._connection(client, str(peer[0])))
            self._connections.add(task)
            task.add_done_callback(self._connections.discard)

    async def _connection(self, client: socket.socket, address: str) -> None:
        """One connection: the hall admits it (its limits count every front's connections), then SSH."""
        try:
            refusal = await self.client.admit(address)
        except ConnectionError:
            client.close()
            return
        except asyncio.CancelledError:
            client.close()
            raise
        if refusal is not None:
            more = self.log_throttle.allow("connections from " + address)
            if more is not None:
                log.info("refused a connection: %s%s", refusal, LogThrottle.more(more))
            if len(self._refusals) >= MAX_REFUSALS_SAYING_WHY:  # a flood: no word
                client.close()
                return
            task = asyncio.current_task()
            assert task is not None
            self._refusals.add(task)
            try:
                await _refuse(client, refusal)
            finally:
                self._refusals.discard(task)
            return
        try:
            conn = await asyncssh.run_server(client, options=self._options)
            await conn.wait_closed()
            # asyncssh keeps a bound method of the connection as its packet handler (a cycle that
            # would keep the closed connection, its channels and keys for the full collection);
            # once closed, no packet comes: the same no-op handler asyncssh sets when it stops reading.
            conn._recv_handler = lambda: False
        except (TimeoutError, asyncssh.Error, OSError) as exc:
            log.debug("connection from %s ended: %s", address, loggable(exc, 200))
        except asyncio.CancelledError:
            client.close()
            raise
        finally:
            self.client.left(address)

    # Identity ---------------------------------------------------------------------------------

    async def identify_login(
        self, login: _Login, username: str, key: asyncssh.SSHKey | None, foreign_key: bool
    ) -> None:
        """Ask the hall who logged in as ``username`` with ``key`` (``None``: no key accepted), and
        keep the answer in ``login`` (:meth:`serve.hall.Hall.identify`: the first login with a new
        key registers it)."""
        fingerprint = None if key is None else key.get_fingerprint()
        public = "" if key is None else key.export_public_key().decode().strip()
        try:
            login.identity, login.refusal = await self.client.identify(
                username, fingerprint, public, foreign_key, login.address
            )
        except ConnectionError:
            login.identity, login.refusal = None, "the saloon is restarting: try again in a moment"

    # Sessions ---------------------------------------------------------------------------------

    async def _session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        login: _Login = process.get_extra_info("saloon_login") or _Login(refusal="not logged in")
        status = 0
        login.sessions += 1
        try:
            if login.identified is not None:
                await login.identified
            too_many = await self._session_refusal(login, process.command)
            if too_many is not None:
                self._say(process, too_many, error=True)
                status = 1
            elif login.identity is None:
                self._say(process, login.refusal or "not logged in", error=True)
                status = 1
            elif login.sessions > MAX_SESSIONS_PER_CONNECTION:
                self._say(process, f"at most {MAX_SESSIONS_PER_CONNECTION} sessions per connection", error=True)
                status = 1
            else:
                status = await self._dispatch(process, login.identity)
        except Exception:
            log.exception("session of %s failed", loggable(login.identity, 200))
            status = 1
        finally:
            login.sessions -= 1
            with contextlib.suppress(Exception):
                process.exit(status)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(process.wait_closed(), 10)
                # The process and its stream readers refer to each other (a cycle holding the
                # channel and the connection): once the channel is closed, nothing uses them.
                vars(process).clear()

    def _connection_refusal(self, login: _Login) -> tuple[RateLimiter, str, str, float]:
        bucket = self.connection_sessions
        return bucket, "on this connection", "per connection", bucket.take(login.key)

    async def _session_refusal(self, login: _Login, command: str | None, subsystem: str = "") -> str | None:
        """Take a token for a new session of ``login``'s connection from both session buckets
        (:attr:`connection_sessions`, here; the address's, at the hall: it counts the sessions of
        every front) and log the session.

        Args:
            login: the connection's login.
            command: the session's command line (``None`` or empty: a terminal, or ``subsystem``).
            subsystem: the subsystem asked for (``"sftp"``), if any.

        Returns:
            ``None`` if the session may go on; else what to tell the client, ``too many sessions
            ...: wait N s``. The refusal is logged at most once a minute per address
            (:attr:`log_throttle`); an admitted session is logged in one line, its user name and
            command escaped and cut (:func:`lobby.logtext.loggable`).
        """
        bucket, where, kind, wait = self._connection_refusal(login)
        burst, per_second = bucket.burst, bucket.per_second
        if not wait:
            where, kind = f"from {login.address}", "per address"
            try:
                wait = await self.client.session_token(login.address)
            except ConnectionError:
                return "the saloon is restarting: try again in a moment"
            burst, per_second = self._address_pace()
        return self._session_verdict(login, command, subsystem, wait, where, kind, burst, per_second)

    def _address_pace(self) -> tuple[int, float]:
        if self.hall is not None:
            return self.hall.address_sessions.burst, self.hall.address_sessions.per_second
        return 20, 1.0

    def _session_verdict(
        self,
        login: _Login,
        command: str | None,
        subsystem: str,
        wait: float,
        where: str,
        kind: str,
        burst: int,
        per_second: float,
    ) -> str | None:
        who = (
            login.identity.label
            if login.identity is not None
            else f"{loggable(login.username, 40, quote=True)} (not logged in)"
        )
        if wait:
            pace = f"at most {burst} at once, then one every {1 / per_second:g} s" if per_second > 0 else ""
            more = self.log_throttle.allow("sessions from " + login.address)
            if more is not None:
                log.info(
                    "refused a session of %s from %s: too many sessions %s%s",
                    who,
                    login.address,
                    kind,
                    LogThrottle.more(more),
                )
            if math.isinf(wait):
                return f"too many sessions {where}: try again later"
            return f"too many sessions {where} ({pace}): wait {math.ceil(wait)} s"
        if subsystem:
            what = subsystem
        elif command:
            what = f"command {loggable(command, quote=True)}"
        else:
            what = "terminal"
        log.info("session of %s from %s: %s", who, login.address, what)
        return None

    async def _dispatch(self, process: asyncssh.SSHServerProcess[bytes], identity: Identity) -> int:
        command = process.command
        if command is not None and command.strip():
            if len(command) > 1000:
                self._say(process, "command too long", error=True)
                return 2
            try:
                words = shlex.split(command)
            except ValueError:
                words = [command]
            if words[0] == "bot":
                return await self._bot_session(process, identity, words[1:])
            if words[0] == "ladder":
                return await self._ladder_session(process, identity, words[1:])
            if words[0] == "leaderboard":
                return await self._leaderboard(process, words[1:])
            if words[0] == "replay":
                return await self._replay(process, words[1:])
            if words[0] == "web" and len(words) == 1:
                return await self._web_link(process, identity)
            if words[0] in ("help", "--help", "-h"):
                process.stdout.write(_USAGE.encode())
                return 0
            self._say(process, f"unknown command {words[0][:40]!r}\n{_USAGE}", error=True)
            return 2
        if process.get_terminal_type() is None:
            self._say(process, "the lobby needs a terminal: connect with ssh -t (or run the 'bot' command)", error=True)
            return 2
        return await self._ui_session(process, identity)

    @staticmethod
    def _say(process: asyncssh.SSHServerProcess[bytes], message: str, error: bool = False) -> None:
        if process.get_terminal_type():  # one terminal: write where the person looks
            text = f"Saloon: {message}\n".replace("\n", "\r\n")
            stream = process.stdout
        else:
            text = f"Saloon: {message}\n"
            stream = process.stderr if error else process.stdout
        with contextlib.suppress(Exception):
            stream.write(text.encode())

    async def _ui_session(self, process: asyncssh.SSHServerProcess[bytes], identity: Identity) -> int:
        from serve.ssh_driver import run_app
        from tui.lobby_screen import SSHApp

        app = SSHApp(self.client.lobby, identity, guest_mode=self.guest)
        self.sessions.add(app)
        if self.collector is not None:
            self.collector.session_started()
        try:
            reason = await run_app(app, process, on_end=app.leave_all)
        finally:
            self.sessions.discard(app)
            del app  # the last reference: the app is freed here
            if self.collector is not None:
                self.collector.session_ended(len(self.sessions))
        if reason is not None:
            self._say(process, f"closing this session: {reason}", error=True)
            return 1
        self._say(process, f"so long, {identity.label}.")
        return 0

    async def _bot_session(self, process: asyncssh.SSHServerProcess[bytes], identity: Identity, args: list[str]) -> int:
        try:
            options = _bot_arguments(args)
        except (ValueError, argparse.ArgumentError) as exc:
            self._say(process, f"bot: {clean_text(str(exc), 200)}\n{_USAGE}", error=True)
            return 2
        client = self.client
        bot = _RemoteBot(identity, process, client)
        reader = asyncio.get_running_loop().create_task(bot.read_lines())
        try:
            seat = options.seat
            if seat is not None and not 0 <= seat < 2**31:
                raise TableError(f"no seat {shown(str(seat))}")
            code = await client.seat_bot(bot, options.table, seat, options.game)
            if code is None and bot.done.done():
                message, status = bot.done.result()
            else:
                message, status = await bot.done
        except TableError as exc:
            message, status = f"bot: {exc}", 2
        except ConnectionError:
            message, status = "bot: the saloon is restarting: try again in a moment", 1
        finally:
            reader.cancel()
            with contextlib.suppress(BaseException):
                await reader
            client.forget(bot)  # the hall lets go of its seat (kept for the bot's grace time)
        if message:
            self._say(process, message, error=status != 0)
        return int(status)

    async def _ladder_session(
        self, process: asyncssh.SSHServerProcess[bytes], identity: Identity, args: list[str]
    ) -> int:
        try:
            game, counts = _ladder_arguments(args)
        except (ValueError, argparse.ArgumentError) as exc:
            self._say(process, f"ladder: {clean_text(str(exc), 200)}\n{_USAGE}", error=True)
            return 2
        client = self.client
        bot = _RemoteBot(identity, process, client)
        reader = asyncio.get_running_loop().create_task(bot.read_lines())
        try:
            try:
                back = await client.ladder.join(bot, game, counts, kind="remote")
            except TableError as exc:
                message, status = f"ladder: {exc}", 1
            except ConnectionError:
                message, status = "ladder: the saloon is restarting: try again in a moment", 1
            else:
                if not back:
                    which = "any number of" if counts is None else ",".join(map(str, counts))
                    bot.note(f"queued for the {engine.game(game).title} ladder ({which} players)")
                message, status = await bot.done
        finally:
            reader.cancel()
            with contextlib.suppress(BaseException):
                await reader
            client.forget(bot)  # out of the queue; its seat, if any, is kept for its grace time
        if message:
            self._say(process, message, error=True)  # stderr: stdout carries only the protocol
        return int(status)

    async def _web_link(self, process: asyncssh.SSHServerProcess[bytes], identity: Identity) -> int:
        """``web``: a one-time sign-in link for the browser page (:meth:`serve.web.WebServer.sign_in_text`)."""
        if self.web is None:
            self._say(process, "this server has no browser page (its operator starts it with --web PORT)", error=True)
            return 1
        status, text = await self.web.sign_in_text(identity, process.get_extra_info("sockname"))
        if process.get_terminal_type():
            text = text.replace("\n", "\r\n")
        (process.stderr if status else process.stdout).write(text.encode())
        return int(status)

    async def _leaderboard(self, process: asyncssh.SSHServerProcess[bytes], args: list[str]) -> int:
        try:
            options = _leaderboard_arguments(args)
        except (ValueError, argparse.ArgumentError) as exc:
            self._say(process, f"leaderboard: {clean_text(str(exc), 200)}\n{_USAGE}", error=True)
            return 2
        rows = await self.client.ladder.standings(options.game)
        if options.json:
            text = json.dumps(leaderboard_json(options.game, rows), indent=1) + "\n"
        else:
            text = leaderboard_text(engine.game(options.game).title, rows)
        if process.get_terminal_type():
            text = text.replace("\n", "\r\n")
        process.stdout.write(text.encode())
        return 0

    async def _replay(self, process: asyncssh.SSHServerProcess[bytes], args: list[str]) -> int:
        try:
            row_id = _replay_arguments(args)
        except (ValueError, argparse.ArgumentError) as exc:
            self._say(process, f"replay: {clean_text(str(exc), 200)}\n{_USAGE}", error=True)
            return 2
        client = self.client
        if isinstance(row_id, str):
            found = (await client.query(what="game", code=row_id)).games
            if not found:
                self._say(process, f"replay: no finished game of table {row_id} on this server", error=True)
                return 2
            row_id = found[0].id
        else:
            found = (await client.query(what="game", number=row_id)).games
            if not found and len(str(row_id)) <= 8:  # an all-digit table code
                found = (await client.query(what="game", code=str(row_id))).games
        if not found:
            self._say(process, f"replay: no finished game {row_id} on this server", error=True)
            return 2
        try:
            data = (await client.query(what="replay", number=found[0].id)).value
        except TableError as exc:
            self._say(process, f"replay: {exc}", error=True)
            return 1
        if data is None:
            self._say(process, f"replay: no finished game {row_id} on this server", error=True)
            return 2
        process.stdout.write(data)
        return 0

    def _sftp(self, chan: asyncssh.SSHServerChannel[bytes]) -> asyncssh.SFTPServer:
        """The replays folder over SFTP: this front reads it from the data directory (a front on
        another machine serves it only where that folder is shared, see ``docs/hall.md``)."""
        root = self.data_dir / "replays"
        login: _Login | None = chan.get_extra_info("saloon_login")
        if login is None:
            return _ReplaysSFTP(chan, root, "not logged in")
        bucket, where, kind, wait = self._connection_refusal(login)
        refusal = self._session_verdict(login, None, "sftp", wait, where, kind, bucket.burst, bucket.per_second)
        server = _ReplaysSFTP(chan, root, refusal, login)
        if refusal is None:  # the address's bucket is the hall's: asked now, every request refused if it says no
            task = asyncio.get_running_loop().create_task(self._sftp_address_check(login, server))
            self._connections.add(task)
            task.add_done_callback(self._connections.discard)
        return server

    async def _sftp_address_check(self, login: _Login, server: _ReplaysSFTP) -> None:
        try:
            wait = await self.client.session_token(login.address)
        except ConnectionError:
            server.refuse_all("the saloon is restarting: try again in a moment")
            return
        if wait:
            burst, per_second = self._address_pace()
            refusal = self._session_verdict(
                login, None, "sftp", wait, f"from {login.address}", "per address", burst, per_second
            )
            server.refuse_all(refusal or "too many sessions")


GC_THRESHOLDS = (2000, 10, 500)
"""The server process's garbage-collector thresholds (Python's defaults are ``(700, 10, 10)``):
young collections stay cheap, and automatic full collections rare (see :class:`Collector`)."""


class Collector:
    """The server's garbage-collector policy: live sessions are frozen, so collections stay short.

    A full collection scans every object the collector tracks: with a hundred sessions that is
    over a million (each lobby screen holds ~12,000), about 0.6 s in which no screen is drawn.
    A closed session needs no collection (:func:`serve.teardown.dismantle` lets reference counting
    free it), so the objects of live sessions need not be scanned either. :attr:`interval_s`
    after a session starts, :meth:`collect` runs a full collection of what is not frozen yet (what
    was made since the last one) and freezes what survives (:func:`gc.freeze`), and the
    collections go on every :attr:`interval_s` until :attr:`settle_s` after the latest start (a
    session's screens are built in about a second). Collecting often keeps each collection small:
    a burst of logins is scanned a slice at a time, not all at once.

    Collecting while sessions are still being built is safe only because a session makes no
    cyclic garbage of its own after it is frozen: Textual's styles-only nodes that a restyle or
    a widget's removal drops are cut at once (:mod:`serve.teardown`), a closed channel's error keeps
    no frames (:func:`serve.ssh_driver._read_input`), and a closed connection's socket transport
    keeps no bound method of itself (:mod:`serve.teardown`). Measured (issue 26, ten
    sessions at once in six waves, each opening the lobby, watching a table, chatting and leaving,
    two more sessions live throughout, the machine busy): with one collection 2 s after the first
    start of a burst, pauses of 105-150 ms and 5,700 objects of closed sessions frozen until a
    sweep; every 0.25 s for 2 s before those three cuts, pauses under 60 ms but 12,000 objects (9
    closed apps) frozen; with them, pauses under 60 ms and nothing frozen that was garbage. With
    100 sessions connecting in waves of ten (``tests/bench/ssh_load.py``): one pause of 106-116 ms
    per run, where the previous policy made five of 108-153 ms; in the soak benchmark's waves,
    median 27 ms and p99 103 ms, where it made 128 and 169 ms. Every 0.1 s was a little shorter
    still (18 and 120 ms) but slowed ten sessions opening a form at once on a busy machine.

    What was frozen is never scanned again, so a cycle that became garbage after it was frozen
    (a closed form's widgets, until their session ends) stays until a *sweep*: :meth:`collect`
    with ``everything``, which unfreezes all first. A sweep scans every live session's objects,
    so it runs only when few sessions are live: when the last one closes, and when a session
    closes leaving at most :attr:`sweep_sessions` live, if the last sweep was
    :attr:`sweep_interval_s` ago or more.

    Args:
        interval_s: seconds between collections while sessions are starting.
        settle_s: seconds after the latest session start during which the collections go on
            (a session's screens are built in about a second).
        sweep_sessions: live sessions at most for a sweep when a session closes.
        sweep_interval_s: seconds at least between two such sweeps.
    """

    def __init__(
        self,
        interval_s: float = 0.25,
        settle_s: float = 2.0,
        sweep_sessions: int = 1,
        sweep_interval_s: float = 60.0,
    ) -> None:
        self.interval_s = interval_s
        self.settle_s = settle_s
        self.sweep_sessions = sweep_sessions
        self.sweep_interval_s = sweep_interval_s
        self.pauses_ms: deque[float] = deque(maxlen=100)
        """How long the latest collections held the event loop, in milliseconds."""
        self._pending: asyncio.TimerHandle | None = None
        self._until = 0.0
        self._swept = -math.inf

    def session_started(self) -> None:
        """A session started: collect and freeze every :attr:`interval_s` for :attr:`settle_s`."""
        loop = asyncio.get_running_loop()
        self._until = loop.time() + self.settle_s
        if self._pending is None:
            self._pending = loop.call_later(self.interval_s, self._paced)

    def session_ended(self, live: int) -> None:
        """A session closed, leaving ``live`` sessions: sweep (:meth:`collect` everything, frozen
        or not) if none is left, or if at most :attr:`sweep_sessions` are and the last sweep was
        :attr:`sweep_interval_s` ago or more."""
        now = asyncio.get_running_loop().time()
        if live == 0 or (live <= self.sweep_sessions and now - self._swept >= self.sweep_interval_s):
            self.collect(everything=True)
            self._swept = asyncio.get_running_loop().time()

    def _paced(self) -> None:
        self._pending = None
        self.collect()
        loop = asyncio.get_running_loop()
        if loop.time() < self._until:
            self._pending = loop.call_later(self.interval_s, self._paced)

    def collect(self, everything: bool = False) -> float:
        """A full collection of the objects not frozen (``everything``: of all), then freeze the rest.

        Returns:
            The pause, in milliseconds (also kept in :attr:`pauses_ms`, and logged: at INFO
            level from 50 ms, at DEBUG level below).
        """
        start = time.perf_counter()
        if everything:
            gc.unfreeze()
        gc.collect()
        gc.freeze()
        pause = (time.perf_counter() - start) * 1000
        self.pauses_ms.append(pause)
        log.log(logging.INFO if pause > 50 else logging.DEBUG, "garbage collection held the server for %.1f ms", pause)
        return pause


async def run_server(server: SaloonServer) -> None:
    """Start ``server`` and run it until SIGINT or SIGTERM, with the garbage-collector policy of
    :class:`Collector` (what is loaded at start-up is frozen at once)."""
    gc.collect()
    gc.freeze()  # what is loaded now (modules, the engine's tables) lives as long as the process
    gc.set_threshold(*GC_THRESHOLDS)
    server.collector = Collector()
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await server.stop()


LOG_MAX_BYTES = 10 * 2**20
"""The default size of a log file of ``saloon serve`` (10 MiB; ``--log-max-mb``)."""

LOG_BACKUPS = 9
"""Old log files kept besides the current one (``--log-backups``): 10 files, 100 MiB, by default."""


def _console(record: logging.LogRecord) -> bool:
    return bool(getattr(record, "console", False))


def start_logging(
    data_dir: Path | str,
    log_file: Path | str | None = None,
    max_bytes: int = LOG_MAX_BYTES,
    backups: int = LOG_BACKUPS,
) -> list[logging.Handler]:
    """Send the server's log (the root logger, at INFO) to a file that is bounded on disk.

    The file is rotated (:class:`logging.handlers.RotatingFileHandler`): when a line would take
    it past ``max_bytes``, it becomes ``saloon.log.1`` (``.1`` becomes ``.2``, ...; the oldest of
    ``backups`` is removed), so the log never takes more than ``max_bytes * (backups + 1)`` bytes
    (a single line longer than ``max_bytes`` may pass it by that line). Every line goes through
    :class:`lobby.logtext.LogFormatter` (printable ASCII only, a message at most 4,000
    characters). The lines logged with ``extra={"console": True}`` (where the server listens,
    where it logs) go to stderr too.

    Args:
        data_dir: the server's data directory.
        log_file: the log file; ``None``: ``DATA/logs/saloon.log``; ``"-"``: stderr, everything,
            unbounded (for a supervisor that keeps and rotates its own logs).
        max_bytes: the size of a file, in bytes (at least 1).
        backups: old files kept (at least 1).

    Returns:
        The handlers added to the root logger, for :func:`stop_logging`.

    Raises:
        OSError: the log's folder cannot be made or its file opened.
        ValueError: ``max_bytes`` or ``backups`` below 1.
    """
    if max_bytes < 1 or backups < 1:
        raise ValueError("the log needs files of at least 1 byte and at least 1 backup")
    formatter = LogFormatter()
    handlers: list[logging.Handler] = []
    if str(log_file) == "-":
        handlers.append(logging.StreamHandler(sys.stderr))
    else:
        path = Path(data_dir) / "logs" / "saloon.log" if log_file is None else Path(log_file)
        path.parent.mkdir(parents=True, exist_ok=True)
        handlers.append(
            logging.handlers.RotatingFileHandler(path, maxBytes=max_bytes, backupCount=backups, encoding="utf-8")
        )
        console = logging.StreamHandler(sys.stderr)
        console.addFilter(_console)
        handlers.append(console)
    root = logging.getLogger()
    for handler in handlers:
        handler.setFormatter(formatter)
        root.addHandler(handler)
    root.setLevel(logging.INFO)
    if str(log_file) != "-":
        log.info(
            "Saloon logs to %s (%d files of %d bytes at most)",
            handlers[0].baseFilename,  # type: ignore[attr-defined]
            backups + 1,
            max_bytes,
            extra={"console": True},
        )
    return handlers


def stop_logging(handlers: Sequence[logging.Handler]) -> None:
    """Remove and close the handlers :func:`start_logging` added."""
    root = logging.getLogger()
    for handler in handlers:
        root.removeHandler(handler)
        handler.close()


def serve(
    host: str = "127.0.0.1",
    port: int = 2222,
    data_dir: Path | str = "saloon-data",
    guest: bool = False,
    grace_s: float = 60.0,
    turn_timer_s: float | None = None,
    bot_delay_s: float = 0.5,
    bots: Mapping[str, str] = DEFAULT_SERVER_BOTS,
    bot_grace_s: float = 5.0,
    ladder_max_wait_s: float = 30.0,
    ladder_connections_per_key: int = 4,
    house_bots: Mapping[str, str] | None = None,
    web_port: int | None = None,
    web_host: str = "127.0.0.1",
    web_public_url: str | None = None,
    trusted_proxies: Sequence[str] = (),
    log_file: Path | str | None = None,
    log_max_bytes: int = LOG_MAX_BYTES,
    log_backups: int = LOG_BACKUPS,
    workers: int = 1,
    hall_listen: str | None = None,
) -> None:
    """Run the saloon until interrupted (what ``saloon serve`` calls): with ``workers`` 1, one
    process (a hall and a front over a socket pair); with more, the hall in this process and
    ``workers`` front processes (:mod:`serve.supervisor`).

    Args:
        host: the address to listen on.
        port: the port.
        data_dir: accounts, the host key and replays.
        guest: let clients without a key play as guests.
        grace_s: seconds a disconnected player keeps the seat before a bot plays for them.
        bot_grace_s: the same for a disconnected remote bot.
        turn_timer_s: seconds a person has per decision (``None``: no timer).
        bot_delay_s: the pause before a visible bot move at tables with people.
        bots: the bots users may seat, offered name -> :func:`bots.make_bot` spec; see :func:`bot_offers`.
        ladder_max_wait_s: the longest a ladder player waits before being seated with whoever
            can make a table (:class:`lobby.matchmaker.MatchPolicy`).
        ladder_connections_per_key: the most ladder connections one account key may hold.
        house_bots: the ladder's house bots, name -> :func:`bots.make_bot` spec (see
            :func:`house_bot_offers`); ``None``: :func:`lobby.tables.default_house_bots`.
        web_port: serve the browser page on this port too (:class:`serve.web.WebServer`); ``None``: no page.
        web_host: the address the browser page listens on.
        web_public_url: the page's URL as people reach it (behind a reverse proxy), for links and origin checks.
        trusted_proxies: the page's reverse proxies (IP addresses or networks): from them the
            client's address is the last ``X-Forwarded-For`` entry (:class:`serve.web.TrustedProxies`).
        log_file: where the log goes (:func:`start_logging`): ``None`` for ``DATA/logs/saloon.log``,
            ``"-"`` for stderr (unbounded).
        log_max_bytes: the size of a log file, in bytes.
        log_backups: old log files kept besides the current one.
        workers: front processes (SSH and browser sessions); 1: everything in this process.
        hall_listen: the hall also accepts fronts of other machines at ``tcp:HOST:PORT`` (``docs/hall.md``).

    Raises:
        ValueError: the page's settings are refused (:class:`serve.web.WebServer`), or the log's.
        OSError: the log file cannot be opened (or the port, as the server starts).
    """
    config = ServerConfig(
        grace_s=grace_s,
        bot_grace_s=bot_grace_s,
        turn_timer_s=turn_timer_s,
        bot_delay_s=bot_delay_s,
        bots=dict(bots),
        ladder_policy=MatchPolicy(max_wait_s=ladder_max_wait_s),
        ladder_connections_per_key=ladder_connections_per_key,
        house_bots=default_house_bots() if house_bots is None else dict(house_bots),
    )
    if workers > 1 or hall_listen:
        _supervise(
            host,
            port,
            data_dir,
            guest,
            config,
            workers,
            hall_listen,
            web_port,
            web_host,
            web_public_url,
            trusted_proxies,
            log_file,
            log_max_bytes,
            log_backups,
        )
        return
    server = SaloonServer(data_dir, host, port, guest=guest, config=config)
    if web_port is not None:
        from serve.web import WebServer

        WebServer(server, web_host, web_port, web_public_url, trusted_proxies=trusted_proxies)
    handlers = start_logging(data_dir, log_file, log_max_bytes, log_backups)
    try:
        asyncio.run(run_server(server))
    finally:
        stop_logging(handlers)


def _supervise(
    host: str,
    port: int,
    data_dir: Path | str,
    guest: bool,
    config: ServerConfig,
    workers: int,
    hall_listen: str | None,
    web_port: int | None,
    web_host: str,
    web_public_url: str | None,
    trusted_proxies: Sequence[str],
    log_file: Path | str | None,
    log_max_bytes: int,
    log_backups: int,
) -> None:
    """``saloon serve --workers N`` (N > 1): the hall here, N fronts in their own processes."""
    from serve.supervisor import Supervisor, free_port, run_supervisor

    data = Path(data_dir)
    data.mkdir(parents=True, exist_ok=True)
    load_host_key(data)  # made once here, not by N fronts at once
    hall_protocol.load_hall_secret(data)
    if web_port is not None:
        from serve.web import load_secret

        load_secret(data)
    if port == 0:
        port = free_port(host)
    if web_port == 0:
        web_port = free_port(web_host)
    front_args = ["--data-dir", str(data), "--host", host, "--port", str(port)]
    if web_port is not None:
        front_args += ["--web", str(web_port), "--web-host", web_host]
        if web_public_url:
            front_args += ["--web-public-url", web_public_url]
        for proxy in trusted_proxies:
            front_args += ["--trusted-proxy", proxy]
    hall = Hall(data, config, guest)
    supervisor = Supervisor(hall, workers, front_args, hall_listen)
    handlers = start_logging(data_dir, log_file, log_max_bytes, log_backups)
    try:
        asyncio.run(run_supervisor(supervisor, host, port, web_port, web_host))
    finally:
        stop_logging(handlers)


def bot_offers(pairs: Sequence[str]) -> dict[str, str]:
    """The bots a server offers: :data:`~lobby.tables.DEFAULT_SERVER_BOTS` plus the operator's ``NAME=SPEC`` pairs.

    ``NAME`` is what users see and choose in the new-table form (an account-style name: a
    lower-case letter, then lower-case letters, digits, ``-`` or ``_``, 24 at most); ``SPEC`` is any
    :func:`bots.make_bot` name (``heuristic``, ``package.module:Class``, ``cmd:COMMAND``). A NAME
    given again replaces the earlier bot of that name, built-in ones included. Each SPEC is made
    once here, so a broken one fails at start-up, not in a user's game.

    Raises:
        ValueError: a pair without ``=``, a bad NAME, or a SPEC that :func:`bots.make_bot` refuses.
    """
    from bots import UnknownBot, make_bot

    offers = dict(DEFAULT_SERVER_BOTS)
    for pair in pairs:
        name, eq, spec = pair.partition("=")
        name, spec = name.strip(), spec.strip()
        if not eq or not spec:
            raise ValueError(f"--bot {pair!r}: expected NAME=SPEC, e.g. --bot strong=mybots.strong:Bot")
        if not valid_name(name):
            raise ValueError(f"--bot {pair!r}: NAME must be {_NAME_HELP}")
        try:
            bot = make_bot(spec, 0)
        except UnknownBot as exc:
            raise ValueError(f"--bot {pair!r}: {exc}") from None
        close = getattr(bot, "close", None)
        if callable(close):
            close()
        offers[name] = spec
    return offers


def house_bot_offers(pairs: Sequence[str]) -> dict[str, str]:
    """The ladder's house bots from ``saloon serve --house-bot`` values: none given, the defaults
    (:func:`lobby.tables.default_house_bots`: ``heuristic`` and ``quick``); ``none`` alone, no house
    bots; else exactly the ``NAME=SPEC`` pairs given (rated as ``house:NAME``). Each SPEC is made
    once here, so a broken one fails at start-up.

    Raises:
        ValueError: ``none`` with other values, a pair without ``=``, a bad NAME, or a SPEC that
            :func:`bots.make_bot` refuses.
    """
    from bots import UnknownBot, make_bot

    if not pairs:
        return default_house_bots()
    if "none" in pairs:
        if len(pairs) > 1:
            raise ValueError("--house-bot none: no other --house-bot with it")
        return {}
    house: dict[str, str] = {}
    for pair in pairs:
        name, eq, spec = pair.partition("=")
        name, spec = name.strip(), spec.strip()
        if not eq or not spec:
            raise ValueError(f"--house-bot {pair!r}: expected NAME=SPEC, e.g. --house-bot heuristic=heuristic")
        if not valid_name(name):
            raise ValueError(f"--house-bot {pair!r}: NAME must be {_NAME_HELP}")
        try:
            bot = make_bot(spec, 0)
        except UnknownBot as exc:
            raise ValueError(f"--house-bot {pair!r}: {exc}") from None
        close = getattr(bot, "close", None)
        if callable(close):
            close()
        house[name] = spec
    return house


def build_parser() -> argparse.ArgumentParser:
    """The ``saloon serve`` arguments."""
    parser = argparse.ArgumentParser(prog="saloon serve", description="the Saloon SSH server")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=2222, help="port (default 2222)")
    parser.add_argument("--data-dir", default="saloon-data", help="accounts, host key, replays (default ./saloon-data)")
    parser.add_argument("--guest", action="store_true", help="let clients without an SSH key play as guests")
    parser.add_argument(
        "--grace",
        type=float,
        default=60.0,
        metavar="S",
        help="seconds before a bot plays for an absent player (default 60)",
    )
    parser.add_argument(
        "--bot-grace",
        type=float,
        default=5.0,
        metavar="S",
        help="seconds before a bot plays for a disconnected remote bot (default 5)",
    )
    parser.add_argument(
        "--turn-timer", type=float, default=None, metavar="S", help="seconds per human decision (default: no timer)"
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.5, metavar="S", help="pause before visible bot moves (default 0.5)"
    )
    parser.add_argument(
        "--ladder-max-wait",
        type=float,
        default=30.0,
        metavar="S",
        help="seconds before a queued ladder player is seated with whoever can make a table (default 30)",
    )
    parser.add_argument(
        "--ladder-connections",
        type=int,
        default=4,
        metavar="N",
        help="ladder connections one account key may hold at once (default 4)",
    )
    parser.add_argument(
        "--house-bot",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help="a house bot on every ladder (repeatable; replaces the default heuristic and quick): it joins "
        "anyone who waited longer than --ladder-max-wait and is rated as house:NAME; 'none' for no house bots",
    )
    parser.add_argument(
        "--web", type=int, default=None, metavar="PORT", help="also serve the lobby to browsers on PORT (default off)"
    )
    parser.add_argument("--web-host", default="127.0.0.1", help="address of the browser page (default 127.0.0.1)")
    parser.add_argument(
        "--web-public-url",
        default=None,
        metavar="URL",
        help="the page's URL as people reach it, behind a reverse proxy (e.g. https://saloon.example.org); "
        "required when --web-host is not a loopback address",
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy of the browser page, an IP address or network (repeatable; default none): "
        "from it the client's address is the last X-Forwarded-For entry; from any other peer the header is ignored",
    )
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help="offer another bot to users under NAME (repeatable); SPEC is any bot name of saloon play "
        "(package.module:Class, cmd:COMMAND). Users only ever choose by NAME. Default offer: "
        + ", ".join(DEFAULT_SERVER_BOTS),
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="front processes serving SSH and browser sessions (default: this machine's cores); "
        "1 runs everything in one process",
    )
    parser.add_argument(
        "--hall-listen",
        default=None,
        metavar="tcp:HOST:PORT",
        help="also let fronts on other machines reach the hall here (through an SSH tunnel or TLS: docs/hall.md)",
    )
    parser.add_argument(
        "--log-file",
        default=None,
        metavar="PATH",
        help="the server's log (default DATA/logs/saloon.log, rotated); '-' for stderr, not rotated (unbounded)",
    )
    parser.add_argument(
        "--log-max-mb",
        type=float,
        default=LOG_MAX_BYTES / 2**20,
        metavar="MB",
        help=f"size of a log file in MiB before it is rotated (default {LOG_MAX_BYTES / 2**20:g})",
    )
    parser.add_argument(
        "--log-backups",
        type=int,
        default=LOG_BACKUPS,
        metavar="N",
        help=f"old log files kept besides the current one (default {LOG_BACKUPS}: "
        f"{(LOG_BACKUPS + 1) * LOG_MAX_BYTES // 2**20} MiB in all)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``saloon serve [--host H] [--port P] [--data-dir DIR] [--guest] [--grace S] [--bot-grace S] ...``.

    The rest: ``[--turn-timer S] [--bot-delay S] [--ladder-max-wait S] [--ladder-connections N]
    [--house-bot NAME=SPEC|none] [--web PORT] [--web-host H] [--web-public-url URL]
    [--trusted-proxy ADDRESS] [--bot NAME=SPEC] [--log-file PATH|-] [--log-max-mb MB] [--log-backups N]``
    (see :func:`build_parser`). Start-up errors go to stderr; so do the lines saying where the
    server listens and logs; the rest of the log goes to the log file (:func:`start_logging`).

    Returns:
        The exit code (2 for bad arguments or a port that cannot be opened).
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if (
        not 0 <= args.port <= 65535
        or args.grace < 0
        or args.bot_grace < 0
        or (args.turn_timer is not None and args.turn_timer <= 0)
    ):
        print("saloon serve: bad --port, --grace, --bot-grace or --turn-timer", file=sys.stderr)
        return 2
    if args.ladder_max_wait < 0 or args.ladder_connections < 1:
        print("saloon serve: bad --ladder-max-wait or --ladder-connections", file=sys.stderr)
        return 2
    log_max_bytes = int(args.log_max_mb * 2**20) if math.isfinite(args.log_max_mb) else 0
    if log_max_bytes < 1024 or args.log_backups < 1:
        print("saloon serve: bad --log-max-mb (at least 1 KiB) or --log-backups (at least 1)", file=sys.stderr)
        return 2
    if args.workers < 1:
        print("saloon serve: bad --workers (at least 1)", file=sys.stderr)
        return 2
    if args.hall_listen is not None:
        from serve.hall import parse_address

        try:
            if parse_address(args.hall_listen)[0] != "tcp":
                raise ValueError("--hall-listen takes tcp:HOST:PORT")
        except ValueError as exc:
            print(f"saloon serve: {exc}", file=sys.stderr)
            return 2
    if args.web is not None and not 0 <= args.web <= 65535:
        print("saloon serve: bad --web PORT", file=sys.stderr)
        return 2
    if args.web_public_url is not None:
        from serve.web import check_public_url

        try:
            check_public_url(args.web_public_url)
        except ValueError as exc:
            print(f"saloon serve: --web-public-url: {exc}", file=sys.stderr)
            return 2
    if args.web is not None or args.trusted_proxy:
        from serve.web import check_web_host, parse_trusted_proxy

        try:
            if args.web is not None:
                check_web_host(args.web_host, args.web_public_url)
            for proxy in args.trusted_proxy:
                parse_trusted_proxy(proxy)
        except ValueError as exc:
            print(f"saloon serve: {exc}", file=sys.stderr)
            return 2
    try:
        offers = bot_offers(args.bot)
        house = house_bot_offers(args.house_bot)
    except ValueError as exc:
        print(f"saloon serve: {exc}", file=sys.stderr)
        return 2
    try:
        serve(
            args.host,
            args.port,
            args.data_dir,
            args.guest,
            args.grace,
            args.turn_timer,
            args.bot_delay,
            offers,
            bot_grace_s=args.bot_grace,
            ladder_max_wait_s=args.ladder_max_wait,
            ladder_connections_per_key=args.ladder_connections,
            house_bots=house,
            web_port=args.web,
            web_host=args.web_host,
            web_public_url=args.web_public_url,
            trusted_proxies=args.trusted_proxy,
            log_file=args.log_file,
            log_max_bytes=log_max_bytes,
            log_backups=args.log_backups,
            workers=args.workers,
            hall_listen=args.hall_listen,
        )
    except OSError as exc:
        print(f"saloon serve: {exc}", file=sys.stderr)
        return 2
    return 0
