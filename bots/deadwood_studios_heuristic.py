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

Speed: what a decision works out is memoised in bounded caches (pure functions of immutable inputs:
the view's sets and roles, which views share while unchanged, the seat's rank, the rounded horizon),
so a playout pays mostly for cache lookups; the moves are those of the plain computation.

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
from bots.heuristic import beat_all_chance, best_index
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
WALK_COST = tuple(tuple(TURN_COST * steps for steps in row) for row in DIST)
"""``WALK_COST[a][b]``: the turns' cost of walking from room ``a`` to room ``b``."""
WAIT_COST = tuple(tuple(TURN_COST * max(steps, 1) for steps in row) for row in DIST)
"""``WAIT_COST[a][b]``: the same, at least one turn (waiting a turn first)."""


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


SUCCESS = tuple(tuple(success(budget, chips) for chips in range(8)) for budget in range(8))
"""``SUCCESS[budget][chips]``: :func:`success` (budgets 2-6, chips 0-5), looked up in hot loops."""


@functools.lru_cache(maxsize=1 << 13)
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
    sets = view.sets
    needed = biggest = 0  # the shots of every unwrapped scene, then less the biggest (integers)
    for set_view in sets:
        if not set_view.wrapped:
            shots = set_view.shots_left
            needed += shots
            if shots > biggest:
                biggest = shots
    needed -= biggest
    rate = 0.0
    for player in view.players:
        if player.role is not None:
            room = ROOM[player.room]
            if room < NUM_SETS:
                scene = sets[room].scene
                if scene is not None:
                    rate += SUCCESS[scene.budget][player.chips]
    return needed / max(rate, 2 / 3)


def _capped(horizon: float, shots: int) -> float:
    """``horizon``, or less when more rounds than a role with ``shots`` shots left can take: every
    :func:`role_plan` of such a role then gives the same (its rounds are at most ``budget - 1``
    rehearsals plus ``shots`` acts at the lowest success chance, 1 in 6), so the memoised values
    are shared by every longer horizon."""
    cap = PLAN_ROUNDS_BASE + PLAN_ROUNDS_PER_SHOT * shots
    return cap if horizon > cap else horizon


_MAX_BUDGET = max(scene.budget for scene in COMP.scenes)
PLAN_ROUNDS_BASE = float(_MAX_BUDGET - 1)
PLAN_ROUNDS_PER_SHOT = 1 / success(_MAX_BUDGET, 0)
"""The most rounds a :func:`role_plan` can take: ``PLAN_ROUNDS_BASE + PLAN_ROUNDS_PER_SHOT x shots``."""


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
        return legal[best_index(self.scores(view, legal, seat), self._random.random)]

    def scores(self, view: Any, legal: list[Any], seat: int) -> list[float]:
        """How the strategy rates each of ``legal`` (never empty), higher better, one float per
        action in order; :meth:`choose` plays the best."""
        score = _Ctx(view, seat).score
        return [score(action) for action in legal]

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


PRICE = {
    (line.rank, currency): COMP.price(line.rank, currency) for line in COMP.upgrades for currency in (DOLLARS, CREDITS)
}
"""The Casting Office's prices by ``(rank, currency)``."""
_CHEAPEST = {
    currency: min(price for (_, paid), price in PRICE.items() if paid == currency) for currency in (DOLLARS, CREDITS)
}
"""The cheapest upgrade in each currency: with less of both, no upgrade is affordable."""


class _Ctx:
    """One decision: the seat's situation, read from the view once."""

    __slots__ = ("view", "me", "seat", "room", "horizon", "_horizon", "_days_left", "_working", "_targets", "_rehearse")

    def __init__(self, view: Any, seat: int) -> None:
        self.view = view
        self.me = me = view.players[seat]
        self.seat = seat
        self.room = ROOM[me.room]
        self.horizon = horizon = rounds_left(view)
        self._horizon = round(horizon, 1)  # what role plans are priced on (cache keys)
        self._days_left: float | None = None
        self._working: dict[str, tuple[int, ...]] | None = None
        self._targets: list[tuple[int, float]] | None = None
        self._rehearse: float | None = None

    @property
    def days_left(self) -> float:
        """The days still to play, the current one counted by its share of scenes left."""
        if self._days_left is None:
            view = self.view
            self._days_left = float(max(0.0, view.days - view.day + (view.scenes_left - 1) / (NUM_SETS - 1)))
        return self._days_left

    # ------------------------------------------------------------ values

    def others_chips(self, set_id: str) -> tuple[int, ...]:
        """The practice chips of the other players working on set ``set_id``, in seat order."""
        working = self._working
        if working is None:
            working = self._working = {}
            for player in self.view.players:
                if player.seat != self.seat and player.role is not None:
                    working[player.room] = (*working.get(player.room, ()), player.chips)
        return working.get(set_id, ())

    def role_worth(self, set_view: Any, role: Any, chips: int = 0) -> tuple[float, int]:
        """:func:`role_plan` of ``role`` (a :class:`RoleView`) on ``set_view`` for this seat."""
        shots = set_view.shots_left
        others = self.others_chips(set_view.id)
        horizon = _capped(self._horizon, shots)
        return _role_worth(set_view.scene.budget, shots, set_view.starring, role, self.seat, chips, others, horizon)

    def set_worths(self) -> list[float]:
        """Per set: the best free role this seat may take there (face up), or a face-down scene's
        average best; ``-1e9`` when there is nothing to take."""
        view = self.view
        seat = self.seat
        rank = self.me.rank
        horizon = self._horizon
        unseen: tuple[int, ...] | None = None
        worths = []
        for s, set_view in enumerate(view.sets):
            if set_view.wrapped:
                worth = -1e9
                worths.append(worth)
                continue
            shots = set_view.shots_left
            capped = _capped(horizon, shots)
            if set_view.face_down:
                if unseen is None:
                    unseen = _unseen(view.removed, view.sets)
                worth = _face_down_worth(unseen, s, shots, rank, capped)
            else:
                worth = _face_up_worth(
                    set_view.scene.budget,
                    shots,
                    set_view.extras,
                    set_view.starring,
                    seat,
                    rank,
                    self.others_chips(set_view.id),
                    capped,
                )
            worths.append(worth)
        return worths

    def upgrade_worth(self, rank: int, currency: str) -> float:
        """Points won by upgrading to ``rank`` in ``currency`` (Upgrading): the ranks' points and
        their worth for the days left, less the price."""
        return _upgrade_worth(self.me.rank, rank, currency, self.days_left)

    def targets(self) -> list[tuple[int, float]]:
        """Every room worth going to and its worth there (roles, or an upgrade at the Casting Office:
        the best upgrade this seat can pay for, plus the best set after the walk back)."""
        if self._targets is None:
            out = [(s, worth) for s, worth in enumerate(self.set_worths()) if worth > -1e8]
            me = self.me
            upgrade = 0.0  # none affordable (the usual case), else the best one
            if me.dollars >= _CHEAPEST[DOLLARS] or me.credits >= _CHEAPEST[CREDITS]:
                upgrade = _best_upgrade(me.rank, me.dollars, me.credits, self.days_left)
            if upgrade > 0 and not (self.room == CASTING_OFFICE and self.view.upgraded):
                best = 0.0  # the best set after the walk back (at least 0)
                back = DIST[CASTING_OFFICE]
                for s, worth in out:
                    worth -= TURN_COST * back[s]
                    if worth > best:
                        best = worth
                out.append((CASTING_OFFICE, upgrade + best))
            self._targets = out
        return self._targets

    def reach(self, start: int, extra: int) -> float:
        """The best target from room ``start``, each step a turn, plus ``extra`` turns of waiting."""
        best = -TURN_COST * 3
        cost = WALK_COST[start] if extra == 0 else WAIT_COST[start] if extra == 1 else None
        if cost is None:
            cost = tuple(TURN_COST * max(steps, extra) for steps in DIST[start])
        for room, worth in self.targets():
            worth -= cost[room]
            if worth > best:
                best = worth
        return best

    # ------------------------------------------------------------ actions

    def score(self, action: Any) -> float:
        """The worth of ``action`` (higher is better)."""
        if isinstance(action, (A.Act, A.Rehearse)):
            return self.work_score(action)
        if isinstance(action, A.Move):
            return self.reach(ROOM[action.to], 0)
        if isinstance(action, A.Upgrade):
            worth = self.upgrade_worth(action.rank, action.currency)
            return 1000.0 + worth if worth > 0 else -1e6
        if isinstance(action, A.TakeRole):
            set_view = self.view.sets[self.room]
            role = next(
                r
                for r in (*set_view.extras, *set_view.starring)
                if r.name == action.role and r.on_card == action.on_card
            )
            return self.role_worth(set_view, role)[0]
        # EndTurn: wait here at least one turn
        return self.reach(self.room, 1) - 0.01

    def work_score(self, action: Any) -> float:
        """Act (1) or rehearse (2, when more chips pay; never late in the day)."""
        rehearse = self._rehearse
        if rehearse is None:
            rehearse = self._rehearse = self._rehearse_worth()
        if rehearse < 0:
            return 0.0
        return 2.0 if isinstance(action, A.Rehearse) == (rehearse > 0) else 1.0

    def _rehearse_worth(self) -> float:
        """1.0 when rehearsing pays now, 0.0 when acting does, -1.0 without a scene here."""
        set_view = self.view.sets[self.room]
        if set_view.scene is None:
            return -1.0
        if self.view.scenes_left <= LATE_SCENES:
            return 0.0  # late: act, whatever more chips would pay
        role = next(r for r in (*set_view.extras, *set_view.starring) if r.seat == self.seat)
        _, rehearsals = self.role_worth(set_view, role, self.me.chips)
        return 1.0 if rehearsals > 0 else 0.0


# Memoised pure functions of immutable inputs (bounded caches): a playout asks the same ones over
# and over, the view's pieces being shared between views when they are unchanged.


_UNSEEN: dict[tuple[int, tuple[int, ...]], tuple[Any, tuple[int, ...]]] = {}
""":func:`_unseen`'s cache, by the identity of the removed cards' tuple (kept alive in the entry, so
its id stays its own) and the face-up cards; cleared when it reaches :data:`_UNSEEN_SIZE` entries."""
_UNSEEN_SIZE = 1 << 12


def _unseen(removed: tuple[Any, ...], sets: tuple[Any, ...]) -> tuple[int, ...]:
    """The scene cards (ids, ascending) nobody has seen: neither among ``removed`` (the view's
    :class:`Scene` cards that left the board face up) nor face up on ``sets`` (the view's sets).
    Memoised by the identity of ``removed`` (views share it while no card leaves the board)."""
    up = tuple([s.scene.id for s in sets if s.scene is not None])
    key = (id(removed), up)
    hit = _UNSEEN.get(key)
    if hit is not None and hit[0] is removed:
        return hit[1]
    seen = {scene.id for scene in removed}
    seen.update(up)
    unseen = tuple(c for c in range(NUM_SCENES) if c not in seen)
    if len(_UNSEEN) >= _UNSEEN_SIZE:
        _UNSEEN.clear()
    _UNSEEN[key] = (removed, unseen)
    return unseen


@functools.lru_cache(maxsize=1 << 12)
def _upgrade_worth(now: int, rank: int, currency: str, days_left: float) -> float:
    """:meth:`_Ctx.upgrade_worth` from rank ``now``."""
    gained = rank - int(now)
    return (POINTS_PER_RANK + RANK_WORTH * days_left) * gained - PRICE[rank, currency]


@functools.lru_cache(maxsize=1 << 12)
def _best_upgrade(now: int, dollars: int, credits: int, days_left: float) -> float:
    """The best :func:`_upgrade_worth` from rank ``now`` with ``dollars`` and ``credits`` (0: none pays)."""
    best = 0.0
    for line in COMP.upgrades:
        if line.rank <= now:
            continue
        if dollars >= line.dollars:
            best = max(best, _upgrade_worth(now, line.rank, DOLLARS, days_left))
        if credits >= line.credits:
            best = max(best, _upgrade_worth(now, line.rank, CREDITS, days_left))
    return best


@functools.lru_cache(maxsize=1 << 13)
def _starring_of(budget: int, starring: tuple[Any, ...]) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """What the role plans on a face-up set read from its ``starring`` roles (:class:`RoleView`)
    on a card of ``budget``: the seats on them, and each one's wrap bonus (:func:`bonus_share`,
    rounded, by the first role of its name)."""
    shares = bonus_share(budget, len(starring))
    names = [r.name for r in starring]
    bonuses = tuple(round(shares[names.index(r.name)], 3) for r in starring)
    return tuple(r.seat for r in starring if r.seat >= 0), bonuses


def _others_rate(budget: int, others_chips: tuple[int, ...]) -> float:
    """The shots the players with ``others_chips`` remove per round (rounded), in seat order."""
    rate = 0.0
    for c in others_chips:
        rate += SUCCESS[budget][c]
    return round(rate, 3)


@functools.lru_cache(maxsize=1 << 13)
def _role_worth(
    budget: int,
    shots: int,
    starring: tuple[Any, ...],
    role: Any,
    seat: int,
    chips: int,
    others_chips: tuple[int, ...],
    horizon: float,
) -> tuple[float, int]:
    """:meth:`_Ctx.role_worth`: :func:`role_plan` of ``role`` on a face-up set (``budget``,
    ``shots`` left, ``starring`` roles) for ``seat`` with ``chips`` practice chips, the other
    players on the set having ``others_chips``, ``horizon`` rounds left."""
    star_seats, bonuses = _starring_of(budget, starring)
    if role.on_card:
        bonus = bonuses[starring.index(role)]
    else:
        anyone = any(other != seat for other in star_seats)
        bonus = round(role.rank * (1.0 if anyone else 0.3), 3)
    others = _others_rate(budget, others_chips)
    return role_plan(budget, shots, chips, role.on_card, bonus, others, horizon)


@functools.lru_cache(maxsize=1 << 13)
def _face_up_worth(
    budget: int,
    shots: int,
    extras: tuple[Any, ...],
    starring: tuple[Any, ...],
    seat: int,
    rank: int,
    others_chips: tuple[int, ...],
    horizon: float,
) -> float:
    """The best free role of at most ``rank`` for ``seat`` on a face-up set (``budget``, ``shots``
    left, its ``extras`` and ``starring`` roles), ``-1e9`` if none, the others on the set having
    ``others_chips``; for :meth:`_Ctx.set_worths`."""
    best = -1e9
    for role in (*extras, *starring):
        if role.seat < 0 and role.rank <= rank:
            worth = _role_worth(budget, shots, starring, role, seat, 0, others_chips, horizon)[0]
            if worth > best:
                best = worth
    return best


@functools.lru_cache(maxsize=1 << 13)
def _face_down_worth(unseen: tuple[int, ...], s: int, shots: int, rank: int, horizon: float) -> float:
    """:meth:`_Ctx.set_worth` of a face-down set: the average over ``unseen`` cards of the best
    role of at most ``rank`` on set ``s`` with ``shots`` shots and nobody there (a face-down set
    has never been entered)."""
    if not unseen:
        return -1e9
    worths = _card_worths(s, shots, rank, horizon)
    total = 0.0
    for c in unseen:
        total += worths[c]
    return total / len(unseen)


@functools.lru_cache(maxsize=1 << 12)
def _card_worths(s: int, shots: int, rank: int, horizon: float) -> tuple[float, ...]:
    """By card id: the best role of at most ``rank`` on set ``s`` with ``shots`` shots and nobody
    there if that scene card is turned up there, in points: the better of the set's extras (by the
    card's budget) and the card's starring roles, at least ``-6 x TURN_COST``."""
    extras = _extras_best(s, shots, rank, horizon)
    floor = -TURN_COST * 6
    return tuple(
        max(max(extras[budget], star), floor)
        for budget, star in zip(_BUDGETS, _stars_best(shots, rank, horizon), strict=True)
    )


_BUDGETS = tuple(scene.budget for scene in COMP.scenes)
"""Every scene card's budget, by card id."""


@functools.lru_cache(maxsize=1 << 12)
def _extras_best(s: int, shots: int, rank: int, horizon: float) -> tuple[float, ...]:
    """By budget (0-6): the best extra of at most ``rank`` on set ``s`` with ``shots`` shots and
    nobody there, ``-1e9`` if none (for :func:`_card_worths`)."""
    out = []
    for budget in range(7):
        best = -1e9
        if budget in _BUDGETS:
            for role in COMP.extras[s]:
                if role.rank <= rank:
                    best = max(best, role_plan(budget, shots, 0, False, round(role.rank * 0.3, 3), 0.0, horizon)[0])
        out.append(best)
    return tuple(out)


@functools.lru_cache(maxsize=1 << 12)
def _stars_best(shots: int, rank: int, horizon: float) -> tuple[float, ...]:
    """By card id: the best starring role of at most ``rank`` on the card with ``shots`` shots and
    nobody there, ``-1e9`` if none (for :func:`_card_worths`)."""
    out = []
    for scene in COMP.scenes:
        budget = scene.budget
        shares = bonus_share(budget, len(scene.roles))
        best = -1e9
        for i, role in enumerate(scene.roles):
            if role.rank <= rank:
                best = max(best, role_plan(budget, shots, 0, True, round(shares[i], 3), 0.0, horizon)[0])
        out.append(best)
    return tuple(out)
