"""Fitted win-chance estimates: the coefficients each game's ``estimate(view, seat)`` reads.

Each game's heuristic module defines ``estimate_features(view, seat) -> list[float]``: numbers
read from the seat's own view (its standing against the others, the game's progress, and so on;
the module's docstring says which). The estimate is a logistic regression on them::

    chance = 1 / (1 + exp(-(logit(1 / players) + sum(w[k] * features[k]))))

with the fair share ``1 / players`` as a fixed offset (so a seat level with the others gets its
fair share at any player count) and the weights ``w`` fitted on self-play games of the built-in
heuristic bots by ``tests/bench/fit_estimates.py``, which writes them to ``bots/estimates.json``
(``{game id: {"features": [names], "weights": [floats], ...fit report}}``). A game missing there
keeps its hand-written estimate (:func:`chance` returns ``None``).

>>> round(logistic_chance(2, [0.0], [1.0]), 3)
0.5
>>> round(logistic_chance(4, [0.0], [1.0]), 3)
0.25
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["COEFFICIENTS", "chance", "coefficients", "logistic_chance"]

COEFFICIENTS = Path(__file__).with_name("estimates.json")
"""The fitted weights, per game id (written by ``tests/bench/fit_estimates.py``)."""

_loaded: dict[str, Any] | None = None


def coefficients() -> dict[str, Any]:
    """The fitted weights per game id, read from :data:`COEFFICIENTS` once (``{}`` without the file)."""
    global _loaded
    if _loaded is None:
        _loaded = json.loads(COEFFICIENTS.read_text()) if COEFFICIENTS.exists() else {}
    return _loaded


def logistic_chance(players: int, features: Sequence[float], weights: Sequence[float]) -> float:
    """``sigmoid(logit(1 / players) + weights . features)``: a chance in ``(0, 1)``."""
    z = math.log(1.0 / max(1, players - 1)) if players > 1 else 50.0
    for w, x in zip(weights, features, strict=True):
        z += w * x
    z = max(-50.0, min(50.0, z))
    return 1.0 / (1.0 + math.exp(-z))


def chance(game_id: str, players: int, features: Sequence[float]) -> float | None:
    """The fitted chance that the seat with ``features`` wins ``game_id`` at ``players``, or
    ``None`` when the game has no fitted weights (or they are for other features)."""
    fit = coefficients().get(game_id)
    if fit is None or len(fit["weights"]) != len(features):
        return None
    return logistic_chance(players, features, fit["weights"])
