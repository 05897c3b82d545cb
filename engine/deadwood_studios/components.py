"""Deadwood Studios components, decoded once from ``board.json`` and ``cards.json`` into tables.

The two JSON files are the project's copies of ``shared/data/deadwood_studios/`` (its NOTES.md
gives the sources and every correction to the widely copied course XML: Talking Mule and Dog are
rank 5, as printed). Nothing here is a rule; the rules modules read these tables.

Ids:
    * rooms: ``0..9`` the ten sets in ``board.json`` order (Train Station, Secret Hideout, Church,
      Hotel, Main Street, Jail, General Store, Ranch, Bank, Saloon), then :data:`TRAILERS` (10) and
      :data:`CASTING_OFFICE` (11). Actions and views name rooms by their string id
      (``"train_station"``, ``"trailers"``, ``"casting_office"``).
    * scene cards: ``0..39``, card ``k`` is the card numbered ``k + 1`` in ``cards.json`` (``01.png``).
    * roles: a set's extras by their index on the board (``board.json`` order); a card's starring
      roles by their index on the card, lowest rank first (so the *top* role is the last one).
"""

from __future__ import annotations

import functools
from importlib import resources

import msgspec

TRAILERS = 10
"""The Trailers' room id: everyone starts every day here."""
CASTING_OFFICE = 11
"""The Casting Office's room id: where ranks are bought."""
NUM_SETS = 10
"""Sets on the board (rooms ``0..9``)."""
DOLLARS, CREDITS = "dollars", "credits"
"""The two currencies an upgrade may be paid in (one or the other, never both)."""


class Role(msgspec.Struct, frozen=True):
    """A role's face: an extra printed on the board or a starring role printed on a scene card.

    Attributes:
        name: e.g. ``"Crusty Prospector"``.
        rank: the rank needed to take it (1-6); an extra's wrap bonus in dollars.
        line: the role's line, e.g. ``"Aww, peaches!"``.
    """

    name: str
    rank: int
    line: str


class Scene(msgspec.Struct, frozen=True):
    """A scene card's face.

    Attributes:
        id: ``0..39`` (the card numbered ``id + 1``).
        title: the film, e.g. ``"Evil Wears a Hat"`` (seven titles appear on two cards).
        budget: millions of dollars, 2-6: the number to roll to succeed, and the bonus dice at a wrap.
        number: the scene number printed on the card (flavour only, not unique).
        description: the card's text.
        roles: the starring roles, lowest rank first (the top role is the last).
    """

    id: int
    title: str
    budget: int
    number: int
    description: str
    roles: tuple[Role, ...]


class UpgradePrice(msgspec.Struct, frozen=True):
    """One line of the Casting Office's table: the price of reaching ``rank`` (from any lower rank)."""

    rank: int
    dollars: int
    credits: int


class _Extra(msgspec.Struct):
    name: str
    rank: int
    line: str


class _Set(msgspec.Struct):
    id: str
    name: str
    shots: int
    neighbor_ids: list[str]
    extras: list[_Extra]


class _Room(msgspec.Struct):
    id: str
    name: str
    neighbor_ids: list[str]


class _Upgrade(msgspec.Struct):
    rank: int
    dollars: int
    credits: int


class _Office(msgspec.Struct):
    id: str
    name: str
    neighbor_ids: list[str]
    upgrades: list[_Upgrade]


class _CountSetup(msgspec.Struct):
    players: list[int]
    days: int
    start_rank: int
    start_credits: int


class _Board(msgspec.Struct):
    sets: list[_Set]
    trailers: _Room
    casting_office: _Office
    player_count_setup: list[_CountSetup]
    text_map: list[str]


class _CardRole(msgspec.Struct):
    name: str
    rank: int
    line: str


class _Card(msgspec.Struct):
    id: int
    name: str
    budget: int
    scene: int
    description: str
    roles: list[_CardRole]


class _Cards(msgspec.Struct):
    cards: list[_Card]


class Components(msgspec.Struct, frozen=True):
    """Every Deadwood Studios component as int-indexed tuples (see the module docstring for ids).

    Attributes:
        room_ids, room_names: per room (``"train_station"``, ``"Train Station"``; 12 rooms).
        neighbors: per room, the adjacent rooms in the board's order.
        shots: per set, its shot counters (1-3).
        extras: per set, its extras in board order.
        scenes: per card, its face.
        upgrades: the Casting Office's table, rank 2 to 6.
        days, start_rank, start_credits: per player count (index = player count; 0 and 1 unused).
        max_rank: the highest rank (6).
        text_map: the board's text map (from ``board.json``).
    """

    room_ids: tuple[str, ...]
    room_names: tuple[str, ...]
    neighbors: tuple[tuple[int, ...], ...]
    shots: tuple[int, ...]
    extras: tuple[tuple[Role, ...], ...]
    scenes: tuple[Scene, ...]
    upgrades: tuple[UpgradePrice, ...]
    days: tuple[int, ...]
    start_rank: tuple[int, ...]
    start_credits: tuple[int, ...]
    max_rank: int
    text_map: tuple[str, ...]

    def room(self, room_id: str) -> int:
        """The room number of a room id (``"saloon"`` -> 9).

        Raises:
            KeyError: no such room.
        """
        try:
            return self.room_ids.index(room_id)
        except ValueError:
            raise KeyError(f"no room {room_id!r}") from None

    def price(self, rank: int, currency: str) -> int:
        """What reaching ``rank`` (2-6) costs in ``currency`` (``"dollars"`` or ``"credits"``).

        Raises:
            KeyError: no such rank or currency.
        """
        for line in self.upgrades:
            if line.rank == rank:
                if currency == DOLLARS:
                    return line.dollars
                if currency == CREDITS:
                    return line.credits
                raise KeyError(f"no currency {currency!r}")
        raise KeyError(f"no upgrade to rank {rank}")


@functools.cache
def components() -> Components:
    """Load and index ``board.json`` and ``cards.json`` (once per process)."""
    files = resources.files(__package__)
    board = msgspec.json.decode(files.joinpath("board.json").read_bytes(), type=_Board)
    cards = msgspec.json.decode(files.joinpath("cards.json").read_bytes(), type=_Cards)
    rooms: list[_Set | _Room | _Office] = [*board.sets, board.trailers, board.casting_office]
    room_ids = tuple(r.id for r in rooms)
    assert len(board.sets) == NUM_SETS and room_ids.index("trailers") == TRAILERS
    assert room_ids.index("casting_office") == CASTING_OFFICE
    neighbors = tuple(tuple(room_ids.index(n) for n in r.neighbor_ids) for r in rooms)
    scenes = []
    for k, card in enumerate(sorted(cards.cards, key=lambda c: c.id)):
        assert card.id == k + 1
        roles = tuple(Role(r.name, r.rank, r.line) for r in sorted(card.roles, key=lambda r: r.rank))
        scenes.append(Scene(k, card.name, card.budget, card.scene, card.description, roles))
    most = max(max(c.players) for c in board.player_count_setup)
    days, start_rank, start_credits = [0] * (most + 1), [0] * (most + 1), [0] * (most + 1)
    for line in board.player_count_setup:
        for count in line.players:
            days[count], start_rank[count], start_credits[count] = line.days, line.start_rank, line.start_credits
    upgrades = tuple(
        UpgradePrice(u.rank, u.dollars, u.credits) for u in sorted(board.casting_office.upgrades, key=lambda u: u.rank)
    )
    return Components(
        room_ids=room_ids,
        room_names=tuple(r.name for r in rooms),
        neighbors=neighbors,
        shots=tuple(s.shots for s in board.sets),
        extras=tuple(tuple(Role(e.name, e.rank, e.line) for e in s.extras) for s in board.sets),
        scenes=tuple(scenes),
        upgrades=upgrades,
        days=tuple(days),
        start_rank=tuple(start_rank),
        start_credits=tuple(start_credits),
        max_rank=upgrades[-1].rank,
        text_map=tuple(board.text_map),
    )
