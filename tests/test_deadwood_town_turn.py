"""Deadwood turns: Head Back to the Ranch, Hit the Town and its restrictions, the Sheriff, the
Church, passing (summary: Turn Structure, Actions, The Sheriff; NOTES.md rules 4 and 9)."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.deadwood_town.actions import (
    Annex,
    DeclineAnnex,
    Finish,
    HeadBack,
    HitTheTown,
)
from engine.deadwood_town.events import (
    BuildingAnnexed,
    CowboyHeadedBack,
    PostersReturned,
    ShootoutStarted,
    TollPaid,
    TurnPassed,
    TurnStarted,
)
from engine.deadwood_town.state import EMPTY
from tests.deadwood_town_helpers import COMP, act, at, building, events_of, plot, position


@pytest.mark.rule("deadwood_town", "hit-the-town.place")
def test_hit_the_town_goes_to_buildings_only_never_where_you_already_are():
    """Not an open plot, a rail, the Abandoned Mine or a building with your own cowboy; buildings
    by strength then plot; then Head Back for each cowboy in town or in the Mine."""
    st = position(
        town={"B1": "bank", "C2": "gunsmith", "D6": "hotel"},
        rails=1,
        cowboys={"C2": [(0, 2)], "B1": [(1, 1)]},
        ranch={0: (1, 0, 1), 1: (1, 1, 1)},
        mine={0: (0, 0, 1)},
    )
    assert building(st, "D6") == "rail"
    plots = ["A1", "A2", "A3", "B1"]  # not C2 (own cowboy), not D6 (rail), no open plot
    assert st.legal_actions(0) == [
        *(HitTheTown(1, p) for p in plots),
        *(HitTheTown(3, p) for p in plots),
        HeadBack("C2", 2),
        HeadBack("mine", 3),
    ]
    assert st.legal_actions(1) == []


@pytest.mark.rule("deadwood_town", "head-back.cowboys")
def test_head_back_takes_one_or_more_cowboys_one_at_a_time_then_finish():
    st = position(town={"B1": "bank"}, cowboys={"B1": [(0, 2)], "A3": [(0, 1), (1, 1)]}, mine={0: (0, 0, 1)})
    act(st, 0, HeadBack("B1", 2))
    assert st.phase == "head_back" and st.to_act == (0,)
    assert st.legal_actions(0) == [HeadBack("A3", 1), HeadBack("mine", 3), Finish()]
    act(st, 0, HeadBack("mine", 3))
    act(st, 0, Finish())
    assert events_of(st, CowboyHeadedBack) == [CowboyHeadedBack(0, "B1", 2), CowboyHeadedBack(0, "mine", 3)]
    assert st.ranch[0] == [0, 1, 2, 2] and st.mine[0] == [0, 0, 0, 0] and at(st, "A3") == [(0, 1), (1, 1)]
    assert st.to_act == (1,) and events_of(st, TurnStarted) == [TurnStarted(1)]


@pytest.mark.rule("deadwood_town", "head-back.cowboys")
@pytest.mark.rule("deadwood_town", "turn.forced-choices")
def test_the_last_cowboy_heading_back_leaves_only_finish_which_the_engine_takes():
    st = position(town={"B1": "bank"}, cowboys={"B1": [(0, 2)]})
    act(st, 0, HeadBack("B1", 2))
    assert st.to_act == (1,)


@pytest.mark.rule("deadwood_town", "turn.one-action")
def test_there_is_no_passing_and_illegal_actions_change_nothing():
    st = position(town={"B1": "bank"})
    digest = st.digest()
    for bad in (Finish(), HitTheTown(1, "C1"), HitTheTown(1, "B2"), HeadBack("B1", 1), HitTheTown(True, "B1")):
        with pytest.raises(IllegalAction):
            st.apply(0, bad)
    with pytest.raises(IllegalAction):
        st.apply(1, HitTheTown(1, "B1"))
    assert st.digest() == digest


@pytest.mark.rule("deadwood_town", "hit-the-town.annex-or-shootout")
@pytest.mark.rule("deadwood_town", "annex.all-or-nothing")
def test_entering_an_empty_building_offers_the_annex_and_declining_does_nothing():
    st = position(town={"B1": "bank"})
    act(st, 0, HitTheTown(1, "B1"))
    assert st.legal_actions(0) == [Annex(), DeclineAnnex()]
    act(st, 0, DeclineAnnex())
    assert st.money == [5, 5] and st.posters == [0, 0] and at(st, "B1") == [(0, 1)]
    assert st.to_act == (1,)


@pytest.mark.rule("deadwood_town", "sheriff.protection")
@pytest.mark.rule("deadwood_town", "sheriff.toll-ruling")
def test_the_sheriff_forbids_shootouts_in_his_plots_and_takes_a_toll_for_his_office():
    """Sheriff on A2/B2/B3: B2 (held by seat 0) cannot be entered by seat 1; B3 costs seat 1 $1,
    paid to seat 0 who controls the Sheriff's Office; seat 0 enters for free."""
    st = position(
        town={"B2": "bank", "B3": "gunsmith", "C1": "hotel"},
        cowboys={"A2": [(0, 1)], "B2": [(0, 2)]},
        ranch={0: (0, 0, 1), 1: (1, 1, 1)},
        current=1,
    )
    legal = st.legal_actions(1)
    assert HitTheTown(1, "B2") not in legal and HitTheTown(1, "A2") not in legal
    assert HitTheTown(1, "C1") in legal and HitTheTown(1, "B3") in legal
    act(st, 1, HitTheTown(1, "B3"))
    assert events_of(st, TollPaid) == [TollPaid(1, 0, 1, "B3")]
    assert st.money == [6, 4]
    act(st, 1, DeclineAnnex())
    act(st, 0, HitTheTown(3, "A1"))  # Town Hall is not protected
    act(st, 0, DeclineAnnex())
    assert st.money == [6, 4]


@pytest.mark.rule("deadwood_town", "sheriff.toll-ruling")
def test_no_toll_when_nobody_controls_the_sheriffs_office_and_no_entry_without_the_money():
    st = position(town={"B2": "bank", "C1": "hotel"}, money=[0, 0])
    assert HitTheTown(1, "B2") in st.legal_actions(0)  # nobody controls the office
    st = position(town={"B2": "bank", "C1": "hotel"}, cowboys={"A2": [(1, 1)]}, money=[0, 0])
    legal = st.legal_actions(0)
    assert HitTheTown(1, "B2") not in legal and HitTheTown(1, "B3") not in legal
    assert HitTheTown(1, "C1") in legal


@pytest.mark.rule("deadwood_town", "building.church")
@pytest.mark.rule("deadwood_town", "building.laundry")
def test_the_church_is_shared_without_shootouts_and_every_entrant_annexes():
    """Church: return a poster (one more per Laundry the player controls)."""
    st = position(
        town={"B1": "laundry", "C1": "laundry"},
        cowboys={"A3": [(1, 1)], "B1": [(0, 3)], "C1": [(0, 1)]},
        posters=[4, 1],
        ranch={0: (0, 1, 0), 1: (1, 1, 1)},
    )
    act(st, 0, HitTheTown(2, "A3"))
    assert events_of(st, ShootoutStarted) == []
    assert events_of(st, BuildingAnnexed) == [BuildingAnnexed(0, "A3", "church", False)]
    assert events_of(st, PostersReturned) == [PostersReturned(0, 3, "church")]
    assert st.posters == [1, 1] and at(st, "A3") == [(0, 2), (1, 1)]
    assert st.to_act == (1,)


@pytest.mark.rule("deadwood_town", "building.church")
@pytest.mark.rule("deadwood_town", "sheriff.toll-ruling")
def test_a_church_protected_by_the_sheriff_can_still_be_joined():
    st = position(cowboys={"A3": [(1, 1)]}, sheriff="S_A3_B3_B4", posters=[1, 0])
    act(st, 0, HitTheTown(1, "A3"))
    assert st.posters == [0, 0] and at(st, "A3") == [(0, 1), (1, 1)]


@pytest.mark.rule("deadwood_town", "turn.no-legal-action")
def test_a_player_who_can_neither_head_back_nor_hit_the_town_passes():
    """NOTES.md rule 9: the only exception to "cannot pass"."""
    st = position(sheriff="S_A1_A2_B2", cowboys={"A2": [(0, 1)]}, ranch={0: (0, 1, 0), 1: (1, 0, 0)}, money=[5, 0])
    st.board[plot("A3")] = EMPTY  # no Church: every building is protected
    st.tile_plot[COMP.tile_kind.index("church")] = -1
    st.ask(0, "turn")
    act(st, 0, HitTheTown(2, "A1"))
    act(st, 0, DeclineAnnex())
    assert events_of(st, TurnPassed) == [TurnPassed(1)]
    assert st.to_act == (0,) and st.current == 0


def test_describe_names_the_cowboy_and_the_building_and_never_says_your_for_another_seat():
    from engine.core import OMNISCIENT
    from engine.deadwood_town import GAME

    st = position(town={"B1": "bank"}, cowboys={"A3": [(0, 3)]})
    hit = HitTheTown(2, "B1")
    assert GAME.describe(hit, st.view(0)) == "Hit the Town: send your Gunslinger to the Bank (B1)"
    assert GAME.describe(hit, st.view(OMNISCIENT), 0) == "Hit the Town: send a Gunslinger to the Bank (B1)"
    assert (
        GAME.describe(HeadBack("A3", 3), st.view(0)) == "Head back to the Ranch: your Trail Boss from the Church (A3)"
    )
    act(st, 0, hit)
    assert GAME.describe(Annex(), st.view(0)) == "Annex the Bank (B1)"
    assert GAME.describe(DeclineAnnex(), st.view(1), 0) == "Do not annex the Bank (B1)"
