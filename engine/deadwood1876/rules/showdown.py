"""The Final Showdown and winning (rulebook: FINAL SHOWDOWN & WINNING THE GAME).

All Safes are revealed; each establishment adds its players' gold; the establishment with the
most gold advances (ties: the tied one with the fewest players; still tied: all of them). A lone
player who advances wins. Otherwise they fight to the death: everyone alive plays a card as a
gun at once and rolls it plus every Showdown Gun in their Safes; the lowest total flips its
character card, or is out if already flipped; the tied lowest reroll. Cards are not replenished;
when the cards run out, everyone alive picks up the hand they went in with.

With 2 players (THE FINAL SHOWDOWN FOR 2 PLAYER GAMES) the Stranger's gold counts for its
establishment like a player's, but the Stranger is not one of its players in the tie-break (it
is a player only for the Third Law). If you advance with the Stranger, your opponent becomes the
Stranger: they fight with guns from their own hand plus the Stranger's Showdown Guns (their own
are not used), and win if they defeat you. If the Stranger advances alone, both players lose. If
both players and the Stranger advance, the Stranger is removed and the players fight to the
death (the rulebook's CASH case, the only one it gives for all three advancing).
"""

from __future__ import annotations

from engine.core import GameCapped, Outcome, rank_by_scores
from engine.deadwood1876.actions import FireGun
from engine.deadwood1876.components import GOLD, SHOWDOWN_GUN
from engine.deadwood1876.events import (
    Advanced,
    CardPlayed,
    CharacterFlipped,
    DiceRolled,
    GameOver,
    HandsTakenBack,
    PlayerOut,
    SafesRevealed,
    TeamVictory,
)
from engine.deadwood1876.rules import fight, mystery
from engine.deadwood1876.state import DeadwoodState

PEPPERBOX = 0


def gold_of(st: DeadwoodState, figure: int) -> int:
    """The gold in ``figure``'s Safes, with the Dagger's +1/-1 and the Poker Deck's result."""
    comp = st.comp
    gold = sum(comp.safe_gold[s] for s in st.rows[figure] if comp.safe_kind[s] == GOLD)
    if figure in st.dagger:
        gold += 1 if st.dagger[figure] else -1
    return gold + st.gold_bonus[figure]


def establishment_gold(st: DeadwoodState) -> list[int]:
    """Gold per establishment id (0 for establishments not in play)."""
    gold = [0] * len(st.comp.establishment_names)
    for figure in range(st.m):
        gold[st.est[figure]] += gold_of(st, figure)
    return gold


def advancing(st: DeadwoodState) -> list[int]:
    """The figures that advance (the Stranger included): the occupied establishment(s) with the
    most gold; ties go to the one with the fewest players; still tied, all tied ones advance.
    Empty establishments don't compete (an empty building has nobody to advance). The owner of
    the Cash Mystery Safe advances too.

    "Fewest players" counts players only: the Stranger is a player for the Third Law alone
    (THE STRANGER: "The 3rd Law of Deadwood treats the Stranger as a player"), so its star adds
    its gold to its establishment but not a player (a decision, see the game docstring).
    """
    gold = establishment_gold(st)
    occupied = [e for e in st.table.establishments if e in st.est]
    best = max(gold[e] for e in occupied)
    tied = [e for e in occupied if gold[e] == best]
    players = st.est[: st.n]
    fewest = min(players.count(e) for e in tied)
    tied = [e for e in tied if players.count(e) == fewest]
    cash = mystery.safe_by_id(st, "mystery_cash")
    return [figure for figure in range(st.m) if st.est[figure] in tied or cash in st.rows[figure]]


def start_showdown(st: DeadwoodState) -> None:
    """Reveal all Safes, find who advances, and start the fight to the death if several do."""
    comp = st.comp
    rows = tuple(tuple(map(comp.safe_label, row)) for row in st.rows)
    st.emit(SafesRevealed(rows, tuple(establishment_gold(st))))
    st.revealed.update(s for row in st.rows for s in row)
    seats = advancing(st)
    st.advanced = tuple(seats)
    st.emit(Advanced(st.advanced))
    if st.stranger in seats:
        players = [p for p in seats if p != st.stranger]
        if not players:
            finish(st, [])
            return
        if len(players) == 1:
            st.proxy = next(p for p in range(st.n) if p != players[0])
            players.append(st.proxy)
        seats = sorted(players)
    if len(seats) == 1:
        finish(st, seats)
        return
    if team_victory(st, seats):
        return
    st.alive = list(seats)
    for seat in seats:
        st.start_hands[seat] = list(st.hands[seat])
    st.wait_for(st.alive, "showdown")


def team_victory(st: DeadwoodState, seats: list[int]) -> bool:
    """The optional team victories; True (and the game over) if one applies.

    "Peace-Lovin'": nobody advancing owns a Showdown Gun (those cancelled by Bad Sarsaparilla
    don't count). "Fair Share" (6-9 players): everyone advancing has at least 1 gold.
    """
    if st.options.peace_lovin and not any(showdown_guns(st, s) for s in seats):
        st.emit(TeamVictory("peace_lovin", tuple(seats)))
        finish(st, seats)
        return True
    if st.options.fair_share and all(gold_of(st, s) >= 1 for s in seats):
        st.emit(TeamVictory("fair_share", tuple(seats)))
        finish(st, seats)
        return True
    return False


def showdown_guns(st: DeadwoodState, seat: int) -> list[int]:
    """The gun ids ``seat`` adds to every Showdown roll: its Showdown Gun Safes (the Stranger's,
    for a player acting as it), less the best one if it owns Bad Sarsaparilla, plus the Dagger's
    Pepperbox if it took -1 gold. The negative Pepperbox is not a gun here (see :func:`roll`)."""
    comp = st.comp
    figure = st.stranger if seat == st.proxy else seat
    guns = [comp.safe_gun[s] for s in st.rows[figure] if comp.safe_kind[s] == SHOWDOWN_GUN]
    if guns and mystery.owns(st, figure, "mystery_bad_sarsaparilla"):
        guns.remove(max(guns))
    if st.dagger.get(figure) is False:
        guns.append(PEPPERBOX)
    return guns


def roll(st: DeadwoodState, seat: int, guns: list[int]) -> tuple[int, tuple[tuple[str, int], ...], int]:
    """One Showdown roll: every die of ``guns``, then, for a Dagger taken at +1 gold, a
    Pepperbox subtracted from the total (also on tie-break rolls). A player fighting as the
    Stranger uses the Stranger's Showdown Guns, not their own, negative Pepperbox included."""
    rolled = fight.roll_dice(st, seat, guns)
    figure = st.stranger if seat == st.proxy else seat
    if st.dagger.get(figure) is True:
        minus = st.chance.roll(st.comp.gun_faces[PEPPERBOX])
        return seat, (*rolled[1], ("-Pepperbox", minus)), rolled[2] - minus
    return rolled


def legal_showdown(st: DeadwoodState, seat: int) -> list[FireGun]:
    """Any card in hand, as a gun only (one per kind)."""
    return [FireGun(c) for c in st.distinct(st.hands[seat])]


def apply_showdown(st: DeadwoodState, seat: int, action: FireGun) -> None:
    """Record a hidden card; once all are down, roll, and the lowest flips or is out."""
    if not st.collect(seat, action.card):
        return
    played = dict(st.pending)
    st.pending = {}
    dice = {}
    for s in st.alive:
        st.hands[s].remove(played[s])
        st.set_aside[s].append(played[s])
        st.emit(CardPlayed(s, st.card(played[s]), "showdown"))
        dice[s] = [st.comp.card_gun[played[s]], *showdown_guns(st, s)]
    contenders = list(st.alive)
    while len(contenders) > 1:
        rolls = [roll(st, s, dice[s]) for s in contenders]
        st.emit(DiceRolled("showdown", tuple(rolls)))
        low = min(r[2] for r in rolls)
        contenders = [r[0] for r in rolls if r[2] == low]
    loser = contenders[0]
    if not st.flipped[loser]:
        st.flipped[loser] = True
        st.emit(CharacterFlipped(loser))
    else:
        st.alive.remove(loser)
        st.out_order.append(loser)
        st.emit(PlayerOut(loser))
    if len(st.alive) == 1:
        finish(st, st.alive)
        return
    empty = tuple(s for s in st.alive if not st.hands[s])
    if empty:
        for s in empty:
            st.hands[s] = list(st.start_hands[s])
            st.set_aside[s] = []
        st.emit(HandsTakenBack(empty))
    st.wait_for(st.alive, "showdown")


def finish(st: DeadwoodState, winners: list[int]) -> None:
    """End the game. Scores: 1 for a winner, 0 otherwise.

    Ranks (for ratings): the winners first; then the players who lost the Showdown, the later
    out the better; then everyone who did not advance, tied. With no winner (the Stranger
    advanced alone) every player shares rank 1 with score 0.
    """
    keys = []
    for seat in range(st.n):
        if seat in winners:
            keys.append((2, 0))
        elif seat in st.out_order:
            keys.append((1, st.out_order.index(seat)))
        else:
            keys.append((0, 0))
    scores = tuple(1.0 if seat in winners else 0.0 for seat in range(st.n))
    st.result = Outcome(scores, rank_by_scores(keys), tuple(sorted(winners)))
    st.emit(GameOver(st.result.winners))
    st.wait_for((), "over")


def end_at_cap(st: DeadwoodState) -> None:
    """The game reached its decision cap (``Deadwood1876.max_decisions``): a public
    :class:`engine.GameCapped`, then the game is scored as it stands by the Final Showdown's own
    rule without the fight to the death, which would need more decisions.

    In the Final Showdown, everyone still alive wins together. Before it: all Safes are revealed
    and the establishment(s) with the most gold advance (:func:`advancing`), and everyone who would
    fight in the Showdown wins together: a lone player who advances wins alone; with the Stranger
    and one player, both players (the other would fight as the Stranger); the Stranger alone:
    nobody. Ranks then follow :func:`finish`.
    """
    st.emit(GameCapped(st.decisions))
    if st.phase == "showdown":
        finish(st, list(st.alive))
        return
    rows = tuple(tuple(map(st.comp.safe_label, row)) for row in st.rows)
    st.emit(SafesRevealed(rows, tuple(establishment_gold(st))))
    st.revealed.update(s for row in st.rows for s in row)
    seats = advancing(st)
    st.advanced = tuple(seats)
    st.emit(Advanced(st.advanced))
    if st.stranger in seats:
        players = [p for p in seats if p != st.stranger]
        seats = list(range(st.n)) if len(players) == 1 else players
    finish(st, seats)
