"""It's a Wrap! (rulebook): the last shot of a scene wraps it.

Bonuses are paid only if at least one player is working on the card. Then the active player rolls
as many dice as the budget; the dice, highest first, go to the starring roles from the top role
(the highest rank) down, wrapping around to the top (on a $6M card with three roles, the 4th die
goes to the top role, the 5th to the second, the 6th to the third). Each player on a starring role
receives the total of its dice in dollars; dice dealt to a free role are paid to no one (the text
pays only "the players who were working on these roles"). Every extra on the set receives the
rank of the role (not the player's rank) in dollars. With nobody on the card, nobody gets a bonus,
extras included.

The card is then removed: everyone on it leaves their role (keeping their die on the set, without
chips), and the set stays empty for the rest of the day.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.deadwood_studios.events import BonusShare, SceneWrapped
from engine.deadwood_studios.state import COMP, DeadwoodStudiosState

D6 = (1, 2, 3, 4, 5, 6)


def deal_bonus(dice: Sequence[int], roles: int) -> list[list[int]]:
    """Deal bonus ``dice`` to ``roles`` starring roles: highest die to the top role and down,
    wrapping around.

    Args:
        dice: the dice rolled, in any order.
        roles: the number of starring roles on the card (1-3).

    Returns:
        Per role, in card order (lowest rank first, so the top role is the last), its dice,
        highest first.

    >>> deal_bonus([5, 3, 6, 1, 2], 3)  # the rulebook's $5M example: $8, $6, $3 top to bottom
    [[3], [5, 1], [6, 2]]
    """
    shares: list[list[int]] = [[] for _ in range(roles)]
    for j, die in enumerate(sorted(dice, reverse=True)):
        shares[roles - 1 - j % roles].append(die)
    return shares


def wrap(st: DeadwoodStudiosState, s: int, roller: int) -> None:
    """Wrap the scene on set ``s`` (its last shot was just removed by ``roller``, the active player)."""
    card = st.scene[s]
    scene = COMP.scenes[card]
    stars = st.star_by[s]
    extras = st.extra_by[s]
    paid = any(holder >= 0 for holder in stars)
    dice: tuple[int, ...] = ()
    shares: list[BonusShare] = []
    if paid:
        roll = st.chance.roll
        dice = tuple(sorted((roll(D6) for _ in range(scene.budget)), reverse=True))
        dealt = deal_bonus(dice, len(stars))
        for i in reversed(range(len(stars))):
            role, holder = scene.roles[i], stars[i]
            amount = sum(dealt[i])
            if holder >= 0:
                st.dollars[holder] += amount
            shares.append(BonusShare(role.name, role.rank, True, holder, tuple(dealt[i]), amount if holder >= 0 else 0))
        for i, holder in enumerate(extras):
            if holder >= 0:
                role = COMP.extras[s][i]
                st.dollars[holder] += role.rank
                shares.append(BonusShare(role.name, role.rank, False, holder, (), role.rank))
    for holder in stars:
        if holder >= 0:
            st.role[holder] = -1
            st.on_card[holder] = False
            st.chips[holder] = 0
    for holder in extras:
        if holder >= 0:
            st.role[holder] = -1
            st.chips[holder] = 0
    st.extra_by[s] = [-1] * len(extras)
    st.star_by[s] = []
    st.scene[s] = -1
    st.removed.append(card)
    st.emit(SceneWrapped(COMP.room_ids[s], scene, paid, roller, dice, tuple(shares), st.scenes_left()))
