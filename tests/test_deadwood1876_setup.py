"""Deadwood 1876 Set Up (rulebook: SET UP steps 1-5) and the first-player roll (HOW TO PLAY).

Each test names the rule it checks; dice and shuffles are fixed with :class:`ScriptedChance`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import engine
from engine.deadwood1876 import GAME, DeadwoodState, Options
from engine.deadwood1876.actions import Duel, PassSafe
from engine.deadwood1876.components import MYSTERY
from engine.deadwood1876.events import (
    DiceRolled,
    FirstPlayer,
    SafePassed,
    SafesDealt,
    SafesShuffled,
    StarsPlaced,
    TurnStarted,
)
from engine.deadwood1876.rules import setup
from tests.helpers import COMP, ScriptedChance, act, card, new_state

GEM, HOTEL, BELLA = 0, 1, 2
ALL_COUNTS = [4, 5, 6, 7, 8, 9]
BASE_SAFES = [s for s in range(len(COMP.safe_kind)) if COMP.safe_kind[s] != MYSTERY]
MYSTERY_SAFES = [s for s in range(len(COMP.safe_kind)) if COMP.safe_kind[s] == MYSTERY]


class ReversingChance(ScriptedChance):
    """Scripted dice, but every shuffle reverses the list (so a test can see that it happened)."""

    def shuffle(self, items: list[Any]) -> None:
        items.reverse()


def scripted_setup(players: int, chance: ScriptedChance | None = None) -> DeadwoodState:
    """A game set up with scripted chance from the start: bag, deck and Safes stay in order."""
    st = DeadwoodState(GAME, GAME.components.player_counts[players], Options(), 0)
    st.chance = chance if chance is not None else ScriptedChance()  # type: ignore[assignment]
    setup.set_up(st)
    return st


def pass_all(st: DeadwoodState, choices: dict[int, int] | None = None, order: list[int] | None = None) -> None:
    """Every seat passes (``choices[seat]``, default the first Safe), in ``order`` (default seat order)."""
    choices = choices or {}
    for seat in order if order is not None else range(st.n):
        act(st, seat, PassSafe(choices.get(seat, 0)))


def of_type(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


# ---------------------------------------------------------------- step 1: establishments


@pytest.mark.parametrize("players", ALL_COUNTS)
@pytest.mark.rule("deadwood1876", "setup.establishments")
def test_three_establishments_are_in_play_from_four_players(players):
    """SET UP 1: the three establishment platforms are placed (only 2-3 players remove one)."""
    st = new_state(players, seed=3)
    view = st.view(None)
    assert [e.id for e in view.establishments] == [GEM, HOTEL, BELLA]
    assert [e.name for e in view.establishments] == ["Gem Theatre", "Grand Central Hotel", "Bella Union"]


@pytest.mark.parametrize(("players", "capacity"), [(4, 2), (5, 2), (6, 3), (7, 3), (8, 3), (9, 4)])
@pytest.mark.rule("deadwood1876", "establishment.capacity")
def test_establishment_capacity_follows_the_player_count_table(players, capacity):
    """ESTABLISHMENT CAPACITY: 2-5 players 2, 6-8 players 3, 9 players 4 per establishment."""
    st = new_state(players, seed=3)
    assert st.table.capacity == capacity
    assert [e.capacity for e in st.view(None).establishments] == [capacity] * 3


# ---------------------------------------------------------------- step 2: stars


@pytest.mark.parametrize(
    ("players", "establishments"),
    [
        (4, [GEM, BELLA, GEM, BELLA]),
        (5, [GEM, HOTEL, BELLA, GEM, HOTEL]),
        (6, [GEM, HOTEL, BELLA, GEM, HOTEL, BELLA]),
        (7, [GEM, HOTEL, BELLA, GEM, HOTEL, BELLA, GEM]),
        (8, [GEM, HOTEL, BELLA, GEM, HOTEL, BELLA, GEM, HOTEL]),
        (9, [GEM, HOTEL, BELLA, GEM, HOTEL, BELLA, GEM, HOTEL, BELLA]),
    ],
)
@pytest.mark.rule("deadwood1876", "setup.stars")
def test_stars_are_placed_one_at_a_time_from_the_gem_theatre_clockwise(players, establishments):
    """SET UP 2: stars come out of the bag one at a time, beginning with the Gem Theatre and moving
    clockwise (the bag is left in seat order here, so star ``k`` drawn is seat ``k``)."""
    st = scripted_setup(players)
    assert st.est == establishments
    assert of_type(st.events(None), StarsPlaced) == [StarsPlaced(tuple(establishments))]


@pytest.mark.parametrize(
    ("players", "counts"),
    [(4, [2, 0, 2]), (5, [2, 2, 1]), (6, [2, 2, 2]), (7, [3, 2, 2]), (8, [3, 3, 2]), (9, [3, 3, 3])],
)
@pytest.mark.parametrize("seed", [0, 1, 2, 17])
@pytest.mark.rule("deadwood1876", "setup.stars")
def test_star_count_per_establishment(players, counts, seed):
    """SET UP 2: one star at a time round the establishments from the Gem Theatre gives these counts
    whatever order the stars leave the bag (no star in the Grand Central Hotel at 4 players)."""
    st = new_state(players, seed=seed)
    assert [st.est.count(e) for e in (GEM, HOTEL, BELLA)] == counts
    view = st.view(None)
    assert [len(e.seats) for e in view.establishments] == counts
    assert [p.establishment for p in view.players] == st.est


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.rule("deadwood1876", "setup.stars-four-players")
def test_no_stars_start_in_the_grand_central_hotel_at_four_players(seed):
    """SET UP 2: "In 4-player games, do not place any stars in the Grand Central Hotel"."""
    st = new_state(4, seed=seed)
    assert HOTEL not in st.est
    assert sorted(st.est) == [GEM, GEM, BELLA, BELLA]


@pytest.mark.rule("deadwood1876", "setup.stars")
def test_the_bag_decides_which_player_sits_where():
    """SET UP 2: stars are pulled out of the bag at random (different seeds, different seatings)."""
    seatings = {tuple(new_state(6, seed=seed).est) for seed in range(12)}
    assert len(seatings) > 1


# ---------------------------------------------------------------- step 3: Deadwood cards


@pytest.mark.parametrize(("players", "size"), [(4, 4), (5, 4), (6, 4), (7, 4), (8, 3), (9, 3)])
@pytest.mark.rule("deadwood1876", "setup.deal-cards")
@pytest.mark.rule("deadwood1876", "small.eight-nine")
def test_hand_size_is_four_or_three_at_eight_and_nine_players(players, size):
    """SET UP 3: deal four Deadwood cards to each player (only three for 8-9 player games)."""
    st = new_state(players, seed=5)
    assert [len(h) for h in st.hands] == [size] * players
    assert [p.hand_size for p in st.view(None).players] == [size] * players
    assert len(st.deck) == 50 - size * players
    assert st.discard == []


@pytest.mark.parametrize("players", ALL_COUNTS)
@pytest.mark.rule("deadwood1876", "setup.deal-cards")
def test_every_deadwood_card_is_in_a_hand_or_the_deck_exactly_once(players):
    """SET UP 3: the remaining Deadwood cards form the deck; all 50 cards are in play."""
    st = new_state(players, seed=11)
    everywhere = [c for h in st.hands for c in h] + st.deck + st.discard
    assert sorted(everywhere) == list(range(50))


@pytest.mark.rule("deadwood1876", "setup.deal-cards")
@pytest.mark.rule("deadwood1876", "law.second")
def test_each_player_sees_only_their_own_hand():
    """SET UP 3: cards are dealt face down (Second Law: never show your hand)."""
    st = new_state(5, seed=2)
    for seat in range(5):
        view = st.view(seat)
        assert sorted(c.id for c in view.hand) == sorted(st.hands[seat])
        assert view.hands is None
    assert st.view(None).hand == ()


# ---------------------------------------------------------------- step 4: Safes


@pytest.mark.parametrize(("players", "middle"), [(4, 3), (5, 3), (6, 3), (7, 3), (8, 2), (9, 2)])
@pytest.mark.rule("deadwood1876", "setup.safes")
@pytest.mark.rule("deadwood1876", "small.eight-nine")
def test_middle_stack_has_three_safes_or_two_at_eight_and_nine_players(players, middle):
    """SET UP 4: three Safes in a face-down stack in the middle (only two for 8-9 player games)."""
    st = new_state(players, seed=5)
    assert len(st.middle) == middle
    assert st.view(None).middle_safes == middle


@pytest.mark.parametrize("players", ALL_COUNTS)
@pytest.mark.rule("deadwood1876", "setup.safes")
def test_each_player_is_dealt_two_safes(players):
    """SET UP 4: deal two Safes, face down, to each player."""
    st = new_state(players, seed=5)
    assert [len(r) for r in st.rows] == [2] * players
    assert [len(p.safes) for p in st.view(None).players] == [2] * players


@pytest.mark.parametrize("players", ALL_COUNTS)
@pytest.mark.parametrize("seed", [0, 9])
@pytest.mark.rule("deadwood1876", "setup.safes")
def test_mystery_safes_are_not_in_play(players, seed):
    """SET UP 4: the five silver-bordered Mystery Safes go back to the box (the option is off)."""
    st = new_state(players, seed=seed)
    in_play = set(st.middle) | {s for r in st.rows for s in r}
    assert in_play.isdisjoint(MYSTERY_SAFES)
    assert set(st.box).isdisjoint(MYSTERY_SAFES)


@pytest.mark.parametrize(("players", "boxed"), [(4, 9), (5, 7), (6, 5), (7, 3), (8, 2), (9, 0)])
@pytest.mark.rule("deadwood1876", "setup.safes")
def test_every_base_safe_is_in_the_middle_a_row_or_the_box_exactly_once(players, boxed):
    """SET UP 4: the 20 base Safes are shuffled; the middle stack and two per player are dealt and the
    rest go back in the box unseen."""
    st = new_state(players, seed=4)
    everywhere = st.middle + [s for r in st.rows for s in r] + st.box
    assert sorted(everywhere) == BASE_SAFES
    assert len(st.box) == boxed


@pytest.mark.rule("deadwood1876", "setup.safes")
def test_safes_in_the_box_and_the_middle_are_seen_by_nobody():
    """SET UP 4: the remaining Safes go back to the box without viewing them; the middle stack is face down."""
    st = new_state(5, seed=4)
    hidden = set(st.box) | set(st.middle)
    for seat in range(5):
        assert not (st.known[seat] & hidden)
        view = st.view(seat)
        assert view.heist_safe is None
        seen = [s.contents for p in view.players if p.seat != seat for s in p.safes]
        assert seen == [None] * 8


@pytest.mark.rule("deadwood1876", "setup.deal-order")
def test_middle_stack_is_dealt_first_then_two_safes_per_seat():
    """SET UP 4 (our dealing decision): from the top of the shuffled Safes, the middle stack first, then
    two Safes to each seat in seat order, the rest to the box."""
    st = scripted_setup(5)
    assert st.middle == BASE_SAFES[:3]
    assert st.rows == [BASE_SAFES[3 + 2 * s : 5 + 2 * s] for s in range(5)]
    assert st.box == BASE_SAFES[13:]


@pytest.mark.rule("deadwood1876", "setup.pass-safe")
def test_each_player_views_their_two_safes_and_nobody_elses():
    """SET UP 5: all players view their two Safes (the dealt event shows them only to their owner)."""
    st = new_state(5, seed=8)
    labels = [tuple(COMP.safe_label(s) for s in st.rows[seat]) for seat in range(5)]
    for seat in range(5):
        dealt = of_type(st.events(seat), SafesDealt)
        assert dealt == [SafesDealt(p, 2, labels[p]) if p == seat else SafesDealt(p, 2, None) for p in range(5)]
        view = st.view(seat)
        assert [s.contents for s in view.players[seat].safes] == list(labels[seat])
    assert of_type(st.events(None), SafesDealt) == [SafesDealt(p, 2, None) for p in range(5)]


# ---------------------------------------------------------------- step 5: pass one Safe left


@pytest.mark.rule("deadwood1876", "setup.pass-safe")
def test_everyone_chooses_a_safe_to_pass_at_the_same_time():
    """SET UP 5: all players choose one of their two Safes to pass, simultaneously."""
    st = new_state(6, seed=2)
    assert st.phase == "pass_safe"
    assert st.to_act == (0, 1, 2, 3, 4, 5)
    for seat in range(6):
        assert st.legal_actions(seat) == [PassSafe(0), PassSafe(1)]


@pytest.mark.rule("deadwood1876", "setup.pass-safe")
def test_a_safe_pass_choice_stays_hidden_until_everyone_has_chosen():
    """SET UP 5: the Safe is passed face down; nobody sees a choice before all have chosen: others only
    see that a choice is down."""
    st = new_state(5, seed=2)
    before_rows = [list(r) for r in st.rows]
    before = {seat: st.view(seat) for seat in (None, 1, 2)}
    events_before = {seat: st.events(seat) for seat in (None, 1, 2)}
    act(st, 0, PassSafe(1))
    assert st.to_act == (1, 2, 3, 4)
    assert st.rows == before_rows
    for seat in (None, 1, 2):
        view = st.view(seat)
        assert view.players[0].chosen is True
        assert [p.chosen for p in view.players[1:]] == [False] * 4
        assert view.players[0].safes == before[seat].players[0].safes
        assert view.players[1].safes == before[seat].players[1].safes
        assert st.events(seat) == events_before[seat]
    with pytest.raises(engine.IllegalAction):
        st.apply(0, PassSafe(0))


@pytest.mark.rule("deadwood1876", "setup.pass-safe")
def test_a_pass_chosen_with_the_other_index_looks_the_same_to_the_others():
    """SET UP 5: what a player chose cannot be told from the other seats' views."""
    a, b = new_state(5, seed=2), new_state(5, seed=2)
    act(a, 0, PassSafe(0))
    act(b, 0, PassSafe(1))
    for seat in (None, 1, 2, 3, 4):
        assert a.view(seat) == b.view(seat)
        assert a.events(seat) == b.events(seat)
    assert a.digest() != b.digest()


@pytest.mark.rule("deadwood1876", "setup.pass-safe")
def test_the_order_in_which_passes_arrive_does_not_change_the_result():
    """SET UP 5: the choices are simultaneous, so the order they reach the engine in changes nothing."""
    choices = {0: 1, 1: 0, 2: 1, 3: 1, 4: 0}
    a, b = new_state(5, seed=21), new_state(5, seed=21)
    pass_all(a, choices, order=[0, 1, 2, 3, 4])
    pass_all(b, choices, order=[3, 0, 4, 2, 1])
    assert a.phase == b.phase == "turn"
    assert a.digest() == b.digest()
    assert a.events(engine.OMNISCIENT) == b.events(engine.OMNISCIENT)
    assert a.rows == b.rows


@pytest.mark.rule("deadwood1876", "setup.pass-safe")
def test_partial_passes_in_different_orders_give_the_same_state():
    """SET UP 5: two choices recorded in either order are the same hidden state."""
    a, b = new_state(5, seed=21), new_state(5, seed=21)
    act(a, 1, PassSafe(1))
    act(a, 3, PassSafe(0))
    act(b, 3, PassSafe(0))
    act(b, 1, PassSafe(1))
    assert a.digest() == b.digest()


@pytest.mark.parametrize(
    ("seat", "action"),
    [
        pytest.param(0, PassSafe(2), id="no-third-safe"),
        pytest.param(0, PassSafe(-1), id="negative-index"),
        pytest.param(5, PassSafe(0), id="no-such-seat"),
        pytest.param(0, Duel(card("colt", "stetson"), 1), id="duel-before-the-first-turn"),
        pytest.param(0, "0", id="not-an-action"),
    ],
)
@pytest.mark.rule("deadwood1876", "setup.pass-safe")
def test_illegal_passes_are_refused_and_change_nothing(seat, action):
    """SET UP 5: each player passes one of their two Safes; nothing else can be done yet."""
    st = new_state(5, seed=2)
    digest = st.digest()
    with pytest.raises(engine.IllegalAction):
        st.apply(seat, action)
    assert st.digest() == digest
    assert st.to_act == (0, 1, 2, 3, 4)


@pytest.mark.rule("deadwood1876", "setup.pass-safe")
def test_the_chosen_safe_goes_to_the_player_on_the_left():
    """SET UP 5: pass the chosen Safe face down to the player on your left (seat + 1, the last seat
    passes to seat 0)."""
    st = new_state(5, seed=6)
    st.chance = ScriptedChance([6, 1, 1, 1, 1])  # type: ignore[assignment]
    rows = [list(r) for r in st.rows]
    choices = {0: 0, 1: 1, 2: 0, 3: 1, 4: 1}
    pass_all(st, choices)
    for seat in range(5):
        giver = (seat - 1) % 5
        kept = rows[seat][1 - choices[seat]]
        assert st.rows[seat] == [kept, rows[giver][choices[giver]]]


@pytest.mark.rule("deadwood1876", "setup.pass-safe")
def test_giver_and_receiver_know_the_passed_safe_and_nobody_else_does():
    """SET UP 5: the passing player saw the Safe and the receiver views their new set; the pass is
    face down for everyone else."""
    st = new_state(4, seed=6)
    st.chance = ScriptedChance([6, 1, 1, 1])  # type: ignore[assignment]
    passed = [st.rows[seat][0] for seat in range(4)]
    pass_all(st)
    labels = [COMP.safe_label(s) for s in passed]
    for seat in range(4):
        got = of_type(st.events(seat), SafePassed)
        expected = []
        for giver in range(4):
            receiver = (giver + 1) % 4
            expected.append(SafePassed(giver, receiver, labels[giver] if seat in (giver, receiver) else None))
        assert got == expected
    assert of_type(st.events(None), SafePassed) == [SafePassed(g, (g + 1) % 4, None) for g in range(4)]
    receiver_view = st.view(1)
    assert passed[0] in st.rows[1]
    assert [s.contents for s in receiver_view.players[1].safes] == [COMP.safe_label(s) for s in st.rows[1]]


@pytest.mark.rule("deadwood1876", "setup.shuffle-row")
def test_every_row_is_shuffled_after_the_pass():
    """SET UP 5: all players shuffle their new set of Safes, then lay them in a row."""
    st = new_state(5, seed=6)
    rows = [list(r) for r in st.rows]
    st.chance = ReversingChance([6, 1, 1, 1, 1])  # type: ignore[assignment]
    pass_all(st)
    for seat in range(5):
        received = rows[(seat - 1) % 5][0]
        assert st.rows[seat] == [received, rows[seat][1]]
    assert of_type(st.events(None), SafesShuffled) == [SafesShuffled(seat) for seat in range(5)]


@pytest.mark.rule("deadwood1876", "setup.shuffle-row")
def test_after_the_shuffle_the_giver_no_longer_knows_where_the_passed_safe_lies():
    """SET UP 5 and the Laws: the receiver shuffled, so the giver can't tell which of the two it is."""
    st = new_state(5, seed=6)
    pass_all(st)
    for seat in range(5):
        receiver = (seat + 1) % 5
        assert [s.contents for s in st.view(seat).players[receiver].safes] == [None, None]


# ---------------------------------------------------------------- first player


@pytest.mark.rule("deadwood1876", "play.first-player")
def test_highest_black_die_roller_goes_first():
    """HOW TO PLAY: everyone rolls a black die; the highest roller goes first."""
    st = new_state(5, seed=3)
    st.chance = ScriptedChance([2, 5, 6, 1, 3])  # type: ignore[assignment]
    pass_all(st)
    rolls = of_type(st.events(None), DiceRolled)
    assert rolls == [DiceRolled("first_player", tuple((s, (("black", v),), v) for s, v in enumerate([2, 5, 6, 1, 3])))]
    assert of_type(st.events(None), FirstPlayer) == [FirstPlayer(2)]
    assert st.first == 2
    assert st.chance.rolls == []  # type: ignore[attr-defined]


@pytest.mark.rule("deadwood1876", "play.first-player")
def test_only_the_tied_highest_rollers_reroll():
    """HOW TO PLAY: "The highest roller goes first"; ties for highest are rerolled by the tied players."""
    st = new_state(6, seed=3)
    st.chance = ScriptedChance([6, 2, 6, 1, 6, 5, 4, 4, 3, 2, 5])  # type: ignore[assignment]
    pass_all(st)
    rolls = of_type(st.events(None), DiceRolled)
    assert [[entry[0] for entry in r.rolls] for r in rolls] == [[0, 1, 2, 3, 4, 5], [0, 2, 4], [0, 2]]
    assert [[entry[2] for entry in r.rolls] for r in rolls] == [[6, 2, 6, 1, 6, 5], [4, 4, 3], [2, 5]]
    assert of_type(st.events(None), FirstPlayer) == [FirstPlayer(2)]
    assert st.chance.rolls == []  # type: ignore[attr-defined]


@pytest.mark.rule("deadwood1876", "play.first-player")
def test_a_low_tie_does_not_cause_a_reroll():
    """HOW TO PLAY: only a tie for the highest roll matters."""
    st = new_state(4, seed=3)
    st.chance = ScriptedChance([1, 1, 4, 2])  # type: ignore[assignment]
    pass_all(st)
    assert len(of_type(st.events(None), DiceRolled)) == 1
    assert st.first == 2


@pytest.mark.rule("deadwood1876", "play.first-player")
def test_the_first_player_takes_the_first_turn():
    """HOW TO PLAY: the highest roller goes first; it is then their turn (circle 1)."""
    st = new_state(7, seed=3)
    st.chance = ScriptedChance([1, 2, 3, 4, 5, 3, 1])  # type: ignore[assignment]
    pass_all(st)
    assert st.phase == "turn"
    assert st.to_act == (4,)
    assert st.current == 4
    events = st.events(None)
    assert isinstance(events[-2], FirstPlayer) and events[-2].seat == 4
    assert events[-1] == TurnStarted(4, 1)
    view = st.view(0)
    assert (view.first, view.current, view.circle, view.turns_left) == (4, 4, 1, 4)
    assert st.legal_actions(4) != []
    assert all(st.legal_actions(seat) == [] for seat in range(7) if seat != 4)


@pytest.mark.parametrize(("players", "turns"), [(4, 4), (7, 4), (8, 3), (9, 3)])
@pytest.mark.rule("deadwood1876", "heist.final-turns")
def test_each_player_gets_four_turns_or_three_at_eight_and_nine_players(players, turns):
    """HEIST: players have a total of four turns during the game (three in 8-9 player games)."""
    st = new_state(players, seed=3)
    pass_all(st)
    assert st.view(None).turns_left == turns


# ---------------------------------------------------------------- game creation


@pytest.mark.parametrize("players", [1, 10, 0, -1, "5", True, 5.0, None])
@pytest.mark.rule("deadwood1876", "cover.players")
def test_a_bad_player_count_is_refused(players):
    """Cover: Deadwood 1876 is for 2 - 9 players; anything else, or a non-integer count, is refused."""
    with pytest.raises(ValueError):
        engine.game("deadwood1876").new_game(players, 1)


@pytest.mark.parametrize(("players", "establishments"), [(2, (GEM, BELLA)), (3, (GEM, BELLA))])
@pytest.mark.rule("deadwood1876", "cover.players")
@pytest.mark.rule("deadwood1876", "setup.establishments")
@pytest.mark.rule("deadwood1876", "small.establishments")
def test_two_and_three_players_are_accepted_with_two_establishments(players, establishments):
    """Cover: 2 - 9 players; SET UP 1: in 2-3 player games the Grand Central Hotel is removed."""
    st = engine.game("deadwood1876").new_game(players, 1)
    assert st.n == players
    assert st.table.establishments == establishments
    assert HOTEL not in st.est


@pytest.mark.parametrize("seed", [-1, "1", True, 1.5])
def test_a_bad_seed_is_refused(seed):
    """The engine contract: the seed is a non-negative integer."""
    with pytest.raises(ValueError):
        engine.game("deadwood1876").new_game(5, seed)


@pytest.mark.parametrize("options", [{"nope": 1}, {"mystery_safes": True}, "fast", 3])
@pytest.mark.rule("deadwood1876", "options.off-by-default")
def test_unknown_options_are_refused(options):
    """The base game has no options: anything else is invalid."""
    with pytest.raises(engine.InvalidOptions):
        engine.game("deadwood1876").new_game(5, 1, options)


@pytest.mark.parametrize("options", [None, {}, Options()])
def test_no_options_are_accepted(options):
    """The base game's options: none, an empty dict or the default Options."""
    st = engine.game("deadwood1876").new_game(5, 1, options)
    assert st.digest() == new_state(5, seed=1).digest()


def test_an_unknown_game_id_is_refused():
    """The engine registry only knows the registered games."""
    with pytest.raises(engine.UnknownGame):
        engine.game("nope")
    assert engine.game("deadwood1876") is GAME


# ---------------------------------------------------------------- determinism


@pytest.mark.parametrize("players", [4, 6, 9])
def test_the_same_seed_gives_the_same_game(players):
    """The engine contract: the same seed and actions give the same game (digest and events)."""
    a, b = new_state(players, seed=42), new_state(players, seed=42)
    assert a.digest() == b.digest()
    assert a.events(engine.OMNISCIENT) == b.events(engine.OMNISCIENT)
    pass_all(a)
    pass_all(b)
    assert a.digest() == b.digest()
    assert a.events(engine.OMNISCIENT) == b.events(engine.OMNISCIENT)
    assert a.first == b.first


def test_different_seeds_give_different_games():
    """The engine contract: the seed drives every shuffle and roll."""
    states = [new_state(5, seed=seed) for seed in range(6)]
    assert len({st.digest() for st in states}) == 6
    assert len({tuple(map(tuple, st.hands)) for st in states}) == 6
    assert len({tuple(map(tuple, st.rows)) for st in states}) == 6


def test_the_digest_covers_hidden_choices():
    """The digest hashes the whole state: a hidden pass changes it."""
    st = new_state(5, seed=1)
    before = st.digest()
    act(st, 2, PassSafe(0))
    assert st.digest() != before


@pytest.mark.rule("deadwood1876", "contents.cards")
def test_the_deadwood_deck_has_ten_of_each_gun_and_the_item_counts():
    """CARD COUNTS: 10 of each gun; 10 Horse, 12 Duster, 13 Stetson, 15 Holster."""
    st = new_state(5, seed=1)
    every = [c for h in st.hands for c in h] + st.deck
    assert Counter(COMP.gun_names[COMP.card_gun[c]] for c in every) == dict.fromkeys(COMP.gun_names, 10)
    assert Counter(COMP.card_item[c] for c in every) == {"horse": 10, "duster": 12, "stetson": 13, "holster": 15}
