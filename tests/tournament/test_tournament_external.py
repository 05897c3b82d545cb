"""External bots: processes speaking the JSON-lines protocol, with deadlines and faults."""

from __future__ import annotations

import os
import time

import pytest
from conftest import NODE, PYTHON, STARTER_JS, STARTER_PY, TEST_BOTS, needs_node

from bots import make_bot, play_game
from bots.external import BotFault, ExternalBot
from saloon.cli import main

GAME = "deadwood1876"


def _game(bot, seed=5, players=3):
    others = [make_bot("random", seat) for seat in range(1, players)]
    return play_game(GAME, players, [bot, *others], seed)


def test_python_starter_bot_plays_a_whole_game_without_faults():
    result = _game(ExternalBot([PYTHON, str(STARTER_PY)]))
    assert result.faults == (0, 0, 0)
    # Deterministic: the same game again gives the same moves.
    again = _game(ExternalBot([PYTHON, str(STARTER_PY)]))
    assert again.replay.moves == result.replay.moves


@needs_node
def test_node_starter_bot_plays_a_whole_game_without_faults():
    result = _game(ExternalBot([NODE, str(STARTER_JS)]))
    assert result.faults == (0, 0, 0)


def test_make_bot_cmd_plays(tmp_path):
    bot = make_bot(f"cmd:{PYTHON} {STARTER_PY}", 0)
    assert _game(bot).faults[0] == 0


def _faulty(name, *args, **limits):
    limits.setdefault("decision_timeout_s", 0.3)
    limits.setdefault("startup_timeout_s", 2.0)
    return ExternalBot([PYTHON, str(TEST_BOTS / f"{name}.py"), *args], **limits)


def test_crashing_bot_gets_faults_and_the_game_goes_on():
    result = _game(_faulty("crashing_bot"))
    assert result.outcome is not None and result.faults[0] > 3 and result.faults[1:] == (0, 0)
    assert "crashed: the process exited with code 3" in result.fault_log[0]
    assert any("disabled: faulted after 2 restarts" in line for line in result.fault_log)


def test_hanging_bot_times_out_and_the_game_goes_on():
    started = time.monotonic()
    result = _game(_faulty("hanging_bot"))
    assert result.faults[0] > 3 and result.faults[1:] == (0, 0)
    assert "timed out: no reply within 0.3s" in result.fault_log[0]
    # At most three deadlines (the first process and two restarts), then disabled.
    assert time.monotonic() - started < 5


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("prose", "bad reply 'hello there'"),
        ("range", "out of range"),
        ("float", "Expected `int`, got `float`"),
        ("huge", "too long"),
        ("key", "missing required field `action`"),
    ],
)
def test_garbage_bot_gets_faults_and_the_game_goes_on(kind, reason):
    result = _game(_faulty("garbage_bot", kind))
    assert result.faults[0] > 3 and result.faults[1:] == (0, 0)
    assert reason in result.fault_log[0]


def test_memory_limit_stops_a_greedy_bot():
    result = _game(_faulty("memory_bot", memory_limit_mb=256))
    assert result.faults[0] > 0 and "crashed" in result.fault_log[0]


def test_missing_program_is_a_fault_not_an_error():
    bot = ExternalBot(["/nonexistent/saloon-bot"])
    result = _game(bot)
    assert result.faults[0] > 0 and "cannot start" in result.fault_log[0]


def test_act_without_start_spawns_lazily_and_close_kills():
    bot = ExternalBot([PYTHON, str(TEST_BOTS / "hanging_bot.py")], decision_timeout_s=0.2)
    assert bot.act({}, ["a", "b"], 0) == "a"  # the hanging bot answers its first decision with 0
    process = bot._process
    assert process is not None and process.poll() is None
    bot.close()
    assert process.poll() is not None
    with pytest.raises(BotFault, match="timed out"):
        bot.act({}, ["a"], 0) and bot.act({}, ["a"], 0)


def test_two_lines_for_one_decision_are_a_fault(tmp_path):
    chatty = tmp_path / "chatty.py"
    chatty.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'decide':\n"
        "        reply = json.dumps({'action': 0}) + '\\n'\n"
        "        sys.stdout.write(reply + reply)  # one write: both lines arrive together\n"
        "        sys.stdout.flush()\n"
    )
    bot = ExternalBot([PYTHON, str(chatty)], decision_timeout_s=0.5)
    with pytest.raises(BotFault, match="more than one line in reply to one decision"):
        bot.act({}, ["a", "b"], 0)
    bot.close()


def test_output_out_of_turn_is_a_fault(tmp_path):
    late = tmp_path / "late.py"
    late.write_text(
        "import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'decide':\n"
        "        print(json.dumps({'action': 0}), flush=True)\n"
        "        time.sleep(0.05)\n"
        "        print(json.dumps({'action': 1}), flush=True)\n"
    )
    bot = ExternalBot([PYTHON, str(late)], decision_timeout_s=0.5)
    assert bot.act({}, ["a", "b"], 0) == "a"
    deadline = time.monotonic() + 2
    while not bot._readable_now() and time.monotonic() < deadline:  # the second line is out of turn
        time.sleep(0.01)
    with pytest.raises(BotFault, match="wrote output when no decision was asked"):
        bot.act({}, ["a", "b"], 0)
    bot.close()


def test_stderr_goes_to_the_log_file(tmp_path):
    log = tmp_path / "bot.log"
    result = _game(ExternalBot([PYTHON, str(STARTER_PY)], stderr_path=log))
    assert result.faults[0] == 0
    assert "starter bot: playing deadwood1876 at seat 0" in log.read_text()


def test_no_bot_process_is_left_behind():
    bot = ExternalBot([PYTHON, str(STARTER_PY)])
    _game(bot)
    assert bot._process is None


def test_simulate_with_a_command_bot(tmp_path, capsys):
    code = main(
        ["simulate", GAME, "--players", "3", "--bots", f"random,cmd:{PYTHON} {STARTER_PY},random", "--games", "2"]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "cmd:" in out


def test_simulate_with_a_bad_command_bot_is_exit_2(capsys):
    assert main(["simulate", GAME, "--players", "3", "--bots", "cmd:", "--games", "1"]) == 2
    assert "bad external bot" in capsys.readouterr().err


def test_fault_of_an_unwritable_stdin_does_not_block(tmp_path):
    """A bot that never reads its input cannot block the server once the pipe fills."""
    deaf = tmp_path / "deaf.py"
    deaf.write_text("import time\ntime.sleep(60)\n")
    bot = ExternalBot([PYTHON, str(deaf)], decision_timeout_s=0.2, startup_timeout_s=0.2)
    started = time.monotonic()
    with pytest.raises(BotFault, match="timed out"):
        bot.act({}, ["x" * (1 << 20)], 0)
    assert time.monotonic() - started < 3
    bot.close()
    assert os.path.exists(PYTHON)
