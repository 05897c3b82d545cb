"""The ladder's queue and matchmaker: who plays whom, and when (no I/O, no clock of its own).

Players (bots over SSH, people from the lobby) queue for one game with the player counts they
accept. :func:`match` is asked, every tick, which tables to form now; the caller seats them.

The policy, in the order it is applied:

1. **Nobody waits past** ``max_wait_s`` **if a game can be formed.** The longest-waiting entry
   that has waited that long is seated first, with the queued players of closest rating that
   accept a player count it accepts (the largest such count, so the most people get a game).
2. **Closest ratings first.** Otherwise a table forms only among players whose ratings lie
   within a window that widens the longer they wait: ``base_window + widen_per_s * wait`` rating
   points for the longest-waiting of them. Starting narrow pairs similar players; widening
   means a lone strong bot still gets games.
3. **Never the same name twice at one table**: several connections of one account (a bot may
   open a few) never play each other, which would rate an account against itself.

Entries are matched in the order they joined (ties: by ticket), so the outcome of :func:`match`
depends only on its arguments. The caller removes the matched entries from its queue.

>>> a = QueueEntry(ticket=1, name="ann", game="deadwood1876", counts=(2,), rating=25.0, joined=0.0)
>>> b = QueueEntry(ticket=2, name="bob", game="deadwood1876", counts=(2, 3), rating=24.0, joined=1.0)
>>> [[e.name for e in group] for group in match([a, b], now=2.0)]
[['ann', 'bob']]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["MatchPolicy", "QueueEntry", "match"]


@dataclass(frozen=True)
class QueueEntry:
    """One place in a game's ladder queue.

    Attributes:
        ticket: unique per entry (the queue's counter); breaks ties in join order.
        name: the account name (a bot's connections share it).
        game: the engine's game id.
        counts: the player counts this entry accepts, e.g. ``(2, 3, 4)``.
        rating: the entry's ladder rating for ``game`` (OpenSkill ordinal, rating points).
        joined: when the entry joined the queue, in seconds on the caller's clock.
    """

    ticket: int
    name: str
    game: str
    counts: tuple[int, ...]
    rating: float
    joined: float


@dataclass(frozen=True)
class MatchPolicy:
    """How patient the matchmaker is.

    Attributes:
        max_wait_s: seconds after which an entry is seated with whoever can make a table.
        base_window: the rating window (points) for entries that just joined.
        widen_per_s: points the window widens per second of waiting.
    """

    max_wait_s: float = 30.0
    base_window: float = 5.0
    widen_per_s: float = 1.0

    def window(self, wait_s: float) -> float:
        """The rating window for an entry that has waited ``wait_s`` seconds; infinite past ``max_wait_s``."""
        if wait_s >= self.max_wait_s:
            return float("inf")
        return self.base_window + self.widen_per_s * max(0.0, wait_s)


def _group_for(first: QueueEntry, others: Sequence[QueueEntry], window: float) -> list[QueueEntry] | None:
    """The table for ``first``: the largest count it accepts that can be filled with players of
    other names accepting that count and rated within ``window`` of ``first`` (closest first)."""
    for count in sorted(set(first.counts), reverse=True):
        names = {first.name}
        group = [first]
        candidates = sorted(
            (e for e in others if count in e.counts and abs(e.rating - first.rating) <= window),
            key=lambda e: (abs(e.rating - first.rating), e.joined, e.ticket),
        )
        for entry in candidates:
            if entry.name not in names:
                names.add(entry.name)
                group.append(entry)
                if len(group) == count:
                    return group
    return None


def match(entries: Sequence[QueueEntry], now: float, policy: MatchPolicy | None = None) -> list[list[QueueEntry]]:
    """The tables to form now from ``entries`` (one or several games' queues).

    Args:
        entries: the queued entries; tickets must be unique.
        now: the current time on the clock of ``QueueEntry.joined`` (seconds).
        policy: the waiting policy (default :class:`MatchPolicy`).

    Returns:
        Groups of entries, each one table of one game in seat order (the entry the table was
        formed for first); no entry appears twice. Entries not in a group stay queued.
    """
    policy = policy or MatchPolicy()
    waiting = sorted(entries, key=lambda e: (e.joined, e.ticket))
    tables: list[list[QueueEntry]] = []
    taken: set[int] = set()
    # Overdue entries first (rule 1), then everyone within their window (rule 2).
    overdue = [e for e in waiting if now - e.joined >= policy.max_wait_s]
    for first in [*overdue, *waiting]:
        if first.ticket in taken:
            continue
        others = [e for e in waiting if e.ticket not in taken and e.ticket != first.ticket and e.game == first.game]
        group = _group_for(first, others, policy.window(now - first.joined))
        if group is not None:
            tables.append(group)
            taken.update(e.ticket for e in group)
    return tables
