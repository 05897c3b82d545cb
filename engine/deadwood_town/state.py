"""The Deadwood game state: plain lists of ints, the event log and the engine contract's methods.

Representation (ids as in :mod:`.components`):

* ``board[plot]``: the tile on the plot, :data:`EMPTY` (an open plot) or :data:`RAIL`.
* ``occ[plot]``: the cowboys there, each coded ``owner * 4 + strength`` (:func:`code`); at most
  one except at the Church.
* ``tile_plot[tile]``: where a tile lies, -1 when it is in a stack or out of the game.
* ``stacks[stack]``: the tiles of a building stack, the top one **last**.
* ``known[seat]``: tiles whose place in their stack the seat knows (the Fortune Teller's look;
  tiles put under a stack in front of everyone); ``public_known``: those everyone knows.
* per seat, indexed by strength ``1..3`` (index 0 unused): ``ranch``, ``mine`` (the Abandoned
  Mine), ``unhired`` (the player's supply) and ``boot_hill``.
* ``queue``: the effects still to resolve this turn, the next one **last** (a stack: an effect
  that starts another puts it on top, so it resolves first). Items are tuples whose first entry
  names the handler (see :mod:`.rules`).
* ``phase``/``waiting``/``pending``: the decision owed now and its context (see :mod:`.rules`).
* ``fight``: the shootout being resolved, ``[plot, attacker code, defender code, poster taker,
  attacker may annex, attacker cartridge, defender cartridge]`` (cartridges -1 until declared).
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from engine.core import Chance, IllegalAction, LogEntry, Outcome, check_seat, find_legal, visible_events
from engine.deadwood_town.actions import ACTION_TYPES
from engine.deadwood_town.components import STACKS, Components, components

EMPTY = -1
"""``board`` value of an open plot."""
RAIL = -2
"""``board`` value of a plot holding a railroad tile."""
MINE = "mine"
"""The Abandoned Mine, as a ``place`` in actions and events."""

STRENGTHS = (1, 2, 3)


SHERIFFS_OFFICE = components().tile_kind.index("sheriffs_office")
"""The Sheriff's Office tile (its controller collects the toll)."""


def code(owner: int, strength: int) -> int:
    """A cowboy's code: ``owner * 4 + strength``."""
    return owner * 4 + strength


class DeadwoodTownState:
    """One game of Deadwood in progress (see the module docstring for the representation).

    The rules, views and resampling live in modules that import this one, never the other way
    round: the state reaches them through its game (:class:`~engine.deadwood_town.game.DeadwoodTown`
    holds the phase tables ``legal``/``apply_rules``, ``run``, ``make_view`` and ``resample_state``).
    """

    __slots__ = (
        "game",
        "comp",
        "options",
        "n",
        "chance",
        "faces",
        "board",
        "occ",
        "tile_plot",
        "stacks",
        "known",
        "public_known",
        "ranch",
        "mine",
        "unhired",
        "boot_hill",
        "money",
        "cartridges",
        "ponies",
        "posters",
        "crime_pool",
        "box",
        "cartridge_supply",
        "pony_supply",
        "sheriff",
        "rails",
        "station_plot",
        "first",
        "current",
        "turns",
        "pool_emptied",
        "phase",
        "waiting",
        "pending",
        "queue",
        "fight",
        "log",
        "result",
        "decisions",
        "decision_cap",
        "_legal",
    )

    def __init__(self, game: Any, options: Any, num_players: int, seed: int) -> None:
        comp: Components = game.components
        self.game = game
        self.comp = comp
        self.options = options
        self.n = n = num_players
        self.chance = Chance(seed)
        self.faces: tuple[str, ...] = comp.alt_die_faces if options.die == "alternative" else comp.die_faces
        self.board: list[int] = [EMPTY] * comp.num_plots
        self.occ: list[list[int]] = [[] for _ in range(comp.num_plots)]
        self.tile_plot: list[int] = [-1] * comp.num_tiles
        self.stacks: dict[str, list[int]] = {s: [] for s in STACKS}
        self.known: list[set[int]] = [set() for _ in range(n)]
        self.public_known: set[int] = set()
        self.ranch: list[list[int]] = [[0, 0, 0, 0] for _ in range(n)]
        self.mine: list[list[int]] = [[0, 0, 0, 0] for _ in range(n)]
        self.unhired: list[list[int]] = [list((0, *comp.per_player[1:])) for _ in range(n)]
        self.boot_hill: list[list[int]] = [[0, 0, 0, 0] for _ in range(n)]
        self.money: list[int] = [0] * n
        self.cartridges: list[int] = [0] * n
        self.ponies: list[int] = [0] * n
        self.posters: list[int] = [0] * n
        self.crime_pool = 0
        self.box = 0
        self.cartridge_supply = comp.cartridges_total
        self.pony_supply = comp.ponies_total
        self.sheriff = comp.sheriff_start
        self.rails = 0
        self.station_plot = -1
        self.first = -1
        self.current = -1
        self.turns = 0
        # the Crime Pool ran out during this turn and a Telegraph Office refilled it: the game
        # ends after this turn all the same (rules.end_of_game), so it is never reset
        self.pool_emptied = False
        self.phase = "setup"
        self.waiting: tuple[int, ...] = ()
        self.pending: tuple[Any, ...] = ()
        self.queue: list[tuple[Any, ...]] = []
        self.fight: list[int] | None = None
        self.log: list[LogEntry] = []
        self.result: Outcome | None = None
        self.decisions = 0  # actions applied so far
        self.decision_cap: int = game.max_decisions(num_players)  # the game ends when decisions reach it
        self._legal: dict[int, list[Any]] = {}

    # ------------------------------------------------------------------ contract

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seat that owes a decision now (one at most); empty once the game is over."""
        return self.waiting

    def legal_actions(self, seat: int) -> list[Any]:
        """The legal actions of ``seat`` in canonical order (empty if it owes nothing); the
        caller's own list. Order: see each phase's ``legal_*`` function in :mod:`.rules`.

        Raises:
            IllegalAction: ``seat`` is not an ``int`` seat ``0..n-1`` (a ``ValueError``).
        """
        cached = self._legal.get(seat) if type(seat) is int else None
        return list(self._legal_of(seat) if cached is None else cached)

    def _legal_of(self, seat: int) -> list[Any]:
        """The cached legal actions of a seat (the engine's own list: never hand it out)."""
        cached = self._legal.get(seat) if type(seat) is int else None
        if cached is None:
            if type(seat) is not int or not 0 <= seat < self.n:
                check_seat(seat, self.n, error=IllegalAction)
            if seat in self.waiting:
                cached = self.game.legal[self.phase](self, seat)
            else:
                cached = []
            self._legal[seat] = cached
        return cached

    def apply(self, seat: int, action: Any) -> None:
        """Apply ``action`` for ``seat``, then resolve everything that follows up to the next
        decision (effects, shootout dice, the end of the turn, the end of the game).

        Args:
            seat: the seat in :attr:`to_act`, an ``int``.
            action: one of :meth:`legal_actions`, or an equal instance of exactly the same action
                class with fields of the same exact types.

        Raises:
            IllegalAction: ``seat`` owes no decision, or ``action`` is not legal; the state is
                then unchanged.

        The action that brings :attr:`decisions` to :attr:`decision_cap` (``max_decisions``) ends
        the game if it goes on: see :func:`engine.deadwood_town.rules.end_of_game.end_at_cap`.
        """
        if type(seat) is not int or seat not in self.waiting:
            check_seat(seat, self.n, error=IllegalAction)
            raise IllegalAction(f"seat {seat} has no decision to make now (waiting for {list(self.waiting)})")
        legal = self._legal_of(seat)
        for candidate in legal:
            if candidate is action:
                break
        else:
            try:
                action = find_legal(action, legal, ACTION_TYPES)
            except IllegalAction as exc:
                raise IllegalAction(f"seat {seat}, phase {self.phase!r}: {exc}") from None
        game = self.game
        phase = self.phase
        self._legal = {}
        self.waiting = ()
        game.apply_rules[phase](self, seat, action)
        game.run(self)
        self.decisions += 1
        if self.decisions >= self.decision_cap and self.result is None:
            game.end_at_cap(self)

    def view(self, seat: int | None) -> Any:
        """What ``seat`` may know, as a :class:`~engine.deadwood_town.views.View`.

        Args:
            seat: an ``int`` seat ``0..n-1``, ``None`` (a spectator) or :data:`engine.OMNISCIENT`.

        Raises:
            ValueError: ``seat`` is none of those.
        """
        check_seat(seat, self.n, observers_ok=True)
        return self.game.make_view(self, seat)

    @property
    def is_over(self) -> bool:
        """True once an end condition held at the end of a turn and the game was scored."""
        return self.result is not None

    @property
    def outcome(self) -> Outcome:
        """The result: scores are the final money; ranks by money, then fewer wanted posters,
        then fewer cowboys on Boot Hill; remaining ties share.

        Raises:
            ValueError: the game is not over yet.
        """
        if self.result is None:
            raise ValueError("the game is not over yet")
        return self.result

    def events(self, seat: int | None, since: int = 0) -> list[Any]:
        """Events ``seat`` may know, oldest first, from its ``since``-th such event on.

        Raises:
            ValueError: a bad ``seat`` or ``since``.
        """
        return visible_events(self.log, seat, self.n, since)

    def digest(self) -> str:
        """A hex hash (32 digits) of the whole state, stack order and chance state included."""
        snapshot = (
            self.n,
            msgspec.to_builtins(self.options),
            self.phase,
            self.waiting,
            self.pending,
            self.board,
            self.occ,
            [self.stacks[s] for s in STACKS],
            [sorted(k) for k in self.known],
            sorted(self.public_known),
            self.ranch,
            self.mine,
            self.unhired,
            self.boot_hill,
            self.money,
            self.cartridges,
            self.ponies,
            self.posters,
            (self.crime_pool, self.box, self.cartridge_supply, self.pony_supply),
            (self.sheriff, self.rails, self.station_plot, self.first, self.current, self.turns, self.pool_emptied),
            self.queue,
            self.fight,
            len(self.log),
            self.chance.fingerprint(),
        )
        return hashlib.blake2b(msgspec.msgpack.encode(snapshot), digest_size=16).hexdigest()

    def clone(self) -> DeadwoodTownState:
        """An independent copy that continues exactly as this state would."""
        other = self._copy()
        other.chance = self.chance.clone()
        return other

    def _copy(self) -> DeadwoodTownState:
        """An independent copy that still shares this state's :attr:`chance`."""
        other = DeadwoodTownState.__new__(DeadwoodTownState)
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        other.board = list(self.board)
        other.occ = [list(o) for o in self.occ]
        other.tile_plot = list(self.tile_plot)
        other.stacks = {s: list(t) for s, t in self.stacks.items()}
        other.known = [set(k) for k in self.known]
        other.public_known = set(self.public_known)
        other.ranch = [list(r) for r in self.ranch]
        other.mine = [list(r) for r in self.mine]
        other.unhired = [list(r) for r in self.unhired]
        other.boot_hill = [list(r) for r in self.boot_hill]
        other.money = list(self.money)
        other.cartridges = list(self.cartridges)
        other.ponies = list(self.ponies)
        other.posters = list(self.posters)
        other.queue = list(self.queue)
        other.fight = list(self.fight) if self.fight is not None else None
        other.log = list(self.log)
        other._legal = {}
        return other

    def resample(self, seat: int, seed: int) -> DeadwoodTownState:
        """A determinization for ``seat``: a copy in which the order of every building stack is
        drawn again, except the tiles whose place ``seat`` knows, and future dice get a new seed.
        The copy has the same ``view(seat)``, ``to_act`` and ``legal_actions(seat)``. Once the
        game is over: a plain :meth:`clone`. See :mod:`engine.deadwood_town.resample`.

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

    def emit(self, public: Any, seats: tuple[int, ...] = (), private: Any = None) -> None:
        """Log an event: ``public`` for everyone, ``private`` instead for ``seats``."""
        self.log.append((public, seats, private))

    def ask(self, seat: int, phase: str, pending: tuple[Any, ...] = ()) -> None:
        """Wait for ``seat``'s decision in ``phase``; ``pending`` is its context."""
        self.phase = phase
        self.waiting = (seat,)
        self.pending = pending
        self._legal = {}

    def roll(self) -> str:
        """Roll one shootout die: the face symbol."""
        faces = self.faces
        return faces[self.chance.below(len(faces))]

    def controller(self, kind: str) -> int:
        """The seat controlling a building of ``kind`` (its cowboy stands there alone), else -1;
        for a kind with two tiles, the first controlled one (use :meth:`controls` to count)."""
        tile_kind, occ = self.comp.tile_kind, self.occ
        for plot, tile in enumerate(self.board):
            if tile >= 0 and tile_kind[tile] == kind:
                here = occ[plot]
                if len(here) == 1:
                    return here[0] >> 2
        return -1

    def controls(self, seat: int, kind: str) -> int:
        """How many buildings of ``kind`` ``seat`` controls."""
        tile_kind, occ = self.comp.tile_kind, self.occ
        count = 0
        for plot, tile in enumerate(self.board):
            if tile >= 0 and tile_kind[tile] == kind:
                here = occ[plot]
                if len(here) == 1 and here[0] >> 2 == seat:
                    count += 1
        return count

    def living(self, seat: int) -> int:
        """``seat``'s living cowboys: in the Ranch, in town and in the Abandoned Mine."""
        count = sum(self.ranch[seat]) + sum(self.mine[seat])
        for here in self.occ:
            if here:
                for c in here:
                    if c >> 2 == seat:
                        count += 1
        return count

    def has_living(self, seat: int) -> bool:
        """``seat`` has a cowboy in the Ranch, in town or in the Abandoned Mine."""
        ranch, mine = self.ranch[seat], self.mine[seat]
        if ranch[1] or ranch[2] or ranch[3] or mine[1] or mine[2] or mine[3]:
            return True
        return any(c >> 2 == seat for here in self.occ if here for c in here)

    def protected(self) -> tuple[int, int, int]:
        """The three plots the Sheriff protects."""
        return self.comp.intersection_plots[self.sheriff]

    def toll_to(self, seat: int) -> int:
        """Who ``seat`` pays to enter a protected building: the Sheriff's Office controller, or -1
        (nobody controls it, or ``seat`` does; ``seat`` -1: the controller)."""
        plot = self.tile_plot[SHERIFFS_OFFICE]
        if plot < 0:
            return -1
        here = self.occ[plot]
        if len(here) != 1 or here[0] >> 2 == seat:
            return -1
        return here[0] >> 2

    def own_cowboy(self, seat: int, plot: int) -> int:
        """The code of ``seat``'s cowboy on ``plot``, or 0."""
        for c in self.occ[plot]:
            if c >> 2 == seat:
                return c
        return 0
