"""Deadwood Studios events: what happened, as a seat may know it.

Each event is a frozen, tagged msgspec Struct. Nothing is private to one seat in this game: the
only hidden things are the face-down scene cards and the undealt deck, hidden from everyone. So
every event is public, and the few that concern a face-down card (:class:`ScenesDealt`,
:class:`DayEnded` when the last scene was never turned up, :class:`DayCalled` when a scene left
was never turned up) carry the card only in the omniscient
version (``engine.OMNISCIENT``: the replay viewer). Every die is an event: acting rolls
(:class:`Acted`, with the practice chips and the budget) and the bonus dice of a wrap
(:class:`SceneWrapped`, die by die and role by role).

Rooms are named by their string id (``"saloon"``); scene cards are shown as :class:`Scene` faces.
"""

from __future__ import annotations

import msgspec

from engine.core import GameCapped
from engine.deadwood_studios.components import Role, Scene

__all__ = [
    "Acted",
    "BonusShare",
    "DayCalled",
    "DayEnded",
    "DayStarted",
    "Event",
    "FinalScore",
    "GameCapped",
    "GameEnded",
    "Moved",
    "Rehearsed",
    "Role",
    "RoleTaken",
    "Scene",
    "SceneRevealed",
    "SceneWrapped",
    "ScenesDealt",
    "ShotRemoved",
    "TurnStarted",
    "Upgraded",
]


class DayStarted(msgspec.Struct, frozen=True, tag="day_started"):
    """Day ``day`` of ``days`` begins with everyone in the Trailers; ``first`` plays first (the
    first day: drawn at random; later days: the player after the one who ended the last day)."""

    day: int
    days: int
    first: int


class ScenesDealt(msgspec.Struct, frozen=True, tag="scenes_dealt"):
    """A scene card was dealt face down to each of the ten sets and their shot counters placed;
    ``deck`` cards are left undealt. ``scenes`` (per set, board order) only in the omniscient
    version."""

    day: int
    deck: int
    scenes: tuple[Scene, ...] | None = None


class TurnStarted(msgspec.Struct, frozen=True, tag="turn_started"):
    """``seat``'s turn begins; ``working``: on a role (so it must act or rehearse)."""

    seat: int
    working: bool


class Moved(msgspec.Struct, frozen=True, tag="moved"):
    """``seat`` moved one step from ``origin`` to ``to`` (room ids)."""

    seat: int
    origin: str
    to: str


class SceneRevealed(msgspec.Struct, frozen=True, tag="scene_revealed"):
    """``seat``, the first to walk into ``set``, turned its scene card face up."""

    seat: int
    set: str
    scene: Scene


class RoleTaken(msgspec.Struct, frozen=True, tag="role_taken"):
    """``seat`` took ``role`` (rank ``rank``) on ``set``: a starring role on the card (``on_card``)
    or an extra."""

    seat: int
    set: str
    role: str
    rank: int
    on_card: bool


class Rehearsed(msgspec.Struct, frozen=True, tag="rehearsed"):
    """``seat`` rehearsed ``role``: it now has ``chips`` practice chips against a budget of ``budget``."""

    seat: int
    set: str
    role: str
    chips: int
    budget: int


class Acted(msgspec.Struct, frozen=True, tag="acted"):
    """``seat`` acted ``role``: rolled ``die``, plus ``chips`` practice chips, ``total`` against the
    ``budget`` (success: ``total >= budget``); it was paid ``dollars`` and ``credits`` (on the card:
    2 credits or nothing; an extra: $1 and 1 credit, or $1)."""

    seat: int
    set: str
    role: str
    on_card: bool
    die: int
    chips: int
    total: int
    budget: int
    success: bool
    dollars: int
    credits: int


class ShotRemoved(msgspec.Struct, frozen=True, tag="shot_removed"):
    """A success removed a shot counter from ``set``: ``left`` of its ``shots`` remain (0: a wrap)."""

    set: str
    left: int
    shots: int


class BonusShare(msgspec.Struct, frozen=True):
    """One role's part of a wrap bonus.

    Attributes:
        role: the role's name; ``rank`` its rank; ``on_card``: a starring role (else an extra).
        seat: who was working on it (-1: nobody; its dice are paid to no one).
        dice: the bonus dice dealt to it, highest first (empty for an extra).
        dollars: what ``seat`` was paid (the dice's total; an extra's rank).
    """

    role: str
    rank: int
    on_card: bool
    seat: int
    dice: tuple[int, ...]
    dollars: int


class SceneWrapped(msgspec.Struct, frozen=True, tag="scene_wrapped"):
    """The last shot of ``set`` wrapped ``scene``; the card is removed and everyone on it leaves
    their roles. ``paid``: someone was on the card, so ``dice`` (``budget`` dice rolled by
    ``roller``, highest first) were dealt to the starring roles from the top role down, wrapping
    around, and every extra was paid its rank. ``shares``: the starring roles top first, then the
    occupied extras (empty when nothing was paid). ``left``: unwrapped scenes still on the board."""

    set: str
    scene: Scene
    paid: bool
    roller: int
    dice: tuple[int, ...]
    shares: tuple[BonusShare, ...]
    left: int


class Upgraded(msgspec.Struct, frozen=True, tag="upgraded"):
    """``seat`` paid ``price`` ``currency`` at the Casting Office to go from rank ``old`` to ``new``."""

    seat: int
    old: int
    new: int
    currency: str
    price: int


class DayEnded(msgspec.Struct, frozen=True, tag="day_ended"):
    """Day ``day`` ended with one scene left on ``set``: it does not finish and pays nobody; its card
    is removed (``scene``: its face if it was face up, or in the omniscient version; else
    ``None``). ``last_day``: the game is over; otherwise everyone goes back to the Trailers."""

    day: int
    set: str
    scene: Scene | None
    last_day: bool


class DayCalled(msgspec.Struct, frozen=True, tag="day_called"):
    """Day ``day`` was called by the no-progress rule (not in the rulebook; see
    :mod:`engine.deadwood_studios.rules.ending_the_day`): ``idle_turns`` turns in a row (5 rounds)
    in which nobody acted, rehearsed, took a role or upgraded. It ends as a day ends with one
    scene left, but with every scene still on the board: ``sets`` (board order) and their
    ``scenes`` (the face, or ``None`` for a card nobody turned up, shown in the omniscient
    version) do not finish and pay nobody; their cards are removed. ``last_day``: the game is
    over; otherwise everyone goes back to the Trailers and the next player starts the next day.
    No :class:`DayEnded` follows: this event is the day's end."""

    day: int
    idle_turns: int
    sets: tuple[str, ...]
    scenes: tuple[Scene | None, ...]
    last_day: bool


class FinalScore(msgspec.Struct, frozen=True):
    """One seat's score: ``dollars + credits + 5 x rank`` = ``points``; ``place`` 1 is best (ties share)."""

    seat: int
    dollars: int
    credits: int
    rank: int
    points: int
    place: int


class GameEnded(msgspec.Struct, frozen=True, tag="game_ended"):
    """The last day is over: every seat's score (seat order) and the winners."""

    scores: tuple[FinalScore, ...]
    winners: tuple[int, ...]


Event = (
    DayStarted
    | ScenesDealt
    | TurnStarted
    | Moved
    | SceneRevealed
    | RoleTaken
    | Rehearsed
    | Acted
    | ShotRemoved
    | SceneWrapped
    | Upgraded
    | DayEnded
    | DayCalled
    | GameEnded
    | GameCapped
)
"""Every Deadwood Studios event (a tagged union)."""
