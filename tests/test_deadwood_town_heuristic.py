"""The Deadwood (worker placement) heuristic bot: legal everywhere, deterministic, sensible in built
positions (annexes money buildings, avoids bad shootouts, watches the end triggers), and clearly
stronger than random bots."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots import HeuristicBot, RandomBot, play_game
from bots.deadwood_town_heuristic import fight_odds
from engine.deadwood_town import GAME
from engine.deadwood_town import actions as A
from tests.deadwood_town_helpers import act, position

OPTIONS: list[dict[str, Any]] = [
    {},
    {"town_hall_build": "one"},
    {"die": "alternative"},
    {"adjacent_reannex": False},
]


def choice(state: Any, seat: int | None = None, seed: int = 0) -> Any:
    """What a fresh heuristic bot chooses for ``seat`` (default: the seat to act), checked legal."""
    seat = state.to_act[0] if seat is None else seat
    legal = state.legal_actions(seat)
    action = HeuristicBot(seed).act(state.view(seat), list(legal), seat)
    assert action in legal
    return action


# ---------------------------------------------------------------------------- legality, determinism


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 5),
    steps=st.integers(0, 400),
    options=st.sampled_from(OPTIONS),
)
def test_always_a_legal_action_in_random_positions(
    seed: int, players: int, steps: int, options: dict[str, Any]
) -> None:
    """From a position reached by random play, heuristic decisions (every seat) to the end are all legal."""
    game = GAME.new_game(players, seed, options)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    bots = [HeuristicBot(seed + s) for s in range(players)]
    for _ in range(2000):
        if game.is_over:
            return
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        action = bots[seat].act(game.view(seat), list(legal), seat)
        assert action in legal, (game.phase, action)
        game.apply(seat, action)
    raise AssertionError("heuristic bots did not finish the game in 2000 decisions")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_whole_games_without_faults(players: int) -> None:
    mixed: list[Any] = [HeuristicBot(s) if s % 2 == 0 else RandomBot(s) for s in range(players)]
    for bots in (mixed, [HeuristicBot(s) for s in range(players)]):
        result = play_game("deadwood_town", players, bots, seed=players)
        assert result.faults == (0,) * players, result.fault_log
        assert result.outcome.winners


def test_deterministic_for_a_seed() -> None:
    runs = [
        play_game("deadwood_town", 3, [HeuristicBot(7), HeuristicBot(8), HeuristicBot(9)], seed=11) for _ in range(2)
    ]
    assert runs[0].replay.move_pairs() == runs[1].replay.move_pairs()
    assert runs[0].replay.final_digest == runs[1].replay.final_digest
    assert runs[0].outcome == runs[1].outcome
    other = play_game("deadwood_town", 3, [HeuristicBot(7), HeuristicBot(8), HeuristicBot(9)], seed=12)
    assert other.replay.final_digest != runs[0].replay.final_digest


# ---------------------------------------------------------------------------- shootout odds


def test_fight_odds_match_the_data_notes_table() -> None:
    # NOTES.md, Shootout: attacker wins / defender wins / both die / both survive, in %
    table = {
        (1, 1): [14, 14, 3, 69],
        (2, 2): [31, 31, 18, 20],
        (3, 1): [76, 3, 4, 17],
        (1, 3): [3, 76, 4, 17],
        (4, 1): [89, 1, 2, 7],
        (3, 4): [17, 62, 19, 2],
    }
    for (a, d), expected in table.items():
        assert [round(100 * p) for p in fight_odds(a, d)] == expected
        assert round(sum(fight_odds(a, d)), 9) == 1.0


# ---------------------------------------------------------------------------- annexing


def test_annexes_the_bank_with_its_greenhorn() -> None:
    state = position(2, 0, town={"B1": "bank", "B2": "gunsmith"})
    assert choice(state) == A.HitTheTown(1, "B1")
    act(state, 0, A.HitTheTown(1, "B1"))
    assert choice(state) == A.Annex()


def test_hires_the_free_greenhorn_at_the_saloon() -> None:
    state = position(2, 0, town={"B1": "saloon_x"}, ranch={0: (1, 0, 0), 1: (1, 1, 1)})
    assert choice(state) == A.HitTheTown(1, "B1")
    act(state, 0, A.HitTheTown(1, "B1"))
    act(state, 0, A.Annex())
    assert state.phase == "hire"
    assert choice(state) == A.Hire(1)


def test_the_casino_steals_from_the_leader() -> None:
    state = position(3, 0, town={"B1": "casino"}, money=[5, 9, 12])
    act(state, 0, A.HitTheTown(1, "B1"))
    act(state, 0, A.Annex())
    assert choice(state) == A.StealFrom(2)


def test_the_newspaper_gives_a_poster_to_the_leader() -> None:
    state = position(3, 0, town={"B1": "newspaper"}, money=[5, 12, 9], posters=[2, 0, 0])
    act(state, 0, A.HitTheTown(1, "B1"))
    act(state, 0, A.Annex())
    assert choice(state) == A.GivePoster(1)


# ---------------------------------------------------------------------------- shootouts


def test_avoids_a_bad_shootout() -> None:
    # a Greenhorn against a Trail Boss with a cartridge on the Bank: the empty Gunsmith instead
    state = position(
        2,
        0,
        town={"B1": "bank", "B4": "gunsmith"},
        cowboys={"B1": [(1, 3)]},
        ranch={0: (1, 0, 0), 1: (1, 1, 0)},
        cartridges=[0, 1],
    )
    assert choice(state) == A.HitTheTown(1, "B4")


def test_attacks_a_greenhorn_holding_the_stage_depot_with_its_trail_boss() -> None:
    state = position(
        2,
        0,
        town={"B1": "stage_depot", "B4": "laundry"},
        cowboys={"B1": [(1, 1)]},
        ranch={0: (0, 0, 1), 1: (0, 1, 1)},
        ponies=[1, 0],
    )
    assert choice(state) == A.HitTheTown(3, "B1")
    act(state, 0, A.HitTheTown(3, "B1"))
    assert state.phase == "cartridge"  # seat 1 had no pony: it stood
    assert choice(state) == A.DeclareCartridge(True)


def test_skedaddles_from_a_trail_boss_and_stands_against_a_greenhorn() -> None:
    state = position(2, 1, town={"B1": "gunsmith"}, cowboys={"B1": [(0, 1)]}, ranch={0: (0, 1, 1), 1: (0, 0, 1)})
    act(state, 1, A.HitTheTown(3, "B1"))
    assert choice(state) == A.Skedaddle()
    state = position(2, 1, town={"B1": "gunsmith"}, cowboys={"B1": [(0, 3)]}, ranch={0: (1, 1, 0), 1: (1, 0, 0)})
    act(state, 1, A.HitTheTown(1, "B1"))
    assert choice(state) == A.StandAndFight()


# ---------------------------------------------------------------------------- heading back


def test_heads_back_the_mine_and_idle_cowboys_but_keeps_the_stage_depot() -> None:
    state = position(
        2,
        0,
        town={"B1": "stage_depot", "B2": "gunsmith"},
        cowboys={"B1": [(0, 3)], "B2": [(0, 1)]},
        ranch={0: (0, 0, 0), 1: (1, 1, 1)},
        mine={0: (0, 1, 0)},
    )
    assert choice(state) == A.HeadBack("mine", 2)
    act(state, 0, A.HeadBack("mine", 2))
    assert choice(state) == A.HeadBack("B2", 1)
    act(state, 0, A.HeadBack("B2", 1))
    assert choice(state) == A.Finish()


# ---------------------------------------------------------------------------- end triggers


def test_builds_the_train_station_only_when_it_wins() -> None:
    town = {"E1": "bank", "D1": "gunsmith", "D2": "casino"}
    leading = position(2, 0, town=town, rails=4, money=[20, 5])
    assert choice(leading) == A.HitTheTown(1, "A1")
    act(leading, 0, A.HitTheTown(1, "A1"))
    assert choice(leading) == A.Annex()
    act(leading, 0, A.Annex())
    assert choice(leading) == A.PlaceStation("E2")  # next to E1, D1 and D2: $15
    trailing = position(2, 0, town=town, rails=4, money=[5, 20])
    act(trailing, 0, A.HitTheTown(1, "A1"))
    assert choice(trailing) == A.DeclineAnnex()


def test_takes_the_last_poster_of_the_crime_pool_only_when_it_wins() -> None:
    for money, expected in (([20, 5], A.Annex()), ([5, 20], A.DeclineAnnex())):
        state = position(2, 0, town={"B1": "bank"}, crime_pool=1, money=money)
        act(state, 0, A.HitTheTown(1, "B1"))
        assert choice(state) == expected


def test_the_telegraph_office_hastens_the_end_when_leading() -> None:
    for money, add in (([20, 5], False), ([5, 20], True)):
        state = position(2, 0, town={"B1": "telegraph_office"}, money=money, crime_pool=6)
        act(state, 0, A.HitTheTown(1, "B1"))
        act(state, 0, A.Annex())
        assert choice(state) == A.AdjustCrimePool(add)


# ---------------------------------------------------------------------------- strength


@pytest.mark.parametrize(("players", "expected"), [(2, 40), (3, 40), (5, 38)])
def test_beats_random_bots(players: int, expected: int) -> None:
    """One heuristic (seat 0) against random bots, 40 fixed seeds: its wins (shared firsts count)."""
    wins = 0
    for seed in range(40):
        bots: list[Any] = [HeuristicBot(seed), *(RandomBot(seed * 10 + s) for s in range(1, players))]
        result = play_game("deadwood_town", players, bots, seed=seed)
        wins += 0 in result.outcome.winners
    assert wins == expected
