"""The built-in ``heuristic`` bot: a hand-written strategy per game, chosen by ``view.game``.

>>> from bots.heuristic import HeuristicBot
>>> bot = HeuristicBot(seed=1)
>>> bot.name
'heuristic'

Each game's strategy lives in its own module (``bots/<game>_heuristic.py``) and is found through a
registry, as the engine finds its games: this module never imports a game's module, so a game's
strategy may import this one (and :mod:`bots.play`, to measure itself) without an import cycle.
Registering a new game's heuristic is one line in ``bots/__init__.py``::

    register_strategy("deadwood_studios", "bots.deadwood_studios_heuristic:DeadwoodStudiosStrategy")

The path names a class (or factory) called with ``seed`` whose ``choose(view, legal, seat)``
returns one element of ``legal`` (see :class:`Strategy`); its module is imported at the first
decision of that game, not before. A game without a registered strategy is played at random.
A strategy may also have ``scores(view, legal, seat) -> list[float]``, how it rates each legal
action (:meth:`HeuristicBot.scores`), and ``estimate(view, seat) -> float``, the seat's chance to win as it
reckons it from the view (:meth:`HeuristicBot.estimate`; the ``ismcts`` bot's ``cutoff=heuristic``
scores cut-off rollouts with it); all four games' strategies have one.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar, overload

__all__ = ["HeuristicBot", "Strategy", "beat_all_chance", "best_index", "lazy", "register_strategy", "strategies"]


class Strategy(Protocol):
    """One game's hand-written strategy, made with ``factory(seed)``; reads only the seat's view."""

    def choose(self, view: Any, legal: list[Any], seat: int) -> Any:
        """One element of ``legal`` (never empty) for ``seat``, which sees ``view``."""
        ...


_STRATEGIES: dict[str, str] = {}


_T = TypeVar("_T")


class lazy(Generic[_T]):  # noqa: N801 - a decorator, like functools.cached_property
    """An attribute worked out at its first read and then kept in the instance's ``__dict__``:
    :class:`functools.cached_property` without its lock (Python 3.11 takes a lock on every first
    read, which costs more than most of the values a heuristic's per-decision context holds).
    For objects one thread uses, such as those contexts.

    >>> class Ctx:
    ...     @lazy
    ...     def answer(self) -> int:
    ...         return 42
    >>> ctx = Ctx()
    >>> ctx.answer, "answer" in vars(ctx)
    (42, True)
    """

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, objtype: type | None = None) -> lazy[_T]: ...

    @overload
    def __get__(self, obj: object, objtype: type | None = None) -> _T: ...

    def __get__(self, obj: object, objtype: type | None = None) -> _T | lazy[_T]:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


def best_index(scores: Sequence[float], draw: Callable[[], float], digits: int = 6) -> int:
    """The index of the highest of ``scores`` rounded to ``digits`` decimals; exact ties are broken
    by ``draw()`` (a uniform random number), drawn once per score, in order, whatever the scores
    (so a strategy's random source advances the same way on every decision of the same size).

    >>> best_index([1.0, 3.0000000001, 3.0], iter([0.9, 0.1, 0.5]).__next__)
    2
    """
    keys = [(round(score, digits), draw()) for score in scores]
    return max(range(len(keys)), key=keys.__getitem__)


def beat_all_chance(scores: Sequence[float], seat: int, scale: float) -> float:
    """A rough chance that ``seat`` finishes ahead of every other seat, from scores as they stand:
    the product over the others of a logistic on the score difference, ``scale`` score units wide
    (a lead of ``scale`` makes that pair's odds ``e : 1``); in ``(0, 1)``. For strategies'
    ``estimate``.

    >>> round(beat_all_chance([10, 10], 0, 4.0), 3)
    0.5
    >>> round(beat_all_chance([14, 10, 2], 0, 4.0), 3)
    0.696
    """
    chance = 1.0
    mine = scores[seat]
    for other, score in enumerate(scores):
        if other != seat:
            chance /= 1.0 + math.exp(max(-50.0, min(50.0, (score - mine) / scale)))
    return chance


def register_strategy(game_id: str, path: str) -> None:
    """Register ``game_id``'s strategy: ``path`` is ``"package.module:Class"``, imported when first needed.

    Registering a game again replaces its strategy (for tests and experiments).

    Raises:
        ValueError: ``path`` is not ``module:attribute``.
    """
    module, colon, attr = path.partition(":")
    if not (module and colon and attr):
        raise ValueError(f"bad strategy path {path!r}: expected package.module:Class")
    _STRATEGIES[game_id] = path


def strategies() -> Mapping[str, str]:
    """The registered strategies: game id -> ``"package.module:Class"`` (a read-only copy)."""
    return dict(_STRATEGIES)


def _strategy(game: str, seed: int) -> Strategy | None:
    """The strategy for ``game`` made with ``seed``, or ``None`` when none is registered."""
    path = _STRATEGIES.get(game)
    if path is None:
        return None
    module, _, attr = path.partition(":")
    factory: Any = importlib.import_module(module)
    for part in attr.split("."):
        factory = getattr(factory, part)
    strategy: Strategy = factory(seed)
    return strategy


class HeuristicBot:
    """Plays by a per-game heuristic that reads only its view and the legal actions.

    Games without a heuristic strategy are played uniformly at random. The same seed and the same
    decisions give the same choices.

    Args:
        seed: seeds the strategy's tie-breaking (and the random fallback).
    """

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._strategies: dict[str, Strategy | None] = {}
        self._random = random.Random(seed)

    def act(self, view: Any, legal_actions: list[Any], seat: int) -> Any:
        """Choose one of ``legal_actions``."""
        strategy = self._strategy_for(view)
        if strategy is None:
            return legal_actions[self._random.randrange(len(legal_actions))]
        return strategy.choose(view, legal_actions, seat)

    def scores(self, view: Any, legal_actions: list[Any], seat: int) -> list[float] | None:
        """How the game's strategy rates each of ``legal_actions``, higher better (one float per
        action, in order), or ``None`` when the strategy has no ``scores`` (or the game no
        strategy). Search bots use it to choose which actions to search (``pimc``'s
        ``rank=heuristic``)."""
        scores = getattr(self._strategy_for(view), "scores", None)
        if scores is None:
            return None
        return [float(score) for score in scores(view, legal_actions, seat)]

    def estimate(self, view: Any, seat: int) -> float | None:
        """``seat``'s chance to win, in ``[0, 1]``, as its game's strategy judges it from ``view``
        (the seat's own view), or ``None`` when the strategy has no ``estimate`` (or the game no
        strategy). Search bots use it to score positions where they stop looking ahead."""
        estimate = getattr(self._strategy_for(view), "estimate", None)
        if estimate is None:
            return None
        return float(estimate(view, seat))

    def _strategy_for(self, view: Any) -> Strategy | None:
        """The strategy of ``view.game`` (made with the bot's seed at its first use), or ``None``."""
        game = getattr(view, "game", "")
        if game not in self._strategies:
            self._strategies[game] = _strategy(game, self.seed)
        return self._strategies[game]
