"""Game End Triggers and Final Scoring (summary: Scoring / Victory Conditions; NOTES.md rules 1-3).

The game ends at the end of the turn in which the Train Station was built, the Crime Pool ran
out of wanted posters, or a player has no living cowboy (in the Ranch, in town or in the
Abandoned Mine; unhired cowboys do not count). Scoring: the Stage Depot's controller gets $10
if the game did not end with the Train Station; each player pays $1 per wanted poster (the
score may go negative); most money wins, then fewer posters, then fewer cowboys on Boot Hill;
remaining ties share the rank. Outcome scores are the final money.
"""

from __future__ import annotations

from engine.core import Outcome, rank_by_scores
from engine.deadwood_town.events import FinalScore, GameEnding, GameOver, MoneyGained
from engine.deadwood_town.state import DeadwoodTownState

ROUND_LIMIT = 200
"""A game also ends at the end of the 200th round (every player's 200th turn, passed turns
included), scored as usual (``GameEnding`` reason ``"round_limit"``). The summary has no such
rule: the three triggers end every game people play (random play: at most about 120 rounds at 2
players; heuristic bots: under 90), but bots that avoid every trigger could play forever, and a
tournament, the ladder or a search's rollout must end. Players would call such a game a
stalemate and count the money; so does the engine."""

FINE_PER_POSTER = 1
"""Summary, Final Scoring: "Each player pays a fine of $1 per wanted poster they hold"."""


def triggers(st: DeadwoodTownState) -> tuple[str, ...]:
    """The end conditions that hold now, in the summary's order (empty: play on)."""
    reasons = []
    if st.station_plot >= 0:
        reasons.append("train_station")
    if st.crime_pool <= 0:
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
