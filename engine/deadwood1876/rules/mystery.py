"""Mystery Safes (rulebook: OPTIONAL ADVANCED RULES: MYSTERY SAFES), with ``mystery_safes`` > 0.

Starred Mystery Safes (Dagger, Explosives, Poker Deck) are revealed and resolved right after the
final turn of the Badge Round, before the other Safes, in alphabetical order; the Stranger's are
not revealed and do nothing. Bad Sarsaparilla and Cash act in the Final Showdown
(:mod:`.showdown`). Decisions where the rulebook is silent are in the game docstring.
"""

from __future__ import annotations

from engine.deadwood1876.actions import ChooseDagger, Explode, PokerGun
from engine.deadwood1876.events import (
    CardPlayed,
    DaggerChosen,
    DiceRolled,
    MysteryRevealed,
    PokerDeckPlayed,
    SafeExploded,
)
from engine.deadwood1876.state import DeadwoodState

STARRED = ("mystery_dagger", "mystery_explosives", "mystery_poker_deck")
"""Alphabetical: Dagger, Explosives, Poker Deck."""

RED_DIE_GUN = 2
"""The red die is the Colt die (faces 0-3; see NOTES.md): 0-1 subtracts, 2-3 adds."""


def safe_by_id(st: DeadwoodState, safe_id: str) -> int:
    """The Safe id (int) of the Safe named ``safe_id`` in the data file."""
    return st.comp.safe_ids.index(safe_id)


def owner_of(st: DeadwoodState, safe: int) -> int:
    """The figure whose row holds ``safe``, or -1."""
    return next((f for f in range(st.m) if safe in st.rows[f]), -1)


def owns(st: DeadwoodState, figure: int, safe_id: str) -> bool:
    """True if ``figure``'s row holds the Mystery Safe ``safe_id`` (and it has not been blown up)."""
    return safe_by_id(st, safe_id) in st.rows[figure]


def start_mysteries(st: DeadwoodState) -> None:
    """After the Badge Round: queue the players' starred Mystery Safes in alphabetical order."""
    st.mystery_queue = [safe_by_id(st, s) for s in STARRED]
    next_mystery(st)


def next_mystery(st: DeadwoodState) -> None:
    """Reveal and resolve the next starred Safe a player owns; then the Final Showdown."""
    while st.mystery_queue:
        safe = st.mystery_queue.pop(0)
        owner = owner_of(st, safe)
        if owner < 0 or owner == st.stranger:
            continue
        st.revealed.add(safe)
        st.emit(MysteryRevealed(owner, st.rows[owner].index(safe), st.comp.safe_label(safe)))
        st.current = owner
        kind = st.comp.safe_ids[safe]
        if kind == "mystery_dagger":
            st.wait_for((owner,), "dagger")
            return
        if kind == "mystery_explosives" and explode_targets(st, owner):
            st.wait_for((owner,), "explosives")
            return
        if kind == "mystery_poker_deck" and st.hands[owner]:
            st.wait_for((owner,), "poker_deck")
            return
    st.current = -1
    st.game.steps["start_showdown"](st)


def legal_dagger(st: DeadwoodState, seat: int) -> list[ChooseDagger]:
    """-1 gold and a Pepperbox Showdown Gun, or +1 gold and a negative Pepperbox."""
    return [ChooseDagger(False), ChooseDagger(True)]


def apply_dagger(st: DeadwoodState, seat: int, action: ChooseDagger) -> None:
    """Record the Dagger's side (it counts in :func:`.showdown.gold_of` and the Showdown rolls)."""
    st.dagger[seat] = action.plus_gold
    st.emit(DaggerChosen(seat, action.plus_gold))
    next_mystery(st)


def explode_targets(st: DeadwoodState, seat: int) -> list[Explode]:
    """Any unrevealed Safe of another player (or of the Stranger)."""
    return [
        Explode(owner, i)
        for owner in range(st.m)
        if owner != seat
        for i, s in enumerate(st.rows[owner])
        if s not in st.revealed
    ]


def legal_explosives(st: DeadwoodState, seat: int) -> list[Explode]:
    """See :func:`explode_targets`."""
    return explode_targets(st, seat)


def apply_explosives(st: DeadwoodState, seat: int, action: Explode) -> None:
    """Remove the Safe from the game, shown to all. A Holster attached to it (2-3 players) is a
    Deadwood card, not part of the Safe: it goes to the discard pile face up, as an attached
    Holster does once used (a decision, see the game docstring)."""
    safe = st.rows[action.owner].pop(action.index)
    st.box.append(safe)
    holster = st.safe_holster.pop(safe, None)
    if holster is not None:
        st.discard.append(holster)
    face = st.card(holster) if holster is not None else None
    st.emit(SafeExploded(seat, action.owner, action.index, st.comp.safe_label(safe), face))
    next_mystery(st)


def legal_poker_deck(st: DeadwoodState, seat: int) -> list[PokerGun]:
    """Any gun in hand (one per kind)."""
    return [PokerGun(c) for c in st.distinct(st.hands[seat])]


def apply_poker_deck(st: DeadwoodState, seat: int, action: PokerGun) -> None:
    """Roll the gun's die, then the red die: 0-1 subtracts the first result from the owner's
    gold, 2-3 adds it. The played card is discarded and replaced from the deck."""
    comp = st.comp
    st.hands[seat].remove(action.card)
    st.discard.append(action.card)
    st.emit(CardPlayed(seat, st.card(action.card), "poker_deck"))
    gun = comp.card_gun[action.card]
    value = st.chance.roll(comp.gun_faces[gun])
    red = st.chance.roll(comp.gun_faces[RED_DIE_GUN])
    st.emit(DiceRolled("poker_deck", ((seat, ((comp.gun_names[gun], value), ("red", red)), value),)))
    change = value if red >= 2 else -value
    st.gold_bonus[seat] += change
    st.emit(PokerDeckPlayed(seat, value, red, change))
    st.draw(seat, 1)
    next_mystery(st)
