"""Test-only helpers for Deadwood Studios: scripted dice and exact positions.

Scenario tests build the position directly (:func:`position`): which scene card lies on which set,
face up or down, the shot counters left, where every player stands, their rank, money, credits,
role and chips; and script the dice with :class:`ScriptedChance` (every die a test rolls is
listed; rolling more than the script holds fails the test).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from engine.deadwood_studios import GAME
from engine.deadwood_studios.components import CASTING_OFFICE, NUM_SETS, TRAILERS, components
from engine.deadwood_studios.rules import on_your_turn
from engine.deadwood_studios.state import DeadwoodStudiosState

COMP = components()
ROOM = {room_id: r for r, room_id in enumerate(COMP.room_ids)}
"""Room numbers by id (``"saloon"`` -> 9)."""
assert ROOM["trailers"] == TRAILERS and ROOM["casting_office"] == CASTING_OFFICE


def card(number: int) -> int:
    """The card id of the scene card numbered ``number`` (1-40, as in ``cards.json``)."""
    assert 1 <= number <= len(COMP.scenes)
    return number - 1


class ScriptedChance:
    """A chance source for scenario tests: dice from a script, shuffles that change nothing,
    ``below`` from its own script (0 once used up)."""

    def __init__(self, dice: Iterable[int] = (), below: Iterable[int] = ()) -> None:
        self.dice = list(dice)
        self.script = list(below)

    def roll(self, faces: Sequence[int]) -> int:
        assert self.dice, "a die was rolled that the test did not script"
        value = self.dice.pop(0)
        assert value in faces
        return value

    def below(self, n: int) -> int:
        value = self.script.pop(0) if self.script else 0
        assert 0 <= value < n
        return value

    def shuffle(self, items: list[Any]) -> None:
        """Leave ``items`` in order."""

    def clone(self) -> ScriptedChance:
        return ScriptedChance(self.dice, self.script)

    def fingerprint(self) -> bytes:
        return repr((self.dice, self.script)).encode()


def position(
    players: int,
    current: int = 0,
    *,
    scenes: dict[str, int] | None = None,
    face_down: Iterable[str] = (),
    wrapped: Iterable[str] = (),
    shots_left: dict[str, int] | None = None,
    rooms: dict[int, str] | None = None,
    ranks: dict[int, int] | None = None,
    dollars: dict[int, int] | None = None,
    credits: dict[int, int] | None = None,
    roles: dict[int, str] | None = None,
    chips: dict[int, int] | None = None,
    day: int = 1,
    dice: Iterable[int] = (),
) -> DeadwoodStudiosState:
    """The start of ``current``'s turn in an exact position.

    Args:
        scenes: set id -> card id (see :func:`card`) for the sets a test cares about; other sets
            get the lowest unused cards. Every scene is face up unless listed in ``face_down``;
            sets in ``wrapped`` have no card.
        shots_left: set id -> shot counters left (default: all).
        rooms: seat -> room id (default the Trailers).
        ranks, dollars, credits, chips: per seat (defaults: the game's set-up for the player
            count, 0 dollars, 0 chips).
        roles: seat -> role name on the seat's set: a starring role of the card if it has one of
            that name, else the extra.
        day: the day being played. The scenes of earlier days and those wrapped today (lowest
            unused cards) are among the removed cards; the deck holds the rest.
        dice: the scripted dice.
    """
    st = GAME.new_game(players, 1)
    scenes = dict(scenes or {})
    face_down, wrapped = set(face_down), set(wrapped)
    used = set(scenes.values())
    spare = iter(c for c in range(len(COMP.scenes)) if c not in used)
    earlier = [next(spare) for _ in range(NUM_SETS * (day - 1))]  # the scenes of earlier days
    today: list[int] = []  # the scenes wrapped today
    for s in range(NUM_SETS):
        set_id = COMP.room_ids[s]
        if set_id in wrapped:
            st.scene[s] = -1
            st.star_by[s] = []
            today.append(next(spare))
        else:
            st.scene[s] = scenes[set_id] if set_id in scenes else next(spare)
            used.add(st.scene[s])
            st.star_by[s] = [-1] * len(COMP.scenes[st.scene[s]].roles)
        st.face_up[s] = set_id not in face_down
        st.shots_left[s] = COMP.shots[s]
        st.extra_by[s] = [-1] * len(COMP.extras[s])
    for set_id, left in (shots_left or {}).items():
        st.shots_left[ROOM[set_id]] = left
    st.removed = earlier + today
    st.removed_unseen = []
    st.deck = list(spare)
    st.day = day
    for seat, room_id in (rooms or {}).items():
        st.room[seat] = ROOM[room_id]
    for seat, value in (ranks or {}).items():
        st.rank[seat] = value
    for seat, value in (dollars or {}).items():
        st.dollars[seat] = value
    for seat, value in (credits or {}).items():
        st.credits[seat] = value
    for seat, name in (roles or {}).items():
        s = st.room[seat]
        assert s < NUM_SETS and st.scene[s] >= 0, f"seat {seat} is not on a set with a scene"
        starring = [r.name for r in COMP.scenes[st.scene[s]].roles]
        if name in starring:
            i = starring.index(name)
            assert st.star_by[s][i] < 0
            st.star_by[s][i] = seat
            st.on_card[seat] = True
        else:
            i = [r.name for r in COMP.extras[s]].index(name)
            assert st.extra_by[s][i] < 0
            st.extra_by[s][i] = seat
            st.on_card[seat] = False
        st.role[seat] = i
    for seat, value in (chips or {}).items():
        st.chips[seat] = value
    st.chance = ScriptedChance(dice)  # type: ignore[assignment]
    st.log.clear()
    st.private.clear()
    on_your_turn.start_turn(st, current)
    return st


def act(st: Any, seat: int, action: Any) -> None:
    """Assert ``action`` is legal for ``seat``, then apply it (python-chess's scenario style)."""
    legal = st.legal_actions(seat)
    assert action in legal, f"{action!r} not legal for seat {seat}; legal: {legal}"
    st.apply(seat, action)


def events_of(st: Any, kind: type, seat: int | None = None) -> list[Any]:
    """The events of type ``kind`` that ``seat`` sees."""
    return [e for e in st.events(seat) if type(e) is kind]


def check_cards(st: DeadwoodStudiosState) -> None:
    """Every one of the 40 scene cards is in exactly one place (a set, the deck, or removed)."""
    placed = [c for c in st.scene if c >= 0] + st.deck + st.removed + st.removed_unseen
    assert sorted(placed) == list(range(len(COMP.scenes))), "scene cards lost or duplicated"


def play_random(st: Any, seed: int = 0, limit: int = 100_000) -> list[tuple[int, Any]]:
    """Finish the game with uniformly random legal actions; returns the moves."""
    rng = random.Random(seed)
    moves: list[tuple[int, Any]] = []
    while not st.is_over:
        seat = st.to_act[0]
        legal = st.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        st.apply(seat, action)
        moves.append((seat, action))
        assert len(moves) < limit, "the game did not end"
    return moves
