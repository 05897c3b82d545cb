"""End of a Hand (rulebook: End of a Hand).

A hand ends in one of three ways:

* a player discards the last card from the hand (``"last_card"``);
* another player has no cards left in the hand when the current player ends the turn by
  discarding (``"empty_hand"``; e.g. Most Wanted! took their last card);
* the supply runs out for the second time in the hand when a player needs cards from it: a
  player choosing to draw two with fewer than two left (``"supply_exhausted"``; the turn is
  not finished). Taking the top discard instead prolongs the hand. ASSUMED (NOTES.md): a Wyatt
  Earp's draw and a shot follow the same rule.

Everyone then puts the cards left in the hand on the discard stack (they do not score), the
hand is scored (:mod:`.scoring`), and either the game ends (:mod:`.end_of_game`) or the next
hand is dealt (:func:`.setup.start_hand`, reached through the game's ``steps``: :mod:`.setup`
leads to the play that ends here, so this module does not import it).
"""

from __future__ import annotations

from engine.wyatt_earp.events import HandCardsDiscarded, HandEnded
from engine.wyatt_earp.rules import end_of_game, scoring
from engine.wyatt_earp.state import CARDS, WyattEarpState


def end_hand(st: WyattEarpState, reason: str, seat: int) -> None:
    """End the hand for ``reason`` (see the module docstring; ``seat`` is the player it names),
    score it, then end the game or deal the next hand."""
    st.emit(HandEnded(reason, seat))
    n = st.n
    for k in range(n):
        p = (seat + k) % n
        hand = st.hands[p]
        if hand:
            st.emit(HandCardsDiscarded(p, tuple(CARDS[c] for c in hand)))
            st.discard.extend(hand)
            st.hands[p] = []
    st.known = set()
    st.lacks = [0] * n
    st.sheriff_played = False
    st.melded = 0
    st.bonus = -1
    st.pending = -1
    st.response = (-1, -1)
    st.asking = []
    scoring.score_hand(st)
    if max(st.money) >= st.comp.target_money:
        end_of_game.finish(st)
    else:
        st.game.steps["start_hand"](st)
