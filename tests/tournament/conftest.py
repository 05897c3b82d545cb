"""Fixtures for the tournament tests: test bots and small configurations."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEST_BOTS = Path(__file__).resolve().parent / "bots"
STARTER_PY = ROOT / "examples" / "bots" / "starter_bot.py"
STARTER_JS = ROOT / "examples" / "bots" / "starter_bot.js"
PYTHON = sys.executable
NODE = shutil.which("node")

needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")


def bot_cmd(name: str) -> str:
    """A ``cmd:`` spec running ``tests/tournament/bots/NAME.py`` with this interpreter."""
    return f"cmd:{PYTHON} {TEST_BOTS / name}.py"


def write_config(path: Path, bots: dict[str, str], **settings: object) -> Path:
    """Write a tournament TOML file (deadwood1876, 3 players, 6 games unless overridden)."""
    values: dict[str, object] = {"game": "deadwood1876", "players": [3], "games": 6, "seed": 11, "bootstrap": 20}
    values.update(settings)
    lines = []
    for key, value in values.items():
        if isinstance(value, str):
            lines.append(f'{key} = "{value}"')
        elif isinstance(value, bool):
            lines.append(f"{key} = {'true' if value else 'false'}")
        else:
            lines.append(f"{key} = {value!r}")
    lines.append("[bots]")
    lines.extend(f'{name} = "{spec}"' for name, spec in bots.items())
    path.write_text("\n".join(lines) + "\n")
    return path
