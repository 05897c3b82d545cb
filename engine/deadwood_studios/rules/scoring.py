"""Scoring (rulebook): one point per dollar, one per credit, five per rank.

The rulebook names no tie-breaker: players with equal points share their place (and all those in
first place win). The outcome's scores are the points.
"""

from __future__ import annotations

from engine.core import GameCapped, Outcome, rank_by_scores
from engine.deadwood_studios.events import FinalScore, GameEnded
from engine.deadwood_studios.state import DeadwoodStudiosState

POINTS_PER_RANK = 5


def points(dollars: int, credits: int, rank: int) -> int:
    """A player's score.

    >>> points(35, 10, 6)  # the rulebook's example
    75
    """
    return dollars + credits + POINTS_PER_RANK * rank


def finish(st: DeadwoodStudiosState) -> None:
    """End the game: score every seat, set the outcome, nobody to act."""
    totals = [points(st.dollars[p], st.credits[p], st.rank[p]) for p in range(st.n)]
    places = rank_by_scores(totals)
    winners = tuple(p for p in range(st.n) if places[p] == 1)
    st.result = Outcome(tuple(float(t) for t in totals), places, winners)
    st.phase = "over"
    st.waiting = ()
    st.current = -1
    st._legal = None
    scores = tuple(FinalScore(p, st.dollars[p], st.credits[p], st.rank[p], totals[p], places[p]) for p in range(st.n))
    st.emit(GameEnded(scores, winners))


def end_at_cap(st: DeadwoodStudiosState) -> None:
    """The game reached its decision cap (``DeadwoodStudios.max_decisions``): a public
    :class:`engine.GameCapped`, then the game is scored as it stands by the game's own final
    scoring (:func:`finish`: dollars + credits + 5 x rank), the days not played and the scenes on
    the board left as they are."""
    st.emit(GameCapped(st.decisions))
    finish(st)
