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
"""

from __future__ import annotations

import msgspec

from engine.core import OMNISCIENT
from engine.wyatt_earp.events import Card
from engine.wyatt_earp.state import CARDS, OUTLAWS, WyattEarpState


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


def make_view(st: WyattEarpState, seat: int | None) -> View:
    """Build the :class:`View` of ``seat`` (``None``: spectator; ``OMNISCIENT``: everything)."""
    everything = seat == OMNISCIENT
    card_cp = st.comp.card_cp
    players = []
    table_cp = [[0] * OUTLAWS for _ in range(st.n)]
    for p in range(st.n):
        groups = []
        for o in range(OUTLAWS):
            cards = st.terr[p][o]
            if not cards:
                continue
            printed = sum(card_cp[c] for c in cards)
            hideout = st.hideout[p][o]
            counted = 0 if hideout >= 0 else printed
            table_cp[p][o] = counted
            groups.append(
                GroupView(o, tuple(CARDS[c] for c in cards), counted, printed, CARDS[hideout] if hideout >= 0 else None)
            )
        own = p == seat
        known = () if own else tuple(CARDS[c] for c in sorted(st.hands[p]) if c in st.known)
        lacks = tuple(o for o in range(OUTLAWS) if st.lacks[p] >> o & 1)
        players.append(PlayerView(p, st.money[p], len(st.hands[p]), tuple(groups), known, lacks))
    posters = []
    for o in range(OUTLAWS):
        column = [table_cp[p][o] for p in range(st.n)]
        top = max(column)
        leaders = tuple(p for p in range(st.n) if column[p] == top) if top > 0 else ()
        posters.append(PosterView(o, st.comp.outlaw_names[o], st.posters[o], st.opened[o], sum(column), leaders))
    hand: tuple[Card, ...] = ()
    if seat is not None and not everything:
        hand = tuple(CARDS[c] for c in sorted(st.hands[seat]))
    in_turn = st.phase in ("play", "search", "target", "hideout_response", "free_photo")
    doubtful = st.doubtful(seat) if st.secret and not everything else ()
    discard = tuple(CARDS[c] for c in st.discard if c not in doubtful)
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
        posters=tuple(posters),
        hand=hand,
        discard=discard,
        discard_size=len(st.discard),
        supply_size=len(st.supply),
        reshuffled=st.reshuffled,
        sheriff_played=st.sheriff_played and in_turn,
        immediate=CARDS[st.bonus] if st.bonus >= 0 and in_turn and (everything or seat == st.current) else None,
        pending=CARDS[st.pending] if st.pending >= 0 else None,
        hideout=response,
        winners=st.result.winners if st.result else (),
        hands=tuple(tuple(CARDS[c] for c in sorted(h)) for h in st.hands) if everything else None,
    )
