"""Deadwood 1876: tests for the rules of ``docs/rules/deadwood1876.md`` that no other test checked.

Components (the data's assumptions, ``shared/data/deadwood1876/NOTES.md``), the characters, the
black die, and revealed Badges keeping their place when their owner shuffles. Each test names its
rule with ``@pytest.mark.rule`` (see ``saloon/rules_doc.py``).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from engine.deadwood1876.actions import PassSafe
from engine.deadwood1876.components import BADGE, GOLD, HORSE, MYSTERY, SHOWDOWN_GUN
from engine.deadwood1876.rules import laws
from engine.deadwood1876.rules.setup import BLACK_DIE
from tests.helpers import COMP, ReversingChance, ScriptedChance, new_state, position, safe

ODDS_TABLE = (
    (50, 33, 19, 7, 3),
    (67, 50, 31, 14, 7),
    (81, 69, 50, 31, 18),
    (93, 86, 69, 50, 31),
    (97, 93, 82, 69, 50),
)
"""STATS, "ODDS OF THIS DIE WINNING": row gun against column gun, weakest (Pepperbox) first, in percent."""


def win_odds(mine: tuple[int, ...], theirs: tuple[int, ...]) -> Fraction:
    """The chance that ``mine`` beats ``theirs`` when ties are rerolled."""
    wins = sum(1 for a in mine for b in theirs if a > b)
    losses = sum(1 for a in mine for b in theirs if a < b)
    return Fraction(wins, wins + losses)


@pytest.mark.rule("deadwood1876", "contents.dice")
def test_gun_dice_reproduce_the_printed_odds_table():
    """STATS: every cell of the odds table, rounded to the percent, from the data's die faces."""
    assert COMP.gun_names == ("Pepperbox", "Derringer", "Colt", "Winchester", "Messenger")
    assert COMP.gun_faces == (
        (0, 0, 0, 1, 1, 2),
        (0, 0, 1, 1, 2, 2),
        (0, 1, 1, 2, 2, 3),
        (1, 1, 2, 2, 3, 3),
        (1, 2, 2, 3, 3, 4),
    )
    for row, printed in enumerate(ODDS_TABLE):
        for col, percent in enumerate(printed):
            odds = win_odds(COMP.gun_faces[row], COMP.gun_faces[col])
            assert round(odds * 100) == percent, (COMP.gun_names[row], COMP.gun_names[col], float(odds))


@pytest.mark.rule("deadwood1876", "contents.establishments")
def test_establishments_clockwise_from_the_gem_theatre():
    """SET UP 1: three establishments, the Gem Theatre first; the Bella Union's name is assumed (NOTES.md)."""
    assert COMP.establishment_names == ("Gem Theatre", "Grand Central Hotel", "Bella Union")
    assert [COMP.establishment_names[e] for e in COMP.player_counts[3].establishments] == [
        "Gem Theatre",
        "Bella Union",
    ]


@pytest.mark.rule("deadwood1876", "contents.gun-item-pairing")
def test_each_gun_has_two_horses_one_white_and_three_holsters():
    """CARD COUNTS with the assumed pairing: per gun 2 Horses (1 white) and 3 Holsters; Pepperbox and
    Derringer have 3 Dusters and 2 Stetsons, Colt, Winchester and Messenger 2 Dusters and 3 Stetsons."""
    per_gun = Counter(zip(COMP.card_gun, COMP.card_item, strict=True))
    dusters = (3, 3, 2, 2, 2)
    for gun in range(5):
        assert per_gun[gun, HORSE] == 2
        assert per_gun[gun, "holster"] == 3
        assert per_gun[gun, "duster"] == dusters[gun]
        assert per_gun[gun, "stetson"] == 5 - dusters[gun]
        whites = [c for c in range(len(COMP.card_gun)) if COMP.card_gun[c] == gun and COMP.card_white[c]]
        assert len(whites) == 1 and COMP.card_item[whites[0]] == HORSE


@pytest.mark.rule("deadwood1876", "contents.safes")
def test_the_25_safes_and_their_assumed_values():
    """CARD COUNTS: 5 Badges, 5 Mystery Safes, 7 Guns, 8 Gold Values; gold 1,1,2,2,3,3,4,4 and the
    Showdown Guns one of each plus a second Derringer and Colt (assumed, NOTES.md)."""
    assert Counter(COMP.safe_kind) == {BADGE: 5, MYSTERY: 5, SHOWDOWN_GUN: 7, GOLD: 8}
    gold = sorted(COMP.safe_gold[s] for s in range(25) if COMP.safe_kind[s] == GOLD)
    assert gold == [1, 1, 2, 2, 3, 3, 4, 4]
    guns = Counter(COMP.gun_names[COMP.safe_gun[s]] for s in range(25) if COMP.safe_kind[s] == SHOWDOWN_GUN)
    assert guns == {"Pepperbox": 1, "Derringer": 2, "Colt": 2, "Winchester": 1, "Messenger": 1}
    badges = sorted((COMP.safe_badge_order[s], COMP.safe_names[s]) for s in range(25) if COMP.safe_kind[s] == BADGE)
    assert [name for _, name in badges] == ["Tin Badge", "Iron Badge", "Copper Badge", "Silver Badge", "Gold Badge"]


@pytest.mark.rule("deadwood1876", "setup.characters")
@pytest.mark.parametrize("players", [2, 5, 9])
def test_seat_i_plays_the_i_th_character_and_the_stranger_the_next(players):
    """SET UP 2 (decision): seat ``i`` plays the ``i``-th character; at 2 players the Stranger the third."""
    st = new_state(players, seed=11)
    names = [p.character for p in st.view(None).players]
    assert names[:players] == list(COMP.character_names[:players])
    if players == 2:  # the Stranger joins after the Safe pass
        for seat in range(2):
            st.apply(seat, PassSafe(0))
        assert st.view(None).stranger.character == COMP.character_names[2]


@pytest.mark.rule("deadwood1876", "play.black-die")
def test_the_black_die_is_a_d6_and_the_tied_highest_reroll():
    """HOW TO PLAY (decision): the black die has faces 1-6; here seats 1 and 3 tie on 6, reroll 2 and 5: seat 3
    goes first."""
    assert BLACK_DIE == (1, 2, 3, 4, 5, 6)
    st = new_state(4, seed=3)
    st.chance = ScriptedChance([4, 6, 1, 6, 2, 5])  # type: ignore[assignment]
    for seat in range(4):
        st.apply(seat, PassSafe(0))
    assert st.to_act == (3,)
    assert st.view(None).first == 3
    assert st.chance.rolls == []  # type: ignore[attr-defined]


@pytest.mark.rule("deadwood1876", "law.first-revealed-badges-stay")
def test_a_revealed_badge_keeps_its_place_when_its_owner_shuffles():
    """FIRST LAW (decision): a revealed Badge lies face up, so it keeps its place (and stays known to all)
    when its owner shuffles; the face-down Safes are shuffled among the other places."""
    st = position(
        4,
        0,
        rows={0: ["Gold 1", "Tin Badge", "Gold 2", "Gold 3"], 1: ["Gold 4"]},
        est=[0, 0, 1, 1],
        chance=ReversingChance,
    )
    tin = safe("Tin Badge")
    st.revealed.add(tin)
    st.known[1] = {safe("Gold 1"), safe("Gold 3")}
    laws.shuffle_row(st, 0)
    assert st.rows[0] == [safe("Gold 3"), tin, safe("Gold 2"), safe("Gold 1")]
    labels = [s.contents for s in st.view(1).players[0].safes]
    assert labels == [None, "Tin Badge", None, None]
