"""A hand-written Deadwood (worker placement, ``deadwood_town``) strategy that reads only the seat's view.

The bot plays like a greedy saloon keeper who counts every dollar. Everything is priced in
dollars of final score (money less $1 per wanted poster), relative to the table: what an
opponent loses counts ``1 / (players - 1)`` as much as what the bot gains. Each legal action is
valued once, from the view, and the best one is taken:

* **Annex money buildings.** Each building's annex is worth its effect (:meth:`_Ctx.annex_value`:
  the Bank's $5 less its poster, the Gold Mine's $1.83 on average, a free Greenhorn at a Saloon,
  the Town Hall's returned poster, rail and bonus annexes...). A cowboy left on a building is
  worth what controlling it still pays (:meth:`_Ctx.hold_value`: the Stage Depot's $10, the
  Hotel's $2 a rail, the Sheriff's Office's tolls), times the chance of keeping it (a stronger
  cowboy, or a Sheriff-protected plot, keeps it better). Weak cowboys go to buildings that only
  pay on annexing; the strong ones are kept for shootouts and for buildings worth holding.
* **Avoid bad shootouts.** A shootout is priced exactly (:func:`fight_odds` over the die's
  faces): its poster, the defender's chance to skedaddle, the building won, the cowboys lost on
  both sides and the Undertaker's dollar. It attacks only when that beats an annex elsewhere;
  as the defender it skedaddles when standing costs more than a pony, and it spends a cartridge
  when the extra die is worth more than the cartridge.
* **Head back when it pays.** With nothing worth doing in town (or an empty Ranch) it heads back
  every cowboy that holds nothing worth keeping (the Abandoned Mine first), in one turn.
* **Watch the end triggers.** Its standing is the final score each player would have now
  (:attr:`_Ctx.finals`: money less posters, the Stage Depot's $10 at its chance). Any move that
  would end the game (the last poster of the Crime Pool, the Train Station, the Telegraph
  Office, a player's last cowboy killed) is worth a large bonus if the bot would win then and a
  large penalty if not. Short of that, the more it leads the more it wants the end
  (:attr:`_Ctx.hasten`): posters from the Crime Pool and rails (Town Hall) get cheaper when it
  leads and dearer when it trails; the Telegraph Office adds posters when it trails and removes
  them when it leads. Once the table holds a lot of money, every bot pushes for the end, so that
  bots content with the standings never play on forever.
* Targeted effects hit the leader: the Casino steals from, and the Newspaper gives a poster to,
  the opponent with the best final score; the Grifter sends the cowboys holding the most to the
  Abandoned Mine; the Sheriff moves to protect the bot's valuable buildings.

All choices are deterministic given the seed (the bot's random source only breaks exact ties).

For speed inside searches, what a decision asks several times (each building's annex, the
Sheriff's and General Store's options, a shootout's stakes) is worked out once per decision, and
the tables read from a view's plots are cached by the plots tuple (bounded: :data:`BOARD_CACHE`).

Measured with ``saloon simulate deadwood_town --players N --bots heuristic,random,... --games
1000 --seed 1`` (the heuristic in seat 0; the first player is rolled for each game; a shared
first place counts as a win, as ``simulate`` counts it): see :data:`MEASURED`.
"""

from __future__ import annotations

import functools
import operator
import random
from typing import Any

from bots.estimates import chance
from bots.heuristic import beat_all_chance, best_index, lazy
from engine.deadwood_town import actions as A
from engine.deadwood_town.components import components as _components

__all__ = ["MEASURED", "DeadwoodTownStrategy", "fight_odds"]

COMP = _components()
PLOTS = COMP.plot_ids
NEIGHBORS = {PLOTS[p]: tuple(PLOTS[q] for q in qs) for p, qs in enumerate(COMP.neighbors)}
RAIL_ROUTE = tuple(PLOTS[p] for p in COMP.rail_route)
RED_ROW = frozenset(PLOTS[p] for p in COMP.red_row)
INTERSECTIONS = {
    i: (PLOTS[a], PLOTS[b], PLOTS[c])
    for i, (a, b, c) in zip(COMP.intersection_ids, COMP.intersection_plots, strict=True)
}
HIRE_COST = COMP.hire_cost
_SECOND = operator.itemgetter(1)
MINE = "mine"
_HOLDING = frozenset(("stage_depot", "hotel", "undertaker", "sheriffs_office", "laundry"))
"""The buildings whose control is worth something (:meth:`_Ctx.hold_value`)."""

MEASURED = {
    2: (992, 1000),
    3: (993, 1000),
    5: (958, 1000),
}
"""Heuristic wins (a shared first place counts; 0, 1 and 2 of them were shared) out of games
against random bots, by player count: 99.2% (95% Wilson interval 98.4-99.6%), 99.3%
(98.6-99.7%) and 95.8% (94.4-96.9%). ``simulate`` does not rotate seats; with the heuristic in
the last seat instead the figures are 991, 992 and 958, and all-random tables show no seat
advantage beyond noise (seat 0 won 51.1%, 31.7% and 19.7% of 1000 games at 2, 3 and 5)."""

# ---------------------------------------------------------------------------- weights

BASE = {
    "bank": 4.0,
    "gunsmith": 2.0,
    "blacksmith": 1.8,
    "casino": 1.5,
    "general_store": 1.5,
    "hotel": 2.5,
    "laundry": 1.0,
    "stage_depot": 3.0,
    "undertaker": 1.2,
    "saloon": 3.0,
    "saloon_x": 3.0,
    "gold_mine": 1.83,
    "fortune_teller": 1.1,
    "courthouse": 0.5,
    "grifter": 2.0,
    "newspaper": 1.5,
    "dance_hall": 2.0,
    "telegraph_office": 1.2,
    "church": 0.5,
    "sheriffs_office": 1.0,
    "town_hall": 1.0,
}
"""A rough annex value of each building for anybody: what an opponent's (bonus) annex is worth."""
COWBOY = (0.0, 3.0, 4.0, 5.0)
"""What a living cowboy of each strength is worth (dollars): the annexes it will still make."""
HIRE = (0.0, 3.0, 3.8, 4.5)
"""What hiring a cowboy of each strength is worth before its cost."""
CARTRIDGE = 0.6
"""What a cartridge is worth (one more die in a shootout to come)."""
PONY = 0.8
"""What a pony is worth (a skedaddle to come)."""
KEEP = (0.0, 0.5, 0.65, 0.75)
"""The chance that an unprotected cowboy of each strength keeps its building long enough."""
STRENGTH_COST = 0.35
"""What using a stronger cowboy than needed costs per strength step (it is not there to attack)."""
HEAD_BACK = 0.7
"""What heading a cowboy back is worth when it holds nothing worth keeping (a later annex)."""
SKEDADDLE_CHANCE = 0.45
"""How often an opponent with a pony is expected to skedaddle."""
MINE_COST = 0.8
"""A cowboy sent to the Abandoned Mine: a head back it needs."""
END_STAKE = 25.0
"""What ending the game is worth, won (+) or lost (-)."""
HASTEN = 2.0
"""What bringing the end one rail nearer is worth when the seat wants the game to end (and
costs when it does not); a poster from the Crime Pool counts a quarter of it."""
LATE_MONEY = 40
"""Past this much money per player on the table, every bot wants the game to end (so that bots
content with the standings never play on forever)."""
NO_STATION = (0.8, 0.75, 0.65, 0.55, 0.45)
"""The chance that the game ends without the Train Station, by rails laid."""


@functools.cache
def _hits(dice: int, wounds: int) -> tuple[float, float, float]:
    """``dice`` shots in a row at a cowboy with ``wounds`` (stopping at its death): the chances
    that it ends with 0 or 1 wound, or dead."""
    kill, wound, _miss = 1 / 6, 1 / 2, 1 / 3
    if dice == 0:
        return (1.0, 0.0, 0.0) if wounds == 0 else (0.0, 1.0, 0.0)
    if wounds == 0:
        a, b, c = _hits(dice - 1, 0)
        d, e, f = _hits(dice - 1, 1)
        return (_miss * a, _miss * b + wound * e, _miss * c + wound * f + kill)
    d, e, f = _hits(dice - 1, 1)
    return (0.0, _miss * e, _miss * f + kill + wound)


@functools.cache
def fight_odds(attacker: int, defender: int) -> tuple[float, float, float, float]:
    """A shootout between ``attacker`` and ``defender`` dice (the default die: 1 skull, 3 wounds,
    2 blanks; summary, Shootouts): the chances that the attacker wins (the defender dies), the
    defender wins, both die, both survive.

    >>> [round(100 * p) for p in fight_odds(2, 2)]  # NOTES.md's table
    [31, 31, 18, 20]
    """
    kill, wound, miss = 1 / 6, 1 / 2, 1 / 3
    diff = abs(attacker - defender)
    rounds = min(attacker, defender)
    first = _hits(diff, 0)  # the side with fewer dice takes the difference first
    probs = [0.0, 0.0, 0.0, 0.0]  # attacker wins, defender wins, both, none
    weak_dead = 0 if attacker > defender else 1  # who dies in the first phase
    if diff:
        probs[weak_dead] += first[2]
    # simultaneous rounds: states (attacker wounds, defender wounds) -> chance
    states: dict[tuple[int, int], float] = {}
    for w, p in ((0, first[0]), (1, first[1])):
        if p:
            key = (0, w) if attacker > defender else (w, 0)
            states[key] = states.get(key, 0.0) + p
    shot = ((kill, "dead"), (wound, "wound"), (miss, "miss"))
    for _ in range(rounds):
        nxt: dict[tuple[int, int], float] = {}
        for (aw, dw), p in states.items():
            for pa, ea in shot:  # the attacker's shot at the defender
                for pd, ed in shot:  # the defender's shot at the attacker
                    q = p * pa * pd
                    d_dead = ea == "dead" or (ea == "wound" and dw == 1)
                    a_dead = ed == "dead" or (ed == "wound" and aw == 1)
                    if d_dead and a_dead:
                        probs[2] += q
                    elif d_dead:
                        probs[0] += q
                    elif a_dead:
                        probs[1] += q
                    else:
                        key = (aw + (ed == "wound"), dw + (ea == "wound"))
                        nxt[key] = nxt.get(key, 0.0) + q
        states = nxt
    probs[3] += sum(states.values())
    return (probs[0], probs[1], probs[2], probs[3])


ESTIMATE_SCALE = 4.0
"""Dollars of final-score difference that make a pair's estimated odds ``e : 1``."""


class DeadwoodTownStrategy:
    """Chooses a Deadwood action from a view and the legal actions (see the module docstring).

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
        action in order; :meth:`choose` plays the best (all 0 in a phase it has no rule for)."""
        handler = _HANDLERS.get(view.phase)
        return handler(_Ctx(view, seat), legal) if handler is not None else [0.0] * len(legal)

    def estimate(self, view: Any, seat: int) -> float:
        """``seat``'s chance to win from ``view``: the chance to beat every opponent, each pair by
        a logistic on the difference of their final scores if the game ended now
        (:attr:`_Ctx.finals`), :data:`ESTIMATE_SCALE` dollars wide (:func:`bots.heuristic.beat_all_chance`);
        with fitted weights (:mod:`bots.estimates`), the logistic regression on :func:`estimate_features`."""
        finals = _Ctx(view, seat).finals
        fitted = chance("deadwood_town", len(view.players), _features(view, seat, finals))
        if fitted is not None:
            return fitted
        return beat_all_chance(finals, seat, ESTIMATE_SCALE)


ESTIMATE_FEATURES = ("finals_vs_best", "finals_vs_mean", "finals_vs_best_x_progress")
"""The names of :func:`estimate_features`, in order."""


def estimate_features(view: Any, seat: int) -> list[float]:
    """What the fitted estimate reads from ``seat``'s view (:data:`ESTIMATE_FEATURES`): the final
    scores if the game ended now (:attr:`_Ctx.finals`) against the best other player's and the
    others' mean, in units of $4, the first also times the railroad's progress (rails laid over
    rails in all)."""
    return _features(view, seat, _Ctx(view, seat).finals)


def _features(view: Any, seat: int, finals: list[float]) -> list[float]:
    """:func:`estimate_features` from the final scores already worked out."""
    others = [v for p, v in enumerate(finals) if p != seat]
    if not others:
        return [0.0] * len(ESTIMATE_FEATURES)
    best = finals[seat] - max(others)
    mean = finals[seat] - sum(others) / len(others)
    progress = min(1.0, max(0.0, view.rails / max(1, view.rails_total)))
    return [best / 4, mean / 4, best * progress / 4]


class _Board:
    """What the heuristic reads from a view's plots, worked out once per plots tuple.

    Attributes:
        kind: the building on each plot id (``""``: none); ``occ`` the cowboys there.
        controllers: for each building kind held alone by a cowboy, the owner (the first such
            plot in plot order).
    """

    __slots__ = ("_mine_at", "_spots", "controllers", "kind", "occ", "placed", "plots")

    def __init__(self, plots: tuple[Any, ...]) -> None:
        self.plots = plots
        self.kind: dict[str, str] = {}
        self.occ: dict[str, tuple[Any, ...]] = {}
        self.controllers: dict[str, int] = {}
        self.placed: list[tuple[str, Any]] = []
        """Every cowboy in town with its plot id, in plot order."""
        for p in plots:
            pid, building, here = p.id, p.building, p.cowboys
            self.kind[pid] = building
            self.occ[pid] = here
            if here:
                if len(here) == 1 and building not in self.controllers:
                    self.controllers[building] = int(here[0].owner)
                for c in here:
                    self.placed.append((pid, c))
        self._mine_at: dict[int, dict[str, int]] = {}
        self._spots: list[tuple[str, str, str, str]] | None = None

    def sheriff_spots(self) -> list[tuple[str, str, str, str]]:
        """The Sheriff intersections that touch a building, with their three plot ids."""
        if self._spots is None:
            kind = self.kind
            self._spots = [(iid, a, b, c) for iid, (a, b, c) in INTERSECTIONS.items() if kind[a] or kind[b] or kind[c]]
        return self._spots

    def mine_at(self, seat: int) -> dict[str, int]:
        """The plot ids where ``seat`` has a cowboy, with its strength."""
        found = self._mine_at.get(seat)
        if found is None:
            found = self._mine_at[seat] = {pid: c.strength for pid, c in self.placed if c.owner == seat}
        return found


BOARD_CACHE = 1024
"""How many plots tuples :func:`_board` remembers."""
_BOARDS: dict[int, _Board] = {}


def _board(plots: tuple[Any, ...]) -> _Board:
    """The :class:`_Board` of a view's plots, cached by the tuple's identity (the view builder
    shares the plots tuple between views of the same board; the cache holds the tuple, so its id
    is not reused while it is cached); at most :data:`BOARD_CACHE` are kept."""
    board = _BOARDS.get(id(plots))
    if board is None or board.plots is not plots:
        if len(_BOARDS) >= BOARD_CACHE:
            _BOARDS.clear()
        board = _BOARDS[id(plots)] = _Board(plots)
    return board


class _Ctx:
    """One decision: the seat's situation, read from the view once (each part when first needed).

    Attributes:
        kind: the building on each plot id (``""``: none); ``occ`` the cowboys there.
        mine_at: the plot ids where the seat has a cowboy, with its strength.
        weight: what a dollar of an opponent counts for the seat (``1 / (players - 1)``).
        finals: each player's final score if the game ended now (money less posters; the Stage
            Depot's holder gets its $10 times the chance that the game ends without the station).

    What a decision asks several times (each building's annex, the Sheriff's and General
    Store's options, a shootout's stakes) is worked out once and kept for the decision.
    """

    def __init__(self, view: Any, seat: int) -> None:
        self.view = view
        self.me = seat
        self.n = len(view.players)
        self.others = [p for p in range(self.n) if p != seat]
        self.weight = 1.0 / max(1, self.n - 1)
        self.players = view.players
        self.me_view = view.players[seat]
        self.rails: int = view.rails
        self.pool: int = view.crime_pool
        self.office = view.sheriffs_office
        self._annex: dict[tuple[str, str], float] = {}
        self._leader = -2
        self._cheapest = 0
        self._sheriff: dict[str, list[tuple[str, float]]] = {}
        self._gs: dict[tuple[str, int, int], list[tuple[str, float]]] = {}
        self._gs_plots: list[tuple[str, str, tuple[int, ...], bool]] | None = None
        self._sheriff_plots: dict[str, float] | None = None
        self._attack: dict[tuple[str, Any], tuple[str, int, int, float, float, float, float, float, float]] = {}
        self._no_station: float = NO_STATION[min(self.rails, 4)]
        self._hotel: float = 2.0 * max(0, 4 - self.rails) * 0.6 + 4.0 * 0.4

    @lazy
    def board(self) -> _Board:
        """The tables of the view's plots (:func:`_board`)."""
        return _board(self.view.plots)

    @lazy
    def kind(self) -> dict[str, str]:
        """The building on each plot id (``""``: none)."""
        return self.board.kind

    @lazy
    def occ(self) -> dict[str, tuple[Any, ...]]:
        """The cowboys on each plot id."""
        return self.board.occ

    @lazy
    def mine_at(self) -> dict[str, int]:
        """The plot ids where the seat has a cowboy, with its strength."""
        return self.board.mine_at(self.me)

    @lazy
    def protected(self) -> frozenset[str]:
        """The plot ids the Sheriff protects."""
        return frozenset(self.view.protected)

    @lazy
    def finals(self) -> list[float]:
        """Each player's final score if the game ended now (see the class docstring)."""
        depot = self.controller("stage_depot")
        return [
            pl.money - pl.posters + (10 * NO_STATION[min(self.rails, 4)] if pl.seat == depot else 0)
            for pl in self.players
        ]

    @lazy
    def best_other(self) -> float:
        """The best opponent's final score."""
        return max(self.finals[p] for p in self.others)

    @lazy
    def lead(self) -> float:
        """The seat's final score less the best opponent's (positive: it leads)."""
        return self.finals[self.me] - self.best_other

    @lazy
    def hasten(self) -> float:
        """How much the seat wants the game to end: 1 when it leads by $5 or more, -1 when it
        trails as much; once the game has run long, more and more for everyone."""
        late = sum(pl.money for pl in self.players) / self.n - LATE_MONEY
        return 1.0 + late / 5 if late > 0 else max(-1.0, min(1.0, self.lead / 5))

    # ------------------------------------------------------------ the table

    def controller(self, kind: str) -> int:
        """Who holds a building of ``kind`` alone (-1: nobody)."""
        return self.board.controllers.get(kind, -1)

    def leader(self, candidates: list[int] | None = None) -> int:
        """The opponent with the best final score (among ``candidates``)."""
        if candidates is None:
            if self._leader == -2:
                self._leader = max(self.others, key=lambda p: (self.finals[p], -p))
            return self._leader
        return max(candidates, key=lambda p: (self.finals[p], -p))

    def living(self, seat: int) -> int:
        return int(self.players[seat].living)

    def end_value(self, gain: float = 0.0, others_gain: float = 0.0) -> float:
        """What ending the game now is worth, with ``gain`` more for the seat and ``others_gain``
        more for the best opponent: :data:`END_STAKE` if the seat wins, minus it if not."""
        return END_STAKE if self.lead + gain - others_gain > 0 else -END_STAKE

    def poster_cost(self) -> float:
        """What taking a wanted poster from the Crime Pool costs: $1 at the end, plus the end
        of the game when it is the last one (or nearly: others may take the last)."""
        if self.pool <= 0:
            return 0.0
        if self.pool == 1:
            return 1.0 - self.end_value(-1.0)
        return 1.0 - 0.25 * HASTEN * self.hasten

    # ------------------------------------------------------------ values

    def keep(self, strength: int, plot: str) -> float:
        """The chance that a cowboy of ``strength`` on ``plot`` keeps it."""
        if plot in self.protected:
            return 1.0
        return KEEP[strength]

    def hold_value(self, kind: str, strength: int, plot: str, owner: int | None = None) -> float:
        """What holding the building (its control) is still worth to ``owner`` (default: the seat)."""
        if kind not in _HOLDING:
            return 0.0
        owner = self.me if owner is None else owner
        keep = 1.0 if plot in self.protected else KEEP[strength]
        if kind == "stage_depot":
            return 10.0 * self._no_station * keep
        if kind == "hotel":
            return self._hotel * keep
        if kind == "undertaker":
            return 0.3 * self.n * keep
        if kind == "sheriffs_office":
            return 0.25 * self.n * keep
        if kind == "laundry":
            return 0.4 if self.players[owner].posters else 0.1
        return 0.0

    def annex_value(self, kind: str, plot: str) -> float:
        """What annexing ``kind`` (on ``plot``) is worth to the seat now, in relative dollars
        (worked out once per decision)."""
        key = (kind, plot)
        value = self._annex.get(key)
        if value is None:
            value = self._annex[key] = self._annex_value(kind, plot)
        return value

    def _annex_value(self, kind: str, plot: str) -> float:
        me = self.me_view
        w = self.weight
        if kind == "bank":
            return 5.0 - self.poster_cost()
        if kind == "gunsmith":
            carts: int = min(2, self.view.cartridge_supply)
            return 1.0 + carts * (CARTRIDGE if me.cartridges < 3 else 0.2)
        if kind == "blacksmith":
            return 1.0 + (PONY if me.ponies < 2 and self.view.pony_supply else 0.1)
        if kind == "casino":
            victim = self.leader()
            return 1.0 + (1.0 if self.players[victim].money > 0 else 0.0) * max(w, 0.6)
        if kind == "general_store":
            return 1.0 + max(0.0, max(map(_SECOND, self.gs_options(plot)), default=0.0))
        if kind == "hotel":
            return 2.0
        if kind in ("laundry", "undertaker"):
            return 1.0
        if kind == "stage_depot":
            return 2.0 + 0.6
        if kind in ("saloon", "saloon_x"):
            return max((self.hire_value(s) for s in (1, 2, 3) if me.unhired[s - 1]), default=0.0)
        if kind == "gold_mine":
            return 11 / 6
        if kind == "fortune_teller":
            return 1.1
        if kind == "courthouse":
            mine: int = min(me.money, me.posters)
            theirs: int = sum(min(self.players[p].money, self.players[p].posters) for p in self.others)
            return theirs * w - mine
        if kind == "grifter":
            values = sorted((v for _a, v in self.grift_options()), reverse=True)[:2]
            return 1.0 + sum(max(0.0, v) for v in values)
        if kind == "newspaper":
            return 1.0 + (1.0 + max(w, 0.6) if me.posters else 0.0)
        if kind == "dance_hall":
            back = sorted((self.return_value(p, s) for p, s in self.own_cowboys()), reverse=True)[:2]
            return 1.0 + sum(max(0.0, v) for v in back)
        if kind == "telegraph_office":
            return 1.0 + max(self.telegraph_value(True), self.telegraph_value(False), 0.0)
        if kind == "church":
            laundries = sum(1 for pid, s in self.mine_at.items() if self.kind[pid] == "laundry")
            return float(min(me.posters, 1 + laundries))
        if kind == "sheriffs_office":
            return 0.3 + max(map(_SECOND, self.sheriff_options(plot)), default=0.0)
        if kind == "town_hall":
            return self.town_hall_value(plot)
        return 0.0

    def hire_value(self, strength: int) -> float:
        """Hiring a cowboy of ``strength`` (it goes to the Abandoned Mine)."""
        if self.me_view.money < HIRE_COST[strength]:
            return -1.0
        return HIRE[strength] - HIRE_COST[strength]

    def own_cowboys(self) -> list[tuple[str, int]]:
        """The seat's cowboys out of the Ranch as ``(place, strength)``: in town, then in the Mine."""
        out = list(self.mine_at.items())
        for s in (1, 2, 3):
            out.extend([(MINE, s)] * self.me_view.mine[s - 1])
        return out

    def return_value(self, place: str, strength: int) -> float:
        """Bringing the seat's cowboy at ``place`` back to the Ranch (a head back or Dance Hall)."""
        if place == MINE:
            return HEAD_BACK + 0.1  # nothing to lose there
        kind = self.kind.get(place, "")
        return HEAD_BACK - self.hold_value(kind, strength, place)

    def telegraph_value(self, add: bool) -> float:
        """The Telegraph Office: add two posters to the Crime Pool (prolong) or remove two (hasten)."""
        if add:
            return 0.5 if self.lead <= 0 else -0.3
        if self.pool <= 2:
            return self.end_value()
        return 0.5 if self.lead > 0 else -0.5

    def town_hall_value(self, plot: str) -> float:
        """Annexing the Town Hall: a returned poster, the next rail (the Hotel's $2, a building
        destroyed, the bonus annexes next to it) and new buildings; or the Train Station."""
        me = self.me_view
        if self.rails >= 4:
            payout = max((5 * self.station_neighbors(pid) for pid in self.station_plots()), default=0)
            hotel = 4 if self.controller("hotel") == self.me else 0
            return payout + hotel + self.end_value(payout + hotel - (10 * NO_STATION[4] if self.depot_mine() else 0))
        value = 1.0 if me.posters else 0.0
        route = RAIL_ROUTE[self.rails]
        w = self.weight
        hotel = self.controller("hotel")
        if hotel == self.me:
            value += 2.0
        elif hotel >= 0:
            value -= 2.0 * w
        for c in self.occ[route]:
            kind = self.kind[route]
            if c.owner == self.me:
                value -= self.hold_value(kind, c.strength, route) + MINE_COST
            else:
                value += w * (self.hold_value(kind, c.strength, route, c.owner) + MINE_COST)
        for q in NEIGHBORS[route]:
            kind = self.kind[q]
            here = self.occ[q]
            if not kind or kind in ("town_hall", "train_station") or len(here) != 1:
                continue
            if here[0].owner == self.me:
                value += max(0.0, self.annex_value(kind, q)) if kind != "general_store" else 1.5
            else:
                value -= w * BASE.get(kind, 1.0)
        return value + 0.3 + HASTEN * self.hasten

    def depot_mine(self) -> bool:
        return self.controller("stage_depot") == self.me

    def station_plots(self) -> list[str]:
        """Where the Train Station may go: open red-row plots, else red-row buildings."""
        open_plots = [pid for pid in RED_ROW if not self.kind[pid] and not self.is_rail(pid)]
        return open_plots or [pid for pid in RED_ROW if self.kind[pid]]

    def is_rail(self, pid: str) -> bool:
        return bool(self.view.plots[COMP.plot_index[pid]].rail)

    def station_neighbors(self, pid: str) -> int:
        """Buildings next to ``pid`` (what the Train Station there pays $5 each for)."""
        return sum(1 for q in NEIGHBORS[pid] if self.kind[q])

    def sheriff_options(self, office: str = "") -> list[tuple[str, float]]:
        """Each Sheriff intersection (touching a building) and what protecting its plots is worth
        (worked out once per decision and ``office``)."""
        found = self._sheriff.get(office)
        if found is None:
            found = self._sheriff[office] = self._sheriff_options(office)
        return found

    def _sheriff_worth(self, pid: str, mine: bool) -> float:
        """What protecting the building on ``pid`` adds to an intersection's worth (0 if it adds
        nothing; ``mine``: the seat holds it or is about to)."""
        kind = self.kind[pid]
        here = self.occ[pid]
        if mine and kind != "church":
            s = self.mine_at.get(pid, 3)
            return 0.5 + self.hold_value(kind, s, pid) * (1 - KEEP[s])
        if here and kind != "church":
            return -(0.3 * self.weight)
        if not here:
            return 0.15
        return 0.0

    def _sheriff_options(self, office: str) -> list[tuple[str, float]]:
        # the worths are never -0.0, so adding 0.0 for a plot that adds nothing changes no sum
        worth = self._sheriff_plots
        if worth is None:
            mine_at = self.mine_at
            worth = self._sheriff_plots = {
                pid: self._sheriff_worth(pid, pid in mine_at) if kind else 0.0 for pid, kind in self.kind.items()
            }
        if self.kind.get(office):
            worth = dict(worth)
            worth[office] = self._sheriff_worth(office, True)
        return [(iid, 0.0 + worth[a] + worth[b] + worth[c]) for iid, a, b, c in self.board.sheriff_spots()]

    def grift_options(self) -> list[tuple[Any, float]]:
        """Each opponent cowboy on a building and what sending it to the Mine is worth."""
        out = []
        leader = self.leader()
        for pid, here in self.occ.items():
            for c in here:
                if c.owner == self.me:
                    continue
                lead = 1.5 if c.owner == leader else 1.0
                hold = self.hold_value(self.kind[pid], c.strength, pid, c.owner)
                out.append(((pid, c.owner, c.strength), self.weight * lead * (MINE_COST + hold) + 0.1))
        return out

    def gs_options(self, store: str) -> list[tuple[tuple[str, int, int, str], float]]:
        """General Store moves (cowboy's plot, owner, strength, destination) and their worth."""
        out = []
        for src, here in self.occ.items():
            for c in here:
                if src == store and c.owner == self.me:
                    continue
                for dest, value in self.gs_destinations(src, c.owner, c.strength):
                    out.append(((src, c.owner, c.strength, dest), value))
        return out

    def gs_destinations(self, src: str, owner: int, strength: int) -> list[tuple[str, float]]:
        """Where the General Store may move ``owner``'s cowboy from ``src``, and what each is worth
        (worked out once per decision and cowboy)."""
        key = (src, owner, strength)
        found = self._gs.get(key)
        if found is None:
            found = self._gs[key] = self._gs_destinations(src, owner, strength)
        return found

    def _gs_targets(self) -> list[tuple[str, str, tuple[int, ...], bool]]:
        """The plots the General Store may move a cowboy to, whoever's: ``(plot, building, owners
        of the cowboys there, a shootout follows)``, in plot order."""
        targets = self._gs_plots
        if targets is None:
            targets = self._gs_plots = []
            for dest, kind in self.kind.items():
                if not kind or kind == "train_station":
                    continue
                here = self.occ[dest]
                if here and dest in self.protected and kind != "church":
                    continue
                targets.append((dest, kind, tuple(c.owner for c in here), bool(here) and kind != "church"))
        return targets

    def _gs_destinations(self, src: str, owner: int, strength: int) -> list[tuple[str, float]]:
        out = []
        src_kind = self.kind[src]
        w = self.weight
        mine = owner == self.me
        hold = self.hold_value
        src_hold = hold(src_kind, strength, src, owner)
        stays = 0.3 * BASE.get(src_kind, 1.0)
        for dest, kind, owners, fight in self._gs_targets():
            if dest == src or owner in owners:
                continue
            dest_hold = hold(kind, strength, dest, owner) if kind in _HOLDING else 0.0
            if mine:
                value = dest_hold - src_hold
                if fight:
                    value -= 3.0
            else:
                value = w * (src_hold - dest_hold)
                value += stays if not fight else 0.0
                if fight:
                    value -= 3.0
            out.append((dest, value))
        return out

    # ------------------------------------------------------------ shootouts

    def shootout_value(self, strength: int, plot: str, defender: Any) -> float:
        """Attacking ``defender`` (a cowboy) on ``plot`` with the seat's ``strength`` cowboy."""
        key = (plot, defender)
        found = self._attack.get(key)
        if found is None:
            found = self._attack[key] = self._attack_stakes(plot, defender)
        kind, my_cart, their_cart, worth, took, kill, bonus, skedaddle, poster = found
        w = self.weight
        aw, dw, both, none = fight_odds(strength + my_cart, defender.strength + their_cart)
        won = worth + self.hold_value(kind, strength, plot)
        lost = COWBOY[strength]
        if self.living(self.me) == 1:
            lost += max(0.0, -self.end_value(0.0))
        stand = (
            aw * (won + took + kill + bonus)
            + dw * (-lost + bonus)
            + both * (kill - lost + took + 2 * bonus)
            + none * (-MINE_COST)
        )
        value = -poster - CARTRIDGE * my_cart * (1 - skedaddle)
        value += skedaddle * (won + took + w * PONY) + (1 - skedaddle) * stand
        return value

    def _attack_stakes(
        self, plot: str, defender: Any
    ) -> tuple[str, int, int, float, float, float, float, float, float]:
        """What attacking ``defender`` on ``plot`` puts at stake whatever the attacker's strength
        (:meth:`shootout_value`; worked out once per decision and plot)."""
        me = self.me_view
        opp = self.players[defender.owner]
        kind = self.kind[plot]
        w = self.weight
        my_cart = 1 if me.cartridges > 0 else 0
        their_cart = 1 if opp.cartridges > 0 else 0
        worth = max(0.0, self.annex_value(kind, plot))
        took = w * (self.hold_value(kind, defender.strength, plot, defender.owner) + MINE_COST)
        kill = w * COWBOY[defender.strength]
        if self.living(defender.owner) == 1:  # the defender's last cowboy: the game ends
            kill += 0.5 * self.end_value(0.0)
        undertaker = self.controller("undertaker")
        bonus = 1.0 if undertaker == self.me else -w if undertaker >= 0 else 0.0
        skedaddle = SKEDADDLE_CHANCE if opp.ponies > 0 else 0.0
        return kind, my_cart, their_cart, worth, took, kill, bonus, skedaddle, self.poster_cost()

    def defend_values(self) -> tuple[float, float]:
        """As the defender: (skedaddle, stand) worth, the attacker's cartridge still unknown."""
        fight = self.view.shootout
        attacker, defender, plot = fight.attacker, fight.defender, fight.plot
        att = self.players[attacker.owner]
        a_dice = attacker.strength + (1 if att.cartridges > 0 else 0)
        d_dice = defender.strength + (1 if self.me_view.cartridges > 0 else 0)
        aw, dw, both, none = fight_odds(a_dice, d_dice)
        kind = self.kind[plot]
        hold = self.hold_value(kind, defender.strength, plot) + BASE.get(kind, 1.0) * self.weight
        lost = COWBOY[defender.strength]
        if self.living(self.me) == 1:
            lost += max(0.0, -self.end_value(0.0))
        kill = self.weight * COWBOY[attacker.strength]
        stand = aw * (-lost - hold) + dw * kill + both * (kill - lost - hold) + none * 0.0
        stand -= CARTRIDGE if self.me_view.cartridges > 0 else 0.0
        skedaddle = -PONY - hold - MINE_COST
        return skedaddle, stand

    def cartridge_values(self) -> tuple[float, float]:
        """(use, keep) worth of a cartridge in the shootout under way."""
        fight = self.view.shootout
        attacker, defender = fight.attacker, fight.defender
        attacking = attacker.owner == self.me
        if attacking:
            opp = self.players[defender.owner]
            their = 1 if opp.cartridges > 0 else 0
            stake_me, stake_them = COWBOY[attacker.strength] + 3.0, COWBOY[defender.strength]

            def p_win(use: int) -> float:
                aw, dw, both, _n = fight_odds(attacker.strength + use, defender.strength + their)
                return aw * (stake_me + stake_them) - dw * stake_me + both * (stake_them - stake_me)

        else:
            theirs = 1 if fight.attacker_cartridge else 0
            stake_me, stake_them = COWBOY[defender.strength] + 2.0, COWBOY[attacker.strength]

            def p_win(use: int) -> float:
                aw, dw, both, _n = fight_odds(attacker.strength + theirs, defender.strength + use)
                return dw * (stake_me + stake_them) - aw * stake_me + both * (stake_them - stake_me)

        return p_win(1) - CARTRIDGE, p_win(0)


# ---------------------------------------------------------------------------- decisions


def _turn(ctx: _Ctx, legal: list[Any]) -> list[float]:
    """Hit the Town where it pays most, or Head Back (the cowboy that holds least first)."""
    scores = []
    hits = any(type(a) is A.HitTheTown for a in legal)
    seen: dict[str, tuple[str, Any, float, bool, float]] = {}  # what each plot's actions share
    cheapest = _cheapest(ctx)
    hold = ctx.hold_value
    for action in legal:
        if type(action) is A.HitTheTown:
            plot, strength = action.plot, action.strength
            found = seen.get(plot)
            if found is None:
                found = seen[plot] = _hit_plot(ctx, plot)
            kind, here, toll, free, worth = found
            if free:
                value = worth + hold(kind, strength, plot)
                value -= STRENGTH_COST * (strength - cheapest)
                scores.append(value - toll)
            else:
                scores.append(ctx.shootout_value(strength, plot, here[0]) - toll)
        else:
            value = ctx.return_value(action.place, action.strength)
            scores.append(value if not hits else value - 0.2)
    return scores


def _hit_plot(ctx: _Ctx, plot: str) -> tuple[str, Any, float, bool, float]:
    """What sending any of the seat's cowboys to ``plot`` shares: the building, the cowboys
    there, the toll, whether it is free to annex (no shootout) and then the annex's worth."""
    kind = ctx.kind[plot]
    here = ctx.occ[plot]
    toll = 0.0
    if plot in ctx.protected and ctx.office not in (-1, ctx.me):
        toll = 1.0 + ctx.weight
    if kind == "church" or not here:
        return kind, here, toll, True, max(0.0, ctx.annex_value(kind, plot))
    return kind, here, toll, False, 0.0


def _cheapest(ctx: _Ctx) -> int:
    """The weakest strength in the seat's Ranch (1 if it is empty); worked out once per decision."""
    if not ctx._cheapest:
        ranch = ctx.me_view.ranch
        ctx._cheapest = next((s for s in (1, 2, 3) if ranch[s - 1]), 1)
    return ctx._cheapest


def _head_back(ctx: _Ctx, legal: list[Any]) -> list[float]:
    """Head back every cowboy that holds nothing worth keeping; then stop."""
    return [0.0 if type(a) is A.Finish else ctx.return_value(a.place, a.strength) for a in legal]


def _annex(ctx: _Ctx, legal: list[Any]) -> list[float]:
    pending = ctx.view.pending
    value = ctx.annex_value(ctx.kind[pending.plot], pending.plot)
    return [value if type(a) is A.Annex else 0.0 for a in legal]


def _skedaddle(ctx: _Ctx, legal: list[Any]) -> list[float]:
    skedaddle, stand = ctx.defend_values()
    return [skedaddle if type(a) is A.Skedaddle else stand for a in legal]


def _cartridge(ctx: _Ctx, legal: list[Any]) -> list[float]:
    use, keep = ctx.cartridge_values()
    return [use if a.use else keep for a in legal]


def _steal(ctx: _Ctx, legal: list[Any]) -> list[float]:
    rich = [a.seat for a in legal if ctx.players[a.seat].money > 0]
    target = ctx.leader(rich) if rich else -1
    return [1.0 if a.seat == target else 0.0 for a in legal]


def _give_poster(ctx: _Ctx, legal: list[Any]) -> list[float]:
    target = ctx.leader([a.seat for a in legal])
    return [1.0 if a.seat == target else 0.0 for a in legal]


def _gs_pick(ctx: _Ctx, legal: list[Any]) -> list[float]:
    store = ctx.view.pending.plot
    best: dict[tuple[str, int, int], float] = {}
    for (src, owner, strength, _dest), value in ctx.gs_options(store):
        key = (src, owner, strength)
        best[key] = max(best.get(key, -1e9), value)
    return [best.get((a.plot, a.owner, a.strength), -1e9) for a in legal]


def _gs_move(ctx: _Ctx, legal: list[Any]) -> list[float]:
    pending = ctx.view.pending
    c = pending.cowboy
    values = dict(ctx.gs_destinations(pending.source, c.owner, c.strength))
    return [values.get(a.plot, -1e9) for a in legal]


def _grift(ctx: _Ctx, legal: list[Any]) -> list[float]:
    values = {key: v for key, v in ctx.grift_options()}
    return [0.0 if type(a) is A.Finish else values.get((a.plot, a.owner, a.strength), 0.0) for a in legal]


def _dance(ctx: _Ctx, legal: list[Any]) -> list[float]:
    return [0.0 if type(a) is A.Finish else ctx.return_value(a.place, a.strength) for a in legal]


def _telegraph(ctx: _Ctx, legal: list[Any]) -> list[float]:
    return [ctx.telegraph_value(a.add) for a in legal]


def _look(ctx: _Ctx, legal: list[Any]) -> list[float]:
    """Look at the biggest stack (the one whose order matters longest)."""
    sizes = {s.stack: s.size for s in ctx.view.stacks}
    return [sizes.get(a.stack, 0) + (0.5 if a.stack == "1" else 0.0) for a in legal]


def _arrange(ctx: _Ctx, legal: list[Any]) -> list[float]:
    """The Fortune Teller keeps the order (nothing to gain that the bot can count)."""
    return [1.0 if type(a) is A.Finish else 0.0 for a in legal]


def _hire(ctx: _Ctx, legal: list[Any]) -> list[float]:
    return [ctx.hire_value(a.strength) for a in legal]


def _sheriff(ctx: _Ctx, legal: list[Any]) -> list[float]:
    values = dict(ctx.sheriff_options())
    return [values.get(a.intersection, 0.0) for a in legal]


def _station(ctx: _Ctx, legal: list[Any]) -> list[float]:
    return [float(ctx.station_neighbors(a.plot)) for a in legal]


def _choose_tile(ctx: _Ctx, legal: list[Any]) -> list[float]:
    return [BASE.get(a.building, 1.0) for a in legal]


def _build(ctx: _Ctx, legal: list[Any]) -> list[float]:
    """Not on a plot the rail will take; next to the bot's cowboys' rails-to-be (bonus annexes)."""
    doomed = set(RAIL_ROUTE[ctx.rails :])
    scores = []
    for a in legal:
        value = -2.0 if a.plot in doomed else 0.0
        value -= 0.2 if a.plot in RED_ROW else 0.0
        scores.append(value)
    return scores


def _stage_stack(ctx: _Ctx, legal: list[Any]) -> list[float]:
    """The stack whose tiles are worth most on average."""
    contents = {s.stack: s.contents for s in ctx.view.stacks}
    return [sum(BASE.get(k, 1.0) for k in contents[a.stack]) / max(1, len(contents[a.stack])) for a in legal]


_HANDLERS = {
    "turn": _turn,
    "head_back": _head_back,
    "annex": _annex,
    "skedaddle": _skedaddle,
    "cartridge": _cartridge,
    "steal": _steal,
    "give_poster": _give_poster,
    "gs_pick": _gs_pick,
    "gs_move": _gs_move,
    "grift": _grift,
    "dance": _dance,
    "telegraph": _telegraph,
    "look": _look,
    "arrange": _arrange,
    "hire": _hire,
    "sheriff": _sheriff,
    "station": _station,
    "choose_tile": _choose_tile,
    "build": _build,
    "stage_stack": _stage_stack,
}
