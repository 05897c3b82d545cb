"""Determinization for Information Set MCTS: redraw everything one seat cannot see.

What a Wyatt Earp player cannot see is small: the other hands and the supply (its cards and
their order). Everything else lies face up: the territories, the discard stack, the posters,
money. No card is known to one player only: every way a card changes hands in secret (the deal,
a draw from the supply, a Wyatt Earp's draw) shows it to its new holder alone, and nobody else
learns anything of it. What the whole table knows of the hidden cards, and :func:`resample`
keeps:

* ``known``: cards in other hands taken from the discard stack, given by Most Wanted! or stolen
  from a territory. They stay in their hands.
* ``lacks``: a player who refused a Most Wanted! request holds no other card of that Outlaw
  until their next hidden draw. Such a player gets none.
* ``recycled``: after the supply ran out and the discard stack (face up: everyone saw it) was
  shuffled into a new supply, the supply holds only those cards, and a player's hand holds at
  most as many of them as the player drew from the supply since (``drawn_since``); every other
  unseen card is in a hand.

It deals the unseen cards of the other hands again from the pool of unseen cards (those hands
and the supply) under these constraints and puts the rest in the supply in a random order; the
seat's own hand and everything public stay. Future chance gets a new seed. The deal is
sequential random choice among the allowed cards (players with the most constraints first), not
weighted by how likely the other players were to play as they did: the usual Information Set
MCTS approximation.
"""

from __future__ import annotations

import random

from engine.core import Chance
from engine.wyatt_earp.state import KIND, OUTLAW_CARD, WyattEarpState


def resample(st: WyattEarpState, seat: int, seed: int) -> WyattEarpState:
    """A copy of ``st`` with the hidden cards redrawn for ``seat`` (see the module docstring).

    The copy's event log keeps ``seat``'s own private events; every other private event is
    replaced by its public version (so no event describes the original hands).
    """
    rng = random.Random(seed)
    other = st._copy()
    known = st.known
    hidden = {p: [c for c in st.hands[p] if c not in known] for p in range(st.n) if p != seat}
    unseen = sorted(st.supply + [c for cards in hidden.values() for c in cards])
    if st.reshuffled:
        recycled = [c for c in unseen if c in st.recycled]
        fresh = [c for c in unseen if c not in st.recycled]
        caps = {p: min(len(cards), st.drawn_since[p]) for p, cards in hidden.items()}
    else:  # every unseen card may be anywhere
        recycled, fresh = unseen, []
        caps = {p: len(cards) for p, cards in hidden.items()}
    order = sorted(hidden, key=lambda p: (-bin(st.lacks[p]).count("1"), p))
    for _attempt in range(8):
        dealt = _deal(rng, st, order, {p: len(cards) for p, cards in hidden.items()}, caps, recycled, fresh)
        if dealt is not None:
            break
    else:  # the true hands always fit; keep them if the random deal keeps failing
        dealt = hidden
    rest = set(recycled)
    for p, cards in dealt.items():
        other.hands[p] = [c for c in st.hands[p] if c in known] + cards
        rest.difference_update(cards)
    supply = sorted(rest)
    rng.shuffle(supply)
    other.supply = supply
    other.chance = Chance(rng.getrandbits(64))
    other.log = [entry if seat in entry[1] else (entry[0], (), None) for entry in st.log]
    return other


def _deal(
    rng: random.Random,
    st: WyattEarpState,
    order: list[int],
    sizes: dict[int, int],
    caps: dict[int, int],
    recycled: list[int],
    fresh: list[int],
) -> dict[int, list[int]] | None:
    """Deal each seat of ``order`` ``sizes[seat]`` cards: every ``fresh`` card goes to a hand,
    a seat takes at most ``caps[seat]`` ``recycled`` cards, the supply keeps the remaining
    recycled ones, and nobody gets an Outlaw card it lacks. ``None`` if the random choices
    ran into a dead end."""
    in_hands = sum(sizes.values()) - len(fresh)  # recycled cards that are in hands
    counts = dict.fromkeys(order, 0)
    room = [p for p in order for _ in range(caps[p])]
    for p in rng.sample(room, in_hands):
        counts[p] += 1
    pools = [list(recycled), list(fresh)]
    dealt: dict[int, list[int]] = {}
    for p in order:
        lacks = st.lacks[p]
        chosen: list[int] = []
        for pool, count in ((pools[0], counts[p]), (pools[1], sizes[p] - counts[p])):
            allowed = [c for c in pool if not (lacks and OUTLAW_CARD[c] and lacks >> KIND[c] & 1)]
            if len(allowed) < count:
                return None
            picked = rng.sample(allowed, count)
            taken = set(picked)
            pool[:] = [c for c in pool if c not in taken]
            chosen += picked
        dealt[p] = chosen
    return dealt
