"""The JSON-lines bot protocol: messages and reply parsing."""

from __future__ import annotations

import json

import msgspec
import pytest

import engine
from bots.protocol import MAX_LINE_BYTES, BotReplyError, decide_message, end_message, parse_reply, start_message


def test_start_message_has_no_seed():
    line = start_message("deadwood1876", 2, 5, {"horse_thief": True})
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    message = json.loads(line)
    assert message == {
        "type": "start",
        "game": "deadwood1876",
        "seat": 2,
        "players": 5,
        "options": {**DEFAULTS, "horse_thief": True},
        "protocol": 1,
    }


DEFAULTS = {
    name: msgspec.to_builtins(getattr(engine.game("deadwood1876").options_type(), name))
    for name in engine.game("deadwood1876").options_type.__struct_fields__
}


@pytest.mark.parametrize("game_id", sorted(engine.games()))
def test_start_message_gives_every_option_defaults_included(game_id):
    """The docs promise all options, defaults included (an options Struct omits its defaults)."""
    game = engine.game(game_id)
    fields = game.options_type.__struct_fields__
    for options in (None, game.options_type(), {}):
        sent = json.loads(start_message(game_id, 0, game.min_players, options))["options"]
        assert sorted(sent) == sorted(fields)
        assert engine.parse_options(game.options_type, sent) == game.options_type()


def test_decide_message_encodes_view_and_tagged_actions():
    state = engine.game("deadwood1876").new_game(4, seed=3)
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    message = json.loads(decide_message(seat, state.view(seat), legal, 1000))
    assert message["type"] == "decide" and message["seat"] == seat and message["deadline_ms"] == 1000
    assert message["view"] == json.loads(msgspec.json.encode(state.view(seat)))
    assert [action["type"] for action in message["legal"]] == [type(a).__struct_config__.tag for a in legal]
    assert "seed" not in json.dumps(message)


def test_end_message():
    outcome = engine.Outcome(scores=(1.0, 0.0), ranks=(1, 2), winners=(0,))
    assert json.loads(end_message(outcome)) == {
        "type": "end",
        "outcome": {"scores": [1.0, 0.0], "ranks": [1, 2], "winners": [0]},
    }


@pytest.mark.parametrize("line", [b'{"action": 2}\n', b'{"action":2}', b'{"action": 2, "note": "hi"}\r\n'])
def test_parse_reply_accepts(line):
    assert parse_reply(line, 3) == 2


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"", "empty"),
        (b"  \n", "empty"),
        (b"hello", "malformed"),
        (b"[1]", "Expected `object`"),
        (b'{"move": 1}', "missing required field `action`"),
        (b'{"action": "1"}', "Expected `int`"),
        (b'{"action": true}', "Expected `int`"),
        (b'{"action": 1.0}', "Expected `int`"),
        (b'{"action": 3}', "out of range"),
        (b'{"action": -1}', "out of range"),
        (b"x" * (MAX_LINE_BYTES + 1), "too long"),
    ],
)
def test_parse_reply_rejects(line, message):
    with pytest.raises(BotReplyError, match=message):
        parse_reply(line, 3)


# Issue 26: a reply line must be UTF-8 throughout, in the keys the server ignores too (msgspec
# skips an unknown key's value without checking its bytes). Other keys stay ignored, as the
# protocol documents (docs/bot-protocol.md).


@pytest.mark.parametrize(
    ("line", "byte"),
    [
        (b'{"action":0,"x":"\xff"}', 17),
        (b'{"action":0,"x":"ok","y":"\xc0\xaf"}\n', 26),  # an overlong "/"
        (b'{"action":0,"x":"\xed\xa0\x80"}', 17),  # a UTF-16 surrogate
        (b'{"action":0,"\xfe":1}', 13),
    ],
)
def test_parse_reply_refuses_a_line_that_is_not_utf8(line, byte):
    text = line.rstrip(b"\n").decode("utf-8", "replace")
    with pytest.raises(BotReplyError) as refused:
        parse_reply(line, 3)
    assert str(refused.value) == f'bad reply {text!r}: not UTF-8 at byte {byte}; expected {{"action": INDEX}}'


@pytest.mark.parametrize("line", [b'{"action": 0}', b'{"action":0,"x":"\xc3\xbf"}', b'{"action":0,"x":"\\u00ff"}'])
def test_parse_reply_takes_utf8_with_other_keys_ignored(line):
    assert parse_reply(line, 3) == 0
