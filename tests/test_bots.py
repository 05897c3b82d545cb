"""Bots: the random bot, make_bot and play_game."""

from __future__ import annotations

import sys
import types

import pytest

import engine
import replays
from bots import Bot, RandomBot, UnknownBot, make_bot, play_game

GAME = "deadwood1876"


class JunkBot:
    """Answers nonsense."""

    name = "junk"

    def act(self, view, legal_actions, seat):
        return "junk"


class RaisingBot:
    """Crashes on every decision."""

    name = "raising"

    def act(self, view, legal_actions, seat):
        raise RuntimeError("boom")


class NoSeedBot:
    name = "noseed"

    def act(self, view, legal_actions, seat):
        return legal_actions[-1]


class SeededBot(RandomBot):
    name = "seeded"

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seed = seed


@pytest.fixture
def fake_module(monkeypatch):
    module = types.ModuleType("fake_saloon_bots")
    module.NoSeedBot = NoSeedBot  # type: ignore[attr-defined]
    module.SeededBot = SeededBot  # type: ignore[attr-defined]
    module.not_a_bot = 42  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_saloon_bots", module)
    return module


def test_random_bot_is_deterministic_and_uniform_over_legal():
    legal = list(range(7))
    a, b = RandomBot(3), RandomBot(3)
    picks_a = [a.act(None, legal, 0) for _ in range(200)]
    picks_b = [b.act(None, legal, 0) for _ in range(200)]
    assert picks_a == picks_b
    assert set(picks_a) == set(legal)
    assert picks_a != [RandomBot(4).act(None, legal, 0) for _ in range(200)]
    assert isinstance(a, Bot)


def test_make_bot_random():
    bot = make_bot("random", 5)
    assert isinstance(bot, RandomBot)
    assert bot.name == "random"
    reference = RandomBot(5)
    legal = list(range(10))
    assert [bot.act(None, legal, 0) for _ in range(20)] == [reference.act(None, legal, 0) for _ in range(20)]


def test_make_bot_object_path(fake_module):
    seeded = make_bot("fake_saloon_bots:SeededBot", 9)
    assert isinstance(seeded, SeededBot) and seeded.seed == 9
    assert isinstance(make_bot("fake_saloon_bots:NoSeedBot", 9), NoSeedBot)
    assert isinstance(make_bot("bots.base:RandomBot", 1), RandomBot)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nope", "unknown bot 'nope'"),
        ("", "unknown bot"),
        ("cmd:", "bad external bot"),
        ("cmd:python3 'unbalanced", "bad external bot"),
        ("no_such_module_xyz:Bot", "cannot import"),
        ("fake_saloon_bots:Missing", "has no"),
        ("fake_saloon_bots:not_a_bot", "not a class"),
        ("collections:OrderedDict", "no act"),
        (":Bot", "package.module:Class"),
    ],
)
def test_make_bot_errors(fake_module, spec, message):
    with pytest.raises(UnknownBot, match=message):
        make_bot(spec, 0)


def test_make_bot_command_is_an_external_bot():
    from bots.external import ExternalBot

    bot = make_bot("cmd:python3 my_bot.py --fast", 0)
    assert isinstance(bot, ExternalBot)
    assert bot.argv == ["python3", "my_bot.py", "--fast"]
    assert bot.name == "cmd:python3 my_bot.py --fast"


def test_make_bot_heuristic():
    from bots.heuristic import HeuristicBot

    bot = make_bot("heuristic", 5)
    assert isinstance(bot, HeuristicBot)
    assert bot.name == "heuristic"
    result = play_game(GAME, 4, [bot, RandomBot(1), RandomBot(2), RandomBot(3)], seed=3)
    assert result.faults == (0, 0, 0, 0)


def test_unknown_bot_is_a_value_error():
    assert issubclass(UnknownBot, ValueError)


def test_play_game_is_deterministic_and_verifies():
    first = play_game(GAME, 4, [RandomBot(seat) for seat in range(4)], seed=11)
    second = play_game(GAME, 4, [RandomBot(seat) for seat in range(4)], seed=11)
    assert replays.encode(first.replay) == replays.encode(second.replay)
    assert first.faults == (0, 0, 0, 0)
    assert first.fault_log == () == first.replay.faults
    assert first.decisions == len(first.replay.move_pairs())
    assert [p.name for p in first.replay.header.players] == ["random"] * 4
    assert replays.verify(first.replay).outcome == first.outcome


@pytest.mark.parametrize("bad", [JunkBot(), RaisingBot()])
def test_play_game_counts_faults_and_goes_on(bad):
    bots = [bad, RandomBot(1), RandomBot(2), RandomBot(3), RandomBot(4)]
    result = play_game(GAME, 5, bots, seed=2)
    assert result.faults[0] > 0
    assert result.faults[1:] == (0, 0, 0, 0)
    assert len(result.fault_log) == result.faults[0]
    assert all(line.startswith("move ") and ": seat 0: " in line for line in result.fault_log)
    assert result.replay.header.players[0] == replays.Player(bad.name, "bot")
    assert replays.verify(result.replay).outcome == result.outcome
    assert replays.decode(replays.encode(result.replay)).faults == result.fault_log  # the replay's fault log


def test_play_game_checks_its_arguments():
    with pytest.raises(ValueError, match="3 bots"):
        play_game(GAME, 4, [RandomBot(seat) for seat in range(3)], seed=1)
    with pytest.raises(engine.UnknownGame):
        play_game("no_such_game", 4, [RandomBot(seat) for seat in range(4)], seed=1)


def test_play_game_stops_runaway_games():
    with pytest.raises(RuntimeError, match="seed 7"):
        play_game(GAME, 4, [RandomBot(seat) for seat in range(4)], seed=7, max_decisions=5)
