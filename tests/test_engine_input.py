"""Engine input hardening: seats, actions, player counts and options that are not what the
contract says are refused with a clear error, and a refused call changes nothing.

Rules checked here (see ``engine.core.check_seat`` / ``find_legal`` and ``DeadwoodState``):

* A seat is exactly an ``int``: ``True``, ``1.0``, ``"1"``, ``None``, an int subclass or an
  object with ``__index__`` is not one.
* ``apply`` raises ``IllegalAction`` for a bad seat, a seat owing nothing, and an action that is
  not an instance of exactly one of the game's action classes. A subclass of an action class is
  *not* a game action (it could change ``__eq__``, ``__hash__`` or fields' meaning), and an
  action's fields must have the legal action's exact types (``PassSafe(True)`` is not
  ``PassSafe(1)``). The caller's ``__eq__`` is never consulted.
* ``view`` and ``events`` accept the same seats (``0..n-1``, ``None``, ``OMNISCIENT``) and raise
  ``ValueError`` for anything else; ``legal_actions`` raises ``IllegalAction`` (a
  ``ValueError``) for a non-seat.
"""

from __future__ import annotations

import enum
import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.core import OMNISCIENT, IllegalAction, InvalidOptions, check_seat, find_legal, parse_options
from engine.deadwood1876 import Options
from engine.deadwood1876.actions import ACTION_TYPES, Discard, PassSafe
from engine.deadwood1876.state import DeadwoodState

GAME = engine.game("deadwood1876")


class IntSub(int):
    """An int subclass (like an ``IntEnum`` member): not a seat."""


class Seat(enum.IntEnum):
    ONE = 1


class IndexLike:
    """A numpy-integer-like object: usable as an index, equal to and hashing like an int."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:  # a stable test id (parallel runs compare the ids they collected)
        return f"IndexLike({self.value})"

    def __int__(self) -> int:
        return self.value

    def __eq__(self, other: object) -> bool:
        return other == self.value

    def __hash__(self) -> int:
        return hash(self.value)


class AlwaysEqual:
    """Equal to everything and hashing like ``like``; counts how often its ``__eq__`` is asked."""

    def __init__(self, like: Any = None) -> None:
        self.like = like
        self.asked = 0

    def __repr__(self) -> str:  # a stable test id
        return f"AlwaysEqual({self.like!r})"

    def __eq__(self, other: object) -> bool:
        self.asked += 1
        return True

    def __ne__(self, other: object) -> bool:
        self.asked += 1
        return False

    def __hash__(self) -> int:
        return hash(self.like)


class LyingMeta(type):
    """A metaclass whose classes claim to be equal to (and hash like) ``PassSafe``."""

    def __eq__(cls, other: object) -> bool:
        return True

    def __hash__(cls) -> int:
        return hash(PassSafe)


class FakePassSafe(metaclass=LyingMeta):
    index = 0

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash(PassSafe(0))


class SubPassSafe(PassSafe, frozen=True, tag="pass_safe"):
    """A subclass of a real action type: refused (it is not the game's type)."""


def fresh() -> DeadwoodState:
    """A 5-player game at its first decision: every seat passes a Safe (``PassSafe(0|1)``)."""
    state = GAME.new_game(5, seed=11)
    assert state.to_act == (0, 1, 2, 3, 4)
    return state  # type: ignore[return-value]


def refused(state: Any, seat: Any, action: Any, error: type[Exception] = IllegalAction) -> str:
    """Assert ``apply`` raises exactly ``error`` and leaves the state as it was; the message."""
    before = state.digest()
    legal = {s: state.legal_actions(s) for s in range(state.n)}
    with pytest.raises(error) as info:
        state.apply(seat, action)
    assert type(info.value) is error
    assert state.digest() == before, "bad input changed the state"
    assert {s: state.legal_actions(s) for s in range(state.n)} == legal
    return str(info.value)


# ---------------------------------------------------------------------------------------------- seats


NOT_SEATS = [1.0, True, False, "1", b"\x01", IntSub(1), Seat.ONE, IndexLike(1), (1,), 99, 5, -5]
"""Refused everywhere (5 players)."""
BAD_SEATS = [*NOT_SEATS, None, OMNISCIENT]
"""Refused by ``apply`` and ``legal_actions`` (``None`` and ``OMNISCIENT`` are observers, not players)."""


@pytest.mark.parametrize("seat", BAD_SEATS, ids=repr)
def test_apply_refuses_a_seat_that_is_not_an_int_seat(seat):
    state = fresh()
    message = refused(state, seat, state.legal_actions(1)[0])
    assert "seat" in message
    state.apply(1, state.legal_actions(1)[0])  # the game goes on


def test_apply_refuses_a_seat_owing_nothing():
    state = fresh()
    action = state.legal_actions(1)[0]
    state.apply(1, action)
    assert 1 not in state.to_act
    assert "no decision" in refused(state, 1, action)


@pytest.mark.parametrize("seat", NOT_SEATS, ids=repr)
def test_view_and_events_refuse_the_same_seats_with_value_error(seat):
    state = fresh()
    for method in (state.view, state.events):
        with pytest.raises(ValueError) as info:
            method(seat)
        assert type(info.value) is ValueError, method
        assert "seat" in str(info.value)


@pytest.mark.parametrize("seat", [0, 4, None, OMNISCIENT])
def test_view_and_events_accept_the_same_seats(seat):
    state = fresh()
    assert isinstance(state.view(seat), GAME.view_type)
    assert isinstance(state.events(seat), list)


@pytest.mark.parametrize("seat", BAD_SEATS, ids=repr)
def test_legal_actions_refuses_a_non_seat(seat):
    state = fresh()
    with pytest.raises(IllegalAction):
        state.legal_actions(seat)


def test_the_stranger_owes_nothing_but_is_no_seat():
    """2 players: the Stranger is figure 2; it has no legal actions, no view and cannot act."""
    state = GAME.new_game(2, seed=3)
    assert state.legal_actions(2) == []
    with pytest.raises(ValueError):
        state.view(2)
    with pytest.raises(ValueError):
        state.events(2)
    refused(state, 2, state.legal_actions(0)[0])


@pytest.mark.parametrize("since", [-1, 1.0, True, None, "0"], ids=repr)
def test_events_since_must_be_a_non_negative_int(since):
    state = fresh()
    with pytest.raises(ValueError) as info:
        state.events(None, since)
    assert type(info.value) is ValueError


def test_check_seat():
    check_seat(0, 3)
    check_seat(2, 3)
    check_seat(None, 3, observers_ok=True)
    check_seat(OMNISCIENT, 3, observers_ok=True)
    for bad in (3, -1, None, True, 1.0, "1", IntSub(1)):
        with pytest.raises(ValueError, match="a seat must be an int from 0 to 2"):
            check_seat(bad, 3)
    with pytest.raises(IllegalAction):
        check_seat(7, 3, error=IllegalAction)


# ---------------------------------------------------------------------------------------------- actions


@pytest.mark.parametrize(
    "action",
    [None, 0, "pass_safe", {"type": "pass_safe", "index": 0}, ("pass_safe", 0), PassSafe, object()],
    ids=lambda action: "object()" if type(action) is object else repr(action),
)
def test_apply_refuses_what_is_not_an_action(action):
    state = fresh()
    assert "not an action of this game" in refused(state, 0, action)


def test_an_object_equal_to_everything_is_refused_without_being_asked():
    state = fresh()
    legal = state.legal_actions(0)
    fake = AlwaysEqual(like=legal[0])
    assert fake == legal[0] and hash(fake) == hash(legal[0])
    assert fake in legal  # what the old check relied on
    fake.asked = 0
    refused(state, 0, fake)
    assert fake.asked == 0, "the engine consulted the caller's __eq__"


def test_recorder_and_bot_runners_do_not_take_an_object_equal_to_everything():
    import replays
    from bots.play import play_game

    recorder = replays.Recorder("deadwood1876", 3, seed=4)
    legal = recorder.state.legal_actions(0)
    fake = AlwaysEqual(like=legal[0])
    with pytest.raises(IllegalAction, match="may not play"):
        recorder.apply(0, fake)
    assert recorder.num_moves == 0
    assert engine.legal_index(legal[1], legal) == 1
    assert engine.legal_index(msgspec.structs.replace(legal[1]), legal) == 1  # an equal copy is fine

    class EqualBot:
        name = "equal"

        def act(self, view: Any, legal: list[Any], seat: int) -> Any:
            return AlwaysEqual(like=legal[-1])

    from bots import RandomBot

    result = play_game("deadwood1876", 3, [EqualBot(), RandomBot(1), RandomBot(2)], seed=5)
    assert result.faults[0] > 0 and "not a legal action" in result.fault_log[0]


def test_a_class_whose_metaclass_lies_is_refused():
    state = fresh()
    assert FakePassSafe == PassSafe and FakePassSafe in set(ACTION_TYPES)
    refused(state, 0, FakePassSafe())


def test_a_subclass_of_an_action_type_is_refused():
    """Decision: only the game's own classes are actions; a subclass could redefine anything."""
    state = fresh()
    action = SubPassSafe(0)
    assert isinstance(action, PassSafe)
    assert "not an action of this game" in refused(state, 0, action)


@pytest.mark.parametrize("index", [0.0, False, AlwaysEqual(0), IntSub(0), "0"], ids=repr)
def test_action_fields_must_have_the_exact_types(index):
    state = fresh()
    assert PassSafe(0) in state.legal_actions(0)
    assert "not a legal action" in refused(state, 0, PassSafe(index))


def test_a_legal_action_of_the_wrong_phase_is_refused():
    state = fresh()
    refused(state, 0, Discard(0))


def test_an_equal_new_action_plays_like_the_legal_one():
    """Replays decode new (equal) objects: they play exactly like the engine's own."""
    one, two = fresh(), fresh()
    legal = one.legal_actions(3)[1]
    one.apply(3, legal)
    two.apply(3, msgspec.json.decode(msgspec.json.encode(legal), type=GAME.action_type))
    assert one.digest() == two.digest()


def test_legal_actions_is_the_callers_copy():
    state = fresh()
    mine = state.legal_actions(0)
    mine.append(PassSafe(7))
    mine.reverse()
    assert state.legal_actions(0) == [PassSafe(0), PassSafe(1)]
    refused(state, 0, PassSafe(7))


def test_find_legal_returns_the_engines_object():
    legal = [PassSafe(0), PassSafe(1)]
    assert find_legal(PassSafe(1), legal, ACTION_TYPES) is legal[1]
    assert find_legal(legal[0], legal, ACTION_TYPES) is legal[0]
    with pytest.raises(IllegalAction):
        find_legal(PassSafe(2), legal, ACTION_TYPES)
    with pytest.raises(IllegalAction):
        find_legal(AlwaysEqual(legal[0]), legal, ACTION_TYPES)


# ---------------------------------------------------------------------------------------------- new games, options


@pytest.mark.parametrize("players", [3.0, True, "3", None, IntSub(3), IndexLike(3), 1, 10, -3], ids=repr)
def test_new_game_refuses_bad_player_counts(players):
    with pytest.raises(ValueError) as info:
        GAME.new_game(players, seed=1)
    assert type(info.value) is ValueError
    assert "players" in str(info.value)


@pytest.mark.parametrize(
    "options",
    [
        {"mystery_safes": 3.0},
        {"mystery_safes": True},
        {"mystery_safes": None},
        {"peace_lovin": 1},
        {"peace_lovin": "maybe"},
        {1: True},
        {None: True},
        {"mystery_safes": 9},
        Options(mystery_safes="3"),  # type: ignore[arg-type]
        Options(mystery_safes=True),
        Options(peace_lovin=1),  # type: ignore[arg-type]
        ["mystery_safes"],
        "mystery_safes=3",
    ],
    ids=repr,
)
def test_new_game_refuses_bad_options(options):
    with pytest.raises(InvalidOptions):
        GAME.new_game(5, seed=1, options=options)


def test_options_as_typed_on_a_command_line_still_work():
    opts = parse_options(Options, {"mystery_safes": "3", "peace_lovin": "true"})
    assert opts == Options(mystery_safes=3, peace_lovin=True)
    given_options = Options(mystery_safes=2)
    assert parse_options(Options, given_options) is given_options


def test_an_options_subclass_becomes_options():
    class MoreOptions(Options, frozen=True):
        pass

    opts = parse_options(Options, MoreOptions(mystery_safes=1))
    assert type(opts) is Options and opts == Options(mystery_safes=1)


# ---------------------------------------------------------------------------------------------- property


def junk(state: DeadwoodState, rng: random.Random) -> list[tuple[Any, Any]]:
    """A few ``(seat, action)`` pairs that must all be refused now."""
    seat = rng.choice(state.to_act)
    legal = state.legal_actions(seat)
    action = rng.choice(legal)
    fields = msgspec.structs.astuple(action)
    pairs: list[tuple[Any, Any]] = [
        (float(seat), action),
        (seat == 1 if seat in (0, 1) else str(seat), action),
        (IntSub(seat), action),
        (state.n + rng.randrange(5), action),
        (-1 - rng.randrange(5), action),
        (seat, AlwaysEqual(action)),
        (seat, object()),
    ]
    if fields:  # the same action with a float, a bool or a foreign first field
        first = fields[0]
        for odd in (float(first) if type(first) is int else int(first), AlwaysEqual(first)):
            pairs.append((seat, type(action)(odd, *fields[1:])))
    not_to_act = [s for s in range(state.n) if s not in state.to_act]
    if not_to_act:
        pairs.append((rng.choice(not_to_act), action))
    return rng.sample(pairs, 4)


def play(players: int, seed: int, junk_rng: random.Random | None) -> list[str]:
    """Play a random game; with ``junk_rng``, try junk at random points. The digest after each move."""
    state: DeadwoodState = GAME.new_game(players, seed)  # type: ignore[assignment]
    choose = random.Random(seed)
    digests = []
    while not state.is_over:
        if junk_rng is not None and junk_rng.random() < 0.2:
            for seat, action in junk(state, junk_rng):
                refused(state, seat, action)
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[choose.randrange(len(legal))])
        digests.append(state.digest())
        assert len(digests) < 5000
    return digests


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 9))
def test_junk_at_random_points_is_refused_and_changes_nothing(seed, players):
    """Bad input loses nothing: a game with refused junk goes on exactly like one without."""
    assert play(players, seed, random.Random(seed + 1)) == play(players, seed, None)
