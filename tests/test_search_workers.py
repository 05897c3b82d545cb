"""Search bots decide in worker processes at server tables and local tables, never on the event loop."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from bots import make_bot, workers
from lobby.local import LocalTable
from lobby.store import Store
from lobby.tables import Identity, Lobby, SeatSpec, ServerConfig

GAME = engine.game("deadwood1876")


@pytest.fixture(autouse=True, scope="module")
def _stop_the_workers() -> Iterator[None]:
    """The worker processes end with this module (other tests count this process's children)."""
    yield
    workers.shutdown(wait=True)


def _midgame(players: int, seed: int, moves: int) -> engine.State:
    state = GAME.new_game(players, seed)
    for _ in range(moves):
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    return state


async def test_a_decision_in_a_worker_is_the_same_as_in_process() -> None:
    state = _midgame(3, 11, 20)
    seat = state.to_act[0]
    here, bot_here = workers.decide_here(make_bot("ismcts:iterations=40", seed=5), state.clone(), seat)
    there, bot_there = await workers.decide(make_bot("ismcts:iterations=40", seed=5), state, seat)
    assert there == here and 0 <= here < len(state.legal_actions(seat))
    # the bot comes back as it is after deciding: the next decisions agree too
    state.apply(seat, state.legal_actions(seat)[here])
    seat = state.to_act[0]
    assert workers.decide_here(bot_here, state.clone(), seat)[0] == (await workers.decide(bot_there, state, seat))[0]


async def test_the_search_runs_in_another_process_while_the_loop_goes_on() -> None:
    state = _midgame(5, 3, 10)
    seat = state.to_act[0]
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.get_running_loop().create_task(tick())
    try:
        index, _ = await workers.decide(make_bot("ismcts:ms=300", seed=1), state, seat)
    finally:
        ticker.cancel()
    assert 0 <= index < len(state.legal_actions(seat))
    assert ticks >= 10  # the loop kept turning while the worker searched for 300 ms
    assert os.getpid() not in {p.pid for p in workers.pool()._processes.values()}  # type: ignore[union-attr]


def test_random_and_heuristic_bots_are_not_search_bots() -> None:
    state = GAME.new_game(3, 1)
    assert workers.is_search_bot(make_bot("ismcts", seed=1), state)
    assert not workers.is_search_bot(make_bot("random", seed=1), state)
    assert not workers.is_search_bot(make_bot("heuristic", seed=1), state)


async def test_a_server_table_of_search_bots_plays_to_the_end(tmp_path: Path) -> None:
    lobby = Lobby(
        Store(tmp_path), ServerConfig(bot_delay_s=0, bots={"ismcts": "ismcts:iterations=8", "random": "random"})
    )
    seats = [SeatSpec("bot", "ismcts"), SeatSpec("bot", "random")]
    table = lobby.create_table(Identity("x", "x"), "deadwood1876", 2, seats)
    for _ in range(1200):
        if table.is_over:
            break
        await asyncio.sleep(0.05)
    assert table.is_over and table.faults == []
    (record,) = lobby.store.games()
    assert record.players[0] == "ismcts"


async def test_a_local_table_runs_its_search_bot_in_a_worker() -> None:
    bots = {0: make_bot("ismcts:iterations=8", seed=1), 1: make_bot("random", seed=2)}
    table = LocalTable("deadwood1876", 2, None, bots, seed=4)
    table.delay = 0
    moved: list[int] = []
    await table.run_bots(lambda seat, paced: moved.append(seat))
    assert table.state.is_over and table.faults == []
    assert 0 in moved


def test_bench_search_reports_clone_resample_and_iterations(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from saloon.cli import main

    assert main(["bench", "deadwood1876", "--players", "2", "--search", "--seconds", "0.2", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["game"] == "deadwood1876" and row["players"] == 2 and row["positions"] == 20
    assert row["clone_us"] > 0 and row["resample_us"] > 0 and row["ismcts_iterations_per_s"] > 0
    assert row["decisions"] > 0 and row["decision_us"] == pytest.approx(row["view_us"] + row["choose_us"], abs=0.2)
    assert row["heuristic_playouts_per_s"] > 0 and row["random_playouts_per_s"] > 0


async def test_workers_start_while_a_textual_app_has_captured_the_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    # While an SSH session's app runs, Textual replaces sys.stdout/sys.stderr with captures whose
    # fileno() is -1; starting a worker process with them failed with "bad value(s) in fds_to_keep".
    import io
    import sys

    class Capture(io.StringIO):
        def fileno(self) -> int:
            return -1

    workers.shutdown(wait=True)
    monkeypatch.setattr(sys, "stdout", Capture())
    monkeypatch.setattr(sys, "stderr", Capture())
    state = _midgame(2, 9, 6)
    seat = state.to_act[0]
    index, _ = await workers.decide(make_bot("ismcts:iterations=5", seed=2), state, seat)
    assert 0 <= index < len(state.legal_actions(seat))
    assert isinstance(sys.stderr, Capture)  # the app's capture is back in place afterwards
