"""Property tests for Wyatt Earp: random games against the engine contract and what players may see.

Games are played with uniformly random legal choices, seeded by hypothesis, at 2-4 players with
each option on and off. The properties: games end and never raise; ``to_act`` and
``legal_actions`` agree; cards are conserved; digests are deterministic (a replay of the same
seed and actions gives the same digests, and so does a clone); outcomes are consistent with the
money; no view or event shows a seat another hand's hidden cards or the supply, nor the card
another player took with a Wyatt Earp search (not even by comparing discard stacks: the seat's
view is the same whichever candidate the search took); ``resample`` keeps the seat's view,
``to_act`` and legal actions, respects what the table knows, and redraws the hidden cards
(the searched ones included) differently for different seeds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import msgspec
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.core import OMNISCIENT
from engine.wyatt_earp import GAME
from engine.wyatt_earp.actions import Action, WyattEarpSearch
from engine.wyatt_earp.events import Card, CardsDealt, CardsDrawn, CardSearched, Event
from engine.wyatt_earp.state import KIND, OUTLAW_CARD, WyattEarpState
from engine.wyatt_earp.views import View
from tests.wyatt_earp_helpers import check_conservation

SEEDS = st.integers(0, 2**32)
PLAYERS = st.integers(2, 4)
OPTIONS = st.sampled_from(
    [{}, {"free_photo": True}, {"hideout_reward": 0}, {"free_photo": True, "hideout_reward": 5000}]
)
DECISION_LIMIT = 50_000
VIEW_JSON = msgspec.json.Decoder(View)
EVENTS_JSON = msgspec.json.Decoder(list[Event])
ACTION_JSON = msgspec.json.Decoder(Action)


def play(
    game: WyattEarpState,
    rng: random.Random,
    check: Callable[[WyattEarpState], None] | None = None,
    search: bool = False,
) -> list[tuple[int, Any]]:
    """Finish ``game`` with random legal choices, calling ``check`` now and then; returns the moves.
    ``search``: a Wyatt Earp search whenever one is legal (and ``check`` after each)."""
    moves: list[tuple[int, Any]] = []
    while not game.is_over:
        if check is not None and (rng.random() < 0.05 or (search and game.secret and rng.random() < 0.1)):
            check(game)
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        if search and WyattEarpSearch() in legal:
            action = WyattEarpSearch()
        game.apply(seat, action)
        moves.append((seat, action))
        assert len(moves) < DECISION_LIMIT, "the game did not end"
    if check is not None:
        check(game)
    return moves


def card_ids(value: Any) -> Iterator[int]:
    """Every card id a view shows, wherever it is."""
    if isinstance(value, Card):
        yield value.id
    elif isinstance(value, msgspec.Struct):
        for field in value.__struct_fields__:
            yield from card_ids(getattr(value, field))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from card_ids(item)


def hidden_from(game: WyattEarpState, seat: int | None) -> set[int]:
    """Cards ``seat`` may not see: other hands' unknown cards (those taken unseen with a Wyatt Earp
    search included, unless ``seat`` searched the same stack since) and the supply, but for the
    Sheriff card being resolved (``pending``): everyone saw it played, and a Wyatt Earp goes on the
    discard stack before its shot (Wyatt Earp, "remove Hideout"), so a reshuffle during that shot
    takes it into the supply while the view still names it (seed 74470, 4 players)."""
    hidden = set(game.supply) - {game.pending}
    for p, hand in enumerate(game.hands):
        if p != seat:
            hidden.update(c for c in hand if c not in game.known)
    return hidden


def searched_unseen(game: WyattEarpState, seat: int | None) -> dict[int, set[int]]:
    """The cards other players took with Wyatt Earp searches that ``seat`` does not know, each with
    the cards of the discard stack (below the top) that search could have taken instead."""
    below_top = set(game.discard[:-1])
    return {
        c: set(entry.candidates) & below_top
        for c, entry in game.secret.items()
        if seat not in entry.knowers and entry.reshuffled == game.reshuffled
    }


def swapped(game: WyattEarpState, card: int, other: int) -> WyattEarpState:
    """A copy of ``game`` in which the searcher holding ``card`` took ``other`` instead (``other``
    lies in the discard stack where it was)."""
    copy = game.clone()
    holder = next(p for p, hand in enumerate(copy.hands) if card in hand)
    copy.hands[holder][copy.hands[holder].index(card)] = other
    copy.discard[copy.discard.index(other)] = card
    entry = copy.secret.pop(card)
    copy.secret[other] = entry._replace(candidates=entry.candidates - {other} | {card})
    return copy


# ---------------------------------------------------------------------------------------------- checks


def check_contract(game: WyattEarpState) -> None:
    check_conservation(game)
    if game.is_over:
        assert game.to_act == () and game.phase == "over"
    else:
        assert len(game.to_act) == 1
    for seat in range(game.n):
        legal = game.legal_actions(seat)
        if seat in game.to_act:
            assert legal and len(set(legal)) == len(legal)
        else:
            assert legal == []
    for p, hand in enumerate(game.hands):
        for c in hand:
            if OUTLAW_CARD[c] and c not in game.known:
                assert not game.lacks[p] >> KIND[c] & 1, "a hand holds an Outlaw it is known to lack"
    assert game.known <= {c for h in game.hands for c in h}
    assert not game.known & game.secret.keys()
    for p, hand in enumerate(game.hands):
        for c in hand:
            if c in game.secret:
                assert p in game.secret[c].knowers, "the searcher knows the card taken"
    if game.reshuffled and not game.is_over:  # what the table saw go into the new supply
        assert set(game.supply) <= game.recycled
        for p, hand in enumerate(game.hands):
            hidden = [c for c in hand if c not in game.known and c not in game.secret]
            assert sum(1 for c in hidden if c in game.recycled) <= game.drawn_since[p]


def check_views(game: WyattEarpState) -> None:
    for seat in [*range(game.n), None]:
        view = game.view(seat)
        shown = set(card_ids(view))
        assert not shown & hidden_from(game, seat), f"seat {seat} sees hidden cards"
        assert view.hands is None
        assert VIEW_JSON.decode(msgspec.json.encode(view)) == view
        events = game.events(seat)
        assert EVENTS_JSON.decode(msgspec.json.encode(events)) == events
        for event in events:
            if isinstance(event, CardsDealt | CardsDrawn) and event.seat != seat:
                assert event.cards is None
            if isinstance(event, CardSearched):
                assert (event.card is not None) == (event.seat == seat), "a searched card is the searcher's alone"
        check_search_hidden(game, seat)
    everything = game.view(OMNISCIENT)
    assert everything.hands is not None
    for seat in game.to_act:
        for action in game.legal_actions(seat):
            assert ACTION_JSON.decode(msgspec.json.encode(action)) == action
            mine = GAME.describe(action, game.view(seat))
            theirs = GAME.describe(action, everything, seat)
            assert mine and theirs and "your" not in theirs.lower().split()
            assert GAME.describe(action, game.view(seat), seat) == mine


def check_search_hidden(game: WyattEarpState, seat: int | None) -> None:
    """Whichever card a search the seat did not see took, the seat sees the same: its view (the
    discard stack included), whether it owes a decision and its legal actions."""
    view = game.view(seat)
    legal = game.legal_actions(seat) if seat is not None else []
    for card, others in searched_unseen(game, seat).items():
        assert card not in set(card_ids(view))
        for other in sorted(others)[:3]:
            alt = swapped(game, card, other)
            assert alt.view(seat) == view, "the discard stack shows which card a search took"
            assert alt.to_act == game.to_act
            if seat is not None:
                assert alt.legal_actions(seat) == legal


def check_resample(game: WyattEarpState) -> None:
    if game.is_over:
        return
    digest = game.digest()
    for seat in range(game.n):
        before = game.view(seat)
        samples = [game.resample(seat, s) for s in (1, 2, 3, 4, 5)]
        assert game.digest() == digest, "resample changed the state"
        for sample in samples:
            assert sample.view(seat) == before
            assert sample.to_act == game.to_act
            assert sample.legal_actions(seat) == game.legal_actions(seat)
            check_contract(sample)
            for p in range(game.n):
                assert len(sample.hands[p]) == len(game.hands[p])
                assert {c for c in game.hands[p] if c in game.known} <= set(sample.hands[p])
            assert sample.hands[seat] == game.hands[seat]
            for c, entry in game.secret.items():  # the seat's own searches and those it knows stay
                if seat in entry.knowers:
                    assert c in sample.secret
        hidden = [
            (tuple(tuple(sorted(h)) for p, h in enumerate(s.hands) if p != seat), tuple(s.supply)) for s in samples
        ]
        if len(game.supply) >= 4:
            assert len(set(hidden)) > 1, "the hidden cards did not vary across seeds"
        assert game.resample(seat, 2).digest() == samples[1].digest()  # same seed, same copy
    # a determinization plays on like any game
    play(game.resample(game.to_act[0], 9), random.Random(0))


# ---------------------------------------------------------------------------------------------- properties


@settings(max_examples=60, deadline=None)
@given(players=PLAYERS, seed=SEEDS, options=OPTIONS)
def test_random_games_keep_the_contract(players: int, seed: int, options: dict[str, Any]) -> None:
    game = GAME.new_game(players, seed, options)
    moves = play(game, random.Random(seed), check_contract)
    outcome = game.outcome
    assert outcome.scores == tuple(float(m) for m in game.money)
    assert max(game.money) >= 25000
    (winner,) = outcome.winners
    assert game.money[winner] == max(game.money) and outcome.ranks[winner] == 1
    # the same seed and actions give the same game, digest by digest
    again = GAME.new_game(players, seed, options)
    for seat, action in moves:
        again.apply(seat, msgspec.json.decode(msgspec.json.encode(action), type=Action))
    assert again.digest() == game.digest()
    assert again.events(OMNISCIENT) == game.events(OMNISCIENT)


@settings(max_examples=30, deadline=None)
@given(players=PLAYERS, seed=SEEDS, options=OPTIONS)
@example(players=4, seed=74470, options={})  # a Wyatt Earp reshuffled into the supply during its own shot
def test_views_and_events_do_not_leak(players: int, seed: int, options: dict[str, Any]) -> None:
    game = GAME.new_game(players, seed, options)
    play(game, random.Random(seed), check_views)


@settings(max_examples=25, deadline=None)
@given(players=PLAYERS, seed=SEEDS, options=OPTIONS)
def test_resample_keeps_what_the_seat_knows(players: int, seed: int, options: dict[str, Any]) -> None:
    game = GAME.new_game(players, seed, options)
    play(game, random.Random(seed), check_resample)


@settings(max_examples=12, deadline=None)
@given(players=PLAYERS, seed=SEEDS, options=OPTIONS)
def test_searched_cards_do_not_leak(players: int, seed: int, options: dict[str, Any]) -> None:
    """Players who search the discard stack with every Wyatt Earp they can: no view, event or
    legal action tells another seat which card was taken, and resampling redraws it."""
    game = GAME.new_game(players, seed, options)
    searched = 0

    def check(game: WyattEarpState) -> None:
        nonlocal searched
        searched += len(game.secret)
        check_views(game)
        check_resample(game)

    play(game, random.Random(seed), check, search=True)
    assert searched, "no search to check"


@settings(max_examples=20, deadline=None)
@given(players=PLAYERS, seed=SEEDS, cut=st.integers(0, 400))
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


def test_digest_sees_hidden_changes() -> None:
    game = GAME.new_game(3, 4)
    copy = game.clone()
    copy.supply[0], copy.supply[1] = copy.supply[1], copy.supply[0]
    assert copy.digest() != game.digest()
    copy = game.clone()
    copy.chance.below(5)
    assert copy.digest() != game.digest()
