"""The Bot protocol, the random bot and :func:`make_bot`."""

from __future__ import annotations

import importlib
import inspect
import random
from typing import Any, Protocol, runtime_checkable

__all__ = ["Bot", "RandomBot", "UnknownBot", "make_bot"]


class UnknownBot(ValueError):
    """A bot name that names no bot that can be made (the message says why)."""


@runtime_checkable
class Bot(Protocol):
    """Anything that chooses actions from views.

    Attributes:
        name: a short display name (``"random"``, ``"heuristic"``, a class name, ...).
    """

    name: str

    def act(self, view: Any, legal_actions: list[Any], seat: int) -> Any:
        """Choose one of ``legal_actions`` (never empty) for ``seat``, which sees ``view``.

        Returns:
            One element of ``legal_actions``. Anything else is a fault: the game plays
            ``legal_actions[0]`` instead and goes on.
        """
        ...


class RandomBot:
    """Chooses uniformly among the legal actions, with its own seeded random source.

    Args:
        seed: seeds the bot's ``random.Random``; the same seed and the same decisions give the
            same choices.
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def act(self, view: Any, legal_actions: list[Any], seat: int) -> Any:
        """A uniformly random element of ``legal_actions``."""
        return legal_actions[self._random.randrange(len(legal_actions))]


def _accepts_seed(factory: Any) -> bool:
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "seed" or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


def _load_object(spec: str, seed: int) -> Bot:
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise UnknownBot(f"bad bot path {spec!r}: expected package.module:Class")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # an import runs arbitrary code: report any failure as a bad bot
        raise UnknownBot(f"cannot import bot module {module_name!r}: {exc}") from None
    factory: Any = module
    for part in attr.split("."):
        try:
            factory = getattr(factory, part)
        except AttributeError:
            raise UnknownBot(f"bot module {module_name!r} has no {attr!r}") from None
    if not callable(factory):
        raise UnknownBot(f"bot {spec!r} is not a class or factory")
    try:
        bot = factory(seed=seed) if _accepts_seed(factory) else factory()
    except Exception as exc:
        raise UnknownBot(f"cannot create bot {spec!r}: {exc}") from None
    if not callable(getattr(bot, "act", None)):
        raise UnknownBot(f"bot {spec!r} has no act(view, legal_actions, seat) method")
    return bot  # type: ignore[no-any-return]


def make_bot(spec: str, seed: int) -> Bot:
    """Make a bot from its name on the command line.

    Args:
        spec: ``"random"``, or a Python object path ``"package.module:Class"`` (called with
            ``seed=seed`` if it takes a ``seed`` argument, else with no arguments), or
            ``"cmd:COMMAND LINE"``: an external program speaking the JSON-lines bot protocol
            (:class:`bots.external.ExternalBot` with default limits; its process starts at the
            first decision), or ``"heuristic"`` (:class:`bots.heuristic.HeuristicBot`, a
            hand-written strategy per game).
        seed: the bot's seed.

    Returns:
        A :class:`Bot`.

    Raises:
        UnknownBot: the name is unknown, not available yet, or cannot be imported or created.
    """
    spec = spec.strip()
    if spec == "random":
        return RandomBot(seed)
    if spec == "heuristic":
        from bots.heuristic import HeuristicBot

        return HeuristicBot(seed)
    if spec.startswith("cmd:"):
        from bots.external import ExternalBot

        command = spec[len("cmd:") :].strip()
        try:
            return ExternalBot(command, seed)
        except ValueError as exc:  # an empty command or unbalanced quotes
            raise UnknownBot(f"bad external bot {spec!r}: {exc}") from None
    if ":" in spec:
        return _load_object(spec, seed)
    raise UnknownBot(f"unknown bot {spec!r}; use 'random' or package.module:Class")
