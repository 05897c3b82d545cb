"""Property tests for Deadwood (worker placement): random games against the engine contract.

Games are played with uniformly random legal choices, seeded by hypothesis, at 2-5 players with
each option on and off. The properties: games end and never raise; ``to_act`` and
``legal_actions`` agree; tiles, cowboys, posters, cartridges and ponies are conserved; money
never goes below $0 before the final fine; outcomes follow the final money and tie-breaks;
replays recorded with the replays package verify; clones continue identically; no view or event
shows a seat a stack position it does not know; views, events and actions survive JSON.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

import replays
from engine.core import OMNISCIENT, rank_by_scores
from engine.deadwood_town import GAME
from engine.deadwood_town.actions import Action
from engine.deadwood_town.components import STACKS
from engine.deadwood_town.events import Event, FinalScore, StackArranged, StackSeen
from engine.deadwood_town.state import DeadwoodTownState
from engine.deadwood_town.views import View
from replays.record import Recorder
from tests.deadwood_town_helpers import COMP, cowboys_conserved, tiles_conserved

SEEDS = st.integers(0, 2**32)
PLAYERS = st.integers(2, 5)
OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "adjacent_reannex": st.booleans(),
        "town_hall_build": st.sampled_from(["each", "one"]),
        "die": st.sampled_from(["default", "alternative"]),
    },
)
DECISION_LIMIT = 20_000
VIEW_JSON = msgspec.json.Decoder(View)
EVENTS_JSON = msgspec.json.Decoder(list[Event])
ACTION_JSON = msgspec.json.Decoder(Action)


def play(
    game: Any, rng: random.Random, check: Callable[[DeadwoodTownState], None] | None = None, rate: float = 0.05
) -> list[tuple[int, Any]]:
    """Finish ``game`` with random legal choices, calling ``check`` now and then; returns the moves."""
    moves: list[tuple[int, Any]] = []
    while not game.is_over:
        if check is not None and rng.random() < rate:
            check(game)
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        game.apply(seat, action)
        moves.append((seat, action))
        assert len(moves) < DECISION_LIMIT, "the game did not end"
    if check is not None:
        check(game)
    return moves


def check_contract(game: DeadwoodTownState) -> None:
    assert tiles_conserved(game) and cowboys_conserved(game)
    assert game.crime_pool + game.box + sum(game.posters) == COMP.wanted_total
    assert sum(game.cartridges) + game.cartridge_supply == COMP.cartridges_total
    assert sum(game.ponies) + game.pony_supply == COMP.ponies_total
    assert min(game.cartridges) >= 0 and min(game.ponies) >= 0 and game.crime_pool >= 0 and game.box >= 0
    for plot, here in enumerate(game.occ):
        tile = game.board[plot]
        assert not here or tile >= 0
        assert len({c >> 2 for c in here}) == len(here), "two cowboys of one player on a building"
        if len(here) > 1 and game.fight is None:
            assert COMP.tile_kind[tile] == "church"
    if game.is_over:
        assert game.to_act == () and game.phase == "over"
        return
    assert min(game.money) >= 0
    assert len(game.to_act) == 1
    for seat in range(game.n):
        legal = game.legal_actions(seat)
        if seat in game.to_act:
            assert legal and len(set(legal)) == len(legal)
        else:
            assert legal == []


def check_views(game: DeadwoodTownState) -> None:
    for seat in [*range(game.n), None]:
        view = game.view(seat)
        known = game.public_known if seat is None else game.known[seat]
        for s, shown in zip(STACKS, view.stacks, strict=True):
            actual = [COMP.tile_kind[t] for t in reversed(game.stacks[s])]
            hidden = [t not in known for t in reversed(game.stacks[s])]
            assert shown.size == len(actual) and list(shown.contents) == sorted(actual)
            for name, real, secret in zip(shown.order, actual, hidden, strict=True):
                assert (name is None) == secret and (name is None or name == real)
        if view.pending is not None and view.pending.arranged:
            assert seat in game.to_act
        assert VIEW_JSON.decode(msgspec.json.encode(view)) == view
        events = game.events(seat)
        assert EVENTS_JSON.decode(msgspec.json.encode(events)) == events
        for event in events:
            if isinstance(event, StackSeen | StackArranged):
                assert (event.order is not None) == (event.seat == seat)
    everything = game.view(OMNISCIENT)
    assert all(None not in s.order for s in everything.stacks)
    for seat in game.to_act:
        for action in game.legal_actions(seat):
            assert ACTION_JSON.decode(msgspec.json.encode(action)) == action
            mine = GAME.describe(action, game.view(seat))
            theirs = GAME.describe(action, everything, seat)
            assert mine and theirs and "your" not in theirs.lower().split()
            assert GAME.describe(action, game.view(seat), seat) == mine


def check_outcome(game: DeadwoodTownState) -> None:
    outcome = game.outcome
    final = {e.seat: e for e in game.events(None) if isinstance(e, FinalScore)}
    assert outcome.scores == tuple(float(final[p].score) for p in range(game.n))
    keys = [(final[p].score, -final[p].posters, -final[p].boot_hill) for p in range(game.n)]
    assert outcome.ranks == rank_by_scores(keys)
    assert outcome.winners == tuple(p for p in range(game.n) if outcome.ranks[p] == 1)


@settings(max_examples=100, deadline=None)
@given(players=PLAYERS, seed=SEEDS, options=OPTIONS)
def test_random_games_keep_the_contract(players: int, seed: int, options: dict[str, Any]) -> None:
    game = GAME.new_game(players, seed, options)
    play(game, random.Random(seed), check_contract, rate=0.3)
    check_outcome(game)


@settings(max_examples=40, deadline=None)
@given(players=PLAYERS, seed=SEEDS, options=OPTIONS)
def test_views_and_events_do_not_leak(players: int, seed: int, options: dict[str, Any]) -> None:
    game = GAME.new_game(players, seed, options)
    play(game, random.Random(seed), check_views)


@settings(max_examples=20, deadline=None)
@given(players=PLAYERS, seed=SEEDS, options=OPTIONS)
def test_recorded_games_verify_with_the_replays_package(players: int, seed: int, options: dict[str, Any]) -> None:
    recorder = Recorder("deadwood_town", players, seed, options)
    rng = random.Random(seed)
    while not recorder.state.is_over:
        seat = recorder.state.to_act[0]
        recorder.apply_index(seat, rng.randrange(len(recorder.state.legal_actions(seat))))
    replay = replays.decode(replays.encode(recorder.replay()))
    state = replays.verify(replay)
    assert state.outcome == recorder.state.outcome and state.digest() == recorder.state.digest()


@settings(max_examples=20, deadline=None)
@given(players=PLAYERS, seed=SEEDS, cut=st.integers(0, 300))
def test_clone_continues_identically(players: int, seed: int, cut: int) -> None:
    game = GAME.new_game(players, seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if game.is_over:
            break
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    copy = game.clone()
    assert copy.digest() == game.digest()
    play(game, random.Random(1))
    play(copy, random.Random(1))
    assert copy.digest() == game.digest() and copy.outcome == game.outcome
    assert copy.events(OMNISCIENT) == game.events(OMNISCIENT)


def test_digest_sees_hidden_changes() -> None:
    game = GAME.new_game(3, 4)
    copy = game.clone()
    copy.stacks["2"][0], copy.stacks["2"][1] = copy.stacks["2"][1], copy.stacks["2"][0]
    assert copy.digest() != game.digest() and copy.view(0) == game.view(0)
    copy = game.clone()
    copy.chance.below(5)
    assert copy.digest() != game.digest()
