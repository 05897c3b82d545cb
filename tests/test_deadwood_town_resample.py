"""``resample`` for Deadwood (worker placement): the stack order is redrawn around what the seat knows.

Properties over random games at 2-5 players: ``resample(s, k).view(s) == view(s)``; ``to_act``
and ``legal_actions(s)`` are unchanged; a resample plays on to a legal end; the original state
is untouched; the same seed gives the same copy; the hidden parts (stack order, future dice)
differ across seeds. Scenarios: tiles seen with the Fortune Teller and tiles put under a stack
in front of everyone keep their places; another player's rearrangement in progress is redrawn.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.deadwood_town import GAME
from engine.deadwood_town.actions import Annex, Finish, HitTheTown, LookAtStack, PutNext
from engine.deadwood_town.components import STACKS
from engine.deadwood_town.state import DeadwoodTownState
from tests.deadwood_town_helpers import act, position, stack
from tests.test_deadwood_town_properties import OPTIONS, check_contract, play


def hidden_layout(state: DeadwoodTownState) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(state.stacks[s]) for s in STACKS)


def check_resample(state: DeadwoodTownState, seat: int, seed: int) -> DeadwoodTownState:
    digest = state.digest()
    copy = state.resample(seat, seed)
    assert state.digest() == digest, "resample changed the state"
    assert copy.view(seat) == state.view(seat)
    assert copy.to_act == state.to_act
    assert copy.legal_actions(seat) == state.legal_actions(seat)
    assert copy.events(seat) == state.events(seat)
    assert state.resample(seat, seed).digest() == copy.digest()
    for s in STACKS:
        assert sorted(copy.stacks[s]) == sorted(state.stacks[s])
        for i, t in enumerate(state.stacks[s]):
            if t in state.known[seat]:
                assert copy.stacks[s][i] == t
    check_contract(copy)
    return copy


def positions(players: int, seed: int, options: dict[str, Any], rate: float = 0.1) -> list[DeadwoodTownState]:
    """Clones of a random game's states, about ``rate`` of them."""
    game = GAME.new_game(players, seed, options)
    rng = random.Random(seed)
    out = []
    while not game.is_over:
        if rng.random() < rate:
            out.append(game.clone())
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    return out


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32), options=OPTIONS)
def test_resample_keeps_the_view_to_act_and_legal_actions_and_plays_on(players, seed, options):
    for state in positions(players, seed, options):
        for seat in range(players):
            check_resample(state, seat, seed % 1000)
    states = positions(players, seed, options, 0.05)
    if states:
        copy = states[-1].resample(states[-1].to_act[0], 3)
        play(copy, random.Random(seed), check_contract, rate=0.2)
        assert copy.is_over


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_hidden_parts_differ_across_seeds(players):
    """A resample that changed nothing would fail here: at the start nobody knows any stack, so
    six seeds give six different stack orders and six different dice futures."""
    state = GAME.new_game(players, players)
    for seat in range(players):
        copies = [check_resample(state, seat, k) for k in range(6)]
        assert len({hidden_layout(c) for c in copies}) == 6
        assert len({c.chance.fingerprint() for c in copies}) == 6


def test_a_stack_seen_with_the_fortune_teller_keeps_its_order_for_the_seer_only():
    state = position(3, town={"B1": "fortune_teller"})
    act(state, 0, HitTheTown(1, "B1"))
    act(state, 0, Annex())
    act(state, 0, LookAtStack("1"))
    act(state, 0, PutNext(stack(state, "1")[3]))
    act(state, 0, Finish())
    seen = list(state.stacks["1"])
    for k in range(8):
        assert check_resample(state, 0, k).stacks["1"] == seen
    assert len({tuple(check_resample(state, 1, k).stacks["1"]) for k in range(8)}) > 1


def test_another_players_rearrangement_in_progress_is_redrawn():
    state = position(3, town={"B1": "fortune_teller"})
    act(state, 0, HitTheTown(1, "B1"))
    act(state, 0, Annex())
    act(state, 0, LookAtStack("2"))
    act(state, 0, PutNext(stack(state, "2")[2]))
    placed = set()
    for k in range(10):
        copy = check_resample(state, 1, k)
        (tile,) = copy.pending[1]
        assert tile in copy.stacks["2"]
        placed.add(tile)
    assert len(placed) > 1
    assert check_resample(state, 0, 4).pending == state.pending


def test_a_tile_put_under_its_stack_in_front_of_everyone_stays_at_the_bottom():
    state = position(town={"D6": "bank"}, stacks={"1": ["casino"], "2": ["saloon"], "3": ["grifter"]})
    act(state, 0, HitTheTown(1, "A1"))
    act(state, 0, Annex())  # the rail destroys the Bank: under stack 1
    for _ in range(3):
        act(state, 0, state.legal_actions(0)[0])
    assert stack(state, "1")[-1] == "bank"
    for seat in (0, 1):
        for k in range(6):
            assert stack(check_resample(state, seat, k), "1")[-1] == "bank"
    assert len({tuple(check_resample(state, 1, k).stacks["1"]) for k in range(6)}) > 1


def test_resample_refuses_bad_seats_and_seeds_and_a_finished_game_is_cloned():
    state = GAME.new_game(3, 2)
    for seat in (None, -1, 3, True, 1.0):
        with pytest.raises(ValueError, match="seat"):
            state.resample(seat, 0)
    for seed in (-1, True, 1.0, "1"):
        with pytest.raises(ValueError, match="seed"):
            state.resample(0, seed)
    play(state, random.Random(2))
    copy = state.resample(1, 5)
    assert copy is not state and copy.digest() == state.digest()
