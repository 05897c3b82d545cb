"""Hardening of replay files and the replay commands against hostile input.

Each test reproduces an attack: a long varint run, invalid UTF-8 or deep nesting in the payload
(with a correct checksum), terminal escapes in text fields, seeds out of range, files and
directories that are not fsynced.
"""

from __future__ import annotations

import functools
import hashlib
import os
import stat

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
import replays
from bots import RandomBot, play_game
from replays import (
    MAGIC,
    MAX_MOVE_VALUE,
    MAX_VARINT_BYTES,
    Player,
    Replay,
    ReplayError,
    decode,
    decode_moves,
    encode,
    encode_moves,
    printable,
)
from saloon.cli import main

GAME = "deadwood1876"
HOSTILE_NAME = "\x1b]0;pwned\x07\x1b[2J"
CONTROL_BYTES = ("\x1b", "\x07", "\x9b", "\x7f", "\x00")


@functools.cache
def small_replay(seed: int = 3, names: tuple[str, ...] = ("Annie", "Bob", "Cy")) -> Replay:
    """A finished 3-player game between random bots (cached: replays are immutable)."""
    bots = [RandomBot(seed * 10 + seat) for seat in range(len(names))]
    players = [Player(name, "bot") for name in names]
    return play_game(GAME, len(names), bots, seed, None, players).replay


def with_payload(payload: bytes) -> bytes:
    """A replay file around ``payload``, with a correct checksum."""
    return MAGIC + payload + hashlib.blake2b(payload, digest_size=8).digest()


def payload_of(replay: Replay) -> bytes:
    return msgspec.msgpack.encode(replay)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- 1. varints: bounded length, linear decoding ----------------------------------------------------


def test_limits_have_their_documented_values():
    assert MAX_VARINT_BYTES == 4
    assert MAX_MOVE_VALUE == 2**28 - 1
    assert replays.MAX_FILE_BYTES == 64 * 1024 * 1024


def test_megabyte_varint_run_in_moves_is_refused():
    """1 MB of 0x80 in the moves field (the 46 s quadratic decode) is refused at byte offset 0."""
    replay = msgspec.structs.replace(small_replay(), moves=b"\x80" * 1_000_000)
    data = encode(replay)
    message = f"malformed moves: the number at byte offset 0 is longer than {MAX_VARINT_BYTES} bytes"
    with pytest.raises(ReplayError, match=message):
        decode(data)
    with pytest.raises(ReplayError, match=message):
        replays.verify(replay)
    with pytest.raises(ReplayError, match=message):
        decode_moves(replay.moves)


def test_overlong_varint_names_its_byte_offset():
    five_bytes = b"\x80\x80\x80\x80\x01"
    with pytest.raises(ReplayError, match="the number at byte offset 6 is longer than 4 bytes"):
        decode_moves(b"\x00\x01\x02\x03\x04\x05" + five_bytes + b"\x00")
    with pytest.raises(ReplayError, match=r"the last number \(at byte offset 2\) is cut short"):
        decode_moves(b"\x00\x01\x80\x80")


def test_largest_move_value_round_trips_and_one_more_is_refused():
    data = encode_moves([(MAX_MOVE_VALUE, MAX_MOVE_VALUE)])
    assert data == b"\xff\xff\xff\x7f" * 2
    assert decode_moves(data) == [(MAX_MOVE_VALUE, MAX_MOVE_VALUE)]
    with pytest.raises(ValueError, match="from 0 to 268435455"):
        encode_moves([(0, MAX_MOVE_VALUE + 1)])
    with pytest.raises(ValueError, match="from 0 to 268435455"):
        encode_moves([(-1, 0)])


def test_megabyte_of_valid_moves_decodes():
    assert decode_moves(b"\x01\x02" * 500_000) == [(1, 2)] * 500_000


def test_recorder_refuses_an_unstorable_index_and_keeps_the_state():
    rec = replays.Recorder(GAME, 3, seed=1)
    seat = rec.state.to_act[0]
    before = rec.state.digest()
    with pytest.raises(ValueError, match="up to 268435455"):
        rec.apply_index(seat, MAX_MOVE_VALUE + 1)
    assert rec.state.digest() == before
    assert rec.num_moves == 0 and rec.replay().moves == b""


# -- 2. every decoding error is a ReplayError --------------------------------------------------------


@pytest.mark.parametrize("text", ["Annie", GAME])
def test_invalid_utf8_in_a_text_field_is_a_replay_error(tmp_path, text):
    """A player name or the game id with an invalid UTF-8 byte (checksum recomputed)."""
    payload = payload_of(small_replay())
    encoded = msgspec.msgpack.encode(text)  # the string's header, then its bytes
    assert payload.count(encoded) == 1
    position = payload.index(encoded) + len(encoded) - len(text)
    bad = with_payload(payload[:position] + b"\xff" + payload[position + 1 :])
    with pytest.raises(ReplayError, match="replay payload is not valid: a text field is not valid UTF-8"):
        decode(bad)
    path = tmp_path / "bad.replay"
    path.write_bytes(bad)
    with pytest.raises(ReplayError, match="not valid UTF-8"):
        replays.load(path)


def test_deeply_nested_options_are_a_replay_error():
    builtins = msgspec.to_builtins(small_replay(), builtin_types=(bytes,))
    builtins["header"]["options"] = {"deep": "SENTINEL"}
    payload = msgspec.msgpack.encode(builtins)
    payload = payload.replace(msgspec.msgpack.encode("SENTINEL"), b"\x91" * 200_000 + b"\x00")
    with pytest.raises(ReplayError, match="replay payload is not valid: it is nested too deeply"):
        decode(with_payload(payload))


def test_huge_file_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "huge.replay"
    with open(path, "wb") as f:
        f.truncate(replays.MAX_FILE_BYTES + 1)
    with pytest.raises(ReplayError, match=f"is larger than {replays.MAX_FILE_BYTES} bytes"):
        replays.load(path)


def _mutate(blob: bytes, edits: list[tuple[int, int, int]]) -> bytes:
    data = bytearray(blob)
    for kind, position, value in edits:
        position %= len(data) + 1
        if kind == 0 and position < len(data):
            data[position] = value
        elif kind == 1:
            data[position:position] = bytes([value])
        elif position < len(data):
            del data[position]
    return bytes(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 10_000), st.integers(0, 255)), min_size=1, max_size=4))
def test_mutated_payloads_decode_and_verify_or_raise_replay_error(edits):
    """Mutations of a valid payload, checksum recomputed: decode and verify succeed or raise ReplayError."""
    payload = _mutate(payload_of(small_replay()), edits)
    try:
        replay = decode(with_payload(payload))
    except ReplayError:
        return
    try:
        replays.verify(replay)
    except ReplayError:
        pass


# -- 3. replay verify goes on after a bad file --------------------------------------------------------


def test_replay_verify_reports_every_bad_file_and_goes_on(capsys, tmp_path):
    good = tmp_path / "good.replay"
    replays.save(small_replay(), good)
    payload = payload_of(small_replay())
    position = payload.index(b"Annie")
    utf8 = tmp_path / "utf8.replay"
    utf8.write_bytes(with_payload(payload[:position] + b"\xff" + payload[position + 1 :]))
    varint = tmp_path / "varint.replay"
    varint.write_bytes(encode(msgspec.structs.replace(small_replay(), moves=b"\x80" * 1_000_000)))
    missing = tmp_path / "missing.replay"
    good2 = tmp_path / "good2.replay"
    replays.save(small_replay(4), good2)

    code, out, err = run(capsys, "replay", "verify", str(utf8), str(good), str(varint), str(missing), str(good2))
    assert code == 1
    assert out.splitlines() == [
        f"OK {good}: {GAME}, 3 players, {len(small_replay().move_pairs())} moves, "
        f"winners {list(small_replay().outcome.winners)}",
        f"OK {good2}: {GAME}, 3 players, {len(small_replay(4).move_pairs())} moves, "
        f"winners {list(small_replay(4).outcome.winners)}",
    ]
    assert err.splitlines() == [
        f"FAIL {utf8}: replay payload is not valid: a text field is not valid UTF-8",
        f"FAIL {varint}: malformed moves: the number at byte offset 0 is longer than 4 bytes "
        "(the most a seat or action index may take)",
        f"FAIL {missing}: cannot read replay {str(missing)!r}: No such file or directory",
    ]


def test_replay_verify_all_good_exits_0(capsys, tmp_path):
    paths = [tmp_path / "a.replay", tmp_path / "b.replay"]
    for seed, path in zip((3, 4), paths, strict=True):
        replays.save(small_replay(seed), path)
    code, out, err = run(capsys, "replay", "verify", *map(str, paths))
    assert (code, err) == (0, "")
    assert [line.split(":")[0] for line in out.splitlines()] == [f"OK {path}" for path in paths]


def test_replay_verify_survives_an_unexpected_error(capsys, tmp_path, monkeypatch):
    """A bug while verifying one file (not a ReplayError) is reported, and the others are still checked."""
    import saloon.cli

    first, second = tmp_path / "a.replay", tmp_path / "b.replay"
    replays.save(small_replay(3), first)
    replays.save(small_replay(4), second)
    real_verify = saloon.cli.verify

    def flaky(replay):
        if replay.header.seed == 3:
            raise RuntimeError("boom")
        return real_verify(replay)

    monkeypatch.setattr(saloon.cli, "verify", flaky)
    code, out, err = run(capsys, "replay", "verify", str(first), str(second))
    assert code == 1
    assert err == f"FAIL {first}: internal error RuntimeError: boom\n"
    assert out.startswith(f"OK {second}: ")


# -- 4. no terminal escapes from a replay's text -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (HOSTILE_NAME, "]0;pwned[2J"),
        ("a\x9b2Jb\x85c\x7fd\x00e\tf\ng\rh", "a2Jbcdefgh"),
        ("evil\u202egnp.exe\u2028x\u2029", "evilgnp.exex"),
        ("Señor Ñandú 🤠 Ä", "Señor Ñandú 🤠 Ä"),
    ],
)
def test_printable_strips_control_characters(text, expected):
    assert printable(text) == expected


def test_replay_show_strips_escapes_from_player_names(capsys, tmp_path):
    names = (HOSTILE_NAME, "b\x9b2Jb\x7f", "c\u202ey")
    path = tmp_path / "hostile.replay"
    replays.save(small_replay(5, names), path)
    code, out, err = run(capsys, "replay", "show", str(path))
    assert (code, err) == (0, "")
    for byte in (*CONTROL_BYTES, "\u202e"):
        assert byte not in out
    assert "seat 0: ]0;pwned[2J (bot)" in out.splitlines()
    assert "seat 1: b2Jb (bot)" in out.splitlines()
    assert "seat 2: cy (bot)" in out.splitlines()

    code, out, err = run(capsys, "replay", "verify", str(path))
    assert code == 0 and "\x1b" not in out + err


def test_error_messages_quoting_the_file_strip_escapes(capsys, tmp_path):
    """msgspec names an unknown field raw in its message: the CLI must not print it as is."""
    builtins = msgspec.to_builtins(small_replay(), builtin_types=(bytes,))
    builtins["\x1b[2J\x1b]0;pwned\x07"] = 1
    path = tmp_path / "field.replay"
    path.write_bytes(with_payload(msgspec.msgpack.encode(builtins)))
    for command in ("verify", "show"):
        code, out, err = run(capsys, "replay", command, str(path))
        assert code == 1
        assert "unknown field `[2J]0;pwned`" in err
        for byte in CONTROL_BYTES:
            assert byte not in out + err


# -- 5. seeds out of range -----------------------------------------------------------------------------

SIMULATE = ["simulate", GAME, "--players", "3", "--bots", "random"]


@pytest.mark.parametrize(
    ("seed", "games", "message"),
    [
        (str(engine.MAX_SEED + 1), "1", f"--seed must be from 0 to {engine.MAX_SEED} (what a replay stores), not"),
        ("-1", "1", f"--seed must be from 0 to {engine.MAX_SEED}, not -1"),
        (str(engine.MAX_SEED), "2", f"needs seeds up to {engine.MAX_SEED + 1}, beyond {engine.MAX_SEED}"),
    ],
)
def test_simulate_refuses_seeds_out_of_range_before_playing(capsys, tmp_path, seed, games, message):
    out_dir = tmp_path / "out"
    code, out, err = run(capsys, *SIMULATE, "--games", games, "--seed", seed, "--out", str(out_dir))
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not out_dir.exists()  # nothing played, nothing saved


def test_simulate_accepts_the_largest_seed(capsys, tmp_path):
    code, out, err = run(capsys, *SIMULATE, "--games", "1", "--seed", str(engine.MAX_SEED), "--out", str(tmp_path))
    assert code == 0, err
    assert [path.name for path in tmp_path.iterdir()] == [f"{GAME}-{engine.MAX_SEED}.replay"]


@pytest.mark.parametrize("seed", [str(engine.MAX_SEED + 1), "-1", str(2**200)])
def test_play_refuses_seeds_out_of_range_before_opening_the_table(capsys, monkeypatch, seed):
    import tui

    calls = []
    monkeypatch.setattr(tui, "run_play", lambda *args, **kwargs: calls.append((args, kwargs)))
    code, out, err = run(capsys, "play", GAME, "--players", "3", "--seed", seed)
    assert code == 2
    assert f"--seed must be from 0 to {engine.MAX_SEED}" in err
    assert len(err.strip().splitlines()) == 1
    assert calls == []


# -- 6. durable writes ----------------------------------------------------------------------------------


def record_fsyncs(monkeypatch) -> list[tuple[str, int]]:
    """Make ``os.fsync`` record ``("file" | "dir", inode)`` for each call (then really fsync)."""
    calls: list[tuple[str, int]] = []
    real = os.fsync

    def fsync(fd):
        info = os.fstat(fd)
        calls.append(("dir" if stat.S_ISDIR(info.st_mode) else "file", info.st_ino))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return calls


@pytest.mark.skipif(os.name != "posix", reason="directory fsync is POSIX only")
def test_save_fsyncs_the_file_then_its_directory(tmp_path, monkeypatch):
    calls = record_fsyncs(monkeypatch)
    path = tmp_path / "game.replay"
    replays.save(small_replay(), path)
    assert calls == [("file", path.stat().st_ino), ("dir", tmp_path.stat().st_ino)]
    assert replays.load(path) == small_replay()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.replay"]


def test_failed_save_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "game.replay"
    replays.save(small_replay(3), path)
    old = path.read_bytes()

    def failing_fsync(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="Input/output error"):
        replays.save(small_replay(4), path)
    assert path.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.replay"]


@pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW"), reason="needs O_NOFOLLOW")
def test_save_does_not_follow_a_symlink_planted_at_the_temporary_name(tmp_path):
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    path = tmp_path / "game.replay"
    (tmp_path / f".game.replay.{os.getpid()}.tmp").symlink_to(victim)
    with pytest.raises(OSError):
        replays.save(small_replay(), path)
    assert victim.read_bytes() == b"precious"
    assert not path.exists()
