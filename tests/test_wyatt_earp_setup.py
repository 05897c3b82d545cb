"""Wyatt Earp: components, new games and the deal (rulebook: Components, Setup; End of the Game's
"another hand": dealer rotation and the poster refill)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import InvalidOptions
from engine.wyatt_earp import GAME, Options
from engine.wyatt_earp.components import OUTLAW, components
from engine.wyatt_earp.events import CardsDealt, FirstDiscard, HandStarted, TurnStarted
from engine.wyatt_earp.rules import setup
from engine.wyatt_earp.state import WyattEarpState
from tests.wyatt_earp_helpers import BELLE, BILLY, ScriptedChance, act, events_of, position

COMP = components()


@pytest.mark.rule("wyatt_earp", "components.cards")
def test_components_match_the_rulebook() -> None:
    assert COMP.num_cards == 78
    assert Counter(COMP.card_type) == {
        "outlaw": 49,
        "photo": 7,
        "stagecoach_robbery": 2,
        "bank_robbery": 4,
        "fastest_gun": 3,
        "most_wanted": 3,
        "hideout": 3,
        "wyatt_earp": 7,
    }
    assert COMP.outlaw_names == (
        "Billy the Kid",
        "Jesse James",
        "Wes Hardin",
        "Belle Starr",
        "Bob Dalton",
        "Butch Cassidy",
        "Sundance Kid",
    )
    for c in range(78):
        assert COMP.card_bullet_hole[c] == (COMP.card_type[c] == OUTLAW)
        if COMP.card_type[c] == OUTLAW:
            assert COMP.card_cp[c] == 2
    assert sum(COMP.card_cp) == 145
    cp = {t: COMP.card_cp[c] for c, t in enumerate(COMP.card_type)}
    assert cp == {
        "outlaw": 2,
        "photo": 4,
        "stagecoach_robbery": 1,
        "bank_robbery": 2,
        "fastest_gun": 3,
        "most_wanted": 0,
        "hideout": 0,
        "wyatt_earp": 0,
    }
    reward = {t: COMP.card_reward[c] for c, t in enumerate(COMP.card_type)}
    assert reward["photo"] == 1000 and reward["stagecoach_robbery"] == 3000
    assert reward["bank_robbery"] == 1000 and reward["fastest_gun"] == 1000
    assert COMP.hand_size == 10 and COMP.target_money == 25000 and COMP.first_set_min == 3


@pytest.mark.rule("wyatt_earp", "hideout.reward")
def test_hideout_reward_option_defaults_to_the_data() -> None:
    assert Options().hideout_reward == COMP.hideout_reward == 1000
    assert Options().free_photo is False


def test_game_identity() -> None:
    assert (GAME.id, GAME.title, GAME.min_players, GAME.max_players) == ("wyatt_earp", "Wyatt Earp", 2, 4)
    assert GAME.rules_version.startswith("wyatt_earp/")
    assert "Sheriff" in GAME.rules_help()


@pytest.mark.parametrize("players", [1, 5, 0, -1])
@pytest.mark.rule("wyatt_earp", "cover.players")
def test_player_count_out_of_range(players: int) -> None:
    with pytest.raises(ValueError):
        GAME.new_game(players, 1)


@pytest.mark.parametrize("players", [2.0, True, "3"])
def test_player_count_must_be_an_int(players: object) -> None:
    with pytest.raises(ValueError):
        GAME.new_game(players, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, True])
def test_bad_seed(seed: object) -> None:
    with pytest.raises(ValueError):
        GAME.new_game(3, seed)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options",
    [{"nope": True}, {"hideout_reward": 500}, {"hideout_reward": 6000}, {"hideout_reward": -1000}, {"free_photo": 1}],
)
def test_bad_options(options: dict[str, object]) -> None:
    with pytest.raises(InvalidOptions):
        GAME.new_game(3, 1, options)


def test_options_from_strings() -> None:
    st = GAME.new_game(3, 1, {"hideout_reward": "2000", "free_photo": "true"})
    assert st.options == Options(hideout_reward=2000, free_photo=True)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.rule("wyatt_earp", "setup.deal")
@pytest.mark.rule("wyatt_earp", "setup.posters")
def test_set_up_deals_ten_each_and_turns_up_the_first_discard(players: int) -> None:
    st = GAME.new_game(players, 5)
    assert all(len(h) == 10 for h in st.hands)
    assert len(st.discard) == 1
    assert len(st.supply) == 78 - 10 * players - 1
    assert sorted([c for h in st.hands for c in h] + st.supply + st.discard) == list(range(78))
    assert st.posters == [1000] * 7
    assert st.money == [0] * players
    assert st.starter == (st.dealer + 1) % players
    assert st.to_act == (st.starter,) and st.phase == "draw"
    started = events_of(st, HandStarted)
    assert started == [HandStarted(1, st.dealer, st.starter, (1000,) * 7)]
    assert events_of(st, FirstDiscard)[0].card.id == st.discard[-1]
    assert events_of(st, TurnStarted) == [TurnStarted(st.starter)]


@pytest.mark.rule("wyatt_earp", "setup.first-dealer")
@pytest.mark.rule("wyatt_earp", "play.turn-order")
def test_deal_is_one_card_at_a_time_from_the_left_of_the_dealer() -> None:
    st = WyattEarpState(GAME, Options(), 3, 0)
    st.chance = ScriptedChance([1])  # type: ignore[assignment]  # the dealer: seat 1
    setup.start_hand(st)
    assert st.dealer == 1 and st.starter == 2
    deck = list(range(78))  # not shuffled: the top card is 77
    # seat 2 (left of the dealer) gets 77, seat 0 gets 76, seat 1 (the dealer) 75, seat 2 74, ...
    assert st.hands[2][:2] == [77, 74]
    assert st.hands[0][:2] == [76, 73]
    assert st.hands[1][:2] == [75, 72]
    assert st.discard == [deck[78 - 31]]
    assert st.supply == deck[: 78 - 31]


@pytest.mark.rule("wyatt_earp", "setup.deal")
def test_dealt_cards_are_private() -> None:
    st = GAME.new_game(3, 2)
    for seat in range(3):
        mine = [e for e in events_of(st, CardsDealt, seat) if e.seat == seat]
        assert [c.id for c in mine[0].cards] == st.hands[seat]
        others = [e for e in events_of(st, CardsDealt, seat) if e.seat != seat]
        assert all(e.cards is None and e.count == 10 for e in others)
    assert all(e.cards is None for e in events_of(st, CardsDealt, None))


@pytest.mark.rule("wyatt_earp", "next-hand.deal")
@pytest.mark.rule("wyatt_earp", "setup.posters")
def test_next_hand_dealer_is_the_last_starter_and_posters_grow() -> None:
    # seat 1 discards its last card: the hand ends; nobody reaches 8 CP, so rewards stay
    st = position(3, 1, hands={1: ["billy"]}, phase="play", posters={BILLY: 4000, BELLE: 0})
    st.dealer, st.starter = 0, 1
    before = list(st.posters)
    from engine.wyatt_earp.rules.game_play import DISCARD

    act(st, 1, DISCARD[BILLY])
    assert st.hand_no == 2
    assert st.dealer == 1 and st.starter == 2
    assert st.to_act == (2,) and st.phase == "draw"
    assert st.posters == [r + 1000 for r in before]
    assert all(len(h) == 10 for h in st.hands)
    assert st.terr == [[[] for _ in range(7)] for _ in range(3)]
