"""Wyatt Earp components, decoded once from ``wyatt_earp.toml`` into int-indexed tables.

The TOML file is the project's copy of ``shared/data/wyatt_earp/wyatt_earp.toml`` (its
``NOTES.md`` gives the source and status of every value: FOUND, DERIVED, ASSUMED or UNKNOWN).
Nothing here is a rule; the rules modules read these tables.

Ids:
    * Outlaws: ``0..6`` in poster order (Billy the Kid, Jesse James, Wes Hardin, Belle Starr,
      Bob Dalton, Butch Cassidy, Sundance Kid).
    * cards: ``0..77``. The 49 Outlaw cards first, seven per Outlaw (card ``7 * outlaw + i``),
      then the 29 Sheriff cards in the data file's order: the seven Photos (one per Outlaw, in
      Outlaw order), 2 Stagecoach robbery, 4 Bank robbery, 3 Fastest gun, 3 Most Wanted!,
      3 Hideout, 7 Wyatt Earp.
    * kinds (interchangeable cards): ``0..6`` an Outlaw's cards, ``7..13`` an Outlaw's Photo,
      then one kind per other Sheriff card, ``14..19`` in the order above.

A card's *type* is ``"outlaw"`` or the Sheriff card's id in the data file (``"photo"``,
``"stagecoach_robbery"``, ``"bank_robbery"``, ``"fastest_gun"``, ``"most_wanted"``,
``"hideout"``, ``"wyatt_earp"``).
"""

from __future__ import annotations

import functools
from importlib import resources

import msgspec

OUTLAW = "outlaw"
PHOTO = "photo"
STAGECOACH_ROBBERY = "stagecoach_robbery"
BANK_ROBBERY = "bank_robbery"
FASTEST_GUN = "fastest_gun"
MOST_WANTED = "most_wanted"
HIDEOUT = "hideout"
WYATT_EARP = "wyatt_earp"

SHOT_CARDS = (STAGECOACH_ROBBERY, BANK_ROBBERY, FASTEST_GUN, HIDEOUT)
"""Sheriff cards played with :class:`~engine.wyatt_earp.actions.PlaySheriff`: a shot, then a target."""


class _Players(msgspec.Struct):
    min: int
    max: int


class _Setup(msgspec.Struct):
    hand_size: int


class _Bank(msgspec.Struct):
    poster_start_reward: int
    poster_refill_each_new_hand: int


class _Victory(msgspec.Struct):
    target_money: int


class _Melds(msgspec.Struct):
    first_set_min_cards: int
    later_plays_min_cards: int


class _Scoring(msgspec.Struct):
    capture_threshold_total_cp: int
    sole_winner_margin: int
    share_window: int
    share_requires_positive_cp: bool
    first_share_top: int
    other_shares: int


class _Outlaw(msgspec.Struct):
    id: str
    name: str
    poster_position: int
    card_cp: list[int]
    card_bullet_hole: list[bool]
    photo_cards: int


class _SheriffCard(msgspec.Struct):
    id: str
    name: str
    count: int
    upper_left: str
    cp: int = 0
    reward: int = 0
    bullet_hole: bool = False
    per_outlaw: bool = False


class _File(msgspec.Struct):
    players: _Players
    setup: _Setup
    bank: _Bank
    victory: _Victory
    melds: _Melds
    scoring: _Scoring
    outlaws: list[_Outlaw]
    sheriff_cards: list[_SheriffCard]


class Components(msgspec.Struct, frozen=True):
    """Every Wyatt Earp component as int-indexed tuples (see the module docstring for ids).

    Attributes:
        min_players, max_players: the player range (2-4).
        hand_size: cards dealt to each player (10).
        poster_refill: dollars added to every reward poster at the start of each hand.
        target_money: the game ends after a hand in which someone reaches this much.
        first_set_min: Outlaw cards in the first set of an Outlaw (3).
        capture_threshold: uncovered CP of all players together an Outlaw needs to be captured.
        sole_winner_margin: a lead of this many CP takes the whole reward.
        share_window: players within this many CP of the leader share the reward.
        share_requires_positive_cp: a player with 0 CP never shares (ASSUMED).
        first_share, other_share: the leader's first share and every other share.
        outlaw_ids, outlaw_names: per Outlaw, in poster order.
        card_type, card_outlaw, card_cp, card_reward, card_bullet_hole, card_kind: per card.
        card_names: per card, e.g. ``"Billy the Kid"``, ``"Photo (Billy the Kid)"``, ``"Bank robbery"``.
        kind_type, kind_outlaw, kind_cards: per kind (kind_cards: its card ids, ascending).
        sheriff_names: a Sheriff card type's name (``"bank_robbery"`` -> ``"Bank robbery"``).
        type_reward: the reward a Sheriff card type adds (the Hideout's is an option).
    """

    min_players: int
    max_players: int
    hand_size: int
    poster_refill: int
    target_money: int
    first_set_min: int
    capture_threshold: int
    sole_winner_margin: int
    share_window: int
    share_requires_positive_cp: bool
    first_share: int
    other_share: int
    hideout_reward: int
    outlaw_ids: tuple[str, ...]
    outlaw_names: tuple[str, ...]
    card_type: tuple[str, ...]
    card_outlaw: tuple[int, ...]
    card_cp: tuple[int, ...]
    card_reward: tuple[int, ...]
    card_bullet_hole: tuple[bool, ...]
    card_kind: tuple[int, ...]
    card_names: tuple[str, ...]
    kind_type: tuple[str, ...]
    kind_outlaw: tuple[int, ...]
    kind_cards: tuple[tuple[int, ...], ...]
    sheriff_names: dict[str, str]

    @property
    def num_cards(self) -> int:
        """Cards in the game (78)."""
        return len(self.card_type)

    def kind_of(self, card_type: str, outlaw: int) -> int:
        """The kind id of a card type (``outlaw`` only for Outlaw cards and Photos, else -1).

        Raises:
            KeyError: no such kind.
        """
        for kind, (t, o) in enumerate(zip(self.kind_type, self.kind_outlaw, strict=True)):
            if t == card_type and o == outlaw:
                return kind
        raise KeyError(f"no card kind {card_type!r} for outlaw {outlaw}")

    def kind_name(self, kind: int) -> str:
        """A person's name for a kind, e.g. ``"Billy the Kid"`` or ``"Photo (Belle Starr)"``."""
        return self.card_names[self.kind_cards[kind][0]]


@functools.cache
def components() -> Components:
    """Load and index ``wyatt_earp.toml`` (once per process)."""
    raw = resources.files(__package__).joinpath("wyatt_earp.toml").read_bytes()
    data = msgspec.toml.decode(raw, type=_File)
    outlaws = sorted(data.outlaws, key=lambda o: o.poster_position)
    card_type: list[str] = []
    card_outlaw: list[int] = []
    card_cp: list[int] = []
    card_reward: list[int] = []
    card_hole: list[bool] = []
    card_kind: list[int] = []
    names: list[str] = []
    kind_type: list[str] = []
    kind_outlaw: list[int] = []
    for o, outlaw in enumerate(outlaws):
        kind_type.append(OUTLAW)
        kind_outlaw.append(o)
        for cp, hole in zip(outlaw.card_cp, outlaw.card_bullet_hole, strict=True):
            card_type.append(OUTLAW)
            card_outlaw.append(o)
            card_cp.append(cp)
            card_reward.append(0)
            card_hole.append(hole)
            card_kind.append(o)
            names.append(outlaw.name)
    hideout_reward = 0
    for sheriff in data.sheriff_cards:
        if sheriff.per_outlaw:
            for o, outlaw in enumerate(outlaws):
                kind = len(kind_type)
                kind_type.append(sheriff.id)
                kind_outlaw.append(o)
                for _ in range(sheriff.count // len(outlaws)):
                    card_type.append(sheriff.id)
                    card_outlaw.append(o)
                    card_cp.append(sheriff.cp)
                    card_reward.append(sheriff.reward)
                    card_hole.append(sheriff.bullet_hole)
                    card_kind.append(kind)
                    names.append(f"{sheriff.name} ({outlaw.name})")
            continue
        kind = len(kind_type)
        kind_type.append(sheriff.id)
        kind_outlaw.append(-1)
        if sheriff.id == HIDEOUT:
            hideout_reward = sheriff.reward
        for _ in range(sheriff.count):
            card_type.append(sheriff.id)
            card_outlaw.append(-1)
            card_cp.append(sheriff.cp)
            card_reward.append(0 if sheriff.id == HIDEOUT else sheriff.reward)
            card_hole.append(sheriff.bullet_hole)
            card_kind.append(kind)
            names.append(sheriff.name)
    kind_cards = tuple(tuple(c for c, k in enumerate(card_kind) if k == kind) for kind in range(len(kind_type)))
    return Components(
        min_players=data.players.min,
        max_players=data.players.max,
        hand_size=data.setup.hand_size,
        poster_refill=data.bank.poster_refill_each_new_hand,
        target_money=data.victory.target_money,
        first_set_min=data.melds.first_set_min_cards,
        capture_threshold=data.scoring.capture_threshold_total_cp,
        sole_winner_margin=data.scoring.sole_winner_margin,
        share_window=data.scoring.share_window,
        share_requires_positive_cp=data.scoring.share_requires_positive_cp,
        first_share=data.scoring.first_share_top,
        other_share=data.scoring.other_shares,
        hideout_reward=hideout_reward,
        outlaw_ids=tuple(o.id for o in outlaws),
        outlaw_names=tuple(o.name for o in outlaws),
        card_type=tuple(card_type),
        card_outlaw=tuple(card_outlaw),
        card_cp=tuple(card_cp),
        card_reward=tuple(card_reward),
        card_bullet_hole=tuple(card_hole),
        card_kind=tuple(card_kind),
        card_names=tuple(names),
        kind_type=tuple(kind_type),
        kind_outlaw=tuple(kind_outlaw),
        kind_cards=kind_cards,
        sheriff_names={s.id: s.name for s in data.sheriff_cards},
    )
