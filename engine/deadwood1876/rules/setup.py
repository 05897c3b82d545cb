"""Set Up (rulebook: SET UP steps 1-5) and the first-player roll (HOW TO PLAY)."""

from __future__ import annotations

from engine.deadwood1876.actions import GiveToStranger, PassSafe
from engine.deadwood1876.components import MYSTERY
from engine.deadwood1876.events import (
    CardsDealt,
    DiceRolled,
    FirstPlayer,
    SafeGivenToStranger,
    SafePassed,
    SafesDealt,
    SafesShuffled,
    StarsPlaced,
    StrangerPlaced,
)
from engine.deadwood1876.rules import turn
from engine.deadwood1876.state import DeadwoodState

BLACK_DIE = (1, 2, 3, 4, 5, 6)
"""The black die's faces are unknown (see NOTES.md); any fair die gives the same odds for a
highest-roller-with-rerolls contest, so a standard d6 is used."""


def set_up(st: DeadwoodState) -> None:
    """Steps 1-4 of Set Up, then wait for everyone's Safe to pass (step 5).

    1. The establishments in play come from the player-count table.
    2. Stars are drawn from the bag at random and placed one at a time, beginning with the Gem
       Theatre and moving clockwise, skipping establishments that get no initial stars (the
       Grand Central Hotel at 4 players) and full ones. Seat ``i`` plays character ``i``.
    3. The Deadwood deck is shuffled; each player is dealt a full hand (seat order).
    4. The base Safes (no silver-bordered Mystery Safes, unless the ``mystery_safes`` option
       shuffles that many in, chosen at random) are shuffled; the middle stack is dealt first,
       then two Safes to each player; the rest go back to the box unseen.
    """
    comp, table, n = st.comp, st.table, st.n
    bag = list(range(n))
    st.chance.shuffle(bag)
    places = [e for e in table.establishments if e not in table.initial_stars_skip]
    i = 0
    for seat in bag:
        while st.est.count(places[i % len(places)]) >= table.capacity:
            i += 1
        st.est[seat] = places[i % len(places)]
        i += 1
    st.emit(StarsPlaced(tuple(st.est)))

    st.deck = list(range(len(comp.card_gun)))
    st.chance.shuffle(st.deck)
    for seat in range(n):
        hand = [st.deck.pop() for _ in range(table.hand_size)]
        st.hands[seat] = hand
        st.emit(CardsDealt(seat, len(hand)), (seat,), CardsDealt(seat, len(hand), tuple(map(st.card, hand))))

    safes = [s for s in range(len(comp.safe_kind)) if comp.safe_kind[s] != MYSTERY]
    if st.options.mystery_safes:
        mysteries = [s for s in range(len(comp.safe_kind)) if comp.safe_kind[s] == MYSTERY]
        st.chance.shuffle(mysteries)
        safes += mysteries[: st.options.mystery_safes]
    st.chance.shuffle(safes)
    st.middle = safes[: table.middle_safes]
    del safes[: table.middle_safes]
    for seat in range(n):
        row = safes[: comp.safes_dealt]
        del safes[: comp.safes_dealt]
        st.rows[seat] = row
        labels = tuple(map(comp.safe_label, row))
        st.emit(SafesDealt(seat, len(row)), (seat,), SafesDealt(seat, len(row), labels))
    st.box = safes
    st.wait_for(range(n), "pass_safe")


def legal_pass_safe(st: DeadwoodState, seat: int) -> list[PassSafe]:
    """Step 5: either of your two Safes."""
    return [PassSafe(i) for i in range(len(st.rows[seat]))]


def apply_pass_safe(st: DeadwoodState, seat: int, action: PassSafe) -> None:
    """Record a hidden choice; once everyone has chosen, pass left, then all shuffle (step 5)."""
    if not st.collect(seat, action.index):
        return
    n = st.n
    passed = [st.rows[seat].pop(st.pending[seat]) for seat in range(n)]
    st.pending = {}
    for giver in range(n):
        receiver = (giver + 1) % n
        st.rows[receiver].append(passed[giver])
        label = st.comp.safe_label(passed[giver])
        st.emit(SafePassed(giver, receiver), (giver, receiver), SafePassed(giver, receiver, label))
    for seat in range(n):
        st.chance.shuffle(st.rows[seat])
        st.emit(SafesShuffled(seat))
    if st.stranger >= 0 and st.options.prototype_rules:
        prototype_stranger(st)
        return
    if st.stranger >= 0:
        place_stranger(st)
    roll_for_first_player(st)


def black_die_contest(st: DeadwoodState, purpose: str) -> int:
    """Every player rolls the black die; the tied highest reroll; returns the highest roller."""
    contenders = list(range(st.n))
    while len(contenders) > 1:
        rolls = [(seat, st.chance.roll(BLACK_DIE)) for seat in contenders]
        st.emit(DiceRolled(purpose, tuple((s, (("black", v),), v) for s, v in rolls)))
        best = max(v for _, v in rolls)
        contenders = [s for s, v in rolls if v == best]
    return contenders[0]


def place_stranger(st: DeadwoodState) -> None:
    """2 players (rulebook: THE STRANGER): before play, the highest black-die roller puts the
    Stranger's star into their own establishment; the Stranger gets two face-down Safes from the
    box, which nobody has seen. The Stranger plays the character after the players'."""
    host = black_die_contest(st, "stranger")
    stranger = st.stranger
    st.est[stranger] = st.est[host]
    st.rows[stranger] = st.box[: st.comp.stranger_safes]
    del st.box[: st.comp.stranger_safes]
    st.emit(StrangerPlaced(host, stranger, st.est[host], len(st.rows[stranger])))


def prototype_stranger(st: DeadwoodState) -> None:
    """Prototype rules, 2 players: the Stranger's star goes into the empty establishment; each
    player draws a third Safe and gives one of their three to the Stranger (at once)."""
    stranger = st.stranger
    st.est[stranger] = next(e for e in st.table.establishments if e not in st.est)
    for seat in range(st.n):
        safe = st.box.pop(0)
        st.rows[seat].append(safe)
        label = st.comp.safe_label(safe)
        st.emit(SafesDealt(seat, 1), (seat,), SafesDealt(seat, 1, (label,)))
    st.emit(StrangerPlaced(-1, stranger, st.est[stranger], 0))
    st.wait_for(range(st.n), "give_to_stranger")


def legal_give_to_stranger(st: DeadwoodState, seat: int) -> list[GiveToStranger]:
    """Prototype rules, 2 players: any of your three Safes."""
    return [GiveToStranger(i) for i in range(len(st.rows[seat]))]


def apply_give_to_stranger(st: DeadwoodState, seat: int, action: GiveToStranger) -> None:
    """Record a hidden choice; once both have chosen, the Stranger gets both and shuffles them."""
    if not st.collect(seat, action.index):
        return
    for giver in range(st.n):
        safe = st.rows[giver].pop(st.pending[giver])
        st.rows[st.stranger].append(safe)
        label = st.comp.safe_label(safe)
        st.emit(SafeGivenToStranger(giver), (giver,), SafeGivenToStranger(giver, label))
    st.pending = {}
    st.chance.shuffle(st.rows[st.stranger])
    st.emit(SafesShuffled(st.stranger))
    roll_for_first_player(st)


def roll_for_first_player(st: DeadwoodState) -> None:
    """Everyone rolls the black die; the highest roller goes first; the tied highest reroll."""
    st.first = black_die_contest(st, "first_player")
    st.emit(FirstPlayer(st.first))
    turn.start_turn(st)
