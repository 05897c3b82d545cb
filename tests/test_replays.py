"""Replays: the file format, recording, verification and the cursor (on Deadwood 1876)."""

from __future__ import annotations

import functools
import random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
import replays
from bots import RandomBot, play_game
from replays import (
    MAGIC,
    Recorder,
    Replay,
    ReplayCursor,
    ReplayError,
    ReplayMismatch,
    ReplayVersionError,
    decode,
    decode_moves,
    encode,
    encode_moves,
)

GAME = "deadwood1876"


@functools.cache
def random_replay(seed: int, num_players: int = 5) -> Replay:
    """A finished game between random bots (cached: replays are immutable)."""
    bots = [RandomBot(seed * 100 + seat) for seat in range(num_players)]
    return play_game(GAME, num_players, bots, seed).replay


def with_moves(replay: Replay, pairs: list[tuple[int, int]]) -> Replay:
    return msgspec.structs.replace(replay, moves=encode_moves(pairs))


def fresh_digests(replay: Replay) -> list[str]:
    """The digest after each number of moves, by a plain re-simulation."""
    header = replay.header
    state = engine.game(header.game).new_game(len(header.players), header.seed, header.options)
    digests = [state.digest()]
    for seat, index in replay.move_pairs():
        state.apply(seat, state.legal_actions(seat)[index])
        digests.append(state.digest())
    return digests


def test_round_trip_bytes_file_and_verify(tmp_path):
    replay = random_replay(1)
    assert replay.outcome is not None
    data = encode(replay)
    assert data.startswith(MAGIC)
    assert decode(data) == replay
    path = tmp_path / "game.replay"
    replays.save(replay, path)
    loaded = replays.load(path)
    assert loaded == replay
    state = replays.verify(loaded)
    assert state.is_over
    assert state.digest() == replay.final_digest
    assert state.outcome == replay.outcome


def test_header_records_the_game():
    replay = random_replay(1)
    game = engine.game(GAME)
    header = replay.header
    assert header.format_version == replays.FORMAT_VERSION
    assert (header.game, header.rules_version, header.seed) == (GAME, game.rules_version, 1)
    assert header.options == msgspec.to_builtins(game.options_type())
    assert [p.kind for p in header.players] == ["bot"] * 5
    assert len(replay.checkpoints) == (len(replay.move_pairs()) // replays.CHECKPOINT_EVERY + 1) * 4


@pytest.mark.parametrize("cut", [0, 1, 5, len(MAGIC), len(MAGIC) + 1, len(MAGIC) + 8, -9, -8, -1])
def test_truncated_file_is_refused(cut):
    data = encode(random_replay(1))
    with pytest.raises(ReplayError):
        decode(data[:cut])


def test_truncated_message_is_clear():
    data = encode(random_replay(1))
    with pytest.raises(ReplayError, match="truncated"):
        decode(data[: len(data) // 2])


@pytest.mark.parametrize("position", [0, 3, len(MAGIC) - 1, len(MAGIC), len(MAGIC) + 20, -20, -9, -8, -1])
def test_flipped_byte_is_refused(position):
    data = bytearray(encode(random_replay(1)))
    data[position] ^= 0x01
    with pytest.raises(ReplayError):
        decode(bytes(data))


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_any_flipped_bit_is_refused(data):
    blob = encode(random_replay(2))
    position = data.draw(st.integers(0, len(blob) - 1), label="position")
    bit = data.draw(st.integers(0, 7), label="bit")
    corrupted = bytearray(blob)
    corrupted[position] ^= 1 << bit
    with pytest.raises(ReplayError):
        decode(bytes(corrupted))


def test_wrong_magic_is_refused():
    data = encode(random_replay(1))
    with pytest.raises(ReplayError, match="not a replay"):
        decode(b"PK\x03\x04" + data[4:])
    with pytest.raises(ReplayError, match="not a replay"):
        decode(b"")


def test_bad_msgpack_with_good_checksum_is_refused():
    import hashlib

    for payload in (b"\xc1", b"\x93\x01\x02", b"not msgpack at all", msgspec.msgpack.encode({"header": 1})):
        data = MAGIC + payload + hashlib.blake2b(payload, digest_size=8).digest()
        with pytest.raises(ReplayError, match="payload"):
            decode(data)


def test_other_format_version_is_refused():
    replay = random_replay(1)
    future = msgspec.structs.replace(replay, header=msgspec.structs.replace(replay.header, format_version=99))
    with pytest.raises(ReplayVersionError, match="99"):
        decode(encode(future))


def test_other_rules_version_is_refused():
    replay = random_replay(1)
    current = engine.game(GAME).rules_version
    old = msgspec.structs.replace(replay, header=msgspec.structs.replace(replay.header, rules_version="0.0-old"))
    decoded = decode(encode(old))  # the file is fine; replaying it is not
    with pytest.raises(ReplayVersionError) as info:
        replays.verify(decoded)
    assert "0.0-old" in str(info.value)
    assert current in str(info.value)
    with pytest.raises(ReplayVersionError):
        ReplayCursor(decoded)


def test_unknown_game_is_refused():
    replay = random_replay(1)
    other = msgspec.structs.replace(replay, header=msgspec.structs.replace(replay.header, game="no_such_game"))
    with pytest.raises(ReplayError, match="unknown game"):
        replays.verify(other)


def test_out_of_range_index_names_the_move():
    replay = random_replay(1)
    pairs = replay.move_pairs()
    seat, _ = pairs[9]
    pairs[9] = (seat, 10_000)
    with pytest.raises(ReplayMismatch, match="move 10") as info:
        replays.verify(with_moves(replay, pairs))
    assert info.value.move == 10


def test_seat_not_to_act_names_the_move():
    replay = random_replay(1)
    pairs = replay.move_pairs()
    header = replay.header
    state = engine.game(GAME).new_game(len(header.players), header.seed, header.options)
    for k, (seat, index) in enumerate(pairs, start=1):
        if k > 5 and len(state.to_act) == 1:
            break
        state.apply(seat, state.legal_actions(seat)[index])
    else:
        pytest.fail("no move with a single seat to act")
    pairs[k - 1] = ((seat + 1) % len(header.players), index)
    with pytest.raises(ReplayMismatch, match=f"move {k}") as info:
        replays.verify(with_moves(replay, pairs))
    assert info.value.move == k


def test_other_legal_choice_is_caught():
    """Another legal choice that leads to another state is caught (later, by a digest or a move)."""
    replay = random_replay(1)
    pairs = replay.move_pairs()
    header = replay.header
    state = engine.game(GAME).new_game(len(header.players), header.seed, header.options)
    for k, (seat, index) in enumerate(pairs, start=1):
        legal = state.legal_actions(seat)
        if k > 10 and len(legal) > 1:
            other_index = 1 if index == 0 else 0
            other = state.clone()
            other.apply(seat, legal[other_index])
            state.apply(seat, legal[index])
            if other.digest() != state.digest():
                break
        else:
            state.apply(seat, legal[index])
    else:
        pytest.fail("no move with a choice that changes the state")
    pairs[k - 1] = (seat, other_index)
    with pytest.raises(ReplayMismatch):
        replays.verify(with_moves(replay, pairs))


def test_tampered_checkpoint_final_digest_and_outcome_are_caught():
    replay = random_replay(1)
    checkpoints = bytearray(replay.checkpoints)
    checkpoints[4] ^= 0xFF
    with pytest.raises(ReplayMismatch, match="move 32") as info:
        replays.verify(msgspec.structs.replace(replay, checkpoints=bytes(checkpoints)))
    assert info.value.move == 32
    with pytest.raises(ReplayMismatch, match="checkpoint"):
        replays.verify(msgspec.structs.replace(replay, checkpoints=replay.checkpoints[:-4]))
    with pytest.raises(ReplayMismatch, match="final digest"):
        replays.verify(msgspec.structs.replace(replay, final_digest="0" * len(replay.final_digest)))
    assert replay.outcome is not None
    wrong = engine.Outcome(scores=replay.outcome.scores, ranks=replay.outcome.ranks, winners=())
    with pytest.raises(ReplayMismatch, match="outcome"):
        replays.verify(msgspec.structs.replace(replay, outcome=wrong))
    with pytest.raises(ReplayMismatch, match="no outcome"):
        replays.verify(msgspec.structs.replace(replay, outcome=None))


def test_malformed_moves_are_refused():
    replay = random_replay(1)
    with pytest.raises(ReplayError, match="cut short"):
        replays.verify(msgspec.structs.replace(replay, moves=replay.moves + b"\x80"))
    with pytest.raises(ReplayError, match="no action index"):
        replays.verify(msgspec.structs.replace(replay, moves=replay.moves + b"\x01"))


@given(st.lists(st.tuples(st.integers(0, replays.MAX_MOVE_VALUE), st.integers(0, replays.MAX_MOVE_VALUE))))
def test_moves_encoding_round_trips(pairs):
    assert decode_moves(encode_moves(pairs)) == pairs


def test_small_moves_take_two_bytes():
    assert encode_moves([(0, 0), (4, 127)]) == b"\x00\x00\x04\x7f"
    assert len(encode_moves([(8, 128)])) == 3


def test_recorder_refuses_illegal_actions_and_keeps_the_state():
    rec = Recorder(GAME, 5, seed=3)
    seat = rec.state.to_act[0]
    before = rec.state.digest()
    with pytest.raises(engine.IllegalAction):
        rec.apply(seat, "not an action")
    with pytest.raises(engine.IllegalAction):
        rec.apply_index(seat, 10_000)
    not_to_act = next((s for s in range(5) if s not in rec.state.to_act), None)
    if not_to_act is not None:
        with pytest.raises(engine.IllegalAction):
            rec.apply(not_to_act, rec.state.legal_actions(seat)[0])
    assert rec.state.digest() == before
    assert rec.num_moves == 0
    assert rec.replay().moves == b""


def test_recorder_arguments_are_checked():
    with pytest.raises(engine.UnknownGame):
        Recorder("no_such_game", 5, seed=1)
    with pytest.raises(engine.InvalidOptions):
        Recorder(GAME, 5, seed=1, options={"no_such_option": True})
    with pytest.raises(ValueError):
        Recorder(GAME, 5, seed=1, players=[replays.Player("solo", "human")])
    with pytest.raises(ValueError):
        Recorder(GAME, 99, seed=1)


def test_unfinished_game_round_trips_and_verifies():
    rec = Recorder(GAME, 4, seed=5)
    choose = random.Random(5)
    for _ in range(40):
        seat = rec.state.to_act[0]
        rec.apply(seat, choose.choice(rec.state.legal_actions(seat)))
    replay = decode(encode(rec.replay()))
    assert replay.outcome is None
    assert len(replay.move_pairs()) == 40
    state = replays.verify(replay)
    assert not state.is_over
    assert state.digest() == rec.state.digest()


def test_bytes_per_decision_five_players():
    """The whole file (header included) averages at most 6 bytes per decision over 20 games."""
    total_bytes = total_decisions = 0
    for seed in range(20):
        replay = random_replay(100 + seed)
        total_bytes += len(encode(replay))
        total_decisions += len(replay.move_pairs())
    per_decision = total_bytes / total_decisions
    print(f"{per_decision:.2f} bytes per decision ({total_bytes} bytes, {total_decisions} decisions)")
    assert per_decision <= 6.0


def test_cursor_steps_match_fresh_simulation():
    replay = random_replay(3)
    digests = fresh_digests(replay)
    cursor = ReplayCursor(replay, snapshot_every=8)
    n = len(cursor)
    assert n == len(replay.move_pairs()) == len(digests) - 1
    assert [seat for seat, _ in cursor.moves] == [seat for seat, _ in replay.move_pairs()]
    assert cursor.position == 0
    assert cursor.state.digest() == digests[0]
    assert not cursor.back()
    while cursor.forward():
        assert cursor.state.digest() == digests[cursor.position]
    assert cursor.position == n
    assert cursor.state.is_over
    for _ in range(min(n, 40)):
        assert cursor.back()
        assert cursor.state.digest() == digests[cursor.position]
    choose = random.Random(0)
    for _ in range(30):
        k = choose.randrange(n + 1)
        assert cursor.goto(k).digest() == digests[k]
    with pytest.raises(IndexError):
        cursor.goto(n + 1)
    assert cursor.goto(0).digest() == digests[0]
