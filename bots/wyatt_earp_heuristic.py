"""A hand-written Wyatt Earp strategy that reads only the seat's view.

The bot plays like a careful card player at the table. Everything is priced in dollars: for each
Outlaw it reckons what the reward poster would pay it, less what it would pay the others, if the
hand were scored with the capture points (CP) on the table plus what its own hand can still add
(:meth:`_Ctx.outlaw_value`). Every action is valued by how it changes that reckoning:

* **Draw.** The top discard is taken when it improves the hand more than two unknown cards would
  (it takes the place of the hand's least useful card): typically a third card of an Outlaw (a
  set), a card that wins or widens a lead, or a Photo it can use.
* **Meld early, meld whole.** A set goes down as soon as it pays (all the cards of the Outlaw at
  once: the banker pays $1,000 a card less $1,000 per play), first where the poster is rich or
  where the bot leads in CP; cards are added where they win the lead, reach a lead of 5 CP (the
  whole reward) or secure a share, and whenever playing them costs nothing: a card on the table
  is not lost when the hand ends (:data:`PLAY_BONUS`).
* **One Sheriff card a turn, the best one.** Cards that bring cards (Most Wanted!, Wyatt Earp's
  draw and search) come before the melds they complete; a Photo starts or extends an Outlaw; a
  Stagecoach robbery goes on the poster the bot would take; a Hideout covers the group that costs
  the bot most; a Wyatt Earp frees its own group from a Hideout (also out of turn); Most Wanted!
  steals the card that swings a poster. A shot's chance is the share of Outlaw cards (bullet
  holes) among the cards it has not seen.
* **Discard the least useful card**, and not one the next player could take to complete a set or
  extend a group (their known cards and their territory), when another will do.
* **End the hand on its own terms.** Going out (discarding the last card) scores the table as it
  is, so the bot plays down to its last card only when the table pays it more than going on;
  once the supply ran out twice it prolongs the hand only to play the top discard at once.

All choices are deterministic given the seed (the bot's random source only breaks exact ties).

Speed (the bot plays search playouts): what a decision reads of the table and each Outlaw's
projected payout are cached between decisions in bounded ``functools.lru_cache`` tables keyed by
immutable view parts and tuples (pure functions, so the moves are the same as without them); a
decision's context works out the rest once, and only the parts its handler asks for.
"""

from __future__ import annotations

import functools
import math
import operator
import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from bots.estimates import chance
from bots.heuristic import beat_all_chance, best_index, lazy
from engine.wyatt_earp import actions as A
from engine.wyatt_earp.components import (
    BANK_ROBBERY,
    FASTEST_GUN,
    HIDEOUT,
    MOST_WANTED,
    OUTLAW,
    PHOTO,
    STAGECOACH_ROBBERY,
    WYATT_EARP,
)
from engine.wyatt_earp.components import components as _components

__all__ = ["WyattEarpStrategy", "share"]

COMP = _components()
OUTLAWS = len(COMP.outlaw_ids)
NUM_KINDS = len(COMP.kind_type)
KIND_SIZE = tuple(len(cards) for cards in COMP.kind_cards)
"""How many cards of each kind the deck holds."""
K_PHOTO = COMP.kind_of(PHOTO, 0)
"""The kind of Billy the Kid's Photo; Outlaw ``o``'s Photo is ``K_PHOTO + o``."""
K_STAGECOACH = COMP.kind_of(STAGECOACH_ROBBERY, -1)
K_BANK = COMP.kind_of(BANK_ROBBERY, -1)
K_FASTEST = COMP.kind_of(FASTEST_GUN, -1)
K_MOST_WANTED = COMP.kind_of(MOST_WANTED, -1)
K_HIDEOUT = COMP.kind_of(HIDEOUT, -1)
K_WYATT_EARP = COMP.kind_of(WYATT_EARP, -1)
SHOT_KIND = {STAGECOACH_ROBBERY: K_STAGECOACH, BANK_ROBBERY: K_BANK, FASTEST_GUN: K_FASTEST, HIDEOUT: K_HIDEOUT}
KIND_CP = tuple(COMP.card_cp[cards[0]] for cards in COMP.kind_cards)
KIND_REWARD = tuple(COMP.card_reward[cards[0]] for cards in COMP.kind_cards)
OUTLAW_CP = KIND_CP[0]
"""CP of an Outlaw card (2)."""
PHOTO_CP = KIND_CP[K_PHOTO]
FIRST_SET = COMP.first_set_min
CAPTURE = COMP.capture_threshold
MARGIN = COMP.sole_winner_margin
WINDOW = COMP.share_window
FIRST_SHARE = COMP.first_share
OTHER_SHARE = COMP.other_share
HIDEOUT_REWARD = 1000
"""The ``hideout_reward`` option's default (options are not in the view)."""

# ---------------------------------------------------------------------------- weights

READY_WEIGHT = 0.75
"""How much of its CP a card in hand counts for when it can be played (the Outlaw is opened, or
the hand holds a set): it may still be stuck in the hand when the hand ends."""
PAIR_WEIGHT = 0.35
"""The same for two cards of an Outlaw nobody has opened (a third card or someone's set needed)."""
SINGLE_WEIGHT = 0.12
"""The same for a lone card of an Outlaw nobody has opened."""
PHOTO_WAIT_WEIGHT = 0.3
"""A Photo of an Outlaw nobody has opened."""
OPPONENT_WEIGHT = 0.35
"""How much of the CP an opponent's unknown cards may add to an opened Outlaw counts."""
CAPTURE_HOPE = 0.85
"""The chance that an Outlaw short of 8 CP gets captured this hand, at best (times the share of
8 CP it has, counting hands)."""
HOLD = {
    K_STAGECOACH: 1400.0,
    K_BANK: 900.0,
    K_FASTEST: 1100.0,
    K_MOST_WANTED: 900.0,
    K_HIDEOUT: 900.0,
    K_WYATT_EARP: 1000.0,
}
"""What keeping a Sheriff card (not a Photo) for a later turn is worth, early in a hand."""
TAKE_MARGIN = 50.0
"""The top discard must beat the hand's least useful card by this much (so that two bots never
pass the same cards back and forth)."""
TAKE_LIMIT = 2
"""At most this many times one card is taken from the discard stack in one hand."""
PROLONG_LIMIT = 6
"""At most this many top discards taken in one hand to prolong it once the supply ran out twice."""
PLAY_BONUS = 500.0
"""What each Outlaw card played (rather than kept) is worth besides its CP and reward: it can no
longer be lost when the hand ends, and the hand is a card nearer its end."""
DANGER_WEIGHT = 0.6
"""How much of what the next player would gain from our discard counts against it."""


def share(cp: Sequence[float], reward: int) -> list[int]:
    """Pay ``reward`` by ``cp`` (one per seat) as the rulebook's Scoring does, the 8 CP capture
    threshold left out: a lead of 5 takes all; else everyone within 4 CP of the leader (with CP)
    shares, $2,000 to the leaders then $1,000 each in CP order, round after round, a tied group
    paid together or not at all.

    >>> share([9, 5, 4], 8000)  # the rulebook's example 2
    [5000, 3000, 0]
    >>> share([4, 4, 2], 6000)  # example 4
    [2000, 2000, 1000]
    """
    return list(_share(tuple(cp), reward))


@functools.lru_cache(maxsize=1 << 14)
def _share(cp: tuple[float, ...], reward: int) -> tuple[int, ...]:
    """:func:`share`, worked out once per CP column and reward."""
    paid = [0] * len(cp)
    ranked = sorted(cp, reverse=True)
    top = ranked[0]
    if top <= 0:
        return tuple(paid)
    second = ranked[1] if len(ranked) > 1 else 0
    if top - second >= MARGIN:
        paid[list(cp).index(top)] = reward
        return tuple(paid)
    floor = top - WINDOW
    values = sorted({v for v in cp if v >= floor and v > 0}, reverse=True)
    groups = [[seat for seat, v in enumerate(cp) if v == value] for value in values]
    if reward <= 0:
        return tuple(paid)
    for i, group in enumerate(groups):  # the first round: the leaders' first share
        amount = FIRST_SHARE if i == 0 else OTHER_SHARE
        if reward < amount * len(group):
            return tuple(paid)
        for seat in group:
            paid[seat] += amount
        reward -= amount * len(group)
    # the full rounds that follow at once, then the round that stops short
    per_round = OTHER_SHARE * sum(len(group) for group in groups)
    rounds = reward // per_round if reward > 0 else 0
    for group in groups:
        for seat in group:
            paid[seat] += OTHER_SHARE * rounds
    reward -= per_round * rounds
    if reward > 0:
        for group in groups:
            if reward < OTHER_SHARE * len(group):
                return tuple(paid)
            for seat in group:
                paid[seat] += OTHER_SHARE
            reward -= OTHER_SHARE * len(group)
    return tuple(paid)


_KIND = COMP.card_kind
_CARD_ID = operator.attrgetter("id")
_ROLE_OUTLAW, _ROLE_PHOTO, _ROLE_FASTEST = 1, 2, 3
_ROLE = tuple({OUTLAW: _ROLE_OUTLAW, PHOTO: _ROLE_PHOTO, FASTEST_GUN: _ROLE_FASTEST}.get(t, 0) for t in COMP.card_type)
"""Each card id's part in a group: an Outlaw card, a Photo, the Fastest gun, or another (0)."""
_KIND_OF = {(t, o): k for k, (t, o) in enumerate(zip(COMP.kind_type, COMP.kind_outlaw, strict=True))}
"""``COMP.kind_of`` as a table."""


_TERRITORY = operator.attrgetter("territory")
_KNOWN = operator.attrgetter("known")
_REWARD = operator.attrgetter("reward")
_OPENED = operator.attrgetter("opened")
_NO_KINDS = [((0,) * NUM_KINDS,) * n for n in range(8)]
"""No known cards for each seat, by the number of seats."""


class _Table(NamedTuple):
    """What :class:`_Ctx` reads of the territories: per seat and Outlaw (see :func:`_territory`),
    the Fastest gun's ``(seat, outlaw)``, the cards on the table per kind and the counted CP
    columns per Outlaw."""

    cp: tuple[tuple[int, ...], ...]
    printed: tuple[tuple[int, ...], ...]
    hidden: tuple[tuple[bool, ...], ...]
    outlaw_cards: tuple[tuple[int, ...], ...]
    carriers: tuple[tuple[int, ...], ...]
    fastest: tuple[int, int] | None
    seen: tuple[int, ...]
    cols: tuple[tuple[int, ...], ...]


@functools.lru_cache(maxsize=1 << 11)
def _table(territories: tuple[tuple[Any, ...], ...]) -> _Table:
    """:class:`_Table` from every seat's territory, in seat order (cached by the territories: they
    repeat from one decision to the next)."""
    rows = [_territory(territory) for territory in territories]
    cp, printed, hidden, outlaw_cards, carriers, fastest_at, seen = zip(*rows, strict=True)
    fastest = None
    for p, o in enumerate(fastest_at):
        if o >= 0:
            fastest = (p, o)
    total = tuple(map(sum, zip(*seen, strict=True)))
    return _Table(cp, printed, hidden, outlaw_cards, carriers, fastest, total, tuple(zip(*cp, strict=True)))


@functools.lru_cache(maxsize=1 << 11)
def _territory(
    territory: tuple[Any, ...],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...], tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]:
    """What :class:`_Ctx` reads of one player's territory, per Outlaw: the counted CP, the printed
    CP, a Hideout on the group, its Outlaw cards, its Outlaw cards and Photo; then the Outlaw of
    the Fastest gun there (-1: none) and the cards per kind, Hideouts included (cached by
    territory: territories repeat from one decision to the next)."""
    cp = [0] * OUTLAWS
    printed = [0] * OUTLAWS
    hidden = [False] * OUTLAWS
    outlaw_cards = [0] * OUTLAWS
    carriers = [0] * OUTLAWS
    fastest = -1
    seen = [0] * NUM_KINDS
    for group in territory:
        o = group.outlaw
        cp[o] = group.cp
        printed[o] = group.printed_cp
        if group.hideout is not None:
            hidden[o] = True
            seen[K_HIDEOUT] += 1
        for card in group.cards:
            c = card.id
            seen[_KIND[c]] += 1
            role = _ROLE[c]
            if role == _ROLE_OUTLAW:
                outlaw_cards[o] += 1
                carriers[o] += 1
            elif role == _ROLE_PHOTO:
                carriers[o] += 1
            elif role == _ROLE_FASTEST:
                fastest = o
    return tuple(cp), tuple(printed), tuple(hidden), tuple(outlaw_cards), tuple(carriers), fastest, tuple(seen)


def _unseen(
    table: tuple[int, ...],
    known: Sequence[tuple[int, ...]],
    hand: tuple[int, ...],
    discard: tuple[int, ...],
    pending: int,
) -> tuple[tuple[int, ...], int, float]:
    """The cards per kind the seat has not seen, given those it has seen per kind (on the table,
    known in other hands, in its hand, in the discard stack as it knows it, and the ``pending``
    kind, -1 for none); their number (at least 1); and the chance that a shot hits (the top
    supply card is an Outlaw card)."""
    seen = list(map(operator.add, table, map(operator.add, hand, discard)))
    for row in known:
        seen = list(map(operator.add, seen, row))
    if pending >= 0:
        seen[pending] += 1
    unseen = tuple([d if d > 0 else 0 for d in map(operator.sub, KIND_SIZE, seen)])
    total = sum(unseen)
    unseen_total = max(1, total)
    hit = sum(unseen[:OUTLAWS]) / unseen_total if total else 49 / 78
    return unseen, unseen_total, hit


_HAND_SIZE = operator.attrgetter("hand_size")
_OTHERS = [[[p for p in range(n) if p != seat] for seat in range(n)] for n in range(8)]
"""The seats other than ``seat``, by the number of seats and ``seat``."""
_START_SUPPLY = [max(1, len(COMP.card_type) - COMP.hand_size * n - 1) for n in range(8)]
"""The supply after the deal (at least 1), by the number of seats."""
_LACKS = operator.attrgetter("lacks")


def _opponent_columns(
    me: int,
    cp: Sequence[Sequence[int]],
    hidden: Sequence[Sequence[bool]],
    known: Sequence[Sequence[int]],
    hand_sizes: Sequence[int],
    lacks: Sequence[Sequence[int]],
    unseen: Sequence[int],
    unseen_total: int,
    opened: Sequence[bool],
) -> tuple[tuple[tuple[float, ...], tuple[int, ...]], ...]:
    """Per Outlaw, the CP each seat's unknown cards may still add to it (a rough guess, 0 for
    ``me``), where the opponent has a group or known cards (elsewhere, a fraction of a card would
    make the opponent a sharer it is not); and each seat's known cards of it."""
    out = [[0.0] * OUTLAWS for _ in range(len(cp))]
    for p in range(len(cp)):
        if p == me:
            continue
        row_known = known[p]
        unknown = max(0, hand_sizes[p] - sum(row_known))
        row_cp, row_hidden, row_lacks, row = cp[p], hidden[p], lacks[p], out[p]
        for o in range(OUTLAWS):
            if row_hidden[o] or not (row_cp[o] or row_known[o]):
                continue
            guess = 0.0 if o in row_lacks else unknown * unseen[o] / unseen_total
            cards = row_known[o] + guess
            if opened[o]:
                row[o] = OUTLAW_CP * cards * OPPONENT_WEIGHT
            elif cards >= 2:
                row[o] = OUTLAW_CP * cards * OPPONENT_WEIGHT * 0.5
    return tuple(zip(zip(*out, strict=True), zip(*known, strict=True), strict=False))  # the Outlaws' kinds come first


@functools.lru_cache(maxsize=1 << 11)
def _kinds(cards: tuple[Any, ...]) -> tuple[int, ...]:
    """How many of ``cards`` there are of each kind (cached by the tuple of cards)."""
    out = [0] * NUM_KINDS
    for kind in map(_KIND.__getitem__, map(_CARD_ID, cards)):
        out[kind] += 1
    return tuple(out)


@functools.lru_cache(maxsize=1 << 10)
def _potential(cards: int, photo: int, opened: bool, hidden: bool) -> tuple[float, float]:
    """:meth:`_Ctx.potential` (cached: a few hundred arguments at most)."""
    if hidden:
        return 0.0, 0.0
    ready = opened or cards >= FIRST_SET
    cp = reward = 0.0
    if cards:
        weight = READY_WEIGHT if ready else PAIR_WEIGHT if cards == 2 else SINGLE_WEIGHT
        cp += OUTLAW_CP * cards * weight
        reward += 1000 * (cards - 1) * weight
    if photo:
        weight = READY_WEIGHT if ready else PHOTO_WAIT_WEIGHT
        cp += PHOTO_CP * weight
        reward += KIND_REWARD[K_PHOTO] * weight
    return cp, reward


def _worth(paid: Sequence[int], me: int) -> float:
    """Seat ``me``'s payout less the mean of the others'."""
    mine = paid[me]
    return mine - (sum(paid) - mine) / (len(paid) - 1)


@functools.lru_cache(maxsize=1 << 12)
def _final_value(me: int, col: tuple[int, ...], reward: int) -> float:
    """:meth:`_Ctx.outlaw_value` when the hand ends now: the table's counted CP ``col`` and
    ``reward`` scored, the 8 CP threshold included (cached: a pure function of its arguments)."""
    if sum(col) < CAPTURE:
        return 0.0
    return _worth(_share(col, reward), me)


def _open_value(
    me: int,
    col: tuple[int, ...],
    reward: int,
    cards: int,
    photo: int,
    hidden: bool,
    opened: bool,
    hope: float,
    pot: tuple[float, ...],
    known: tuple[int, ...],
) -> float:
    """:meth:`_Ctx.outlaw_value` while the hand goes on: the counted CP ``col`` plus what the
    seat's hand (``cards`` Outlaw cards, ``photo`` Photos) and the opponents' unknown cards
    (``pot``, where they have CP or ``known`` cards) may add, scored with the chance ``hope`` of a
    capture (:func:`_projection`)."""
    captured, share_of_capture, worth = _projection(me, col, reward, cards, photo, hidden, opened, pot, known)
    chance = 1.0 if captured else hope * share_of_capture
    if chance <= 0.0:
        return 0.0
    return chance * worth


@functools.lru_cache(maxsize=1 << 11)
def _projections(
    me: int,
    col: tuple[int, ...],
    reward: int,
    hidden: bool,
    opened: bool,
    pot: tuple[float, ...],
    known: tuple[int, ...],
) -> dict[tuple[int, int], tuple[bool, float, float]]:
    """A memo of :func:`_project` for one Outlaw as the table stands, by the hand's Outlaw cards
    and Photos of it (at most a few dozen entries; filled by :meth:`_Ctx.hand_value`)."""
    return {}


def _project(
    me: int,
    col: tuple[int, ...],
    reward: int,
    cards: int,
    photo: int,
    hidden: bool,
    opened: bool,
    pot: tuple[float, ...],
    known: tuple[int, ...],
) -> tuple[bool, float, float]:
    """What :func:`_open_value` scores, the chance of a capture aside: whether the Outlaw is
    captured already (8 CP counted), the share of 8 CP the projected CP reach (at most 1) and what
    the projected CP would pay the seat less the others' mean."""
    actual = sum(col)
    proj = [c + pot[p] if c > 0 or known[p] else c for p, c in enumerate(col)]
    cp, more = _potential(cards, photo, opened or actual > 0, hidden)
    proj[me] += cp
    reward += int(more)
    return actual >= CAPTURE, min(1.0, sum(proj) / CAPTURE), _worth(_share(tuple(proj), reward), me)


_projection = functools.lru_cache(maxsize=1 << 14)(_project)
""":func:`_project`, cached: a pure function of its arguments, the same for most decisions of a turn."""


ESTIMATE_SCALE = 5000.0
"""Dollars of difference that make a pair's estimated odds ``e : 1`` (:meth:`WyattEarpStrategy.estimate`)."""


class WyattEarpStrategy:
    """Chooses a Wyatt Earp action from a view and the legal actions (see the module docstring).

    Args:
        seed: seeds the random source that breaks exact ties.
    """

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)
        self._hand = (-1, -1)  # (hand number, dealer) of the hand the counts below are for
        self._taken: dict[int, int] = {}  # card id: times taken from the discard stack this hand
        self._prolonged = 0  # top discards taken this hand after the supply ran out twice

    def choose(self, view: Any, legal: list[Any], seat: int) -> Any:
        """One of ``legal``."""
        if len(legal) == 1:
            return legal[0]
        ctx = _Ctx(view, seat)
        handler = _HANDLERS.get(view.phase)
        if handler is None:
            return legal[0]
        scores = handler(ctx, legal)
        if view.phase == "draw":
            self._guard_loops(view, ctx, legal, scores)
        best = best_index(scores, self._random.random)
        if isinstance(legal[best], A.TakeTopDiscard):
            top = view.discard[-1].id
            self._taken[top] = self._taken.get(top, 0) + 1
            self._prolonged += ctx.ending
        return legal[best]

    def scores(self, view: Any, legal: list[Any], seat: int) -> list[float]:
        """How the strategy rates each of ``legal`` (never empty), higher better, one float per
        action in order, before :meth:`choose`'s guard against passing a card back and forth (which
        depends on the hand's history, not the view); all 0 in a phase it has no rule for."""
        handler = _HANDLERS.get(view.phase)
        return handler(_Ctx(view, seat), legal) if handler is not None else [0.0] * len(legal)

    def estimate(self, view: Any, seat: int) -> float:
        """``seat``'s chance to win from ``view``: the chance to end ahead of every other player, each
        pair by a logistic on the difference of their money, the seat's own counted with what the
        table would pay it (less the others' mean) if the hand ended now (:meth:`_Ctx.final_total`),
        :data:`ESTIMATE_SCALE` dollars wide (:func:`bots.heuristic.beat_all_chance`); with fitted
        weights (:mod:`bots.estimates`), the logistic regression on :func:`estimate_features`."""
        money = _standing(view, seat)
        fitted = chance("wyatt_earp", len(view.players), _features(money, seat))
        if fitted is not None:
            return fitted
        return beat_all_chance(money, seat, ESTIMATE_SCALE)

    def _guard_loops(self, view: Any, ctx: _Ctx, legal: list[Any], scores: list[float]) -> None:
        """Never take the same card from the discard stack more than :data:`TAKE_LIMIT` times in a
        hand, nor prolong a hand whose supply ran out twice more than :data:`PROLONG_LIMIT` times:
        two such bots never pass a card back and forth forever."""
        if self._hand != (view.hand_number, view.dealer):
            self._hand = (view.hand_number, view.dealer)
            self._taken = {}
            self._prolonged = 0
        if not view.discard:
            return
        blocked = self._taken.get(view.discard[-1].id, 0) >= TAKE_LIMIT
        blocked = blocked or (ctx.ending and self._prolonged >= PROLONG_LIMIT)
        for i, action in enumerate(legal):
            if blocked and isinstance(action, A.TakeTopDiscard):
                scores[i] = -math.inf


ESTIMATE_FEATURES = ("money_vs_best", "money_vs_mean", "money_vs_best_x_progress", "behind_best_x_progress")
"""The names of :func:`estimate_features`, in order."""

GOAL = 25_000
"""The money that ends the game after a hand (End of the game), for the estimate's progress."""


def _standing(view: Any, seat: int) -> list[float]:
    """Every player's money, the seat's own plus what the table would pay it (less the others'
    mean) if the hand ended now (:meth:`_Ctx.final_total`)."""
    ctx = _Ctx(view, seat)
    money = [float(m) for m in ctx.money]
    money[seat] += ctx.final_total()
    return money


def estimate_features(view: Any, seat: int) -> list[float]:
    """What the fitted estimate reads from ``seat``'s view (:data:`ESTIMATE_FEATURES`): money as
    :func:`_standing` counts it against the best other player's and the others' mean, in units of
    $5,000, the first also times the game's progress (the richest player's money over $25,000),
    and how far the seat trails the best other player (0 when ahead) times the progress: fitted
    without it, the estimate was over-confident at both ends (0.85 said where 0.77 was observed)."""
    return _features(_standing(view, seat), seat)


def _features(money: list[float], seat: int) -> list[float]:
    """:func:`estimate_features` from :func:`_standing`."""
    others = [m for p, m in enumerate(money) if p != seat]
    if not others:
        return [0.0] * len(ESTIMATE_FEATURES)
    best = money[seat] - max(others)
    mean = money[seat] - sum(others) / len(others)
    progress = min(1.0, max(money) / GOAL)
    return [best / 5000, mean / 5000, best * progress / 5000, min(best, 0.0) * progress / 5000]


class _Ctx:
    """Everything a decision needs, computed once from the view.

    Attributes:
        cp: counted CP per seat and Outlaw; ``printed`` the CP printed there (Hideout or not).
        hidden: a Hideout covers the group; ``carriers`` its Outlaw cards and Photo, ``outlaw_cards``
            its Outlaw cards only.
        hand: the seat's cards per kind; ``unseen`` the cards per kind the seat has not seen (in
            the supply or unknown in other hands).
    """

    def __init__(self, view: Any, seat: int) -> None:
        self.view = view
        self.me = seat
        self.n = n = len(view.players)
        self.others = _OTHERS[n][seat]
        players = view.players
        table = _table(tuple(map(_TERRITORY, players)))
        self.cp, self.printed, self.hidden, self.outlaw_cards, self.carriers, self.fastest, table_seen, self.cols = (
            table
        )
        knowns = tuple(map(_KNOWN, players))
        self.known: Sequence[tuple[int, ...]] = _NO_KINDS[n]
        if any(knowns):
            self.known = tuple([_kinds(cards) for cards in knowns])
        self.hand: tuple[int, ...] = _kinds(view.hand)
        pending = -1 if view.pending is None else _KIND[view.pending.id]
        self.unseen, self.unseen_total, self.hit = _unseen(
            table_seen, self.known, self.hand, _kinds(view.discard), pending
        )
        self.reward: list[int] = list(map(_REWARD, view.posters))
        self.opened: list[bool] = list(map(_OPENED, view.posters))
        left: float = min(1.0, view.supply_size / _START_SUPPLY[n])
        self.progress = 1.0 - 0.4 * left if view.reshuffled else 0.6 * (1.0 - left)
        """How far into the hand we are: 0 at the deal, 0.6 at the reshuffle, 1 at the end."""
        self.ending: bool = view.reshuffled and view.supply_size < 2
        """Drawing from the supply ends the hand: the table as it stands is what counts."""
        self.hope = CAPTURE_HOPE * (1.0 - 0.5 * self.progress)
        self.hold_scale = 1.0 - 0.6 * self.progress
        self._card_values: dict[int, float] = {}  # card_value(kind), this decision
        self._keeps: dict[int, float] = {}  # keep(kind), this decision
        self._hand_values: dict[tuple[int, int, int], float] = {}  # hand_value by its arguments, this decision
        # per Outlaw, the _projections memo for the table as it stands, and its arguments
        self._memos: list[dict[tuple[int, int], tuple[bool, float, float]] | None] = [None] * OUTLAWS
        self._memo_args: list[Any] = [None] * OUTLAWS

    # The parts below are worked out on first use only: not every decision needs them.

    @lazy
    def money(self) -> list[int]:
        """Every seat's money."""
        return [player.money for player in self.view.players]

    @lazy
    def _pot_cols(self) -> tuple[tuple[tuple[float, ...], tuple[int, ...]], ...]:
        """Per Outlaw, what :func:`_open_value` reads of the opponents (:func:`_opponent_columns`)."""
        players = self.view.players
        return _opponent_columns(
            self.me,
            self.cp,
            self.hidden,
            tuple(self.known),
            tuple(map(_HAND_SIZE, players)),
            tuple(map(_LACKS, players)),
            self.unseen,
            self.unseen_total,
            tuple(self.opened),
        )

    @property
    def opp_pot(self) -> list[list[float]]:
        """The CP each opponent's unknown cards may still add to each Outlaw (:func:`_opponent_columns`)."""
        return [list(row) for row in zip(*(pot for pot, _ in self._pot_cols), strict=True)]

    @lazy
    def base(self) -> list[float]:
        """Each Outlaw's worth as the table and the hand stand (:meth:`outlaw_value`)."""
        hand = self.hand
        return [self.hand_value(o, hand[o], hand[K_PHOTO + o]) for o in range(OUTLAWS)]

    def base_of(self, o: int) -> float:
        """``base[o]``, without working out the other Outlaws'."""
        hand = self.hand
        return self.hand_value(o, hand[o], hand[K_PHOTO + o])

    @lazy
    def base_total(self) -> float:
        """The sum of :attr:`base`."""
        return sum(self.base)

    @lazy
    def hold_total(self) -> float:
        """What the Sheriff cards (not Photos) in the hand are worth kept."""
        return sum(self.hold(k) * self.hand[k] for k in HOLD)

    @lazy
    def stop(self) -> float:
        """What ending the hand now (the table scored as it stands) is worth against going on."""
        return self.final_total() - self.base_total - self.hold_total

    # ------------------------------------------------------------ values

    def potential(self, o: int, cards: int, photo: int, opened: bool, hidden: bool) -> tuple[float, float]:
        """The CP and reward the seat's hand may still add to Outlaw ``o`` (``cards`` Outlaw
        cards, ``photo`` Photos), each weighted by the chance it gets played."""
        return _potential(cards, photo, opened, hidden)

    def worth(self, paid: Sequence[int]) -> float:
        """The seat's payout less the mean of the others'."""
        return _worth(paid, self.me)

    def outlaw_value(
        self,
        o: int,
        col: Sequence[float] | None = None,
        reward: int | None = None,
        cards: int | None = None,
        photo: int | None = None,
        hidden: bool | None = None,
        final: bool = False,
    ) -> float:
        """What Outlaw ``o`` is worth to the seat (see the module docstring); the arguments replace
        the table's counted CP column, reward, the hand's Outlaw cards and Photos, and the seat's
        Hideout. ``final``: the hand ends now (the table only, and the 8 CP threshold)."""
        column = self.cols[o] if col is None else tuple(col)
        if reward is None:
            reward = self.reward[o]
        if final or self.ending:
            return _final_value(self.me, column, reward)
        pot, known = self._pot_cols[o]
        captured, share_of_capture, worth = _projection(
            self.me,
            column,
            reward,
            self.hand[o] if cards is None else cards,
            self.hand[K_PHOTO + o] if photo is None else photo,
            self.hidden[self.me][o] if hidden is None else hidden,
            self.opened[o],
            pot,
            known,
        )
        chance = 1.0 if captured else self.hope * share_of_capture  # as in _open_value
        return 0.0 if chance <= 0.0 else chance * worth

    def final_total(self, changes: dict[int, tuple[list[int], int]] | None = None) -> float:
        """What the table pays the seat (less the others' mean) if the hand ends now; ``changes``
        replaces some Outlaws' CP column and reward."""
        total = 0.0
        me, cols, rewards = self.me, self.cols, self.reward
        for o in range(OUTLAWS):
            if changes and o in changes:
                col, reward = changes[o]
                total += _final_value(me, tuple(col), reward)
            else:
                total += _final_value(me, cols[o], rewards[o])
        return total

    def hold(self, kind: int) -> float:
        """What keeping one Sheriff card (not a Photo) of ``kind`` for later is worth."""
        if self.ending:
            return 0.0
        value = HOLD.get(kind, 0.0) * self.hold_scale
        if kind in (K_STAGECOACH, K_BANK, K_FASTEST) and not any(self.printed[self.me]):
            value *= 0.7
        return value

    def keep(self, kind: int) -> float:
        """What the seat loses by giving up (playing or discarding) one card of ``kind``."""
        value = self._keeps.get(kind)
        if value is None:
            if kind in HOLD:
                value = self.hold(kind)
            else:
                hand = list(self.hand)
                hand[kind] -= 1
                value = self.card_value(kind, hand)
            self._keeps[kind] = value
        return value

    def card_value(self, kind: int, hand: Sequence[int] | None = None) -> float:
        """What one more card of ``kind`` in the hand is worth."""
        if hand is None:
            value = self._card_values.get(kind)
            if value is not None:
                return value
            value = self._card_values[kind] = self.card_value(kind, self.hand)
            return value
        hand_value = self.hand_value
        if kind < OUTLAWS:
            o = kind
            return hand_value(o, hand[o] + 1, hand[K_PHOTO + o]) - hand_value(o, hand[o], hand[K_PHOTO + o])
        if kind < K_PHOTO + OUTLAWS:
            o = kind - K_PHOTO
            return hand_value(o, hand[o], hand[kind] + 1) - hand_value(o, hand[o], hand[kind])
        return self.hold(kind)

    def hand_value(self, o: int, cards: int, photo: int) -> float:
        """``outlaw_value(o, cards=cards, photo=photo)``, the short way (once per decision)."""
        key = (o, cards, photo)
        value = self._hand_values.get(key)
        if value is None:
            if self.ending:
                value = _final_value(self.me, self.cols[o], self.reward[o])
            else:
                memo = self._memos[o]
                if memo is None:
                    pot, known = self._pot_cols[o]
                    me = self.me
                    args = (me, self.cols[o], self.reward[o], self.hidden[me][o], self.opened[o], pot, known)
                    memo = self._memos[o] = _projections(*args)
                    self._memo_args[o] = args
                projected = memo.get((cards, photo))
                if projected is None:
                    me, col, reward, hidden, opened, pot, known = self._memo_args[o]
                    projected = memo[cards, photo] = _project(me, col, reward, cards, photo, hidden, opened, pot, known)
                captured, share_of_capture, worth = projected
                chance = 1.0 if captured else self.hope * share_of_capture  # as in _open_value
                value = 0.0 if chance <= 0.0 else chance * worth
            self._hand_values[key] = value
        return value

    @lazy
    def _random_card_value(self) -> float:
        """:meth:`random_card_value`, worked out."""
        total = sum(self.unseen)
        if not total:
            return 0.0
        card_value = self.card_value
        return sum([card_value(k) * u for k, u in enumerate(self.unseen) if u]) / total

    def random_card_value(self) -> float:
        """The mean worth of a card the seat has not seen (what a draw from the supply brings)."""
        return self._random_card_value

    def danger(self, kind: int) -> float:
        """What the next player (who may take the top discard) would gain from a card of ``kind``:
        an Outlaw card for an opened Outlaw or one they are known to hold two of, a usable Photo."""
        nxt = (self.me + 1) % self.n
        if kind < K_PHOTO + OUTLAWS:
            o = kind % K_PHOTO
            if self.hidden[nxt][o]:
                return 0.0
            if kind >= K_PHOTO:
                if not self.opened[o]:
                    return 0.0
                add, reward = PHOTO_CP, KIND_REWARD[K_PHOTO]
            elif self.opened[o]:
                add, reward = OUTLAW_CP, 0
            elif self.known[nxt][o] >= FIRST_SET - 1:
                add, reward = OUTLAW_CP * (self.known[nxt][o] + 1), 1000 * self.known[nxt][o]
            else:
                return 0.0
            col = self.col(o)
            before = share(col, self.reward[o])[nxt]
            col[nxt] += add
            return max(0.0, float(share(col, self.reward[o] + reward)[nxt] - before)) + 200.0
        if kind in (K_STAGECOACH, K_BANK, K_FASTEST):
            return 300.0 if any(self.printed[nxt]) else 0.0
        if kind == K_WYATT_EARP:
            return 300.0 if any(self.hidden[nxt]) else 150.0
        return 150.0

    # ------------------------------------------------------------ changes to the table

    def col(self, o: int) -> list[int]:
        """The counted CP column of Outlaw ``o``."""
        return list(self.cols[o])

    def delta(self, o: int, **changes: Any) -> float:
        """How much Outlaw ``o``'s worth changes with ``changes`` (see :meth:`outlaw_value`)."""
        return self.outlaw_value(o, **changes) - self.base_of(o)

    def add_own(self, o: int, cp: int, reward: int) -> float:
        """Gain from ``cp`` CP and ``reward`` dollars more on the seat's own group of ``o``."""
        col = self.col(o)
        if not self.hidden[self.me][o]:
            col[self.me] += cp
        return self.delta(o, col=col, reward=self.reward[o] + reward)

    def shot_target(self, kind: int) -> float:
        """The best gain from a Stagecoach robbery, Bank robbery or Fastest gun that hit."""
        best = -math.inf
        for o in range(OUTLAWS):
            if not self.printed[self.me][o] and not self.carriers[self.me][o]:
                continue
            if kind == K_FASTEST and self.fastest is not None and self.fastest[1] == o:
                continue
            best = max(best, self.target_gain(kind, self.me, o))
        return best

    def target_gain(self, kind: int, owner: int, o: int) -> float:
        """The gain from a Sheriff card of ``kind`` that hit, put on (or taking from) ``owner``'s ``o``."""
        me = self.me
        if kind in (K_STAGECOACH, K_BANK, K_FASTEST):
            gain = self.add_own(o, KIND_CP[kind], KIND_REWARD[kind])
            if kind == K_FASTEST and self.fastest is not None:
                p, fo = self.fastest
                if fo != o and not self.hidden[p][fo]:
                    col = self.col(fo)
                    col[p] -= KIND_CP[K_FASTEST]
                    gain += self.delta(fo, col=col)
            return gain
        if kind == K_HIDEOUT:
            col = self.col(o)
            col[owner] = 0
            gain = self.delta(o, col=col, reward=self.reward[o] + HIDEOUT_REWARD)
            answered = self.hit * self.holds(owner, K_WYATT_EARP)
            return gain * (1.0 - answered)
        if kind == K_MOST_WANTED:
            col = self.col(o)
            if not self.hidden[owner][o]:
                if self.outlaw_cards[owner][o] <= 1 and self.carriers[owner][o] <= 1:
                    col[owner] = 0
                else:
                    col[owner] -= OUTLAW_CP
            return self.delta(o, col=col, cards=self.hand[o] + 1)
        if kind == K_WYATT_EARP:
            col = self.col(o)
            col[me] = self.printed[me][o]
            return self.delta(o, col=col, hidden=False)
        return 0.0

    def best_hideout(self) -> float:
        """The best gain from a Hideout that hit (``-inf``: no group to cover)."""
        gains = [
            self.target_gain(K_HIDEOUT, p, o)
            for p in self.others
            for o in range(OUTLAWS)
            if self.carriers[p][o] and not self.hidden[p][o]
        ]
        return max(gains, default=-math.inf)

    def best_steal(self) -> float:
        """The best gain from a Most Wanted! that hit (``-inf``: no Outlaw card to steal)."""
        gains = [
            self.target_gain(K_MOST_WANTED, p, o)
            for p in self.others
            for o in range(OUTLAWS)
            if self.outlaw_cards[p][o]
        ]
        return max(gains, default=-math.inf)

    def best_unhide(self) -> float:
        """The best gain from a Wyatt Earp that hit and frees one of the seat's groups."""
        gains = [self.target_gain(K_WYATT_EARP, self.me, o) for o in range(OUTLAWS) if self.hidden[self.me][o]]
        return max(gains, default=0.0)

    def holds(self, p: int, kind: int) -> float:
        """The chance that seat ``p`` holds a card of ``kind``."""
        if self.known[p][kind]:
            return 1.0
        if kind < OUTLAWS and kind in self.view.players[p].lacks:
            return 0.0
        unknown: int = max(0, self.view.players[p].hand_size - sum(self.known[p]))
        frac = self.unseen[kind] / self.unseen_total
        return 1.0 - (1.0 - min(1.0, frac)) ** unknown

    def final_delta_photo(self, o: int) -> float:
        """How much a Photo of ``o`` played now changes the table's worth if the hand ends now."""
        col = self.col(o)
        if not self.hidden[self.me][o]:
            col[self.me] += PHOTO_CP
        reward = self.reward[o] + KIND_REWARD[K_PHOTO]
        return self.outlaw_value(o, col, reward, final=True) - self.outlaw_value(o, final=True)

    def outlaw_gain(self, o: int, count: int) -> float:
        """Gain from playing ``count`` cards of Outlaw ``o``."""
        col = self.col(o)
        if not self.hidden[self.me][o]:
            col[self.me] += OUTLAW_CP * count
        value = self.outlaw_value_opened(o, col, self.reward[o] + 1000 * (count - 1), self.hand[o] - count)
        return value - self.base_of(o)

    def outlaw_value_opened(self, o: int, col: list[int], reward: int, cards: int) -> float:
        """:meth:`outlaw_value` once ``o`` is opened (after a set)."""
        if not self.ending:
            self._pot_cols  # noqa: B018 (the opponents' potential with the Outlaws opened as they are)
        was = self.opened[o]
        self.opened[o] = True
        try:
            return self.outlaw_value(o, col=col, reward=reward, cards=cards)
        finally:
            self.opened[o] = was


# ---------------------------------------------------------------------------- decisions


def _draw(ctx: _Ctx, legal: list[Any]) -> list[float]:
    """Take the top discard when it improves the hand more than two unknown cards would: it takes
    the place of the hand's least useful card, where two cards from the supply add one card."""
    view = ctx.view
    worst = min((ctx.keep(k) for k in range(NUM_KINDS) if ctx.hand[k]), default=0.0)
    scores = []
    for action in legal:
        if isinstance(action, A.TakeTopDiscard):
            kind = _KIND[view.discard[-1].id]
            if ctx.ending:
                # prolong the hand only to play that card now
                gain = _play_at_once(ctx, kind)
                scores.append(gain if gain > 0 else -1.0)
            else:
                scores.append(ctx.card_value(kind) - worst - TAKE_MARGIN)
        elif ctx.ending:
            scores.append(0.0)  # the hand ends and is scored as it stands
        else:
            average = ctx.random_card_value()
            scores.append(2.0 * average - min(worst, average))
    return scores


def _play_at_once(ctx: _Ctx, kind: int) -> float:
    """The gain from taking a card of ``kind`` and playing it this turn (Outlaw cards and Photos)."""
    size = len(ctx.view.hand) + 1
    if kind < OUTLAWS:
        count = min(ctx.hand[kind] + 1, size - 1)
        if count < 1 or (not ctx.opened[kind] and count < FIRST_SET):
            return 0.0
        return ctx.outlaw_gain(kind, count)
    if K_PHOTO <= kind < K_PHOTO + OUTLAWS and ctx.opened[kind - K_PHOTO]:
        return _sheriff_value(ctx, A.PlayPhoto(kind - K_PHOTO))
    return 0.0


def _discard_scores(ctx: _Ctx, legal: list[Any], ends_hand: bool) -> dict[int, float]:
    """The worth of each Discard in ``legal`` (by index), the rest of the turn's plays aside."""
    out: dict[int, float] = {}
    for i, action in enumerate(legal):
        if isinstance(action, A.Discard):
            kind = _KIND_OF[action.card, action.outlaw]
            if ends_hand:
                out[i] = ctx.stop
            else:
                out[i] = -ctx.keep(kind) - DANGER_WEIGHT * ctx.danger(kind)
    return out


def _gaining(action: Any) -> bool:
    """A Sheriff play that brings cards into the hand."""
    return isinstance(action, (A.MostWantedAsk, A.MostWantedSteal, A.WyattEarpDraw, A.WyattEarpSearch))


def _sheriff_value(ctx: _Ctx, action: Any) -> float:
    """The expected gain of a Sheriff play, less what keeping the card for later is worth."""
    if isinstance(action, A.PlayPhoto):
        o = action.outlaw
        col = ctx.col(o)
        if not ctx.hidden[ctx.me][o]:
            col[ctx.me] += PHOTO_CP
        return ctx.outlaw_value(o, col=col, reward=ctx.reward[o] + KIND_REWARD[K_PHOTO], photo=0) - ctx.base_of(o)
    if isinstance(action, A.PlaySheriff):
        kind = SHOT_KIND[action.card]
        best = ctx.best_hideout() if kind == K_HIDEOUT else ctx.shot_target(kind)
        if best == -math.inf:
            return -ctx.keep(kind) - 1.0
        return ctx.hit * max(0.0, best) - ctx.keep(kind)
    if isinstance(action, A.MostWantedSteal):
        return ctx.hit * max(0.0, ctx.best_steal()) - ctx.keep(K_MOST_WANTED)
    if isinstance(action, A.MostWantedAsk):
        o = action.outlaw
        miss = 1.0
        for p in ctx.others:
            miss *= 1.0 - ctx.holds(p, o)
        return (1.0 - miss) * ctx.card_value(o) - ctx.keep(K_MOST_WANTED) + _ask_side(ctx, action)
    if isinstance(action, A.WyattEarpDraw):
        return 2.0 * ctx.random_card_value() - ctx.keep(K_WYATT_EARP)
    if isinstance(action, A.WyattEarpSearch):
        # the best card of the stack as the view knows it (cards another player may have taken
        # unseen are left out of view.discard: at worst, a card like an unknown one)
        kinds = {_KIND[card.id] for card in ctx.view.discard} - {K_WYATT_EARP}
        gain = max((_take_value(ctx, kind) for kind in kinds), default=-math.inf)
        if ctx.view.discard_size > len(ctx.view.discard):
            gain = max(gain, ctx.random_card_value())
        return gain - ctx.keep(K_WYATT_EARP)
    if isinstance(action, A.WyattEarpRemoveHideout):
        return ctx.hit * ctx.best_unhide() - ctx.keep(K_WYATT_EARP)
    return -math.inf


def _take_value(ctx: _Ctx, kind: int) -> float:
    """The worth of taking a card of ``kind`` with a Wyatt Earp search: in the hand, or played at
    once (a Photo, a Sheriff card: the one second Sheriff card of the turn)."""
    gain = ctx.card_value(kind)
    if K_PHOTO <= kind < K_PHOTO + OUTLAWS and ctx.opened[kind - K_PHOTO]:
        gain = max(gain, _sheriff_value(ctx, A.PlayPhoto(kind - K_PHOTO)))
    elif kind >= K_STAGECOACH:
        gain = max(gain, _play_now_value(ctx, kind))
    return gain


def _search(ctx: _Ctx, legal: list[Any]) -> list[float]:
    """After a Wyatt Earp search: the card of the stack worth most."""
    return [_take_value(ctx, _KIND_OF[a.card, a.outlaw]) for a in legal]


def _play_now_value(ctx: _Ctx, kind: int) -> float:
    """The gain from playing a Sheriff card of ``kind`` at once (after a Wyatt Earp search)."""
    if kind in (K_STAGECOACH, K_BANK, K_FASTEST):
        best = ctx.shot_target(kind)
    elif kind == K_HIDEOUT:
        best = ctx.best_hideout()
    elif kind == K_MOST_WANTED:
        best = ctx.best_steal()
    else:
        return 0.0
    return ctx.hit * best if best > -math.inf else 0.0


def _ask_side(ctx: _Ctx, action: Any) -> float:
    """A tiny preference for asking first the opponent more likely to hold the card, richer first."""
    if ctx.n == 2:
        return 0.0
    first = (ctx.me + (1 if action.clockwise else -1)) % ctx.n
    return 0.01 * ctx.holds(first, action.outlaw) + ctx.money[first] * 1e-7


def _play(ctx: _Ctx, legal: list[Any]) -> list[float]:
    """Turn plays, one at a time: Sheriff cards that bring cards first, then the melds, then the
    other Sheriff card, then the discard (see the module docstring). A play that leaves one card
    ends the hand with the discard: it is weighed against the discards that go on."""
    view = ctx.view
    size = len(view.hand)
    scores = [-math.inf] * len(legal)
    sheriff = {i: _sheriff_value(ctx, a) for i, a in enumerate(legal) if isinstance(a, _SHERIFF_PLAYS)}
    best_sheriff = max(sheriff.values(), default=-math.inf)
    gaining_first = any(_gaining(legal[i]) and v == best_sheriff and v > 0 for i, v in sheriff.items())
    for i, value in sheriff.items():
        action = legal[i]
        if size == 2 and not _gaining(action) and not isinstance(action, A.PlayPhoto):
            # the last card goes next: the hand ends
            scores[i] = ctx.stop + max(0.0, value + ctx.keep(_sheriff_kind(action)))
        elif size == 2 and isinstance(action, A.PlayPhoto):
            scores[i] = ctx.stop + ctx.final_delta_photo(action.outlaw)
        elif value > 0:
            # cards that bring cards go before the melds they may complete
            scores[i] = value + (1e6 if _gaining(action) and gaining_first else 0.0)
    if view.immediate is not None:
        # the Sheriff card just taken: now or never this turn
        for i, value in sheriff.items():
            if value > 0:
                scores[i] = value + 1e6
    for i, action in enumerate(legal):
        if isinstance(action, A.PlayOutlaws):
            if size - action.count <= 1:
                scores[i] = _going_out(ctx, action.outlaw, action.count)
            else:
                gain = ctx.outlaw_gain(action.outlaw, action.count) + PLAY_BONUS * action.count
                if gain > 0:
                    # melds before the Sheriff card that may land on them
                    scores[i] = 1e5 + gain
    discards = _discard_scores(ctx, legal, ends_hand=size == 1)
    for i, value in discards.items():
        scores[i] = value
    return scores


def _sheriff_kind(action: Any) -> int:
    """The kind of the Sheriff card a play uses."""
    if isinstance(action, A.PlayPhoto):
        return K_PHOTO + action.outlaw
    if isinstance(action, A.PlaySheriff):
        return SHOT_KIND[action.card]
    if isinstance(action, (A.MostWantedAsk, A.MostWantedSteal)):
        return K_MOST_WANTED
    return K_WYATT_EARP


def _going_out(ctx: _Ctx, o: int, count: int) -> float:
    """Gain from playing ``count`` cards of ``o`` down to the last card, which ends the hand with
    the next discard: the table scored as it stands, against going on."""
    col = ctx.col(o)
    if not ctx.hidden[ctx.me][o]:
        col[ctx.me] += OUTLAW_CP * count
    final = ctx.final_total({o: (col, ctx.reward[o] + 1000 * (count - 1))})
    return final - (ctx.base_total + ctx.hold_total)


_SHERIFF_PLAYS = (
    A.PlayPhoto,
    A.PlaySheriff,
    A.MostWantedAsk,
    A.MostWantedSteal,
    A.WyattEarpDraw,
    A.WyattEarpSearch,
    A.WyattEarpRemoveHideout,
)
"""The plays of a Sheriff card (on the current player's turn)."""


def _is_sheriff(action: Any) -> bool:
    """A play of a Sheriff card (on the current player's turn)."""
    return isinstance(action, _SHERIFF_PLAYS)


def _target(ctx: _Ctx, legal: list[Any]) -> list[float]:
    """After a hit: the group where the Sheriff card gains most; taking nothing (the rulebook's
    "may" after a Most Wanted! or a Wyatt Earp) only when every target would cost."""
    kind = _KIND[ctx.view.pending.id] if ctx.view.pending is not None else -1
    return [-1e-3 if isinstance(a, A.DeclineTarget) else ctx.target_gain(kind, a.owner, a.outlaw) for a in legal]


def _hideout_response(ctx: _Ctx, legal: list[Any]) -> list[float]:
    """Answer a Hideout with a Wyatt Earp when freeing the group is worth the card."""
    owner, o = ctx.view.hideout if ctx.view.hideout is not None else (ctx.me, -1)
    scores = []
    for action in legal:
        if isinstance(action, A.WyattEarpRemoveHideout) and 0 <= o < OUTLAWS:
            scores.append(ctx.hit * ctx.target_gain(K_WYATT_EARP, owner, o) - ctx.keep(K_WYATT_EARP))
        else:
            scores.append(0.0)
    return scores


def _free_photo(ctx: _Ctx, legal: list[Any]) -> list[float]:
    """``free_photo`` option: a free Photo is taken unless it helps the others more."""
    scores = []
    for action in legal:
        if isinstance(action, A.PlayPhoto):
            scores.append(_sheriff_value(ctx, action) + 500.0)
        else:
            scores.append(0.0)
    return scores


_HANDLERS = {
    "draw": _draw,
    "play": _play,
    "search": _search,
    "target": _target,
    "hideout_response": _hideout_response,
    "free_photo": _free_photo,
}
