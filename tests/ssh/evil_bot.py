"""A module that must never be imported by the server on a user's say-so: importing it leaves a mark.

The security tests name it (``tests.ssh.evil_bot:EvilBot``) as a bot from an SSH session and
check that neither the module nor its mark appears.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

MARK_ENV = "SALOON_TEST_EVIL_MARK"
"""The environment variable naming the file an import of this module creates."""

_mark = os.environ.get(MARK_ENV)
if _mark:
    Path(_mark).write_text("imported\n")


class EvilBot:
    """Would run anything; it must never be made from a connection's input."""

    name = "evil"

    def __init__(self, seed: int = 0) -> None:
        if _mark:
            Path(_mark).write_text("made\n")

    def act(self, view: Any, legal_actions: list[Any], seat: int) -> Any:
        return legal_actions[0]
