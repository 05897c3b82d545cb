"""Fair scheduling: duplicate sets with rotated seats, and seeds derived from the base seed.

The games come in **duplicate sets**. A set for ``n`` players picks a lineup of ``n`` bots and
plays the *same seed* ``n`` times, the seats rotated one step each time: every bot of the lineup
sits in every seat once and gets every seat's deck and dice luck once. Sets use the configured
player counts in turn. Lineups are chosen so that appearances stay even: when there are more bots
than seats, the bots that have played the fewest games sit down (ties broken by a seeded shuffle);
when there are fewer bots than seats, bots take several seats, the extra seats going round evenly.

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
