"""Wyatt Earp: the decisions taken where the rulebook is silent (listed in the docstring of
``engine.wyatt_earp``), one test each unless another test file covers it (named in the comment)."""

from __future__ import annotations

import msgspec
import pytest

from engine.core import IllegalAction
from engine.wyatt_earp import GAME
from engine.wyatt_earp.actions import (
    ChooseTarget,
    Discard,
    DrawFromSupply,
    MostWantedSteal,
    PlayOutlaws,
    PlayPhoto,
    TakeTopDiscard,
    WyattEarpSearch,
    WyattEarpTake,
)
from engine.wyatt_earp.events import CardStolen, HandEnded
from tests.wyatt_earp_helpers import BELLE, BILLY, JESSE, WES, act, cards, events_of, position


@pytest.mark.rule("wyatt_earp", "setup.first-dealer")
def test_first_dealer_is_drawn_at_random() -> None:
    dealers = {GAME.new_game(4, seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}


@pytest.mark.rule("wyatt_earp", "discard.top-discard-again")
def test_the_top_discard_taken_may_be_discarded_again() -> None:
    st = position(3, 0, hands={0: ["jesse"]}, discard=["billy"])
    act(st, 0, TakeTopDiscard())
    act(st, 0, Discard("outlaw", BILLY))
    assert st.discard == cards("billy") and st.to_act == (1,)


@pytest.mark.rule("wyatt_earp", "outlaws.opened")
def test_an_outlaw_stays_opened_when_its_set_is_stolen_away() -> None:
    st = position(
        3,
        0,
        territories={1: {"billy": ["billy", "bank_robbery"]}},
        opened=[BILLY],
        hands={0: ["most_wanted", "jesse", "jesse"], 2: ["photo:billy", "wes"]},
        supply=["sundance"],
        phase="play",
    )
    act(st, 0, MostWantedSteal())
    act(st, 0, ChooseTarget(1, BILLY))
    assert st.terr[1][BILLY] == [] and st.opened[BILLY]
    act(st, 0, PlayOutlaws(BILLY, 1))  # no set of 3 needed any more
    act(st, 0, Discard("outlaw", JESSE))
    act(st, 1, DrawFromSupply())
    act(st, 1, st.legal_actions(1)[-1])
    act(st, 2, DrawFromSupply())
    assert PlayPhoto(BILLY) in st.legal_actions(2)


@pytest.mark.rule("wyatt_earp", "most-wanted.which-card")
def test_most_wanted_steals_the_outlaw_card_played_last() -> None:
    st = position(
        3,
        0,
        territories={1: {"wes": ["wes", "wes", "wes"]}},
        hands={0: ["most_wanted", "jesse"]},
        supply=["sundance"],
        phase="play",
    )
    last = st.terr[1][WES][-1]
    act(st, 0, MostWantedSteal())
    act(st, 0, ChooseTarget(1, WES))
    assert events_of(st, CardStolen)[0].card.id == last


@pytest.mark.rule("wyatt_earp", "wyatt-earp.search-decisions")
def test_wyatt_earp_takes_the_topmost_card_of_the_kind() -> None:
    st = position(3, 0, hands={0: ["wyatt_earp", "jesse"]}, discard=["belle", "billy", "belle", "jesse"], phase="play")
    top_belle = st.discard[2]
    act(st, 0, WyattEarpSearch())
    act(st, 0, WyattEarpTake("outlaw", BELLE))
    assert top_belle in st.hands[0] and st.discard[0] in cards("belle")


@pytest.mark.rule("wyatt_earp", "hand-end.supply-decisions")
def test_nothing_to_reshuffle_ends_the_hand() -> None:
    st = position(3, 0, hands={0: ["jesse", "wes"]}, discard=[])
    st.discard, st.supply = st.supply[:-1], st.supply[-1:]  # one card left; the rest out of reach
    st.terr[2][BILLY] = st.discard
    st.discard = []
    act(st, 0, DrawFromSupply())
    assert events_of(st, HandEnded) == [HandEnded("supply_exhausted", 0)]


def test_actions_must_be_the_games_own_types() -> None:
    class Sub(PlayOutlaws, frozen=True, tag="play_outlaws"):
        pass

    st = position(3, 0, hands={0: ["billy"] * 3 + ["jesse"]}, phase="play")
    with pytest.raises(IllegalAction):
        st.apply(0, Sub(BILLY, 3))
    with pytest.raises(IllegalAction):
        st.apply(0, "play_outlaws")
    decoded = msgspec.json.decode(b'{"type":"play_outlaws","outlaw":0,"count":3}', type=GAME.action_type)
    st.apply(0, decoded)
    assert len(st.terr[0][BILLY]) == 3


# Covered elsewhere:
# * a card must stay to discard; one batch per Outlaw: test_wyatt_earp_turn.py
# * targets after the shot; Hideout on others only; always asking the covered player; two-player
#   Most Wanted!; orphaned Hideout; the immediate second Sheriff card: test_wyatt_earp_sheriff.py
# * the known card leaves a hand first; what the table knows: test_wyatt_earp_knowledge.py
# * supply exhaustion for draws, Wyatt Earp draws and shots; hand cards to the discard stack;
#   0 CP never shares; the duel's order, repeats and ranks: test_wyatt_earp_hand_end.py
# * the free_photo reading: test_wyatt_earp_sheriff.py
