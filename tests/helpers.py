"""Test-only helpers: scripted chance and exact Deadwood 1876 positions.

Scenario tests fix the dice by replacing a state's :class:`engine.Chance` with
:class:`ScriptedChance`, never by searching for a lucky seed, and build exact positions by
setting the state's components directly (:func:`put_turn`, :func:`card`, :func:`safe`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import engine
from engine.deadwood1876.components import DUSTER, HORSE, MYSTERY, STETSON, components
from engine.deadwood1876.state import DeadwoodState

COMP = components()
GUNS = {name.lower(): i for i, name in enumerate(COMP.gun_names)}


class ScriptedChance:
    """A chance source that rolls the scripted faces in order and never reorders on shuffle.

    Args:
        rolls: the faces to show, in the order the engine rolls dice. Each must be a face of the
            die being rolled (checked). ``below(n)`` also takes from ``rolls``.

    Raises:
        AssertionError: the script ran out or a face is not on the die rolled.
    """

    def __init__(self, rolls: Iterable[int] = ()) -> None:
        self.rolls = list(rolls)
        self.used = 0

    def roll(self, faces: Sequence[int]) -> int:
        assert self.rolls, "scripted dice ran out"
        value = self.rolls.pop(0)
        assert value in faces, f"scripted face {value} is not on the die {tuple(faces)}"
        self.used += 1
        return value

    def below(self, n: int) -> int:
        assert self.rolls, "scripted chance ran out"
        value = self.rolls.pop(0)
        assert 0 <= value < n
        return value

    def shuffle(self, items: list[Any]) -> None:
        """Leave ``items`` in order (so tests know every position)."""

    def clone(self) -> ScriptedChance:
        other = ScriptedChance(self.rolls)
        other.used = self.used
        return other

    def fingerprint(self) -> bytes:
        return repr(self.rolls).encode()


def card(gun: str, item: str, *, white: bool | None = None, exclude: Iterable[int] = ()) -> int:
    """The lowest Deadwood card id with that gun and item, not in ``exclude``.

    ``white``: ``True``/``False`` to ask for a white or an other-coloured Horse; ``None``: any.
    """
    g = GUNS[gun.lower()]
    skip = set(exclude)
    for c in range(len(COMP.card_gun)):
        if (
            c not in skip
            and COMP.card_gun[c] == g
            and COMP.card_item[c] == item
            and white in (None, COMP.card_white[c])
        ):
            return c
    raise LookupError(f"no more {gun}/{item} cards")


def cards(*specs: tuple[str, str]) -> list[int]:
    """Distinct card ids for ``(gun, item)`` pairs, e.g. ``cards(("colt", "stetson"), ("colt", "stetson"))``."""
    out: list[int] = []
    for gun, item in specs:
        out.append(card(gun, item, exclude=out))
    return out


def safe(label: str) -> int:
    """The Safe id whose label is ``label`` (e.g. ``"Gold 3"``, ``"Tin Badge"``, ``"Colt Showdown Gun"``).

    With several Safes of that label, the first not yet used in the state is not tracked: pass
    ``"Gold 3#2"`` for the second one.
    """
    name, _, nth = label.partition("#")
    matches = [s for s in range(len(COMP.safe_kind)) if COMP.safe_label(s) == name]
    if not matches:
        raise LookupError(f"no Safe labelled {name!r}")
    return matches[int(nth) - 1 if nth else 0]


def new_state(players: int = 5, seed: int = 1, options: Any = None) -> DeadwoodState:
    """A freshly set-up Deadwood 1876 game (waiting for the Safe pass)."""
    st = engine.game("deadwood1876").new_game(players, seed, options)
    assert isinstance(st, DeadwoodState)
    return st


def put_turn(
    st: DeadwoodState,
    seat: int,
    *,
    hands: dict[int, list[int]] | None = None,
    rows: dict[int, list[int]] | None = None,
    est: Sequence[int] | None = None,
    rolls: Iterable[int] = (),
    segment: int = 0,
    deck: list[int] | None = None,
    first: int = 0,
) -> DeadwoodState:
    """Put ``st`` at the start of ``seat``'s turn with exact components and scripted dice.

    Cards given in ``hands`` are removed from the deck and discard pile (other hands keep theirs
    unless given). ``rows`` replaces rows of Safes; ``est`` the establishment of every seat;
    ``segment`` the number of Heists already played; ``deck`` the draw pile (drawn from the end).
    """
    hands = hands or {}
    given = {c for h in hands.values() for c in h}
    for s in range(st.n):
        if s in hands:
            st.hands[s] = list(hands[s])
        else:
            st.hands[s] = [c for c in st.hands[s] if c not in given]
    everywhere = {c for h in st.hands for c in h}
    st.deck = [c for c in (deck if deck is not None else st.deck) if c not in everywhere]
    if deck is None:
        st.deck += [c for c in range(len(COMP.card_gun)) if c not in everywhere and c not in st.deck]
    st.discard = []
    if rows:
        placed = {s for r in rows.values() for s in r}
        for s in range(st.n):
            st.rows[s] = list(rows[s]) if s in rows else [x for x in st.rows[s] if x not in placed]
        st.middle = [x for x in st.middle if x not in placed]
    if est is not None:
        st.est = list(est)
    st.pending = {}
    st.first = first
    st.segment = segment
    st.circle = 0
    st.turn_in_circle = (seat - first) % st.n
    st.current = seat
    st.chance = ScriptedChance(rolls)  # type: ignore[assignment]
    st.wait_for((seat,), "turn")
    return st


def act(st: Any, seat: int, action: Any) -> None:
    """Assert ``action`` is legal for ``seat``, then apply it (python-chess's scenario style)."""
    legal = st.legal_actions(seat)
    assert action in legal, f"{action!r} not legal for seat {seat}; legal: {legal}"
    st.apply(seat, action)


def play_out(st: Any, seed: int = 0, limit: int = 20_000) -> int:
    """Finish the game with uniformly random legal actions; returns the number of decisions."""
    import random

    rng = random.Random(seed)
    count = 0
    while not st.is_over:
        for seat in st.to_act:
            legal = st.legal_actions(seat)
            st.apply(seat, legal[rng.randrange(len(legal))])
            count += 1
            break
        assert count < limit, "game did not end"
    return count


BASE_SAFES = [s for s in range(len(COMP.safe_kind)) if COMP.safe_kind[s] != MYSTERY]
FILLER = [c for c in range(len(COMP.card_gun)) if COMP.card_item[c] in (DUSTER, STETSON)] + [
    c for c in range(len(COMP.card_gun)) if COMP.card_item[c] == HORSE
]
"""Cards for hands a test does not care about: never a Holster, Horses last."""


class ReversingChance(ScriptedChance):
    """Scripted dice, but every shuffle reverses the list (so a test can see what moved)."""

    def shuffle(self, items: list[Any]) -> None:
        items.reverse()

    def clone(self) -> ReversingChance:
        other = ReversingChance(self.rolls)
        other.used = self.used
        return other


def position(
    players: int,
    seat: int,
    *,
    hands: dict[int, list[int]] | None = None,
    rows: dict[int, list[str]] | None = None,
    est: list[int],
    rolls: tuple[int, ...] = (),
    segment: int = 0,
    circle: int = 0,
    first: int = 0,
    options: dict[str, Any] | None = None,
    chance: type[ScriptedChance] = ScriptedChance,
) -> DeadwoodState:
    """The start of ``seat``'s turn with exact hands, rows (by label, the Stranger's included), stars
    and dice. Seats without a hand get Dusters and Stetsons; the deck holds every other card in id
    order (the last is drawn first); nobody knows any Safe but their own; nothing is attached."""
    st = new_state(players, 7, options)
    size = st.table.hand_size
    hands = {s: list(h) for s, h in (hands or {}).items()}
    spare = [c for c in FILLER if c not in {c for h in hands.values() for c in h}]
    for s in range(players):
        if s not in hands:
            hands[s] = [spare.pop(0) for _ in range(size)]
    held = {c for h in hands.values() for c in h}
    deck = [c for c in range(len(COMP.card_gun)) if c not in held]
    rows = rows or {}
    put_turn(
        st,
        seat,
        hands=hands,
        rows={s: [safe(label) for label in rows.get(s, [])] for s in range(players)},
        est=est,
        segment=segment,
        deck=deck,
        first=first,
    )
    if st.stranger >= 0:
        st.rows[st.stranger] = [safe(label) for label in rows.get(st.stranger, [])]
    st.circle = circle
    placed = {s for row in st.rows for s in row}
    assert len(placed) == sum(map(len, st.rows)), "a Safe placed twice"
    pool = [s for s in BASE_SAFES if s not in placed]
    st.middle = pool[: st.table.middle_safes]
    st.box = pool[st.table.middle_safes :]
    st.known = [set() for _ in range(players)]
    st.revealed = set()
    st.safe_holster = {}
    st.figure_holster = {}
    st.chance = chance(rolls)  # type: ignore[assignment]
    st.log.clear()
    return st
