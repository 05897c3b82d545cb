"""Bots at a server table move at the bot pace (ServerConfig.bot_delay_s) when people follow the
game: a person at the table, or a spectator of an unrated table. Unwatched tables of bots, and
ladder tables whatever their spectators, play at full speed."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import lobby.tables
from lobby.store import Store
from lobby.tables import Identity, Lobby, SeatSpec, ServerConfig
from tests.ssh.termclient import wait_until

DELAY = 0.0007  # a pause no other part of the table uses


class _Watcher:
    def changed(self, what: Any) -> None:
        pass


class _RecordingAsyncio:
    """``asyncio`` for :mod:`lobby.tables`, recording the pauses it asks for."""

    def __init__(self) -> None:
        self.pauses: list[float] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, seconds: float) -> None:
        self.pauses.append(seconds)
        await asyncio.sleep(0)


@pytest.mark.parametrize("watched", [True, False])
async def test_a_table_of_bots_is_paced_only_while_someone_watches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, watched: bool
) -> None:
    recorder = _RecordingAsyncio()
    monkeypatch.setattr(lobby.tables, "asyncio", recorder)
    store = Store(tmp_path / "data")
    saloon = Lobby(store, ServerConfig(bot_delay_s=DELAY))
    table = saloon.create_table(Identity("ann", "key:ann"), "deadwood_studios", 2, [SeatSpec("bot"), SeatSpec("bot")])
    if watched:
        table.watch(_Watcher(), spectator=True)  # before the first move: the task has not run yet
    await wait_until(lambda: table.is_over, timeout=60, what="the bots' game to end")
    paced = recorder.pauses.count(DELAY)
    assert (paced == table.num_moves) if watched else (paced == 0)
    await saloon.close()
    store.close()
