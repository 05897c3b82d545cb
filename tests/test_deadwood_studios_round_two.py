"""Deadwood Studios, rules round two (issue 22): the day's last scene "does not finish", so after the
last day its set is not shown as wrapped (rulebook: Ending the Day); and every game ends: our
no-progress rule calls a day after 5 rounds of turns in a row in which nobody acted, rehearsed,
took a role or upgraded (``rules/ending_the_day.py``, the package docstring)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import OMNISCIENT
from engine.deadwood_studios import GAME, RULES_VERSION
from engine.deadwood_studios.actions import Act, EndTurn, Move, Rehearse, TakeRole, Upgrade
from engine.deadwood_studios.components import DOLLARS, NUM_SETS, TRAILERS
from engine.deadwood_studios.events import (
    DayCalled,
    DayEnded,
    DayStarted,
    FinalScore,
    GameEnded,
    SceneRevealed,
    TurnStarted,
)
from engine.deadwood_studios.rules.ending_the_day import IDLE_ROUNDS
from tests.deadwood_studios_helpers import COMP, ROOM, act, card, check_cards, events_of, position

SETS = [COMP.room_ids[s] for s in range(NUM_SETS)]


def last_wrap_of_the_game(players: int, *, last_face_down: bool) -> Any:
    """The last day: only the Bank (Disaster at Flying J, one shot) and the Saloon (card 2, 2 shots, one
    removed) are left; seat 0 works the Bank's extra Flustered Teller and rolls a 6: the wrap leaves one scene,
    which ends the day and the game."""
    days = 3 if players <= 3 else 4
    return position(
        players,
        scenes={"bank": card(17), "saloon": card(2)},
        wrapped=[s for s in SETS if s not in ("bank", "saloon")],
        face_down={"saloon"} if last_face_down else (),
        shots_left={"saloon": 1},
        rooms={0: "bank"},
        roles={0: "Flustered Teller"},
        ranks={0: 3},
        day=days,
        dice=[6],
    )


@pytest.mark.rule("deadwood_studios", "day.end")
@pytest.mark.rule("deadwood_studios", "day.last-scene-unfinished")
@pytest.mark.rule("deadwood_studios", "game.end")
@pytest.mark.parametrize(("players", "last_face_down"), [(2, True), (2, False), (5, True), (5, False)])
def test_the_last_scene_of_the_last_day_is_not_wrapped(players: int, last_face_down: bool) -> None:
    """ENDING THE DAY: "The day is over when there is only one scene left. This last scene does not finish" and
    "After the fourth day, the game is over" (the third with 2-3 players). On the final board the Bank, wrapped by
    the last shot, shows ``wrapped``; the Saloon, whose scene was removed unfinished, does not: no card, not face
    down, not wrapped, its shot counter still on it."""
    st = last_wrap_of_the_game(players, last_face_down=last_face_down)
    act(st, 0, Act())
    shown = None if last_face_down else COMP.scenes[card(2)]
    assert events_of(st, DayEnded) == [DayEnded(st.days, "saloon", shown, True)]
    assert st.is_over and len(events_of(st, GameEnded)) == 1
    check_cards(st)
    for seat in (None, 0, OMNISCIENT):
        view = st.view(seat)
        assert view.phase == "over"
        saloon = view.sets[ROOM["saloon"]]
        assert (saloon.wrapped, saloon.face_down, saloon.scene, saloon.starring) == (False, False, None, ())
        assert (saloon.shots, saloon.shots_left) == (2, 1)
        assert [s.id for s in view.sets if s.wrapped] == [s for s in SETS if s != "saloon"]
        assert view.sets[ROOM["bank"]].wrapped and view.sets[ROOM["bank"]].shots_left == 0


@pytest.mark.rule("deadwood_studios", "day.next")
@pytest.mark.rule("deadwood_studios", "day.last-scene-unfinished")
def test_a_day_that_is_not_the_last_leaves_no_set_unfinished() -> None:
    """ENDING THE DAY: after a day that is not the last, ten new scenes are dealt: no set is wrapped or unfinished,
    and the state keeps no unfinished set."""
    st = position(
        2,
        scenes={"bank": card(17), "saloon": card(2)},
        wrapped=[s for s in SETS if s not in ("bank", "saloon")],
        rooms={0: "bank"},
        roles={0: "Flustered Teller"},
        ranks={0: 3},
        day=1,
        dice=[6],
    )
    act(st, 0, Act())
    assert st.day == 2 and not st.is_over and st.unfinished == ()
    view = st.view(None)
    assert not any(s.wrapped for s in view.sets) and all(s.face_down for s in view.sets)


# ------------------------------------------------------------------ the no-progress rule


def end_turns(st: Any, turns: int) -> None:
    """``turns`` turns in a row in which the player ends the turn at once."""
    for _ in range(turns):
        (seat,) = st.to_act
        act(st, seat, EndTurn())


def test_the_rules_version_is_bumped() -> None:
    """The no-progress rule changes what a recorded game means: replays of ``deadwood_studios/2``
    are refused."""
    assert RULES_VERSION == "deadwood_studios/3" and GAME.rules_version == RULES_VERSION
    assert IDLE_ROUNDS == 5


@pytest.mark.rule("deadwood_studios", "day.called")
@pytest.mark.rule("deadwood_studios", "day.next")
@pytest.mark.rule("deadwood_studios", "day.last-scene-unseen")
def test_players_who_only_end_their_turns_have_the_day_called() -> None:
    """Two players (seed 1: seat 0 goes first) end every turn at once in the Trailers. After 9 such
    turns play goes on; the 10th (5 rounds) calls the day: a public DayCalled naming the ten sets,
    their cards face down (shown only in the omniscient version), no DayEnded; the ten cards leave
    unseen, and day 2 starts with the player after the one whose turn called the day."""
    st = GAME.new_game(2, 1)
    assert st.current == 0
    dealt = list(st.scene)
    end_turns(st, 9)
    assert (st.day, st.idle_turns, st.to_act) == (1, 9, (1,)) and not events_of(st, DayCalled)
    act(st, 1, EndTurn())
    sets = tuple(COMP.room_ids[:NUM_SETS])
    faces = tuple(COMP.scenes[c] for c in dealt)
    assert events_of(st, DayCalled) == [DayCalled(1, 10, sets, (None,) * NUM_SETS, False)]
    assert events_of(st, DayCalled, 0) == events_of(st, DayCalled)
    assert events_of(st, DayCalled, OMNISCIENT) == [DayCalled(1, 10, sets, faces, False)]
    assert events_of(st, DayEnded) == [] and events_of(st, DayEnded, OMNISCIENT) == []
    assert st.removed == [] and st.removed_unseen == dealt
    assert events_of(st, DayStarted)[-1] == DayStarted(2, 3, 0)
    assert (st.day, st.idle_turns, st.to_act, st.phase) == (2, 0, (0,), "move")
    assert st.room == [TRAILERS, TRAILERS] and len(st.deck) == 20 and not any(st.face_up)
    assert st.view(None).removed_unseen == 10
    check_cards(st)


@pytest.mark.rule("deadwood_studios", "day.called")
@pytest.mark.rule("deadwood_studios", "turn.flip-scene")
def test_a_stuck_day_is_called_though_the_players_walk() -> None:
    """Only the Jail (Evil Wears a Hat: roles of rank 2, 3, 4; extras 2 and 3) and the Bank (Disaster
    at Flying J, face down: roles 2, 3, 4; extras 2 and 3) are left, and both players are rank 1
    with nothing to pay for an upgrade: by the rulebook alone nobody can ever take a role, no
    scene can wrap, and the day never ends. Walking is not progress (nor is turning a card up):
    after 5 rounds of walking the day is called, both scenes unfinished, and day 2 begins."""
    st = position(
        2,
        scenes={"jail": card(1), "bank": card(17)},
        wrapped=[s for s in SETS if s not in ("jail", "bank")],
        face_down={"bank"},
        rooms={0: "main_street", 1: "trailers"},
    )
    walks = {
        0: ["jail", "main_street", "jail", "main_street", "jail"],
        1: ["hotel", "bank", "hotel", "bank", "hotel"],
    }
    for turn in range(10):
        seat = turn % 2
        assert st.to_act == (seat,) and st.day == 1
        legal = st.legal_actions(seat)
        assert not [a for a in legal if isinstance(a, TakeRole | Upgrade)]
        act(st, seat, Move(walks[seat][turn // 2]))  # nothing else to do there: the turn ends by itself
    assert events_of(st, SceneRevealed) == [SceneRevealed(1, "bank", COMP.scenes[card(17)])]
    scenes = (COMP.scenes[card(1)], COMP.scenes[card(17)])
    assert events_of(st, DayCalled) == [DayCalled(1, 10, ("jail", "bank"), scenes, False)]
    assert events_of(st, DayCalled, OMNISCIENT) == events_of(st, DayCalled)
    assert st.removed[-2:] == [card(1), card(17)] and len(st.removed) == 10 and st.removed_unseen == []
    assert events_of(st, DayStarted)[-1] == DayStarted(2, 3, 0)
    assert st.day == 2 and st.to_act == (0,) and st.scenes_left() == 10
    check_cards(st)


def ready_for_the_tenth_turn(room: str, **kwargs: Any) -> Any:
    """Two players, day 1; seat 1 stands in ``room`` (the Saloon shows Law and the Old West: its
    extra Reluctant Farmer is rank 1). Nine turns are ended at once: seat 1's turn is the 10th."""
    st = position(2, scenes={"saloon": card(2)}, rooms={0: "trailers", 1: room}, **kwargs)
    end_turns(st, 9)
    assert (st.idle_turns, st.to_act) == (9, (1,))
    return st


@pytest.mark.rule("deadwood_studios", "day.called")
@pytest.mark.parametrize(
    ("room", "actions", "called"),
    [
        ("saloon", [TakeRole("Reluctant Farmer", False)], False),
        ("casting_office", [Upgrade(2, DOLLARS), EndTurn()], False),
        ("saloon", [Move("trailers")], True),
        ("saloon", [EndTurn()], True),
    ],
    ids=["take-a-role", "upgrade", "move", "end-the-turn"],
)
def test_taking_a_role_or_upgrading_starts_the_count_again(room: str, actions: list[Any], called: bool) -> None:
    """The 10th turn in a row: taking a role or upgrading is progress (the count starts again, the
    day goes on); moving or ending the turn at once is not (the day is called)."""
    st = ready_for_the_tenth_turn(room, dollars={1: 4})
    for action in actions:
        act(st, 1, action)
    assert bool(events_of(st, DayCalled)) is called
    if called:
        assert st.day == 2 and st.idle_turns == 0 and st.to_act == (0,)
        assert events_of(st, DayCalled)[0].sets == tuple(COMP.room_ids[:NUM_SETS])
    else:
        assert st.day == 1 and st.idle_turns == 0 and st.to_act == (0,)
        end_turns(st, 1)  # seat 0's turn: the count starts again from 1
        assert st.idle_turns == 1 and not events_of(st, DayCalled)


@pytest.mark.rule("deadwood_studios", "day.called")
@pytest.mark.rule("deadwood_studios", "turn.work")
def test_a_day_with_someone_working_is_never_called() -> None:
    """Seat 1 works the Saloon's extra Reluctant Farmer ($3M): one rehearsal, then it must act, and
    rolls 1 every time (a failure: $1). Seat 0 ends 12 turns at once: every other turn is a
    working turn, so the count never passes 1 and the day goes on."""
    st = position(2, scenes={"saloon": card(2)}, rooms={1: "saloon"}, roles={1: "Reluctant Farmer"}, dice=[1] * 11)
    for turn in range(12):
        act(st, 0, EndTurn())
        assert st.idle_turns == 1
        act(st, 1, Rehearse() if turn == 0 else Act())
        assert st.idle_turns == 0
    assert not events_of(st, DayCalled) and st.day == 1 and (st.dollars[1], st.chips[1]) == (11, 1)


@pytest.mark.rule("deadwood_studios", "day.called")
@pytest.mark.rule("deadwood_studios", "day.last-scene-unfinished")
@pytest.mark.rule("deadwood_studios", "game.end")
@pytest.mark.rule("deadwood_studios", "scoring.points")
def test_a_last_day_that_is_called_is_scored() -> None:
    """Day 3 of a 2-player game, the Bank (face up) and the Saloon (face down) left, nobody working:
    the 10th idle turn calls the day and the game is scored as after any last day. Neither scene
    finishes: both sets show no scene and are not wrapped; the other eight are wrapped."""
    st = position(
        2,
        scenes={"bank": card(17), "saloon": card(2)},
        wrapped=[s for s in SETS if s not in ("bank", "saloon")],
        face_down={"saloon"},
        rooms={0: "bank"},
        dollars={0: 3, 1: 7},
        credits={0: 6},
        day=3,
    )
    end_turns(st, 10)
    assert events_of(st, DayCalled) == [DayCalled(3, 10, ("bank", "saloon"), (COMP.scenes[card(17)], None), True)]
    assert events_of(st, DayCalled, OMNISCIENT) == [
        DayCalled(3, 10, ("bank", "saloon"), (COMP.scenes[card(17)], COMP.scenes[card(2)]), True)
    ]
    # seat 0: $3 + 6 credits + 5 x 1 = 14; seat 1: $7 + 0 + 5 = 12
    assert events_of(st, GameEnded) == [GameEnded((FinalScore(0, 3, 6, 1, 14, 1), FinalScore(1, 7, 0, 1, 12, 2)), (0,))]
    assert st.is_over and st.outcome.scores == (14.0, 12.0) and st.to_act == ()
    assert st.unfinished == (ROOM["bank"], ROOM["saloon"]) and st.removed_unseen == [card(2)]
    check_cards(st)
    for seat in (None, 1, OMNISCIENT):
        view = st.view(seat)
        assert [s.id for s in view.sets if s.wrapped] == [s for s in SETS if s not in ("bank", "saloon")]
        for set_id in ("bank", "saloon"):
            shown = view.sets[ROOM[set_id]]
            assert (shown.wrapped, shown.face_down, shown.scene, shown.starring) == (False, False, None, ())


@pytest.mark.rule("deadwood_studios", "day.called")
@pytest.mark.parametrize(("players", "decisions", "points"), [(2, 30, 5.0), (5, 100, 7.0), (8, 160, 10.0)])
def test_a_game_of_players_who_only_end_their_turns_ends_by_the_rule(
    players: int, decisions: int, points: float
) -> None:
    """Seed 1, every turn ended at once: each day is called after 5 rounds, the game ends after
    3 (2 players) or 4 days, far below the decision cap, everyone tied on the set-up's points."""
    st = GAME.new_game(players, 1)
    played = 0
    while not st.is_over:
        (seat,) = st.to_act
        st.apply(seat, EndTurn())
        played += 1
    assert played == decisions == st.days * IDLE_ROUNDS * players < GAME.max_decisions(players)
    called = events_of(st, DayCalled)
    assert [(e.day, e.idle_turns, e.last_day) for e in called] == [
        (day, IDLE_ROUNDS * players, day == st.days) for day in range(1, st.days + 1)
    ]
    assert st.outcome.scores == (points,) * players and st.outcome.winners == tuple(range(players))
    assert len(st.removed_unseen) == NUM_SETS * st.days
    check_cards(st)


@pytest.mark.rule("deadwood_studios", "day.called")
def test_digest_clone_and_resample_keep_the_count() -> None:
    """The count is part of the state: the digest sees it, a clone and a resampled copy keep it,
    and both call the day on the same turn as the game itself."""
    st = GAME.new_game(3, 4)
    end_turns(st, 14)
    assert st.idle_turns == 14
    copy = st.clone()
    assert copy.digest() == st.digest()
    copy.idle_turns = 13
    assert copy.digest() != st.digest()
    copy = st.clone()
    copy.progressed = True
    assert copy.digest() != st.digest()
    sample = st.resample(1, 9)
    assert (sample.idle_turns, sample.progressed) == (14, False)
    assert sample.view(1) == st.view(1)
    for game in (st, st.clone(), sample):
        (seat,) = game.to_act
        game.apply(seat, EndTurn())
        assert events_of(game, DayCalled) == events_of(st, DayCalled) != []
        assert game.day == 2 and game.idle_turns == 0


@pytest.mark.rule("deadwood_studios", "day.called")
def test_the_log_says_the_day_was_called() -> None:
    """The TUI's log and notices name a called day in words."""
    from tui.games.deadwood_studios import DeadwoodStudiosUI

    ui = DeadwoodStudiosUI()
    st = GAME.new_game(2, 1)
    end_turns(st, 10)
    view = st.view(0)
    (event,) = events_of(st, DayCalled)
    line = ui.describe_event(event, view)
    assert line is not None and line.startswith(
        "══ Day 1 is called: 10 turns in a row without acting, rehearsing, taking a role or upgrading; "
        "not finished: Train Station (never turned up), "
    )
    assert line.endswith("Saloon (never turned up); everyone goes back to the Trailers ══")
    events = st.events(0)
    start = events.index(event)
    assert (
        ui.notices(events, start, view)[0]
        == "Day 1 is over (called after 10 idle turns): everyone goes back to the Trailers"
    )
    assert isinstance(events[start + 3], TurnStarted)
