"""End of a Hand (rulebook: End of a Hand).

A hand ends in one of three ways, or by our no-progress rule:

* a player discards the last card from the hand (``"last_card"``);
* another player has no cards left in the hand when the current player ends the turn by
  discarding (``"empty_hand"``; e.g. Most Wanted! took their last card);
* the supply runs out for the second time in the hand when a player needs cards from it: a
  player choosing to draw two with fewer than two left (``"supply_exhausted"``; the turn is
  not finished). Taking the top discard instead prolongs the hand. ASSUMED (NOTES.md): a Wyatt
  Earp's draw and a shot follow the same rule.
* the no-progress rule (``"stalled"``, not in the rulebook; see the package docstring): after
  :data:`~.game_play.STALL_ROUNDS` rounds of turns in a row in which nobody drew a card from the
  supply or played a card (:func:`.game_play.end_turn`). It ends and scores the hand like the
  rulebook's own ends; after :data:`STALLED_HANDS` such hands in a row the game ends (End of the
  Game), whoever has $25,000.

Everyone then puts the cards left in the hand on the discard stack (they do not score), the
hand is scored (:mod:`.scoring`), and either the game ends (:mod:`.end_of_game`) or the next
hand is dealt (:func:`.setup.start_hand`, reached through the game's ``steps``: :mod:`.setup`
leads to the play that ends here, so this module does not import it).
"""

from __future__ import annotations

from engine.core import GameCapped
from engine.wyatt_earp.events import HandCardsDiscarded, HandEnded
from engine.wyatt_earp.rules import end_of_game, scoring
from engine.wyatt_earp.state import CARDS, WyattEarpState

STALLED_HANDS = 3
"""The no-progress rule: the game ends after this many hands in a row ended by it (see the
package docstring)."""


def end_hand(st: WyattEarpState, reason: str, seat: int, final: bool = False) -> None:
    """End the hand for ``reason`` (see the module docstring; ``seat`` is the player it names),
    score it, then end the game or deal the next hand (``final``: end the game in any case)."""
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
    st.secret = {}
    st.lacks = [0] * n
    st.sheriff_played = False
    st.progressed = False
    st.stalled = 0
    st.stalled_hands = st.stalled_hands + 1 if reason == "stalled" else 0
    st.bonus = -1
    st.pending = -1
    st.response = (-1, -1)
    st.asking = []
    scoring.score_hand(st)
    if final or st.stalled_hands >= STALLED_HANDS or max(st.money) >= st.comp.target_money:
        end_of_game.finish(st)
    else:
        st.game.steps["start_hand"](st)


def end_at_cap(st: WyattEarpState) -> None:
    """The game reached its decision cap (``WyattEarp.max_decisions``): a public
    :class:`engine.GameCapped`, then the hand ends where it stands (``HandEnded`` reason
    ``"decision_cap"``, naming the current player): a Sheriff card waiting for its target goes to
    the discard stack, the hand is scored as usual, and the game ends whoever has $25,000 (End of
    the Game: the richest wins, a tie goes to the duel)."""
    st.emit(GameCapped(st.decisions))
    st.discard.extend(st.held())
    end_hand(st, "decision_cap", max(st.current, 0), final=True)
