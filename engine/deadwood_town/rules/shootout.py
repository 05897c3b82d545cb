"""Shootouts (summary: Shootouts; NOTES.md: Shootout).

1. The attacker's player takes a wanted poster from the Crime Pool (none once it is empty, nor
   once any end condition has occurred in this turn (NOTES.md rule 1, "later shootouts in that
   turn take no poster"); for a cowboy moved by a General Store, the General Store's player
   takes it).
2. The defender may skedaddle: discard a pony and go to the Abandoned Mine; the shootout ends
   and the attacker may annex.
3. The attacker declares a cartridge (at most one), then the defender; declared cartridges are
   spent.
4. Dice = strength, +1 with a cartridge. The side with more dice rolls the difference first,
   one die at a time (stopping at a death); then both roll one die at a time, simultaneously,
   until a cowboy dies or both are out of dice.
5. Skull kills; crossed guns or star wounds, a second wound kills. Wounds heal afterwards.

Outcomes (NOTES.md): the defender dies, the attacker lives: the attacker stays and may annex
(never a cowboy moved by a General Store); the attacker dies: the defender stays; both die: the
building is empty; both survive: the attacker goes to the Abandoned Mine. The dead go to Boot
Hill; then the Undertaker's controller gets $1 per cowboy killed.
"""

from __future__ import annotations

from typing import Any

from engine.deadwood_town.actions import DeclareCartridge, Skedaddle, StandAndFight
from engine.deadwood_town.components import components
from engine.deadwood_town.events import (
    CartridgeDeclared,
    Cowboy,
    CowboyKilled,
    DiceCounted,
    MoneyGained,
    PostersTaken,
    ShootoutEnded,
    ShootoutStarted,
    ShotRolled,
    Skedaddled,
    StoodGround,
)
from engine.deadwood_town.rules import end_of_game
from engine.deadwood_town.state import DeadwoodTownState

_COMP = components()
SKEDADDLE = Skedaddle()
STAND = StandAndFight()
USE = DeclareCartridge(True)
KEEP = DeclareCartridge(False)
UNDERTAKER_PAY = next((op.n for op in _COMP.control.get("undertaker", ()) if op.op == "on_cowboy_killed_gain"), 0)

# fight fields
PLOT, ATTACKER, DEFENDER, TAKER, MAY_ANNEX, A_CART, D_CART = range(7)


def cowboy(c: int) -> Cowboy:
    """The event/view form of a cowboy code."""
    return Cowboy(c >> 2, c & 3)


def start(st: DeadwoodTownState, item: tuple[Any, ...]) -> None:
    """Queue item ``("shootout", plot, attacker, defender, poster taker, may annex)``: the
    attacker is already on the plot with the defender. Take the poster, ask the defender."""
    _kind, plot, attacker, defender, taker, may_annex = item
    poster_to = -1
    if st.crime_pool > 0 and not end_of_game.triggers(st):
        st.crime_pool -= 1
        st.posters[taker] += 1
        poster_to = taker
    kind = _COMP.tile_kind[st.board[plot]]
    st.emit(ShootoutStarted(_COMP.plot_ids[plot], kind, cowboy(attacker), cowboy(defender), poster_to))
    if poster_to >= 0:
        st.emit(PostersTaken(taker, 1, "shootout"))
    st.fight = [plot, attacker, defender, taker, may_annex, -1, -1]
    st.ask(defender >> 2, "skedaddle")


def legal_skedaddle(st: DeadwoodTownState, seat: int) -> list[Any]:
    """The defender: :class:`Skedaddle` (with a pony), :class:`StandAndFight`."""
    return [SKEDADDLE, STAND] if st.ponies[seat] > 0 else [STAND]


def apply_skedaddle(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """Skedaddle (the shootout ends) or stand (the attacker declares a cartridge)."""
    fight = st.fight
    assert fight is not None
    if type(action) is Skedaddle:
        plot, attacker, defender = fight[PLOT], fight[ATTACKER], fight[DEFENDER]
        st.ponies[seat] -= 1
        st.pony_supply += 1
        st.occ[plot].remove(defender)
        st.mine[seat][defender & 3] += 1
        pid = _COMP.plot_ids[plot]
        st.emit(Skedaddled(seat, defender & 3, pid))
        st.emit(ShootoutEnded(pid, "skedaddled"))
        st.fight = None
        if fight[MAY_ANNEX]:
            st.queue.append(("offer", attacker >> 2, plot, False))
        return
    st.emit(StoodGround(seat))
    st.ask(fight[ATTACKER] >> 2, "cartridge")


def legal_cartridge(st: DeadwoodTownState, seat: int) -> list[Any]:
    """:class:`DeclareCartridge` ``True`` (with a cartridge), then ``False``."""
    return [USE, KEEP] if st.cartridges[seat] > 0 else [KEEP]


def apply_cartridge(st: DeadwoodTownState, seat: int, action: Any) -> None:
    """Declare (attacker first, then defender); after the defender, roll."""
    fight = st.fight
    assert fight is not None
    use = 1 if action.use else 0
    if use:
        st.cartridges[seat] -= 1
        st.cartridge_supply += 1
    if fight[A_CART] < 0:
        fight[A_CART] = use
        st.emit(CartridgeDeclared(seat, "attacker", bool(use)))
        st.ask(fight[DEFENDER] >> 2, "cartridge")
        return
    fight[D_CART] = use
    st.emit(CartridgeDeclared(seat, "defender", bool(use)))
    resolve(st)


def _shot(st: DeadwoodTownState, volley: int, shooter: int, target: int, wounds: int) -> tuple[int, bool]:
    """Roll one die at ``target`` (who has ``wounds``); returns the new wounds and death."""
    face = st.roll()
    effect = _COMP.face_result[face]
    killed = False
    if effect == "kill":
        killed = True
    elif effect == "wound":
        wounds += 1
        killed = wounds >= 2
    st.emit(ShotRolled(volley, shooter, target, face, effect, wounds, killed))
    return wounds, killed


def resolve(st: DeadwoodTownState) -> None:
    """Roll the dice die by die and settle the outcome (see the module docstring)."""
    fight = st.fight
    assert fight is not None
    plot, attacker, defender = fight[PLOT], fight[ATTACKER], fight[DEFENDER]
    a_seat, d_seat = attacker >> 2, defender >> 2
    a_dice = (attacker & 3) + fight[A_CART]
    d_dice = (defender & 3) + fight[D_CART]
    first = a_seat if a_dice > d_dice else d_seat if d_dice > a_dice else -1
    st.emit(DiceCounted(a_dice, d_dice, first, abs(a_dice - d_dice)))
    a_wounds = d_wounds = 0
    a_dead = d_dead = False
    volley = 0
    for _ in range(abs(a_dice - d_dice)):
        volley += 1
        if a_dice > d_dice:
            d_wounds, d_dead = _shot(st, volley, a_seat, d_seat, d_wounds)
            if d_dead:
                break
        else:
            a_wounds, a_dead = _shot(st, volley, d_seat, a_seat, a_wounds)
            if a_dead:
                break
    for _ in range(min(a_dice, d_dice)):
        if a_dead or d_dead:
            break
        volley += 1
        d_wounds, d_dead = _shot(st, volley, a_seat, d_seat, d_wounds)
        a_wounds, a_dead = _shot(st, volley, d_seat, a_seat, a_wounds)
    here = st.occ[plot]
    pid = _COMP.plot_ids[plot]
    kills = 0
    for dead, c in ((d_dead, defender), (a_dead, attacker)):
        if dead:
            here.remove(c)
            st.boot_hill[c >> 2][c & 3] += 1
            st.emit(CowboyKilled(cowboy(c), pid))
            kills += 1
    if a_dead and d_dead:
        result = "both_killed"
    elif d_dead:
        result = "attacker_won"
    elif a_dead:
        result = "defender_won"
    else:
        result = "both_survived"
        here.remove(attacker)
        st.mine[a_seat][attacker & 3] += 1
    st.emit(ShootoutEnded(pid, result))
    st.fight = None
    if kills and UNDERTAKER_PAY:
        undertaker = st.controller("undertaker")
        if undertaker >= 0:
            st.money[undertaker] += UNDERTAKER_PAY * kills
            st.emit(MoneyGained(undertaker, UNDERTAKER_PAY * kills, "undertaker"))
    if result == "attacker_won" and fight[MAY_ANNEX]:
        st.queue.append(("offer", a_seat, plot, False))
