"""Deadwood (town), rules round two (issue 22): an end condition that occurs during a turn ends the
game after that turn even if it no longer holds then, and later shootouts in that turn take no
poster (NOTES.md, special rules 1: "When any end condition occurs, the current player finishes the
turn, then the game ends ... A shootout already under way resolves; later shootouts in that turn
take no poster")."""

from __future__ import annotations

import pytest

from engine import Outcome
from engine.deadwood_town.actions import AdjustCrimePool, Annex, HitTheTown, MoveTo, PickCowboy
from engine.deadwood_town.events import (
    Cowboy,
    CrimePoolAdjusted,
    GameEnding,
    PostersTaken,
    ShootoutStarted,
)
from tests.deadwood_town_helpers import act, events_of, position

NO_GEAR_2 = {"cartridges": [0, 0], "ponies": [0, 0]}
NO_GEAR_3 = {"cartridges": [0, 0, 0], "ponies": [0, 0, 0]}


@pytest.mark.rule("deadwood_town", "end.timing")
@pytest.mark.rule("deadwood_town", "end.triggers")
@pytest.mark.rule("deadwood_town", "building.telegraph-office")
@pytest.mark.rule("deadwood_town", "end.crime-pool-refilled")
def test_a_crime_pool_emptied_and_refilled_in_the_same_turn_still_ends_the_game():
    """Seat 0's Trail Boss attacks seat 1's Greenhorn on the Telegraph Office and takes the last poster of the
    Crime Pool; it kills the Greenhorn, annexes, and the Telegraph Office adds two posters (removing is not
    possible from an empty pool, so the engine takes the only choice). The pool ran out during the turn: the game
    ends after it, though the pool holds 2 posters again."""
    st = position(town={"B1": "telegraph_office"}, cowboys={"B1": [(1, 1)]}, crime_pool=1, dice=["skull"], **NO_GEAR_2)
    act(st, 0, HitTheTown(3, "B1"))
    assert events_of(st, PostersTaken) == [PostersTaken(0, 1, "shootout")]
    assert st.crime_pool == 0 and not st.is_over and st.phase == "annex"
    act(st, 0, Annex())
    assert events_of(st, CrimePoolAdjusted) == [CrimePoolAdjusted(0, 2, 2)]
    assert st.crime_pool == 2 and st.is_over
    assert events_of(st, GameEnding) == [GameEnding(0, ("crime_pool_empty",))]
    # seat 0: $5 + $1 (Telegraph Office) - $1 (its poster); seat 1: $5; the tie goes to fewer posters
    assert st.outcome == Outcome((5.0, 5.0), (2, 1), (1,))
    assert st.to_act == () and st.phase == "over"


@pytest.mark.rule("deadwood_town", "building.telegraph-office")
@pytest.mark.rule("deadwood_town", "end.crime-pool-refilled")
def test_adding_posters_to_a_crime_pool_that_never_ran_out_does_not_end_the_game():
    """The Telegraph Office adds to a pool of 1 that was never empty: play goes on with seat 1."""
    st = position(town={"B1": "telegraph_office"}, crime_pool=1, **NO_GEAR_2)
    act(st, 0, HitTheTown(1, "B1"))
    act(st, 0, Annex())
    act(st, 0, AdjustCrimePool(True))
    assert events_of(st, CrimePoolAdjusted) == [CrimePoolAdjusted(0, 2, 3)]
    assert not st.is_over and st.to_act == (1,) and st.phase == "turn"
    assert events_of(st, GameEnding) == []


@pytest.mark.rule("deadwood_town", "end.timing")
@pytest.mark.rule("deadwood_town", "shootout.poster")
@pytest.mark.rule("deadwood_town", "building.general-store")
def test_a_shootout_after_an_end_condition_in_the_same_turn_takes_no_poster():
    """Seat 0's Trail Boss kills seat 1's last living cowboy on the General Store (an end condition), annexes it and
    moves its own Gunslinger onto seat 2's Greenhorn: that later shootout resolves but takes no poster. The game
    then ends with seat 0 holding the first shootout's poster only."""
    st = position(
        3,
        town={"B1": "general_store", "C1": "bank", "C2": "gunsmith"},
        cowboys={"B1": [(1, 1)], "C1": [(0, 2)], "C2": [(2, 1)]},
        ranch={0: (0, 0, 1), 2: (1, 1, 1)},
        dice=["skull", "skull"],
        **NO_GEAR_3,
    )
    act(st, 0, HitTheTown(3, "B1"))
    act(st, 0, Annex())
    act(st, 0, PickCowboy("C1", 0, 2))
    act(st, 0, MoveTo("C2"))
    assert events_of(st, ShootoutStarted) == [
        ShootoutStarted("B1", "general_store", Cowboy(0, 3), Cowboy(1, 1), 0),
        ShootoutStarted("C2", "gunsmith", Cowboy(0, 2), Cowboy(2, 1), -1),
    ]
    assert events_of(st, PostersTaken) == [PostersTaken(0, 1, "shootout")]
    assert st.posters == [1, 0, 0] and st.crime_pool == 14
    assert events_of(st, GameEnding) == [GameEnding(0, ("no_living_cowboys",))]
    assert st.outcome == Outcome((5.0, 5.0, 5.0), (3, 1, 1), (1, 2))
