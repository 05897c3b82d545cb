"""Deadwood Studios work (rulebook: Working on a Role, It's a Wrap!), with scripted dice."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.deadwood_studios.actions import Act, EndTurn, Rehearse, TakeRole
from engine.deadwood_studios.events import Acted, BonusShare, Rehearsed, SceneWrapped, ShotRemoved
from engine.deadwood_studios.rules.wrapping import deal_bonus
from tests.deadwood_studios_helpers import COMP, act, card, check_cards, events_of, position

MAIN_STREET = COMP.room("main_street")
BANK = COMP.room("bank")
JAIL = COMP.room("jail")


def on_main_street(role: str, die: int, chips: int = 0):
    """Seat 0 (rank 2) working on ``role`` of Evil Wears a Hat ($4M) on Main Street (3 shots)."""
    return position(
        3,
        scenes={"main_street": card(1)},
        rooms={0: "main_street"},
        ranks={0: 2},
        roles={0: role},
        chips={0: chips},
        dice=[die],
    )


@pytest.mark.parametrize(
    ("role", "on_card", "die", "success", "dollars", "credits"),
    [
        ("Defrocked Priest", True, 4, True, 0, 2),  # on the card, success: two credits
        ("Defrocked Priest", True, 3, False, 0, 0),  # on the card, failure: nothing
        ("Railroad Worker", False, 6, True, 1, 1),  # off the card, success: $1 and a credit
        ("Railroad Worker", False, 1, False, 1, 0),  # off the card, failure: still $1
    ],
)
@pytest.mark.rule("deadwood_studios", "acting.roll")
@pytest.mark.rule("deadwood_studios", "acting.pay")
@pytest.mark.rule("deadwood_studios", "bank.unlimited")
def test_acting_pays_by_the_card(role: str, on_card: bool, die: int, success: bool, dollars: int, credits: int) -> None:
    st = on_main_street(role, die)
    act(st, 0, Act())
    assert (st.dollars[0], st.credits[0]) == (dollars, credits)
    assert events_of(st, Acted) == [Acted(0, "main_street", role, on_card, die, 0, die, 4, success, dollars, credits)]
    assert st.shots_left[MAIN_STREET] == (2 if success else 3)
    assert events_of(st, ShotRemoved) == ([ShotRemoved("main_street", 2, 3)] if success else [])
    assert st.role[0] >= 0 and st.to_act == (1,)  # still on the role; the turn is over


@pytest.mark.rule("deadwood_studios", "rehearsing.chips")
@pytest.mark.rule("deadwood_studios", "acting.roll")
def test_practice_chips_add_to_the_roll() -> None:
    st = on_main_street("Defrocked Priest", 2, chips=2)
    act(st, 0, Act())
    (acted,) = events_of(st, Acted)
    assert (acted.die, acted.chips, acted.total, acted.budget, acted.success) == (2, 2, 4, 4, True)
    assert st.chips[0] == 2  # chips stay for the next shots
    st = on_main_street("Defrocked Priest", 1, chips=2)
    act(st, 0, Act())
    assert events_of(st, Acted)[0].success is False and st.credits[0] == 0


@pytest.mark.rule("deadwood_studios", "rehearsing.chips")
@pytest.mark.rule("deadwood_studios", "rehearsing.limit")
def test_rehearsing_adds_a_chip_until_success_is_sure() -> None:
    st = on_main_street("Defrocked Priest", 6, chips=1)
    act(st, 0, Rehearse())
    assert st.chips[0] == 2 and (st.dollars[0], st.credits[0]) == (0, 0)
    assert events_of(st, Rehearsed) == [Rehearsed(0, "main_street", "Defrocked Priest", 2, 4)]
    assert st.to_act == (1,)
    # 3 chips on a $4M film: a roll of 1 succeeds, so you must act
    st = on_main_street("Defrocked Priest", 1, chips=2)
    act(st, 0, Rehearse())
    assert st.chips[0] == 3
    act(st, 1, EndTurn())
    act(st, 2, EndTurn())
    assert st.legal_actions(0) == [Act()]
    with pytest.raises(IllegalAction):
        st.apply(0, Rehearse())
    act(st, 0, Act())
    assert events_of(st, Acted)[0].total == 4 and events_of(st, Acted)[0].success


def five_million_on_the_bank(dice: list[int]):
    """Disaster at Flying J ($5M: Piano Player 2, Man in Turban 3, Falls on Hoe 4) on the Bank (one
    shot): seat 0 on Falls on Hoe (top), 1 on Man in Turban, 2 on Piano Player, 3 (rank 4) on the
    extra Suspicious Gentleman (rank 2); seat 0 rolls ``dice[0]`` to act, the rest are bonus dice."""
    return position(
        4,
        scenes={"bank": card(17)},
        rooms={0: "bank", 1: "bank", 2: "bank", 3: "bank"},
        ranks={0: 4, 1: 3, 2: 2, 3: 4},
        roles={0: "Falls on Hoe", 1: "Man in Turban", 2: "Piano Player", 3: "Suspicious Gentleman"},
        dice=dice,
    )


@pytest.mark.rule("deadwood_studios", "wrap.example")
@pytest.mark.rule("deadwood_studios", "wrap.on-card-bonus")
@pytest.mark.rule("deadwood_studios", "acting.pays-before-wrap")
def test_the_rulebooks_five_million_example() -> None:
    st = five_million_on_the_bank([5, 2, 6, 1, 5, 3])  # act: 5; bonus dice 6 5 3 2 1 in any order
    act(st, 0, Act())
    # top $8 (6+2), middle $6 (5+1), low $3; the extra the rank of its role, not its player's
    assert st.dollars == [8, 6, 3, 2]
    assert st.credits == [2, 0, 0, 0]  # the act itself paid two credits
    (wrapped,) = events_of(st, SceneWrapped)
    assert wrapped == SceneWrapped(
        "bank",
        COMP.scenes[card(17)],
        True,
        0,
        (6, 5, 3, 2, 1),
        (
            BonusShare("Falls on Hoe", 4, True, 0, (6, 2), 8),
            BonusShare("Man in Turban", 3, True, 1, (5, 1), 6),
            BonusShare("Piano Player", 2, True, 2, (3,), 3),
            BonusShare("Suspicious Gentleman", 2, False, 3, (), 2),
        ),
        9,
    )
    assert st.chance.dice == []  # exactly budget-many bonus dice


@pytest.mark.rule("deadwood_studios", "wrap.on-card-bonus")
def test_deal_bonus_wraps_around() -> None:
    assert deal_bonus([5, 3, 6, 1, 2], 3) == [[3], [5, 1], [6, 2]]
    assert deal_bonus([1, 2, 3, 4, 5, 6], 3) == [[4, 1], [5, 2], [6, 3]]
    assert deal_bonus([4, 1], 2) == [[1], [4]]
    assert deal_bonus([2, 5], 1) == [[5, 2]]


@pytest.mark.rule("deadwood_studios", "wrap.on-card-bonus")
@pytest.mark.rule("deadwood_studios", "wrap.off-card-bonus")
def test_six_dice_wrap_around_three_roles() -> None:
    # Swing 'em Wide ($6M: Thrifty Mike 1, Sober Physician 3, Man on Floor 5) on the Jail (one shot)
    st = position(
        3,
        scenes={"jail": card(32)},
        rooms={0: "jail", 1: "jail", 2: "jail"},
        ranks={0: 5, 1: 3, 2: 1},
        roles={0: "Man on Floor", 1: "Sober Physician", 2: "Thrifty Mike"},
        chips={0: 5},
        dice=[1, 3, 1, 6, 4, 2, 5],
    )
    act(st, 0, Act())
    assert st.dollars == [6 + 3, 5 + 2, 4 + 1]


@pytest.mark.rule("deadwood_studios", "wrap.free-roles")
def test_dice_of_a_free_role_are_paid_to_no_one() -> None:
    st = position(
        2,
        scenes={"bank": card(17)},
        rooms={0: "bank", 1: "bank"},
        ranks={0: 2, 1: 3},
        roles={0: "Piano Player", 1: "Flustered Teller"},
        dice=[6, 6, 5, 3, 2, 1],
    )
    act(st, 0, Act())
    assert st.dollars == [3, 3]  # the low role's die; the extra its rank 3
    shares = events_of(st, SceneWrapped)[0].shares
    assert [(s.role, s.seat, s.dice, s.dollars) for s in shares] == [
        ("Falls on Hoe", -1, (6, 2), 0),
        ("Man in Turban", -1, (5, 1), 0),
        ("Piano Player", 0, (3,), 3),
        ("Flustered Teller", 1, (), 3),
    ]


@pytest.mark.rule("deadwood_studios", "wrap.nobody-on-card")
def test_no_bonus_without_anyone_on_the_card() -> None:
    st = position(
        2,
        scenes={"bank": card(17)},
        rooms={0: "bank", 1: "bank"},
        ranks={0: 3, 1: 2},
        roles={0: "Flustered Teller", 1: "Suspicious Gentleman"},
        dice=[6],  # the act only: no bonus dice are rolled
    )
    act(st, 0, Act())
    assert st.dollars == [1, 0] and st.credits == [1, 0]  # only the act's pay
    (wrapped,) = events_of(st, SceneWrapped)
    assert (wrapped.paid, wrapped.dice, wrapped.shares) == (False, (), ())


@pytest.mark.rule("deadwood_studios", "wrap.after")
def test_a_wrap_clears_the_set() -> None:
    st = five_million_on_the_bank([6, 1, 1, 1, 1, 1])
    st.chips[1] = 2
    act(st, 0, Act())
    assert st.role == [-1, -1, -1, -1] and st.chips == [0, 0, 0, 0] and st.on_card == [False] * 4
    assert st.room == [BANK] * 4  # everyone stays on the set
    assert st.scene[BANK] == -1 and st.removed == [card(17)] and st.shots_left[BANK] == 0
    assert st.extra_by[BANK] == [-1, -1] and st.star_by[BANK] == []
    check_cards(st)
    # next turn: free to move, and the wrapped set offers no role
    assert st.phase == "move" and st.to_act == (1,)
    assert not any(isinstance(a, TakeRole) for a in st.legal_actions(1))
    view = st.view(None)
    assert view.sets[BANK].wrapped and view.removed == (COMP.scenes[card(17)],) and view.scenes_left == 9


@pytest.mark.rule("deadwood_studios", "acting.shots")
def test_a_success_on_a_multi_shot_set_does_not_wrap() -> None:
    st = on_main_street("Defrocked Priest", 5)
    st.shots_left[MAIN_STREET] = 2
    act(st, 0, Act())
    assert st.shots_left[MAIN_STREET] == 1 and st.scene[MAIN_STREET] == card(1)
    assert events_of(st, SceneWrapped) == []
