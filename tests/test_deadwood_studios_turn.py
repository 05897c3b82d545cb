"""Deadwood Studios turns (rulebook: On Your Turn, Moving and Taking Roles, Upgrading) and bad input."""

from __future__ import annotations

import msgspec
import pytest

from engine import IllegalAction
from engine.deadwood_studios import GAME
from engine.deadwood_studios.actions import Act, EndTurn, Move, Rehearse, TakeRole, Upgrade
from engine.deadwood_studios.events import Moved, RoleTaken, TurnStarted, Upgraded
from tests.deadwood_studios_helpers import COMP, act, card, events_of, position

END = EndTurn()


@pytest.mark.rule("deadwood_studios", "turn.move-or-take")
def test_moving_is_one_step_to_an_adjacent_room() -> None:
    st = position(3)
    assert st.legal_actions(0) == [Move("main_street"), Move("saloon"), Move("hotel"), END]
    assert st.legal_actions(1) == [] and st.legal_actions(2) == []
    act(st, 0, Move("saloon"))
    assert st.room[0] == COMP.room("saloon") and st.moved
    assert events_of(st, Moved) == [Moved(0, "trailers", "saloon")]
    # one step only: no second move, but roles and the end of the turn
    assert not any(isinstance(a, Move) for a in st.legal_actions(0))
    assert st.legal_actions(0)[-1] == END


@pytest.mark.rule("deadwood_studios", "turn.take-role")
@pytest.mark.rule("deadwood_studios", "turn.take-role-ends-turn")
def test_take_a_role_after_moving_ends_the_turn() -> None:
    st = position(3, scenes={"saloon": card(2)})  # Law and the Old West, $3M: ranks 1, 2, 5
    act(st, 0, Move("saloon"))
    assert st.legal_actions(0) == [TakeRole("Reluctant Farmer", False), TakeRole("Rug Merchant", True), END]
    act(st, 0, TakeRole("Rug Merchant", True))
    assert (st.role[0], st.on_card[0], st.chips[0]) == (0, True, 0)
    assert st.star_by[9] == [0, -1, -1]
    assert events_of(st, RoleTaken) == [RoleTaken(0, "saloon", "Rug Merchant", 1, True)]
    assert st.to_act == (1,)
    player = st.view(None).players[0]
    assert (player.room, player.role, player.on_card, player.chips) == ("saloon", "Rug Merchant", True, 0)


@pytest.mark.rule("deadwood_studios", "turn.take-role")
def test_only_free_roles_up_to_your_rank() -> None:
    st = position(
        3,
        scenes={"saloon": card(2)},
        rooms={0: "saloon", 1: "saloon"},
        roles={1: "Reluctant Farmer"},
        ranks={0: 2},
    )
    assert st.legal_actions(0) == [
        TakeRole("Woman in Red Dress", False),
        TakeRole("Rug Merchant", True),
        TakeRole("Banker", True),
        Move("main_street"),
        Move("general_store"),
        Move("bank"),
        Move("trailers"),
        END,
    ]
    with pytest.raises(IllegalAction):
        st.apply(0, TakeRole("Reluctant Farmer", False))  # taken
    with pytest.raises(IllegalAction):
        st.apply(0, TakeRole("Talking Mule", True))  # rank 5


@pytest.mark.rule("deadwood_studios", "turn.take-role")
def test_an_extra_and_a_starring_role_may_share_a_name() -> None:
    # Ranch has the extra "Shot in Leg" (rank 1); card 16 has the starring "Shot in Leg" (rank 4)
    st = position(2, scenes={"ranch": card(16)}, rooms={0: "ranch"}, ranks={0: 4})
    legal = st.legal_actions(0)
    assert TakeRole("Shot in Leg", False) in legal and TakeRole("Shot in Leg", True) in legal
    act(st, 0, TakeRole("Shot in Leg", True))
    assert (st.role[0], st.on_card[0]) == (1, True)
    assert st.extra_by[7] == [-1, -1, -1] and st.star_by[7] == [-1, 0, -1]


@pytest.mark.rule("deadwood_studios", "turn.take-role")
@pytest.mark.rule("deadwood_studios", "turn.move-or-take")
def test_take_a_role_without_moving_or_stand_on_the_set() -> None:
    st = position(2, scenes={"saloon": card(2)}, rooms={0: "saloon"})
    assert TakeRole("Rug Merchant", True) in st.legal_actions(0)
    act(st, 0, END)  # stand on the set without a role
    assert (st.room[0], st.role[0], st.to_act) == (9, -1, (1,))
    act(st, 1, END)
    act(st, 0, TakeRole("Reluctant Farmer", False))
    assert (st.role[0], st.on_card[0]) == (0, False)


@pytest.mark.rule("deadwood_studios", "turn.work")
def test_working_you_must_act_or_rehearse() -> None:
    st = position(2, scenes={"saloon": card(2)}, rooms={0: "saloon"}, roles={0: "Rug Merchant"})
    assert st.phase == "work"
    assert st.legal_actions(0) == [Act(), Rehearse()]
    assert events_of(st, TurnStarted) == [TurnStarted(0, True)]
    digest = st.digest()
    for action in (Move("trailers"), END, TakeRole("Banker", True)):
        with pytest.raises(IllegalAction):
            st.apply(0, action)
    assert st.digest() == digest


@pytest.mark.rule("deadwood_studios", "turn.ends-by-itself")
def test_the_turn_ends_by_itself_when_nothing_is_left() -> None:
    st = position(2, rooms={0: "saloon"})
    act(st, 0, Move("trailers"))  # no role, nothing to buy: only ending the turn is left
    assert st.to_act == (1,)
    assert events_of(st, TurnStarted)[-1] == TurnStarted(1, False)


@pytest.mark.rule("deadwood_studios", "wrap.after")
def test_a_wrapped_set_has_no_roles() -> None:
    st = position(2, wrapped={"saloon"}, rooms={0: "saloon"})
    assert st.legal_actions(0) == [Move("main_street"), Move("general_store"), Move("bank"), Move("trailers"), END]
    view = st.view(None)
    assert view.sets[9].wrapped and view.sets[9].scene is None and view.sets[9].starring == ()


@pytest.mark.rule("deadwood_studios", "upgrade.casting-office")
def test_upgrade_at_the_casting_office_before_moving() -> None:
    st = position(2, rooms={0: "casting_office"}, dollars={0: 10}, credits={0: 10})
    assert st.legal_actions(0) == [
        Upgrade(2, "dollars"),
        Upgrade(2, "credits"),
        Upgrade(3, "dollars"),
        Upgrade(3, "credits"),
        Move("train_station"),
        Move("ranch"),
        Move("secret_hideout"),
        END,
    ]
    act(st, 0, Upgrade(3, "credits"))
    assert (st.rank[0], st.dollars[0], st.credits[0]) == (3, 10, 0)
    assert events_of(st, Upgraded) == [Upgraded(0, 1, 3, "credits", 10)]
    # once a turn; the move may follow
    assert st.legal_actions(0) == [Move("train_station"), Move("ranch"), Move("secret_hideout"), END]
    act(st, 0, Move("ranch"))
    assert st.to_act == (0,) and st.room[0] == COMP.room("ranch")


@pytest.mark.rule("deadwood_studios", "upgrade.casting-office")
def test_upgrade_after_moving_into_the_casting_office() -> None:
    st = position(2, rooms={0: "ranch"}, dollars={0: 4}, credits={0: 4})
    act(st, 0, Move("casting_office"))
    assert st.legal_actions(0) == [Upgrade(2, "dollars"), END]
    act(st, 0, Upgrade(2, "dollars"))
    assert (st.rank[0], st.dollars[0], st.credits[0]) == (2, 0, 4)
    assert st.to_act == (1,)  # nothing is left to do: the turn ended by itself


@pytest.mark.rule("deadwood_studios", "turn.ends-by-itself")
@pytest.mark.rule("deadwood_studios", "upgrade.casting-office")
def test_moving_into_the_casting_office_without_money_ends_the_turn() -> None:
    st = position(2, rooms={0: "ranch"}, dollars={0: 3}, credits={0: 4})
    act(st, 0, Move("casting_office"))
    assert st.to_act == (1,)


@pytest.mark.parametrize("rank", [1, 3, 5])
@pytest.mark.rule("deadwood_studios", "upgrade.prices")
@pytest.mark.rule("deadwood_studios", "upgrade.once")
def test_the_price_of_a_rank_does_not_depend_on_your_rank(rank: int) -> None:
    st = position(2, rooms={0: "casting_office"}, ranks={0: rank}, dollars={0: 40}, credits={0: 25})
    act(st, 0, Upgrade(6, "dollars"))
    assert (st.rank[0], st.dollars[0], st.credits[0]) == (6, 0, 25)
    st = position(2, rooms={0: "casting_office"}, ranks={0: rank}, dollars={0: 40}, credits={0: 25})
    act(st, 0, Upgrade(6, "credits"))
    assert (st.rank[0], st.dollars[0], st.credits[0]) == (6, 40, 0)


@pytest.mark.rule("deadwood_studios", "upgrade.once")
@pytest.mark.rule("deadwood_studios", "upgrade.casting-office")
def test_only_higher_ranks_and_only_at_the_casting_office() -> None:
    st = position(2, rooms={0: "casting_office"}, ranks={0: 4}, dollars={0: 100}, credits={0: 100})
    upgrades = [a for a in st.legal_actions(0) if isinstance(a, Upgrade)]
    assert upgrades == [Upgrade(5, "dollars"), Upgrade(5, "credits"), Upgrade(6, "dollars"), Upgrade(6, "credits")]
    st = position(2, rooms={0: "casting_office"}, ranks={0: 6}, dollars={0: 100}, credits={0: 100})
    assert not any(isinstance(a, Upgrade) for a in st.legal_actions(0))
    st = position(2, rooms={0: "ranch"}, dollars={0: 100}, credits={0: 100})
    with pytest.raises(IllegalAction):
        st.apply(0, Upgrade(2, "dollars"))


class NotAnAction(msgspec.Struct, frozen=True, tag="move"):
    to: str


@pytest.mark.parametrize(
    ("seat", "action"),
    [
        (1, Move("saloon")),  # not this seat's turn
        (0, Move("bank")),  # not adjacent
        (0, Move("trailers")),  # already there
        (0, Act()),  # not working
        (0, Rehearse()),
        (0, TakeRole("Reluctant Farmer", False)),  # not on that set
        (0, Upgrade(2, "dollars")),  # not at the Casting Office
        (0, NotAnAction("saloon")),  # equal fields, but not a game action
        (0, "end_turn"),
        (True, END),  # not a seat
        (0.0, END),
        (5, END),
    ],
)
def test_illegal_actions_raise_and_change_nothing(seat: object, action: object) -> None:
    st = position(3, dollars={0: 50})
    digest, events = st.digest(), len(st.events(None))
    with pytest.raises(IllegalAction):
        st.apply(seat, action)  # type: ignore[arg-type]
    assert st.digest() == digest and len(st.events(None)) == events
    assert st.legal_actions(0) == [Move("main_street"), Move("saloon"), Move("hotel"), END]


def test_legal_actions_of_a_bad_seat_raise() -> None:
    st = GAME.new_game(2, 1)
    for seat in (2, -1, None, "0", True):
        with pytest.raises(IllegalAction):
            st.legal_actions(seat)  # type: ignore[arg-type]


def test_an_equal_copy_of_a_legal_action_is_accepted() -> None:
    st = position(2)
    action = msgspec.json.decode(b'{"type":"move","to":"hotel"}', type=Move)
    st.apply(0, action)
    assert st.room[0] == COMP.room("hotel")
