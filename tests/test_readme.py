"""The README, .ci/run and pyproject.toml agree with each other and with the tree."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()

MAIN_COMMAND = "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/saloon serve --web 8080"
TEST_COMMAND = (
    "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/ruff check && "
    '.venv/bin/ruff format --check && .venv/bin/mypy && .venv/bin/pytest -n 2 --dist loadgroup -m "not serial" && '
    ".venv/bin/pytest -m serial"
)


def code_lines(text: str) -> list[str]:
    return [line.strip() for line in re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S) for line in line.splitlines()]


def test_readme_has_the_setup_commands():
    lines = code_lines(README)
    assert MAIN_COMMAND in lines
    assert TEST_COMMAND in lines


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.startswith("#!/usr/bin/env bash")
    assert "set -euo pipefail" in ci
    assert TEST_COMMAND.replace(".venv", '"$VENV"') in ci


def test_pyproject_lists_every_package():
    """Every package of the tree is in pyproject's explicit list (or a non-editable install would miss it)."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(pyproject["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ROOT.iterdir()
        if (top / "__init__.py").is_file()
        for init in top.rglob("__init__.py")
    }
    assert found == listed, (
        f"add to [tool.setuptools] packages: {sorted(found - listed)}; remove: {sorted(listed - found)}"
    )
    assert pyproject["project"]["scripts"] == {"saloon": "saloon.cli:main"}
