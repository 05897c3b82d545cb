"""Issue 23: tests never read the user's home, SSH keys, SSH agent or XDG folders.

The suite's session fixture (``tests/conftest.py``) points ``HOME`` and the XDG folders at an
empty temporary folder and removes the agent's variables. These tests prove it: the session runs
in that folder, and with a key in its ``~/.ssh`` and an SSH agent holding that key, the test
clients that offer no key still fail to log in (asyncssh loads ``~/.ssh/id_*`` and asks the agent
unless told not to).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import AGENT_VARIABLES, REAL_HOME_VARIABLE, XDG_DIRS
from tests.ssh.conftest import make_server
from tests.ssh.termclient import Terminal, make_key
from tests.ssh.test_server import run_command

NO_KEY = (
    "Saloon: Saloon knows players by their SSH key, and your client offered none. Make one "
    "(ssh-keygen -t ed25519) and connect again: the first login registers it under your name.\n"
)


def test_the_session_runs_in_an_empty_home_without_an_agent(isolated_home: Path) -> None:
    real = os.environ[REAL_HOME_VARIABLE]
    assert Path.home() == isolated_home != Path(real or "/nonexistent")
    assert os.environ["HOME"] == str(isolated_home)
    assert Path("~/.ssh").expanduser() == isolated_home / ".ssh"
    for variable, folder in XDG_DIRS.items():
        assert os.environ[variable] == str(isolated_home / folder)
    for variable in AGENT_VARIABLES:
        assert variable not in os.environ


@pytest.fixture
def key_and_agent(isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A key in the fake home's ``~/.ssh`` (``id_ed25519``, ``id_ecdsa``, ``id_rsa``) and, where
    ``ssh-agent`` is installed, a running agent holding it, with ``SSH_AUTH_SOCK`` set (else the
    variable names a socket that is not there). Yields the key's fingerprint."""
    assert Path.home() == isolated_home  # never write into a real home
    ssh_dir = isolated_home / ".ssh"
    ssh_dir.mkdir(mode=0o700, exist_ok=True)
    key = make_key("in-the-home")
    names = ("id_ed25519", "id_ecdsa", "id_rsa")
    for name in names:
        key.write_private_key(str(ssh_dir / name))
        (ssh_dir / name).chmod(0o600)
    socket = tmp_path / "agent.sock"
    agent_pid: int | None = None
    if shutil.which("ssh-agent") and shutil.which("ssh-add"):
        started = subprocess.run(["ssh-agent", "-s", "-a", str(socket)], check=True, capture_output=True, text=True)
        found = re.search(r"SSH_AGENT_PID=(\d+)", started.stdout)
        assert found is not None, started.stdout
        agent_pid = int(found.group(1))
        env = {**os.environ, "SSH_AUTH_SOCK": str(socket)}
        subprocess.run(["ssh-add", str(ssh_dir / "id_ed25519")], check=True, capture_output=True, env=env)
        listed = subprocess.run(["ssh-add", "-l"], capture_output=True, text=True, env=env)
        assert key.get_fingerprint() in listed.stdout, listed.stdout
    monkeypatch.setenv("SSH_AUTH_SOCK", str(socket))
    try:
        yield key.get_fingerprint()
    finally:
        for name in names:
            (ssh_dir / name).unlink(missing_ok=True)
        if agent_pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(agent_pid, signal.SIGTERM)


async def test_clients_without_a_key_fail_with_a_key_in_the_home_and_an_agent(
    key_and_agent: str, tmp_path: Path
) -> None:
    server = make_server(tmp_path / "data")
    await server.start()
    try:
        status, out, err = await run_command(server.port, "nokey", None, "help")
        assert (status, out, err) == (1, "", NO_KEY)
        async with Terminal(server.port, "nokey2", None) as term:
            await term.wait_for("Saloon: ")
            await asyncio.wait_for(term.closed.wait(), 10)
            assert "your client offered none" in term.text()
        assert server.store.name_for_key(key_and_agent) is None
        assert not server.store.name_taken("nokey") and not server.store.name_taken("nokey2")
    finally:
        await server.stop()
