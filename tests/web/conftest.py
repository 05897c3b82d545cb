"""Fixtures: a Saloon SSH server with its browser page, both on 127.0.0.1 (free ports), in the test's event loop."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from serve.ssh_server import SaloonServer
from serve.web import WebConfig, WebServer
from tests.ssh.conftest import make_server


async def start_both(
    data_dir: Path, guest: bool = False, web: WebConfig | None = None, **config: object
) -> SaloonServer:
    """A started SSH server on 127.0.0.1 port 0 (fast bots, generous limits) and its page on another free port."""
    server = make_server(data_dir, guest=guest, **config)
    WebServer(server, "127.0.0.1", 0, config=web)
    await server.start()
    return server


def base_of(server: SaloonServer) -> str:
    """The page's URL, ``http://127.0.0.1:PORT``."""
    return f"http://127.0.0.1:{server.web.port}"


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[SaloonServer]:
    """A running SSH server with its browser page, its data in ``tmp_path``."""
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    srv = await start_both(tmp_path / "data")
    try:
        yield srv
    finally:
        await srv.stop()
