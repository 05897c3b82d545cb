"""Test-only helpers for Deadwood (worker placement): scripted dice and exact positions.

Scenario tests build the position directly (:func:`position`): the town (plot -> building), the
cowboys on it, the Ranches, the Abandoned Mine, money and the rest; the stacks' order (top
first). Chance is replaced by :class:`ScriptedChance`: each die shows the next face of the
script (:func:`faces` turns symbols into the draws), shuffles keep their order.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from engine.deadwood_town import GAME, Options
from engine.deadwood_town.components import STACKS, components
from engine.deadwood_town.state import EMPTY, RAIL, DeadwoodTownState

COMP = components()
START_TOWN = {"A1": "town_hall", "A2": "sheriffs_office", "A3": "church"}
"""The fixed buildings; :func:`position` adds the test's own."""


class ScriptedChance:
    """A chance source whose ``below`` answers come from a script (an error once it is used up:
    a test must script every die it causes); shuffles keep their order."""

    def __init__(self, below: Iterable[int] = ()) -> None:
        self.script = list(below)

    def below(self, n: int) -> int:
        assert self.script, "a die was rolled that the test did not script"
        value = self.script.pop(0)
        assert 0 <= value < n
        return value

    def shuffle(self, items: list[Any]) -> None:
        """Leave ``items`` in order."""

    def clone(self) -> ScriptedChance:
        return ScriptedChance(self.script)

    def fingerprint(self) -> bytes:
        return repr(self.script).encode()


def faces(*symbols: str, die: Sequence[str] = COMP.die_faces) -> list[int]:
    """The ``below`` draws that make the dice show ``symbols`` (``"skull"``, ``"star"``,
    ``"crossed_guns"``, ``"blank"``), in order."""
    return [list(die).index(s) for s in symbols]


def plot(pid: str) -> int:
    """A plot's index from its printed id."""
    return COMP.plot_index[pid]


def position(
    players: int = 2,
    current: int = 0,
    *,
    town: dict[str, str] | None = None,
    cowboys: dict[str, list[tuple[int, int]]] | None = None,
    rails: int = 0,
    ranch: dict[int, tuple[int, int, int]] | None = None,
    mine: dict[int, tuple[int, int, int]] | None = None,
    money: Sequence[int] | None = None,
    cartridges: Sequence[int] | None = None,
    ponies: Sequence[int] | None = None,
    posters: Sequence[int] | None = None,
    crime_pool: int | None = None,
    box: int | None = None,
    sheriff: str | None = None,
    stacks: dict[str, list[str]] | None = None,
    dice: Sequence[str] = (),
    options: dict[str, Any] | Options | None = None,
) -> DeadwoodTownState:
    """The start of ``current``'s turn in an exact position.

    Args:
        town: extra buildings by plot (``{"B1": "bank"}``) besides Town Hall, Sheriff's Office
            and Church; every other plot is open (rail plots hold the first ``rails`` rails).
        cowboys: per plot, ``(owner, strength)`` of the cowboys there.
        rails: railroad tiles already laid (on the first plots of the route).
        ranch, mine: per seat, cowboys by strength ``(greenhorns, gunslingers, trail bosses)``;
            seats left out have none (default ranch: one of each for every seat).
        money, cartridges, ponies, posters: per seat (defaults: $5, 1, 1, 0).
        crime_pool, box: wanted posters (defaults: 5 per player, the rest in the box).
        sheriff: the Sheriff's intersection id (default: his start).
        stacks: per stack, its buildings top first; tiles of a stack that are neither listed nor
            in town lie below them, in data order.
        dice: the faces the next dice show, in order (see :func:`faces`).
    """
    st = GAME.new_game(players, 1, options)
    layout = dict(START_TOWN, **(town or {}))
    used: set[int] = set()

    def tile_of(kind: str) -> int:
        for t, k in enumerate(COMP.tile_kind):
            if k == kind and t not in used:
                used.add(t)
                return t
        raise LookupError(f"no more {kind} tiles")

    st.board = [EMPTY] * COMP.num_plots
    st.tile_plot = [-1] * COMP.num_tiles
    for pid, kind in layout.items():
        t = tile_of(kind)
        st.board[plot(pid)] = t
        st.tile_plot[t] = plot(pid)
    for p in COMP.rail_route[:rails]:
        st.board[p] = RAIL
    st.rails = rails
    st.station_plot = st.tile_plot[COMP.station]
    for s in STACKS:
        top = [tile_of(k) for k in (stacks or {}).get(s, [])]
        rest = [t for t in COMP.stack_tiles[s] if t not in used]
        if s == "1" and COMP.saloon_x not in used:
            rest.append(COMP.saloon_x)
        used.update(rest)
        st.stacks[s] = (top + rest)[::-1]
    st.occ = [[] for _ in range(COMP.num_plots)]
    for pid, here in (cowboys or {}).items():
        st.occ[plot(pid)] = [owner * 4 + strength for owner, strength in here]
    ranch = ranch if ranch is not None else {p: (1, 1, 1) for p in range(players)}
    mine = mine or {}
    st.ranch = [[0, *ranch.get(p, (0, 0, 0))] for p in range(players)]
    st.mine = [[0, *mine.get(p, (0, 0, 0))] for p in range(players)]
    st.boot_hill = [[0, 0, 0, 0] for _ in range(players)]
    st.unhired = [[0, 2, 2, 2] for _ in range(players)]
    st.money = list(money) if money is not None else [5] * players
    st.cartridges = list(cartridges) if cartridges is not None else [1] * players
    st.ponies = list(ponies) if ponies is not None else [1] * players
    st.posters = list(posters) if posters is not None else [0] * players
    st.crime_pool = crime_pool if crime_pool is not None else 5 * players
    st.box = box if box is not None else COMP.wanted_total - st.crime_pool - sum(st.posters)
    st.cartridge_supply = COMP.cartridges_total - sum(st.cartridges)
    st.pony_supply = COMP.ponies_total - sum(st.ponies)
    st.sheriff = COMP.intersection_ids.index(sheriff) if sheriff else COMP.sheriff_start
    st.known = [set() for _ in range(players)]
    st.public_known = set()
    st.chance = ScriptedChance(faces(*dice, die=st.faces))  # type: ignore[assignment]
    st.log.clear()
    st.queue = []
    st.fight = None
    st.result = None
    st.first = current
    st.current = current
    st.ask(current, "turn")
    return st


def act(st: Any, seat: int, action: Any) -> None:
    """Assert ``action`` is legal for ``seat``, then apply it (python-chess's scenario style)."""
    legal = st.legal_actions(seat)
    assert action in legal, f"{action!r} not legal for seat {seat} in {st.phase!r}; legal: {legal}"
    st.apply(seat, action)


def at(st: DeadwoodTownState, pid: str) -> list[tuple[int, int]]:
    """The cowboys on plot ``pid`` as ``(owner, strength)``, sorted."""
    return sorted((c >> 2, c & 3) for c in st.occ[plot(pid)])


def building(st: DeadwoodTownState, pid: str) -> str:
    """The building on ``pid`` (``""`` if open, ``"rail"`` for a rail)."""
    tile = st.board[plot(pid)]
    return "rail" if tile == RAIL else "" if tile == EMPTY else COMP.tile_kind[tile]


def stack(st: DeadwoodTownState, s: str) -> list[str]:
    """Stack ``s`` top first, as building ids."""
    return [COMP.tile_kind[t] for t in reversed(st.stacks[s])]


def events_of(st: Any, kind: type, seat: int | None = None) -> list[Any]:
    """The events of type ``kind`` that ``seat`` sees."""
    return [e for e in st.events(seat) if type(e) is kind]


def tiles_conserved(st: DeadwoodTownState) -> bool:
    """Every building tile but an unbuilt Train Station is in exactly one place (a drawn tile
    waiting to be built is in the pending decision)."""
    placed = [t for t in st.board if t >= 0] + [t for s in STACKS for t in st.stacks[s]]
    if st.waiting and st.phase == "build":
        placed.append(st.pending[0])
    if st.waiting and st.phase == "choose_tile":
        placed.extend(st.pending[0])
    expected = set(range(COMP.num_tiles)) - ({COMP.station} if st.station_plot < 0 else set())
    return sorted(placed) == sorted(expected)


def cowboys_conserved(st: DeadwoodTownState) -> bool:
    """Each player still has 3 cowboys of each strength in all (alive, dead or unhired); ``st``
    must come from a real setup (not :func:`position`)."""
    for p in range(st.n):
        for s in (1, 2, 3):
            town = sum(1 for here in st.occ for c in here if c == p * 4 + s)
            total = st.ranch[p][s] + st.mine[p][s] + st.unhired[p][s] + st.boot_hill[p][s] + town
            if total != COMP.per_player[s]:
                return False
    return True


def play_random(st: Any, seed: int = 0, limit: int = 20_000) -> int:
    """Finish the game with uniformly random legal actions; returns the number of decisions."""
    rng = random.Random(seed)
    count = 0
    while not st.is_over:
        seat = st.to_act[0]
        legal = st.legal_actions(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
        count += 1
        assert count < limit, "game did not end"
    return count
