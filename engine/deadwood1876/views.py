"""What a seat may know of a Deadwood 1876 game (rulebook: THE 3 LAWS OF DEADWOOD, second Law).

A view shows everything public (stars, cards laid face up, revealed Safes, counts) and, for a
seat, its own hand and Safes plus the Safes it has learned: seen with a Stetson, stolen, given,
or won in a Heist, for as long as their owner has not shuffled them since. Nothing else hidden:
no other hand, no unknown Safe, no deck order, no hidden choice before everyone has chosen.
"""

from __future__ import annotations

import msgspec

from engine.core import OMNISCIENT
from engine.deadwood1876.events import Card
from engine.deadwood1876.rules.badge_round import badge_safe
from engine.deadwood1876.state import DeadwoodState


class SafeView(msgspec.Struct, frozen=True):
    """One Safe in a row: ``contents`` if the viewer knows them (else ``None``), ``revealed`` if
    face up, ``holster`` the Holster attached to it (2-3 players)."""

    contents: str | None
    revealed: bool = False
    holster: Card | None = None


class PlayerView(msgspec.Struct, frozen=True):
    """One seat at the table, as everyone may see it (plus what the viewer knows of its Safes).

    Attributes:
        seat: the seat (0-based, clockwise).
        character: the character's name; ``title`` their title.
        establishment: the establishment id of the star.
        hand_size: cards in hand.
        safes: the row of Safes, leftmost first.
        flipped: the character card is on its black-and-white side (Final Showdown).
        out: out of the game (did not advance, or lost the Showdown twice).
        chosen: a hidden simultaneous choice is down (but not what it is).
        holster: the Holster attached to the character card (2-3 players).
        stranger: this is the Stranger (2 players), figure ``n``, who has no hand and no turns.
    """

    seat: int
    character: str
    title: str
    establishment: int
    hand_size: int
    safes: tuple[SafeView, ...]
    flipped: bool = False
    out: bool = False
    chosen: bool = False
    holster: Card | None = None
    stranger: bool = False


class EstablishmentView(msgspec.Struct, frozen=True):
    """An establishment in play: ``id``, ``name``, ``capacity`` and the figures (``seats``; the
    Stranger is figure ``n``) staying there."""

    id: int
    name: str
    capacity: int
    seats: tuple[int, ...]


class FightView(msgspec.Struct, frozen=True):
    """A Robbery or Duel in progress.

    Attributes:
        kind: ``"robbery"`` or ``"duel"``.
        attacker, defender: seats.
        index: the attacked Safe's position in the defender's row (-1 for a Duel).
        attack_card, defend_card: the guns laid face up (``defend_card`` ``None`` until laid).
        holsters: Holsters given, as ``(giver, fighter, card)``, once everyone has chosen.
        thieves: Horse Thieves who joined (optional rule), as ``(seat, white Horse card)``.
    """

    kind: str
    attacker: int
    defender: int
    index: int
    attack_card: Card
    defend_card: Card | None
    holsters: tuple[tuple[int, int, Card], ...]
    thieves: tuple[tuple[int, Card], ...] = ()


class View(msgspec.Struct, frozen=True):
    """Everything one seat may know (``seat`` ``None``: a spectator; -1: omniscient).

    Attributes:
        game: ``"deadwood1876"``.
        seat: the viewer.
        phase: the decision pending (see :mod:`engine.deadwood1876.state`).
        to_act: the seats that owe a decision.
        players: every seat, in seat order.
        stranger: the Stranger (2 players), else ``None``.
        acting_as_stranger: the player fighting the Final Showdown as the Stranger, else -1.
        establishments: the establishments in play, clockwise from the Gem Theatre.
        hand: the viewer's cards (empty for a spectator).
        current: whose turn it is (-1 before the first turn and in Heists and the Showdown).
        first: the first player.
        circle: the turn circle (1-based) of the current turn; 0 in the Badge Round.
        turns_left: full turns each player still has before the Badge Round.
        middle_safes: Safes left in the middle stack (one Heist each).
        heist_safe: the revealed Heist Safe being fought for, if any.
        badge: the Badge whose extra turn is being played (Badge Round), if any.
        final_turns: the turns after the last Heist are being played.
        deck_size, discard_size: card counts.
        fight: the Robbery or Duel in progress, if any.
        cards_to_discard: Duster discards still owed; ``views_left``: Stetson views still owed.
        giver: who must give a Safe away (Third Law), else -1.
        advanced: the seats that advanced to the Final Showdown.
        winners: the winners once the game is over.
        hands: every hand, only in the omniscient view.
    """

    game: str
    seat: int | None
    phase: str
    to_act: tuple[int, ...]
    players: tuple[PlayerView, ...]
    stranger: PlayerView | None
    acting_as_stranger: int
    establishments: tuple[EstablishmentView, ...]
    hand: tuple[Card, ...]
    current: int
    first: int
    circle: int
    turns_left: int
    middle_safes: int
    heist_safe: str | None
    badge: str | None
    final_turns: bool
    deck_size: int
    discard_size: int
    fight: FightView | None
    cards_to_discard: int
    views_left: int
    giver: int
    advanced: tuple[int, ...]
    winners: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...] | None = None


def make_view(st: DeadwoodState, seat: int | None) -> View:
    """Build the :class:`View` of ``seat`` (``None``: spectator; ``OMNISCIENT``: everything)."""
    comp, table = st.comp, st.table
    everything = seat == OMNISCIENT
    known = st.known[seat] if seat is not None and not everything else set()
    players = []
    for p in range(st.m):
        own = everything or p == seat
        safes = tuple(
            SafeView(
                comp.safe_label(s) if own or s in known or s in st.revealed else None,
                s in st.revealed,
                st.card(st.safe_holster[s]) if s in st.safe_holster else None,
            )
            for s in st.rows[p]
        )
        holster = st.figure_holster.get(p)
        players.append(
            PlayerView(
                seat=p,
                character=comp.character_names[st.character[p]],
                title=comp.character_titles[st.character[p]],
                establishment=st.est[p],
                hand_size=len(st.hands[p]) if p < st.n else 0,
                safes=safes,
                flipped=st.flipped[p],
                out=st.phase in ("showdown", "over")
                and p not in st.alive
                and not (st.result and p in st.result.winners),
                chosen=p in st.pending and st.phase in ("pass_safe", "holster", "choose_holster", "heist", "showdown"),
                holster=st.card(holster) if holster is not None else None,
                stranger=p == st.stranger,
            )
        )
    establishments = tuple(
        EstablishmentView(
            e, comp.establishment_names[e], table.capacity, tuple(p for p in range(st.m) if st.est[p] == e)
        )
        for e in table.establishments
    )
    fight_view = None
    if st.fight is not None and st.phase in ("defend", "holster", "choose_holster", "send_away"):
        f = st.fight
        fight_view = FightView(
            kind=f.kind,
            attacker=f.attacker,
            defender=f.defender,
            index=f.index,
            attack_card=st.card(f.attack_card),
            defend_card=st.card(f.defend_card) if f.defend_card >= 0 else None,
            holsters=tuple((g, fighter, st.card(c)) for g, (c, fighter) in sorted(f.offers.items())),
            thieves=tuple((t, st.card(c)) for t, c in sorted(f.thieves.items())),
        )
    hand: tuple[Card, ...] = ()
    if seat is not None and not everything:
        hand = tuple(st.card(c) for c in sorted(st.hands[seat]))
    segments = table.middle_safes + 1
    heisting = st.phase == "heist" or (st.phase == "give_safe" and st.after_gain == "heist_done")
    circles_done = (st.segment + heisting) * table.circles_per_segment + st.circle
    turns_left = max(0, segments * table.circles_per_segment - circles_done) if not st.badge else 0
    in_turns = not heisting and st.phase in (
        "turn",
        "duster",
        "stetson",
        "defend",
        "holster",
        "choose_holster",
        "send_away",
        "give_safe",
    )
    badge = None
    if st.badge and st.phase != "over" and st.badge <= 5 and in_turns:
        badge = comp.safe_names[badge_safe(st, st.badge)]
    return View(
        game="deadwood1876",
        seat=seat,
        phase=st.phase,
        to_act=st.waiting,
        players=tuple(players[: st.n]),
        stranger=players[st.stranger] if st.stranger >= 0 else None,
        acting_as_stranger=st.proxy,
        establishments=establishments,
        hand=hand,
        current=st.current if in_turns else -1,
        first=st.first,
        circle=circles_done + 1 if not st.badge else 0,
        turns_left=turns_left,
        middle_safes=len(st.middle),
        heist_safe=comp.safe_label(st.heist_safe) if st.heist_safe >= 0 else None,
        badge=badge,
        final_turns=st.segment == table.middle_safes and not st.badge,
        deck_size=len(st.deck),
        discard_size=len(st.discard),
        fight=fight_view,
        cards_to_discard=st.left if st.phase == "duster" else 0,
        views_left=st.left if st.phase == "stetson" else 0,
        giver=st.giver,
        advanced=st.advanced,
        winners=st.result.winners if st.result else (),
        hands=tuple(tuple(st.card(c) for c in sorted(h)) for h in st.hands) if everything else None,
    )
