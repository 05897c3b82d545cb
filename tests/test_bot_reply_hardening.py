"""Hostile bot replies (issue 34): deep nesting, a duplicate ``action`` key, odd numbers.

Every bad reply is one :class:`bots.protocol.BotReplyError`, never another error, so an external
bot that answers with deep nesting is a fault like one that answers prose: its process is killed
and restarted twice in a game, then the bot is disabled (``bots/external.py``'s restart rule).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from bots import make_bot, play_game
from bots.external import ExternalBot
from bots.protocol import MAX_LINE_BYTES, MAX_REPLY_DEPTH, BotReplyError, parse_reply
from saloon.cli import main

GAME = "deadwood1876"


def _nested(depth: int, closed: bool = True) -> bytes:
    return b'{"action":0,"x":' + b"[" * depth + (b"]" * depth if closed else b"") + b"}"


# -- parse_reply --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (_nested(100_000), "too long"),  # over the line limit before anything is decoded
        (_nested(100_000, closed=False), "too long"),
        (_nested(1_000), f"nested deeper than {MAX_REPLY_DEPTH} levels"),  # a RecursionError in msgspec before
        (_nested(32_000), f"nested deeper than {MAX_REPLY_DEPTH} levels"),  # 64,017 bytes: under the limit
        (_nested(30_000, closed=False), f"nested deeper than {MAX_REPLY_DEPTH} levels"),
        (b'{"action":0,"x":' + b'{"a":' * 5_000 + b"1" + b"}" * 5_000 + b"}", "nested deeper"),
        (b"[" * 60_000, "nested deeper"),
        (_nested(MAX_REPLY_DEPTH), "nested deeper"),  # the reply object is level 1
    ],
)
def test_deep_nesting_is_a_bad_reply(line: bytes, message: str) -> None:
    assert len(_nested(32_000)) < MAX_LINE_BYTES
    with pytest.raises(BotReplyError, match=message):
        parse_reply(line, 3)


@pytest.mark.parametrize(
    "line",
    [
        _nested(MAX_REPLY_DEPTH - 1),
        b'{"action":0,"x":"' + b"[" * 10_000 + b'"}',  # brackets in a string do not nest
        b'{"action":0,"x":"\\"' + b"{" * 10_000 + b'"}',  # nor after an escaped quote
        b'{"action":0,"x":[' + b"[]," * 20_000 + b"[]]}",  # many, but shallow
    ],
)
def test_nesting_within_the_limit_and_brackets_in_strings_are_fine(line: bytes) -> None:
    assert parse_reply(line, 3) == 0


def test_deep_nesting_after_an_escaped_backslash_counts() -> None:
    # "\\" ends the string: the brackets after it are outside any string
    with pytest.raises(BotReplyError, match="nested deeper"):
        parse_reply(b'{"action":0,"x":"\\\\",' + b"[" * 40 + b"]" * 40 + b"}", 3)


@pytest.mark.parametrize(
    "line",
    [
        b'{"action":0,"action":3}',
        b'{"action":0,"action":0}',
        b'{"action": 1, "note": "x", "action": 2}\n',
        b'{"action":0,"\\u0061ction":2}',  # the same key, spelt with an escape
    ],
)
def test_a_duplicate_action_key_is_refused(line: bytes) -> None:
    with pytest.raises(BotReplyError, match="duplicate key action"):
        parse_reply(line, 5)


@pytest.mark.parametrize(
    "line",
    [
        b'{"action":2,"x":{"action":0}}',  # an inner object's key is the bot's own business
        b'{"action":2,"x":"\\"action\\":0"}',
        b'{"action":2,"x":["action","action"]}',
        b'{"action":2,"x":1,"x":2}',  # other keys are ignored, twice too
        b'{"action":2,"x":"\\n","y":' + b"1" * 5_000 + b"}",  # an escape, and an integer int() refuses
    ],
)
def test_action_once_at_the_top_is_fine(line: bytes) -> None:
    assert parse_reply(line, 3) == 2


@pytest.mark.parametrize("value", [b"1e400", b"-1e400", b"1e-400", b"123456789012345678901234567890"])
def test_an_out_of_range_number_in_an_unknown_key_is_ignored(value: bytes) -> None:
    # Documented in docs/bot-protocol.md: unknown keys are ignored whatever their value, if the line is JSON.
    assert parse_reply(b'{"action":1,"x":' + value + b"}", 3) == 1


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b'{"action":1e400}', "out of range"),
        (b'{"action":1e2}', "Expected `int`"),
        (b'{"action":123456789012345678901234567890}', "out of range"),
        (b'{"action":0,"x":NaN}', "malformed"),  # not JSON
        (b'{"action":0,"x":Infinity}', "malformed"),
        (b'{"action":0,"x":-Infinity}', "malformed"),
    ],
)
def test_odd_numbers_where_they_matter_or_not_json_are_refused(line: bytes, message: str) -> None:
    with pytest.raises(BotReplyError, match=message):
        parse_reply(line, 3)


# -- an external bot that answers with deep nesting ---------------------------------------------

BOT = """\
import json, os, sys
REPLIES = {
    "deep": '{"action":0,"x":' + "[" * 30000 + "]" * 30000 + "}",
    "duplicate": '{"action":0,"action":1}',
    "prose": "hello there",
}
print("started", os.getpid(), file=sys.stderr, flush=True)
for line in sys.stdin:
    if json.loads(line)["type"] == "decide":
        print(REPLIES[sys.argv[1]], flush=True)
"""


def _bot_file(tmp_path: Path) -> Path:
    path = tmp_path / "replying_bot.py"
    path.write_text(BOT)
    return path


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("prose", "bad reply 'hello there'"),  # the plain garbage reply, for comparison
        ("deep", f"nested deeper than {MAX_REPLY_DEPTH} levels"),
        ("duplicate", "duplicate key action"),
    ],
)
def test_a_bot_answering_badly_is_restarted_twice_then_disabled(tmp_path: Path, kind: str, reason: str) -> None:
    log = tmp_path / "bot.stderr.log"
    bot = ExternalBot(
        [sys.executable, str(_bot_file(tmp_path)), kind], decision_timeout_s=1.0, startup_timeout_s=5.0, stderr_path=log
    )
    result = play_game(GAME, 3, [bot, make_bot("random", 1), make_bot("random", 2)], 5)
    assert result.outcome is not None and result.faults[0] > 3 and result.faults[1:] == (0, 0)
    assert reason in result.fault_log[0]
    assert all("BotFault" in line for line in result.fault_log)  # never another error
    assert sum(reason in line for line in result.fault_log) == 3  # the first process and two restarts
    assert any("disabled: faulted after 2 restarts" in line for line in result.fault_log)
    starts = re.findall(r"started (\d+)", log.read_text())
    assert len(starts) == 3 and len(set(starts)) == 3


def test_simulate_restarts_a_deeply_nesting_bot_like_any_faulty_bot(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    bot = f"cmd:{sys.executable} {_bot_file(tmp_path)} deep"
    code = main(["simulate", GAME, "--players", "2", "--bots", f"random,{bot}", "--games", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    [log] = (tmp_path / "xdg" / "saloon" / "logs").iterdir()
    assert len(re.findall(r"started \d+", log.read_text())) == 3  # started, restarted twice, disabled
    assert f"nested deeper than {MAX_REPLY_DEPTH} levels" in out
    assert "RecursionError" not in out + err
