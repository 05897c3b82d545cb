"""Deadwood 1876 scenario tests for the end of each circle and of the game.

The Heist (rulebook: AFTER EACH TIME AROUND THE CIRCLE: HEIST), the number of Heists and turns,
the 3 Laws of Deadwood (THE 3 LAWS OF DEADWOOD), the Badge Round (BADGE ROUND; CARD DETAILS:
BADGES) and the Final Showdown (FINAL SHOWDOWN & WINNING THE GAME). Every position is built
exactly and every die is scripted (``tests.helpers``): no test depends on a lucky seed.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from engine.core import IllegalAction, Outcome
from engine.deadwood1876.actions import (
    Defend,
    FireGun,
    GiveSafe,
    HeistGun,
    NoHolster,
    RideHorse,
    Robbery,
    UseStetson,
    ViewSafe,
)
from engine.deadwood1876.events import (
    Advanced,
    BadgeRevealed,
    BadgeRoundStarted,
    CardPlayed,
    CardsDrawn,
    CharacterFlipped,
    DiceRolled,
    FightWon,
    GameOver,
    HandsTakenBack,
    HeistStarted,
    HeistWon,
    PlayerOut,
    SafeGiven,
    SafesRevealed,
    SafesShuffled,
    SafeStolen,
    TurnStarted,
)
from engine.deadwood1876.state import DeadwoodState
from engine.deadwood1876.views import SafeView
from tests.helpers import COMP, ReversingChance, ScriptedChance, act, card, new_state, put_turn, safe

BASE_SAFES = [s for s in range(len(COMP.safe_kind)) if COMP.safe_kind[s] != "mystery"]
GEM, HOTEL, BELLA = 0, 1, 2


def gun(c: int) -> str:
    """The gun name of card ``c`` as events show it."""
    return COMP.gun_names[COMP.card_gun[c]]


def deal(players: int, size: int, fixed: dict[int, list[tuple[str, str]]]) -> dict[int, list[int]]:
    """Full hands: each seat's ``fixed`` (gun, item) cards first, then the lowest unused card ids."""
    used: list[int] = []
    hands: dict[int, list[int]] = {}
    for seat in range(players):
        hands[seat] = []
        for g, item in fixed.get(seat, []):
            c = card(g, item, exclude=used)
            used.append(c)
            hands[seat].append(c)
    spare = iter(c for c in range(len(COMP.card_gun)) if c not in used)
    for seat in range(players):
        while len(hands[seat]) < size:
            hands[seat].append(next(spare))
    return hands


def position(
    players: int,
    seat: int,
    *,
    fixed: dict[int, list[tuple[str, str]]],
    rows: dict[int, list[str]],
    est: list[int],
    middle: tuple[str, ...] = (),
    rolls: tuple[int, ...] = (),
    segment: int = 0,
    first: int = 0,
) -> DeadwoodState:
    """The start of ``seat``'s turn with exact hands, rows (by label), middle, box and dice.

    The deck holds every other card in ascending id order (so draws take the highest ids first);
    nobody knows any Safe but their own; the log starts empty.
    """
    st = new_state(players, seed=7)
    size = st.table.hand_size
    hands = deal(players, size, fixed)
    held = {c for h in hands.values() for c in h}
    deck = [c for c in range(len(COMP.card_gun)) if c not in held]
    put_turn(
        st,
        seat,
        hands=hands,
        rows={s: [safe(label) for label in rows.get(s, [])] for s in range(players)},
        est=est,
        rolls=rolls,
        segment=segment,
        deck=deck,
        first=first,
    )
    st.middle = [safe(label) for label in middle]
    placed = {s for row in st.rows for s in row} | set(st.middle)
    assert len(placed) == sum(map(len, st.rows)) + len(st.middle), "a Safe placed twice"
    st.box = [s for s in BASE_SAFES if s not in placed]
    st.known = [set() for _ in range(players)]
    st.revealed = set()
    st.log.clear()
    return st


def labels(st: DeadwoodState, seat: int) -> list[str]:
    """The contents of ``seat``'s row, leftmost first."""
    return [COMP.safe_label(s) for s in st.rows[seat]]


def public(st: DeadwoodState, since: int = 0) -> list[Any]:
    """The public events from the ``since``-th on."""
    return st.events(None, since)


def of_type(st: DeadwoodState, kind: type) -> list[Any]:
    """The public events of one type."""
    return [e for e in st.events(None) if isinstance(e, kind)]


def ride(st: DeadwoodState, seat: int, destination: int) -> None:
    """``seat`` rides the first Horse in hand to ``destination`` (ends the turn)."""
    horse = next(a for a in st.legal_actions(seat) if isinstance(a, RideHorse) and a.establishment == destination)
    act(st, seat, horse)


def no_holsters(st: DeadwoodState) -> None:
    """Everyone asked in the Holster window gives none."""
    assert st.phase == "holster"
    for seat in st.to_act:
        act(st, seat, NoHolster())


def heist_all(st: DeadwoodState, guns: dict[int, int]) -> None:
    """Every seat commits the given card in the Heist."""
    assert st.phase == "heist"
    for seat, c in guns.items():
        act(st, seat, HeistGun(c))


def fire(st: DeadwoodState, played: dict[int, int]) -> None:
    """Every seat alive fires the given card in the Final Showdown."""
    assert st.phase == "showdown"
    assert st.to_act == tuple(sorted(played))
    for seat, c in played.items():
        act(st, seat, FireGun(c))


def first_cards(st: DeadwoodState) -> dict[int, int]:
    """For each seat alive in the Showdown, the first card it may fire."""
    return {s: st.legal_actions(s)[0].card for s in st.to_act}


# ---------------------------------------------------------------------------------------------- Heist


def heist_table(first: int = 0, winner_row: tuple[str, ...] = ("Gold 2", "Tin Badge")) -> DeadwoodState:
    """4 players; the last seat of the circle (``first - 1``) is about to play; 3 Safes in the middle.

    Seat ``first + k`` holds, first, a Colt, Winchester, Derringer, and (the last seat) a Horse and a
    Messenger. The second seat of the circle has ``winner_row``.
    """
    order = [(first + k) % 4 for k in range(4)]
    fixed = {
        order[0]: [("colt", "holster")],
        order[1]: [("winchester", "holster")],
        order[2]: [("derringer", "holster")],
        order[3]: [("pepperbox", "horse"), ("messenger", "holster")],
    }
    rows = {
        order[0]: ["Gold 1"],
        order[1]: list(winner_row),
        order[2]: ["Iron Badge"],
        order[3]: ["Gold 3", "Colt Showdown Gun"],
    }
    est = [0] * 4
    est[order[0]] = est[order[1]] = GEM
    est[order[2]] = est[order[3]] = BELLA
    return position(
        4,
        order[3],
        fixed=fixed,
        rows=rows,
        est=est,
        middle=("Gold 4", "Gold 3#2", "Messenger Showdown Gun"),
        first=first,
    )


def heist_guns(st: DeadwoodState, first: int = 0) -> dict[int, int]:
    """The guns the seats of :func:`heist_table` commit: Colt, Winchester, Derringer, Messenger in circle order."""
    order = [(first + k) % 4 for k in range(4)]
    return {
        order[0]: card("colt", "holster"),
        order[1]: card("winchester", "holster"),
        order[2]: card("derringer", "holster"),
        order[3]: card("messenger", "holster"),
    }


@pytest.mark.rule("deadwood1876", "heist.when")
def test_heist_after_the_last_player_of_the_circle():
    """HEIST: "Each time the last player in the circle completes their turn, a Heist occurs!"."""
    st = heist_table()
    ride(st, 3, HOTEL)
    assert st.phase == "heist"
    assert st.to_act == (0, 1, 2, 3)
    assert [type(e) for e in public(st)][-2:] == [CardsDrawn, HeistStarted]
    assert not of_type(st, TurnStarted)


@pytest.mark.rule("deadwood1876", "heist.reveal")
def test_heist_reveals_the_top_middle_safe_to_everyone():
    """HEIST: "Reveal the top Safe card from the middle so everyone can see its contents"."""
    st = heist_table()
    ride(st, 3, HOTEL)
    assert of_type(st, HeistStarted) == [HeistStarted(1, "Gold 4")]
    for seat in (None, 0, 1, 2, 3):
        assert HeistStarted(1, "Gold 4") in st.events(seat)
        assert st.view(seat).heist_safe == "Gold 4"
    assert [COMP.safe_label(s) for s in st.middle] == ["Gold 3", "Messenger Showdown Gun"]
    assert st.view(None).middle_safes == 2


@pytest.mark.rule("deadwood1876", "heist.guns")
def test_heist_guns_committed_at_once_and_hidden_until_all_are_down():
    """HEIST: "Each player plays a gun from their hand simultaneously": nobody sees a gun until all are down."""
    st = heist_table()
    ride(st, 3, HOTEL)
    before = len(public(st))
    other = st.clone()
    derringer, pepperbox = card("derringer", "holster"), card("pepperbox", "holster")
    assert st.hands[2][:2] == [derringer, pepperbox]
    act(st, 2, HeistGun(derringer))
    act(other, 2, HeistGun(pepperbox))
    for s in (st, other):
        assert s.to_act == (0, 1, 3)
        assert s.legal_actions(2) == []
        assert len(s.hands[2]) == 4
        assert len(public(s)) == before
        assert s.view(0).players[2].chosen is True
        assert s.view(0).players[2].hand_size == 4
    for seat in (None, 0, 1, 3):
        assert msgspec.json.encode(st.view(seat)) == msgspec.json.encode(other.view(seat))
        assert st.events(seat) == other.events(seat)
    for seat in (0, 1, 3):
        assert st.legal_actions(seat) == other.legal_actions(seat)
    with pytest.raises(IllegalAction):
        st.apply(2, HeistGun(card("derringer", "holster")))


@pytest.mark.rule("deadwood1876", "holster.not-in-heist-or-showdown")
@pytest.mark.rule("deadwood1876", "heist.guns")
def test_heist_guns_only_no_holsters():
    """CARD DETAILS, HOLSTER: "Holsters may not be used in Heists"; every card is played as its gun."""
    st = heist_table()
    ride(st, 3, HOTEL)
    for seat in range(4):
        legal = st.legal_actions(seat)
        assert all(isinstance(a, HeistGun) for a in legal)
        assert [a.card for a in legal] == st.distinct(st.hands[seat])


@pytest.mark.rule("deadwood1876", "heist.winner")
def test_heist_highest_roll_takes_the_safe():
    """HEIST: "The highest roller takes the Safe and shuffles it face down with their other Safes"."""
    st = heist_table()
    ride(st, 3, HOTEL)
    guns = heist_guns(st)
    st.chance = ReversingChance([2, 3, 1, 2])  # Colt 2, Winchester 3, Derringer 1, Messenger 2
    heist_all(st, guns)
    assert of_type(st, DiceRolled) == [
        DiceRolled(
            "heist",
            (
                (0, (("Colt", 2),), 2),
                (1, (("Winchester", 3),), 3),
                (2, (("Derringer", 1),), 1),
                (3, (("Messenger", 2),), 2),
            ),
        )
    ]
    assert of_type(st, HeistWon) == [HeistWon(1, "Gold 4")]
    assert labels(st, 1) == ["Gold 4", "Tin Badge", "Gold 2"]  # appended, then shuffled (reversed)
    assert of_type(st, SafesShuffled) == [SafesShuffled(1)]
    assert st.chance.rolls == []


@pytest.mark.rule("deadwood1876", "heist.winner")
def test_heist_ties_reroll_among_the_tied_only():
    """HEIST: "Reroll for ties": only the tied highest roll again, until one is highest."""
    st = heist_table()
    ride(st, 3, HOTEL)
    guns = heist_guns(st)
    # Colt 2, Winchester 2, Derringer 2, Messenger 1; then Colt 1, Winchester 2, Derringer 2;
    # then Winchester 1, Derringer 2.
    st.chance = ScriptedChance([2, 2, 2, 1, 1, 2, 2, 1, 2])
    heist_all(st, guns)
    rolls = [[r[0] for r in e.rolls] for e in of_type(st, DiceRolled)]
    assert rolls == [[0, 1, 2, 3], [0, 1, 2], [1, 2]]
    assert of_type(st, DiceRolled)[-1] == DiceRolled(
        "heist", ((1, (("Winchester", 1),), 1), (2, (("Derringer", 2),), 2))
    )
    assert of_type(st, HeistWon) == [HeistWon(2, "Gold 4")]
    assert labels(st, 2) == ["Iron Badge", "Gold 4"]
    assert st.chance.rolls == []


@pytest.mark.rule("deadwood1876", "heist.replenish")
@pytest.mark.rule("deadwood1876", "turn.replenish-order")
def test_heist_guns_discarded_and_everyone_draws_a_replacement():
    """HEIST: "Played guns are discarded, each player draws a replacement card"."""
    st = heist_table()
    horse = card("pepperbox", "horse")
    ride(st, 3, HOTEL)
    guns = heist_guns(st)
    deck = list(st.deck)
    hands = [list(h) for h in st.hands]
    st.chance = ScriptedChance([3, 2, 1, 1])
    heist_all(st, guns)
    assert st.discard == [horse, guns[0], guns[1], guns[2], guns[3]]
    # clockwise from the first player, one card each from the top of the deck
    for seat in range(4):
        assert st.hands[seat] == [c for c in hands[seat] if c != guns[seat]] + [deck[-1 - seat]]
    assert st.deck == deck[:-4]
    drawn = [e for e in public(st) if isinstance(e, CardsDrawn)][-4:]
    assert drawn == [CardsDrawn(0, 1), CardsDrawn(1, 1), CardsDrawn(2, 1), CardsDrawn(3, 1)]
    played = [e for e in public(st) if isinstance(e, CardPlayed) and e.use == "heist"]
    assert [(e.seat, e.card.id) for e in played] == [(s, guns[s]) for s in range(4)]


@pytest.mark.rule("deadwood1876", "heist.replenish")
def test_heist_play_continues_with_the_next_circle_in_the_same_order():
    """HEIST: "play continues around the circle in the same order" (first player 2: seats 2, 3, 0, 1)."""
    st = heist_table(first=2)
    assert st.current == 1 and st.turn_in_circle == 3
    ride(st, 1, HOTEL)
    st.chance = ScriptedChance(
        [1, 1, 3, 1]
    )  # seat order: Derringer 1, Messenger 1, the first player's Colt 3, Winchester 1
    heist_all(st, heist_guns(st, first=2))
    assert of_type(st, HeistWon) == [HeistWon(2, "Gold 4")]
    assert of_type(st, TurnStarted)[-1] == TurnStarted(2, 2)
    assert st.phase == "turn" and st.to_act == (2,) and st.current == 2
    assert st.segment == 1 and st.turn_in_circle == 0
    seen = []
    for _ in range(4):
        seat = st.current
        seen.append(seat)
        act(st, seat, next(a for a in st.legal_actions(seat) if isinstance(a, UseStetson)))
        while st.phase == "stetson":
            act(st, seat, st.legal_actions(seat)[0])
    assert seen == [2, 3, 0, 1]
    assert st.phase == "heist"
    assert of_type(st, HeistStarted)[-1] == HeistStarted(2, "Gold 3")


@pytest.mark.rule("deadwood1876", "law.knowledge")
@pytest.mark.rule("deadwood1876", "law.first")
def test_heist_safe_stays_known_only_while_its_place_is_known():
    """HEIST / FIRST LAW: everyone saw the Heist Safe; once its winner shuffles it in, others lose track.

    A winner with no other Safe has a row of one, so everyone still knows it (project decision:
    "a row of one Safe stays known").
    """
    st = heist_table(winner_row=())
    ride(st, 3, HOTEL)
    st.chance = ScriptedChance([1, 3, 1, 1])
    heist_all(st, heist_guns(st))
    for seat in (0, 2, 3):
        assert st.view(seat).players[1].safes[0].contents == "Gold 4"
    assert st.view(None).players[1].safes[0].contents is None

    st = heist_table()
    ride(st, 3, HOTEL)
    st.chance = ScriptedChance([1, 3, 1, 1])
    heist_all(st, heist_guns(st))
    assert labels(st, 1) == ["Gold 2", "Tin Badge", "Gold 4"]
    for seat in (0, 2, 3):
        assert [v.contents for v in st.view(seat).players[1].safes] == [None, None, None]
    assert [v.contents for v in st.view(1).players[1].safes] == ["Gold 2", "Tin Badge", "Gold 4"]


def random_game(players: int, seed: int) -> DeadwoodState:
    """A finished random game (random legal choices, a random seat among several to act)."""
    st = new_state(players, seed)
    rng = random.Random(seed)
    while not st.is_over:
        seat = rng.choice(st.to_act)
        legal = st.legal_actions(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
    return st


@pytest.mark.parametrize(("players", "heists"), [(4, 3), (5, 3), (6, 3), (7, 3), (8, 2), (9, 2)])
@pytest.mark.rule("deadwood1876", "heist.when")
@pytest.mark.rule("deadwood1876", "heist.final-turns")
def test_heists_after_each_circle_then_one_final_circle(players, heists):
    """HEIST: a Heist after each circle; "After the final Heist has occurred, each player will get one
    final turn, meaning players will each have a total of four turns during the game (or three turns
    each in 8-9 player games)"; then the Badge Round."""
    st = random_game(players, seed=players)
    marks = [e for e in st.events(None) if isinstance(e, TurnStarted | HeistStarted | BadgeRoundStarted)]
    cut = next(i for i, e in enumerate(marks) if isinstance(e, BadgeRoundStarted))
    first = st.first
    expected: list[Any] = []
    for circle in range(1, heists + 2):
        final = circle == heists + 1
        expected += [TurnStarted((first + k) % players, circle, final=final) for k in range(players)]
        expected.append(
            BadgeRoundStarted() if final else HeistStarted(circle, getattr(marks[len(expected)], "safe", ""))
        )
    assert marks[: cut + 1] == expected
    assert [e.heist for e in of_type(st, HeistStarted)] == list(range(1, heists + 1))
    assert all(isinstance(e, TurnStarted) and e.badge is not None for e in marks[cut + 1 :])
    for seat in range(players):
        assert sum(1 for e in marks[:cut] if isinstance(e, TurnStarted) and e.seat == seat) == heists + 1


# ---------------------------------------------------------------------------------------------- the 3 Laws


def robbery_table(chance: type[ScriptedChance] = ScriptedChance) -> DeadwoodState:
    """4 players, seat 0's turn with 3 Safes; seat 1 has 3, seats 2 and 3 have 1 each.

    Seat 0 robs seat 1's leftmost Safe (Gold 3) with a Messenger (4) against a Pepperbox (0).
    """
    st = position(
        4,
        0,
        fixed={0: [("messenger", "stetson")], 1: [("pepperbox", "stetson")]},
        rows={
            0: ["Gold 1", "Tin Badge", "Colt Showdown Gun"],
            1: ["Gold 3", "Gold 2", "Iron Badge"],
            2: ["Gold 4"],
            3: ["Winchester Showdown Gun"],
        },
        est=[GEM, GEM, BELLA, BELLA],
        middle=("Gold 4#2", "Gold 3#2", "Gold 2#2"),
        rolls=(4, 0),
    )
    st.chance = chance([4, 0])
    act(st, 0, Robbery(card("messenger", "stetson"), 1, 0))
    act(st, 1, Defend(card("pepperbox", "stetson")))
    no_holsters(st)
    return st


@pytest.mark.rule("deadwood1876", "law.third")
def test_third_law_a_fourth_safe_from_a_robbery_must_be_given_away():
    """THE 3 LAWS, 3: "If a player owns three Safes and they win a fourth Safe from a Robbery or Heist,
    they must choose any one of their Safes to give to the player with the fewest Safes"."""
    st = robbery_table()
    assert of_type(st, FightWon) == [FightWon("robbery", 0, 1)]
    assert st.phase == "give_safe"
    assert st.to_act == (0,)
    assert st.giver == 0 and st.view(None).giver == 0
    assert labels(st, 0) == ["Gold 1", "Tin Badge", "Colt Showdown Gun", "Gold 3"]
    assert not of_type(st, SafesShuffled)
    act(st, 0, GiveSafe(2, 3))
    assert labels(st, 0) == ["Gold 1", "Tin Badge", "Gold 3"]
    assert labels(st, 3) == ["Winchester Showdown Gun", "Colt Showdown Gun"]
    assert st.giver == -1
    assert st.phase == "turn" and st.to_act == (1,)


@pytest.mark.rule("deadwood1876", "law.third")
def test_third_law_give_safe_offers_every_safe_to_each_player_tied_for_fewest():
    """THE 3 LAWS, 3: "any one of their Safes" to "the player with the fewest Safes (you pick the recipient
    if there is a tie)": all four Safes × seats 2 and 3 (1 Safe each; seat 1 has 2)."""
    st = robbery_table()
    assert [len(r) for r in st.rows] == [4, 2, 1, 1]
    assert st.legal_actions(0) == [GiveSafe(i, r) for i in range(4) for r in (2, 3)]
    for seat in (1, 2, 3):
        assert st.legal_actions(seat) == []
    with pytest.raises(IllegalAction):
        st.apply(0, GiveSafe(0, 1))  # seat 1 does not have the fewest Safes


@pytest.mark.rule("deadwood1876", "law.third")
def test_third_law_single_fewest_is_the_only_recipient():
    """THE 3 LAWS, 3: with one player having the fewest Safes, that player gets the Safe."""
    st = position(
        4,
        0,
        fixed={0: [("messenger", "stetson")], 1: [("pepperbox", "stetson")]},
        rows={
            0: ["Gold 1", "Tin Badge", "Colt Showdown Gun"],
            1: ["Gold 3", "Gold 2"],
            2: ["Gold 4", "Iron Badge"],
            3: [],
        },
        est=[GEM, GEM, BELLA, BELLA],
        rolls=(4, 0),
    )
    act(st, 0, Robbery(card("messenger", "stetson"), 1, 0))
    act(st, 1, Defend(card("pepperbox", "stetson")))
    no_holsters(st)
    assert st.phase == "give_safe"
    assert [len(r) for r in st.rows] == [4, 1, 2, 0]
    assert st.legal_actions(0) == [GiveSafe(i, 3) for i in range(4)]


@pytest.mark.rule("deadwood1876", "law.third-recipient")
@pytest.mark.rule("deadwood1876", "law.third-order")
def test_third_law_recipient_does_not_shuffle_and_giver_shuffles():
    """THE 3 LAWS, 3: "The recipient of the free Safe may not shuffle their Safe cards at that time"
    (its row keeps its order, the gift at the right end); the giver shuffles after winning (FIRST LAW)."""
    st = robbery_table(ReversingChance)
    since = len(public(st))
    act(st, 0, GiveSafe(1, 2))
    assert labels(st, 2) == ["Gold 4", "Tin Badge"]
    assert labels(st, 0) == ["Gold 3", "Colt Showdown Gun", "Gold 1"]  # the rest, shuffled (reversed)
    assert labels(st, 1) == ["Gold 2", "Iron Badge"]
    events = public(st, since)
    assert events[:2] == [SafeGiven(0, 2, 1), SafesShuffled(0)]
    assert SafesShuffled(2) not in st.events(None)
    for seat in (0, 2):
        assert SafeGiven(0, 2, 1, "Tin Badge") in st.events(seat)
    assert SafeGiven(0, 2, 1, "Tin Badge") not in st.events(1)
    # the giver knows where its gift lies; the victim lost track of its stolen Safe in the shuffle
    assert st.view(0).players[2].safes[1].contents == "Tin Badge"
    assert st.view(1).players[0].safes[0].contents is None
    assert [v.contents for v in st.view(3).players[2].safes] == [None, None]


@pytest.mark.rule("deadwood1876", "law.third")
@pytest.mark.rule("deadwood1876", "heist.winner")
def test_third_law_a_fourth_safe_from_a_heist_must_be_given_away():
    """THE 3 LAWS, 3: a fourth Safe won in a Heist must be given too; then everyone draws and play goes on."""
    st = heist_table(winner_row=("Gold 2", "Tin Badge", "Derringer Showdown Gun"))
    ride(st, 3, HOTEL)
    st.chance = ReversingChance([1, 3, 1, 1])
    heist_all(st, heist_guns(st))
    assert of_type(st, HeistWon) == [HeistWon(1, "Gold 4")]
    assert st.phase == "give_safe" and st.to_act == (1,)
    assert [len(h) for h in st.hands] == [3, 3, 3, 3]  # nobody has drawn yet
    assert [len(r) for r in st.rows] == [1, 4, 1, 2]
    assert st.legal_actions(1) == [GiveSafe(i, r) for i in range(4) for r in (0, 2)]
    act(st, 1, GiveSafe(3, 0))
    assert labels(st, 0) == ["Gold 1", "Gold 4"]
    assert labels(st, 1) == ["Derringer Showdown Gun", "Tin Badge", "Gold 2"]
    assert [len(h) for h in st.hands] == [4, 4, 4, 4]
    assert st.phase == "turn" and st.to_act == (0,)
    # everyone saw the Heist Safe go to the right end of seat 0's unshuffled row
    for seat in (2, 3):
        assert st.view(seat).players[0].safes[1].contents == "Gold 4"


def badge_table(
    rows: dict[int, list[str]],
    fixed: dict[int, list[tuple[str, str]]] | None = None,
    est: list[int] | None = None,
    rolls: tuple[int, ...] = (),
) -> DeadwoodState:
    """4 players (first player 0) at seat 3's final turn; seat 3 rides a Horse to the Grand Central Hotel.

    Every seat holds a Horse (its first card) unless ``fixed`` says otherwise.
    """
    hands = {s: [(g, "horse")] for s, g in enumerate(("pepperbox", "derringer", "colt", "winchester"))}
    hands.update(fixed or {})
    st = position(
        4,
        3,
        fixed=hands,
        rows=rows,
        est=est or [GEM, GEM, BELLA, BELLA],
        segment=3,
        rolls=rolls,
    )
    assert st.view(None).final_turns is True
    ride(st, 3, HOTEL)
    return st


@pytest.mark.rule("deadwood1876", "law.third-badge-round")
def test_third_law_is_off_in_the_badge_round():
    """THE 3 LAWS, 3: "This law is no longer in effect once the Badge Round begins": a 4th Safe stays."""
    st = badge_table(
        rows={
            0: ["Tin Badge", "Gold 1", "Gold 2"],
            1: ["Gold 3", "Colt Showdown Gun"],
            2: ["Iron Badge"],
            3: ["Gold 4"],
        },
        fixed={0: [("messenger", "stetson")], 1: [("pepperbox", "stetson")]},
        rolls=(4, 0),
    )
    assert st.current == 0 and st.badge == 1
    act(st, 0, Robbery(card("messenger", "stetson"), 1, 0))
    act(st, 1, Defend(card("pepperbox", "stetson")))
    no_holsters(st)
    assert of_type(st, SafeStolen) == [SafeStolen(0, 1, 0)]
    assert labels(st, 0) == ["Tin Badge", "Gold 1", "Gold 2", "Gold 3"]
    assert st.phase == "turn" and st.to_act == (2,)
    assert of_type(st, TurnStarted)[-1] == TurnStarted(2, 0, badge="Iron Badge")


# ---------------------------------------------------------------------------------------------- Badge Round


@pytest.mark.rule("deadwood1876", "badge-round.order")
@pytest.mark.rule("deadwood1876", "heist.final-turns")
def test_badge_round_follows_the_final_turn_instead_of_a_heist():
    """AFTER THE FINAL TURNS: "After the last player's final turn, players must reveal Badges"."""
    st = badge_table(rows={0: ["Gold 1"], 1: ["Tin Badge"], 2: ["Gold 2"], 3: ["Gold 3"]})
    assert not of_type(st, HeistStarted)
    assert of_type(st, BadgeRoundStarted) == [BadgeRoundStarted()]
    assert of_type(st, BadgeRevealed) == [BadgeRevealed(1, 0, "Tin Badge")]
    assert st.phase == "turn" and st.to_act == (1,) and st.current == 1
    assert st.view(None).badge == "Tin Badge"


@pytest.mark.rule("deadwood1876", "badge-round.order")
def test_badge_round_reveals_tin_iron_copper_silver_gold_each_owner_takes_an_extra_turn():
    """BADGE ROUND: Badges are revealed one at a time in the order Tin, Iron, Copper, Silver, Gold and each
    owner takes an extra turn as their Badge is revealed; a Badge nobody has (in the box) is skipped."""
    st = badge_table(
        rows={
            0: ["Gold 1", "Copper Badge"],
            1: ["Gold Badge"],
            2: ["Tin Badge", "Gold 2"],
            3: ["Iron Badge", "Gold 3"],
        },
    )
    turns = []
    while st.phase == "turn":
        seat = st.current
        turns.append((seat, st.view(None).badge))
        ride(st, seat, next(a.establishment for a in st.legal_actions(seat) if isinstance(a, RideHorse)))
    assert turns == [(2, "Tin Badge"), (3, "Iron Badge"), (0, "Copper Badge"), (1, "Gold Badge")]
    assert of_type(st, BadgeRevealed) == [
        BadgeRevealed(2, 0, "Tin Badge"),
        BadgeRevealed(3, 0, "Iron Badge"),
        BadgeRevealed(0, 1, "Copper Badge"),
        BadgeRevealed(1, 0, "Gold Badge"),
    ]
    assert [e for e in of_type(st, TurnStarted) if e.badge] == [
        TurnStarted(2, 0, badge="Tin Badge"),
        TurnStarted(3, 0, badge="Iron Badge"),
        TurnStarted(0, 0, badge="Copper Badge"),
        TurnStarted(1, 0, badge="Gold Badge"),
    ]
    assert safe("Silver Badge") in st.box
    assert st.phase in ("showdown", "over")
    assert len(of_type(st, SafesRevealed)) == 1


@pytest.mark.rule("deadwood1876", "badge-round.several-badges")
def test_badge_round_several_badges_give_several_turns():
    """CARD DETAILS, BADGES: "If you own multiple Badges you will get multiple turns in the Badge Round"."""
    st = badge_table(
        rows={0: ["Iron Badge", "Silver Badge"], 1: ["Gold 1"], 2: ["Gold 2"], 3: ["Gold 3"]},
        fixed={0: [("pepperbox", "horse"), ("messenger", "horse")]},
    )
    assert of_type(st, TurnStarted)[-1] == TurnStarted(0, 0, badge="Iron Badge")
    ride(st, 0, HOTEL)
    assert of_type(st, TurnStarted)[-1] == TurnStarted(0, 0, badge="Silver Badge")
    assert st.to_act == (0,)
    ride(st, 0, GEM)
    assert len([e for e in of_type(st, TurnStarted) if e.badge]) == 2
    assert st.phase in ("showdown", "over")


@pytest.mark.rule("deadwood1876", "badge-round.replenish")
def test_badge_round_cards_are_replenished_like_normal():
    """CARD DETAILS, BADGES: "Cards are replenished like normal during the Badge Round"."""
    st = badge_table(rows={0: ["Tin Badge"], 1: ["Gold 1"], 2: ["Iron Badge"], 3: ["Gold 3"]})
    deck = list(st.deck)
    ride(st, 0, HOTEL)
    assert len(st.hands[0]) == 4
    assert st.hands[0][-1] == deck[-1]
    assert st.current == 2


@pytest.mark.rule("deadwood1876", "badge-round.stolen")
def test_badge_stolen_before_its_turn_gives_the_thief_the_turn():
    """CARD DETAILS, BADGES: "If your Badge is stolen during the Badge Round before you get to use it, too
    bad! It now belongs to the other player": the thief reveals it and takes the turn."""
    st = badge_table(
        rows={0: ["Tin Badge"], 1: ["Gold 1"], 2: ["Gold 2", "Iron Badge"], 3: ["Gold 3"]},
        fixed={0: [("messenger", "stetson")], 2: [("pepperbox", "stetson")]},
        rolls=(3, 1),
    )
    assert st.current == 0
    act(st, 0, Robbery(card("messenger", "stetson"), 2, 1))
    act(st, 2, Defend(card("pepperbox", "stetson")))
    no_holsters(st)
    assert of_type(st, SafeStolen) == [SafeStolen(0, 2, 1)]
    assert of_type(st, BadgeRevealed) == [BadgeRevealed(0, 0, "Tin Badge"), BadgeRevealed(0, 1, "Iron Badge")]
    assert of_type(st, TurnStarted)[-1] == TurnStarted(0, 0, badge="Iron Badge")
    assert st.phase == "turn" and st.to_act == (0,)
    assert st.legal_actions(2) == []


@pytest.mark.rule("deadwood1876", "badge-round.not-in-play")
def test_badge_round_without_badges_in_play_goes_to_the_showdown():
    """BADGE ROUND: "If nobody claims to have a certain Badge, then it isn't in play and you should move on"."""
    st = badge_table(rows={0: ["Gold 1"], 1: ["Gold 2"], 2: ["Gold 3"], 3: ["Gold 4"]})
    assert of_type(st, BadgeRoundStarted) == [BadgeRoundStarted()]
    assert of_type(st, BadgeRevealed) == []
    assert len(of_type(st, SafesRevealed)) == 1
    assert all(safe(b) in st.box for b in ("Tin Badge", "Iron Badge", "Copper Badge", "Silver Badge", "Gold Badge"))


@pytest.mark.rule("deadwood1876", "badge-round.revealed")
def test_revealed_badges_cannot_be_robbed():
    """CARD DETAILS, BADGES: "Revealed Badges ... can not be attacked" (nor viewed with a Stetson)."""
    st = badge_table(
        rows={0: ["Gold 1", "Tin Badge"], 1: ["Gold 2"], 2: ["Gold 3"], 3: ["Iron Badge", "Gold 4"]},
        fixed={3: [("winchester", "horse"), ("colt", "stetson")]},
    )
    ride(st, 0, BELLA)
    assert st.current == 3
    legal = st.legal_actions(3)
    colt = card("colt", "stetson")
    assert Robbery(colt, 0, 1) not in legal
    assert Robbery(colt, 0, 0) in legal
    assert [a for a in legal if isinstance(a, Robbery) and a.owner == 0] == [
        Robbery(c, 0, 0) for c in st.distinct(st.hands[3])
    ]
    act(st, 3, UseStetson(colt))
    assert ViewSafe(0, 1) not in st.legal_actions(3)
    assert ViewSafe(0, 0) in st.legal_actions(3)
    assert st.view(None).players[0].safes[1] == SafeView("Tin Badge", True)


@pytest.mark.rule("deadwood1876", "badge-round.revealed")
def test_revealed_badges_have_no_value():
    """CARD DETAILS, BADGES: "Revealed Badges have no value": only Gold Safes count in the Showdown."""
    st = badge_table(rows={0: ["Tin Badge", "Gold 1"], 1: ["Gold 2"], 2: ["Gold 3"], 3: ["Iron Badge", "Gold 4"]})
    ride(st, 0, BELLA)
    ride(st, 3, GEM)
    # Gem: seats 1, 3; Hotel: none; Bella: seats 0, 2
    assert of_type(st, SafesRevealed)[0].gold == (2 + 4, 0, 1 + 3)


# ---------------------------------------------------------------------------------------------- Final Showdown


def showdown_table(
    players: int,
    rows: dict[int, list[str]],
    est_before: list[int],
    destination: int,
    fixed: dict[int, list[tuple[str, str]]] | None = None,
    rolls: tuple[int, ...] = (),
) -> DeadwoodState:
    """The last seat's final turn (first player 0): it rides a Horse to ``destination``; no Badges are in
    play, so the Final Showdown follows at once."""
    last = players - 1
    hands = dict(fixed or {})
    hands[last] = [("pepperbox", "horse"), *hands.get(last, [])]
    st = new_state(players, 7)
    st = position(players, last, fixed=hands, rows=rows, est=est_before, segment=st.table.middle_safes, rolls=rolls)
    ride(st, last, destination)
    return st


@pytest.mark.rule("deadwood1876", "showdown.most-gold")
def test_showdown_reveals_all_safes_and_sums_gold_per_establishment():
    """FINAL SHOWDOWN: "All players reveal all remaining Safes. The players within each establishment add
    their combined gold together"."""
    rows = {0: ["Gold 1", "Colt Showdown Gun"], 1: ["Gold 4"], 2: ["Gold 2", "Gold 3"], 3: ["Gold 1#2", "Gold 4#2"]}
    st = showdown_table(4, rows, [GEM, GEM, BELLA, BELLA], HOTEL)
    assert of_type(st, SafesRevealed) == [
        SafesRevealed(
            (("Gold 1", "Colt Showdown Gun"), ("Gold 4",), ("Gold 2", "Gold 3"), ("Gold 1", "Gold 4")), (5, 5, 5)
        )
    ]
    for seat in (None, 0, 1, 2, 3):
        views = [v for p in st.view(seat).players for v in p.safes]
        assert all(v.revealed and v.contents is not None for v in views)


@pytest.mark.rule("deadwood1876", "showdown.most-gold")
@pytest.mark.rule("deadwood1876", "showdown.lone-winner")
def test_showdown_most_gold_advances_and_a_lone_advancer_wins():
    """FINAL SHOWDOWN: "the players in the establishment with the most Gold all advance"; "If you are the
    only player to advance, YOU WIN!"; everyone else scores 0 and shares the last rank."""
    rows = {0: ["Gold 1"], 1: ["Gold 2"], 2: ["Gold 3"], 3: ["Gold 4", "Gold 4#2"]}
    st = showdown_table(4, rows, [GEM, GEM, BELLA, BELLA], HOTEL)
    assert of_type(st, SafesRevealed)[0].gold == (3, 8, 3)
    assert of_type(st, Advanced) == [Advanced((3,))]
    assert of_type(st, GameOver) == [GameOver((3,))]
    assert st.is_over and st.phase == "over" and st.to_act == ()
    assert st.outcome == Outcome((0.0, 0.0, 0.0, 1.0), (2, 2, 2, 1), (3,))
    assert [p.out for p in st.view(None).players] == [True, True, True, False]
    assert st.view(None).winners == (3,)
    assert all(st.legal_actions(s) == [] for s in range(4))


@pytest.mark.rule("deadwood1876", "showdown.tie-fewest-players")
def test_showdown_gold_tie_goes_to_the_establishment_with_fewest_players():
    """FINAL SHOWDOWN: "If multiple establishments are tied for the most Gold, the tied establishment with
    the fewest players advances"."""
    rows = {0: ["Gold 4"], 1: ["Gold 2"], 2: ["Gold 1"], 3: ["Gold 3", "Gold 3#2"]}
    st = showdown_table(4, rows, [GEM, GEM, BELLA, BELLA], HOTEL)
    assert of_type(st, SafesRevealed)[0].gold == (6, 6, 1)
    assert of_type(st, Advanced) == [Advanced((3,))]
    assert st.outcome.winners == (3,)


@pytest.mark.rule("deadwood1876", "showdown.tie-fewest-players")
def test_showdown_still_tied_all_tied_establishments_advance():
    """FINAL SHOWDOWN: "If still tied, all players in the tied establishments advance to the Final
    Showdown together"."""
    rows = {0: ["Gold 4"], 1: ["Gold 2"], 2: ["Gold 1", "Gold 1#2"], 3: ["Gold 4#2"]}
    # seat 3 rides from the Hotel to Bella: Gem {0, 1} 6, Bella {2, 3} 6
    st = showdown_table(4, rows, [GEM, GEM, BELLA, HOTEL], BELLA)
    assert of_type(st, SafesRevealed)[0].gold == (6, 0, 6)
    assert of_type(st, Advanced) == [Advanced((0, 1, 2, 3))]
    assert st.phase == "showdown" and st.to_act == (0, 1, 2, 3)
    assert not st.is_over


@pytest.mark.rule("deadwood1876", "showdown.empty-establishments")
def test_showdown_empty_establishments_do_not_compete():
    """Decision (engine/deadwood1876/__init__.py): with no gold anywhere, the empty Hotel (0 players, 0 gold)
    does not "advance"; Gem and Bella tie on gold and size, so all advance."""
    rows = {0: ["Colt Showdown Gun"], 1: [], 2: ["Winchester Showdown Gun"], 3: []}
    st = showdown_table(4, rows, [GEM, GEM, BELLA, HOTEL], BELLA)
    assert of_type(st, SafesRevealed)[0].gold == (0, 0, 0)
    assert of_type(st, Advanced) == [Advanced((0, 1, 2, 3))]


def duel_of_two(rolls: tuple[int, ...] = ()) -> DeadwoodState:
    """4 players: seats 0 and 1 (Gem, 7 gold) advance; seat 0 has a Messenger and a Colt Showdown Gun,
    seat 1 a Winchester one. Seat 0 holds a Pepperbox first, seat 1 a Colt first."""
    rows = {
        0: ["Messenger Showdown Gun", "Gold 4", "Colt Showdown Gun"],
        1: ["Gold 3", "Winchester Showdown Gun"],
        2: ["Gold 1", "Pepperbox Showdown Gun"],
        3: ["Gold 2", "Derringer Showdown Gun"],
    }
    fixed = {
        0: [("pepperbox", "stetson"), ("derringer", "stetson"), ("colt", "stetson"), ("winchester", "stetson")],
        1: [("colt", "duster"), ("derringer", "duster"), ("pepperbox", "duster"), ("messenger", "duster")],
    }
    st = showdown_table(4, rows, [GEM, GEM, BELLA, BELLA], HOTEL, fixed=fixed)
    st.chance = ScriptedChance(rolls)
    return st


@pytest.mark.rule("deadwood1876", "showdown.fight")
@pytest.mark.rule("deadwood1876", "holster.not-in-heist-or-showdown")
def test_showdown_every_advancer_fires_a_card_as_a_gun_at_once():
    """FINAL SHOWDOWN: "each advancing player simultaneously plays a card"; "Deadwood cards can be used only
    as guns"; a card laid stays hidden until everyone has played."""
    st = duel_of_two()
    assert of_type(st, Advanced) == [Advanced((0, 1))]
    assert st.phase == "showdown" and st.to_act == (0, 1)
    assert st.legal_actions(0) == [FireGun(c) for c in st.distinct(st.hands[0])]
    assert st.legal_actions(2) == [] and st.legal_actions(3) == []
    before = len(public(st))
    act(st, 0, FireGun(card("winchester", "stetson")))
    assert st.to_act == (1,)
    assert len(public(st)) == before
    assert st.view(1).players[0].chosen is True
    assert st.view(1).players[0].hand_size == 4


@pytest.mark.rule("deadwood1876", "showdown.fight")
@pytest.mark.rule("deadwood1876", "card.showdown-guns")
def test_showdown_rolls_the_played_gun_plus_every_showdown_gun():
    """CARD DETAILS, SHOWDOWN GUNS / FINAL SHOWDOWN: each player "rolls dice matching the gun he or she played
    plus dice that match all of his or her Showdown Guns"; the lowest total flips; ties reroll."""
    # seat 0: Pepperbox 0 + Messenger 1 + Colt 0 = 1; seat 1: Colt 0 + Winchester 1 = 1 -> tie, reroll
    # seat 0: 0 + 1 + 1 = 2; seat 1: 0 + 1 = 1 -> seat 1 flips
    st = duel_of_two((0, 1, 0, 0, 1, 0, 1, 1, 0, 1))
    fire(st, {0: card("pepperbox", "stetson"), 1: card("colt", "duster")})
    assert of_type(st, DiceRolled)[-2:] == [
        DiceRolled(
            "showdown",
            ((0, (("Pepperbox", 0), ("Messenger", 1), ("Colt", 0)), 1), (1, (("Colt", 0), ("Winchester", 1)), 1)),
        ),
        DiceRolled(
            "showdown",
            ((0, (("Pepperbox", 0), ("Messenger", 1), ("Colt", 1)), 2), (1, (("Colt", 0), ("Winchester", 1)), 1)),
        ),
    ]
    assert of_type(st, CharacterFlipped) == [CharacterFlipped(1)]
    assert st.flipped == [False, True, False, False]
    assert st.view(None).players[1].flipped is True
    assert st.chance.rolls == []


@pytest.mark.rule("deadwood1876", "showdown.out")
def test_showdown_second_loss_is_out_and_the_last_alive_wins():
    """FINAL SHOWDOWN: "If your card is already on the black and white side and you lose again, you are out
    of the game! THE LAST PLAYER ALIVE KEEPS ALL THE GOLD AND WINS THE GAME!"."""
    # rounds: seat 0 lowest (flips), seat 1 lowest (flips), seat 0 lowest (out)
    st = duel_of_two((1, 1, 1, 2, 2) + (2, 2, 2, 1, 1) + (1, 1, 1, 2, 2))
    for loser in (0, 1):
        fire(st, first_cards(st))
        assert of_type(st, CharacterFlipped)[-1] == CharacterFlipped(loser)
    fire(st, first_cards(st))
    assert of_type(st, PlayerOut) == [PlayerOut(0)]
    assert of_type(st, CharacterFlipped) == [CharacterFlipped(0), CharacterFlipped(1)]
    assert of_type(st, GameOver) == [GameOver((1,))]
    # winner 1; seat 0 lost the Showdown; seats 2 and 3 did not advance
    assert st.outcome == Outcome((0.0, 1.0, 0.0, 0.0), (2, 1, 3, 3), (1,))
    assert [p.out for p in st.view(None).players] == [True, False, True, True]
    assert st.to_act == ()


@pytest.mark.rule("deadwood1876", "showdown.hands")
def test_showdown_no_replenishing():
    """FINAL SHOWDOWN: "unlike before, cards will not be replenished after each roll"."""
    st = duel_of_two((1, 1, 1, 2, 2))
    deck, discard = list(st.deck), list(st.discard)
    hands = [list(h) for h in st.hands]
    played = first_cards(st)
    fire(st, played)
    assert [len(h) for h in st.hands] == [3, 3, 4, 4]
    assert st.hands[0] == [c for c in hands[0] if c != played[0]]
    assert st.deck == deck and st.discard == discard
    assert st.set_aside[0] == [played[0]] and st.set_aside[1] == [played[1]]
    since = public(st).index(of_type(st, Advanced)[0])
    assert not [e for e in public(st, since) if isinstance(e, CardsDrawn)]


def trio(rolls: tuple[int, ...] = ()) -> DeadwoodState:
    """8 players (3 cards each): seats 0, 1 and 2 (Gem, the most gold) advance; no Showdown Guns."""
    rows = {
        0: ["Gold 4"],
        1: ["Gold 4#2"],
        2: ["Gold 3"],
        3: ["Gold 1"],
        4: ["Gold 2"],
        5: ["Gold 1#2"],
        6: ["Gold 2#2"],
        7: ["Gold 3#2"],
    }
    est = [GEM, GEM, GEM, HOTEL, HOTEL, BELLA, BELLA, BELLA]
    st = showdown_table(8, rows, est, HOTEL)
    assert of_type(st, Advanced) == [Advanced((0, 1, 2))]
    st.chance = ScriptedChance(rolls)
    return st


@pytest.mark.rule("deadwood1876", "showdown.fight")
def test_showdown_ties_for_lowest_reroll_among_the_tied_only():
    """FINAL SHOWDOWN: "The player with the lowest roll total must flip ... Reroll to break ties": only the
    tied lowest roll again."""
    st = trio((1, 1, 2) + (2, 1))
    fire(st, first_cards(st))
    rolled = [[r[0] for r in e.rolls] for e in of_type(st, DiceRolled) if e.purpose == "showdown"]
    assert rolled == [[0, 1, 2], [0, 1]]
    assert of_type(st, CharacterFlipped) == [CharacterFlipped(1)]
    assert st.chance.rolls == []


@pytest.mark.rule("deadwood1876", "showdown.hands")
def test_showdown_hands_taken_back_when_cards_run_out():
    """FINAL SHOWDOWN: "If multiple players are still alive after running out of Deadwood cards, they each
    pick up the hand of cards they had going into the Final Showdown and continue fighting"."""
    st = trio((1, 2, 2) + (2, 1, 2) + (2, 2, 1))
    start = [sorted(st.hands[s]) for s in range(3)]
    for _ in range(3):
        fire(st, first_cards(st))
    assert of_type(st, CharacterFlipped) == [CharacterFlipped(0), CharacterFlipped(1), CharacterFlipped(2)]
    assert of_type(st, HandsTakenBack) == [HandsTakenBack((0, 1, 2))]
    assert [sorted(st.hands[s]) for s in range(3)] == start
    assert st.set_aside[:3] == [[], [], []]
    assert st.phase == "showdown" and st.to_act == (0, 1, 2)


@pytest.mark.rule("deadwood1876", "showdown.scores")
def test_showdown_outcome_ranks_later_out_better():
    """showdown.finish(): the winner scores 1 and ranks 1; Showdown losers rank by how late they went out;
    players who did not advance share the last rank and score 0."""
    st = trio((1, 2, 2) + (2, 1, 2) + (2, 2, 1) + (1, 2, 2) + (1, 2))
    for _ in range(5):
        fire(st, first_cards(st))
    assert of_type(st, PlayerOut) == [PlayerOut(0), PlayerOut(1)]
    assert st.out_order == [0, 1]
    assert st.outcome == Outcome((0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0), (3, 2, 1, 4, 4, 4, 4, 4), (2,))
    assert of_type(st, GameOver) == [GameOver((2,))]


@pytest.mark.rule("deadwood1876", "showdown.out")
def test_showdown_a_player_out_stops_firing():
    """FINAL SHOWDOWN: a player who is out takes no further part; the rest fight on."""
    st = trio((1, 2, 2) + (1, 2, 2))
    fire(st, first_cards(st))
    fire(st, first_cards(st))
    assert of_type(st, PlayerOut) == [PlayerOut(0)]
    assert st.alive == [1, 2]
    assert st.to_act == (1, 2)
    assert st.legal_actions(0) == []
    assert st.view(None).players[0].out is True
    with pytest.raises(IllegalAction):
        st.apply(0, FireGun(st.hands[0][0]))


@pytest.mark.rule("deadwood1876", "showdown.hands")
def test_showdown_no_more_turns_only_guns_for_those_alive():
    """FINAL SHOWDOWN: "Deadwood cards can be used only as guns": no Robbery, Duel or item any more, and
    only the advancers act."""
    st = trio()
    assert st.to_act == (0, 1, 2)
    for seat in st.to_act:
        assert st.legal_actions(seat) == [FireGun(c) for c in st.distinct(st.hands[seat])]
    assert all(st.legal_actions(seat) == [] for seat in range(3, 8))
    assert [p.out for p in st.view(None).players] == [False] * 3 + [True] * 5


# ---------------------------------------------------------------------------------------------- views around a Heist


def test_heist_view_counts_the_finished_circle():
    """View.turns_left is "full turns each player still has before the Badge Round": after the first circle,
    during the first Heist, each player has 3 turns left (HEIST: four turns in all at 4-7 players)."""
    st = heist_table()
    assert st.view(None).turns_left == 4
    ride(st, 3, HOTEL)
    assert st.phase == "heist"
    assert st.view(None).turns_left == 3


def test_heist_view_has_no_current_player_while_the_winner_gives_a_safe():
    """View.current is "-1 before the first turn and in Heists and the Showdown"; the Third Law gift after a
    Heist is part of the Heist."""
    st = heist_table(winner_row=("Gold 2", "Tin Badge", "Derringer Showdown Gun"))
    ride(st, 3, HOTEL)
    assert st.view(None).current == -1
    st.chance = ScriptedChance([1, 3, 1, 1])
    heist_all(st, heist_guns(st))
    assert st.phase == "give_safe"
    assert st.view(None).current == -1
