"""The built-in ``pimc`` bot and the house bots ``quick`` and ``strong``: determinized search
(perfect-information Monte Carlo) with heuristic playouts.

One search per decision, in *rounds*. A round:

1. **Determinize.** Draw one state consistent with what the bot's seat knows: ``sample(seed)``,
   the live state's ``resample(seat, seed)``, given by the runner through
   :meth:`PimcBot.act_with_sampler` (see :class:`bots.Bot`). Nothing the seat does not know
   leaks into the search: the bot sees its view and these draws only.
2. **Try every legal action on the same draw.** For each of the seat's legal actions, a clone of
   the draw gets the action, then is played on by the game's built-in heuristic bot for every
   seat (the opponents are modelled as heuristic players). A playout longer than ``depth``
   decisions is cut off and scored by the heuristic's ``estimate(view, seat)`` of the bot's
   seat (its chance to win, from its own view of the cut-off state).
3. **Score.** The bot's reward: at the end of the game its share of the win (1 for a lone
   winner, ``1 / k`` for ``k`` tied winners, 0 for a loser); at a cut-off, the estimate.

**Choice.** The heuristic's own move (asked once, from the real view) stays unless another
action beats it by more than ``margin`` over the same draws. The draws are shared, so the
comparison is paired: for each action, ``d`` is its reward less the heuristic move's, round by
round, and the action played is the one with the best ``mean(d) - z * stderr(d)`` when that
exceeds ``margin`` (``z=0``, the default: the best mean; with ``z > 0`` one lucky playout
cannot overrule the heuristic, and fewer than two rounds never do). With one legal action there
is no search.

**Width.** With ``width=K`` (default 0: every action), a decision with more than ``K`` legal
actions searches only ``K`` of them, so that a round of many candidates (Deadwood 1876 has up to
about 40) still fits the budget several times: the heuristic's move and the ``K - 1`` others ranked
best by ``rank``: ``rank=estimate`` (the default), those that score best right after they are
played on the first draw (the seat's share of the win if that ends the game, else the estimate);
``rank=heuristic``, those the heuristic itself rates best from the real view
(:meth:`bots.heuristic.HeuristicBot.scores`; the estimate's ranking where the game's heuristic has
no ``scores``). Ties keep the legal actions' order.

**Budget.** ``iterations=N``: N rounds (deterministic: every seed and tie comes from the bot's
own ``random.Random``, and the heuristic is deterministic for its seed); ``ms=T``: rounds until
``T`` milliseconds of this process's CPU time (``time.process_time``) are spent, checked after
every playout. A round that the time limit interrupts is dropped, so every action is scored over
the same draws; when not even one round fits, the heuristic's move is played (so a decision
overruns its budget by one playout at most). With both, whichever comes first.

**House bots.** ``quick`` and ``strong`` are the strongest measured settings per game at 100 ms
and at 1 s of CPU per decision (:data:`HOUSE`; ``docs/search.md`` has the measurements): a
:class:`HouseSearchBot` reads the game and the player count from each view and searches with the
setting of that (game, player count) cell. They search only at the cells where a measurement
shows the search stronger than the heuristic (its interval's lower bound above the fair share,
or the cell's documented target met) and play ``heuristic`` everywhere else, unmeasured player
counts included: a bot offered as stronger than the heuristic is never measurably weaker than
it, at any player count (``docs/search.md``, *Where the house bots search*).

>>> PimcBot(seed=1, iterations=20).name
'pimc:iterations=20'
>>> PimcBot.from_options({"ms": "100", "depth": "20"}, seed=1).name
'pimc:ms=100,depth=20'
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from bots.options import parse_bot_options

__all__ = [
    "DEFAULT_DEPTH",
    "DEFAULT_MARGIN",
    "HEURISTIC",
    "HOUSE",
    "HOUSE_FALLBACK",
    "HouseSearchBot",
    "PimcBot",
    "house_setting",
]

DEFAULT_ITERATIONS = 20
"""Rounds per decision when neither ``iterations`` nor ``ms`` is given."""

DEFAULT_DEPTH = 1000
"""The playout cutoff, in decisions (beyond any real game: playouts run to the end)."""

DEFAULT_MARGIN = 0.05
"""How much better (in mean reward, a share of a win in ``[0, 1]``) another action must score
over the same draws to replace the heuristic's move."""

DEFAULT_Z = 0.0
"""Standard errors of the paired difference subtracted before comparing with the margin."""

RANKS = ("estimate", "heuristic")
"""The values of ``rank``, the default first."""

_QUICK_1876 = "pimc:ms=100,margin=0.02,z=1"
_QUICK_WYATT_EARP = "pimc:ms=100,depth=20,margin=0.02,z=1,width=4,rank=heuristic"  # every action: 51.5%
_QUICK_STUDIOS = "pimc:ms=100,depth=20,margin=0.03,z=2"  # with z=1: 31.6% (overrules on noise)
_QUICK_TOWN = "pimc:ms=100,depth=20"

HOUSE: Mapping[str, Mapping[str, Mapping[int, str]]] = {
    "quick": {
        "deadwood1876": {2: _QUICK_1876},  # 4 players: 22.0% [16.8, 28.2], fair share 25%
        "wyatt_earp": {2: _QUICK_WYATT_EARP},  # 4 players: 26.0% [20.4, 32.5], target 30%
        "deadwood_studios": {2: _QUICK_STUDIOS, 4: _QUICK_STUDIOS},
        "deadwood_town": {2: _QUICK_TOWN, 4: _QUICK_TOWN},
    },
    "strong": {
        "deadwood1876": {2: "pimc:ms=1000,margin=0.02,z=1"},
        "wyatt_earp": {2: "pimc:ms=1000,depth=20,margin=0.02,z=1"},
        "deadwood_studios": {2: "pimc:ms=1000,depth=20,margin=0.03,z=2"},
        "deadwood_town": {2: "pimc:ms=1000,depth=20"},
    },
}
"""House bot name -> game id -> player count -> the search it plays there (a :func:`bots.make_bot`
``pimc`` name): only the cells where a measurement shows that search stronger than the heuristic
(``docs/search.md``, *Where the house bots search*). At every other player count the house bot
plays ``heuristic``; ``strong`` first takes :data:`HOUSE_FALLBACK`'s cells."""

HOUSE_FALLBACK: Mapping[str, str] = {"strong": "quick"}
"""Where a house bot's own setting is unmeasured at a player count but another house bot's search
is measured stronger than the heuristic there, it plays that search: ``strong`` (1 s, measured at
2 players only) plays ``quick``'s 100 ms search at 4-player Deadwood Studios and Deadwood (town),
so that the bot offered as the strongest is never the weaker of the two where ``quick`` searches."""

HEURISTIC = "heuristic"
"""What a house bot plays at a cell where no search is measured stronger than the heuristic."""


def house_setting(level: str, game: str, players: int) -> str:
    """The bot name house bot ``level`` plays at ``game`` with ``players`` players: its own
    :data:`HOUSE` search there, else its :data:`HOUSE_FALLBACK`'s, else :data:`HEURISTIC`."""
    while True:
        spec = HOUSE[level].get(game, {}).get(players)
        if spec is not None:
            return spec
        if level not in HOUSE_FALLBACK:
            return HEURISTIC
        level = HOUSE_FALLBACK[level]


Sampler = Callable[[int], Any]
"""``sample(seed) -> State``: a determinization of the live state for the bot's seat."""


def _text(value: float) -> str:
    """An option's value as a bot name writes it: ``1`` for ``1.0``, ``0.02`` for ``0.02``."""
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


class PimcBot:
    """Perfect-information Monte Carlo over determinizations, heuristic playouts (module docstring).

    Args:
        seed: seeds the bot's ``random.Random`` (determinization seeds) and its heuristic bots.
        iterations: rounds per decision (each tries every legal action on one draw), ``>= 1``, or
            ``None``. Default :data:`DEFAULT_ITERATIONS` when ``ms`` is not given either.
        ms: CPU milliseconds per decision (``time.process_time`` of this process), ``> 0``, or ``None``.
        depth: the playout cutoff in decisions, ``>= 0``; a cut-off playout is scored by the
            heuristic's ``estimate`` (``0``: every action is scored by the estimate right after it).
        margin: the mean reward, ``>= 0``, by which another action must beat the heuristic's move
            over the same draws to be played instead.
        z: standard errors of that paired difference, ``>= 0``, subtracted from it first.
        width: the most actions searched, ``>= 2``, or ``0`` for all (see "Width" above).
        rank: how ``width`` chooses the actions it searches: ``"estimate"`` or ``"heuristic"``.

    Attributes:
        name: ``"pimc"`` plus the options given, as :func:`bots.make_bot` reads them back.
        last_rounds: complete rounds of the last search (0 when there was nothing to choose, or
            not one round fitted in the time budget).
        last_seconds: CPU seconds the last search took.
        rounds_total, seconds_total, decisions: sums over all searches.
        overruled: decisions where the search played another move than the heuristic's.

    Raises:
        ValueError: an option out of range.
    """

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        ms: float | None = None,
        depth: int = DEFAULT_DEPTH,
        margin: float = DEFAULT_MARGIN,
        z: float = DEFAULT_Z,
        width: int = 0,
        rank: str = "estimate",
    ) -> None:
        given: dict[str, Any] = {}
        if iterations is not None:
            if type(iterations) is not int or iterations < 1:
                raise ValueError(f"iterations must be an int >= 1, not {iterations!r}")
            given["iterations"] = iterations
        if ms is not None:
            if not isinstance(ms, int | float) or isinstance(ms, bool) or not (0 < ms < math.inf):
                raise ValueError(f"ms must be a number > 0, not {ms!r}")
            given["ms"] = ms
        if iterations is None and ms is None:
            iterations = DEFAULT_ITERATIONS
        if type(depth) is not int or depth < 0:
            raise ValueError(f"depth must be an int >= 0, not {depth!r}")
        if depth != DEFAULT_DEPTH:
            given["depth"] = depth
        if not isinstance(margin, int | float) or isinstance(margin, bool) or not (0 <= margin < math.inf):
            raise ValueError(f"margin must be a number >= 0, not {margin!r}")
        if margin != DEFAULT_MARGIN:
            given["margin"] = margin
        if not isinstance(z, int | float) or isinstance(z, bool) or not (0 <= z < math.inf):
            raise ValueError(f"z must be a number >= 0, not {z!r}")
        if z != DEFAULT_Z:
            given["z"] = z
        if type(width) is not int or width < 0 or width == 1:
            raise ValueError(f"width must be 0 (every action) or an int >= 2, not {width!r}")
        if width:
            given["width"] = width
        if rank not in RANKS:
            raise ValueError(f"rank must be one of {', '.join(RANKS)}, not {rank!r}")
        if rank != RANKS[0]:
            given["rank"] = rank
        self.width = width
        self.rank = rank
        self.z = float(z)
        self.iterations = iterations
        self.ms = ms
        self.depth = depth
        self.margin = float(margin)
        self.name = "pimc" + (":" + ",".join(f"{k}={_text(v)}" for k, v in given.items()) if given else "")
        self._seed = seed
        self._random = random.Random(seed)
        self._heuristic: Any = None
        self.last_rounds = 0
        self.last_seconds = 0.0
        self.rounds_total = 0
        self.seconds_total = 0.0
        self.decisions = 0
        self.overruled = 0

    @classmethod
    def from_options(cls, options: Mapping[str, str], seed: int = 0) -> PimcBot:
        """A :class:`PimcBot` from a bot name's options (``pimc:ms=100,depth=20``).

        Args:
            options: option name -> text: ``iterations`` (int), ``ms`` (number), ``depth`` (int),
                ``margin`` (number), ``z`` (number), ``width`` (int), ``rank`` (text).
            seed: the bot's seed.

        Raises:
            ValueError: an unknown option name, a value that does not parse, or one out of range.
        """
        parsers: dict[str, Callable[[str], Any]] = {
            "iterations": int,
            "ms": float,
            "depth": int,
            "margin": float,
            "z": float,
            "width": int,
            "rank": str,
        }
        kwargs = parse_bot_options(options, parsers)
        return cls(seed=seed, **kwargs)

    # ------------------------------------------------------------------ the Bot protocol

    def _heuristic_bot(self) -> Any:
        """The built-in heuristic bot (its move from the real view, and the playouts' policy)."""
        if self._heuristic is None:
            from bots.heuristic import HeuristicBot

            self._heuristic = HeuristicBot(self._seed)
        return self._heuristic

    def act(self, view: Any, legal_actions: list[Any], seat: int) -> Any:
        """Without a sampler there is nothing to search: the heuristic's move."""
        return self._heuristic_bot().act(view, legal_actions, seat)

    def act_with_sampler(self, view: Any, legal_actions: list[Any], seat: int, sample: Sampler) -> Any:
        """Search and choose one of ``legal_actions`` for ``seat``.

        Args:
            view: the seat's view (for the heuristic's move; the draws hold everything it knows).
            legal_actions: the seat's legal actions (never empty).
            seat: the bot's seat, which owes a decision.
            sample: ``sample(seed) -> State``, the live state's ``resample(seat, seed)``.

        Returns:
            One element of ``legal_actions``.
        """
        if len(legal_actions) == 1:
            self.last_rounds = 0
            self.last_seconds = 0.0
            return legal_actions[0]
        started = time.process_time()
        bot = self._heuristic_bot()
        default = bot.act(view, legal_actions, seat)
        order = list(range(len(legal_actions)))
        home = next((i for i, a in enumerate(legal_actions) if a is default or a == default), 0)
        order.remove(home)
        order.insert(0, home)  # the heuristic's move first: a round cut short still scored it
        deadline = None if self.ms is None else started + self.ms / 1000
        totals = [0.0] * len(legal_actions)  # sum over rounds of (reward - the heuristic move's reward)
        squares = [0.0] * len(legal_actions)  # sum of the squares of those differences
        rounds = 0
        while True:
            draw = sample(self._random.getrandbits(64))
            if rounds == 0 and self.width and len(order) > self.width:
                order = self._widest(draw, order, view, legal_actions, seat, bot)
            scores: list[float] = []
            cut_short = False
            for n, i in enumerate(order):
                if deadline is not None and time.process_time() >= deadline:
                    cut_short = True
                    break
                state = draw if n == len(order) - 1 else draw.clone()
                state.apply(seat, legal_actions[i])
                scores.append(self._playout(state, seat, bot))
            if cut_short:
                break
            home_score = scores[0]
            for i, score in zip(order, scores, strict=True):
                d = score - home_score
                totals[i] += d
                squares[i] += d * d
            rounds += 1
            if self.iterations is not None and rounds >= self.iterations:
                break
            if deadline is not None and time.process_time() >= deadline:
                break
        choice = self._choice(order, totals, squares, rounds) if rounds else home
        self.last_rounds = rounds
        self.last_seconds = time.process_time() - started
        self.rounds_total += rounds
        self.seconds_total += self.last_seconds
        self.decisions += 1
        self.overruled += choice != home
        return legal_actions[choice]

    def _widest(
        self, draw: Any, order: list[int], view: Any, legal_actions: list[Any], seat: int, bot: Any
    ) -> list[int]:
        """``order[0]`` (the heuristic's move) and the :attr:`width` ``- 1`` other actions ranked
        best (see "Width"): with :attr:`rank` ``"heuristic"``, by ``bot.scores`` from ``view``;
        else (or without scores) those that score best right after they are played on ``draw``
        (not changed): ``seat``'s share of the win if the game ends, else ``bot.estimate``. Ties
        keep the legal actions' order."""
        rates = bot.scores(view, legal_actions, seat) if self.rank == "heuristic" else None
        if rates is not None:
            ranked = sorted(order[1:], key=lambda i: -rates[i])
            return [order[0], *ranked[: self.width - 1]]
        scored = []
        for i in order[1:]:
            state = draw.clone()
            state.apply(seat, legal_actions[i])
            scored.append((-self._playout(state, seat, bot, depth=0), i))
        scored.sort()
        return [order[0], *(i for _, i in scored[: self.width - 1])]

    def _choice(self, order: list[int], totals: list[float], squares: list[float], rounds: int) -> int:
        """The index of the action to play (see "Choice" in the module docstring): ``order[0]``
        is the heuristic's move, ``totals`` and ``squares`` the sums of the paired differences
        against it and of their squares over ``rounds`` rounds."""
        home = order[0]
        best, best_value = home, self.margin
        for i in order[1:]:
            mean = totals[i] / rounds
            value = mean
            if self.z > 0:
                if rounds < 2:
                    continue
                variance = max(0.0, squares[i] - rounds * mean * mean) / (rounds - 1)
                value -= self.z * math.sqrt(variance / rounds)
            if value > best_value:
                best, best_value = i, value
        return best

    def _playout(self, state: Any, seat: int, bot: Any, depth: int | None = None) -> float:
        """Play ``state`` (consumed) on with ``bot`` for every seat, at most ``depth`` decisions
        (default :attr:`depth`): ``seat``'s share of the win at the end, else ``bot.estimate`` of
        ``seat``'s chance to win (0.5 when the game's heuristic has no estimate)."""
        act = bot.act
        for _ in range(self.depth if depth is None else depth):
            if state.is_over:
                break
            mover = state.to_act[0]
            legal = state.legal_actions(mover)
            state.apply(mover, legal[0] if len(legal) == 1 else act(state.view(mover), legal, mover))
        if state.is_over:
            winners = state.outcome.winners
            return 1.0 / len(winners) if seat in winners else 0.0
        chance = bot.estimate(state.view(seat), seat)
        return 0.5 if chance is None else chance


class HouseSearchBot:
    """``quick`` or ``strong``: the :data:`HOUSE` setting of the game and player count being played.

    The game and the player count are read from each view (``view.game``, ``len(view.players)``);
    the bot delegates the decision to a :class:`PimcBot` made from that cell's setting with the
    house bot's seed, or, where no search is measured stronger (:func:`house_setting`), to a
    :class:`bots.heuristic.HeuristicBot` with that seed, which then plays exactly the built-in
    heuristic's moves.

    Args:
        level: ``"quick"`` or ``"strong"``.
        seed: the seed of the search bot it makes.

    Raises:
        ValueError: an unknown level.
    """

    def __init__(self, level: str, seed: int = 0) -> None:
        if level not in HOUSE:
            raise ValueError(f"house bot must be one of {', '.join(HOUSE)}, not {level!r}")
        self.name = level
        self.level = level
        self._seed = seed
        self._bots: dict[tuple[str, int], Any] = {}

    def bot_for(self, game: str, players: int) -> Any:
        """The bot this house bot plays ``game`` with at ``players`` players (made at its first
        use): a :class:`PimcBot`, or a :class:`bots.heuristic.HeuristicBot` where
        :func:`house_setting` says ``heuristic``."""
        key = (game, players)
        if key not in self._bots:
            spec = house_setting(self.level, game, players)
            if spec == HEURISTIC:
                from bots.heuristic import HeuristicBot

                self._bots[key] = HeuristicBot(self._seed)
            else:
                _, _, rest = spec.partition(":")
                options = dict(item.split("=", 1) for item in rest.split(",") if item)
                self._bots[key] = PimcBot.from_options(options, self._seed)
        return self._bots[key]

    def _bot_for_view(self, view: Any) -> Any:
        return self.bot_for(getattr(view, "game", ""), len(getattr(view, "players", ())))

    def act(self, view: Any, legal_actions: list[Any], seat: int) -> Any:
        """Without a sampler: the heuristic's move."""
        return self._bot_for_view(view).act(view, legal_actions, seat)

    def act_with_sampler(self, view: Any, legal_actions: list[Any], seat: int, sample: Sampler) -> Any:
        """Search with the cell's setting (see :meth:`PimcBot.act_with_sampler`); where the house
        bot plays the heuristic, it plays without the sampler."""
        bot = self._bot_for_view(view)
        if not callable(getattr(bot, "act_with_sampler", None)):
            return bot.act(view, legal_actions, seat)
        return bot.act_with_sampler(view, legal_actions, seat, sample)
