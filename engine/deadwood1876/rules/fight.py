"""Robberies and Duels after the attacker's gun is down (rulebook: ROBBERY, DUEL, HOLSTERS).

The defender must answer with a gun; then every other player may give one Holster to the
attacker or the defender; a fighter given several chooses one and the rest go back; once the
choices are in, the Holsters are played, the attacker's before the defender's; both sides roll
their gun's die plus their Holster's die at once, ties reroll (Holsters included), and the higher
total wins.
"""

from __future__ import annotations

from typing import Any

from engine.deadwood1876.actions import ChooseHolster, Defend, GiveHolster, HorseThief, NoHolster, SendAway
from engine.deadwood1876.components import HOLSTER, HORSE
from engine.deadwood1876.events import (
    CardPlayed,
    DiceRolled,
    FightWon,
    HolsterGiven,
    HolsterReturned,
    HorseThiefJoined,
    SafeStolen,
    StarMoved,
)
from engine.deadwood1876.rules import laws
from engine.deadwood1876.state import DeadwoodState, Fight


def _fight(st: DeadwoodState) -> Fight:
    fight = st.fight
    if fight is None:  # pragma: no cover - phases guarantee a fight
        raise RuntimeError("no fight in progress")
    return fight


def legal_defend(st: DeadwoodState, seat: int) -> list[Defend]:
    """The defender must play one of the guns in hand (one per kind)."""
    return [Defend(c) for c in st.distinct(st.hands[seat])]


def apply_defend(st: DeadwoodState, seat: int, action: Defend) -> None:
    """Lay the defending gun face up, then open the Holster window."""
    fight = _fight(st)
    st.take_card(seat, action.card)
    fight.defend_card = action.card
    st.emit(CardPlayed(seat, st.card(action.card), "defend"))
    helpers = [p for p in range(st.n) if p not in (fight.attacker, fight.answer)]
    if st.table.holster_mode == "assist" and helpers:
        st.wait_for(helpers, "holster")
    else:
        roll(st)


def legal_holster(st: DeadwoodState, seat: int) -> list[Any]:
    """Give no Holster, or one Holster card (one per kind) to the attacker or the defender, or
    (optional Horse Thief rule, Robberies outside the Badge Round) join with a white Horse.

    Every non-fighter is asked, with or without a Holster in hand, so that being asked reveals
    nothing about a hand.
    """
    fight = _fight(st)
    comp = st.comp
    out: list[Any] = [NoHolster()]
    for c in st.distinct([c for c in st.hands[seat] if comp.card_item[c] == HOLSTER]):
        out.append(GiveHolster(c, fight.attacker))
        out.append(GiveHolster(c, fight.defender))
    if st.options.horse_thief and fight.kind == "robbery" and not st.badge:
        whites = [c for c in st.hands[seat] if comp.card_item[c] == HORSE and comp.card_white[c]]
        out.extend(HorseThief(c) for c in st.distinct(whites))
    return out


def apply_holster(st: DeadwoodState, seat: int, action: Any) -> None:
    """Record a hidden choice; once all have chosen, reveal the Holsters given (seat order: the
    choices are made at once, and the reveal decides nothing).

    A fighter given exactly one Holster must use it; one given several chooses
    (``choose_holster``). The Holsters are played once every choice is in, the attacker's
    before the defender's (``_play_holsters``); then the dice are rolled.
    """
    fight = _fight(st)
    if not st.collect(seat, action):
        return
    for giver in sorted(st.pending):
        choice = st.pending[giver]
        if isinstance(choice, GiveHolster):
            st.hands[giver].remove(choice.card)
            fight.offers[giver] = (choice.card, choice.fighter)
            st.emit(HolsterGiven(giver, choice.fighter, st.card(choice.card)))
        elif isinstance(choice, HorseThief):
            st.take_card(giver, choice.card)
            fight.thieves[giver] = choice.card
            st.emit(HorseThiefJoined(giver, st.card(choice.card)))
    st.pending = {}
    choosers = [f for f in (fight.attacker, fight.defender) if len(_offered(fight, f)) > 1]
    if choosers:
        st.wait_for(choosers, "choose_holster")
    else:
        _play_holsters(st, {})
        roll(st)


def _offered(fight: Fight, fighter: int) -> list[int]:
    """The Holsters given to ``fighter``, by giver ascending."""
    return [c for _, (c, f) in sorted(fight.offers.items()) if f == fighter]


def _play_holsters(st: DeadwoodState, chosen: dict[int, int]) -> None:
    """Play each fighter's Holster, the attacker's first, then the defender's (CARD DETAILS,
    HOLSTER: "play in the order of attacker, defender, Holster for attacker, Holster for
    defender"): the one the fighter chose (``chosen``, by fighter) or the only one given. The
    others given to that fighter go back to their givers."""
    fight = _fight(st)
    for fighter in (fight.attacker, fight.defender):
        offered = _offered(fight, fighter)
        if not offered:
            continue
        card = chosen.get(fighter, offered[0])
        _use_holster(st, fighter, card)
        for giver, (other, to) in sorted(fight.offers.items()):
            if to == fighter and other != card:
                st.hands[giver].append(other)
                st.emit(HolsterReturned(giver, fighter, st.card(other)))


def _use_holster(st: DeadwoodState, fighter: int, card: int) -> None:
    fight = _fight(st)
    fight.holsters[fighter] = card
    giver = next(g for g, (c, f) in fight.offers.items() if c == card)
    st.table_cards.append(card)
    if giver not in st.used:
        st.used.append(giver)
    st.emit(CardPlayed(giver, st.card(card), "holster"))


def legal_choose_holster(st: DeadwoodState, seat: int) -> list[ChooseHolster]:
    """Each Holster given to this fighter (by giver, ascending); the recipient can't refuse."""
    fight = _fight(st)
    return [ChooseHolster(c) for g, (c, f) in sorted(fight.offers.items()) if f == seat]


def apply_choose_holster(st: DeadwoodState, seat: int, action: ChooseHolster) -> None:
    """Record the hidden choice; once every fighter given several Holsters has chosen, play the
    Holsters (the attacker's first), return the rest and roll."""
    if not st.collect(seat, action.card):
        return
    chosen: dict[int, int] = dict(st.pending)
    st.pending = {}
    _play_holsters(st, chosen)
    roll(st)


def dice_of(st: DeadwoodState, fighter: int, card: int) -> list[int]:
    """The guns a fighter rolls: the played gun plus the Holster's gun, if given one."""
    guns = [st.comp.card_gun[card]]
    holster = _fight(st).holsters.get(fighter)
    if holster is not None:
        guns.append(st.comp.card_gun[holster])
    return guns


def use_attached_holster(st: DeadwoodState, fight: Fight) -> None:
    """2-3 players: a Holster attached to the attacked Safe (Robbery) or the defender's
    character card (Duel) joins this defence and is then discarded."""
    attached = st.safe_holster if fight.kind == "robbery" else st.figure_holster
    key = fight.safe if fight.kind == "robbery" else fight.defender
    card = attached.pop(key, None)
    if card is not None:
        fight.holsters[fight.defender] = card
        st.table_cards.append(card)
        st.emit(CardPlayed(fight.answer, st.card(card), "attached_holster"))


def roll_dice(st: DeadwoodState, seat: int, guns: list[int]) -> tuple[int, tuple[tuple[str, int], ...], int]:
    """Roll one die per gun for ``seat``: ``(seat, ((gun name, face), ...), total)``."""
    names, faces = st.comp.gun_names, st.comp.gun_faces
    roll_die = st.chance.roll
    dice = []
    total = 0
    for g in guns:
        face = roll_die(faces[g])
        dice.append((names[g], face))
        total += face
    return seat, tuple(dice), total


def roll(st: DeadwoodState) -> None:
    """Both fighters (and any Horse Thieves) roll at once; the highest total wins; the tied
    highest reroll, Holsters included.

    A Horse Thief rolls the gun on the Horse card and takes the Safe by rolling higher than
    everyone else (optional Horse Thief rule).
    """
    fight = _fight(st)
    use_attached_holster(st, fight)
    dice = {fight.attacker: dice_of(st, fight.attacker, fight.attack_card)}
    dice[fight.defender] = dice_of(st, fight.defender, fight.defend_card)
    for thief, card in sorted(fight.thieves.items()):
        dice[thief] = [st.comp.card_gun[card]]
    contenders = list(dice)
    while len(contenders) > 1:
        rolls = [roll_dice(st, f, dice[f]) for f in contenders]
        st.emit(DiceRolled(fight.kind, tuple(rolls)))
        best = max([r[2] for r in rolls])
        contenders = [r[0] for r in rolls if r[2] == best]
    winner = contenders[0]
    loser = fight.defender if winner != fight.defender else fight.attacker
    st.emit(FightWon(fight.kind, winner, loser))
    if winner == fight.defender:
        st.game.steps["end_turn"](st)
    elif fight.kind == "robbery":
        steal(st, fight, winner)
    else:
        duel_won(st, fight)


def steal(st: DeadwoodState, fight: Fight, thief: int) -> None:
    """Robbery won (by the attacker or a Horse Thief): the thief takes the Safe, views it and
    shuffles it in (Laws 1 and 3)."""
    victim = fight.defender
    safe = st.rows[victim].pop(fight.index)
    if victim < st.n:
        st.known[victim].add(safe)
    label = st.comp.safe_label(safe)
    public = SafeStolen(thief, victim, fight.index)
    st.emit(public, (thief, victim) if victim < st.n else (thief,), SafeStolen(thief, victim, fight.index, label))
    laws.gain_safe(st, thief, safe, "end_turn")


def duel_won(st: DeadwoodState, fight: Fight) -> None:
    """Duel won: swap stars; in your own establishment, send the loser to one with a vacancy.

    If no other establishment has a vacancy, the loser stays (nothing happens).
    """
    attacker, defender = fight.attacker, fight.defender
    here, there = st.est[attacker], st.est[defender]
    if here == there:
        if st.vacancies(here):
            st.wait_for((attacker,), "send_away")
        else:
            st.game.steps["end_turn"](st)
        return
    st.est[attacker], st.est[defender] = there, here
    st.emit(StarMoved(attacker, here, there, "duel"))
    st.emit(StarMoved(defender, there, here, "duel"))
    st.game.steps["end_turn"](st)


def legal_send_away(st: DeadwoodState, seat: int) -> list[SendAway]:
    """Any other establishment with a vacancy."""
    return [SendAway(e) for e in st.vacancies(st.est[seat])]


def apply_send_away(st: DeadwoodState, seat: int, action: SendAway) -> None:
    """Move the beaten defender's star."""
    defender = _fight(st).defender
    origin = st.est[defender]
    st.est[defender] = action.establishment
    st.emit(StarMoved(defender, origin, action.establishment, "sent_away"))
    st.game.steps["end_turn"](st)
