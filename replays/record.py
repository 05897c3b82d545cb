"""Recording a game as it is played."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

import engine
from replays.format import (
    CHECKPOINT_BYTES,
    CHECKPOINT_EVERY,
    FORMAT_VERSION,
    MAX_MOVE_VALUE,
    Header,
    Player,
    Replay,
    _put_varint,
)

__all__ = ["Recorder"]


class Recorder:
    """Plays a game and records it: the only way moves should reach a recorded state.

    Args:
        game_id: a registered game id.
        num_players: the player count.
        seed: the game's seed.
        options: ``None``, a dict or the game's options struct.
        players: one :class:`Player` per seat; defaults to humans named ``"seat 0"``, ``"seat 1"``, ...

    Attributes:
        game: the :class:`engine.Game`.
        state: the live state. Read it (``to_act``, ``legal_actions``, ``view``, ...) but change it
            only through :meth:`apply`, or the replay will not verify.
        header: the replay's :class:`Header`.

    Raises:
        engine.UnknownGame: ``game_id`` is not registered.
        engine.InvalidOptions: unknown options or bad values.
        ValueError: a bad player count, or ``players`` of the wrong length.
    """

    def __init__(
        self,
        game_id: str,
        num_players: int,
        seed: int,
        options: Any = None,
        players: Sequence[Player] | None = None,
    ) -> None:
        self.game: engine.Game = engine.game(game_id)
        opts = engine.parse_options(self.game.options_type, options)
        if players is None:
            players = [Player(f"seat {seat}", "human") for seat in range(num_players)]
        if len(players) != num_players:
            raise ValueError(f"{len(players)} players given for a {num_players}-player game")
        self.state: engine.State = self.game.new_game(num_players, seed, opts)
        self.header = Header(
            format_version=FORMAT_VERSION,
            game=self.game.id,
            rules_version=self.game.rules_version,
            options=msgspec.to_builtins(opts),
            seed=seed,
            players=tuple(players),
        )
        self._moves = bytearray()
        self._count = 0
        self._checkpoints = bytearray(self._checkpoint())

    @property
    def num_moves(self) -> int:
        """How many moves have been recorded."""
        return self._count

    def _checkpoint(self) -> bytes:
        return bytes.fromhex(self.state.digest()[: 2 * CHECKPOINT_BYTES])

    def apply(self, seat: int, action: Any) -> None:
        """Apply ``action`` for ``seat`` and record it.

        Raises:
            engine.IllegalAction: the action is not in ``state.legal_actions(seat)`` (for instance
                when ``seat`` is not to act); the state and the record are unchanged.
            ValueError: as :meth:`apply_index`, a move too large to store.
        """
        legal = self.state.legal_actions(seat)
        try:
            index = engine.legal_index(action, legal)
        except engine.IllegalAction:
            raise engine.IllegalAction(f"seat {seat} may not play {action!r:.200} now") from None
        self.apply_index(seat, index)

    def apply_index(self, seat: int, index: int) -> None:
        """Apply ``state.legal_actions(seat)[index]`` for ``seat`` and record it.

        Raises:
            engine.IllegalAction: ``index`` is out of range (for instance when ``seat`` is not to
                act); the state and the record are unchanged.
            ValueError: ``seat`` or ``index`` is above :data:`replays.MAX_MOVE_VALUE`, so the move
                cannot be stored; the state and the record are unchanged.
        """
        if seat > MAX_MOVE_VALUE or index > MAX_MOVE_VALUE:
            raise ValueError(f"seat {seat}, index {index}: a replay stores seats and indexes up to {MAX_MOVE_VALUE}")
        legal = self.state.legal_actions(seat)
        if not 0 <= index < len(legal):
            raise engine.IllegalAction(f"seat {seat} has {len(legal)} legal actions, no index {index}")
        self.state.apply(seat, legal[index])
        _put_varint(self._moves, seat)
        _put_varint(self._moves, index)
        self._count += 1
        if self._count % CHECKPOINT_EVERY == 0:
            self._checkpoints += self._checkpoint()

    def replay(self, faults: Sequence[str] = ()) -> Replay:
        """The replay of the game so far (with its outcome once the game is over).

        Args:
            faults: the game's fault log (see :attr:`Replay.faults`), one line per fault.
        """
        return Replay(
            header=self.header,
            moves=bytes(self._moves),
            checkpoints=bytes(self._checkpoints),
            final_digest=self.state.digest(),
            outcome=self.state.outcome if self.state.is_over else None,
            faults=tuple(faults),
        )
