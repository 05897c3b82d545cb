"""Wyatt Earp: the end of a hand, scoring and the end of the game (rulebook: End of a Hand,
Scoring, End of the Game)."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.wyatt_earp.actions import (
    Discard,
    DrawFromSupply,
    MostWantedAsk,
    PlaySheriff,
    TakeTopDiscard,
    WyattEarpDraw,
)
from engine.wyatt_earp.components import OUTLAW, components
from engine.wyatt_earp.events import (
    DuelShot,
    GameOver,
    HandCardsDiscarded,
    HandEnded,
    OutlawScored,
    SupplyReshuffled,
)
from engine.wyatt_earp.rules.scoring import share_reward
from engine.wyatt_earp.state import WyattEarpState
from tests.wyatt_earp_helpers import (
    BELLE,
    BUTCH,
    JESSE,
    WES,
    act,
    cards,
    check_conservation,
    events_of,
    position,
)

COMP = components()


def shrink_supply(st: WyattEarpState, keep: int) -> None:
    """Move all but the top ``keep`` supply cards under the discard stack."""
    cut = len(st.supply) - keep
    st.discard = st.supply[:cut] + st.discard
    st.supply = st.supply[cut:]


# ---------------------------------------------------------------------------------------------- the three ways


@pytest.mark.rule("wyatt_earp", "hand-end.last-card")
def test_hand_ends_when_the_last_card_is_discarded() -> None:
    st = position(3, 1, hands={1: ["wes"], 2: ["billy", "hideout"], 0: ["jesse"]}, phase="play")
    held = list(st.hands[2])
    act(st, 1, Discard("outlaw", WES))
    assert events_of(st, HandEnded) == [HandEnded("last_card", 1)]
    dumped = {e.seat: [c.id for c in e.cards] for e in events_of(st, HandCardsDiscarded)}
    assert dumped[2] == held and set(dumped) == {0, 2}
    assert st.hand_no == 2


@pytest.mark.rule("wyatt_earp", "hand-end.empty-hand")
def test_hand_ends_when_another_hand_is_empty_at_the_end_of_a_turn() -> None:
    st = position(3, 0, hands={0: ["most_wanted", "wes", "jesse"], 1: ["belle"], 2: ["billy"]}, phase="play")
    act(st, 0, MostWantedAsk(BELLE, True))
    assert st.hands[1] == [] and st.phase == "play"  # nothing ends before the turn does
    act(st, 0, Discard("outlaw", WES))
    assert events_of(st, HandEnded) == [HandEnded("empty_hand", 1)]
    assert st.hand_no == 2


@pytest.mark.rule("wyatt_earp", "draw.reshuffle")
def test_first_exhaustion_reshuffles_and_finishes_the_draw() -> None:
    st = position(3, 0, hands={0: ["wes"]}, discard=["belle", "jesse"])
    shrink_supply(st, 1)
    last = st.supply[-1]
    st.discard = [c for c in st.discard if c not in cards("belle", "jesse")] + cards("belle", "jesse")
    act(st, 0, DrawFromSupply())
    assert events_of(st, SupplyReshuffled)
    assert st.reshuffled and st.discard == []
    assert last in st.hands[0] and cards("jesse")[0] in st.hands[0]  # the scripted shuffle keeps the top
    assert st.phase == "play"
    check_conservation(st)


@pytest.mark.rule("wyatt_earp", "hand-end.supply-exhausted")
def test_second_exhaustion_ends_the_hand_unless_the_top_discard_is_taken() -> None:
    st = position(3, 0, hands={0: ["wes", "billy"]}, discard=["belle"], reshuffled=True)
    shrink_supply(st, 1)
    assert st.legal_actions(0) == [DrawFromSupply(), TakeTopDiscard()]
    prolonged = st.clone()
    act(st, 0, DrawFromSupply())
    assert events_of(st, HandEnded) == [HandEnded("supply_exhausted", 0)]
    assert st.hand_no == 2
    act(prolonged, 0, TakeTopDiscard())
    assert prolonged.phase == "play" and prolonged.hand_no == 1


@pytest.mark.rule("wyatt_earp", "hand-end.supply-exhausted")
def test_two_cards_left_after_the_reshuffle_is_not_yet_the_end() -> None:
    st = position(3, 0, hands={0: ["wes", "billy"]}, reshuffled=True)
    shrink_supply(st, 2)
    act(st, 0, DrawFromSupply())
    assert st.phase == "play" and st.supply == []
    act(st, 0, Discard("outlaw", WES))
    act(st, 1, DrawFromSupply())
    assert events_of(st, HandEnded) == [HandEnded("supply_exhausted", 1)]


@pytest.mark.rule("wyatt_earp", "hand-end.supply-decisions")
def test_shot_and_wyatt_earp_draw_on_an_exhausted_supply_end_the_hand() -> None:
    st = position(
        3,
        0,
        territories={0: {"billy": ["billy"] * 3}},
        hands={0: ["bank_robbery", "wes"]},
        reshuffled=True,
        phase="play",
    )
    shrink_supply(st, 0)
    act(st, 0, PlaySheriff("bank_robbery"))
    assert events_of(st, HandEnded) == [HandEnded("supply_exhausted", 0)]
    st = position(3, 0, hands={0: ["wyatt_earp", "wes"]}, reshuffled=True, phase="play")
    shrink_supply(st, 1)
    act(st, 0, WyattEarpDraw())
    assert events_of(st, HandEnded) == [HandEnded("supply_exhausted", 0)]


# ---------------------------------------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    ("cp", "reward", "paid", "left"),
    [
        ([11, 6, 2], 9000, [9000, 0, 0], 0),  # example 1: Anna earns the entire $9,000
        ([9, 5, 4], 8000, [5000, 3000, 0], 0),  # example 2
        ([4, 4, 2], 3000, [0, 0, 0], 3000),  # example 3: nobody, $3,000 stays
        ([4, 4, 2], 6000, [2000, 2000, 1000], 1000),  # example 4
        ([4, 2, 1], 9000, [0, 0, 0], 9000),  # fewer than 8 CP: not captured
        ([10, 5], 7000, [7000, 0], 0),  # a lead of exactly 5 takes everything
        ([10, 6], 7000, [4000, 3000], 0),  # a lead of 4: sharing
        ([4, 4, 0], 6000, [3000, 3000, 0], 0),  # 0 CP never shares (ASSUMED)
        ([0, 8, 0, 0], 3000, [0, 3000, 0, 0], 0),
    ],
)
@pytest.mark.rule("wyatt_earp", "scoring.lead")
@pytest.mark.rule("wyatt_earp", "scoring.share")
@pytest.mark.rule("wyatt_earp", "scoring.zero-cp")
def test_share_reward(cp: list[int], reward: int, paid: list[int], left: int) -> None:
    assert share_reward(COMP, cp, reward) == (paid, left)
    assert sum(paid) + left == reward


def scored(territories: dict[int, dict[str | int, list[str]]], reward: int) -> tuple[list[int], OutlawScored]:
    """End a hand with these territories and ``reward`` on Butch Cassidy's poster."""
    st = position(3, 0, territories=territories, hands={0: ["wes"]}, posters={BUTCH: reward}, phase="play")
    act(st, 0, Discard("outlaw", WES))
    result = [e for e in events_of(st, OutlawScored) if e.outlaw == BUTCH][0]
    assert st.posters[BUTCH] == result.left + 1000  # what stays, plus the next hand's $1,000
    return st.money, result


@pytest.mark.rule("wyatt_earp", "scoring.capture")
@pytest.mark.rule("wyatt_earp", "scoring.lead")
def test_scoring_example_1_on_the_table() -> None:
    money, result = scored(
        {
            0: {"butch": ["butch", "butch", "photo:butch", "fastest_gun"]},
            1: {"butch": ["butch"] * 3},
            2: {"butch": ["butch"]},
        },
        9000,
    )
    assert result.cp == (11, 6, 2) and money == [9000, 0, 0]


@pytest.mark.rule("wyatt_earp", "scoring.outlaw-cp")
@pytest.mark.rule("wyatt_earp", "scoring.capture")
def test_every_outlaw_card_counts_2_cp() -> None:
    """Scoring: "The CP are the numbers in the upper left of the Outlaw and Sheriff cards"; every Outlaw card shows
    2 (data, NOTES.md). Three Butch Cassidy cards are 6 CP, short of the 8 a capture needs; four are 8 and take the
    whole reward; three and one in two territories are 6 and 2, a capture shared (a lead of 4)."""
    assert [COMP.card_cp[c] for c in range(COMP.num_cards) if COMP.card_type[c] == OUTLAW] == [2] * 49
    money, result = scored({0: {"butch": ["butch"] * 3}}, 5000)
    assert result.cp == (6, 0, 0) and not result.captured and money == [0, 0, 0]
    money, result = scored({0: {"butch": ["butch"] * 4}}, 5000)
    assert result.cp == (8, 0, 0) and result.captured and money == [5000, 0, 0]
    money, result = scored({0: {"butch": ["butch"] * 3}, 2: {"butch": ["butch"]}}, 5000)
    assert result.cp == (6, 0, 2) and result.captured and money == [3000, 0, 2000]


@pytest.mark.rule("wyatt_earp", "scoring.share")
def test_scoring_example_2_on_the_table() -> None:
    money, result = scored(
        {
            0: {"butch": ["butch", "butch", "photo:butch", "stagecoach_robbery"]},
            1: {"butch": ["butch", "butch", "stagecoach_robbery"]},
            2: {"butch": ["butch", "butch"]},
        },
        8000,
    )
    assert result.cp == (9, 5, 4) and money == [5000, 3000, 0]


@pytest.mark.rule("wyatt_earp", "scoring.share")
@pytest.mark.rule("wyatt_earp", "scoring.zero-cp")
def test_scoring_examples_3_and_4_on_the_table() -> None:
    table: dict[int, dict[str | int, list[str]]] = {
        0: {"butch": ["butch", "butch"]},
        1: {"butch": ["butch", "butch"]},
        2: {"butch": ["butch"]},
    }
    money, result = scored(table, 3000)
    assert result.cp == (4, 4, 2) and money == [0, 0, 0] and result.left == 3000
    money, result = scored(table, 6000)
    assert money == [2000, 2000, 1000] and result.left == 1000


@pytest.mark.rule("wyatt_earp", "scoring.capture")
@pytest.mark.rule("wyatt_earp", "hideout.effect")
def test_hideout_covered_cp_do_not_count_in_scoring() -> None:
    st = position(
        3,
        0,
        territories={1: {"jesse": ["jesse"] * 5}, 2: {"jesse": ["jesse", "jesse"]}},
        hideouts=[(1, JESSE)],
        hands={0: ["wes"]},
        posters={JESSE: 5000},
        phase="play",
    )
    act(st, 0, Discard("outlaw", WES))
    result = [e for e in events_of(st, OutlawScored) if e.outlaw == JESSE][0]
    assert result.cp == (0, 0, 4) and not result.captured and st.money == [0, 0, 0]


# ---------------------------------------------------------------------------------------------- the end of the game


@pytest.mark.rule("wyatt_earp", "game-end.target")
@pytest.mark.rule("wyatt_earp", "game-end.ranks")
def test_game_ends_at_25000_after_scoring_and_the_richest_wins() -> None:
    st = position(
        3,
        0,
        territories={2: {"butch": ["butch"] * 4}},
        hands={0: ["wes"]},
        posters={BUTCH: 4000},
        money=[21000, 22000, 21000],
        phase="play",
    )
    act(st, 0, Discard("outlaw", WES))
    assert st.is_over and st.phase == "over" and st.to_act == ()
    assert st.money == [21000, 22000, 25000]
    assert st.outcome.scores == (21000.0, 22000.0, 25000.0)
    assert st.outcome.ranks == (3, 2, 1) and st.outcome.winners == (2,)
    assert events_of(st, GameOver) == [GameOver((21000, 22000, 25000), (2,))]
    assert all(st.legal_actions(s) == [] for s in range(3))
    with pytest.raises(IllegalAction):
        st.apply(0, DrawFromSupply())
    assert st.resample(0, 3).digest() == st.clone().digest()


@pytest.mark.rule("wyatt_earp", "game-end.target")
@pytest.mark.rule("wyatt_earp", "next-hand.deal")
def test_no_end_below_25000() -> None:
    st = position(3, 0, hands={0: ["wes"]}, money=[24000, 0, 0], phase="play")
    act(st, 0, Discard("outlaw", WES))
    assert not st.is_over and st.hand_no == 2
    with pytest.raises(ValueError):
        _ = st.outcome


@pytest.mark.rule("wyatt_earp", "game-end.duel")
@pytest.mark.rule("wyatt_earp", "game-end.ranks")
def test_a_tie_is_settled_by_the_duel() -> None:
    # seat 0 started the hand; the duel draws clockwise from it: seat 0, then seat 2
    st = position(
        3,
        0,
        hands={0: ["wes"], 1: ["jesse"], 2: ["billy"]},
        money=[25000, 3000, 25000],
        supply=["belle", "photo:belle", "bank_robbery", "hideout"],
        phase="play",
    )
    act(st, 0, Discard("outlaw", WES))
    shots = events_of(st, DuelShot)
    # round 1: seat 0 a Hideout, seat 2 a Bank robbery: both blanks, they draw again;
    # round 2: seat 0 the Photo (blank, out), seat 2 Belle Starr (a bullet hole)
    assert [(e.round, e.seat, e.card.name, e.hit) for e in shots] == [
        (1, 0, "Hideout", False),
        (1, 2, "Bank robbery", False),
        (2, 0, "Photo (Belle Starr)", False),
        (2, 2, "Belle Starr", True),
    ]
    assert st.outcome.winners == (2,)
    assert st.outcome.ranks == (2, 3, 1)
    assert st.outcome.scores == (25000.0, 3000.0, 25000.0)


@pytest.mark.rule("wyatt_earp", "game-end.duel-decisions")
def test_the_duel_goes_on_when_everyone_hits() -> None:
    st = position(
        2,
        0,
        hands={0: ["wes"], 1: ["jesse"]},
        money=[30000, 30000],
        supply=["hideout", "belle", "billy", "belle"],
        phase="play",
    )
    act(st, 0, Discard("outlaw", WES))
    shots = [(e.round, e.seat, e.hit) for e in events_of(st, DuelShot)]
    assert shots == [(1, 0, True), (1, 1, True), (2, 0, True), (2, 1, False)]
    assert st.outcome.winners == (0,) and st.outcome.ranks == (1, 2)
