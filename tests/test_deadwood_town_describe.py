"""Deadwood's move texts (``Game.describe``) say what a cowboy's arrival leads to (issue 37): a
shootout with the cowboy holding the building, or the Church's annex at once; from the seat's
view only (the town is public), and exactly when the engine then starts a shootout."""

from __future__ import annotations

import random

from engine.core import OMNISCIENT
from engine.deadwood_town import GAME
from engine.deadwood_town.actions import Annex, HitTheTown, MoveTo, PickCowboy
from engine.deadwood_town.events import BuildingAnnexed, ShootoutStarted
from tests.deadwood_town_helpers import act, position

SHOOTOUT = " — shootout with "


def test_describe_a_placement_that_leads_to_a_shootout_or_an_annex() -> None:
    st = position(2, town={"D2": "grifter", "B1": "bank"}, cowboys={"D2": [(1, 1)]})
    mine = st.view(0)
    assert (
        GAME.describe(HitTheTown(2, "D2"), mine)
        == "Hit the Town: send your Gunslinger to the Grifter (D2) — shootout with seat 1's Greenhorn"
    )
    assert GAME.describe(HitTheTown(2, "B1"), mine) == "Hit the Town: send your Gunslinger to the Bank (B1)"
    assert (
        GAME.describe(HitTheTown(1, "A3"), mine)
        == "Hit the Town: send your Greenhorn to the Church (A3) — annexes at once"
    )
    assert (  # the defender's own view of the move (a replay's last move)
        GAME.describe(HitTheTown(2, "D2"), st.view(1), 0)
        == "Hit the Town: send a Gunslinger to the Grifter (D2) — shootout with your Greenhorn"
    )
    everything = GAME.describe(HitTheTown(3, "D2"), st.view(OMNISCIENT), 0)
    assert everything == "Hit the Town: send a Trail Boss to the Grifter (D2) — shootout with seat 1's Greenhorn"


def test_describe_a_general_store_move_onto_a_held_building() -> None:
    st = position(
        2, town={"B1": "general_store", "C2": "bank", "C3": "hotel"}, cowboys={"C2": [(1, 2)], "A3": [(1, 1)]}
    )
    act(st, 0, HitTheTown(3, "B1"))
    act(st, 0, Annex())
    act(st, 0, PickCowboy("A3", 1, 1))  # seat 1's Greenhorn at the Church
    view = st.view(0)
    assert (
        GAME.describe(MoveTo("C2"), view)
        == "General Store: move it to the Bank (C2) — shootout with seat 1's Gunslinger"
    )
    assert GAME.describe(MoveTo("C3"), view) == "General Store: move it to the Hotel (C3)"


def _arrivals(st, seat: int) -> list:
    return [a for a in st.legal_actions(seat) if isinstance(a, HitTheTown | MoveTo)]


def test_the_move_text_says_shootout_exactly_when_one_starts() -> None:
    """Over random games at 2, 3 and 5 players: every arrival's text (Hit the Town, a General
    Store's move) says "shootout" exactly when playing it starts one, and "annexes at once"
    exactly when the building is annexed at once; the text reads the same from any redeal of
    what the seat cannot see."""
    said = {"shootout": 0, "annex": 0, "plain": 0}
    for players, seed in ((2, 1), (3, 2), (5, 3)):
        st = GAME.new_game(players, seed)
        rng = random.Random(seed)
        decisions = 0
        while not st.is_over and decisions < 600:
            seat = st.to_act[0]
            view = st.view(seat)
            arrivals = _arrivals(st, seat)
            for action in rng.sample(arrivals, min(len(arrivals), 4)):
                text = GAME.describe(action, view)
                assert GAME.describe(action, st.resample(seat, decisions).view(seat)) == text
                after = st.clone()
                seen = len(after.events(None))
                after.apply(seat, action)
                new = after.events(None, seen)
                assert (SHOOTOUT in text) == any(isinstance(e, ShootoutStarted) for e in new), text
                at_once = isinstance(action, HitTheTown) and any(isinstance(e, BuildingAnnexed) for e in new)
                assert text.endswith(" — annexes at once") == at_once, text
                said["shootout" if SHOOTOUT in text else "annex" if at_once else "plain"] += 1
            st.apply(seat, rng.choice(st.legal_actions(seat)))
            decisions += 1
    assert all(said.values()), said
