"""The Wyatt Earp heuristic bot: legal everywhere, deterministic, sensible in built positions,
and clearly stronger than random bots."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import replays
from bots import HeuristicBot, RandomBot, play_game
from bots.protocol import decide_message
from bots.wyatt_earp_heuristic import PROLONG_LIMIT, TAKE_LIMIT, WyattEarpStrategy, share
from engine.wyatt_earp import GAME
from engine.wyatt_earp.actions import (
    ChooseTarget,
    DeclinePhoto,
    Discard,
    DrawFromSupply,
    MostWantedAsk,
    MostWantedSteal,
    PlayOutlaws,
    PlayPhoto,
    PlaySheriff,
    TakeTopDiscard,
    WyattEarpRemoveHideout,
)
from engine.wyatt_earp.state import WyattEarpState
from tests.wyatt_earp_helpers import BELLE, BILLY, BUTCH, JESSE, SUNDANCE, WES, act, position

OPTIONS: list[dict[str, Any]] = [
    {},
    {"free_photo": True},
    {"hideout_reward": 0},
    {"free_photo": True, "hideout_reward": 5000},
]


def choice(st: WyattEarpState, seat: int | None = None, seed: int = 0) -> Any:
    """What a fresh heuristic bot chooses for ``seat`` (default: the seat to act), checked legal."""
    seat = st.to_act[0] if seat is None else seat
    legal = st.legal_actions(seat)
    action = HeuristicBot(seed).act(st.view(seat), list(legal), seat)
    assert action in legal
    return action


def decide(st: WyattEarpState, seat: int | None = None) -> Any:
    """Let the heuristic bot choose for ``seat`` and apply its choice; returns it."""
    seat = st.to_act[0] if seat is None else seat
    action = choice(st, seat)
    st.apply(seat, action)
    return action


# ---------------------------------------------------------------------------- legality, determinism


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    options=st.sampled_from(OPTIONS),
    steps=st.integers(0, 400),
)
def test_always_a_legal_action_in_random_positions(seed: int, players: int, options: dict[str, Any], steps: int):
    """From a position reached by random play, the heuristic's choices are legal to the end of the game."""
    game = GAME.new_game(players, seed, options)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    bots = [HeuristicBot(seed + s) for s in range(players)]
    decisions = 0
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        action = bots[seat].act(game.view(seat), list(legal), seat)
        assert action in legal, (game.phase, action)
        game.apply(seat, action)
        decisions += 1
        assert decisions < 20_000, "the game did not end"


def test_whole_games_without_faults_at_every_count_and_option():
    for players in (2, 3, 4):
        for k, options in enumerate(OPTIONS):
            seed = 10 * players + k
            mixed = [HeuristicBot(s) if s % 2 == 0 else RandomBot(s) for s in range(players)]
            for bots in (mixed, [HeuristicBot(seed + s) for s in range(players)]):
                result = play_game("wyatt_earp", players, bots, seed=seed, options=options)
                assert result.faults == (0,) * players, result.fault_log


def test_deterministic_for_a_seed():
    def game(seed: int) -> bytes:
        bots: list[Any] = [HeuristicBot(3), RandomBot(4), HeuristicBot(5)]
        return replays.encode(play_game("wyatt_earp", 3, bots, seed=seed).replay)

    assert game(11) == game(11)


def test_heuristic_dispatches_to_the_wyatt_earp_strategy():
    bot = HeuristicBot(1)
    st = position(2, 0, hands={0: ["jesse", "wes"]})
    bot.act(st.view(0), st.legal_actions(0), 0)
    assert isinstance(bot._strategies["wyatt_earp"], WyattEarpStrategy)


def test_share_follows_the_rulebook_examples():
    assert share([11, 6, 2], 9000) == [9000, 0, 0]
    assert share([9, 5, 4], 8000) == [5000, 3000, 0]
    assert share([4, 4, 2], 3000) == [0, 0, 0]
    assert share([4, 4, 2], 6000) == [2000, 2000, 1000]


# ---------------------------------------------------------------------------- draw


def test_takes_the_top_discard_that_completes_a_set():
    st = position(2, 0, hands={0: ["jesse", "jesse", "wes", "belle", "bob", "bank_robbery"]}, discard=["jesse"])
    assert choice(st) == TakeTopDiscard()


def test_takes_the_top_discard_that_extends_its_group():
    st = position(
        3,
        0,
        hands={0: ["wes", "belle", "bob", "sundance"]},
        territories={0: {"jesse": ["jesse", "jesse", "jesse"]}, 1: {"jesse": ["jesse"]}},
        posters={"jesse": 6000},
        discard=["jesse"],
    )
    assert choice(st) == TakeTopDiscard()  # 8 CP against 2: the whole reward


def test_draws_two_when_the_top_discard_is_of_no_use():
    st = position(2, 0, hands={0: ["jesse", "jesse", "wes", "wes", "belle", "bank_robbery"]}, discard=["sundance"])
    assert choice(st) == DrawFromSupply()


# ---------------------------------------------------------------------------- play


def test_melds_a_set_at_once_then_plays_the_photo_on_it():
    st = position(
        2,
        0,
        hands={0: ["billy", "billy", "billy", "billy", "photo:billy", "wes", "belle"]},
        posters={"billy": 3000},
        phase="play",
    )
    assert decide(st) == PlayOutlaws(BILLY, 4)
    assert decide(st) == PlayPhoto(BILLY)
    assert isinstance(decide(st), Discard)


def test_adds_cards_to_take_the_lead_on_a_rich_poster():
    st = position(
        3,
        0,
        hands={0: ["butch", "butch", "wes", "belle", "bob"]},
        territories={0: {"butch": ["butch", "butch"]}, 1: {"butch": ["butch", "butch", "butch"]}},
        posters={"butch": 9000},
        phase="play",
    )
    assert choice(st) == PlayOutlaws(BUTCH, 2)


def test_asks_for_the_card_before_melding_the_outlaw():
    """Most Wanted! first: four Jesse James cards in one batch pay $1,000 more than 3 + 1."""
    st = position(
        3,
        0,
        hands={0: ["jesse", "jesse", "jesse", "most_wanted", "wes", "belle"], 1: ["jesse", "bob", "bob"]},
        phase="play",
    )
    st.known.add(st.hands[1][0])  # everyone saw seat 1 take that Jesse James card
    assert decide(st) == MostWantedAsk(JESSE, True)
    assert decide(st) == PlayOutlaws(JESSE, 4)


def test_wyatt_earp_frees_its_best_group_from_a_hideout():
    st = position(
        2,
        0,
        hands={0: ["wyatt_earp", "wes", "belle"]},
        territories={0: {"sundance": ["sundance"] * 4 + ["photo:sundance"]}, 1: {"sundance": ["sundance"] * 2}},
        hideouts=[(0, "sundance")],
        posters={"sundance": 10000},
        supply=["billy"],
        phase="play",
    )
    assert decide(st) == WyattEarpRemoveHideout()
    assert decide(st) == ChooseTarget(0, SUNDANCE)


def test_hideout_covers_the_group_that_costs_it_most():
    st = position(
        3,
        0,
        hands={0: ["hideout", "wes", "sundance"]},
        territories={
            0: {"belle": ["belle", "belle"]},
            1: {"belle": ["belle", "belle", "belle", "stagecoach_robbery"], "bob": ["bob", "bob", "bob"]},
            2: {"jesse": ["jesse", "jesse", "jesse"]},
        },
        posters={"belle": 12000, "bob": 2000, "jesse": 3000},
        supply=["billy"],  # the shot hits
        phase="play",
    )
    assert decide(st) == PlaySheriff("hideout")
    assert decide(st) == ChooseTarget(1, BELLE)


def test_answers_a_hideout_on_its_big_group_with_wyatt_earp():
    st = position(
        2,
        0,
        hands={0: ["hideout", "wes", "belle"], 1: ["wyatt_earp", "bob", "bob"]},
        territories={1: {"jesse": ["jesse"] * 4 + ["photo:jesse"]}},
        posters={"jesse": 9000},
        supply=["billy", "sundance"],
        phase="play",
    )
    act(st, 0, PlaySheriff("hideout"))
    act(st, 0, ChooseTarget(1, JESSE))
    assert choice(st, 1) == WyattEarpRemoveHideout()


def test_takes_the_free_photo_when_someone_else_melds():
    st = position(
        2,
        1,
        hands={0: ["photo:billy", "billy", "billy", "wes"], 1: ["billy", "billy", "billy", "bob"]},
        options={"free_photo": True},
        phase="play",
    )
    act(st, 1, PlayOutlaws(BILLY, 3))
    assert st.phase == "free_photo" and choice(st, 0) == PlayPhoto(BILLY)  # 4 CP now, 4 more to come


def test_declines_a_free_photo_that_only_helps_the_leader_capture():
    """Two players: the Photo alone (4 CP against 6) would capture Billy the Kid, seat 1 taking more."""
    st = position(
        2,
        1,
        hands={0: ["photo:billy", "wes", "belle"], 1: ["billy", "billy", "billy", "bob"]},
        options={"free_photo": True},
        phase="play",
    )
    act(st, 1, PlayOutlaws(BILLY, 3))
    assert choice(st, 0) == DeclinePhoto()


def test_most_wanted_steals_the_card_that_swings_a_poster():
    st = position(
        2,
        0,
        hands={0: ["most_wanted", "belle", "bob"]},
        territories={
            0: {"jesse": ["jesse"] * 3},
            1: {"jesse": ["jesse"] * 4, "wes": ["wes"] * 3},
        },
        posters={"jesse": 10000, "wes": 2000},
        supply=["billy"],
        phase="play",
    )
    assert decide(st) == MostWantedSteal()
    assert decide(st) == ChooseTarget(1, JESSE)
    assert decide(st) == PlayOutlaws(JESSE, 1)  # now 8 CP against 6


def test_a_robbery_goes_on_the_poster_it_takes():
    st = position(
        2,
        0,
        hands={0: ["stagecoach_robbery", "belle", "bob"]},
        territories={
            0: {"jesse": ["jesse"] * 4, "wes": ["wes"] * 3},
            1: {"jesse": ["jesse"], "wes": ["wes"] * 4 + ["photo:wes"]},
        },
        posters={"jesse": 6000, "wes": 6000},
        supply=["billy"],
        phase="play",
    )
    assert decide(st) == PlaySheriff("stagecoach_robbery")
    assert decide(st) == ChooseTarget(0, JESSE)


# ---------------------------------------------------------------------------- discard and hand end


def test_never_discards_the_card_that_gives_the_next_player_a_set():
    st = position(
        3,
        0,
        hands={0: ["belle", "bob", "jesse", "jesse", "jesse", "wes", "wes"], 1: ["belle", "belle", "sundance"]},
        territories={0: {"jesse": ["jesse"] * 3}},
        phase="play",
    )
    st.known.update(st.hands[1][:2])  # seat 1 took both Belle Starr cards from the discard stack
    for _ in range(3):
        action = decide(st, 0)
        if isinstance(action, Discard):
            break
    assert action != Discard("outlaw", BELLE)


def test_goes_out_when_the_table_pays_it():
    """Two cards left and the table pays it the whole Wes Hardin poster: play one, discard the last."""
    st = position(
        2,
        0,
        hands={0: ["wes", "belle"], 1: ["jesse"] * 3 + ["bob"] * 3 + ["butch"] * 3},
        territories={0: {"wes": ["wes"] * 4}, 1: {"wes": ["wes"]}},
        posters={"wes": 12000},
        phase="play",
    )
    assert decide(st) == PlayOutlaws(WES, 1)
    decide(st)
    assert st.hand_no == 2 and st.money[0] == 12000


def test_prolongs_a_finished_supply_only_to_play_the_card():
    useful = position(
        2,
        0,
        hands={0: ["wes", "belle"]},
        territories={0: {"wes": ["wes"] * 3}, 1: {"wes": ["wes"] * 2}},
        posters={"wes": 8000},
        discard=["wes"],
        reshuffled=True,
    )
    useful.supply = useful.supply[:1]  # the supply runs out a second time on the next draw
    assert choice(useful) == TakeTopDiscard()
    useless = position(2, 0, hands={0: ["wes", "belle"]}, discard=["sundance"], reshuffled=True)
    useless.supply = useless.supply[:1]
    assert choice(useless) == DrawFromSupply()


def test_takes_one_card_from_the_discard_stack_a_few_times_a_hand_at_most():
    st = position(2, 0, hands={0: ["jesse", "jesse", "wes", "belle", "bob"]}, discard=["jesse"])
    strategy = WyattEarpStrategy(0)
    view, legal = st.view(0), st.legal_actions(0)
    picks = [strategy.choose(view, legal, 0) for _ in range(TAKE_LIMIT + 1)]
    assert picks == [TakeTopDiscard()] * TAKE_LIMIT + [DrawFromSupply()]
    assert PROLONG_LIMIT >= 1


# ---------------------------------------------------------------------------- the protocol doc


def test_the_bot_protocol_doc_shows_a_real_wyatt_earp_decision():
    """docs/bot-protocol.md's example is the decide message of seed 6 after these four moves, and
    the heuristic bot's answer there is the one the doc gives."""
    game = GAME.new_game(2, 6)
    for seat, action in [
        (1, DrawFromSupply()),
        (1, Discard("photo", BELLE)),
        (0, DrawFromSupply()),
        (0, PlayOutlaws(BUTCH, 3)),
    ]:
        act(game, seat, action)
    legal = game.legal_actions(0)
    sent = json.loads(decide_message(0, game.view(0), legal, 1000))
    doc = (Path(__file__).resolve().parent.parent / "docs" / "bot-protocol.md").read_text()
    shown = doc.split("### A Wyatt Earp decision", 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    assert json.loads(shown) == sent
    assert legal.index(choice(game, 0)) == 0  # the doc: the heuristic answers {"action":0}


# ---------------------------------------------------------------------------- strength


def test_beats_random_bots_clearly():
    """100 two-player games against a random bot, the heuristic's seat alternating (fixed seeds)."""
    wins = 0
    for seed in range(100):
        seat = seed % 2
        bots: list[Any] = [RandomBot(seed), RandomBot(seed)]
        bots[seat] = HeuristicBot(seed)
        result = play_game("wyatt_earp", 2, bots, seed=5000 + seed)
        wins += seat in result.outcome.winners
    assert wins == 100
