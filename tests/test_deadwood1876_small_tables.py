"""Deadwood 1876 at small and large tables: the 2-3 player rules, the Stranger, and 8-9 players.

Rulebook sections: 2-3 PLAYER RULE ADJUSTMENTS, ADDITIONAL 2-PLAYER ADJUSTMENTS (THE STRANGER),
THE FINAL SHOWDOWN FOR 2 PLAYER GAMES, the Set Up notes for 8-9 players and the ESTABLISHMENT
CAPACITY table; where the rulebook is silent, the decisions in ``engine/deadwood1876/__init__.py``.
Every position is built exactly and every die is scripted (``tests.helpers``): per roll round the
attacker's dice (gun, then Holster), then the defender's.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.core import Outcome
from engine.deadwood1876.actions import (
    AttachHolster,
    Defend,
    Duel,
    FireGun,
    GiveSafe,
    HeistGun,
    PassSafe,
    RideHorse,
    Robbery,
    SendAway,
    UseDuster,
    UseStetson,
    ViewSafe,
)
from engine.deadwood1876.events import (
    Advanced,
    BadgeRevealed,
    CardPlayed,
    CardsDrawn,
    CharacterFlipped,
    DiceRolled,
    FightWon,
    GameOver,
    HeistStarted,
    HolsterAttached,
    MysteryRevealed,
    PlayerOut,
    SafeGiven,
    SafesRevealed,
    SafeStolen,
    SafeViewed,
    StarMoved,
    StrangerPlaced,
    TurnStarted,
)
from engine.deadwood1876.state import DeadwoodState
from tests.helpers import (
    COMP,
    ReversingChance,
    ScriptedChance,
    act,
    card,
    new_state,
    position,
    safe,
)

GEM, HOTEL, BELLA = 0, 1, 2
STRANGER = 2
"""In a 2-player game the Stranger is figure ``n`` = 2."""

PEPPERBOX = card("pepperbox", "stetson")
DERRINGER = card("derringer", "stetson")
COLT = card("colt", "stetson")
WINCHESTER = card("winchester", "stetson")
MESSENGER = card("messenger", "stetson")
COLT_HOLSTER = card("colt", "holster")
WINCHESTER_HOLSTER = card("winchester", "holster")
MESSENGER_HOLSTER = card("messenger", "holster")
PEPPERBOX_DUSTER = card("pepperbox", "duster")
DERRINGER_DUSTER = card("derringer", "duster")
COLT_DUSTER = card("colt", "duster")


def of_type(st: DeadwoodState, kind: type, seat: int | None = None) -> list[Any]:
    """The events of one type that ``seat`` sees (public by default)."""
    return [e for e in st.events(seat) if isinstance(e, kind)]


def labels(st: DeadwoodState, figure: int) -> list[str]:
    """The contents of ``figure``'s row, leftmost first."""
    return [COMP.safe_label(s) for s in st.rows[figure]]


def random_game(players: int, seed: int, options: dict[str, Any] | None = None) -> tuple[DeadwoodState, set[int]]:
    """A whole game with random legal actions; returns it and every seat that was ever asked to act."""
    st = new_state(players, seed, options)
    rng = random.Random(seed)
    asked: set[int] = set()
    while not st.is_over:
        asked.update(st.to_act)
        seat = rng.choice(st.to_act)
        legal = st.legal_actions(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
    return st, asked


def circle_structure(st: DeadwoodState) -> list[Any]:
    """The seats whose (non-Badge) turns started, with "H" for each Heist, in order."""
    out: list[Any] = []
    for e in st.events(None):
        if isinstance(e, TurnStarted) and e.badge is None:
            out.append(e.seat)
        elif isinstance(e, HeistStarted):
            out.append("H")
    return out


def rehand(st: DeadwoodState, extra: dict[int, list[int]]) -> None:
    """Put the ``extra`` cards into those seats' hands, taking them from wherever they are."""
    moving = {c for cs in extra.values() for c in cs}
    for s in range(st.n):
        st.hands[s] = [c for c in st.hands[s] if c not in moving] + extra.get(s, [])
    st.deck = [c for c in st.deck if c not in moving]
    st.discard = [c for c in st.discard if c not in moving]


def last_turn(st: DeadwoodState, seat: int) -> None:
    """``seat`` plays its first Stetson and views the first Safe offered (ends the turn)."""
    stetson = next(a for a in st.legal_actions(seat) if isinstance(a, UseStetson))
    act(st, seat, stetson)
    act(st, seat, st.legal_actions(seat)[0])


# ============================================================== 2-3 players: the table


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.rule("deadwood1876", "setup.establishments")
@pytest.mark.rule("deadwood1876", "small.establishments")
def test_two_three_players_remove_the_grand_central_hotel(players):
    """SET UP 1: "In 2-3 player games, remove the Grand Central Hotel so that there are only two
    establishments"; stars start only in the two left, and no Horse rides to the Hotel."""
    st = new_state(players, 3)
    assert st.table.establishments == (GEM, BELLA)
    assert [e.name for e in st.view(None).establishments] == ["Gem Theatre", "Bella Union"]
    assert HOTEL not in st.est
    pos = position(players, 0, hands={0: [card("colt", "horse")]}, est=[GEM, GEM, BELLA])
    assert [a for a in pos.legal_actions(0) if isinstance(a, RideHorse)] == [RideHorse(card("colt", "horse"), BELLA)]


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 5), (3, 2), (3, 8)])
@pytest.mark.rule("deadwood1876", "small.two-circles")
def test_two_three_players_go_around_the_circle_twice_before_each_heist_and_after_the_last(players, seed):
    """2-3 PLAYER RULE ADJUSTMENTS 1: "Go around the circle twice before each Heist, and after the final
    Heist. This means that players will have a total of 8 turns during the game"."""
    st, _ = random_game(players, seed)
    order = [(st.first + k) % players for k in range(players)]
    assert circle_structure(st) == (order * 2 + ["H"]) * 3 + order * 2
    turns = [e for e in of_type(st, TurnStarted) if e.badge is None]
    assert [sum(e.seat == s for e in turns) for s in range(players)] == [8] * players
    assert [e.circle for e in turns if e.seat == st.first] == list(range(1, 9))
    assert [e.final for e in turns] == [False] * (6 * players) + [True] * (2 * players)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.rule("deadwood1876", "small.two-circles")
def test_two_three_players_view_counts_eight_turns(players):
    """2-3 PLAYER RULE ADJUSTMENTS 1: the view's ``turns_left`` counts the 8 turns of each player."""
    st = new_state(players, 4)
    for s in range(players):
        act(st, s, PassSafe(0))
    view = st.view(None)
    assert view.turns_left == 8 and view.circle == 1 and view.middle_safes == 3


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.rule("deadwood1876", "small.stetson")
def test_two_three_players_stetson_views_only_one_safe(players):
    """2-3 PLAYER RULE ADJUSTMENTS 2: "Stetsons allow players to view only one Safe instead of the usual
    two"; the turn ends after the one view."""
    est = [GEM, BELLA, BELLA]
    rows = {0: ["Gold 1"], 1: ["Gold 2", "Gold 3"], 2: ["Gold 4", "Tin Badge"]}
    st = position(players, 0, hands={0: [COLT, WINCHESTER, MESSENGER, DERRINGER]}, rows=rows, est=est)
    act(st, 0, UseStetson(COLT))
    assert st.phase == "stetson" and st.view(0).views_left == 1
    act(st, 0, ViewSafe(1, 1))
    assert of_type(st, SafeViewed, 0) == [SafeViewed(0, 1, 1, "Gold 3")]
    assert st.phase == "turn" and st.current == 1
    assert st.known[0] == {safe("Gold 3")}


@pytest.mark.rule("deadwood1876", "small.holster-attach")
def test_three_players_holsters_are_not_played_out_of_turn():
    """2-3 PLAYER RULE ADJUSTMENTS 3: "Holsters can not be played out of turn": a Robbery goes from the
    defending gun straight to the roll, though the third player holds Holsters."""
    hands = {
        0: [COLT, WINCHESTER, MESSENGER, DERRINGER],
        1: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER, PEPPERBOX],
        2: [COLT_HOLSTER, WINCHESTER_HOLSTER, MESSENGER_HOLSTER, card("pepperbox", "holster")],
    }
    st = position(3, 0, hands=hands, rows={1: ["Gold 2", "Gold 3"]}, est=[GEM, BELLA, BELLA], rolls=(3, 0))
    act(st, 0, Robbery(COLT, 1, 0))
    before = len(st.events(None))
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    after = st.events(None)[before:]
    assert after[:3] == [
        CardPlayed(1, st.card(PEPPERBOX_DUSTER), "defend"),
        DiceRolled("robbery", ((0, (("Colt", 3),), 3), (1, (("Pepperbox", 0),), 0))),
        FightWon("robbery", 0, 1),
    ]
    assert st.hands[2] == hands[2]
    assert st.phase == "turn" and st.current == 1


@pytest.mark.rule("deadwood1876", "small.holster-attach")
def test_two_three_players_holster_attaches_on_your_turn_to_any_safe_or_character_card():
    """2-3 PLAYER RULE ADJUSTMENTS 3: "for your turn you may attach a Holster to any Safe (including your own
    or another player's)"; "You can also attach a Holster to any player's character card (including your
    own)". Revealed Badges take none."""
    rows = {0: ["Gold 1"], 1: ["Gold 2", "Tin Badge"], 2: ["Gold 3"]}
    st = position(3, 0, hands={0: [COLT_HOLSTER, COLT, WINCHESTER, MESSENGER]}, rows=rows, est=[GEM, BELLA, BELLA])
    st.revealed.add(safe("Tin Badge"))
    attach = [a for a in st.legal_actions(0) if isinstance(a, AttachHolster)]
    assert attach == [
        AttachHolster(COLT_HOLSTER, 0, 0),
        AttachHolster(COLT_HOLSTER, 1, 0),
        AttachHolster(COLT_HOLSTER, 2, 0),
        AttachHolster(COLT_HOLSTER, 0, -1),
        AttachHolster(COLT_HOLSTER, 1, -1),
        AttachHolster(COLT_HOLSTER, 2, -1),
    ]


@pytest.mark.rule("deadwood1876", "stranger.holsters")
def test_two_players_holsters_attach_to_the_strangers_safes_and_character_card():
    """THE STRANGER: "You may attach Holsters to the Stranger's Safes or character card as described in the
    2-3 player rule adjustments"."""
    rows = {0: ["Gold 1"], 1: ["Gold 2"], STRANGER: ["Gold 3", "Gold 4"]}
    st = position(2, 0, hands={0: [COLT_HOLSTER, COLT, WINCHESTER, MESSENGER]}, rows=rows, est=[GEM, BELLA, GEM])
    attach = [a for a in st.legal_actions(0) if isinstance(a, AttachHolster)]
    assert attach == [
        AttachHolster(COLT_HOLSTER, 0, 0),
        AttachHolster(COLT_HOLSTER, 1, 0),
        AttachHolster(COLT_HOLSTER, STRANGER, 0),
        AttachHolster(COLT_HOLSTER, STRANGER, 1),
        AttachHolster(COLT_HOLSTER, 0, -1),
        AttachHolster(COLT_HOLSTER, 1, -1),
        AttachHolster(COLT_HOLSTER, STRANGER, -1),
    ]


@pytest.mark.rule("deadwood1876", "small.holster-attach-turn")
def test_attaching_a_holster_is_your_turns_card_and_you_draw_back_up():
    """2-3 PLAYER RULE ADJUSTMENTS 3 "for your turn you may attach a Holster"; decision: attaching is your
    turn's card, you draw back up like after any turn; the Holster is shown on the Safe to everyone."""
    hand = [COLT_HOLSTER, COLT, WINCHESTER, MESSENGER]
    st = position(3, 0, hands={0: hand}, rows={1: ["Gold 2", "Gold 3"]}, est=[GEM, BELLA, BELLA])
    top = st.deck[-1]
    act(st, 0, AttachHolster(COLT_HOLSTER, 1, 1))
    assert st.safe_holster == {safe("Gold 3"): COLT_HOLSTER}
    assert of_type(st, HolsterAttached) == [HolsterAttached(0, 1, 1, st.card(COLT_HOLSTER))]
    assert sorted(st.hands[0]) == sorted([COLT, WINCHESTER, MESSENGER, top])
    assert of_type(st, CardsDrawn) == [CardsDrawn(0, 1)]
    assert COLT_HOLSTER not in st.discard
    assert [v.holster for v in st.view(None).players[1].safes] == [None, st.card(COLT_HOLSTER)]
    assert st.phase == "turn" and st.current == 1


@pytest.mark.rule("deadwood1876", "small.holster-defends")
def test_attached_safe_holster_adds_its_gun_to_the_next_defence_then_is_discarded():
    """2-3 PLAYER RULE ADJUSTMENTS 3: "The next time that Safe is attacked it will be defended with a gun
    played by the defender plus the gun on the Holster. The attached Holster is then discarded"."""
    hands = {0: [MESSENGER, COLT, WINCHESTER, DERRINGER], 1: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER]}
    hands[1].append(PEPPERBOX)
    # Messenger 2 vs Pepperbox 0 + Winchester Holster 3 = 3: the defender keeps the Safe
    st = position(3, 0, hands=hands, rows={1: ["Gold 2", "Gold 3"]}, est=[GEM, BELLA, BELLA], rolls=(2, 0, 3))
    st.safe_holster[safe("Gold 3")] = WINCHESTER_HOLSTER
    act(st, 0, Robbery(MESSENGER, 1, 1))
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    assert of_type(st, DiceRolled) == [
        DiceRolled("robbery", ((0, (("Messenger", 2),), 2), (1, (("Pepperbox", 0), ("Winchester", 3)), 3)))
    ]
    assert of_type(st, CardPlayed)[-1] == CardPlayed(1, st.card(WINCHESTER_HOLSTER), "attached_holster")
    assert of_type(st, FightWon) == [FightWon("robbery", 1, 0)]
    assert st.safe_holster == {}
    assert st.discard == [MESSENGER, PEPPERBOX_DUSTER, WINCHESTER_HOLSTER]
    assert labels(st, 1) == ["Gold 2", "Gold 3"]


@pytest.mark.rule("deadwood1876", "small.holster-defends")
def test_attached_safe_holster_is_used_only_the_next_time_that_safe_is_attacked():
    """2-3 PLAYER RULE ADJUSTMENTS 3: the Holster joins only "the next time that Safe is attacked": an
    attack on another Safe of the same row leaves it attached."""
    hands = {0: [MESSENGER, COLT, WINCHESTER, DERRINGER], 1: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER]}
    hands[1].append(PEPPERBOX)
    st = position(3, 0, hands=hands, rows={1: ["Gold 2", "Gold 3"]}, est=[GEM, BELLA, BELLA], rolls=(2, 0))
    st.safe_holster[safe("Gold 3")] = WINCHESTER_HOLSTER
    act(st, 0, Robbery(MESSENGER, 1, 0))
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    assert of_type(st, DiceRolled) == [
        DiceRolled("robbery", ((0, (("Messenger", 2),), 2), (1, (("Pepperbox", 0),), 0)))
    ]
    assert st.safe_holster == {safe("Gold 3"): WINCHESTER_HOLSTER}
    assert labels(st, 1) == ["Gold 3"]
    assert st.chance.rolls == []


@pytest.mark.rule("deadwood1876", "small.holster-defends")
@pytest.mark.rule("deadwood1876", "small.holster-stays-with-safe")
def test_attached_safe_holster_is_discarded_even_when_the_safe_is_stolen():
    """2-3 PLAYER RULE ADJUSTMENTS 3: "The attached Holster is then discarded" whatever the result: the stolen
    Safe reaches the thief without it."""
    hands = {0: [MESSENGER, COLT, WINCHESTER, DERRINGER], 1: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER]}
    hands[1].append(PEPPERBOX)
    # Messenger 4 vs Pepperbox 0 + Colt Holster 1 = 1
    st = position(3, 0, hands=hands, rows={1: ["Gold 2", "Gold 3"]}, est=[GEM, BELLA, BELLA], rolls=(4, 0, 1))
    st.safe_holster[safe("Gold 3")] = COLT_HOLSTER
    act(st, 0, Robbery(MESSENGER, 1, 1))
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    assert of_type(st, FightWon) == [FightWon("robbery", 0, 1)]
    assert safe("Gold 3") in st.rows[0]
    assert st.safe_holster == {}
    assert COLT_HOLSTER in st.discard


@pytest.mark.rule("deadwood1876", "small.holster-defends")
def test_attached_character_holster_adds_its_gun_to_the_next_duel_defence():
    """2-3 PLAYER RULE ADJUSTMENTS 3: "The next time that player is Dueled against, they will defend with a gun
    from their hand plus the gun on the Holster"; then it is discarded."""
    hands = {0: [WINCHESTER, COLT, MESSENGER, DERRINGER], 1: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER]}
    hands[1].append(PEPPERBOX)
    # Winchester 3 vs Derringer 2 + Colt Holster 1 = 3: tie, reroll with the Holster: 1 vs 0 + 2 = 2
    st = position(3, 0, hands=hands, est=[GEM, BELLA, BELLA], rolls=(3, 2, 1, 1, 0, 2))
    st.figure_holster[1] = COLT_HOLSTER
    act(st, 0, Duel(WINCHESTER, 1))
    act(st, 1, Defend(DERRINGER_DUSTER))
    assert of_type(st, DiceRolled) == [
        DiceRolled("duel", ((0, (("Winchester", 3),), 3), (1, (("Derringer", 2), ("Colt", 1)), 3))),
        DiceRolled("duel", ((0, (("Winchester", 1),), 1), (1, (("Derringer", 0), ("Colt", 2)), 2))),
    ]
    assert of_type(st, FightWon) == [FightWon("duel", 1, 0)]
    assert st.figure_holster == {}
    assert st.est == [GEM, BELLA, BELLA]
    assert COLT_HOLSTER in st.discard


@pytest.mark.rule("deadwood1876", "small.holster-defends")
def test_character_holster_does_not_defend_a_robbery_and_safe_holster_does_not_defend_a_duel():
    """2-3 PLAYER RULE ADJUSTMENTS 3: a Safe's Holster defends that Safe, a character card's Holster defends
    its player in Duels: neither joins the other kind of fight."""
    hands = {0: [WINCHESTER, COLT, MESSENGER, DERRINGER], 1: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER]}
    hands[1].append(PEPPERBOX)
    st = position(3, 0, hands=hands, rows={1: ["Gold 2"]}, est=[GEM, BELLA, BELLA], rolls=(1, 2))
    st.figure_holster[1] = COLT_HOLSTER
    act(st, 0, Robbery(WINCHESTER, 1, 0))
    act(st, 1, Defend(DERRINGER_DUSTER))
    assert of_type(st, DiceRolled)[-1] == DiceRolled(
        "robbery", ((0, (("Winchester", 1),), 1), (1, (("Derringer", 2),), 2))
    )
    assert st.figure_holster == {1: COLT_HOLSTER}

    st = position(3, 0, hands=hands, rows={1: ["Gold 2"]}, est=[GEM, BELLA, BELLA], rolls=(1, 2))
    st.safe_holster[safe("Gold 2")] = COLT_HOLSTER
    act(st, 0, Duel(WINCHESTER, 1))
    act(st, 1, Defend(DERRINGER_DUSTER))
    assert of_type(st, DiceRolled)[-1] == DiceRolled(
        "duel", ((0, (("Winchester", 1),), 1), (1, (("Derringer", 2),), 2))
    )
    assert st.safe_holster == {safe("Gold 2"): COLT_HOLSTER}


@pytest.mark.rule("deadwood1876", "small.holster-one-per-safe")
@pytest.mark.rule("deadwood1876", "small.holster-attach-turn")
def test_only_one_holster_per_safe_and_per_character_card():
    """2-3 PLAYER RULE ADJUSTMENTS 3: "Only one Holster can be on a Safe at a time"; decision: one per
    character card too."""
    rows = {0: ["Gold 1"], 1: ["Gold 2", "Gold 3"], 2: ["Gold 4"]}
    st = position(3, 0, hands={0: [COLT_HOLSTER, COLT, WINCHESTER, MESSENGER]}, rows=rows, est=[GEM, BELLA, BELLA])
    st.safe_holster[safe("Gold 3")] = WINCHESTER_HOLSTER
    st.figure_holster[2] = MESSENGER_HOLSTER
    attach = [a for a in st.legal_actions(0) if isinstance(a, AttachHolster)]
    assert attach == [
        AttachHolster(COLT_HOLSTER, 0, 0),
        AttachHolster(COLT_HOLSTER, 1, 0),
        AttachHolster(COLT_HOLSTER, 2, 0),
        AttachHolster(COLT_HOLSTER, 0, -1),
        AttachHolster(COLT_HOLSTER, 1, -1),
    ]


@pytest.mark.rule("deadwood1876", "small.holster-no-shuffle")
@pytest.mark.rule("deadwood1876", "small.holster-keeps-place")
def test_a_holstered_safe_keeps_its_place_when_its_owner_shuffles():
    """2-3 PLAYER RULE ADJUSTMENTS 3: "Safes with Holsters on them cannot be shuffled"; decision: they keep
    their places, the loose Safes are shuffled among the other places, and a holstered Safe's place stays
    known to others."""
    hands = {0: [MESSENGER, COLT, WINCHESTER, DERRINGER], 1: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER]}
    hands[1].append(PEPPERBOX)
    rows = {0: ["Gold 1", "Gold 2"], 1: ["Gold 3"], 2: ["Gold 4"]}
    st = position(3, 0, hands=hands, rows=rows, est=[GEM, BELLA, BELLA], rolls=(4, 0), chance=ReversingChance)
    st.safe_holster[safe("Gold 1")] = COLT_HOLSTER
    st.known[2] = {safe("Gold 1"), safe("Gold 2")}
    act(st, 0, Robbery(MESSENGER, 1, 0))
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    # [Gold 1 (holstered), Gold 2, Gold 3] -> the loose [Gold 2, Gold 3] reversed into places 1 and 2
    assert labels(st, 0) == ["Gold 1", "Gold 3", "Gold 2"]
    assert st.safe_holster == {safe("Gold 1"): COLT_HOLSTER}
    assert st.known[2] == {safe("Gold 1")}
    assert st.view(2).players[0].safes[0].contents == "Gold 1"


@pytest.mark.rule("deadwood1876", "small.holster-no-shuffle")
@pytest.mark.rule("deadwood1876", "small.holster-stays-with-safe")
def test_a_holstered_safe_keeps_its_holster_when_given_away():
    """2-3 PLAYER RULE ADJUSTMENTS 3: "If a Safe with a Holster is given away, it retains its Holster"; the
    recipient's next defence of it uses the Holster."""
    hands = {0: [MESSENGER, COLT, WINCHESTER, DERRINGER], 1: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER]}
    hands[1].append(PEPPERBOX)
    rows = {0: ["Gold 1", "Gold 2", "Colt Showdown Gun"], 1: ["Gold 3", "Gold 4"], 2: ["Tin Badge"]}
    st = position(3, 0, hands=hands, rows=rows, est=[GEM, BELLA, BELLA], rolls=(4, 0))
    st.safe_holster[safe("Gold 2")] = WINCHESTER_HOLSTER
    act(st, 0, Robbery(MESSENGER, 1, 0))
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    assert st.phase == "give_safe" and st.to_act == (0,)
    assert st.legal_actions(0) == [GiveSafe(i, r) for i in range(4) for r in (1, 2)]
    act(st, 0, GiveSafe(1, 2))
    assert labels(st, 2) == ["Tin Badge", "Gold 2"]
    assert st.safe_holster == {safe("Gold 2"): WINCHESTER_HOLSTER}
    assert st.view(None).players[2].safes[1].holster == st.card(WINCHESTER_HOLSTER)
    # seat 2 is robbed of it later and defends with the Holster: Colt 3 vs Derringer 1 + Winchester 3
    st.chance = ScriptedChance([3, 1, 3])  # type: ignore[assignment]
    colt, derringer = card("colt", "stetson", exclude=[COLT]), card("derringer", "stetson", exclude=[DERRINGER])
    rehand(st, {1: [colt], 2: [derringer]})
    assert st.current == 1
    act(st, 1, Robbery(colt, 2, 1))
    act(st, 2, Defend(derringer))
    assert of_type(st, DiceRolled)[-1] == DiceRolled(
        "robbery", ((1, (("Colt", 3),), 3), (2, (("Derringer", 1), ("Winchester", 3)), 4))
    )
    assert st.safe_holster == {}


# ============================================================== 8-9 players


@pytest.mark.parametrize(("players", "capacity"), [(8, 3), (9, 4)])
@pytest.mark.rule("deadwood1876", "small.eight-nine")
@pytest.mark.rule("deadwood1876", "establishment.capacity")
def test_eight_nine_players_hands_of_three_two_middle_safes_and_capacity(players, capacity):
    """SET UP 3 "deal only three for 8-9 player games"; SET UP 4 "place only two for 8-9 player games";
    ESTABLISHMENT CAPACITY "6 - 8 PLAYERS 3 / ESTABLISHMENT", "9 PLAYERS 4 / ESTABLISHMENT"."""
    st = new_state(players, 2)
    assert [len(h) for h in st.hands] == [3] * players
    assert len(st.middle) == 2
    assert [e.capacity for e in st.view(None).establishments] == [capacity] * 3
    assert st.table.establishments == (GEM, HOTEL, BELLA)


@pytest.mark.parametrize(("players", "seed"), [(8, 1), (9, 3)])
@pytest.mark.rule("deadwood1876", "small.eight-nine")
@pytest.mark.rule("deadwood1876", "heist.final-turns")
def test_eight_nine_players_three_turns_each_and_two_heists(players, seed):
    """AFTER EACH TIME AROUND THE CIRCLE: "players will each have a total of four turns during the game (or three
    turns each in 8-9 player games)": one circle before each of the two Heists and after the last."""
    st, _ = random_game(players, seed)
    order = [(st.first + k) % players for k in range(players)]
    assert circle_structure(st) == order + ["H"] + order + ["H"] + order


@pytest.mark.rule("deadwood1876", "establishment.capacity")
@pytest.mark.rule("deadwood1876", "card.horse")
def test_nine_players_an_establishment_of_three_has_a_vacancy():
    """ESTABLISHMENT CAPACITY: with 9 players an establishment holds 4 stars, so a Horse may ride into one
    with 3."""
    horse = card("colt", "horse")
    st = position(
        9, 0, hands={0: [horse, COLT, WINCHESTER]}, est=[GEM, GEM, GEM, HOTEL, HOTEL, HOTEL, BELLA, BELLA, BELLA]
    )
    assert [a for a in st.legal_actions(0) if isinstance(a, RideHorse)] == [
        RideHorse(horse, HOTEL),
        RideHorse(horse, BELLA),
    ]


@pytest.mark.rule("deadwood1876", "establishment.capacity")
def test_eight_players_an_establishment_of_three_is_full():
    """ESTABLISHMENT CAPACITY: with 8 players an establishment holds 3 stars."""
    horse = card("colt", "horse")
    st = position(8, 0, hands={0: [horse, COLT, WINCHESTER]}, est=[GEM, GEM, GEM, HOTEL, HOTEL, HOTEL, BELLA, BELLA])
    assert [a for a in st.legal_actions(0) if isinstance(a, RideHorse)] == [RideHorse(horse, BELLA)]


@pytest.mark.rule("deadwood1876", "card.duster")
@pytest.mark.rule("deadwood1876", "small.eight-nine")
def test_eight_nine_players_duster_leaves_a_hand_of_three():
    """CARD DETAILS, DUSTER: "Of your now larger hand of seven cards (or six in 8 and 9-player games), discard
    three cards so that at the end of your turn you again have ... three in 8 and 9-player games"."""
    st = position(
        8, 0, hands={0: [PEPPERBOX_DUSTER, COLT, WINCHESTER]}, est=[GEM, GEM, GEM, HOTEL, HOTEL, HOTEL, BELLA, BELLA]
    )
    act(st, 0, UseDuster(PEPPERBOX_DUSTER))
    assert len(st.hands[0]) == 6
    for _ in range(3):
        act(st, 0, st.legal_actions(0)[0])
    assert len(st.hands[0]) == 3 and st.current == 1


# ============================================================== 2 players: the Stranger


def two_player_setup(rolls: list[int], seed: int = 3) -> tuple[DeadwoodState, list[int], list[int]]:
    """A 2-player game after both Safe passes, with scripted black dice; returns it, the stars and the
    box as they were before the Stranger came."""
    st = new_state(2, seed)
    st.chance = ScriptedChance(rolls)  # type: ignore[assignment]
    est, box = list(st.est), list(st.box)
    act(st, 0, PassSafe(0))
    act(st, 1, PassSafe(0))
    return st, est, box


@pytest.mark.rule("deadwood1876", "stranger.placement")
def test_stranger_goes_into_the_highest_black_die_rollers_establishment():
    """THE STRANGER: "Before beginning play, roll a black die. The highest roller places a star, representing
    "the Stranger", into their establishment ... Give the Stranger two face down Safes from the box"."""
    st, est, box = two_player_setup([2, 5, 6, 1])
    assert st.m == 3 and st.stranger == STRANGER
    assert st.est == [est[0], est[1], est[1]]
    assert st.rows[STRANGER] == box[:2]
    assert st.box == box[2:]
    assert of_type(st, StrangerPlaced) == [StrangerPlaced(1, STRANGER, est[1], 2)]
    rolled = of_type(st, DiceRolled)
    assert rolled[0] == DiceRolled("stranger", ((0, (("black", 2),), 2), (1, (("black", 5),), 5)))
    assert rolled[1].purpose == "first_player"
    assert st.first == 0 and st.phase == "turn" and st.to_act == (0,)


@pytest.mark.rule("deadwood1876", "stranger.placement")
def test_stranger_roll_ties_reroll():
    """HOW TO PLAY "Reroll to break ties" applied to the Stranger's black-die roll: the tied highest reroll."""
    st, est, _ = two_player_setup([4, 4, 6, 3, 1, 2])
    assert of_type(st, StrangerPlaced)[0].host == 0
    assert st.est[STRANGER] == est[0]
    assert st.first == 1


@pytest.mark.rule("deadwood1876", "stranger.placement")
@pytest.mark.rule("deadwood1876", "stranger.placement-timing")
def test_stranger_safes_are_seen_by_nobody():
    """THE STRANGER: "Give the Stranger two face down Safes from the box" (the box's Safes are unseen):
    neither player nor a spectator knows them."""
    st, _, _ = two_player_setup([6, 1, 6, 1])
    assert st.known[0].isdisjoint(st.rows[STRANGER]) and st.known[1].isdisjoint(st.rows[STRANGER])
    for seat in (None, 0, 1):
        stranger = st.view(seat).stranger
        assert stranger is not None
        assert [v.contents for v in stranger.safes] == [None, None]


@pytest.mark.rule("deadwood1876", "stranger.figure")
def test_stranger_is_a_figure_without_hand_or_turns_in_the_view():
    """THE STRANGER: "The Stranger does not have turns"; decision: it is figure n with a star, a row and the
    character after the players', but no hand."""
    st, _, _ = two_player_setup([6, 1, 6, 1])
    view = st.view(0)
    assert len(view.players) == 2
    assert view.stranger is not None
    assert (view.stranger.seat, view.stranger.stranger, view.stranger.hand_size) == (STRANGER, True, 0)
    assert view.stranger.character == COMP.character_names[2]
    assert STRANGER in next(e.seats for e in view.establishments if e.id == st.est[STRANGER])


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
@pytest.mark.rule("deadwood1876", "stranger.figure")
def test_stranger_never_has_turns_or_decisions(seed):
    """THE STRANGER: "The Stranger does not have turns": over whole random games it is never asked to act,
    nor does it take part in Heists."""
    st, asked = random_game(2, seed)
    assert asked == {0, 1}
    assert all(e.seat in (0, 1) for e in of_type(st, TurnStarted))
    heists = [e for e in of_type(st, DiceRolled) if e.purpose == "heist"]
    assert heists and all(r[0] in (0, 1) for e in heists for r in e.rolls)


@pytest.mark.rule("deadwood1876", "stranger.attacked")
def test_stranger_safes_can_be_viewed_with_a_stetson():
    """THE STRANGER: "their Safes can be viewed with Stetsons"; only the viewer learns the contents."""
    rows = {0: ["Gold 1"], 1: ["Gold 2"], STRANGER: ["Gold 3", "Colt Showdown Gun"]}
    st = position(2, 0, hands={0: [COLT, WINCHESTER, MESSENGER, DERRINGER]}, rows=rows, est=[GEM, BELLA, GEM])
    act(st, 0, UseStetson(COLT))
    assert st.legal_actions(0) == [ViewSafe(1, 0), ViewSafe(STRANGER, 0), ViewSafe(STRANGER, 1)]
    act(st, 0, ViewSafe(STRANGER, 1))
    assert of_type(st, SafeViewed, 0) == [SafeViewed(0, STRANGER, 1, "Colt Showdown Gun")]
    assert of_type(st, SafeViewed, 1) == [SafeViewed(0, STRANGER, 1)]
    assert [v.contents for v in st.view(0).stranger.safes] == [None, "Colt Showdown Gun"]
    assert [v.contents for v in st.view(1).stranger.safes] == [None, None]
    assert st.current == 1


@pytest.mark.rule("deadwood1876", "stranger.attacked")
def test_robbing_the_stranger_the_opponent_defends_from_their_own_hand():
    """THE STRANGER: "If you attack the Stranger's Safes ... your opponent will act as the Stranger and play cards
    from their own hand in defense ... even if they don't know the contents of a Safe being attacked"; the
    opponent draws back up like any defender."""
    hands = {
        0: [MESSENGER, COLT, WINCHESTER, DERRINGER],
        1: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER, PEPPERBOX],
    }
    rows = {0: ["Gold 1"], 1: ["Gold 2"], STRANGER: ["Gold 4", "Colt Showdown Gun"]}
    st = position(2, 0, hands=hands, rows=rows, est=[GEM, BELLA, GEM], rolls=(3, 1))
    act(st, 0, Robbery(MESSENGER, STRANGER, 0))
    assert st.phase == "defend" and st.to_act == (1,)
    fight = st.view(1).fight
    assert fight is not None and (fight.attacker, fight.defender, fight.index) == (0, STRANGER, 0)
    assert st.view(1).stranger.safes[0].contents is None
    assert st.legal_actions(1) == [Defend(c) for c in sorted(hands[1])]
    act(st, 1, Defend(DERRINGER_DUSTER))
    assert of_type(st, DiceRolled) == [
        DiceRolled("robbery", ((0, (("Messenger", 3),), 3), (STRANGER, (("Derringer", 1),), 1)))
    ]
    assert of_type(st, FightWon) == [FightWon("robbery", 0, STRANGER)]
    assert labels(st, STRANGER) == ["Colt Showdown Gun"]
    assert sorted(labels(st, 0)) == ["Gold 1", "Gold 4"]
    assert of_type(st, SafeStolen, 0) == [SafeStolen(0, STRANGER, 0, "Gold 4")]
    assert of_type(st, SafeStolen, 1) == [SafeStolen(0, STRANGER, 0)]
    assert len(st.hands[1]) == 4 and DERRINGER_DUSTER in st.discard
    assert st.current == 1


@pytest.mark.rule("deadwood1876", "stranger.holsters")
def test_robbing_the_stranger_uses_the_holster_attached_to_its_safe():
    """THE STRANGER: "Attached Holsters will be used by the player acting as the Stranger to defend against
    applicable Robberies"."""
    hands = {
        0: [MESSENGER, COLT, WINCHESTER, DERRINGER],
        1: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER, PEPPERBOX],
    }
    rows = {0: ["Gold 1"], 1: ["Gold 2"], STRANGER: ["Gold 4", "Colt Showdown Gun"]}
    # Messenger 3 vs Pepperbox 1 + Messenger Holster 4 = 5
    st = position(2, 0, hands=hands, rows=rows, est=[GEM, BELLA, GEM], rolls=(3, 1, 4))
    st.safe_holster[safe("Gold 4")] = MESSENGER_HOLSTER
    act(st, 0, Robbery(MESSENGER, STRANGER, 0))
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    assert of_type(st, DiceRolled) == [
        DiceRolled("robbery", ((0, (("Messenger", 3),), 3), (STRANGER, (("Pepperbox", 1), ("Messenger", 4)), 5)))
    ]
    assert of_type(st, CardPlayed)[-1] == CardPlayed(1, st.card(MESSENGER_HOLSTER), "attached_holster")
    assert of_type(st, FightWon) == [FightWon("robbery", STRANGER, 0)]
    assert labels(st, STRANGER) == ["Gold 4", "Colt Showdown Gun"]
    assert st.safe_holster == {}


@pytest.mark.rule("deadwood1876", "stranger.attacked")
def test_dueling_the_stranger_swaps_positions():
    """THE STRANGER: "You can also Duel against the Stranger to swap positions with them"; the opponent
    defends."""
    hands = {
        0: [MESSENGER, COLT, WINCHESTER, DERRINGER],
        1: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER, PEPPERBOX],
    }
    st = position(2, 0, hands=hands, est=[GEM, BELLA, BELLA], rolls=(3, 0))
    act(st, 0, Duel(MESSENGER, STRANGER))
    assert st.to_act == (1,)
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    assert st.est == [BELLA, BELLA, GEM]
    assert of_type(st, StarMoved) == [StarMoved(0, GEM, BELLA, "duel"), StarMoved(STRANGER, BELLA, GEM, "duel")]


@pytest.mark.rule("deadwood1876", "stranger.attacked")
def test_dueling_the_stranger_kicks_it_out_of_your_establishment():
    """THE STRANGER: Duel the Stranger "to kick them out of your establishment"."""
    hands = {
        0: [MESSENGER, COLT, WINCHESTER, DERRINGER],
        1: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER, PEPPERBOX],
    }
    st = position(2, 0, hands=hands, est=[GEM, BELLA, GEM], rolls=(3, 0))
    act(st, 0, Duel(MESSENGER, STRANGER))
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    assert st.phase == "send_away" and st.legal_actions(0) == [SendAway(BELLA)]
    act(st, 0, SendAway(BELLA))
    assert st.est == [GEM, BELLA, BELLA]
    assert of_type(st, StarMoved) == [StarMoved(STRANGER, GEM, BELLA, "sent_away")]


@pytest.mark.rule("deadwood1876", "stranger.holsters")
def test_dueling_the_stranger_uses_the_holster_on_its_character_card():
    """THE STRANGER: attached Holsters are used by the player acting as the Stranger against "applicable
    Robberies or Duels"."""
    hands = {
        0: [MESSENGER, COLT, WINCHESTER, DERRINGER],
        1: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER, PEPPERBOX],
    }
    # Messenger 3 vs Pepperbox 1 + Winchester Holster 3 = 4
    st = position(2, 0, hands=hands, est=[GEM, BELLA, BELLA], rolls=(3, 1, 3))
    st.figure_holster[STRANGER] = WINCHESTER_HOLSTER
    act(st, 0, Duel(MESSENGER, STRANGER))
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    assert of_type(st, DiceRolled) == [
        DiceRolled("duel", ((0, (("Messenger", 3),), 3), (STRANGER, (("Pepperbox", 1), ("Winchester", 3)), 4)))
    ]
    assert of_type(st, FightWon) == [FightWon("duel", STRANGER, 0)]
    assert st.est == [GEM, BELLA, BELLA] and st.figure_holster == {}


@pytest.mark.rule("deadwood1876", "stranger.third-law")
def test_third_law_the_stranger_can_be_the_only_recipient():
    """THE STRANGER: "The 3rd Law of Deadwood treats the Stranger as a player": with the fewest Safes it receives
    the fourth, laid at the right end without shuffling."""
    hands = {
        0: [MESSENGER, COLT, WINCHESTER, DERRINGER],
        1: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER, PEPPERBOX],
    }
    rows = {
        0: ["Gold 1", "Gold 2", "Gold 3"],
        1: ["Gold 4", "Tin Badge", "Iron Badge"],
        STRANGER: ["Gold 1#2", "Gold 4#2"],
    }
    st = position(2, 0, hands=hands, rows=rows, est=[GEM, BELLA, GEM], rolls=(3, 0), chance=ReversingChance)
    act(st, 0, Robbery(MESSENGER, STRANGER, 1))
    assert st.phase == "defend"
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    assert st.phase == "give_safe"
    assert st.legal_actions(0) == [GiveSafe(i, STRANGER) for i in range(4)]
    act(st, 0, GiveSafe(0, STRANGER))
    assert labels(st, STRANGER) == ["Gold 1", "Gold 1"]
    assert of_type(st, SafeGiven, 1) == [SafeGiven(0, STRANGER, 0)]
    assert of_type(st, SafeGiven, 0) == [SafeGiven(0, STRANGER, 0, "Gold 1")]


@pytest.mark.rule("deadwood1876", "stranger.third-law")
@pytest.mark.rule("deadwood1876", "law.third")
def test_third_law_the_stranger_tied_for_fewest_lets_the_giver_choose():
    """THE 3 LAWS 3 "you pick the recipient if there is a tie", the Stranger counted as a player."""
    hands = {
        0: [MESSENGER, COLT, WINCHESTER, DERRINGER],
        1: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER, PEPPERBOX],
    }
    rows = {
        0: ["Gold 1", "Gold 2", "Gold 3"],
        1: ["Gold 4", "Tin Badge", "Iron Badge"],
        STRANGER: ["Gold 1#2", "Gold 4#2"],
    }
    st = position(2, 0, hands=hands, rows=rows, est=[GEM, BELLA, GEM], rolls=(3, 0))
    act(st, 0, Robbery(MESSENGER, 1, 0))
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    assert st.legal_actions(0) == [GiveSafe(i, r) for i in range(4) for r in (1, STRANGER)]


def final_two_player(
    rows: dict[int, list[str]],
    est: list[int],
    hands: dict[int, list[int]] | None = None,
    rolls: tuple[int, ...] = (),
    options: dict[str, Any] | None = None,
) -> DeadwoodState:
    """2 players: seat 1's last turn of the game (first player 0): it plays a Stetson; then the Badge Round
    (if a player owns a Badge) and the Final Showdown follow."""
    hands = dict(hands or {})
    hands.setdefault(0, [COLT, WINCHESTER, MESSENGER, DERRINGER])
    hands.setdefault(1, [card("colt", "stetson", exclude=[COLT]), PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER])
    st = position(2, 1, hands=hands, rows=rows, est=est, rolls=rolls, segment=3, circle=1, options=options)
    last_turn(st, 1)
    return st


@pytest.mark.rule("deadwood1876", "stranger.badge-round")
def test_stranger_badges_are_not_revealed_in_the_badge_round():
    """THE STRANGER: "During the Badge Round, Badges ... owned by the Stranger are not revealed and have no effect"
    (no extra turn); a player's Badge still gives a turn."""
    rows = {0: ["Gold 1"], 1: ["Iron Badge", "Gold 2"], STRANGER: ["Tin Badge", "Gold Badge"]}
    stetsons = [card("colt", "stetson", exclude=[COLT]), card("winchester", "stetson")]
    st = final_two_player(rows, [GEM, BELLA, GEM], hands={1: [*stetsons, PEPPERBOX_DUSTER, DERRINGER_DUSTER]})
    assert of_type(st, BadgeRevealed) == [BadgeRevealed(1, 0, "Iron Badge")]
    assert [(e.seat, e.badge) for e in of_type(st, TurnStarted) if e.badge] == [(1, "Iron Badge")]
    assert st.revealed == {safe("Iron Badge")}
    assert st.phase == "turn" and st.current == 1
    last_turn(st, 1)
    assert st.is_over
    assert len(of_type(st, BadgeRevealed)) == 1


@pytest.mark.rule("deadwood1876", "stranger.badge-round")
def test_stranger_starred_mystery_safes_do_nothing():
    """THE STRANGER: "starred Safes (Explosives, Dagger, Poker Deck) owned by the Stranger are not revealed and
    have no effect"."""
    rows = {0: ["Gold 1"], 1: ["Gold 2"], STRANGER: ["Dagger", "Explosives", "Poker Deck"]}
    st = final_two_player(rows, [GEM, BELLA, GEM], options={"mystery_safes": 5})
    assert of_type(st, MysteryRevealed) == []
    assert st.dagger == {} and st.gold_bonus == [0, 0, 0]
    assert of_type(st, SafesRevealed)[0].gold == (1, 0, 2)
    assert of_type(st, Advanced) == [Advanced((1,))]
    assert st.outcome.winners == (1,)


# ============================================================== 2 players: the Final Showdown


@pytest.mark.rule("deadwood1876", "two-player-showdown.alone")
def test_two_player_showdown_you_alone_win():
    """THE FINAL SHOWDOWN FOR 2 PLAYER GAMES: "If you go to the Final Showdown alone, YOU WIN"; the Stranger's gold
    counts for its establishment."""
    rows = {0: ["Gold 4"], 1: ["Gold 1"], STRANGER: ["Gold 2"]}
    st = final_two_player(rows, [GEM, BELLA, BELLA])
    assert of_type(st, SafesRevealed)[0].gold == (4, 0, 3)
    assert of_type(st, Advanced) == [Advanced((0,))]
    assert st.outcome == Outcome((1.0, 0.0), (1, 2), (0,))


@pytest.mark.rule("deadwood1876", "two-player-showdown.opponent")
def test_two_player_showdown_you_and_your_opponent_fight():
    """THE FINAL SHOWDOWN FOR 2 PLAYER GAMES: "If you go to the Final Showdown with your opponent, follow normal
    rules and FIGHT YOUR OPPONENT TO THE DEATH", each with their own Showdown Guns."""
    rows = {0: ["Gold 4", "Colt Showdown Gun"], 1: ["Gold 1", "Messenger Showdown Gun"], STRANGER: ["Gold 3"]}
    hands = {0: [COLT, WINCHESTER, MESSENGER, DERRINGER]}
    st = final_two_player(rows, [GEM, GEM, BELLA], hands=hands, rolls=(0, 0, 1, 1))
    assert of_type(st, Advanced) == [Advanced((0, 1))]
    assert st.phase == "showdown" and st.to_act == (0, 1) and st.proxy == -1
    assert st.view(0).acting_as_stranger == -1
    act(st, 0, FireGun(COLT))
    act(st, 1, FireGun(PEPPERBOX_DUSTER))
    assert of_type(st, DiceRolled)[-1] == DiceRolled(
        "showdown", ((0, (("Colt", 0), ("Colt", 0)), 0), (1, (("Pepperbox", 1), ("Messenger", 1)), 2))
    )
    assert of_type(st, CharacterFlipped) == [CharacterFlipped(0)]


def you_and_the_stranger(rolls: tuple[int, ...]) -> DeadwoodState:
    """Seat 0 and the Stranger (Winchester Showdown Gun) advance from the Gem; seat 1 (Messenger Showdown Gun)
    stays in the Bella and fights as the Stranger."""
    rows = {
        0: ["Gold 4", "Colt Showdown Gun"],
        1: ["Gold 1", "Messenger Showdown Gun"],
        STRANGER: ["Gold 2", "Winchester Showdown Gun"],
    }
    hands = {0: [COLT, WINCHESTER, MESSENGER, DERRINGER]}
    return final_two_player(rows, [GEM, BELLA, GEM], hands=hands, rolls=rolls)


@pytest.mark.rule("deadwood1876", "two-player-showdown.with-stranger")
@pytest.mark.rule("deadwood1876", "two-player-showdown.stranger-guns")
def test_two_player_showdown_with_the_stranger_your_opponent_becomes_the_stranger():
    """THE FINAL SHOWDOWN FOR 2 PLAYER GAMES: "If you go to the Final Showdown with the Stranger, your opponent
    becomes the Stranger. Your opponent will use guns from their own hand plus any Showdown Guns owned by the
    Stranger. Showdown Guns owned by your opponent are not used"."""
    st = you_and_the_stranger((1, 1, 0, 3))
    assert of_type(st, Advanced) == [Advanced((0, STRANGER))]
    assert st.phase == "showdown" and st.to_act == (0, 1)
    assert st.proxy == 1
    assert [st.view(s).acting_as_stranger for s in (None, 0, 1)] == [1, 1, 1]
    act(st, 0, FireGun(COLT))
    act(st, 1, FireGun(PEPPERBOX_DUSTER))
    assert of_type(st, DiceRolled)[-1] == DiceRolled(
        "showdown", ((0, (("Colt", 1), ("Colt", 1)), 2), (1, (("Pepperbox", 0), ("Winchester", 3)), 3))
    )
    assert of_type(st, CharacterFlipped) == [CharacterFlipped(0)]


@pytest.mark.rule("deadwood1876", "two-player-showdown.with-stranger")
def test_two_player_showdown_opponent_acting_as_the_stranger_wins_by_defeating_you():
    """THE FINAL SHOWDOWN FOR 2 PLAYER GAMES: "If your opponent acting as the Stranger defeats you in the Final
    Showdown, YOUR OPPONENT WINS!"."""
    st = you_and_the_stranger((0, 0, 1, 1) * 2)
    for mine, theirs in ((COLT, PEPPERBOX_DUSTER), (DERRINGER, DERRINGER_DUSTER)):
        act(st, 0, FireGun(mine))
        act(st, 1, FireGun(theirs))
    assert of_type(st, PlayerOut) == [PlayerOut(0)]
    assert of_type(st, GameOver) == [GameOver((1,))]
    assert st.outcome == Outcome((0.0, 1.0), (2, 1), (1,))
    assert st.view(None).winners == (1,)


@pytest.mark.rule("deadwood1876", "two-player-showdown.with-stranger")
def test_two_player_showdown_you_win_by_defeating_the_stranger():
    """THE FINAL SHOWDOWN FOR 2 PLAYER GAMES: you fight the opponent acting as the Stranger "to the death"; if
    you defeat them, you win."""
    st = you_and_the_stranger((3, 3, 0, 1) * 2)
    for mine, theirs in ((COLT, PEPPERBOX_DUSTER), (WINCHESTER, DERRINGER_DUSTER)):
        act(st, 0, FireGun(mine))
        act(st, 1, FireGun(theirs))
    assert of_type(st, PlayerOut) == [PlayerOut(1)]
    assert st.outcome == Outcome((1.0, 0.0), (1, 2), (0,))


@pytest.mark.rule("deadwood1876", "two-player-showdown.stranger-alone")
def test_two_player_showdown_the_stranger_alone_both_lose():
    """THE FINAL SHOWDOWN FOR 2 PLAYER GAMES: "If the Stranger goes to the Final Showdown alone, YOU AND YOUR
    OPPONENT BOTH LOSE"; decision: both score 0 and share rank 1."""
    rows = {0: ["Gold 1"], 1: ["Gold 2"], STRANGER: ["Gold 4"]}
    st = final_two_player(rows, [GEM, GEM, BELLA])
    assert of_type(st, Advanced) == [Advanced((STRANGER,))]
    assert of_type(st, GameOver) == [GameOver(())]
    assert st.outcome.winners == ()
    assert st.outcome == Outcome((0.0, 0.0), (1, 1), ())
    assert st.to_act == () and st.view(None).winners == ()


@pytest.mark.rule("deadwood1876", "showdown.tie-fewest-players")
@pytest.mark.rule("deadwood1876", "showdown.tie-stranger")
def test_two_player_showdown_a_gold_tie_with_the_stranger_goes_to_the_fewest_players():
    """FINAL SHOWDOWN: "the tied establishment with the fewest players advances", players only (the Stranger is a
    player for the Third Law alone): a lone player ties the other player and the Stranger, one player each, so all
    advance and the Stranger is removed (more in ``test_deadwood1876_round_two.py``)."""
    rows = {0: ["Gold 3"], 1: ["Gold 1"], STRANGER: ["Gold 2"]}
    st = final_two_player(rows, [GEM, BELLA, BELLA])
    assert of_type(st, SafesRevealed)[0].gold == (3, 0, 3)
    assert of_type(st, Advanced) == [Advanced((0, 1, STRANGER))]
    assert st.phase == "showdown" and st.to_act == (0, 1) and st.proxy == -1


@pytest.mark.rule("deadwood1876", "stranger.figure")
@pytest.mark.rule("deadwood1876", "heist.guns")
def test_stranger_takes_no_part_in_heists():
    """THE STRANGER: "The Stranger does not have turns" and no hand: only the two players commit Heist guns."""
    hands = {
        0: [COLT, WINCHESTER, MESSENGER, DERRINGER],
        1: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER, PEPPERBOX],
    }
    st = position(2, 1, hands=hands, rows={0: ["Gold 1"], 1: ["Gold 2"], STRANGER: ["Gold 3"]}, est=[GEM, BELLA, BELLA])
    st.circle = 1
    act(st, 1, UseStetson(PEPPERBOX))
    act(st, 1, st.legal_actions(1)[0])
    assert st.phase == "heist" and st.to_act == (0, 1)
    assert st.legal_actions(STRANGER) == []
    act(st, 0, HeistGun(COLT))
    st.chance = ScriptedChance([3, 0])  # type: ignore[assignment]
    act(st, 1, HeistGun(PEPPERBOX_DUSTER))
    assert labels(st, STRANGER) == ["Gold 3"]
