"""Deadwood 1876 events: what happened, as a seat may know it.

Each event is a frozen, tagged msgspec Struct. Hidden fields (a Safe's contents, a drawn card)
are ``None`` in the public version of an event and filled in the version for the seats that
may know them. Cards are shown as :class:`Card` (their gun and item), never as bare ids.
"""

from __future__ import annotations

import msgspec

from engine.core import GameCapped


class Card(msgspec.Struct, frozen=True):
    """A Deadwood card: ``id`` (0..49), ``gun`` name, ``item`` name, ``white`` Horse or not."""

    id: int
    gun: str
    item: str
    white: bool = False


class StarsPlaced(msgspec.Struct, frozen=True, tag="stars_placed"):
    """Set Up step 2: ``establishments[seat]`` is each player's establishment id."""

    establishments: tuple[int, ...]


class CardsDealt(msgspec.Struct, frozen=True, tag="cards_dealt"):
    """Set Up step 3: ``seat`` is dealt ``count`` cards (``cards`` only for that seat)."""

    seat: int
    count: int
    cards: tuple[Card, ...] | None = None


class SafesDealt(msgspec.Struct, frozen=True, tag="safes_dealt"):
    """Set Up step 4: ``seat`` is dealt Safes (``safes``: their contents, only for that seat)."""

    seat: int
    count: int
    safes: tuple[str, ...] | None = None


class SafePassed(msgspec.Struct, frozen=True, tag="safe_passed"):
    """Set Up step 5: a Safe passed left (``safe`` known to the giver and the receiver)."""

    giver: int
    receiver: int
    safe: str | None = None


class StrangerPlaced(msgspec.Struct, frozen=True, tag="stranger_placed"):
    """2 players: the highest black-die roller (``host``) puts the Stranger (figure ``figure``) in
    their establishment; the Stranger gets ``safes`` face-down Safes from the box."""

    host: int
    figure: int
    establishment: int
    safes: int


class HolsterAttached(msgspec.Struct, frozen=True, tag="holster_attached"):
    """2-3 players: ``seat`` attached ``card`` to ``owner``'s Safe at ``index`` (-1: the character card)."""

    seat: int
    owner: int
    index: int
    card: Card


class SafesShuffled(msgspec.Struct, frozen=True, tag="safes_shuffled"):
    """``seat`` shuffled its row of Safes; positions others had seen are no longer known."""

    seat: int


class DiceRolled(msgspec.Struct, frozen=True, tag="dice_rolled"):
    """A roll: ``purpose`` (first_player, robbery, duel, heist, showdown, ...) and per seat the dice.

    ``rolls`` holds one entry per rolling seat: ``(seat, ((gun, face), ...), total)``.
    ``gun`` is ``"black"`` for the first-player roll.
    """

    purpose: str
    rolls: tuple[tuple[int, tuple[tuple[str, int], ...], int], ...]


class FirstPlayer(msgspec.Struct, frozen=True, tag="first_player"):
    """The highest black-die roller goes first; play proceeds clockwise."""

    seat: int


class TurnStarted(msgspec.Struct, frozen=True, tag="turn_started"):
    """A turn begins. ``badge`` names the Badge in the Badge Round; ``final`` for the final turns."""

    seat: int
    circle: int
    badge: str | None = None
    final: bool = False


class CardPlayed(msgspec.Struct, frozen=True, tag="card_played"):
    """A card laid face up: ``use`` is horse, duster, stetson, robbery, duel, defend, holster, heist or showdown."""

    seat: int
    card: Card
    use: str


class RobberyDeclared(msgspec.Struct, frozen=True, tag="robbery_declared"):
    """``attacker`` lays a gun in front of the Safe at ``index`` of ``defender``'s row."""

    attacker: int
    defender: int
    index: int


class DuelDeclared(msgspec.Struct, frozen=True, tag="duel_declared"):
    """``attacker`` lays a gun in front of ``defender``'s character card."""

    attacker: int
    defender: int


class HolsterGiven(msgspec.Struct, frozen=True, tag="holster_given"):
    """``giver`` gave the Holster ``card`` to ``fighter`` (revealed once everyone has chosen)."""

    giver: int
    fighter: int
    card: Card


class HolsterReturned(msgspec.Struct, frozen=True, tag="holster_returned"):
    """A Holster not chosen goes back to ``giver``'s hand."""

    giver: int
    fighter: int
    card: Card


class FightWon(msgspec.Struct, frozen=True, tag="fight_won"):
    """A Robbery or Duel (``kind``) ended; ``winner`` rolled higher than ``loser``."""

    kind: str
    winner: int
    loser: int


class SafeStolen(msgspec.Struct, frozen=True, tag="safe_stolen"):
    """``thief`` took the Safe at ``index`` of ``victim``'s row (``safe`` known to both)."""

    thief: int
    victim: int
    index: int
    safe: str | None = None


class SafeViewed(msgspec.Struct, frozen=True, tag="safe_viewed"):
    """``viewer`` looked at the Safe at ``index`` of ``owner``'s row (``safe`` only for the viewer)."""

    viewer: int
    owner: int
    index: int
    safe: str | None = None


class StarMoved(msgspec.Struct, frozen=True, tag="star_moved"):
    """``seat``'s star moved from one establishment to another (Horse, Duel swap, sent away)."""

    seat: int
    origin: int
    destination: int
    reason: str


class CardsDrawn(msgspec.Struct, frozen=True, tag="cards_drawn"):
    """``seat`` drew ``count`` Deadwood cards (``cards`` only for that seat)."""

    seat: int
    count: int
    cards: tuple[Card, ...] | None = None


class CardsDiscarded(msgspec.Struct, frozen=True, tag="cards_discarded"):
    """``seat`` discarded ``count`` cards face down after a Duster (``cards`` only for that seat)."""

    seat: int
    count: int
    cards: tuple[Card, ...] | None = None


class DeckReshuffled(msgspec.Struct, frozen=True, tag="deck_reshuffled"):
    """The deck ran out: the discard pile (``count`` cards) was shuffled into a new deck."""

    count: int


class HeistStarted(msgspec.Struct, frozen=True, tag="heist_started"):
    """A Heist: the top middle Safe is revealed to everyone."""

    heist: int
    safe: str


class HeistWon(msgspec.Struct, frozen=True, tag="heist_won"):
    """``seat`` rolled highest and takes the Heist Safe."""

    seat: int
    safe: str


class SafeGiven(msgspec.Struct, frozen=True, tag="safe_given"):
    """Third Law: ``giver`` gave the Safe at ``index`` to ``recipient`` (``safe`` known to both)."""

    giver: int
    recipient: int
    index: int
    safe: str | None = None


class BadgeRoundStarted(msgspec.Struct, frozen=True, tag="badge_round_started"):
    """The final turns are over; Badges are revealed Tin, Iron, Copper, Silver, Gold."""


class HorseThiefJoined(msgspec.Struct, frozen=True, tag="horse_thief_joined"):
    """Optional Horse Thief rule: ``seat`` joins the Robbery with a white Horse (``card``)."""

    seat: int
    card: Card


class SafeGivenToStranger(msgspec.Struct, frozen=True, tag="safe_given_to_stranger"):
    """Prototype rules, 2 players: ``seat`` gives one of three Safes to the Stranger (``safe`` only for the giver)."""

    seat: int
    safe: str | None = None


class MysteryRevealed(msgspec.Struct, frozen=True, tag="mystery_revealed"):
    """A starred Mystery Safe (Dagger, Explosives, Poker Deck) revealed by ``seat`` after the Badge Round."""

    seat: int
    index: int
    safe: str


class DaggerChosen(msgspec.Struct, frozen=True, tag="dagger_chosen"):
    """The Dagger's owner chose +1 gold and a negative Pepperbox (``plus_gold``) or -1 gold and a Pepperbox."""

    seat: int
    plus_gold: bool


class SafeExploded(msgspec.Struct, frozen=True, tag="safe_exploded"):
    """Explosives: ``seat`` removed ``owner``'s Safe at ``index`` (``safe``, shown to all) from the game.

    ``holster``: the Holster that was attached to that Safe (2-3 players), now face up on the
    discard pile; ``None`` if it had none.
    """

    seat: int
    owner: int
    index: int
    safe: str
    holster: Card | None = None


class PokerDeckPlayed(msgspec.Struct, frozen=True, tag="poker_deck_played"):
    """Poker Deck: ``seat`` rolled ``value`` with its gun and ``red`` on the red die; gold changed by ``gold``."""

    seat: int
    value: int
    red: int
    gold: int


class TeamVictory(msgspec.Struct, frozen=True, tag="team_victory"):
    """An optional team victory ("peace_lovin" or "fair_share"): everyone who advanced wins."""

    rule: str
    seats: tuple[int, ...]


class BadgeRevealed(msgspec.Struct, frozen=True, tag="badge_revealed"):
    """``seat`` reveals the ``badge`` at ``index`` of its row and takes an extra turn."""

    seat: int
    index: int
    badge: str


class SafesRevealed(msgspec.Struct, frozen=True, tag="safes_revealed"):
    """Final Showdown: every row of Safes revealed (``rows[seat]``) and each establishment's gold."""

    rows: tuple[tuple[str, ...], ...]
    gold: tuple[int, ...]


class Advanced(msgspec.Struct, frozen=True, tag="advanced"):
    """The players who advance to the Final Showdown."""

    seats: tuple[int, ...]


class CharacterFlipped(msgspec.Struct, frozen=True, tag="character_flipped"):
    """Lowest Showdown roll: ``seat``'s character card flips to black and white."""

    seat: int


class PlayerOut(msgspec.Struct, frozen=True, tag="player_out"):
    """Lowest Showdown roll a second time: ``seat`` is out of the game."""

    seat: int


class HandsTakenBack(msgspec.Struct, frozen=True, tag="hands_taken_back"):
    """Final Showdown: cards ran out; the players alive pick up the hands they went in with."""

    seats: tuple[int, ...]


class GameOver(msgspec.Struct, frozen=True, tag="game_over"):
    """The game ended; ``winners`` (seats) keep all the gold."""

    winners: tuple[int, ...]


Event = (
    StarsPlaced
    | CardsDealt
    | SafesDealt
    | SafePassed
    | StrangerPlaced
    | HolsterAttached
    | SafesShuffled
    | DiceRolled
    | FirstPlayer
    | TurnStarted
    | CardPlayed
    | RobberyDeclared
    | DuelDeclared
    | HolsterGiven
    | HolsterReturned
    | FightWon
    | SafeStolen
    | SafeViewed
    | StarMoved
    | CardsDrawn
    | CardsDiscarded
    | DeckReshuffled
    | HeistStarted
    | HeistWon
    | SafeGiven
    | BadgeRoundStarted
    | HorseThiefJoined
    | SafeGivenToStranger
    | MysteryRevealed
    | DaggerChosen
    | SafeExploded
    | PokerDeckPlayed
    | TeamVictory
    | BadgeRevealed
    | SafesRevealed
    | Advanced
    | CharacterFlipped
    | PlayerOut
    | HandsTakenBack
    | GameOver
    | GameCapped
)
"""Every Deadwood 1876 event (tagged union)."""
