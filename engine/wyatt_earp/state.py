"""The Wyatt Earp game state: the table's components plus whose decision is pending.

The state is a plain mutable container; the rules live in :mod:`engine.wyatt_earp.rules`, one
module per rulebook section, and the state dispatches to them by ``phase`` through its game (the
rules, views and resampling import this module, never the other way round):

====================  ==================================================================
phase                 who decides (``to_act``)
====================  ==================================================================
``draw``              the current player (1. Draw)
``play``              the current player: play cards, or discard to end the turn (2., 3.)
``search``            the current player, after a Wyatt Earp search: the card to take
``target``            the current player, after a hit: where the Sheriff card goes
``hideout_response``  out of turn: the player a Hideout was just played on (Wyatt Earp)
``free_photo``        out of turn, ``free_photo`` option: one player at a time, clockwise
``over``              nobody
====================  ==================================================================
"""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple

import msgspec

from engine.core import Chance, IllegalAction, LogEntry, Outcome, check_seat, find_legal, visible_events
from engine.wyatt_earp.actions import ACTION_TYPES
from engine.wyatt_earp.components import OUTLAW, PHOTO, WYATT_EARP, Components, components
from engine.wyatt_earp.events import Card, SupplyReshuffled

_COMP = components()
KIND: tuple[int, ...] = _COMP.card_kind
"""Each card's kind (interchangeable cards share one)."""
NUM_KINDS = len(_COMP.kind_type)
OUTLAWS = len(_COMP.outlaw_ids)
CARDS: tuple[Card, ...] = tuple(
    Card(
        c,
        _COMP.card_type[c],
        _COMP.card_outlaw[c],
        _COMP.card_names[c],
        _COMP.card_cp[c],
        _COMP.card_bullet_hole[c],
    )
    for c in range(_COMP.num_cards)
)
"""Each card's public face, built once."""
OUTLAW_CARD = tuple(_COMP.card_type[c] == OUTLAW for c in range(_COMP.num_cards))
"""True for the 49 Outlaw cards (the cards Most Wanted! can steal and a shot hits with)."""
CARRIES_GROUP = tuple(_COMP.card_type[c] in (OUTLAW, PHOTO) for c in range(_COMP.num_cards))
"""Outlaw cards and Photos: the cards other Sheriff cards in a group lie on."""


class Secret(NamedTuple):
    """A card taken unseen with a Wyatt Earp search (rulebook: Wyatt Earp, "adds it to his hand,
    without showing the other players"), while it stays in the hand.

    Attributes:
        candidates: the other cards the search could have taken as the table saw it (the rest of
            the stack except Wyatt Earps, and cards earlier searches took unseen), less those seen
            since (a card that surfaced as the top of the stack, a secret card laid face up).
        reshuffled: whether the supply had run out once this hand when the search was made (a
            reshuffle since moved the candidates from the discard stack into the supply).
        knowers: the seats that know the card: the searcher, and every player who searched the
            same stack later (seeing what was left).
    """

    candidates: frozenset[int]
    reshuffled: bool
    knowers: frozenset[int]


class WyattEarpState:
    """One game of Wyatt Earp (implements :class:`engine.State`).

    Seats are ``0..n-1`` in clockwise order: the player on a seat's left is ``seat + 1``.
    Card piles are lists of card ids; the *top* of the supply and of the discard stack is the
    last element. A player's territory is one group per Outlaw: ``terr[seat][outlaw]`` lists
    its cards in the order played (Outlaw cards, Photo and Sheriff cards with a number), and
    ``hideout[seat][outlaw]`` is the Hideout card covering it (-1: none).

    Knowledge (for views and :meth:`resample`): ``known`` holds the cards in hands that every
    player knows (taken from the top of the discard stack, given by Most Wanted!, stolen from a
    territory); ``secret`` the cards in hands taken unseen with a Wyatt Earp search (see
    :class:`Secret`); ``lacks[seat]`` is a bit set of the Outlaws of which ``seat`` is known to hold
    no card other than known ones (refused a Most Wanted! request since the last hidden draw);
    once the supply was reshuffled, ``recycled`` holds the cards of the discard stack that went
    into it (the whole table saw them, but for cards taken unseen by a search) and
    ``drawn_since[seat]`` counts the cards ``seat`` drew from the supply since then.

    The rules, views and resampling live in modules that import this one, never the other way
    round: the state reaches them through its game (:class:`~engine.wyatt_earp.game.WyattEarp`
    holds the phase tables ``legal``/``apply_rules``, ``make_view`` and ``resample_state``).
    """

    __slots__ = (
        "game",
        "comp",
        "options",
        "n",
        "chance",
        "money",
        "posters",
        "hand_no",
        "dealer",
        "starter",
        "current",
        "hands",
        "supply",
        "discard",
        "terr",
        "hideout",
        "opened",
        "reshuffled",
        "recycled",
        "drawn_since",
        "known",
        "secret",
        "lacks",
        "phase",
        "waiting",
        "sheriff_played",
        "progressed",
        "stalled",
        "stalled_hands",
        "bonus",
        "pending",
        "response",
        "asking",
        "duel",
        "log",
        "result",
        "decisions",
        "decision_cap",
        "_legal",
    )

    def __init__(self, game: Any, options: Any, num_players: int, seed: int) -> None:
        self.game = game
        self.comp: Components = game.components
        self.options = options
        self.n = n = num_players
        self.chance = Chance(seed)
        self.money: list[int] = [0] * n
        self.posters: list[int] = [0] * OUTLAWS
        self.hand_no = 0
        self.dealer = -1
        self.starter = -1
        self.current = -1
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.supply: list[int] = []
        self.discard: list[int] = []
        self.terr: list[list[list[int]]] = [[[] for _ in range(OUTLAWS)] for _ in range(n)]
        self.hideout: list[list[int]] = [[-1] * OUTLAWS for _ in range(n)]
        self.opened: list[bool] = [False] * OUTLAWS
        self.reshuffled = False
        self.recycled: set[int] = set()  # the cards shuffled into the supply at the reshuffle
        self.drawn_since: list[int] = [0] * n  # cards each seat drew from the supply since then
        self.known: set[int] = set()
        self.secret: dict[int, Secret] = {}  # cards taken unseen with a Wyatt Earp search, still in a hand
        self.lacks: list[int] = [0] * n
        self.phase = "setup"
        self.waiting: tuple[int, ...] = ()
        self.sheriff_played = False
        self.progressed = False  # this turn a card was drawn from the supply or played
        self.stalled = 0  # consecutive turns without either, this hand (the no-progress rule)
        self.stalled_hands = 0  # consecutive hands ended by the no-progress rule
        self.bonus = -1  # a Sheriff card taken with Wyatt Earp that may be played right now
        self.pending = -1  # the Sheriff card waiting for its target after a hit
        self.response: tuple[int, int] = (-1, -1)  # (owner, outlaw) of the Hideout just played
        self.asking: list[int] = []  # free_photo: seats still to ask, in order; [0] is asked now
        self.duel: list[int] = [0] * n  # duel standing (0: not in a duel; higher is better)
        self.log: list[LogEntry] = []
        self.result: Outcome | None = None
        self.decisions = 0  # actions applied so far
        self.decision_cap: int = game.max_decisions(num_players)  # the game ends when decisions reach it
        self._legal: dict[int, list[Any]] = {}

    # ------------------------------------------------------------------ contract

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that owe a decision now (at most one); empty once the game is over."""
        return self.waiting

    def legal_actions(self, seat: int) -> list[Any]:
        """The legal actions of ``seat`` in canonical order (empty if it owes nothing).

        The order is the generation order of the phase's rules module (for the ``play`` phase:
        Outlaw cards by Outlaw and count, Sheriff cards by kind, then discards by kind). The
        list is the caller's own copy.

        Args:
            seat: a player seat, an ``int`` from ``0`` to ``n - 1``.

        Raises:
            IllegalAction: ``seat`` is not one (a ``ValueError``).
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
        the game if it goes on: see :func:`engine.wyatt_earp.rules.end_of_hand.end_at_cap`.
        """
        if type(seat) is not int or seat not in self.waiting:
            check_seat(seat, self.n, error=IllegalAction)
            raise IllegalAction(f"seat {seat} has no decision to make now (waiting for {list(self.waiting)})")
        legal = self._legal.get(seat)
        for candidate in self._legal_of(seat) if legal is None else legal:
            if candidate is action:
                break
        else:
            try:
                action = find_legal(action, self._legal_of(seat), ACTION_TYPES)
            except IllegalAction as exc:
                raise IllegalAction(f"seat {seat}, phase {self.phase!r}: {exc}") from None
        self._legal = {}
        self.game.apply_rules[self.phase](self, seat, action)
        self.decisions += 1
        if self.decisions >= self.decision_cap and self.result is None:
            self.game.end_at_cap(self)

    def view(self, seat: int | None) -> Any:
        """What ``seat`` may know, as a :class:`~engine.wyatt_earp.views.View`.

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
        """True once a hand's scoring left someone with $25,000 or more and the winner is known."""
        return self.result is not None

    @property
    def outcome(self) -> Outcome:
        """The result: scores are the money; ranks by money, a duel's survivors ahead of those
        it shot out (see :func:`engine.wyatt_earp.rules.end_of_game.finish`).

        Raises:
            ValueError: the game is not over yet.
        """
        if self.result is None:
            raise ValueError("the game is not over yet")
        return self.result

    def events(self, seat: int | None, since: int = 0) -> list[Any]:
        """Events ``seat`` may know, oldest first, from its ``since``-th such event on.

        Args:
            seat: an ``int`` seat (public events plus its private ones), ``None`` (public
                events only) or :data:`engine.OMNISCIENT` (the full ones).
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
            self.phase,
            self.waiting,
            self.money,
            self.posters,
            (self.hand_no, self.dealer, self.starter, self.current),
            self.hands,
            self.supply,
            self.discard,
            self.terr,
            self.hideout,
            self.opened,
            self.reshuffled,
            sorted(self.recycled),
            self.drawn_since,
            sorted(self.known),
            sorted((c, sorted(e.candidates), e.reshuffled, sorted(e.knowers)) for c, e in self.secret.items()),
            self.lacks,
            (self.sheriff_played, self.bonus, self.pending, self.response, self.asking),
            (self.progressed, self.stalled, self.stalled_hands),
            self.duel,
            len(self.log),
            self.chance.fingerprint(),
        )
        return hashlib.blake2b(msgspec.msgpack.encode(snapshot), digest_size=16).hexdigest()

    def clone(self) -> WyattEarpState:
        """An independent copy that continues exactly as this state would."""
        other = self._copy()
        other.chance = self.chance.clone()
        return other

    def _copy(self) -> WyattEarpState:
        """An independent copy that still shares this state's :attr:`chance`."""
        other = WyattEarpState.__new__(WyattEarpState)
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        other.money = list(self.money)
        other.posters = list(self.posters)
        other.hands = [list(h) for h in self.hands]
        other.supply = list(self.supply)
        other.discard = list(self.discard)
        other.terr = [[list(g) for g in t] for t in self.terr]
        other.hideout = [list(h) for h in self.hideout]
        other.opened = list(self.opened)
        other.recycled = set(self.recycled)
        other.drawn_since = list(self.drawn_since)
        other.known = set(self.known)
        other.secret = dict(self.secret)
        other.lacks = list(self.lacks)
        other.asking = list(self.asking)
        other.duel = list(self.duel)
        other.log = list(self.log)
        other._legal = {}
        return other

    def resample(self, seat: int, seed: int) -> WyattEarpState:
        """A determinization for ``seat``: a copy in which everything hidden from ``seat`` is drawn
        again from what it knows (Information Set MCTS samples these).

        Redrawn: the other players' hands except the cards everyone knows are there, the cards
        other players took with a Wyatt Earp search that ``seat`` did not see (among the cards
        the search could have taken), the supply (contents and order) and future chance (a new
        :class:`engine.Chance` from ``seed``).
        A player known to hold no card of an Outlaw (refused a Most Wanted! request since the last
        hidden draw) gets none. Kept: everything public and ``seat``'s own hand. The copy has the
        same ``view(seat)``, ``to_act`` and ``legal_actions(seat)``; its event log keeps
        ``seat``'s private events and replaces the others' by their public versions. Once the game
        is over: a plain :meth:`clone`. See :mod:`engine.wyatt_earp.resample`.

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

    def emit(self, public: Any, seats: tuple[int, ...] = (), private: Any = None) -> None:
        """Log an event: ``public`` for everyone, ``private`` instead for ``seats``."""
        self.log.append((public, seats, private))

    def wait_for(self, seat: int, phase: str) -> None:
        """Enter ``phase`` waiting on ``seat``."""
        self.phase = phase
        self.waiting = (seat,)
        self._legal = {}

    def take(self, seat: int, kind: int) -> int:
        """Remove a card of ``kind`` from ``seat``'s hand and return it: a card everyone knows is
        there first (so nobody keeps believing in a card that may be gone), then the lowest id.

        Raises:
            ValueError: ``seat`` holds no card of that kind (a rules bug: legal actions check).
        """
        hand = self.hands[seat]
        best = -1
        best_known = False
        known = self.known
        for c in hand:
            if KIND[c] == kind:
                is_known = c in known
                if best < 0 or (is_known and not best_known) or (is_known == best_known and c < best):
                    best, best_known = c, is_known
        if best < 0:
            raise ValueError(f"seat {seat} holds no card of kind {kind}")
        hand.remove(best)
        if best_known:
            known.discard(best)
        elif best in self.secret:
            self.forget_secret(best)
        return best

    def forget_secret(self, card: int) -> None:
        """``card``, taken unseen with a Wyatt Earp search, leaves its hand face up: everyone now
        knows where it is, so it is no longer a secret, nor a card some other search may have taken."""
        del self.secret[card]
        self.prune(card)

    def prune(self, card: int) -> None:
        """Everyone saw ``card`` (the new top of the discard stack, or a secret card laid face up):
        it is no longer one of the cards a hidden Wyatt Earp search may have taken."""
        for c, entry in self.secret.items():
            if card in entry.candidates:
                self.secret[c] = entry._replace(candidates=entry.candidates - {card})

    def doubtful(self, seat: int | None = None) -> set[int]:
        """The cards of the discard stack ``seat`` cannot be sure are still there: those another
        player may have taken with a Wyatt Earp search since ``seat`` last looked through the stack
        (``None``: the table's public knowledge, nobody's own search counted). See
        :mod:`engine.wyatt_earp.views`."""
        out: set[int] = set()
        reshuffled = self.reshuffled
        for entry in self.secret.values():
            if entry.reshuffled == reshuffled and (seat is None or seat not in entry.knowers):
                out |= entry.candidates
        if out:
            out.intersection_update(self.discard)
        return out

    def supply_cards(self, count: int, seat: int = -1) -> list[int] | None:
        """Take ``count`` cards off the top of the supply (End of a Hand, 1. Draw's note), for
        ``seat``'s hand (-1: a shot, face up onto the discard stack).

        The first time in a hand that the supply runs out, the discard stack is shuffled into a
        new supply and the drawing goes on. Returns ``None`` (and takes nothing) when the supply
        runs out a second time: fewer than ``count`` cards after the reshuffle, or nothing to
        reshuffle. The caller then ends the hand.
        """
        supply = self.supply
        if len(supply) < count and self.reshuffled:
            return None
        out: list[int] = []
        while len(out) < count:
            if not supply:
                if self.reshuffled or not self.discard:
                    supply.extend(reversed(out))
                    return None
                self.reshuffle()
                supply = self.supply
                if len(supply) < count - len(out):
                    supply.extend(reversed(out))
                    return None
            out.append(supply.pop())
            self.progressed = True
            if self.reshuffled and seat >= 0:
                self.drawn_since[seat] += 1
        return out

    def reshuffle(self) -> None:
        """The supply ran out the first time this hand: shuffle the discard stack into it."""
        self.supply = self.discard
        self.discard = []
        self.recycled = set(self.supply)
        self.chance.shuffle(self.supply)
        self.reshuffled = True
        self.emit(SupplyReshuffled(len(self.supply)))

    def held(self) -> list[int]:
        """The Sheriff card in the current player's hand-to-table limbo: played, shot and hit,
        waiting for its target (a Wyatt Earp is on the discard stack already, so never here)."""
        pending = self.pending
        if pending >= 0 and self.comp.card_type[pending] != WYATT_EARP:
            return [pending]
        return []

    def cp(self, seat: int, outlaw: int) -> int:
        """``seat``'s counted CP for ``outlaw``: 0 under a Hideout (Scoring)."""
        if self.hideout[seat][outlaw] >= 0:
            return 0
        card_cp = self.comp.card_cp
        return sum(card_cp[c] for c in self.terr[seat][outlaw])
