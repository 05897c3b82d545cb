"""Issue 35, the saloon on every core: one hall, several fronts, the protocol between them.

* two fronts (on 127.0.0.1 and 127.0.0.2) serve one hall: a table opened on one is joined from
  the other and both see the game; a connection limit of one per address counts both fronts'
  connections; a sign-in link issued through one front is redeemed through the other; a name
  registers once;
* the protocol is hostile input: garbage, an over-long frame, a wrong MAC, a message out of
  place, another front's session numbers: the hall answers nothing and nothing changes;
* ``saloon serve --workers 2``: a front killed with SIGKILL mid-game loses nothing (the person's
  seat waits, another front gives it back), the other front's session goes on, and the
  supervisor starts a new front in its place.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
import msgspec
import pytest

from lobby import protocol as p
from lobby.client import HallClient
from lobby.tables import Identity, SeatSpec, ServerConfig
from serve.hall import Hall, open_hall
from serve.ssh_server import RateLimiter, SaloonServer
from tests.ssh.termclient import Terminal, make_key, wait_until

ROOT = Path(__file__).resolve().parents[2]


class LoopbackTerminal(Terminal):
    """A :class:`Terminal` on a front listening on another loopback address."""

    def __init__(self, host: str, port: int, user: str, key: Any) -> None:
        super().__init__(port, user, key)
        self.host = host

    async def __aenter__(self) -> LoopbackTerminal:
        self.conn = await asyncssh.connect(
            self.host,
            self.port,
            username=self.user,
            known_hosts=None,
            client_keys=[self.key],
            agent_path=None,
            kbdint_auth=True,
            password_auth=False,
            preferred_auth="publickey,keyboard-interactive",
            config=[],
        )
        self.process = await self.conn.create_process(term_type="xterm-256color", term_size=self.size, encoding=None)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        return self


@contextlib.asynccontextmanager
async def hall_and_fronts(
    data: Path, hosts: list[str], limiter: RateLimiter | None = None
) -> AsyncIterator[tuple[Hall, list[SaloonServer]]]:
    """A hall on a Unix socket in ``data`` and a front (in this event loop) on each of ``hosts``."""
    hall = Hall(
        data,
        ServerConfig(bot_delay_s=0.0, grace_s=30.0),
        limiter=limiter or RateLimiter(burst=100, per_second=50, max_concurrent=100),
    )
    await hall.start()
    address = await hall.listen(f"unix:{data / 'hall.sock'}")
    fronts = [SaloonServer(data, host, 0, hall=address, name=f"front-{host}") for host in hosts]
    try:
        for front in fronts:
            await front.start()
        yield hall, fronts
    finally:
        for front in fronts:
            await front.stop()
        await hall.stop()


async def test_two_fronts_on_two_addresses_share_one_hall(tmp_path: Path) -> None:
    data = tmp_path / "data"
    async with hall_and_fronts(data, ["127.0.0.1", "127.0.0.2"]) as (hall, (one, two)):
        async with LoopbackTerminal("127.0.0.1", one.port, "alice", make_key("alice")) as alice:
            await alice.wait_for("Saloon")
            table = hall.lobby.create_table(
                Identity("carol", "key-carol"), "wyatt_earp", 2, [SeatSpec("open"), SeatSpec("open")], None
            )
            async with LoopbackTerminal("127.0.0.2", two.port, "bob", make_key("bob")) as bob:
                await bob.wait_for(table.code)  # the table opened at the hall is listed on the other front
                await alice.wait_for(table.code)
                await alice.press("enter")  # alice sits through front one
                await alice.wait_for("you: seat 0")
                await bob.press("enter")  # bob takes the last seat through front two: the game starts
                await bob.wait_for("you: seat 1")
                await wait_until(lambda: table.status == "playing", what="the game to start")
                await alice.wait_for("playing")
                await bob.wait_for("playing")
                assert [s.name for s in table.seats] == ["alice", "bob"]
                assert {s.controller.link.name for s in table.seats} == {"front-127.0.0.1", "front-127.0.0.2"}  # type: ignore[union-attr]
                # chat said on one front is read on the other
                await bob.press("c")
                await bob.settle()  # the chat line has the focus before the text is typed (late on a busy machine)
                await bob.type("howdy from two")
                await bob.wait_for("howdy from two")
                await bob.press("enter")
                await alice.wait_for("howdy from two")


async def test_the_hall_counts_an_addresss_connections_on_every_front(tmp_path: Path) -> None:
    """One connection per address: the second, to the other front, is refused before its handshake."""
    data = tmp_path / "data"
    limiter = RateLimiter(burst=100, per_second=50, max_concurrent=1)
    async with hall_and_fronts(data, ["127.0.0.1", "127.0.0.2"], limiter) as (hall, (one, two)):
        async with LoopbackTerminal("127.0.0.1", one.port, "alice", make_key("alice")) as alice:
            await alice.wait_for("Saloon")
            with pytest.raises((asyncssh.Error, OSError)):
                conn = await asyncssh.connect(
                    "127.0.0.2",
                    two.port,
                    username="bob",
                    known_hosts=None,
                    client_keys=[make_key("bob")],
                    agent_path=None,
                    config=[],
                    login_timeout=5,
                )
                conn.close()
        # alice's connection closed: its place is free again, on any front
        await wait_until(lambda: not hall.limiter._open, what="the connection to be let go")
        async with LoopbackTerminal("127.0.0.2", two.port, "bob", make_key("bob")) as bob:
            await bob.wait_for("Saloon")


async def test_a_sign_in_link_and_a_name_hold_across_fronts(tmp_path: Path) -> None:
    data = tmp_path / "data"
    async with hall_and_fronts(data, ["127.0.0.1", "127.0.0.2"]) as (hall, (one, two)):
        key = make_key("alice")
        first, refusal = await one.client.identify("alice", key.get_fingerprint(), "k1", False, "127.0.0.1")
        assert first is not None and refusal is None
        other = make_key("mallory")
        again, refusal = await two.client.identify("alice", other.get_fingerprint(), "k2", False, "127.0.0.2")
        assert again is None and refusal is not None and "alice" in refusal  # the name registered once
        token = await one.client.issue_link("alice", key.get_fingerprint())
        who = await two.client.redeem(token)
        assert who is not None and (who.name, who.key) == ("alice", key.get_fingerprint())
        assert await one.client.redeem(token) is None  # once, on any front


# The protocol as hostile input -------------------------------------------------------------------


async def raw(address: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await open_hall(address)
    challenge = p.out_decoder.decode(await p.read_frame(reader))
    assert isinstance(challenge, p.Challenge)
    return reader, writer


async def closed_without_a_word(reader: asyncio.StreamReader) -> bool:
    """True if the hall closes the connection sending nothing more."""
    data = await asyncio.wait_for(reader.read(), 5)
    return data == b""


async def test_the_hall_refuses_garbage_bad_macs_and_other_fronts_sessions(tmp_path: Path) -> None:
    data = tmp_path / "data"
    hall = Hall(data, ServerConfig(bot_delay_s=0.0, grace_s=30.0))
    await hall.start()
    try:
        address = await hall.listen(f"unix:{data / 'hall.sock'}")
        assert (data / "hall.sock").stat().st_mode & 0o077 == 0
        assert (data / "hall_secret").stat().st_mode & 0o777 == 0o600
        # garbage before the handshake
        reader, writer = await raw(address)
        writer.write(b"\x00\x00\x00\x05hello")
        assert await closed_without_a_word(reader)
        # a frame longer than a hello may be
        reader, writer = await raw(address)
        writer.write((10**6).to_bytes(4, "big") + b"x" * 100)
        assert await closed_without_a_word(reader)
        # a well-formed hello with a wrong MAC
        reader, writer = await raw(address)
        writer.write(p.encode(p.Hello(p.PROTOCOL, "mallory", secrets.token_bytes(32), b"\x00" * 32)))
        assert await closed_without_a_word(reader)
        # a request before the hello
        reader, writer = await raw(address)
        writer.write(p.encode(p.Query(1, "games")))
        assert await closed_without_a_word(reader)
        assert not hall.links

        # Two real fronts: the second names the first's session numbers and gets nothing.
        secret = p.load_hall_secret(data)
        alice_front, mallory_front = HallClient("alice's front"), HallClient("mallory's front")
        for client in (alice_front, mallory_front):
            reader, writer = await open_hall(address)
            await client.connect(reader, writer, secret)
        table = hall.lobby.create_table(Identity("carol", "k-carol"), "wyatt_earp", 2, [SeatSpec("open")] * 2, None)
        await asyncio.sleep(0.1)

        class Screen:
            identity = Identity("alice", "k-alice")

        screen = Screen()
        mirror = alice_front.lobby.table(table.code)
        assert await mirror.sit(screen) == 0
        sid = alice_front.known_sid(screen)
        assert sid is not None and table.seats[0].name == "alice"
        # mallory's front: another front's sid, on a table it never joined
        mallory_front.send(p.Release(sid, table.code, True))
        mallory_front.send(p.Close(sid))
        mallory_front.send(p.Say(sid, table.code, "pwned"))
        mallory_front.send(p.Watch(sid, table.code, True))
        with pytest.raises(Exception, match="no such session"):
            await mallory_front.request(lambda rid: p.Play(rid, sid, table.code, msgspec.msgpack.encode(None)))
        with pytest.raises(Exception, match="no such session"):
            await mallory_front.request(lambda rid: p.Fill(rid, sid, table.code, "random"))
        await asyncio.sleep(0.1)
        assert table.seats[0].controller is not None and table.seats[0].name == "alice"
        assert not table.chat and not table.spectators and table.status == "waiting"
        # garbage from an authenticated front: it is dropped, its sessions let go; the other goes on
        assert mallory_front._writer is not None
        mallory_front._writer.write(p.encode(p.Admit(1, "x"))[:4] + b"\xc1" * (len(p.encode(p.Admit(1, "x"))) - 4))
        await wait_until(lambda: len(hall.links) == 1, what="mallory's front to be dropped")
        assert table.seats[0].controller is not None
        assert (await alice_front.query(what="games")).games == []
        await alice_front.close()
        await mallory_front.close()
    finally:
        await hall.stop()


async def test_a_front_without_the_secret_is_not_a_front(tmp_path: Path) -> None:
    data = tmp_path / "data"
    hall = Hall(data, ServerConfig())
    await hall.start()
    try:
        address = await hall.listen(f"unix:{data / 'hall.sock'}")
        client = HallClient("guessing")
        reader, writer = await open_hall(address)
        with pytest.raises(ConnectionError):
            await client.connect(reader, writer, secrets.token_bytes(32))
        assert not hall.links
    finally:
        await hall.stop()


# saloon serve --workers 2: a front killed mid-game ---------------------------------------------------


def _inodes(pid: int) -> set[str]:
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                found.add(target[8:-1])
    return found


def front_of(pids: list[int], local_port: int) -> int:
    """Which of the fronts ``pids`` holds the connection from our ``local_port``."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        remote_port = int(fields[2].split(":")[1], 16)
        if remote_port == local_port:
            inode = fields[9]
            for pid in pids:
                if inode in _inodes(pid):
                    return pid
    raise LookupError(f"no front holds the connection from port {local_port}")


@pytest.mark.xdist_group("serve_workers")
async def test_a_front_killed_mid_game_loses_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    argv = ["serve", "--port", "0", "--workers", "2", "--house-bot", "none", "--grace", "60"]
    argv += ["--bot-delay", "0.3", "--data-dir", str(data), "--log-file", "-"]
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "saloon", *argv, cwd=str(ROOT), stderr=asyncio.subprocess.PIPE
    )
    assert proc.stderr is not None
    log: list[str] = []

    async def read_log() -> None:
        assert proc.stderr is not None
        while line := await proc.stderr.readline():
            log.append(line.decode(errors="replace"))

    reader = asyncio.get_running_loop().create_task(read_log())
    try:
        await wait_until(lambda: any("listening on" in line for line in log), timeout=60, what="the saloon")
        port = int(re.search(r"listening on \S+ port (\d+)", "".join(log)).group(1))  # type: ignore[union-attr]

        def fronts() -> list[int]:
            return [int(m) for m in re.findall(r"front \d+ started \(process (\d+)\)", "".join(log))]

        pids = fronts()[:2]
        alice = Terminal(port, "alice", make_key("alice"))
        await alice.__aenter__()
        await alice.wait_for("Saloon")
        alice_front = front_of(pids, alice.conn.get_extra_info("sockname")[1])  # type: ignore[union-attr]
        # bob's session on the other front (connections are spread by the kernel: try until one lands there)
        bobs = []
        for _ in range(40):
            bob = Terminal(port, "bob", make_key("bob"))
            await bob.__aenter__()
            bobs.append(bob)
            if front_of(pids, bob.conn.get_extra_info("sockname")[1]) != alice_front:  # type: ignore[union-attr]
                break
        else:
            pytest.skip("the kernel put every connection on one front")
        bob = bobs.pop()
        for extra in bobs:
            await extra.close()
        await bob.wait_for("Saloon")
        # alice opens a table of her and a bot: the game starts at once
        from tests.ssh.tablehelpers import new_table

        code = await new_table(alice, "wyatt_earp", 2, "random", "hideout_reward")
        await alice.wait_for("you: seat 0")
        await bob.wait_for(code)
        os.kill(alice_front, signal.SIGKILL)  # mid-game
        await alice.closed.wait()
        await wait_until(lambda: len(fronts()) >= 3, timeout=30, what="a new front in the dead one's place")
        # bob's session did not notice: it answers keys
        await bob.press("?")
        await bob.wait_for("The saloon")
        await bob.press("escape")
        # alice comes back (through whichever front) and takes her seat back at once
        async with Terminal(port, "alice", make_key("alice")) as again:
            await again.wait_for(f"You have a game on at {code}")
            await again.press("t")
            await again.wait_for("you: seat 0")
            assert "bot plays" not in again.text()
        await bob.close()
    finally:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(proc.wait(), 30)
        except TimeoutError:
            proc.kill()
            await proc.wait()
        reader.cancel()
