"""Fixtures for the whole suite: no test reads or writes the user's home, keys, SSH agent or XDG folders.

:func:`isolated_home` runs once per session, before any test: ``HOME`` points at an empty folder
of the session's temporary directory, the XDG base directories at folders inside it, and the SSH
agent's variables are removed. An SSH client that looks for default keys (``~/.ssh/id_*``) or an
agent therefore finds none, whatever the person running the tests keeps in their own home; a
test that wants a key or an XDG folder makes its own (``monkeypatch.setenv`` on top of these).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REAL_HOME_VARIABLE = "SALOON_TEST_REAL_HOME"
"""Where :func:`isolated_home` leaves the ``HOME`` it replaced (for the test that proves the
isolation; nothing may read the folder it names)."""

XDG_DIRS = {
    "XDG_CONFIG_HOME": ".config",
    "XDG_DATA_HOME": ".local/share",
    "XDG_STATE_HOME": ".local/state",
    "XDG_CACHE_HOME": ".cache",
    "XDG_RUNTIME_DIR": "run",
}
"""The XDG base-directory variables the suite sets, and their folders inside the fake home."""

AGENT_VARIABLES = ("SSH_AUTH_SOCK", "SSH_AGENT_PID", "SSH_ASKPASS", "SSH_ASKPASS_REQUIRE", "DISPLAY")
"""Variables that would let an SSH client reach a key agent or ask for a passphrase: removed."""


@pytest.fixture(scope="session", autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The whole session runs with an empty ``HOME``, XDG folders inside it and no SSH agent.

    Yields:
        The fake home folder (empty but for the XDG folders).
    """
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(REAL_HOME_VARIABLE, os.environ.get("HOME", ""))
        patch.setenv("HOME", str(home))
        for variable, folder in XDG_DIRS.items():
            path = home / folder
            path.mkdir(parents=True, exist_ok=True, mode=0o700)
            patch.setenv(variable, str(path))
        patch.delenv("XDG_CONFIG_DIRS", raising=False)
        patch.delenv("XDG_DATA_DIRS", raising=False)
        for variable in AGENT_VARIABLES:
            patch.delenv(variable, raising=False)
        yield home


NETWORK_TESTS = ("ssh", "web")
"""Test folders whose tests run a server and its clients over loopback, with their key timing."""


@pytest.fixture
def no_full_collections() -> Iterator[None]:
    """Young collections only, for the tests that a closed session is freed by reference counting:
    everything made before the test is frozen, and no automatic full collection runs, so what
    survives the young collections is freed by reference counting or not at all (issue 26)."""
    thresholds = gc.get_threshold()
    gc.collect()
    gc.freeze()  # everything made so far is out of the collector's reach
    gc.set_threshold(700, 10, 1_000_000_000)  # and no automatic full collection
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        gc.collect()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a parallel run (``pytest -n 2 --dist loadgroup``, the README's command) the server tests
    share one worker, one at a time, so two servers never compete for the cores while each waits
    on its clients' keys; the other worker runs the rest. (Spreading the server test files over
    both workers was tried: two servers at once made key-timing tests such as the new-table
    form's fail on two loaded cores.)"""
    root = Path(__file__).parent
    for item in items:
        parts = Path(item.path).relative_to(root).parts
        if parts and parts[0] in NETWORK_TESTS:
            item.add_marker(pytest.mark.xdist_group("network"))


@pytest.fixture
async def front() -> Any:
    """``await front(lobby)``: the :class:`lobby.client.LobbyMirror` of a front that reaches a hall
    serving ``lobby`` over the protocol (a socket pair in this event loop), as a session's screens
    see it. Screens made in a test take this mirror (and its tables, ``mirror.table(code)``), never
    the lobby itself: what the test changes on ``lobby`` reaches them through the hall."""
    from lobby.client import HallClient
    from serve.hall import Hall

    made: list[tuple[Any, Any]] = []

    async def connect(lobby: Any) -> Any:
        hall = Hall(".", lobby.config)
        hall.adopt(lobby)
        client = HallClient("test front")
        await hall.connect_front(client)
        made.append((hall, client))
        return client.lobby

    yield connect
    for hall, client in made:
        await client.close()
        await hall.stop()
