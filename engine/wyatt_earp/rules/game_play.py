"""Game Play (rulebook: Game Play, 1. Draw, 2. Play, 3. Discard) and the turn order.

A turn is a sequence of decisions by the current player: draw (the two topmost supply cards
or the top discard); then any number of plays (Outlaw cards here, at most one Sheriff card in
:mod:`.sheriff_cards`); then one discard, which ends the turn. The player on the left plays
next, unless the hand ended (:mod:`.end_of_hand`).

Outlaw cards (rulebook: 2. Play): the first Outlaw cards of each Outlaw in a hand must be a
set of at least three; after that first set anyone may play any number. A player's cards of
one Outlaw always form one group. The banker adds $1,000 per card just played minus $1,000.
A player may play cards of the same Outlaw several times in one turn, each play paying for its
own cards (the rulebook: "any number of cards in that color", counted from "the cards just
played"; see the package docstring for why the NOTES.md assumption of one batch per turn is
not followed).

A player must keep a card to discard, so no play may leave the hand empty (NOTES.md, DERIVED).

The no-progress rule (see the package docstring): a turn in which nothing was drawn from the
supply and no card was played is a stalled turn; :data:`STALL_ROUNDS` rounds of them in a row
end the hand (:func:`end_turn`).
"""

from __future__ import annotations

from typing import Any

from engine.wyatt_earp.actions import Discard, DrawFromSupply, PlayOutlaws, TakeTopDiscard
from engine.wyatt_earp.components import components
from engine.wyatt_earp.events import CardDiscarded, CardsDrawn, OutlawsPlayed, TopDiscardTaken, TurnStarted
from engine.wyatt_earp.rules import end_of_hand, sheriff_cards
from engine.wyatt_earp.state import CARDS, KIND, NUM_KINDS, OUTLAWS, WyattEarpState

_COMP = components()

REWARD_PER_CARD = 1000
"""Rulebook, 2. Play: "the banker adds ... $1,000 per card played minus $1,000"."""

STALL_ROUNDS = 5
"""The no-progress rule: the hand ends after ``STALL_ROUNDS`` x players turns in a row in which
nobody drew a card from the supply or played a card (see the package docstring)."""

DRAW_FROM_SUPPLY = DrawFromSupply()
TAKE_TOP_DISCARD = TakeTopDiscard()
PLAY_OUTLAWS: tuple[tuple[PlayOutlaws, ...], ...] = tuple(
    tuple(PlayOutlaws(o, k) for k in range(len(_COMP.kind_cards[o]) + 1)) for o in range(OUTLAWS)
)
DISCARD: tuple[Discard, ...] = tuple(Discard(_COMP.kind_type[k], _COMP.kind_outlaw[k]) for k in range(NUM_KINDS))
_DISCARD_KIND: dict[Discard, int] = {action: k for k, action in enumerate(DISCARD)}


def start_turn(st: WyattEarpState, seat: int) -> None:
    """Begin ``seat``'s turn: nothing played yet; wait for the draw."""
    st.current = seat
    st.sheriff_played = False
    st.progressed = False
    st.bonus = -1
    st.pending = -1
    st.emit(TurnStarted(seat))
    st.wait_for(seat, "draw")


def legal_draw(st: WyattEarpState, seat: int) -> list[Any]:
    """1. Draw: the two topmost supply cards, or the top discard if there is one.

    Drawing from the supply is always offered: when the supply runs out the first time the
    discard stack is reshuffled; the second time, choosing it ends the hand (End of a Hand).
    """
    return [DRAW_FROM_SUPPLY, TAKE_TOP_DISCARD] if st.discard else [DRAW_FROM_SUPPLY]


def apply_draw(st: WyattEarpState, seat: int, action: Any) -> None:
    """Draw; a supply exhausted for the second time ends the hand (the turn is not finished)."""
    if type(action) is TakeTopDiscard:
        card = st.discard.pop()
        st.hands[seat].append(card)
        st.known.add(card)
        if st.discard:  # the card below is on view now: no hidden search took it
            st.prune(st.discard[-1])
        st.emit(TopDiscardTaken(seat, CARDS[card]))
    else:
        cards = st.supply_cards(2, seat)
        if cards is None:
            end_of_hand.end_hand(st, "supply_exhausted", seat)
            return
        st.hands[seat].extend(cards)
        st.lacks[seat] = 0
        drawn = tuple(CARDS[c] for c in cards)
        st.emit(CardsDrawn(seat, 2, "draw"), (seat,), CardsDrawn(seat, 2, "draw", drawn))
    st.wait_for(seat, "play")


def legal_play(st: WyattEarpState, seat: int) -> list[Any]:
    """2. Play and 3. Discard, in this order:

    * :class:`PlayOutlaws` by Outlaw, then count: at least 3 until the Outlaw's first set is
      down this hand; at most the hand less one card (the discard);
    * the Sheriff plays of :func:`.sheriff_cards.legal_sheriff` (none once a Sheriff card was
      played, except the one just taken from the discard stack with a Wyatt Earp);
    * :class:`Discard`, one per kind in the hand, by kind.
    """
    hand = st.hands[seat]
    counts = [0] * NUM_KINDS
    for c in hand:
        counts[KIND[c]] += 1
    size = len(hand)
    out: list[Any] = []
    opened, minimum = st.opened, _COMP.first_set_min
    for o in range(OUTLAWS):
        have = counts[o]
        if have:
            low = 1 if opened[o] else minimum
            high = min(have, size - 1)
            if low <= high:
                out.extend(PLAY_OUTLAWS[o][low : high + 1])
    if not st.sheriff_played or st.bonus >= 0:
        sheriff_cards.legal_sheriff(st, seat, counts, size, out)
    out.extend([DISCARD[k] for k in range(NUM_KINDS) if counts[k]])
    return out


def apply_play(st: WyattEarpState, seat: int, action: Any) -> None:
    """Play Outlaw cards, play a Sheriff card (:mod:`.sheriff_cards`) or discard."""
    kind = type(action)
    if kind is Discard:
        discard(st, seat, _DISCARD_KIND[action])
        return
    st.progressed = True
    if kind is PlayOutlaws:
        play_outlaws(st, seat, action.outlaw, action.count)
    else:
        sheriff_cards.apply_sheriff(st, seat, action)


def play_outlaws(st: WyattEarpState, seat: int, outlaw: int, count: int) -> None:
    """Lay ``count`` Outlaw cards of ``outlaw`` in ``seat``'s group of that Outlaw; the banker adds
    $1,000 x count - $1,000. With ``free_photo``, a first set opens the Photo window."""
    cards = [st.take(seat, outlaw) for _ in range(count)]
    st.terr[seat][outlaw].extend(cards)
    reward = REWARD_PER_CARD * (count - 1)
    st.posters[outlaw] += reward
    first = not st.opened[outlaw]
    st.opened[outlaw] = True
    st.bonus = -1
    st.emit(OutlawsPlayed(seat, outlaw, tuple(CARDS[c] for c in cards), reward, st.posters[outlaw], first))
    if first and st.options.free_photo:
        sheriff_cards.offer_free_photo(st, seat, outlaw)


def discard(st: WyattEarpState, seat: int, kind: int) -> None:
    """3. Discard one card of ``kind`` (it has no effect) and end the turn."""
    card = st.take(seat, kind)
    st.discard.append(card)
    st.emit(CardDiscarded(seat, CARDS[card]))
    end_turn(st, seat)


def end_turn(st: WyattEarpState, seat: int) -> None:
    """After the discard: the hand ends if ``seat``'s hand is empty, or another player's is
    (End of a Hand), or by the no-progress rule after :data:`STALL_ROUNDS` rounds of turns in a
    row in which nobody drew from the supply or played a card; otherwise the player on the left
    takes a turn."""
    if not st.hands[seat]:
        end_of_hand.end_hand(st, "last_card", seat)
        return
    n = st.n
    for k in range(1, n):
        other = (seat + k) % n
        if not st.hands[other]:
            end_of_hand.end_hand(st, "empty_hand", other)
            return
    st.stalled = 0 if st.progressed else st.stalled + 1
    if st.stalled >= STALL_ROUNDS * n:
        end_of_hand.end_hand(st, "stalled", seat)
        return
    start_turn(st, (seat + 1) % n)
