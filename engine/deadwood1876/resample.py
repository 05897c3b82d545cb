"""Determinization for Information Set MCTS: redraw everything one seat cannot see.

:func:`resample` returns a copy of a game in which the hidden parts are drawn again, at random,
from what one seat knows (DESIGN.md, ``State.resample``). What a seat knows is worked out by
:class:`Knowledge` from the seat's own events (``state.events(seat)``: public events plus its
private ones); the engine keeps no other record of it. A fact is only applied where the state
agrees with it (a card pinned to a hand must be in that hand, a label placed in a row must be
among the Safes drawn again), so a position built by hand, without the events that led to it,
still resamples: it just keeps less.

**Hidden from a seat, and redrawn**

* Deadwood cards: the cards in other players' hands, the whole deck (contents and order) and the
  face-down cards in the discard pile (other players' Duster discards).
* Safes: every Safe in another row (the Stranger's included) whose contents the seat's view does
  not name, the middle stack (contents and order), the Safes in the box, and, with Mystery Safes,
  which Mystery Safes are in play at all (the others were never shuffled in).
* Other seats' hidden simultaneous choices already made (Safe pass, Holster window, Holster
  choice, Heist gun, Showdown gun, gift to the Stranger): redrawn uniformly from that seat's legal
  actions in the new position. ``to_act`` and the "has chosen" marks stay as they are.
* Future chance: the copy gets a new :class:`engine.Chance` seeded from ``seed``.

**Kept: what the seat knows** (each is a fact the seat saw in its own events)

* Everything public (stars, counts, cards on the table, attached Holsters, revealed Safes, the
  Heist Safe, exploded Safes) and the seat's own hand, row and earlier hidden choice. The queue of
  starred Mystery Safes still to resolve is the rules' fixed order (Dagger, Explosives, Poker
  Deck), not hidden: it is kept; who owns those Safes is redrawn like any hidden Safe.
* Other seats' knowledge of Safes (their ``known``) moves with the Safes' places, so each still
  knows the Safe at the place it saw.
* Safes whose position the seat's view names (``known``: seen with a Stetson, stolen, lost, given,
  won in a Heist, until their owner shuffled): they stay where they are.
* Safes in a row at an unknown position: a Safe the seat saw go into a row (passed at Set Up, lost
  to a thief, given to the Stranger, seen won in a Heist, seen with a Stetson) stays somewhere in
  that row after its owner shuffles; the resample puts a Safe of that label in one of the row's
  unknown places. This is forgotten (never guessed) when a Safe leaves that row from a place the
  seat cannot tell: then the seat can no longer say which Safe left.
* Mystery Safes the seat has seen are in play (never drawn as "not shuffled in").
* Cards whose place the seat knows stay there: the face-up cards in the discard pile (played,
  Heist and Showdown guns, its own Duster discards), a Holster given back to its giver's hand, and
  a hand taken back in the Final Showdown (all its cards were played face up). A Holster known in a
  hand is forgotten once that player discards face down (it may have been discarded).
* After the deck is reshuffled, the cards the seat saw in the discard pile are in the new deck: they
  are only drawn into the deck, the face-down discards, or hand places filled since that reshuffle
  (as many as the player drew since: an upper bound, as the seat cannot tell which of those cards
  the player has played since). Unseen cards may go anywhere.
* No Deadwood 1876 action shows that a hand lacks a card (every card is a gun; every player is
  asked in the Holster window), so there are no "known absent" constraints.

**Approximations** (never ruling out the true position, only allowing some it could tell apart):
the bounds above; Safes of the same label (two Gold 3s) are interchangeable, so a Safe known to
be in a row is kept as "a Safe of that label"; the redraw is uniform over the places that fit
these facts (the most constrained first), not weighted by how likely other players were to play as
they did; other seats' memory of cards is not modelled (the engine keeps none). The copy's event
log keeps the seat's own private events and replaces every other private event by its public
version, so no event describes the original deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from engine.core import Chance
from engine.deadwood1876 import events as E
from engine.deadwood1876.components import MYSTERY, components
from engine.deadwood1876.state import DeadwoodState, LogEntry

_COMP = components()
_LABELS: tuple[str, ...] = tuple(_COMP.safe_label(s) for s in range(len(_COMP.safe_kind)))
_MYSTERIES: tuple[int, ...] = tuple(s for s in range(len(_COMP.safe_kind)) if _COMP.safe_kind[s] == MYSTERY)
_MYSTERY_LABELS = frozenset(_LABELS[s] for s in _MYSTERIES)
_CARDS = len(_COMP.card_gun)

# Where a seat knows a card is (``Knowledge.where``); ``None``: not known.
_OUT = ("out", -1)  # face up on the table, then the discard pile
_OFFER = ("offer", -1)  # a Holster given in the Holster window
_ATTACHED = ("attached", -1)  # attached to a Safe or a character card (2-3 players)
# ("hand", p): in p's hand; ("aside", p): set aside in the Showdown; ("gen", g): went into the
# deck at its g-th reshuffle and not seen since.

_Entry = tuple[str | None, bool, bool]
"""A Safe in a row as a seat knows it: ``(label or None, has a Holster, face up)``."""
_UNSEEN: _Entry = (None, False, False)

PENDING_FORM: dict[str, Callable[[Any], Any]] = {
    "pass_safe": lambda a: a.index,
    "give_to_stranger": lambda a: a.index,
    "holster": lambda a: a,
    "choose_holster": lambda a: a.card,
    "heist": lambda a: a.card,
    "showdown": lambda a: a.card,
}
"""The hidden simultaneous phases: how a legal action is stored in ``DeadwoodState.pending``."""


class Knowledge:
    """What one seat has learned from its own events (see the module docstring).

    Built incrementally from a state's log (:meth:`feed`); a finished instance is never changed
    again (:func:`knowledge` extends a copy), so states and their clones may share it.

    Attributes:
        seat: the seat; ``stranger`` the Stranger's figure (2 players), else -1.
        length: how many log entries have been read; ``last`` the last one (to detect a log
            that was replaced rather than extended).
        where: per card id, where the seat knows it is (``None``: not known).
        generation: how many times the deck has been reshuffled.
        drawn: ``drawn[p][g]``: cards ``p`` drew (unseen by the seat) while the deck was of
            generation ``g``.
        rows: per figure, the row of Safes as the seat can tell it (:data:`_Entry`).
        bags: per figure, labels of Safes known to be in the row at a place the seat can't tell.
        robbery: ``(defender, index)`` of the Robbery in progress, else ``None``.
        after_duster: the Duster card just laid on the table (the next event may be a reshuffle
            that leaves it there), else -1.
        exploded: Safes blown up (appended to the box, face up).
        mysteries: labels of Mystery Safes the seat has seen.
        log: the log as the resampled copy keeps it (other seats' private events made public).
        card_gens: per card id, the reshuffle ``g`` (1..generation) after which the seat last saw
            it in the discard pile, else 0; worked out on first use (:func:`_card_gens`).
    """

    __slots__ = (
        "seat",
        "stranger",
        "length",
        "last",
        "where",
        "generation",
        "drawn",
        "rows",
        "bags",
        "robbery",
        "after_duster",
        "exploded",
        "mysteries",
        "log",
        "card_gens",
    )

    def __init__(self, seat: int, players: int, figures: int) -> None:
        self.seat = seat
        self.stranger = players if figures > players else -1
        self.length = 0
        self.last: Any = None
        self.where: list[tuple[str, int] | None] = [None] * _CARDS
        self.generation = 0
        self.drawn: list[list[int]] = [[0] for _ in range(players)]
        self.rows: list[list[_Entry]] = [[] for _ in range(figures)]
        self.bags: list[dict[str, int]] = [{} for _ in range(figures)]
        self.robbery: tuple[int, int] | None = None
        self.after_duster = -1
        self.exploded = 0
        self.mysteries: set[str] = set()
        self.log: list[LogEntry] = []
        self.card_gens: list[int] | None = None  # see _card_gens

    def copy(self) -> Knowledge:
        """An independent copy."""
        other = Knowledge.__new__(Knowledge)
        other.seat = self.seat
        other.stranger = self.stranger
        other.length = self.length
        other.last = self.last
        other.where = list(self.where)
        other.generation = self.generation
        other.drawn = [list(d) for d in self.drawn]
        other.rows = [list(r) for r in self.rows]
        other.bags = [dict(b) for b in self.bags]
        other.robbery = self.robbery
        other.after_duster = self.after_duster
        other.exploded = self.exploded
        other.mysteries = set(self.mysteries)
        other.log = list(self.log)
        other.card_gens = None
        return other

    def reads(self, log: list[LogEntry]) -> bool:
        """True if ``log`` begins with the entries read so far (the last one is the same object, in
        the original log or in a resample's copy of :attr:`log`)."""
        if not self.length:
            return True
        entry = log[self.length - 1]
        return entry is self.last or entry is self.log[self.length - 1]

    def feed(self, entries: Iterable[LogEntry]) -> None:
        """Read more log entries ``(public, seats, private)``, as the seat sees them."""
        seat = self.seat
        log = self.log
        for entry in entries:
            public, seats, private = entry
            if private is None or seat in seats:
                event = private if private is not None else public
                log.append(entry)
            else:
                event = public
                log.append((public, (), None))
            self.length += 1
            self.last = entry
            if event is None:
                continue
            handler = _HANDLERS.get(type(event))
            if handler is not None:
                handler(self, event)
            if type(event) is not E.CardPlayed:
                self.after_duster = -1

    # ------------------------------------------------------------------ Safes

    def saw(self, label: str | None) -> None:
        """Note a Safe label the seat has seen (Mystery Safes seen are in play)."""
        if label is not None and label in _MYSTERY_LABELS:
            self.mysteries.add(label)

    def row(self, figure: int) -> list[_Entry]:
        """The row of ``figure`` (an empty list for a figure out of range)."""
        return self.rows[figure] if 0 <= figure < len(self.rows) else []

    def unbag(self, figure: int, label: str | None) -> None:
        """A Safe left ``figure``'s row from a place the seat could not tell: if it was a label
        the seat knew to be there, one fewer is known; if the seat can't tell what left, the row's
        unknown-place knowledge is forgotten."""
        if not 0 <= figure < len(self.bags):
            return
        bag = self.bags[figure]
        if label is None:
            bag.clear()
        elif bag.get(label, 0) > 0:
            bag[label] -= 1
            if not bag[label]:
                del bag[label]

    def take(self, figure: int, index: int, label: str | None) -> _Entry:
        """Remove the Safe at ``index`` of ``figure``'s row; ``label`` is what the event says it
        was (``None``: not shown). Returns the entry, its label filled in if anyone knows it."""
        row = self.row(figure)
        if 0 <= index < len(row):
            entry = row.pop(index)
        else:  # a row the events never built (a test's position): nothing is known about it
            entry = _UNSEEN
            self.unbag(figure, None)
        if entry[0] is None:
            self.unbag(figure, label)
        # What the event shows wins; the seat's own row is not followed place by place (its view
        # shows it, and its events name every Safe that leaves it).
        known = label if label is not None or figure == self.seat else entry[0]
        return (known, entry[1], entry[2])

    def learn(self, figure: int, index: int, label: str, face_up: bool = False) -> None:
        """The seat sees the Safe at ``index`` of ``figure``'s row."""
        self.saw(label)
        row = self.row(figure)
        if 0 <= index < len(row):
            old, holster, up = row[index]
            if old is None:
                self.unbag(figure, label)
            row[index] = (label, holster, up or face_up)

    def forget_places(self, figure: int) -> None:
        """A Safe left ``figure``'s row from a hidden place: every place may have shifted."""
        row = self.row(figure)
        for i, (_, holster, up) in enumerate(row):
            row[i] = (None, holster, up)
        self.unbag(figure, None)


# ---------------------------------------------------------------------- event handlers


def _cards_dealt(k: Knowledge, ev: E.CardsDealt | E.CardsDrawn) -> None:
    if ev.cards is not None:
        tag = ("hand", ev.seat)
        for c in ev.cards:
            k.where[c.id] = tag
    elif isinstance(ev, E.CardsDrawn) and 0 <= ev.seat < len(k.drawn):
        k.drawn[ev.seat][k.generation] += ev.count


def _cards_discarded(k: Knowledge, ev: E.CardsDiscarded) -> None:
    if ev.cards is not None:
        for shown in ev.cards:
            k.where[shown.id] = _OUT
    else:  # face down: a card known in that hand may be among them
        tag = ("hand", ev.seat)
        where = k.where
        for c in range(_CARDS):
            if where[c] == tag:
                where[c] = None


def _card_played(k: Knowledge, ev: E.CardPlayed) -> None:
    card = ev.card.id
    k.where[card] = ("aside", ev.seat) if ev.use == "showdown" else _OUT
    k.after_duster = card if ev.use == "duster" else -1
    if ev.use == "attached_holster" and k.robbery is not None:
        defender, index = k.robbery
        row = k.row(defender)
        if 0 <= index < len(row):
            label, _, up = row[index]
            row[index] = (label, False, up)


def _holster_given(k: Knowledge, ev: E.HolsterGiven) -> None:
    k.where[ev.card.id] = _OFFER


def _holster_returned(k: Knowledge, ev: E.HolsterReturned) -> None:
    k.where[ev.card.id] = ("hand", ev.giver)


def _horse_thief(k: Knowledge, ev: E.HorseThiefJoined) -> None:
    k.where[ev.card.id] = _OUT


def _hands_taken_back(k: Knowledge, ev: E.HandsTakenBack) -> None:
    where = k.where
    for seat in ev.seats:
        aside, hand = ("aside", seat), ("hand", seat)
        for c in range(_CARDS):
            if where[c] == aside:
                where[c] = hand


def _deck_reshuffled(k: Knowledge, ev: E.DeckReshuffled) -> None:
    """The discard pile became the deck: the face-up cards seen there are in it (but not a Duster
    just laid on the table, whose draw caused the reshuffle)."""
    k.generation += 1
    gen = ("gen", k.generation)
    for d in k.drawn:
        d.append(0)
    where = k.where
    for c in range(_CARDS):
        if where[c] == _OUT and c != k.after_duster:
            where[c] = gen


def _safes_dealt(k: Knowledge, ev: E.SafesDealt) -> None:
    row = k.row(ev.seat)
    if ev.safes is not None:
        for label in ev.safes:
            k.saw(label)
            row.append((label, False, False))
    else:
        row.extend([_UNSEEN] * ev.count)


def _safe_passed(k: Knowledge, ev: E.SafePassed) -> None:
    # Set Up: every row is shuffled right after the passes; pop an original place, not the one
    # just received (appended at the end).
    row = k.row(ev.giver)
    if row:
        row.pop(0)
    k.saw(ev.safe)
    k.row(ev.receiver).append((ev.safe, False, False))


def _stranger_placed(k: Knowledge, ev: E.StrangerPlaced) -> None:
    if 0 <= ev.figure < len(k.rows):
        k.rows[ev.figure] = [_UNSEEN] * ev.safes


def _given_to_stranger(k: Knowledge, ev: E.SafeGivenToStranger) -> None:
    row = k.row(ev.seat)
    if ev.seat != k.seat:
        k.forget_places(ev.seat)
    if row:
        row.pop(0)
    k.saw(ev.safe)
    k.row(k.stranger).append((ev.safe, False, False))


def _safes_shuffled(k: Knowledge, ev: E.SafesShuffled) -> None:
    """First Law: the loose Safes (no Holster, not face up) change places; a row of one loose
    Safe is unchanged. Labels known in place become labels known somewhere in the row."""
    row = k.row(ev.seat)
    loose = [i for i, (_, holster, up) in enumerate(row) if not holster and not up]
    if len(loose) > 1:
        bag = k.bags[ev.seat]
        for i in loose:
            label = row[i][0]
            if label is not None:
                bag[label] = bag.get(label, 0) + 1
            row[i] = _UNSEEN


def _holster_attached(k: Knowledge, ev: E.HolsterAttached) -> None:
    k.where[ev.card.id] = _ATTACHED
    if ev.index >= 0:
        row = k.row(ev.owner)
        if 0 <= ev.index < len(row):
            label, _, up = row[ev.index]
            row[ev.index] = (label, True, up)


def _robbery_declared(k: Knowledge, ev: E.RobberyDeclared) -> None:
    k.robbery = (ev.defender, ev.index)


def _duel_declared(k: Knowledge, ev: E.DuelDeclared) -> None:
    k.robbery = None


def _safe_moved(k: Knowledge, ev: E.SafeStolen | E.SafeGiven) -> None:
    if isinstance(ev, E.SafeStolen):
        source, target = ev.victim, ev.thief
    else:
        source, target = ev.giver, ev.recipient
    k.saw(ev.safe)
    label, holster, up = k.take(source, ev.index, ev.safe)
    k.row(target).append((label, holster, up))


def _safe_viewed(k: Knowledge, ev: E.SafeViewed) -> None:
    if ev.safe is not None:
        k.learn(ev.owner, ev.index, ev.safe)


def _heist_started(k: Knowledge, ev: E.HeistStarted) -> None:
    k.saw(ev.safe)


def _heist_won(k: Knowledge, ev: E.HeistWon) -> None:
    k.saw(ev.safe)
    k.row(ev.seat).append((ev.safe, False, False))


def _revealed(k: Knowledge, ev: E.BadgeRevealed | E.MysteryRevealed) -> None:
    label = ev.badge if isinstance(ev, E.BadgeRevealed) else ev.safe
    k.learn(ev.seat, ev.index, label, face_up=True)


def _safe_exploded(k: Knowledge, ev: E.SafeExploded) -> None:
    if ev.holster is not None:  # its attached Holster went to the discard pile, face up
        k.where[ev.holster.id] = _OUT
    k.saw(ev.safe)
    k.take(ev.owner, ev.index, ev.safe)
    k.exploded += 1


def _safes_revealed(k: Knowledge, ev: E.SafesRevealed) -> None:
    for label in (x for row in ev.rows for x in row):
        k.saw(label)
    old = k.rows
    k.rows = [
        [(label, f < len(old) and i < len(old[f]) and old[f][i][1], True) for i, label in enumerate(row)]
        for f, row in enumerate(ev.rows)
    ]
    k.bags = [{} for _ in ev.rows]


_HANDLERS: dict[type, Callable[[Knowledge, Any], None]] = {
    E.CardsDealt: _cards_dealt,
    E.CardsDrawn: _cards_dealt,
    E.CardsDiscarded: _cards_discarded,
    E.CardPlayed: _card_played,
    E.HolsterGiven: _holster_given,
    E.HolsterReturned: _holster_returned,
    E.HorseThiefJoined: _horse_thief,
    E.HandsTakenBack: _hands_taken_back,
    E.DeckReshuffled: _deck_reshuffled,
    E.SafesDealt: _safes_dealt,
    E.SafePassed: _safe_passed,
    E.StrangerPlaced: _stranger_placed,
    E.SafeGivenToStranger: _given_to_stranger,
    E.SafesShuffled: _safes_shuffled,
    E.HolsterAttached: _holster_attached,
    E.RobberyDeclared: _robbery_declared,
    E.DuelDeclared: _duel_declared,
    E.SafeStolen: _safe_moved,
    E.SafeGiven: _safe_moved,
    E.SafeViewed: _safe_viewed,
    E.HeistStarted: _heist_started,
    E.HeistWon: _heist_won,
    E.BadgeRevealed: _revealed,
    E.MysteryRevealed: _revealed,
    E.SafeExploded: _safe_exploded,
    E.SafesRevealed: _safes_revealed,
}


def knowledge(st: DeadwoodState, seat: int) -> Knowledge:
    """What ``seat`` knows in ``st``, read from its log (cached on the state, extended as the log
    grows; rebuilt if the log was replaced)."""
    cache = st._knowledge
    log = st.log
    known = cache.get(seat)
    if known is None or known.length > len(log) or not known.reads(log):
        known = Knowledge(seat, st.n, st.m)
    if known.length < len(log):
        known = known.copy()
        known.feed(log[known.length :])
    cache[seat] = known
    return known


# ---------------------------------------------------------------------- the redraw


def resample(st: DeadwoodState, seat: int, seed: int) -> DeadwoodState:
    """A determinization of ``st`` for ``seat`` (see the module docstring); ``st`` is unchanged.

    Args:
        st: the state (not over).
        seat: a player seat (checked by the caller).
        seed: an ``int >= 0`` (checked by the caller); the same state, seat and seed give the
            same result.

    Returns:
        A new state with the same ``view(seat)``, ``to_act`` and ``legal_actions(seat)``.
    """
    known = knowledge(st, seat)
    rng = random.Random(seed)
    new = st._copy()
    new.log = list(known.log)
    new._knowledge = {seat: known}
    cards = _redeal_cards(new, seat, known, rng)
    for p in range(new.n):
        if p != seat and new.start_hands[p]:
            new.start_hands[p] = [cards.get(c, c) for c in new.start_hands[p]]
    safes = _redeal_safes(new, seat, known, rng)
    if safes:
        for p in range(new.n):
            if p != seat:
                new.known[p] = {safes.get(x, x) for x in new.known[p]}
        new.viewed = [safes.get(x, x) for x in new.viewed]
        new.safe_holster = {safes.get(x, x): c for x, c in new.safe_holster.items()}
        if new.fight is not None and new.fight.safe >= 0:
            new.fight.safe = safes.get(new.fight.safe, new.fight.safe)
    _redraw_pending(new, seat, rng)
    new.chance = Chance(rng.getrandbits(64))
    new._legal = {}
    return new


def _take_at(rnd: Callable[[], float], items: list[int]) -> int:
    """Remove and return a uniformly chosen element of ``items`` (order not kept)."""
    j = int(rnd() * len(items))
    item = items[j]
    items[j] = items[-1]
    items.pop()
    return item


def _permute(rnd: Callable[[], float], items: list[Any]) -> None:
    """Put ``items`` in a uniformly random order (random keys: faster than ``random.shuffle``)."""
    if len(items) > 1:
        items.sort(key=lambda _: rnd())


def _card_gens(known: Knowledge) -> list[int]:
    """:attr:`Knowledge.card_gens`, computed once per (finished) instance."""
    gens = known.card_gens
    if gens is None:
        top = known.generation
        gens = [w[1] if w is not None and w[0] == "gen" and 0 < w[1] <= top else 0 for w in known.where]
        known.card_gens = gens
    return gens


def _redeal_cards(st: DeadwoodState, seat: int, known: Knowledge, rng: random.Random) -> dict[int, int]:
    """Redraw the cards hidden from ``seat`` in place; returns ``{old card: new card}`` per place.

    A card last seen in the discard pile before the ``g``-th reshuffle (tag ``("gen", g)``) only
    goes to a place of generation ``g`` or later: the deck, a face-down discard, or one of the
    first ``min(hidden, drawn since)`` hidden places of a hand. The most constrained cards are
    placed first, uniformly among the places left that fit them, the unconstrained ones last:
    uniform over the arrangements that respect the constraints (they are nested).
    """
    where = known.where
    top = known.generation
    old: list[int] = []
    place_gen: list[int] = []
    hidden_in: list[tuple[list[int], list[int]]] = []
    for p in range(st.n):
        if p == seat:
            continue
        hand = st.hands[p]
        tag = ("hand", p)
        if tag in map(where.__getitem__, hand):
            hidden = [i for i, c in enumerate(hand) if where[c] != tag]
            old.extend([hand[i] for i in hidden])
        else:  # the common case: nothing known about the hand
            hidden = list(range(len(hand)))
            old += hand
        hidden_in.append((hand, hidden))
        if top:
            # The first places of the hand take cards of the newest decks, as many as p drew from
            # them (upper bounds: which of those p still holds is unknown).
            gens = [0] * len(hidden)
            drawn = known.drawn[p] if p < len(known.drawn) else [0]
            filled = since = 0
            for g in range(min(top, len(drawn) - 1), 0, -1):
                since += drawn[g]
                upto = min(len(hidden), since)
                if filled < upto:
                    gens[filled:upto] = [g] * (upto - filled)
                    filled = upto
            place_gen += gens
    deck, discard = st.deck, st.discard
    old += deck
    face_down = [i for i, c in enumerate(discard) if where[c] != _OUT]
    old += [discard[i] for i in face_down]
    rnd = rng.random
    constrained = list(map(_card_gens(known).__getitem__, old)) if top else [0] * len(old)
    if not any(constrained):
        new = list(old)
        _permute(rnd, new)
    else:
        place_gen += [top] * (len(old) - len(place_gen))
        cards_of: list[list[int]] = [[] for _ in range(top + 1)]
        for c, g in zip(old, constrained, strict=True):
            cards_of[g].append(c)
        places_of: list[list[int]] = [[] for _ in range(top + 1)]
        for k, g in enumerate(place_gen):
            places_of[g].append(k)
        new = [-1] * len(old)
        free: list[int] = []
        spill: list[int] = []
        for g in range(top, 0, -1):
            free += places_of[g]
            cards = cards_of[g]
            if cards:
                _permute(rnd, free)
                for k, c in zip(free, cards, strict=False):
                    new[k] = c
                spill += cards[len(free) :]  # more such cards than places they fit: not a real position
                del free[: len(cards)]
        free += places_of[0]
        _permute(rnd, free)
        for k, c in zip(free, cards_of[0] + spill, strict=True):
            new[k] = c
    k = 0
    for hand, hidden in hidden_in:
        for i in hidden:
            hand[i] = new[k]
            k += 1
    deck[:] = new[k : k + len(deck)]
    k += len(deck)
    for i in face_down:
        discard[i] = new[k]
        k += 1
    return dict(zip(old, new, strict=True))


def _redeal_safes(st: DeadwoodState, seat: int, known: Knowledge, rng: random.Random) -> dict[int, int]:
    """Redraw the Safes hidden from ``seat`` in place; returns ``{old Safe: new Safe}`` per place
    (including the Mystery Safes not in play, exchanged with the ones drawn to be out of play).

    The labels the seat knows to be somewhere in a row (:attr:`Knowledge.bags`) are placed first,
    each at a uniformly chosen hidden place of that row; with Mystery Safes, the ones out of play
    are then drawn among the Mystery Safes the seat has never seen; the rest are shuffled into the
    remaining hidden places.
    """
    pinned = st.known[seat] | st.revealed
    old: list[int] = []
    zones: list[tuple[list[int], list[int]]] = []
    span: dict[int, range] = {}
    for f in range(st.m):
        if f == seat:
            continue
        row = st.rows[f]
        hidden = [i for i, x in enumerate(row) if x not in pinned]
        if hidden:
            zones.append((row, hidden))
            span[f] = range(len(old), len(old) + len(hidden))
            old += [row[i] for i in hidden]
    middle, box = st.middle, st.box
    zones.append((middle, list(range(len(middle)))))
    old += middle
    hidden = [i for i in range(len(box) - known.exploded) if box[i] not in pinned]
    zones.append((box, hidden))
    old += [box[i] for i in hidden]
    outside: list[int] = []
    if st.options.mystery_safes:
        located = {x for row in st.rows for x in row} | set(middle) | set(box) | {st.heist_safe}
        outside = [x for x in _MYSTERIES if x not in located]
    pool = old + outside
    if len(pool) < 2:
        return {}
    rnd = rng.random
    new = [-1] * len(old)
    rest = pool
    bags = [(f, known.bags[f]) for f in span if f < len(known.bags) and known.bags[f]]
    if bags:
        ids_of: dict[str, list[int]] = {}
        for x in pool:
            ids_of.setdefault(_LABELS[x], []).append(x)
        spare = sum(1 for x in pool if _COMP.safe_kind[x] == MYSTERY) - len(outside)
        used = set()
        for f, bag in bags:
            free = list(span[f])
            for label in sorted(bag):
                ids = ids_of.get(label, [])
                for _ in range(bag[label]):
                    if not ids or not free:
                        break
                    if label in _MYSTERY_LABELS:
                        if spare <= 0:  # keep enough Mystery Safes to stay out of play
                            break
                        spare -= 1
                    x = _take_at(rnd, ids)
                    new[_take_at(rnd, free)] = x
                    used.add(x)
        rest = [x for x in pool if x not in used]
    chosen: list[int] = []
    if outside:
        unseen = [x for x in rest if _COMP.safe_kind[x] == MYSTERY and _LABELS[x] not in known.mysteries]
        if len(unseen) < len(outside):
            unseen = [x for x in rest if _COMP.safe_kind[x] == MYSTERY]
        chosen = rng.sample(unseen, len(outside))
        rest = [x for x in rest if x not in chosen]
    else:
        rest = list(rest)
    _permute(rnd, rest)
    fill = iter(rest)
    new = [x if x >= 0 else next(fill) for x in new]
    k = 0
    for lst, hidden in zones:
        for i in hidden:
            lst[i] = new[k]
            k += 1
    mapping = dict(zip(old, new, strict=True))
    mapping.update(zip(outside, chosen, strict=True))
    return mapping


def _redraw_pending(st: DeadwoodState, seat: int, rng: random.Random) -> None:
    """Other seats' hidden simultaneous choices: a uniformly random legal one each, in seat order."""
    form = PENDING_FORM.get(st.phase)
    if form is None or not st.pending:
        return
    legal_of = st.game.legal[st.phase]
    for p in sorted(st.pending):
        if p != seat:
            legal = legal_of(st, p)
            if legal:
                st.pending[p] = form(legal[rng.randrange(len(legal))])
