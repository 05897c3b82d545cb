"""Setup (summary: Setup, steps 1-10; NOTES.md: Cowboys, setup and turns).

Town Hall, Sheriff's Office and Church go on their top-row plots; each stack is shuffled; four
tiles drawn from stack 1 are shuffled with the "X" Saloon and dealt onto the starred plots; the
Sheriff starts on his intersection; the Crime Pool gets 5 wanted posters per player (the rest
stay in the box); each player gets $5, 1 cartridge, 1 pony and a Greenhorn, a Gunslinger and a
Trail Boss in the Ranch (the other six cowboys are the player's supply, hired at a Saloon).
Everyone rolls a die; the best symbol (``dice.start_player_rank``) starts, ties among the best
roll again.
"""

from __future__ import annotations

from engine.deadwood_town.components import STACKS
from engine.deadwood_town.events import GameStarted, StartRoll
from engine.deadwood_town.state import DeadwoodTownState


def set_up(st: DeadwoodTownState) -> None:
    """Set the table up and roll for the first player (chance order: stack 1, 2, 3 shuffles, the
    starting tiles' shuffle, then the rolls)."""
    comp = st.comp
    n = st.n
    for plot, kind in comp.fixed:
        tile = comp.tile_kind.index(kind)
        st.board[plot] = tile
        st.tile_plot[tile] = plot
    for stack in STACKS:
        tiles = list(comp.stack_tiles[stack])
        st.chance.shuffle(tiles)
        st.stacks[stack] = tiles
    starting = [st.stacks["1"].pop() for _ in range(len(comp.starred) - 1)] + [comp.saloon_x]
    st.chance.shuffle(starting)
    for plot, tile in zip(comp.starred, starting, strict=True):
        st.board[plot] = tile
        st.tile_plot[tile] = plot
    st.sheriff = comp.sheriff_start
    st.crime_pool = comp.crime_pool_per_player * n
    st.box = comp.wanted_total - st.crime_pool
    for p in range(n):
        st.money[p] = comp.money
        st.cartridges[p] = comp.cartridges
        st.ponies[p] = comp.ponies
        for strength in comp.start_ranch:
            st.ranch[p][strength] += 1
            st.unhired[p][strength] -= 1
    st.cartridge_supply -= comp.cartridges * n
    st.pony_supply -= comp.ponies * n
    town = tuple((comp.plot_ids[plot], comp.tile_kind[tile]) for plot, tile in enumerate(st.board) if tile >= 0)
    st.emit(GameStarted(n, town, st.crime_pool))
    st.first = roll_for_first_player(st)


def roll_for_first_player(st: DeadwoodTownState) -> int:
    """Every player rolls; the best symbol starts; tied best players roll again."""
    rank = st.comp.start_rank
    contenders = list(range(st.n))
    round_no = 0
    while len(contenders) > 1:
        round_no += 1
        scores = {}
        for p in contenders:
            face = st.roll()
            st.emit(StartRoll(round_no, p, face))
            scores[p] = rank.index(face) if face in rank else len(rank)
        best = min(scores.values())
        contenders = [p for p in contenders if scores[p] == best]
    return contenders[0]
