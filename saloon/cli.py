"""The ``saloon`` command line (see ``DESIGN.md``: Command line).

Implemented subcommands: ``games``, ``schema``, ``play``, ``serve``, ``simulate``, ``replay FILE``
(or its ``--asciicast`` recording), ``replay verify``, ``replay show``, ``bench``, ``tournament run|show``
(in :mod:`saloon.cli_tournament`) and ``rules`` (in :mod:`saloon.rules_doc`).

Files of the user's own (``play``'s replays, external bots' stderr logs of ``play`` and
``simulate``) go under :func:`user_data_dir` unless an option names another directory.
Usage errors (a bad game id, bot name, option, player count, seed or argument) print one line on
stderr and exit with code 2; a replay that fails to load or verify exits with code 1
(``replay verify`` checks every file it is given, and exits 1 if any failed). Text taken from a
replay file (names, the game id, options, error messages quoting it) is printed through
:func:`replays.printable`, so a replay cannot send escape sequences to the terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import os
import re
import shutil
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

import msgspec
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

import engine
from bots import TimedBot, UnknownBot, make_bot, play_game, random_playout
from bots.external import ExternalBot
from lobby.local import user_data_dir
from replays import Player, ReplayCursor, ReplayError, load, printable, save, verify
from saloon.cli_tournament import add_tournament_parser
from saloon.rules_doc import add_rules_parser

__all__ = ["game_schema", "main", "user_data_dir", "wilson_interval"]

MAX_FAULTS_SHOWN = 3
"""How many fault reasons ``simulate`` and ``play`` print per bot."""

BENCH_PLAYER_COUNTS: dict[str, tuple[int, ...]] = {
    "deadwood1876": (4, 5, 7),
    "wyatt_earp": (2, 3, 4),
    "deadwood_studios": (2, 4, 8),
    "deadwood_town": (2, 4, 5),
}
"""Default player counts for ``saloon bench``, per game; other games get up to three counts."""


class UsageError(ValueError):
    """A bad command line; exit code 2."""


class _Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _options_arg(pairs: Sequence[str] | None) -> dict[str, str]:
    """``["KEY=VALUE", ...]`` as a dict (values stay strings; the game converts them)."""
    options: dict[str, str] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"bad --option {pair!r}: expected KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def _check_seed(seed: int, games: int = 1) -> None:
    """Refuse a seed (or the seeds ``seed .. seed + games - 1``) outside ``0..engine.MAX_SEED``."""
    if seed < 0:
        raise UsageError(f"--seed must be from 0 to {engine.MAX_SEED}, not {seed}")
    if seed + games - 1 > engine.MAX_SEED:
        if games == 1:
            raise UsageError(f"--seed must be from 0 to {engine.MAX_SEED} (what a replay stores), not {seed}")
        raise UsageError(
            f"--seed {seed} with --games {games} needs seeds up to {seed + games - 1}, "
            f"beyond {engine.MAX_SEED} (what a replay stores)"
        )


def _check_players(game: engine.Game, num_players: int) -> None:
    if not game.min_players <= num_players <= game.max_players:
        raise UsageError(f"{game.id} is for {_player_range(game)} players, not {num_players}")


def _player_range(game: engine.Game) -> str:
    if game.min_players == game.max_players:
        return str(game.min_players)
    return f"{game.min_players}-{game.max_players}"


def _option_defaults(game: engine.Game) -> list[str]:
    """``["name=default", ...]`` for the game's options struct."""
    shown = []
    for field in msgspec.structs.fields(game.options_type):
        if field.default is not msgspec.NODEFAULT:
            default: Any = field.default
        elif field.default_factory is not msgspec.NODEFAULT:
            default = field.default_factory()
        else:
            shown.append(f"{field.encode_name} (required)")
            continue
        shown.append(f"{field.encode_name}={json.dumps(msgspec.to_builtins(default))}")
    return shown


def game_schema(game: engine.Game) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``game``'s view, action, event and options types.

    Returns:
        A JSON-able dict: ``$schema``, ``title``, ``game``, ``rules_version``, then ``view``
        (the ``view`` of a ``decide`` message), ``action`` (one element of ``legal``: a union
        tagged by ``type``), ``event`` and ``options`` (the ``options`` of ``start``), each a
        schema whose ``$ref``s point into ``$defs`` (every Struct, by class name, with its
        docstring as ``description``, in plain text). Enumerated string fields list their values
        as ``enum`` (:mod:`saloon.schema`).
    """
    from saloon.schema import add_enumerations, enumerations

    types = {"view": game.view_type, "action": game.action_type, "event": game.event_type}
    types["options"] = game.options_type
    schemas, components = msgspec.json.schema_components(list(types.values()), ref_template="#/$defs/{name}")
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{game.title}: views, actions and events of the Saloon bot protocol",
        "game": game.id,
        "rules_version": game.rules_version,
        **dict(zip(types, schemas, strict=True)),
        "$defs": components,
    }
    return add_enumerations(schema, enumerations(game))


def _cmd_schema(args: argparse.Namespace) -> int:
    print(json.dumps(game_schema(engine.game(args.game)), indent=2))
    return 0


def _fault_seat(line: str) -> int | None:
    """The seat a fault-log line names (``... seat N: ...``), if any."""
    found = re.search(r"\bseat (\d+)\b", line)
    return int(found.group(1)) if found else None


def _print_faults(faults: Iterable[tuple[str, str]], counts: dict[str, int]) -> None:
    """Per bot with faults: its fault count and up to :data:`MAX_FAULTS_SHOWN` reasons.

    Args:
        faults: ``(bot name, fault-log line)`` in the order they happened.
        counts: per bot name, how many faults it had (bots with 0 are skipped).
    """
    reasons: dict[str, list[str]] = {}
    for name, line in faults:
        shown = reasons.setdefault(name, [])
        if len(shown) < MAX_FAULTS_SHOWN:
            shown.append(line)
    for name, count in counts.items():
        if count <= 0:
            continue
        first = reasons.get(name, [])
        more = f", the first {len(first)}" if count > len(first) else ""
        print(f"faults of {printable(name)}: {count}{more}:")
        for line in first:
            print(f"  {printable(line)}")


def _print_bot_logs(logs: Iterable[tuple[str, Path]]) -> None:
    """Where external bots' standard error was kept: ``(bot, path)`` pairs; files never written are skipped."""
    written = [(name, path) for name, path in dict.fromkeys(logs) if path.exists()]
    for name, path in written:
        print(f"stderr of {printable(name)}: {printable(path)}")


def _cmd_games(args: argparse.Namespace) -> int:
    table = Table(title="Saloon games")
    table.add_column("id", style="bold")
    table.add_column("title")
    table.add_column("players", justify="right")
    table.add_column("options (defaults)")
    for game in engine.games().values():
        options = "\n".join(_option_defaults(game)) or "none"
        table.add_row(Text(game.id), Text(game.title), _player_range(game), Text(options))
    Console().print(table)
    return 0


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of the win share ``wins / games``: 95% for the default ``z``.

    Args:
        wins: games won, ``0 <= wins <= games``.
        games: games played; with none the interval is the whole ``(0.0, 1.0)``.
        z: the standard normal quantile of the confidence level (1.96 for 95%).

    Returns:
        ``(low, high)``, shares in ``[0, 1]``.

    >>> tuple(round(x, 3) for x in wilson_interval(32, 80))
    (0.3, 0.51)
    """
    if games <= 0:
        return (0.0, 1.0)
    share = wins / games
    scale = 1 + z * z / games
    centre = (share + z * z / (2 * games)) / scale
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / scale
    return (max(0.0, centre - half), min(1.0, centre + half))


class _Tally:
    """Games, wins, summed score and faults for one bot name or seat (a game per seat it held)."""

    def __init__(self) -> None:
        self.games = 0
        self.wins = 0
        self.score = 0.0
        self.faults = 0

    def add(self, won: bool, score: float, faults: int) -> None:
        self.games += 1
        self.wins += won
        self.score += score
        self.faults += faults

    def cells(self, players: int) -> list[str]:
        """games, wins, win share, its 95% Wilson interval, the fair share ``1 / players``, mean
        score and faults, as table cells."""
        games = max(self.games, 1)
        low, high = wilson_interval(self.wins, self.games)
        return [
            str(self.games),
            str(self.wins),
            f"{100 * self.wins / games:.1f}%",
            f"{100 * low:.1f}–{100 * high:.1f}%",
            f"{100 / players:.1f}%",
            f"{self.score / games:.2f}",
            str(self.faults),
        ]


class _SimulatedGame(NamedTuple):
    """One game of ``saloon simulate``, as a worker returns it (picklable)."""

    outcome: engine.Outcome
    faults: tuple[int, ...]
    """per seat, the bot's faults"""
    fault_log: tuple[str, ...]
    decisions: int
    """moves in the game"""
    bot_cpu: tuple[float, ...]
    """per seat, CPU seconds its bot spent deciding (``time.process_time``, in the playing process)"""
    bot_decisions: tuple[int, ...]
    """per seat, how many times the bot was asked to decide (each call of ``act`` or ``act_with_sampler``)"""


def _simulate_game(job: tuple[Any, ...]) -> _SimulatedGame:
    """Play one game of ``saloon simulate`` (in this process or a worker's): ``job`` is ``(game id,
    seed, bot names, options, players, replay directory or None, stderr log path per seat)``.

    Each seat's bot is wrapped in a :class:`bots.TimedBot`, so its decisions are timed here, in the
    process that plays the game.

    Returns:
        The outcome, faults, decisions and each seat's bot CPU time and decision count; the replay is
        saved when asked for.
    """
    game_id, seed, names, options, players, out, log_paths = job
    bots = [make_bot(name, seed * 1000 + seat) for seat, name in enumerate(names)]
    for seat, bot in enumerate(bots):
        if isinstance(bot, ExternalBot):
            bot.stderr_path = log_paths[seat]
    timed = [TimedBot(bot) for bot in bots]
    result = play_game(game_id, len(names), timed, seed, options, players)
    if out is not None:
        save(result.replay, out / f"{game_id}-{seed}.replay")
    return _SimulatedGame(
        result.outcome,
        result.faults,
        result.fault_log,
        result.decisions,
        tuple(bot.cpu for bot in timed),
        tuple(bot.decisions for bot in timed),
    )


def _print_bot_cpu(names: Sequence[str], cpu: Sequence[float], decisions: Sequence[int]) -> None:
    """Per seat, its bot's mean CPU milliseconds per decision (one decimal) and its decisions.

    Args:
        names: the bot name per seat.
        cpu: per seat, CPU seconds its bot spent deciding over all games.
        decisions: per seat, the number of its bot's decisions over all games.
    """
    print("CPU ms per decision, per seat (time.process_time around each act or act_with_sampler call):")
    for seat, name in enumerate(names):
        per = 1000 * cpu[seat] / decisions[seat] if decisions[seat] else 0.0
        print(f"  seat {seat} {printable(name)}: {per:.1f} ms over {decisions[seat]} decisions")


def _cmd_simulate(args: argparse.Namespace) -> int:
    game = engine.game(args.game)
    _check_players(game, args.players)
    options = engine.parse_options(game.options_type, _options_arg(args.option))
    names = [name.strip() for name in args.bots.split(",")]
    if len(names) == 1:
        names *= args.players
    if len(names) != args.players:
        raise UsageError(
            f"--bots names {len(names)} bots for {args.players} players: give one per seat, or one for all"
        )
    bots = [make_bot(name, 0) for name in names]  # fail early on a bad name
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, not {args.workers}")
    _check_seed(args.seed, args.games)
    out: Path | None = args.out
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    log_dir: Path = args.log_dir if args.log_dir is not None else user_data_dir() / "logs"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    log_paths = [
        log_dir / f"simulate-{game.id}-{stamp}-{os.getpid()}-seat{seat}.stderr.log" for seat in range(len(names))
    ]
    # (bot name, stderr log) per external bot's seat
    logs = [(names[seat], log_paths[seat]) for seat, bot in enumerate(bots) if isinstance(bot, ExternalBot)]
    if logs:
        log_dir.mkdir(parents=True, exist_ok=True)
    fault_lines: list[tuple[str, str]] = []

    players = [Player(name, "bot") for name in names]
    jobs = [(game.id, args.seed + i, names, options, players, out, log_paths) for i in range(args.games)]
    by_bot = {name: _Tally() for name in names}
    by_seat = [_Tally() for _ in names]
    decisions = 0
    bot_cpu = [0.0] * len(names)  # per seat: CPU seconds of its bot's decisions, over all games
    bot_decisions = [0] * len(names)
    started = time.perf_counter()
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    # A game is a function of its seed and the bot names (bots are made per game, seeded by the
    # game's seed and the seat), so N worker processes give the same results as one, in seed order.
    with contextlib.ExitStack() as stack:
        results: Iterable[_SimulatedGame]
        if args.workers > 1:
            pool = stack.enter_context(
                ProcessPoolExecutor(min(args.workers, args.games), mp_context=multiprocessing.get_context("spawn"))
            )
            results = pool.map(_simulate_game, jobs)
        else:
            results = map(_simulate_game, jobs)
        stack.enter_context(progress)
        task = progress.add_task(f"{game.id} x{args.players}", total=args.games)
        for (_, seed, *_rest), result in zip(jobs, results, strict=True):
            outcome, faults = result.outcome, result.faults
            decisions += result.decisions
            for seat in range(len(names)):
                bot_cpu[seat] += result.bot_cpu[seat]
                bot_decisions[seat] += result.bot_decisions[seat]
            for line in result.fault_log:
                faulted = _fault_seat(line)
                if faulted is not None and 0 <= faulted < len(names):
                    fault_lines.append((names[faulted], f"seed {seed}: {line}"))
            for seat, name in enumerate(names):
                won = seat in outcome.winners
                score = outcome.scores[seat]
                by_bot[name].add(won, score, faults[seat])
                by_seat[seat].add(won, score, faults[seat])
            progress.advance(task)
    elapsed = time.perf_counter() - started

    console = Console(width=max(Console().width, 110))
    headers = ["games", "wins", "win %", "95% interval", "fair share", "mean score", "faults"]
    last = args.seed + args.games - 1
    table = Table(
        title=f"{game.title}: {args.games} games, {args.players} players, seeds {args.seed}..{last}",
        caption="win %: wins per seat played; 95% interval: Wilson score; fair share: 1 / players",
    )
    table.add_column("bot")
    for header in headers:
        table.add_column(header, justify="right")
    for name, tally in by_bot.items():
        table.add_row(Text(name), *tally.cells(args.players))
    console.print(table)
    table = Table(title="By seat")
    table.add_column("seat", justify="right")
    table.add_column("bot")
    for header in headers:
        table.add_column(header, justify="right")
    for seat, tally in enumerate(by_seat):
        table.add_row(str(seat), Text(names[seat]), *tally.cells(args.players))
    console.print(table)
    console.print(
        f"{decisions} decisions in {elapsed:.2f}s ({args.games / elapsed:.1f} games/s)"
        + (f"; replays in {out}" if out is not None else ""),
        highlight=False,
    )
    _print_bot_cpu(names, bot_cpu, bot_decisions)
    _print_faults(fault_lines, {name: tally.faults for name, tally in by_bot.items()})
    _print_bot_logs(logs)
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    command, files = args.args[0], args.args[1:]
    if args.asciicast is None and (args.size is not None or args.step is not None):
        raise UsageError("--size and --step go with --asciicast OUT.cast")
    if args.asciicast is not None and (command in ("verify", "show") or files):
        raise UsageError("--asciicast records one replay: saloon replay FILE --asciicast OUT.cast")
    if command == "verify":
        if not files:
            raise UsageError("replay verify needs at least one FILE")
        return _replay_verify(files)
    if command == "show":
        if len(files) != 1:
            raise UsageError("replay show needs exactly one FILE")
        return _replay_show(files[0], boards=args.boards)
    if files:
        raise UsageError(f"unknown replay command {command!r}; use FILE, verify FILE... or show FILE")
    if args.asciicast is not None:
        return _replay_asciicast(command, args.asciicast, args.size, args.step)
    import tui

    tui.run_replay(command)
    return 0


def _replay_asciicast(path: str, out: Path, size_arg: str | None, step_arg: float | None) -> int:
    """``saloon replay FILE --asciicast OUT``: the spectator's screen, every move, as an asciinema
    v2 recording (see :mod:`tui.asciicast`). A replay that does not load or verify is refused as
    ``replay verify`` refuses it (its ``FAIL`` line, exit code 1), and ``out`` is not written."""
    from tui.asciicast import DEFAULT_SIZE, DEFAULT_STEP, check_step, parse_size, write_cast

    size = parse_size(size_arg) if size_arg is not None else DEFAULT_SIZE
    step = check_step(step_arg) if step_arg is not None else DEFAULT_STEP
    if not out.parent.is_dir() or out.is_dir():
        raise UsageError(f"cannot write {printable(out)}: not a file in an existing directory")
    try:
        replay = load(path)
        verify(replay)
    except ReplayError as exc:
        print(f"FAIL {printable(path)}: {printable(exc)}", file=sys.stderr)  # as replay verify says it
        return 1
    try:
        info = write_cast(replay, out, size, step)
    except OSError as exc:
        raise UsageError(f"cannot write {printable(out)}: {printable(exc.strerror or exc)}") from exc
    print(
        f"wrote {printable(info.path)}: {info.frames} screens, {info.duration:g} s, {info.size_bytes / 1024:.0f} KiB "
        f"(play it with: asciinema play {printable(info.path)})"
    )
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from serve.ssh_server import main as serve_main

    return serve_main(args.args)


def _play_app(args: argparse.Namespace) -> Any:
    """The :class:`tui.SaloonApp` for ``saloon play`` (checked: a bad argument raises before it opens)."""
    from tui.app import PlaySetup, SaloonApp

    game = engine.game(args.game)
    players = args.players if args.players is not None else max(game.min_players, min(5, game.max_players))
    _check_players(game, players)
    if not 0 <= args.seat < players:
        raise UsageError(f"--seat must be 0..{players - 1} (0-based), not {args.seat}")
    bots = [name.strip() for name in args.bots.split(",")] if args.bots else ["random"]
    if len(bots) not in (1, players - 1):
        raise UsageError(f"--bots names {len(bots)} bots: give one per other seat ({players - 1}), or one for all")
    if args.seed is not None:
        _check_seed(args.seed)
    log_dir = args.log_dir if args.log_dir is not None else user_data_dir() / "logs"
    options = _options_arg(args.option)
    PlaySetup(game.id, players, args.seat, tuple(bots), args.seed, options).make_table(0)  # bad bots, options
    setup = PlaySetup(game.id, players, args.seat, tuple(bots), args.seed, options, bot_log_dir=log_dir)
    replay_dir = args.replay_dir if args.replay_dir is not None else user_data_dir() / "replays"
    return SaloonApp(play=setup, speed=args.speed, replay_dir=replay_dir)


def _play_summary(app: Any) -> None:
    """After ``saloon play``: the replays saved, each bot's first fault reasons, the bots' stderr logs."""
    for path in app.saved:
        print(f"replay saved: {printable(path)}")
    if app.saved:
        print(f"watch it with: saloon replay {printable(app.saved[-1])}")
    fault_lines: list[tuple[str, str]] = []
    counts: dict[str, int] = {}
    logs: list[tuple[str, Path]] = []
    for game in app.played:
        for name in game.bot_names.values():
            counts.setdefault(name, 0)
        for line in game.faults:
            seat = _fault_seat(line)
            if seat in game.bot_names:
                counts[game.bot_names[seat]] += 1
                fault_lines.append((game.bot_names[seat], f"game {game.number}: {line}"))
        logs.extend((game.bot_names[seat], path) for seat, path in game.bot_logs.items())
    _print_faults(fault_lines, counts)
    _print_bot_logs(logs)


def _cmd_play(args: argparse.Namespace) -> int:
    app = _play_app(args)
    try:
        app.run()
    finally:
        app.wrap_up()
        _play_summary(app)
    return 0


def _replay_verify(files: Sequence[str]) -> int:
    """Load and verify every file; one ``OK``/``FAIL`` line each. Exit code 1 if any failed, else 0."""
    failed = 0
    for path in files:
        shown = printable(path)
        try:
            replay = load(path)
            state = verify(replay)
            moves = len(replay.move_pairs())
        except ReplayError as exc:
            failed += 1
            print(f"FAIL {shown}: {printable(exc)}", file=sys.stderr)
            continue
        except Exception as exc:  # a bug, not a bad file: report it and go on with the others
            failed += 1
            print(f"FAIL {shown}: internal error {type(exc).__name__}: {printable(exc)}", file=sys.stderr)
            continue
        status = f"winners {list(state.outcome.winners)}" if state.is_over else "unfinished"
        players = len(replay.header.players)
        print(f"OK {shown}: {printable(replay.header.game)}, {players} players, {moves} moves, {status}")
    return 1 if failed else 0


def _option_text(key: str, value: Any) -> str:
    """``key=value`` of a replay's option, printable (the value as JSON when it can be)."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return printable(f"{key}={text}")


def _replay_show(path: str, boards: bool = False) -> int:
    """Print a verified replay as text; every text from the file goes through :func:`printable`.

    Games with a text board (:meth:`tui.games.GameUI.board_text`) also get the final position's
    board, seen by nobody in particular (the omniscient view), and with ``boards`` the board after
    every move.
    """
    from tui.games import ui_for

    replay = load(path)
    cursor = ReplayCursor(replay)
    header = replay.header
    game = cursor.game
    names = [printable(player.name) for player in header.players]
    print(f"game: {printable(game.id)} ({printable(game.title)}), rules version {printable(header.rules_version)}")
    print(f"seed: {header.seed}")
    print("options: " + (", ".join(_option_text(k, v) for k, v in header.options.items()) or "none"))
    for seat, player in enumerate(header.players):
        print(f"seat {seat}: {names[seat]} ({printable(player.kind)})")
    ui = ui_for(game.id)
    width = max(80, min(100, shutil.get_terminal_size((100, 24)).columns))

    def board(title: str) -> None:
        text = ui.board_text(cursor.state.view(engine.OMNISCIENT), names, width)
        if text is not None:
            print(f"{title}:")
            print(text.rstrip("\n"))

    print(f"moves: {len(cursor)}")
    if boards:
        board("board at the start")
    for k, (seat, action) in enumerate(cursor.moves, start=1):
        print(f"move {k}: seat {seat}: {printable(game.describe(action, cursor.state.view(engine.OMNISCIENT), seat))}")
        cursor.forward()
        if boards:
            board(f"board after move {k}")
    if not boards:
        board("board at the end")
    for fault in replay.faults:
        print(f"fault: {printable(fault)}")
    outcome = replay.outcome
    if outcome is None:
        print("outcome: unfinished")
        return 0
    print("outcome:")
    for seat in range(len(header.players)):
        print(f"  seat {seat} ({names[seat]}): score {outcome.scores[seat]:g}, rank {outcome.ranks[seat]}")
    winners = ", ".join(f"seat {seat} ({names[seat]})" for seat in outcome.winners)
    print(f"winners: {winners or 'none'}")
    return 0


def _bench_counts(game: engine.Game, requested: Sequence[int] | None) -> list[int]:
    if requested:
        for count in requested:
            _check_players(game, count)
        return list(dict.fromkeys(requested))
    known = [n for n in BENCH_PLAYER_COUNTS.get(game.id, ()) if game.min_players <= n <= game.max_players]
    if known:
        return known
    low, high = game.min_players, game.max_players
    return sorted({low, (low + high) // 2, high})


def _bench_search(plan: list[tuple[engine.Game, int]], seconds: float, as_json: bool) -> int:
    """``saloon bench --search``: clone and resample times, IS-MCTS iterations/s, the heuristic's
    CPU µs per decision inside a playout (building the view + choosing) and heuristic and random
    playouts per CPU second, per game (the playout figures from :func:`bots.search_bench.heuristic_speed`)."""
    from bots.search_bench import heuristic_speed, measure

    rows = [measure(game.id, count, seconds) | heuristic_speed(game.id, count, seconds) for game, count in plan]
    if as_json:
        print(json.dumps(rows, indent=2))
        return 0
    table = Table(title="What search costs (medians over mid-game positions)")
    columns = (
        "game",
        "players",
        "clone µs",
        "resample µs",
        "ismcts iterations/s",
        "heuristic µs (view + choice)",
        "heuristic playouts/s",
        "random playouts/s",
    )
    for column in columns:
        table.add_column(column, justify="left" if column == "game" else "right", no_wrap=True)
    for row in rows:
        table.add_row(
            row["game"],
            str(row["players"]),
            f"{row['clone_us']:.1f}",
            f"{row['resample_us']:.1f}",
            f"{row['ismcts_iterations_per_s']:,.0f}",
            f"{row['decision_us']:,.0f} ({row['view_us']:,.0f} + {row['choose_us']:,.0f})",
            f"{row['heuristic_playouts_per_s']:,.1f}",
            f"{row['random_playouts_per_s']:,.0f}",
        )
    Console(width=max(Console().width, 160)).print(table)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.seconds <= 0:
        raise UsageError(f"--seconds must be positive, not {args.seconds}")
    games = [engine.game(game_id) for game_id in (args.games or list(engine.games()))]
    plan = [(game, count) for game in games for count in _bench_counts(game, args.players)]
    if args.search:
        return _bench_search(plan, args.seconds, args.json)
    results: list[dict[str, Any]] = []
    for game, count in plan:
        played = decisions = 0
        started = time.perf_counter()
        while True:
            decisions += random_playout(game, count, seed=played)
            played += 1
            elapsed = time.perf_counter() - started
            if elapsed >= args.seconds:
                break
        results.append(
            {
                "game": game.id,
                "players": count,
                "games": played,
                "decisions": decisions,
                "seconds": round(elapsed, 4),
                "decisions_per_s": round(decisions / elapsed, 1),
                "games_per_s": round(played / elapsed, 3),
                "decisions_per_game": round(decisions / played, 1),
            }
        )
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    table = Table(title="Engine throughput (random playouts)")
    columns = ("game", "players", "games", "decisions", "seconds", "decisions/s", "games/s", "per game")
    for column in columns:
        table.add_column(column, justify="left" if column == "game" else "right", no_wrap=True)
    for row in results:
        table.add_row(
            row["game"],
            str(row["players"]),
            str(row["games"]),
            str(row["decisions"]),
            f"{row['seconds']:.2f}",
            f"{row['decisions_per_s']:,.0f}",
            f"{row['games_per_s']:,.1f}",
            f"{row['decisions_per_game']:.0f}",
        )
    Console(width=max(Console().width, 100)).print(table)
    return 0


_LOG_DIR_HELP = (
    "where external bots' stderr is kept, one file per seat (default: $XDG_DATA_HOME/saloon/logs, "
    "or ~/.local/share/saloon/logs)"
)


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="saloon", description="Saloon: a game server for Wild West board games.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    games = commands.add_parser("games", help="the games, player counts and options")
    games.set_defaults(func=_cmd_games)

    schema = commands.add_parser(
        "schema",
        help="the JSON Schema of a game's views, actions and events (what bots receive)",
        description="Print the JSON Schema (draft 2020-12) of GAME's view, action, event and options types: "
        "the 'view' and 'legal' actions of the bot protocol's decide message, and the start message's options.",
    )
    schema.add_argument("game", metavar="GAME")
    schema.set_defaults(func=_cmd_schema)

    simulate = commands.add_parser(
        "simulate",
        help="headless games between bots, with a progress bar",
        description="Play G headless games between bots and print wins, win share with its 95% interval, "
        "mean score and faults per bot and per seat, then each seat's CPU ms per decision: the CPU time "
        "(time.process_time, in the process playing the game) of every call of its bot's act, or "
        "act_with_sampler for search bots, summed over all games and divided by the number of those calls. "
        "The bot is called for every move of its seat, even with one legal action; its start and end hooks "
        "are not counted; for an external bot (cmd:...) it is only this side of the exchange, not the CPU of "
        "the bot's own process.",
    )
    simulate.add_argument("game", metavar="GAME")
    simulate.add_argument("--players", type=int, required=True, metavar="N")
    simulate.add_argument(
        "--bots", required=True, metavar="B1,..,BN", help="one bot per seat, or one bot for all seats"
    )
    simulate.add_argument("--games", type=int, required=True, metavar="G")
    simulate.add_argument("--seed", type=int, default=0, metavar="S", help="game i uses seed S+i (default 0)")
    simulate.add_argument("--out", type=Path, metavar="DIR", help="save each game as DIR/GAME-SEED.replay")
    simulate.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option (repeatable)")
    simulate.add_argument("--log-dir", type=Path, metavar="DIR", help=_LOG_DIR_HELP)
    simulate.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="play games in N processes (default 1); the results are the same as with one",
    )
    simulate.set_defaults(func=_cmd_simulate)

    play = commands.add_parser("play", help="a local table in the terminal: you at seat K, bots in the others")
    play.add_argument("game", metavar="GAME")
    play.add_argument("--players", type=int, metavar="N", help="default 5 (or the game's nearest count)")
    play.add_argument("--seat", type=int, default=0, metavar="K", help="your seat, 0-based (default 0)")
    play.add_argument("--bots", metavar="B1,B2,..", help="one bot per other seat, or one for all (default random)")
    play.add_argument("--seed", type=int, metavar="S", help="default: a secret seed, shown when the game is over")
    play.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option (repeatable)")
    play.add_argument("--speed", choices=("slow", "normal", "fast", "instant"), default="normal", help="bot pace")
    play.add_argument(
        "--replay-dir",
        type=Path,
        metavar="DIR",
        help="where every finished or abandoned game's replay is saved (default: $XDG_DATA_HOME/saloon/replays, "
        "or ~/.local/share/saloon/replays)",
    )
    play.add_argument("--log-dir", type=Path, metavar="DIR", help=_LOG_DIR_HELP)
    play.set_defaults(func=_cmd_play)

    replay = commands.add_parser(
        "replay",
        help="step through, verify or show replays",
        usage="saloon replay FILE [--asciicast OUT.cast [--size COLSxROWS] [--step S]] | "
        "saloon replay verify FILE... | saloon replay show FILE [--boards]",
        description="FILE: step through it in the terminal; with --asciicast OUT.cast, write instead an "
        "asciinema v2 recording of the spectator's screen (the public view), one move every --step seconds. "
        "verify FILE...: re-simulate, exit 1 with the reason on any mismatch. show FILE: the replay as text "
        "(header, moves, the final board of games that have a text board, faults, outcome).",
    )
    replay.add_argument("args", nargs="+", metavar="ARG")
    replay.add_argument("--boards", action="store_true", help="show: the board after every move, not only at the end")
    replay.add_argument(
        "--asciicast",
        type=Path,
        metavar="OUT.cast",
        help="FILE: write an asciinema v2 recording of the spectator's screen, every move (the replay must verify)",
    )
    replay.add_argument("--size", metavar="COLSxROWS", help="--asciicast: the terminal's size (default 80x24)")
    replay.add_argument(
        "--step",
        type=float,
        metavar="S",
        help="--asciicast: seconds between moves (default 1.0; the last screen is held 3 s)",
    )
    replay.set_defaults(func=_cmd_replay)

    bench = commands.add_parser("bench", help="engine throughput: decisions/s and games/s")
    bench.add_argument("games", nargs="*", metavar="GAME", help="default: every game")
    bench.add_argument("--seconds", type=float, default=2.0, metavar="S", help="time per game and player count")
    bench.add_argument("--players", type=int, nargs="+", action="extend", metavar="N", help="player counts")
    bench.add_argument("--json", action="store_true", help="print JSON instead of a table")
    bench.add_argument(
        "--search",
        action="store_true",
        help="what search costs instead: clone, resample, ismcts iterations/s, heuristic µs per decision, playouts/s",
    )
    bench.set_defaults(func=_cmd_bench)

    serve = commands.add_parser(
        "serve",
        add_help=False,
        help="the SSH server (defaults 127.0.0.1:2222, data in ./saloon-data)",
        usage="saloon serve [--host H] [--port P] [--data-dir DIR] [--guest] [--grace S] [--bot-grace S] "
        "[--turn-timer S] [--ladder-max-wait S] [--ladder-connections N] [--house-bot NAME=SPEC ...] "
        "[--web PORT] [--web-host H] [--web-public-url URL] [--trusted-proxy ADDRESS ...] [--bot NAME=SPEC ...] "
        "[--log-file PATH] [--log-max-mb MB] [--log-backups N]",
    )
    serve.add_argument("args", nargs=argparse.REMAINDER)
    serve.set_defaults(func=_cmd_serve)

    add_tournament_parser(commands, _Parser)
    add_rules_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``saloon`` command line.

    Args:
        argv: the arguments after the program name; ``None`` for ``sys.argv[1:]``.

    Returns:
        The exit code: 0 on success, 1 when a replay fails to load or verify, 2 for a usage
        error (bad game id, bot name, option, player count, seed or argument).
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["serve"]:  # the server parses its own arguments (see serve.ssh_server)
        return _cmd_serve(argparse.Namespace(args=argv[1:]))
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    if getattr(args, "func", None) is None:
        parser.print_usage(sys.stderr)
        return 2
    try:
        code: int = args.func(args)
    except ReplayError as exc:
        print(f"saloon: {printable(exc)}", file=sys.stderr)
        return 1
    except (engine.UnknownGame, engine.InvalidOptions, UnknownBot, ValueError) as exc:
        print(f"saloon: error: {printable(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("saloon: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `saloon replay show FILE | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return code
