"""Saloon's terminal UI (Textual): a local table against bots, the replay viewer and the saloon's screens.

Layout: :mod:`tui.app` (the app), :mod:`tui.play_screen` and :mod:`tui.replay_screen`,
:mod:`tui.widgets` (shared: action picker, log, help, result, replay controls),
:mod:`tui.games` (one module per game: its table widget, registered in ``TABLES``), and the
saloon's screens: :mod:`tui.lobby_screen` (a session's app: the lobby and the new-table form),
:mod:`tui.table_screen` and :mod:`tui.ladder_screen`. No transport: the SSH server, the browser
page and their Textual drivers are :mod:`serve`'s. The tables themselves, local and served, live
in :mod:`lobby`, which imports nothing from here.

>>> import tui
>>> tui.run_play("deadwood1876", players=5, seat=0, bots=["random"], seed=7)  # doctest: +SKIP
>>> tui.run_replay("game.replay")  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tui.app import PlaySetup, SaloonApp, screen_text

__all__ = ["PlaySetup", "SaloonApp", "run_play", "run_replay", "screen_text"]


def run_play(
    game_id: str,
    players: int,
    seat: int | None = 0,
    bots: Sequence[str] = ("random",),
    seed: int | None = None,
    options: Any = None,
    speed: str = "normal",
    replay_dir: Path | str | None = None,
) -> None:
    """Play ``game_id`` at a local table in this terminal: you in ``seat``, bots in the others.

    Args:
        game_id: a registered game id.
        players: the player count.
        seat: your seat (0-based); ``None`` to watch the bots.
        bots: one bot name per other seat (seat order), or one name for all of them.
        seed: the game's seed; ``None`` for a secret one from the OS's secure random source.
        options: the game's options (a dict, as from ``--option KEY=VALUE``).
        speed: the bots' pace: ``slow``, ``normal``, ``fast`` or ``instant`` (``s`` changes it).
        replay_dir: where every finished or abandoned game's replay is saved (default: the
            user's data directory, ``$XDG_DATA_HOME/saloon/replays``).

    Raises:
        engine.UnknownGame, engine.InvalidOptions, ValueError, bots.UnknownBot: before the
        screen opens, for a bad game, option, player count, seat or bot.
    """
    import engine

    game = engine.game(game_id)
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"{game_id} is for {game.min_players}-{game.max_players} players, not {players}")
    if seat is not None and not 0 <= seat < players:
        raise ValueError(f"seat must be 0..{players - 1}, not {seat}")
    setup = PlaySetup(game_id, players, seat, tuple(bots), seed, options)
    setup.make_table(seed or 0)  # fail here, on the command line, for a bad bot or option
    if replay_dir is None:
        from lobby.local import user_data_dir

        replay_dir = user_data_dir() / "replays"
    app = SaloonApp(play=setup, speed=speed, replay_dir=replay_dir)
    try:
        app.run()
    finally:
        app.wrap_up()  # an abandoned game's replay is saved too, and the bots are closed


def run_replay(path: Path | str) -> None:
    """Step through the replay in ``path`` in this terminal.

    Raises:
        replays.ReplayError: the file is not a replay, is of another rules version, or does
            not re-simulate.
    """
    import replays

    replay = replays.load(path)
    replays.verify(replay)
    SaloonApp(replay=replay).run()
