"""The game-agnostic engine contract: errors, outcomes, chance, the game protocol and the registry.

Every game in Saloon is a :class:`Game` whose :meth:`Game.new_game` returns a :class:`State`.
Outside code (replays, bots, the tournament runner, the TUI, the SSH server and outside tests)
drives games only through the names defined here; see ``DESIGN.md``.

The engine is pure: no I/O, no clocks, no global random state. All chance comes from the
state's own :class:`Chance`, seeded by the game's seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from typing import Any, Protocol, runtime_checkable

import msgspec

__all__ = [
    "OMNISCIENT",
    "Chance",
    "Game",
    "GameCapped",
    "IllegalAction",
    "InvalidOptions",
    "Outcome",
    "State",
    "UnknownGame",
    "check_new_game",
    "check_seat",
    "find_legal",
    "forfeit_outcome",
    "legal_index",
    "game",
    "games",
    "rank_by_scores",
    "visible_events",
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


class GameCapped(msgspec.Struct, frozen=True, tag="game_capped"):
    """The game reached its hard cap on decisions (:meth:`Game.max_decisions`) and ends here.

    A public event, in every game's event log (every seat and spectators see it, as do replays
    and the TUI's log), logged just before the game's own end events: the game is then scored
    as its module docstring says (each game documents its outcome at the cap and why).

    Attributes:
        decisions: the decisions (applied actions) played in the game: the cap.
    """

    decisions: int


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


def forfeit_outcome(outcome: Outcome, forfeited: Collection[int]) -> Outcome:
    """The one result recorded for a finished game in which the seats ``forfeited`` forfeited (a
    substitute played on for them: they left, timed out or faulted too often).

    The server (game log, ladder ratings and leaderboard, the table's own result) and tournaments
    (ratings, wins) all record this, so a game has one result everywhere:

    * Nobody forfeited, or everyone did (an abandoned game: nobody is left to rank above anyone,
      and the substitutes played it out), or the game itself ended it (at its decision cap, say):
      the engine's outcome itself.
    * Otherwise the seats that forfeited share last place and the others keep the engine's order
      among themselves (competition ranking). The winners are the seats then ranked first (a win
      by forfeit), or nobody if the engine named no winner. The scores are the engine's.

    So the winners are always the seats ranked 1, or nobody where the engine named nobody.

    Args:
        outcome: the engine's outcome.
        forfeited: the seats that forfeited (any collection of seat numbers).

    Returns:
        ``outcome`` itself, or a new :class:`Outcome` as above.

    Raises:
        ValueError: a seat of ``forfeited`` is not a seat of ``outcome``.

    >>> forfeit_outcome(Outcome((3.0, 5.0, 1.0), (2, 1, 3), (1,)), {1})
    Outcome(scores=(3.0, 5.0, 1.0), ranks=(1, 3, 2), winners=(0,))
    >>> forfeit_outcome(Outcome((3.0, 5.0), (2, 1), (1,)), {0, 1})  # abandoned: the engine's
    Outcome(scores=(3.0, 5.0), ranks=(2, 1), winners=(1,))
    """
    n = len(outcome.ranks)
    gone = set(forfeited)
    for seat in gone:
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"forfeited seat {seat!r} is not a seat of a {n}-player game")
    if not gone or len(gone) == n:
        return outcome
    ranks = rank_by_scores([(0, 0) if seat in gone else (1, -rank) for seat, rank in enumerate(outcome.ranks)])
    winners = tuple(seat for seat, rank in enumerate(ranks) if rank == 1) if outcome.winners else ()
    return Outcome(outcome.scores, ranks, winners)


def check_seat(
    seat: Any, num_players: int, *, observers_ok: bool = False, error: type[ValueError] = ValueError
) -> None:
    """Check that ``seat`` names a seat of a ``num_players``-player game; every game's methods
    that take a seat validate it with this one function.

    A seat is an ``int`` (exactly: not a ``bool``, a float such as ``1.0``, a string, an int
    subclass or a numpy integer) from ``0`` to ``num_players - 1``. With ``observers_ok`` (for
    ``view`` and ``events``) ``None`` (a spectator) and :data:`OMNISCIENT` are accepted too.

    Raises:
        error: (``ValueError`` or a subclass such as :class:`IllegalAction`) ``seat`` is not
            one of those; the message names the seat and what is accepted.
    """
    if type(seat) is int:
        if 0 <= seat < num_players or (observers_ok and seat == OMNISCIENT):
            return
    elif seat is None and observers_ok:
        return
    accepted = f"an int from 0 to {num_players - 1}"
    if observers_ok:
        accepted += ", None (a spectator) or engine.OMNISCIENT"
    raise error(f"a seat must be {accepted} in a {num_players}-player game, not {seat!r} ({type(seat).__name__})")


def _same(mine: Any, theirs: Any) -> bool:
    """True if ``theirs`` equals ``mine`` with the same exact type at every level, decided by
    ``mine``'s type alone (``theirs``'s own ``__eq__`` is never called)."""
    kind = type(mine)
    if type(theirs) is not kind:
        return False
    if isinstance(mine, msgspec.Struct):
        return all(map(_same, msgspec.structs.astuple(mine), msgspec.structs.astuple(theirs)))
    if kind is tuple or kind is list:
        return len(mine) == len(theirs) and all(map(_same, mine, theirs))
    return bool(mine == theirs)


def find_legal(action: Any, legal: Sequence[Any], action_types: Collection[type]) -> Any:
    """The element of ``legal`` that ``action`` stands for, or :class:`IllegalAction`.

    ``action`` must be an instance of exactly one of ``action_types`` (a subclass is not one
    of the game's actions) and equal to a legal action field by field, each field of the same
    exact type (``1.0`` or ``True`` do not stand for ``1``). Equality is decided by the legal
    action's types only, so an object whose ``__eq__`` is always true, or that hashes like a
    legal action, matches nothing. The legal object itself is returned: rules then work on
    the engine's own values, never on the caller's.

    Args:
        action: what the caller wants to play.
        legal: the seat's legal actions (the engine's own objects).
        action_types: the game's action classes.

    Raises:
        IllegalAction: ``action`` is not a game action, or not one of ``legal``.
    """
    for candidate in legal:  # the common case: an object taken from legal_actions()
        if candidate is action:
            return candidate
    kind = type(action)
    if not any(kind is t for t in action_types):  # identity: a metaclass's __eq__ cannot lie
        raise IllegalAction(f"{action!r} is not an action of this game ({kind.__module__}.{kind.__qualname__})")
    for candidate in legal:
        if type(candidate) is kind and _same(candidate, action):
            return candidate
    raise IllegalAction(f"{action!r} is not a legal action now")


def legal_index(action: Any, legal: Sequence[Any]) -> int:
    """The index in ``legal`` of the legal action ``action`` stands for: the same object, or one
    of exactly the same type equal field by field (as :func:`find_legal`, without the game's
    action types: only the legal actions' own types count). ``action``'s ``__eq__`` is never
    called, so an object equal to everything matches nothing. Callers outside the engine (the
    replay recorder, bot runners, tables) use it to map a bot's answer to a move.

    Raises:
        IllegalAction: ``action`` stands for none of ``legal``.
    """
    for index, candidate in enumerate(legal):
        if candidate is action:
            return index
    for index, candidate in enumerate(legal):
        if _same(candidate, action):
            return index
    raise IllegalAction(f"{action!r:.200} is not a legal action now")


MAX_SEED = 2**64 - 1
"""The largest seed a game takes: a replay stores the seed as an unsigned 64-bit integer."""


LogEntry = tuple[Any, tuple[int, ...], Any]
"""One entry of a state's event log: ``(public event or None, seats that see the private
version, private event or None)``."""


def check_new_game(game: Any, num_players: Any, seed: Any) -> None:
    """Check ``new_game``'s player count and seed, for every game.

    Raises:
        ValueError: ``num_players`` is not exactly an ``int`` or outside
            ``game.min_players..game.max_players``; ``seed`` is not an integer in ``0..MAX_SEED``.
    """
    if type(num_players) is not int:
        raise ValueError(f"number of players must be an int, not {num_players!r} ({type(num_players).__name__})")
    if not game.min_players <= num_players <= game.max_players:
        raise ValueError(f"{game.title} takes {game.min_players} to {game.max_players} players, not {num_players}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be an integer from 0 to {MAX_SEED} (what a replay stores), not {seed!r}")


def visible_events(log: Sequence[LogEntry], seat: Any, num_players: int, since: Any) -> list[Any]:
    """``State.events`` for a log of :data:`LogEntry`: what ``seat`` may know, from its
    ``since``-th such event on (``OMNISCIENT``: the private version where there is one; a seat:
    its own private versions; ``None``: public events only).

    Raises:
        ValueError: ``seat`` as :func:`check_seat` with observers, or ``since`` not an ``int >= 0``.
    """
    check_seat(seat, num_players, observers_ok=True)
    if type(since) is not int or since < 0:
        raise ValueError(f"since must be an int >= 0, not {since!r} ({type(since).__name__})")
    out: list[Any] = []
    for public, seats, private in log:
        if seat == OMNISCIENT:
            event = private if private is not None else public
        elif seat is not None and seat in seats:
            event = private
        else:
            event = public
        if event is not None:
            out.append(event)
    return out[since:]


class Chance:
    """The state's own source of chance: dice rolls and shuffles, seeded once.

    All randomness of a game goes through one instance of this class, in a fixed order, so the
    same seed and the same actions give the same game on every machine. Scenario tests replace
    it (see ``tests/helpers``) with a scripted source to fix dice and decks.

    Args:
        seed: any non-negative integer.
    """

    __slots__ = ("_random", "_below", "_shared")

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)
        # what randrange(n) draws for an int n > 0, without randrange's checks
        self._below: Callable[[int], int] = self._random._randbelow  # type: ignore[attr-defined]
        self._shared = False

    def _own(self) -> None:
        """Copy the generator before the first draw after :meth:`clone` (copy on write)."""
        mine = random.Random.__new__(random.Random)  # unseeded: setstate fills it
        mine.setstate(self._random.getstate())
        self._random = mine
        self._below = mine._randbelow  # type: ignore[attr-defined]
        self._shared = False

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``; ``n`` must be positive."""
        if self._shared:
            self._own()
        if type(n) is not int or n <= 0:
            return self._random.randrange(n)  # the same draw, or randrange's error
        return self._below(n)

    def roll(self, faces: Sequence[int]) -> int:
        """Roll a die with the given faces and return the face shown (uniform)."""
        if self._shared:
            self._own()
        if not faces:
            raise ValueError("a die needs at least one face")
        return faces[self._below(len(faces))]

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place, uniformly."""
        if self._shared:
            self._own()
        self._random.shuffle(items)

    def clone(self) -> Chance:
        """An independent copy that will produce the same future results.

        Copy on write: both share the generator until either draws; each copies it before its
        first draw (copying the generator's state is most of the cost of a clone).
        """
        other = Chance.__new__(Chance)
        other._random = self._random
        other._below = self._below
        other._shared = self._shared = True
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
        """The seat's legal actions in canonical order; empty when the seat owes nothing.

        Raises :class:`IllegalAction` (a ``ValueError``) when ``seat`` is not an ``int`` seat
        ``0..n-1`` (see :func:`check_seat`). The list is the caller's to change.
        """
        ...

    def apply(self, seat: int, action: Any) -> None:
        """Apply one action; raises :class:`IllegalAction` and changes nothing if not legal.

        Refused too: a ``seat`` that is not an ``int`` seat owing a decision (``True``, ``1.0``
        and ``"1"`` are not seats), and an ``action`` that is not an instance of exactly one of
        the game's action classes (see :func:`find_legal`), whatever its ``__eq__`` says.
        """
        ...

    def view(self, seat: int | None) -> Any:
        """What ``seat`` may know (``None``: a spectator, public information only).

        ``seat`` is an ``int`` seat ``0..n-1``, ``None`` or :data:`OMNISCIENT`, the same as for
        :meth:`events`; anything else raises ``ValueError`` (see :func:`check_seat`).
        """
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
        """What happened that ``seat`` may know, from its ``since``-th event on.

        ``seat`` as for :meth:`view` (``ValueError`` otherwise); ``since`` an ``int >= 0``.
        """
        ...

    def digest(self) -> str:
        """A hex hash of the whole state, hidden parts included."""
        ...

    def clone(self) -> State:
        """An independent copy."""
        ...

    def resample(self, seat: int, seed: int) -> State:
        """A determinization for ``seat`` (what Information Set MCTS samples): an independent copy
        in which everything hidden from ``seat`` is drawn again from what ``seat`` knows.

        Redrawn: other seats' hands, unseen Safes or cards, the order and contents of decks and
        stacks, other seats' hidden simultaneous choices already made, and future chance (reseeded
        from ``seed``). Kept: everything public, ``seat``'s own hand and choices, and what it has
        learned (cards and Safes it saw stay where it knows them to be). The copy has the same
        ``view(seat)``, ``to_act`` and ``legal_actions(seat)`` and plays on like any state; this
        state is unchanged. Once the game is over, a plain :meth:`clone`.

        Args:
            seat: a player seat, an ``int`` ``0..n-1`` (``None`` and :data:`OMNISCIENT` are not).
            seed: an ``int >= 0``; the same state, seat and seed give the same copy.

        Raises:
            ValueError: ``seat`` is not a player seat (see :func:`check_seat`), or ``seed`` is
                not an ``int >= 0``.
        """
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

    def describe(self, action: Any, view: Any, seat: int | None = None) -> str:
        """One line a person understands for ``action`` seen from ``view``.

        ``seat`` (optional) is the seat that takes ``action``. Left out, or ``view``'s own seat,
        the line is the viewer's own move ("Pass your Safe"); another seat (for an omniscient or
        spectator view) gets a line that names that seat and never says "your".
        """
        ...

    def rules_help(self) -> str:
        """The rules summary shown by the help screen (plain text, Markdown allowed)."""
        ...

    def max_decisions(self, num_players: int) -> int:
        """The hard cap on decisions (applied actions) in one ``num_players``-player game.

        Set per game far above what real games take (measured by
        ``tests/bench/decision_counts.py``). The engine enforces it: the ``apply`` that makes the
        count reach the cap ends the game, with a :class:`GameCapped` event and the outcome the
        game's module docstring documents, so every game ends within it.

        Raises:
            ValueError: ``num_players`` is outside ``min_players..max_players``.
        """
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
    converted to the field's type. Other values must have the field's type exactly: ``3.0``
    or ``True`` for an ``int`` option, ``1`` for a ``bool`` one, are refused. An
    ``options_type`` instance is checked the same way (its constructor checks nothing) and
    returned as is.

    Returns:
        An instance of exactly ``options_type``.

    Raises:
        InvalidOptions: a key that is not a known option name, or a value of the wrong type or
            out of the field's range.
    """
    if options is None:
        return options_type()
    if isinstance(options, options_type):
        # A Struct's constructor checks no types: re-check every field (a subclass is replaced).
        try:
            checked = msgspec.convert(msgspec.structs.asdict(options), options_type)
        except msgspec.ValidationError as exc:
            raise InvalidOptions(f"bad option value: {exc}") from None
        return options if type(options) is options_type else checked
    if not isinstance(options, dict):
        raise InvalidOptions(f"options must be a dict or {options_type.__name__}, not {type(options).__name__}")
    known = set(options_type.__struct_fields__)
    bad_keys = [key for key in options if type(key) is not str]
    if bad_keys:
        raise InvalidOptions(f"option names must be strings, not {bad_keys[0]!r}")
    unknown = sorted(set(options) - known)
    if unknown:
        raise InvalidOptions(
            f"unknown option(s) {', '.join(unknown)}; known options: {', '.join(sorted(known)) or 'none'}"
        )
    try:
        typed = {
            key: getattr(msgspec.convert({key: value}, options_type, strict=False), key)
            if isinstance(value, str)
            else value
            for key, value in options.items()
        }
        return msgspec.convert(typed, options_type)
    except msgspec.ValidationError as exc:
        raise InvalidOptions(f"bad option value: {exc}") from None
