"""What a seat may know of a Deadwood 1876 game (rulebook: THE 3 LAWS OF DEADWOOD, second Law).

A view shows everything public (stars, cards laid face up, revealed Safes, counts) and, for a
seat, its own hand and Safes plus the Safes it has learned: seen with a Stetson, stolen, given,
or won in a Heist, for as long as their owner has not shuffled them since. Nothing else hidden:
no other hand, no unknown Safe, no deck order, no hidden choice before everyone has chosen.

Views are immutable, so :func:`make_view` shares equal pieces between views: the
:class:`SafeView` of a Safe without a Holster and the establishments (a small bounded cache).
"""

from __future__ import annotations

from functools import lru_cache

import msgspec

from engine.core import OMNISCIENT
from engine.deadwood1876.components import Components
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


_TURN_PHASES = frozenset(("turn", "duster", "stetson", "defend", "holster", "choose_holster", "send_away", "give_safe"))
_CHOICE_PHASES = ("pass_safe", "holster", "choose_holster", "heist", "showdown")
_FIGHT_PHASES = ("defend", "holster", "choose_holster", "send_away")

_HIDDEN = SafeView(None)
"""A Safe the viewer does not know (shared: views are immutable)."""

_kit_of: tuple[Components | None, tuple[str, ...], tuple[SafeView, ...], tuple[SafeView, ...]] = (None, (), (), ())


def _safe_kit(comp: Components) -> tuple[tuple[str, ...], tuple[SafeView, ...], tuple[SafeView, ...]]:
    """Every Safe's label (:meth:`Components.safe_label`) and its :class:`SafeView` without a
    Holster, face down and face up, worked out once for the components (views are immutable, so
    equal ones may be shared)."""
    global _kit_of
    if _kit_of[0] is not comp:
        labels = tuple(comp.safe_label(s) for s in range(len(comp.safe_kind)))
        _kit_of = (
            comp,
            labels,
            tuple(SafeView(label) for label in labels),
            tuple(SafeView(label, True) for label in labels),
        )
    return _kit_of[1:]


@lru_cache(maxsize=256)
def _establishment_views(
    ids: tuple[int, ...], names: tuple[str, ...], capacity: int, est: tuple[int, ...]
) -> tuple[EstablishmentView, ...]:
    """The establishments ``ids`` (named ``names``) with the stars at ``est`` (cached: views are
    immutable, so equal ones may be shared)."""
    return tuple(
        EstablishmentView(e, name, capacity, tuple([p for p, at in enumerate(est) if at == e]))
        for e, name in zip(ids, names, strict=True)
    )


def make_view(st: DeadwoodState, seat: int | None) -> View:
    """Build the :class:`View` of ``seat`` (``None``: spectator; ``OMNISCIENT``: everything)."""
    comp, table = st.comp, st.table
    everything = seat == OMNISCIENT
    known = st.known[seat] if seat is not None and not everything else set()
    labels, face_down, face_up = _safe_kit(comp)
    faces = st.faces
    revealed = st.revealed
    safe_holster = st.safe_holster
    phase = st.phase
    n = st.n
    showdown = phase in ("showdown", "over")
    choosing = phase in _CHOICE_PHASES
    winners = st.result.winners if st.result else ()
    players = []
    for p in range(st.m):
        own = everything or p == seat
        row = []
        for s in st.rows[p]:
            if s in safe_holster:
                shown = own or s in known or s in revealed
                row.append(SafeView(labels[s] if shown else None, s in revealed, faces[safe_holster[s]]))
            elif s in revealed:
                row.append(face_up[s])
            elif own or s in known:
                row.append(face_down[s])
            else:
                row.append(_HIDDEN)
        safes = tuple(row)
        holster = st.figure_holster.get(p)
        character = st.character[p]
        players.append(
            PlayerView(
                p,
                comp.character_names[character],
                comp.character_titles[character],
                st.est[p],
                len(st.hands[p]) if p < n else 0,
                safes,
                st.flipped[p],
                showdown and p not in st.alive and not (st.result and p in winners),
                p in st.pending and choosing,
                faces[holster] if holster is not None else None,
                p == st.stranger,
            )
        )
    establishments = _establishment_views(
        tuple(table.establishments),
        tuple([comp.establishment_names[e] for e in table.establishments]),
        table.capacity,
        tuple(st.est[: st.m]),
    )
    fight_view = None
    if st.fight is not None and phase in _FIGHT_PHASES:
        f = st.fight
        fight_view = FightView(
            f.kind,
            f.attacker,
            f.defender,
            f.index,
            faces[f.attack_card],
            faces[f.defend_card] if f.defend_card >= 0 else None,
            tuple([(g, fighter, faces[c]) for g, (c, fighter) in sorted(f.offers.items())]),
            tuple([(t, faces[c]) for t, c in sorted(f.thieves.items())]),
        )
    hand: tuple[Card, ...] = ()
    if seat is not None and not everything:
        hand = tuple([faces[c] for c in sorted(st.hands[seat])])
    segments = table.middle_safes + 1
    heisting = phase == "heist" or (phase == "give_safe" and st.after_gain == "heist_done")
    circles_done = (st.segment + heisting) * table.circles_per_segment + st.circle
    turns_left = max(0, segments * table.circles_per_segment - circles_done) if not st.badge else 0
    in_turns = not heisting and phase in _TURN_PHASES
    badge = None
    if st.badge and phase != "over" and st.badge <= 5 and in_turns:
        badge = comp.safe_names[badge_safe(st, st.badge)]
    return View(
        "deadwood1876",
        seat,
        phase,
        st.waiting,
        tuple(players[:n]),
        players[st.stranger] if st.stranger >= 0 else None,
        st.proxy,
        establishments,
        hand,
        st.current if in_turns else -1,
        st.first,
        circles_done + 1 if not st.badge else 0,
        turns_left,
        len(st.middle),
        labels[st.heist_safe] if st.heist_safe >= 0 else None,
        badge,
        st.segment == table.middle_safes and not st.badge,
        len(st.deck),
        len(st.discard),
        fight_view,
        st.left if phase == "duster" else 0,
        st.left if phase == "stetson" else 0,
        st.giver,
        st.advanced,
        winners,
        tuple(tuple(faces[c] for c in sorted(h)) for h in st.hands) if everything else None,
    )
