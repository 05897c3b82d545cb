"""A hand-written Deadwood Studios strategy that reads only the seat's view.

The bot plays like a bit actor with a pocket calculator. Everything is priced in points (a dollar
or a credit is a point, a rank is five) and every plan is weighed by what it earns against the
turns it takes, each turn costing :data:`TURN_COST` points (what a turn earns on an ordinary
role): a plan is worth ``gains - TURN_COST x turns``.

* **Roles.** A role is valued to its wrap (:func:`role_plan`): the shots left, the success chance
  on the budget with the practice chips, the players already working on the set (their shots
  bring the wrap closer, and take some of the successes), the pay per act (on the card: 2 credits
  on a success; an extra: $1 and 1 credit, or $1) and the wrap bonus (on the card: the expected
  bonus dice of that role, the top role getting the highest die; an extra: its rank, if someone
  is on the card). So it takes the highest-rank role it can on the best-paying scene, and prefers
  scenes with few shots left where people are on the card. A role that would outlast the day
  (:func:`rounds_left`) loses its wrap bonus and the acts after the day's end.
* **Moving.** Every set it can reach is a target: face-up scenes by their free roles, face-down
  ones by the average over the scene cards nobody has seen; each step on the way costs a turn.
  It moves towards the best target (taking the role at once when it is here).
* **Rehearsing.** On a role, it rehearses while more practice chips make the role worth more
  (:func:`role_plan`: fewer turns to the wrap, each costing :data:`TURN_COST`, against the pay of
  the acts they replace), up to guaranteed success: on big budgets with several shots left. It
  acts otherwise, and always once the day may end any turn (:data:`LATE_SCENES`).
* **Upgrading.** A rank is worth its 5 points plus :data:`RANK_WORTH` points per rank per day
  still to play (better roles, bigger bonus dice). An upgrade pays when that beats its price;
  the bot heads to the Casting Office when the best upgrade it can afford is worth the walk, and
  pays in the currency that costs it less (credits are cheaper from rank 4 up). On the last day,
  at the end, only upgrades that are worth more than their price in points (rank 2 for $4).

All choices are deterministic given the seed (the bot's random source only breaks exact ties).

Measured against random bots with ``saloon simulate deadwood_studios --players N --bots
heuristic,random,... --games 1000 --seed 1`` (one heuristic, in seat 0; ``simulate`` does not
rotate seats, but the engine draws the first player at random each game; a shared first place
counts as a win, as ``simulate`` counts it; 95% Wilson intervals):

======= ============ ========== ================ =============
players heuristic    95%        mean: heuristic  mean: random
======= ============ ========== ================ =============
2       1000 of 1000 99.6-100%  178.6            60.1
4       1000 of 1000 99.6-100%  166.4            52.3
6       1000 of 1000 99.6-100%  136.9            44.6
======= ============ ========== ================ =============

With the heuristic in seat 1 at 2 players (``--bots random,heuristic``): 1000 of 1000 again
(mean 177.9 against 60.3). The weights (:data:`TURN_COST`, :data:`RANK_WORTH`) were chosen in games
of one variant against copies of the bot (200 games at 4 players): a turn cost of 2 and a rank
worth of 2.5 won 18% there against these weights, at a fair share of 25%.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from typing import Any

from bots.estimates import chance
from bots.heuristic import beat_all_chance
from engine.deadwood_studios import actions as A
from engine.deadwood_studios.components import CASTING_OFFICE, CREDITS, DOLLARS, NUM_SETS
from engine.deadwood_studios.components import components as _components

__all__ = ["DeadwoodStudiosStrategy", "bonus_share", "role_plan", "rounds_left"]

COMP = _components()
ROOM = {room_id: r for r, room_id in enumerate(COMP.room_ids)}
"""Room numbers by id (``"saloon"`` -> 9)."""
NUM_SCENES = len(COMP.scenes)
POINTS_PER_RANK = 5

# ---------------------------------------------------------------------------- weights

TURN_COST = 1.5
"""What a turn is worth, in points: every plan pays this for each turn it takes."""
RANK_WORTH = 2.0
"""What one rank above the first is worth per day still to play, besides its 5 points at the end:
it opens better roles with bigger bonus dice."""
LATE_SCENES = 2
"""With this many scenes left (or fewer), the day may end any turn: no rehearsing."""


def _distances() -> tuple[tuple[int, ...], ...]:
    """Steps between every two rooms (breadth first over the board's doors)."""
    rooms = len(COMP.room_ids)
    out = []
    for start in range(rooms):
        dist = [-1] * rooms
        dist[start] = 0
        frontier = [start]
        while frontier:
            nxt = []
            for r in frontier:
                for n in COMP.neighbors[r]:
                    if dist[n] < 0:
                        dist[n] = dist[r] + 1
                        nxt.append(n)
            frontier = nxt
        out.append(tuple(dist))
    return tuple(out)


DIST = _distances()
"""``DIST[a][b]``: the moves from room ``a`` to room ``b``."""


@functools.cache
def bonus_share(budget: int, roles: int) -> tuple[float, ...]:
    """The expected wrap bonus of each starring role of a card with ``roles`` roles and a
    ``budget`` (It's a Wrap!: ``budget`` dice, highest first to the top role and down, wrapping
    around), in card order (lowest rank first, so the top role is the last), exact over every roll.

    >>> [round(x, 2) for x in bonus_share(2, 2)]
    [2.53, 4.47]
    """
    # Over the sorted rolls (multisets), each weighted by the orderings it stands for: the same
    # sums as over all 6**budget rolls, in 462 steps instead of 46,656 at budget 6.
    total = [0.0] * roles
    count = 0
    for dice in itertools.combinations_with_replacement(range(6, 0, -1), budget):
        weight = math.factorial(budget)
        for die in set(dice):
            weight //= math.factorial(dice.count(die))
        count += weight
        for j, die in enumerate(dice):
            total[roles - 1 - j % roles] += die * weight
    return tuple(t / count for t in total)


def success(budget: int, chips: int) -> float:
    """The chance that a die plus ``chips`` reaches ``budget`` (Acting)."""
    return min(1.0, max(0.0, (7 - budget + chips) / 6))


@functools.lru_cache(maxsize=1 << 16)
def role_plan(
    budget: int, shots: int, chips: int, on_card: bool, bonus: float, others: float, horizon: float
) -> tuple[float, int]:
    """The worth of working a role from now to its wrap, and the practice chips to add first.

    Args:
        budget: the film's budget; ``shots`` the shot counters left on the set; ``chips`` the
            practice chips already on the role.
        on_card: a starring role (a success pays 2 credits, a failure nothing); else an extra
            (a success pays $1 and 1 credit, a failure $1).
        bonus: the role's expected wrap bonus (dollars).
        others: the shots the other players working on the set remove per round, on average.
        horizon: the rounds left before the day ends (the wrap bonus and the acts after it are lost).

    Returns:
        ``(worth, rehearsals)``: the expected gains less :data:`TURN_COST` per turn spent, for the
        best number of rehearsals before acting (0: act now), rehearsing only while success is
        not sure (at most ``budget - 1`` chips).
    """
    best = (-1e9, 0)
    for extra in range(max(0, budget - 1 - chips) + 1):
        p = success(budget, chips + extra)
        if others > 0 and shots <= extra * others:
            rounds = shots / others
            acts = 0.0
        else:
            acts = (shots - extra * others) / (others + p)
            rounds = extra + acts
        if rounds > horizon:
            # the day ends first: only the acts before it count, and no bonus
            acts = max(0.0, horizon - extra)
            rounds = horizon
            paid = 0.0
        else:
            paid = bonus
        if on_card:
            gains = 2 * p * acts + paid
        else:
            gains = (1 + p) * acts + paid
        worth = gains - TURN_COST * rounds
        if worth > best[0] + 1e-9:
            best = (worth, extra)
    return best


def rounds_left(view: Any) -> float:
    """A guess at the rounds left in the day (Ending the Day: it ends with one scene left): the
    shots of every unwrapped scene but the biggest, over the shots the working players remove in
    a round (at least one every round and a half)."""
    if view.scenes_left <= 1:
        return 0.0
    shots: list[int] = sorted(s.shots_left for s in view.sets if not s.wrapped)
    needed = sum(shots[:-1])
    budgets = {s.id: s.scene.budget for s in view.sets if s.scene is not None}
    rate = 0.0
    for player in view.players:
        if player.role is not None and player.room in budgets:
            rate += success(budgets[player.room], player.chips)
    return needed / max(rate, 2 / 3)


ESTIMATE_SCALE = 10.0
"""Points of difference that make a pair's estimated odds ``e : 1`` (:meth:`DeadwoodStudiosStrategy.estimate`)."""


class DeadwoodStudiosStrategy:
    """Chooses a Deadwood Studios action from a view and the legal actions (see the module docstring).

    Args:
        seed: seeds the random source that breaks exact ties.
    """

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: Any, legal: list[Any], seat: int) -> Any:
        """One of ``legal`` (never empty)."""
        if len(legal) == 1:
            return legal[0]
        ctx = _Ctx(view, seat)
        scores = [ctx.score(action) for action in legal]
        best = max(range(len(legal)), key=lambda i: (round(scores[i], 6), self._random.random()))
        return legal[best]

    def estimate(self, view: Any, seat: int) -> float:
        """``seat``'s chance to win from ``view``: the fitted logistic regression on
        :func:`estimate_features` (:mod:`bots.estimates`); without fitted weights, the chance to
        beat every other player, each pair by a logistic on the difference of their points if the
        game ended now (Scoring: dollars, credits and 5 a rank), :data:`ESTIMATE_SCALE` points
        wide (:func:`bots.heuristic.beat_all_chance`)."""
        fitted = chance("deadwood_studios", len(view.players), estimate_features(view, seat))
        if fitted is not None:
            return fitted
        return beat_all_chance([player.points for player in view.players], seat, ESTIMATE_SCALE)


ESTIMATE_FEATURES = (
    "points_vs_best",
    "points_vs_mean",
    "points_vs_best_x_progress",
    "ranks_x_days_left_vs_mean",
    "role_vs_mean",
    "chips_vs_mean",
)
"""The names of :func:`estimate_features`, in order."""


def _versus(values: list[float], seat: int) -> tuple[float, float]:
    """``(values[seat] - the best other's, values[seat] - the others' mean)``."""
    others = [v for p, v in enumerate(values) if p != seat]
    return values[seat] - max(others), values[seat] - sum(others) / len(others)


def estimate_features(view: Any, seat: int) -> list[float]:
    """What the fitted estimate reads from ``seat``'s view (:data:`ESTIMATE_FEATURES`): points
    (dollars, credits and 5 a rank) against the best other player's and the others' mean, in
    tens of points, the first also times the game's progress (0 at the start, 1 at the end);
    ranks valued by the days left (rank times days left, in tens, against the others' mean: a
    rank opens better roles for every day still to play); the role in progress (its rank, plus 2
    for a starring role, fifths, against the others' mean); practice chips (thirds, against the
    others' mean)."""
    if len(view.players) < 2:
        return [0.0] * len(ESTIMATE_FEATURES)
    days_left = float(max(0.0, view.days - view.day + (view.scenes_left - 1) / (NUM_SETS - 1)))
    progress = min(1.0, max(0.0, 1.0 - days_left / max(1, view.days)))
    points = [float(p.points) for p in view.players]
    future = [p.rank * days_left for p in view.players]
    roles = []
    for p in view.players:
        worth = 0.0
        if p.role is not None:
            set_view = view.sets[ROOM[p.room]]
            for role in (*set_view.extras, *set_view.starring):
                if role.seat == p.seat:
                    worth = role.rank + (2.0 if role.on_card else 0.0)
        roles.append(worth)
    chips = [float(p.chips) for p in view.players]
    best, mean = _versus(points, seat)
    return [
        best / 10,
        mean / 10,
        best * progress / 10,
        _versus(future, seat)[1] / 10,
        _versus(roles, seat)[1] / 5,
        _versus(chips, seat)[1] / 3,
    ]


class _Ctx:
    """One decision: the seat's situation, read from the view once."""

    def __init__(self, view: Any, seat: int) -> None:
        self.view = view
        self.me = view.players[seat]
        self.seat = seat
        self.room = ROOM[self.me.room]
        self.horizon = rounds_left(view)
        self.days_left = float(max(0.0, view.days - view.day + (view.scenes_left - 1) / (NUM_SETS - 1)))
        seen = {scene.id for scene in view.removed}
        seen.update(s.scene.id for s in view.sets if s.scene is not None)
        self.unseen = [c for c in range(NUM_SCENES) if c not in seen]
        self._unseen = tuple(self.unseen)
        self._horizon = round(self.horizon, 1)  # what role plans are priced on (cache keys)
        self._targets: list[tuple[int, float]] | None = None
        self._set_worths: dict[str, float] = {}  # set id -> set_worth, once per decision

    # ------------------------------------------------------------ values

    def others_rate(self, set_view: Any, budget: int) -> float:
        """The shots the other players working on ``set_view`` remove per round."""
        rate = 0.0
        for player in self.view.players:
            if player.seat != self.seat and player.role is not None and player.room == set_view.id:
                rate += success(budget, player.chips)
        return rate

    def role_worth(self, set_view: Any, role: Any, chips: int = 0) -> tuple[float, int]:
        """:func:`role_plan` of ``role`` (a :class:`RoleView`) on ``set_view`` for this seat."""
        scene = set_view.scene
        budget = scene.budget
        if role.on_card:
            index = [r.name for r in set_view.starring].index(role.name)
            bonus = bonus_share(budget, len(set_view.starring))[index]
        else:
            anyone = any(r.seat >= 0 and r.seat != self.seat for r in set_view.starring)
            bonus = role.rank * (1.0 if anyone else 0.3)
        others = round(self.others_rate(set_view, budget), 3)
        return role_plan(budget, set_view.shots_left, chips, role.on_card, round(bonus, 3), others, self._horizon)

    def set_worth(self, set_view: Any) -> float:
        """The best free role this seat may take on ``set_view`` (face up), or a face-down scene's
        average best; ``-1e9`` when there is nothing to take. Worked out once per set and decision."""
        worth = self._set_worths.get(set_view.id)
        if worth is None:
            worth = self._set_worths[set_view.id] = self._set_worth(set_view)
        return worth

    def _set_worth(self, set_view: Any) -> float:
        """:meth:`set_worth`, worked out."""
        rank = self.me.rank
        if set_view.wrapped:
            return -1e9
        if set_view.face_down:
            return self.face_down_worth(set_view)
        best = -1e9
        for role in (*set_view.extras, *set_view.starring):
            if role.seat < 0 and role.rank <= rank:
                best = max(best, self.role_worth(set_view, role)[0])
        return best

    def face_down_worth(self, set_view: Any) -> float:
        """The average over the unseen scene cards of the best role this seat could take there
        (nobody else on the set: a face-down set has never been entered)."""
        return _face_down_worth(self._unseen, ROOM[set_view.id], set_view.shots_left, self.me.rank, self._horizon)

    def upgrade_worth(self, rank: int, currency: str) -> float:
        """Points won by upgrading to ``rank`` in ``currency`` (Upgrading): the ranks' points and
        their worth for the days left, less the price."""
        price = COMP.price(rank, currency)
        gained = rank - int(self.me.rank)
        return (POINTS_PER_RANK + RANK_WORTH * self.days_left) * gained - price

    def best_upgrade(self) -> float:
        """The best :meth:`upgrade_worth` this seat can pay for now (0: none pays)."""
        best = 0.0
        for line in COMP.upgrades:
            if line.rank <= self.me.rank:
                continue
            if self.me.dollars >= line.dollars:
                best = max(best, self.upgrade_worth(line.rank, DOLLARS))
            if self.me.credits >= line.credits:
                best = max(best, self.upgrade_worth(line.rank, CREDITS))
        return best

    def targets(self) -> list[tuple[int, float]]:
        """Every room worth going to and its worth there (roles, or an upgrade at the Casting Office)."""
        if self._targets is None:
            out = []
            for s, set_view in enumerate(self.view.sets):
                worth = self.set_worth(set_view)
                if worth > -1e8:
                    out.append((s, worth))
            upgrade = self.best_upgrade()
            if upgrade > 0 and not (self.room == CASTING_OFFICE and self.view.upgraded):
                out.append((CASTING_OFFICE, upgrade + self.best_after_upgrade()))
            self._targets = out
        return self._targets

    def best_after_upgrade(self) -> float:
        """What the best set is worth after the walk back from the Casting Office (at least 0)."""
        best = 0.0
        for s, set_view in enumerate(self.view.sets):
            worth = self.set_worth(set_view)
            if worth > -1e8:
                best = max(best, worth - TURN_COST * DIST[CASTING_OFFICE][s])
        return best

    def reach(self, start: int, extra: int) -> float:
        """The best target from room ``start``, each step a turn, plus ``extra`` turns of waiting."""
        best = -TURN_COST * 3
        for room, worth in self.targets():
            steps = max(DIST[start][room], extra)
            best = max(best, worth - TURN_COST * steps)
        return best

    # ------------------------------------------------------------ actions

    def score(self, action: Any) -> float:
        """The worth of ``action`` (higher is better)."""
        view = self.view
        if isinstance(action, (A.Act, A.Rehearse)):
            return self.work_score(action)
        if isinstance(action, A.Upgrade):
            worth = self.upgrade_worth(action.rank, action.currency)
            return 1000.0 + worth if worth > 0 else -1e6
        if isinstance(action, A.TakeRole):
            set_view = view.sets[self.room]
            role = next(
                r
                for r in (*set_view.extras, *set_view.starring)
                if r.name == action.role and r.on_card == action.on_card
            )
            return self.role_worth(set_view, role)[0]
        if isinstance(action, A.Move):
            return self.reach(ROOM[action.to], 0)
        # EndTurn: wait here at least one turn
        return self.reach(self.room, 1) - 0.01

    def work_score(self, action: Any) -> float:
        """Act (1) or rehearse (2, when more chips pay; never late in the day)."""
        set_view = self.view.sets[self.room]
        if set_view.scene is None:
            return 0.0
        role = next(r for r in (*set_view.extras, *set_view.starring) if r.seat == self.seat)
        _, rehearsals = self.role_worth(set_view, role, self.me.chips)
        late = self.view.scenes_left <= LATE_SCENES
        rehearse = rehearsals > 0 and not late
        return 2.0 if isinstance(action, A.Rehearse) == rehearse else 1.0


@functools.lru_cache(maxsize=1 << 12)
def _face_down_worth(unseen: tuple[int, ...], s: int, shots: int, rank: int, horizon: float) -> float:
    """:meth:`_Ctx.face_down_worth`: the average over ``unseen`` cards of the best role of at most
    ``rank`` on set ``s`` with ``shots`` shots and nobody there."""
    if not unseen:
        return -1e9
    total = 0.0
    for c in unseen:
        total += _card_worth(c, s, shots, rank, horizon)
    return total / len(unseen)


@functools.lru_cache(maxsize=1 << 16)
def _card_worth(c: int, s: int, shots: int, rank: int, horizon: float) -> float:
    """The best role of at most ``rank`` on set ``s`` with ``shots`` shots and nobody there if scene
    card ``c`` is turned up there, in points (at least ``-6 x TURN_COST``); for :func:`_face_down_worth`."""
    scene = COMP.scenes[c]
    budget = scene.budget
    best = -1e9
    for role in COMP.extras[s]:
        if role.rank <= rank:
            best = max(best, role_plan(budget, shots, 0, False, round(role.rank * 0.3, 3), 0.0, horizon)[0])
    shares = bonus_share(budget, len(scene.roles))
    for i, role in enumerate(scene.roles):
        if role.rank <= rank:
            best = max(best, role_plan(budget, shots, 0, True, round(shares[i], 3), 0.0, horizon)[0])
    return max(best, -TURN_COST * 6)
