"""Setup (rulebook: Setup; End of the Game: "the game continues with another hand").

Each hand: the dealer shuffles all 78 cards, deals 10 to each player face down one at a time,
lays the rest face down as the supply and turns its top card face up as the first card of the
discard stack; the banker puts $1,000 on every reward poster; the player to the dealer's left
starts. The first hand's dealer is drawn at random (the rulebook's "oldest player"); afterwards
the player who started the hand just ended deals.
"""

from __future__ import annotations

from engine.wyatt_earp.events import CardsDealt, FirstDiscard, HandStarted
from engine.wyatt_earp.rules import game_play
from engine.wyatt_earp.state import CARDS, OUTLAWS, WyattEarpState


def start_hand(st: WyattEarpState) -> None:
    """Deal a new hand and begin the first turn (rulebook: Setup).

    Cards are dealt from the top of the shuffled deck, one at a time, clockwise from the player
    on the dealer's left. Everything of the last hand (territories, discard stack, what players
    knew of each other's hands) is cleared; money and the rewards left on posters stay.
    """
    comp, n = st.comp, st.n
    st.hand_no += 1
    st.dealer = st.chance.below(n) if st.hand_no == 1 else st.starter
    st.starter = (st.dealer + 1) % n
    deck = list(range(comp.num_cards))
    st.chance.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(n)]
    for _ in range(comp.hand_size):
        for k in range(1, n + 1):
            hands[(st.dealer + k) % n].append(deck.pop())
    st.hands = hands
    st.supply = deck
    st.discard = [deck.pop()]
    st.terr = [[[] for _ in range(OUTLAWS)] for _ in range(n)]
    st.hideout = [[-1] * OUTLAWS for _ in range(n)]
    st.opened = [False] * OUTLAWS
    st.reshuffled = False
    st.recycled = set()
    st.drawn_since = [0] * n
    st.known = set()
    st.lacks = [0] * n
    for o in range(OUTLAWS):
        st.posters[o] += comp.poster_refill
    st.emit(HandStarted(st.hand_no, st.dealer, st.starter, tuple(st.posters)))
    for seat in range(n):
        cards = tuple(CARDS[c] for c in hands[seat])
        st.emit(CardsDealt(seat, len(cards)), (seat,), CardsDealt(seat, len(cards), cards))
    st.emit(FirstDiscard(CARDS[st.discard[-1]]))
    game_play.start_turn(st, st.starter)
