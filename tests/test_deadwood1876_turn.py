"""Deadwood 1876 turns (rulebook: ON YOUR TURN, ROBBERY, DUEL, HOLSTERS, CARD DETAILS, replenishing).

Each test builds an exact position (every hand, row and star) and scripts the dice in the order the
engine rolls them: per roll round the attacker's gun die then Holster die, then the defender's.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.deadwood1876.actions import (
    AttachHolster,
    ChooseHolster,
    Defend,
    Discard,
    Duel,
    GiveHolster,
    HeistGun,
    NoHolster,
    PassSafe,
    RideHorse,
    Robbery,
    SendAway,
    UseDuster,
    UseStetson,
    ViewSafe,
)
from engine.deadwood1876.components import DUSTER, HORSE, MYSTERY, STETSON
from engine.deadwood1876.events import (
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    DeckReshuffled,
    DiceRolled,
    FightWon,
    HeistStarted,
    HolsterGiven,
    HolsterReturned,
    RobberyDeclared,
    SafesShuffled,
    SafeStolen,
    SafeViewed,
    StarMoved,
    TurnStarted,
)
from engine.deadwood1876.state import DeadwoodState
from tests.helpers import COMP, ScriptedChance, act, card, cards, new_state, put_turn, safe

GEM, HOTEL, BELLA = 0, 1, 2
BASE_SAFES = [s for s in range(len(COMP.safe_kind)) if COMP.safe_kind[s] != MYSTERY]
FILLER = [c for c in range(len(COMP.card_gun)) if COMP.card_item[c] in (DUSTER, STETSON)] + [
    c for c in range(len(COMP.card_gun)) if COMP.card_item[c] == HORSE
]
"""Cards dealt to seats whose hand a test does not care about: never a Holster, Horses last."""

# Guns for fights, all Stetsons (never Holsters, so they never count as one).
PEPPERBOX = card("pepperbox", "stetson")
DERRINGER = card("derringer", "stetson")
COLT = card("colt", "stetson")
WINCHESTER = card("winchester", "stetson")
MESSENGER = card("messenger", "stetson")
COLT_HOLSTER = card("colt", "holster")
WINCHESTER_HOLSTER = card("winchester", "holster")
DERRINGER_HOLSTER = card("derringer", "holster")
PEPPERBOX_HOLSTER = card("pepperbox", "holster")
DERRINGER_2 = card("derringer", "stetson", exclude=[DERRINGER])
# Hands of three Dusters of different guns, for defenders and Holster givers.
DUSTERS_1 = cards(("pepperbox", "duster"), ("derringer", "duster"), ("colt", "duster"))
DUSTERS_2 = [card(gun, "duster", exclude=DUSTERS_1) for gun in ("pepperbox", "derringer", "colt")]
DUSTERS_3 = [card(gun, "duster", exclude=DUSTERS_1 + DUSTERS_2) for gun in ("pepperbox", "derringer", "winchester")]
DUSTERS_4 = [
    d for d in range(len(COMP.card_gun)) if COMP.card_item[d] == DUSTER and d not in DUSTERS_1 + DUSTERS_2 + DUSTERS_3
]
# Three Horses, for a fifth bystander's hand (the twelve Dusters are all in the four hands above).
HORSES_5 = cards(("pepperbox", "horse"), ("derringer", "horse"), ("colt", "horse"))


class ReversingChance(ScriptedChance):
    """Scripted dice, but every shuffle reverses the list (so a test can see that it happened)."""

    def shuffle(self, items: list[Any]) -> None:
        items.reverse()


def table(
    players: int = 5,
    seat: int = 0,
    *,
    hands: dict[int, list[int]] | None = None,
    rows: dict[int, list[int]] | None = None,
    est: list[int] | None = None,
    rolls: list[int] | tuple[int, ...] = (),
    deck: list[int] | None = None,
    first: int = 0,
    chance: type[ScriptedChance] = ScriptedChance,
) -> DeadwoodState:
    """The start of ``seat``'s turn with every hand, row and star fixed.

    Seats without a given hand get Duster/Stetson cards; seats without a given row get two base
    Safes in id order; stars default to the Set Up placement (Gem Theatre first, clockwise);
    the deck defaults to every other card in id order (the last one is drawn first).
    """
    st = new_state(players, seed=1)
    size = st.table.hand_size
    hands = {s: list(h) for s, h in (hands or {}).items()}
    reserved = {c for h in hands.values() for c in h} | set(deck or ())
    spare = [c for c in FILLER if c not in reserved]
    for s in range(players):
        if s not in hands:
            hands[s] = [spare.pop(0) for _ in range(size)]
    rows = {s: list(r) for s, r in (rows or {}).items()}
    pool = [x for x in BASE_SAFES if x not in {x for r in rows.values() for x in r}]
    for s in range(players):
        if s not in rows:
            rows[s] = [pool.pop(0), pool.pop(0)]
    in_hands = {c for h in hands.values() for c in h}
    if deck is None:
        deck = [c for c in range(len(COMP.card_gun)) if c not in in_hands]
    if est is None:
        places = [e for e in st.table.establishments if e not in st.table.initial_stars_skip]
        est = [places[s % len(places)] for s in range(players)]
    put_turn(st, seat, hands=hands, rows=rows, est=est, rolls=rolls, deck=deck, first=first)
    st.middle = pool[: st.table.middle_safes]
    st.box = pool[st.table.middle_safes :]
    st.known = [set() for _ in range(players)]
    st.chance = chance(rolls)  # type: ignore[assignment]
    st.log = []
    return st


def of_type(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def no_holsters(st: DeadwoodState) -> None:
    """Every seat asked in the Holster window gives none."""
    for s in st.to_act:
        act(st, s, NoHolster())


def duster_turn(st: DeadwoodState, seat: int) -> None:
    """Play the seat's Duster and discard the first three cards offered."""
    duster = next(a for a in st.legal_actions(seat) if isinstance(a, UseDuster))
    act(st, seat, duster)
    for _ in range(3):
        act(st, seat, st.legal_actions(seat)[0])


# ---------------------------------------------------------------- one card per turn


@pytest.mark.rule("deadwood1876", "turn.play-one-card")
def test_a_turn_plays_exactly_one_card():
    """ON YOUR TURN: you play one Deadwood card from your hand, as its item or as its gun; then it is
    discarded and you draw back to four."""
    horse = card("colt", "horse")
    st = table(5, 0, hands={0: [horse, DERRINGER, COLT, WINCHESTER]}, est=[GEM, GEM, HOTEL, HOTEL, BELLA])
    assert all(a.card in st.hands[0] for a in st.legal_actions(0))
    top = st.deck[-1]
    others = [list(h) for h in st.hands[1:]]
    act(st, 0, RideHorse(horse, BELLA))
    played = of_type(st.events(None), CardPlayed)
    assert played == [CardPlayed(0, st.card(horse), "horse")]
    assert st.discard == [horse]
    assert st.hands[0] == [DERRINGER, COLT, WINCHESTER, top]
    assert st.hands[1:] == others
    assert of_type(st.events(0), CardsDrawn) == [CardsDrawn(0, 1, (st.card(top),))]
    assert st.to_act == (1,)
    assert st.events(None)[-1] == TurnStarted(1, 1)


@pytest.mark.rule("deadwood1876", "turn.play-one-card")
def test_every_card_can_be_played_as_its_gun():
    """ON YOUR TURN: any card may be used as the gun on top of it, for a Robbery or a Duel."""
    horse, duster, stetson, holster = card("colt", "horse"), card("colt", "duster"), COLT, COLT_HOLSTER
    st = table(5, 0, hands={0: [horse, duster, stetson, holster]})
    legal = st.legal_actions(0)
    for c in (horse, duster, stetson, holster):
        assert Duel(c, 3) in legal
        assert Robbery(c, 2, 1) in legal


@pytest.mark.rule("deadwood1876", "holster.give")
def test_a_holster_is_no_item_on_your_own_turn_with_four_or_more_players():
    """HOLSTERS: Holsters are played out of turn (only 2-3 player games attach them on a turn)."""
    st = table(5, 0, hands={0: [COLT_HOLSTER, DERRINGER, COLT, WINCHESTER]})
    legal = st.legal_actions(0)
    assert not any(isinstance(a, AttachHolster) for a in legal)
    assert {type(a) for a in legal if a.card == COLT_HOLSTER} == {Robbery, Duel}


# ---------------------------------------------------------------- Horse


@pytest.mark.rule("deadwood1876", "card.horse")
def test_horse_moves_your_star_to_another_establishment_with_a_vacancy():
    """HORSE: move your star to any other establishment with a vacancy (5 players: 2 per establishment)."""
    horse = card("pepperbox", "horse")
    st = table(5, 0, hands={0: [horse, DERRINGER, COLT, WINCHESTER]}, est=[GEM, GEM, HOTEL, HOTEL, BELLA])
    assert [a for a in st.legal_actions(0) if isinstance(a, RideHorse)] == [RideHorse(horse, BELLA)]
    act(st, 0, RideHorse(horse, BELLA))
    assert st.est == [BELLA, GEM, HOTEL, HOTEL, BELLA]
    assert of_type(st.events(None), StarMoved) == [StarMoved(0, GEM, BELLA, "horse")]


@pytest.mark.rule("deadwood1876", "card.horse")
def test_horse_offers_every_other_establishment_with_a_vacancy():
    """HORSE: any other establishment with a vacancy (6 players: 3 per establishment)."""
    horse = card("winchester", "horse")
    st = table(6, 2, hands={2: [horse, DERRINGER, COLT, PEPPERBOX]}, est=[GEM, GEM, HOTEL, HOTEL, BELLA, BELLA])
    assert [a for a in st.legal_actions(2) if isinstance(a, RideHorse)] == [
        RideHorse(horse, GEM),
        RideHorse(horse, BELLA),
    ]


@pytest.mark.rule("deadwood1876", "card.horse-no-vacancy")
def test_horse_is_not_offered_without_a_vacancy():
    """HORSE: only to an establishment with a vacancy; with none the card can only be a gun."""
    horse = card("pepperbox", "horse")
    st = table(5, 4, hands={4: [horse, DERRINGER, COLT, WINCHESTER]}, est=[GEM, GEM, HOTEL, HOTEL, BELLA])
    legal = st.legal_actions(4)
    assert not any(isinstance(a, RideHorse) for a in legal)
    assert Duel(horse, 0) in legal and Robbery(horse, 0, 0) in legal
    with pytest.raises(engine.IllegalAction):
        st.apply(4, RideHorse(horse, GEM))


@pytest.mark.rule("deadwood1876", "setup.stars-four-players")
@pytest.mark.rule("deadwood1876", "card.horse")
def test_horse_can_ride_into_the_empty_grand_central_hotel_at_four_players():
    """SET UP 2: no stars start in the Grand Central Hotel at 4 players, "though players may still move
    there during the game"."""
    horse = card("messenger", "horse")
    st = table(4, 1, hands={1: [horse, DERRINGER, COLT, WINCHESTER]}, est=[GEM, BELLA, GEM, BELLA])
    assert [a for a in st.legal_actions(1) if isinstance(a, RideHorse)] == [RideHorse(horse, HOTEL)]
    act(st, 1, RideHorse(horse, HOTEL))
    assert st.est == [GEM, HOTEL, GEM, BELLA]


# ---------------------------------------------------------------- Duster


@pytest.mark.parametrize(("players", "size"), [(5, 4), (8, 3)])
@pytest.mark.rule("deadwood1876", "card.duster")
def test_duster_draws_four_then_discards_three_to_a_full_hand(players, size):
    """DUSTER: discard the Duster, draw four cards; of the larger hand (seven, or six at 8-9 players)
    discard three, so you again have four (or three) in hand."""
    duster = card("pepperbox", "duster")
    keep = [DERRINGER, COLT, WINCHESTER][: size - 1]
    draws = [card("derringer", "duster"), card("messenger", "horse"), COLT_HOLSTER, PEPPERBOX]
    deck = [MESSENGER, *reversed(draws)]
    st = table(players, 0, hands={0: [duster, *keep]}, deck=deck)
    act(st, 0, UseDuster(duster))
    assert st.hands[0] == keep + draws
    assert st.phase == "duster" and st.to_act == (0,)
    assert st.view(0).cards_to_discard == 3
    discards = [keep[0], draws[1], draws[3]]
    for left, c in zip((2, 1, 0), discards, strict=True):
        act(st, 0, Discard(c))
        if left:
            assert st.view(0).cards_to_discard == left
    assert len(st.hands[0]) == size
    assert sorted(st.hands[0]) == sorted(set(keep + draws) - set(discards))
    assert sorted(st.discard) == sorted([duster, *discards])
    assert st.deck == [MESSENGER]
    assert of_type(st.events(None), CardsDrawn) == [CardsDrawn(0, 4)]
    assert st.to_act == (1,) and st.phase == "turn"


@pytest.mark.rule("deadwood1876", "card.duster-face-down")
def test_duster_discards_are_face_down():
    """DUSTER: the three cards are discarded; others only learn that three cards went (our decision:
    face down)."""
    duster = card("pepperbox", "duster")
    st = table(5, 0, hands={0: [duster, DERRINGER, COLT, WINCHESTER]})
    duster_turn(st, 0)
    mine = of_type(st.events(0), CardsDiscarded)
    theirs = of_type(st.events(1), CardsDiscarded)
    assert [e.count for e in mine] == [1, 1, 1]
    assert all(e.cards is not None and len(e.cards) == 1 for e in mine)
    assert theirs == [CardsDiscarded(0, 1)] * 3


# ---------------------------------------------------------------- Stetson


@pytest.mark.rule("deadwood1876", "card.stetson")
@pytest.mark.rule("deadwood1876", "card.stetson-targets")
def test_stetson_views_two_different_safes_of_other_players():
    """STETSON: view any two Safe cards; they need not belong to the same player (our decision: other
    players' Safes, two different ones)."""
    stetson = COLT
    st = table(5, 0, hands={0: [stetson, DERRINGER, PEPPERBOX, WINCHESTER]})
    act(st, 0, UseStetson(stetson))
    assert st.phase == "stetson" and st.view(0).views_left == 2
    everything = [ViewSafe(p, i) for p in range(1, 5) for i in range(2)]
    assert st.legal_actions(0) == everything
    act(st, 0, ViewSafe(2, 1))
    assert st.view(0).views_left == 1
    assert st.legal_actions(0) == [v for v in everything if v != ViewSafe(2, 1)]
    act(st, 0, ViewSafe(2, 0))
    assert st.known[0] == {st.rows[2][0], st.rows[2][1]}
    assert st.phase == "turn" and st.to_act == (1,)
    assert st.discard == [stetson]


@pytest.mark.rule("deadwood1876", "card.stetson-targets")
def test_stetson_cannot_view_your_own_safes():
    """STETSON (our decision): your own Safes you may view at any time, so a Stetson views others'."""
    st = table(5, 0, hands={0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER]})
    act(st, 0, UseStetson(COLT))
    assert all(v.owner != 0 for v in st.legal_actions(0))
    with pytest.raises(engine.IllegalAction):
        st.apply(0, ViewSafe(0, 0))


@pytest.mark.rule("deadwood1876", "card.stetson-targets")
def test_stetson_cannot_view_a_revealed_badge():
    """BADGES: revealed Badges are face up already (our decision: a Stetson doesn't offer them)."""
    tin = safe("Tin Badge")
    st = table(5, 0, hands={0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER]}, rows={1: [tin, safe("Gold 4")]})
    st.revealed = {tin}
    act(st, 0, UseStetson(COLT))
    assert ViewSafe(1, 0) not in st.legal_actions(0)
    assert ViewSafe(1, 1) in st.legal_actions(0)


@pytest.mark.rule("deadwood1876", "card.stetson")
def test_stetson_with_a_single_safe_to_view_ends_after_one_view():
    """STETSON: view (up to) two Safes in play; with only one you may view, the turn ends after it."""
    st = table(4, 0, hands={0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER]})
    st.revealed = {s for p in (1, 2, 3) for s in st.rows[p]} - {st.rows[3][1]}
    act(st, 0, UseStetson(COLT))
    assert st.legal_actions(0) == [ViewSafe(3, 1)]
    act(st, 0, ViewSafe(3, 1))
    assert st.phase == "turn" and st.to_act == (1,)
    assert st.known[0] == {st.rows[3][1]}


@pytest.mark.rule("deadwood1876", "card.stetson")
def test_stetson_is_not_offered_without_a_safe_to_view():
    """STETSON: you cannot view Safes in the middle or out of play; with nothing else, no Stetson."""
    st = table(4, 0, hands={0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER]})
    st.revealed = {s for p in (1, 2, 3) for s in st.rows[p]}
    assert not any(isinstance(a, UseStetson) for a in st.legal_actions(0))


@pytest.mark.rule("deadwood1876", "card.stetson")
@pytest.mark.rule("deadwood1876", "law.second")
def test_safe_viewed_with_a_stetson_is_shown_only_to_the_viewer():
    """STETSON: be sure nobody else sees the front of the Safes when you view them (Second Law)."""
    gold = safe("Gold 3")
    st = table(5, 0, hands={0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER]}, rows={2: [safe("Iron Badge"), gold]})
    act(st, 0, UseStetson(COLT))
    act(st, 0, ViewSafe(2, 1))
    assert of_type(st.events(0), SafeViewed) == [SafeViewed(0, 2, 1, "Gold 3")]
    for seat in (None, 1, 2, 3, 4):
        assert of_type(st.events(seat), SafeViewed) == [SafeViewed(0, 2, 1, None)]
    assert [s.contents for s in st.view(0).players[2].safes] == [None, "Gold 3"]
    for seat in (None, 1, 3, 4):
        assert [s.contents for s in st.view(seat).players[2].safes] == [None, None]


@pytest.mark.rule("deadwood1876", "law.knowledge")
@pytest.mark.rule("deadwood1876", "law.first")
def test_stetson_knowledge_lasts_until_the_owner_shuffles():
    """STETSON and FIRST LAW: Safes stay in their positions, so what you viewed stays known until the
    owner shuffles (after gaining a Safe from a Robbery)."""
    st = table(
        5,
        0,
        hands={0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER], 1: [MESSENGER, *DUSTERS_2]},
        rows={1: [safe("Gold 1"), safe("Gold 2")], 2: [safe("Gold 3"), safe("Gold 4")], 3: [safe("Tin Badge")]},
        rolls=[4, 0],
    )
    act(st, 0, UseStetson(COLT))
    act(st, 0, ViewSafe(1, 0))
    act(st, 0, ViewSafe(2, 1))
    assert st.to_act == (1,)
    assert [s.contents for s in st.view(0).players[1].safes] == ["Gold 1", None]
    assert [s.contents for s in st.view(0).players[2].safes] == [None, "Gold 4"]
    act(st, 1, Robbery(MESSENGER, 3, 0))
    act(st, 3, Defend(st.legal_actions(3)[0].card))
    no_holsters(st)
    assert st.rows[1] == [safe("Gold 1"), safe("Gold 2"), safe("Tin Badge")]
    assert [s.contents for s in st.view(0).players[1].safes] == [None, None, None]
    assert [s.contents for s in st.view(0).players[2].safes] == [None, "Gold 4"]


# ---------------------------------------------------------------- Robbery


@pytest.mark.rule("deadwood1876", "robbery.declare")
def test_robbery_is_declared_against_one_specific_safe_of_another_player():
    """ROBBERY: lay a gun face up in front of a specific Safe belonging to another player."""
    st = table(5, 0, hands={0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER]})
    robberies = [a for a in st.legal_actions(0) if isinstance(a, Robbery) and a.card == COLT]
    assert robberies == [Robbery(COLT, p, i) for p in range(1, 5) for i in range(2)]
    act(st, 0, Robbery(COLT, 3, 1))
    assert of_type(st.events(None), RobberyDeclared) == [RobberyDeclared(0, 3, 1)]
    fight = st.view(1).fight
    assert (fight.kind, fight.attacker, fight.defender, fight.index) == ("robbery", 0, 3, 1)
    assert fight.attack_card == st.card(COLT) and fight.defend_card is None
    assert st.phase == "defend" and st.to_act == (3,)


@pytest.mark.rule("deadwood1876", "badge-round.revealed")
def test_a_revealed_badge_cannot_be_robbed():
    """BADGES: revealed Badges have no value and can not be attacked."""
    tin = safe("Tin Badge")
    st = table(5, 0, hands={0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER]}, rows={1: [tin, safe("Gold 4")]})
    st.revealed = {tin}
    legal = st.legal_actions(0)
    assert Robbery(COLT, 1, 0) not in legal
    assert Robbery(COLT, 1, 1) in legal
    digest = st.digest()
    with pytest.raises(engine.IllegalAction):
        st.apply(0, Robbery(COLT, 1, 0))
    assert st.digest() == digest


@pytest.mark.rule("deadwood1876", "robbery.declare")
def test_defender_must_defend_with_a_gun_from_hand():
    """ROBBERY: the defending player must play one of the guns from their hand to defend it."""
    st = table(5, 0, hands={0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER], 1: [MESSENGER, *DUSTERS_1]})
    act(st, 0, Robbery(COLT, 1, 0))
    assert st.legal_actions(1) == [Defend(c) for c in sorted([MESSENGER, *DUSTERS_1])]
    digest = st.digest()
    for seat, action in [(1, Defend(DERRINGER)), (1, NoHolster()), (0, Defend(DERRINGER)), (2, Defend(FILLER[0]))]:
        with pytest.raises(engine.IllegalAction):
            st.apply(seat, action)
    assert st.digest() == digest
    act(st, 1, Defend(MESSENGER))
    assert st.view(2).fight.defend_card == st.card(MESSENGER)
    assert MESSENGER not in st.hands[1]


@pytest.mark.rule("deadwood1876", "holster.give")
@pytest.mark.rule("deadwood1876", "holster.window")
def test_holster_window_asks_every_player_not_fighting():
    """HOLSTERS: anyone not the attacker or defender may assist; everyone is asked (our decision), and
    without a Holster in hand the only answer is to give none."""
    st = table(
        5,
        0,
        hands={0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER], 1: [MESSENGER, *DUSTERS_1], 3: [COLT_HOLSTER, *DUSTERS_2]},
    )
    act(st, 0, Robbery(COLT, 1, 0))
    act(st, 1, Defend(MESSENGER))
    assert st.phase == "holster" and st.to_act == (2, 3, 4)
    assert st.legal_actions(2) == [NoHolster()]
    assert st.legal_actions(4) == [NoHolster()]
    assert st.legal_actions(3) == [NoHolster(), GiveHolster(COLT_HOLSTER, 0), GiveHolster(COLT_HOLSTER, 1)]
    assert st.legal_actions(0) == [] and st.legal_actions(1) == []


@pytest.mark.rule("deadwood1876", "holster.give")
def test_holster_window_opens_for_duels_too():
    """HOLSTERS: played out of turn before a Robbery or Duel dice roll."""
    st = table(5, 0, hands={0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER], 1: [MESSENGER, *DUSTERS_1]})
    act(st, 0, Duel(COLT, 1))
    act(st, 1, Defend(MESSENGER))
    assert st.phase == "holster" and st.to_act == (2, 3, 4)


@pytest.mark.rule("deadwood1876", "holster.window")
def test_holsters_are_revealed_together_once_everyone_has_chosen():
    """HOLSTERS: rolls happen simultaneously; a Holster given is hidden until all have chosen (our
    decision), then revealed."""
    st = table(
        5,
        0,
        hands={0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER], 1: [MESSENGER, *DUSTERS_1], 3: [COLT_HOLSTER, *DUSTERS_2]},
        rolls=[3, 3, 2],
    )
    act(st, 0, Robbery(COLT, 1, 0))
    act(st, 1, Defend(MESSENGER))
    mark = len(st.log)
    act(st, 3, GiveHolster(COLT_HOLSTER, 0))
    view = st.view(2)
    assert view.players[3].chosen is True and view.players[3].hand_size == 4
    assert view.fight.holsters == ()
    assert len(st.log) == mark
    act(st, 2, NoHolster())
    act(st, 4, NoHolster())
    assert of_type(st.events(None), HolsterGiven) == [HolsterGiven(3, 0, st.card(COLT_HOLSTER))]


@pytest.mark.rule("deadwood1876", "holster.window")
def test_holster_choices_arriving_in_any_order_give_the_same_result():
    """HOLSTERS: the choices are simultaneous, so the order they reach the engine in changes nothing."""
    states = []
    for order in ([2, 3, 4], [4, 2, 3]):
        st = table(
            5,
            0,
            hands={
                0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER],
                1: [MESSENGER, *DUSTERS_1],
                2: [COLT_HOLSTER, *DUSTERS_2],
                4: [WINCHESTER_HOLSTER, *DUSTERS_3],
            },
            rolls=[3, 3, 2, 1],
        )
        act(st, 0, Robbery(COLT, 1, 0))
        act(st, 1, Defend(MESSENGER))
        choice = {2: GiveHolster(COLT_HOLSTER, 0), 3: NoHolster(), 4: GiveHolster(WINCHESTER_HOLSTER, 1)}
        for seat in order:
            act(st, seat, choice[seat])
        states.append(st)
    assert states[0].digest() == states[1].digest()
    assert states[0].events(engine.OMNISCIENT) == states[1].events(engine.OMNISCIENT)
    assert of_type(states[0].events(None), HolsterGiven) == [
        HolsterGiven(2, 0, states[0].card(COLT_HOLSTER)),
        HolsterGiven(4, 1, states[0].card(WINCHESTER_HOLSTER)),
    ]


@pytest.mark.rule("deadwood1876", "holster.extra-die")
def test_holster_given_by_a_third_party_adds_its_gun_die():
    """HOLSTERS: the assisted player rolls the die of the gun they played and the die on the Holster card
    they were given, and adds both."""
    st = table(
        5,
        0,
        hands={0: [PEPPERBOX, DERRINGER, COLT, WINCHESTER], 1: [MESSENGER, *DUSTERS_1], 2: [COLT_HOLSTER, *DUSTERS_2]},
        rows={0: [safe("Gold 1")], 1: [safe("Gold 4"), safe("Tin Badge")]},
        rolls=[0, 3, 2],
    )
    act(st, 0, Robbery(PEPPERBOX, 1, 0))
    act(st, 1, Defend(MESSENGER))
    act(st, 2, GiveHolster(COLT_HOLSTER, 0))
    act(st, 3, NoHolster())
    act(st, 4, NoHolster())
    assert of_type(st.events(None), DiceRolled) == [
        DiceRolled("robbery", ((0, (("Pepperbox", 0), ("Colt", 3)), 3), (1, (("Messenger", 2),), 2)))
    ]
    assert of_type(st.events(None), FightWon) == [FightWon("robbery", 0, 1)]
    assert st.rows[0] == [safe("Gold 1"), safe("Gold 4")]
    assert st.rows[1] == [safe("Tin Badge")]
    assert st.chance.rolls == []  # type: ignore[attr-defined]


@pytest.mark.rule("deadwood1876", "holster.choose-one")
def test_a_fighter_given_several_holsters_chooses_which_one_to_use():
    """HOLSTERS: if a player is given multiple Holsters, the recipient chooses which Holster to use."""
    st = table(
        5,
        0,
        hands={
            0: [WINCHESTER, DERRINGER, COLT, PEPPERBOX],
            1: [DERRINGER_2, *DUSTERS_1],
            2: [COLT_HOLSTER, *DUSTERS_2],
            3: [WINCHESTER_HOLSTER, *DUSTERS_3],
        },
        rolls=[1, 0, 2],
    )
    act(st, 0, Robbery(WINCHESTER, 1, 0))
    act(st, 1, Defend(DERRINGER_2))
    act(st, 2, GiveHolster(COLT_HOLSTER, 1))
    act(st, 3, GiveHolster(WINCHESTER_HOLSTER, 1))
    act(st, 4, NoHolster())
    assert st.phase == "choose_holster" and st.to_act == (1,)
    assert st.legal_actions(1) == [ChooseHolster(COLT_HOLSTER), ChooseHolster(WINCHESTER_HOLSTER)]
    assert st.view(0).fight.holsters == (
        (2, 1, st.card(COLT_HOLSTER)),
        (3, 1, st.card(WINCHESTER_HOLSTER)),
    )
    act(st, 1, ChooseHolster(WINCHESTER_HOLSTER))
    assert of_type(st.events(None), DiceRolled) == [
        DiceRolled("robbery", ((0, (("Winchester", 1),), 1), (1, (("Derringer", 0), ("Winchester", 2)), 2)))
    ]
    assert of_type(st.events(None), FightWon) == [FightWon("robbery", 1, 0)]


@pytest.mark.rule("deadwood1876", "holster.choose-one")
@pytest.mark.rule("deadwood1876", "turn.replenish")
def test_holsters_not_chosen_go_back_to_their_givers_who_do_not_draw():
    """HOLSTERS: the recipient returns the other Holsters to their owners; only those who used a card
    draw after the turn (the giver of the used Holster does, the one whose Holster came back doesn't)."""
    st = table(
        5,
        0,
        hands={
            0: [WINCHESTER, DERRINGER, COLT, PEPPERBOX],
            1: [DERRINGER_2, *DUSTERS_1],
            2: [COLT_HOLSTER, *DUSTERS_2],
            3: [WINCHESTER_HOLSTER, *DUSTERS_3],
        },
        rolls=[1, 0, 2],
    )
    act(st, 0, Robbery(WINCHESTER, 1, 0))
    act(st, 1, Defend(DERRINGER_2))
    act(st, 2, GiveHolster(COLT_HOLSTER, 1))
    act(st, 3, GiveHolster(WINCHESTER_HOLSTER, 1))
    act(st, 4, NoHolster())
    deck = list(st.deck)
    act(st, 1, ChooseHolster(WINCHESTER_HOLSTER))
    assert of_type(st.events(None), HolsterReturned) == [HolsterReturned(2, 1, st.card(COLT_HOLSTER))]
    assert sorted(st.hands[2]) == sorted([COLT_HOLSTER, *DUSTERS_2])
    assert [e.seat for e in of_type(st.events(None), CardsDrawn)] == [0, 1, 3]
    assert st.hands[3] == [*DUSTERS_3, deck[-3]]
    assert [len(h) for h in st.hands] == [4] * 5
    assert sorted(st.discard) == sorted([WINCHESTER, DERRINGER_2, WINCHESTER_HOLSTER])


@pytest.mark.rule("deadwood1876", "holster.must-use")
def test_a_single_holster_given_must_be_used():
    """HOLSTERS: if given at least one Holster a recipient cannot refuse to use one (no choice is asked)."""
    st = table(
        5,
        0,
        hands={
            0: [MESSENGER, DERRINGER, COLT, PEPPERBOX],
            1: [WINCHESTER, *DUSTERS_1],
            4: [DERRINGER_HOLSTER, *DUSTERS_2],
        },
        rows={1: [safe("Gold 2"), safe("Gold 3")]},
        rolls=[1, 1, 1],
    )
    act(st, 0, Robbery(MESSENGER, 1, 1))
    act(st, 1, Defend(WINCHESTER))
    act(st, 2, NoHolster())
    act(st, 3, NoHolster())
    act(st, 4, GiveHolster(DERRINGER_HOLSTER, 1))
    assert of_type(st.events(None), DiceRolled) == [
        DiceRolled("robbery", ((0, (("Messenger", 1),), 1), (1, (("Winchester", 1), ("Derringer", 1)), 2)))
    ]
    assert of_type(st.events(None), CardPlayed)[-1] == CardPlayed(4, st.card(DERRINGER_HOLSTER), "holster")
    assert of_type(st.events(None), FightWon) == [FightWon("robbery", 1, 0)]
    assert st.phase == "turn" and st.to_act == (1,)


@pytest.mark.rule("deadwood1876", "holster.choose-one")
def test_each_fighter_uses_one_holster_given_to_them():
    """HOLSTERS: a Holster goes to the attacker or the defender; each battling player may use one."""
    st = table(
        5,
        0,
        hands={
            0: [PEPPERBOX, DERRINGER, COLT, WINCHESTER],
            1: [MESSENGER, *DUSTERS_1],
            2: [DERRINGER_HOLSTER, *DUSTERS_2],
            4: [WINCHESTER_HOLSTER, *DUSTERS_3],
        },
        rolls=[2, 2, 3, 3],
    )
    act(st, 0, Duel(PEPPERBOX, 1))
    act(st, 1, Defend(MESSENGER))
    act(st, 2, GiveHolster(DERRINGER_HOLSTER, 0))
    act(st, 3, NoHolster())
    act(st, 4, GiveHolster(WINCHESTER_HOLSTER, 1))
    assert of_type(st.events(None), DiceRolled) == [
        DiceRolled(
            "duel", ((0, (("Pepperbox", 2), ("Derringer", 2)), 4), (1, (("Messenger", 3), ("Winchester", 3)), 6))
        )
    ]
    assert of_type(st.events(None), FightWon) == [FightWon("duel", 1, 0)]


@pytest.mark.rule("deadwood1876", "holster.order")
def test_holsters_are_played_after_both_guns_the_attackers_first():
    """CARD DETAILS, HOLSTER: "play in the order of attacker, defender, Holster for attacker, Holster for
    defender". The defender answers only once the attacker's gun is down, the Holster window opens only once
    both guns are down, and the Holsters join the fight the attacker's first, though a lower seat gave the
    defender's (the window itself is simultaneous: the choices are revealed in seat order)."""
    st = table(
        5,
        0,
        hands={
            0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER],
            1: [MESSENGER, *DUSTERS_1],
            2: [COLT_HOLSTER, *DUSTERS_2],
            4: [WINCHESTER_HOLSTER, *DUSTERS_3],
        },
        rolls=[3, 3, 2, 1],
    )
    assert st.phase == "turn" and st.to_act == (0,)
    act(st, 0, Robbery(COLT, 1, 0))
    assert st.phase == "defend" and st.to_act == (1,)
    act(st, 1, Defend(MESSENGER))
    assert st.phase == "holster" and st.to_act == (2, 3, 4)
    act(st, 2, GiveHolster(COLT_HOLSTER, 1))
    act(st, 3, NoHolster())
    act(st, 4, GiveHolster(WINCHESTER_HOLSTER, 0))
    assert [(e.seat, e.card.id, e.use) for e in of_type(st.events(None), CardPlayed)] == [
        (0, COLT, "robbery"),
        (1, MESSENGER, "defend"),
        (4, WINCHESTER_HOLSTER, "holster"),
        (2, COLT_HOLSTER, "holster"),
    ]
    assert of_type(st.events(None), DiceRolled) == [
        DiceRolled("robbery", ((0, (("Colt", 3), ("Winchester", 3)), 6), (1, (("Messenger", 2), ("Colt", 1)), 3)))
    ]


@pytest.mark.rule("deadwood1876", "holster.order")
def test_holster_order_holds_when_the_attacker_chooses_among_several():
    """CARD DETAILS, HOLSTER, "Holster for attacker, Holster for defender", when the attacker is given two
    Holsters and the defender one: the defender's only Holster waits for the attacker's choice, and the
    attacker's chosen Holster joins the fight first; the Holster not chosen goes back to its giver."""
    st = table(
        5,
        0,
        hands={
            0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER],
            1: [MESSENGER, *DUSTERS_1],
            2: [COLT_HOLSTER, *DUSTERS_2],
            3: [WINCHESTER_HOLSTER, *DUSTERS_3],
            4: [DERRINGER_HOLSTER, *DUSTERS_4],
        },
        rolls=[3, 3, 2, 1],
    )
    act(st, 0, Robbery(COLT, 1, 0))
    act(st, 1, Defend(MESSENGER))
    act(st, 2, GiveHolster(COLT_HOLSTER, 0))
    act(st, 3, GiveHolster(WINCHESTER_HOLSTER, 0))
    act(st, 4, GiveHolster(DERRINGER_HOLSTER, 1))
    assert st.phase == "choose_holster" and st.to_act == (0,)
    assert [e.use for e in of_type(st.events(None), CardPlayed)] == ["robbery", "defend"]
    act(st, 0, ChooseHolster(COLT_HOLSTER))
    holsters = [e.seat for e in of_type(st.events(None), CardPlayed) if e.use == "holster"]
    assert holsters == [2, 4]
    assert of_type(st.events(None), HolsterReturned) == [HolsterReturned(3, 0, st.card(WINCHESTER_HOLSTER))]
    assert of_type(st.events(None), DiceRolled) == [
        DiceRolled("robbery", ((0, (("Colt", 3), ("Colt", 3)), 6), (1, (("Messenger", 2), ("Derringer", 1)), 3)))
    ]


@pytest.mark.rule("deadwood1876", "holster.order")
@pytest.mark.rule("deadwood1876", "holster.choose-one")
def test_holster_order_holds_when_both_fighters_choose_whatever_order_they_choose_in():
    """CARD DETAILS, HOLSTER, "Holster for attacker, Holster for defender", when both fighters choose among
    several and the defender sits on the lower seat: the attacker's Holster is played first. The two choices
    are simultaneous and hidden: the order in which they arrive changes nothing."""
    states = []
    for order in ((3, 1), (1, 3)):
        st = table(
            6,
            3,
            hands={
                3: [COLT, DERRINGER, PEPPERBOX, WINCHESTER],
                1: [MESSENGER, *DUSTERS_1],
                0: [COLT_HOLSTER, *DUSTERS_2],
                2: [WINCHESTER_HOLSTER, *DUSTERS_3],
                4: [DERRINGER_HOLSTER, *DUSTERS_4],
                5: [PEPPERBOX_HOLSTER, *HORSES_5],
            },
            rolls=[3, 3, 2, 1],
        )
        act(st, 3, Robbery(COLT, 1, 0))
        act(st, 1, Defend(MESSENGER))
        act(st, 0, GiveHolster(COLT_HOLSTER, 1))
        act(st, 2, GiveHolster(WINCHESTER_HOLSTER, 3))
        act(st, 4, GiveHolster(DERRINGER_HOLSTER, 3))
        act(st, 5, GiveHolster(PEPPERBOX_HOLSTER, 1))
        assert st.phase == "choose_holster" and st.to_act == (1, 3)
        choice = {3: ChooseHolster(WINCHESTER_HOLSTER), 1: ChooseHolster(PEPPERBOX_HOLSTER)}
        first, second = order
        act(st, first, choice[first])
        assert st.to_act == (second,)
        assert [e.use for e in of_type(st.events(None), CardPlayed)] == ["robbery", "defend"]
        act(st, second, choice[second])
        states.append(st)
    assert states[0].digest() == states[1].digest()
    assert states[0].events(engine.OMNISCIENT) == states[1].events(engine.OMNISCIENT)
    st = states[0]
    assert [(e.seat, e.card.id) for e in of_type(st.events(None), CardPlayed) if e.use == "holster"] == [
        (2, WINCHESTER_HOLSTER),
        (5, PEPPERBOX_HOLSTER),
    ]
    assert of_type(st.events(None), HolsterReturned) == [
        HolsterReturned(4, 3, st.card(DERRINGER_HOLSTER)),
        HolsterReturned(0, 1, st.card(COLT_HOLSTER)),
    ]
    assert of_type(st.events(None), DiceRolled) == [
        DiceRolled("robbery", ((3, (("Colt", 3), ("Winchester", 3)), 6), (1, (("Messenger", 2), ("Pepperbox", 1)), 3)))
    ]


@pytest.mark.rule("deadwood1876", "fight.roll")
@pytest.mark.rule("deadwood1876", "holster.tiebreak")
def test_ties_are_rerolled_and_holsters_roll_again():
    """ROBBERY: "Reroll to break ties"; HOLSTERS: "Holsters continue to be used for tiebreak rolls"."""
    st = table(
        5,
        0,
        hands={
            0: [COLT, DERRINGER, PEPPERBOX, MESSENGER],
            1: [WINCHESTER, *DUSTERS_1],
            2: [DERRINGER_HOLSTER, *DUSTERS_2],
        },
        rows={0: [safe("Gold 1")], 1: [safe("Gold 4"), safe("Tin Badge")]},
        rolls=[1, 1, 2, 3, 2, 3],
    )
    act(st, 0, Robbery(COLT, 1, 0))
    act(st, 1, Defend(WINCHESTER))
    act(st, 2, GiveHolster(DERRINGER_HOLSTER, 0))
    act(st, 3, NoHolster())
    act(st, 4, NoHolster())
    assert of_type(st.events(None), DiceRolled) == [
        DiceRolled("robbery", ((0, (("Colt", 1), ("Derringer", 1)), 2), (1, (("Winchester", 2),), 2))),
        DiceRolled("robbery", ((0, (("Colt", 3), ("Derringer", 2)), 5), (1, (("Winchester", 3),), 3))),
    ]
    assert of_type(st.events(None), FightWon) == [FightWon("robbery", 0, 1)]
    assert st.chance.rolls == []  # type: ignore[attr-defined]


@pytest.mark.rule("deadwood1876", "robbery.won")
@pytest.mark.rule("deadwood1876", "fight.roll")
@pytest.mark.rule("deadwood1876", "law.first-automatic-shuffle")
def test_robbery_won_moves_the_safe_to_the_thief_who_shuffles_it_in():
    """ROBBERY: with the higher result you steal the Safe; privately view it and shuffle it with your
    other Safes. The defender's other Safes keep their places."""
    st = table(
        5,
        0,
        hands={0: [MESSENGER, DERRINGER, COLT, PEPPERBOX], 1: [DERRINGER_2, *DUSTERS_1]},
        rows={0: [safe("Gold 1"), safe("Iron Badge")], 1: [safe("Gold 2"), safe("Gold 4"), safe("Tin Badge")]},
        rolls=[3, 1],
        chance=ReversingChance,
    )
    act(st, 0, Robbery(MESSENGER, 1, 1))
    act(st, 1, Defend(DERRINGER_2))
    no_holsters(st)
    assert st.rows[0] == [safe("Gold 4"), safe("Iron Badge"), safe("Gold 1")]
    assert st.rows[1] == [safe("Gold 2"), safe("Tin Badge")]
    for seat in (0, 1):
        assert of_type(st.events(seat), SafeStolen) == [SafeStolen(0, 1, 1, "Gold 4")]
    for seat in (None, 2, 3, 4):
        assert of_type(st.events(seat), SafeStolen) == [SafeStolen(0, 1, 1, None)]
    assert of_type(st.events(None), SafesShuffled) == [SafesShuffled(0)]
    assert [s.contents for s in st.view(2).players[0].safes] == [None, None, None]
    assert st.phase == "turn" and st.to_act == (1,)


@pytest.mark.rule("deadwood1876", "robbery.lost")
def test_robbery_lost_changes_nothing():
    """ROBBERY: if the defender has the higher final result, the defender keeps the Safe and nothing
    gets shuffled."""
    rows = {0: [safe("Gold 1"), safe("Iron Badge")], 1: [safe("Gold 2"), safe("Gold 4")]}
    st = table(5, 0, hands={0: [PEPPERBOX, DERRINGER, COLT, WINCHESTER], 1: [MESSENGER, *DUSTERS_1]}, rows=rows)
    st.chance = ReversingChance([0, 1])  # type: ignore[assignment]
    est = list(st.est)
    act(st, 0, Robbery(PEPPERBOX, 1, 1))
    act(st, 1, Defend(MESSENGER))
    no_holsters(st)
    assert of_type(st.events(None), FightWon) == [FightWon("robbery", 1, 0)]
    assert st.rows[0] == rows[0] and st.rows[1] == rows[1]
    assert st.est == est
    assert of_type(st.events(None), SafeStolen) == []
    assert of_type(st.events(None), SafesShuffled) == []
    assert sorted(st.discard) == sorted([PEPPERBOX, MESSENGER])


# ---------------------------------------------------------------- Duel


@pytest.mark.rule("deadwood1876", "duel.won")
def test_duel_won_swaps_star_positions():
    """DUEL: if you have the higher final result, you swap star positions with the defender."""
    st = table(5, 0, hands={0: [MESSENGER, DERRINGER, COLT, PEPPERBOX], 2: [DERRINGER_2, *DUSTERS_1]}, rolls=[4, 0])
    assert st.est == [GEM, HOTEL, BELLA, GEM, HOTEL]
    act(st, 0, Duel(MESSENGER, 2))
    act(st, 2, Defend(DERRINGER_2))
    no_holsters(st)
    assert st.est == [BELLA, HOTEL, GEM, GEM, HOTEL]
    assert of_type(st.events(None), StarMoved) == [StarMoved(0, GEM, BELLA, "duel"), StarMoved(2, BELLA, GEM, "duel")]
    assert st.to_act == (1,)


@pytest.mark.rule("deadwood1876", "duel.won")
def test_duel_lost_changes_nothing():
    """DUEL: if the defender succeeds, nothing happens."""
    st = table(5, 0, hands={0: [PEPPERBOX, DERRINGER, COLT, WINCHESTER], 2: [MESSENGER, *DUSTERS_1]}, rolls=[0, 1])
    act(st, 0, Duel(PEPPERBOX, 2))
    act(st, 2, Defend(MESSENGER))
    no_holsters(st)
    assert st.est == [GEM, HOTEL, BELLA, GEM, HOTEL]
    assert of_type(st.events(None), StarMoved) == []
    assert of_type(st.events(None), FightWon) == [FightWon("duel", 2, 0)]
    assert st.to_act == (1,)


@pytest.mark.rule("deadwood1876", "duel.send-away")
def test_duel_won_in_your_own_establishment_sends_the_loser_away():
    """DUEL: defeat someone in your own establishment and, instead of swapping, you send that player to
    an establishment of your choice with a vacancy (6 players: 3 per establishment)."""
    st = table(
        6,
        0,
        hands={0: [MESSENGER, DERRINGER, COLT, PEPPERBOX], 1: [DERRINGER_2, *DUSTERS_1]},
        est=[GEM, GEM, HOTEL, HOTEL, BELLA, BELLA],
        rolls=[4, 0],
    )
    act(st, 0, Duel(MESSENGER, 1))
    act(st, 1, Defend(DERRINGER_2))
    no_holsters(st)
    assert st.phase == "send_away" and st.to_act == (0,)
    assert st.legal_actions(0) == [SendAway(HOTEL), SendAway(BELLA)]
    assert st.view(3).fight is not None
    act(st, 0, SendAway(BELLA))
    assert st.est == [GEM, BELLA, HOTEL, HOTEL, BELLA, BELLA]
    assert of_type(st.events(None), StarMoved) == [StarMoved(1, GEM, BELLA, "sent_away")]
    assert st.phase == "turn" and st.to_act == (1,)


@pytest.mark.rule("deadwood1876", "duel.send-away")
def test_sending_away_only_offers_establishments_with_a_vacancy():
    """DUEL: send the loser to an establishment of your choice "if it has a vacancy"."""
    st = table(
        6,
        0,
        hands={0: [MESSENGER, DERRINGER, COLT, PEPPERBOX], 1: [DERRINGER_2, *DUSTERS_1]},
        est=[GEM, GEM, HOTEL, HOTEL, HOTEL, BELLA],
        rolls=[4, 0],
    )
    act(st, 0, Duel(MESSENGER, 1))
    act(st, 1, Defend(DERRINGER_2))
    no_holsters(st)
    assert st.legal_actions(0) == [SendAway(BELLA)]
    digest = st.digest()
    for action in (SendAway(HOTEL), SendAway(GEM)):
        with pytest.raises(engine.IllegalAction):
            st.apply(0, action)
    assert st.digest() == digest


@pytest.mark.rule("deadwood1876", "duel.send-away-no-vacancy")
def test_duel_won_in_your_own_establishment_without_a_vacancy_changes_nothing():
    """DUEL: the loser can only be sent to an establishment with a vacancy; with none, the loser stays
    (our decision). 8 players, 3 per establishment, the only free place is in the Gem Theatre."""
    st = table(
        8,
        0,
        hands={0: [MESSENGER, DERRINGER, COLT], 1: [DERRINGER_2, *DUSTERS_1[:2]]},
        est=[GEM, GEM, HOTEL, HOTEL, HOTEL, BELLA, BELLA, BELLA],
        rolls=[4, 0],
    )
    act(st, 0, Duel(MESSENGER, 1))
    act(st, 1, Defend(DERRINGER_2))
    no_holsters(st)
    assert of_type(st.events(None), FightWon) == [FightWon("duel", 0, 1)]
    assert st.est == [GEM, GEM, HOTEL, HOTEL, HOTEL, BELLA, BELLA, BELLA]
    assert of_type(st.events(None), StarMoved) == []
    assert st.phase == "turn" and st.to_act == (1,)


@pytest.mark.rule("deadwood1876", "duel.declare")
def test_duel_can_target_any_other_player():
    """DUEL: lay a gun in front of another player's character card (any establishment)."""
    st = table(5, 3, hands={3: [COLT, DERRINGER, PEPPERBOX, WINCHESTER]}, first=0)
    assert [a for a in st.legal_actions(3) if isinstance(a, Duel) and a.card == COLT] == [
        Duel(COLT, 0),
        Duel(COLT, 1),
        Duel(COLT, 2),
        Duel(COLT, 4),
    ]


# ---------------------------------------------------------------- replenishing


@pytest.mark.rule("deadwood1876", "turn.replenish")
def test_attacker_defender_and_used_holster_giver_draw_back_after_the_turn():
    """After each turn anyone who used a card (the current player, the defender and anyone who played a
    Holster) draws back to four; our order: clockwise from the current player."""
    st = table(
        5,
        3,
        hands={3: [MESSENGER, DERRINGER, COLT, PEPPERBOX], 1: [WINCHESTER, *DUSTERS_1], 4: [COLT_HOLSTER, *DUSTERS_2]},
        rolls=[1, 1, 1],
    )
    before = [list(h) for h in st.hands]
    deck = list(st.deck)
    act(st, 3, Duel(MESSENGER, 1))
    act(st, 1, Defend(WINCHESTER))
    act(st, 0, NoHolster())
    act(st, 2, NoHolster())
    act(st, 4, GiveHolster(COLT_HOLSTER, 1))
    assert of_type(st.events(None), FightWon) == [FightWon("duel", 1, 3)]
    assert of_type(st.events(None), CardsDrawn) == [CardsDrawn(3, 1), CardsDrawn(4, 1), CardsDrawn(1, 1)]
    assert st.hands[3] == [DERRINGER, COLT, PEPPERBOX, deck[-1]]
    assert st.hands[4] == [*DUSTERS_2, deck[-2]]
    assert st.hands[1] == [*DUSTERS_1, deck[-3]]
    assert st.hands[0] == before[0] and st.hands[2] == before[2]
    assert st.deck == deck[:-3]
    assert sorted(st.discard) == sorted([MESSENGER, WINCHESTER, COLT_HOLSTER])
    assert st.to_act == (4,)


@pytest.mark.rule("deadwood1876", "law.second")
def test_drawn_cards_are_shown_only_to_the_drawer():
    """SECOND LAW: you never show the cards in your hand; a draw is public only as a count."""
    horse = card("colt", "horse")
    st = table(5, 0, hands={0: [horse, DERRINGER, COLT, WINCHESTER]}, est=[GEM, GEM, HOTEL, HOTEL, BELLA])
    top = st.deck[-1]
    act(st, 0, RideHorse(horse, BELLA))
    assert of_type(st.events(0), CardsDrawn) == [CardsDrawn(0, 1, (st.card(top),))]
    for seat in (None, 1, 4):
        assert of_type(st.events(seat), CardsDrawn) == [CardsDrawn(0, 1)]


@pytest.mark.rule("deadwood1876", "deck.reshuffle")
def test_discard_pile_is_shuffled_into_a_new_deck_when_the_deck_runs_out():
    """Whenever the deck runs out, shuffle the discard pile and reform the deck."""
    horse = card("colt", "horse")
    st = table(
        5,
        0,
        hands={0: [horse, DERRINGER, COLT, WINCHESTER]},
        est=[GEM, GEM, HOTEL, HOTEL, BELLA],
        deck=[],
        chance=ReversingChance,
    )
    old = [card("pepperbox", "horse"), MESSENGER]
    st.discard = list(old)
    act(st, 0, RideHorse(horse, BELLA))
    assert of_type(st.events(None), DeckReshuffled) == [DeckReshuffled(3)]
    assert st.hands[0] == [DERRINGER, COLT, WINCHESTER, old[0]]
    assert st.deck == [horse, MESSENGER]
    assert st.discard == []


@pytest.mark.rule("deadwood1876", "deck.reshuffle")
@pytest.mark.rule("deadwood1876", "card.duster")
def test_deck_reforms_in_the_middle_of_a_duster_draw():
    """Whenever the deck runs out (here after two of the Duster's four cards), the discard pile becomes
    the new deck; the Duster itself is still on the table."""
    duster = card("pepperbox", "duster")
    deck = [card("colt", "horse"), card("winchester", "horse")]
    old = [card("pepperbox", "horse"), MESSENGER, COLT_HOLSTER]
    st = table(5, 0, hands={0: [duster, DERRINGER, COLT, WINCHESTER]}, deck=deck)
    st.discard = list(old)
    act(st, 0, UseDuster(duster))
    assert of_type(st.events(None), DeckReshuffled) == [DeckReshuffled(3)]
    assert st.hands[0] == [DERRINGER, COLT, WINCHESTER, deck[1], deck[0], old[2], old[1]]
    assert st.deck == [old[0]]
    assert st.discard == []
    assert duster in st.table_cards


# ---------------------------------------------------------------- a card laid is a card played


def naming(st: DeadwoodState, cards_laid: list[int]) -> list[Any]:
    """Every action offered to anyone now that names one of ``cards_laid``."""
    return [a for s in st.to_act for a in st.legal_actions(s) if getattr(a, "card", None) in cards_laid]


@pytest.mark.rule("deadwood1876", "play.card-laid")
def test_a_gun_laid_is_played_and_never_taken_back():
    """AS IN EVERY FAÇADE GAME, "A CARD LAID IS A CARD PLAYED": the attacker's gun leaves the hand as it is laid,
    face up for all to see; from then on no action of anyone's names it or the defender's gun (the attacker has
    nothing to decide until the fight is over, and laying it again is illegal); after the turn both lie on the
    discard pile and the hands are drawn back up from the deck."""
    st = table(5, 0, hands={0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER], 1: [MESSENGER, *DUSTERS_1]}, rolls=[3, 2])
    deck = list(st.deck)
    act(st, 0, Robbery(COLT, 1, 0))
    assert st.hands[0] == [DERRINGER, PEPPERBOX, WINCHESTER]
    assert st.view(None).fight.attack_card == st.card(COLT)
    assert st.to_act == (1,) and st.legal_actions(0) == []
    with pytest.raises(engine.IllegalAction):
        st.apply(0, Robbery(COLT, 1, 0))
    assert naming(st, [COLT]) == []
    act(st, 1, Defend(MESSENGER))
    assert st.hands[1] == DUSTERS_1
    assert st.phase == "holster" and naming(st, [COLT, MESSENGER]) == []
    no_holsters(st)
    assert of_type(st.events(None), FightWon) == [FightWon("robbery", 0, 1)]
    assert st.discard == [COLT, MESSENGER]
    assert st.hands[0] == [DERRINGER, PEPPERBOX, WINCHESTER, deck[-1]]
    assert st.hands[1] == [*DUSTERS_1, deck[-2]]
    assert st.to_act == (1,) and naming(st, [COLT, MESSENGER]) == []


@pytest.mark.rule("deadwood1876", "play.card-laid")
def test_an_item_laid_is_played_to_the_end():
    """AS IN EVERY FAÇADE GAME, "A CARD LAID IS A CARD PLAYED": a Stetson laid leaves nothing to do but view two
    Safes, and a Duster laid nothing but discarding three of the cards in hand; neither card comes back to the
    hand, and both end on the discard pile."""
    duster = DUSTERS_1[0]
    st = table(5, 0, hands={0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER], 1: [*DUSTERS_1, MESSENGER]})
    act(st, 0, UseStetson(COLT))
    assert COLT not in st.hands[0]
    for _ in range(2):
        assert st.phase == "stetson" and st.legal_actions(0)
        assert all(isinstance(a, ViewSafe) for a in st.legal_actions(0))
        act(st, 0, st.legal_actions(0)[0])
    assert st.discard == [COLT] and COLT not in st.hands[0]
    assert st.to_act == (1,)
    act(st, 1, UseDuster(duster))
    assert duster not in st.hands[1] and len(st.hands[1]) == 7
    for _ in range(3):
        legal = st.legal_actions(1)
        assert st.phase == "duster" and legal
        assert all(isinstance(a, Discard) and a.card in st.hands[1] for a in legal)
        act(st, 1, legal[0])
    assert duster in st.discard and duster not in st.hands[1] and len(st.hands[1]) == 4


# ---------------------------------------------------------------- illegal actions


def _illegal_position() -> DeadwoodState:
    horse = card("pepperbox", "horse")
    return table(
        6,
        0,
        hands={0: [horse, COLT, COLT_HOLSTER, card("colt", "duster")], 1: [MESSENGER, *DUSTERS_1]},
        est=[GEM, HOTEL, BELLA, GEM, HOTEL, BELLA],
    )


ILLEGAL_ON_A_TURN = [
    pytest.param(1, Duel(MESSENGER, 0), id="wrong-seat"),
    pytest.param(1, Robbery(MESSENGER, 0, 0), id="wrong-seat-robbery"),
    pytest.param(0, PassSafe(0), id="pass-safe-in-a-turn"),
    pytest.param(0, Defend(COLT), id="defend-in-a-turn"),
    pytest.param(0, NoHolster(), id="no-holster-in-a-turn"),
    pytest.param(0, Discard(COLT), id="discard-without-duster"),
    pytest.param(0, ViewSafe(1, 0), id="view-without-stetson"),
    pytest.param(0, SendAway(BELLA), id="send-away-in-a-turn"),
    pytest.param(0, HeistGun(COLT), id="heist-gun-in-a-turn"),
    pytest.param(0, Robbery(MESSENGER, 1, 0), id="card-not-in-hand-robbery"),
    pytest.param(0, Duel(WINCHESTER, 1), id="card-not-in-hand-duel"),
    pytest.param(0, UseDuster(card("winchester", "duster")), id="card-not-in-hand-duster"),
    pytest.param(0, Robbery(COLT, 0, 0), id="robbing-your-own-safe"),
    pytest.param(0, Duel(COLT, 0), id="dueling-yourself"),
    pytest.param(0, Robbery(COLT, 1, 2), id="robbing-a-safe-that-does-not-exist"),
    pytest.param(0, Duel(COLT, 6), id="dueling-a-seat-that-does-not-exist"),
    pytest.param(0, RideHorse(card("pepperbox", "horse"), GEM), id="horse-to-your-own-establishment"),
    pytest.param(0, RideHorse(COLT, HOTEL), id="stetson-used-as-a-horse"),
    pytest.param(0, UseStetson(card("colt", "duster")), id="duster-used-as-a-stetson"),
    pytest.param(0, AttachHolster(COLT_HOLSTER, 1, 0), id="attach-holster-with-six-players"),
    pytest.param(0, "duel", id="not-an-action"),
]


@pytest.mark.parametrize(("seat", "action"), ILLEGAL_ON_A_TURN)
@pytest.mark.rule("deadwood1876", "turn.play-one-card")
def test_illegal_actions_on_a_turn_are_refused_and_change_nothing(seat, action):
    """ON YOUR TURN: only the current player plays, one card from their own hand, against another
    player (engine contract: an illegal action raises IllegalAction and leaves the state unchanged)."""
    st = _illegal_position()
    digest, events = st.digest(), st.events(engine.OMNISCIENT)
    with pytest.raises(engine.IllegalAction):
        st.apply(seat, action)
    assert st.digest() == digest
    assert st.events(engine.OMNISCIENT) == events
    assert st.to_act == (0,)


ILLEGAL_IN_THE_HOLSTER_WINDOW = [
    pytest.param(0, GiveHolster(COLT_HOLSTER, 1), id="attacker-gives-a-holster"),
    pytest.param(1, NoHolster(), id="defender-answers-the-holster-window"),
    pytest.param(2, GiveHolster(COLT_HOLSTER, 2), id="holster-to-yourself"),
    pytest.param(2, GiveHolster(COLT_HOLSTER, 3), id="holster-to-a-non-fighter"),
    pytest.param(3, GiveHolster(COLT_HOLSTER, 0), id="holster-not-in-hand"),
    pytest.param(2, GiveHolster(DUSTERS_2[0], 0), id="duster-given-as-a-holster"),
    pytest.param(2, Defend(COLT_HOLSTER), id="defend-in-the-holster-window"),
]


@pytest.mark.parametrize(("seat", "action"), ILLEGAL_IN_THE_HOLSTER_WINDOW)
@pytest.mark.rule("deadwood1876", "holster.give")
@pytest.mark.rule("deadwood1876", "holster.one-per-giver")
def test_illegal_holsters_are_refused_and_change_nothing(seat, action):
    """HOLSTERS: only someone not fighting may give a Holster from their hand, to the attacker or the
    defender; never to themselves or anyone else."""
    st = table(
        5,
        0,
        hands={0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER], 1: [MESSENGER, *DUSTERS_1], 2: [COLT_HOLSTER, *DUSTERS_2]},
    )
    act(st, 0, Robbery(COLT, 1, 0))
    act(st, 1, Defend(MESSENGER))
    digest = st.digest()
    with pytest.raises(engine.IllegalAction):
        st.apply(seat, action)
    assert st.digest() == digest
    assert st.to_act == (2, 3, 4)


@pytest.mark.rule("deadwood1876", "holster.one-per-giver")
def test_a_holster_choice_cannot_be_changed():
    """HOLSTERS: one answer per player in the Holster window."""
    st = table(
        5,
        0,
        hands={0: [COLT, DERRINGER, PEPPERBOX, WINCHESTER], 1: [MESSENGER, *DUSTERS_1], 2: [COLT_HOLSTER, *DUSTERS_2]},
    )
    act(st, 0, Robbery(COLT, 1, 0))
    act(st, 1, Defend(MESSENGER))
    act(st, 2, NoHolster())
    digest = st.digest()
    with pytest.raises(engine.IllegalAction):
        st.apply(2, GiveHolster(COLT_HOLSTER, 0))
    assert st.digest() == digest


# ---------------------------------------------------------------- turn order


@pytest.mark.rule("deadwood1876", "play.first-player")
@pytest.mark.rule("deadwood1876", "heist.when")
def test_turns_go_clockwise_from_the_first_player_and_a_heist_follows_the_last():
    """HOW TO PLAY: the highest roller goes first, proceed clockwise; HEIST: each time the last player in
    the circle completes their turn, a Heist occurs (the top middle Safe is revealed)."""
    dusters = [card(gun, "duster") for gun in ("pepperbox", "derringer", "colt", "winchester", "messenger")]
    hands = {s: [dusters[s], *FILLER[3 * s + 12 : 3 * s + 15]] for s in range(5)}
    st = table(5, 2, hands=hands, first=2)
    top = st.middle[0]
    order = []
    while st.phase == "turn":
        order.append(st.current)
        duster_turn(st, st.current)
    assert order == [2, 3, 4, 0, 1]
    assert [(e.seat, e.circle) for e in of_type(st.events(None), TurnStarted)] == [(3, 1), (4, 1), (0, 1), (1, 1)]
    assert st.phase == "heist" and st.to_act == (0, 1, 2, 3, 4)
    assert of_type(st.events(None), HeistStarted) == [HeistStarted(1, COMP.safe_label(top))]
    assert st.view(0).heist_safe == COMP.safe_label(top)
    assert st.middle == BASE_SAFES[11:13]
