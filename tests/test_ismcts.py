"""The ``ismcts`` bot: determinism, legality, budgets, options and the runner's sampler hook."""

from __future__ import annotations

import random
import time

import pytest

import engine
import replays
from bots import IsmctsBot, RandomBot, UnknownBot, make_bot, play_game
from bots.heuristic import HeuristicBot
from bots.ismcts import DEFAULT_C, DEFAULT_ITERATIONS, DEFAULT_PRIOR, rank_rewards
from engine.core import Chance
from engine.deadwood1876.state import DeadwoodState

GAME = "deadwood1876"


def _stand_in_resample(self: DeadwoodState, seat: int, seed: int) -> DeadwoodState:
    """A stand-in until ``DeadwoodState.resample`` lands: a clone whose future chance is reseeded.

    It redraws no hidden cards (so it leaks them); it only gives the search varied futures.
    """
    other = self.clone()
    other.chance = Chance(seed)
    return other


@pytest.fixture(autouse=True)
def resample(monkeypatch):
    """Use the engine's ``resample`` when it exists, else the stand-in."""
    if not hasattr(DeadwoodState, "resample"):
        monkeypatch.setattr(DeadwoodState, "resample", _stand_in_resample, raising=False)


def _position(players: int, seed: int, moves: int) -> DeadwoodState:
    """A game after ``moves`` random decisions (fewer if it ends first, never over)."""
    state = engine.game(GAME).new_game(players, seed)
    choose = random.Random(seed)
    for _ in range(moves):
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        trial = state.clone()
        trial.apply(seat, legal[choose.randrange(len(legal))])
        if trial.is_over:
            break
        state = trial
    return state


def _decide(bot: IsmctsBot, state: DeadwoodState, seat: int):
    legal = state.legal_actions(seat)
    return bot.act_with_sampler(state.view(seat), legal, seat, lambda seed: state.resample(seat, seed))


def _a_real_choice(players: int, seed: int) -> tuple[DeadwoodState, int]:
    """A position on someone's turn with several legal actions."""
    for moves in range(12, 60):
        state = _position(players, seed, moves)
        seat = state.to_act[0]
        if len(state.to_act) == 1 and len(state.legal_actions(seat)) > 2:
            return state, seat
    raise AssertionError("no position with a real choice")


def test_deterministic_with_a_seed_and_an_iteration_budget():
    state, seat = _a_real_choice(3, seed=5)
    digest = state.digest()
    choices = []
    for _ in range(2):
        bot = make_bot("ismcts:iterations=60", 17)
        choices.append([_decide(bot, state, seat) for _ in range(3)])
        assert bot.last_iterations == 60
    assert choices[0] == choices[1]
    assert state.digest() == digest  # searching never touches the live state


def test_always_returns_one_of_the_legal_actions():
    bot = IsmctsBot(seed=3, iterations=15)
    for players in (2, 5):
        for moves in (0, 5, 20, 40, 80):
            state = _position(players, seed=players + moves, moves=moves)
            for seat in state.to_act:  # includes the simultaneous Safe passing at move 0
                legal = state.legal_actions(seat)
                action = _decide(bot, state, seat)
                assert any(action is candidate for candidate in legal)


def test_simultaneous_choices_are_decided_at_one_node():
    state = engine.game(GAME).new_game(4, 2)
    assert len(state.to_act) == 4  # every seat passes a Safe at once
    bot = IsmctsBot(seed=1, iterations=40)
    seat = 2
    original = IsmctsBot._iterate
    roots = []

    def spy(self, root, *args):
        roots.append(root)
        return original(self, root, *args)

    IsmctsBot._iterate = spy  # type: ignore[method-assign]
    try:
        action = _decide(bot, state, seat)
    finally:
        IsmctsBot._iterate = original  # type: ignore[method-assign]
    assert action in state.legal_actions(seat)
    root = roots[0]
    assert {edge_seat for edge_seat, _ in root.edges} == {0, 1, 2, 3}  # every owed seat chose at the root
    assert all(len(move) == 4 for move in root.children)  # children are keyed by the joint choice


@pytest.mark.parametrize("players", [2, 4])
def test_a_full_game_against_random_bots(players):
    bot = make_bot("ismcts:iterations=30", 1)
    bots = [bot] + [RandomBot(seat) for seat in range(1, players)]
    result = play_game(GAME, players, bots, seed=players)
    assert result.faults == (0,) * players
    assert bot.fallbacks == 0 and bot.iterations_total > 0
    assert result.replay.header.players[0] == replays.Player("ismcts:iterations=30", "bot")
    assert replays.verify(result.replay).outcome == result.outcome


def test_heuristic_rollouts_and_a_rollout_cutoff():
    state, seat = _a_real_choice(3, seed=8)
    for spec in ("ismcts:iterations=8,rollout=heuristic", "ismcts:iterations=8:depth=1"):
        bot = make_bot(spec, 2)
        assert _decide(bot, state, seat) in state.legal_actions(seat)


def test_a_time_budget_stops_the_search():
    state, seat = _a_real_choice(2, seed=4)
    bot = make_bot("ismcts:ms=1", 1)
    started = time.perf_counter()
    assert _decide(bot, state, seat) in state.legal_actions(seat)
    assert bot.last_iterations >= 1
    assert time.perf_counter() - started < 10  # very generous: only "it stops"


def test_both_budgets_stop_at_the_first_reached():
    state, seat = _a_real_choice(2, seed=4)
    bot = make_bot("ismcts:iterations=3,ms=60000", 1)
    _decide(bot, state, seat)
    assert bot.last_iterations == 3


def test_one_legal_action_needs_no_search():
    def sample(seed):
        raise AssertionError("no search expected")

    bot = IsmctsBot(seed=1, iterations=10)
    assert bot.act_with_sampler(None, ["only"], 0, sample) == "only"
    assert bot.last_iterations == 0


def test_act_without_a_sampler_plays_a_counted_random_legal_move():
    state, seat = _a_real_choice(2, seed=6)
    legal = state.legal_actions(seat)
    bot = IsmctsBot(seed=1, iterations=10)
    assert bot.act(state.view(seat), legal, seat) in legal
    assert bot.fallbacks == 1 and bot.iterations_total == 0


def test_play_game_hands_search_bots_a_sampler_for_their_own_seat():
    calls = []

    class Probe(RandomBot):
        name = "probe"

        def act(self, view, legal_actions, seat):
            raise AssertionError("play_game should call act_with_sampler")

        def act_with_sampler(self, view, legal_actions, seat, sample):
            first, second = sample(1), sample(1)
            assert first is not second  # each call a new state the bot owns
            assert first.to_act == second.to_act and seat in first.to_act
            assert first.legal_actions(seat) == legal_actions
            assert first.view(seat) == view
            calls.append(seat)
            return super().act(view, legal_actions, seat)

    result = play_game(GAME, 3, [Probe(0), RandomBot(1), Probe(2)], seed=9)
    assert result.faults == (0, 0, 0)
    assert set(calls) == {0, 2}


@pytest.mark.parametrize(
    ("spec", "name", "attributes"),
    [
        ("ismcts", "ismcts", {"iterations": DEFAULT_ITERATIONS, "ms": None, "c": DEFAULT_C, "prior": DEFAULT_PRIOR}),
        ("ismcts:prior=0", "ismcts:prior=0.0", {"prior": 0.0}),
        ("ismcts:iterations=50:prior=1.5", "ismcts:iterations=50,prior=1.5", {"iterations": 50, "prior": 1.5}),
        ("ismcts:iterations=2000", "ismcts:iterations=2000", {"iterations": 2000, "ms": None}),
        ("ismcts:ms=100", "ismcts:ms=100", {"iterations": None, "ms": 100}),
        ("ismcts:ms=2.5", "ismcts:ms=2.5", {"ms": 2.5}),
        ("ismcts:iterations=500,c=1.0", "ismcts:iterations=500,c=1.0", {"iterations": 500, "c": 1.0}),
        ("ismcts:iterations=500:c=1.0", "ismcts:iterations=500,c=1.0", {"iterations": 500, "c": 1.0}),
        (" ismcts: rollout = heuristic , depth=50 ", "ismcts:rollout=heuristic,depth=50", {"depth": 50}),
        ("ismcts:depth=0:cutoff=heuristic", "ismcts:depth=0,cutoff=heuristic", {"depth": 0, "cutoff": "heuristic"}),
        ("ismcts:cutoff=draw", "ismcts", {"cutoff": "draw"}),
    ],
)
def test_options_from_the_bot_name(spec, name, attributes):
    bot = make_bot(spec, 0)
    assert isinstance(bot, IsmctsBot)
    assert bot.name == name
    for key, value in attributes.items():
        assert getattr(bot, key) == value
    assert make_bot(bot.name, 0).name == bot.name  # the name reads back


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:", "expected key=value"),
        ("ismcts:iterations", "expected key=value"),
        ("ismcts:=5", "expected key=value"),
        ("ismcts:iterations=5,iterations=6", "given twice"),
        ("ismcts:speed=fast", "unknown option 'speed'"),
        ("ismcts:iterations=lots", "bad value 'lots' for iterations"),
        ("ismcts:iterations=0", "iterations must be an int >= 1"),
        ("ismcts:ms=0", "ms must be a number > 0"),
        ("ismcts:ms=inf", "ms must be a number > 0"),
        ("ismcts:c=-1", "c must be a number >= 0"),
        ("ismcts:c=nan", "c must be a number >= 0"),
        ("ismcts:rollout=smart", "rollout must be one of random, heuristic"),
        ("ismcts:depth=-1", "depth must be an int >= 0"),
        ("ismcts:cutoff=guess", "cutoff must be one of draw, heuristic"),
        ("ismcts:prior=-0.5", "prior must be a number >= 0"),
        ("ismcts:prior=inf", "prior must be a number >= 0"),
        ("ismcts:prior=much", "bad value 'much' for prior"),
        ("random:iterations=5", "takes no options"),
        ("heuristic:c=1", "takes no options"),
    ],
)
def test_bad_options_are_unknown_bots(spec, message):
    with pytest.raises(UnknownBot, match=message):
        make_bot(spec, 0)


def test_rank_rewards():
    assert rank_rewards((1, 2)) == [1.0, 0.0]
    assert rank_rewards((1, 1)) == [0.5, 0.5]
    assert rank_rewards((2, 3, 3, 1, 3)) == [0.75, 0.25, 0.25, 1.0, 0.25]
    assert rank_rewards((1,)) == [1.0]
    assert sum(rank_rewards((1, 2, 2, 4, 4, 4))) == pytest.approx(3.0)


@pytest.mark.parametrize("players", [2, 5])
def test_the_heuristic_choice_is_expanded_first(players):
    """With a prior, the first iteration tries the heuristic bot's choice: one iteration plays it."""
    for seed in range(4):
        state, seat = _a_real_choice(players, seed=seed)
        legal = state.legal_actions(seat)
        expected = HeuristicBot(seed).act(state.view(seat), legal, seat)
        assert _decide(IsmctsBot(seed=seed, iterations=1), state, seat) == expected
        bot = IsmctsBot(seed=seed, iterations=1, prior=0)
        _decide(bot, state, seat)
        assert bot._heuristic is None  # no prior: the heuristic is never asked


def test_a_large_prior_keeps_the_heuristic_choice():
    for seed in range(3):
        state, seat = _a_real_choice(3, seed=seed)
        legal = state.legal_actions(seat)
        expected = HeuristicBot(seed).act(state.view(seat), legal, seat)
        assert _decide(IsmctsBot(seed=seed, iterations=40, prior=1e6), state, seat) == expected


def test_ties_in_visits_go_to_the_heuristic_choice():
    """With fewer iterations than legal actions every tried action has one visit: the heuristic's
    choice (tried first) wins the tie, whatever the single rollouts said."""
    for seed in range(4):
        state, seat = _a_real_choice(2, seed=seed)
        legal = state.legal_actions(seat)
        expected = HeuristicBot(seed).act(state.view(seat), legal, seat)
        bot = IsmctsBot(seed=seed, iterations=len(legal) - 1)
        assert _decide(bot, state, seat) == expected


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_cut_off_rollout_is_scored_by_the_heuristic_estimate(players):
    """``cutoff=heuristic``: each seat's win chance from its own view (the heuristic's
    ``estimate``), and a seat's reward is its mean ``w_i / (w_i + w_j)`` over the other seats."""
    state, seat = _a_real_choice(players, seed=players)
    bot = IsmctsBot(seed=1, iterations=5, depth=0, cutoff="heuristic")
    _decide(bot, state, seat)  # learns the number of seats from the view
    chances = [HeuristicBot(0).estimate(state.view(s), s) for s in range(players)]
    assert all(0.0 <= w <= 1.0 for w in chances) and len(set(chances)) > 1
    expected = [
        sum(wi / (wi + wj) if wi + wj else 0.5 for j, wj in enumerate(chances) if j != i) / (players - 1)
        for i, wi in enumerate(chances)
    ]
    rewards = bot._cutoff_rewards(state)
    assert rewards == pytest.approx(expected)
    assert sum(rewards) == pytest.approx(players / 2)  # like rank rewards: n / 2 in all
    assert IsmctsBot(seed=1, iterations=5, depth=0)._cutoff_rewards(state) is None  # cutoff=draw


def test_a_cut_off_rollout_is_a_draw_when_the_heuristic_has_no_estimate(monkeypatch):
    state, seat = _a_real_choice(2, seed=3)
    monkeypatch.setattr(HeuristicBot, "estimate", lambda self, view, seat: None)
    bot = IsmctsBot(seed=1, iterations=5, depth=0, cutoff="heuristic")
    assert _decide(bot, state, seat) in state.legal_actions(seat)
    assert bot._cutoff_rewards(state) is None
