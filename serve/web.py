"""Saloon in a web browser: an HTTP page and a websocket per visitor, beside the SSH server.

``saloon serve --web PORT`` makes a :class:`WebServer` that listens in the SSH server's process
and event loop (aiohttp) and runs, for each websocket, the same Textual app as an SSH session
(:class:`tui.lobby_screen.SSHApp`, through :func:`serve.web_driver.run_web_app`) against the same lobby,
tables, ladder and store: browser and SSH players sit at the same tables.

Routes::

    GET  /             the terminal page (signed in), or the sign-in page
    GET  /signin       reads a one-time token from the link's #fragment and posts it (script)
    POST /signin       token=TOKEN: redeems it, sets the session cookie, redirects to /
    POST /guest        name=NAME: a guest session (only with --guest)
    POST /signout      forgets the session cookie
    GET  /ws           the terminal's websocket (textual.js's protocol, see serve.web_driver)
    GET  /terminal.js  focuses the terminal as the page loads, so keys reach the game at once
    GET  /static/...   textual-serve's page assets (textual.js, xterm.css, fonts), from the
                       installed package

Identity (no password store): an SSH player runs ``ssh -p P NAME@HOST web`` and gets a link
``BASE/signin#TOKEN``. The token is 32 random bytes, lives :attr:`WebConfig.token_ttl_s` and
works once; it is in the link's fragment, which browsers never send, and the page posts it in a
request body, so it never appears in a request line (nor in this server's or a proxy's access
log); the server keeps only its SHA-256. Redeeming it sets a session cookie (``HttpOnly``,
``SameSite=Strict``, ``Secure`` behind https, expiring after :attr:`WebConfig.cookie_ttl_s`)
holding the account name and key fingerprint, signed with HMAC-SHA256 by a secret made once in
``DATA/web_secret``. The browser session is then the SSH key's: it takes back that key's seats.
With ``--guest``, a visitor may instead pick a guest name (not an account's).

Cross-site requests are refused: the websocket and every POST must carry an ``Origin`` equal to
the public URL's origin (``--web-public-url``) or, without one, to ``http://`` + the request's
``Host``, and then only a ``Host`` that is an IP address or ``localhost`` (a DNS-rebinding page is
served under a name of its own). A page on an address other than a loopback one needs a public
URL (:func:`check_web_host`). New websockets are counted per address by the SSH server's
:class:`serve.ssh_server.RateLimiter` (the same budget as SSH connections); sign-in and guest requests
have a token bucket of their own. The client's address is the peer's, or, when the peer is one of
the operator's trusted proxies (``--trusted-proxy``, none by default), the last entry of
``X-Forwarded-For`` (:class:`TrustedProxies`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import html
import ipaddress
import json
import logging
import secrets
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from aiohttp import web

from lobby.client import HallClient
from lobby.logtext import loggable
from lobby.protocol import secret_file
from lobby.store import valid_name
from lobby.tables import Identity
from serve.ssh_driver import InputBudget
from serve.web_driver import MAX_MESSAGE_BYTES

__all__ = [
    "COOKIE_NAME",
    "AddressBuckets",
    "Host",
    "Limiter",
    "SessionCookies",
    "SignInTokens",
    "TrustedProxies",
    "WebConfig",
    "WebServer",
    "check_public_url",
    "check_web_host",
    "load_secret",
    "origin_of",
    "parse_trusted_proxy",
]

log = logging.getLogger("saloon.web")

COOKIE_NAME = "saloon_session"
"""The session cookie's name."""

_MAX_BODY_BYTES = 4096
"""The largest request body the server reads (a sign-in or guest form)."""


@dataclass(frozen=True)
class WebConfig:
    """How the browser page behaves.

    Attributes:
        token_ttl_s: how long a sign-in link works, in seconds (once).
        cookie_ttl_s: how long a browser stays signed in, in seconds.
        max_tokens: sign-in tokens outstanding on the server at once (the oldest are dropped).
        max_tokens_per_account: sign-in tokens outstanding per account (the oldest are dropped).
        signin_burst: sign-in and guest requests an address may make at once ...
        signin_per_s: ... and how fast that allowance refills (per second).
        heartbeat_s: seconds between websocket pings (a page that stops answering is closed).
    """

    token_ttl_s: float = 300.0
    cookie_ttl_s: float = 7 * 24 * 3600.0
    max_tokens: int = 10_000
    max_tokens_per_account: int = 5
    signin_burst: int = 10
    signin_per_s: float = 0.2
    heartbeat_s: float = 30.0


class Limiter(Protocol):
    """Per-address connection limits (:class:`serve.ssh_server.RateLimiter`)."""

    def admit(self, address: str) -> str | None:
        """Count a new connection from ``address``; why it is refused, or ``None``."""

    def done(self, address: str) -> None:
        """An admitted connection from ``address`` closed."""


class Throttle(Protocol):
    """At most one log line per key and interval (:class:`serve.ssh_server.LogThrottle`)."""

    def allow(self, key: str) -> int | None:
        """``None``: leave the line out; else how many lines of ``key`` were left out before it."""

    def more(self, count: int) -> str:
        """What a logged line adds for ``count`` lines left out before it."""


class Host(Protocol):
    """What the page needs of the SSH server it runs beside (:class:`serve.ssh_server.SaloonServer`):
    its connection to the hall (accounts, sign-in tokens, limits and the lobby are the hall's, so
    they hold across every front)."""

    data_dir: Path
    port: int
    guest: bool
    client: HallClient
    log_throttle: Throttle
    sessions: set[Any]
    collector: Any
    web: Any


class AddressBuckets:
    """A token bucket per client address (sign-in and guest requests): ``burst`` at once, then
    ``per_s`` a second.

    Args:
        burst: requests an address may make at once (> 0).
        per_s: how fast its allowance refills, per second (> 0).
    """

    def __init__(self, burst: int, per_s: float) -> None:
        self.burst = burst
        self.per_s = per_s
        self._buckets: dict[str, InputBudget] = {}

    def admit(self, address: str) -> str | None:
        """Count a request from ``address``; returns why it is refused, or ``None`` if admitted."""
        if len(self._buckets) > 10_000:
            self._buckets.clear()  # forgets every allowance: at worst, a burst more for each address
        bucket = self._buckets.setdefault(address, InputBudget(self.per_s, self.burst))
        wait = bucket.spend(1)
        if wait > 0:
            bucket.spend(-1)  # a refused request costs nothing
            return f"too many sign-in attempts from {address}; wait {max(1, round(wait))} s"
        return None


def load_secret(data_dir: Path) -> bytes:
    """The cookie-signing secret from ``DATA/web_secret`` (32 bytes), made (mode 0600) on first use
    (:func:`lobby.protocol.secret_file`).

    Raises:
        ValueError: the file holds fewer than 32 bytes.
    """
    return secret_file(data_dir / "web_secret")


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class SignInTokens:
    """One-time sign-in tokens: each is issued for an account's key, lives ``ttl_s`` and works once.

    Only each token's SHA-256 is kept (a memory dump or a log of this object reveals no token).

    Args:
        ttl_s: seconds a token works.
        max_tokens: tokens kept at once (the oldest are dropped beyond it).
        per_account: tokens kept per account name (its oldest are dropped beyond it).
        clock: seconds, monotonic (for tests).
    """

    def __init__(
        self, ttl_s: float = 300.0, max_tokens: int = 10_000, per_account: int = 5, clock: Any = time.monotonic
    ) -> None:
        self.ttl_s = ttl_s
        self.max_tokens = max_tokens
        self.per_account = per_account
        self._clock = clock
        self._tokens: dict[str, tuple[str, str, float]] = {}  # digest -> (name, key, expires); oldest first

    def __len__(self) -> int:
        return len(self._tokens)

    def issue(self, name: str, key: str, ttl_s: float | None = None) -> str:
        """A new token for account ``name`` holding the key with fingerprint ``key``, working for
        ``ttl_s`` seconds (``None``: :attr:`ttl_s`).

        Returns:
            The token: 43 URL-safe characters (32 random bytes).
        """
        now = self._clock()
        for digest, (_, _, expires) in list(self._tokens.items()):
            if expires <= now:
                del self._tokens[digest]
        mine = [digest for digest, (owner, _, _) in self._tokens.items() if owner == name]
        for digest in mine[: max(0, len(mine) - self.per_account + 1)]:
            del self._tokens[digest]
        while len(self._tokens) >= self.max_tokens:
            del self._tokens[next(iter(self._tokens))]
        token = secrets.token_urlsafe(32)
        self._tokens[_digest(token)] = (name, key, now + (self.ttl_s if ttl_s is None else ttl_s))
        return token

    def redeem(self, token: str) -> tuple[str, str] | None:
        """Use ``token`` up: ``(name, key)`` if it was issued and has not expired, else ``None``.

        A token is gone after this call whatever it returns: it never works twice.
        """
        if not token or len(token) > 100:
            return None
        entry = self._tokens.pop(_digest(token), None)
        if entry is None or entry[2] <= self._clock():
            return None
        return entry[0], entry[1]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SessionCookies:
    """Signed, expiring session cookies: ``v1.PAYLOAD.MAC`` (base64url; HMAC-SHA256 over ``v1.PAYLOAD``).

    The payload is JSON ``{"n": name, "k": key, "g": guest, "x": expiry}`` (expiry in Unix seconds).

    Args:
        secret: the signing secret (32 bytes or more).
        ttl_s: how long a cookie is valid, in seconds.
        clock: Unix time, seconds (for tests).
    """

    def __init__(self, secret: bytes, ttl_s: float, clock: Any = time.time) -> None:
        self._secret = secret
        self.ttl_s = ttl_s
        self._clock = clock

    def _mac(self, signed: str) -> str:
        return _b64(hmac.new(self._secret, signed.encode(), hashlib.sha256).digest())

    def make(self, name: str, key: str, guest: bool) -> str:
        """The cookie value for ``name`` (an account with key fingerprint ``key``, or a guest)."""
        payload = {"n": name, "k": key, "g": guest, "x": int(self._clock() + self.ttl_s)}
        signed = "v1." + _b64(json.dumps(payload, separators=(",", ":")).encode())
        return f"{signed}.{self._mac(signed)}"

    def read(self, value: str | None) -> tuple[str, str, bool] | None:
        """``(name, key, guest)`` from a cookie value, or ``None`` if it is absent, forged, malformed or expired."""
        if not value or len(value) > 1000:
            return None
        signed, _, mac = value.rpartition(".")
        if not signed.startswith("v1.") or not hmac.compare_digest(mac, self._mac(signed)):
            return None
        try:
            payload = json.loads(_unb64(signed[3:]))
            name, key, guest, expiry = payload["n"], payload["k"], payload["g"], payload["x"]
        except (ValueError, TypeError, KeyError):
            return None
        if not (isinstance(name, str) and isinstance(key, str) and isinstance(guest, bool)):
            return None
        if not isinstance(expiry, int) or expiry <= self._clock() or not valid_name(name):
            return None
        return name, key, guest


def origin_of(url: str) -> str:
    """The origin (``scheme://host[:port]``, lower case, default port left out) of an http(s) URL.

    Raises:
        ValueError: not an ``http://`` or ``https://`` URL with a host.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) URL with a host: {url!r}")
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    default = 80 if parts.scheme == "http" else 443
    port = "" if parts.port in (None, default) else f":{parts.port}"
    return f"{parts.scheme}://{host}{port}"


def check_public_url(url: str) -> str:
    """``url`` as the page's public URL: ``http(s)://HOST[:PORT]`` with no path, query or fragment
    (the page's routes are at the root of its host); returned without a trailing ``/``.

    Raises:
        ValueError: not such a URL.
    """
    origin_of(url)
    parts = urlsplit(url.strip())
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError(f"the public URL must be the root of its host, like https://saloon.example.org: {url!r}")
    return url.strip().rstrip("/")


def check_web_host(host: str, public_url: str | None) -> None:
    """Refuse a page that listens beyond this machine without a public URL.

    Without ``--web-public-url`` the origin check compares ``Origin`` with the request's own
    ``Host``, which the client chooses; that is only safe for a page that nobody else can reach.

    Args:
        host: the address the page listens on (``""``, ``0.0.0.0`` and ``::`` are every address).
        public_url: the page's public URL, or ``None``.

    Raises:
        ValueError: ``host`` is not ``localhost`` or a loopback address and ``public_url`` is ``None``.
    """
    if public_url or _is_loopback_name(host):
        return
    raise ValueError(
        f"a browser page on {host or 'every address'!r} needs --web-public-url (the URL people reach it at, "
        "e.g. https://saloon.example.org): without it only a page on a loopback address (127.0.0.1, ::1, "
        "localhost) is safe from cross-site requests under a forged Host"
    )


def _is_loopback_name(host: str) -> bool:
    """Whether ``host`` (a host name or an IP address, IPv6 with or without brackets) is this machine only."""
    host = host.strip().lower().removeprefix("[").removesuffix("]")
    if host == "localhost":
        return True
    address = _ip(host)
    return address is not None and address.is_loopback


Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _ip(text: str) -> Address | None:
    """``text`` as an IP address (an IPv6 zone ``%eth0`` dropped, IPv4-mapped IPv6 as IPv4), or ``None``."""
    try:
        address = ipaddress.ip_address(text.strip().split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def parse_trusted_proxy(text: str) -> Network:
    """One ``--trusted-proxy`` value: an IP address (``127.0.0.1``, ``::1``) or a network
    (``10.0.0.0/8``, ``fd00::/8``).

    Raises:
        ValueError: neither, or a network with host bits set (``10.1.2.3/8``).
    """
    try:
        return ipaddress.ip_network(text.strip())
    except ValueError as exc:
        raise ValueError(f"--trusted-proxy {text!r}: not an IP address or network ({exc})") from None


class TrustedProxies:
    """Which direct peers may say who the client is, in ``X-Forwarded-For``.

    A peer that is not one of them (every peer, by default) is the client: its header is ignored,
    so a process that connects directly cannot pick the address its connections are counted
    under. From a trusted proxy, the client is the **last** entry of ``X-Forwarded-For`` (every
    header of that name, joined by commas): what the proxy itself appended, as Caddy and nginx's
    ``$proxy_add_x_forwarded_for`` do; entries before it are whatever the client sent. It is
    returned in its canonical form (``::ffff:1.2.3.4`` is ``1.2.3.4``, IPv6 compressed), so that
    one address has one spelling. A trusted proxy's request without the header, or whose last
    entry is not an IP address (a proxy that does not append one), counts as the proxy's own
    address: every such request shares the proxy's per-address limits, and the first one is
    logged as a warning.

    Args:
        proxies: ``--trusted-proxy`` values (:func:`parse_trusted_proxy`).

    Raises:
        ValueError: a value that is not an IP address or network.
    """

    def __init__(self, proxies: Iterable[str] = ()) -> None:
        self.networks: tuple[Network, ...] = tuple(parse_trusted_proxy(text) for text in proxies)
        self._warned = False

    def __bool__(self) -> bool:
        return bool(self.networks)

    def trusts(self, peer: str) -> bool:
        """Whether the peer address ``peer`` is one of the trusted proxies."""
        address = _ip(peer)
        return address is not None and any(address in network for network in self.networks)

    def client_address(self, peer: str, forwarded: Sequence[str] = ()) -> str:
        """The client's address for a request.

        Args:
            peer: the direct peer's address (as the socket gives it).
            forwarded: the request's ``X-Forwarded-For`` header values, in order.

        Returns:
            ``peer``, or from a trusted proxy the last forwarded entry (canonical), as described above.
        """
        if not self.networks or not self.trusts(peer):
            return peer
        entries = ",".join(forwarded)
        if not entries.strip():
            return peer
        last = entries.rsplit(",", 1)[-1]
        address = _ip(last)
        if address is None:
            if not self._warned:
                self._warned = True
                log.warning(
                    "trusted proxy %s sent an X-Forwarded-For that does not end in an IP address (%.60r): "
                    "counting its requests under its own address",
                    peer,
                    last.strip(),
                )
            return peer
        return str(address)


_TRUSTED_PROXIES = web.AppKey("trusted_proxies", TrustedProxies)


def _client_address(request: web.Request) -> str:
    """The client's address: the peer's, or from a trusted proxy the last ``X-Forwarded-For`` entry
    (:meth:`TrustedProxies.client_address`)."""
    peer = request.remote or ""
    proxies = request.app.get(_TRUSTED_PROXIES)
    if not proxies:
        return peer
    return proxies.client_address(peer, request.headers.getall("X-Forwarded-For", ()))


_CSS = """\
@font-face { font-family: "Roboto Mono"; font-weight: 100 700; font-display: block;
  src: url("/static/fonts/RobotoMono-VariableFont_wght.ttf") format("truetype"); }
html, body { margin: 0; height: 100%; background: #0c181f; color: rgba(255,255,255,0.92);
  font-family: "Roboto Mono", menlo, monospace; }
#terminal { position: absolute; inset: 0; }
.dialog { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center;
  z-index: 10; background: #0c181f; }
.box { max-width: 44rem; padding: 2rem; background: #12232d; line-height: 1.5; }
.box code { background: #0c181f; padding: 0.1rem 0.3rem; }
.box input { font: inherit; padding: 0.3rem; margin: 0.3rem 0; }
.box button, .box a.button { font: inherit; padding: 0.5rem 1.2rem; background: #5e0ba7; color: #fff;
  border: none; cursor: pointer; text-decoration: none; display: inline-block; }
body.-first-byte .intro { display: none; }
.closed { display: none; }
body.-closed .closed { display: flex; }
"""

_SIGNIN_JS = """\
(function () {
  var token = window.location.hash.slice(1);
  history.replaceState(null, "", window.location.pathname);
  if (token) {
    document.getElementById("token").value = token;
    document.getElementById("signin").submit();
  }
})();
"""

_TERMINAL_JS = """\
// Keys reach the game from the start: focus the terminal's input as soon as xterm.js has made it
// (a new page, a reconnect), and again whenever the window comes back to the front.
(function () {
  function focusTerminal() {
    var input = document.querySelector("#terminal .xterm-helper-textarea");
    if (input && document.activeElement !== input) {
      input.focus({ preventScroll: true });
    }
    return Boolean(input);
  }
  var tries = 0;
  var timer = setInterval(function () {
    if (focusTerminal() || ++tries > 300) {
      clearInterval(timer);
    }
  }, 100);
  window.addEventListener("focus", focusTerminal);
})();
"""

_HEADERS = {
    "Referrer-Policy": "same-origin",  # not "no-referrer": Chromium then sends "Origin: null" on form posts
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


class WebServer:
    """The browser transport of a :class:`serve.ssh_server.SaloonServer`: the page, sign-in and websockets.

    Making one attaches it to ``server`` (``server.web``): the SSH server starts it after its own
    start and stops it first in its stop, and answers ``ssh ... web`` with its links.

    Args:
        server: the SSH server whose lobby, store, limits and guest setting are used.
        host: the address to listen on.
        port: the port (0: any free port; read :attr:`port` after :meth:`start`).
        public_url: the URL people reach the page at (behind a reverse proxy, e.g.
            ``https://saloon.example.org``): links and the websocket's origin check use it.
            ``None``: ``http://HOST:PORT``, the host being the one the SSH client reached when
            ``host`` is a wildcard address; only for a ``host`` that is loopback (:func:`check_web_host`).
        config: tokens, cookies and limits.
        trusted_proxies: the peers (IP addresses or networks, ``--trusted-proxy``) whose
            ``X-Forwarded-For`` names the client (:class:`TrustedProxies`); none by default.

    Raises:
        ValueError: ``public_url`` is not an ``http(s)://`` URL with a host and no path (:func:`check_public_url`),
            ``host`` is not loopback and there is no ``public_url`` (:func:`check_web_host`), or a
            trusted proxy is not an IP address or network (:func:`parse_trusted_proxy`).
    """

    def __init__(
        self,
        server: Host,
        host: str = "127.0.0.1",
        port: int = 8080,
        public_url: str | None = None,
        config: WebConfig | None = None,
        trusted_proxies: Iterable[str] = (),
    ) -> None:
        check_web_host(host, public_url)
        self.server = server
        self.host = host
        self.port = port
        self.trusted_proxies = TrustedProxies(trusted_proxies)
        self.public_url = check_public_url(public_url) if public_url else None
        self.public_origin = origin_of(self.public_url) if self.public_url else None
        self.config = config or WebConfig()
        self.signin_limiter = AddressBuckets(self.config.signin_burst, self.config.signin_per_s)
        self.cookies: SessionCookies | None = None  # made in start() (the secret is in the data directory)
        self.websockets: set[web.WebSocketResponse] = set()
        self.reuse_port = False
        """Listen with ``SO_REUSEPORT`` (every front of a saloon binds the same page's port)."""
        self._runner: web.AppRunner | None = None
        self._static = Path(str(resources.files("textual_serve") / "static"))
        server.web = self

    # Running ----------------------------------------------------------------------------------

    def make_app(self) -> web.Application:
        """The aiohttp application (routes as in the module's docstring)."""
        app = web.Application(client_max_size=_MAX_BODY_BYTES)
        app[_TRUSTED_PROXIES] = self.trusted_proxies
        app.add_routes(
            [
                web.get("/", self._index),
                web.get("/signin", self._signin_page),
                web.post("/signin", self._signin),
                web.post("/guest", self._guest),
                web.post("/signout", self._signout),
                web.get("/ws", self._websocket),
                web.get("/saloon.css", self._css),
                web.get("/signin.js", self._signin_js),
                web.get("/terminal.js", self._terminal_js),
                web.get("/favicon.ico", self._no_icon),
                web.static("/static", self._static, show_index=False, follow_symlinks=False),
            ]
        )
        return app

    async def start(self) -> None:
        """Start listening (the SSH server's lobby and store must be open).

        Raises:
            OSError: the address cannot be listened on.
        """
        self.cookies = SessionCookies(load_secret(self.server.data_dir), self.config.cookie_ttl_s)
        runner = web.AppRunner(self.make_app(), access_log=None, handle_signals=False, shutdown_timeout=5)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port, backlog=256, reuse_port=self.reuse_port or None)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        if sockets:
            self.port = sockets[0].getsockname()[1]
        log.info(
            "Saloon's browser page on %s port %d (%s)",
            self.host,
            self.port,
            self.public_url or "no public URL",
            extra={"console": True},
        )

    async def stop(self) -> None:
        """Close every websocket (their sessions end as if the page left) and stop listening."""
        for ws in list(self.websockets):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=1001, message=b"the server is stopping"), 5)
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    # Links ------------------------------------------------------------------------------------

    def base_url(self, reached: Any = None) -> str:
        """The page's URL (no trailing ``/``): the public URL, or ``http://HOST:PORT``.

        Args:
            reached: the SSH connection's local address (``sockname``: ``(host, port, ...)``),
                used for HOST when this server listens on a wildcard address.
        """
        if self.public_url:
            return self.public_url
        host = self.host
        if host in ("", "0.0.0.0", "::") and reached:
            host = str(reached[0])
        if ":" in host:
            host = f"[{host.split('%', 1)[0]}]"
        return f"http://{host}:{self.port}"

    async def sign_in_text(self, identity: Identity, reached: Any = None) -> tuple[int, str]:
        """What ``ssh ... web`` answers: ``(exit status, text)``; a link with a new one-time token for an account.

        The token is not logged (only that a link was issued, and to whom).
        """
        base = self.base_url(reached)
        if identity.guest:
            if self.server.guest:
                return 0, f"Guests need no link: open {base}/ and choose a guest name.\n"
            return 1, "Sign-in links are for registered accounts: connect with your SSH key.\n"
        token = await self.server.client.issue_link(identity.name, identity.key, self.config.token_ttl_s)
        log.info("sign-in link issued for %s", identity.name)
        minutes = max(1, round(self.config.token_ttl_s / 60))
        return 0, (
            f"Open this link in your browser within {minutes} minute{'s' if minutes != 1 else ''}; it works once:\n"
            f"  {base}/signin#{token}\n"
        )

    # Checks -----------------------------------------------------------------------------------

    def origin_allowed(self, request: web.Request) -> bool:
        """True if ``request`` comes from this server's own page: its ``Origin`` is the public URL's
        origin, or (without a public URL) ``http://`` + its ``Host``, a ``Host`` that is an IP
        address or ``localhost``. A request without ``Origin`` is refused.

        Without a public URL the page is on a loopback address (:func:`check_web_host`), and the
        browser reaches it by its address or ``localhost``, as the sign-in links say; a ``Host``
        that is any other name is a page served by DNS rebinding (a name of the attacker's that
        now resolves to 127.0.0.1), whose own origin would match it."""
        origin = request.headers.get("Origin")
        if not origin:
            return False
        try:
            origin = origin_of(origin)
        except ValueError:
            return False
        if self.public_origin is not None:
            return origin == self.public_origin
        host = request.headers.get("Host", "")
        try:
            own = origin_of(f"http://{host}") if host else ""
        except ValueError:
            return False
        name = urlsplit(own).hostname or ""
        return bool(own) and origin == own and (name == "localhost" or _ip(name) is not None)

    async def identity_of(self, request: web.Request) -> Identity | None:
        """Who the request's session cookie says it is (``None``: no valid cookie, or an account key
        no longer registered to the name)."""
        if self.cookies is None:
            return None
        found = self.cookies.read(request.cookies.get(COOKIE_NAME))
        if found is None:
            return None
        name, key, guest = found
        try:
            return await self.server.client.account(name, key, guest, _client_address(request))
        except ConnectionError:
            return None

    def _limited(self, request: web.Request) -> str | None:
        return self.signin_limiter.admit(_client_address(request))

    # Pages ------------------------------------------------------------------------------------

    def _page(self, title: str, body: str, status: int = 200, ws_origin: str = "") -> web.Response:
        connect = f" {ws_origin}" if ws_origin else ""
        text = (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(title)}</title>"
            '<link rel="stylesheet" href="/static/css/xterm.css"><link rel="stylesheet" href="/saloon.css">'
            f"</head>\n<body>\n{body}\n</body></html>\n"
        )
        headers = dict(_HEADERS)
        headers["Content-Security-Policy"] = (
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
            f"font-src 'self'; connect-src 'self'{connect}; frame-ancestors 'none'; base-uri 'none'; "
            "form-action 'self'"
        )
        return web.Response(text=text, status=status, content_type="text/html", headers=headers)

    def _signin_body(self, request: web.Request, message: str = "") -> str:
        port = self.server.port
        ssh_host = urlsplit(self.base_url()).hostname or "HOST"
        guest = ""
        if self.server.guest:
            guest = (
                '<form method="post" action="/guest"><p>Or play as a guest: '
                '<input name="name" maxlength="24" pattern="[a-z][a-z0-9_\\-]{0,23}" required '
                'placeholder="name" autocomplete="off"> <button type="submit">Play as a guest</button></p></form>'
            )
        note = f'<p class="note">{html.escape(message)}</p>' if message else ""
        return (
            '<div class="dialog"><div class="box"><h1>Saloon</h1>'
            f"{note}"
            "<p>Players sign in with a one-time link. In a terminal with your SSH key, run</p>"
            f"<p><code>ssh -p {port} NAME@{html.escape(ssh_host)} web</code></p>"
            "<p>and open the link it prints (it works once, for a few minutes).</p>"
            f"{guest}</div></div>"
        )

    async def _index(self, request: web.Request) -> web.Response:
        identity = await self.identity_of(request)
        if identity is None:
            return self._page("Saloon: sign in", self._signin_body(request))
        try:
            origin = origin_of(self.public_url or f"http://{request.host}")
        except ValueError:
            return web.Response(status=400, text="bad Host header\n")
        ws_origin = ("wss:" if origin.startswith("https:") else "ws:") + origin.split(":", 1)[1]
        ws_url = f"{ws_origin}/ws"
        body = (
            '<div class="dialog intro"><div class="box">Saloon: connecting as '
            f"{html.escape(identity.label)}…</div></div>"
            '<div class="dialog closed"><div class="box"><p>Session ended.</p>'
            '<p><a class="button" href="/">Reconnect</a></p>'
            '<form method="post" action="/signout"><button type="submit">Sign out</button></form></div></div>'
            f'<div id="terminal" class="textual-terminal" data-session-websocket-url="{html.escape(ws_url)}" '
            'data-font-size="16"></div><script src="/static/js/textual.js"></script>'
            '<script src="/terminal.js"></script>'
        )
        return self._page("Saloon", body, ws_origin=ws_origin)

    async def _signin_page(self, request: web.Request) -> web.Response:
        body = (
            '<div class="dialog"><div class="box"><h1>Saloon</h1>'
            '<form id="signin" method="post" action="/signin"><p>Signing in… If nothing happens, paste '
            'the token (what follows # in your link): <input id="token" name="token" autocomplete="off" '
            'maxlength="100"> <button type="submit">Sign in</button></p></form></div></div>'
            '<script src="/signin.js"></script>'
        )
        return self._page("Saloon: signing in", body)

    async def _css(self, request: web.Request) -> web.Response:
        return web.Response(text=_CSS, content_type="text/css", headers={"Cache-Control": "max-age=3600"})

    async def _signin_js(self, request: web.Request) -> web.Response:
        return web.Response(
            text=_SIGNIN_JS, content_type="application/javascript", headers={"Cache-Control": "max-age=3600"}
        )

    async def _terminal_js(self, request: web.Request) -> web.Response:
        return web.Response(
            text=_TERMINAL_JS, content_type="application/javascript", headers={"Cache-Control": "max-age=3600"}
        )

    async def _no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204, headers={"Cache-Control": "max-age=86400"})

    def _signed_in(self, request: web.Request, name: str, key: str, guest: bool) -> web.Response:
        assert self.cookies is not None
        response = web.Response(status=303, headers={**_HEADERS, "Location": "/"})
        response.set_cookie(
            COOKIE_NAME,
            self.cookies.make(name, key, guest),
            max_age=int(self.config.cookie_ttl_s),
            path="/",
            httponly=True,
            samesite="Strict",
            secure=bool(self.public_url and self.public_url.startswith("https:")),
        )
        return response

    def _log_refusal(self, address: str, kind: str, message: str, *args: object) -> None:
        """Log a refusal of ``kind`` from ``address`` at most once a minute per address and kind
        (the SSH server's :class:`Throttle`): a client that floods the page
        with refused requests costs the log a line a minute, not a line each. ``message`` and
        ``args`` are a logging format and its (already escaped) arguments."""
        more = self.server.log_throttle.allow(f"web {kind} from {address}")
        if more is not None:
            log.info(message + "%s", *args, self.server.log_throttle.more(more))

    async def _post_checks(self, request: web.Request) -> web.Response | None:
        if not self.origin_allowed(request):
            address = _client_address(request)
            self._log_refusal(
                address,
                "cross-site post",
                "refused a cross-site %s %s from %s",
                loggable(request.method, 20),
                loggable(request.path, quote=True),
                loggable(address),
            )
            return self._page("Saloon", self._signin_body(request, "Refused: not from this site."), 403)
        refusal = self._limited(request)
        if refusal is not None:
            self._log_refusal(_client_address(request), "sign-in", "refused a sign-in: %s", loggable(refusal, 200))
            return self._page("Saloon", self._signin_body(request, f"Refused: {refusal}."), 429)
        return None

    async def _signin(self, request: web.Request) -> web.StreamResponse:
        refused = await self._post_checks(request)
        if refused is not None:
            return refused
        form = await request.post()
        token = form.get("token")
        try:
            who = await self.server.client.redeem(token.strip() if isinstance(token, str) else "")
        except ConnectionError:
            who = None
        found = None if who is None else (who.name, who.key)
        if found is None:
            address = _client_address(request)
            self._log_refusal(
                address, "link", "refused a sign-in link (unknown, used or expired) from %s", loggable(address)
            )
            message = "That sign-in link has expired or was used already. Get a new one:"
            return self._page("Saloon: sign in", self._signin_body(request, message), 403)
        log.info("%s signed in from %s", loggable(found[0]), loggable(_client_address(request)))
        return self._signed_in(request, found[0], found[1], guest=False)

    async def _guest(self, request: web.Request) -> web.StreamResponse:
        refused = await self._post_checks(request)
        if refused is not None:
            return refused
        if not self.server.guest:
            return self._page("Saloon: sign in", self._signin_body(request, "This server admits no guests."), 403)
        form = await request.post()
        name = form.get("name")
        name = name.strip() if isinstance(name, str) else ""
        if not valid_name(name):
            message = "A name is a lower-case letter, then lower-case letters, digits, '-' or '_' (24 at most)."
            return self._page("Saloon: sign in", self._signin_body(request, message), 400)
        try:
            free = await self.server.client.account(name, "", True, _client_address(request)) is not None
        except ConnectionError:
            free = False
        if not free:
            message = f"{name} is a registered player's name: choose another."
            return self._page("Saloon: sign in", self._signin_body(request, message), 400)
        return self._signed_in(request, name, "guest:" + secrets.token_hex(8), guest=True)

    async def _signout(self, request: web.Request) -> web.StreamResponse:
        if not self.origin_allowed(request):
            return self._page("Saloon", self._signin_body(request, "Refused: not from this site."), 403)
        response = web.Response(status=303, headers={**_HEADERS, "Location": "/"})
        response.del_cookie(COOKIE_NAME, path="/")
        return response

    # The terminal -----------------------------------------------------------------------------

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        address = _client_address(request)
        if not self.origin_allowed(request):
            self._log_refusal(
                address,
                "cross-site websocket",
                "refused a cross-site websocket from %s (Origin %s)",
                loggable(address),
                loggable(request.headers.get("Origin"), quote=True),
            )
            return web.Response(status=403, text="cross-site websocket refused\n")
        identity = await self.identity_of(request)
        if identity is None:
            return web.Response(status=401, text="not signed in\n")
        try:
            refusal = await self.server.client.admit(address)
        except ConnectionError:
            return web.Response(status=503, text="the saloon is restarting\n")
        if refusal is not None:
            self._log_refusal(address, "websocket", "refused a websocket: %s", loggable(refusal, 200))
            return web.Response(status=429, text=f"{refusal}\n")
        try:
            ws = web.WebSocketResponse(
                heartbeat=self.config.heartbeat_s, max_msg_size=MAX_MESSAGE_BYTES, compress=False, autoclose=True
            )
            await ws.prepare(request)
            self.websockets.add(ws)
            try:
                await self._ui_session(ws, request, identity)
            finally:
                self.websockets.discard(ws)
                # aiohttp's connection keeps the websocket's heartbeat callback (a bound method)
                # while the websocket holds the connection: a cycle that would keep the closed
                # session's websocket for the full collection. Its messages are all read: cut it.
                protocol = request.protocol
                if protocol is not None and hasattr(protocol, "_data_received_cb"):
                    protocol._data_received_cb = None
            return ws
        finally:
            self.server.client.left(address)

    async def _ui_session(self, ws: web.WebSocketResponse, request: web.Request, identity: Identity) -> None:
        from serve.web_driver import run_web_app
        from tui.lobby_screen import SSHApp

        server = self.server
        app = SSHApp(server.client.lobby, identity, guest_mode=server.guest)
        server.sessions.add(app)
        if server.collector is not None:
            server.collector.session_started()
        log.info("%s opened a browser session from %s", identity.label, loggable(identity.address))
        try:
            reason = await run_web_app(app, ws, request, on_end=app.leave_all)
        finally:
            server.sessions.discard(app)
            del app  # the last reference: the app is freed here
            if server.collector is not None:
                server.collector.session_ended(len(server.sessions))
        if reason is not None:
            log.info("closed %s's browser session: %s", identity.label, loggable(reason, 200))
