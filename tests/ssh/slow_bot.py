"""A bot that thinks 250 ms a move without using the CPU: it keeps a bots-only game running for a
while in tests that need tables to stay busy (as ``strong`` bots would), at almost no cost."""

from __future__ import annotations

import random
import time
from typing import Any


class SlowBot:
    """Sleeps :attr:`THINK_S` seconds, then plays a random legal action."""

    name = "slow"
    THINK_S = 0.25

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, view: Any, legal_actions: list[Any], seat: int) -> Any:
        time.sleep(self.THINK_S)
        return self._rng.choice(legal_actions)
