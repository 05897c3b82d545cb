"""Fair scheduling: duplicate sets with rotated seats, and seeds derived from the base seed.

The games come in **duplicate sets**. A set for ``n`` players picks a lineup of ``n`` bots and
plays the *same seed* ``n`` times, the seats rotated one step each time: every bot of the lineup
sits in every seat once and gets every seat's deck and dice luck once. Sets use the configured
player counts in turn.

Lineups are chosen greedily, set by set, to keep every bot's number of **seats** even (a seat in
a set of ``n`` players counts ``n``: the set is ``n`` games), not its number of games; ties are
broken by a seeded shuffle:

- more bots than seats: the bots with the fewest seats so far play the set and the others sit it
  out, so until the sets come out even some bots are one set (``n`` games) behind;
- fewer bots than seats: every bot takes one seat, then the extra seats go to the bots with the
  fewest seats so far, so a bot takes two (or more) seats of the same game; the rotation moves
  its seats together, and the lineup's order is shuffled, so its seats need not be adjacent;
- several player counts can mix the two (four bots at 3, 4 and 5 players): a bot that took two
  seats at 5 players is then first to sit out at 3 players, so its seats stay close while its
  games fall behind (``examples/deadwood1876.toml``: one bot plays 558 games in 628 seats, the
  others 564 games in 624 seats).

With one player count ``n`` and a number of games that is a multiple of ``n`` times the number of
bots, every bot gets exactly the same games and seats. The ratings rate each bot once per game
(a bot in several seats gets the mean of its seats' ranks, see :mod:`tournament.ratings`); the
leaderboard prints games and seats so the uneven counts are visible.

Every seed is a hash of the base seed and the game's place in the schedule (:func:`derive_seed`),
so the schedule, and with it every result, is the same whatever the number of workers.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

import msgspec

from tournament.config import TournamentConfig

__all__ = ["GameSpec", "bot_seed", "derive_seed", "make_schedule"]


class GameSpec(msgspec.Struct, frozen=True):
    """One scheduled game.

    Attributes:
        index: the game's index in the schedule (0-based; the results key).
        set_index: the duplicate set it belongs to.
        rotation: its rotation within the set (``0 .. num_players - 1``).
        num_players: the player count.
        seed: the game's seed (shared by the whole set).
        seats: the bot display name in each seat, seat order.
    """

    index: int
    set_index: int
    rotation: int
    num_players: int
    seed: int
    seats: tuple[str, ...]


def derive_seed(base_seed: int, *parts: object) -> int:
    """A 63-bit seed from the base seed and a path of parts (BLAKE2b; stable across machines).

    >>> derive_seed(1, "game", 0) == derive_seed(1, "game", 0) != derive_seed(1, "game", 1)
    True
    """
    text = ":".join(str(part) for part in (base_seed, *parts))
    digest = hashlib.blake2b(text.encode(), digest_size=8, person=b"saloon-tourney").digest()
    return int.from_bytes(digest, "big") >> 1


def bot_seed(base_seed: int, index: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of game ``index``."""
    return derive_seed(base_seed, "bot", index, seat)


def _lineup(names: Sequence[str], n: int, appearances: dict[str, int], rng: random.Random) -> list[str]:
    """The ``n`` seats of one set: the bots with the fewest seat-games first (``appearances``, updated).

    Bots fill the seats in rounds of at most one seat each, so a bot takes a second seat only when
    every bot has one; the lineup is shuffled at the end.
    """
    order = list(names)
    rng.shuffle(order)
    lineup: list[str] = []
    while len(lineup) < n:
        take = min(n - len(lineup), len(order))
        chosen = sorted(order, key=lambda name: appearances[name])[:take]  # stable: shuffled ties
        for name in chosen:
            appearances[name] += n  # a set is n games
        lineup.extend(chosen)
    rng.shuffle(lineup)
    return lineup


def make_schedule(config: TournamentConfig) -> list[GameSpec]:
    """The whole schedule of a tournament: whole duplicate sets until ``config.games`` is reached.

    Returns:
        The games, by index.
    """
    names = list(config.bots)
    appearances = dict.fromkeys(names, 0)
    schedule: list[GameSpec] = []
    set_index = 0
    while len(schedule) < config.games:
        n = config.players[set_index % len(config.players)]
        rng = random.Random(derive_seed(config.seed, "lineup", set_index))
        lineup = _lineup(names, n, appearances, rng)
        seed = derive_seed(config.seed, "game", set_index)
        for rotation in range(n):
            seats = tuple(lineup[(seat + rotation) % n] for seat in range(n))
            schedule.append(GameSpec(len(schedule), set_index, rotation, n, seed, seats))
        set_index += 1
    return schedule
