"""The Badge Round after the final turns (rulebook: BADGE ROUND; CARD DETAILS: BADGES).

Badges are revealed in the order Tin, Iron, Copper, Silver, Gold (the Dutch prototype rulebook
gives the order; the English one had it only in a lost image). The owner of each Badge at the
moment it comes up reveals it and takes an extra turn; a Badge stolen earlier in the round is
revealed by the thief. Revealed Badges have no value and can't be attacked. The 3-Safe limit is
off from the start of the round. A Badge nobody owns (in the box) is skipped.
"""

from __future__ import annotations

from engine.deadwood1876.components import BADGE
from engine.deadwood1876.events import BadgeRevealed, BadgeRoundStarted, TurnStarted
from engine.deadwood1876.rules import mystery, showdown
from engine.deadwood1876.state import DeadwoodState

BADGES = 5


def start_badge_round(st: DeadwoodState) -> None:
    """After the last player's final turn: reveal the first Badge in play."""
    st.emit(BadgeRoundStarted())
    st.badge = 0
    next_badge(st)


def badge_safe(st: DeadwoodState, order: int) -> int:
    """The Safe id of the Badge with reveal ``order`` (1 = Tin .. 5 = Gold)."""
    comp = st.comp
    return next(
        s for s in range(len(comp.safe_kind)) if comp.safe_kind[s] == BADGE and comp.safe_badge_order[s] == order
    )


def next_badge(st: DeadwoodState) -> None:
    """Reveal the next Badge a player owns and give its owner a turn; after Gold, the starred
    Mystery Safes, then the Final Showdown."""
    while st.badge < BADGES:
        st.badge += 1
        safe = badge_safe(st, st.badge)
        for seat in range(st.n):
            row = st.rows[seat]
            if safe in row:
                st.revealed.add(safe)
                st.emit(BadgeRevealed(seat, row.index(safe), st.comp.safe_label(safe)))
                st.current = seat
                st.emit(TurnStarted(seat, 0, badge=st.comp.safe_label(safe)))
                st.wait_for((seat,), "turn")
                return
    st.badge = BADGES + 1
    st.current = -1
    if st.options.mystery_safes:
        mystery.start_mysteries(st)
    else:
        showdown.start_showdown(st)
