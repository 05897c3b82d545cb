"""Game End Triggers and Final Scoring (summary: Scoring / Victory Conditions; NOTES.md rules 1-3).

The game ends at the end of the turn in which the Train Station was built, the Crime Pool ran
out of wanted posters, or a player has no living cowboy (in the Ranch, in town or in the
Abandoned Mine; unhired cowboys do not count). A condition that occurs ends the game even if it
no longer holds when the turn ends (NOTES.md rule 1, "When any end condition occurs, the current
player finishes the turn, then the game ends"): a Crime Pool emptied and then refilled by a
Telegraph Office in the same turn ends it (``DeadwoodTownState.pool_emptied``; the
other two conditions cannot be undone within a turn). Once a condition has occurred, later
shootouts in that turn take no poster (rule 1). Scoring: the Stage Depot's controller gets $10
if the game did not end with the Train Station; each player pays $1 per wanted poster (the
score may go negative); most money wins, then fewer posters, then fewer cowboys on Boot Hill;
remaining ties share the rank. Outcome scores are the final money.
"""

from __future__ import annotations

from engine.core import GameCapped, Outcome, rank_by_scores
from engine.deadwood_town.events import FinalScore, GameEnding, GameOver, MoneyGained
from engine.deadwood_town.state import DeadwoodTownState

ROUND_LIMIT = 200
"""A game also ends at the end of the 200th round (every player's 200th turn, passed turns
included), scored as usual (``GameEnding`` reason ``"round_limit"``). The summary has no such
rule: its three triggers end almost every game, but not always soon, and bots that avoid every
trigger could play forever, while a tournament, the ladder or a search's rollout must end.
Players would call such a game a stalemate and count the money; so does the engine.

Measured (rules ``deadwood_town/2``, game seeds 0..N-1): uniformly random legal moves, 2 players,
20,000 games: median 53 rounds, 99th percentile 127, 99.9th 168; 306 games went past 120 rounds,
50 past 150, and 4 reached this limit. 3 players (4,000 games): median 30, 99th percentile 73,
longest 100; 4 players: median 18, 99th 50, longest 72; 5 players: median 13, 99th 37, longest
55. The heuristic bot against itself, 2 players, 2,000 games: median 19, 99th percentile 84,
longest 152. Only 2-player games come near the limit."""

FINE_PER_POSTER = 1
"""Summary, Final Scoring: "Each player pays a fine of $1 per wanted poster they hold"."""


def triggers(st: DeadwoodTownState) -> tuple[str, ...]:
    """The end conditions that occurred in this turn, in the summary's order (empty: play on):
    those that hold now, and the Crime Pool if it ran out earlier in the turn."""
    reasons = []
    if st.station_plot >= 0:
        reasons.append("train_station")
    if st.crime_pool <= 0 or st.pool_emptied:
        reasons.append("crime_pool_empty")
    ranch, mine = st.ranch, st.mine
    for p in range(st.n):
        r, m = ranch[p], mine[p]
        if not (r[1] or r[2] or r[3] or m[1] or m[2] or m[3]) and not st.has_living(p):
            reasons.append("no_living_cowboys")
            break
    return tuple(reasons)


def finish(st: DeadwoodTownState, seat: int, reasons: tuple[str, ...]) -> None:
    """Score the game (Final Scoring) and end it."""
    st.emit(GameEnding(seat, reasons))
    bonus = [0] * st.n
    if st.station_plot < 0 and st.comp.stage_depot_bonus:
        depot = st.controller("stage_depot")
        if depot >= 0:
            bonus[depot] = st.comp.stage_depot_bonus
            st.emit(MoneyGained(depot, bonus[depot], "stage_depot"))
    scores = []
    for p in range(st.n):
        before = st.money[p]
        fine = FINE_PER_POSTER * st.posters[p]
        st.money[p] = before + bonus[p] - fine
        hill = sum(st.boot_hill[p])
        st.emit(FinalScore(p, before, bonus[p], fine, st.money[p], st.posters[p], hill))
        scores.append(st.money[p])
    keys = [(st.money[p], -st.posters[p], -sum(st.boot_hill[p])) for p in range(st.n)]
    ranks = rank_by_scores(keys)
    winners = tuple(p for p in range(st.n) if ranks[p] == 1)
    st.result = Outcome(tuple(float(s) for s in scores), ranks, winners)
    st.emit(GameOver(tuple(scores), ranks, winners))
    st.phase = "over"
    st.waiting = ()
    st.pending = ()
    st.queue.clear()
    st._legal = {}


def end_at_cap(st: DeadwoodTownState) -> None:
    """The game reached its decision cap (``DeadwoodTown.max_decisions``): a public
    :class:`engine.GameCapped`, then the game ends where it stands, in the current player's turn,
    scored by the game's own Final Scoring (:func:`finish`, ``GameEnding`` reason
    ``"decision_cap"``), as at the round limit."""
    st.emit(GameCapped(st.decisions))
    finish(st, max(st.current, 0), ("decision_cap",))
