"""What a seat may know of a Wyatt Earp game.

A view shows everything on the table: every territory (each group's cards, counted CP and
Hideout), the discard stack as the seat knows it (below), the reward posters, the supply's
size, money and hand sizes; plus, for a seat, its own hand. Of other hands it shows only what
everyone knows: cards taken from the top of the discard stack, given by Most Wanted! or stolen
from a territory (``known``), and the Outlaws a player is known to hold no other card of
(refused a Most Wanted! request since their last hidden draw: ``lacks``). Nothing else hidden:
no other hand, no supply order, no card another player took with a Wyatt Earp search.

The discard stack (decision, see the package docstring): it lies face up, but only its top card
is on view; the cards below are what a player remembers seeing laid on it. ``discard`` lists the
cards the seat knows are in it, bottom first, the top card last (always known), and
``discard_size`` how many it holds. After another player's Wyatt Earp search the seat cannot
know which card was taken, so the cards that search may have taken (every card of the stack but
the Wyatt Earps) drop out of ``discard`` until the doubt is settled: until the seat searches the
stack itself, a card comes back into view at the top, or the card taken is laid face up. No
seat can therefore tell the card taken by comparing stacks. During its own search a seat sees
the whole stack. A spectator knows what every player knows.

Views are immutable, so equal groups, territories and posters are built once and shared between
views (bounded caches, :func:`make_view`).
"""

from __future__ import annotations

import functools

import msgspec

from engine.core import OMNISCIENT
from engine.wyatt_earp.components import components
from engine.wyatt_earp.events import Card
from engine.wyatt_earp.state import CARDS, OUTLAWS, WyattEarpState

_CARD_CP = components().card_cp
_OUTLAW_NAMES = components().outlaw_names
_IN_TURN = frozenset(("play", "search", "target", "hideout_response", "free_photo"))


class GroupView(msgspec.Struct, frozen=True):
    """One player's cards of one Outlaw.

    Attributes:
        outlaw: the Outlaw id.
        cards: the cards, in the order played (Outlaw cards, Photo, Sheriff cards with a number).
        cp: the CP that count (0 under a Hideout).
        printed_cp: the CP printed on the cards, counted or not.
        hideout: the Hideout covering the group, if any.
    """

    outlaw: int
    cards: tuple[Card, ...]
    cp: int
    printed_cp: int
    hideout: Card | None = None


class PlayerView(msgspec.Struct, frozen=True):
    """One seat at the table, as everyone may see it.

    Attributes:
        seat: the seat (0-based, clockwise).
        money: dollars won so far.
        hand_size: cards in hand.
        territory: the groups, by Outlaw (only Outlaws with cards).
        known: cards of this hand that everyone knows are there (empty for the viewer's own seat:
            its whole hand is in ``View.hand``).
        lacks: Outlaws this player is known to hold no other card of.
    """

    seat: int
    money: int
    hand_size: int
    territory: tuple[GroupView, ...]
    known: tuple[Card, ...] = ()
    lacks: tuple[int, ...] = ()


class PosterView(msgspec.Struct, frozen=True):
    """One Outlaw's reward poster.

    Attributes:
        outlaw: the Outlaw id; ``name`` the Outlaw's name.
        reward: dollars on the poster.
        opened: the Outlaw's first set was played this hand (others may add any number of cards).
        cp: counted CP on the whole table (8 or more: captured if the hand ended now).
        leaders: the seats with the most counted CP (empty when nobody has any).
    """

    outlaw: int
    name: str
    reward: int
    opened: bool
    cp: int
    leaders: tuple[int, ...]


class View(msgspec.Struct, frozen=True):
    """Everything one seat may know (``seat`` ``None``: a spectator; -1: omniscient).

    Attributes:
        game: ``"wyatt_earp"``.
        seat: the viewer.
        phase: the decision pending (see :mod:`engine.wyatt_earp.state`).
        to_act: the seats that owe a decision.
        hand_number: 1 for the first hand.
        dealer, starter: who dealt this hand and who played first.
        current: whose turn it is (-1 once the game is over).
        players: every seat, in seat order.
        posters: the seven reward posters, in poster order.
        hand: the viewer's cards (empty for a spectator).
        discard: the cards the viewer knows are in the discard stack, bottom first; the last is
            the top card (see the module docstring: after another player's Wyatt Earp search,
            the cards it may have taken are left out). The whole stack in the omniscient view.
        discard_size: cards in the discard stack.
        supply_size: cards in the supply.
        reshuffled: the supply already ran out once this hand (the next time ends the hand).
        sheriff_played: the current player played a Sheriff card this turn.
        immediate: a Sheriff card the current player took with Wyatt Earp and may still play now;
            only in that player's own view (the others did not see the card taken).
        pending: the Sheriff card waiting for its target after a hit (phase ``target``).
        hideout: ``(owner, outlaw)`` of the Hideout the owner may answer (``hideout_response``),
            or of the Outlaw whose Photo is offered (``free_photo``), else ``None``.
        winners: the winners once the game is over.
        hands: every hand, only in the omniscient view.
    """

    game: str
    seat: int | None
    phase: str
    to_act: tuple[int, ...]
    hand_number: int
    dealer: int
    starter: int
    current: int
    players: tuple[PlayerView, ...]
    posters: tuple[PosterView, ...]
    hand: tuple[Card, ...]
    discard: tuple[Card, ...]
    discard_size: int
    supply_size: int
    reshuffled: bool
    sheriff_played: bool
    immediate: Card | None
    pending: Card | None
    hideout: tuple[int, int] | None
    winners: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...] | None = None


_CARD = CARDS.__getitem__
_LACKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(o for o in range(OUTLAWS) if mask >> o & 1) for mask in range(1 << OUTLAWS)
)
"""The Outlaws of each bit set of ``WyattEarpState.lacks``."""


@functools.lru_cache(maxsize=1 << 9)
def _cards(ids: tuple[int, ...]) -> tuple[Card, ...]:
    """The public faces of cards (cached: the discard stack stays the same for a few views)."""
    return tuple(map(_CARD, ids))


@functools.lru_cache(maxsize=1 << 11)
def _group(outlaw: int, cards: tuple[int, ...], hideout: int) -> GroupView:
    """The :class:`GroupView` of a group (cached: groups repeat from one view to the next; a view
    and its parts are immutable, so equal groups may share one)."""
    printed = sum(_CARD_CP[c] for c in cards)
    return GroupView(
        outlaw,
        tuple(map(_CARD, cards)),
        0 if hideout >= 0 else printed,
        printed,
        CARDS[hideout] if hideout >= 0 else None,
    )


@functools.lru_cache(maxsize=1 << 11)
def _territory(
    terr: tuple[tuple[int, ...], ...], hideouts: tuple[int, ...]
) -> tuple[tuple[GroupView, ...], tuple[int, ...]]:
    """One player's groups (:func:`_group`, by Outlaw) and counted CP per Outlaw, from the cards of
    each Outlaw and the Hideouts on them (cached, as :func:`_group`)."""
    groups = tuple(_group(o, cards, hideouts[o]) for o, cards in enumerate(terr) if cards)
    counted = [0] * OUTLAWS
    for group in groups:
        counted[group.outlaw] = group.cp
    return groups, tuple(counted)


@functools.lru_cache(maxsize=1 << 11)
def _posters(
    rewards: tuple[int, ...], opened: tuple[bool, ...], table_cp: tuple[tuple[int, ...], ...]
) -> tuple[PosterView, ...]:
    """The reward posters from the rewards, the opened Outlaws and every seat's counted CP per
    Outlaw (cached, as :func:`_group`)."""
    columns = zip(*table_cp, strict=True)
    return tuple(
        _poster(o, reward, was_opened, column)
        for o, (reward, was_opened, column) in enumerate(zip(rewards, opened, columns, strict=True))
    )


@functools.lru_cache(maxsize=1 << 11)
def _poster(outlaw: int, reward: int, opened: bool, column: tuple[int, ...]) -> PosterView:
    """The :class:`PosterView` of an Outlaw from its counted CP per seat (cached, as :func:`_group`)."""
    top = max(column)
    leaders = tuple(p for p, cp in enumerate(column) if cp == top) if top > 0 else ()
    return PosterView(outlaw, _OUTLAW_NAMES[outlaw], reward, opened, sum(column), leaders)


def make_view(st: WyattEarpState, seat: int | None) -> View:
    """Build the :class:`View` of ``seat`` (``None``: spectator; ``OMNISCIENT``: everything)."""
    everything = seat == OMNISCIENT
    players = []
    table_cp = []
    known_cards = st.known
    for p in range(st.n):
        groups, counted = _territory(tuple(map(tuple, st.terr[p])), tuple(st.hideout[p]))
        table_cp.append(counted)
        hand = st.hands[p]
        if p == seat or not known_cards:
            known: tuple[Card, ...] = ()
        else:
            known = tuple(map(_CARD, sorted(known_cards.intersection(hand))))
        players.append(PlayerView(p, st.money[p], len(hand), groups, known, _LACKS[st.lacks[p]]))
    posters = _posters(tuple(st.posters), tuple(st.opened), tuple(table_cp))
    own: tuple[Card, ...] = ()
    if seat is not None and not everything:
        own = tuple(map(_CARD, sorted(st.hands[seat])))
    in_turn = st.phase in _IN_TURN
    doubtful = st.doubtful(seat) if st.secret and not everything else ()
    if doubtful:
        discard = tuple(CARDS[c] for c in st.discard if c not in doubtful)
    else:
        discard = _cards(tuple(st.discard))
    response = st.response if st.phase in ("hideout_response", "free_photo") else None
    return View(
        game="wyatt_earp",
        seat=seat,
        phase=st.phase,
        to_act=st.waiting,
        hand_number=st.hand_no,
        dealer=st.dealer,
        starter=st.starter,
        current=st.current,
        players=tuple(players),
        posters=posters,
        hand=own,
        discard=discard,
        discard_size=len(st.discard),
        supply_size=len(st.supply),
        reshuffled=st.reshuffled,
        sheriff_played=st.sheriff_played and in_turn,
        immediate=CARDS[st.bonus] if st.bonus >= 0 and in_turn and (everything or seat == st.current) else None,
        pending=CARDS[st.pending] if st.pending >= 0 else None,
        hideout=response,
        winners=st.result.winners if st.result else (),
        hands=tuple(tuple(map(_CARD, sorted(h))) for h in st.hands) if everything else None,
    )
