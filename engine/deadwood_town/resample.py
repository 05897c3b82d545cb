"""Determinization for Information Set MCTS: redraw what one seat cannot see.

In Deadwood the only hidden things are the order of the three building stacks and the future
dice. What a seat knows of a stack: the contents (public), and the place of every tile it knows
(``known[seat]``: tiles put under the stack in front of everyone since the last Fortune Teller
look at it, and every tile of a stack the seat itself looked at, until someone else looks). A
resample keeps those tiles where they are and deals the stack's other tiles at random into the
other places; a Fortune Teller's rearrangement in progress by another player is redrawn too
(which tiles it has put back so far). Future chance gets a new seed.
"""

from __future__ import annotations

import random

from engine.core import Chance
from engine.deadwood_town.components import STACKS
from engine.deadwood_town.state import DeadwoodTownState


def resample(st: DeadwoodTownState, seat: int, seed: int) -> DeadwoodTownState:
    """A copy of ``st`` with the stack order redrawn for ``seat`` (see the module docstring).

    The copy's event log keeps ``seat``'s own private events; every other private event is
    replaced by its public version (so no event describes the true order).
    """
    rng = random.Random(seed)
    other = st._copy()
    known = st.known[seat]
    for s in STACKS:
        tiles = st.stacks[s]
        places = [i for i, t in enumerate(tiles) if t not in known]
        hidden = [tiles[i] for i in places]
        rng.shuffle(hidden)
        new = list(tiles)
        for i, t in zip(places, hidden, strict=True):
            new[i] = t
        other.stacks[s] = new
    if st.phase == "arrange" and st.waiting and st.waiting[0] != seat:
        stack, placed = st.pending
        other.pending = (stack, tuple(rng.sample(other.stacks[stack], len(placed))))
    other.chance = Chance(rng.getrandbits(64))
    other.log = [entry if seat in entry[1] else (entry[0], (), None) for entry in st.log]
    return other
