"""Deadwood 1876 components, decoded once from ``deadwood1876.toml`` into int-indexed tables.

The TOML file is the project's copy of ``shared/data/deadwood1876/deadwood1876.toml`` (its
``NOTES.md`` gives the sources and the status of every value). Nothing here is a rule; the rules
modules read these tables.

Ids:
    * guns: ``0..4`` weakest to strongest (Pepperbox, Derringer, Colt, Winchester, Messenger).
    * Deadwood cards: ``0..49``, each with one gun and one item.
    * Safes: ``0..24`` in file order (Badges, Mystery Safes, Showdown Guns, Gold).
    * establishments: ``0..2`` in clockwise order from the Gem Theatre.
"""

from __future__ import annotations

import functools
from importlib import resources

import msgspec

HORSE, DUSTER, STETSON, HOLSTER = "horse", "duster", "stetson", "holster"
ITEMS = (HORSE, DUSTER, STETSON, HOLSTER)

BADGE, MYSTERY, SHOWDOWN_GUN, GOLD = "badge", "mystery", "showdown_gun", "gold"


class _Dice(msgspec.Struct):
    guns: list[str]
    faces: dict[str, list[int]]


class _Establishment(msgspec.Struct):
    id: str
    name: str
    clockwise_index: int


class _PlayerCount(msgspec.Struct):
    players: int
    establishments: list[str]
    capacity: int
    hand_size: int
    middle_safes: int
    heists: int
    circles_per_segment: int
    turns_per_player: int
    stranger: bool
    stetson_views: int
    holster_mode: str
    horse_thief_allowed: bool
    initial_stars_skip: list[str] = []


class _Setup(msgspec.Struct):
    safes_dealt_per_player: int
    duster_draw: int
    duster_discard: int
    three_safe_limit: int
    stranger_safes_from_box: int


class _Safe(msgspec.Struct):
    id: str
    kind: str
    name: str = ""
    gold: int = 0
    gun: str = ""
    reveal_order: int = 0
    star: bool = False
    resolve_order: int = 0


class _CardGroup(msgspec.Struct):
    gun: str
    item: str
    count: int
    white_horses: int = 0


class _Character(msgspec.Struct):
    id: str
    name: str
    title: str


class _File(msgspec.Struct):
    dice: _Dice
    establishments: list[_Establishment]
    player_counts: list[_PlayerCount]
    setup: _Setup
    safes: list[_Safe]
    deadwood_cards: list[_CardGroup]
    characters: list[_Character]


class PlayerCount(msgspec.Struct, frozen=True):
    """One row of the player-count table (rulebook: Set Up, Establishment Capacity, 2-3 players).

    Attributes:
        players: the number of players.
        establishments: establishment ids in play, clockwise from the Gem Theatre.
        capacity: stars an establishment holds.
        hand_size: Deadwood cards in a full hand.
        middle_safes: Safes in the middle stack (one Heist each).
        circles_per_segment: trips around the table before each Heist and after the last.
        stetson_views: Safes one Stetson views.
        holster_mode: ``"assist"`` (out of turn) or ``"attach"`` (2-3 players, on your turn).
        initial_stars_skip: establishments that get no stars at set-up.
    """

    players: int
    establishments: tuple[int, ...]
    capacity: int
    hand_size: int
    middle_safes: int
    circles_per_segment: int
    stetson_views: int
    holster_mode: str
    stranger: bool
    horse_thief_allowed: bool
    initial_stars_skip: tuple[int, ...]


class Components(msgspec.Struct, frozen=True):
    """Every Deadwood 1876 component as int-indexed tuples (see the module docstring for ids)."""

    gun_names: tuple[str, ...]
    gun_faces: tuple[tuple[int, ...], ...]
    establishment_names: tuple[str, ...]
    establishment_ids: tuple[str, ...]
    player_counts: dict[int, PlayerCount]
    safes_dealt: int
    duster_draw: int
    duster_discard: int
    safe_limit: int
    stranger_safes: int
    safe_ids: tuple[str, ...]
    safe_names: tuple[str, ...]
    safe_kind: tuple[str, ...]
    safe_gold: tuple[int, ...]
    safe_gun: tuple[int, ...]  # Showdown Gun's gun id, -1 for other Safes
    safe_badge_order: tuple[int, ...]  # 1..5 for Badges, 0 for other Safes
    safe_star: tuple[bool, ...]
    card_gun: tuple[int, ...]
    card_item: tuple[str, ...]
    card_white: tuple[bool, ...]
    card_kind: tuple[int, ...]  # cards with equal kind are interchangeable
    character_names: tuple[str, ...]
    character_titles: tuple[str, ...]

    def safe_label(self, safe: int) -> str:
        """A person's name for a Safe's contents, e.g. ``"Gold 3"``, ``"Colt Showdown Gun"``."""
        kind = self.safe_kind[safe]
        if kind == GOLD:
            return f"Gold {self.safe_gold[safe]}"
        if kind == SHOWDOWN_GUN:
            return f"{self.gun_names[self.safe_gun[safe]]} Showdown Gun"
        return self.safe_names[safe]

    def card_label(self, card: int) -> str:
        """A person's name for a Deadwood card, e.g. ``"Colt / Stetson"``."""
        item = self.card_item[card].capitalize()
        if self.card_white[card]:
            item = "white Horse"
        return f"{self.gun_names[self.card_gun[card]]} / {item}"


@functools.cache
def components() -> Components:
    """Load and index ``deadwood1876.toml`` (once per process)."""
    raw = resources.files(__package__).joinpath("deadwood1876.toml").read_bytes()
    data = msgspec.toml.decode(raw, type=_File)
    guns = data.dice.guns
    gun_index = {name: i for i, name in enumerate(guns)}
    ests = sorted(data.establishments, key=lambda e: e.clockwise_index)
    est_index = {e.id: i for i, e in enumerate(ests)}

    card_gun: list[int] = []
    card_item: list[str] = []
    card_white: list[bool] = []
    card_kind: list[int] = []
    kinds: dict[tuple[int, str, bool], int] = {}
    for group in data.deadwood_cards:
        for k in range(group.count):
            white = group.item == HORSE and k < group.white_horses
            key = (gun_index[group.gun], group.item, white)
            card_gun.append(key[0])
            card_item.append(group.item)
            card_white.append(white)
            card_kind.append(kinds.setdefault(key, len(kinds)))

    counts = {
        row.players: PlayerCount(
            players=row.players,
            establishments=tuple(est_index[e] for e in row.establishments),
            capacity=row.capacity,
            hand_size=row.hand_size,
            middle_safes=row.middle_safes,
            circles_per_segment=row.circles_per_segment,
            stetson_views=row.stetson_views,
            holster_mode=row.holster_mode,
            stranger=row.stranger,
            horse_thief_allowed=row.horse_thief_allowed,
            initial_stars_skip=tuple(est_index[e] for e in row.initial_stars_skip),
        )
        for row in data.player_counts
    }
    return Components(
        gun_names=tuple(g.capitalize() for g in guns),
        gun_faces=tuple(tuple(data.dice.faces[g]) for g in guns),
        establishment_names=tuple(e.name for e in ests),
        establishment_ids=tuple(e.id for e in ests),
        player_counts=counts,
        safes_dealt=data.setup.safes_dealt_per_player,
        duster_draw=data.setup.duster_draw,
        duster_discard=data.setup.duster_discard,
        safe_limit=data.setup.three_safe_limit,
        stranger_safes=data.setup.stranger_safes_from_box,
        safe_ids=tuple(s.id for s in data.safes),
        safe_names=tuple(s.name or s.id for s in data.safes),
        safe_kind=tuple(s.kind for s in data.safes),
        safe_gold=tuple(s.gold for s in data.safes),
        safe_gun=tuple(gun_index[s.gun] if s.gun else -1 for s in data.safes),
        safe_badge_order=tuple(s.reveal_order if s.kind == BADGE else 0 for s in data.safes),
        safe_star=tuple(s.star for s in data.safes),
        card_gun=tuple(card_gun),
        card_item=tuple(card_item),
        card_white=tuple(card_white),
        card_kind=tuple(card_kind),
        character_names=tuple(c.name for c in data.characters),
        character_titles=tuple(c.title for c in data.characters),
    )
