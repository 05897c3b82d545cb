"""No SSH user may run code on the server: bot names, options and bot-command arguments from a connection.

Each hostile name goes through the code paths a session uses (:meth:`lobby.tables.Lobby.create_table`,
the new-table form over an asyncssh PTY, the ``bot`` command), and each test checks that nothing
ran: no process started (``subprocess``, ``os`` and ``asyncio`` spawners are watched, and the test
process has no children), no module imported (``tests.ssh.evil_bot`` leaves a file when imported)
and no file created.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lobby.store import Store
from lobby.tables import DEFAULT_SERVER_BOTS, Identity, Lobby, SeatSpec, ServerConfig, TableError
from serve.ssh_server import SaloonServer, bot_offers, main
from tests.ssh.evil_bot import MARK_ENV
from tests.ssh.termclient import Terminal, connect, make_key, wait_until

EVIL_MODULE = "tests.ssh.evil_bot"


def hostile_names(mark: Path) -> list[str]:
    """Bot names a user might type to make the server run something."""
    return [
        f"cmd:touch {mark}",
        f"cmd:sh -c 'echo pwned > {mark}'",
        "os:system",
        "subprocess:Popen",
        f"{EVIL_MODULE}:EvilBot",
        "bots.external:ExternalBot",
        "../../../../bin/sh",
        f"/bin/touch {mark}",
        "random; touch /tmp/x",
        "heuristic\x1b[2J",
        "x" * 100_000,
        "cmd:" + "a" * 5_000,
    ]


class Spawns:
    """Records every attempt to start a process or import the evil module, and refuses it."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def refuse(self, what: str) -> Any:
        def refused(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(f"{what}{args[:2]!r}")
            raise AssertionError(f"{what} was called: {args[:2]!r}")

        return refused


def children() -> list[str]:
    """The process ids of this process's children (Linux: /proc)."""
    found: list[str] = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        with open(task / "children") as f:
            found += f.read().split()
    return found


@pytest.fixture
def watch(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[tuple[Spawns, Path]]:
    """Watch process spawners; yields the recorder and the mark file nothing may create."""
    mark = tmp_path / "PWNED"
    monkeypatch.setenv(MARK_ENV, str(mark))
    sys.modules.pop(EVIL_MODULE, None)
    spawns = Spawns()
    for module, name in [
        (subprocess, "Popen"),
        (os, "system"),
        (os, "posix_spawn"),
        (os, "posix_spawnp"),
        (os, "fork"),
        (os, "execv"),
        (os, "execvp"),
        (asyncio, "create_subprocess_exec"),
        (asyncio, "create_subprocess_shell"),
    ]:
        monkeypatch.setattr(module, name, spawns.refuse(f"{module.__name__}.{name}"))
    before = children()
    yield spawns, mark
    assert spawns.calls == []
    assert EVIL_MODULE not in sys.modules
    assert not mark.exists()
    assert children() == before


@pytest.fixture
def lobby(tmp_path: Path) -> Lobby:
    return Lobby(Store(tmp_path / "data"), ServerConfig(bot_delay_s=0))


def test_create_table_refuses_every_name_not_on_offer(lobby: Lobby, watch: tuple[Spawns, Path]) -> None:
    _, mark = watch
    alice = Identity("alice", "key-alice")
    for name in hostile_names(mark):
        with pytest.raises(TableError, match="not a bot on offer here; choose from: random, heuristic") as info:
            lobby.create_table(alice, "deadwood1876", 2, [SeatSpec("me"), SeatSpec("bot", name)])
        message = str(info.value)
        assert len(message) < 150 and "\x1b" not in message
    assert lobby.tables == {}


async def test_a_table_shows_the_offered_name_and_plays_the_operators_spec(tmp_path: Path) -> None:
    offers = bot_offers(["clever=bots.heuristic:HeuristicBot"])
    assert offers == {**DEFAULT_SERVER_BOTS, "clever": "bots.heuristic:HeuristicBot"}
    lobby = Lobby(Store(tmp_path / "data"), ServerConfig(bot_delay_s=0, bots=offers))
    table = lobby.create_table(Identity("x", "x"), "deadwood1876", 2, [SeatSpec("bot", "clever"), SeatSpec("bot")])
    assert table.names() == ["clever (bot)", "random (bot)"]
    assert type(table._bots[0]).__name__ == "HeuristicBot"
    with pytest.raises(TableError, match="not a bot on offer"):  # users name bots, never specs
        lobby.create_table(Identity("x", "x"), "deadwood1876", 2, [SeatSpec("me"), SeatSpec("bot", offers["clever"])])
    await table.close()


def test_operator_bot_offers_are_checked_at_start_up(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="NAME=SPEC"):
        bot_offers(["clever"])
    with pytest.raises(ValueError, match="NAME must be"):
        bot_offers(["Not Valid=random"])
    with pytest.raises(ValueError, match="cannot import"):
        bot_offers(["ghost=no_such_package.mod:Bot"])
    assert bot_offers(["random=heuristic"])["random"] == "heuristic"  # the operator may replace a built-in
    assert main(["--bot", "broken=nosuchbot", "--port", "0"]) == 2
    assert "saloon serve: --bot 'broken=nosuchbot'" in capsys.readouterr().err


async def test_the_new_table_form_over_ssh_refuses_hostile_bot_names(
    server: SaloonServer, watch: tuple[Spawns, Path]
) -> None:
    _, mark = watch
    async with Terminal(server.port, "mallory", make_key("mallory")) as term:
        await term.wait_for("n: new table")
        await term.press("n")
        await term.wait_for("bots on offer: random, heuristic")
        await term.settle()
        await term.press("tab")  # the form opens on the game: on to the players
        await term.settle()
        await term.press("backspace", "backspace", "2", "tab")
        for name in hostile_names(mark):
            await term.press("\x15")  # ctrl+u: clear the bots line
            await term.type(name[:300].replace("\x1b", ""))
            await term.press("enter")
            try:
                await wait_until(
                    lambda: "is not a bot on offer" in term.text() and "'x' is not" not in term.text(),
                    timeout=30,  # up to 300 keys typed first: slow on a loaded machine
                    what=f"the refusal of {name[:40]!r}",
                )
            except AssertionError as exc:
                raise AssertionError(f"{exc}; the screen:\n{term.text()}") from None
            assert server.lobby.tables == {}
            await term.press("\x15", "x")  # a refusal of 'x' in between tells the next name's apart
            await term.press("enter")
            await term.wait_for("'x' is not a bot on offer")
        assert "cmd:" not in server.lobby.chat and server.lobby.tables == {}
        # the long names were cut at the form's limit, and the session is still fine
        await term.press("\x15")
        await term.type("heuristic")
        await term.press("enter")
        await term.wait_for("Table ")
        (table,) = server.lobby.tables.values()
        assert [s.bot_spec for s in table.seats if s.kind == "bot"] == ["heuristic"]
        await table.close()


@pytest.mark.parametrize(
    "command",
    [
        "bot --table ../../../etc/passwd",
        "bot --table " + "A" * 900,
        "bot --game cmd:touch",
        "bot --game tests.ssh.evil_bot:EvilBot",
        "bot @/etc/passwd",
        "bot --seat 99999999999999999999999 --table ABCD",
        "bot --table ABCD --seat -1",
        "cmd:touch /tmp/PWNED",
        "tests.ssh.evil_bot:EvilBot",
    ],
)
async def test_the_bot_command_refuses_hostile_arguments(
    server: SaloonServer, watch: tuple[Spawns, Path], command: str
) -> None:
    conn = await connect(server.port, "mallory", make_key("mallory"))
    try:
        result = await conn.run(command, encoding="utf-8", timeout=20)
    finally:
        conn.close()
    assert result.exit_status == 2
    assert len(str(result.stderr)) < 2_000
    assert server.lobby.tables == {}


async def test_no_forwarding_sftp_or_scp(server: SaloonServer, watch: tuple[Spawns, Path]) -> None:
    import asyncssh

    conn = await connect(server.port, "mallory", make_key("mallory"))
    try:
        with pytest.raises(asyncssh.ChannelOpenError):  # direct-tcpip: the server is no proxy
            await conn.open_connection("127.0.0.1", server.port)
        with pytest.raises(asyncssh.ChannelListenError):  # remote forwarding
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 9)
        async with conn.start_sftp_client() as sftp:  # SFTP: the replays folder only, read-only
            assert await sftp.realpath("/../..") == "/"
            with pytest.raises(asyncssh.SFTPNoSuchFile):
                await sftp.stat("/../saloon.db")
            with pytest.raises(asyncssh.SFTPPermissionDenied):
                await sftp.open("/../PWNED", "wb")
        result = await conn.run("scp -t /tmp/PWNED", encoding="utf-8", timeout=20)
        assert result.exit_status == 2 and "unknown command" in str(result.stderr)
    finally:
        conn.close()


async def test_the_command_palette_is_not_offered_over_ssh(server: SaloonServer) -> None:
    """Textual's command palette (ctrl+p) could save screenshots into the server's working
    directory: a remote session does not get it."""
    from textual.command import CommandPalette

    async with Terminal(server.port, "mallory", make_key("mallory")) as term:
        await term.wait_for("new table")
        await term.press("\x10")  # ctrl+p
        await asyncio.sleep(1.0)
        screens = [type(app.screen).__name__ for app in server.sessions]
        assert screens == ["LobbyScreen"]
        assert not any(isinstance(app.screen, CommandPalette) for app in server.sessions)
