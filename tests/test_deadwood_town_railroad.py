"""Deadwood's Town Hall, railroad, Train Station and new buildings (summary: The Railroad; NOTES.md
rules 5-7 and the Town Hall notes)."""

from __future__ import annotations

import pytest

from engine.deadwood_town.actions import Annex, BuildOn, ChooseTile, DeclineAnnex, DrawFrom, HitTheTown, PlaceStation
from engine.deadwood_town.events import (
    BuildingAnnexed,
    BuildingDestroyed,
    Cowboy,
    MoneyGained,
    PostersReturned,
    RailPlaced,
    StationBuilt,
    TileBuilt,
    TileDrawn,
    TileToBottom,
)
from tests.deadwood_town_helpers import act, at, building, events_of, position, stack

TOWN = {"D6": "blacksmith", "C1": "hotel", "C5": "bank", "E7": "gunsmith"}
COWBOYS = {"D6": [(1, 2)], "C1": [(1, 1)], "C5": [(1, 3)], "E7": [(0, 2)]}
STACKS = {"1": ["casino"], "2": ["saloon"], "3": ["grifter"]}


@pytest.mark.rule("deadwood_town", "building.town-hall")
@pytest.mark.rule("deadwood_town", "railroad.rail")
@pytest.mark.rule("deadwood_town", "railroad.new-buildings")
@pytest.mark.rule("deadwood_town", "building.hotel")
def test_town_hall_returns_a_poster_lays_a_rail_that_destroys_and_builds_from_each_stack():
    st = position(town=TOWN, cowboys=COWBOYS, posters=[1, 0], stacks=STACKS, options={"adjacent_reannex": False})
    act(st, 0, HitTheTown(1, "A1"))
    act(st, 0, Annex())
    assert events_of(st, PostersReturned) == [PostersReturned(0, 1, "town_hall")]
    assert events_of(st, RailPlaced) == [RailPlaced(0, 1, "D6")]
    assert events_of(st, BuildingDestroyed) == [BuildingDestroyed("D6", "blacksmith", (Cowboy(1, 2),))]
    assert events_of(st, TileToBottom) == [TileToBottom("1", "blacksmith", "destroyed")]
    assert building(st, "D6") == "rail" and at(st, "D6") == [] and st.mine[1] == [0, 0, 1, 0]
    assert stack(st, "1")[-1] == "blacksmith" and st.view(None).stacks[0].order[-1] == "blacksmith"
    assert events_of(st, MoneyGained) == [MoneyGained(1, 2, "hotel")]
    for kind in ("casino", "saloon", "grifter"):
        assert st.phase == "build" and st.view(0).tile == kind
        assert BuildOn("D5") in st.legal_actions(0) and BuildOn("E1") not in st.legal_actions(0)
        act(st, 0, st.legal_actions(0)[0])
    assert [e.building for e in events_of(st, TileDrawn)] == ["casino", "saloon", "grifter"]
    assert [(e.plot, e.building) for e in events_of(st, TileBuilt)] == [
        ("B1", "casino"),
        ("B2", "saloon"),
        ("B3", "grifter"),
    ]
    assert st.to_act == (1,) and st.phase == "turn"


@pytest.mark.rule("deadwood_town", "railroad.adjacent-reannex")
def test_players_alone_next_to_a_new_rail_may_annex_again_active_player_first():
    """``adjacent_reannex`` (default): after the Town Hall's effect, seat 0 (E7, Gunsmith) then
    seat 1 (C5, Bank); the Hotel (C1) is not next to D6."""
    st = position(town=TOWN, cowboys=COWBOYS, stacks=STACKS)
    act(st, 0, HitTheTown(1, "A1"))
    act(st, 0, Annex())
    for _ in range(3):
        act(st, 0, st.legal_actions(0)[0])
    assert st.to_act == (0,) and st.phase == "annex" and st.view(0).pending.plot == "E7"
    act(st, 0, Annex())
    assert st.to_act == (1,) and st.view(1).pending.plot == "C5" and st.view(1).pending.bonus
    act(st, 1, Annex())
    bonus = [e for e in events_of(st, BuildingAnnexed) if e.bonus]
    assert bonus == [BuildingAnnexed(0, "E7", "gunsmith", True), BuildingAnnexed(1, "C5", "bank", True)]
    assert st.cartridges == [3, 1] and st.money == [6, 12] and st.posters == [0, 1]
    assert st.to_act == (1,) and st.phase == "turn"


@pytest.mark.rule("deadwood_town", "railroad.new-buildings")
@pytest.mark.rule("deadwood_town", "options.switches")
def test_town_hall_build_mode_one_builds_one_tile_and_puts_the_others_under_their_stacks():
    st = position(stacks=STACKS, options={"town_hall_build": "one"})
    act(st, 0, HitTheTown(1, "A1"))
    act(st, 0, Annex())
    assert st.legal_actions(0) == [
        ChooseTile("1", "casino"),
        ChooseTile("2", "saloon"),
        ChooseTile("3", "grifter"),
    ]
    act(st, 0, ChooseTile("2", "saloon"))
    assert events_of(st, TileToBottom) == [
        TileToBottom("1", "casino", "not_chosen"),
        TileToBottom("3", "grifter", "not_chosen"),
    ]
    assert stack(st, "1")[-1] == "casino" and stack(st, "3")[-1] == "grifter"
    act(st, 0, BuildOn("B1"))
    assert building(st, "B1") == "saloon" and st.to_act == (1,)


FULL = {
    **dict(
        zip(
            ["E1", "E2", "E3", "E4", "E5", "E6", "E7", "D1", "D2", "C1", "C2", "C3", "C4", "C5", "B1", "B2", "B3"],
            ["bank", "gunsmith", "blacksmith", "casino", "general_store", "hotel", "laundry", "undertaker"]
            + ["gunsmith", "blacksmith", "general_store", "laundry", "saloon", "gold_mine"]
            + ["fortune_teller", "courthouse", "grifter"],
            strict=True,
        )
    ),
    "B4": "stage_depot",
}


@pytest.mark.rule("deadwood_town", "railroad.new-buildings")
def test_a_drawn_tile_with_no_open_plot_next_to_the_town_goes_under_its_stack_and_empty_stacks_are_skipped():
    st = position(town=FULL, rails=4)
    act(st, 0, HitTheTown(1, "B4"))
    act(st, 0, Annex())
    assert st.legal_actions(0) == [DrawFrom("1"), DrawFrom("3")]  # stack 2 is empty
    top = stack(st, "3")[0]
    act(st, 0, DrawFrom("3"))
    assert events_of(st, TileToBottom) == [TileToBottom("3", top, "no_plot")]
    assert stack(st, "3")[-1] == top and st.to_act == (1,)


@pytest.mark.rule("deadwood_town", "railroad.train-station")
def test_the_station_destroys_a_red_row_building_only_when_no_red_plot_is_open_and_draws_nothing():
    st = position(town=FULL, rails=4, cowboys={"E2": [(1, 1)]})
    act(st, 0, HitTheTown(1, "A1"))
    act(st, 0, Annex())
    assert st.legal_actions(0) == [PlaceStation(p) for p in ("E1", "E2", "E3", "E4", "E5", "E6", "E7")]
    act(st, 0, PlaceStation("E2"))
    assert events_of(st, BuildingDestroyed) == [BuildingDestroyed("E2", "gunsmith", (Cowboy(1, 1),))]
    assert events_of(st, StationBuilt) == [StationBuilt(0, "E2", 4, 20)]
    assert events_of(st, TileDrawn) == [] and st.is_over


@pytest.mark.rule("deadwood_town", "annex.all-or-nothing")
@pytest.mark.rule("deadwood_town", "building.town-hall")
def test_declining_the_town_hall_lays_no_rail():
    st = position()
    act(st, 0, HitTheTown(1, "A1"))
    act(st, 0, DeclineAnnex())
    assert st.rails == 0 and building(st, "D6") == ""
