"""The saloon command line, in process (saloon.cli.main) and once as a subprocess."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bots import RandomBot
from saloon.cli import main

ROOT = Path(__file__).resolve().parent.parent
GAME = "deadwood1876"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


class SlowBot(RandomBot):
    """A random bot that first burns about 2 ms of CPU per decision (``--bots tests.test_cli:SlowBot``)."""

    name = "slow"

    def act(self, view, legal_actions, seat):
        until = time.process_time() + 0.002
        while time.process_time() < until:
            pass
        return super().act(view, legal_actions, seat)


def cpu_lines(out: str) -> dict[int, tuple[str, float, int]]:
    """``simulate``'s CPU lines: per seat, ``(bot, CPU ms per decision, decisions)``."""
    found = re.findall(r"^  seat (\d+) (.+): (\d+\.\d) ms over (\d+) decisions$", out, re.MULTILINE)
    return {int(seat): (bot, float(ms), int(count)) for seat, bot, ms, count in found}


def total_decisions(out: str) -> int:
    """The moves of all games, from ``simulate``'s timing line."""
    found = re.search(r"^(\d+) decisions in ", out, re.MULTILINE)
    assert found, out
    return int(found.group(1))


def test_games(capsys):
    code, out, err = run(capsys, "games")
    assert code == 0
    assert GAME in out
    assert "Deadwood 1876" in out


def test_python_m_saloon_games():
    done = subprocess.run(
        [sys.executable, "-m", "saloon", "games"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert GAME in done.stdout


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "no_such_game", "--players", "5", "--bots", "random", "--games", "1"], "unknown game"),
        (["simulate", GAME, "--players", "5", "--bots", "nope", "--games", "1"], "unknown bot"),
        (["simulate", GAME, "--players", "5", "--bots", "random,random", "--games", "1"], "2 bots for 5 players"),
        (["simulate", GAME, "--players", "99", "--bots", "random", "--games", "1"], "not 99"),
        (["simulate", GAME, "--players", "5", "--bots", "random", "--games", "1", "--option", "bogus=1"], "bogus"),
        (["simulate", GAME, "--players", "5", "--bots", "random", "--games", "1", "--option", "novalue"], "KEY=VALUE"),
        (["simulate", GAME, "--players", "5", "--bots", "random", "--games", "0"], "--games"),
        (["simulate", GAME, "--players", "5", "--bots", "random", "--games", "1", "--workers", "0"], "--workers"),
        (["simulate", GAME, "--players", "five", "--bots", "random", "--games", "1"], "invalid int"),
        (["simulate", GAME, "--bots", "random", "--games", "1"], "--players"),
        (["no_such_command"], "invalid choice"),
        (["bench", "no_such_game"], "unknown game"),
        (["bench", GAME, "--players", "99"], "not 99"),
        (["bench", GAME, "--seconds", "0"], "--seconds"),
        (["play", "no_such_game"], "unknown game"),
        (["play", GAME, "--players", "99"], "not 99"),
        (["play", GAME, "--players", "5", "--seat", "7"], "seat"),
        (["play", GAME, "--players", "5", "--bots", "nope"], "unknown bot"),
        (["play", GAME, "--players", "5", "--bots", "random,random"], "2 bots"),
        (["play", GAME, "--option", "bogus=1"], "bogus"),
        (["play", GAME, "--players", "5", "--seat", "-1"], "--seat must be 0..4"),
        (["schema", "no_such_game"], "unknown game"),
        (["schema"], "GAME"),
        (["replay", "verify"], "at least one FILE"),
        (["replay", "show", "a.replay", "b.replay"], "exactly one FILE"),
        ([], "usage"),
    ],
)
def test_usage_errors_exit_2_with_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err


def test_replay_viewer_refuses_a_missing_file_before_opening(capsys, tmp_path):
    """``saloon replay FILE`` loads and verifies the file before the viewer opens: a bad file is exit 1."""
    code, out, err = run(capsys, "replay", str(tmp_path / "missing.replay"))
    assert code == 1
    assert "cannot read replay" in err
    assert "Traceback" not in err


def test_simulate_then_verify_and_show(capsys, tmp_path):
    out_dir = tmp_path / "out"
    code, out, err = run(
        capsys, "simulate", GAME, "--players", "4", "--bots", "random", "--games", "3", "--seed", "40",
        "--out", str(out_dir),
    )  # fmt: skip
    assert code == 0, err
    assert "random" in out
    files = sorted(out_dir.glob("*.replay"))
    assert [f.name for f in files] == [f"{GAME}-{seed}.replay" for seed in (40, 41, 42)]

    code, out, err = run(capsys, "replay", "verify", *map(str, files))
    assert code == 0, err
    assert out.count("OK ") == 3

    code, out, err = run(capsys, "replay", "show", str(files[0]))
    assert code == 0, err
    assert f"game: {GAME}" in out
    assert "seed: 40" in out
    assert "move 1: seat " in out
    assert "winners:" in out


def test_simulate_per_seat_bots(capsys, tmp_path):
    bots = "random,bots.base:RandomBot,random,random,random"
    code, out, err = run(capsys, "simulate", GAME, "--players", "5", "--bots", bots, "--games", "2")
    assert code == 0, err
    assert "bots.base:RandomBot" in out


def test_simulate_heuristic_bot(capsys):
    bots = "heuristic,random,random,random,random"
    code, out, err = run(capsys, "simulate", GAME, "--players", "5", "--bots", bots, "--games", "2")
    assert code == 0, err
    assert "heuristic" in out


def test_replay_verify_reports_bad_files(capsys, tmp_path):
    run(capsys, "simulate", GAME, "--players", "4", "--bots", "random", "--games", "1", "--out", str(tmp_path))
    good = tmp_path / f"{GAME}-0.replay"
    bad = tmp_path / "bad.replay"
    data = bytearray(good.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad.write_bytes(bytes(data))
    missing = tmp_path / "missing.replay"

    code, out, err = run(capsys, "replay", "verify", str(good), str(bad), str(missing))
    assert code == 1
    assert f"OK {good}" in out
    assert f"FAIL {bad}: " in err and "checksum" in err
    assert f"FAIL {missing}: " in err
    assert "Traceback" not in err

    code, out, err = run(capsys, "replay", "show", str(bad))
    assert code == 1
    assert "checksum" in err


def test_bench_json(capsys):
    code, out, err = run(capsys, "bench", GAME, "--seconds", "0.2", "--players", "4", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert [(row["game"], row["players"]) for row in rows] == [(GAME, 4)]
    assert rows[0]["games"] >= 1
    assert rows[0]["decisions_per_s"] > 0
    assert rows[0]["games_per_s"] > 0


def test_option_defaults_are_listed():
    import msgspec

    from saloon.cli import _option_defaults

    class Options(msgspec.Struct, frozen=True):
        lawmen: bool = False
        rounds: int = 3
        names: list[str] = msgspec.field(default_factory=lambda: ["a"])

    class FakeGame:
        options_type = Options

    assert _option_defaults(FakeGame()) == ["lawmen=false", "rounds=3", 'names=["a"]']  # type: ignore[arg-type]


def test_wilson_interval():
    from saloon.cli import wilson_interval

    low, high = wilson_interval(32, 80)  # worked by hand: centre 0.40458, half-width 0.10497
    assert (round(low, 4), round(high, 4)) == (0.2996, 0.5095)
    assert [round(x, 4) for x in wilson_interval(0, 10)] == [0.0, 0.2775]
    assert [round(x, 4) for x in wilson_interval(10, 10)] == [0.7225, 1.0]
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_simulate_prints_intervals_and_fair_share_and_workers_change_nothing(capsys):
    from saloon.cli import wilson_interval

    bots = "heuristic,random,random,random"
    argv = ["simulate", GAME, "--players", "4", "--bots", bots, "--games", "4", "--seed", "3"]
    code, one, err = run(capsys, *argv)
    assert code == 0, err
    code, two, err = run(capsys, *argv, "--workers", "2")
    assert code == 0, err
    assert "95% interval" in one and "fair share" in one
    row = next(line for line in one.splitlines() if line.startswith("│ heuristic"))
    cells = [cell.strip() for cell in row.split("│")[1:-1]]
    assert cells[0] == "heuristic" and cells[1] == "4" and cells[5] == "25.0%"
    wins = int(cells[2])
    low, high = wilson_interval(wins, 4)
    assert cells[4] == f"{100 * low:.1f}–{100 * high:.1f}%"
    tables = [text.split(" decisions in ")[0] for text in (one, two)]  # only the timing lines may differ
    assert tables[0] == tables[1]
    # the workers send each seat's CPU time and decisions back: the same counts, a figure per seat
    counts = [{seat: (bot, n) for seat, (bot, _, n) in cpu_lines(text).items()} for text in (one, two)]
    assert counts[0] == counts[1]
    assert [bot for bot, _ in counts[0].values()] == bots.split(",")


def test_simulate_prints_cpu_ms_per_decision_per_seat(capsys):
    bots = "tests.test_cli:SlowBot,random"
    argv = ["simulate", GAME, "--players", "2", "--bots", bots, "--games", "2", "--seed", "5"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert "CPU ms per decision" in out
    seats = cpu_lines(out)
    assert sorted(seats) == [0, 1]
    assert [seats[seat][0] for seat in (0, 1)] == bots.split(",")
    # the runner asks a seat's bot for every move of that seat, so the counts add up to the moves
    assert all(count > 0 for _, _, count in seats.values())
    assert sum(count for _, _, count in seats.values()) == total_decisions(out)
    assert seats[0][1] >= 1.5  # about 2 ms of busy CPU each
    assert seats[0][1] > seats[1][1]
    code, again, err = run(capsys, *argv)
    assert code == 0, err
    assert [(bot, n) for bot, _, n in cpu_lines(again).values()] == [(bot, n) for bot, _, n in seats.values()]
