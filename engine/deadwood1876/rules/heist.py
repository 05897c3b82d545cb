"""The Heist after each time around the circle (rulebook: AFTER EACH TIME AROUND THE CIRCLE: HEIST)."""

from __future__ import annotations

from engine.deadwood1876.actions import HeistGun
from engine.deadwood1876.events import CardPlayed, DiceRolled, HeistStarted, HeistWon
from engine.deadwood1876.rules import fight, laws
from engine.deadwood1876.state import DeadwoodState


def start_heist(st: DeadwoodState) -> None:
    """Reveal the top middle Safe to everyone; everyone commits a gun at once."""
    st.heist_safe = st.middle.pop(0)
    st.emit(HeistStarted(st.segment + 1, st.comp.safe_label(st.heist_safe)))
    st.wait_for(range(st.n), "heist")


def legal_heist(st: DeadwoodState, seat: int) -> list[HeistGun]:
    """Any gun in hand (one per kind)."""
    return [HeistGun(c) for c in st.distinct(st.hands[seat])]


def apply_heist(st: DeadwoodState, seat: int, action: HeistGun) -> None:
    """Record a hidden gun; once all are down, roll; the tied highest reroll; the winner takes
    the Safe (Third Law applies) and shuffles it in; the guns are discarded."""
    if not st.collect(seat, action.card):
        return
    guns = dict(st.pending)
    st.pending = {}
    for s in range(st.n):
        st.hands[s].remove(guns[s])
        st.emit(CardPlayed(s, st.card(guns[s]), "heist"))
    contenders = list(range(st.n))
    while len(contenders) > 1:
        rolls = [fight.roll_dice(st, s, [st.comp.card_gun[guns[s]]]) for s in contenders]
        st.emit(DiceRolled("heist", tuple(rolls)))
        best = max(r[2] for r in rolls)
        contenders = [r[0] for r in rolls if r[2] == best]
    winner = contenders[0]
    st.discard.extend(guns[s] for s in range(st.n))
    safe = st.heist_safe
    st.heist_safe = -1
    st.emit(HeistWon(winner, st.comp.safe_label(safe)))
    for other in range(st.n):
        if other != winner:
            st.known[other].add(safe)
    laws.gain_safe(st, winner, safe, "heist_done")


def finish_heist(st: DeadwoodState) -> None:
    """Each player draws a replacement (clockwise from the first player); play continues
    around the circle in the same order."""
    size = st.table.hand_size
    for k in range(st.n):
        seat = (st.first + k) % st.n
        if len(st.hands[seat]) < size:
            st.draw(seat, size - len(st.hands[seat]))
    st.segment += 1
    st.game.steps["start_turn"](st)
