"""Test-only helpers for Wyatt Earp: scripted chance and exact positions.

Scenario tests fix the cards by building the position directly (:func:`position`): hands,
territories, Hideouts, the supply (its top card last, so a test knows every shot) and the
discard stack; chance is replaced by :class:`ScriptedChance`, which never reorders a shuffle.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from engine.wyatt_earp import GAME, Options
from engine.wyatt_earp.components import OUTLAW, PHOTO, components
from engine.wyatt_earp.state import OUTLAWS, WyattEarpState

COMP = components()
OUTLAW_IDS = {name: o for o, name in enumerate(COMP.outlaw_ids)}
SHORT = {name.split("_")[0]: o for name, o in OUTLAW_IDS.items()}
"""``"billy"``, ``"jesse"``, ``"wes"``, ``"belle"``, ``"bob"``, ``"butch"``, ``"sundance"``."""
BILLY, JESSE, WES, BELLE, BOB, BUTCH, SUNDANCE = range(7)


class ScriptedChance:
    """A chance source that never reorders a shuffle and answers ``below`` from a script
    (0 once the script is used up)."""

    def __init__(self, below: Iterable[int] = ()) -> None:
        self.script = list(below)

    def below(self, n: int) -> int:
        value = self.script.pop(0) if self.script else 0
        assert 0 <= value < n
        return value

    def roll(self, faces: Sequence[int]) -> int:  # pragma: no cover - Wyatt Earp has no dice
        raise AssertionError("Wyatt Earp rolls no dice")

    def shuffle(self, items: list[Any]) -> None:
        """Leave ``items`` in order (a reshuffled discard stack keeps its top on top)."""

    def clone(self) -> ScriptedChance:
        return ScriptedChance(self.script)

    def fingerprint(self) -> bytes:
        return repr(self.script).encode()


def outlaw_of(name: str | int) -> int:
    """An Outlaw id from its id, its data id (``"billy_the_kid"``) or first word (``"billy"``)."""
    if isinstance(name, int):
        return name
    return OUTLAW_IDS[name] if name in OUTLAW_IDS else SHORT[name]


def kind(spec: str) -> int:
    """The card kind of ``spec``: an Outlaw (``"billy"``), ``"photo:billy"`` or a Sheriff card
    type (``"bank_robbery"``)."""
    if spec.startswith("photo:"):
        return COMP.kind_of(PHOTO, outlaw_of(spec[6:]))
    if spec in SHORT or spec in OUTLAW_IDS:
        return COMP.kind_of(OUTLAW, outlaw_of(spec))
    return COMP.kind_of(spec, -1)


def cards(*specs: str, exclude: Iterable[int] = ()) -> list[int]:
    """Distinct card ids for ``specs`` (see :func:`kind`), lowest ids first, none in ``exclude``.

    Raises:
        LookupError: not enough cards of a kind.
    """
    used = set(exclude)
    out = []
    for spec in specs:
        for c in COMP.kind_cards[kind(spec)]:
            if c not in used:
                used.add(c)
                out.append(c)
                break
        else:
            raise LookupError(f"no more {spec} cards")
    return out


FILLER_ORDER = [c for o in (SUNDANCE, BUTCH, BOB) for c in COMP.kind_cards[o]]
"""Cards for hands a test leaves out: Outlaw cards of the last Outlaws first."""


def position(
    players: int,
    current: int = 0,
    *,
    hands: dict[int, list[str]] | None = None,
    territories: dict[int, dict[str | int, list[str]]] | None = None,
    hideouts: Iterable[tuple[int, str | int]] = (),
    supply: list[str] | None = None,
    discard: list[str] | None = None,
    posters: dict[str | int, int] | None = None,
    money: list[int] | None = None,
    opened: Iterable[str | int] | None = None,
    phase: str = "draw",
    options: dict[str, Any] | Options | None = None,
    reshuffled: bool = False,
    filler: int = 3,
) -> WyattEarpState:
    """The start of ``current``'s turn (``phase`` ``"draw"``, or ``"play"`` after the draw) with
    exact cards.

    Args:
        hands: per seat, card specs (see :func:`kind`); seats left out get ``filler`` cards of
            :data:`FILLER_ORDER`.
        territories: per seat, per Outlaw, the group's card specs in the order played.
        hideouts: ``(seat, outlaw)`` groups covered by a Hideout.
        supply: the top cards of the supply, the top one last; every card not placed anywhere
            else lies below them, in id order.
        discard: the discard stack, the top card last (default empty).
        posters: rewards by Outlaw (default $1,000 each).
        money: per seat (default 0).
        opened: Outlaws whose first set is down (default: those with Outlaw cards on the table).
    """
    st = GAME.new_game(players, 1, options)
    used: list[int] = []

    def take(specs: list[str]) -> list[int]:
        got = cards(*specs, exclude=used)
        used.extend(got)
        return got

    st.terr = [[[] for _ in range(OUTLAWS)] for _ in range(players)]
    st.hideout = [[-1] * OUTLAWS for _ in range(players)]
    for seat, groups in (territories or {}).items():
        for name, specs in groups.items():
            st.terr[seat][outlaw_of(name)] = take(specs)
    for seat, name in hideouts:
        st.hideout[seat][outlaw_of(name)] = take(["hideout"])[0]
    hand_specs = hands or {}
    st.hands = [take(hand_specs[seat]) if seat in hand_specs else [] for seat in range(players)]
    st.discard = take(discard or [])
    top = take(supply or [])
    for seat in range(players):
        if seat not in hand_specs:
            spare = [c for c in FILLER_ORDER if c not in used][:filler]
            used.extend(spare)
            st.hands[seat] = spare
    st.supply = [c for c in range(COMP.num_cards) if c not in used] + top
    st.posters = [1000] * OUTLAWS
    for name, reward in (posters or {}).items():
        st.posters[outlaw_of(name)] = reward
    st.money = list(money) if money is not None else [0] * players
    if opened is None:
        st.opened = [any(COMP.card_type[c] == OUTLAW for t in st.terr for c in t[o]) for o in range(OUTLAWS)]
    else:
        chosen = {outlaw_of(name) for name in opened}
        st.opened = [o in chosen for o in range(OUTLAWS)]
    st.reshuffled = reshuffled
    st.recycled = set(st.supply) if reshuffled else set()
    st.drawn_since = [0] * players
    st.known = set()
    st.lacks = [0] * players
    st.dealer = (current - 1) % players
    st.starter = current
    st.current = current
    st.sheriff_played = False
    st.secret = {}
    st.progressed = False
    st.stalled = 0
    st.stalled_hands = 0
    st.bonus = -1
    st.pending = -1
    st.response = (-1, -1)
    st.asking = []
    st.chance = ScriptedChance()  # type: ignore[assignment]
    st.log.clear()
    st.wait_for(current, phase)
    check_conservation(st)
    return st


def act(st: Any, seat: int, action: Any) -> None:
    """Assert ``action`` is legal for ``seat``, then apply it (python-chess's scenario style)."""
    legal = st.legal_actions(seat)
    assert action in legal, f"{action!r} not legal for seat {seat}; legal: {legal}"
    st.apply(seat, action)


def check_conservation(st: WyattEarpState) -> None:
    """Every one of the 78 cards is in exactly one place."""
    placed = [c for h in st.hands for c in h] + st.supply + st.discard
    placed += [c for t in st.terr for g in t for c in g] + [h for row in st.hideout for h in row if h >= 0]
    placed += st.held()
    assert sorted(placed) == list(range(COMP.num_cards)), "cards lost or duplicated"


def hand_kinds(st: WyattEarpState, seat: int) -> list[int]:
    """The kinds of ``seat``'s hand, sorted."""
    return sorted(COMP.card_kind[c] for c in st.hands[seat])


def play_random(st: Any, seed: int = 0, limit: int = 200_000) -> int:
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


def events_of(st: Any, kind: type, seat: int | None = None) -> list[Any]:
    """The events of type ``kind`` that ``seat`` sees."""
    return [e for e in st.events(seat) if type(e) is kind]
