"""Running tournaments: schedules, workers, external bots, faults, resuming, Dask, reports."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter

import msgspec
import pytest
from conftest import NODE, PYTHON, ROOT, STARTER_JS, STARTER_PY, bot_cmd, write_config

import engine
import replays
from saloon.cli import main
from tests.test_replay_hardening import record_fsyncs
from tournament import (
    build_report,
    derive_seed,
    load_config,
    make_schedule,
    parse_config,
    rating_plot,
    run_tournament,
)
from tournament.results import ResultStore
from tournament.run import _save_replay, replay_path

MIXED = {
    "random": "random",
    "object": "bots.base:RandomBot",
    "starter_py": f"cmd:{PYTHON} {STARTER_PY}",
    **({"starter_js": f"cmd:{NODE} {STARTER_JS}"} if NODE else {}),
}


def _keys(out):
    with ResultStore(out / "results.sqlite") as store:
        return [record.result_key() for record in store.records()]


# -- the schedule ----------------------------------------------------------------------------------


def test_duplicate_sets_rotate_seats_over_one_seed():
    config = parse_config(
        'game = "deadwood1876"\nplayers = [3, 4]\ngames = 40\nseed = 5\n[bots]\n'
        + "".join(f'b{i} = "random"\n' for i in range(5))
    )
    schedule = make_schedule(config)
    assert len(schedule) >= 40 and [spec.index for spec in schedule] == list(range(len(schedule)))
    sets: dict[int, list] = {}
    for spec in schedule:
        sets.setdefault(spec.set_index, []).append(spec)
    for games in sets.values():
        n = games[0].num_players
        assert len(games) == n and len({g.seed for g in games}) == 1
        assert [g.rotation for g in games] == list(range(n))
        for seat in range(n):  # every bot of the lineup sits in every seat once
            assert sorted(g.seats[seat] for g in games) == sorted(games[0].seats)
    assert len({games[0].seed for games in sets.values()}) == len(sets)
    assert [games[0].num_players for games in sets.values()][:4] == [3, 4, 3, 4]
    appearances = Counter(name for spec in schedule for name in spec.seats)
    assert max(appearances.values()) - min(appearances.values()) <= 4
    assert make_schedule(config) == schedule
    assert schedule[0].seed == derive_seed(5, "game", 0)


def test_fewer_bots_than_seats_share_the_table():
    config = parse_config('game = "deadwood1876"\nplayers = 5\ngames = 20\n[bots]\na = "random"\nb = "random"\n')
    appearances = Counter(name for spec in make_schedule(config) for name in spec.seats)
    assert appearances["a"] == appearances["b"]


# -- running ---------------------------------------------------------------------------------------


def test_small_tournament_with_builtin_and_external_bots(tmp_path):
    """Built-in, object-path, Python and node bots; identical results with 1 and 2 workers."""
    path = write_config(tmp_path / "mixed.toml", MIXED, players=[3, 4], games=14)
    config = load_config(path)
    one = run_tournament(config, tmp_path / "one", workers=1)
    two = run_tournament(config, tmp_path / "two", workers=2)
    assert one.backend == "inline" and two.backend == "local"
    assert one.played == two.played == len(make_schedule(config)) >= 14
    assert _keys(tmp_path / "one") == _keys(tmp_path / "two")

    report = build_report(tmp_path / "two")
    assert {row.bot for row in report.rows} == set(MIXED)
    assert all(row.faults == 0 and row.games > 0 for row in report.rows)
    assert [row.place for row in report.rows] == list(range(1, len(MIXED) + 1))
    assert all(row.low <= row.high for row in report.rows)
    # Every game's replay is saved and re-simulates.
    files = sorted((tmp_path / "two" / "replays").glob("*.replay"))
    assert len(files) == one.played
    header = replays.load(files[0]).header
    assert header.game == "deadwood1876" and {p.name for p in header.players} <= set(MIXED)
    replays.verify(replays.load(files[-1]))


def test_faulty_external_bots_forfeit_and_the_tournament_goes_on(tmp_path):
    bots = {
        "random": "random",
        "crashing": bot_cmd("crashing_bot"),
        "hanging": bot_cmd("hanging_bot"),
        "garbage": bot_cmd("garbage_bot"),
    }
    path = write_config(tmp_path / "faulty.toml", bots, games=12, decision_timeout_s=0.2, max_faults=3)
    summary = run_tournament(load_config(path), tmp_path / "out", workers=2)
    assert summary.played == 12
    with ResultStore(tmp_path / "out" / "results.sqlite") as store:
        records = store.records()
    for record in records:
        for seat, name in enumerate(record.seats):
            if name == "random":
                assert record.faults[seat] == 0 and not record.forfeited[seat]
            elif not all(record.forfeited):
                assert record.forfeited[seat] and record.ranks[seat] == 1 + record.forfeited.count(False)
                assert seat not in record.winners
            else:  # every bot forfeited: the game's result is the engine's (engine.forfeit_outcome)
                assert record.forfeited[seat]
                replay = replays.load(replay_path(tmp_path / "out" / "replays", record.index))
                assert replay.outcome is not None
                assert (record.ranks, record.winners) == (replay.outcome.ranks, replay.outcome.winners)
    report = build_report(tmp_path / "out")
    assert report.rows[0].bot == "random"
    by_bot = {row.bot: row for row in report.rows}
    assert by_bot["hanging"].forfeits == by_bot["hanging"].games > 0
    assert by_bot["random"].mean_rank == 1.0


def test_interrupted_run_resumes_without_repeating_or_losing_games(tmp_path):
    path = write_config(tmp_path / "t.toml", {"a": "random", "b": "random", "c": "random"}, games=60)
    config = load_config(path)
    seen = []

    def stop_after_some(record):
        seen.append(record.index)
        if len(seen) == 20:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament(config, tmp_path / "out", workers=1, on_game=stop_after_some)
    with ResultStore(tmp_path / "out" / "results.sqlite") as store:
        assert 20 <= len(store.done()) < 60
    resumed = run_tournament(config, tmp_path / "out", workers=2)
    assert resumed.already_done >= 20 and resumed.already_done + resumed.played == 60
    run_tournament(config, tmp_path / "fresh", workers=1)
    assert _keys(tmp_path / "out") == _keys(tmp_path / "fresh")
    assert run_tournament(config, tmp_path / "out").played == 0


def test_killed_cli_run_resumes(tmp_path):
    """SIGKILL a `saloon tournament run` midway; running it again completes the same games."""
    path = write_config(tmp_path / "t.toml", {"a": "random", "b": "random"}, players=[4], games=400)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "saloon", "tournament", "run", str(path), "--out", str(out), "--workers", "2"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            time.sleep(0.1)
            try:
                with sqlite3.connect(out / "results.sqlite") as db:
                    if db.execute("SELECT COUNT(*) FROM games").fetchone()[0] >= 40:
                        break
            except sqlite3.Error:
                pass
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait()
    done_before = len(ResultStore(out / "results.sqlite").done())
    assert 40 <= done_before < 400
    assert main(["tournament", "run", str(path), "--out", str(out), "--workers", "2"]) == 0
    keys = _keys(out)
    assert [key[0] for key in keys] == list(range(400))
    run_tournament(load_config(path), tmp_path / "fresh", workers=2)
    assert keys == _keys(tmp_path / "fresh")


def test_another_config_in_the_same_directory_is_refused(tmp_path, capsys):
    first = write_config(tmp_path / "a.toml", {"a": "random", "b": "random"}, games=3)
    second = write_config(tmp_path / "b.toml", {"a": "random", "b": "random"}, games=3, seed=99)
    out = tmp_path / "out"
    assert main(["tournament", "run", str(first), "--out", str(out), "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["tournament", "run", str(second), "--out", str(out), "--workers", "1"]) == 2
    assert "differs in: seed" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("seed", "message"),
    [
        (engine.MAX_SEED + 1, f"key 'seed': must be from 0 to {engine.MAX_SEED}, not {engine.MAX_SEED + 1}"),
        (-1, "key 'seed': must be non-negative, not -1"),
    ],
)
def test_cli_run_refuses_a_base_seed_out_of_range(tmp_path, capsys, seed, message):
    path = write_config(tmp_path / "t.toml", {"a": "random", "b": "random"}, games=3, seed=seed)
    out = tmp_path / "out"
    assert main(["tournament", "run", str(path), "--out", str(out), "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


@pytest.mark.skipif(os.name != "posix", reason="directory fsync is POSIX only")
def test_tournament_replays_are_fsynced_with_their_directory(tmp_path, monkeypatch):
    """Each saved replay: its file is fsynced, then the replays directory (after the rename)."""
    config = load_config(write_config(tmp_path / "t.toml", {"a": "random", "b": "random"}, games=3))
    calls = record_fsyncs(monkeypatch)
    summary = run_tournament(config, tmp_path / "out", workers=1)
    replay_dir = tmp_path / "out" / "replays"
    files = sorted(replay_dir.iterdir())
    assert [f.name for f in files] == [f"game-{i:06d}.replay" for i in range(summary.played)]
    directory = ("dir", replay_dir.stat().st_ino)
    assert calls == [call for f in files for call in (("file", f.stat().st_ino), directory)]
    for f in files:
        replays.verify(replays.load(f))

    calls.clear()  # the parent's path for replays sent back by Dask workers
    path = replay_dir / "game-000099.replay"
    _save_replay(path, files[0].read_bytes())
    assert calls == [("file", path.stat().st_ino), directory]
    assert path.read_bytes() == files[0].read_bytes()


def test_cli_run_and_show_write_the_leaderboard(tmp_path, capsys):
    path = write_config(tmp_path / "t.toml", {"a": "random", "b": "bots.base:RandomBot"}, games=6)
    out = tmp_path / "out"
    assert main(["tournament", "run", str(path), "--out", str(out), "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert "games/s" in printed and "rating" in printed
    board = json.loads((out / "leaderboard.json").read_text())
    assert board["game"] == "deadwood1876" and board["played"] == 6
    row = board["leaderboard"][0]
    for key in ("bot", "rating", "low", "high", "games", "wins", "mean_score", "mean_rank", "faults"):
        assert key in row
    assert board["runs"][0]["games_per_s"] > 0
    assert board["rating_scale"].startswith("Bradley-Terry, Elo scale") and board["bootstrap_resamples"] == 20
    assert [(pair["higher"], pair["lower"]) for pair in board["pairs"]] == [
        (board["leaderboard"][0]["bot"], board["leaderboard"][1]["bot"])
    ]
    assert "which bots are separated at 95%" in printed
    csv_lines = (out / "leaderboard.csv").read_text().splitlines()
    assert csv_lines[0].startswith("place,bot,spec,rating,se,low,high") and csv_lines[0].endswith(",above")
    assert len(csv_lines) == 3
    assert main(["tournament", "show", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "rating (Elo) fitted to the first N games" in shown and "games/s" in shown
    assert "rating (Elo)" in rating_plot(build_report(out), color=False)


def test_ratings_rank_a_strong_bot_first(tmp_path, monkeypatch):
    """A bot that always wins (by forcing everyone else to forfeit) is rated first with a clear interval."""
    path = write_config(
        tmp_path / "t.toml",
        {"random": "random", "junk1": "test_junk_bots:JunkBot", "junk2": "test_junk_bots:JunkBot"},
        games=12,
        max_faults=0,
        bootstrap=50,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "test_junk_bots.py").write_text(
        "class JunkBot:\n    name = 'junk'\n    def act(self, view, legal, seat):\n        return 'junk'\n"
    )
    run_tournament(load_config(path), tmp_path / "out", workers=1)
    report = build_report(tmp_path / "out")
    best, *rest = report.rows
    assert best.bot == "random" and best.mean_rank == 1.0 and best.games == 12
    assert all(best.low > row.high for row in rest)
    assert [(pair.higher, pair.lower, pair.separated) for pair in report.pairs] == [
        ("random", "junk1", True),
        ("random", "junk2", True),
        ("junk1", "junk2", False),
    ]
    assert [row.above for row in report.rows] == [("junk1", "junk2"), (), ()]
    assert msgspec.json.decode(msgspec.json.encode(report.rows)) is not None


def test_dask_local_cluster_gives_the_same_results(tmp_path):
    pytest.importorskip("distributed")
    bots = {"random": "random", "starter_py": f"cmd:{PYTHON} {STARTER_PY}"}
    path = write_config(tmp_path / "t.toml", bots, games=9)
    config = load_config(path)
    summary = run_tournament(config, tmp_path / "dask", workers=2, dask="local")
    assert summary.backend == "dask" and summary.played == 9
    run_tournament(config, tmp_path / "inline", workers=1)
    assert _keys(tmp_path / "dask") == _keys(tmp_path / "inline")


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "examples").glob("*.toml")))
def test_every_example_is_valid_and_plays_its_first_games(tmp_path, name):
    """Each example's first duplicate set of games, in this process, with every game's replay
    verifying. The whole examples are timed (under a minute each on two cores) by
    ``tests/bench/test_bench_examples.py``, a benchmark: speed is never a unit test's assertion."""
    config = msgspec.structs.replace(load_config(ROOT / "examples" / name), games=1, bootstrap=0)
    summary = run_tournament(config, tmp_path / "out", workers=1)
    assert summary.played == summary.scheduled > 0
    with ResultStore(tmp_path / "out" / "results.sqlite") as store:
        records = store.records()
    assert len(records) == summary.played and not any(any(r.faults) for r in records)
