"""Every Deadwood building's annex effect and control ability (summary: Annexing Buildings and its
tables; NOTES.md: Buildings). The Town Hall, the Hotel's rail payouts and the Stage Depot's end
bonus are in the railroad and end-of-game tests; the Undertaker's kills in the shootout tests."""

from __future__ import annotations

import pytest

from engine.deadwood_town.actions import (
    AdjustCrimePool,
    Annex,
    DeclareCartridge,
    DeclineAnnex,
    DrawFrom,
    Finish,
    GivePoster,
    HeadBack,
    Hire,
    HitTheTown,
    LookAtStack,
    MoveSheriff,
    MoveTo,
    PickCowboy,
    PutNext,
    ReturnCowboy,
    SendToMine,
    StealFrom,
)
from engine.deadwood_town.events import (
    BuildingAnnexed,
    Cowboy,
    CowboyHired,
    GoldMineRolled,
    MoneyGained,
    MoneyPaid,
    ShootoutEnded,
    ShootoutStarted,
    StackArranged,
    StackSeen,
    TileBuilt,
    TileDrawn,
    TollPaid,
)
from tests.deadwood_town_helpers import act, at, building, events_of, position, stack


def annex(st, seat, pid, strength=1):
    """Hit the Town at the empty building on ``pid`` and annex it."""
    act(st, seat, HitTheTown(strength, pid))
    act(st, seat, Annex())
    assert events_of(st, BuildingAnnexed)[-1].plot == pid


@pytest.mark.rule("deadwood_town", "building.bank")
def test_bank_pays_five_dollars_and_a_poster():
    st = position(town={"B1": "bank"})
    annex(st, 0, "B1")
    assert st.money == [10, 5] and st.posters == [1, 0] and st.crime_pool == 9


@pytest.mark.parametrize(("supply", "got"), [(20, 2), (1, 1), (0, 0)])
@pytest.mark.rule("deadwood_town", "building.gunsmith")
@pytest.mark.rule("deadwood_town", "components.supply")
def test_gunsmith_pays_a_dollar_and_two_cartridges_from_a_limited_supply(supply, got):
    st = position(town={"B1": "gunsmith"})
    st.cartridge_supply = supply
    annex(st, 0, "B1")
    assert st.money == [6, 5] and st.cartridges == [1 + got, 1] and st.cartridge_supply == supply - got


@pytest.mark.parametrize(("supply", "got"), [(8, 1), (0, 0)])
@pytest.mark.rule("deadwood_town", "building.blacksmith")
@pytest.mark.rule("deadwood_town", "components.supply")
def test_blacksmith_pays_a_dollar_and_a_pony(supply, got):
    st = position(town={"B1": "blacksmith"})
    st.pony_supply = supply
    annex(st, 0, "B1")
    assert st.money == [6, 5] and st.ponies == [1 + got, 1] and st.pony_supply == supply - got


@pytest.mark.rule("deadwood_town", "building.casino")
def test_casino_steals_a_dollar_from_the_chosen_player():
    st = position(3, town={"B1": "casino"}, money=[5, 0, 3])
    annex(st, 0, "B1")
    assert st.legal_actions(0) == [StealFrom(1), StealFrom(2)]
    act(st, 0, StealFrom(2))
    assert st.money == [6, 0, 2] and events_of(st, MoneyPaid) == [MoneyPaid(2, 1, 0, "casino")]


@pytest.mark.rule("deadwood_town", "building.casino")
@pytest.mark.rule("deadwood_town", "components.supply")
@pytest.mark.rule("deadwood_town", "turn.forced-choices")
def test_casino_from_a_player_without_money_takes_nothing_and_two_players_need_no_choice():
    st = position(town={"B1": "casino"}, money=[5, 0])
    annex(st, 0, "B1")
    assert st.money == [5, 0] and st.to_act == (1,)


@pytest.mark.rule("deadwood_town", "building.general-store")
def test_general_store_moves_another_cowboy_to_an_empty_building_where_it_does_not_annex():
    st = position(
        town={"B1": "general_store", "C1": "bank", "C2": "gunsmith"},
        cowboys={"C1": [(1, 2)], "C2": [(0, 3)]},
        ranch={0: (1, 0, 0), 1: (1, 1, 1)},
    )
    annex(st, 0, "B1")
    assert st.money == [6, 5]
    assert st.legal_actions(0) == [PickCowboy("C1", 1, 2), PickCowboy("C2", 0, 3)]
    act(st, 0, PickCowboy("C1", 1, 2))
    # not C1 itself, not the Sheriff's Office or the protected... B2/B3 are open plots here
    assert st.legal_actions(0) == [MoveTo(p) for p in ("A1", "A2", "A3", "B1", "C2")]
    act(st, 0, MoveTo("A1"))
    assert at(st, "A1") == [(1, 2)] and at(st, "C1") == []
    assert events_of(st, BuildingAnnexed)[-1].seat == 0  # the Town Hall was not annexed
    assert st.rails == 0 and st.to_act == (1,)


@pytest.mark.rule("deadwood_town", "building.general-store")
@pytest.mark.rule("deadwood_town", "building.general-store-targets")
def test_general_store_move_onto_an_occupied_building_is_a_shootout_without_annex():
    """The moved cowboy attacks; the General Store's player takes the poster; the moved cowboy's
    owner declares its cartridge; winning, it does not annex."""
    st = position(
        3,
        town={"B1": "general_store", "C1": "bank", "C2": "gunsmith"},
        cowboys={"C1": [(1, 3)], "C2": [(2, 1)]},
        cartridges=[0, 1, 0],
        ponies=[0, 0, 0],
        dice=["skull"],
    )
    annex(st, 0, "B1")
    act(st, 0, PickCowboy("C1", 1, 3))
    assert MoveTo("C2") in st.legal_actions(0)
    act(st, 0, MoveTo("C2"))
    assert events_of(st, ShootoutStarted) == [ShootoutStarted("C2", "gunsmith", Cowboy(1, 3), Cowboy(2, 1), 0)]
    assert st.posters == [1, 0, 0]
    assert st.to_act == (1,) and st.phase == "cartridge"
    act(st, 1, DeclareCartridge(False))
    assert events_of(st, ShootoutEnded) == [ShootoutEnded("C2", "attacker_won")]
    assert at(st, "C2") == [(1, 3)] and st.money == [6, 5, 5] and st.to_act == (1,) and st.phase == "turn"


@pytest.mark.rule("deadwood_town", "building.general-store-targets")
def test_general_store_never_moves_into_an_occupied_protected_building_or_next_to_its_owner():
    st = position(
        town={"B1": "general_store", "B2": "bank", "C1": "gunsmith"},
        cowboys={"B2": [(1, 1)], "C1": [(1, 2)], "A2": [(0, 3)]},
        ranch={0: (1, 0, 0), 1: (0, 0, 1)},
    )
    annex(st, 0, "B1")
    act(st, 0, PickCowboy("A2", 0, 3))
    assert MoveTo("B2") not in st.legal_actions(0)  # protected and occupied
    act(st, 0, MoveTo("A1"))
    st = position(
        town={"B1": "general_store", "C1": "bank", "C2": "gunsmith"},
        cowboys={"C1": [(1, 1)], "C2": [(1, 2)]},
    )
    annex(st, 0, "B1")
    act(st, 0, PickCowboy("C1", 1, 1))
    assert MoveTo("C2") not in st.legal_actions(0)  # seat 1 is there already


@pytest.mark.parametrize("kind", ["hotel", "stage_depot", "laundry", "undertaker"])
@pytest.mark.rule("deadwood_town", "building.hotel")
@pytest.mark.rule("deadwood_town", "building.laundry")
@pytest.mark.rule("deadwood_town", "building.undertaker")
@pytest.mark.rule("deadwood_town", "building.stage-depot")
def test_money_buildings_pay_on_annex(kind):
    st = position(town={"B1": kind}, stacks={"1": []}, dice=[])
    annex(st, 0, "B1")
    if kind == "stage_depot":
        act(st, 0, DrawFrom("2"))
        act(st, 0, st.legal_actions(0)[0])
    expected = {"hotel": 2, "stage_depot": 2, "laundry": 1, "undertaker": 1}[kind]
    assert events_of(st, MoneyGained)[0] == MoneyGained(0, expected, kind)


@pytest.mark.rule("deadwood_town", "building.stage-depot")
def test_stage_depot_draws_from_the_chosen_stack_and_builds_next_to_the_town():
    st = position(town={"B1": "stage_depot"}, stacks={"3": ["grifter", "newspaper"]})
    annex(st, 0, "B1")
    assert st.legal_actions(0) == [DrawFrom("1"), DrawFrom("2"), DrawFrom("3")]
    act(st, 0, DrawFrom("3"))
    assert events_of(st, TileDrawn) == [TileDrawn(0, "3", "grifter", "stage_depot")]
    assert st.view(None).tile == "grifter"
    plots = [a.plot for a in st.legal_actions(0)]
    assert plots == ["B2", "B3", "B4", "C1", "C2"]  # open plots next to a building
    act(st, 0, st.legal_actions(0)[3])
    assert building(st, "C1") == "grifter" and stack(st, "3")[0] == "newspaper"
    assert events_of(st, TileBuilt) == [TileBuilt(0, "C1", "grifter")]


@pytest.mark.parametrize("kind", ["saloon", "saloon_x"])
@pytest.mark.rule("deadwood_town", "building.saloon")
def test_saloon_hires_what_the_player_can_afford_into_the_abandoned_mine(kind):
    st = position(town={"B1": kind}, money=[1, 5])
    annex(st, 0, "B1")
    assert st.legal_actions(0) == [Hire(1), Hire(2)]
    act(st, 0, Hire(2))
    assert st.money == [0, 5] and st.unhired[0] == [0, 2, 1, 2] and st.mine[0] == [0, 0, 1, 0]
    assert events_of(st, CowboyHired) == [CowboyHired(0, 2, 1)]


@pytest.mark.rule("deadwood_town", "building.saloon")
@pytest.mark.rule("deadwood_town", "annex.all-or-nothing")
def test_saloon_with_nothing_left_to_hire_is_skipped():
    st = position(town={"B1": "saloon"}, money=[0, 5])
    st.unhired[0] = [0, 0, 1, 1]
    annex(st, 0, "B1")
    assert st.mine[0] == [0, 0, 0, 0] and st.to_act == (1,)


@pytest.mark.parametrize(("face", "money"), [("skull", 0), ("blank", 1), ("crossed_guns", 2), ("star", 5)])
@pytest.mark.rule("deadwood_town", "building.gold-mine")
@pytest.mark.rule("deadwood_town", "building.gold-mine-table")
def test_gold_mine_pays_by_the_die(face, money):
    st = position(town={"B1": "gold_mine"}, dice=[face])
    annex(st, 0, "B1")
    assert events_of(st, GoldMineRolled) == [GoldMineRolled(0, face, money)]
    assert st.money == [5 + money, 5]


@pytest.mark.rule("deadwood_town", "building.fortune-teller")
@pytest.mark.rule("deadwood_town", "building.fortune-teller-knowledge")
def test_fortune_teller_looks_at_a_stack_privately_and_rearranges_it():
    st = position(town={"B1": "fortune_teller"}, stacks={"3": ["grifter", "newspaper", "dance_hall"]})
    annex(st, 0, "B1")
    assert st.legal_actions(0) == [LookAtStack("1"), LookAtStack("2"), LookAtStack("3")]
    act(st, 0, LookAtStack("3"))
    order = tuple(stack(st, "3"))
    assert events_of(st, StackSeen, 0) == [StackSeen(0, "3", order)]
    assert events_of(st, StackSeen, 1) == [StackSeen(0, "3", None)]
    assert st.view(0).stacks[2].order == order and st.view(1).stacks[2].order == (None,) * 5
    assert st.legal_actions(0)[:3] == [PutNext("grifter"), PutNext("newspaper"), PutNext("dance_hall")]
    act(st, 0, PutNext("dance_hall"))
    assert st.view(0).pending.arranged == ("dance_hall",) and st.view(1).pending.arranged == ()
    act(st, 0, PutNext("courthouse"))
    act(st, 0, Finish())
    assert stack(st, "3")[:3] == ["dance_hall", "courthouse", "grifter"]
    assert st.view(0).stacks[2].order == tuple(stack(st, "3"))
    assert events_of(st, StackArranged, 0)[-1].order == tuple(stack(st, "3"))
    assert events_of(st, StackArranged, None)[-1].order is None
    assert st.money == [6, 5] and st.to_act == (1,)


@pytest.mark.rule("deadwood_town", "building.fortune-teller-knowledge")
def test_what_the_fortune_teller_saw_stays_known_through_draws_until_someone_else_looks():
    st = position(3, town={"B1": "fortune_teller", "C1": "stage_depot"})
    annex(st, 0, "B1")
    act(st, 0, LookAtStack("2"))
    act(st, 0, Finish())
    seen = tuple(stack(st, "2"))
    annex(st, 1, "C1")
    act(st, 1, DrawFrom("2"))
    act(st, 1, st.legal_actions(1)[0])
    assert st.view(0).stacks[1].order == seen[1:]
    assert st.view(2).stacks[1].order == (None,) * 5


@pytest.mark.rule("deadwood_town", "building.courthouse")
@pytest.mark.rule("deadwood_town", "components.supply")
def test_courthouse_fines_everyone_a_dollar_per_poster_down_to_zero():
    st = position(3, town={"B1": "courthouse"}, money=[5, 1, 5], posters=[2, 3, 0])
    annex(st, 0, "B1")
    assert st.money == [3, 0, 5]
    assert events_of(st, MoneyPaid) == [MoneyPaid(0, 2, -1, "courthouse"), MoneyPaid(1, 1, -1, "courthouse")]


@pytest.mark.rule("deadwood_town", "building.grifter")
@pytest.mark.rule("deadwood_town", "building.first-cowboy-compulsory")
def test_grifter_sends_up_to_two_opponent_cowboys_to_the_mine():
    st = position(
        3,
        town={"B1": "grifter", "C1": "bank"},
        cowboys={"C1": [(1, 3)], "A3": [(0, 2), (2, 1)]},
        ranch={0: (1, 0, 0), 1: (1, 1, 0), 2: (1, 1, 1)},
    )
    annex(st, 0, "B1")
    assert st.legal_actions(0) == [SendToMine("A3", 2, 1), SendToMine("C1", 1, 3)]
    act(st, 0, SendToMine("C1", 1, 3))
    assert st.legal_actions(0) == [SendToMine("A3", 2, 1), Finish()]
    act(st, 0, SendToMine("A3", 2, 1))
    assert st.mine[1] == [0, 0, 0, 1] and st.mine[2] == [0, 1, 0, 0] and st.money == [6, 5, 5]
    assert st.to_act == (1,)


@pytest.mark.rule("deadwood_town", "building.newspaper")
@pytest.mark.rule("deadwood_town", "annex.all-or-nothing")
def test_newspaper_gives_one_of_your_posters_and_is_skipped_without_one():
    st = position(3, town={"B1": "newspaper"}, posters=[2, 0, 0])
    annex(st, 0, "B1")
    act(st, 0, GivePoster(2))
    assert st.posters == [1, 0, 1] and st.money == [6, 5, 5]
    st = position(3, town={"B1": "newspaper"})
    annex(st, 0, "B1")
    assert st.posters == [0, 0, 0] and st.to_act == (1,)


@pytest.mark.rule("deadwood_town", "building.dance-hall")
@pytest.mark.rule("deadwood_town", "building.first-cowboy-compulsory")
def test_dance_hall_returns_one_or_two_of_your_cowboys_itself_included():
    st = position(
        town={"B1": "dance_hall"}, cowboys={"A3": [(0, 3)]}, mine={0: (0, 1, 0)}, ranch={0: (1, 0, 0), 1: (1, 1, 1)}
    )
    annex(st, 0, "B1")
    assert st.legal_actions(0) == [ReturnCowboy("A3", 3), ReturnCowboy("B1", 1), ReturnCowboy("mine", 2)]
    act(st, 0, ReturnCowboy("B1", 1))
    assert st.legal_actions(0) == [ReturnCowboy("A3", 3), ReturnCowboy("mine", 2), Finish()]
    act(st, 0, ReturnCowboy("mine", 2))
    assert st.ranch[0] == [0, 1, 1, 0] and at(st, "B1") == [] and st.to_act == (1,)


@pytest.mark.parametrize(("add", "pool", "box"), [(True, 12, 17), (False, 8, 21)])
@pytest.mark.rule("deadwood_town", "building.telegraph-office")
def test_telegraph_office_adds_or_removes_two_posters(add, pool, box):
    st = position(town={"B1": "telegraph_office"})
    annex(st, 0, "B1")
    assert st.legal_actions(0) == [AdjustCrimePool(True), AdjustCrimePool(False)]
    act(st, 0, AdjustCrimePool(add))
    assert (st.crime_pool, st.box, st.money[0]) == (pool, box, 6)


@pytest.mark.rule("deadwood_town", "building.telegraph-office")
@pytest.mark.rule("deadwood_town", "end.triggers")
def test_telegraph_office_emptying_the_crime_pool_ends_the_game():
    st = position(town={"B1": "telegraph_office"}, crime_pool=2, box=0)
    annex(st, 0, "B1")  # the box is empty: removing is the only choice
    assert st.crime_pool == 0 and st.box == 2 and st.is_over


@pytest.mark.rule("deadwood_town", "building.sheriffs-office")
def test_sheriffs_office_moves_the_sheriff_to_a_corner_touching_a_building():
    st = position(town={"E1": "bank"}, sheriff="S_A1_B1_B2")
    annex(st, 0, "A2")
    legal = [a.intersection for a in st.legal_actions(0)]
    assert "S_D1_E1_E2" in legal and "S_A2_B2_B3" in legal and "S_C3_D3_D4" not in legal
    act(st, 0, MoveSheriff("S_D1_E1_E2"))
    assert st.view(None).protected == ("D1", "E1", "E2") and st.to_act == (1,)


@pytest.mark.rule("deadwood_town", "building.sheriffs-office")
@pytest.mark.rule("deadwood_town", "sheriff.toll-ruling")
def test_the_sheriffs_office_controller_collects_the_toll_until_the_cowboy_leaves():
    st = position(town={"B2": "bank", "B3": "gunsmith"}, cowboys={"A2": [(0, 2)]}, current=1)
    act(st, 1, HitTheTown(1, "B2"))
    act(st, 1, DeclineAnnex())
    assert st.money == [6, 4]
    act(st, 0, HeadBack("A2", 2))  # the only cowboy in town: the turn ends
    act(st, 1, HitTheTown(2, "B3"))
    assert st.money == [6, 4] and events_of(st, TollPaid) == [TollPaid(1, 0, 1, "B2")]


@pytest.mark.rule("deadwood_town", "building.general-store-targets")
@pytest.mark.rule("deadwood_town", "building.church")
def test_general_store_moving_a_cowboy_into_the_church_only_joins():
    st = position(
        town={"B1": "general_store", "C1": "bank"},
        cowboys={"C1": [(1, 2)], "A3": [(0, 3)]},
        ranch={0: (1, 0, 0), 1: (1, 1, 1)},
    )
    annex(st, 0, "B1")
    act(st, 0, PickCowboy("C1", 1, 2))
    act(st, 0, MoveTo("A3"))
    assert events_of(st, ShootoutStarted) == [] and at(st, "A3") == [(0, 3), (1, 2)]
    assert st.posters == [0, 0] and st.to_act == (1,)


@pytest.mark.rule("deadwood_town", "building.fortune-teller-knowledge")
def test_fortune_teller_on_a_one_tile_stack_only_looks():
    st = position(town={"B1": "fortune_teller"})
    st.stacks["3"] = st.stacks["3"][-1:]
    annex(st, 0, "B1")
    act(st, 0, LookAtStack("3"))
    assert st.to_act == (1,) and [e.order for e in events_of(st, StackArranged, 0)] == [tuple(stack(st, "3"))]


def test_describe_refuses_what_is_not_a_deadwood_action():
    from engine.deadwood_town import GAME

    st = position()
    with pytest.raises(TypeError):
        GAME.describe("annex", st.view(0))
