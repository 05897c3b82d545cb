"""The Bot protocol, the random bot and :func:`make_bot`."""

from __future__ import annotations

import importlib
import inspect
import random
from typing import Any, Protocol, runtime_checkable

__all__ = ["BUILTIN_BOTS", "Bot", "RandomBot", "UnknownBot", "make_bot"]

BUILTIN_BOTS = ("random", "heuristic", "ismcts", "pimc", "quick", "strong")
"""The built-in bot names; ``NAME:key=value,...`` passes options to those that take some."""


class UnknownBot(ValueError):
    """A bot name that names no bot that can be made (the message says why)."""


@runtime_checkable
class Bot(Protocol):
    """Anything that chooses actions from views.

    Attributes:
        name: a short display name (``"random"``, ``"heuristic"``, a class name, ...).

    Optional hook for search bots: a bot may also define::

        def act_with_sampler(self, view, legal_actions, seat, sample) -> Action

    where ``sample(seed: int) -> State`` returns ``state.resample(seat, seed)`` of the live
    state: a fresh determinization drawn only from what ``seat`` knows, so it leaks nothing and
    the bot may change it freely. A runner calls ``act_with_sampler`` instead of :meth:`act`
    when the bot has it and the game's states have ``resample`` (:func:`bots.play_game` does);
    other runners call :meth:`act`, so such a bot still needs a sensible ``act``.
    ``sample`` is valid only during that call. Only in-process (trusted) bots get a sampler;
    external bots see views. See :class:`bots.ismcts.IsmctsBot` and ``docs/ismcts.md``.
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


def _builtin_options(spec: str) -> tuple[str, dict[str, str]] | None:
    """``(name, options)`` when ``spec`` names a built-in bot (``NAME`` or ``NAME:OPTIONS``), else
    ``None``. OPTIONS is ``key=value`` pairs separated by ``,`` or ``:`` (the latter for command
    lines that split bot lists on commas).

    Raises:
        UnknownBot: an option without ``=``, an empty key, or a key given twice.
    """
    name, colon, rest = spec.partition(":")
    name = name.strip()
    if name not in BUILTIN_BOTS:
        return None
    options: dict[str, str] = {}
    if not colon:
        return name, options
    for item in rest.replace(":", ",").split(","):
        key, equals, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not equals or not key:
            raise UnknownBot(f"bad option {item.strip()!r} in bot {spec!r}: expected key=value")
        if key in options:
            raise UnknownBot(f"option {key!r} given twice in bot {spec!r}")
        options[key] = value
    return name, options


def make_bot(spec: str, seed: int) -> Bot:
    """Make a bot from its name on the command line.

    Args:
        spec: ``"random"``, or a Python object path ``"package.module:Class"`` (called with
            ``seed=seed`` if it takes a ``seed`` argument, else with no arguments), or
            ``"cmd:COMMAND LINE"``: an external program speaking the JSON-lines bot protocol
            (:class:`bots.external.ExternalBot` with default limits; its process starts at the
            first decision), or ``"heuristic"`` (:class:`bots.heuristic.HeuristicBot`, a
            hand-written strategy per game), or ``"ismcts"`` (:class:`bots.ismcts.IsmctsBot`,
            information set Monte Carlo tree search) with options after a colon, ``key=value``
            separated by ``,`` or ``:``: ``"ismcts:iterations=2000"``, ``"ismcts:ms=100"``,
            ``"ismcts:iterations=500,c=1.0,rollout=heuristic"`` (keys: ``iterations``, ``ms``,
            ``c``, ``rollout``, ``depth``, ``prior``; see ``docs/ismcts.md``), or ``"pimc"``
            (:class:`bots.pimc.PimcBot`, determinized search with heuristic playouts; keys
            ``iterations``, ``ms``, ``depth``, ``margin``: ``"pimc:ms=100,depth=20"``), or the house
            bots ``"quick"`` and ``"strong"`` (the strongest measured search per game at 100 ms and
            1 s of CPU per decision, :class:`bots.pimc.HouseSearchBot`; see ``docs/search.md``).
        seed: the bot's seed.

    Returns:
        A :class:`Bot`.

    Raises:
        UnknownBot: the name is unknown, not available yet, or cannot be imported or created;
            or a built-in bot's options are malformed, unknown or out of range.
    """
    spec = spec.strip()
    builtin = _builtin_options(spec)
    if builtin is not None:
        name, options = builtin
        if name == "ismcts":
            from bots.ismcts import IsmctsBot

            try:
                return IsmctsBot.from_options(options, seed)
            except ValueError as exc:
                raise UnknownBot(f"bad bot {spec!r}: {exc}") from None
        if name == "pimc":
            from bots.pimc import PimcBot

            try:
                return PimcBot.from_options(options, seed)
            except ValueError as exc:
                raise UnknownBot(f"bad bot {spec!r}: {exc}") from None
        if options:
            raise UnknownBot(f"bot {name!r} takes no options, not {spec!r}")
        if name in ("quick", "strong"):
            from bots.pimc import HouseSearchBot

            return HouseSearchBot(name, seed)
        if name == "random":
            return RandomBot(seed)
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
    raise UnknownBot(f"unknown bot {spec!r}; use {', '.join(BUILTIN_BOTS)}, package.module:Class or cmd:COMMAND")
