"""Per-address limits: token buckets and caps on concurrent connections, and a log throttle.

The hall (:mod:`serve.hall`) keeps the saloon's limiters, so that an address's connections count
on every front together; a front asks the hall before each handshake.
"""

from __future__ import annotations

import math
import time

__all__ = ["LogThrottle", "RateLimiter"]


class RateLimiter:
    """Per-key limits on new things (a token bucket) and on concurrent ones; a key is an address.

    :meth:`admit` and :meth:`done` count an address's connections (the bucket and the cap on
    open ones); :meth:`take` uses the bucket alone, for anything else counted per key (the
    sessions of an address or of a connection, :class:`SaloonServer`; log lines,
    :class:`LogThrottle`).

    Args:
        burst: new connections (tokens) an address may take at once.
        per_second: how fast its allowance refills.
        max_concurrent: connections an address may hold open at once (:meth:`admit`).
    """

    def __init__(self, burst: int = 10, per_second: float = 0.5, max_concurrent: int = 20) -> None:
        self.burst = burst
        self.per_second = per_second
        self.max_concurrent = max_concurrent
        self._tokens: dict[str, tuple[float, float]] = {}
        self._open: dict[str, int] = {}

    def admit(self, address: str) -> str | None:
        """Count a new connection from ``address``; returns why it is refused, or ``None`` if admitted."""
        if self._open.get(address, 0) >= self.max_concurrent:
            now = time.monotonic()
            self._tokens[address] = (self._refilled(address, now), now)
            return (
                f"too many connections from {address} at once ({self.max_concurrent}); close one of them and try again"
            )
        wait = self.take(address)
        if wait:
            if math.isinf(wait):
                return f"too many new connections from {address}; try again later"
            return (
                f"too many new connections from {address} (at most {self.burst} at once, then one every "
                f"{1 / self.per_second:g} s); try again in {math.ceil(wait)} s"
            )
        self._open[address] = self._open.get(address, 0) + 1
        return None

    def take(self, key: str) -> float:
        """Take a token from ``key``'s bucket (without counting anything as open).

        Returns:
            ``0.0`` if a token was taken; else the seconds until one is there again (``math.inf``
            if the bucket does not refill), and nothing was taken.
        """
        now = time.monotonic()
        if len(self._tokens) > 10_000:
            self._prune(now)
        tokens = self._refilled(key, now)
        if tokens < 1.0:
            self._tokens[key] = (tokens, now)
            return math.inf if self.per_second <= 0 else (1.0 - tokens) / self.per_second
        self._tokens[key] = (tokens - 1.0, now)
        return 0.0

    def forget(self, key: str) -> None:
        """Drop ``key``'s bucket (a closed connection's: its key never comes again)."""
        self._tokens.pop(key, None)

    def done(self, address: str) -> None:
        """An admitted connection from ``address`` closed."""
        left = self._open.get(address, 0) - 1
        if left > 0:
            self._open[address] = left
        else:
            self._open.pop(address, None)

    def _refilled(self, key: str, now: float) -> float:
        tokens, last = self._tokens.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - last) * self.per_second)

    def _prune(self, now: float) -> None:
        for address, (tokens, last) in list(self._tokens.items()):
            if address not in self._open and tokens + (now - last) * self.per_second >= self.burst:
                del self._tokens[address]


class LogThrottle:
    """At most one log line per key and interval (a :class:`RateLimiter` bucket of one token);
    the lines left out are counted, and the next line logged says how many.

    What a client can make the server log again and again (a refused connection, a refused
    session) goes through this, so a flood of them costs a line a minute, not a line each.

    Args:
        interval_s: seconds between two lines of one key.
    """

    def __init__(self, interval_s: float = 60.0) -> None:
        self.interval_s = interval_s
        self._bucket = RateLimiter(burst=1, per_second=1 / interval_s, max_concurrent=0)
        self._left_out: dict[str, int] = {}

    def allow(self, key: str) -> int | None:
        """Whether a line of ``key`` may be logged now.

        Returns:
            ``None``: leave it out (it is counted); else the number of lines of ``key`` left out
            since the last one logged (``0``, or what to add as "and N more").
        """
        if self._bucket.take(key):
            if len(self._left_out) > 10_000:  # a flood from many addresses: lose the counts, not memory
                self._left_out.clear()
            self._left_out[key] = self._left_out.get(key, 0) + 1
            return None
        return self._left_out.pop(key, 0)

    @staticmethod
    def more(count: int) -> str:
        """What a logged line adds for ``count`` lines left out before it (``""`` for none)."""
        return f" (and {count} more since the last line like it)" if count else ""
