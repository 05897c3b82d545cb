"""The Deadwood Studios heuristic bot: legal everywhere, deterministic, sensible in built positions,
and clearly stronger than random bots."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import replays
from bots import HeuristicBot, RandomBot, play_game
from bots.deadwood_studios_heuristic import TURN_COST, DeadwoodStudiosStrategy, bonus_share, role_plan, rounds_left
from engine.deadwood_studios import GAME
from engine.deadwood_studios.actions import Act, Move, Rehearse, TakeRole, Upgrade
from engine.deadwood_studios.state import DeadwoodStudiosState
from tests.deadwood_studios_helpers import COMP, card, position

ALL_SETS = (
    "train_station",
    "secret_hideout",
    "church",
    "hotel",
    "main_street",
    "jail",
    "general_store",
    "ranch",
    "bank",
    "saloon",
)


def choice(state: DeadwoodStudiosState, seat: int | None = None, seed: int = 0) -> Any:
    """What a fresh heuristic bot chooses for ``seat`` (default: the seat to act), checked legal."""
    seat = state.to_act[0] if seat is None else seat
    legal = state.legal_actions(seat)
    action = HeuristicBot(seed).act(state.view(seat), list(legal), seat)
    assert action in legal
    return action


def wrapped_but(*keep: str) -> list[str]:
    """Every set but ``keep``, wrapped."""
    return [s for s in ALL_SETS if s not in keep]


# ---------------------------------------------------------------------------- legality, determinism


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8), steps=st.integers(0, 1500))
def test_always_a_legal_action_in_random_positions(seed: int, players: int, steps: int) -> None:
    """From a position reached by random play, 300 heuristic decisions (every seat) are all legal."""
    game = GAME.new_game(players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    bots = [HeuristicBot(seed + s) for s in range(players)]
    for _ in range(300):
        if game.is_over:
            return
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        action = bots[seat].act(game.view(seat), list(legal), seat)
        assert action in legal, (game.phase, action)
        game.apply(seat, action)


@pytest.mark.parametrize("players", [2, 5, 8])
def test_whole_games_without_faults(players: int) -> None:
    mixed: list[Any] = [HeuristicBot(s) if s % 2 == 0 else RandomBot(s) for s in range(players)]
    for bots in (mixed, [HeuristicBot(s) for s in range(players)]):
        result = play_game("deadwood_studios", players, bots, seed=players)
        assert result.faults == (0,) * players, result.fault_log


def test_deterministic_for_a_seed() -> None:
    def game(seed: int) -> bytes:
        bots: list[Any] = [HeuristicBot(3), RandomBot(4), HeuristicBot(5)]
        return replays.encode(play_game("deadwood_studios", 3, bots, seed=seed).replay)

    assert game(11) == game(11)


def test_heuristic_dispatches_to_the_deadwood_studios_strategy() -> None:
    bot = HeuristicBot(1)
    state = GAME.new_game(2, 1)
    seat = state.to_act[0]
    bot.act(state.view(seat), state.legal_actions(seat), seat)
    assert isinstance(bot._strategies["deadwood_studios"], DeadwoodStudiosStrategy)


# ---------------------------------------------------------------------------- the numbers


def test_bonus_share_is_the_expected_dice_top_role_first() -> None:
    # one role takes every die; two dice to two roles: the higher to the top role
    assert bonus_share(2, 1) == (7.0,)
    assert [round(x, 4) for x in bonus_share(2, 2)] == [2.5278, 4.4722]
    # a $5M film with three roles: the top role gets dice 1 and 4, the bottom one the median (3.5)
    assert [round(x, 2) for x in bonus_share(5, 3)] == [3.5, 6.07, 7.93]
    assert round(sum(bonus_share(6, 3)), 6) == 21.0


def test_role_plan_rehearses_on_big_budgets_and_acts_on_small_ones() -> None:
    # $6M, three shots, alone on the card: three chips first (then two successes in three acts)
    assert role_plan(6, 3, 0, True, 8.0, 0.0, 30.0)[1] == 3
    assert role_plan(6, 3, 3, True, 8.0, 0.0, 30.0)[1] == 0
    # $2M: act at once
    assert role_plan(2, 3, 0, True, 4.0, 0.0, 30.0)[1] == 0
    # the day ends before the wrap: the bonus is lost, acting now is all that pays (one act at 1/6)
    worth, rehearsals = role_plan(6, 3, 0, True, 8.0, 0.0, 1.0)
    assert (round(worth, 6), rehearsals) == (round(2 / 6 - TURN_COST, 6), 0)


def test_rounds_left_counts_every_scene_but_the_biggest() -> None:
    state = position(2, 0, wrapped=wrapped_but("jail", "bank", "hotel"))
    # jail 1 + bank 1 shots (hotel's 3 is the biggest), nobody working: one shot a round and a half
    assert rounds_left(state.view(0)) == 3.0


# ---------------------------------------------------------------------------- roles


def test_takes_the_highest_rank_role_it_may() -> None:
    # rank 4 on Main Street with The Way the West Was Run ($4M: ranks 2, 4, 5)
    far = wrapped_but("main_street", "train_station", "secret_hideout")
    scenes = {"main_street": card(8), "train_station": card(12), "secret_hideout": card(23)}
    state = position(2, 0, scenes=scenes, rooms={0: "main_street"}, ranks={0: 4}, wrapped=far)
    assert choice(state) == TakeRole("Squinting Miner", True)


def test_a_starring_role_rather_than_an_extra() -> None:
    # rank 2 on the Saloon with a $3M card: Banker (2) on the card beats Woman in Red Dress (2)
    far = wrapped_but("saloon", "train_station", "secret_hideout")
    state = position(2, 0, scenes={"saloon": card(2)}, rooms={0: "saloon"}, ranks={0: 2}, wrapped=far)
    assert choice(state) == TakeRole("Banker", True)


def test_walks_to_the_scene_about_to_wrap_with_someone_on_the_card() -> None:
    # from the Trailers: the Saloon has one shot left and seat 1 on its card; Hotel and Main
    # Street have all their shots and nobody
    state = position(
        3,
        0,
        scenes={"saloon": card(36), "hotel": card(35), "main_street": card(30)},
        shots_left={"saloon": 1},
        rooms={1: "saloon"},
        roles={1: "Man with Rope"},
    )
    assert choice(state) == Move("saloon")


def test_takes_the_extra_on_the_wrapping_scene_once_there() -> None:
    state = position(
        3,
        0,
        scenes={"saloon": card(36)},
        shots_left={"saloon": 1},
        rooms={0: "saloon", 1: "saloon"},
        roles={1: "Man with Rope"},
        wrapped=wrapped_but("saloon", "train_station", "secret_hideout"),
    )
    assert choice(state) == TakeRole("Reluctant Farmer", False)


# ---------------------------------------------------------------------------- working


def on_the_card(budget_card: int, shots: int, chips: int, wrapped: list[str] | None = None) -> DeadwoodStudiosState:
    """Seat 0 (rank 6) working on the top role of ``budget_card`` on the Secret Hideout (3 shots)."""
    role = COMP.scenes[budget_card - 1].roles[-1].name
    return position(
        2,
        0,
        scenes={"secret_hideout": card(budget_card)},
        shots_left={"secret_hideout": shots},
        rooms={0: "secret_hideout"},
        ranks={0: 6},
        roles={0: role},
        chips={0: chips},
        wrapped=wrapped or [],
    )


def test_rehearses_on_a_big_budget_with_shots_to_go() -> None:
    assert choice(on_the_card(21, shots=3, chips=0)) == Rehearse()  # $6M


def test_acts_once_the_chips_make_it_likely() -> None:
    assert choice(on_the_card(21, shots=3, chips=3)) == Act()


def test_acts_on_a_small_budget() -> None:
    assert choice(on_the_card(14, shots=3, chips=0)) == Act()  # $2M


def test_acts_on_a_big_budget_when_the_day_may_end() -> None:
    late = on_the_card(21, shots=3, chips=0, wrapped=wrapped_but("secret_hideout", "jail"))
    assert choice(late) == Act()


# ---------------------------------------------------------------------------- upgrading


def test_upgrades_to_the_top_rank_in_credits_early() -> None:
    state = position(2, 0, rooms={0: "casting_office"}, credits={0: 25}, dollars={0: 12})
    assert choice(state) == Upgrade(6, "credits")


def test_pays_in_dollars_when_they_buy_more() -> None:
    state = position(2, 0, rooms={0: "casting_office"}, credits={0: 5}, dollars={0: 18})
    assert choice(state) == Upgrade(4, "dollars")


def test_heads_for_the_casting_office_with_money_to_spend() -> None:
    state = position(2, 0, rooms={0: "ranch"}, credits={0: 20}, wrapped=["ranch"])
    assert choice(state) == Move("casting_office")


def test_last_day_at_the_end_only_upgrades_that_score() -> None:
    late = wrapped_but("train_station", "jail")
    cheap = position(2, 0, day=3, rooms={0: "casting_office"}, dollars={0: 4}, wrapped=late)
    assert choice(cheap) == Upgrade(2, "dollars")  # $4 for 5 points
    dear = position(2, 0, day=3, rooms={0: "casting_office"}, ranks={0: 2}, dollars={0: 10}, wrapped=late)
    assert choice(dear) == Move("train_station")  # $10 for 5 points: no; a role instead


# ---------------------------------------------------------------------------- strength


def test_beats_random_bots() -> None:
    """A fixed-seed smoke test (the real figures are in the module docstring): 40 games, 2 players."""
    wins = 0
    for game in range(40):
        seat = game % 2
        bots: list[Any] = [RandomBot(game), RandomBot(game + 100)]
        bots[seat] = HeuristicBot(game)
        result = play_game("deadwood_studios", 2, bots, seed=game)
        wins += seat in result.outcome.winners
    assert wins == 40
