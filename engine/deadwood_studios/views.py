"""What a seat may know of a Deadwood Studios game.

Everything on the table is public: every player's room, rank, dollars, credits, role and practice
chips; every set's shot counters, extras and who is on them; every face-up scene card and who is
on its starring roles; the scene cards that left the board face up. Hidden from everyone (and so
from every view but the omniscient one): the scene cards still face down on the board, the order
and contents of the undealt deck, and the last scene of a day that was removed without ever being
turned up. A view shows only how many there are. Every seat's view is therefore the spectator's
view with its own ``seat``.

Views are built from memoised pieces (bounded caches): equal sets, players and removed cards are
the same immutable objects from one view to the next, which keeps building a view cheap.
"""

from __future__ import annotations

import functools

import msgspec

from engine.core import OMNISCIENT
from engine.deadwood_studios.components import NUM_SETS, Scene, UpgradePrice
from engine.deadwood_studios.state import COMP, DeadwoodStudiosState


class RoleView(msgspec.Struct, frozen=True):
    """A role on a set and who works on it.

    Attributes:
        name, rank, line: the printed role.
        on_card: a starring role on the scene card (else an extra on the board).
        seat: the player working on it, -1 if free.
    """

    name: str
    rank: int
    line: str
    on_card: bool
    seat: int


class SetView(msgspec.Struct, frozen=True):
    """One of the ten sets.

    Attributes:
        id, name: e.g. ``"train_station"``, ``"Train Station"``.
        shots: its shot counters at the start of a day (1-3); ``shots_left`` those still on it.
        face_down: a scene card lies face down on it (nobody has walked in yet this day).
        wrapped: its scene was wrapped today (no card; no roles until tomorrow). Not a set whose
            scene was left when the last day ended (the last scene, or every scene left when the
            no-progress rule called the day): that scene "does not finish" (Ending the Day).
        scene: the face-up scene card, else ``None``.
        extras: the extras printed on the board, in board order.
        starring: the face-up card's starring roles, lowest rank first (the top role is the last).
        neighbors: the adjacent rooms' ids.
        players: the seats in this set (on a role or standing), ascending.
    """

    id: str
    name: str
    shots: int
    shots_left: int
    face_down: bool
    wrapped: bool
    scene: Scene | None
    extras: tuple[RoleView, ...]
    starring: tuple[RoleView, ...]
    neighbors: tuple[str, ...]
    players: tuple[int, ...]


class PlayerView(msgspec.Struct, frozen=True):
    """One player, as everyone sees it.

    Attributes:
        seat: the seat (0-based; play passes to ``seat + 1``, "to the left").
        room: the room id where the player's die stands.
        rank: 1-6.
        dollars, credits: the two currencies.
        chips: practice chips on the current role (0 without a role).
        role: the name of the role the player works on, else ``None``.
        on_card: that role is a starring role.
        points: the score if the game ended now: ``dollars + credits + 5 x rank``.
    """

    seat: int
    room: str
    rank: int
    dollars: int
    credits: int
    chips: int
    role: str | None
    on_card: bool
    points: int


class View(msgspec.Struct, frozen=True, kw_only=True):
    """Everything one seat may know (``seat`` ``None``: a spectator; -1: omniscient).

    Attributes:
        game: ``"deadwood_studios"`` (bots dispatch on it).
        seat: the viewer.
        phase: ``"move"`` (the current player is not working: upgrade, move, take a role, end the
            turn), ``"work"`` (on a role: act or rehearse) or ``"over"``.
        to_act: the seats that owe a decision (the current player, or nobody once over).
        day, days: the day being played (1-based) and how many the game lasts (3 or 4).
        current: whose turn it is (-1 once the game is over).
        moved: the current player has moved this turn; ``upgraded``: has upgraded this turn.
        players: every seat, in seat order.
        sets: the ten sets, in board order.
        scenes_left: unwrapped scenes on the board (the day ends when one is left).
        deck_size: scene cards not dealt yet.
        removed: scene cards that left the board face up (wrapped, or the last scene of a day), in order.
        removed_unseen: last scenes of a day removed without ever being turned up.
        upgrades: the Casting Office's price table.
        winners: the winners once the game is over.
        hidden_scenes: per set, the face-down card (else ``None``), only in the omniscient view.
        deck: the undealt deck, top card last, only in the omniscient view.
    """

    game: str = "deadwood_studios"
    seat: int | None
    phase: str
    to_act: tuple[int, ...]
    day: int
    days: int
    current: int
    moved: bool
    upgraded: bool
    players: tuple[PlayerView, ...]
    sets: tuple[SetView, ...]
    scenes_left: int
    deck_size: int
    removed: tuple[Scene, ...]
    removed_unseen: int
    upgrades: tuple[UpgradePrice, ...]
    winners: tuple[int, ...]
    hidden_scenes: tuple[Scene | None, ...] | None = None
    deck: tuple[Scene, ...] | None = None


_ROOM_IDS = COMP.room_ids
_ROOM_NAMES = COMP.room_names
_SHOTS = COMP.shots
_EXTRAS = COMP.extras
_SCENES = COMP.scenes
_NEIGHBOR_IDS = tuple(tuple(_ROOM_IDS[r] for r in COMP.neighbors[s]) for s in range(NUM_SETS))
_NOBODY: tuple[tuple[int, ...], ...] = ((),) * NUM_SETS

# The pieces of a view are immutable, so equal inputs may share one piece: the builders below are
# memoised (bounded caches), and a view reuses the sets, players and removed cards of earlier views.


@functools.lru_cache(maxsize=1 << 12)
def _extras(s: int, extra_by: tuple[int, ...]) -> tuple[RoleView, ...]:
    """The extras of set ``s``, worked by ``extra_by`` (seats, -1: free), in board order."""
    return tuple(RoleView(role.name, role.rank, role.line, False, extra_by[i]) for i, role in enumerate(_EXTRAS[s]))


@functools.lru_cache(maxsize=1 << 12)
def _starring(card: int, star_by: tuple[int, ...]) -> tuple[RoleView, ...]:
    """The starring roles of scene ``card``, worked by ``star_by`` (seats, -1: free), lowest rank first."""
    return tuple(
        RoleView(role.name, role.rank, role.line, True, star_by[i]) for i, role in enumerate(_SCENES[card].roles)
    )


@functools.lru_cache(maxsize=1 << 12)
def _set_view(
    s: int,
    card: int,
    up: bool,
    shots_left: int,
    extra_by: tuple[int, ...],
    star_by: tuple[int, ...],
    here: tuple[int, ...],
    wrapped: bool,
) -> SetView:
    """Set ``s`` with scene ``card`` (-1: none), face ``up``, who works its extras and starring
    roles and who is ``here``; ``wrapped`` as :attr:`SetView.wrapped`."""
    extras = _extras(s, extra_by)
    starring = _starring(card, star_by) if up else ()
    return SetView(
        _ROOM_IDS[s],
        _ROOM_NAMES[s],
        _SHOTS[s],
        shots_left,
        card >= 0 and not up,
        wrapped,
        _SCENES[card] if up else None,
        extras,
        starring,
        _NEIGHBOR_IDS[s],
        here,
    )


@functools.lru_cache(maxsize=1 << 12)
def _player_view(
    p: int, room: int, rank: int, dollars: int, credits: int, chips: int, role: int, on_card: bool, card: int
) -> PlayerView:
    """Player ``p``; ``role`` its role's index (-1: none), among the starring roles of scene
    ``card`` when ``on_card``, else among the extras of set ``room``."""
    name: str | None = None
    if role >= 0:
        name = _SCENES[card].roles[role].name if on_card else _EXTRAS[room][role].name
    return PlayerView(p, _ROOM_IDS[room], rank, dollars, credits, chips, name, on_card, dollars + credits + 5 * rank)


@functools.lru_cache(maxsize=1 << 12)
def _scenes_of(cards: tuple[int, ...]) -> tuple[Scene, ...]:
    """The scene cards numbered ``cards``, in order."""
    return tuple(_SCENES[c] for c in cards)


def make_view(st: DeadwoodStudiosState, seat: int | None) -> View:
    """Build the :class:`View` of ``seat`` (``None``: spectator; ``OMNISCIENT``: everything)."""
    rooms = st.room
    roles = st.role
    on_card = st.on_card
    scene = st.scene
    players = []
    here = list(_NOBODY)
    for p in range(st.n):
        room = rooms[p]
        r = roles[p]
        card = on_card[p]
        players.append(
            _player_view(
                p,
                room,
                st.rank[p],
                st.dollars[p],
                st.credits[p],
                st.chips[p],
                r,
                card,
                scene[room] if r >= 0 and card else -1,
            )
        )
        if room < NUM_SETS:
            here[room] += (p,)
    face_up = st.face_up
    shots_left = st.shots_left
    extra_by = st.extra_by
    star_by = st.star_by
    unfinished = st.unfinished
    sets = tuple(
        [
            _set_view(
                s,
                card,
                card >= 0 and face_up[s],
                shots_left[s],
                tuple(extra_by[s]),
                tuple(star_by[s]),
                here[s],
                card < 0 and s not in unfinished,
            )
            for s, card in enumerate(scene)
        ]
    )
    result = st.result
    over = result is not None
    view = View(
        seat=seat,
        phase=st.phase,
        to_act=st.waiting,
        day=st.day,
        days=st.days,
        current=-1 if over else st.current,
        moved=st.moved and not over,
        upgraded=st.upgraded and not over,
        players=tuple(players),
        sets=sets,
        scenes_left=NUM_SETS - scene.count(-1),
        deck_size=len(st.deck),
        removed=_scenes_of(tuple(st.removed)),
        removed_unseen=len(st.removed_unseen),
        upgrades=COMP.upgrades,
        winners=result.winners if result is not None else (),
    )
    if seat == OMNISCIENT:
        hidden = tuple(_SCENES[scene[s]] if scene[s] >= 0 and not face_up[s] else None for s in range(NUM_SETS))
        view = msgspec.structs.replace(view, hidden_scenes=hidden, deck=tuple(_SCENES[c] for c in st.deck))
    return view
