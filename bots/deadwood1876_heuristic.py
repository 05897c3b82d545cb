"""A hand-written Deadwood 1876 strategy that reads only the seat's view.

The bot plays like a careful person at the table:

* **Guard the gold.** Its own Safes are always known to it: a Gold 3 or 4 (or a strong Showdown
  Gun) is defended with a strong gun; a Badge or a weak Safe is let go with a weak gun, which
  cycles a poor card for a fresh one.
* **Save strong guns for the Showdown.** Every card has a keep value (its gun's average roll,
  weighted more as the end nears, plus its item's use). Playing a card costs its keep value less
  the value of the average card drawn to replace it, so Pepperboxes are spent freely and
  Messengers and Winchesters are kept unless the stake is worth it.
* **Rob what is worth robbing.** A Robbery scores the chance to win (the attacker's die against
  an unknown defending gun, plus any attached Holster) times the Safe's value: known Gold and
  Showdown Guns first, unknown Safes at their expected value. Stetsons are used early to learn
  where the gold is; Dusters when the hand is poor.
* **Position for the end.** On the final turns and in the Badge Round, every action is scored by
  an estimate of the chance to win the game: each establishment's gold (known Safes exactly,
  unknown ones at the mean and variance of the Safes nobody has seen) decides who advances, and
  the Showdown strength (Showdown Guns plus the hand) decides who survives it. So the bot rides or
  duels into the richest establishment, or kicks rivals out of its own, whichever wins more.
* **Team play.** The players in its establishment are its team: it gives them Holsters against
  rivals, gives them its worst Safe under the Third Law when it can, and explodes the richest
  Safe of a rival establishment.

All choices are deterministic given the seed (the bot's random source only breaks exact ties).

Speed (the bot plays whole games inside a search): what depends only on the game's progress and
the unseen Safes (keep values, Safe values, the unknown Safes' statistics) and the end-of-game
model's standings are cached between decisions in bounded ``lru_cache`` tables; within a decision
each chance to win, Robbery target and Duel outcome is worked out once, however many actions
share it. The arithmetic is the same, in the same order, so the scores and moves are too.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from bots.estimates import chance
from bots.heuristic import best_index, lazy
from engine.deadwood1876 import actions as A
from engine.deadwood1876.components import BADGE, DUSTER, GOLD, HOLSTER, HORSE, MYSTERY, SHOWDOWN_GUN, STETSON
from engine.deadwood1876.components import components as _components

__all__ = ["Deadwood1876Strategy"]

COMP = _components()
NUM_GUNS = len(COMP.gun_faces)
GUN_MEAN = tuple(sum(f) / len(f) for f in COMP.gun_faces)
CARD_GUN = COMP.card_gun
CARD_ITEM = COMP.card_item
CARD_WHITE = COMP.card_white
AVG_GUN = sum(GUN_MEAN[g] for g in CARD_GUN) / len(CARD_GUN)
"""The mean gun roll of a card drawn at random."""

_sorted_means = sorted(GUN_MEAN[g] for g in CARD_GUN)
DRAW_QUANTILES = tuple(_sorted_means[int(len(_sorted_means) * q)] for q in (0.125, 0.375, 0.625, 0.875))
"""Four 'typical' random draws (for a Duster), as gun means."""


class SafeInfo:
    """What a Safe label means: kind, gold, Showdown Gun, Badge order, Mystery id."""

    __slots__ = ("label", "kind", "gold", "gun", "badge", "mystery")

    def __init__(self, label: str, kind: str, gold: int, gun: int, badge: int, mystery: str) -> None:
        self.label = label
        self.kind = kind
        self.gold = gold
        self.gun = gun
        self.badge = badge
        self.mystery = mystery


SAFES: dict[str, SafeInfo] = {}
BASE_POOL: Counter[str] = Counter()
for _s in range(len(COMP.safe_kind)):
    _label = COMP.safe_label(_s)
    _kind = COMP.safe_kind[_s]
    SAFES[_label] = SafeInfo(
        _label,
        _kind,
        COMP.safe_gold[_s] if _kind == GOLD else 0,
        COMP.safe_gun[_s],
        COMP.safe_badge_order[_s],
        COMP.safe_ids[_s] if _kind == MYSTERY else "",
    )
    if _kind != MYSTERY:
        BASE_POOL[_label] += 1

MYSTERY_VALUE = {
    "mystery_cash": 3.0,
    "mystery_explosives": 1.0,
    "mystery_dagger": 0.5,
    "mystery_poker_deck": 0.2,
    "mystery_bad_sarsaparilla": -0.6,
}

SHOWDOWN_BETA = 1.6
"""Logistic slope of the Showdown win chance per pip of expected roll difference."""

GUN_WEIGHT = (0.6, 0.45)
"""A card's gun counts ``a + b * progress`` gold units per pip of its average roll."""

POSITION_WEIGHT = 0.2
"""Before the final turns, how much a Horse or Duel's gain in the chance to win (as the position
stands now) counts: positions still change a lot before the end."""

FINAL_SCALE = 10.0
"""How many 'gold units' a whole chance to win is worth, when mixing the two kinds of score."""


# ---------------------------------------------------------------------------- dice


@cache
def _dist(guns: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """The distribution of the sum of the dice of ``guns``."""
    dist = {0: 1.0}
    for g in guns:
        faces = COMP.gun_faces[g]
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for f in faces:
                nxt[total + f] = nxt.get(total + f, 0.0) + p / len(faces)
        dist = nxt
    return tuple(sorted(dist.items()))


@cache
def beats(attack: tuple[int, ...], defend: tuple[int, ...]) -> float:
    """Chance that dice ``attack`` beat dice ``defend`` (ties rerolled)."""
    gt = lt = 0.0
    for a, pa in _dist(attack):
        for d, pd in _dist(defend):
            if a > d:
                gt += pa * pd
            elif a < d:
                lt += pa * pd
    return gt / (gt + lt) if gt + lt > 0 else 0.5


@cache
def attack_odds(gun: int, extra: tuple[int, ...] = ()) -> float:
    """Chance that ``gun`` beats a defender who answers with a gun of unknown strength (each gun
    equally likely) plus the dice ``extra`` (an attached Holster)."""
    return sum(beats((gun,), (d, *extra)) for d in range(NUM_GUNS)) / NUM_GUNS


@cache
def heist_odds(gun: int, rivals: int) -> float:
    """Chance that ``gun`` wins a Heist against ``rivals`` guns of unknown strength (a tie for the
    top is shared evenly, as the rerolls roughly do)."""
    if rivals <= 0:
        return 1.0
    below: dict[int, float] = {}
    equal: dict[int, float] = {}
    for v, _ in _dist((gun,)):
        lo = eq = 0.0
        for d in range(NUM_GUNS):
            for w, p in _dist((d,)):
                if w < v:
                    lo += p / NUM_GUNS
                elif w == v:
                    eq += p / NUM_GUNS
        below[v], equal[v] = lo, eq
    total = 0.0
    for v, p in _dist((gun,)):
        for j in range(rivals + 1):
            total += p * math.comb(rivals, j) * equal[v] ** j * below[v] ** (rivals - j) / (j + 1)
    return total


SQRT2 = math.sqrt(2.0)


@lru_cache(maxsize=4096)
def _strength(means: tuple[float, ...]) -> float:
    """:func:`hand_strength`, cached."""
    return hand_strength(means)


def hand_strength(means: Sequence[float]) -> float:
    """A hand's Showdown strength: the mean roll of its guns, the strongest (played first) weighted most."""
    if not means:
        return AVG_GUN * 0.5
    ordered = sorted(means, reverse=True)
    w, num, den = 1.0, 0.0, 0.0
    for m in ordered:
        num += w * m
        den += w
        w *= 0.6
    return num / den


# ---------------------------------------------------------------------------- the strategy


class Deadwood1876Strategy:
    """Chooses a Deadwood 1876 action from a view and the legal actions (see the module docstring).

    Args:
        seed: seeds the random source that breaks exact ties.
    """

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: Any, legal: list[Any], seat: int) -> Any:
        """One of ``legal``."""
        if len(legal) == 1:
            return legal[0]
        if _HANDLERS.get(view.phase) is None:
            return legal[0]
        return legal[best_index(self.scores(view, legal, seat), self._random.random, digits=9)]

    def scores(self, view: Any, legal: list[Any], seat: int) -> list[float]:
        """How the strategy rates each of ``legal`` (never empty), higher better, one float per
        action in order; :meth:`choose` plays the best (all 0 in a phase it has no rule for)."""
        handler = _HANDLERS.get(view.phase)
        if handler is None:
            return [0.0] * len(legal)
        return handler(_Ctx(view, seat), legal)

    def estimate(self, view: Any, seat: int) -> float:
        """``seat``'s chance to win from ``view`` by the end-of-game model (:class:`_Model`): who
        advances on establishment gold, times the chance to survive the Showdown; in ``[0, 1]``;
        with fitted weights (:mod:`bots.estimates`), recalibrated by the logistic regression on
        :func:`estimate_features`."""
        ctx = _Ctx(view, seat)
        win = ctx.model.win()
        fitted = chance("deadwood1876", len(view.players), _features(ctx, win))
        return win if fitted is None else fitted


ESTIMATE_FEATURES = ("model_logit", "model_logit_x_progress")
"""The names of :func:`estimate_features`, in order."""


def estimate_features(view: Any, seat: int) -> list[float]:
    """What the fitted estimate reads from ``seat``'s view (:data:`ESTIMATE_FEATURES`): the
    end-of-game model's chance to win as log-odds against the fair share (clipped to
    ``[0.001, 0.999]``), and the same times the game's progress (0 at the start, 1 in the final
    turns)."""
    ctx = _Ctx(view, seat)
    return _features(ctx, ctx.model.win())


def _features(ctx: _Ctx, win: float) -> list[float]:
    """:func:`estimate_features` from the model's chance already worked out."""
    p = min(0.999, max(0.001, win))
    logit = math.log(p / (1 - p)) - math.log(1 / max(1, ctx.n - 1))
    return [logit, logit * ctx.progress]


ZERO_STAT = (0.0, 0.0, 0.0)
LABEL_STAT: dict[str, tuple[float, float, float]] = {
    label: (
        (float(info.gold), 0.0, 0.0)
        if info.kind == GOLD
        else (0.0, 0.0, GUN_MEAN[info.gun])
        if info.kind == SHOWDOWN_GUN
        else ZERO_STAT
    )
    for label, info in SAFES.items()
}
"""A known Safe's (gold mean, gold variance, Showdown strength) for the end-of-game model."""

SARSAPARILLA = frozenset(label for label, info in SAFES.items() if info.mystery == "mystery_bad_sarsaparilla")
"""The labels whose worth to their owner depends on the owner's Showdown Guns."""


@lru_cache(maxsize=4096)
def _pool_stats(
    known: tuple[str, ...], heist: str | None
) -> tuple[tuple[tuple[str, int], ...], int, float, float, float]:
    """The Safes nobody has seen, given the ``known`` labels in every row and the Heist Safe:
    ``(label, count)`` pairs in :data:`BASE_POOL` order, their count, and their gold mean, gold
    variance and mean Showdown Gun strength (per Safe)."""
    seen: dict[str, int] = {}
    for label in known:
        seen[label] = seen.get(label, 0) + 1
    if heist:
        seen[heist] = seen.get(heist, 0) + 1
    pool = tuple([(label, max(0, k - seen.get(label, 0))) for label, k in BASE_POOL.items()])
    count = sum([k for _, k in pool])
    if count <= 0:
        pool, count = tuple(BASE_POOL.items()), sum(BASE_POOL.values())
    golds = [SAFES[lab].gold for lab, k in pool for _ in range(k)]  # as Counter.elements()
    u_gold = sum(golds) / count
    u_var = sum((g - u_gold) ** 2 for g in golds) / count
    u_sg = sum(GUN_MEAN[SAFES[lab].gun] for lab, k in pool for _ in range(k) if SAFES[lab].kind == SHOWDOWN_GUN) / count
    return pool, count, u_gold, u_var, u_sg


@lru_cache(maxsize=1024)
def _keep_table(
    w_gun: float, stetson: float, horse: float, duster: float, holster: float
) -> tuple[tuple[float, ...], float]:
    """Every card's keep value (gun weight ``w_gun``, the items' values) and their mean."""
    item_value = {STETSON: stetson, HORSE: horse, DUSTER: duster, HOLSTER: holster}
    keeps = tuple(w_gun * GUN_MEAN[CARD_GUN[c]] + item_value[CARD_ITEM[c]] for c in range(len(CARD_GUN)))
    return keeps, sum(keeps) / len(CARD_GUN)


@lru_cache(maxsize=1024)
def _safe_table(sg_weight: float, badge_round: bool, current: int, progress: float) -> dict[str, float]:
    """Every known label's worth to its owner (Bad Sarsaparilla as to anyone else), given the
    Showdown Gun weight, the Badge Round and its current Badge's order, and the game's progress.
    Shared between calls: never modify it."""
    table: dict[str, float] = {}
    for label, info in SAFES.items():
        if info.kind == GOLD:
            value = float(info.gold)
        elif info.kind == SHOWDOWN_GUN:
            value = sg_weight * GUN_MEAN[info.gun]
        elif info.kind == BADGE:
            if badge_round:
                value = 1.5 if info.badge > current else 0.0
            else:
                value = 0.5 + 0.15 * info.badge + 0.5 * progress
        else:
            value = MYSTERY_VALUE.get(info.mystery, 0.0)
        table[label] = value
    return table


@lru_cache(maxsize=4096)
def _pool_value(pool: tuple[tuple[str, int], ...], count: int, table_key: tuple[float, bool, int, float]) -> float:
    """The mean worth of an unknown Safe: the ``pool`` at :func:`_safe_table` of ``table_key``."""
    table = _safe_table(*table_key)
    return sum(table[lab] * k for lab, k in pool) / count


class _Ctx:
    """Everything a decision needs, worked out from the view at its first use (the parts that
    depend only on the game's progress and the unseen Safes are cached between decisions)."""

    def __init__(self, view: Any, seat: int) -> None:
        self.view = view
        self.me = seat
        self.n = len(view.players)
        table = COMP.player_counts[self.n]
        self.table = table
        self.figures = (*view.players, view.stranger) if view.stranger is not None else tuple(view.players)
        self.m = len(self.figures)
        self.est = tuple([f.establishment for f in self.figures])
        self.my_est = self.est[seat]
        circles = table.circles_per_segment
        if self.n <= 3 and len(view.establishments) == 3:  # the prototype rules: one circle per Heist
            circles = 1
        total_turns = circles * (table.middle_safes + 1)
        self.total_turns = total_turns
        self.endgame = view.phase in ("dagger", "explosives", "poker_deck", "showdown", "over")
        self.badge_round = view.circle == 0 and not self.endgame
        self.final = bool(view.final_turns) or self.badge_round or self.endgame
        self.progress = 1.0 if self.final else max(0.0, 1.0 - view.turns_left / total_turns)
        self.hand = view.hand
        self.hand_ids = [c.id for c in self.hand]
        self.my_safes = self.figures[seat].safes
        self.sg_weight = 0.8 + 0.2 * self.progress
        self._model: _Model | None = None
        self._my_min: float | None = None
        self._robbery: dict[tuple[int, int], float] = {}
        self._duels: dict[tuple[int, int], list[Base]] = {}
        self._best_duel: dict[int, float] = {}

    @lazy
    def capacity(self) -> int:
        """Stars an establishment holds."""
        view = self.view
        return view.establishments[0].capacity if view.establishments else self.table.capacity

    @lazy
    def est_ids(self) -> list[int]:
        """The establishments in play."""
        return [e.id for e in self.view.establishments]

    # ------------------------------------------------------------ values

    @lazy
    def _unknown(self) -> tuple[tuple[tuple[str, int], ...], int, float, float, float]:
        """:func:`_pool_stats` of this view."""
        known = sorted([s.contents for f in self.figures for s in f.safes if s.contents is not None])
        return _pool_stats(tuple(known), self.view.heist_safe)

    @lazy
    def u_gold(self) -> float:
        """The gold mean of an unknown Safe."""
        return self._unknown[2]

    @lazy
    def u_var(self) -> float:
        """The gold variance of an unknown Safe."""
        return self._unknown[3]

    @lazy
    def u_sg(self) -> float:
        """The mean Showdown Gun strength of an unknown Safe."""
        return self._unknown[4]

    @lazy
    def _keeps(self) -> tuple[tuple[float, ...], float]:
        """:func:`_keep_table` at this point of the game."""
        p = self.progress
        w_gun = 1.0 if self.badge_round else GUN_WEIGHT[0] + GUN_WEIGHT[1] * p
        if self.endgame:
            return _keep_table(w_gun, 0.0, 0.0, 0.0, 0.0)
        left_frac = 0.0 if self.final else min(1.0, self.view.turns_left / self.total_turns)
        attach = self.table.holster_mode != "assist"
        return _keep_table(
            w_gun,
            0.1 + 0.45 * left_frac,
            0.2 + 0.5 * p,
            0.25 if not self.final else 0.15,
            0.2 if attach else 0.3,
        )

    @lazy
    def keeps(self) -> tuple[float, ...]:
        """Every card's keep value (:meth:`keep`)."""
        return self._keeps[0]

    @lazy
    def avg_keep(self) -> float:
        """The mean keep value of a card drawn at random."""
        return self._keeps[1]

    @lazy
    def _table_key(self) -> tuple[float, bool, int, float]:
        """The arguments of :func:`_safe_table` at this point of the game."""
        current = 0
        if self.badge_round:
            current = SAFES[self.view.badge].badge if self.view.badge in SAFES else 0
        return (self.sg_weight, self.badge_round, current, self.progress)

    @lazy
    def values(self) -> dict[str, float]:
        """:func:`_safe_table` at this point of the game (shared: never modify it)."""
        return _safe_table(*self._table_key)

    @lazy
    def u_value(self) -> float:
        """The worth of an unknown Safe."""
        pool, count = self._unknown[:2]
        return _pool_value(pool, count, self._table_key)

    def keep(self, card: int) -> float:
        """How much holding ``card`` is worth."""
        return self.keeps[card]

    def cost(self, card: int) -> float:
        """What playing ``card`` (and drawing a random replacement) loses."""
        return self.keeps[card] - self.avg_keep

    def safe_value(self, label: str | None, owner_is_me: bool = True) -> float:
        """A Safe's worth to its owner, in gold units (``None``: an unknown Safe)."""
        if label is None:
            return self.u_value
        if owner_is_me and label in SARSAPARILLA:
            best = max((GUN_MEAN[SAFES[s.contents].gun] for s in self.my_safes if _is_sg(s.contents)), default=0.0)
            return -0.4 - self.sg_weight * best
        return self.values.get(label, 0.0)

    def safe_values(self, row: Sequence[Any]) -> list[float]:
        """:meth:`safe_value` of each Safe in ``row`` (0 for a revealed one)."""
        return [self.safe_value(s.contents) if not s.revealed else 0.0 for s in row]

    def gain_value(self, label: str | None) -> float:
        """The worth of gaining a Safe, the Third Law included (over the limit, the worst goes)."""
        value = self.safe_value(label)
        if not self.badge_round and len(self.my_safes) >= COMP.safe_limit:
            low = self._my_min
            if low is None:
                low = self._my_min = min(self.safe_values(self.my_safes))
            return max(0.0, value - low) if value > low else 0.0
        return value

    def hand_means(self, without: int = -1, draws: int = 1) -> list[float]:
        """The hand's gun means after playing card ``without`` and drawing ``draws`` average cards."""
        out = [GUN_MEAN[CARD_GUN[c]] for c in self.hand_ids]
        if without >= 0 and without in self.hand_ids:
            out.pop(self.hand_ids.index(without))
            out.extend([AVG_GUN] * draws)
        return out

    def is_team(self, figure: int) -> bool:
        return figure != self.me and self.est[figure] == self.my_est

    @property
    def model(self) -> _Model:
        if self._model is None:
            self._model = _Model(self)
        return self._model


def _is_sg(label: str | None) -> bool:
    return label is not None and label in SAFES and SAFES[label].kind == SHOWDOWN_GUN


def _defender_extra(ctx: _Ctx, owner: int, index: int) -> tuple[int, ...]:
    """The attached Holster's gun joining a defence of that Safe (or character card, index -1)."""
    fig = ctx.figures[owner]
    holster = fig.holster if index < 0 else fig.safes[index].holster
    return (CARD_GUN[holster.id],) if holster is not None else ()


# ---------------------------------------------------------------------------- the end-of-game model


Move = tuple[int, int, tuple[float, float, float]]
"""A Safe moved from one figure to another (-1: out of play), with its :data:`LABEL_STAT`."""

Base = tuple[float, tuple[float, ...], float]
"""The hand-free part of a chance to win (:meth:`_Model.base`): the chance to advance, each rival's
Showdown strength plus :data:`AVG_GUN`, this seat's Showdown Guns' strength."""


@lru_cache(maxsize=8192)
def _standing(
    est: tuple[int, ...], mu: tuple[float, ...], var: tuple[float, ...], sg: tuple[float, ...], me: int
) -> Base:
    """:meth:`_Model.base` from each figure's establishment, gold mean and variance and Showdown
    Guns' strength (cached: the same standings recur from decision to decision)."""
    gold: dict[int, float] = {}
    spread: dict[int, float] = {}
    count: dict[int, int] = {}
    for e, g, v in zip(est, mu, var, strict=True):
        if e in count:
            gold[e] += g
            spread[e] += v
            count[e] += 1
        else:  # as 0.0 + g, the sums' start
            gold[e] = 0.0 + g
            spread[e] = 0.0 + v
            count[e] = 1
    mine = est[me]
    advance = 1.0
    for e in gold:
        if e == mine:
            continue
        if count[mine] < count[e]:
            delta = 0.5
        elif count[mine] > count[e]:
            delta = -0.5
        else:
            delta = 0.0
        z = (gold[mine] - gold[e] + delta) / math.sqrt(spread[mine] + spread[e] + 0.35)
        advance *= 0.5 * (1.0 + math.erf(z / SQRT2))  # the normal distribution's CDF at z
    rivals = tuple([s + AVG_GUN for f, (e, s) in enumerate(zip(est, sg, strict=True)) if f != me and e == mine])
    return advance, rivals, sg[me]


Stat = tuple[float, float, float]
"""A Safe's (gold mean, gold variance, Showdown strength) in the end-of-game model."""


@lru_cache(maxsize=4096)
def _row_stats(contents: tuple[str | None, ...], unknown: Stat) -> tuple[tuple[Stat, ...], float, float, float]:
    """A row of Safes in the end-of-game model: each Safe's :data:`Stat` (``unknown`` for an unknown
    one, ``None``) and the row's sums of each."""
    row = tuple([unknown if label is None else LABEL_STAT.get(label, ZERO_STAT) for label in contents])
    if not row:  # as sum([]) is
        return row, 0, 0, 0
    golds, spreads, guns = zip(*row, strict=True)
    return row, sum(golds), sum(spreads), sum(guns)


class _Model:
    """Estimates the chance to win from a position: who advances (establishment gold, known Safes
    exactly and unknown ones at the pool's mean and variance) times the chance to survive the
    Showdown (Showdown Guns plus the hand).

    :meth:`win` remembers its answers for the decision (a handler asks the same question for many
    actions: every card's Robbery of the same Safe, say)."""

    def __init__(self, ctx: _Ctx) -> None:
        self.ctx = ctx
        rows = [tuple([safe.contents for safe in figure.safes]) for figure in ctx.figures]
        unknown = ZERO_STAT
        if any(None in contents for contents in rows):
            unknown = (ctx.u_gold, ctx.u_var, ctx.u_sg)
        self.stats: list[tuple[Stat, ...]] = []
        self.mu: list[float] = []
        self.var: list[float] = []
        self.sg: list[float] = []
        for contents in rows:
            row, mu, var, sg = _row_stats(contents, unknown if None in contents else ZERO_STAT)
            self.stats.append(row)
            self.mu.append(mu)
            self.var.append(var)
            self.sg.append(sg)
        me = ctx.me
        if "Bad Sarsaparilla" in [s.contents for s in ctx.my_safes]:
            best = max((GUN_MEAN[SAFES[s.contents].gun] for s in ctx.my_safes if _is_sg(s.contents)), default=0.0)
            self.sg[me] -= best
        self.hand = _strength(tuple(ctx.hand_means()))
        self._wins: dict[Any, float] = {}
        self._bases: dict[Any, Base] = {}

    def win(
        self,
        est: Sequence[int] | None = None,
        moves: Sequence[Move] = (),
        hand: float | None = None,
        gold_delta: float = 0.0,
        sg_delta: float = 0.0,
    ) -> float:
        """The chance to win with stars at ``est``, Safes moved by ``moves`` (``(from, to, stat)``,
        ``-1`` for out of play), the hand's Showdown strength ``hand``, plus ``gold_delta`` gold and
        ``sg_delta`` Showdown strength for this seat."""
        key = (None if est is None else tuple(est), tuple(moves), gold_delta, sg_delta)
        full = (key, hand)
        result = self._wins.get(full)
        if result is None:
            result = self._wins[full] = self.finish(self.base(*key), hand)
        return result

    def base(
        self,
        est: tuple[int, ...] | None = None,
        moves: tuple[Move, ...] = (),
        gold_delta: float = 0.0,
        sg_delta: float = 0.0,
    ) -> Base:
        """The part of :meth:`win` that does not depend on the hand (remembered for the decision)."""
        key = (est, moves, gold_delta, sg_delta)
        base = self._bases.get(key)
        if base is None:
            base = self._bases[key] = self._base(*key)
        return base

    def finish(self, base: Base, hand: float | None) -> float:
        """:meth:`win` from its :meth:`base` and the hand's Showdown strength (``None``: as it is)."""
        advance, rivals, mine_sg = base
        if not rivals:
            return advance
        mine_strength = mine_sg + (self.hand if hand is None else hand)
        total = 1.0
        for s in rivals:
            total += math.exp(SHOWDOWN_BETA * (s - mine_strength))
        return advance / total

    def _base(self, est: tuple[int, ...] | None, moves: tuple[Move, ...], gold_delta: float, sg_delta: float) -> Base:
        """The hand-free part of :meth:`win`: the chance to advance, each rival's Showdown strength
        plus :data:`AVG_GUN` (for the rivals in this seat's establishment), this seat's Showdown
        Guns' strength."""
        ctx = self.ctx
        me = ctx.me
        est = ctx.est if est is None else est
        mu, var, sg = self.mu, self.var, self.sg
        if moves or gold_delta or sg_delta:
            mu, var, sg = list(mu), list(var), list(sg)
            for src, dst, (g, v, s) in moves:
                if src >= 0:
                    mu[src] -= g
                    var[src] -= v
                    sg[src] -= s
                if dst >= 0:
                    mu[dst] += g
                    var[dst] += v
                    sg[dst] += s
            mu[me] += gold_delta
            sg[me] += sg_delta
        return _standing(tuple(est), tuple(mu), tuple(var), tuple(sg), me)


# ---------------------------------------------------------------------------- phase handlers


def _pass_safe(ctx: _Ctx, legal: list[Any]) -> list[float]:
    row = ctx.my_safes
    return [-ctx.safe_value(row[a.index].contents) for a in legal]


def _give_to_stranger(ctx: _Ctx, legal: list[Any]) -> list[float]:
    row = ctx.my_safes
    out = []
    for a in legal:
        label = row[a.index].contents
        gold = SAFES[label].gold if label in SAFES else 0
        out.append(-ctx.safe_value(label) - 0.3 * gold)
    return out


def _discard(ctx: _Ctx, legal: list[Any]) -> list[float]:
    return [-ctx.keep(a.card) for a in legal]


def _view_safe(ctx: _Ctx, legal: list[Any]) -> list[float]:
    out = []
    for a in legal:
        fig = ctx.figures[a.owner]
        safe = fig.safes[a.index]
        if safe.contents is not None:
            out.append(-10.0)
            continue
        score = 1.0
        if ctx.est[a.owner] != ctx.my_est:
            score += 0.3 * ctx.progress
        if a.owner < ctx.n and len(fig.safes) >= COMP.safe_limit:
            score += 0.1
        out.append(score)
    return out


def _choose_holster(ctx: _Ctx, legal: list[Any]) -> list[float]:
    return [GUN_MEAN[CARD_GUN[a.card]] for a in legal]


def _fire_gun(ctx: _Ctx, legal: list[Any]) -> list[float]:
    return [GUN_MEAN[CARD_GUN[a.card]] for a in legal]


def _heist(ctx: _Ctx, legal: list[Any]) -> list[float]:
    value = ctx.gain_value(ctx.view.heist_safe)
    if ctx.view.middle_safes == 0:
        info = SAFES.get(ctx.view.heist_safe or "")
        if info is not None and info.kind == GOLD:
            value += 0.5 * info.gold
    rivals = ctx.n - 1
    return [heist_odds(CARD_GUN[a.card], rivals) * value - ctx.cost(a.card) for a in legal]


@lru_cache(maxsize=256)
def _typical_draws(keeps: tuple[float, ...]) -> tuple[float, ...]:
    """Four 'typical' random draws (for a Duster), as keep values, from every card's keep value."""
    draws = sorted(keeps)
    return tuple(draws[int(len(draws) * q)] for q in (0.125, 0.375, 0.625, 0.875))


def _duster_gain(ctx: _Ctx, card: int) -> float:
    """Expected change of the hand's keep value from a Duster (draw four, keep the best)."""
    others = [ctx.keep(c) for c in ctx.hand_ids]
    others.remove(ctx.keep(card))
    before = sum(ctx.keep(c) for c in ctx.hand_ids)
    kept = sorted(others + list(_typical_draws(ctx.keeps)), reverse=True)[: len(ctx.hand_ids)]
    return sum(kept) - before


def _robbery_value(ctx: _Ctx, owner: int, index: int) -> float:
    """The worth of taking that Safe (mid-game, in gold units; remembered for the decision)."""
    value = ctx._robbery.get((owner, index))
    if value is None:
        value = ctx._robbery[owner, index] = _robbery_worth(ctx, owner, index)
    return value


def _robbery_worth(ctx: _Ctx, owner: int, index: int) -> float:
    """:func:`_robbery_value`, worked out."""
    safe = ctx.figures[owner].safes[index]
    label = safe.contents
    value = ctx.gain_value(label)
    info = SAFES.get(label or "")
    gold = info.gold if info is not None else ctx.u_gold
    if ctx.est[owner] == ctx.my_est:
        value -= 0.25 * gold * ctx.progress
    else:
        value += 0.25 * gold * ctx.progress
    if label is None:
        value += 0.1
    return value


def _turn_mid(ctx: _Ctx, legal: list[Any]) -> list[float]:
    keeps, avg_keep = ctx.keeps, ctx.avg_keep
    robberies: dict[tuple[int, int], tuple[tuple[int, ...], float]] = {}  # Safe -> (extra dice, worth)
    out = []
    for a in legal:
        kind = type(a)
        if kind is A.Robbery:
            where = (a.owner, a.index)
            target = robberies.get(where)
            if target is None:
                target = robberies[where] = (_defender_extra(ctx, *where), _robbery_value(ctx, *where))
            extra, value = target
            out.append(attack_odds(CARD_GUN[a.card], extra) * value - (keeps[a.card] - avg_keep))
        elif kind is A.UseStetson:
            unknown = sum(1 for f in range(ctx.m) if f != ctx.me for s in ctx.figures[f].safes if s.contents is None)
            views = min(ctx.table.stetson_views, unknown)
            left = min(1.0, ctx.view.turns_left / ctx.total_turns)
            out.append(views * (0.15 + 0.4 * left) - ctx.cost(a.card))
        elif kind is A.UseDuster:
            out.append(_duster_gain(ctx, a.card) - 0.05)
        elif kind is A.AttachHolster:
            out.append(_attach_value(ctx, a) - (keeps[a.card] - avg_keep))
        elif kind is A.RideHorse or kind is A.Duel:
            out.append(-ctx.cost(a.card) - 0.3 + POSITION_WEIGHT * ctx.progress * _position_gain(ctx, a))
        else:
            out.append(-ctx.cost(a.card if kind in _WITH_CARD else -1) - 1.0)
    return out


def _attach_value(ctx: _Ctx, a: A.AttachHolster) -> float:
    if a.owner == ctx.me and a.index >= 0:
        return 0.15 * max(0.0, ctx.safe_value(ctx.my_safes[a.index].contents))
    if a.owner == ctx.me:
        return 0.1 + 0.2 * ctx.progress
    if ctx.is_team(a.owner) and a.index >= 0:
        label = ctx.figures[a.owner].safes[a.index].contents
        return 0.05 * max(0.0, ctx.safe_value(label))
    return -0.2


def _position_gain(ctx: _Ctx, a: Any) -> float:
    """Mid-game: how much an expected move of stars would raise the chance to win now (gold units)."""
    model = ctx.model
    base = model.win()
    if isinstance(a, A.RideHorse):
        est = list(ctx.est)
        est[ctx.me] = a.establishment
        return FINAL_SCALE * (model.win(est) - base)
    p = attack_odds(CARD_GUN[a.card], _defender_extra(ctx, a.target, -1))
    best = ctx._best_duel.get(a.target)
    if best is None:
        best = ctx._best_duel[a.target] = max(_duel_outcomes(ctx, a.target))
    return FINAL_SCALE * p * (best - base)


def _duel_outcomes(ctx: _Ctx, target: int, attacker: int | None = None, hand: float | None = None) -> list[float]:
    """Chances to win after ``attacker`` (default: this seat) beats ``target`` in a Duel: one per
    place the loser may be sent (one value for a swap)."""
    finish = ctx.model.finish
    return [finish(base, hand) for base in _duel_bases(ctx, target, ctx.me if attacker is None else attacker)]


def _duel_bases(ctx: _Ctx, target: int, attacker: int) -> list[Base]:
    """The :meth:`_Model.base` of each outcome of :func:`_duel_outcomes` (remembered for the decision)."""
    bases = ctx._duels.get((target, attacker))
    if bases is not None:
        return bases
    model = ctx.model
    here, there = ctx.est[attacker], ctx.est[target]
    if here != there:
        est = list(ctx.est)
        est[attacker], est[target] = there, here
        bases = [model.base(tuple(est))]
    else:
        bases = []
        for e in ctx.est_ids:
            if e != here and ctx.est.count(e) < ctx.capacity:
                est = list(ctx.est)
                est[target] = e
                bases.append(model.base(tuple(est)))
        if not bases:
            bases = [model.base()]
    ctx._duels[target, attacker] = bases
    return bases


_WITH_CARD = frozenset(
    kind for kind in vars(A).values() if isinstance(kind, type) and "card" in getattr(kind, "__struct_fields__", ())
)
"""The action types that play a card (have a ``card`` field)."""


def _turn_final(ctx: _Ctx, legal: list[Any]) -> list[float]:
    """Final turns and Badge turns: the change in the chance to win, plus a little of the mid-game
    score to break near-ties."""
    model = ctx.model
    finish = model.finish
    now = model.base()
    me = ctx.me
    keeps, avg_keep = ctx.keeps, ctx.avg_keep
    # what playing a card means: the hand's strength after it, the chance to win then, its cost
    cards: dict[int, tuple[float, float, float]] = {}
    # what robbing a Safe means: the defender's extra dice, the position if it works, its worth
    targets: dict[tuple[int, int], tuple[tuple[int, ...], Base, float]] = {}
    # what beating a figure in a Duel means: its extra dice, the positions it may lead to
    duels: dict[int, tuple[tuple[int, ...], list[Base]]] = {}
    limit = not ctx.badge_round and len(ctx.my_safes) >= COMP.safe_limit
    worst_stat = None
    if limit:
        vals = ctx.safe_values(ctx.my_safes)
        worst_stat = model.stats[me][vals.index(min(vals))]
    out = []
    for a in legal:
        kind = type(a)
        has_card = kind in _WITH_CARD
        card = a.card if has_card else -1
        known = cards.get(card)
        if known is None:
            h = _strength(tuple(ctx.hand_means(without=card)))
            known = cards[card] = (h, finish(now, h), keeps[card] - avg_keep)
        h, stay, cost = known
        if kind is A.Robbery:
            where = (a.owner, a.index)
            target = targets.get(where)
            if target is None:
                owner, index = where
                stat = model.stats[owner][index]
                moves: tuple[Move, ...] = ((owner, me, stat),)
                if worst_stat is not None:
                    moves += ((me, -1, min(worst_stat, stat)),)
                target = targets[where] = (
                    _defender_extra(ctx, owner, index),
                    model.base(None, moves),
                    _robbery_value(ctx, owner, index),
                )
            extra, (advance, rivals, mine_sg), value = target
            p = attack_odds(CARD_GUN[card], extra)
            if rivals:  # finish(), inline
                mine_strength = mine_sg + h
                total = 1.0
                for strength in rivals:
                    total += math.exp(SHOWDOWN_BETA * (strength - mine_strength))
                advance /= total
            win = p * advance + (1 - p) * stay
            out.append(FINAL_SCALE * win + 0.05 * (p * value - cost))
            continue
        if kind is A.Duel:
            duel = duels.get(a.target)
            if duel is None:
                duel = duels[a.target] = (_defender_extra(ctx, a.target, -1), _duel_bases(ctx, a.target, me))
            p = attack_odds(CARD_GUN[card], duel[0])
            win = p * max([finish(base, h) for base in duel[1]]) + (1 - p) * stay
        elif kind is A.RideHorse:
            est = list(ctx.est)
            est[me] = a.establishment
            win = model.win(est, hand=h)
        elif kind is A.UseDuster:
            means = ctx.hand_means(without=card, draws=0) + list(DRAW_QUANTILES)
            kept = sorted(means, reverse=True)[: len(ctx.hand_ids)]
            win = model.win(hand=hand_strength(kept))
        elif kind is A.AttachHolster:
            win = stay + 0.002 * _attach_value(ctx, a)
        else:
            win = stay
        out.append(FINAL_SCALE * win + 0.05 * (-cost if has_card else 0.0))
    return out


def _turn(ctx: _Ctx, legal: list[Any]) -> list[float]:
    if ctx.final:
        return _turn_final(ctx, legal)
    return _turn_mid(ctx, legal)


def _defend(ctx: _Ctx, legal: list[Any]) -> list[float]:
    fight = ctx.view.fight
    attack = (CARD_GUN[fight.attack_card.id],)
    extra = _defender_extra(ctx, fight.defender, fight.index)
    me = ctx.me
    if ctx.final:
        model = ctx.model
        out = []
        if fight.kind == "robbery":
            stat = model.stats[fight.defender][fight.index]
            lose = [(fight.defender, fight.attacker, stat)]
        for a in legal:
            h = _strength(tuple(ctx.hand_means(without=a.card)))
            keep = 1.0 - beats(attack, (CARD_GUN[a.card], *extra))
            if fight.kind == "robbery":
                lost = model.win(moves=lose, hand=h)
            else:
                outcomes = _duel_outcomes(ctx, fight.defender, attacker=fight.attacker, hand=h)
                lost = sum(outcomes) / len(outcomes)
            win = keep * model.win(hand=h) + (1 - keep) * lost
            out.append(FINAL_SCALE * win - 0.05 * ctx.cost(a.card))
        return out
    if fight.kind == "robbery":
        label = ctx.figures[fight.defender].safes[fight.index].contents
        if fight.defender == me:
            stake = ctx.safe_value(label)
            if not ctx.badge_round and len(ctx.my_safes) <= 1:
                stake += 0.3
        else:  # defending for the Stranger (2 players): the attacker would gain it
            stake = 0.7 * ctx.safe_value(label, owner_is_me=False)
            if ctx.est[fight.defender] == ctx.my_est:
                stake += 0.3 * (SAFES[label].gold if label in SAFES else ctx.u_gold)
    else:
        stake = 0.15 + 0.6 * ctx.progress
    return [(1.0 - beats(attack, (CARD_GUN[a.card], *extra))) * stake - ctx.cost(a.card) for a in legal]


def _holster(ctx: _Ctx, legal: list[Any]) -> list[float]:
    fight = ctx.view.fight
    att, dfd = fight.attacker, fight.defender
    a_dice = (CARD_GUN[fight.attack_card.id],)
    d_card = fight.defend_card
    d_dice: tuple[int, ...] = (CARD_GUN[d_card.id],) if d_card is not None else (2,)
    extra = _defender_extra(ctx, dfd, fight.index)
    d_dice = d_dice + extra
    p_att = beats(a_dice, d_dice)
    # stake: how much this seat gains (in gold units) if the attacker wins rather than the defender
    label = None
    if fight.kind == "robbery":
        label = ctx.figures[dfd].safes[fight.index].contents
    if ctx.final:
        model = ctx.model
        keep_now = model.win()
        if fight.kind == "robbery":
            stat = model.stats[dfd][fight.index]
            if_att = model.win(moves=[(dfd, att, stat)])
        else:
            outcomes = _duel_outcomes(ctx, dfd, attacker=att)
            if_att = sum(outcomes) / len(outcomes)
        stake = FINAL_SCALE * (if_att - keep_now)
    elif fight.kind == "robbery":
        info = SAFES.get(label or "")
        gold = info.gold if info is not None else ctx.u_gold
        worth = max(gold, ctx.safe_value(label, owner_is_me=False) * 0.5)
        team = 0.5 + 0.5 * ctx.progress
        stake = 0.0
        if ctx.is_team(att) and not ctx.is_team(dfd):
            stake = team * worth
        elif ctx.is_team(dfd) and not ctx.is_team(att):
            stake = -team * worth
    else:
        stake = 0.0
    out = []
    for a in legal:
        if isinstance(a, A.NoHolster):
            out.append(0.0)
        elif isinstance(a, A.GiveHolster):
            g = CARD_GUN[a.card]
            if a.fighter == att:
                p = beats((*a_dice, g), d_dice)
            else:
                p = beats(a_dice, (*d_dice, g))
            out.append((p - p_att) * stake - ctx.cost(a.card) - 0.05)
        elif isinstance(a, A.HorseThief):
            value = ctx.gain_value(label)
            g = CARD_GUN[a.card]
            p = beats((g,), a_dice) * beats((g,), d_dice) * 0.8
            out.append(p * value - ctx.cost(a.card) - 0.1)
        else:
            out.append(-1.0)
    return out


def _send_away(ctx: _Ctx, legal: list[Any]) -> list[float]:
    fight = ctx.view.fight
    model = ctx.model
    target = fight.defender if fight is not None else -1
    out = []
    for a in legal:
        if target < 0:
            out.append(0.0)
            continue
        est = list(ctx.est)
        est[target] = a.establishment
        out.append(model.win(est))
    return out


def _give_safe(ctx: _Ctx, legal: list[Any]) -> list[float]:
    row = ctx.my_safes
    out = []
    model = ctx.model if ctx.final or ctx.progress >= 0.7 else None
    for a in legal:
        label = row[a.index].contents
        info = SAFES.get(label or "")
        score = -ctx.safe_value(label)
        gold = info.gold if info is not None else 0
        if ctx.is_team(a.recipient):
            score += 0.3 * gold
            if info is not None and info.kind == SHOWDOWN_GUN:
                score -= 0.3 * GUN_MEAN[info.gun]
            if info is not None and info.mystery == "mystery_bad_sarsaparilla":
                score += 0.3
        else:
            score -= 0.2 * gold * (0.5 + ctx.progress)
        if model is not None:
            stat = model.stats[ctx.me][a.index]
            score = FINAL_SCALE * model.win(moves=[(ctx.me, a.recipient, stat)]) + 0.1 * score
        out.append(score)
    return out


def _dagger(ctx: _Ctx, legal: list[Any]) -> list[float]:
    model = ctx.model
    pep = GUN_MEAN[0]
    return [
        model.win(gold_delta=1.0, sg_delta=-pep) if a.plus_gold else model.win(gold_delta=-1.0, sg_delta=pep)
        for a in legal
    ]


def _explode(ctx: _Ctx, legal: list[Any]) -> list[float]:
    model = ctx.model
    out = []
    for a in legal:
        stat = model.stats[a.owner][a.index]
        out.append(model.win(moves=[(a.owner, -1, stat)]) + 0.001 * stat[0])
    return out


def _poker(ctx: _Ctx, legal: list[Any]) -> list[float]:
    model = ctx.model
    out = []
    for a in legal:
        g = CARD_GUN[a.card]
        h = _strength(tuple(ctx.hand_means(without=a.card)))
        win = 0.0
        for face, p in _dist((g,)):
            win += p * 0.5 * (model.win(hand=h, gold_delta=face) + model.win(hand=h, gold_delta=-face))
        out.append(win)
    return out


_HANDLERS = {
    "pass_safe": _pass_safe,
    "give_to_stranger": _give_to_stranger,
    "turn": _turn,
    "duster": _discard,
    "stetson": _view_safe,
    "defend": _defend,
    "holster": _holster,
    "choose_holster": _choose_holster,
    "send_away": _send_away,
    "give_safe": _give_safe,
    "heist": _heist,
    "showdown": _fire_gun,
    "dagger": _dagger,
    "explosives": _explode,
    "poker_deck": _poker,
}


# ---------------------------------------------------------------------------- measuring


def measure(players: int, games: int, seed: int = 0, options: Any = None) -> dict[str, float]:
    """Play ``games`` seeded games of one heuristic bot against random bots (the heuristic's seat
    rotating with the game number) and count the heuristic's results.

    Returns:
        ``games``, ``wins``, ``losses`` (someone else won), ``no_winner`` (2 players: the Stranger
        advanced alone), ``win_rate``, ``decisions`` (the heuristic's) and ``ms_per_decision``.
    """
    import time

    from bots.base import RandomBot
    from bots.heuristic import HeuristicBot
    from bots.play import play_game

    class _Timed(HeuristicBot):
        elapsed = 0.0
        calls = 0

        def act(self, view: Any, legal_actions: list[Any], seat: int) -> Any:
            start = time.perf_counter()
            try:
                return super().act(view, legal_actions, seat)
            finally:
                _Timed.elapsed += time.perf_counter() - start
                _Timed.calls += 1

    _Timed.elapsed, _Timed.calls = 0.0, 0
    wins = losses = none = 0
    for g in range(games):
        game_seed = seed + g
        hero = g % players
        bots: list[Any] = [RandomBot(game_seed * 1000 + s) for s in range(players)]
        bots[hero] = _Timed(game_seed * 1000 + hero)
        result = play_game("deadwood1876", players, bots, game_seed, options)
        if result.faults[hero]:
            raise AssertionError(f"seed {game_seed}: {result.fault_log}")
        winners = result.outcome.winners
        if hero in winners:
            wins += 1
        elif winners:
            losses += 1
        else:
            none += 1
    calls = max(1, _Timed.calls)
    return {
        "games": games,
        "wins": wins,
        "losses": losses,
        "no_winner": none,
        "win_rate": wins / games if games else 0.0,
        "decisions": _Timed.calls,
        "ms_per_decision": 1000.0 * _Timed.elapsed / calls,
    }
