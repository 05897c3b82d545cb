"""Wyatt Earp actions: one frozen, tagged msgspec Struct per kind of decision.

``outlaw`` fields are Outlaw ids (``0..6``, poster order, see :mod:`.components`); ``owner``
fields are seats; ``card`` fields are card types (``"outlaw"``, ``"photo"``, ``"bank_robbery"``,
...). Cards of one kind are interchangeable, so actions name kinds, never card ids: the engine
picks the card (one that the other players know is in the hand first, then the lowest id).

A turn is a sequence of decisions (rulebook: Game Play):

1. ``draw``: :class:`DrawFromSupply` or :class:`TakeTopDiscard`;
2. ``play``: any number of :class:`PlayOutlaws`, at most one Sheriff card (:class:`PlayPhoto`,
   :class:`PlaySheriff`, :class:`MostWantedAsk`, :class:`MostWantedSteal`,
   :class:`WyattEarpDraw`, :class:`WyattEarpSearch`, :class:`WyattEarpRemoveHideout`), a
   :class:`WyattEarpTake` after a search, and a :class:`ChooseTarget` after each successful shot
   (or :class:`DeclineTarget` where the rulebook says "may": a Most Wanted! steal, a Wyatt Earp
   removing a Hideout);
3. :class:`Discard`, which ends the turn.

Out of turn: a player whose Outlaw just got a Hideout answers with
:class:`WyattEarpRemoveHideout` or :class:`LetHideoutStand`; with the ``free_photo`` option,
players asked after a first set answer with :class:`PlayPhoto` or :class:`DeclinePhoto`.
"""

from __future__ import annotations

import typing

import msgspec


class DrawFromSupply(msgspec.Struct, frozen=True, tag="draw_from_supply", order=True):
    """Draw the two topmost cards of the card supply (1. Draw)."""


class TakeTopDiscard(msgspec.Struct, frozen=True, tag="take_top_discard", order=True):
    """Take the topmost card of the discard stack (1. Draw)."""


class PlayOutlaws(msgspec.Struct, frozen=True, tag="play_outlaws", order=True):
    """Play ``count`` Outlaw cards of ``outlaw`` into your territory (2. Play; a set of at least
    three while nobody has played that Outlaw's first set this hand)."""

    outlaw: int
    count: int


class PlayPhoto(msgspec.Struct, frozen=True, tag="play_photo", order=True):
    """Play ``outlaw``'s Photo into your territory: +4 CP, +$1,000 (Sheriff cards: Photo)."""

    outlaw: int


class PlaySheriff(msgspec.Struct, frozen=True, tag="play_sheriff", order=True):
    """Try a shot with a Stagecoach robbery, Bank robbery, Fastest gun or Hideout (``card``);
    after a hit, :class:`ChooseTarget` says where it goes."""

    card: str


class MostWantedAsk(msgspec.Struct, frozen=True, tag="most_wanted_ask", order=True):
    """Most Wanted! from the hand: ask for an Outlaw card of ``outlaw``, starting with the player
    on your left (``clockwise``) or on your right; the first who has one gives it to you."""

    outlaw: int
    clockwise: bool


class MostWantedSteal(msgspec.Struct, frozen=True, tag="most_wanted_steal", order=True):
    """Most Wanted! from the territory: try a shot; after a hit, :class:`ChooseTarget` names the
    territory and Outlaw to steal an Outlaw card from."""


class WyattEarpDraw(msgspec.Struct, frozen=True, tag="wyatt_earp_draw", order=True):
    """Wyatt Earp: draw the top two cards of the card supply."""


class WyattEarpSearch(msgspec.Struct, frozen=True, tag="wyatt_earp_search", order=True):
    """Wyatt Earp: take the entire discard stack and search through it (rulebook: Wyatt Earp,
    "draw one card"); then :class:`WyattEarpTake` names the card taken. Offered when the stack
    holds a card other than a Wyatt Earp."""


class WyattEarpTake(msgspec.Struct, frozen=True, tag="wyatt_earp_take", order=True):
    """After :class:`WyattEarpSearch`: take one card of this kind (never a Wyatt Earp) from the
    discard stack into your hand, unseen by the other players.

    ``card`` is the card type, ``outlaw`` its Outlaw (Outlaw cards and Photos) or -1.
    """

    card: str
    outlaw: int


class WyattEarpRemoveHideout(msgspec.Struct, frozen=True, tag="wyatt_earp_remove_hideout", order=True):
    """Wyatt Earp: try a shot to remove a Hideout from one of your Outlaws (on your turn, then
    :class:`ChooseTarget`; or out of turn, the Hideout just played on you)."""


class ChooseTarget(msgspec.Struct, frozen=True, tag="choose_target", order=True):
    """After a hit: the group (``owner``'s cards of ``outlaw``) the Sheriff card goes on, is
    stolen from (Most Wanted!) or is freed from its Hideout (Wyatt Earp)."""

    owner: int
    outlaw: int


class DeclineTarget(msgspec.Struct, frozen=True, tag="decline_target", order=True):
    """After a hit with Most Wanted! (steal) or with Wyatt Earp on your turn (remove a Hideout):
    use the rulebook's "may" and take nothing; the card lies on the discard stack, played."""


class Discard(msgspec.Struct, frozen=True, tag="discard", order=True):
    """Discard one card of this kind from your hand, ending your turn (3. Discard).

    ``card`` is the card type, ``outlaw`` its Outlaw (Outlaw cards and Photos) or -1.
    """

    card: str
    outlaw: int


class LetHideoutStand(msgspec.Struct, frozen=True, tag="let_hideout_stand", order=True):
    """Out of turn: do not answer the Hideout just played on you with a Wyatt Earp."""


class DeclinePhoto(msgspec.Struct, frozen=True, tag="decline_photo", order=True):
    """``free_photo`` option, out of turn: do not play the Photo of the Outlaw just melded."""


Action = (
    DrawFromSupply
    | TakeTopDiscard
    | PlayOutlaws
    | PlayPhoto
    | PlaySheriff
    | MostWantedAsk
    | MostWantedSteal
    | WyattEarpDraw
    | WyattEarpSearch
    | WyattEarpTake
    | WyattEarpRemoveHideout
    | ChooseTarget
    | DeclineTarget
    | Discard
    | LetHideoutStand
    | DeclinePhoto
)
"""Every Wyatt Earp action (a tagged union: each encodes with its ``type``)."""

ACTION_TYPES: tuple[type[msgspec.Struct], ...] = typing.get_args(Action)
"""The action classes, each exactly once: ``State.apply`` accepts instances of exactly these."""
