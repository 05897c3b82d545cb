"""The server's tables without SSH: who may act, who sees what, the secret seed, chat and rate limits."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
import pytest

import engine
from lobby.store import Store
from lobby.tables import Identity, Lobby, SeatSpec, ServerConfig, TableError, clean_text
from serve.ssh_server import RateLimiter


class Screen:
    """A stand-in for a person's session: records what it was told."""

    def __init__(self, name: str) -> None:
        self.identity = Identity(name, f"key-{name}")
        self.changes = 0
        self.lost: list[str] = []

    def changed(self, what: Any) -> None:
        self.changes += 1

    def seat_lost(self, table: Any, seat: int, reason: str) -> None:
        self.lost.append(reason)


@pytest.fixture
def lobby(tmp_path: Path) -> Lobby:
    return Lobby(Store(tmp_path), ServerConfig(bot_delay_s=0, grace_s=60))


async def test_only_the_seat_controller_acts_and_spectators_get_the_public_view(lobby: Lobby) -> None:
    alice, bob, eve = Screen("alice"), Screen("bob"), Screen("eve")
    table = lobby.create_table(alice.identity, "deadwood1876", 2, [SeatSpec("me"), SeatSpec("open")])
    assert table.sit(alice) == 0  # type: ignore[arg-type]
    assert table.sit(bob) == 1  # type: ignore[arg-type]
    table.watch(eve, spectator=True)
    state = table.state
    assert state is not None and table.status == "playing"
    seat, view = table.view_for(eve)
    assert seat is None and view == state.view(None)
    assert table.view_for(alice) == (0, state.view(0))
    assert table.legal_for(eve) == []  # type: ignore[arg-type]
    with pytest.raises(TableError):
        table.play(eve, state.legal_actions(0)[0])  # type: ignore[arg-type]
    assert state.to_act == (0, 1)  # the set-up pass is simultaneous
    table.play(bob, state.legal_actions(1)[0])  # type: ignore[arg-type]  # bob's session acts for seat 1 only
    assert state.to_act == (0,)
    with pytest.raises(engine.IllegalAction):
        table.play(bob, state.legal_actions(0)[0])  # type: ignore[arg-type]
    table.release(alice)  # type: ignore[arg-type]
    with pytest.raises(TableError):  # a session that let go of its seat cannot act
        table.play(alice, state.legal_actions(0)[0])  # type: ignore[arg-type]
    with pytest.raises(TableError):
        table.sit(eve)  # type: ignore[arg-type]  # no free seat
    await table.close()


async def test_the_seed_reaches_nobody_until_the_game_is_over(lobby: Lobby) -> None:
    alice = Screen("alice")
    table = lobby.create_table(alice.identity, "deadwood1876", 3, [SeatSpec("me"), SeatSpec("bot"), SeatSpec("bot")])
    table.sit(alice)  # type: ignore[arg-type]
    seed = table._Table__seed  # type: ignore[attr-defined]
    assert table.seed_if_over() is None and table.replay is None
    shown = [msgspec.json.encode(table.view_for(alice)[1]), msgspec.json.encode(table.events_for(alice))]
    shown.append(repr(vars(table)).encode())
    assert not any(str(seed).encode() in blob for blob in shown[:2])
    assert "seed" not in {k for k in vars(table) if not k.startswith("_")}
    await table.close()


async def test_a_returning_owner_takes_the_seat_from_an_old_session(lobby: Lobby) -> None:
    first, second = Screen("alice"), Screen("alice")
    table = lobby.create_table(first.identity, "deadwood1876", 2, [SeatSpec("me"), SeatSpec("bot")])
    table.sit(first)  # type: ignore[arg-type]
    table.release(first)  # type: ignore[arg-type]  # disconnected: keeps the seat for the grace time
    assert table.seats[0].status == "away"
    assert table.sit(second) == 0  # type: ignore[arg-type]
    assert table.seats[0].controller is second and table.seats[0].status == "here"
    third = Screen("alice")
    table.sit(third)  # type: ignore[arg-type]
    assert second.lost and table.seats[0].controller is third
    await table.close()


async def test_a_waiting_table_nobody_sits_at_is_dropped(lobby: Lobby) -> None:
    alice = Screen("alice")
    table = lobby.create_table(alice.identity, "deadwood1876", 2, [SeatSpec("me"), SeatSpec("open")])
    table.sit(alice)  # type: ignore[arg-type]
    table.release(alice, leave=True)  # type: ignore[arg-type]
    assert table.code not in lobby.tables


async def test_the_creators_seat_is_reserved_from_the_start_and_across_a_reconnect(lobby: Lobby) -> None:
    alice = Screen("alice")
    seats = [SeatSpec("me"), SeatSpec("open"), SeatSpec("open"), SeatSpec("bot")]
    table = lobby.create_table(alice.identity, "deadwood1876", 4, seats)
    assert [s.free for s in table.seats] == [False, True, True, False]  # only the open seats are offered
    assert lobby.first_free() is table
    mallory = Screen("mallory")
    assert table.sit(mallory) == 1  # type: ignore[arg-type]  # mallory (or a waiting remote bot) gets the open seat, never alice's
    with pytest.raises(TableError, match="taken"):
        table.sit(Screen("eve"), 0)  # type: ignore[arg-type]
    table.release(mallory)  # type: ignore[arg-type]
    assert table.sit(alice) == 0  # type: ignore[arg-type]
    table.release(alice)  # type: ignore[arg-type]  # her connection drops: the seat stays hers
    assert table.code in lobby.tables and table.seats[0].owner == alice.identity.key
    assert table.sit(Screen("eve")) == 1  # type: ignore[arg-type]
    again = Screen("alice")
    assert table.sit(again) == 0  # type: ignore[arg-type]  # her next session takes it back
    assert table.status == "waiting"
    await table.close()


async def test_bots_only_tables_play_to_the_end_and_are_recorded(lobby: Lobby) -> None:
    table = lobby.create_table(Identity("x", "x"), "deadwood1876", 4, [SeatSpec("bot")] * 4)
    for _ in range(400):
        if table.is_over:
            break
        await asyncio.sleep(0.02)
    assert table.is_over and table.replay is not None and table.seed_if_over() == table.replay.header.seed
    (record,) = lobby.store.games()
    assert record.code == table.code


def test_bad_table_requests_are_refused_with_a_message(lobby: Lobby) -> None:
    who = Identity("x", "x")
    with pytest.raises(TableError, match="unknown game"):
        lobby.create_table(who, "chess", 2, [SeatSpec("me"), SeatSpec("open")])
    with pytest.raises(TableError, match="players"):
        lobby.create_table(who, "deadwood1876", 12, [SeatSpec("open")] * 12)
    with pytest.raises(TableError):
        lobby.create_table(who, "deadwood1876", 2, [SeatSpec("me"), SeatSpec("bot", "nosuchbot")])
    with pytest.raises(TableError, match="option"):
        lobby.create_table(who, "deadwood1876", 2, [SeatSpec("me"), SeatSpec("open")], {"nope": "1"})


def test_chat_text_loses_control_characters() -> None:
    assert clean_text("hi\x1b[2J\x07 there\n") == "hi [2J there"
    assert len(clean_text("x" * 5000)) == 300


def test_rate_limiter_buckets_and_concurrency() -> None:
    limiter = RateLimiter(burst=2, per_second=0.0001, max_concurrent=5)
    assert limiter.admit("1.2.3.4") is None
    assert limiter.admit("1.2.3.4") is None
    assert "too many new connections" in str(limiter.admit("1.2.3.4"))
    assert limiter.admit("5.6.7.8") is None  # other addresses are not affected
    limiter = RateLimiter(burst=10, per_second=1, max_concurrent=1)
    assert limiter.admit("1.2.3.4") is None
    assert "at once" in str(limiter.admit("1.2.3.4"))
    limiter.done("1.2.3.4")
    assert limiter.admit("1.2.3.4") is None


async def test_a_game_its_people_left_plays_at_the_bots_speed_and_holds_their_addresss_place(tmp_path: Path) -> None:
    lobby = Lobby(Store(tmp_path), ServerConfig(bot_delay_s=10.0, grace_s=60))  # paced, a game would take hours
    alice = Screen("alice")
    alice.identity = Identity("alice", "key-alice", address="203.0.113.9")
    table = lobby.create_table(alice.identity, "deadwood1876", 3, [SeatSpec("me"), SeatSpec("bot"), SeatSpec("bot")])
    assert table.sit(alice) == 0  # type: ignore[arg-type]
    assert table.status == "playing" and not table.holds_place
    table.release(alice, leave=True)  # type: ignore[arg-type]
    assert table.holds_place  # nobody plays it now: it counts against alice's address
    for _ in range(600):
        if table.is_over:
            break
        await asyncio.sleep(0.05)
    assert table.is_over  # nobody follows it: no pause before the bots' moves
    assert table.num_moves > 20
