"""Deadwood shootouts with scripted dice (summary: Shootouts; NOTES.md: Shootout, Outcomes)."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.deadwood_town.actions import Annex, DeclareCartridge, DeclineAnnex, HitTheTown, Skedaddle, StandAndFight
from engine.deadwood_town.events import (
    BuildingAnnexed,
    CartridgeDeclared,
    Cowboy,
    CowboyKilled,
    DiceCounted,
    MoneyGained,
    ShootoutEnded,
    ShootoutStarted,
    ShotRolled,
)
from tests.deadwood_town_helpers import act, at, events_of, position

NO_GEAR = {"cartridges": [0, 0], "ponies": [0, 0]}


@pytest.mark.rule("deadwood_town", "shootout.dice")
@pytest.mark.rule("deadwood_town", "shootout.outcomes")
def test_more_dice_roll_the_difference_first_then_one_each_and_both_survive():
    """2 dice against 1: the attacker rolls one die first, then one each; a single wound does
    nothing; both alive: the attacker goes to the Abandoned Mine, the defender keeps the Bank."""
    st = position(town={"B1": "bank"}, cowboys={"B1": [(1, 1)]}, dice=["star", "blank", "crossed_guns"], **NO_GEAR)
    act(st, 0, HitTheTown(2, "B1"))
    assert events_of(st, ShootoutStarted) == [ShootoutStarted("B1", "bank", Cowboy(0, 2), Cowboy(1, 1), 0)]
    assert events_of(st, DiceCounted) == [DiceCounted(2, 1, 0, 1)]
    assert events_of(st, ShotRolled) == [
        ShotRolled(1, 0, 1, "star", "wound", 1, False),
        ShotRolled(2, 0, 1, "blank", "miss", 1, False),
        ShotRolled(2, 1, 0, "crossed_guns", "wound", 1, False),
    ]
    assert events_of(st, ShootoutEnded) == [ShootoutEnded("B1", "both_survived")]
    assert at(st, "B1") == [(1, 1)]
    assert st.mine[0] == [0, 0, 1, 0] and st.ranch[0] == [0, 1, 0, 1]
    assert st.posters == [1, 0] and st.crime_pool == 9
    assert st.to_act == (1,) and st.phase == "turn"


@pytest.mark.rule("deadwood_town", "shootout.dice")
@pytest.mark.rule("deadwood_town", "shootout.outcomes")
def test_the_difference_dice_stop_at_a_death_and_the_winner_annexes():
    """3 dice against 1: two wounds in the first-strike dice kill the Greenhorn; no more dice are
    rolled; the Trail Boss may annex (the Bank: $5 and a poster) and the Undertaker pays $1."""
    st = position(
        town={"B1": "bank", "B2": "undertaker"},
        cowboys={"B1": [(1, 1)], "B2": [(1, 2)]},
        dice=["crossed_guns", "star"],
        **NO_GEAR,
    )
    act(st, 0, HitTheTown(3, "B1"))
    assert [e.face for e in events_of(st, ShotRolled)] == ["crossed_guns", "star"]
    assert events_of(st, ShotRolled)[-1] == ShotRolled(2, 0, 1, "star", "wound", 2, True)
    assert events_of(st, CowboyKilled) == [CowboyKilled(Cowboy(1, 1), "B1")]
    assert events_of(st, ShootoutEnded) == [ShootoutEnded("B1", "attacker_won")]
    assert st.boot_hill[1] == [0, 1, 0, 0]
    assert events_of(st, MoneyGained) == [MoneyGained(1, 1, "undertaker")]
    assert st.money == [5, 6]
    assert st.to_act == (0,) and st.phase == "annex"
    act(st, 0, Annex())
    assert events_of(st, BuildingAnnexed) == [BuildingAnnexed(0, "B1", "bank", False)]
    assert st.money == [10, 6] and st.posters == [2, 0] and st.crime_pool == 8
    assert at(st, "B1") == [(0, 3)]


@pytest.mark.rule("deadwood_town", "shootout.dice")
@pytest.mark.rule("deadwood_town", "shootout.outcomes")
@pytest.mark.rule("deadwood_town", "building.undertaker")
def test_a_skull_kills_at_once_and_a_simultaneous_pair_can_kill_both():
    """1 die each: skull and skull: both die, the building is left empty; the Undertaker's
    controller gets $1 per kill."""
    st = position(
        town={"B1": "bank", "B2": "undertaker"},
        cowboys={"B1": [(1, 1)], "B2": [(0, 2)]},
        dice=["skull", "skull"],
        **NO_GEAR,
    )
    act(st, 0, HitTheTown(1, "B1"))
    assert events_of(st, ShotRolled) == [
        ShotRolled(1, 0, 1, "skull", "kill", 0, True),
        ShotRolled(1, 1, 0, "skull", "kill", 0, True),
    ]
    assert events_of(st, ShootoutEnded) == [ShootoutEnded("B1", "both_killed")]
    assert at(st, "B1") == []
    assert st.boot_hill == [[0, 1, 0, 0], [0, 1, 0, 0]]
    assert st.money == [7, 5]


@pytest.mark.rule("deadwood_town", "shootout.dice")
@pytest.mark.rule("deadwood_town", "shootout.outcomes")
def test_the_defender_with_more_dice_shoots_first_and_keeps_the_building():
    st = position(town={"B1": "bank"}, cowboys={"B1": [(1, 3)]}, dice=["skull"], **NO_GEAR)
    act(st, 0, HitTheTown(1, "B1"))
    assert events_of(st, DiceCounted) == [DiceCounted(1, 3, 1, 2)]
    assert events_of(st, ShotRolled) == [ShotRolled(1, 1, 0, "skull", "kill", 0, True)]
    assert events_of(st, ShootoutEnded) == [ShootoutEnded("B1", "defender_won")]
    assert at(st, "B1") == [(1, 3)] and st.boot_hill[0] == [0, 1, 0, 0]
    assert st.to_act == (1,) and st.phase == "turn"


@pytest.mark.rule("deadwood_town", "shootout.skedaddle")
@pytest.mark.rule("deadwood_town", "shootout.poster")
def test_skedaddle_costs_a_pony_sends_the_defender_to_the_mine_and_the_attacker_may_annex():
    st = position(town={"B1": "bank"}, cowboys={"B1": [(1, 2)]}, ponies=[0, 1])
    act(st, 0, HitTheTown(1, "B1"))
    assert st.to_act == (1,) and st.legal_actions(1) == [Skedaddle(), StandAndFight()]
    act(st, 1, Skedaddle())
    assert st.ponies == [0, 0] and st.pony_supply == 10
    assert st.mine[1] == [0, 0, 1, 0] and at(st, "B1") == [(0, 1)]
    assert events_of(st, ShootoutEnded) == [ShootoutEnded("B1", "skedaddled")]
    assert st.posters == [1, 0]  # the attacker keeps the poster
    assert st.to_act == (0,) and st.phase == "annex"


@pytest.mark.rule("deadwood_town", "shootout.cartridges")
def test_cartridges_are_declared_attacker_first_then_defender_and_spent():
    """Each +1 die: 2 against 2, no first strike; two pairs rolled."""
    st = position(
        town={"B1": "bank"},
        cowboys={"B1": [(1, 1)]},
        cartridges=[1, 2],
        ponies=[0, 1],
        dice=["blank", "blank", "blank", "blank"],
    )
    act(st, 0, HitTheTown(1, "B1"))
    act(st, 1, StandAndFight())
    assert st.to_act == (0,) and st.phase == "cartridge"
    assert st.legal_actions(0) == [DeclareCartridge(True), DeclareCartridge(False)]
    act(st, 0, DeclareCartridge(True))
    assert st.to_act == (1,) and st.view(None).shootout.attacker_cartridge is True
    with pytest.raises(IllegalAction):
        st.apply(0, DeclareCartridge(True))
    act(st, 1, DeclareCartridge(True))
    assert events_of(st, CartridgeDeclared) == [
        CartridgeDeclared(0, "attacker", True),
        CartridgeDeclared(1, "defender", True),
    ]
    assert events_of(st, DiceCounted) == [DiceCounted(2, 2, -1, 0)]
    assert [(e.volley, e.shooter) for e in events_of(st, ShotRolled)] == [(1, 0), (1, 1), (2, 0), (2, 1)]
    assert st.cartridges == [0, 1]
    assert st.mine[0] == [0, 1, 0, 0]


@pytest.mark.rule("deadwood_town", "shootout.poster")
@pytest.mark.rule("deadwood_town", "end.timing")
def test_a_shootout_with_an_empty_crime_pool_takes_no_poster_and_ends_the_game():
    st = position(town={"B1": "bank"}, cowboys={"B1": [(1, 1)]}, crime_pool=0, dice=["blank", "blank"], **NO_GEAR)
    act(st, 0, HitTheTown(1, "B1"))
    assert events_of(st, ShootoutStarted)[0].poster_to == -1
    assert st.posters == [0, 0]
    assert st.is_over


@pytest.mark.rule("deadwood_town", "shootout.dice")
def test_wounds_heal_after_a_shootout():
    """A Gunslinger wounded once in one shootout survives a single wound in the next one."""
    st = position(
        town={"B1": "bank"},
        cowboys={"B1": [(1, 2)]},
        dice=["star", "blank", "blank", "blank"] + ["blank", "star", "blank"],
        **NO_GEAR,
    )
    act(st, 0, HitTheTown(2, "B1"))  # 2 against 2: the star wounds seat 1's Gunslinger
    assert events_of(st, ShotRolled)[0] == ShotRolled(1, 0, 1, "star", "wound", 1, False)
    assert events_of(st, ShootoutEnded) == [ShootoutEnded("B1", "both_survived")]
    act(st, 1, HitTheTown(1, "A1"))
    act(st, 1, DeclineAnnex())
    act(st, 0, HitTheTown(1, "B1"))  # 1 against 2: the defender's extra die, then a pair
    assert events_of(st, ShotRolled)[-3:] == [
        ShotRolled(1, 1, 0, "blank", "miss", 0, False),
        ShotRolled(2, 0, 1, "star", "wound", 1, False),
        ShotRolled(2, 1, 0, "blank", "miss", 0, False),
    ]
    assert at(st, "B1") == [(1, 2)] and st.mine[0] == [0, 1, 1, 0]
