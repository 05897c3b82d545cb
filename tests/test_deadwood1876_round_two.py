"""Deadwood 1876, rules round two (issue 22): the Stranger in the Final Showdown's tie-break, the
Holster of a Safe blown up by the Explosives, and revealed Badges when their owner shuffles.

Positions are built exactly and dice are scripted (``tests.helpers``); the decisions tested here
are written in ``engine/deadwood1876/__init__.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.core import Outcome
from engine.deadwood1876.actions import (
    AttachHolster,
    Defend,
    Explode,
    FireGun,
    NoHolster,
    Robbery,
    UseDuster,
    UseStetson,
)
from engine.deadwood1876.events import (
    Advanced,
    BadgeRevealed,
    CharacterFlipped,
    GameOver,
    PlayerOut,
    SafeExploded,
    SafesRevealed,
    SafesShuffled,
)
from engine.deadwood1876.state import DeadwoodState
from tests.helpers import COMP, ReversingChance, act, card, new_state, play_out, position, safe

GEM, HOTEL, BELLA = 0, 1, 2
STRANGER = 2
"""In a 2-player game the Stranger is figure ``n`` = 2."""
CARDS = len(COMP.card_gun)

COLT = card("colt", "stetson")
WINCHESTER = card("winchester", "stetson")
MESSENGER = card("messenger", "stetson")
DERRINGER = card("derringer", "stetson")
COLT_STETSON_2 = card("colt", "stetson", exclude=[COLT])
PEPPERBOX_DUSTER = card("pepperbox", "duster")
DERRINGER_DUSTER = card("derringer", "duster")
COLT_DUSTER = card("colt", "duster")
WINCHESTER_HOLSTER = card("winchester", "holster")


def of_type(st: DeadwoodState, kind: type, seat: int | None = None) -> list[Any]:
    """The events of one type that ``seat`` sees (public by default)."""
    return [e for e in st.events(seat) if isinstance(e, kind)]


def labels(st: DeadwoodState, figure: int) -> list[str]:
    """The contents of ``figure``'s row, leftmost first."""
    return [COMP.safe_label(s) for s in st.rows[figure]]


def quiet_turn(st: DeadwoodState, seat: int) -> None:
    """``seat`` plays a turn that moves no star and no Safe: a Stetson viewing the first Safes offered,
    else a Duster discarding the first cards offered."""
    legal = st.legal_actions(seat)
    stetson = next((a for a in legal if isinstance(a, UseStetson)), None)
    if stetson is not None:
        act(st, seat, stetson)
        while st.phase == "stetson":
            act(st, seat, st.legal_actions(seat)[0])
        return
    act(st, seat, next(a for a in legal if isinstance(a, UseDuster)))
    while st.phase == "duster":
        act(st, seat, st.legal_actions(seat)[0])


def last_turn_position(
    players: int,
    rows: dict[int, list[str]],
    est: list[int],
    *,
    hands: dict[int, list[int]] | None = None,
    rolls: tuple[int, ...] = (),
    options: dict[str, Any] | None = None,
    chance: Any = None,
) -> DeadwoodState:
    """The start of the last seat's last turn of the game (first player 0)."""
    table = new_state(players, 7, options).table
    kwargs: dict[str, Any] = {} if chance is None else {"chance": chance}
    return position(
        players,
        players - 1,
        hands=hands,
        rows=rows,
        est=est,
        rolls=rolls,
        segment=table.middle_safes,
        circle=table.circles_per_segment - 1,
        options=options,
        **kwargs,
    )


def cards_everywhere(st: DeadwoodState) -> list[int]:
    """Every Deadwood card in a place of the state (between decisions, no fight under way)."""
    places = [*st.deck, *st.discard, *st.table_cards, *st.safe_holster.values(), *st.figure_holster.values()]
    for seat in range(st.n):
        places += [*st.hands[seat], *st.set_aside[seat]]
    return places


# ============================================================== the Stranger in the Showdown's tie-break


TWO_PLAYER_HANDS = {
    0: [COLT, WINCHESTER, MESSENGER, DERRINGER],
    1: [COLT_STETSON_2, PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER],
}


@pytest.mark.rule("deadwood1876", "showdown.tie-fewest-players")
@pytest.mark.rule("deadwood1876", "showdown.tie-stranger")
def test_showdown_tie_break_counts_players_not_the_stranger():
    """FINAL SHOWDOWN: "If multiple establishments are tied for the most Gold, the tied establishment with the
    fewest players advances. If still tied, all players in the tied establishments advance"; THE STRANGER: "The 3rd
    Law of Deadwood treats the Stranger as a player" (that law only). Seat 0 alone in the Gem ties seat 1 and the
    Stranger in the Bella (3 gold each): one player each, so both establishments advance; all three advancing is
    the CASH case: the Stranger is removed and the players fight to the death."""
    rows = {0: ["Gold 3"], 1: ["Gold 1"], STRANGER: ["Gold 2"]}
    # Showdown: Colt 0 vs Pepperbox 1 (seat 0 flips), then Derringer 0 vs Derringer 1 (seat 0 is out)
    st = last_turn_position(2, rows, [GEM, BELLA, BELLA], hands=TWO_PLAYER_HANDS, rolls=(0, 1, 0, 1))
    quiet_turn(st, 1)
    assert of_type(st, SafesRevealed)[0].gold == (3, 0, 3)
    assert of_type(st, Advanced) == [Advanced((0, 1, STRANGER))]
    assert st.phase == "showdown" and st.to_act == (0, 1) and st.proxy == -1
    act(st, 0, FireGun(COLT))
    act(st, 1, FireGun(PEPPERBOX_DUSTER))
    assert of_type(st, CharacterFlipped) == [CharacterFlipped(0)]
    act(st, 0, FireGun(DERRINGER))
    act(st, 1, FireGun(DERRINGER_DUSTER))
    assert of_type(st, PlayerOut) == [PlayerOut(0)]
    assert of_type(st, GameOver) == [GameOver((1,))]
    assert st.outcome == Outcome((0.0, 1.0), (2, 1), (1,))
    assert st.chance.rolls == []


@pytest.mark.rule("deadwood1876", "showdown.tie-fewest-players")
@pytest.mark.rule("deadwood1876", "two-player-showdown.stranger-alone")
@pytest.mark.rule("deadwood1876", "showdown.tie-stranger")
def test_showdown_tie_break_an_establishment_of_only_the_stranger_has_no_players():
    """Decision (see the game docstring): with the prototype's three establishments the Stranger can be alone in
    one. Tied for most gold with seat 0's Gem, the Stranger's Bella has fewer players (none) and advances alone:
    "If the Stranger goes to the Final Showdown alone, YOU AND YOUR OPPONENT BOTH LOSE"."""
    rows = {0: ["Gold 3"], 1: ["Gold 1"], STRANGER: ["Gold 3#2"]}
    options = {"prototype_rules": True}
    st = last_turn_position(2, rows, [GEM, HOTEL, BELLA], hands=TWO_PLAYER_HANDS, options=options)
    quiet_turn(st, 1)
    assert of_type(st, SafesRevealed)[0].gold == (3, 1, 3)
    assert of_type(st, Advanced) == [Advanced((STRANGER,))]
    assert of_type(st, GameOver) == [GameOver(())]
    assert st.outcome == Outcome((0.0, 0.0), (1, 1), ())


@pytest.mark.rule("deadwood1876", "showdown.tie-fewest-players")
@pytest.mark.rule("deadwood1876", "showdown.tie-stranger")
def test_seed_62_random_game_the_tie_goes_to_both_establishments():
    """The audit's game: 2 players, seed 62, random legal moves seeded 62. Seat 0 alone in the Bella ties seat 1
    and the Stranger in the Gem (6 gold each); counting the Stranger as a player sent seat 0 to the Showdown alone
    (the winner); counting players only, all three advance, the Stranger is removed, and seat 1 wins the fight."""
    st = engine.game("deadwood1876").new_game(2, 62)
    assert play_out(st, 62) == 50
    assert st.est == [BELLA, GEM, GEM]
    assert of_type(st, SafesRevealed)[0].gold == (6, 0, 6)
    assert of_type(st, Advanced) == [Advanced((0, 1, STRANGER))]
    assert of_type(st, PlayerOut) == [PlayerOut(0)]
    assert st.outcome == Outcome((0.0, 1.0), (2, 1), (1,))


# ============================================================== Explosives and an attached Holster


@pytest.mark.rule("deadwood1876", "mystery.explosives")
@pytest.mark.rule("deadwood1876", "mystery.explosives-targets")
def test_explosives_send_the_attached_holster_to_the_discard_pile():
    """MYSTERY SAFES, EXPLOSIVES: "owner chooses any 1 unrevealed Safe belonging to another player to remove from
    the game"; 2-3 PLAYER RULE ADJUSTMENTS, Holsters: "The attached Holster is then discarded". Decision: the Safe
    leaves the game, the Holster attached to it (a Deadwood card) goes to the discard pile face up. Every one of the
    50 Deadwood cards is still somewhere."""
    rows = {0: ["Explosives", "Gold 1"], 1: ["Gold 2"], 2: ["Gold 4"]}
    hands = {2: [WINCHESTER_HOLSTER, PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER]}
    st = last_turn_position(3, rows, [GEM, BELLA, BELLA], hands=hands, options={"mystery_safes": 5})
    assert sorted(cards_everywhere(st)) == list(range(CARDS))
    # seat 2's last turn: attach the Holster to its own Gold 4
    act(st, 2, AttachHolster(WINCHESTER_HOLSTER, 2, 0))
    assert st.safe_holster == {safe("Gold 4"): WINCHESTER_HOLSTER}
    assert st.phase == "explosives" and st.to_act == (0,)
    discard = list(st.discard)
    act(st, 0, Explode(2, 0))
    holster = st.card(WINCHESTER_HOLSTER)
    assert of_type(st, SafeExploded) == [SafeExploded(0, 2, 0, "Gold 4", holster)]
    assert of_type(st, SafeExploded, 1) == [SafeExploded(0, 2, 0, "Gold 4", holster)]
    assert st.rows[2] == [] and safe("Gold 4") in st.box
    assert st.safe_holster == {}
    assert st.discard == [*discard, WINCHESTER_HOLSTER]
    assert sorted(cards_everywhere(st)) == list(range(CARDS))
    # the Gem (1 gold) against the Bella (2 gold): seats 1 and 2 fight
    assert of_type(st, SafesRevealed)[0].gold == (1, 0, 2)
    assert of_type(st, Advanced) == [Advanced((1, 2))]


@pytest.mark.rule("deadwood1876", "mystery.explosives-targets")
def test_explosives_resample_keeps_the_discarded_holster_in_the_discard_pile():
    """Knowledge: the Holster was seen attached and then discarded face up, so a determinization for another seat
    leaves it in the discard pile (it is not redrawn as a hidden card)."""
    rows = {0: ["Explosives", "Gold 1"], 1: ["Gold 2"], 2: ["Gold 4"]}
    hands = {2: [WINCHESTER_HOLSTER, PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER]}
    st = last_turn_position(3, rows, [GEM, BELLA, BELLA], hands=hands, options={"mystery_safes": 5})
    act(st, 2, AttachHolster(WINCHESTER_HOLSTER, 2, 0))
    act(st, 0, Explode(2, 0))
    assert st.phase == "showdown"
    for seed in range(20):
        copy = st.resample(0, seed)
        assert WINCHESTER_HOLSTER in copy.discard
        assert sorted(cards_everywhere(copy)) == list(range(CARDS))


# ============================================================== revealed Badges when their owner shuffles


@pytest.mark.rule("deadwood1876", "law.first-revealed-badges-stay")
def test_a_revealed_badge_keeps_its_place_when_its_owner_shuffles():
    """Decision (listed in the game docstring): BADGES: "Revealed Badges have no value and can not be attacked";
    they lie face up. Seat 1 reveals its Tin Badge, robs seat 0's Gold 4 on its Badge turn and shuffles (the test's
    shuffle reverses): the face-down Safes change places around the Badge, which stays second."""
    rows = {0: ["Gold 4"], 1: ["Gold 1", "Tin Badge", "Gold 2"], 2: ["Gold 3"], 3: ["Gold 1#2"]}
    hands = {
        0: [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER, COLT_STETSON_2],
        1: [MESSENGER, WINCHESTER, COLT, DERRINGER],
    }
    # the Robbery: Messenger 4 against Pepperbox 0
    st = last_turn_position(4, rows, [GEM, GEM, BELLA, BELLA], hands=hands, rolls=(4, 0), chance=ReversingChance)
    quiet_turn(st, 3)
    assert of_type(st, BadgeRevealed) == [BadgeRevealed(1, 1, "Tin Badge")]
    assert st.phase == "turn" and st.current == 1
    act(st, 1, Robbery(MESSENGER, 0, 0))
    act(st, 0, Defend(PEPPERBOX_DUSTER))
    for seat in (2, 3):
        act(st, seat, NoHolster())
    assert of_type(st, SafesShuffled) == [SafesShuffled(1)]
    assert labels(st, 1) == ["Gold 4", "Tin Badge", "Gold 2", "Gold 1"]
    assert safe("Tin Badge") in st.revealed
    assert st.chance.rolls == []
