"""Setting Up and Setup for Different Group Sizes (rulebook), and the start of every day.

Set-up by player count (the Trailers panel): 2-3 players play 3 days, 4 or more play 4; 5 players
start with 2 credits each, 6 with 4; 7-8 start at rank 2 instead (and no credits); everyone else
at rank 1 with nothing. Those values are read from ``board.json`` (``player_count_setup``) into
the state when it is made (:class:`~engine.deadwood_studios.state.DeadwoodStudiosState`).

The game: the first player is drawn at random; the 40 scene cards are shuffled into the deck.
Each day: every die goes to the Trailers, a scene card is dealt face down to each of the ten sets
(from the top of the deck, in board order) and every set gets its shot counters.
"""

from __future__ import annotations

from engine.deadwood_studios.components import NUM_SETS, TRAILERS
from engine.deadwood_studios.events import DayStarted, ScenesDealt
from engine.deadwood_studios.rules import on_your_turn
from engine.deadwood_studios.state import COMP, DeadwoodStudiosState


def start_game(st: DeadwoodStudiosState) -> None:
    """Draw the first player, shuffle the deck and start the first day.

    Chance is drawn in this order: the first player (``below(n)``), then the deck's shuffle.
    """
    first = st.chance.below(st.n)
    deck = list(range(len(COMP.scenes)))
    st.chance.shuffle(deck)
    st.deck = deck
    start_day(st, first)


def start_day(st: DeadwoodStudiosState, first: int) -> None:
    """Begin the next day with ``first`` to play: everyone in the Trailers without a role, ten new
    scenes face down, all shot counters in place (Ending the Day: the steps to get ready)."""
    st.day += 1
    n = st.n
    st.room = [TRAILERS] * n
    st.role = [-1] * n
    st.on_card = [False] * n
    st.chips = [0] * n
    deck = st.deck
    for s in range(NUM_SETS):
        card = deck.pop()
        st.scene[s] = card
        st.face_up[s] = False
        st.shots_left[s] = COMP.shots[s]
        st.extra_by[s] = [-1] * len(COMP.extras[s])
        st.star_by[s] = [-1] * len(COMP.scenes[card].roles)
    st.emit(DayStarted(st.day, st.days, first))
    dealt = tuple(COMP.scenes[st.scene[s]] for s in range(NUM_SETS))
    st.emit(ScenesDealt(st.day, len(deck)), ScenesDealt(st.day, len(deck), dealt))
    on_your_turn.start_turn(st, first)
