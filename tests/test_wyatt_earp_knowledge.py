"""Wyatt Earp: what each seat knows (views, events, ``resample``) and ``describe``."""

from __future__ import annotations

import random

import pytest

import engine
from engine.wyatt_earp import GAME
from engine.wyatt_earp.actions import (
    ChooseTarget,
    Discard,
    DrawFromSupply,
    MostWantedAsk,
    PlayOutlaws,
    PlaySheriff,
    TakeTopDiscard,
    WyattEarpSearch,
    WyattEarpTake,
)
from engine.wyatt_earp.state import KIND
from tests.wyatt_earp_helpers import BELLE, BILLY, JESSE, WES, act, cards, check_conservation, kind, position


@pytest.mark.rule("wyatt_earp", "most-wanted.ask-decisions")
def test_most_wanted_answers_are_known_in_every_resample() -> None:
    st = position(
        4,
        0,
        hands={0: ["most_wanted", "wes", "jesse"], 1: ["billy", "jesse"], 2: ["belle", "belle", "wes"], 3: ["wes"]},
        phase="play",
    )
    act(st, 0, MostWantedAsk(BELLE, True))
    given = [c for c in st.hands[0] if KIND[c] == BELLE][0]
    assert st.lacks[1] == 1 << BELLE
    for seed in range(30):
        sample = st.resample(3, seed)
        assert given in sample.hands[0]  # seat 3 heard it: it stays where it is
        assert not any(KIND[c] == BELLE for c in sample.hands[1])  # seat 1 had none
        check_conservation(sample)
    seen = {tuple(sorted(st.resample(3, seed).hands[2])) for seed in range(30)}
    assert len(seen) > 1
    assert st.view(3).players[0].known[0].id == given
    assert st.view(None).players[1].lacks == (BELLE,)


def test_a_hidden_draw_forgets_what_a_hand_lacked() -> None:
    st = position(3, 0, hands={0: ["most_wanted", "wes", "billy"], 1: ["jesse"], 2: ["jesse"]}, phase="play")
    act(st, 0, MostWantedAsk(BELLE, True))
    assert st.lacks[1] == st.lacks[2] == 1 << BELLE
    act(st, 0, Discard("outlaw", WES))
    act(st, 1, DrawFromSupply())
    assert st.lacks == [0, 0, 1 << BELLE]


@pytest.mark.rule("wyatt_earp", "cards.which-leaves-a-hand")
def test_lacks_cleared_by_drawing_from_the_supply() -> None:
    st = position(3, 1, hands={1: ["jesse", "wes"]})
    st.lacks[1] = 1 << BELLE
    act(st, 1, DrawFromSupply())
    assert st.lacks[1] == 0
    st = position(3, 1, hands={1: ["jesse", "wes"]}, discard=["billy"])
    st.lacks[1] = 1 << BELLE
    act(st, 1, TakeTopDiscard())  # a card everyone sees: what was lacked still holds
    assert st.lacks[1] == 1 << BELLE


@pytest.mark.rule("wyatt_earp", "cards.which-leaves-a-hand")
def test_a_known_card_leaves_the_hand_first() -> None:
    st = position(3, 1, hands={1: ["billy", "wes"]}, discard=["billy"], territories={0: {"billy": ["billy"] * 3}})
    act(st, 1, TakeTopDiscard())
    taken = st.hands[1][-1]
    assert st.known == {taken}
    act(st, 1, PlayOutlaws(BILLY, 1))
    assert taken in st.terr[1][BILLY] and not st.known


@pytest.mark.rule("wyatt_earp", "wyatt-earp.search-hidden")
def test_a_card_taken_with_a_search_is_known_to_the_searcher_only() -> None:
    """Wyatt Earp: "adds it to his hand, without showing the other players" (round two: it was
    known to all)."""
    st = position(
        3, 0, hands={0: ["wyatt_earp", "wes"]}, discard=["hideout", "belle"], territories={1: {"billy": ["billy"] * 3}}
    )
    st.wait_for(0, "play")
    act(st, 0, WyattEarpSearch())
    act(st, 0, WyattEarpTake("hideout", -1))
    hideout = cards("hideout")[0]
    assert hideout not in st.known and hideout in st.secret
    assert st.view(2).players[0].known == ()
    assert hideout in {c.id for c in st.view(0).hand}
    assert {hideout in st.resample(2, seed).hands[0] for seed in range(10)} == {True, False}
    assert all(hideout in st.resample(0, seed).hands[0] for seed in range(10))


def test_resample_keeps_the_own_hand_and_the_table() -> None:
    st = GAME.new_game(4, 11)
    for seat in range(4):
        for seed in range(5):
            sample = st.resample(seat, seed)
            assert sample.view(seat) == st.view(seat)
            assert sample.hands[seat] == st.hands[seat]
            assert sample.discard == st.discard
            assert [len(h) for h in sample.hands] == [len(h) for h in st.hands]
    assert st.resample(0, 1).digest() != st.resample(0, 2).digest()
    with pytest.raises(ValueError):
        st.resample(engine.OMNISCIENT, 1)
    with pytest.raises(ValueError):
        st.resample(4, 1)
    with pytest.raises(ValueError):
        st.resample(0, -1)


def test_resample_keeps_private_events_of_the_seat_only() -> None:
    st = GAME.new_game(3, 5)
    sample = st.resample(1, 3)
    assert sample.events(1) == st.events(1)
    assert sample.events(engine.OMNISCIENT) == [e for e in st.events(1)]


def test_view_seats_are_checked() -> None:
    st = GAME.new_game(2, 1)
    for bad in (2, -2, 1.0, True, "0"):
        with pytest.raises(ValueError):
            st.view(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            st.events(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            st.legal_actions(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        st.events(0, -1)
    assert st.view(None).hand == ()
    assert st.view(engine.OMNISCIENT).hands is not None


def test_describe() -> None:
    st = position(
        3,
        0,
        territories={0: {"billy": ["billy"] * 3}, 1: {"jesse": ["jesse"] * 3}},
        hands={0: ["hideout", "billy", "wes"]},
        supply=["sundance"],
        phase="play",
    )
    view = st.view(0)
    assert GAME.describe(PlayOutlaws(BILLY, 1), view) == "Play 1 Billy the Kid card"
    assert GAME.describe(PlayOutlaws(BILLY, 3), view, seat=0) == "Play 3 Billy the Kid cards"
    assert GAME.describe(PlayOutlaws(BILLY, 3), st.view(engine.OMNISCIENT), seat=2) == ("Play 3 Billy the Kid cards")
    assert GAME.describe(Discard("outlaw", WES), view) == "Discard a Wes Hardin card"
    assert GAME.describe(MostWantedAsk(JESSE, False), view) == (
        "Most Wanted!: ask for a Jesse James card, starting right (counterclockwise)"
    )
    assert GAME.describe(PlaySheriff("hideout"), view) == "Play Hideout: try a shot"
    act(st, 0, PlaySheriff("hideout"))
    assert GAME.describe(ChooseTarget(1, JESSE), st.view(0)) == "Put the Hideout on seat 1's Jesse James"
    assert GAME.describe(DrawFromSupply(), st.view(None), seat=1) == "Draw two cards from the supply"
    assert kind("billy") == BILLY
    with pytest.raises(TypeError):
        GAME.describe(object(), view)


def test_after_the_reshuffle_the_supply_holds_only_recycled_cards() -> None:
    checked = 0
    for seed in range(40):
        st = GAME.new_game(3, seed)
        rng = random.Random(seed)
        while not st.reshuffled or st.phase != "draw":
            legal = st.legal_actions(st.to_act[0])
            st.apply(st.to_act[0], legal[rng.randrange(len(legal))])
            if st.is_over:
                break
        if st.is_over or not any(st.drawn_since):
            continue
        for seat in range(3):
            for sample_seed in range(5):
                sample = st.resample(seat, sample_seed)
                # a card taken unseen by a search before the reshuffle may change places with one
                # shuffled in (``sample.recycled``; see engine/wyatt_earp/resample.py)
                assert set(sample.supply) <= sample.recycled
                for p, hand in enumerate(sample.hands):
                    if p != seat:
                        hidden = [c for c in hand if c not in st.known and c not in sample.secret]
                        assert sum(c in sample.recycled for c in hidden) <= st.drawn_since[p]
                fresh = {
                    c
                    for p, h in enumerate(st.hands)
                    if p != seat
                    for c in h
                    if c not in st.recycled and c not in st.secret
                }
                assert fresh <= {c for p, h in enumerate(sample.hands) if p != seat for c in h}
                checked += 1
    assert checked >= 30


@pytest.mark.rule("wyatt_earp", "play.territory-open")
@pytest.mark.rule("wyatt_earp", "scoring.money-open")
def test_territories_and_money_are_on_view_to_every_seat_and_spectators() -> None:
    """Game Play: "The cards in a player's territory should always be displayed so that all players can see their
    numbers and which Outlaw they represent"; Scoring: "a player's money (reward tokens) is open for all players to
    see and count". Seat 0 lays three Wes Hardin cards and ends the hand; every seat's view and a spectator's show
    each territory card by card with its CP, then the money each player holds after the scoring."""
    st = position(
        3,
        0,
        territories={1: {"jesse": ["jesse", "jesse", "jesse", "bank_robbery"]}},
        hands={0: ["wes", "wes", "wes", "billy"], 1: ["belle"], 2: ["bob", "bob"]},
        money=[4000, 7000, 0],
        phase="play",
    )
    wes = [c for c in st.hands[0] if KIND[c] == kind("wes")]
    jesse = list(st.terr[1][JESSE])
    act(st, 0, PlayOutlaws(WES, 3))
    for viewer in (None, 0, 1, 2):
        view = st.view(viewer)
        territories = [[(g.outlaw, [c.id for c in g.cards], g.cp) for g in p.territory] for p in view.players]
        assert territories == [[(WES, wes, 6)], [(JESSE, jesse, 8)], []]
        assert [p.money for p in view.players] == [4000, 7000, 0]
    act(st, 0, Discard("outlaw", BILLY))
    for viewer in (None, 0, 1, 2):
        assert [p.money for p in st.view(viewer).players] == [4000, 8000, 0]
