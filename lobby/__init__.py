"""The live saloon without any front end: accounts, tables, seats and their controllers, the ladder.

Nothing here imports Textual or :mod:`tui`: a front end (the Textual app over SSH in :mod:`tui`, or
any other) hosts these tables through their methods and listener callbacks. Data flows one way
(DESIGN.md): ``engine`` ← ``replays``, ``bots`` ← ``lobby`` ← ``tui`` ← ``saloon``.

Modules (import them by name; this package imports none of them, so ``import lobby.store`` loads
no table code):

* :mod:`lobby.store`: accounts, their keys and finished games, in SQLite.
* :mod:`lobby.tables`: the server's :class:`~lobby.tables.Lobby` and :class:`~lobby.tables.Table`:
  seats, controllers (a person's screen or a remote bot's channel), grace times and substitute
  bots, deadlines, chat, replays saved before the result row commits.
* :mod:`lobby.local`: ``saloon play``'s :class:`~lobby.local.LocalTable` (one person and bots,
  paced for watching) and :func:`~lobby.local.user_data_dir`.
* :mod:`lobby.matchmaker` and :mod:`lobby.ratings`: the ladder's queue policy and its OpenSkill
  ratings.
* :mod:`lobby.ladder`: the live :class:`~lobby.ladder.Ladder` (queues, the matchmaker tick that
  opens rated tables, standings) and the leaderboard's text and JSON.

**Two table models, on purpose (for now).** ``saloon play``'s :class:`~lobby.local.LocalTable` and
the server's :class:`~lobby.tables.Table` were not merged into one. Both already share what is
common (the engine, :class:`replays.Recorder`, :mod:`bots.workers` for search bots); what is left
differs: the server table has controllers by session, grace times and substitute bots, turn
timers, remote-bot deadlines, spectators, chat and a store, while the local table is a 200-line
loop that one screen drives, with bot pacing the person can change mid-game and bots that start
and end with the screen. Expressing the local table as a server table would make the play screen a
controller of an asyncio-run table and change how ``saloon play`` paces and saves games: more code
paths to reason about, not fewer, for no behaviour anyone asked for. Revisit if the two start to
duplicate rules of play (they do not today: both only ask the engine).
"""
