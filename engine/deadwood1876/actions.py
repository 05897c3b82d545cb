"""Deadwood 1876 actions: one frozen, tagged msgspec Struct per kind of decision.

``card`` fields are Deadwood card ids (``0..49``, see :mod:`.components`); ``index`` fields are
positions in a row of Safes (0 = leftmost); ``owner``, ``target``, ``fighter`` and ``recipient``
are seats; ``establishment`` is an establishment id.
"""

from __future__ import annotations

import typing

import msgspec


class PassSafe(msgspec.Struct, frozen=True, tag="pass_safe", order=True):
    """Set Up step 5: pass the Safe at ``index`` of your two, face down, to the player on your left."""

    index: int


class RideHorse(msgspec.Struct, frozen=True, tag="ride_horse", order=True):
    """Horse: move your star to another establishment with a vacancy."""

    card: int
    establishment: int


class UseDuster(msgspec.Struct, frozen=True, tag="use_duster", order=True):
    """Duster: discard it, draw four Deadwood cards, then discard three (:class:`Discard`)."""

    card: int


class Discard(msgspec.Struct, frozen=True, tag="discard", order=True):
    """After a Duster: discard one card (three in all)."""

    card: int


class UseStetson(msgspec.Struct, frozen=True, tag="use_stetson", order=True):
    """Stetson: view two Safes in play (:class:`ViewSafe`); one with 2-3 players."""

    card: int


class ViewSafe(msgspec.Struct, frozen=True, tag="view_safe", order=True):
    """After a Stetson: privately view the Safe at ``index`` of ``owner``'s row."""

    owner: int
    index: int


class AttachHolster(msgspec.Struct, frozen=True, tag="attach_holster", order=True):
    """2-3 players, on your turn: attach a Holster to the Safe at ``index`` of ``owner``'s row,
    or to ``owner``'s character card when ``index`` is -1 (``owner`` may be the Stranger)."""

    card: int
    owner: int
    index: int


class Robbery(msgspec.Struct, frozen=True, tag="robbery", order=True):
    """Lay a gun face up in front of one specific Safe of another player."""

    card: int
    owner: int
    index: int


class Duel(msgspec.Struct, frozen=True, tag="duel", order=True):
    """Lay a gun face up in front of another player's character card."""

    card: int
    target: int


class Defend(msgspec.Struct, frozen=True, tag="defend", order=True):
    """The defender of a Robbery or Duel answers with a gun from hand."""

    card: int


class GiveHolster(msgspec.Struct, frozen=True, tag="give_holster", order=True):
    """Out of turn, before the roll: give a Holster to the attacker or the defender (``fighter``)."""

    card: int
    fighter: int


class NoHolster(msgspec.Struct, frozen=True, tag="no_holster", order=True):
    """Give no Holster in this fight."""


class ChooseHolster(msgspec.Struct, frozen=True, tag="choose_holster", order=True):
    """Given several Holsters: use this one; the others go back to their owners."""

    card: int


class SendAway(msgspec.Struct, frozen=True, tag="send_away", order=True):
    """Duel won in your own establishment: send the loser to an establishment with a vacancy."""

    establishment: int


class GiveSafe(msgspec.Struct, frozen=True, tag="give_safe", order=True):
    """Third Law: give the Safe at ``index`` of your row to ``recipient`` (a player with fewest Safes)."""

    index: int
    recipient: int


class HorseThief(msgspec.Struct, frozen=True, tag="horse_thief", order=True):
    """Optional Horse Thief rule: join a Robbery with a white Horse, rolling the Horse card's gun."""

    card: int


class GiveToStranger(msgspec.Struct, frozen=True, tag="give_to_stranger", order=True):
    """Prototype rules, 2 players: give the Safe at ``index`` of your three to the Stranger."""

    index: int


class ChooseDagger(msgspec.Struct, frozen=True, tag="choose_dagger", order=True):
    """Mystery Safe Dagger: ``plus_gold`` True for +1 gold and a negative Pepperbox, False for
    -1 gold and a Pepperbox Showdown Gun."""

    plus_gold: bool


class Explode(msgspec.Struct, frozen=True, tag="explode", order=True):
    """Mystery Safe Explosives: remove the unrevealed Safe at ``index`` of ``owner``'s row from the game."""

    owner: int
    index: int


class PokerGun(msgspec.Struct, frozen=True, tag="poker_gun", order=True):
    """Mystery Safe Poker Deck: play a gun from hand; its roll and the red die change your gold."""

    card: int


class HeistGun(msgspec.Struct, frozen=True, tag="heist_gun", order=True):
    """Heist: commit a gun from hand, simultaneously with everyone."""

    card: int


class FireGun(msgspec.Struct, frozen=True, tag="fire_gun", order=True):
    """Final Showdown: play a card as a gun, simultaneously with everyone still alive."""

    card: int


Action = (
    PassSafe
    | RideHorse
    | UseDuster
    | Discard
    | UseStetson
    | ViewSafe
    | AttachHolster
    | Robbery
    | Duel
    | Defend
    | GiveHolster
    | NoHolster
    | ChooseHolster
    | SendAway
    | GiveSafe
    | HorseThief
    | GiveToStranger
    | ChooseDagger
    | Explode
    | PokerGun
    | HeistGun
    | FireGun
)
"""Every Deadwood 1876 action (a tagged union: each encodes with its ``type``)."""

ACTION_TYPES: tuple[type[msgspec.Struct], ...] = typing.get_args(Action)
"""The action classes, each exactly once: ``State.apply`` accepts instances of exactly these
(a subclass is not a Deadwood 1876 action and is refused)."""
