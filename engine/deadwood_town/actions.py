"""Deadwood actions: one frozen, tagged msgspec Struct per kind of decision.

``plot`` fields are printed plot ids (``"B2"``); ``place`` is a plot id or ``"mine"`` (the
Abandoned Mine); ``strength`` is 1 (Greenhorn), 2 (Gunslinger) or 3 (Trail Boss); ``owner`` and
``seat`` are seats; ``building`` is a building id of the data file (``"general_store"``);
``stack`` is ``"1"``, ``"2"`` or ``"3"``. Cowboys of one player and strength are identical, so
actions name ``(owner, strength)``, never a token.

A turn (summary: Turn Structure) is one of:

* Head Back to the Ranch: :class:`HeadBack` (one cowboy), then more :class:`HeadBack` or
  :class:`Finish`;
* Hit the Town: :class:`HitTheTown`; then, at an empty building, :class:`Annex` or
  :class:`DeclineAnnex` and the building's choices; at an occupied one, a shootout:
  :class:`Skedaddle` or :class:`StandAndFight` (defender), :class:`DeclareCartridge`
  (attacker, then defender).

A building's choices: :class:`StealFrom` (Casino), :class:`PickCowboy` and :class:`MoveTo`
(General Store), :class:`SendToMine` (Grifter), :class:`GivePoster` (Newspaper),
:class:`ReturnCowboy` (Dance Hall), :class:`AdjustCrimePool` (Telegraph Office),
:class:`LookAtStack` and :class:`PutNext` (Fortune Teller), :class:`Hire` (Saloon),
:class:`MoveSheriff` (Sheriff's Office), :class:`PlaceStation`, :class:`ChooseTile` and
:class:`BuildOn` (Town Hall), :class:`DrawFrom` (Stage Depot); :class:`Finish` stops an "up to"
choice early. A decision with a single legal choice other than a turn or an annex is taken by
the engine.
"""

from __future__ import annotations

import typing

import msgspec


class HeadBack(msgspec.Struct, frozen=True, tag="head_back", order=True):
    """Head Back to the Ranch: return your ``strength`` cowboy at ``place`` (a plot or ``"mine"``)."""

    place: str
    strength: int


class HitTheTown(msgspec.Struct, frozen=True, tag="hit_the_town", order=True):
    """Hit the Town: put your ``strength`` cowboy from the Ranch at the building on ``plot``."""

    strength: int
    plot: str


class Finish(msgspec.Struct, frozen=True, tag="finish", order=True):
    """Stop an "one or more" / "up to" choice here (Head Back, Grifter, Dance Hall, Fortune Teller)."""


class Annex(msgspec.Struct, frozen=True, tag="annex", order=True):
    """Annex the building your cowboy is alone at: resolve its whole effect."""


class DeclineAnnex(msgspec.Struct, frozen=True, tag="decline_annex", order=True):
    """Do not annex (all or nothing: none of the building's effect happens)."""


class Skedaddle(msgspec.Struct, frozen=True, tag="skedaddle", order=True):
    """Defender: discard a pony and run to the Abandoned Mine; the shootout ends."""


class StandAndFight(msgspec.Struct, frozen=True, tag="stand_and_fight", order=True):
    """Defender: stay and fight."""


class DeclareCartridge(msgspec.Struct, frozen=True, tag="declare_cartridge", order=True):
    """Spend a cartridge for one more die (``use``), or not."""

    use: bool


class StealFrom(msgspec.Struct, frozen=True, tag="steal_from", order=True):
    """Casino: steal $1 from ``seat``."""

    seat: int


class PickCowboy(msgspec.Struct, frozen=True, tag="pick_cowboy", order=True):
    """General Store: the cowboy to move, ``owner``'s ``strength`` cowboy on ``plot``."""

    plot: str
    owner: int
    strength: int


class MoveTo(msgspec.Struct, frozen=True, tag="move_to", order=True):
    """General Store: move the picked cowboy to the building on ``plot`` (a shootout if occupied)."""

    plot: str


class SendToMine(msgspec.Struct, frozen=True, tag="send_to_mine", order=True):
    """Grifter: send ``owner``'s ``strength`` cowboy on ``plot`` to the Abandoned Mine."""

    plot: str
    owner: int
    strength: int


class GivePoster(msgspec.Struct, frozen=True, tag="give_poster", order=True):
    """Newspaper: give one of your wanted posters to ``seat``."""

    seat: int


class ReturnCowboy(msgspec.Struct, frozen=True, tag="return_cowboy", order=True):
    """Dance Hall: return your ``strength`` cowboy at ``place`` (a plot or ``"mine"``) to the Ranch."""

    place: str
    strength: int


class AdjustCrimePool(msgspec.Struct, frozen=True, tag="adjust_crime_pool", order=True):
    """Telegraph Office: add two wanted posters from the box to the Crime Pool (``add``), or remove two."""

    add: bool


class LookAtStack(msgspec.Struct, frozen=True, tag="look_at_stack", order=True):
    """Fortune Teller: look at building stack ``stack`` (then rearrange it)."""

    stack: str


class PutNext(msgspec.Struct, frozen=True, tag="put_next", order=True):
    """Fortune Teller: ``building`` goes next from the top of the stack you look at."""

    building: str


class Hire(msgspec.Struct, frozen=True, tag="hire", order=True):
    """Saloon: hire a ``strength`` cowboy from your supply (it goes to the Abandoned Mine)."""

    strength: int


class MoveSheriff(msgspec.Struct, frozen=True, tag="move_sheriff", order=True):
    """Sheriff's Office: put the Sheriff on ``intersection`` (an id such as ``"S_A2_B2_B3"``)."""

    intersection: str


class PlaceStation(msgspec.Struct, frozen=True, tag="place_station", order=True):
    """Town Hall after four rails: build the Train Station on red-row ``plot``."""

    plot: str


class ChooseTile(msgspec.Struct, frozen=True, tag="choose_tile", order=True):
    """Town Hall (``town_hall_build = "one"``): build ``building``, drawn from ``stack``; the other
    drawn tiles go under their stacks (two copies of a building differ by their stack)."""

    stack: str
    building: str


class BuildOn(msgspec.Struct, frozen=True, tag="build_on", order=True):
    """Build the drawn tile on the open ``plot``."""

    plot: str


class DrawFrom(msgspec.Struct, frozen=True, tag="draw_from", order=True):
    """Stage Depot: draw the top tile of ``stack`` and build it."""

    stack: str


Action = (
    HeadBack
    | HitTheTown
    | Finish
    | Annex
    | DeclineAnnex
    | Skedaddle
    | StandAndFight
    | DeclareCartridge
    | StealFrom
    | PickCowboy
    | MoveTo
    | SendToMine
    | GivePoster
    | ReturnCowboy
    | AdjustCrimePool
    | LookAtStack
    | PutNext
    | Hire
    | MoveSheriff
    | PlaceStation
    | ChooseTile
    | BuildOn
    | DrawFrom
)
"""Every Deadwood action (a tagged union: each encodes with its ``type``)."""

ACTION_TYPES: tuple[type[msgspec.Struct], ...] = typing.get_args(Action)
"""The action classes, each exactly once: ``State.apply`` accepts instances of exactly these."""
