"""Deadwood 1876's optional rules (rulebook: OPTIONAL ADVANCED RULES) and the ``prototype_rules`` option.

Mystery Safes, "Peace-Lovin'" and "Fair Share" team victories, the Horse Thief, the Dutch prototype
rulebook (``shared/rules/deadwood1876.nl-prototype.txt``), option parsing, and a property test over
every valid combination of players and options. Where the rulebook is silent the tests follow the
decisions in ``engine/deadwood1876/__init__.py``. Positions are built exactly and dice are scripted
(``tests.helpers``).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import engine
from engine.core import OMNISCIENT, InvalidOptions, Outcome
from engine.deadwood1876 import Options
from engine.deadwood1876.actions import (
    AttachHolster,
    ChooseDagger,
    Defend,
    Duel,
    Explode,
    FireGun,
    GiveHolster,
    GiveSafe,
    GiveToStranger,
    HorseThief,
    NoHolster,
    PassSafe,
    PokerGun,
    Robbery,
    UseDuster,
    UseStetson,
    ViewSafe,
)
from engine.deadwood1876.components import MYSTERY
from engine.deadwood1876.events import (
    Advanced,
    CardsDrawn,
    CharacterFlipped,
    DaggerChosen,
    DiceRolled,
    FightWon,
    GameOver,
    HeistStarted,
    HorseThiefJoined,
    MysteryRevealed,
    PokerDeckPlayed,
    SafeExploded,
    SafeGivenToStranger,
    SafesRevealed,
    SafeStolen,
    StrangerPlaced,
    TeamVictory,
    TurnStarted,
)
from engine.deadwood1876.state import DeadwoodState
from tests.helpers import (
    BASE_SAFES,
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
MYSTERIES = {"mystery_safes": 5}

PEPPERBOX = card("pepperbox", "stetson")
DERRINGER = card("derringer", "stetson")
COLT = card("colt", "stetson")
WINCHESTER = card("winchester", "stetson")
MESSENGER = card("messenger", "stetson")
COLT_2 = card("colt", "stetson", exclude=[COLT])
COLT_3 = card("colt", "stetson", exclude=[COLT, COLT_2])
WINCHESTER_2 = card("winchester", "stetson", exclude=[WINCHESTER])
MESSENGER_2 = card("messenger", "stetson", exclude=[MESSENGER])
MESSENGER_3 = card("messenger", "stetson", exclude=[MESSENGER, MESSENGER_2])
COLT_HOLSTER = card("colt", "holster")
PEPPERBOX_DUSTER = card("pepperbox", "duster")
DERRINGER_DUSTER = card("derringer", "duster")
COLT_DUSTER = card("colt", "duster")
COLT_DUSTER_2 = card("colt", "duster", exclude=[COLT_DUSTER])
WHITE_HORSE = card("winchester", "horse", white=True)
BROWN_HORSE = card("colt", "horse", white=False)
WHITE_PEPPERBOX_HORSE = card("pepperbox", "horse", white=True)
GUNS_0 = [COLT, WINCHESTER, MESSENGER, DERRINGER]
DUSTERS_1 = [PEPPERBOX_DUSTER, DERRINGER_DUSTER, COLT_DUSTER, PEPPERBOX]


def pass_turn(st: DeadwoodState, seat: int) -> None:
    """``seat`` plays a turn that changes no star or Safe: a Stetson (viewing the first Safes offered) if it
    has one, else a Duster (discarding the first cards offered)."""
    legal = st.legal_actions(seat)
    stetson = next((a for a in legal if isinstance(a, UseStetson)), None)
    if stetson is not None:
        act(st, seat, stetson)
        while st.phase == "stetson":
            act(st, seat, st.legal_actions(seat)[0])
        return
    act(st, seat, next(a for a in legal if isinstance(a, UseDuster)))
    for _ in range(3):
        act(st, seat, st.legal_actions(seat)[0])


def final(
    players: int,
    rows: dict[int, list[str]],
    est: list[int],
    *,
    hands: dict[int, list[int]] | None = None,
    rolls: tuple[int, ...] = (),
    options: dict[str, Any] | None = None,
) -> DeadwoodState:
    """The last seat's last turn of the game is played (see :func:`pass_turn`); the Badge Round, the starred
    Mystery Safes and the Final Showdown follow."""
    st = new_state(players, 7, options)
    last = players - 1
    st = position(
        players,
        last,
        hands=hands,
        rows=rows,
        est=est,
        rolls=rolls,
        segment=st.table.middle_safes,
        circle=st.table.circles_per_segment - 1,
        options=options,
    )
    pass_turn(st, last)
    return st


def of_type(st: DeadwoodState, kind: type, seat: int | None = None) -> list[Any]:
    """The events of one type that ``seat`` sees (public by default)."""
    return [e for e in st.events(seat) if isinstance(e, kind)]


def labels(st: DeadwoodState, figure: int) -> list[str]:
    """The contents of ``figure``'s row, leftmost first."""
    return [COMP.safe_label(s) for s in st.rows[figure]]


def circle_structure(st: DeadwoodState) -> list[Any]:
    """The seats whose (non-Badge) turns started, with "H" for each Heist, in order."""
    out: list[Any] = []
    for e in st.events(None):
        if isinstance(e, TurnStarted) and e.badge is None:
            out.append(e.seat)
        elif isinstance(e, HeistStarted):
            out.append("H")
    return out


def random_game(players: int, seed: int, options: Any = None) -> tuple[DeadwoodState, list[tuple[int, Any]]]:
    """A whole game with random legal actions; returns it and the (seat, action) record."""
    st = new_state(players, seed, options)
    rng = random.Random(seed)
    record: list[tuple[int, Any]] = []
    while not st.is_over:
        seat = rng.choice(st.to_act)
        legal = st.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        st.apply(seat, action)
        record.append((seat, action))
        assert len(record) < 20_000, "game did not end"
    return st, record


# ============================================================== Mystery Safes: Set Up


@pytest.mark.parametrize("players", [2, 4, 9])
@pytest.mark.parametrize("count", [0, 1, 2, 3, 4, 5])
@pytest.mark.rule("deadwood1876", "mystery.shuffle-in")
def test_mystery_safes_option_shuffles_in_exactly_that_many(players, count):
    """MYSTERY SAFES: "Shuffle in any number of silver-bordered Mystery Safes during step 4 of Set Up": with
    ``mystery_safes=N`` exactly N are among the Safes in play and in the box, each Safe exactly once."""
    st = new_state(players, 11 + count, {"mystery_safes": count})
    everywhere = st.middle + st.box + [s for row in st.rows for s in row]
    assert len(everywhere) == len(set(everywhere)) == len(BASE_SAFES) + count
    assert set(BASE_SAFES) <= set(everywhere)
    assert sum(COMP.safe_kind[s] == MYSTERY for s in everywhere) == count


def dealt_mysteries(st: DeadwoodState) -> tuple[list[str], list[list[str]]]:
    """The Mystery Safes dealt at Set Up: in the middle stack, and in each figure's row."""
    names = COMP.safe_names

    def mysteries(safes: list[int]) -> list[str]:
        return [names[s] for s in safes if COMP.safe_kind[s] == MYSTERY]

    return mysteries(st.middle), [mysteries(row) for row in st.rows]


@pytest.mark.rule("deadwood1876", "mystery.shuffle-in")
def test_mystery_safes_are_dealt_with_the_option_and_never_without():
    """MYSTERY SAFES: "Shuffle in any number of silver-bordered Mystery Safes during step 4 of Set Up": they are
    shuffled with the base Safes and dealt like them. With all five, seed 5 at 4 players deals Cash to seat 2 and
    Explosives to seat 3; seed 1 at 9 players (2 middle Safes and 18 dealt of 25) deals all five to the rows; over
    40 seeds at 4 players each of the five is dealt both into the middle stack and into a row. Without the option
    no Mystery Safe is dealt or even in the box, at any player count."""
    assert dealt_mysteries(new_state(4, 5, MYSTERIES)) == ([], [[], [], ["Cash"], ["Explosives"]])
    middle, rows = dealt_mysteries(new_state(9, 1, MYSTERIES))
    assert middle == [] and rows == [
        [],
        [],
        [],
        ["Cash"],
        ["Dagger"],
        ["Explosives", "Bad Sarsaparilla"],
        [],
        [],
        ["Poker Deck"],
    ]
    in_middle: set[str] = set()
    in_rows: set[str] = set()
    for seed in range(40):
        middle, rows = dealt_mysteries(new_state(4, seed, MYSTERIES))
        in_middle.update(middle)
        in_rows.update(name for row in rows for name in row)
    assert in_middle == in_rows == {"Bad Sarsaparilla", "Cash", "Dagger", "Explosives", "Poker Deck"}
    for players in (2, 4, 9):
        for seed in range(40):
            st = new_state(players, seed)
            assert dealt_mysteries(st) == ([], [[] for _ in st.rows])
            assert not any(COMP.safe_kind[s] == MYSTERY for s in st.box)


@pytest.mark.rule("deadwood1876", "mystery.drawn-at-random")
def test_mystery_safes_are_drawn_at_random():
    """Decision: the ``mystery_safes`` Mystery Safes are "drawn at random" from the five."""
    drawn = set()
    for seed in range(30):
        st = new_state(4, seed, {"mystery_safes": 1})
        everywhere = st.middle + st.box + [s for row in st.rows for s in row]
        drawn.update(COMP.safe_names[s] for s in everywhere if COMP.safe_kind[s] == MYSTERY)
    assert drawn == {"Bad Sarsaparilla", "Cash", "Dagger", "Explosives", "Poker Deck"}


@pytest.mark.rule("deadwood1876", "mystery.no-gold")
def test_mystery_safes_other_than_the_dagger_carry_no_gold():
    """Decision: "Mystery Safes other than the Dagger carry no gold" (the Poker Deck changes gold only by its roll)."""
    rows = {0: ["Bad Sarsaparilla", "Cash"], 1: ["Gold 1"], 2: ["Gold 2"], 3: ["Gold 3"]}
    st = final(4, rows, [GEM, GEM, BELLA, BELLA], options=MYSTERIES)
    assert of_type(st, SafesRevealed)[0].gold == (1, 0, 5)
    assert of_type(st, Advanced) == [Advanced((0, 2, 3))]


# ============================================================== Mystery Safes: starred ones


@pytest.mark.rule("deadwood1876", "mystery.resolve-order")
@pytest.mark.rule("deadwood1876", "mystery.owner-decides")
def test_starred_mystery_safes_resolve_after_the_badge_round_in_alphabetical_order():
    """MYSTERY SAFES: starred Safes are revealed and resolved "immediately after the final turn of the Badge
    Round before the rest of the Safes are revealed"; "resolve them in alphabetical order (Dagger, Explosives,
    Poker Deck)", whatever the seats."""
    rows = {0: ["Poker Deck", "Gold 1"], 1: ["Explosives", "Gold 2"], 2: ["Dagger", "Gold 3"], 3: ["Tin Badge"]}
    hands = {0: GUNS_0}
    st = final(4, rows, [GEM, GEM, BELLA, BELLA], hands=hands, rolls=(3, 2), options=MYSTERIES)
    assert st.phase == "turn" and st.current == 3 and of_type(st, MysteryRevealed) == []
    pass_turn(st, 3)
    assert of_type(st, MysteryRevealed) == [MysteryRevealed(2, 0, "Dagger")]
    assert st.phase == "dagger" and st.to_act == (2,)
    act(st, 2, ChooseDagger(True))
    assert of_type(st, MysteryRevealed)[-1] == MysteryRevealed(1, 0, "Explosives")
    assert st.phase == "explosives" and st.to_act == (1,)
    act(st, 1, Explode(0, 1))
    assert of_type(st, MysteryRevealed)[-1] == MysteryRevealed(0, 0, "Poker Deck")
    assert st.phase == "poker_deck" and st.to_act == (0,)
    assert of_type(st, SafesRevealed) == []
    act(st, 0, PokerGun(WINCHESTER))
    assert len(of_type(st, SafesRevealed)) == 1
    assert [e.seat for e in of_type(st, MysteryRevealed)] == [2, 1, 0]


def dagger_table(plus_gold: bool, rolls: tuple[int, ...] = ()) -> DeadwoodState:
    """4 players: seat 0 (Dagger, Gold 4) and seat 1 (Gold 1) in the Gem, seats 2 and 3 (3 gold) in the
    Bella; seat 0 chooses the Dagger's side."""
    rows = {0: ["Dagger", "Gold 4"], 1: ["Gold 1"], 2: ["Gold 2"], 3: ["Gold 1#2"]}
    st = final(4, rows, [GEM, GEM, BELLA, BELLA], hands={0: GUNS_0, 1: DUSTERS_1}, rolls=rolls, options=MYSTERIES)
    assert of_type(st, MysteryRevealed) == [MysteryRevealed(0, 0, "Dagger")]
    assert st.view(None).players[0].safes[0].contents == "Dagger"
    assert st.phase == "dagger" and st.to_act == (0,)
    assert st.legal_actions(0) == [ChooseDagger(False), ChooseDagger(True)]
    act(st, 0, ChooseDagger(plus_gold))
    assert of_type(st, DaggerChosen) == [DaggerChosen(0, plus_gold)]
    return st


@pytest.mark.rule("deadwood1876", "mystery.dagger")
def test_dagger_minus_one_gold_and_a_pepperbox_showdown_gun():
    """MYSTERY SAFES, DAGGER: the owner may take "-1 Gold and a Pepperbox Showdown Gun"."""
    st = dagger_table(False, rolls=(2, 1, 0))
    assert of_type(st, SafesRevealed)[0].gold == (4, 0, 3)
    assert of_type(st, Advanced) == [Advanced((0, 1))]
    act(st, 0, FireGun(COLT))
    act(st, 1, FireGun(PEPPERBOX_DUSTER))
    assert of_type(st, DiceRolled)[-1] == DiceRolled(
        "showdown", ((0, (("Colt", 2), ("Pepperbox", 1)), 3), (1, (("Pepperbox", 0),), 0))
    )
    assert of_type(st, CharacterFlipped) == [CharacterFlipped(1)]


@pytest.mark.rule("deadwood1876", "mystery.dagger")
def test_dagger_plus_one_gold_and_a_negative_pepperbox_after_every_roll_including_tie_breaks():
    """MYSTERY SAFES, DAGGER: "+1 Gold and a negative Pepperbox Showdown Gun ... after each roll in the Final
    Showdown (including tie-break rolls) a Pepperbox die is rolled and the result is subtracted"."""
    # Colt 2 - 1 = 1 ties Pepperbox 1; reroll: Colt 3 - 2 = 1 beats Pepperbox 0
    st = dagger_table(True, rolls=(2, 1, 1, 3, 2, 0))
    assert of_type(st, SafesRevealed)[0].gold == (6, 0, 3)
    act(st, 0, FireGun(COLT))
    act(st, 1, FireGun(PEPPERBOX_DUSTER))
    assert of_type(st, DiceRolled)[-2:] == [
        DiceRolled("showdown", ((0, (("Colt", 2), ("-Pepperbox", 1)), 1), (1, (("Pepperbox", 1),), 1))),
        DiceRolled("showdown", ((0, (("Colt", 3), ("-Pepperbox", 2)), 1), (1, (("Pepperbox", 0),), 0))),
    ]
    assert of_type(st, CharacterFlipped) == [CharacterFlipped(1)]
    assert st.chance.rolls == []


@pytest.mark.rule("deadwood1876", "mystery.explosives")
def test_explosives_remove_a_chosen_unrevealed_safe_of_another_player_shown_to_all():
    """MYSTERY SAFES, EXPLOSIVES: "owner chooses any 1 unrevealed Safe belonging to another player to remove from
    the game. Show all players the Safe that is being removed"."""
    rows = {0: ["Explosives", "Gold 1"], 1: ["Gold 4"], 2: ["Gold 2", "Colt Showdown Gun"], 3: ["Gold 1#2"]}
    st = final(4, rows, [GEM, GEM, BELLA, BELLA], options=MYSTERIES)
    assert of_type(st, MysteryRevealed) == [MysteryRevealed(0, 0, "Explosives")]
    assert st.phase == "explosives" and st.to_act == (0,)
    assert st.legal_actions(0) == [Explode(1, 0), Explode(2, 0), Explode(2, 1), Explode(3, 0)]
    act(st, 0, Explode(1, 0))
    assert of_type(st, SafeExploded) == [SafeExploded(0, 1, 0, "Gold 4")]
    assert of_type(st, SafeExploded, 2) == [SafeExploded(0, 1, 0, "Gold 4")]
    assert st.rows[1] == [] and safe("Gold 4") in st.box
    # without the Gold 4 the Gem has 1 gold, the Bella 3
    assert of_type(st, SafesRevealed)[0].gold == (1, 0, 3)
    assert of_type(st, Advanced) == [Advanced((2, 3))]


@pytest.mark.rule("deadwood1876", "mystery.explosives")
def test_explosives_cannot_hit_revealed_safes():
    """MYSTERY SAFES, EXPLOSIVES: only an "unrevealed Safe": revealed Badges and the revealed Dagger are not
    targets."""
    rows = {0: ["Explosives"], 1: ["Dagger", "Gold 4"], 2: ["Tin Badge", "Gold 2"], 3: ["Gold 1"]}
    st = final(4, rows, [GEM, GEM, BELLA, BELLA], options=MYSTERIES)
    assert st.current == 2 and st.view(None).badge == "Tin Badge"
    pass_turn(st, 2)
    act(st, 1, ChooseDagger(True))
    assert st.phase == "explosives"
    assert st.legal_actions(0) == [Explode(1, 1), Explode(2, 1), Explode(3, 0)]


@pytest.mark.rule("deadwood1876", "mystery.explosives-targets")
def test_explosives_can_destroy_an_unresolved_starred_safe():
    """Decision: the Explosives can hit a starred Safe not yet resolved, which is then gone and does nothing."""
    rows = {0: ["Explosives", "Gold 1"], 1: ["Poker Deck", "Gold 4"], 2: ["Gold 2"], 3: ["Gold 3"]}
    st = final(4, rows, [GEM, GEM, BELLA, BELLA], options=MYSTERIES)
    act(st, 0, Explode(1, 0))
    assert of_type(st, SafeExploded) == [SafeExploded(0, 1, 0, "Poker Deck")]
    assert of_type(st, PokerDeckPlayed) == []
    assert [e.safe for e in of_type(st, MysteryRevealed)] == ["Explosives"]
    assert st.gold_bonus == [0, 0, 0, 0]
    assert st.phase in ("showdown", "over")


@pytest.mark.rule("deadwood1876", "mystery.explosives-targets")
def test_explosives_can_hit_the_strangers_safes():
    """Decision: "The Explosives can hit any unrevealed Safe of another player or of the Stranger"."""
    rows = {0: ["Explosives", "Gold 1"], 1: ["Gold 2"], STRANGER: ["Gold 4", "Gold 3"]}
    st = final(2, rows, [GEM, BELLA, BELLA], options=MYSTERIES)
    assert st.legal_actions(0) == [Explode(1, 0), Explode(STRANGER, 0), Explode(STRANGER, 1)]
    act(st, 0, Explode(STRANGER, 0))
    assert labels(st, STRANGER) == ["Gold 3"]
    assert of_type(st, SafeExploded) == [SafeExploded(0, STRANGER, 0, "Gold 4")]


@pytest.mark.rule("deadwood1876", "mystery.explosives-targets")
def test_explosives_send_the_blown_safes_holster_to_the_discard_pile():
    """Decision (3 players): a Safe blown up leaves the game; its attached Holster, a Deadwood card, goes to the
    discard pile face up (``test_deadwood1876_round_two.py``)."""
    rows = {0: ["Explosives", "Gold 1"], 1: ["Gold 2"], 2: ["Gold 4"]}
    st = final(3, rows, [GEM, BELLA, BELLA], options=MYSTERIES)
    st.safe_holster[safe("Gold 4")] = COLT_HOLSTER
    act(st, 0, Explode(2, 0))
    assert st.safe_holster == {}
    assert st.rows[2] == [] and safe("Gold 4") in st.box
    assert COLT_HOLSTER in st.discard
    assert of_type(st, SafeExploded) == [SafeExploded(0, 2, 0, "Gold 4", st.card(COLT_HOLSTER))]


@pytest.mark.parametrize(("red", "change"), [(0, -3), (1, -3), (2, 3), (3, 3)])
@pytest.mark.rule("deadwood1876", "mystery.poker-deck")
@pytest.mark.rule("deadwood1876", "mystery.red-die")
def test_poker_deck_red_die_zero_one_subtracts_two_three_adds(red, change):
    """MYSTERY SAFES, POKER DECK: "owner must play any gun from their hand and roll the matching die. Next, roll a
    red die. If the red die is a 0 or 1, the result from the first die is subtracted from the owner's gold total.
    If the red die is a 2 or 3, the result ... is added ... Replace the played card from the deck"."""
    rows = {0: ["Poker Deck", "Gold 4"], 1: ["Gold 1"], 2: ["Gold 2"], 3: ["Gold 3"]}
    st = final(4, rows, [GEM, GEM, BELLA, BELLA], hands={0: GUNS_0}, rolls=(3, red), options=MYSTERIES)
    assert st.phase == "poker_deck" and st.to_act == (0,)
    assert st.legal_actions(0) == [PokerGun(c) for c in sorted(GUNS_0)]
    top = st.deck[-1]
    act(st, 0, PokerGun(WINCHESTER))
    assert of_type(st, DiceRolled)[0] == DiceRolled("poker_deck", ((0, (("Winchester", 3), ("red", red)), 3),))
    assert of_type(st, PokerDeckPlayed) == [PokerDeckPlayed(0, 3, red, change)]
    assert st.gold_bonus[0] == change
    assert of_type(st, SafesRevealed)[0].gold == (5 + change, 0, 5)
    assert sorted(st.hands[0]) == sorted([COLT, MESSENGER, DERRINGER, top])
    assert WINCHESTER in st.discard
    assert of_type(st, CardsDrawn)[-1] == CardsDrawn(0, 1)


@pytest.mark.rule("deadwood1876", "stranger.badge-round")
@pytest.mark.rule("deadwood1876", "mystery.resolve-order")
def test_stranger_starred_mystery_safes_are_skipped_and_players_still_resolved():
    """THE STRANGER: the Stranger's starred Safes "are not revealed and have no effect"; a player's still
    resolve in order."""
    rows = {0: ["Poker Deck", "Gold 1"], 1: ["Gold 2"], STRANGER: ["Dagger", "Explosives"]}
    st = final(2, rows, [GEM, BELLA, BELLA], hands={0: GUNS_0}, rolls=(3, 3), options=MYSTERIES)
    assert of_type(st, MysteryRevealed) == [MysteryRevealed(0, 0, "Poker Deck")]
    assert st.phase == "poker_deck"
    act(st, 0, PokerGun(WINCHESTER))
    assert st.dagger == {}
    assert labels(st, STRANGER) == ["Dagger", "Explosives"]


# ============================================================== Mystery Safes: Bad Sarsaparilla and Cash


@pytest.mark.rule("deadwood1876", "mystery.bad-sarsaparilla")
def test_bad_sarsaparilla_cancels_the_best_showdown_gun():
    """MYSTERY SAFES, BAD SARSAPARILLA: "Owner is unable to use their best Showdown Gun in the Final Showdown"."""
    rows = {
        0: ["Bad Sarsaparilla", "Messenger Showdown Gun", "Colt Showdown Gun", "Gold 4"],
        1: ["Gold 1"],
        2: ["Gold 2"],
        3: ["Gold 1#2"],
    }
    st = final(4, rows, [GEM, GEM, BELLA, BELLA], hands={0: GUNS_0, 1: DUSTERS_1}, rolls=(1, 2, 0), options=MYSTERIES)
    act(st, 0, FireGun(COLT))
    act(st, 1, FireGun(PEPPERBOX_DUSTER))
    assert of_type(st, DiceRolled)[-1] == DiceRolled(
        "showdown", ((0, (("Colt", 1), ("Colt", 2)), 3), (1, (("Pepperbox", 0),), 0))
    )


@pytest.mark.rule("deadwood1876", "mystery.bad-sarsaparilla")
def test_bad_sarsaparilla_has_no_effect_on_the_dagger():
    """MYSTERY SAFES, BAD SARSAPARILLA: "Bad Sarsaparilla has no effect on the Dagger": the Dagger's Pepperbox
    stays when it is the owner's only Showdown Gun."""
    rows = {0: ["Bad Sarsaparilla", "Dagger", "Gold 4"], 1: ["Gold 2"], 2: ["Gold 2#2"], 3: ["Gold 1"]}
    st = final(4, rows, [GEM, GEM, BELLA, BELLA], hands={0: GUNS_0, 1: DUSTERS_1}, rolls=(1, 2, 0), options=MYSTERIES)
    act(st, 0, ChooseDagger(False))
    act(st, 0, FireGun(COLT))
    act(st, 1, FireGun(PEPPERBOX_DUSTER))
    assert of_type(st, DiceRolled)[-1] == DiceRolled(
        "showdown", ((0, (("Colt", 1), ("Pepperbox", 2)), 3), (1, (("Pepperbox", 0),), 0))
    )


@pytest.mark.rule("deadwood1876", "two-player-showdown.stranger-guns")
def test_bad_sarsaparilla_of_the_stranger_cancels_its_best_gun_for_the_player_acting_as_it():
    """Decision (2 players): the opponent acting as the Stranger uses the Stranger's Showdown Guns "less the best
    one if the Stranger owns Bad Sarsaparilla, which is not starred"."""
    rows = {
        0: ["Gold 4"],
        1: ["Gold 1", "Derringer Showdown Gun"],
        STRANGER: ["Bad Sarsaparilla", "Winchester Showdown Gun", "Colt Showdown Gun"],
    }
    hands = {0: GUNS_0, 1: [COLT_2, *DUSTERS_1[:3]]}
    st = final(2, rows, [GEM, BELLA, GEM], hands=hands, rolls=(2, 0, 1), options=MYSTERIES)
    assert st.proxy == 1
    act(st, 0, FireGun(COLT))
    act(st, 1, FireGun(PEPPERBOX_DUSTER))
    assert of_type(st, DiceRolled)[-1] == DiceRolled(
        "showdown", ((0, (("Colt", 2),), 2), (1, (("Pepperbox", 0), ("Colt", 1)), 1))
    )


@pytest.mark.rule("deadwood1876", "mystery.cash")
def test_cash_owner_advances_with_the_richest_establishment():
    """MYSTERY SAFES, CASH: "Owner automatically advances to the Final Showdown even if their team does not have the
    most Gold. The team with the most gold also advances"."""
    rows = {0: ["Gold 4"], 1: ["Gold 1"], 2: ["Gold 2"], 3: ["Cash", "Gold 1#2"]}
    st = final(4, rows, [GEM, GEM, BELLA, BELLA], options=MYSTERIES)
    assert of_type(st, SafesRevealed)[0].gold == (5, 0, 3)
    assert of_type(st, Advanced) == [Advanced((0, 1, 3))]
    assert st.phase == "showdown" and st.to_act == (0, 1, 3)


@pytest.mark.rule("deadwood1876", "mystery.cash")
def test_cash_owners_gold_still_counts_for_their_team():
    """MYSTERY SAFES, CASH: "The gold owned by the Cash player still counts towards their team's total"."""
    rows = {0: ["Gold 3"], 1: ["Gold 1"], 2: ["Cash", "Gold 4"], 3: ["Gold 1#2"]}
    st = final(4, rows, [GEM, GEM, BELLA, BELLA], options=MYSTERIES)
    assert of_type(st, SafesRevealed)[0].gold == (4, 0, 5)
    assert of_type(st, Advanced) == [Advanced((2, 3))]


@pytest.mark.rule("deadwood1876", "mystery.cash-two-players")
def test_cash_in_two_player_games_all_three_advancing_removes_the_stranger():
    """MYSTERY SAFES, CASH: "In 2-player games, if you, your opponent, and the Stranger all go to the Final
    Showdown (because of Cash), the Stranger is removed and you fight your opponent to the death"."""
    rows = {0: ["Gold 4"], 1: ["Cash", "Gold 1"], STRANGER: ["Gold 2", "Winchester Showdown Gun"]}
    st = final(2, rows, [GEM, BELLA, GEM], options=MYSTERIES)
    assert of_type(st, Advanced) == [Advanced((0, 1, STRANGER))]
    assert st.phase == "showdown" and st.to_act == (0, 1)
    assert st.proxy == -1 and st.view(None).acting_as_stranger == -1


@pytest.mark.rule("deadwood1876", "mystery.cash-stranger")
def test_cash_owned_by_the_stranger_takes_it_to_the_showdown():
    """Decision: the Stranger advances too if it owns Cash; the opponent of the one who advanced then acts as it."""
    rows = {0: ["Gold 4"], 1: ["Gold 1"], STRANGER: ["Cash"]}
    st = final(2, rows, [GEM, BELLA, BELLA], options=MYSTERIES)
    assert of_type(st, Advanced) == [Advanced((0, STRANGER))]
    assert st.to_act == (0, 1) and st.proxy == 1


@pytest.mark.rule("deadwood1876", "two-player-showdown.with-stranger")
def test_opponent_acting_as_the_stranger_does_not_use_their_own_negative_pepperbox():
    """THE FINAL SHOWDOWN FOR 2 PLAYER GAMES: "Showdown Guns owned by your opponent are not used"; the Dagger's
    "+1 Gold and a negative Pepperbox Showdown Gun" is one of them (as the -1 side's Pepperbox is, per
    ``showdown_guns``)."""
    rows = {0: ["Gold 4"], 1: ["Dagger", "Gold 1"], STRANGER: ["Winchester Showdown Gun"]}
    hands = {0: GUNS_0, 1: [COLT_2, *DUSTERS_1[:3]]}
    st = final(2, rows, [GEM, BELLA, GEM], hands=hands, rolls=(2, 0, 1, 1), options=MYSTERIES)
    act(st, 1, ChooseDagger(True))
    assert st.proxy == 1
    act(st, 0, FireGun(COLT))
    act(st, 1, FireGun(PEPPERBOX_DUSTER))
    assert of_type(st, DiceRolled)[-1] == DiceRolled(
        "showdown", ((0, (("Colt", 2),), 2), (1, (("Pepperbox", 0), ("Winchester", 1)), 1))
    )


# ============================================================== "Peace-Lovin'"


def peace(rows: dict[int, list[str]], *, options: dict[str, Any] | None = None, players: int = 4) -> DeadwoodState:
    """Seats 0 and 1 advance from the Gem (4 players) with Peace-Lovin' on."""
    opts = {"peace_lovin": True, "mystery_safes": 5, **(options or {})}
    est = [GEM, GEM, BELLA, BELLA] if players == 4 else [GEM, BELLA, GEM]
    return final(players, rows, est, options=opts)


@pytest.mark.rule("deadwood1876", "peace-lovin.victory")
def test_peace_lovin_without_showdown_guns_all_advancing_players_win():
    """ "PEACE-LOVIN'" TEAM VICTORY: "If nobody in the Final Showdown owns a Showdown Gun, all advancing players
    win together!" (a Showdown Gun of a player who did not advance does not count)."""
    st = peace({0: ["Gold 4"], 1: ["Gold 1"], 2: ["Gold 2", "Messenger Showdown Gun"], 3: ["Gold 1#2"]})
    assert of_type(st, Advanced) == [Advanced((0, 1))]
    assert of_type(st, TeamVictory) == [TeamVictory("peace_lovin", (0, 1))]
    assert of_type(st, GameOver) == [GameOver((0, 1))]
    assert st.outcome == Outcome((1.0, 1.0, 0.0, 0.0), (1, 1, 3, 3), (0, 1))


@pytest.mark.rule("deadwood1876", "peace-lovin.victory")
def test_peace_lovin_with_a_showdown_gun_they_fight():
    """ "PEACE-LOVIN'" TEAM VICTORY: "If at least one advancing player does own a Showdown Gun, all advancing
    players fight to the death as normal"."""
    st = peace({0: ["Gold 4"], 1: ["Gold 1", "Pepperbox Showdown Gun"], 2: ["Gold 2"], 3: ["Gold 1#2"]})
    assert of_type(st, TeamVictory) == []
    assert st.phase == "showdown" and st.to_act == (0, 1)


@pytest.mark.rule("deadwood1876", "peace-lovin.victory")
def test_peace_lovin_guns_cancelled_by_bad_sarsaparilla_do_not_count():
    """ "PEACE-LOVIN'" TEAM VICTORY: "Showdown Guns cancelled by Bad Sarsaparilla do not count as Showdown Guns"."""
    st = peace({0: ["Gold 4"], 1: ["Gold 1", "Bad Sarsaparilla", "Colt Showdown Gun"], 2: ["Gold 2"], 3: ["Gold 1#2"]})
    assert of_type(st, TeamVictory) == [TeamVictory("peace_lovin", (0, 1))]


@pytest.mark.rule("deadwood1876", "peace-lovin.victory")
def test_peace_lovin_bad_sarsaparilla_leaves_the_second_gun():
    """ "PEACE-LOVIN'" TEAM VICTORY with BAD SARSAPARILLA: only the best gun is cancelled; a second one counts."""
    rows = {0: ["Gold 4"], 1: ["Bad Sarsaparilla", "Colt Showdown Gun", "Derringer Showdown Gun"], 2: ["Gold 2"]}
    st = peace({**rows, 3: ["Gold 1"]})
    assert of_type(st, TeamVictory) == [] and st.phase == "showdown"


@pytest.mark.parametrize(("plus_gold", "team"), [(False, False), (True, True)])
@pytest.mark.rule("deadwood1876", "peace-lovin.dagger")
def test_peace_lovin_counts_the_daggers_pepperbox_but_not_the_negative_one(plus_gold, team):
    """Decision: "the Dagger's Pepperbox counts as a Showdown Gun; the negative Pepperbox does not"."""
    st = peace({0: ["Gold 4", "Dagger"], 1: ["Gold 2"], 2: ["Gold 2#2"], 3: ["Gold 1"]})
    act(st, 0, ChooseDagger(plus_gold))
    assert of_type(st, Advanced) == [Advanced((0, 1))]
    assert (of_type(st, TeamVictory) == [TeamVictory("peace_lovin", (0, 1))]) is team
    assert st.is_over is team


@pytest.mark.rule("deadwood1876", "peace-lovin.dagger")
def test_peace_lovin_with_the_stranger_counts_only_the_strangers_guns():
    """Decision (2 players): the player fighting as the Stranger is one of the advancing players, with the
    Stranger's Showdown Guns (their own are not used): without any, both players win together."""
    rows = {0: ["Gold 4"], 1: ["Gold 1", "Messenger Showdown Gun"], STRANGER: ["Gold 2"]}
    st = peace(rows, players=2)
    assert of_type(st, Advanced) == [Advanced((0, STRANGER))]
    assert of_type(st, TeamVictory) == [TeamVictory("peace_lovin", (0, 1))]
    assert st.outcome == Outcome((1.0, 1.0), (1, 1), (0, 1))


@pytest.mark.rule("deadwood1876", "peace-lovin.dagger")
def test_peace_lovin_with_the_stranger_owning_a_gun_they_fight():
    """Decision (2 players): the Stranger's Showdown Gun counts for the player fighting as it."""
    rows = {0: ["Gold 4"], 1: ["Gold 1"], STRANGER: ["Gold 2", "Pepperbox Showdown Gun"]}
    st = peace(rows, players=2)
    assert of_type(st, TeamVictory) == [] and st.phase == "showdown" and st.proxy == 1


@pytest.mark.rule("deadwood1876", "showdown.fight")
@pytest.mark.rule("deadwood1876", "options.off-by-default")
def test_peace_lovin_off_they_fight_without_guns():
    """FINAL SHOWDOWN: without the option, several advancing players fight even with no Showdown Gun."""
    rows = {0: ["Gold 4"], 1: ["Gold 1"], 2: ["Gold 2"], 3: ["Gold 1#2"]}
    st = final(4, rows, [GEM, GEM, BELLA, BELLA])
    assert of_type(st, TeamVictory) == [] and st.phase == "showdown" and st.to_act == (0, 1)


# ============================================================== "Fair Share"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.rule("deadwood1876", "fair-share.players")
def test_fair_share_is_only_for_six_to_nine_players(players):
    """ "FAIR SHARE" TEAM VICTORY: "Only use for 6-9 player games"."""
    with pytest.raises(InvalidOptions):
        new_state(players, 1, {"fair_share": True})


@pytest.mark.parametrize("players", [6, 7, 8, 9])
@pytest.mark.rule("deadwood1876", "fair-share.players")
def test_fair_share_is_accepted_for_six_to_nine_players(players):
    """ "FAIR SHARE" TEAM VICTORY: "Only use for 6-9 player games"."""
    assert new_state(players, 1, {"fair_share": True}).options.fair_share is True


def fair(rows: dict[int, list[str]], options: dict[str, Any] | None = None) -> DeadwoodState:
    """6 players, Fair Share on: seats 0-2 in the Gem, 3-4 in the Hotel, 5 in the Bella."""
    opts = {"fair_share": True, **(options or {})}
    return final(6, rows, [GEM, GEM, GEM, HOTEL, HOTEL, BELLA], options=opts)


@pytest.mark.rule("deadwood1876", "fair-share.victory")
def test_fair_share_everyone_advancing_with_gold_wins_together():
    """ "FAIR SHARE" TEAM VICTORY: "If everyone in the Final Showdown has at least 1 Gold, the advancing players all
    win together!"."""
    rows = {0: ["Gold 1", "Colt Showdown Gun"], 1: ["Gold 1#2"], 2: ["Gold 2"], 3: ["Gold 3"], 5: ["Gold 2#2"]}
    st = fair(rows)
    assert of_type(st, Advanced) == [Advanced((0, 1, 2))]
    assert of_type(st, TeamVictory) == [TeamVictory("fair_share", (0, 1, 2))]
    assert st.outcome.winners == (0, 1, 2)
    assert st.outcome.scores == (1.0, 1.0, 1.0, 0.0, 0.0, 0.0)


@pytest.mark.rule("deadwood1876", "fair-share.victory")
def test_fair_share_a_player_without_gold_means_a_fight():
    """ "FAIR SHARE" TEAM VICTORY: "If any advancing player has zero or negative Gold, all advancing players fight
    to the death as normal"."""
    rows = {0: ["Gold 4"], 1: ["Gold 1"], 2: ["Colt Showdown Gun"], 3: ["Gold 3"], 5: ["Gold 2"]}
    st = fair(rows)
    assert of_type(st, TeamVictory) == []
    assert st.phase == "showdown" and st.to_act == (0, 1, 2)


@pytest.mark.parametrize(("plus_gold", "team"), [(False, False), (True, True)])
@pytest.mark.rule("deadwood1876", "fair-share.gold")
def test_fair_share_counts_the_daggers_gold(plus_gold, team):
    """Decision: for Fair Share "gold includes the Dagger's and Poker Deck's changes": Gold 1 with the Dagger's
    -1 is zero gold; a player with no gold but the Dagger's +1 has 1."""
    rows = {0: ["Gold 4"], 1: ["Gold 1", "Dagger"], 2: ["Gold 2"], 3: ["Gold 3"], 5: ["Gold 2#2"]}
    if plus_gold:
        rows[1] = ["Dagger"]
    st = fair(rows, MYSTERIES)
    act(st, 1, ChooseDagger(plus_gold))
    assert (of_type(st, TeamVictory) == [TeamVictory("fair_share", (0, 1, 2))]) is team


@pytest.mark.parametrize(("red", "team"), [(0, False), (2, True)])
@pytest.mark.rule("deadwood1876", "fair-share.gold")
def test_fair_share_counts_the_poker_decks_gold(red, team):
    """Decision: for Fair Share gold "includes the Dagger's and Poker Deck's changes": a player with no gold but a
    Poker Deck's +2 has gold; with -2 they don't."""
    rows = {0: ["Gold 4"], 1: ["Poker Deck"], 2: ["Gold 2"], 3: ["Gold 3"], 5: ["Gold 2#2"]}
    st = final(
        6,
        rows,
        [GEM, GEM, GEM, HOTEL, HOTEL, BELLA],
        hands={1: DUSTERS_1},
        rolls=(2, red),
        options={"fair_share": True, **MYSTERIES},
    )
    act(st, 1, PokerGun(PEPPERBOX_DUSTER))
    assert of_type(st, PokerDeckPlayed) == [PokerDeckPlayed(1, 2, red, 2 if team else -2)]
    assert of_type(st, Advanced) == [Advanced((0, 1, 2))]
    assert (of_type(st, TeamVictory) == [TeamVictory("fair_share", (0, 1, 2))]) is team
    assert st.is_over is team


# ============================================================== Horse Thief


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.rule("deadwood1876", "horse-thief.when-not")
def test_horse_thief_does_not_apply_in_two_three_player_games(players):
    """HORSE THIEF: "The Horse Thief rule does not apply in 2-3 player games"."""
    with pytest.raises(InvalidOptions):
        new_state(players, 1, {"horse_thief": True})
    with pytest.raises(InvalidOptions):
        new_state(players, 1, {"horse_thief": True, "prototype_rules": True})


def thief_table(rolls: tuple[int, ...], *, duel: bool = False, thief_rows: list[str] | None = None) -> DeadwoodState:
    """4 players, Horse Thief on: seat 0 robs seat 1's Gold 4 with a Colt (or duels seat 1); seat 1 defends with
    a Pepperbox; seat 2 holds a white Winchester Horse, a brown Horse and a Colt Holster; seat 3 a white
    Pepperbox Horse."""
    hands = {
        0: GUNS_0,
        1: DUSTERS_1,
        2: [WHITE_HORSE, BROWN_HORSE, COLT_HOLSTER, MESSENGER_2],
        3: [WHITE_PEPPERBOX_HORSE, COLT_2, WINCHESTER_2, COLT_DUSTER_2],
    }
    rows = {0: ["Gold 1"], 1: ["Gold 4", "Gold 2"], 2: thief_rows or ["Gold 3"], 3: ["Tin Badge"]}
    st = position(
        4, 0, hands=hands, rows=rows, est=[GEM, GEM, BELLA, BELLA], rolls=rolls, options={"horse_thief": True}
    )
    act(st, 0, Duel(COLT, 1) if duel else Robbery(COLT, 1, 0))
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    assert st.phase == "holster" and st.to_act == (2, 3)
    return st


@pytest.mark.rule("deadwood1876", "horse-thief.join")
def test_horse_thief_joins_a_robbery_with_a_white_horse_in_the_holster_window():
    """HORSE THIEF: "If you have a white-colored Horse you may play it immediately after the attacker and defender
    have laid down guns for a Robbery"; a Horse of another colour can't; "Horse thieves cannot give or receive
    Holsters" (the Holster choice is the attacker's or the defender's only)."""
    st = thief_table(())
    assert st.legal_actions(2) == [
        NoHolster(),
        GiveHolster(COLT_HOLSTER, 0),
        GiveHolster(COLT_HOLSTER, 1),
        HorseThief(WHITE_HORSE),
    ]
    assert st.legal_actions(3) == [NoHolster(), HorseThief(WHITE_PEPPERBOX_HORSE)]


@pytest.mark.rule("deadwood1876", "horse-thief.roll")
@pytest.mark.rule("deadwood1876", "horse-thief.laws")
def test_horse_thief_rolling_highest_takes_the_safe_and_draws_back_up():
    """HORSE THIEF: the thief rolls "the gun on your Horse card"; "If you roll higher than both the attacker and
    defender, you take the Safe that was being fought over"; "Horse cards are replenished after use"."""
    # Colt 1, Pepperbox 0, Winchester 3
    st = thief_table((1, 0, 3))
    act(st, 2, HorseThief(WHITE_HORSE))
    act(st, 3, NoHolster())
    assert of_type(st, HorseThiefJoined) == [HorseThiefJoined(2, st.card(WHITE_HORSE))]
    assert of_type(st, DiceRolled) == [
        DiceRolled("robbery", ((0, (("Colt", 1),), 1), (1, (("Pepperbox", 0),), 0), (2, (("Winchester", 3),), 3)))
    ]
    assert of_type(st, FightWon) == [FightWon("robbery", 2, 1)]
    assert of_type(st, SafeStolen) == [SafeStolen(2, 1, 0)]
    assert sorted(labels(st, 2)) == ["Gold 3", "Gold 4"]
    assert labels(st, 1) == ["Gold 2"]
    assert len(st.hands[2]) == 4 and WHITE_HORSE in st.discard
    assert CardsDrawn(2, 1) in of_type(st, CardsDrawn)


@pytest.mark.rule("deadwood1876", "horse-thief.roll")
def test_horse_thief_not_highest_gets_nothing():
    """HORSE THIEF: the thief takes the Safe only "If you roll higher than both": the attacker rolling highest
    takes it as usual."""
    st = thief_table((3, 0, 2))
    act(st, 2, HorseThief(WHITE_HORSE))
    act(st, 3, NoHolster())
    assert of_type(st, FightWon) == [FightWon("robbery", 0, 1)]
    assert sorted(labels(st, 0)) == ["Gold 1", "Gold 4"]
    assert labels(st, 2) == ["Gold 3"]


@pytest.mark.rule("deadwood1876", "horse-thief.roll")
def test_horse_thief_defender_highest_keeps_the_safe():
    """HORSE THIEF / ROBBERY: the defender rolling highest keeps the Safe, thieves or not."""
    st = thief_table((0, 2, 1, 1))
    act(st, 2, HorseThief(WHITE_HORSE))
    act(st, 3, HorseThief(WHITE_PEPPERBOX_HORSE))
    assert of_type(st, FightWon) == [FightWon("robbery", 1, 0)]
    assert labels(st, 1) == ["Gold 4", "Gold 2"]


@pytest.mark.rule("deadwood1876", "horse-thief.ties")
def test_horse_thief_tied_highest_reroll():
    """HORSE THIEF: "Highest rollers reroll to break ties"; decision: an attacker tied with a thief rerolls with
    them, the lower ones drop out."""
    # Colt 3, Pepperbox 0, Winchester 3 -> reroll Colt 1 vs Winchester 2
    st = thief_table((3, 0, 3, 1, 2))
    act(st, 2, HorseThief(WHITE_HORSE))
    act(st, 3, NoHolster())
    assert of_type(st, DiceRolled)[-1] == DiceRolled("robbery", ((0, (("Colt", 1),), 1), (2, (("Winchester", 2),), 2)))
    assert of_type(st, FightWon) == [FightWon("robbery", 2, 1)]


@pytest.mark.rule("deadwood1876", "horse-thief.laws")
def test_horse_thief_with_a_holster_given_to_the_attacker():
    """HORSE THIEF / HOLSTERS: a Holster given to the attacker joins its roll against the thief."""
    # seat 3 rides in; seat 2 gives the attacker its Colt Holster: Colt 1 + Colt 2 = 3 vs Pepperbox 0 vs Pepperbox 2
    st = thief_table((1, 2, 0, 2))
    act(st, 2, GiveHolster(COLT_HOLSTER, 0))
    act(st, 3, HorseThief(WHITE_PEPPERBOX_HORSE))
    assert of_type(st, DiceRolled) == [
        DiceRolled(
            "robbery",
            ((0, (("Colt", 1), ("Colt", 2)), 3), (1, (("Pepperbox", 0),), 0), (3, (("Pepperbox", 2),), 2)),
        )
    ]
    assert of_type(st, FightWon) == [FightWon("robbery", 0, 1)]


@pytest.mark.rule("deadwood1876", "horse-thief.laws")
def test_horse_thief_winning_a_fourth_safe_must_give_one_away():
    """HORSE THIEF: "the Laws of Deadwood still apply (so if you win a Safe you may shuffle, and if it is your
    fourth Safe you must give one away)"."""
    st = thief_table((1, 0, 3), thief_rows=["Gold 3", "Gold 1#2", "Gold 2#2"])
    act(st, 2, HorseThief(WHITE_HORSE))
    act(st, 3, NoHolster())
    assert st.phase == "give_safe" and st.to_act == (2,)
    assert st.legal_actions(2) == [GiveSafe(i, r) for i in range(4) for r in (0, 1, 3)]


@pytest.mark.rule("deadwood1876", "horse-thief.robbery-only")
def test_horse_thief_not_offered_in_a_duel():
    """HORSE THIEF: Horse Thieves join "a Robbery"; decision: never a Duel."""
    st = thief_table((), duel=True)
    assert st.legal_actions(2) == [NoHolster(), GiveHolster(COLT_HOLSTER, 0), GiveHolster(COLT_HOLSTER, 1)]
    assert st.legal_actions(3) == [NoHolster()]


@pytest.mark.rule("deadwood1876", "horse-thief.when-not")
def test_horse_thief_not_offered_in_the_badge_round():
    """HORSE THIEF: "you can not use cards as Horse Thieves during the Badge Round for any game"."""
    hands = {
        0: GUNS_0,
        1: DUSTERS_1,
        2: [WHITE_HORSE, MESSENGER_2, COLT_2, COLT_DUSTER_2],
        3: [COLT_3, WINCHESTER_2, WHITE_PEPPERBOX_HORSE, MESSENGER_3],
    }
    rows = {0: ["Tin Badge"], 1: ["Gold 4"], 2: ["Gold 3"], 3: ["Gold 1"]}
    st = final(4, rows, [GEM, GEM, BELLA, BELLA], hands=hands, options={"horse_thief": True})
    assert st.view(None).badge == "Tin Badge" and st.current == 0
    act(st, 0, Robbery(COLT, 1, 0))
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    assert st.phase == "holster" and st.to_act == (2, 3)
    assert st.legal_actions(2) == [NoHolster()]
    assert WHITE_PEPPERBOX_HORSE in st.hands[3]
    assert [a for a in st.legal_actions(3) if isinstance(a, HorseThief)] == []


@pytest.mark.rule("deadwood1876", "options.off-by-default")
def test_horse_thief_off_no_thief_offered():
    """HORSE THIEF is optional: without it, a white Horse is no way into a Robbery."""
    hands = {0: GUNS_0, 1: DUSTERS_1, 2: [WHITE_HORSE, MESSENGER_2, COLT_2, COLT_DUSTER_2]}
    st = position(4, 0, hands=hands, rows={1: ["Gold 4"]}, est=[GEM, GEM, BELLA, BELLA])
    act(st, 0, Robbery(COLT, 1, 0))
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    assert st.legal_actions(2) == [NoHolster()]


# ============================================================== prototype_rules


@pytest.mark.rule("deadwood1876", "prototype.two-players")
def test_prototype_two_players_stranger_goes_into_the_empty_establishment_of_three():
    """Dutch prototype, Regels voor 2 Spelers: "voeg een derde ster toe in het lege gebouw" (three
    establishments, the Stranger's star in the empty one)."""
    st = new_state(2, 5, {"prototype_rules": True})
    assert st.table.establishments == (GEM, HOTEL, BELLA)
    assert sorted(st.est[:2]) == [GEM, HOTEL]
    st.chance = ScriptedChance([6, 1])  # type: ignore[assignment]
    box = list(st.box)
    act(st, 0, PassSafe(0))
    act(st, 1, PassSafe(0))
    assert sorted(st.est[:2]) == [GEM, HOTEL] and st.est[STRANGER] == BELLA
    assert of_type(st, StrangerPlaced) == [StrangerPlaced(-1, STRANGER, BELLA, 0)]
    assert st.phase == "give_to_stranger" and st.to_act == (0, 1)
    assert [len(r) for r in st.rows] == [3, 3, 0]
    assert st.rows[0][2] == box[0] and st.rows[1][2] == box[1]


@pytest.mark.rule("deadwood1876", "prototype.two-players")
def test_prototype_two_players_each_player_gives_one_of_three_safes_to_the_stranger_at_once():
    """Dutch prototype, Regels voor 2 Spelers: "Elke speler trekt een extra Kluis kaart en kiest een van zijn of
    haar drie Kluizen om aan de "Vreemdeling" af te staan"; decision: at once and hidden; then the first-player
    roll."""
    st = new_state(2, 5, {"prototype_rules": True})
    st.chance = ScriptedChance([6, 1])  # type: ignore[assignment]
    act(st, 0, PassSafe(0))
    act(st, 1, PassSafe(0))
    rows = [list(r) for r in st.rows]
    assert st.legal_actions(0) == [GiveToStranger(0), GiveToStranger(1), GiveToStranger(2)]
    before = len(st.events(None))
    act(st, 0, GiveToStranger(2))
    assert st.to_act == (1,) and len(st.events(None)) == before
    assert st.rows[STRANGER] == []
    act(st, 1, GiveToStranger(0))
    assert st.rows[STRANGER] == [rows[0][2], rows[1][0]]
    assert st.rows[0] == rows[0][:2] and st.rows[1] == rows[1][1:]
    assert of_type(st, SafeGivenToStranger, 1) == [
        SafeGivenToStranger(0),
        SafeGivenToStranger(1, COMP.safe_label(rows[1][0])),
    ]
    assert [v.contents for v in st.view(0).stranger.safes] == [None, None]
    assert st.phase == "turn" and st.first == 0


@pytest.mark.rule("deadwood1876", "prototype.third-law")
def test_prototype_third_law_shuffles_before_giving():
    """Dutch prototype, 3e Wet: "worden de Kluizen van deze speler geschud en moet deze een Kluis afgeven": the
    row is shuffled first, then a Safe given away, and no shuffle after."""
    hands = {0: GUNS_0, 1: DUSTERS_1}
    rows = {0: ["Gold 1", "Gold 2", "Gold 3"], 1: ["Gold 4", "Tin Badge"], 2: ["Iron Badge"], 3: ["Copper Badge"]}
    opts = {"prototype_rules": True}
    st = position(
        4, 0, hands=hands, rows=rows, est=[GEM, GEM, BELLA, BELLA], rolls=(3, 0), options=opts, chance=ReversingChance
    )
    act(st, 0, Robbery(COLT, 1, 0))
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    no_holsters(st)
    assert st.phase == "give_safe"
    assert labels(st, 0) == ["Gold 4", "Gold 3", "Gold 2", "Gold 1"]
    act(st, 0, GiveSafe(0, 2))
    assert labels(st, 0) == ["Gold 3", "Gold 2", "Gold 1"]
    assert labels(st, 2) == ["Iron Badge", "Gold 4"]


@pytest.mark.rule("deadwood1876", "law.third-order")
def test_english_third_law_gives_before_shuffling():
    """THE 3 LAWS 3 (English) with decision: the giver views the fourth Safe, gives one away, then shuffles the
    rest (the contrast to the prototype)."""
    hands = {0: GUNS_0, 1: DUSTERS_1}
    rows = {0: ["Gold 1", "Gold 2", "Gold 3"], 1: ["Gold 4", "Tin Badge"], 2: ["Iron Badge"], 3: ["Copper Badge"]}
    st = position(4, 0, hands=hands, rows=rows, est=[GEM, GEM, BELLA, BELLA], chance=ReversingChance, rolls=(3, 0))
    act(st, 0, Robbery(COLT, 1, 0))
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    no_holsters(st)
    assert labels(st, 0) == ["Gold 1", "Gold 2", "Gold 3", "Gold 4"]
    act(st, 0, GiveSafe(0, 2))
    assert labels(st, 0) == ["Gold 4", "Gold 3", "Gold 2"]
    assert labels(st, 2) == ["Iron Badge", "Gold 1"]


def no_holsters(st: DeadwoodState) -> None:
    """Everyone asked in the Holster window gives none."""
    assert st.phase == "holster"
    for seat in st.to_act:
        act(st, seat, NoHolster())


@pytest.mark.rule("deadwood1876", "prototype.holsters")
def test_prototype_two_players_holsters_attach_to_safes_only():
    """Dutch prototype, Regels voor 2 Spelers: "Je mag tijdens je beurt een Holster bij elke Kluis leggen (die van
    jezelf, de Vreemdeling en van je tegenstander)": Safes only, no character cards."""
    hands = {0: [COLT_HOLSTER, COLT, WINCHESTER, MESSENGER]}
    rows = {0: ["Gold 1"], 1: ["Gold 2"], STRANGER: ["Gold 3", "Gold 4"]}
    st = position(2, 0, hands=hands, rows=rows, est=[GEM, HOTEL, BELLA], options={"prototype_rules": True})
    assert [a for a in st.legal_actions(0) if isinstance(a, AttachHolster)] == [
        AttachHolster(COLT_HOLSTER, 0, 0),
        AttachHolster(COLT_HOLSTER, 1, 0),
        AttachHolster(COLT_HOLSTER, STRANGER, 0),
        AttachHolster(COLT_HOLSTER, STRANGER, 1),
    ]


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.rule("deadwood1876", "prototype.no-small-table-adjustments")
def test_prototype_has_no_two_three_player_adjustments(players):
    """Dutch prototype: no 2-3 player adjustments: three establishments, one circle before each Heist (4 turns
    each), Stetsons view two Safes."""
    st = new_state(players, 3, {"prototype_rules": True})
    assert st.table.establishments == (GEM, HOTEL, BELLA)
    assert st.table.stetson_views == 2 and st.table.circles_per_segment == 1
    game, _ = random_game(players, 3, {"prototype_rules": True})
    order = [(game.first + k) % players for k in range(players)]
    assert circle_structure(game) == (order + ["H"]) * 3 + order


@pytest.mark.rule("deadwood1876", "prototype.no-small-table-adjustments")
def test_prototype_three_players_stars_in_all_three_establishments_and_holsters_out_of_turn():
    """Dutch prototype (3 players, no adjustments): stars go one at a time into all three establishments, and
    Holsters are played out of turn (HOLSTERS)."""
    st = new_state(3, 3, {"prototype_rules": True})
    assert sorted(st.est) == [GEM, HOTEL, BELLA]
    hands = {0: GUNS_0, 1: DUSTERS_1, 2: [COLT_HOLSTER, COLT_2, MESSENGER_2, COLT_DUSTER_2]}
    st = position(3, 0, hands=hands, rows={1: ["Gold 4"]}, est=[GEM, HOTEL, BELLA], options={"prototype_rules": True})
    assert not any(isinstance(a, AttachHolster) for a in st.legal_actions(0))
    act(st, 0, Robbery(COLT, 1, 0))
    act(st, 1, Defend(PEPPERBOX_DUSTER))
    assert st.phase == "holster" and st.to_act == (2,)
    assert st.legal_actions(2) == [NoHolster(), GiveHolster(COLT_HOLSTER, 0), GiveHolster(COLT_HOLSTER, 1)]


@pytest.mark.rule("deadwood1876", "prototype.no-small-table-adjustments")
def test_prototype_two_players_stetson_views_two_safes():
    """Dutch prototype: "Bekijk twee Kluis kaarten" with no 2-player change."""
    rows = {0: ["Gold 1"], 1: ["Gold 2"], STRANGER: ["Gold 3", "Gold 4"]}
    st = position(2, 0, hands={0: GUNS_0}, rows=rows, est=[GEM, HOTEL, BELLA], options={"prototype_rules": True})
    act(st, 0, UseStetson(COLT))
    assert st.view(0).views_left == 2
    act(st, 0, ViewSafe(STRANGER, 0))
    act(st, 0, ViewSafe(STRANGER, 1))
    assert st.known[0] == {safe("Gold 3"), safe("Gold 4")}
    assert st.current == 1


# ============================================================== options parsing


@pytest.mark.rule("deadwood1876", "options.off-by-default")
def test_options_are_off_by_default():
    """OPTIONAL ADVANCED RULES are optional: every option is off unless asked for."""
    assert Options() == Options(mystery_safes=0, peace_lovin=False, fair_share=False, horse_thief=False)
    assert Options().prototype_rules is False
    assert new_state(4, 1).options == Options()
    assert new_state(4, 1, {}).options == Options()


def test_options_accept_strings_as_from_a_command_line():
    """Options parsing: dict values typed on a command line ("true", "3") are converted."""
    st = new_state(6, 1, {"mystery_safes": "3", "peace_lovin": "true", "fair_share": "false", "horse_thief": "true"})
    assert st.options == Options(mystery_safes=3, peace_lovin=True, fair_share=False, horse_thief=True)


def test_options_accept_an_options_struct():
    """Options parsing: an :class:`Options` instance is used as is."""
    opts = Options(mystery_safes=2, prototype_rules=True)
    assert new_state(2, 1, opts).options is opts


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"mystery": 1}, id="unknown-option"),
        pytest.param({"mystery_safes": 6}, id="six-mystery-safes"),
        pytest.param({"mystery_safes": -1}, id="negative-mystery-safes"),
        pytest.param({"mystery_safes": "many"}, id="not-a-number"),
        pytest.param({"peace_lovin": "maybe"}, id="not-a-bool"),
    ],
)
@pytest.mark.rule("deadwood1876", "options.off-by-default")
def test_bad_options_are_refused(options):
    """Options parsing: an unknown option or a bad value raises ``InvalidOptions`` (a ``ValueError``)."""
    with pytest.raises(InvalidOptions):
        new_state(4, 1, options)
    assert issubclass(InvalidOptions, ValueError)


# ============================================================== every valid combination


def valid_combinations() -> list[tuple[int, dict[str, Any]]]:
    """Every player count with every valid combination of the optional rules (Mystery Safes 0, 1, 3 or 5)."""
    out = []
    for players in range(2, 10):
        for mystery, peace_lovin, fair_share, horse_thief, prototype in itertools.product(
            (0, 1, 3, 5), (False, True), (False, True), (False, True), (False, True)
        ):
            if (fair_share and players < 6) or (horse_thief and players < 4):
                continue
            options = {
                "mystery_safes": mystery,
                "peace_lovin": peace_lovin,
                "fair_share": fair_share,
                "horse_thief": horse_thief,
                "prototype_rules": prototype,
            }
            out.append((players, options))
    return out


COMBINATIONS = valid_combinations()


@pytest.mark.parametrize(
    ("players", "option"),
    [(p, o) for p in range(2, 6) for o in ("fair_share", "horse_thief") if o == "fair_share" or p < 4],
)
@pytest.mark.rule("deadwood1876", "fair-share.players")
@pytest.mark.rule("deadwood1876", "horse-thief.when-not")
def test_invalid_combinations_are_refused(players, option):
    """ "FAIR SHARE": "Only use for 6-9 player games"; HORSE THIEF: "does not apply in 2-3 player games"."""
    with pytest.raises(InvalidOptions):
        new_state(players, 1, {option: True})


def test_every_valid_combination_plays_to_the_end_and_replays():
    """Every player count with every valid option combination: a random game ends with a result and replays to
    the same digest."""
    game = engine.game("deadwood1876")
    for i, (players, options) in enumerate(COMBINATIONS):
        st, record = random_game(players, 1000 + i, options)
        assert len(st.outcome.scores) == players
        again = game.new_game(players, 1000 + i, options)
        for seat, action in record:
            again.apply(seat, action)
        assert again.digest() == st.digest(), (players, options)


def check_views(st: DeadwoodState) -> None:
    """Every view JSON-encodes; the spectator sees no hand and no unrevealed Safe's contents."""
    for seat in [None, OMNISCIENT, *range(st.n)]:
        msgspec.json.encode(st.view(seat))
    spectator = st.view(None)
    figures = list(spectator.players) + ([spectator.stranger] if spectator.stranger else [])
    for figure in figures:
        for view in figure.safes:
            assert view.contents is None or view.revealed, figure
    assert spectator.hand == () and spectator.hands is None
    msgspec.json.encode(st.events(None))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(combination=hs.sampled_from(COMBINATIONS), seed=hs.integers(0, 2**31))
def test_random_games_with_options_are_sound(combination, seed):
    """Property: any valid player count and options, random legal play terminates without an error; every view
    JSON-encodes; a spectator never sees an unrevealed Safe; replaying the recorded actions on a fresh game with
    the same seed and options gives the same digest."""
    players, options = combination
    game = engine.game("deadwood1876")
    st = game.new_game(players, seed, options)
    rng = random.Random(seed)
    record: list[tuple[int, Any]] = []
    while not st.is_over:
        check_views(st)
        seat = rng.choice(st.to_act)
        legal = st.legal_actions(seat)
        assert legal, (st.phase, seat)
        action = legal[rng.randrange(len(legal))]
        st.apply(seat, action)
        record.append((seat, action))
        assert len(record) < 20_000, "game did not end"
    check_views(st)
    assert st.to_act == () and all(st.legal_actions(s) == [] for s in range(players))
    again = game.new_game(players, seed, options)
    for seat, action in record:
        again.apply(seat, action)
    assert again.digest() == st.digest()
    assert again.outcome == st.outcome


@pytest.mark.rule("deadwood1876", "horse-thief.join")
def test_horse_thieves_show_in_the_fight_view_once_the_window_closes():
    """HORSE THIEF: a thief's white Horse is laid face up, so once the Holster window has closed every seat's
    view of the fight lists the thieves (here while the attacker still chooses between two Holsters)."""
    st = thief_table(())
    fight = st.fight
    assert fight is not None
    assert st.view(0).fight.thieves == ()
    fight.thieves = {2: WHITE_HORSE}
    st.wait_for((0,), "choose_holster")
    for seat in (None, 0, 1, 3):
        assert st.view(seat).fight.thieves == ((2, st.card(WHITE_HORSE)),)
