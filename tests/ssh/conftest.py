"""Fixtures: a Saloon SSH server on 127.0.0.1 (a free port) in the test's event loop, torn down after."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from lobby.tables import ServerConfig
from serve.ssh_server import RateLimiter, SaloonServer


def make_server(data_dir: Path, guest: bool = False, **config: object) -> SaloonServer:
    """A server on 127.0.0.1 port 0 with fast bots and generous connection limits."""
    settings = {"bot_delay_s": 0.0, "grace_s": 30.0, "remote_deadline_ms": 3000, **config}
    return SaloonServer(
        data_dir,
        host="127.0.0.1",
        port=0,
        guest=guest,
        config=ServerConfig(**settings),  # type: ignore[arg-type]
        limiter=RateLimiter(burst=100, per_second=50, max_concurrent=100),
    )


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[SaloonServer]:
    """A running server (default settings for tests) with its data in ``tmp_path``."""
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    srv = make_server(tmp_path / "data")
    await srv.start()
    try:
        yield srv
    finally:
        await srv.stop()
