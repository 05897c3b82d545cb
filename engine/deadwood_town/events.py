"""Deadwood events: what happened, as a seat may know it.

Each event is a frozen, tagged msgspec Struct. Everything in Deadwood is public except the
order of the building stacks: the Fortune Teller's look (:class:`StackSeen`) and rearrangement
(:class:`StackArranged`) carry the order only in the version for the seat that looked (``None``
in the public version). Every die is an event: each shootout die (:class:`ShotRolled`, in the
order rolled), the first-player roll (:class:`StartRoll`) and the Gold Mine (:class:`GoldMineRolled`).
Plots are printed ids (``"B2"``), buildings data ids (``"bank"``), places a plot id or ``"mine"``.
"""

from __future__ import annotations

import msgspec

from engine.core import GameCapped


class Cowboy(msgspec.Struct, frozen=True, order=True):
    """A cowboy token: ``owner``'s seat and ``strength`` (1 Greenhorn, 2 Gunslinger, 3 Trail Boss)."""

    owner: int
    strength: int


class GameStarted(msgspec.Struct, frozen=True, tag="game_started"):
    """Setup: ``town`` lists ``(plot, building)`` of the buildings on the board; ``crime_pool`` posters."""

    players: int
    town: tuple[tuple[str, str], ...]
    crime_pool: int


class StartRoll(msgspec.Struct, frozen=True, tag="start_roll"):
    """Setup, first player: ``seat`` rolled ``face`` in roll ``round`` (ties among the best roll again)."""

    round: int
    seat: int
    face: str


class TurnStarted(msgspec.Struct, frozen=True, tag="turn_started"):
    """``seat``'s turn begins."""

    seat: int


class TurnPassed(msgspec.Struct, frozen=True, tag="turn_passed"):
    """``seat`` could neither Head Back to the Ranch nor Hit the Town, and passed (NOTES.md rule 9)."""

    seat: int


class CowboyHeadedBack(msgspec.Struct, frozen=True, tag="cowboy_headed_back"):
    """Head Back to the Ranch: ``seat``'s ``strength`` cowboy left ``place`` for the Ranch."""

    seat: int
    place: str
    strength: int


class CowboyPlaced(msgspec.Struct, frozen=True, tag="cowboy_placed"):
    """Hit the Town: ``seat`` put a ``strength`` cowboy at ``building`` on ``plot``."""

    seat: int
    strength: int
    plot: str
    building: str


class TollPaid(msgspec.Struct, frozen=True, tag="toll_paid"):
    """``seat`` paid ``amount`` to ``to`` (the Sheriff's Office controller) to enter ``plot``."""

    seat: int
    to: int
    amount: int
    plot: str


class BuildingAnnexed(msgspec.Struct, frozen=True, tag="building_annexed"):
    """``seat`` annexed ``building`` on ``plot`` (``bonus``: next to a rail just laid)."""

    seat: int
    plot: str
    building: str
    bonus: bool = False


class AnnexDeclined(msgspec.Struct, frozen=True, tag="annex_declined"):
    """``seat`` did not annex ``building`` on ``plot``."""

    seat: int
    plot: str
    building: str


class ShootoutStarted(msgspec.Struct, frozen=True, tag="shootout_started"):
    """A shootout at ``plot``: ``attacker`` (the cowboy arriving) against ``defender``;
    ``poster_to`` took a wanted poster for it (-1: the Crime Pool was empty)."""

    plot: str
    building: str
    attacker: Cowboy
    defender: Cowboy
    poster_to: int


class Skedaddled(msgspec.Struct, frozen=True, tag="skedaddled"):
    """The defender discarded a pony and ran to the Abandoned Mine."""

    seat: int
    strength: int
    plot: str


class StoodGround(msgspec.Struct, frozen=True, tag="stood_ground"):
    """The defender stays to fight."""

    seat: int


class CartridgeDeclared(msgspec.Struct, frozen=True, tag="cartridge_declared"):
    """``seat`` (``role`` ``"attacker"`` or ``"defender"``) spends a cartridge (``used``) or not."""

    seat: int
    role: str
    used: bool


class DiceCounted(msgspec.Struct, frozen=True, tag="dice_counted"):
    """Dice of each side (strength, +1 with a cartridge); ``first`` rolls ``extra`` dice first
    (-1: equal dice)."""

    attacker_dice: int
    defender_dice: int
    first: int
    extra: int


class ShotRolled(msgspec.Struct, frozen=True, tag="shot_rolled"):
    """One shootout die: ``shooter`` (a seat) rolled ``face`` at ``target`` (a seat); ``effect``
    ``"kill"``, ``"wound"`` or ``"miss"``; the target now has ``wounds`` and is ``killed`` or not.
    ``volley`` counts rolls: the extra dice one by one, then each simultaneous pair shares a number."""

    volley: int
    shooter: int
    target: int
    face: str
    effect: str
    wounds: int
    killed: bool


class ShootoutEnded(msgspec.Struct, frozen=True, tag="shootout_ended"):
    """The shootout at ``plot`` ended: ``result`` ``"attacker_won"``, ``"defender_won"``,
    ``"both_killed"``, ``"both_survived"`` (the attacker goes to the Abandoned Mine) or
    ``"skedaddled"``. Wounds heal."""

    plot: str
    result: str


class CowboyKilled(msgspec.Struct, frozen=True, tag="cowboy_killed"):
    """``cowboy`` died at ``plot`` and went to Boot Hill."""

    cowboy: Cowboy
    plot: str


class MoneyGained(msgspec.Struct, frozen=True, tag="money_gained"):
    """``seat`` got ``amount`` dollars from the bank (``reason``: the building that paid: an annexed building's id,
    ``"hotel"``, ``"undertaker"`` or ``"stage_depot"``)."""

    seat: int
    amount: int
    reason: str


class MoneyPaid(msgspec.Struct, frozen=True, tag="money_paid"):
    """``seat`` paid ``amount`` to ``to`` (-1: the bank) for ``reason`` (``"casino"``, ``"courthouse"``...)."""

    seat: int
    amount: int
    to: int
    reason: str


class SuppliesGained(msgspec.Struct, frozen=True, tag="supplies_gained"):
    """``seat`` took ``amount`` ``item`` (``"cartridge"`` or ``"pony"``) from the supply."""

    seat: int
    item: str
    amount: int


class PostersTaken(msgspec.Struct, frozen=True, tag="posters_taken"):
    """``seat`` took ``count`` wanted posters from the Crime Pool for ``reason``."""

    seat: int
    count: int
    reason: str


class PostersReturned(msgspec.Struct, frozen=True, tag="posters_returned"):
    """``seat`` returned ``count`` of their wanted posters to the box for ``reason``."""

    seat: int
    count: int
    reason: str


class PosterGiven(msgspec.Struct, frozen=True, tag="poster_given"):
    """Newspaper: ``seat`` gave a wanted poster to ``to``."""

    seat: int
    to: int


class CrimePoolAdjusted(msgspec.Struct, frozen=True, tag="crime_pool_adjusted"):
    """Telegraph Office: ``seat`` moved ``delta`` posters into (+) or out of (-) the Crime Pool."""

    seat: int
    delta: int
    pool: int


class CowboyHired(msgspec.Struct, frozen=True, tag="cowboy_hired"):
    """Saloon: ``seat`` hired a ``strength`` cowboy for ``cost``; it is in the Abandoned Mine."""

    seat: int
    strength: int
    cost: int


class CowboyMoved(msgspec.Struct, frozen=True, tag="cowboy_moved"):
    """``seat``'s ``reason`` (``"general_store"`` or ``"grifter"``) moved ``cowboy`` from
    ``source`` to ``to`` (a plot or ``"mine"``)."""

    seat: int
    cowboy: Cowboy
    source: str
    to: str
    reason: str


class CowboyReturned(msgspec.Struct, frozen=True, tag="cowboy_returned"):
    """Dance Hall: ``seat``'s ``strength`` cowboy went from ``place`` to the Ranch."""

    seat: int
    place: str
    strength: int


class SheriffMoved(msgspec.Struct, frozen=True, tag="sheriff_moved"):
    """``seat`` put the Sheriff on ``intersection``, protecting ``plots``."""

    seat: int
    intersection: str
    plots: tuple[str, ...]


class StackSeen(msgspec.Struct, frozen=True, tag="stack_seen"):
    """Fortune Teller: ``seat`` looked at ``stack``; ``order`` (top first) only for ``seat``."""

    seat: int
    stack: str
    order: tuple[str, ...] | None = None


class StackArranged(msgspec.Struct, frozen=True, tag="stack_arranged"):
    """Fortune Teller: ``seat`` put ``stack`` back; ``order`` (top first) only for ``seat``."""

    seat: int
    stack: str
    order: tuple[str, ...] | None = None


class TileDrawn(msgspec.Struct, frozen=True, tag="tile_drawn"):
    """``seat`` drew ``building`` from the top of ``stack`` (``reason``: ``"town_hall"``, ``"stage_depot"``)."""

    seat: int
    stack: str
    building: str
    reason: str


class TileBuilt(msgspec.Struct, frozen=True, tag="tile_built"):
    """``seat`` built ``building`` on ``plot``."""

    seat: int
    plot: str
    building: str


class TileToBottom(msgspec.Struct, frozen=True, tag="tile_to_bottom"):
    """``building`` went to the bottom of ``stack`` (``reason``: ``"destroyed"``, ``"no_plot"``, ``"not_chosen"``)."""

    stack: str
    building: str
    reason: str


class RailPlaced(msgspec.Struct, frozen=True, tag="rail_placed"):
    """``seat`` laid railroad tile ``number`` (1..4) on ``plot``."""

    seat: int
    number: int
    plot: str


class BuildingDestroyed(msgspec.Struct, frozen=True, tag="building_destroyed"):
    """``building`` on ``plot`` was destroyed (a rail or the station); ``cowboys`` went to the Abandoned Mine."""

    plot: str
    building: str
    cowboys: tuple[Cowboy, ...]


class StationBuilt(msgspec.Struct, frozen=True, tag="station_built"):
    """``seat`` built the Train Station on ``plot``; ``adjacent`` buildings pay ``payout``."""

    seat: int
    plot: str
    adjacent: int
    payout: int


class GoldMineRolled(msgspec.Struct, frozen=True, tag="gold_mine_rolled"):
    """Gold Mine: ``seat`` rolled ``face`` and got ``money``."""

    seat: int
    face: str
    money: int


class GameEnding(msgspec.Struct, frozen=True, tag="game_ending"):
    """An end condition holds at the end of ``seat``'s turn: ``reasons`` among ``"train_station"``,
    ``"crime_pool_empty"``, ``"no_living_cowboys"`` (``"stalled"``: nobody could move;
    ``"round_limit"``: the 200th round ended, see :data:`~.rules.end_of_game.ROUND_LIMIT`)."""

    seat: int
    reasons: tuple[str, ...]


class FinalScore(msgspec.Struct, frozen=True, tag="final_score"):
    """Final scoring of ``seat``: ``money`` before, ``bonus`` (Stage Depot), ``fine`` ($1 per
    poster), ``score`` after; ``posters`` and ``boot_hill`` for the tie-breaks."""

    seat: int
    money: int
    bonus: int
    fine: int
    score: int
    posters: int
    boot_hill: int


class GameOver(msgspec.Struct, frozen=True, tag="game_over"):
    """The game ended: ``scores`` per seat, ``ranks`` (1 best, ties share) and ``winners``."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]


Event = (
    GameStarted
    | StartRoll
    | TurnStarted
    | TurnPassed
    | CowboyHeadedBack
    | CowboyPlaced
    | TollPaid
    | BuildingAnnexed
    | AnnexDeclined
    | ShootoutStarted
    | Skedaddled
    | StoodGround
    | CartridgeDeclared
    | DiceCounted
    | ShotRolled
    | ShootoutEnded
    | CowboyKilled
    | MoneyGained
    | MoneyPaid
    | SuppliesGained
    | PostersTaken
    | PostersReturned
    | PosterGiven
    | CrimePoolAdjusted
    | CowboyHired
    | CowboyMoved
    | CowboyReturned
    | SheriffMoved
    | StackSeen
    | StackArranged
    | TileDrawn
    | TileBuilt
    | TileToBottom
    | RailPlaced
    | BuildingDestroyed
    | StationBuilt
    | GoldMineRolled
    | GameEnding
    | FinalScore
    | GameOver
    | GameCapped
)
"""Every Deadwood event (a tagged union)."""
