"""The heuristic bot: legal and deterministic everywhere, sensible in built positions, better than random."""

from __future__ import annotations

from typing import Any

import pytest

import replays
from bots import HeuristicBot, RandomBot, make_bot, play_game
from bots.deadwood1876_heuristic import attack_odds, beats, heist_odds, measure
from engine.deadwood1876 import actions as A
from engine.deadwood1876.rules import heist, mystery, showdown
from engine.deadwood1876.state import DeadwoodState
from tests.helpers import COMP, act, card, cards, new_state, put_turn, safe

GAME = "deadwood1876"
GEM, HOTEL, BELLA = 0, 1, 2

ALL_ON: dict[int, dict[str, Any]] = {}
for _players in range(2, 10):
    _opts: dict[str, Any] = {"mystery_safes": 5, "peace_lovin": True}
    if _players >= 4:
        _opts["horse_thief"] = True
    if _players >= 6:
        _opts["fair_share"] = True
    ALL_ON[_players] = _opts


def choice(st: DeadwoodState, seat: int, seed: int = 0) -> Any:
    """What a fresh heuristic bot chooses for ``seat`` now (checked legal)."""
    legal = st.legal_actions(seat)
    action = HeuristicBot(seed).act(st.view(seat), list(legal), seat)
    assert action in legal
    return action


# ---------------------------------------------------------------------------- legality, determinism


def test_make_bot_heuristic():
    bot = make_bot("heuristic", 3)
    assert isinstance(bot, HeuristicBot)
    assert bot.name == "heuristic"


@pytest.mark.parametrize("players", range(2, 10))
@pytest.mark.parametrize("options", ["off", "on", "prototype"])
def test_only_legal_actions(players, options):
    opts: Any = {"off": None, "on": ALL_ON[players], "prototype": {"prototype_rules": True, "mystery_safes": 3}}[
        options
    ]
    for seed in range(6):
        # a mix of heuristic and random seats, and once everyone heuristic
        if seed == 5:
            bots: list[Any] = [HeuristicBot(seed * 10 + s) for s in range(players)]
        else:
            bots = [HeuristicBot(seed * 10 + s) if (s + seed) % 2 == 0 else RandomBot(s) for s in range(players)]
        result = play_game(GAME, players, bots, seed=seed, options=opts)
        assert result.faults == (0,) * players, result.fault_log


def test_deterministic_for_a_seed():
    def game(seed: int) -> bytes:
        bots = [HeuristicBot(7 + s) for s in range(5)]
        return replays.encode(play_game(GAME, 5, bots, seed=seed).replay)

    assert game(4) == game(4)
    first = play_game(GAME, 5, [HeuristicBot(7)] + [RandomBot(s) for s in range(1, 5)], seed=9)
    second = play_game(GAME, 5, [HeuristicBot(7)] + [RandomBot(s) for s in range(1, 5)], seed=9)
    assert replays.encode(first.replay) == replays.encode(second.replay)


def test_unknown_game_falls_back_to_random_legal_choices():
    class FakeView:
        game = "no_such_game"

    bot = HeuristicBot(1)
    picks = [bot.act(FakeView(), [1, 2, 3], 0) for _ in range(30)]
    assert set(picks) <= {1, 2, 3}


def test_dice_odds_match_the_rulebook_table():
    # rulebook ODDS OF THIS DIE WINNING: Colt vs Winchester 31%, Messenger vs Pepperbox 97%
    assert beats((2,), (3,)) == pytest.approx(0.31, abs=0.01)
    assert beats((4,), (0,)) == pytest.approx(0.97, abs=0.01)
    assert attack_odds(4) > attack_odds(2) > attack_odds(0)
    assert heist_odds(4, 4) > heist_odds(0, 4)


# ---------------------------------------------------------------------------- judgement


def robbery_on_me(target: str, attack_gun: str = "colt") -> DeadwoodState:
    """Seat 1 robs seat 0's Safe #1 (``target``); seat 0 holds Pepperbox, Derringer, Colt, Messenger."""
    st = new_state(5, seed=1)
    hero = cards(("pepperbox", "stetson"), ("derringer", "stetson"), ("colt", "duster"), ("messenger", "stetson"))
    attacker = [card(attack_gun, "duster", exclude=hero)]
    put_turn(
        st,
        1,
        hands={0: hero, 1: attacker},
        rows={0: [safe(target), safe("Gold 1")], 1: [safe("Tin Badge")]},
        est=[GEM, GEM, HOTEL, HOTEL, BELLA],
    )
    act(st, 1, A.Robbery(attacker[0], 0, 0))
    return st


def test_defends_a_known_gold_4_with_its_best_gun():
    st = robbery_on_me("Gold 4")
    assert choice(st, 0) == A.Defend(card("messenger", "stetson"))


@pytest.mark.parametrize("target", ["Tin Badge", "Pepperbox Showdown Gun"])
def test_does_not_waste_a_messenger_on_a_weak_safe(target):
    st = robbery_on_me(target)
    action = choice(st, 0)
    assert isinstance(action, A.Defend)
    assert COMP.gun_names[COMP.card_gun[action.card]] in ("Pepperbox", "Derringer", "Colt")
    assert action.card != card("messenger", "stetson")


def test_robs_a_safe_known_to_hold_gold():
    st = new_state(5, seed=2)
    hero = cards(("colt", "duster"), ("pepperbox", "holster"), ("winchester", "holster"), ("derringer", "horse"))
    put_turn(
        st,
        0,
        hands={0: hero},
        rows={0: [safe("Tin Badge")], 3: [safe("Colt Showdown Gun"), safe("Gold 4")]},
        est=[GEM, GEM, HOTEL, HOTEL, BELLA],
    )
    st.known[0].add(safe("Gold 4"))
    action = choice(st, 0)
    assert isinstance(action, A.Robbery)
    assert (action.owner, action.index) == (3, 1)


def test_uses_a_stetson_early_when_nothing_is_known():
    st = new_state(5, seed=3)
    hero = cards(("pepperbox", "stetson"), ("derringer", "duster"), ("winchester", "holster"), ("messenger", "horse"))
    put_turn(st, 0, hands={0: hero}, est=[GEM, GEM, HOTEL, HOTEL, BELLA])
    assert choice(st, 0) == A.UseStetson(card("pepperbox", "stetson"))


@pytest.mark.parametrize(("heist_safe", "strong"), [("Gold 4", True), ("Tin Badge", False)])
def test_heist_gun_matches_the_prize(heist_safe, strong):
    st = new_state(5, seed=4)
    hero = cards(("pepperbox", "duster"), ("derringer", "duster"), ("winchester", "horse"), ("messenger", "holster"))
    put_turn(st, 4, hands={0: hero}, rows={0: [safe("Gold 1")]}, est=[GEM, GEM, HOTEL, HOTEL, BELLA])
    prize = safe(heist_safe)
    st.rows = [[s for s in row if s != prize] for row in st.rows]
    st.middle = [prize] + [s for s in st.middle if s != prize]
    heist.start_heist(st)
    action = choice(st, 0)
    assert isinstance(action, A.HeistGun)
    messenger = card("messenger", "holster")
    if strong:
        assert action.card == messenger
    else:
        assert action.card == card("pepperbox", "duster")


def test_third_law_gives_away_its_worst_safe_to_an_ally_when_tied():
    st = new_state(5, seed=5)
    hero = cards(("messenger", "duster"), ("pepperbox", "duster"), ("colt", "duster"), ("colt", "stetson"))
    put_turn(
        st,
        0,
        hands={0: hero},
        rows={
            0: [safe("Gold 3"), safe("Gold 4"), safe("Tin Badge")],
            1: [safe("Gold 1")],
            2: [safe("Gold 2")],
            3: [safe("Colt Showdown Gun"), safe("Gold 2#2")],
            4: [safe("Iron Badge"), safe("Copper Badge")],
        },
        est=[GEM, GEM, HOTEL, HOTEL, BELLA],
        rolls=[4, 0],
    )
    st.hands[3] = [card("pepperbox", "horse", exclude=hero)]
    act(st, 0, A.Robbery(hero[0], 3, 1))
    act(st, 3, A.Defend(st.hands[3][0]))
    for seat in st.to_act:
        act(st, seat, A.NoHolster())
    assert st.phase == "give_safe"
    action = choice(st, 0)
    assert action == A.GiveSafe(st.rows[0].index(safe("Tin Badge")), 1)  # seat 1 shares the Gem Theatre


def final_turn(rows: dict[int, list[str]], est: list[int], hero_hand: list[int], seed: int = 6) -> DeadwoodState:
    st = new_state(5, seed=seed)
    put_turn(
        st,
        0,
        hands={0: hero_hand},
        rows={seat: [safe(x) for x in labels] for seat, labels in rows.items()},
        est=est,
        segment=st.table.middle_safes,
    )
    st.known[0].update(safe(x) for labels in rows.values() for x in labels)
    return st


def test_final_turn_rides_into_the_rich_establishment():
    hero = cards(("pepperbox", "horse"), ("derringer", "duster"), ("colt", "stetson"), ("pepperbox", "duster"))
    st = final_turn(
        rows={0: ["Tin Badge"], 1: ["Gold 1"], 2: ["Gold 4", "Gold 3"], 3: ["Iron Badge"], 4: ["Gold 1#2"]},
        est=[GEM, GEM, HOTEL, BELLA, BELLA],
        hero_hand=hero,
    )
    assert st.view(0).final_turns
    assert choice(st, 0) == A.RideHorse(card("pepperbox", "horse"), HOTEL)


def test_final_turn_kicks_a_rival_out_of_its_own_rich_establishment():
    st = new_state(4, seed=6)
    hero = cards(("messenger", "duster"), ("derringer", "duster"), ("colt", "stetson"), ("pepperbox", "duster"))
    rows = {0: ["Gold 4", "Gold 3"], 1: ["Tin Badge"], 2: ["Gold 1"], 3: ["Gold 2"]}
    put_turn(
        st,
        0,
        hands={0: hero, 1: [card("pepperbox", "horse")]},
        rows={seat: [safe(x) for x in labels] for seat, labels in rows.items()},
        est=[GEM, GEM, BELLA, BELLA],
        segment=st.table.middle_safes,
    )
    st.known[0].update(safe(x) for labels in rows.values() for x in labels)
    action = choice(st, 0)
    assert action == A.Duel(card("messenger", "duster"), 1)  # alone with its gold beats sharing it
    st.chance.rolls = [4, 0]  # type: ignore[attr-defined]
    act(st, 0, action)
    act(st, 1, A.Defend(st.legal_actions(1)[0].card))
    for seat in st.to_act:
        act(st, seat, A.NoHolster())
    assert st.phase == "send_away"
    assert choice(st, 0) == A.SendAway(HOTEL)  # the only vacancy


def test_gives_a_holster_to_an_ally_defending_against_a_rival():
    st = new_state(5, seed=7)
    attacker_gun = card("colt", "duster")
    ally_gun = card("colt", "stetson")
    hero = cards(("pepperbox", "holster"), ("derringer", "duster"), ("colt", "stetson"), ("winchester", "duster"))
    hero = [c for c in hero if c not in (attacker_gun, ally_gun)]
    hero = hero[:3] + [card("derringer", "duster", exclude=hero + [attacker_gun])]
    put_turn(
        st,
        2,
        hands={0: hero, 1: [ally_gun], 2: [attacker_gun]},
        rows={1: [safe("Gold 4")], 0: [safe("Tin Badge")]},
        est=[GEM, GEM, HOTEL, HOTEL, BELLA],
    )
    st.known[0].add(safe("Gold 4"))
    act(st, 2, A.Robbery(attacker_gun, 1, 0))
    act(st, 1, A.Defend(ally_gun))
    assert st.phase == "holster"
    assert choice(st, 0) == A.GiveHolster(card("pepperbox", "holster"), 1)


def test_explodes_the_richest_known_safe_of_a_rival_establishment():
    hero = cards(("pepperbox", "duster"), ("derringer", "duster"), ("colt", "stetson"), ("pepperbox", "stetson"))
    rows = {
        0: ["Explosives", "Gold 2"],
        1: ["Gold 1"],
        2: ["Gold 3", "Gold 4"],
        3: ["Gold 1#2"],
        4: ["Tin Badge"],
    }
    st = final_turn(rows, [GEM, GEM, HOTEL, HOTEL, BELLA], hero, seed=8)
    st.options = type(st.options)(mystery_safes=5)
    st.badge = 6
    st.mystery_queue = [safe("Explosives")]
    mystery.next_mystery(st)
    assert st.phase == "explosives"
    assert choice(st, 0) == A.Explode(2, 1)  # the Gold 4 in the Grand Central Hotel


def test_showdown_fires_the_strongest_gun_first():
    hero = cards(("pepperbox", "duster"), ("winchester", "duster"), ("colt", "stetson"), ("messenger", "horse"))
    st = final_turn(rows={0: ["Gold 4"], 1: ["Gold 3"]}, est=[GEM, GEM, HOTEL, HOTEL, BELLA], hero_hand=hero)
    st.badge = 6
    showdown.start_showdown(st)
    assert st.phase == "showdown"
    assert choice(st, 0) == A.FireGun(card("messenger", "horse"))


# ---------------------------------------------------------------------------- strength


def test_beats_random_at_five_players():
    result = measure(5, 300, seed=1000)
    assert result["win_rate"] >= 0.3, result
    assert result["ms_per_decision"] < 5.0


def test_beats_random_at_two_and_nine_players():
    two = measure(2, 200, seed=2000)
    assert two["wins"] > two["losses"] + two["no_winner"], two
    nine = measure(9, 200, seed=3000)
    assert nine["win_rate"] > 0.15, nine
