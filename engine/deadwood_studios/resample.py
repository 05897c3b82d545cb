"""Determinization for Information Set MCTS: redraw everything nobody can see.

In Deadwood Studios nothing is known to one player only: what is hidden is hidden from everyone.
That is the scene cards still face down on the board, the undealt deck (its order, and with 2-3
players which ten cards are never dealt), and the last scenes of earlier days that left the
board face down. Everything else is public, and nobody has learned anything about the hidden
cards but that they are not among the cards seen face up. :func:`resample` therefore deals the
unseen cards again at random, the same number to each place (each face-down set, the deck, the
removed-unseen pile), and reseeds future chance (dice). The seat's view, ``to_act`` and its legal
actions never depend on a hidden card (a player only ever stands on a set whose card is face up
or gone), so they are unchanged.
"""

from __future__ import annotations

from engine.core import Chance
from engine.deadwood_studios.components import NUM_SETS
from engine.deadwood_studios.state import DeadwoodStudiosState


def unseen_cards(st: DeadwoodStudiosState) -> list[int]:
    """The scene cards nobody has seen face up, ascending: face down on the board, in the deck,
    or removed face down at the end of a day."""
    face_down = [st.scene[s] for s in range(NUM_SETS) if st.scene[s] >= 0 and not st.face_up[s]]
    return sorted(face_down + st.deck + st.removed_unseen)


def resample(st: DeadwoodStudiosState, seat: int, seed: int) -> DeadwoodStudiosState:
    """A copy of ``st`` with the unseen scene cards dealt again from ``seed`` (see the module
    docstring); ``seat`` changes nothing, since nobody knows more than the others. The copy's
    log keeps only the public version of every event."""
    chance = Chance(seed)
    other = st._copy()
    pool = unseen_cards(st)
    chance.shuffle(pool)
    for s in range(NUM_SETS):
        if st.scene[s] >= 0 and not st.face_up[s]:
            other.scene[s] = pool.pop()
            other.star_by[s] = [-1] * len(st.game.components.scenes[other.scene[s]].roles)
    other.deck = pool[: len(st.deck)]
    other.removed_unseen = pool[len(st.deck) :]
    other.chance = chance  # the dice go on from the same seeded generator
    log = other.log
    for i in st.private:
        log[i] = (log[i][0], (), None)
    other.private = []
    return other
