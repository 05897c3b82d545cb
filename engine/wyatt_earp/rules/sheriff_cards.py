"""Sheriff Cards (rulebook: Sherriff Cards, Photo, Stagecoach Robbery, Bank Robbery, Fastest Gun,
Most Wanted!, Hideout, Wyatt Earp) and shots.

At most one Sheriff card a turn; the one exception is a Sheriff card taken from the discard
stack with a Wyatt Earp, which may be played immediately (as the very next play). A *shot*
turns the top supply card face up onto the discard stack: it hits if that card has a bullet
hole (an Outlaw card). After a hit the player chooses where the card goes (the rulebook's
order: shot first, then "the Outlaw of his choice"); after a miss the Sheriff card goes to the
discard stack and still counts as played.

Where each card may go:

* Photo (no shot): once the Outlaw's first set is down this hand; into the player's group of
  that Outlaw, or alone, starting it. +4 CP, +$1,000.
* Stagecoach robbery (+1 CP, +$3,000), Bank robbery (+2 CP, +$1,000), Fastest gun (+3 CP,
  +$1,000): on a group in the player's own territory (a Photo alone counts as one). Fastest
  gun never on an Outlaw where anyone has one; after a hit the previous Fastest gun goes to
  the discard stack (its $1,000 stays on its poster).
* Most Wanted! from the hand: ask for an Outlaw card left or right (with two players one way
  only: both are the same player). From the territory (shot): steal an Outlaw card from another
  player's group, Hideout or not; Sheriff cards left without an Outlaw card or Photo (and such
  a group's Hideout) go to the discard stack. The reward is not reduced. The player "may"
  steal: after a hit, taking nothing is offered too (:class:`DeclineTarget`).
* Hideout (shot): on another player's group without a Hideout (ASSUMED: never your own); adds
  the ``hideout_reward`` option ($1,000 by default, UNKNOWN in the sources). The player it
  covers is then asked whether to answer with a Wyatt Earp out of turn, Wyatt Earp in hand or
  not (so the question tells nobody whether they hold one), unless the whole table knows they
  hold none (:func:`may_hold_wyatt_earp`).
* Wyatt Earp: draw two; or search the discard stack and take one card (not a Wyatt Earp),
  unseen by the others (:func:`wyatt_earp_search`, then :func:`apply_search`); or (shot)
  remove a Hideout from one of your own groups (the player "may": :class:`DeclineTarget`). It
  goes to the discard stack when played.
"""

from __future__ import annotations

from typing import Any

from engine.wyatt_earp.actions import (
    ChooseTarget,
    DeclinePhoto,
    DeclineTarget,
    LetHideoutStand,
    MostWantedAsk,
    MostWantedSteal,
    PlayPhoto,
    PlaySheriff,
    WyattEarpDraw,
    WyattEarpRemoveHideout,
    WyattEarpSearch,
    WyattEarpTake,
)
from engine.wyatt_earp.components import (
    BANK_ROBBERY,
    FASTEST_GUN,
    HIDEOUT,
    MOST_WANTED,
    PHOTO,
    SHOT_CARDS,
    STAGECOACH_ROBBERY,
    WYATT_EARP,
    components,
)
from engine.wyatt_earp.events import (
    CardsDrawn,
    CardSearched,
    CardStolen,
    FastestGunRemoved,
    HideoutRemoved,
    HideoutStands,
    MostWantedAnswered,
    PhotoDeclined,
    PhotoPlayed,
    SheriffPlaced,
    SheriffPlayed,
    ShotFired,
    TargetDeclined,
)
from engine.wyatt_earp.rules import end_of_hand
from engine.wyatt_earp.state import CARDS, CARRIES_GROUP, KIND, NUM_KINDS, OUTLAW_CARD, OUTLAWS, Secret, WyattEarpState

_COMP = components()
_TYPE = _COMP.card_type
_HOLE = _COMP.card_bullet_hole
K_PHOTO = _COMP.kind_of(PHOTO, 0)
"""The kind of Billy the Kid's Photo; Outlaw ``o``'s Photo is ``K_PHOTO + o``."""
K_STAGECOACH = _COMP.kind_of(STAGECOACH_ROBBERY, -1)
K_BANK = _COMP.kind_of(BANK_ROBBERY, -1)
K_FASTEST = _COMP.kind_of(FASTEST_GUN, -1)
K_MOST_WANTED = _COMP.kind_of(MOST_WANTED, -1)
K_HIDEOUT = _COMP.kind_of(HIDEOUT, -1)
K_WYATT_EARP = _COMP.kind_of(WYATT_EARP, -1)
_SHOT_KIND = {t: _COMP.kind_of(t, -1) for t in SHOT_CARDS}
FASTEST_GUNS = frozenset(_COMP.kind_cards[K_FASTEST])

PLAY_PHOTO = tuple(PlayPhoto(o) for o in range(OUTLAWS))
PLAY_SHERIFF = {t: PlaySheriff(t) for t in SHOT_CARDS}
MOST_WANTED_ASK = tuple((MostWantedAsk(o, True), MostWantedAsk(o, False)) for o in range(OUTLAWS))
MOST_WANTED_STEAL = MostWantedSteal()
WYATT_EARP_DRAW = WyattEarpDraw()
WYATT_EARP_SEARCH = WyattEarpSearch()
WYATT_EARP_TAKE = tuple(WyattEarpTake(_COMP.kind_type[k], _COMP.kind_outlaw[k]) for k in range(NUM_KINDS))
_TAKE_KIND = {action: k for k, action in enumerate(WYATT_EARP_TAKE)}
DECLINE_TARGET = DeclineTarget()
WYATT_EARP_REMOVE_HIDEOUT = WyattEarpRemoveHideout()
LET_HIDEOUT_STAND = LetHideoutStand()
DECLINE_PHOTO = DeclinePhoto()
CHOOSE_TARGET = tuple(tuple(ChooseTarget(p, o) for o in range(OUTLAWS)) for p in range(_COMP.max_players))


# ---------------------------------------------------------------------------------- where cards may go


def fastest_gun_on(st: WyattEarpState, outlaw: int) -> bool:
    """True if any player has a Fastest gun on ``outlaw`` (Fastest Gun)."""
    for t in st.terr:
        for c in t[outlaw]:
            if c in FASTEST_GUNS:
                return True
    return False


def own_targets(st: WyattEarpState, seat: int, card_type: str) -> list[int]:
    """Outlaws of ``seat``'s own groups a Stagecoach robbery, Bank robbery or Fastest gun may go
    on (Fastest gun: none where anyone has one); a Wyatt Earp: those under a Hideout. Ascending."""
    groups = st.terr[seat]
    if card_type == WYATT_EARP:
        return [o for o in range(OUTLAWS) if st.hideout[seat][o] >= 0]
    if card_type == FASTEST_GUN:
        return [o for o in range(OUTLAWS) if groups[o] and not fastest_gun_on(st, o)]
    return [o for o in range(OUTLAWS) if groups[o]]


def other_targets(st: WyattEarpState, seat: int, card_type: str) -> list[tuple[int, int]]:
    """``(owner, outlaw)`` of other players' groups a Hideout may cover (no Hideout yet) or Most
    Wanted! may steal from (an Outlaw card in it); by owner, then Outlaw."""
    out = []
    for p in range(st.n):
        if p == seat:
            continue
        groups = st.terr[p]
        for o in range(OUTLAWS):
            group = groups[o]
            if not group:
                continue
            if card_type == HIDEOUT:
                if st.hideout[p][o] < 0:
                    out.append((p, o))
            elif any(OUTLAW_CARD[c] for c in group):
                out.append((p, o))
    return out


# ---------------------------------------------------------------------------------- the play phase


def legal_sheriff(st: WyattEarpState, seat: int, counts: list[int], size: int, out: list[Any]) -> None:
    """Append ``seat``'s legal Sheriff plays to ``out``, by kind: Photos (by Outlaw), Stagecoach
    robbery, Bank robbery, Fastest gun, Most Wanted! (asks by Outlaw, left then right; then the
    steal), Hideout, Wyatt Earp (draw, search by kind, remove a Hideout).

    ``counts`` are the hand's cards per kind, ``size`` its size. Only the card just taken with a
    Wyatt Earp once a Sheriff card was played. Plays that could leave the hand without a card to
    discard are left out (the hand must keep one card besides the Sheriff card, except for a
    Wyatt Earp that draws or takes a card).
    """
    only = KIND[st.bonus] if st.sheriff_played else -1

    def have(kind: int) -> bool:
        return counts[kind] > 0 and (only < 0 or only == kind)

    if size >= 2:
        for o in range(OUTLAWS):
            if have(K_PHOTO + o) and st.opened[o]:
                out.append(PLAY_PHOTO[o])
        if have(K_STAGECOACH) or have(K_BANK) or have(K_FASTEST):
            own = any(st.terr[seat])
            if own and have(K_STAGECOACH):
                out.append(PLAY_SHERIFF[STAGECOACH_ROBBERY])
            if own and have(K_BANK):
                out.append(PLAY_SHERIFF[BANK_ROBBERY])
            if own and have(K_FASTEST) and own_targets(st, seat, FASTEST_GUN):
                out.append(PLAY_SHERIFF[FASTEST_GUN])
        if have(K_MOST_WANTED):
            both = st.n > 2
            for o in range(OUTLAWS):
                out.append(MOST_WANTED_ASK[o][0])
                if both:
                    out.append(MOST_WANTED_ASK[o][1])
            if other_targets(st, seat, MOST_WANTED):
                out.append(MOST_WANTED_STEAL)
        if have(K_HIDEOUT) and other_targets(st, seat, HIDEOUT):
            out.append(PLAY_SHERIFF[HIDEOUT])
    if have(K_WYATT_EARP):
        out.append(WYATT_EARP_DRAW)
        # Every player can tell whether the stack holds a card other than a Wyatt Earp: a seat
        # whose view leaves cards out (after another player's search) knows they are such cards
        # (a search never takes a Wyatt Earp) still there; otherwise its view shows the stack.
        if any(KIND[c] != K_WYATT_EARP for c in st.discard):
            out.append(WYATT_EARP_SEARCH)
        if size >= 2 and own_targets(st, seat, WYATT_EARP):
            out.append(WYATT_EARP_REMOVE_HIDEOUT)


def apply_sheriff(st: WyattEarpState, seat: int, action: Any) -> None:
    """Play a Sheriff card on ``seat``'s turn (the action is legal)."""
    kind = type(action)
    st.sheriff_played = True
    st.bonus = -1
    if kind is PlayPhoto:
        card = st.take(seat, K_PHOTO + action.outlaw)
        place_photo(st, seat, action.outlaw, card)
    elif kind is PlaySheriff:
        card = st.take(seat, _SHOT_KIND[action.card])
        st.emit(SheriffPlayed(seat, CARDS[card], "shot"))
        _shoot_then_target(st, seat, card)
    elif kind is MostWantedAsk:
        most_wanted_ask(st, seat, action.outlaw, action.clockwise)
    elif kind is MostWantedSteal:
        card = st.take(seat, K_MOST_WANTED)
        st.emit(SheriffPlayed(seat, CARDS[card], "steal"))
        _shoot_then_target(st, seat, card)
    elif kind is WyattEarpDraw:
        wyatt_earp_draw(st, seat)
    elif kind is WyattEarpSearch:
        wyatt_earp_search(st, seat)
    elif kind is WyattEarpRemoveHideout:
        card = st.take(seat, K_WYATT_EARP)
        st.discard.append(card)
        st.emit(SheriffPlayed(seat, CARDS[card], "remove_hideout"))
        hit = shot(st, seat, card)
        if hit:
            st.pending = card
            st.wait_for(seat, "target")
    else:  # pragma: no cover - legal_play offers nothing else
        raise TypeError(f"not a Sheriff play: {action!r}")


def shot(st: WyattEarpState, seat: int, sheriff: int) -> bool | None:
    """Try a shot for ``sheriff``: the top supply card goes face up onto the discard stack.

    Returns whether it has a bullet hole; ``None`` if the supply ran out a second time (ASSUMED:
    a shot follows the draw's rule), after which the hand has ended. A held Sheriff card then
    goes to the discard stack with the rest.
    """
    drawn = st.supply_cards(1)
    if drawn is None:
        if sheriff not in st.discard:
            st.discard.append(sheriff)
        end_of_hand.end_hand(st, "supply_exhausted", seat)
        return None
    card = drawn[0]
    st.discard.append(card)
    hit = _HOLE[card]
    st.emit(ShotFired(seat, CARDS[sheriff], CARDS[card], hit))
    return hit


def _shoot_then_target(st: WyattEarpState, seat: int, card: int) -> None:
    """A held Sheriff card's shot: a hit waits for the target; a miss discards the card."""
    hit = shot(st, seat, card)
    if hit is None:
        return
    if hit:
        st.pending = card
        st.wait_for(seat, "target")
    else:
        st.discard.append(card)


def place_photo(st: WyattEarpState, seat: int, outlaw: int, card: int, out_of_turn: bool = False) -> None:
    """Photo: into ``seat``'s group of ``outlaw`` (starting it if needed); the banker adds $1,000."""
    st.terr[seat][outlaw].append(card)
    reward = _COMP.card_reward[card]
    st.posters[outlaw] += reward
    st.emit(PhotoPlayed(seat, outlaw, CARDS[card], reward, st.posters[outlaw], out_of_turn))


def most_wanted_ask(st: WyattEarpState, seat: int, outlaw: int, clockwise: bool) -> None:
    """Most Wanted! from the hand: ask the others in turn for an ``outlaw`` card; the first who
    has one gives it. Everyone hears the answers: the card given is known to all from then on,
    and those who had none are known to hold none (until they draw hidden cards)."""
    card = st.take(seat, K_MOST_WANTED)
    st.emit(SheriffPlayed(seat, CARDS[card], "ask"))
    n = st.n
    step = 1 if clockwise else -1
    refused: list[int] = []
    giver = got = -1
    for k in range(1, n):
        other = (seat + step * k) % n
        if any(KIND[c] == outlaw for c in st.hands[other]):
            giver, got = other, st.take(other, outlaw)
            break
        refused.append(other)
        st.lacks[other] |= 1 << outlaw
    st.discard.append(card)
    if got >= 0:
        st.hands[seat].append(got)
        st.known.add(got)
    st.emit(
        MostWantedAnswered(seat, outlaw, clockwise, tuple(refused), giver, CARDS[got] if got >= 0 else None),
    )


def wyatt_earp_draw(st: WyattEarpState, seat: int) -> None:
    """Wyatt Earp: draw the top two supply cards (they may be played this turn)."""
    card = st.take(seat, K_WYATT_EARP)
    st.discard.append(card)
    st.emit(SheriffPlayed(seat, CARDS[card], "draw"))
    cards = st.supply_cards(2, seat)
    if cards is None:
        end_of_hand.end_hand(st, "supply_exhausted", seat)
        return
    st.hands[seat].extend(cards)
    st.lacks[seat] = 0
    drawn = tuple(CARDS[c] for c in cards)
    st.emit(CardsDrawn(seat, 2, "wyatt_earp"), (seat,), CardsDrawn(seat, 2, "wyatt_earp", drawn))


def wyatt_earp_search(st: WyattEarpState, seat: int) -> None:
    """Wyatt Earp: the card goes onto the discard stack and the player takes the entire stack to
    search through it; the choice follows (phase ``search``). Having looked, the player knows
    what earlier searches of this stack took unseen."""
    card = st.take(seat, K_WYATT_EARP)
    st.discard.append(card)
    st.emit(SheriffPlayed(seat, CARDS[card], "search"))
    reshuffled = st.reshuffled
    for c, entry in st.secret.items():
        if entry.reshuffled == reshuffled and seat not in entry.knowers:
            st.secret[c] = entry._replace(knowers=entry.knowers | {seat})
    st.wait_for(seat, "search")


def legal_search(st: WyattEarpState, seat: int) -> list[Any]:
    """The kinds of card in the discard stack that may be taken (never a Wyatt Earp), by kind."""
    in_discard = [False] * NUM_KINDS
    for c in st.discard:
        in_discard[KIND[c]] = True
    return [WYATT_EARP_TAKE[k] for k in range(NUM_KINDS) if in_discard[k] and k != K_WYATT_EARP]


def apply_search(st: WyattEarpState, seat: int, action: Any) -> None:
    """Take the topmost card of the kind chosen from the discard stack into the hand, without
    showing the other players: they learn only that a card was taken (a public
    :class:`CardSearched` without the card), and the card becomes a :class:`Secret`. A Sheriff
    card taken may be played as the very next play (the one second Sheriff card of a turn)."""
    kind = _TAKE_KIND[action]
    pile = st.discard
    for i in range(len(pile) - 1, -1, -1):
        if KIND[pile[i]] == kind:
            taken = pile.pop(i)
            break
    else:  # pragma: no cover - legal_search offers only kinds in the discard stack
        raise ValueError(f"no card of kind {kind} in the discard stack")
    reshuffled = st.reshuffled
    # As the table saw it, the search may have taken any card of the stack but a Wyatt Earp, and
    # any card an earlier search of this stack took unseen (the table does not know which).
    candidates = {c for c in pile if KIND[c] != K_WYATT_EARP}
    candidates.update(c for c, entry in st.secret.items() if entry.reshuffled == reshuffled)
    st.secret[taken] = Secret(frozenset(candidates), reshuffled, frozenset({seat}))
    st.hands[seat].append(taken)
    st.lacks[seat] = 0  # a card the others did not see: a refusal no longer tells them anything
    if not OUTLAW_CARD[taken]:
        st.bonus = taken
    st.emit(CardSearched(seat), (seat,), CardSearched(seat, CARDS[taken]))
    st.wait_for(seat, "play")


# ---------------------------------------------------------------------------------- after a hit


def legal_target(st: WyattEarpState, seat: int) -> list[Any]:
    """Where the Sheriff card that just hit may go (see the module docstring), by owner then
    Outlaw; then, after a Most Wanted! or a Wyatt Earp, :class:`DeclineTarget`: the rulebook says
    the player "may" steal an Outlaw card and "may" remove a Hideout. Stagecoach robbery, Bank
    robbery, Fastest gun and Hideout have no "may": after a hit the player "plays" them."""
    card_type = _TYPE[st.pending]
    out: list[Any]
    if card_type in (HIDEOUT, MOST_WANTED):
        out = [CHOOSE_TARGET[p][o] for p, o in other_targets(st, seat, card_type)]
    else:
        row = CHOOSE_TARGET[seat]
        out = [row[o] for o in own_targets(st, seat, card_type)]
    if card_type in (MOST_WANTED, WYATT_EARP):
        out.append(DECLINE_TARGET)
    return out


def apply_target(st: WyattEarpState, seat: int, action: ChooseTarget | DeclineTarget) -> None:
    """Put the Sheriff card that hit where chosen; or, declined, take nothing (a Most Wanted!
    goes onto the discard stack, where a Wyatt Earp already lies)."""
    card = st.pending
    st.pending = -1
    card_type = _TYPE[card]
    if isinstance(action, DeclineTarget):
        if card_type == MOST_WANTED:
            st.discard.append(card)
        st.emit(TargetDeclined(seat, CARDS[card]))
        st.wait_for(seat, "play")
        return
    owner, outlaw = action.owner, action.outlaw
    if card_type == HIDEOUT:
        st.hideout[owner][outlaw] = card
        reward = st.options.hideout_reward
        st.posters[outlaw] += reward
        st.emit(SheriffPlaced(seat, CARDS[card], owner, outlaw, reward, st.posters[outlaw]))
        if may_hold_wyatt_earp(st, owner):
            st.response = (owner, outlaw)
            st.wait_for(owner, "hideout_response")
        else:
            st.emit(HideoutStands(owner, outlaw))
            st.wait_for(seat, "play")
        return
    if card_type == MOST_WANTED:
        steal(st, seat, card, owner, outlaw)
    elif card_type == WYATT_EARP:
        hideout = st.hideout[seat][outlaw]
        st.hideout[seat][outlaw] = -1
        st.discard.append(hideout)
        st.emit(HideoutRemoved(seat, outlaw, CARDS[hideout]))
    else:
        if card_type == FASTEST_GUN:
            _remove_fastest_gun(st)
        st.terr[seat][outlaw].append(card)
        reward = _COMP.card_reward[card]
        st.posters[outlaw] += reward
        st.emit(SheriffPlaced(seat, CARDS[card], seat, outlaw, reward, st.posters[outlaw]))
    st.wait_for(seat, "play")


def _remove_fastest_gun(st: WyattEarpState) -> None:
    """Fastest Gun: the one already on the table (if any) goes to the discard stack."""
    for p, groups in enumerate(st.terr):
        for o, group in enumerate(groups):
            for c in group:
                if c in FASTEST_GUNS:
                    group.remove(c)
                    st.discard.append(c)
                    st.emit(FastestGunRemoved(p, o, CARDS[c]))
                    return


def steal(st: WyattEarpState, seat: int, most_wanted: int, owner: int, outlaw: int) -> None:
    """Most Wanted! after a hit: take an Outlaw card from ``owner``'s ``outlaw`` into the hand
    (the one played last); orphaned Sheriff cards and the group's Hideout go to the discard stack."""
    group = st.terr[owner][outlaw]
    for i in range(len(group) - 1, -1, -1):
        if OUTLAW_CARD[group[i]]:
            card = group.pop(i)
            break
    else:  # pragma: no cover - other_targets offers only groups with an Outlaw card
        raise ValueError("no Outlaw card to steal")
    st.hands[seat].append(card)
    st.known.add(card)
    st.discard.append(most_wanted)
    orphaned: list[int] = []
    if not any(CARRIES_GROUP[c] for c in group):
        orphaned.extend(group)
        group.clear()
        if st.hideout[owner][outlaw] >= 0:
            orphaned.append(st.hideout[owner][outlaw])
            st.hideout[owner][outlaw] = -1
        st.discard.extend(orphaned)
    st.emit(CardStolen(seat, owner, outlaw, CARDS[card], tuple(CARDS[c] for c in orphaned)))


# ---------------------------------------------------------------------------------- out of turn


def may_hold_wyatt_earp(st: WyattEarpState, seat: int) -> bool:
    """Whether, as the whole table knows, ``seat`` may hold a Wyatt Earp: a card in the hand that
    nobody else has seen and that did not come from a Wyatt Earp search (which never takes a Wyatt
    Earp), and not all seven Wyatt Earps on view elsewhere (the discard stack, where no search can
    take one, or cards known in other hands); or a Wyatt Earp known in the hand."""
    hand = st.hands[seat]
    known = st.known
    if any(c in known and KIND[c] == K_WYATT_EARP for c in hand):
        return True
    if all(c in known or c in st.secret for c in hand):
        return False
    seen = sum(1 for c in st.discard if KIND[c] == K_WYATT_EARP)
    seen += sum(1 for p, h in enumerate(st.hands) if p != seat for c in h if c in known and KIND[c] == K_WYATT_EARP)
    return seen < len(_COMP.kind_cards[K_WYATT_EARP])


def legal_hideout_response(st: WyattEarpState, seat: int) -> list[Any]:
    """Wyatt Earp out of turn: remove the Hideout just played on you (if you hold a Wyatt Earp),
    or let it stand."""
    if any(KIND[c] == K_WYATT_EARP for c in st.hands[seat]):
        return [WYATT_EARP_REMOVE_HIDEOUT, LET_HIDEOUT_STAND]
    return [LET_HIDEOUT_STAND]


def apply_hideout_response(st: WyattEarpState, seat: int, action: Any) -> None:
    """Answer a Hideout: a Wyatt Earp goes to the discard stack and shoots; a hit removes the
    Hideout. Then the current player goes on playing."""
    outlaw = st.response[1]
    st.response = (-1, -1)
    if type(action) is WyattEarpRemoveHideout:
        card = st.take(seat, K_WYATT_EARP)
        st.discard.append(card)
        st.emit(SheriffPlayed(seat, CARDS[card], "remove_hideout", out_of_turn=True))
        hit = shot(st, seat, card)
        if hit is None:
            return
        if hit:
            hideout = st.hideout[seat][outlaw]
            st.hideout[seat][outlaw] = -1
            st.discard.append(hideout)
            st.emit(HideoutRemoved(seat, outlaw, CARDS[hideout]))
    else:
        st.emit(HideoutStands(seat, outlaw))
    st.wait_for(st.current, "play")


def offer_free_photo(st: WyattEarpState, melder: int, outlaw: int) -> None:
    """``free_photo`` option: after ``melder`` played the first set of ``outlaw``, ask the other
    players clockwise whether to play its Photo now. Nobody is asked when the Photo is known to be
    out of everyone's hand (in a territory, or in the discard stack and not possibly taken unseen
    by a Wyatt Earp search since); otherwise everyone is, so the question shows nothing."""
    photo = _COMP.kind_cards[K_PHOTO + outlaw][0]
    seen = photo in st.discard and photo not in st.doubtful(None)  # a search may have taken it unseen
    if seen or any(photo in t[outlaw] for t in st.terr):
        return
    st.asking = [(melder + k) % st.n for k in range(1, st.n)]
    st.response = (melder, outlaw)
    st.wait_for(st.asking[0], "free_photo")


def legal_free_photo(st: WyattEarpState, seat: int) -> list[Any]:
    """Play the Photo now (if you hold it) or decline."""
    outlaw = st.response[1]
    if any(KIND[c] == K_PHOTO + outlaw for c in st.hands[seat]):
        return [PLAY_PHOTO[outlaw], DECLINE_PHOTO]
    return [DECLINE_PHOTO]


def apply_free_photo(st: WyattEarpState, seat: int, action: Any) -> None:
    """Play the Photo out of turn (it ends the asking) or pass the question on."""
    outlaw = st.response[1]
    if type(action) is PlayPhoto:
        card = st.take(seat, K_PHOTO + outlaw)
        place_photo(st, seat, outlaw, card, out_of_turn=True)
        st.progressed = True
        st.asking = []
    else:
        st.emit(PhotoDeclined(seat, outlaw))
        st.asking.pop(0)
    if st.asking:
        st.wait_for(st.asking[0], "free_photo")
    else:
        st.response = (-1, -1)
        st.wait_for(st.current, "play")
