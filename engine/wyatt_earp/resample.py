"""Determinization for Information Set MCTS: redraw everything one seat cannot see.

What a Wyatt Earp player cannot see is small: the other hands and the supply (its cards and
their order), and which card another player took with a Wyatt Earp search. Everything else lies
face up: the territories, the posters, money, the discard stack (but for that). Every way a card
changes hands in secret (the deal, a draw from the supply, a Wyatt Earp's draw) shows it to its
new holder alone, and nobody else learns anything of it; a search shows the whole stack to the
searcher, who then also knows what earlier searches of that stack took. What the whole table
knows of the hidden cards, and :func:`resample` keeps:

* ``known``: cards in other hands taken from the discard stack, given by Most Wanted! or stolen
  from a territory. They stay in their hands.
* ``lacks``: a player who refused a Most Wanted! request holds no other card of that Outlaw
  until their next hidden draw. Such a player gets none.
* ``secret``: a card another player took with a Wyatt Earp search is one of the cards the
  search could have taken as the seat saw it (:class:`~engine.wyatt_earp.state.Secret`). The
  seat's own searches and those it knows (it searched the same stack later) stay; the others are
  drawn again first (:func:`_redraw_searches`): the searcher gets one of those cards still out of
  sight (below the top of the discard stack; once the stack was shuffled into the supply, in the
  supply or another player's unknown cards), and the card it had takes that card's place.
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
    if st.secret:
        _redraw_searches(other, seat, rng)
    known = other.known
    fixed = known | other.secret.keys()  # cards that stay in their hands from here on
    hidden = {p: [c for c in other.hands[p] if c not in fixed] for p in range(st.n) if p != seat}
    unseen = sorted(other.supply + [c for cards in hidden.values() for c in cards])
    if st.reshuffled:
        recycled = [c for c in unseen if c in other.recycled]
        fresh = [c for c in unseen if c not in other.recycled]
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
        other.hands[p] = [c for c in other.hands[p] if c in fixed] + cards
        rest.difference_update(cards)
    supply = sorted(rest)
    rng.shuffle(supply)
    other.supply = supply
    other.chance = Chance(rng.getrandbits(64))
    other.log = [entry if seat in entry[1] else (entry[0], (), None) for entry in st.log]
    return other


def _redraw_searches(other: WyattEarpState, seat: int, rng: random.Random) -> None:
    """Draw again, in ``other`` (a copy), the cards other players took with Wyatt Earp searches
    that ``seat`` does not know (see the module docstring).

    For each such search in turn: its card may stay or change places with one of its candidates
    still out of ``seat``'s sight: below the top of the discard stack if the stack was not
    shuffled since (a position in the stack), else in the supply or among another player's unseen
    cards drawn since (the card swapped in then counts as one of those shuffled in: ``recycled``);
    never an Outlaw card of an Outlaw its new holder is known to lack.
    """
    hands = other.hands
    in_hand = {c: p for p, hand in enumerate(hands) if p != seat for c in hand}
    below_top = set(other.discard[:-1])
    in_supply = set(other.supply)
    for card in sorted(other.secret):
        entry = other.secret[card]
        if seat in entry.knowers:
            continue
        holder = in_hand[card]
        same_stack = entry.reshuffled == other.reshuffled
        options = [card]
        for c in sorted(entry.candidates):
            if same_stack:
                if c not in below_top:
                    continue
            elif not (c in in_supply or (c in in_hand and c not in other.known and c not in other.secret)):
                continue
            if OUTLAW_CARD[c] and other.lacks[holder] >> KIND[c] & 1:
                continue
            owner = in_hand.get(c, -1)
            if owner >= 0 and OUTLAW_CARD[card] and other.lacks[owner] >> KIND[card] & 1:
                continue
            options.append(c)
        chosen = options[rng.randrange(len(options))]
        if chosen == card:
            continue
        # the searcher holds ``chosen``; ``card`` goes where ``chosen`` was
        hand = hands[holder]
        hand[hand.index(card)] = chosen
        if chosen in below_top:
            pile = other.discard
            pile[pile.index(chosen)] = card
            below_top.discard(chosen)
            below_top.add(card)
        elif chosen in in_supply:
            pile = other.supply
            pile[pile.index(chosen)] = card
            in_supply.discard(chosen)
            in_supply.add(card)
        else:
            owner = in_hand.pop(chosen)
            mine = hands[owner]
            mine[mine.index(chosen)] = card
            in_hand[card] = owner
        in_hand[chosen] = holder
        if not same_stack:
            other.recycled.discard(chosen)
            other.recycled.add(card)
        del other.secret[card]
        other.secret[chosen] = entry._replace(candidates=entry.candidates - {chosen} | {card})
        for c, e in other.secret.items():  # the other searches' doubts follow the cards
            if c != chosen and (card in e.candidates or chosen in e.candidates):
                swapped = {chosen: card, card: chosen}
                other.secret[c] = e._replace(candidates=frozenset(swapped.get(x, x) for x in e.candidates))


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
