"""End of the Game (rulebook: End of the Game).

The game ends when at least one player has $25,000 or more after a hand is scored; the player
with the most money wins. Tied players duel: in turn (clockwise from the player who started
the hand just ended) each draws the top supply card and turns it face up onto the discard
stack; a blank (no bullet hole) is out, unless every remaining player drew a blank, or
(DERIVED) every one drew a bullet hole: then they all draw again. ASSUMED: an empty supply is
refilled from the shuffled discard stack; should neither hold a bullet hole any more (every
Outlaw card lies in the territories), all the cards are gathered and shuffled into the supply.

Outcome: the scores are the money; ranks by money, and among the tied players the duel's
winner first, then those shot out later ahead of those shot out earlier.
"""

from __future__ import annotations

from engine.core import Outcome, rank_by_scores
from engine.wyatt_earp.events import DuelShot, GameOver, SupplyReshuffled
from engine.wyatt_earp.state import CARDS, OUTLAWS, WyattEarpState


def finish(st: WyattEarpState) -> None:
    """End the game: a duel among the richest if they tie, then the outcome."""
    n = st.n
    best = max(st.money)
    tied = [p for p in ((st.starter + k) % n for k in range(n)) if st.money[p] == best]
    winner = tied[0] if len(tied) == 1 else duel(st, tied)
    ranks = rank_by_scores([(st.money[p], st.duel[p]) for p in range(n)])
    st.result = Outcome(tuple(float(m) for m in st.money), ranks, (winner,))
    st.phase = "over"
    st.waiting = ()
    st.current = -1
    st._legal = {}
    st.emit(GameOver(tuple(st.money), (winner,)))


def duel(st: WyattEarpState, tied: list[int]) -> int:
    """The bullet-hole duel among ``tied`` (in drawing order); returns the winner and records each
    duelist's standing in ``st.duel`` (the winner highest; then by the round shot out)."""
    hole = st.comp.card_bullet_hole
    remaining = list(tied)
    round_no = 0
    while len(remaining) > 1:
        round_no += 1
        hits = []
        for seat in remaining:
            card = _duel_card(st)
            st.discard.append(card)
            st.emit(DuelShot(round_no, seat, CARDS[card], hole[card]))
            if hole[card]:
                hits.append(seat)
        if 0 < len(hits) < len(remaining):
            for seat in remaining:
                if seat not in hits:
                    st.duel[seat] = round_no
            remaining = hits
    st.duel[remaining[0]] = round_no + 1
    return remaining[0]


def _duel_card(st: WyattEarpState) -> int:
    """The top supply card for the duel, refilling the supply as the module docstring says."""
    if not st.supply:
        hole = st.comp.card_bullet_hole
        if not any(hole[c] for c in st.discard):
            for groups in st.terr:
                for group in groups:
                    st.discard.extend(group)
                    group.clear()
            for row in st.hideout:
                for o in range(OUTLAWS):
                    if row[o] >= 0:
                        st.discard.append(row[o])
                        row[o] = -1
        st.supply = st.discard
        st.discard = []
        st.chance.shuffle(st.supply)
        st.emit(SupplyReshuffled(len(st.supply)))
    return st.supply.pop()
