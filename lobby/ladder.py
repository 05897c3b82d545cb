"""The live ladder: a queue per game, a matchmaker tick that seats rated tables, and the standings.

Bots (``ssh ... ladder --game GAME``) and people (the lobby's Ladder screen) queue for one game
with the player counts they accept. Every :attr:`~lobby.tables.ServerConfig.ladder_tick_s`
seconds :meth:`Ladder.tick` asks :func:`lobby.matchmaker.match` which tables to form (closest
ratings first, nobody waits past :attr:`~lobby.matchmaker.MatchPolicy.max_wait_s`, never an
account against itself) and opens each as a rated table (:meth:`lobby.tables.Lobby.open_rated_table`,
seats in a random order). **House bots** (:attr:`~lobby.tables.ServerConfig.house_bots`) join a
player who has waited past ``max_wait_s`` when no table can be formed for them otherwise, so a
lone bot on a fresh server gets a rated game against known references; they are rated like
everyone under ``house:NAME`` and marked as house bots on the leaderboard. The games run like
any server table; when one ends its row, the new ratings and their history commit in one
transaction (:meth:`lobby.store.Store.record_game`).

**Members.** A controller (a remote bot's channel or a person's screen) that :meth:`Ladder.join`
ed is a *member* of the ladder until it calls :meth:`Ladder.leave`: queued, or seated at a ladder
table, or between the two (after a game, until it joins again). One account key may hold at most
:attr:`~lobby.tables.ServerConfig.ladder_connections_per_key` members at once.

**The API for a front end** (the lobby's Ladder screen; everything runs on the event loop):

* ``join(controller, game, counts, kind="human")`` queues the screen (again after each game;
  ``kind`` is ``"remote"`` by default, for bots); ``leave(controller)`` takes it out;
  ``entry(controller)`` is its place in the queue (``None`` when not queued). A controller may
  have a ``seated(table, seat)`` method: it is called (on the event loop, in a fresh context)
  when the ladder seats it; the table then starts at once and the controller is one of its
  listeners, like a person who sat down.
* ``standings(game)``: the leaderboard rows (:class:`Standing`); ``history(game, name)``: a
  player's rating after each of their last games; ``online(game)``: who is queued or seated;
  ``queued(game)``: the queue; ``tables(game)``: the live ladder tables (to spectate with
  :meth:`lobby.tables.Table.watch`).
* ``watch(listener)`` / ``unwatch(listener)``: ``listener.changed(ladder)`` is called when the
  queue or the members change, or a ladder table is formed. Ratings change when a ladder table
  ends; the lobby's listeners hear of that (:meth:`lobby.tables.Lobby.watch`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import engine
from lobby.logtext import loggable
from lobby.matchmaker import QueueEntry, match
from lobby.ratings import HistoryPoint, LadderRating
from lobby.tables import HOUSE_PREFIX, Controller, HouseBot, Listener, Lobby, Table, TableError, _notify

__all__ = ["Ladder", "LadderError", "Standing", "accepted_counts", "leaderboard_json", "leaderboard_text"]

log = logging.getLogger("saloon.ladder")

RECENT_GAMES = 5
"""How many of a player's last places :meth:`Ladder.standings` shows."""

FINISHED_KEEP_S = 60.0
"""How long a finished ladder table stays in the lobby's list (a busy ladder finishes several
games a second; their replays stay reachable by number: ``ssh ... replay ID``)."""


class LadderError(TableError):
    """A ladder request that cannot be done (the message says why, for the person or the bot)."""


def accepted_counts(game_id: str, counts: Sequence[int] | None = None) -> tuple[int, ...]:
    """The player counts a ladder player accepts for ``game_id``: ``counts`` sorted without
    repeats, or every count the game allows when ``counts`` is empty or ``None``.

    Raises:
        LadderError: an unknown game, or a count the game does not allow.
    """
    try:
        spec = engine.game(game_id)
    except engine.UnknownGame as exc:
        raise LadderError(str(exc)) from None
    allowed = range(spec.min_players, spec.max_players + 1)
    wanted = tuple(sorted(set(counts))) if counts else tuple(allowed)
    bad = [n for n in wanted if n not in allowed]
    if bad:
        raise LadderError(
            f"{spec.title} is for {spec.min_players}-{spec.max_players} players, not {', '.join(map(str, bad))}"
        )
    return wanted


@dataclass(frozen=True)
class Standing:
    """One row of a game's leaderboard.

    Attributes:
        rank: the place on the leaderboard (1 = best), by :attr:`rating`.
        name: the account name.
        rating: the conservative rating ``mu - 3 * sigma`` (OpenSkill's ordinal; 0 for a new player).
        mu: the mean skill estimate (25 for a new player).
        sigma: its uncertainty (25/3 for a new player); ``mu ± 3 * sigma`` is the likely range.
        games: rated games played.
        recent: the player's places in their last games (1 = first), oldest first.
        online: queued or seated on this game's ladder now (a house bot: always).
        house: a house bot the server runs (:attr:`~lobby.tables.ServerConfig.house_bots`).
    """

    rank: int
    name: str
    rating: float
    mu: float
    sigma: float
    games: int
    recent: tuple[int, ...]
    online: bool
    house: bool = False


@dataclass
class _Member:
    controller: Controller
    kind: Literal["human", "remote"]
    game: str
    counts: tuple[int, ...]
    entry: QueueEntry | None = None
    table: Table | None = None


class Ladder:
    """The server's ladder for every game (see the module docstring).

    Made by the server beside its :class:`~lobby.tables.Lobby` (and set as ``lobby.ladder``);
    :meth:`start` runs the matchmaker every :attr:`~lobby.tables.ServerConfig.ladder_tick_s`
    seconds until :meth:`stop`. The policy and limits come from ``lobby.config``.

    Args:
        lobby: the lobby whose tables the ladder opens (and whose store keeps the ratings).
        clock: the queue's clock in seconds (``time.monotonic``; tests may pass their own).
    """

    def __init__(self, lobby: Lobby, clock: Callable[[], float] = time.monotonic) -> None:
        self.lobby = lobby
        self.clock = clock
        self._members: dict[Controller, _Member] = {}
        self._tickets = 0
        self._listeners: set[Listener] = set()
        self._task: asyncio.Task[None] | None = None
        self.tables_formed = 0
        lobby.ladder = self

    # Members ----------------------------------------------------------------------------------

    def join(
        self,
        controller: Controller,
        game: str,
        counts: Sequence[int] | None = None,
        kind: Literal["human", "remote"] = "remote",
    ) -> Table | None:
        """Queue ``controller`` for ``game``'s ladder (again, after a game: a member requeues).

        If the controller's account owns a seat at a live ladder table of ``game`` that nobody
        controls now (it disconnected and came back), it takes that seat back instead.

        Args:
            controller: the remote bot's channel or the person's screen.
            game: the game id.
            counts: the player counts accepted (default: every count the game allows).
            kind: ``"remote"`` for a bot, ``"human"`` for a person.

        Returns:
            The table whose seat it took back, or ``None`` if it was queued.

        Raises:
            LadderError: a guest (the ladder rates accounts), an unknown game, a count the game
                does not allow, a controller still playing a ladder game, or one connection more
                than the account key may hold.
        """
        identity = controller.identity
        if identity.guest:
            raise LadderError("guests cannot play on the ladder: connect with an SSH key to get an account")
        wanted = accepted_counts(game, counts)
        member = self._members.get(controller)
        if member is not None and member.table is not None and member.table.status == "playing":
            if member.table.seat_of(controller) is not None:
                raise LadderError(f"you are playing at ladder table {member.table.code}; finish that game first")
        if member is None:
            limit = self.lobby.config.ladder_connections_per_key
            held = sum(1 for m in self._members.values() if m.controller.identity.key == identity.key)
            if held >= limit:
                raise LadderError(
                    f"{identity.name} already has {held} ladder connections, the most one key may hold; close one first"
                )
            member = _Member(controller, kind, game, wanted)
            self._members[controller] = member
        member.game, member.counts, member.kind = game, wanted, kind
        back = self._seat_back(member)
        if back is not None:
            return back
        if member.entry is None or member.entry.game != game or member.entry.counts != wanted:
            self._tickets += 1
            rating = self.lobby.store.ladder_rating(game, identity.name).ordinal
            member.entry = QueueEntry(self._tickets, identity.name, game, wanted, rating, self.clock())
            member.table = None
        self._changed()
        return None

    def entry(self, controller: Controller) -> QueueEntry | None:
        """``controller``'s place in the queue (its rating and when it joined), or ``None`` when it
        is not queued (not a member, or seated at a ladder table)."""
        member = self._members.get(controller)
        if member is None or member.entry is None:
            return None
        return member.entry

    def leave(self, controller: Controller) -> None:
        """``controller`` leaves the ladder (queue and membership); a seat it holds is its table's business."""
        if self._members.pop(controller, None) is not None:
            self._changed()

    def _seat_back(self, member: _Member) -> Table | None:
        identity = member.controller.identity
        for table, index in self.lobby.seats_of(identity):
            seat = table.seats[index]
            if (
                table.rated
                and table.game.id == member.game
                and seat.kind == member.kind
                and seat.controller is None
                and index not in table.forfeits  # past the grace time: queued for a new game instead
            ):
                with contextlib.suppress(TableError):
                    table.sit(member.controller, index, kind=member.kind)
                    member.entry, member.table = None, table
                    self._tell_seated(member.controller, table, index)
                    self._changed()
                    return table
        return None

    # The matchmaker ---------------------------------------------------------------------------

    def tick(self) -> list[Table]:
        """One round of the matchmaker: open a rated table for each group it forms now.

        Returns:
            The tables opened (each already playing). Players of a group that cannot be seated
            (the saloon is full) stay queued, with their places. Ladder tables finished more
            than :data:`FINISHED_KEEP_S` ago leave the lobby's list.
        """
        self._prune()
        queued = {m.entry.ticket: m for m in self._members.values() if m.entry is not None}
        if len(queued) < (1 if self.lobby.config.house_bots else 2):
            return []
        now = self.clock()
        entries = [m.entry for m in queued.values() if m.entry is not None]
        groups = match(entries, now, self.lobby.config.ladder_policy)
        groups += self._house_groups(entries, groups, now)
        opened: list[Table] = []
        shuffle = secrets.SystemRandom().shuffle
        for group in groups:
            players: list[_Member | HouseBot] = [
                queued[entry.ticket] if entry.ticket in queued else self._house_bot(entry.name) for entry in group
            ]
            shuffle(players)  # seat order by chance, not by who waited longest
            try:
                table = self.lobby.open_rated_table(
                    group[0].game, [p if isinstance(p, HouseBot) else (p.controller, p.kind) for p in players]
                )
            except TableError as exc:
                log.warning(
                    "ladder: cannot open a table for %s: %s",
                    loggable(", ".join(e.name for e in group), 400),
                    loggable(exc, 200),
                )
                break
            self.tables_formed += 1
            for seat, member in enumerate(players):
                if isinstance(member, HouseBot):
                    continue
                member.entry, member.table = None, table
                self._tell_seated(member.controller, table, seat)
            opened.append(table)
        if opened:
            self._changed()
        return opened

    def _house_groups(
        self, entries: list[QueueEntry], groups: list[list[QueueEntry]], now: float
    ) -> list[list[QueueEntry]]:
        """Tables of house bots for the entries that waited past ``max_wait_s`` and that ``groups``
        left out (no table could be formed for them): each such entry, oldest first, with the
        house bots (closest ratings first, the largest count it accepts that they fill)."""
        house = self.lobby.config.house_bots
        policy = self.lobby.config.ladder_policy
        if not house:
            return []
        matched = {entry.ticket for group in groups for entry in group}
        overdue = [e for e in entries if e.ticket not in matched and now - e.joined >= policy.max_wait_s]
        formed: list[list[QueueEntry]] = []
        for first in sorted(overdue, key=lambda e: (e.joined, e.ticket)):
            bots = [
                QueueEntry(
                    -(index + 1),  # below every real ticket: never a member's
                    HOUSE_PREFIX + name,
                    first.game,
                    accepted_counts(first.game),
                    self.lobby.store.ladder_rating(first.game, HOUSE_PREFIX + name).ordinal,
                    now,
                )
                for index, name in enumerate(house)
            ]
            found = [group for group in match([first, *bots], now, policy) if group[0].ticket == first.ticket]
            if found:
                formed.append(found[0])
        return formed

    def _house_bot(self, name: str) -> HouseBot:
        """The house bot rated as ``name`` (``house:NAME``)."""
        return HouseBot(name, self.lobby.config.house_bots[name.removeprefix(HOUSE_PREFIX)])

    def house_names(self) -> set[str]:
        """The player names of the server's house bots (``house:NAME``)."""
        return {HOUSE_PREFIX + name for name in self.lobby.config.house_bots}

    def _prune(self) -> None:
        now = time.time()
        tables = self.lobby.tables
        old = [
            code
            for code, t in tables.items()
            if t.rated and t.status in ("over", "closed") and now - (t.finished or t.created) > FINISHED_KEEP_S
        ]
        for code in old:
            del tables[code]
        if old:
            self.lobby.changed()

    def start(self) -> None:
        """Run :meth:`tick` every :attr:`~lobby.tables.ServerConfig.ladder_tick_s` seconds (on the running loop)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="ladder")

    async def stop(self) -> None:
        """Stop the matchmaker (server shutdown); the queue is emptied."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        self._members.clear()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.lobby.config.ladder_tick_s)
            try:
                self.tick()
            except Exception:  # one bad round must not stop the ladder
                log.exception("ladder: the matchmaker failed")

    # What a front end shows -------------------------------------------------------------------

    def queued(self, game: str | None = None) -> list[QueueEntry]:
        """The queue (of ``game``, or every game's), in joining order."""
        entries = [m.entry for m in self._members.values() if m.entry is not None]
        return sorted((e for e in entries if game is None or e.game == game), key=lambda e: (e.joined, e.ticket))

    def online(self, game: str) -> set[str]:
        """The names queued for ``game``'s ladder or seated at one of its tables now."""
        names = {m.controller.identity.name for m in self._members.values() if m.game == game}
        for table in self.tables(game):
            names.update(s.name for s in table.seats if s.controller is not None and not s.substitute)
        return names

    def tables(self, game: str | None = None) -> list[Table]:
        """The ladder tables being played now (of ``game``, or of every game), oldest first."""
        live = [
            t
            for t in self.lobby.tables.values()
            if t.rated and t.status == "playing" and (game is None or t.game.id == game)
        ]
        return sorted(live, key=lambda t: t.created)

    def members(self, key: str) -> int:
        """How many ladder connections the account key ``key`` holds now."""
        return sum(1 for m in self._members.values() if m.controller.identity.key == key)

    def standings(self, game: str, recent: int = RECENT_GAMES) -> list[Standing]:
        """``game``'s leaderboard, best first; players online without a rated game yet are listed too.

        Args:
            game: the game id.
            recent: how many of each player's last places to include.
        """
        store = self.lobby.store
        rated = store.ladder_standings(game)
        house = self.house_names()
        online = self.online(game) | house
        known = {r.name for r in rated}
        fresh = [store.ladder_rating(game, name) for name in sorted(online - known)]
        ordered = sorted([*rated, *fresh], key=lambda r: (-r.ordinal, -r.games, r.name))
        rows = []
        for rank, r in enumerate(ordered, 1):
            places = tuple(p.place for p in store.ladder_history(game, r.name, recent)) if recent > 0 else ()
            is_house = r.name.startswith(HOUSE_PREFIX)
            rows.append(Standing(rank, r.name, r.ordinal, r.mu, r.sigma, r.games, places, r.name in online, is_house))
        return rows

    def history(self, game: str, name: str, limit: int = 20) -> list[HistoryPoint]:
        """``name``'s rating after each of their last ``limit`` ladder games in ``game``, oldest first."""
        points: list[HistoryPoint] = self.lobby.store.ladder_history(game, name, limit)
        return points

    def rating(self, game: str, name: str) -> LadderRating:
        """``name``'s current rating in ``game``'s ladder."""
        found: LadderRating = self.lobby.store.ladder_rating(game, name)
        return found

    def watch(self, listener: Listener) -> None:
        """Tell ``listener`` (``changed(ladder)``) when the queue, the members or the ladder tables change."""
        self._listeners.add(listener)

    def unwatch(self, listener: Listener) -> None:
        """Stop telling ``listener``."""
        self._listeners.discard(listener)

    def table_changed(self) -> None:
        """A ladder table started or ended (called by :meth:`lobby.tables.Lobby.ladder_changed`):
        the ladder's listeners are told."""
        self._changed()

    def _changed(self) -> None:
        if self._listeners:
            _notify(self._listeners, self)

    @staticmethod
    def _tell_seated(controller: Controller, table: Table, seat: int) -> None:
        seated = getattr(controller, "seated", None)
        if callable(seated):
            _notify({_Seated(seated, table, seat)}, table)


@dataclass(eq=False)
class _Seated:
    """A one-off listener that calls ``controller.seated(table, seat)`` like any listener is called."""

    call: Callable[[Table, int], None]
    table: Table
    seat: int

    def changed(self, what: Any) -> None:
        self.call(self.table, self.seat)


# Showing the leaderboard -------------------------------------------------------------------------


def leaderboard_text(title: str, rows: Sequence[Standing], width: int = 80) -> str:
    """The leaderboard as plain text at most ``width`` columns wide (names are never cut: a long one wraps).

    Args:
        title: the game's title.
        rows: the standings, best first (:meth:`Ladder.standings`).
        width: the widest line (at least 60).
    """
    import textwrap

    lines = textwrap.wrap(
        f"{title} ladder. rating = mu - 3*sigma (OpenSkill's conservative estimate, 0 for a new player); "
        "mu ± 3σ is the likely range of the skill; recent = places in the last games, oldest first; "
        "online = queued or playing now; house = a house bot (house:NAME) the server runs, which joins "
        "anyone who waits longer than the ladder's longest wait.",
        width,
    )
    name_w = max(4, min(24, width - 55))
    head = f"{'rank':>4}  {'name':<{name_w}}  {'rating':>6}  {'mu ± 3σ':<13}  {'games':>5}  {'recent':<9}  online"
    lines += ["", head.rstrip()]
    if not rows:
        lines.append("(nobody has played a rated game yet)")
    for row in rows:
        pieces = textwrap.wrap(row.name, name_w, break_long_words=True) or [""]
        spread = f"{row.mu:.1f} ± {3 * row.sigma:.1f}"
        recent = " ".join(str(p) for p in row.recent)
        lines.append(
            f"{row.rank:>4}  {pieces[0]:<{name_w}}  {row.rating:>6.1f}  {spread:<13}  {row.games:>5}  "
            f"{recent:<9}  {'house' if row.house else 'yes' if row.online else ''}".rstrip()
        )
        lines += [f"{'':>4}  {piece}" for piece in pieces[1:]]
    return "\n".join(lines) + "\n"


def leaderboard_json(game: str, rows: Sequence[Standing]) -> dict[str, Any]:
    """The leaderboard as JSON-ready data.

    Returns:
        ``{"game", "rating" (what the number is), "players": [{"rank", "name", "rating", "mu",
        "sigma", "games", "recent", "online", "house"}, ...]}``, best first (``house``: a house
        bot the server runs).
    """
    return {
        "game": game,
        "rating": "mu - 3 * sigma (OpenSkill Plackett-Luce ordinal)",
        "players": [
            {
                "rank": r.rank,
                "name": r.name,
                "rating": round(r.rating, 4),
                "mu": round(r.mu, 4),
                "sigma": round(r.sigma, 4),
                "games": r.games,
                "recent": list(r.recent),
                "online": r.online,
                "house": r.house,
            }
            for r in rows
        ],
    }
