"""Wyatt Earp: a turn (rulebook: Game Play, 1. Draw, 2. Play, 3. Discard) and Outlaw sets."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.wyatt_earp.actions import (
    Discard,
    DrawFromSupply,
    PlayOutlaws,
    PlayPhoto,
    PlaySheriff,
    TakeTopDiscard,
    WyattEarpDraw,
)
from engine.wyatt_earp.events import CardsDrawn, OutlawsPlayed, TopDiscardTaken
from tests.wyatt_earp_helpers import BILLY, JESSE, act, cards, check_conservation, events_of, hand_kinds, kind, position


@pytest.mark.rule("wyatt_earp", "draw.choice")
def test_draw_two_from_the_supply_privately() -> None:
    st = position(3, 0, hands={0: ["wyatt_earp"]}, supply=["belle", "jesse"], discard=["hideout"])
    assert st.legal_actions(0) == [DrawFromSupply(), TakeTopDiscard()]
    act(st, 0, DrawFromSupply())
    assert hand_kinds(st, 0) == sorted([kind("jesse"), kind("belle"), kind("wyatt_earp")])
    assert st.phase == "play" and st.to_act == (0,)
    mine = events_of(st, CardsDrawn, 0)[0]
    assert [c.name for c in mine.cards] == ["Jesse James", "Belle Starr"]
    assert events_of(st, CardsDrawn, 1) == [CardsDrawn(0, 2, "draw")]
    assert events_of(st, CardsDrawn, None) == [CardsDrawn(0, 2, "draw")]
    assert not st.known


@pytest.mark.rule("wyatt_earp", "draw.choice")
def test_take_the_top_discard_everyone_sees_it() -> None:
    st = position(3, 0, hands={0: ["wyatt_earp"]}, discard=["hideout", "belle"])
    top = st.discard[-1]
    act(st, 0, TakeTopDiscard())
    assert top in st.hands[0] and st.discard == cards("hideout")
    assert top in st.known
    assert events_of(st, TopDiscardTaken, 1)[0].card.id == top
    assert [c.id for c in st.view(1).players[0].known] == [top]
    assert st.view(0).players[0].known == ()  # the own hand is in View.hand


@pytest.mark.rule("wyatt_earp", "draw.choice")
def test_no_top_discard_to_take_from_an_empty_stack() -> None:
    st = position(2, 0, hands={0: ["billy"]}, discard=[])
    assert st.legal_actions(0) == [DrawFromSupply()]


@pytest.mark.rule("wyatt_earp", "outlaws.first-set")
def test_first_set_needs_three_outlaw_cards() -> None:
    st = position(3, 0, hands={0: ["billy", "billy", "billy", "billy", "jesse", "jesse"]}, phase="play")
    legal = st.legal_actions(0)
    assert [a for a in legal if isinstance(a, PlayOutlaws)] == [PlayOutlaws(BILLY, 3), PlayOutlaws(BILLY, 4)]
    with pytest.raises(IllegalAction):
        st.apply(0, PlayOutlaws(JESSE, 2))


@pytest.mark.rule("wyatt_earp", "outlaws.any-number")
def test_after_the_first_set_any_number() -> None:
    st = position(3, 1, territories={0: {"billy": ["billy"] * 3}}, hands={1: ["billy", "billy", "jesse"]}, phase="play")
    plays = [a for a in st.legal_actions(1) if isinstance(a, PlayOutlaws)]
    assert plays == [PlayOutlaws(BILLY, 1), PlayOutlaws(BILLY, 2)]


@pytest.mark.rule("wyatt_earp", "outlaws.reward")
def test_reward_examples_of_the_rulebook() -> None:
    """2. Play, examples 1-3: Anna 4 Jesse James (+$3,000), Curt 2 (+$1,000), Anna 1 more (+$0)."""
    st = position(3, 0, hands={0: ["jesse"] * 5 + ["wyatt_earp"], 2: ["jesse"] * 2 + ["hideout"]}, phase="play")
    st.posters[JESSE] = 1000
    act(st, 0, PlayOutlaws(JESSE, 4))
    assert st.posters[JESSE] == 4000
    assert events_of(st, OutlawsPlayed)[-1] == OutlawsPlayed(
        0, JESSE, tuple(st.view(0).players[0].territory[0].cards), 3000, 4000, True
    )
    act(st, 0, Discard("wyatt_earp", -1))
    # seat 1 passes by: draws and discards
    act(st, 1, DrawFromSupply())
    act(st, 1, st.legal_actions(1)[-1])
    act(st, 2, TakeTopDiscard())
    act(st, 2, PlayOutlaws(JESSE, 2))
    assert st.posters[JESSE] == 5000
    act(st, 2, Discard("hideout", -1))
    act(st, 0, DrawFromSupply())
    act(st, 0, PlayOutlaws(JESSE, 1))
    assert st.posters[JESSE] == 5000
    assert events_of(st, OutlawsPlayed)[-1].reward == 0
    check_conservation(st)


@pytest.mark.rule("wyatt_earp", "outlaws.one-group")
def test_one_group_per_outlaw() -> None:
    st = position(2, 0, territories={0: {"billy": ["billy"] * 3}}, hands={0: ["billy", "billy", "jesse"]}, phase="play")
    act(st, 0, PlayOutlaws(BILLY, 2))
    assert len(st.terr[0][BILLY]) == 5
    assert len(st.view(0).players[0].territory) == 1


@pytest.mark.rule("wyatt_earp", "outlaws.each-play")
def test_the_same_outlaw_may_be_played_again_in_a_turn() -> None:
    """Round two: the rulebook does not limit a turn to one batch per Outlaw (see the package
    docstring); each play pays for its own cards."""
    st = position(3, 0, hands={0: ["billy"] * 5 + ["jesse"]}, phase="play")
    act(st, 0, PlayOutlaws(BILLY, 3))
    assert [a for a in st.legal_actions(0) if isinstance(a, PlayOutlaws)] == [
        PlayOutlaws(BILLY, 1),
        PlayOutlaws(BILLY, 2),
    ]
    act(st, 0, PlayOutlaws(BILLY, 1))
    assert [e.reward for e in events_of(st, OutlawsPlayed)] == [2000, 0]


@pytest.mark.rule("wyatt_earp", "outlaws.each-play")
def test_outlaw_cards_gained_later_are_a_new_batch() -> None:
    st = position(3, 0, hands={0: ["billy"] * 4 + ["wyatt_earp", "jesse"]}, supply=["billy", "jesse"], phase="play")
    act(st, 0, PlayOutlaws(BILLY, 3))
    act(st, 0, WyattEarpDraw())
    plays = [a for a in st.legal_actions(0) if isinstance(a, PlayOutlaws)]
    assert plays == [PlayOutlaws(BILLY, 1), PlayOutlaws(BILLY, 2)]


@pytest.mark.rule("wyatt_earp", "play.keep-a-discard")
def test_a_card_must_stay_to_discard() -> None:
    st = position(3, 0, hands={0: ["billy", "billy", "billy"]}, phase="play")
    assert not any(isinstance(a, PlayOutlaws) for a in st.legal_actions(0))
    st = position(3, 0, hands={0: ["billy"] * 4}, phase="play")
    assert [a for a in st.legal_actions(0) if isinstance(a, PlayOutlaws)] == [PlayOutlaws(BILLY, 3)]
    st = position(3, 0, territories={0: {"billy": ["billy"] * 3}}, hands={0: ["bank_robbery"]}, phase="play")
    assert st.legal_actions(0) == [Discard("bank_robbery", -1)]


@pytest.mark.rule("wyatt_earp", "play.cards")
def test_a_played_card_cannot_be_the_discard() -> None:
    st = position(3, 0, hands={0: ["billy"] * 3 + ["jesse"]}, phase="play")
    assert Discard("outlaw", BILLY) in st.legal_actions(0)
    act(st, 0, PlayOutlaws(BILLY, 3))
    assert st.legal_actions(0) == [Discard("outlaw", JESSE)]


@pytest.mark.rule("wyatt_earp", "discard.ends-turn")
def test_discard_ends_the_turn_and_has_no_effect() -> None:
    st = position(3, 2, hands={2: ["hideout", "billy"]}, territories={0: {"jesse": ["jesse"] * 3}}, phase="play")
    act(st, 2, Discard("hideout", -1))
    assert st.discard[-1] in cards("hideout")
    assert st.hideout == [[-1] * 7 for _ in range(3)]
    assert st.to_act == (0,) and st.phase == "draw" and st.current == 0  # clockwise: seat 2's left is 0


@pytest.mark.rule("wyatt_earp", "sheriff.one-per-turn")
@pytest.mark.rule("wyatt_earp", "play.cards")
def test_at_most_one_sheriff_card_a_turn() -> None:
    st = position(
        3,
        0,
        territories={0: {"billy": ["billy"] * 3}},
        hands={0: ["photo:billy", "bank_robbery", "jesse"]},
        phase="play",
    )
    assert PlaySheriff("bank_robbery") in st.legal_actions(0)
    act(st, 0, PlayPhoto(BILLY))
    assert st.legal_actions(0) == [Discard("outlaw", JESSE), Discard("bank_robbery", -1)]
    assert st.view(1).sheriff_played


def test_legal_actions_are_a_copy_and_illegal_changes_nothing() -> None:
    st = position(3, 0, hands={0: ["billy"] * 3 + ["jesse"]}, phase="play")
    legal = st.legal_actions(0)
    legal.clear()
    assert st.legal_actions(0)
    digest = st.digest()
    with pytest.raises(IllegalAction):
        st.apply(0, PlayOutlaws(JESSE, 1))
    with pytest.raises(IllegalAction):
        st.apply(1, DrawFromSupply())
    with pytest.raises(IllegalAction):
        st.apply(True, PlayOutlaws(BILLY, 3))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction):
        st.apply(0, PlayOutlaws(BILLY, True))  # type: ignore[arg-type]
    assert st.digest() == digest
    assert st.legal_actions(1) == []
