"""Deadwood end triggers and final scoring (summary: Scoring / Victory Conditions; NOTES.md rules 1-3)."""

from __future__ import annotations

import pytest

from engine import Outcome
from engine.deadwood_town.actions import Annex, DeclineAnnex, HitTheTown, PlaceStation
from engine.deadwood_town.events import FinalScore, GameEnding, GameOver, MoneyGained, StationBuilt
from tests.deadwood_town_helpers import act, events_of, position

NO_GEAR = {"cartridges": [0, 0], "ponies": [0, 0]}


@pytest.mark.rule("deadwood_town", "end.triggers")
@pytest.mark.rule("deadwood_town", "end.timing")
def test_the_crime_pool_running_dry_ends_the_game_after_the_turn():
    """The Bank's poster empties the pool; the turn is finished first (the annex resolves)."""
    st = position(town={"B1": "bank"}, crime_pool=1, posters=[0, 2])
    act(st, 0, HitTheTown(1, "B1"))
    assert not st.is_over
    act(st, 0, Annex())
    assert st.is_over
    assert events_of(st, GameEnding) == [GameEnding(0, ("crime_pool_empty",))]
    assert events_of(st, FinalScore) == [FinalScore(0, 10, 0, 1, 9, 1, 0), FinalScore(1, 5, 0, 2, 3, 2, 0)]
    assert st.outcome == Outcome((9.0, 3.0), (1, 2), (0,))
    assert st.to_act == () and st.legal_actions(0) == [] and st.phase == "over"


@pytest.mark.rule("deadwood_town", "end.triggers")
@pytest.mark.rule("deadwood_town", "end.timing")
def test_a_player_without_living_cowboys_ends_the_game():
    """Seat 1's last cowboy dies; the unhired supply does not count."""
    st = position(
        town={"B1": "bank"}, cowboys={"B1": [(1, 1)]}, ranch={0: (1, 0, 0)}, dice=["skull", "blank"], **NO_GEAR
    )
    st.ranch[1] = [0, 0, 0, 0]
    act(st, 0, HitTheTown(1, "B1"))
    assert not st.is_over and st.phase == "annex"
    act(st, 0, DeclineAnnex())
    assert events_of(st, GameEnding) == [GameEnding(0, ("no_living_cowboys",))]
    assert st.outcome == Outcome((4.0, 5.0), (2, 1), (1,))  # the shootout poster costs seat 0 $1


@pytest.mark.rule("deadwood_town", "railroad.train-station")
@pytest.mark.rule("deadwood_town", "end.triggers")
@pytest.mark.rule("deadwood_town", "building.hotel")
def test_the_train_station_ends_the_game_and_pays_five_per_adjacent_building():
    """After four rails the Town Hall builds the station (E3: neighbours E2, E4, D2, D3 (rail));
    the builder gets $5 x 2, the Hotel's controller $4; the Stage Depot pays no bonus."""
    st = position(
        town={"E2": "bank", "D2": "gunsmith", "C1": "hotel", "C2": "stage_depot"},
        rails=4,
        cowboys={"C1": [(1, 1)], "C2": [(1, 2)]},
    )
    act(st, 0, HitTheTown(1, "A1"))
    act(st, 0, Annex())
    assert st.phase == "station" and PlaceStation("E3") in st.legal_actions(0)
    assert PlaceStation("E2") not in st.legal_actions(0)  # an open red plot first
    act(st, 0, PlaceStation("E3"))
    assert events_of(st, StationBuilt) == [StationBuilt(0, "E3", 2, 10)]
    assert MoneyGained(1, 4, "hotel") in events_of(st, MoneyGained)
    assert events_of(st, GameEnding) == [GameEnding(0, ("train_station",))]
    assert st.outcome.scores == (15.0, 9.0)


@pytest.mark.parametrize(
    ("money", "posters", "hill", "ranks", "winners"),
    [
        ((10, 8), (0, 0), (0, 0), (1, 2), (0,)),  # most money
        ((12, 10), (3, 1), (0, 0), (2, 1), (1,)),  # $9 each after the fine: fewer posters
        ((9, 9), (1, 1), (2, 1), (2, 1), (1,)),  # then fewer cowboys on Boot Hill
        ((9, 9), (1, 1), (1, 1), (1, 1), (0, 1)),  # still tied: shared
    ],
)
@pytest.mark.rule("deadwood_town", "scoring.final")
def test_final_scoring_tie_breaks(money, posters, hill, ranks, winners):
    st = position(town={"B1": "bank"}, money=list(money), posters=list(posters), crime_pool=1)
    st.boot_hill = [[0, h, 0, 0] for h in hill]
    from engine.deadwood_town.rules import end_of_game

    end_of_game.finish(st, 0, ("crime_pool_empty",))
    final = tuple(m - p for m, p in zip(money, posters, strict=True))
    assert st.outcome == Outcome(tuple(float(f) for f in final), ranks, winners)
    assert events_of(st, GameOver) == [GameOver(final, ranks, winners)]


@pytest.mark.rule("deadwood_town", "building.stage-depot")
@pytest.mark.rule("deadwood_town", "scoring.final")
def test_the_stage_depot_pays_ten_when_the_game_ends_without_the_station_and_scores_may_go_negative():
    st = position(town={"B1": "stage_depot"}, cowboys={"B1": [(1, 1)]}, money=[1, 0], posters=[4, 0])
    from engine.deadwood_town.rules import end_of_game

    end_of_game.finish(st, 0, ("crime_pool_empty",))
    assert events_of(st, MoneyGained) == [MoneyGained(1, 10, "stage_depot")]
    assert st.outcome == Outcome((-3.0, 10.0), (2, 1), (1,))


@pytest.mark.rule("deadwood_town", "end.round-limit")
def test_the_200th_round_ends_a_game_nobody_ends():
    """No trigger holds, but the 200th round is over: the game is scored as usual ("round_limit");
    one turn earlier it goes on."""
    from engine.deadwood_town.rules.end_of_game import ROUND_LIMIT

    st = position(town={"B1": "gunsmith"}, posters=[0, 2])
    st.turns = ROUND_LIMIT * 2 - 1  # seat 0's turn is the 399th: the game goes on after it
    act(st, 0, HitTheTown(1, "B1"))
    act(st, 0, DeclineAnnex())
    assert not st.is_over and st.current == 1 and st.turns == ROUND_LIMIT * 2
    act(st, 1, HitTheTown(1, "A1"))
    act(st, 1, DeclineAnnex())
    assert events_of(st, GameEnding) == [GameEnding(1, ("round_limit",))]
    assert st.outcome == Outcome((5.0, 3.0), (1, 2), (0,))  # seat 1 pays $2 for its posters
