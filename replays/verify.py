"""Re-simulating a replay: verifying it, and stepping through it forward and back."""

from __future__ import annotations

from typing import Any

import engine
from replays.format import (
    CHECKPOINT_BYTES,
    CHECKPOINT_EVERY,
    Replay,
    ReplayError,
    ReplayMismatch,
    ReplayVersionError,
)

__all__ = ["ReplayCursor", "verify"]


def _start(replay: Replay) -> tuple[engine.Game, engine.State, list[tuple[int, int]]]:
    """The game, its initial state and the decoded moves, after checking everything but the moves."""
    header = replay.header
    try:
        game = engine.game(header.game)
    except engine.UnknownGame:
        known = ", ".join(engine.games()) or "none"
        raise ReplayError(f"replay is for unknown game {header.game!r}; known games: {known}") from None
    if header.rules_version != game.rules_version:
        raise ReplayVersionError(
            f"replay was recorded with {game.id} rules version {header.rules_version!r}, "
            f"but this engine has rules version {game.rules_version!r}; refusing to replay it"
        )
    pairs = replay.move_pairs()
    expected = (len(pairs) // CHECKPOINT_EVERY + 1) * CHECKPOINT_BYTES
    if len(replay.checkpoints) != expected:
        raise ReplayMismatch(
            f"replay has {len(replay.checkpoints)} bytes of checkpoints for {len(pairs)} moves, expected {expected}"
        )
    try:
        state = game.new_game(len(header.players), header.seed, header.options)
    except (engine.InvalidOptions, ValueError) as exc:
        raise ReplayError(f"replay header cannot start a game: {exc}") from None
    _check_checkpoint(replay, state, 0)
    return game, state, pairs


def _check_checkpoint(replay: Replay, state: engine.State, k: int) -> None:
    """Compare the checkpoint after ``k`` moves (``k`` a multiple of ``CHECKPOINT_EVERY``)."""
    start = k // CHECKPOINT_EVERY * CHECKPOINT_BYTES
    recorded = replay.checkpoints[start : start + CHECKPOINT_BYTES].hex()
    actual = state.digest()[: 2 * CHECKPOINT_BYTES]
    if recorded != actual:
        where = f"after move {k}" if k else "before the first move (seed or options differ)"
        raise ReplayMismatch(f"move {k}: state digest {actual} differs from checkpoint {recorded} {where}", move=k)


def _step(state: engine.State, k: int, seat: int, index: int) -> Any:
    """Apply move number ``k`` (1-based) and return its action."""
    if seat not in state.to_act:
        raise ReplayMismatch(f"move {k}: seat {seat} is not to act (to act: {list(state.to_act)})", move=k)
    legal = state.legal_actions(seat)
    if index >= len(legal):
        raise ReplayMismatch(f"move {k}: seat {seat} has {len(legal)} legal actions, no index {index}", move=k)
    action = legal[index]
    try:
        state.apply(seat, action)
    except engine.IllegalAction as exc:
        raise ReplayMismatch(f"move {k}: the engine refused its own legal action {action!r}: {exc}", move=k) from None
    return action


def _check_end(replay: Replay, state: engine.State, num_moves: int) -> None:
    """Compare the final digest and the outcome."""
    digest = state.digest()
    if digest != replay.final_digest:
        raise ReplayMismatch(
            f"after the last move ({num_moves}): final digest {digest} differs from the recorded {replay.final_digest}"
        )
    if replay.outcome is None:
        if state.is_over:
            raise ReplayMismatch(f"the game is over after move {num_moves}, but the replay records no outcome")
    elif not state.is_over:
        raise ReplayMismatch(f"the replay records an outcome, but the game is not over after move {num_moves}")
    elif state.outcome != replay.outcome:
        raise ReplayMismatch(f"outcome {state.outcome} differs from the recorded {replay.outcome}")


def verify(replay: Replay) -> engine.State:
    """Re-simulate ``replay`` with the engine and check every recorded digest and the outcome.

    Args:
        replay: a decoded replay.

    Returns:
        The state after the last move.

    Raises:
        ReplayVersionError: the replay was recorded by another rules version of its game.
        ReplayMismatch: a move's seat is not to act, its index is out of range, a checkpoint or the
            final digest differs, or the outcome differs; the message names the move number.
        ReplayError: an unknown game, malformed moves, or a header that cannot start a game.
    """
    _, state, pairs = _start(replay)
    for k, (seat, index) in enumerate(pairs, start=1):
        _step(state, k, seat, index)
        if k % CHECKPOINT_EVERY == 0:
            _check_checkpoint(replay, state, k)
    _check_end(replay, state, len(pairs))
    return state


class ReplayCursor:
    """Steps through a replay forward and back, for the replay viewer.

    The replay is verified once, up front (as :func:`verify`), keeping a clone of the state every
    ``snapshot_every`` moves; :meth:`goto` then clones the nearest snapshot and applies the moves
    from there, so stepping back costs at most ``snapshot_every`` moves.

    Args:
        replay: a decoded replay.
        snapshot_every: moves between kept snapshots (positive).

    Attributes:
        replay: the replay.
        game: the :class:`engine.Game`.
        moves: the moves as ``(seat, action)`` pairs, in order.
        position: how many moves have been applied to :attr:`state` (``0 .. len(moves)``).
        state: the state after ``position`` moves. Read it; do not change it.

    Raises:
        ReplayError: as :func:`verify`.
    """

    def __init__(self, replay: Replay, snapshot_every: int = 16) -> None:
        if snapshot_every < 1:
            raise ValueError(f"snapshot_every must be positive, got {snapshot_every}")
        self.replay = replay
        self.game, state, pairs = _start(replay)
        self._every = snapshot_every
        self._snapshots: list[engine.State] = [state.clone()]
        self.moves: list[tuple[int, Any]] = []
        for k, (seat, index) in enumerate(pairs, start=1):
            self.moves.append((seat, _step(state, k, seat, index)))
            if k % CHECKPOINT_EVERY == 0:
                _check_checkpoint(replay, state, k)
            if k % snapshot_every == 0:
                self._snapshots.append(state.clone())
        _check_end(replay, state, len(pairs))
        self.position = 0
        self.state: engine.State = self._snapshots[0].clone()

    def __len__(self) -> int:
        """The number of moves."""
        return len(self.moves)

    def goto(self, k: int) -> engine.State:
        """Move to the state after ``k`` moves and return it.

        Raises:
            IndexError: ``k`` is outside ``0 .. len(moves)``.
        """
        if not 0 <= k <= len(self.moves):
            raise IndexError(f"move {k} is outside 0..{len(self.moves)}")
        if not self.position <= k < self.position + self._every:
            base = k // self._every
            self.state = self._snapshots[base].clone()
            self.position = base * self._every
        for seat, action in self.moves[self.position : k]:
            self.state.apply(seat, action)
        self.position = k
        return self.state

    def forward(self) -> bool:
        """Apply the next move; False (and nothing changes) at the end."""
        if self.position >= len(self.moves):
            return False
        self.goto(self.position + 1)
        return True

    def back(self) -> bool:
        """Undo the last move (from a snapshot); False (and nothing changes) at the start."""
        if self.position <= 0:
            return False
        self.goto(self.position - 1)
        return True
