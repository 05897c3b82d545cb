"""The game-agnostic engine contract: errors, outcomes, chance, the game protocol and the registry.

Every game in Saloon is a :class:`Game` whose :meth:`Game.new_game` returns a :class:`State`.
Outside code (replays, bots, the tournament runner, the TUI, the SSH server and outside tests)
drives games only through the names defined here; see ``DESIGN.md``.

The engine is pure: no I/O, no clocks, no global random state. All chance comes from the
state's own :class:`Chance`, seeded by the game's seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import msgspec

__all__ = [
    "OMNISCIENT",
    "Chance",
    "Game",
    "IllegalAction",
    "InvalidOptions",
    "Outcome",
    "State",
    "UnknownGame",
    "game",
    "games",
    "rank_by_scores",
    "register",
]


OMNISCIENT = -1
"""Pass as the seat to :meth:`State.view` / :meth:`State.events` for everything, hidden parts included.

Only the replay viewer and tests use it; a live table never does.
"""


class IllegalAction(ValueError):
    """An action that is not legal for that seat now; the state is left unchanged."""


class InvalidOptions(ValueError):
    """Options that the game does not know, or values out of range."""


class UnknownGame(KeyError):
    """A game id that is not registered.

    A ``KeyError`` (so ``games()[id]``-style code keeps working) whose message is readable.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"


class Outcome(msgspec.Struct, frozen=True):
    """The result of a finished game.

    Attributes:
        scores: one number per seat, seat order; higher is better.
        ranks: one rank per seat, seat order; 1 is best, tied seats share a rank
            (standard competition ranking: 1, 2, 2, 4).
        winners: the seats that won, ascending; empty when nobody won.
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]


def rank_by_scores(keys: Sequence[Any]) -> tuple[int, ...]:
    """Competition ranks from per-seat sort keys, where a larger key is better.

    Args:
        keys: one comparable key per seat.

    Returns:
        One rank per seat (1 = best; equal keys share a rank, the next rank skips).

    >>> rank_by_scores([3, 1, 3, 2])
    (1, 4, 1, 3)
    """
    return tuple(1 + sum(1 for other in keys if other > key) for key in keys)


MAX_SEED = 2**64 - 1
"""The largest seed a game takes: a replay stores the seed as an unsigned 64-bit integer."""


class Chance:
    """The state's own source of chance: dice rolls and shuffles, seeded once.

    All randomness of a game goes through one instance of this class, in a fixed order, so the
    same seed and the same actions give the same game on every machine. Scenario tests replace
    it (see ``tests/helpers``) with a scripted source to fix dice and decks.

    Args:
        seed: any non-negative integer.
    """

    __slots__ = ("_random",)

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``; ``n`` must be positive."""
        return self._random.randrange(n)

    def roll(self, faces: Sequence[int]) -> int:
        """Roll a die with the given faces and return the face shown (uniform)."""
        return faces[self._random.randrange(len(faces))]

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place, uniformly."""
        self._random.shuffle(items)

    def clone(self) -> Chance:
        """An independent copy that will produce the same future results."""
        other = Chance.__new__(Chance)
        other._random = random.Random()
        other._random.setstate(self._random.getstate())
        return other

    def fingerprint(self) -> bytes:
        """Bytes that identify the future results (for :meth:`State.digest`)."""
        version, internal, gauss = self._random.getstate()
        return repr((version, internal[-1], internal[:4], gauss)).encode()


@runtime_checkable
class State(Protocol):
    """One game in progress; see ``DESIGN.md`` for the full contract."""

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that owe a decision now, ascending (several for simultaneous choices)."""
        ...

    def legal_actions(self, seat: int) -> list[Any]:
        """The seat's legal actions in canonical order; empty when the seat owes nothing."""
        ...

    def apply(self, seat: int, action: Any) -> None:
        """Apply one action; raises :class:`IllegalAction` and changes nothing if not legal."""
        ...

    def view(self, seat: int | None) -> Any:
        """What ``seat`` may know (``None``: a spectator, public information only)."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        ...

    @property
    def outcome(self) -> Outcome:
        """The result; raises ``ValueError`` while the game is not over."""
        ...

    def events(self, seat: int | None, since: int = 0) -> list[Any]:
        """What happened that ``seat`` may know, from its ``since``-th event on."""
        ...

    def digest(self) -> str:
        """A hex hash of the whole state, hidden parts included."""
        ...

    def clone(self) -> State:
        """An independent copy."""
        ...


@runtime_checkable
class Game(Protocol):
    """A registered game: its identity, player range and how to start it."""

    id: str
    title: str
    min_players: int
    max_players: int
    rules_version: str
    options_type: Any  # the game's Options msgspec Struct class
    action_type: Any  # the tagged union of the game's action Structs
    view_type: Any  # the game's View Struct class
    event_type: Any  # the tagged union of the game's event Structs

    def new_game(self, num_players: int, seed: int, options: Any = None) -> State:
        """A new game; ``ValueError`` for a bad player count, ``InvalidOptions`` for bad options."""
        ...

    def describe(self, action: Any, view: Any) -> str:
        """One line a person understands for ``action`` seen from ``view``."""
        ...

    def rules_help(self) -> str:
        """The rules summary shown by the help screen (plain text, Markdown allowed)."""
        ...


_REGISTRY: dict[str, Game] = {}
_LOADERS: dict[str, Callable[[], Game]] = {}


def register(game_id: str, loader: Callable[[], Game]) -> None:
    """Register a game under ``game_id``; ``loader`` builds it on first use."""
    _LOADERS[game_id] = loader


def games() -> dict[str, Game]:
    """Every registered game, by id, in registration order."""
    return {game_id: game(game_id) for game_id in _LOADERS}


def game(game_id: str) -> Game:
    """The game registered as ``game_id``.

    Raises:
        UnknownGame: no game has that id (the message lists the known ids).
    """
    found = _REGISTRY.get(game_id)
    if found is None:
        loader = _LOADERS.get(game_id)
        if loader is None:
            known = ", ".join(sorted(_LOADERS)) or "none"
            raise UnknownGame(f"unknown game {game_id!r}; known games: {known}")
        found = _REGISTRY[game_id] = loader()
    return found


def parse_options(options_type: type[msgspec.Struct], options: Any) -> Any:
    """Turn ``None``, a dict or an ``options_type`` instance into ``options_type``.

    Dict values may be strings as typed on a command line (``"true"``, ``"3"``): they are
    converted to the field's type.

    Raises:
        InvalidOptions: an unknown key, or a value of the wrong type or out of range.
    """
    if options is None:
        return options_type()
    if isinstance(options, options_type):
        return options
    if not isinstance(options, dict):
        raise InvalidOptions(f"options must be a dict or {options_type.__name__}, not {type(options).__name__}")
    known = set(options_type.__struct_fields__)
    unknown = sorted(set(options) - known)
    if unknown:
        raise InvalidOptions(
            f"unknown option(s) {', '.join(unknown)}; known options: {', '.join(sorted(known)) or 'none'}"
        )
    try:
        return msgspec.convert(options, options_type, strict=False)
    except msgspec.ValidationError as exc:
        raise InvalidOptions(f"bad option value: {exc}") from None
