"""Upgrading (rulebook): at the Casting Office, pay to raise your rank.

Before or after you move (so a player who starts the turn there, or steps in, may upgrade). The
price of a rank is the same whatever your rank now (you do not pay for the ranks in between),
paid in dollars OR credits, by the table (``board.json``): rank 2 $4 or 5 credits, 3 $10 / 10,
4 $18 / 15, 5 $28 / 20, 6 $40 / 25. Only to a higher rank; at most rank 6. Once a turn: a second
upgrade in the same turn is never better than one upgrade straight to the higher rank (the price
depends only on the rank reached), so it is not offered.
"""

from __future__ import annotations

from typing import Any

from engine.deadwood_studios.actions import Upgrade
from engine.deadwood_studios.components import CREDITS, DOLLARS
from engine.deadwood_studios.events import Upgraded
from engine.deadwood_studios.state import COMP, DeadwoodStudiosState

_TABLE: tuple[tuple[int, int, int, Upgrade, Upgrade], ...] = tuple(
    (u.rank, u.dollars, u.credits, Upgrade(u.rank, DOLLARS), Upgrade(u.rank, CREDITS)) for u in COMP.upgrades
)


def legal_upgrades(st: DeadwoodStudiosState, seat: int, out: list[Any]) -> None:
    """Append to ``out`` every upgrade ``seat`` can pay for: by rank, dollars before credits."""
    rank, dollars, credits = st.rank[seat], st.dollars[seat], st.credits[seat]
    for new, in_dollars, in_credits, pay_dollars, pay_credits in _TABLE:
        if new > rank:
            if dollars >= in_dollars:
                out.append(pay_dollars)
            if credits >= in_credits:
                out.append(pay_credits)


def apply_upgrade(st: DeadwoodStudiosState, seat: int, action: Any) -> None:
    """Pay and take the new rank; the turn goes on (a move may follow: :func:`.on_your_turn.go_on`,
    reached through the game's ``steps``, since :mod:`.on_your_turn` imports this module)."""
    price = COMP.price(action.rank, action.currency)
    if action.currency == DOLLARS:
        st.dollars[seat] -= price
    else:
        st.credits[seat] -= price
    old = st.rank[seat]
    st.rank[seat] = action.rank
    st.upgraded = True
    st.progressed = True
    st.emit(Upgraded(seat, old, action.rank, action.currency, price))
    st.game.steps["go_on"](st, seat)
