"""Deadwood Studios ``describe``: every kind of decision in words, from the mover's view and in the
third person from another view."""

from __future__ import annotations

import pytest

from engine.core import OMNISCIENT
from engine.deadwood_studios import GAME
from engine.deadwood_studios.actions import Act, EndTurn, Move, Rehearse, TakeRole, Upgrade
from tests.deadwood_studios_helpers import card, position


def test_moves_say_what_is_there() -> None:
    st = position(
        3,
        scenes={"main_street": card(1)},
        shots_left={"main_street": 1},
        face_down={"hotel"},
        wrapped={"saloon"},
    )
    view = st.view(0)
    assert [GAME.describe(a, view) for a in st.legal_actions(0)] == [
        "Move to Main Street (Evil Wears a Hat, $4M, 1 shot left)",
        "Move to the Saloon (wrapped)",
        "Move to the Hotel (a new scene)",
        "End the turn at the Trailers",
    ]


def test_roles_and_upgrades() -> None:
    st = position(2, scenes={"saloon": card(2)}, rooms={0: "saloon"})
    view = st.view(0)
    assert GAME.describe(TakeRole("Reluctant Farmer", False), view) == (
        "Take the extra role Reluctant Farmer (rank 1) at the Saloon"
    )
    assert GAME.describe(TakeRole("Rug Merchant", True), view) == (
        "Take the starring role Rug Merchant (rank 1) in Law and the Old West, $3M"
    )
    assert GAME.describe(Upgrade(4, "dollars"), view) == "Upgrade to rank 4 for $18"
    assert GAME.describe(Upgrade(4, "credits"), view) == "Upgrade to rank 4 for 15 credits"


def test_work() -> None:
    st = position(
        2,
        scenes={"saloon": card(2)},
        rooms={1: "saloon"},
        roles={1: "Rug Merchant"},
        chips={1: 1},
        current=1,
    )
    view = st.view(1)
    assert GAME.describe(Act(), view) == "Act: roll a die + 1 chip against the $3M budget (success on 2+)"
    assert GAME.describe(Rehearse(), view) == "Rehearse: take a practice chip (2 in all)"
    st.chips[1] = 2
    assert GAME.describe(Act(), st.view(1)) == "Act: roll a die + 2 chips against the $3M budget (sure to succeed)"


@pytest.mark.parametrize("observer", [0, None, OMNISCIENT])
def test_another_seats_move_is_described_from_any_view(observer: int | None) -> None:
    st = position(2, scenes={"saloon": card(2)}, rooms={1: "saloon"}, roles={1: "Rug Merchant"}, current=1)
    view = st.view(observer)
    assert GAME.describe(Act(), view, 1) == "Act: roll a die against the $3M budget (success on 3+)"
    assert GAME.describe(EndTurn(), view, 0) == "End the turn at the Trailers"
    assert GAME.describe(Move("saloon"), view, 0).startswith("Move to the Saloon (Law and the Old West")


def test_not_an_action_raises() -> None:
    with pytest.raises(TypeError):
        GAME.describe("act", GAME.new_game(2, 1).view(0))
