"""``DeadwoodState.resample(seat, seed)``: determinization for Information Set MCTS (DESIGN.md).

The contract, checked over random games at 2-9 players with every option: the resampled state shows
``seat`` the same view, has the same ``to_act`` and the same ``legal_actions(seat)``, conserves every
card and Safe, leaves the original alone, is a function of (state, seat, seed) and plays on to a legal
end; across seeds the hidden parts differ. What a seat knows (``engine.deadwood1876.resample``'s
knowledge model) is checked two ways: it is never false of the real state, and every resample keeps it
(the property tests); the scripted tests follow single facts (a Safe seen with a Stetson, a Safe passed
at Set Up or won in a Heist, a Holster given back, the discard pile before and after a reshuffle).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.core import OMNISCIENT
from engine.deadwood1876.actions import (
    ChooseHolster,
    Defend,
    GiveHolster,
    NoHolster,
    PassSafe,
    Robbery,
    UseStetson,
    ViewSafe,
)
from engine.deadwood1876.components import MYSTERY
from engine.deadwood1876.events import (
    CardPlayed,
    CardsDrawn,
    DeckReshuffled,
    HeistWon,
    SafeExploded,
    SafeGiven,
    SafeStolen,
)
from engine.deadwood1876.resample import knowledge
from engine.deadwood1876.state import DeadwoodState
from tests.helpers import COMP, act, card, cards, position

GAME = engine.game("deadwood1876")
CARDS = list(range(len(COMP.card_gun)))
SAFES = list(range(len(COMP.safe_kind)))
LABEL = [COMP.safe_label(s) for s in SAFES]
MYSTERIES = [s for s in SAFES if COMP.safe_kind[s] == MYSTERY]


def options_for(players: int, rng: random.Random) -> dict[str, Any]:
    """Random options, each only where the game allows it."""
    options: dict[str, Any] = {
        "mystery_safes": rng.randrange(6),
        "peace_lovin": rng.random() < 0.5,
        "prototype_rules": rng.random() < 0.35,
    }
    if players >= 6:
        options["fair_share"] = rng.random() < 0.5
    if players >= 4:
        options["horse_thief"] = rng.random() < 0.5
    return options


def new_game(players: int, seed: int, options: Any = None) -> DeadwoodState:
    state = GAME.new_game(players, seed, options)
    assert isinstance(state, DeadwoodState)
    return state


def step(state: DeadwoodState, rng: random.Random) -> None:
    """One uniformly random legal decision of a random seat among those to act."""
    seat = rng.choice(state.to_act)
    legal = state.legal_actions(seat)
    state.apply(seat, legal[rng.randrange(len(legal))])


def positions(players: int, seed: int, rate: float, options: Any = None) -> Iterator[DeadwoodState]:
    """A random game (random options unless given), yielding the live state at random decision points
    (about ``rate`` of them) and at the end. Don't change the states yielded."""
    rng = random.Random(seed)
    state = new_game(players, seed, options_for(players, rng) if options is None else options)
    while not state.is_over:
        if rng.random() < rate:
            yield state
        step(state, rng)
    yield state


def seen_by(state: DeadwoodState, seat: int) -> tuple[bytes, tuple[int, ...], list[Any]]:
    return msgspec.msgpack.encode(state.view(seat)), state.to_act, state.legal_actions(seat)


def all_cards(state: DeadwoodState) -> list[int]:
    limbo = []
    if state.phase == "choose_holster" and state.fight is not None:
        limbo = [c for c, _ in state.fight.offers.values() if c not in state.table_cards]
    held = [c for hand in state.hands for c in hand] + [c for pile in state.set_aside for c in pile]
    attached = list(state.safe_holster.values()) + list(state.figure_holster.values())
    return sorted(held + state.deck + state.discard + state.table_cards + limbo + attached)


def all_safes(state: DeadwoodState) -> list[int]:
    heist = [state.heist_safe] if state.heist_safe >= 0 else []
    return sorted([s for row in state.rows for s in row] + state.middle + state.box + heist)


def mysteries_in_play(state: DeadwoodState) -> set[int]:
    return set(all_safes(state)) & set(MYSTERIES)


def violations(state: DeadwoodState, seat: int) -> list[str]:
    """Everything the seat's knowledge claims that is false of ``state`` (empty: all true).

    Cards: a card known in a hand, set aside, or face up in the discard pile is there; the seat's own
    hand is exactly its cards known in hand; cards known to have gone into a reshuffled deck are in
    hidden places, and no hand holds more of them than it drew since. Safes: the rows as the seat
    follows them have the real lengths, name exactly what the view names, with the real face-up and
    Holster marks; the labels known somewhere in a row are among that row's unnamed Safes; the Mystery
    Safes the seat saw are in play.
    """
    k = knowledge(state, seat)
    out = []
    hidden_cards = {c for p in range(state.n) if p != seat for c in state.hands[p]} | set(state.deck)
    hidden_cards |= set(state.discard)
    for c, where in enumerate(k.where):
        if where is None:
            continue
        kind, x = where
        if kind == "hand" and c not in state.hands[x]:
            out.append(f"card {c} is not in hand {x}")
        elif kind == "aside" and c not in state.set_aside[x]:
            out.append(f"card {c} is not set aside by {x}")
        elif kind == "out" and c not in state.discard and c not in state.table_cards:
            out.append(f"card {c} is not face up on the table or the discard pile")
        elif kind == "gen" and c not in hidden_cards:
            out.append(f"card {c} of reshuffle {x} is not hidden")
    if sorted(c for c in CARDS if k.where[c] == ("hand", seat)) != sorted(state.hands[seat]):
        out.append("own hand not known exactly")
    for p in range(state.n):
        if p == seat:
            continue
        hidden = [c for c in state.hands[p] if k.where[c] != ("hand", p)]
        for g in range(1, k.generation + 1):
            newer = sum(1 for c in hidden if k.where[c] is not None and k.where[c][0] == "gen" and k.where[c][1] >= g)
            if newer > min(len(hidden), sum(k.drawn[p][g:])):
                out.append(f"hand {p} holds {newer} cards of reshuffle {g}+, drew {sum(k.drawn[p][g:])}")
    view = state.view(seat)
    figures = list(view.players) + ([view.stranger] if view.stranger is not None else [])
    for f in range(state.m):
        row = k.rows[f]
        if len(row) != len(state.rows[f]):
            out.append(f"row {f} has {len(state.rows[f])} Safes, the seat follows {len(row)}")
            continue
        if f == seat:
            continue
        shown = figures[f].safes
        for i, (label, holster, up) in enumerate(row):
            if (label, up) != (shown[i].contents, shown[i].revealed):
                out.append(f"row {f}[{i}]: followed {(label, up)}, view {(shown[i].contents, shown[i].revealed)}")
            if holster != (state.rows[f][i] in state.safe_holster):
                out.append(f"row {f}[{i}]: Holster mark {holster}")
        unnamed = Counter(LABEL[x] for i, x in enumerate(state.rows[f]) if shown[i].contents is None)
        for label, count in k.bags[f].items():
            if unnamed[label] < count:
                out.append(f"row {f}: {count} x {label} known unplaced, {unnamed[label]} there")
    in_play = {LABEL[x] for x in mysteries_in_play(state)}
    out += [f"{label} seen but not in play" for label in k.mysteries if label not in in_play]
    return out


def check_resample(state: DeadwoodState, seat: int, seed: int, *, knows: bool = True) -> DeadwoodState:
    """The contract of one resample; returns it. ``knows``: also check that the seat's knowledge holds
    in the resample (not for a seat whose private events an earlier resample dropped)."""
    before = state.digest()
    seen = seen_by(state, seat)
    copy = state.resample(seat, seed)
    assert copy is not state
    assert seen_by(copy, seat) == seen, (state.phase, seat)
    assert state.digest() == before, "resample changed the original"
    assert seen_by(state, seat) == seen
    assert all_cards(copy) == all_cards(state)
    base = [x for x in all_safes(state) if x not in MYSTERIES]
    assert [x for x in all_safes(copy) if x not in MYSTERIES] == base
    assert len(mysteries_in_play(copy)) == len(mysteries_in_play(state))  # which ones is hidden
    assert copy.pending.keys() == state.pending.keys()
    if seat in state.pending:
        assert copy.pending[seat] == state.pending[seat]
    if knows:
        assert violations(copy, seat) == [], (state.phase, seat)
    assert copy.events(seat) == state.events(seat)
    return copy


def play_to_the_end(state: DeadwoodState, rng: random.Random) -> None:
    """Random legal decisions to the end, checking ``to_act`` against ``legal_actions`` all the way."""
    for _ in range(5000):
        if state.is_over:
            assert state.to_act == ()
            assert len(state.outcome.scores) == state.n
            return
        for seat in range(state.n):
            assert bool(state.legal_actions(seat)) == (seat in state.to_act)
        step(state, rng)
    raise AssertionError("the resampled game did not end")


SETTINGS = settings(max_examples=30, deadline=None)
TABLES = st.tuples(st.integers(2, 9), st.integers(0, 2**32))


# ---------------------------------------------------------------------------------------------- the contract


@SETTINGS
@given(table=TABLES)
def test_resample_keeps_the_view_to_act_and_legal_actions_of_the_seat(table):
    """DESIGN.md, State.resample: for every seat at random points of random games (every player count
    and option), the resample's view, to_act and legal actions are the seat's; every card and Safe is
    still there once; the original is unchanged; the seat's knowledge still holds in the resample; the
    same seed gives the same resample."""
    players, seed = table
    for state in positions(players, seed, 0.06):
        for seat in range(players):
            first = check_resample(state, seat, seed)
            assert state.resample(seat, seed).digest() == first.digest()


@SETTINGS
@given(table=TABLES)
def test_the_seats_knowledge_is_never_false(table):
    """The knowledge model (what the seat learned from its own events) is true of the real game at every
    decision, for every seat: so a resample that keeps it never rules out the real game."""
    players, seed = table
    for state in positions(players, seed, 1.0):
        for seat in range(players):
            assert violations(state, seat) == [], (state.phase, seat)


@SETTINGS
@given(table=TABLES)
def test_resampled_states_play_on_to_a_legal_end(table):
    """A resample is a real position: played on with random legal moves (and resampled again on the
    way, for other seats too), it reaches an outcome with to_act and legal_actions in agreement."""
    players, seed = table
    rng = random.Random(seed)
    for state in positions(players, seed, 0.04):
        seat = rng.randrange(players)
        copy = state.resample(seat, rng.getrandbits(64))
        for _ in range(rng.randrange(30)):
            if copy.is_over:
                break
            step(copy, rng)
        if not copy.is_over:
            other = rng.randrange(players)
            copy = check_resample(copy, other, rng.getrandbits(64), knows=other == seat)
        play_to_the_end(copy, rng)


def layouts(state: DeadwoodState, seat: int) -> tuple[Any, Any]:
    """What a resample redraws, seen from everywhere: (cards, Safes) outside the seat's hand and row."""
    hands = tuple(tuple(sorted(h)) for p, h in enumerate(state.hands) if p != seat)
    rows = tuple(tuple(r) for f, r in enumerate(state.rows) if f != seat)
    return (hands, tuple(state.deck), tuple(sorted(state.discard))), (rows, tuple(state.middle), tuple(state.box))


def hidden_safe_places(state: DeadwoodState, seat: int) -> int:
    named = state.known[seat] | state.revealed
    rows = sum(1 for f in range(state.m) if f != seat for x in state.rows[f] if x not in named)
    return rows + len(state.middle) + len(state.box)


@pytest.mark.parametrize("players", range(2, 10))
def test_hidden_parts_differ_across_seeds(players):
    """A resample that changed nothing would fail here: over six seeds, the cards outside the seat's hand
    (other hands, deck, face-down discards) are never all the same, and the Safes outside its row (other
    rows, middle stack, box) almost never (only a forced or two-Safe pool can repeat); every digest
    differs from the original's and from each other's."""
    checked = same_cards = same_safes = 0
    for seed in range(3):
        for state in positions(players, 100 * players + seed, 0.15):
            if state.is_over:
                continue
            for seat in range(players):
                copies = [state.resample(seat, k) for k in range(6)]
                digests = {c.digest() for c in copies}
                assert len(digests) == 6 and state.digest() not in digests
                cards_seen = {layouts(c, seat)[0] for c in copies}
                safes_seen = {layouts(c, seat)[1] for c in copies}
                checked += 1
                same_cards += len(cards_seen) == 1
                same_safes += len(safes_seen) == 1 and hidden_safe_places(state, seat) > 2
    assert checked > 20
    assert same_cards == 0
    assert same_safes <= checked // 50


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(table=TABLES)
def test_resample_contract_over_many_games(table):
    """The first two properties over many more games (``-m slow``)."""
    players, seed = table
    for state in positions(players, seed, 0.2):
        for seat in range(players):
            assert violations(state, seat) == []
            check_resample(state, seat, seed)


# ---------------------------------------------------------------------------------------------- scripted


@pytest.mark.parametrize("seat", [None, OMNISCIENT, 5, -2, True, 1.0, "0"])
def test_resample_refuses_what_is_not_a_player_seat(seat):
    """``seat`` must be a player seat: observers, the Stranger's figure and non-ints raise ValueError."""
    state = new_game(5, 1)
    with pytest.raises(ValueError, match="seat"):
        state.resample(seat, 0)
    with pytest.raises(ValueError, match="seat"):
        new_game(2, 1).resample(2, 0)  # the Stranger is figure 2, not a seat


@pytest.mark.parametrize("seed", [-1, True, 1.0, "1", None])
def test_resample_refuses_a_seed_that_is_not_a_non_negative_int(seed):
    with pytest.raises(ValueError, match="seed"):
        new_game(5, 1).resample(0, seed)


def test_resample_of_a_finished_game_is_a_clone():
    state = list(positions(4, 5, 0.0))[-1]
    assert state.is_over
    copy = state.resample(2, 9)
    assert copy is not state and copy.digest() == state.digest()


def test_state_protocol_declares_resample():
    assert callable(engine.State.resample)
    assert callable(new_game(3, 1).resample)


@pytest.mark.parametrize("players", range(2, 10))
def test_at_the_start_other_hands_the_deck_and_the_safes_are_redrawn_and_the_seats_own_kept(players):
    """Set Up: only the seat's own hand and two Safes are known; everything else is redrawn."""
    state = new_game(players, players, {"mystery_safes": 2})
    for seat in range(players):
        copies = [state.resample(seat, k) for k in range(4)]
        for copy in copies:
            assert copy.hands[seat] == state.hands[seat] and copy.rows[seat] == state.rows[seat]
            assert len(mysteries_in_play(copy)) == 2
        for p in range(players):
            if p != seat:
                assert len({tuple(sorted(c.hands[p])) for c in copies}) == 4
        assert len({tuple(c.deck) for c in copies}) == 4
        assert len({tuple(c.middle) for c in copies}) > 1


def test_own_choice_is_kept_and_other_seats_hidden_choices_are_redrawn():
    """A Heist (simultaneous, hidden): the seat's own gun stays chosen; those already down for others are
    redrawn from their new hands; the seats still to choose are still to choose."""
    for state in positions(5, 17, 1.0, options={}):
        if state.phase == "heist" and len(state.pending) == 3:
            break
    else:
        raise AssertionError("no Heist with three guns down")
    seat = min(state.pending)
    others = [p for p in state.pending if p != seat]
    drawn = set()
    for k in range(12):
        copy = check_resample(state, seat, k)
        assert copy.to_act == state.to_act
        for p in others:
            assert copy.pending[p] in copy.hands[p]
        drawn.add(tuple(copy.pending[p] for p in others))
    assert len(drawn) > 1
    waiting = state.to_act[0]
    assert all(state.resample(waiting, k).pending.keys() == state.pending.keys() for k in range(3))


STETSON = card("colt", "stetson")


@pytest.mark.rule("deadwood1876", "law.knowledge")
def test_safes_seen_with_a_stetson_stay_where_they_are():
    """STETSON: the two Safes the seat viewed keep their place in every resample; another seat, who did
    not see them, gets them redrawn."""
    state = position(
        4,
        0,
        hands={0: [STETSON, *cards(("colt", "duster"), ("messenger", "duster"), ("winchester", "duster"))]},
        rows={0: ["Gold 1", "Gold 2"], 1: ["Gold 3", "Gold 4"], 2: ["Tin Badge", "Colt Showdown Gun"]},
        est=[0, 0, 2, 2],
    )
    act(state, 0, UseStetson(STETSON))
    act(state, 0, ViewSafe(1, 0))
    act(state, 0, ViewSafe(2, 1))
    assert state.to_act == (1,)
    seen = (state.rows[1][0], state.rows[2][1])
    for k in range(10):
        copy = check_resample(state, 0, k, knows=False)  # position() cleared the log: no Set Up events
        assert (copy.rows[1][0], copy.rows[2][1]) == seen
    assert len({state.resample(3, k).rows[1][0] for k in range(10)}) > 1


def test_a_safe_passed_at_set_up_stays_in_the_left_neighbours_row():
    """SET UP step 5: the passer knows which Safe the left neighbour got, not where it lies after the
    shuffle: every resample has it in that row, at varying places."""
    state = new_game(5, 3)
    passed = LABEL[state.rows[0][0]]
    for seat in range(5):
        act(state, seat, PassSafe(0))
    places = set()
    for k in range(20):
        copy = check_resample(state, 0, k)
        row = [LABEL[x] for x in copy.rows[1]]
        assert passed in row
        places.add(row.index(passed))
    assert len(places) > 1


def test_a_safe_won_in_a_heist_stays_in_the_winners_row():
    """HEIST: everyone sees the Safe the winner takes and shuffles in; it stays in that row."""
    rng = random.Random(4)
    state = new_game(6, 4)
    while True:
        step(state, rng)
        events = state.events(None)
        won = [i for i, e in enumerate(events) if isinstance(e, HeistWon)]
        moved = (SafeGiven, SafeStolen, SafeExploded)
        if won and state.phase == "turn" and not any(isinstance(e, moved) for e in events[won[-1] :]):
            break
    winner, label = events[won[-1]].seat, events[won[-1]].safe
    for seat in range(6):
        if seat != winner:
            for k in range(8):
                assert label in [LABEL[x] for x in check_resample(state, seat, k).rows[winner]]


COLT_HOLSTER = card("colt", "holster")
WINCHESTER_HOLSTER = card("winchester", "holster")
WINCHESTER = card("winchester", "stetson")
DERRINGER = card("derringer", "stetson")
DUSTERS_1 = cards(("pepperbox", "duster"), ("derringer", "duster"), ("colt", "duster"))
DUSTERS_2 = [card(gun, "duster", exclude=DUSTERS_1) for gun in ("pepperbox", "derringer", "colt")]
DUSTERS_3 = [card(gun, "duster", exclude=DUSTERS_1 + DUSTERS_2) for gun in ("pepperbox", "derringer", "winchester")]


def test_a_holster_given_back_stays_in_its_givers_hand():
    """HOLSTERS: a Holster not chosen goes back, face up, to its giver: everyone knows it is there."""
    state = position(
        5,
        0,
        hands={
            0: [WINCHESTER, *cards(("pepperbox", "stetson"), ("colt", "stetson"), ("messenger", "stetson"))],
            1: [DERRINGER, *DUSTERS_1],
            2: [COLT_HOLSTER, *DUSTERS_2],
            3: [WINCHESTER_HOLSTER, *DUSTERS_3],
        },
        rows={1: ["Gold 2", "Gold 3"]},
        est=[0, 0, 1, 1, 2],
        rolls=(1, 0, 2),
    )
    act(state, 0, Robbery(WINCHESTER, 1, 0))
    act(state, 1, Defend(DERRINGER))
    act(state, 2, GiveHolster(COLT_HOLSTER, 1))
    act(state, 3, GiveHolster(WINCHESTER_HOLSTER, 1))
    act(state, 4, NoHolster())
    act(state, 1, ChooseHolster(WINCHESTER_HOLSTER))
    assert COLT_HOLSTER in state.hands[2]
    for seat in (0, 1, 3, 4):
        hands = set()
        for k in range(8):
            copy = check_resample(state, seat, k, knows=False)  # position() cleared the log
            assert COLT_HOLSTER in copy.hands[2]
            hands.add(tuple(sorted(copy.hands[2])))
        assert len(hands) > 1  # the rest of that hand is still redrawn


def test_face_up_discards_stay_and_reshuffled_cards_only_go_where_that_deck_went():
    """ "Whenever the deck runs out, shuffle the discard pile and reform the deck": the cards a seat saw
    face up in the discard pile stay there; after the reshuffle they are in the new deck or in the hands
    of those who drew from it (at most as many as each drew), never in a hand dealt before."""
    rng = random.Random(8)
    state = new_game(5, 8)
    face_up_checked = False
    while not any(isinstance(e, DeckReshuffled) for e in state.events(None)):
        if not face_up_checked and state.discard and state.phase == "turn":
            seat = (state.current + 1) % 5
            shown = {e.card.id for e in state.events(seat) if isinstance(e, CardPlayed)}
            up = [i for i, c in enumerate(state.discard) if c in shown]
            if up:
                for k in range(5):
                    copy = check_resample(state, seat, k)
                    assert [copy.discard[i] for i in up] == [state.discard[i] for i in up]
                face_up_checked = True
        step(state, rng)
    assert face_up_checked
    events = state.events(None)
    cut = max(i for i, e in enumerate(events) if isinstance(e, DeckReshuffled))
    drew: Counter[int] = Counter()
    for e in events[cut:]:
        if isinstance(e, CardsDrawn):
            drew[e.seat] += e.count
    for seat in range(5):
        mine = state.events(seat)
        before = {e.card.id for e in mine[:cut] if isinstance(e, CardPlayed)} - set(state.hands[seat])
        in_deck = before & set(state.deck)
        assert in_deck
        for k in range(10):
            copy = check_resample(state, seat, k)
            for p in range(5):
                if p != seat:
                    assert len(in_deck & set(copy.hands[p])) <= drew[p], (seat, p)


def test_mystery_safes_seen_stay_in_play_and_unseen_ones_are_redrawn():
    """MYSTERY SAFES: which ones were shuffled in is hidden: resamples draw it again, always the same
    number, keeping in play those the seat holds."""
    state = new_game(5, 11, {"mystery_safes": 2})
    held = [len(set(state.rows[s]) & set(MYSTERIES)) for s in range(5)]
    seat = held.index(1) if 1 in held else held.index(0)
    mine = set(state.rows[seat]) & set(MYSTERIES)
    drawn = set()
    for k in range(20):
        copy = check_resample(state, seat, k)
        assert mine <= mysteries_in_play(copy)
        drawn.add(frozenset(mysteries_in_play(copy)))
    assert len(drawn) > 1


def test_resample_works_on_a_resample_and_for_every_seat_of_it():
    """A resample is a state like any other: resampling it again, for the same seat or another, keeps
    that seat's view (its event log keeps only the first seat's private events)."""
    state = next(s for i, s in enumerate(positions(6, 21, 1.0, options={"mystery_safes": 3})) if i == 80)
    copy = state.resample(2, 1)
    for seat in range(6):
        check_resample(copy, seat, 5, knows=seat == 2)
    assert copy.events(2) == state.events(2)
    assert len(copy.events(OMNISCIENT)) == len(state.events(OMNISCIENT))
