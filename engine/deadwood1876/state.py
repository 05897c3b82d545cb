"""The Deadwood 1876 game state: the table's components plus whose decision is pending.

The state is a plain mutable container; the rules live in :mod:`engine.deadwood1876.rules`, one
module per rulebook section, and the state dispatches to them by ``phase`` through its game (the
rules, views and resampling import this module, never the other way round):

========================  =======================================================
phase                     who decides (``to_act``)
========================  =======================================================
``pass_safe``             everyone at once (Set Up step 5)
``turn``                  the current player (On Your Turn; Badge Round turns)
``duster``                the current player, discarding one card at a time
``stetson``               the current player, viewing one Safe at a time
``defend``                the defender of a Robbery or Duel
``holster``               every player not fighting, at once (Holsters)
``choose_holster``        fighters given several Holsters, at once
``send_away``             a Duel winner who beat someone in their own establishment
``give_safe``             a player over the 3-Safe limit (Third Law)
``heist``                 everyone at once (Heist)
``showdown``              everyone still alive in the Final Showdown, at once
``over``                  nobody
========================  =======================================================
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

import msgspec

from engine.core import Chance, IllegalAction, LogEntry, Outcome, check_seat, find_legal, visible_events
from engine.deadwood1876.actions import ACTION_TYPES
from engine.deadwood1876.components import Components, PlayerCount
from engine.deadwood1876.events import Card, CardsDrawn, DeckReshuffled


def card_faces(comp: Components) -> tuple[Card, ...]:
    """The public face of every Deadwood card, by id (frozen: events share them)."""
    return tuple(
        Card(c, comp.gun_names[comp.card_gun[c]], comp.card_item[c], comp.card_white[c])
        for c in range(len(comp.card_gun))
    )


class Fight:
    """A Robbery or Duel in progress (rulebook: Robbery, Duel, Holsters).

    Attributes:
        kind: ``"robbery"`` or ``"duel"``.
        attacker, defender: seats.
        index: the Safe's position in the defender's row (Robbery), else -1.
        safe: the Safe's id (Robbery), else -1.
        attack_card, defend_card: card ids (-1 until laid).
        answer: the seat that plays the defending gun: the defender, or the opponent acting
            as the Stranger when the Stranger is attacked (2 players).
        offers: Holsters given so far, ``{giver: (card, fighter)}``.
        holsters: the Holster each fighter uses, ``{fighter: card}``.
        thieves: Horse Thieves who joined a Robbery, ``{seat: white Horse card}``.
    """

    __slots__ = (
        "kind",
        "attacker",
        "defender",
        "answer",
        "index",
        "safe",
        "attack_card",
        "defend_card",
        "offers",
        "holsters",
        "thieves",
    )

    def __init__(
        self, kind: str, attacker: int, defender: int, answer: int, attack_card: int, index: int = -1, safe: int = -1
    ):
        self.kind = kind
        self.attacker = attacker
        self.defender = defender
        self.answer = answer
        self.index = index
        self.safe = safe
        self.attack_card = attack_card
        self.defend_card = -1
        self.offers: dict[int, tuple[int, int]] = {}
        self.holsters: dict[int, int] = {}
        self.thieves: dict[int, int] = {}

    def copy(self) -> Fight:
        """An independent copy."""
        other = Fight(self.kind, self.attacker, self.defender, self.answer, self.attack_card, self.index, self.safe)
        other.defend_card = self.defend_card
        other.offers = dict(self.offers)
        other.holsters = dict(self.holsters)
        other.thieves = dict(self.thieves)
        return other

    def snapshot(self) -> tuple[Any, ...]:
        """Every field as builtins, for digests."""
        return (
            self.kind,
            self.attacker,
            self.defender,
            self.answer,
            self.index,
            self.safe,
            self.attack_card,
            self.defend_card,
            sorted(self.offers.items()),
            sorted(self.holsters.items()),
            sorted(self.thieves.items()),
        )


_new_state = object.__new__


class DeadwoodState:
    """One game of Deadwood 1876 (implements :class:`engine.State`).

    Seats are ``0..n-1`` in clockwise order: the player on a seat's left is ``seat + 1``.
    Figures are the stars on the table: the seats, plus the Stranger as figure ``n`` in a
    2-player game (``m`` figures in all). ``rows`` and ``est`` are indexed by figure.
    Rows of Safes are lists of Safe ids, leftmost first; ``middle[0]`` is the top middle Safe.

    The rules, views and resampling live in modules that import this one, never the other way
    round: the state reaches them through its game (:class:`~engine.deadwood1876.game.Deadwood1876`
    holds the phase tables ``legal``/``apply_rules``, ``make_view`` and ``resample_state``).
    """

    __slots__ = (
        "game",
        "comp",
        "faces",
        "table",
        "options",
        "n",
        "m",
        "stranger",
        "chance",
        "hands",
        "deck",
        "discard",
        "rows",
        "middle",
        "box",
        "est",
        "character",
        "revealed",
        "known",
        "safe_holster",
        "figure_holster",
        "phase",
        "waiting",
        "first",
        "current",
        "segment",
        "circle",
        "turn_in_circle",
        "badge",
        "used",
        "table_cards",
        "pending",
        "fight",
        "left",
        "viewed",
        "giver",
        "after_gain",
        "heist_safe",
        "flipped",
        "alive",
        "out_order",
        "advanced",
        "proxy",
        "gold_bonus",
        "dagger",
        "mystery_queue",
        "start_hands",
        "set_aside",
        "log",
        "result",
        "decisions",
        "decision_cap",
        "_legal",
        "_knowledge",
    )

    def __init__(self, game: Any, table: PlayerCount, options: Any, seed: int) -> None:
        self.game = game
        self.comp: Components = game.components
        self.faces: tuple[Card, ...] = game.card_faces
        self.table = table
        self.options = options
        self.n = table.players
        self.stranger = self.n if table.stranger else -1
        self.m = self.n + (1 if table.stranger else 0)
        self.chance = Chance(seed)
        n, m = self.n, self.m
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.rows: list[list[int]] = [[] for _ in range(m)]
        self.middle: list[int] = []
        self.box: list[int] = []
        self.est: list[int] = [-1] * m
        self.character: tuple[int, ...] = tuple(range(m))
        self.revealed: set[int] = set()
        self.known: list[set[int]] = [set() for _ in range(n)]
        self.safe_holster: dict[int, int] = {}
        self.figure_holster: dict[int, int] = {}
        self.phase = "setup"
        self.waiting: tuple[int, ...] = ()
        self.first = 0
        self.current = -1
        self.segment = 0
        self.circle = 0
        self.turn_in_circle = 0
        self.badge = 0
        self.used: list[int] = []
        self.table_cards: list[int] = []
        self.pending: dict[int, Any] = {}
        self.fight: Fight | None = None
        self.left = 0
        self.viewed: list[int] = []
        self.giver = -1
        self.after_gain = ""
        self.heist_safe = -1
        self.flipped: list[bool] = [False] * m
        self.alive: list[int] = []
        self.out_order: list[int] = []
        self.advanced: tuple[int, ...] = ()
        self.proxy = -1
        self.gold_bonus: list[int] = [0] * m
        self.dagger: dict[int, bool] = {}
        self.mystery_queue: list[int] = []
        self.start_hands: list[list[int]] = [[] for _ in range(n)]
        self.set_aside: list[list[int]] = [[] for _ in range(n)]
        self.log: list[LogEntry] = []
        self.result: Outcome | None = None
        self.decisions = 0  # actions applied so far
        self.decision_cap: int = game.max_decisions(self.n)  # the game ends when decisions reach it
        self._legal: dict[int, list[Any]] = {}
        self._knowledge: dict[int, Any] = {}  # what each seat has learned (resample.Knowledge), for resample()

    # ------------------------------------------------------------------ contract

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that owe a decision now, ascending; empty once the game is over."""
        return self.waiting

    def legal_actions(self, seat: int) -> list[Any]:
        """The legal actions of ``seat`` in canonical order (empty if it owes nothing).

        Cards that are interchangeable (same gun, item and Horse colour) appear once, as the
        lowest card id. The order is the generation order of the phase's rules module. The list
        is the caller's own copy: changing it changes nothing in the state.

        Args:
            seat: a player seat, an ``int`` from ``0`` to ``n - 1``; also the Stranger's figure
                ``n`` in a 2-player game, which never owes anything (always ``[]``).

        Raises:
            IllegalAction: ``seat`` is none of those (a ``ValueError``, like ``view``'s;
                ``None`` and :data:`engine.OMNISCIENT` are not seats that decide). An
                ``IllegalAction`` because ``replays.Recorder.apply`` promises one for a bad seat.
        """
        if type(seat) is int:  # the hot path, inlined
            cached = self._legal.get(seat)
            if cached is None:
                if seat in self.waiting:  # waiting holds only valid seats
                    cached = self._legal[seat] = self.game.legal[self.phase](self, seat)
                else:
                    cached = self._legal_of(seat)
            return cached[:]
        return self._legal_of(seat)[:]

    def _legal_of(self, seat: int) -> list[Any]:
        """The cached legal actions of a seat (the engine's own list: never hand it out)."""
        cached = self._legal.get(seat) if type(seat) is int else None
        if cached is None:
            if type(seat) is not int or not (0 <= seat < self.n or seat == self.stranger >= 0):
                check_seat(seat, self.n, error=IllegalAction)  # raises: not a seat
            cached = self.game.legal[self.phase](self, seat) if seat in self.waiting else []
            self._legal[seat] = cached
        return cached

    def apply(self, seat: int, action: Any) -> None:
        """Apply ``action`` for ``seat``.

        Args:
            seat: a seat in :attr:`to_act`, an ``int`` (not a ``bool``, float or string).
            action: one of :meth:`legal_actions`, or an equal instance of exactly the same
                action class (see :mod:`.actions`) with fields of the same exact types.

        Raises:
            IllegalAction: ``seat`` is not an ``int`` seat of this game or owes no decision;
                ``action`` is not an instance of exactly one of the game's action classes (a
                subclass, or an object whose ``__eq__`` always says yes, is refused), or not
                among the seat's legal actions. The state is then unchanged.

        The action that brings :attr:`decisions` to :attr:`decision_cap` (``max_decisions``) ends
        the game if it goes on: see :func:`engine.deadwood1876.rules.showdown.end_at_cap`.
        """
        if type(seat) is not int or seat not in self.waiting:  # waiting holds only valid seats
            check_seat(seat, self.n, error=IllegalAction)
            raise IllegalAction(f"seat {seat} has no decision to make now (waiting for {list(self.waiting)})")
        legal = self._legal.get(seat)
        if legal is None:
            legal = self._legal_of(seat)
        for candidate in legal:
            if candidate is action:  # the engine's own object, as bots pass it: nothing to check
                break
        else:
            try:
                action = find_legal(action, legal, ACTION_TYPES)
            except IllegalAction as exc:
                raise IllegalAction(f"seat {seat}, phase {self.phase!r}: {exc}") from None
        self._legal = {}
        self.game.apply_rules[self.phase](self, seat, action)
        self.decisions += 1
        if self.decisions >= self.decision_cap and self.result is None:
            self.game.end_at_cap(self)

    def view(self, seat: int | None) -> Any:
        """What ``seat`` may know, as a :class:`~engine.deadwood1876.views.View`.

        Args:
            seat: an ``int`` seat ``0..n-1``, ``None`` for a spectator (public information
                only) or :data:`engine.OMNISCIENT` for everything (the same seats as
                :meth:`events`).

        Raises:
            ValueError: ``seat`` is none of those (e.g. ``99``, ``-5``, ``1.0``, ``True``, ``"0"``).
        """
        check_seat(seat, self.n, observers_ok=True)
        return self.game.make_view(self, seat)

    @property
    def is_over(self) -> bool:
        """True once the Final Showdown has a winner."""
        return self.result is not None

    @property
    def outcome(self) -> Outcome:
        """The result (see :func:`engine.deadwood1876.rules.showdown.finish`).

        Raises:
            ValueError: the game is not over yet.
        """
        if self.result is None:
            raise ValueError("the game is not over yet")
        return self.result

    def events(self, seat: int | None, since: int = 0) -> list[Any]:
        """Events ``seat`` may know, oldest first, from its ``since``-th such event on.

        Args:
            seat: an ``int`` seat ``0..n-1`` (public events plus that seat's private ones),
                ``None`` for the public events only or :data:`engine.OMNISCIENT` for the full
                ones (the same seats as :meth:`view`).
            since: how many of these events the caller has already seen, an ``int >= 0``.

        Raises:
            ValueError: ``seat`` is none of those (e.g. ``99``, ``-5``, ``1.0``, ``True``, ``"0"``),
                or ``since`` is not an ``int >= 0``.
        """
        return visible_events(self.log, seat, self.n, since)

    def digest(self) -> str:
        """A hex hash (32 digits) of the whole state, hidden parts and the chance state included."""
        snapshot = (
            self.n,
            msgspec.to_builtins(self.options),
            self.phase,
            self.waiting,
            self.hands,
            self.deck,
            self.discard,
            self.rows,
            self.middle,
            self.box,
            self.est,
            sorted(self.revealed),
            [sorted(k) for k in self.known],
            sorted(self.safe_holster.items()),
            sorted(self.figure_holster.items()),
            (self.first, self.current, self.segment, self.circle, self.turn_in_circle, self.badge),
            self.used,
            self.table_cards,
            sorted((k, repr(v)) for k, v in self.pending.items()),
            self.fight.snapshot() if self.fight else None,
            (self.left, self.viewed, self.giver, self.after_gain, self.heist_safe),
            (self.flipped, self.alive, self.out_order, self.advanced, self.proxy, self.start_hands, self.set_aside),
            (self.gold_bonus, sorted(self.dagger.items()), self.mystery_queue),
            len(self.log),
            self.chance.fingerprint(),
        )
        return hashlib.blake2b(msgspec.msgpack.encode(snapshot), digest_size=16).hexdigest()

    def clone(self) -> DeadwoodState:
        """An independent copy that continues exactly as this state would."""
        other = self._copy()
        other.chance = self.chance.clone()
        return other

    def _copy(self) -> DeadwoodState:
        """An independent copy that still shares this state's :attr:`chance` (the caller replaces it).

        Every slot is listed (a new slot must be added here): immutable values are shared, the
        mutable containers copied one level deep (their items are ints, cards' ids, frozen
        events and actions, or lists and sets of ints, copied too).
        """
        other = _new_state(DeadwoodState)
        # shared: immutable, or never changed once the game is set up
        other.game = self.game
        other.comp = self.comp
        other.faces = self.faces
        other.table = self.table
        other.options = self.options
        other.n = self.n
        other.m = self.m
        other.stranger = self.stranger
        other.chance = self.chance
        other.character = self.character
        other.phase = self.phase
        other.waiting = self.waiting
        other.first = self.first
        other.current = self.current
        other.segment = self.segment
        other.circle = self.circle
        other.turn_in_circle = self.turn_in_circle
        other.badge = self.badge
        other.left = self.left
        other.giver = self.giver
        other.after_gain = self.after_gain
        other.heist_safe = self.heist_safe
        other.advanced = self.advanced
        other.proxy = self.proxy
        other.result = self.result
        other.decisions = self.decisions
        other.decision_cap = self.decision_cap
        # lists of lists or sets
        other.hands = list(map(list, self.hands))
        other.rows = list(map(list, self.rows))
        other.known = list(map(set, self.known))
        other.start_hands = list(map(list, self.start_hands))
        other.set_aside = list(map(list, self.set_aside))
        # flat lists, sets and dicts
        other.deck = list(self.deck)
        other.discard = list(self.discard)
        other.middle = list(self.middle)
        other.box = list(self.box)
        other.est = list(self.est)
        other.used = list(self.used)
        other.table_cards = list(self.table_cards)
        other.viewed = list(self.viewed)
        other.flipped = list(self.flipped)
        other.alive = list(self.alive)
        other.out_order = list(self.out_order)
        other.gold_bonus = list(self.gold_bonus)
        other.mystery_queue = list(self.mystery_queue)
        other.revealed = set(self.revealed)
        other.pending = dict(self.pending)
        other.safe_holster = dict(self.safe_holster)
        other.figure_holster = dict(self.figure_holster)
        other.dagger = dict(self.dagger)
        other.fight = self.fight.copy() if self.fight else None
        other.log = list(self.log)  # entries are immutable tuples of frozen events
        other._legal = {}
        other._knowledge = dict(self._knowledge)  # finished Knowledge is never changed
        return other

    def resample(self, seat: int, seed: int) -> DeadwoodState:
        """A determinization for ``seat``: a copy in which everything hidden from ``seat`` is drawn
        again from what it knows (Information Set MCTS samples these).

        Redrawn: other players' hands, the deck (contents and order), face-down discards, every
        Safe whose contents ``seat``'s view does not name (other rows, the Stranger's, the middle
        stack, the box; with Mystery Safes, which ones are in play), other seats' hidden
        simultaneous choices already made (a random legal one each) and future chance (a new
        :class:`engine.Chance` seeded from ``seed``). Kept: everything public, ``seat``'s hand,
        row and own pending choice, the Safes its view names (in place), and what its own events
        taught it: Safes it saw go into a row stay in that row, face-up discards stay in the
        discard pile, a Holster handed back or a Showdown hand taken back stays in that hand, and
        cards seen in the discard pile before a reshuffle are only put where cards drawn from that
        deck can be. The full knowledge model and its approximations are in
        :mod:`engine.deadwood1876.resample`.

        The result has the same ``view(seat)``, ``to_act`` and ``legal_actions(seat)`` and plays on
        like any state. Its event log keeps ``seat``'s own private events; other seats' private
        events are replaced by their public versions. This state is not changed (it only caches
        what ``seat`` has learned, for the next call). Once the game is over: a plain :meth:`clone`.

        Args:
            seat: a player seat, an ``int`` from ``0`` to ``n - 1`` (not ``None``,
                :data:`engine.OMNISCIENT` or the Stranger's figure).
            seed: an ``int >= 0``; the same state, seat and seed always give the same result.

        Raises:
            ValueError: ``seat`` is not a player seat (see :func:`engine.core.check_seat`), or
                ``seed`` is not an ``int >= 0`` (``True``, ``1.0`` and ``-1`` are refused).
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

    def card(self, card: int) -> Card:
        """The public face of a Deadwood card."""
        return self.faces[card]

    def distinct(self, cards: list[int]) -> list[int]:
        """One card of each kind in ``cards`` (the lowest id), ascending by id."""
        kind = self.comp.card_kind
        seen: set[int] = set()
        out = []
        for c in sorted(cards):
            k = kind[c]
            if k not in seen:
                seen.add(k)
                out.append(c)
        return out

    def draw(self, seat: int, count: int) -> None:
        """``seat`` draws ``count`` cards; an empty deck is reformed from the shuffled discard pile.

        If both the deck and the discard pile are empty, fewer cards are drawn.
        """
        deck = self.deck
        if 0 <= count <= len(deck):  # the common case: cards popped off the end, no reshuffle
            drawn = deck[len(deck) - count :]
            del deck[len(deck) - count :]
            drawn.reverse()
        else:
            drawn = []
            for _ in range(count):
                if not self.deck:
                    if not self.discard:
                        break
                    self.deck = self.discard
                    self.discard = []
                    self.chance.shuffle(self.deck)
                    self.emit(DeckReshuffled(len(self.deck)))
                drawn.append(self.deck.pop())
        self.hands[seat].extend(drawn)
        shown = tuple(map(self.faces.__getitem__, drawn))
        self.emit(CardsDrawn(seat, len(drawn)), (seat,), CardsDrawn(seat, len(drawn), shown))

    def take_card(self, seat: int, card: int) -> None:
        """Lay ``card`` from ``seat``'s hand on the table (discarded at the end of the turn)."""
        self.hands[seat].remove(card)
        self.table_cards.append(card)
        if seat not in self.used:
            self.used.append(seat)

    def collect(self, seat: int, choice: Any) -> bool:
        """Record ``seat``'s hidden simultaneous ``choice`` in ``pending``; True once every seat
        waited on has chosen (the caller then resolves all choices in seat order)."""
        self.pending[seat] = choice
        waiting = list(self.waiting)
        waiting.remove(seat)
        self.waiting = tuple(waiting)
        return not waiting

    def wait_for(self, seats: Iterable[int], phase: str) -> None:
        """Enter ``phase`` waiting on ``seats`` (sorted ascending)."""
        self.phase = phase
        self.waiting = tuple(sorted(seats))
        self._legal = {}

    def establishment_count(self, establishment: int) -> int:
        """Stars in ``establishment``."""
        return self.est.count(establishment)

    def vacancies(self, exclude: int) -> list[int]:
        """Establishments in play other than ``exclude`` with fewer stars than the capacity."""
        cap = self.table.capacity
        return [e for e in self.table.establishments if e != exclude and self.est.count(e) < cap]
