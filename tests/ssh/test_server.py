"""The SSH server end to end: asyncssh clients with a PTY (screens read through pyte) and remote bots."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import asyncssh

import replays
from lobby.tables import Identity, SeatSpec
from serve.ssh_server import RateLimiter, SaloonServer
from tests.ssh.conftest import make_server
from tests.ssh.termclient import Terminal, connect, make_key, wait_until


async def run_command(port: int, user: str, key: asyncssh.SSHKey | None, command: str | None) -> tuple[int, str, str]:
    """Run ``command`` without a PTY; returns exit status, stdout and stderr."""
    conn = await connect(port, user, key)
    try:
        result = await conn.run(command, encoding="utf-8", timeout=20)
        return int(result.exit_status or 0), str(result.stdout), str(result.stderr)
    finally:
        conn.close()


async def new_table(term: Terminal, players: int, bots: str, sit: bool = True) -> str:
    """Open a table from the lobby; returns its code."""
    await term.press("n")
    await term.wait_for("New table")
    await term.settle()  # the form has focused its first field, the game
    await term.press("tab")  # game -> players
    await term.settle()  # the focus moved before typing on
    await term.press("backspace", "backspace", str(players), "tab")
    await term.press(*(["backspace"] * 20))
    await term.type(bots)
    if not sit:
        await term.press("tab", "tab", " ", "shift+tab")
    await term.press("enter")
    await term.wait_for("Table ")
    line = next(line for line in term.text().splitlines() if "Table " in line)
    return line.split("Table ", 1)[1].split()[0]


async def play_to_end(term: Terminal, timeout: float = 45.0) -> None:
    """Pick the first choice whenever it is this player's move, until the game is over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = await term.wait_for("Your move", "r: replay", timeout=deadline - time.monotonic())
        if found == "r: replay":
            return
        before = term.text()
        await term.press("1", pause=0)
        t0 = time.monotonic()
        while term.text() == before and time.monotonic() - t0 < 2:
            await asyncio.sleep(0.02)
    raise AssertionError("the game did not end in time:\n" + term.text())


class BotClient:
    """A remote bot over SSH (no PTY) that always answers the first legal action (or ``answer``)."""

    def __init__(self, port: int, user: str, command: str, answer: Any = None) -> None:
        self.port = port
        self.user = user
        self.command = command
        self.answer = answer
        self.messages: list[dict[str, Any]] = []

    async def run(self) -> tuple[int, str]:
        conn = await connect(self.port, self.user, make_key(self.user))
        try:
            process = await conn.create_process(self.command, encoding=None)
            while True:
                line = await process.stdout.readline()
                if not line:
                    break
                message = json.loads(line)
                self.messages.append(message)
                if message["type"] == "decide":
                    reply = self.answer if self.answer is not None else json.dumps({"action": 0}).encode() + b"\n"
                    process.stdin.write(reply)
                elif message["type"] == "end":
                    break
            await asyncio.wait_for(process.wait_closed(), 10)
            stderr = (await process.stderr.read()).decode()
            return int(process.exit_status or 0), stderr
        finally:
            conn.close()


# Identity ---------------------------------------------------------------------------------------


async def test_first_login_registers_the_key_and_a_taken_name_is_refused(server: SaloonServer) -> None:
    status, out, err = await run_command(server.port, "alice", make_key("alice"), "help")
    assert status == 0 and "Saloon" in out
    assert server.store.name_for_key(make_key("alice").get_fingerprint()) == "alice"

    status, out, err = await run_command(server.port, "alice", make_key("mallory"), "help")
    assert status == 1
    assert "registered to another key" in err

    status, _, err = await run_command(server.port, "Not A Name", make_key("zed"), "help")
    assert status == 1 and "not a valid player name" in err

    status, _, err = await run_command(server.port, "nokey", None, "help")
    assert status == 1 and "ssh-keygen" in err


async def test_guest_mode_admits_keyless_users(tmp_path: Path) -> None:
    srv = make_server(tmp_path / "data", guest=True)
    await srv.start()
    try:
        async with Terminal(srv.port, "drifter", None) as term:
            await term.wait_for("drifter (guest)")
        await run_command(srv.port, "alice", make_key("alice"), "help")
        status, _, err = await run_command(srv.port, "alice", None, "help")
        assert status == 1 and "registered to another key" in err
    finally:
        await srv.stop()


async def test_restart_keeps_accounts_and_the_host_key(tmp_path: Path) -> None:
    data = tmp_path / "data"
    srv = make_server(data)
    await srv.start()
    try:
        await run_command(srv.port, "alice", make_key("alice"), "help")
        first_host_key = (data / "host_key").read_bytes()
    finally:
        await srv.stop()
    srv = make_server(data)
    await srv.start()
    try:
        assert (data / "host_key").read_bytes() == first_host_key
        status, _, err = await run_command(srv.port, "alice", make_key("mallory"), "help")
        assert status == 1 and "registered to another key" in err
        status, _, _ = await run_command(srv.port, "alice", make_key("alice"), "help")
        assert status == 0
    finally:
        await srv.stop()


# Playing ----------------------------------------------------------------------------------------


async def test_create_a_table_with_bots_and_play_to_the_end(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice")) as term:
        await term.wait_for("Saloon")
        code = await new_table(term, 2, "random")
        await play_to_end(term)
        table = server.lobby.table(code)
        assert table.is_over
        assert str(table.seed_if_over()) in term.text()  # the seed is shown once the game is over
    for _ in range(50):
        if server.store.games():
            break
        await asyncio.sleep(0.05)
    (record,) = server.store.games()
    assert record.code == code and record.players == ("alice", "random")
    replay = replays.load(record.replay)
    replays.verify(replay)
    assert replay.outcome is not None


async def test_spectator_sees_the_public_view_and_chat(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice")) as alice:
        await alice.wait_for("Saloon")
        code = await new_table(alice, 3, "random,random")
        await alice.wait_for("Your move")
        async with Terminal(server.port, "bob", make_key("bob")) as bob:
            await bob.wait_for(code)
            await bob.press("w")
            await bob.wait_for("c: chat here")
            await bob.wait_for("Waiting for")
            screen = bob.text()
            assert "Your hand" not in screen and "Your move" not in screen
            await alice.wait_for("1 watching")
            table = server.lobby.table(code)
            (watcher,) = map(server.front_side, table.spectators)
            await bob.press("c")
            await wait_until(lambda: watcher.query_one("#st-say").has_focus, what="chat focus")  # not the moves
            await bob.type("howdy\r")
            await alice.wait_for("bob: howdy")
            state = table.state
            assert state is not None
            # alice's hand is on her screen, never on the spectator's
            hand = state.view(0)
            assert "Your hand" in alice.text()
            assert type(hand).__name__ and "Your hand" not in bob.text()


async def test_disconnect_then_reconnect_takes_the_seat_back(tmp_path: Path) -> None:
    srv = make_server(tmp_path / "data", grace_s=0.3, bot_delay_s=0.05)
    await srv.start()
    try:
        async with Terminal(srv.port, "alice", make_key("alice")) as term:
            await term.wait_for("Saloon")
            code = await new_table(term, 2, "random")
            await term.wait_for("Your move")
        table = srv.lobby.table(code)
        # the bot answers the opening's Safe pass (everyone at once) without a pause, maybe after
        # alice sees "Your move": count from when only alice's seat owes a move, so a new one is hers
        await wait_until(lambda: table.to_act() == (0,), what="the bot's answer: only alice to act")
        moves = table.num_moves
        for _ in range(100):  # after the grace time a bot plays alice's seat
            if table.num_moves > moves + 2 or table.is_over:
                break
            await asyncio.sleep(0.05)
        assert table.num_moves > moves
        async with Terminal(srv.port, "alice", make_key("alice")) as term:
            # the lobby first, saying where the game is (issue 23): t goes back to it
            found = await term.wait_for(f"You have a game on at {code}: t to return", "n: new table", timeout=10)
            if not table.is_over:
                assert found == f"You have a game on at {code}: t to return"
                await term.press("t")
                found = await term.wait_for("you: seat 0", "Game over", timeout=10)
            if not table.is_over:
                assert found == "you: seat 0"
                assert table.seats[0].controller is not None and not table.seats[0].substitute
    finally:
        await srv.stop()


async def test_a_remote_bot_takes_a_seat_and_plays_to_the_end(server: SaloonServer) -> None:
    await run_command(server.port, "carol", make_key("carol"), "help")
    creator = Identity("carol", make_key("carol").get_fingerprint())
    table = server.lobby.create_table(creator, "deadwood1876", 3, [SeatSpec("open"), SeatSpec("bot"), SeatSpec("bot")])
    bot = BotClient(server.port, "robo", f"bot --table {table.code} --seat 0")
    status, stderr = await asyncio.wait_for(bot.run(), 40)
    assert status == 0, stderr
    kinds = [m["type"] for m in bot.messages]
    assert kinds[0] == "start" and kinds[-1] == "end" and "decide" in kinds
    assert "seed" not in json.dumps(bot.messages[0])
    assert table.is_over and not table.faults
    assert table.names()[0] == "robo (remote bot)"


async def test_a_lobby_assigned_remote_bot_and_a_faulty_one(server: SaloonServer) -> None:
    creator = Identity("carol", "x")
    table = server.lobby.create_table(creator, "deadwood1876", 2, [SeatSpec("open"), SeatSpec("bot")])
    bad = BotClient(server.port, "badbot", "bot", answer=b"this is not json\n")
    status, stderr = await asyncio.wait_for(bad.run(), 20)
    assert status == 1 and "bot fault" in stderr
    assert table.faults and "badbot" in table.faults[0]
    # the game goes on: after the grace time a substitute bot plays the seat


# Bad input --------------------------------------------------------------------------------------


async def test_bad_input_closes_only_that_channel(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice")) as alice:
        await alice.wait_for("Saloon")
        async with Terminal(server.port, "bob", make_key("bob")) as bob:
            await bob.wait_for("Saloon")
            bob.send(b"\xff\xfe\x00garbage\x80")
            await asyncio.wait_for(bob.closed.wait(), 10)
            assert b"not UTF-8" in bytes(bob.raw)
            assert bytes(bob.raw).rstrip().endswith(b"not UTF-8") or b"\x1b[?1049l" in bytes(bob.raw)
        await alice.press("c")
        await alice.type("still here\r")
        await alice.wait_for("alice: still here")
    status, _, err = await run_command(server.port, "alice", make_key("alice"), "rm -rf /")
    assert status == 2 and "unknown command" in err
    status, _, err = await run_command(server.port, "alice", make_key("alice"), None)
    assert status == 2 and "needs a terminal" in err
    conn = await connect(server.port, "bob", make_key("bob"))
    try:
        process = await conn.create_process("bot", encoding=None)
        process.stdin.write(b"x" * 70_000)
        await asyncio.wait_for(process.wait_closed(), 10)
        assert process.exit_status == 1
        assert b"longer than" in await process.stderr.read()
    finally:
        conn.close()


async def test_the_terminal_is_restored_on_exit(server: SaloonServer) -> None:
    async with Terminal(server.port, "alice", make_key("alice")) as term:
        await term.wait_for("Saloon")
        await term.press("q")
        await asyncio.wait_for(term.closed.wait(), 10)
        raw = bytes(term.raw)
        assert raw.rindex(b"\x1b[?1049l") > raw.rindex(b"\x1b[?1049h")
        assert b"\x1b[?25h" in raw[raw.rindex(b"\x1b[?1049l") - 20 :]
        assert "so long, alice" in term.text()


async def test_connections_are_rate_limited_per_address(tmp_path: Path) -> None:
    srv = make_server(tmp_path / "data")
    srv.limiter = RateLimiter(burst=2, per_second=0.01, max_concurrent=10)
    await srv.start()
    try:
        for _ in range(2):
            status, _, _ = await run_command(srv.port, "alice", make_key("alice"), "help")
            assert status == 0
        reader, writer = await asyncio.open_connection("127.0.0.1", srv.port)
        banner = await asyncio.wait_for(reader.read(200), 5)
        writer.close()
        assert b"too many new connections" in banner
    finally:
        await srv.stop()
