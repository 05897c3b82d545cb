"""Property tests for Deadwood 1876: random games against the engine contract and the 2nd Law of Deadwood.

Games are played with uniformly random legal choices (a random seat among several to act), seeded by
hypothesis. The properties: games end within a bounded number of decisions and never raise; ``to_act``
and ``legal_actions`` agree; every legal action applies; outcomes are consistent; ``clone`` and replays
are exact; illegal actions change nothing; cards and Safes are conserved; and no view or event shows a
seat anything it may not know (rulebook: THE 3 LAWS OF DEADWOOD, 2: "You may never show Safe cards or
cards in your hand to other players").
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.core import OMNISCIENT, IllegalAction
from engine.deadwood1876.actions import FireGun, HeistGun, NoHolster, PassSafe
from engine.deadwood1876.events import (
    BadgeRevealed,
    CardsDealt,
    CardsDiscarded,
    CardsDrawn,
    Event,
    GameOver,
    HeistWon,
    SafeGiven,
    SafePassed,
    SafesDealt,
    SafesRevealed,
    SafesShuffled,
    SafeStolen,
    SafeViewed,
)
from engine.deadwood1876.state import DeadwoodState
from engine.deadwood1876.views import View
from tests.helpers import COMP

SEEDS = st.integers(0, 2**32)
PLAYERS = st.integers(4, 9)
CARDS = list(range(len(COMP.card_gun)))
BASE_SAFES = sorted(s for s in range(len(COMP.safe_kind)) if COMP.safe_kind[s] != "mystery")
EVENT_LIST = msgspec.json.Decoder(list[Event])
VIEW = msgspec.json.Decoder(View)


def new_game(players: int, seed: int) -> DeadwoodState:
    game = engine.game("deadwood1876").new_game(players, seed)
    assert isinstance(game, DeadwoodState)
    return game


def decision_bound(game: DeadwoodState) -> int:
    """An upper bound on the decisions of a whole game.

    Set Up: one pass each. Turns: ``players`` per circle, (Heists + 1) circles, plus at most 5 Badge
    turns; a turn takes at most ``players + 3`` decisions (card, defence, a Holster question to each
    other player, two Holster choices, a gift or send-away). A Heist: everyone, plus a gift. The Showdown:
    at most ``2 * players`` rounds of everyone alive.
    """
    n, heists = game.n, game.table.middle_safes
    turns = n * (heists + 1) + 5
    return n + turns * (n + 3) + heists * (n + 1) + 2 * n * n


def play(
    game: DeadwoodState, rng: random.Random, check: Callable[[DeadwoodState], None] | None = None
) -> list[tuple[int, Any]]:
    """Finish ``game`` with random legal choices, calling ``check`` at every decision point and at the end.

    Returns the ``(seat, action)`` pairs applied.
    """
    moves: list[tuple[int, Any]] = []
    bound = decision_bound(game)
    while not game.is_over:
        if check is not None:
            check(game)
        seat = rng.choice(game.to_act)
        legal = game.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        game.apply(seat, action)
        moves.append((seat, action))
        assert len(moves) <= bound, "the game did not end within the decision bound"
    if check is not None:
        check(game)
    return moves


def random_game(players: int, seed: int, check: Callable[[DeadwoodState], None] | None = None) -> DeadwoodState:
    game = new_game(players, seed)
    play(game, random.Random(seed), check)
    return game


# ---------------------------------------------------------------------------------------------- the contract


def check_contract(game: DeadwoodState) -> None:
    if game.is_over:
        assert game.to_act == ()
        assert game.phase == "over"
    else:
        assert game.to_act, "nobody to act in an unfinished game"
        assert list(game.to_act) == sorted(set(game.to_act))
        with pytest.raises(ValueError):
            _ = game.outcome
    for seat in range(game.n):
        legal = game.legal_actions(seat)
        if seat in game.to_act:
            assert legal, f"seat {seat} must act in phase {game.phase} but has no legal action"
            assert len(set(legal)) == len(legal)
        else:
            assert legal == []


@settings(max_examples=150, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_random_games_terminate_and_to_act_matches_legal_actions(seed, players):
    """Engine contract: a random game ends within a bounded number of decisions without raising; ``to_act`` is
    non-empty until the end; exactly the seats in ``to_act`` have legal actions."""
    game = new_game(players, seed)
    moves = play(game, random.Random(seed), check_contract)
    assert game.is_over
    assert 0 < len(moves) <= decision_bound(game)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_every_legal_action_applies(seed, players):
    """Engine contract: every action in ``legal_actions`` applies without raising and changes the state."""
    rng = random.Random(seed)

    def check(game: DeadwoodState) -> None:
        if game.is_over or rng.random() > 0.35:
            return
        before = game.digest()
        for seat in game.to_act:
            for action in game.legal_actions(seat):
                copy = game.clone()
                copy.apply(seat, action)
                assert copy.digest() != before
        assert game.digest() == before

    random_game(players, seed, check)


@settings(max_examples=150, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
@pytest.mark.rule("deadwood1876", "showdown.scores")
def test_outcome_is_consistent(seed, players):
    """showdown.finish(): one score and one 1-based rank per seat; the winners rank 1 and score 1, everyone
    else scores 0 and ranks below; the winners advanced; the last event announces them."""
    game = random_game(players, seed)
    out = game.outcome
    assert len(out.scores) == len(out.ranks) == players
    assert out.winners and list(out.winners) == sorted(set(out.winners))
    assert set(out.winners) <= set(game.advanced)
    assert all(1 <= r <= players for r in out.ranks)
    for seat in range(players):
        if seat in out.winners:
            assert (out.scores[seat], out.ranks[seat]) == (1.0, 1)
        else:
            assert out.scores[seat] == 0.0 and out.ranks[seat] > 1
    assert out.ranks == engine.rank_by_scores([-r for r in out.ranks])
    if len(game.advanced) == 1:
        assert out.winners == game.advanced
    else:
        assert len(out.winners) == 1 and game.alive == list(out.winners)
        # the later out, the better; those who did not advance come last, tied
        ranks_out = [out.ranks[s] for s in game.out_order]
        assert ranks_out == sorted(ranks_out, reverse=True) and len(set(ranks_out)) == len(ranks_out)
    stayed = [out.ranks[s] for s in range(players) if s not in game.advanced]
    assert len(set(stayed)) <= 1 and all(r > max(out.ranks[s] for s in game.advanced) for r in stayed)
    assert game.events(None)[-1] == GameOver(out.winners)


# ---------------------------------------------------------------------------------------------- determinism


@settings(max_examples=80, deadline=None)
@given(seed=SEEDS, players=PLAYERS, cut=st.floats(0, 1))
def test_clone_mid_game_continues_to_the_same_digest(seed, players, cut):
    """State.clone(): an independent copy that continues exactly as the original under the same actions."""
    game = new_game(players, seed)
    rng = random.Random(seed)
    total = len(play(game.clone(), random.Random(seed)))
    for _ in range(int(cut * total)):
        seat = rng.choice(game.to_act)
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    copy = game.clone()
    assert copy.digest() == game.digest()
    if not game.is_over:
        # independence: acting on the copy leaves the original alone
        probe = copy.clone()
        seat = probe.to_act[0]
        before = game.digest()
        probe.apply(seat, probe.legal_actions(seat)[0])
        assert game.digest() == before and copy.digest() == before
    while not game.is_over:
        seat = rng.choice(game.to_act)
        legal = game.legal_actions(seat)
        assert copy.legal_actions(seat) == legal
        action = legal[rng.randrange(len(legal))]
        game.apply(seat, action)
        copy.apply(seat, action)
        assert copy.digest() == game.digest()
    assert copy.is_over and copy.outcome == game.outcome
    assert copy.events(OMNISCIENT) == game.events(OMNISCIENT)


@settings(max_examples=80, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_same_seed_and_actions_replay_to_the_same_digest(seed, players):
    """Determinism: the same seed and the same actions give the same game, digest for digest."""
    game = new_game(players, seed)
    digests = [game.digest()]
    moves = play(game, random.Random(seed), lambda g: digests.append(g.digest()))
    replay = new_game(players, seed)
    assert replay.digest() == digests[0]
    for k, (seat, action) in enumerate(moves):
        replay.apply(seat, action)
        assert replay.digest() == digests[k + 2]
    assert replay.outcome == game.outcome
    assert replay.events(OMNISCIENT) == game.events(OMNISCIENT)


def wrong_actions(game: DeadwoodState, rng: random.Random) -> list[tuple[int, Any]]:
    """Some illegal ``(seat, action)`` pairs for this decision point."""
    out: list[tuple[int, Any]] = [
        (seat, NoHolster()) for seat in range(game.n) if NoHolster() not in game.legal_actions(seat)
    ]
    idle = [s for s in range(game.n) if s not in game.to_act]
    if not game.is_over:
        seat = game.to_act[0]
        if idle:
            out.append((rng.choice(idle), game.legal_actions(seat)[0]))
        out.append((seat, HeistGun(99)))
        out.append((seat, FireGun(-1)))
        out.append((seat, PassSafe(7)))
        out.append((seat, "junk"))
    out.append((game.n, NoHolster()))
    return out


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_illegal_action_leaves_the_digest_unchanged(seed, players):
    """State.apply(): an illegal action raises IllegalAction and changes nothing."""
    rng = random.Random(seed ^ 0x5A5A)

    def check(game: DeadwoodState) -> None:
        if rng.random() > 0.3:
            return
        before = game.digest()
        legal = {s: list(game.legal_actions(s)) for s in range(game.n)}
        for seat, action in wrong_actions(game, rng):
            with pytest.raises(IllegalAction):
                game.apply(seat, action)
            assert game.digest() == before
        assert {s: game.legal_actions(s) for s in range(game.n)} == legal

    random_game(players, seed, check)


# ---------------------------------------------------------------------------------------------- conservation


def check_conservation(game: DeadwoodState) -> None:
    limbo: list[int] = []
    if game.phase == "choose_holster" and game.fight is not None:
        limbo = [c for c, _ in game.fight.offers.values() if c not in game.table_cards]
    held = [c for hand in game.hands for c in hand]
    aside = [c for pile in game.set_aside for c in pile]
    everything = held + game.deck + game.discard + game.table_cards + aside + limbo
    assert sorted(everything) == CARDS, f"cards not conserved in phase {game.phase}"
    heist = [game.heist_safe] if game.heist_safe >= 0 else []
    safes = [s for row in game.rows for s in row] + game.middle + game.box + heist
    assert sorted(safes) == BASE_SAFES, f"Safes not conserved in phase {game.phase}"


@settings(max_examples=120, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
@pytest.mark.rule("deadwood1876", "contents.cards")
def test_cards_and_safes_are_conserved(seed, players):
    """CONTENTS / CARD COUNTS: the 50 Deadwood cards are always in hands, the deck, the discard pile or on the
    table; the 20 base Safes in rows, the middle, the box or the Heist being fought for."""
    random_game(players, seed, check_conservation)


# ---------------------------------------------------------------------------------------------- what seats see


def seat_sees(game: DeadwoodState, seat: int) -> tuple[bytes, list[Any]]:
    return msgspec.json.encode(game.view(seat)), game.legal_actions(seat)


def hide_hand_card(game: DeadwoodState, other: int, rng: random.Random) -> DeadwoodState | None:
    """A copy where one card of ``other``'s hand is swapped with one of the deck (None if impossible)."""
    busy: set[int] = set()
    if game.phase in ("heist", "showdown"):
        busy = set(game.pending.values())
    elif game.phase == "holster":
        busy = {a.card for a in game.pending.values() if not isinstance(a, NoHolster)}
    free = [i for i, c in enumerate(game.hands[other]) if c not in busy]
    if not free or not game.deck:
        return None
    copy = game.clone()
    i, j = rng.choice(free), rng.randrange(len(copy.deck))
    copy.hands[other][i], copy.deck[j] = copy.deck[j], copy.hands[other][i]
    return copy


def hide_safes(game: DeadwoodState, observer: int, other: int, rng: random.Random) -> DeadwoodState | None:
    """A copy where two Safes of ``other``'s row that ``observer`` does not know swap places (None if none)."""
    attacked = game.fight.safe if game.fight is not None else -1
    row = game.rows[other]
    unknown = [
        i for i, s in enumerate(row) if s not in game.known[observer] and s not in game.revealed and s != attacked
    ]
    if len(unknown) < 2:
        return None
    i, j = rng.sample(unknown, 2)
    copy = game.clone()
    copy.rows[other][i], copy.rows[other][j] = copy.rows[other][j], copy.rows[other][i]
    return copy


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
@pytest.mark.rule("deadwood1876", "law.second")
def test_views_do_not_leak_other_seats_hidden_cards(seed, players):
    """2nd LAW: two states that differ only in another seat's hidden cards (a hand card swapped with the deck,
    or two Safes the observer does not know swapped) look the same to the observer: same view, same legal
    actions. Checked for seat 0 watching seat 2 and for a random pair."""
    rng = random.Random(seed + 1)
    tried = [0, 0]

    def check(game: DeadwoodState) -> None:
        pairs = [(0, 2)]
        observer = rng.randrange(game.n)
        pairs.append((observer, rng.choice([s for s in range(game.n) if s != observer])))
        for observer, other in pairs:
            seen = seat_sees(game, observer)
            copy = hide_hand_card(game, other, rng)
            if copy is not None:
                tried[0] += 1
                assert seat_sees(copy, observer) == seen, f"seat {observer} sees seat {other}'s hand ({game.phase})"
            copy = hide_safes(game, observer, other, rng)
            if copy is not None:
                tried[1] += 1
                assert seat_sees(copy, observer) == seen, f"seat {observer} sees seat {other}'s Safes ({game.phase})"

    random_game(players, seed, check)
    assert tried[0] > 0 and tried[1] > 0


def check_spectator(game: DeadwoodState) -> None:
    view = game.view(None)
    assert view.seat is None
    assert view.hand == () and view.hands is None
    for player, row in zip(view.players, game.rows, strict=True):
        for sv, s in zip(player.safes, row, strict=True):
            assert sv.revealed == (s in game.revealed)
            assert sv.contents == (COMP.safe_label(s) if s in game.revealed else None)


@settings(max_examples=80, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
@pytest.mark.rule("deadwood1876", "law.second")
def test_spectator_sees_no_hand_and_no_unrevealed_safe(seed, players):
    """2nd LAW: the spectator view (``None``) holds no hand and no contents of a Safe that is not revealed."""
    game = random_game(players, seed, check_spectator)
    for event in game.events(None):
        if isinstance(event, CardsDealt | CardsDrawn | CardsDiscarded):
            assert event.cards is None
        elif isinstance(event, SafesDealt):
            assert event.safes is None
        elif isinstance(event, SafePassed | SafeStolen | SafeViewed | SafeGiven):
            assert event.safe is None


HIDDEN = {
    CardsDealt: "cards",
    CardsDrawn: "cards",
    CardsDiscarded: "cards",
    SafesDealt: "safes",
    SafePassed: "safe",
    SafeStolen: "safe",
    SafeViewed: "safe",
    SafeGiven: "safe",
}
"""Event types with a hidden part, and the field that holds it."""


def entitled(event: Any, seat: int) -> bool:
    """Whether ``seat`` may see the hidden part of ``event``."""
    if isinstance(event, CardsDealt | CardsDrawn | CardsDiscarded | SafesDealt):
        return event.seat == seat
    if isinstance(event, SafePassed):
        return seat in (event.giver, event.receiver)
    if isinstance(event, SafeStolen):
        return seat in (event.thief, event.victim)
    if isinstance(event, SafeViewed):
        return event.viewer == seat
    if isinstance(event, SafeGiven):
        return seat in (event.giver, event.recipient)
    raise AssertionError(f"no hidden part in {event!r}")


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
@pytest.mark.rule("deadwood1876", "law.second")
def test_events_show_hidden_contents_only_to_the_seats_that_may_know(seed, players):
    """2nd LAW: a drawn, dealt or discarded card and a passed, stolen, viewed or given Safe are named only in
    the events of the seats involved; the others get the public event, without the hidden part."""
    game = random_game(players, seed)
    public = game.events(None)
    for seat in range(players):
        mine = game.events(seat)
        assert len(mine) == len(public)
        for event, shown in zip(mine, public, strict=True):
            field = HIDDEN.get(type(event))
            if field is not None and entitled(event, seat):
                assert getattr(event, field) is not None
                assert msgspec.structs.replace(event, **{field: None}) == shown
            else:
                assert event == shown


def check_seat_views(game: DeadwoodState) -> None:
    for seat in range(game.n):
        view = game.view(seat)
        assert view.seat == seat and view.hands is None
        assert view.hand == tuple(game.card(c) for c in sorted(game.hands[seat]))
        for p, (player, row) in enumerate(zip(view.players, game.rows, strict=True)):
            assert player.hand_size == len(game.hands[p])
            for sv, s in zip(player.safes, row, strict=True):
                knows = p == seat or s in game.known[seat] or s in game.revealed
                assert sv.contents == (COMP.safe_label(s) if knows else None), (seat, p, s, game.phase)
    everything = game.view(OMNISCIENT)
    assert everything.hands == tuple(tuple(game.card(c) for c in sorted(h)) for h in game.hands)
    assert all(sv.contents is not None for p in everything.players for sv in p.safes)


@pytest.mark.parametrize(("players", "seed"), [(4, 11), (6, 12), (9, 13)])
@pytest.mark.rule("deadwood1876", "law.second")
@pytest.mark.rule("deadwood1876", "law.knowledge")
def test_seat_view_shows_only_its_hand_and_the_safes_it_knows(players, seed):
    """2nd LAW: at every decision point a seat's view holds its own hand only (no other hand) and the contents
    of exactly the Safes it owns, has learned (``known``) or sees revealed."""
    game = random_game(players, seed, check_seat_views)
    assert game.is_over


class Memory:
    """What one seat can tell of every row of Safes from its own events alone (None: not known).

    The Safes a seat saw (its own dealt or passed, viewed, stolen, lost, given, won in a Heist) stay known,
    following their moves, until their owner shuffles a row of more than one Safe. Revealed Safes (Badges
    in the Badge Round, everything in the Final Showdown) lie face up: ``face_up`` lists them per row, and
    they stay in sight wherever a shuffle puts them.
    """

    def __init__(self, players: int) -> None:
        self.rows: list[list[str | None]] = [[] for _ in range(players)]
        self.face_up: list[list[str]] = [[] for _ in range(players)]
        self.seen = 0

    def feed(self, event: Any) -> None:
        rows = self.rows
        if isinstance(event, SafesDealt):
            rows[event.seat] = list(event.safes) if event.safes is not None else [None] * event.count
        elif isinstance(event, SafePassed):
            rows[event.giver].pop()  # every row is shuffled right after the passes
            rows[event.receiver].append(event.safe)
        elif isinstance(event, SafesShuffled):
            if len(rows[event.seat]) > 1:
                rows[event.seat] = [None] * len(rows[event.seat])
        elif isinstance(event, SafeViewed):
            if event.safe is not None:
                rows[event.owner][event.index] = event.safe
        elif isinstance(event, SafeStolen):
            known = rows[event.victim].pop(event.index)
            rows[event.thief].append(event.safe if event.safe is not None else known)
        elif isinstance(event, SafeGiven):
            known = rows[event.giver].pop(event.index)
            rows[event.recipient].append(event.safe if event.safe is not None else known)
        elif isinstance(event, HeistWon):
            rows[event.seat].append(event.safe)
        elif isinstance(event, BadgeRevealed):
            rows[event.seat][event.index] = event.badge
            self.face_up[event.seat].append(event.badge)
        elif isinstance(event, SafesRevealed):
            self.rows = [list(row) for row in event.rows]
            self.face_up = [list(row) for row in event.rows]


@pytest.mark.parametrize(("players", "seed"), [(4, 21), (5, 22), (7, 23), (8, 24), (9, 25)])
@pytest.mark.rule("deadwood1876", "law.knowledge")
def test_seat_view_shows_exactly_the_safes_its_own_events_reveal(players, seed):
    """2nd LAW and FIRST LAW, checked against an independent model: at every decision point, a seat's view of
    the other rows names exactly the Safes it can tell from its own events (what it was dealt, passed,
    viewed, stole, lost, gave, saw won in a Heist or revealed), forgotten when their owner shuffles."""
    memories = [Memory(players) for _ in range(players)]

    def check(game: DeadwoodState) -> None:
        for seat, memory in enumerate(memories):
            events = game.events(seat, memory.seen)
            memory.seen += len(events)
            for event in events:
                memory.feed(event)
            view = game.view(seat)
            for p, player in enumerate(view.players):
                assert len(player.safes) == len(memory.rows[p])
                assert sorted(sv.contents or "" for sv in player.safes if sv.revealed) == sorted(memory.face_up[p])
                if p != seat:
                    pairs = zip(player.safes, memory.rows[p], strict=True)
                    assert all(sv.contents == known for sv, known in pairs if not sv.revealed), (seat, p, game.phase)

    random_game(players, seed, check)


def check_encoding(game: DeadwoodState) -> None:
    for seat in (None, OMNISCIENT, *range(game.n)):
        view = game.view(seat)
        assert VIEW.decode(msgspec.json.encode(view)) == view


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_views_and_events_encode_with_msgspec(seed, players):
    """Engine contract: every view and every event list JSON-encodes with msgspec and decodes back equal."""
    game = random_game(players, seed, check_encoding)
    for seat in (None, OMNISCIENT, *range(players)):
        events = game.events(seat)
        assert EVENT_LIST.decode(msgspec.json.encode(events)) == events
        assert game.events(seat, 5) == events[5:]
