"""Wyatt Earp events: what happened, as a seat may know it.

Each event is a frozen, tagged msgspec Struct. Hidden fields (cards dealt or drawn from the
supply) are ``None`` in the public version of an event and filled in the version for the seat
that may know them. Cards are shown as :class:`Card`, never as bare ids. Every shot (a chance
result) is an event, as is every payout.
"""

from __future__ import annotations

import msgspec

from engine.core import GameCapped


class Card(msgspec.Struct, frozen=True):
    """A Wyatt Earp card's face.

    Attributes:
        id: ``0..77`` (see :mod:`engine.wyatt_earp.components`).
        card: the card type (``"outlaw"``, ``"photo"``, ``"bank_robbery"``, ...).
        outlaw: the Outlaw id (Outlaw cards and Photos), else -1.
        name: e.g. ``"Billy the Kid"``, ``"Photo (Billy the Kid)"``, ``"Bank robbery"``.
        cp: capture points printed on it (0 for symbol cards).
        bullet_hole: a shot that draws it hits (every Outlaw card).
    """

    id: int
    card: str
    outlaw: int
    name: str
    cp: int
    bullet_hole: bool


class HandStarted(msgspec.Struct, frozen=True, tag="hand_started"):
    """A hand begins (Setup): ``dealer`` dealt, ``starter`` (left of the dealer) plays first;
    ``posters`` are the rewards after the banker added $1,000 to each."""

    hand: int
    dealer: int
    starter: int
    posters: tuple[int, ...]


class CardsDealt(msgspec.Struct, frozen=True, tag="cards_dealt"):
    """``seat`` is dealt ``count`` cards (``cards`` only for that seat)."""

    seat: int
    count: int
    cards: tuple[Card, ...] | None = None


class FirstDiscard(msgspec.Struct, frozen=True, tag="first_discard"):
    """The dealer turns the top card of the supply face up: the first card of the discard stack."""

    card: Card


class TurnStarted(msgspec.Struct, frozen=True, tag="turn_started"):
    """``seat``'s turn begins."""

    seat: int


class CardsDrawn(msgspec.Struct, frozen=True, tag="cards_drawn"):
    """``seat`` drew ``count`` cards from the supply (``source``: ``"draw"`` for the turn's draw,
    ``"wyatt_earp"`` for a Wyatt Earp); ``cards`` only for that seat."""

    seat: int
    count: int
    source: str
    cards: tuple[Card, ...] | None = None


class TopDiscardTaken(msgspec.Struct, frozen=True, tag="top_discard_taken"):
    """``seat`` took the top card of the discard stack into the hand (everyone saw it)."""

    seat: int
    card: Card


class SupplyReshuffled(msgspec.Struct, frozen=True, tag="supply_reshuffled"):
    """The supply ran out for the first time this hand: the discard stack (``count`` cards) was
    shuffled into a new supply."""

    count: int


class OutlawsPlayed(msgspec.Struct, frozen=True, tag="outlaws_played"):
    """``seat`` played ``cards`` of ``outlaw`` into the territory; ``reward`` was added to the
    poster, which now shows ``poster``; ``first_set``: the first set of that Outlaw this hand."""

    seat: int
    outlaw: int
    cards: tuple[Card, ...]
    reward: int
    poster: int
    first_set: bool


class PhotoPlayed(msgspec.Struct, frozen=True, tag="photo_played"):
    """``seat`` played ``outlaw``'s Photo (``out_of_turn``: with the ``free_photo`` option)."""

    seat: int
    outlaw: int
    card: Card
    reward: int
    poster: int
    out_of_turn: bool = False


class SheriffPlayed(msgspec.Struct, frozen=True, tag="sheriff_played"):
    """``seat`` played a Sheriff card: ``use`` is ``"shot"`` (Stagecoach robbery, Bank robbery,
    Fastest gun, Hideout), ``"ask"``, ``"steal"`` (Most Wanted!), ``"draw"``, ``"search"``,
    ``"remove_hideout"`` (Wyatt Earp); ``out_of_turn`` for a Wyatt Earp answering a Hideout."""

    seat: int
    card: Card
    use: str
    out_of_turn: bool = False


class ShotFired(msgspec.Struct, frozen=True, tag="shot_fired"):
    """``seat``'s shot for ``sheriff``: ``drawn`` went from the supply onto the discard stack;
    ``hit`` if it has a bullet hole. On a miss the Sheriff card is on the discard stack and still
    counts as played."""

    seat: int
    sheriff: Card
    drawn: Card
    hit: bool


class SheriffPlaced(msgspec.Struct, frozen=True, tag="sheriff_placed"):
    """``seat`` put ``card`` on ``owner``'s ``outlaw`` (own territory; a Hideout: another
    player's); ``reward`` added, the poster now shows ``poster``."""

    seat: int
    card: Card
    owner: int
    outlaw: int
    reward: int
    poster: int


class FastestGunRemoved(msgspec.Struct, frozen=True, tag="fastest_gun_removed"):
    """The previous Fastest gun, on ``owner``'s ``outlaw``, went to the discard stack (its
    $1,000 stays on the poster)."""

    owner: int
    outlaw: int
    card: Card


class MostWantedAnswered(msgspec.Struct, frozen=True, tag="most_wanted_answered"):
    """``seat`` asked for an ``outlaw`` card; ``refused`` (in the order asked) had none;
    ``giver`` gave ``card`` (-1 and ``None``: nobody had one)."""

    seat: int
    outlaw: int
    clockwise: bool
    refused: tuple[int, ...]
    giver: int
    card: Card | None


class CardStolen(msgspec.Struct, frozen=True, tag="card_stolen"):
    """``seat`` stole ``card`` from ``owner``'s ``outlaw`` into the hand; ``orphaned`` Sheriff
    cards (no Outlaw card or Photo left under them) went to the discard stack."""

    seat: int
    owner: int
    outlaw: int
    card: Card
    orphaned: tuple[Card, ...]


class CardSearched(msgspec.Struct, frozen=True, tag="card_searched"):
    """Wyatt Earp: ``seat`` took a card from the discard stack into the hand, without showing the
    other players: ``card`` only for that seat (``None`` in everyone else's version)."""

    seat: int
    card: Card | None = None


class TargetDeclined(msgspec.Struct, frozen=True, tag="target_declined"):
    """After a hit, ``seat`` used the rulebook's "may" and took nothing with ``card`` (a Most
    Wanted! stole no card; a Wyatt Earp removed no Hideout); the card lies on the discard stack."""

    seat: int
    card: Card


class HideoutRemoved(msgspec.Struct, frozen=True, tag="hideout_removed"):
    """``seat`` removed the Hideout ``card`` from their ``outlaw`` with a Wyatt Earp."""

    seat: int
    outlaw: int
    card: Card


class HideoutStands(msgspec.Struct, frozen=True, tag="hideout_stands"):
    """``seat`` did not answer the Hideout on their ``outlaw`` with a Wyatt Earp."""

    seat: int
    outlaw: int


class PhotoDeclined(msgspec.Struct, frozen=True, tag="photo_declined"):
    """``free_photo`` option: ``seat`` did not play ``outlaw``'s Photo out of turn."""

    seat: int
    outlaw: int


class CardDiscarded(msgspec.Struct, frozen=True, tag="card_discarded"):
    """``seat`` ended the turn by discarding ``card`` (it has no effect)."""

    seat: int
    card: Card


class HandEnded(msgspec.Struct, frozen=True, tag="hand_ended"):
    """The hand ended (End of a Hand): ``reason`` ``"last_card"`` (``seat`` discarded their last
    card), ``"empty_hand"`` (``seat`` had no cards left at the end of a turn),
    ``"supply_exhausted"`` (the supply ran out a second time when ``seat`` needed cards) or
    ``"stalled"`` (the no-progress rule: ``seat`` ended the last of too many turns in a row in
    which nobody drew from the supply or played a card; see :mod:`engine.wyatt_earp`)."""

    reason: str
    seat: int


class HandCardsDiscarded(msgspec.Struct, frozen=True, tag="hand_cards_discarded"):
    """At the end of a hand, ``seat`` put the cards left in the hand on the discard stack."""

    seat: int
    cards: tuple[Card, ...]


class OutlawScored(msgspec.Struct, frozen=True, tag="outlaw_scored"):
    """Scoring of ``outlaw``: ``cp`` per seat (uncovered CP), ``reward`` on the poster before,
    ``paid`` per seat, ``left`` on the poster; ``captured`` if there were 8 CP or more."""

    outlaw: int
    cp: tuple[int, ...]
    reward: int
    paid: tuple[int, ...]
    left: int
    captured: bool


class DuelShot(msgspec.Struct, frozen=True, tag="duel_shot"):
    """The tie-breaking duel (End of the Game): in ``round``, ``seat`` drew ``card``; a blank
    (``hit`` False) is out, unless every remaining player drew one."""

    round: int
    seat: int
    card: Card
    hit: bool


class GameOver(msgspec.Struct, frozen=True, tag="game_over"):
    """The game ended: ``money`` per seat; ``winners`` (one seat, after a duel if money tied)."""

    money: tuple[int, ...]
    winners: tuple[int, ...]


Event = (
    HandStarted
    | CardsDealt
    | FirstDiscard
    | TurnStarted
    | CardsDrawn
    | TopDiscardTaken
    | SupplyReshuffled
    | OutlawsPlayed
    | PhotoPlayed
    | SheriffPlayed
    | ShotFired
    | SheriffPlaced
    | FastestGunRemoved
    | MostWantedAnswered
    | CardStolen
    | CardSearched
    | TargetDeclined
    | HideoutRemoved
    | HideoutStands
    | PhotoDeclined
    | CardDiscarded
    | HandEnded
    | HandCardsDiscarded
    | OutlawScored
    | DuelShot
    | GameOver
    | GameCapped
)
"""Every Wyatt Earp event (a tagged union)."""
