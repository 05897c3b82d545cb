"""The Deadwood Studios game state: the backlot, the players' dice and whose turn it is.

The state is a plain mutable container; the rules live in :mod:`engine.deadwood_studios.rules`,
one module per rulebook section, and the state dispatches to them by ``phase`` through its game
(the rules, views and resampling import this module, never the other way round):

=========  =====================================================================================
phase      what the current player (``to_act``) decides
=========  =====================================================================================
``move``   not working on a role: upgrade (Casting Office), move one step, take a role, end turn
``work``   working on a role: act or rehearse
``over``   nobody: the last day is over
=========  =====================================================================================
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from engine.core import Chance, IllegalAction, LogEntry, Outcome, check_seat, find_legal, visible_events
from engine.deadwood_studios.actions import ACTION_TYPES
from engine.deadwood_studios.components import NUM_SETS, TRAILERS, components

COMP = components()
"""The components (one shared, immutable instance)."""


class DeadwoodStudiosState:
    """One game of Deadwood Studios (implements :class:`engine.State`).

    Seats are ``0..n-1``; play passes "to the left", to ``seat + 1``. Per player (lists indexed
    by seat): ``room`` (room number, see :mod:`.components`), ``rank``, ``dollars``, ``credits``,
    ``chips`` (practice chips on the current role), ``role`` (-1: none; else the index of the
    role: among the set's extras, or among the scene card's roles when ``on_card``). Per set
    (lists indexed ``0..9``): ``scene`` (the card on it, -1 once wrapped), ``face_up``,
    ``shots_left``, and who works on each role: ``extra_by[set][i]`` and ``star_by[set][i]``
    (-1: free). ``deck`` is the undealt deck, its top card last; ``removed`` the cards that left
    the board face up, ``removed_unseen`` the last scenes of a day removed face down;
    ``unfinished`` the sets whose scenes the end of the last day left unfinished (else empty).
    The no-progress rule (:mod:`.rules.ending_the_day`): ``progressed`` says whether the current
    turn made progress (its player worked on a role, took one or upgraded), ``idle_turns`` counts
    the turns in a row that made none (0 at the start of every day).
    ``log`` holds the events (:data:`engine.core.LogEntry`); ``private`` the indexes of those
    with an omniscient-only version (they show face-down cards).

    The rules, views and resampling live in modules that import this one, never the other way
    round: the state reaches them through its game (:class:`~engine.deadwood_studios.game.DeadwoodStudios`
    holds the dispatch tables ``legal``/``apply_rules``, ``make_view`` and ``resample_state``).
    """

    __slots__ = (
        "game",
        "options",
        "n",
        "chance",
        "days",
        "day",
        "current",
        "phase",
        "waiting",
        "moved",
        "upgraded",
        "progressed",
        "idle_turns",
        "room",
        "rank",
        "dollars",
        "credits",
        "chips",
        "role",
        "on_card",
        "scene",
        "face_up",
        "shots_left",
        "extra_by",
        "star_by",
        "deck",
        "removed",
        "removed_unseen",
        "unfinished",
        "log",
        "private",
        "result",
        "decisions",
        "decision_cap",
        "_legal",
    )

    def __init__(self, game: Any, options: Any, num_players: int, seed: int) -> None:
        self.game = game
        self.options = options
        self.n = n = num_players
        self.chance = Chance(seed)
        self.days = COMP.days[n]
        self.day = 0
        self.current = -1
        self.phase = "setup"
        self.waiting: tuple[int, ...] = ()
        self.moved = False
        self.upgraded = False
        self.progressed = False  # this turn: worked on a role, took one or upgraded
        self.idle_turns = 0  # turns in a row without progress (the no-progress rule)
        self.room: list[int] = [TRAILERS] * n
        self.rank: list[int] = [COMP.start_rank[n]] * n
        self.dollars: list[int] = [0] * n
        self.credits: list[int] = [COMP.start_credits[n]] * n
        self.chips: list[int] = [0] * n
        self.role: list[int] = [-1] * n
        self.on_card: list[bool] = [False] * n
        self.scene: list[int] = [-1] * NUM_SETS
        self.face_up: list[bool] = [False] * NUM_SETS
        self.shots_left: list[int] = [0] * NUM_SETS
        self.extra_by: list[list[int]] = [[-1] * len(COMP.extras[s]) for s in range(NUM_SETS)]
        self.star_by: list[list[int]] = [[] for _ in range(NUM_SETS)]
        self.deck: list[int] = []
        self.removed: list[int] = []
        self.removed_unseen: list[int] = []
        # the sets whose scenes were still on the board when the last day ended (they "do not
        # finish": the sets are not wrapped), else empty. Public and fixed by the last DayEnded or
        # DayCalled event, so not in digest(): it changes no rule, and the game is over.
        self.unfinished: tuple[int, ...] = ()
        self.log: list[LogEntry] = []
        self.private: list[int] = []  # the log entries with an omniscient-only version
        self.result: Outcome | None = None
        self.decisions = 0  # actions applied so far
        self.decision_cap: int = game.max_decisions(num_players)  # the game ends when decisions reach it
        self._legal: list[Any] | None = None

    # ------------------------------------------------------------------ contract

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seat that owes a decision now (the current player); empty once the game is over."""
        return self.waiting

    def legal_actions(self, seat: int) -> list[Any]:
        """The legal actions of ``seat`` in canonical order (empty if it owes nothing).

        Order (phase ``move``): upgrades by rank, dollars before credits; the roles of this set
        that ``seat`` may take, extras in board order then starring roles lowest rank first;
        moves in the board's order of neighbours; :class:`~.actions.EndTurn`. Phase ``work``:
        :class:`~.actions.Act`, then :class:`~.actions.Rehearse` unless success is sure.
        The list is the caller's own copy.

        Args:
            seat: a player seat, an ``int`` from ``0`` to ``n - 1``.

        Raises:
            IllegalAction: ``seat`` is not one (a ``ValueError``).
        """
        if type(seat) is not int or not 0 <= seat < self.n:
            check_seat(seat, self.n, error=IllegalAction)
        if seat not in self.waiting:
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return list(legal)

    def _generate(self) -> list[Any]:
        """The current player's legal actions (the engine's own list: never hand it out)."""
        return self.game.legal[self.phase](self, self.current)  # type: ignore[no-any-return]

    def apply(self, seat: int, action: Any) -> None:
        """Apply ``action`` for ``seat``.

        Args:
            seat: the seat in :attr:`to_act`, an ``int``.
            action: one of :meth:`legal_actions`, or an equal instance of exactly the same action
                class (see :mod:`.actions`) with fields of the same exact types.

        Raises:
            IllegalAction: ``seat`` is not an ``int`` seat of this game or owes no decision;
                ``action`` is not an instance of exactly one of the game's action classes, or
                not among the seat's legal actions. The state is then unchanged.

        The action that brings :attr:`decisions` to :attr:`decision_cap` (``max_decisions``) ends
        the game if it goes on: see :func:`engine.deadwood_studios.rules.scoring.end_at_cap`.
        """
        if type(seat) is not int or seat not in self.waiting:
            check_seat(seat, self.n, error=IllegalAction)
            raise IllegalAction(f"seat {seat} has no decision to make now (waiting for {list(self.waiting)})")
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        for candidate in legal:
            if candidate is action:
                break
        else:
            try:
                action = find_legal(action, legal, ACTION_TYPES)
            except IllegalAction as exc:
                raise IllegalAction(f"seat {seat}, phase {self.phase!r}: {exc}") from None
        self._legal = None
        self.game.apply_rules[type(action)](self, seat, action)
        self.decisions += 1
        if self.decisions >= self.decision_cap and self.result is None:
            self.game.end_at_cap(self)

    def view(self, seat: int | None) -> Any:
        """What ``seat`` may know, as a :class:`~engine.deadwood_studios.views.View`.

        Args:
            seat: an ``int`` seat ``0..n-1``, ``None`` for a spectator (public information
                only) or :data:`engine.OMNISCIENT` for everything.

        Raises:
            ValueError: ``seat`` is none of those.
        """
        check_seat(seat, self.n, observers_ok=True)
        return self.game.make_view(self, seat)

    @property
    def is_over(self) -> bool:
        """True once the last day has ended."""
        return self.result is not None

    @property
    def outcome(self) -> Outcome:
        """The result: scores are the points (dollars + credits + 5 x rank); equal points share a
        rank (see :mod:`engine.deadwood_studios.rules.scoring`).

        Raises:
            ValueError: the game is not over yet.
        """
        if self.result is None:
            raise ValueError("the game is not over yet")
        return self.result

    def events(self, seat: int | None, since: int = 0) -> list[Any]:
        """Events ``seat`` may know, oldest first, from its ``since``-th such event on.

        Args:
            seat: an ``int`` seat or ``None`` (the public events: nothing is private to one seat)
                or :data:`engine.OMNISCIENT` (face-down cards shown).
            since: how many of these events the caller has already seen, an ``int >= 0``.

        Raises:
            ValueError: a bad ``seat`` or ``since``.
        """
        return visible_events(self.log, seat, self.n, since)

    def digest(self) -> str:
        """A hex hash (32 digits) of the whole state, hidden parts and the chance state included."""
        snapshot = (
            self.n,
            msgspec.to_builtins(self.options),
            (self.days, self.day, self.current, self.phase, self.waiting, self.moved, self.upgraded),
            (self.progressed, self.idle_turns),
            self.room,
            self.rank,
            self.dollars,
            self.credits,
            self.chips,
            self.role,
            self.on_card,
            self.scene,
            self.face_up,
            self.shots_left,
            self.extra_by,
            self.star_by,
            self.deck,
            self.removed,
            self.removed_unseen,
            len(self.log),
            self.chance.fingerprint(),
        )
        return hashlib.blake2b(msgspec.msgpack.encode(snapshot), digest_size=16).hexdigest()

    def clone(self) -> DeadwoodStudiosState:
        """An independent copy that continues exactly as this state would."""
        other = self._copy()
        other.chance = self.chance.clone()
        return other

    def _copy(self) -> DeadwoodStudiosState:
        """An independent copy that still shares this state's :attr:`chance`."""
        other = DeadwoodStudiosState.__new__(DeadwoodStudiosState)
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        other.room = list(self.room)
        other.rank = list(self.rank)
        other.dollars = list(self.dollars)
        other.credits = list(self.credits)
        other.chips = list(self.chips)
        other.role = list(self.role)
        other.on_card = list(self.on_card)
        other.scene = list(self.scene)
        other.face_up = list(self.face_up)
        other.shots_left = list(self.shots_left)
        other.extra_by = [list(x) for x in self.extra_by]
        other.star_by = [list(x) for x in self.star_by]
        other.deck = list(self.deck)
        other.removed = list(self.removed)
        other.removed_unseen = list(self.removed_unseen)
        other.log = list(self.log)
        other.private = list(self.private)
        other._legal = None
        return other

    def resample(self, seat: int, seed: int) -> DeadwoodStudiosState:
        """A determinization for ``seat``: a copy in which everything hidden is drawn again
        (Information Set MCTS samples these).

        Nothing is private to one seat: what is hidden is hidden from everyone. Redrawn: the
        scene cards face down on the board, the undealt deck (order and contents) and the last
        scenes of earlier days removed unseen, all from the cards nobody has seen face up; and
        future chance (a new :class:`engine.Chance` from ``seed``). Kept: everything public. The
        copy has the same ``view(seat)``, ``to_act`` and ``legal_actions(seat)``; its event log
        keeps only the public versions of events. Once the game is over: a plain :meth:`clone`.
        See :mod:`engine.deadwood_studios.resample`.

        Args:
            seat: a player seat, an ``int`` ``0..n-1``.
            seed: an ``int >= 0``; the same state, seat and seed always give the same result.

        Raises:
            ValueError: ``seat`` is not a player seat, or ``seed`` is not an ``int >= 0``.
        """
        check_seat(seat, self.n)
        if type(seed) is not int or seed < 0:
            raise ValueError(f"seed must be an int >= 0, not {seed!r} ({type(seed).__name__})")
        if self.result is not None:
            return self.clone()
        return self.game.resample_state(self, seat, seed)  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ helpers for the rules

    def emit(self, public: Any, private: Any = None) -> None:
        """Log an event: ``public`` for every seat, ``private`` (if any) for the omniscient view only."""
        if private is not None:
            self.private.append(len(self.log))
        self.log.append((public, (), private))

    def scenes_left(self) -> int:
        """Unwrapped scenes on the board (face up or down)."""
        return NUM_SETS - self.scene.count(-1)
