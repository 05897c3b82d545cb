"""Scoring (rulebook: Scoring), one reward poster at a time.

For each Outlaw, count each player's capture points (CP) in the territory, not those under a
Hideout. With fewer than 8 CP on the whole table the reward stays on the poster. Otherwise, a
player with at least 5 CP more than the second (a tied leader has a lead of 0) takes the whole
reward. Otherwise the leader and everyone within 4 CP of the leader share it: grouped by equal
CP, most first, the leading group takes $2,000 each and every later group $1,000 each, then
rounds of $1,000 each in the same order, until the poster is empty or a tied group cannot all
be paid (then nobody more is paid and the rest stays on the poster). ASSUMED (NOTES.md): a
player with 0 CP never shares. The posters are scored in poster order (the order changes
nothing: each poster is settled on its own).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.wyatt_earp.components import Components
from engine.wyatt_earp.events import OutlawScored
from engine.wyatt_earp.state import OUTLAWS, WyattEarpState


def share_reward(comp: Components, cp: Sequence[int], reward: int) -> tuple[list[int], int]:
    """Pay one Outlaw's ``reward`` to the seats by their uncovered ``cp`` (one per seat).

    Returns:
        ``(paid, left)``: the dollars paid to each seat (seat order) and what stays on the poster.

    >>> from engine.wyatt_earp.components import components
    >>> share_reward(components(), [9, 5, 4], 8000)  # rulebook, Scoring, example 2
    ([5000, 3000, 0], 0)
    >>> share_reward(components(), [4, 4, 2], 6000)  # example 4
    ([2000, 2000, 1000], 1000)
    """
    paid = [0] * len(cp)
    if sum(cp) < comp.capture_threshold:
        return paid, reward
    ranked = sorted(cp, reverse=True) + [0]
    top, second = ranked[0], ranked[1]
    if top - second >= comp.sole_winner_margin:
        paid[cp.index(top)] = reward
        return paid, 0
    floor = top - comp.share_window
    values = sorted({v for v in cp if v >= floor and (v > 0 or not comp.share_requires_positive_cp)}, reverse=True)
    groups = [[seat for seat, v in enumerate(cp) if v == value] for value in values]
    first_round = True
    while reward > 0:
        for i, group in enumerate(groups):
            amount = comp.first_share if first_round and i == 0 else comp.other_share
            if reward < amount * len(group):
                return paid, reward
            for seat in group:
                paid[seat] += amount
            reward -= amount * len(group)
        first_round = False
    return paid, reward


def score_hand(st: WyattEarpState) -> None:
    """Score every Outlaw: pay the money, leave the rest on the posters, log each result."""
    comp = st.comp
    for outlaw in range(OUTLAWS):
        cp = [st.cp(seat, outlaw) for seat in range(st.n)]
        reward = st.posters[outlaw]
        paid, left = share_reward(comp, cp, reward)
        for seat, amount in enumerate(paid):
            st.money[seat] += amount
        st.posters[outlaw] = left
        captured = sum(cp) >= comp.capture_threshold
        st.emit(OutlawScored(outlaw, tuple(cp), reward, tuple(paid), left, captured))
