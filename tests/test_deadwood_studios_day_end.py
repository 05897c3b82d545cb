"""Deadwood Studios: the end of a day and of the game (rulebook: Ending the Day, Scoring)."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.core import OMNISCIENT
from engine.deadwood_studios.actions import Act, EndTurn
from engine.deadwood_studios.components import NUM_SETS, TRAILERS
from engine.deadwood_studios.events import DayEnded, DayStarted, FinalScore, GameEnded, ScenesDealt
from engine.deadwood_studios.rules.scoring import points
from tests.deadwood_studios_helpers import COMP, act, card, check_cards, events_of, position

SETS = [COMP.room_ids[s] for s in range(NUM_SETS)]


def two_scenes_left(players: int, *, day: int = 1, last_face_down: bool = True, **kwargs):
    """Only the Bank (Disaster at Flying J, one shot) and the Saloon (card 2) are left; seat 0 works
    the Bank's extra Flustered Teller and rolls a 6: the wrap leaves one scene."""
    rooms = {0: "bank", **kwargs.pop("rooms", {})}
    roles = {0: "Flustered Teller", **kwargs.pop("roles", {})}
    ranks = {0: 3, **kwargs.pop("ranks", {})}
    return position(
        players,
        scenes={"bank": card(17), "saloon": card(2)},
        wrapped=[s for s in SETS if s not in ("bank", "saloon")],
        face_down={"saloon"} if last_face_down else (),
        rooms=rooms,
        roles=roles,
        ranks=ranks,
        day=day,
        dice=[6],
        **kwargs,
    )


@pytest.mark.rule("deadwood_studios", "day.end")
@pytest.mark.rule("deadwood_studios", "day.next")
def test_the_day_ends_with_one_scene_left() -> None:
    st = two_scenes_left(4, rooms={1: "ranch", 2: "casting_office"})
    coming = list(reversed(st.deck[-NUM_SETS:]))
    wrapped_today = list(st.removed)
    assert len(wrapped_today) == 8
    act(st, 0, Act())
    # the last scene is removed face down, unseen
    assert events_of(st, DayEnded) == [DayEnded(1, "saloon", None, False)]
    assert events_of(st, DayEnded, OMNISCIENT) == [DayEnded(1, "saloon", COMP.scenes[card(2)], False)]
    assert st.removed == [*wrapped_today, card(17)] and st.removed_unseen == [card(2)]
    # everyone back to the Trailers; ten new scenes face down; shot counters replaced
    assert st.day == 2 and st.room == [TRAILERS] * 4 and st.role == [-1] * 4
    assert st.scene == coming and not any(st.face_up) and st.shots_left == list(COMP.shots)
    assert len(st.deck) == 20
    check_cards(st)
    # the next player goes on
    assert st.to_act == (1,) and st.phase == "move"
    assert events_of(st, DayStarted)[-1] == DayStarted(2, 4, 1)
    assert events_of(st, ScenesDealt)[-1] == ScenesDealt(2, 20, None)
    view = st.view(None)
    assert view.removed[-1] == COMP.scenes[card(17)] and len(view.removed) == 9 and view.removed_unseen == 1
    assert view.scenes_left == 10 and view.deck_size == 20


@pytest.mark.rule("deadwood_studios", "day.end")
@pytest.mark.rule("deadwood_studios", "day.last-scene-unseen")
def test_the_last_scene_does_not_finish_and_pays_nobody() -> None:
    st = two_scenes_left(
        3,
        last_face_down=False,
        rooms={1: "saloon", 2: "saloon"},
        roles={1: "Talking Mule", 2: "Reluctant Farmer"},
        ranks={1: 5},
        chips={1: 2},
        credits={1: 3},
    )
    act(st, 0, Act())
    assert (st.dollars, st.credits) == ([1, 0, 0], [1, 3, 0])  # only seat 0's act paid
    assert st.role == [-1, -1, -1] and st.chips == [0, 0, 0] and st.on_card == [False] * 3
    assert events_of(st, DayEnded) == [DayEnded(1, "saloon", COMP.scenes[card(2)], False)]
    assert st.removed[-2:] == [card(17), card(2)] and len(st.removed) == 10 and st.removed_unseen == []
    assert st.to_act == (1,) and st.phase == "move"  # seat 1 is free again
    check_cards(st)


@pytest.mark.rule("deadwood_studios", "setup.group-sizes")
@pytest.mark.rule("deadwood_studios", "game.end")
def test_four_players_play_a_fourth_day() -> None:
    st = two_scenes_left(4, day=3)
    act(st, 0, Act())
    assert not st.is_over and st.day == 4 and len(st.deck) == 0


@pytest.mark.rule("deadwood_studios", "game.end")
@pytest.mark.rule("deadwood_studios", "scoring.points")
def test_after_the_last_day_the_game_is_scored() -> None:
    st = two_scenes_left(2, day=3, dollars={0: 8, 1: 10}, credits={1: 4}, ranks={1: 2})
    assert st.days == 3
    act(st, 0, Act())
    assert st.is_over and st.to_act == () and st.phase == "over"
    assert events_of(st, DayEnded)[-1] == DayEnded(3, "saloon", None, True)
    # dollars + credits + 5 x rank: seat 0 $9 + 1 + 15 = 25, seat 1 $10 + 4 + 10 = 24
    assert st.outcome.scores == (25.0, 24.0)
    assert st.outcome.ranks == (1, 2) and st.outcome.winners == (0,)
    assert events_of(st, GameEnded) == [
        GameEnded((FinalScore(0, 9, 1, 3, 25, 1), FinalScore(1, 10, 4, 2, 24, 2)), (0,))
    ]
    assert [st.legal_actions(seat) for seat in (0, 1)] == [[], []]
    with pytest.raises(IllegalAction):
        st.apply(0, EndTurn())
    view = st.view(None)
    assert view.winners == (0,) and view.current == -1 and view.to_act == ()
    assert [p.points for p in view.players] == [25, 24]


@pytest.mark.rule("deadwood_studios", "scoring.ties")
def test_ties_share_the_place() -> None:
    st = two_scenes_left(3, day=3, dollars={0: 8, 1: 10}, credits={1: 5}, ranks={1: 2})
    act(st, 0, Act())
    assert st.outcome.scores == (25.0, 25.0, 5.0)
    assert st.outcome.ranks == (1, 1, 3) and st.outcome.winners == (0, 1)


def test_the_outcome_before_the_end_raises() -> None:
    st = two_scenes_left(2)
    with pytest.raises(ValueError):
        st.outcome  # noqa: B018


@pytest.mark.rule("deadwood_studios", "scoring.points")
def test_the_rulebooks_scoring_example() -> None:
    assert points(35, 10, 6) == 75
