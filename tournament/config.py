"""The tournament configuration: a TOML file, validated with msgspec; errors name the key.

Example (``examples/deadwood1876.toml``)::

    game = "deadwood1876"
    players = [4, 5]          # player counts, used in turn (one duplicate set each); two
                              # bots at 4 or 5 seats: each takes two or three (see below)
    games = 200               # at least this many games (rounded up to whole duplicate sets)
    seed = 1876               # the base seed: every game's seed derives from it
    decision_timeout_s = 1.0  # external bots: per-decision deadline
    startup_timeout_s = 5.0   # external bots: extra time for the first reply
    memory_limit_mb = 2048    # external bots: address-space limit
    max_faults = 10           # a bot with more faults than this in a game forfeits it

    [options]                 # the game's options (see `saloon games`)

    [bots]                    # display name = bot: built-in, package.module:Class or cmd:...
    random = "random"
    starter = "cmd:python3 bots/starter_bot.py"

``cmd:`` commands run in the directory of the configuration file.

Line-ups are not always even (:mod:`tournament.schedule`): the schedule balances seats, not
games. With more bots than seats, bots take turns sitting a duplicate set out; with fewer bots
than seats, a bot takes two (or more) seats of one game; mixing player counts (four bots at 3 and
5 players) mixes both, so a bot can end a few games behind the others while its seats stay
close to theirs.
The leaderboard prints each bot's games and seats. For exactly even games and seats, use one
player count ``n`` and a number of games that is a multiple of ``n`` times the number of bots.
"""

from __future__ import annotations

import re
import shlex
import shutil
import tomllib
from pathlib import Path
from typing import Any

import msgspec

import engine
from bots import UnknownBot, make_bot

__all__ = ["ConfigError", "TournamentConfig", "load_config", "parse_config"]


class ConfigError(ValueError):
    """A configuration that cannot be used; the message names the file and the key."""


class TournamentConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A validated tournament configuration (see the module docstring for the TOML keys).

    Attributes:
        game: the game id.
        players: the player counts, used in turn.
        games: the minimum number of games (the schedule rounds up to whole duplicate sets).
        bots: display name -> bot spec (``random``, ``package.module:Class`` or ``cmd:COMMAND``).
        seed: the base seed.
        options: the game's options.
        decision_timeout_s: per-decision deadline of external bots, in seconds.
        startup_timeout_s: extra time for an external bot's first reply, in seconds.
        memory_limit_mb: address-space limit of external bots, in MiB.
        max_faults: faults a bot may make in one game; one more and it forfeits the game.
        batch_size: games per worker task (default: chosen from the number of games and workers).
        bootstrap: bootstrap resamples for the rating intervals (0: no intervals).
        base_dir: the directory ``cmd:`` bots run in (the configuration file's directory).
    """

    game: str
    players: list[int]
    games: int
    bots: dict[str, str]
    seed: int = 0
    options: dict[str, Any] = {}
    decision_timeout_s: float = 1.0
    startup_timeout_s: float = 5.0
    memory_limit_mb: int = 2048
    max_faults: int = 10
    batch_size: int | None = None
    bootstrap: int = 100
    base_dir: str = "."

    def identity(self) -> bytes:
        """The settings that decide the games played (for checking a resumed run)."""
        keys = ("game", "players", "games", "bots", "seed", "options", "max_faults")
        return msgspec.json.encode({key: getattr(self, key) for key in keys})


_SCRIPT_SUFFIXES = (".py", ".js", ".mjs", ".rb", ".jar", ".pl", ".lua", ".sh")
"""Arguments of a ``cmd:`` bot ending like this are script files that must exist."""

_AT = re.compile(r" - at `\$(?P<path>[^`]*)`$")
_UNKNOWN = re.compile(r"Object contains unknown field `(?P<key>[^`]+)`")
_MISSING = re.compile(r"Object missing required field `(?P<key>[^`]+)`")


def _key_of(message: str) -> tuple[str, str]:
    """``(key, message without the location)`` from a msgspec validation message."""
    if match := _UNKNOWN.search(message):
        return match["key"], "unknown key"
    if match := _MISSING.search(message):
        return match["key"], "missing (required)"
    if match := _AT.search(message):
        path = match["path"].lstrip(".")
        return path or "(top level)", message[: match.start()]
    return "(top level)", message


def _fail(source: str, key: str, message: str) -> ConfigError:
    return ConfigError(f"{source}: key {key!r}: {message}")


def parse_config(text: str, source: str = "config", base_dir: str | Path = ".") -> TournamentConfig:
    """Parse and validate a tournament configuration.

    Args:
        text: the TOML text.
        source: the file name shown in error messages.
        base_dir: the directory ``cmd:`` bots run in.

    Returns:
        The :class:`TournamentConfig`.

    Raises:
        ConfigError: bad TOML, an unknown or missing key, a wrong type, a value out of range, an
            unknown game, bot or option. The message names the key.
    """
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    if "base_dir" in raw:
        raise _fail(source, "base_dir", "unknown key")
    if isinstance(raw.get("players"), int):
        raw["players"] = [raw["players"]]
    bots = raw.get("bots")
    if isinstance(bots, dict):
        for name, spec in bots.items():
            if not isinstance(spec, str):
                raise _fail(source, f"bots.{name}", f"expected a bot name string, got {type(spec).__name__}")
    raw["base_dir"] = str(base_dir)
    try:
        config = msgspec.convert(raw, TournamentConfig)
    except msgspec.ValidationError as exc:
        key, message = _key_of(str(exc))
        raise _fail(source, key, message) from None
    _check(config, source)
    return config


def _check(config: TournamentConfig, source: str) -> None:
    try:
        game = engine.game(config.game)
    except engine.UnknownGame as exc:
        raise _fail(source, "game", str(exc)) from None
    if not config.players:
        raise _fail(source, "players", "give at least one player count")
    for count in config.players:
        if not game.min_players <= count <= game.max_players:
            raise _fail(
                source, "players", f"{game.id} is for {game.min_players}-{game.max_players} players, not {count}"
            )
    if config.games < 1:
        raise _fail(source, "games", f"must be at least 1, not {config.games}")
    if config.seed < 0:
        raise _fail(source, "seed", f"must be non-negative, not {config.seed}")
    try:
        for count in config.players:
            game.new_game(count, 0, config.options or None)  # some checks depend on the player count
    except engine.InvalidOptions as exc:
        raise _fail(source, "options", str(exc)) from None
    for key, low in (("decision_timeout_s", 0.001), ("startup_timeout_s", 0.0), ("memory_limit_mb", 64)):
        if getattr(config, key) < low:
            raise _fail(source, key, f"must be at least {low}, not {getattr(config, key)}")
    if config.max_faults < 0:
        raise _fail(source, "max_faults", f"must be non-negative, not {config.max_faults}")
    if config.batch_size is not None and config.batch_size < 1:
        raise _fail(source, "batch_size", f"must be at least 1, not {config.batch_size}")
    if config.bootstrap < 0:
        raise _fail(source, "bootstrap", f"must be non-negative, not {config.bootstrap}")
    if not config.bots:
        raise _fail(source, "bots", 'name at least one bot: [bots] NAME = "random" | "package.module:Class" | ...')
    for name, spec in config.bots.items():
        key = f"bots.{name}"
        if not name.strip() or any(ch in name for ch in ",\n"):
            raise _fail(source, key, "a bot's display name must be non-empty, without commas or newlines")
        if spec.strip().startswith("cmd:"):
            try:
                argv = shlex.split(spec.strip()[4:])
            except ValueError as exc:
                raise _fail(source, key, f"bad command: {exc}") from None
            if not argv:
                raise _fail(source, key, "empty command after 'cmd:'")
            program = argv[0]
            found = (Path(config.base_dir) / program).exists() if "/" in program else shutil.which(program)
            if not found:
                raise _fail(source, key, f"program {program!r} not found")
            for argument in argv[1:]:
                if argument.endswith(_SCRIPT_SUFFIXES) and not (Path(config.base_dir) / argument).is_file():
                    raise _fail(source, key, f"file {argument!r} not found (commands run in {config.base_dir})")
            continue
        try:
            bot = make_bot(spec, 0)
        except UnknownBot as exc:
            raise _fail(source, key, str(exc)) from None
        close = getattr(bot, "close", None)
        if callable(close):
            close()


def load_config(path: str | Path) -> TournamentConfig:
    """Read and validate a tournament configuration file (see :func:`parse_config`).

    Raises:
        ConfigError: the file cannot be read, or the configuration is bad.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not a UTF-8 text file") from None
    return parse_config(text, str(path), path.resolve().parent)
