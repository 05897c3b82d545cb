"""Saloon: a game server for Wild West board games (see ``README.md`` and ``DESIGN.md``).

The ``saloon`` command line lives in :mod:`saloon.cli`; the rules engines in :mod:`engine`,
replays in :mod:`replays` and bots in :mod:`bots`.
"""

__version__ = "0.1.0"
