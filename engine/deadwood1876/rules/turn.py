"""On Your Turn (rulebook: ON YOUR TURN, CARD DETAILS: Horse, Duster, Stetson) and the turn order.

A turn is one Deadwood card, used either as its item (Horse, Duster, Stetson) or as its gun for
a Robbery or a Duel (:mod:`.fight`). Holsters are not items you use on your own turn with 4 or
more players (they are played out of turn), so a Holster card is then only a gun on your turn;
with 2-3 players a Holster is attached on your turn to a Safe or a character card (2-3 PLAYER
RULE ADJUSTMENTS, 3). After the turn the used cards are discarded and everyone who used a card
draws back up. With 2 players the Stranger's Safes and star are targets like a player's.
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

from engine.deadwood1876.actions import (
    AttachHolster,
    Discard,
    Duel,
    RideHorse,
    Robbery,
    UseDuster,
    UseStetson,
    ViewSafe,
)
from engine.deadwood1876.components import DUSTER, HOLSTER, HORSE, STETSON
from engine.deadwood1876.events import (
    CardPlayed,
    CardsDiscarded,
    DuelDeclared,
    HolsterAttached,
    RobberyDeclared,
    SafeViewed,
    StarMoved,
    TurnStarted,
)
from engine.deadwood1876.rules import badge_round, heist
from engine.deadwood1876.state import DeadwoodState, Fight


def start_turn(st: DeadwoodState) -> None:
    """Begin the turn of the player ``turn_in_circle`` seats clockwise from the first player."""
    st.current = (st.first + st.turn_in_circle) % st.n
    final = st.segment == st.table.middle_safes
    st.emit(TurnStarted(st.current, st.segment * st.table.circles_per_segment + st.circle + 1, final=final))
    st.wait_for((st.current,), "turn")


def end_turn(st: DeadwoodState) -> None:
    """Discard the used cards; everyone who used a card draws back up (clockwise from the player
    whose turn it was); then the next turn, a Heist after each circle, or the Badge Round."""
    st.discard.extend(st.table_cards)
    st.table_cards = []
    size = st.table.hand_size
    for k in range(st.n):
        seat = (st.current + k) % st.n
        if seat in st.used and len(st.hands[seat]) < size:
            st.draw(seat, size - len(st.hands[seat]))
    st.used = []
    st.fight = None
    if st.badge:
        badge_round.next_badge(st)
        return
    st.turn_in_circle += 1
    if st.turn_in_circle == st.n:
        st.turn_in_circle = 0
        st.circle += 1
        if st.circle == st.table.circles_per_segment:
            st.circle = 0
            if st.segment < st.table.middle_safes:
                heist.start_heist(st)
            else:
                badge_round.start_badge_round(st)
            return
    start_turn(st)


def stetson_targets(st: DeadwoodState, seat: int) -> list[ViewSafe]:
    """Safes ``seat`` may view: unrevealed Safes in other players' (and the Stranger's) rows not
    yet viewed with this Stetson.

    Heist Safes in the middle and Safes out of play can't be viewed; your own Safes you may view
    at any time anyway.
    """
    out = []
    for owner in range(st.m):
        if owner != seat:
            for i, safe in enumerate(st.rows[owner]):
                if safe not in st.revealed and safe not in st.viewed:
                    out.append(ViewSafe(owner, i))
    return out


def legal_turn(st: DeadwoodState, seat: int) -> list[Any]:
    """Every card of the hand (one per kind) as its item, where usable, then as a Robbery of
    each unrevealed Safe of every other figure and a Duel with every other figure."""
    card_item = st.comp.card_item
    vacancies = st.vacancies(st.est[seat])
    others = [p for p in range(st.m) if p != seat]
    owners: list[int] = []  # the Robbery targets: (owners[k], places[k])
    places: list[int] = []
    revealed = st.revealed
    for p in others:
        for i, s in enumerate(st.rows[p]):
            if s not in revealed:
                owners.append(p)
                places.append(i)
    attach = st.table.holster_mode in ("attach", "attach_safes")
    out: list[Any] = []
    # map() over the action classes builds the actions without a Python frame per action
    for c in st.distinct(st.hands[seat]):
        item = card_item[c]
        if item == HORSE:
            out.extend(map(RideHorse, repeat(c), vacancies))
        elif item == DUSTER:
            out.append(UseDuster(c))
        elif item == STETSON and owners:
            out.append(UseStetson(c))
        elif item == HOLSTER and attach:
            out.extend(attach_targets(st, c))
        out.extend(map(Robbery, repeat(c), owners, places))
        out.extend(map(Duel, repeat(c), others))
    return out


def attach_targets(st: DeadwoodState, card: int) -> list[AttachHolster]:
    """2-3 players: every unrevealed Safe without a Holster, in any row (your own, the other
    player's, the Stranger's), then every character card without one (one Holster on each;
    the prototype rules attach Holsters to Safes only)."""
    out = [
        AttachHolster(card, owner, i)
        for owner in range(st.m)
        for i, s in enumerate(st.rows[owner])
        if s not in st.revealed and s not in st.safe_holster
    ]
    if st.table.holster_mode == "attach":
        out.extend(AttachHolster(card, owner, -1) for owner in range(st.m) if owner not in st.figure_holster)
    return out


def apply_turn(st: DeadwoodState, seat: int, action: Any) -> None:
    """Play the card as chosen."""
    if isinstance(action, AttachHolster):
        st.hands[seat].remove(action.card)
        st.used.append(seat)
        if action.index < 0:
            st.figure_holster[action.owner] = action.card
        else:
            st.safe_holster[st.rows[action.owner][action.index]] = action.card
        st.emit(HolsterAttached(seat, action.owner, action.index, st.card(action.card)))
        end_turn(st)
        return
    st.take_card(seat, action.card)
    card = st.card(action.card)
    if isinstance(action, RideHorse):
        st.emit(CardPlayed(seat, card, "horse"))
        origin = st.est[seat]
        st.est[seat] = action.establishment
        st.emit(StarMoved(seat, origin, action.establishment, "horse"))
        end_turn(st)
    elif isinstance(action, UseDuster):
        st.emit(CardPlayed(seat, card, "duster"))
        st.draw(seat, st.comp.duster_draw)
        st.left = st.comp.duster_discard
        st.wait_for((seat,), "duster")
    elif isinstance(action, UseStetson):
        st.emit(CardPlayed(seat, card, "stetson"))
        st.left = st.table.stetson_views
        st.viewed = []
        st.wait_for((seat,), "stetson")
    elif isinstance(action, Robbery):
        st.emit(CardPlayed(seat, card, "robbery"))
        safe = st.rows[action.owner][action.index]
        answer = defending_seat(st, seat, action.owner)
        st.fight = Fight("robbery", seat, action.owner, answer, action.card, action.index, safe)
        st.emit(RobberyDeclared(seat, action.owner, action.index))
        st.wait_for((answer,), "defend")
    else:
        st.emit(CardPlayed(seat, card, "duel"))
        answer = defending_seat(st, seat, action.target)
        st.fight = Fight("duel", seat, action.target, answer, action.card)
        st.emit(DuelDeclared(seat, action.target))
        st.wait_for((answer,), "defend")


def defending_seat(st: DeadwoodState, attacker: int, figure: int) -> int:
    """Who plays the defending gun: the attacked player, or for the Stranger the attacker's
    opponent, from their own hand (THE STRANGER)."""
    if figure == st.stranger:
        return next(p for p in range(st.n) if p != attacker)
    return figure


def legal_duster(st: DeadwoodState, seat: int) -> list[Discard]:
    """Duster: any card of the larger hand (one per kind)."""
    return [Discard(c) for c in st.distinct(st.hands[seat])]


def apply_duster(st: DeadwoodState, seat: int, action: Discard) -> None:
    """Discard one card face down; after the third, the turn ends."""
    st.hands[seat].remove(action.card)
    st.discard.append(action.card)
    st.emit(CardsDiscarded(seat, 1), (seat,), CardsDiscarded(seat, 1, (st.card(action.card),)))
    st.left -= 1
    if st.left == 0:
        end_turn(st)
    else:
        st.wait_for((seat,), "duster")


def legal_stetson(st: DeadwoodState, seat: int) -> list[ViewSafe]:
    """Stetson: any Safe of :func:`stetson_targets`."""
    return stetson_targets(st, seat)


def apply_stetson(st: DeadwoodState, seat: int, action: ViewSafe) -> None:
    """Privately view one Safe; the turn ends after the last view (or when none is left to view)."""
    safe = st.rows[action.owner][action.index]
    st.known[seat].add(safe)
    st.viewed.append(safe)
    label = st.comp.safe_label(safe)
    public = SafeViewed(seat, action.owner, action.index)
    st.emit(public, (seat,), SafeViewed(seat, action.owner, action.index, label))
    st.left -= 1
    if st.left == 0 or not stetson_targets(st, seat):
        st.viewed = []
        st.left = 0
        end_turn(st)
    else:
        st.wait_for((seat,), "stetson")
