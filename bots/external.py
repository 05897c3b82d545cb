"""External bots: a program in any language speaking the JSON-lines bot protocol on stdin/stdout.

An :class:`ExternalBot` runs its command as a child process and talks :mod:`bots.protocol` with it:
a ``start`` line when the game starts, a ``decide`` line per decision (answered by one
``{"action": INDEX}`` line), an ``end`` line when it is over. The process sees only views and
legal actions, never the game's seed.

Limits and faults:

* **per-decision deadline** (``decision_timeout_s``, default 1 s): the reply line must arrive in
  time;
* **start-up deadline** (``startup_timeout_s``, default 5 s): extra time for the first reply after
  the process starts (interpreter start-up, imports, loading a model);
* **memory** (``memory_limit_mb``, default 2048): the process's address space (``RLIMIT_AS``);
  node needs at least about 1024 MB of address space to start;
* **CPU time** (``cpu_limit_s``, default :data:`DEFAULT_CPU_LIMIT_S` = 600 s): ``RLIMIT_CPU`` of
  each process of the bot (its children inherit the limit and count their own time). A process
  lives for one game, about 70 decisions of one seat at most players' counts, so 600 s leaves a
  single-threaded bot ample room even if it thinks for the whole deadline every time. Over the
  limit the kernel sends ``SIGXCPU``, and ``SIGKILL`` one second later;
* **processes** (``process_allowance``, default :data:`DEFAULT_PROCESS_ALLOWANCE` = 256):
  ``RLIMIT_NPROC`` is set to the number of processes and threads the user already runs (counted
  in ``/proc`` when the bot starts) plus this allowance, so a fork bomb sees ``fork`` fail. The
  kernel counts *all* the tasks of the real user against it, so the cap is shared: the bots and
  anything else the user starts while a bot runs use the same allowance, which is why it is not
  small (a node bot alone runs about 11 threads). It does not apply to root (the kernel exempts
  root and processes with ``CAP_SYS_ADMIN``/``CAP_SYS_RESOURCE``), nor without ``/proc``;
* **core dumps** are off (``RLIMIT_CORE`` 0): a crash must not write a 2 GB file;
* **standard error** goes to ``stderr_path`` (appended) or is discarded. The log is capped at
  ``stderr_limit_bytes`` (default :data:`DEFAULT_STDERR_LOG_BYTES`, 1 MiB) per log *file*, that is
  per bot per tournament output directory: every process of the bot, in every game and worker,
  appends to the same file, and once it reaches the cap a line ``[saloon] stderr log cut at N
  bytes; the rest was discarded`` is added and the rest is read and thrown away (a thread drains
  the pipe, so the bot never blocks on its standard error).

A crash (the process exits or closes stdout), a timeout, or a bad reply (not one
``{"action": INDEX}`` line with a valid index, a line over :data:`~bots.protocol.MAX_LINE_BYTES`,
nested deeper than :data:`~bots.protocol.MAX_REPLY_DEPTH`, with ``action`` twice, or output written
when no decision was asked: see :func:`~bots.protocol.parse_reply`) makes :meth:`ExternalBot.act` raise
:class:`BotFault`; :func:`bots.play_game` records a fault and plays ``legal_actions[0]``. A process
that dies while a reply is awaited is a crash (``crashed: the process exited with code 3``,
``... was killed by SIGXCPU``), reported as soon as it dies (a ``pidfd`` wakes the wait on Linux
5.3+; elsewhere the process is polled every 50 ms), even if a child of it still holds its output
open; a timeout means the process was still alive at the deadline.

Restart policy: after any fault the process is killed (its output can no longer be trusted to be
in step), and the next decision starts a fresh process, which gets the ``start`` line again and the
start-up deadline again. After ``max_restarts`` restarts in one game the bot is disabled: every
further decision is an immediate fault without starting a process, so a broken bot costs at most
``(max_restarts + 1)`` deadlines per game.

Killing a bot and its children (no root, no cgroups): the process starts in a session and process
group of its own, whose id is its pid, and with :data:`TOKEN_ENV` (a random token per process) in
its environment, which its children inherit. The main process is never reaped before the kill
(its exit is observed with ``waitid(WNOWAIT)``), so its pid, and with it the group and session
ids, cannot be reused by another process meanwhile. To kill, :func:`kill_bot_processes` reads
``/proc`` and takes every process that is the bot, is in its process group or session, carries its
token in ``/proc/PID/environ``, or descends (by parent pid) from any of these; it stops them all
with ``SIGSTOP`` first (so none can fork, and no parent dies and orphans its children before the
next look), looks again until nothing new turns up, then sends ``SIGKILL`` to all of them and to
the process group (``killpg``, always, even when the main process has already exited), and reaps
the main process. This catches plain children, children that called ``setsid()`` (by parentage,
or by the token once orphaned), daemons that double-forked, and fork bombs.

What still escapes: a process that both leaves the session (``setsid``) and clears its environment
(``execve`` with an empty environment, or overwriting it in memory), after its parent has died so
that no parent-pid chain leads back to the bot; a process started for the bot by another service
(``systemd-run``, ``at``, cron, ``ssh localhost``); and processes of another user (a bot running as
root can do anything). Without ``/proc`` (not Linux) only the process group is killed and the
process cap is not set; without ``waitid`` (macOS) the main process is reaped when its exit is
seen, so a group kill after that relies on the group still holding its pid. The limits never
raise one the tournament already runs under (a lower soft or hard limit is kept).

None of this is a sandbox: run untrusted bots in a container or a virtual machine of their own
(``docs/security.md``).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import math
import os
import resource
import secrets
import selectors
import shlex
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import engine
from bots.protocol import MAX_LINE_BYTES, BotReplyError, decide_message, end_message, parse_reply, start_message

__all__ = [
    "DEFAULT_CPU_LIMIT_S",
    "DEFAULT_PROCESS_ALLOWANCE",
    "DEFAULT_STDERR_LOG_BYTES",
    "TOKEN_ENV",
    "BotFault",
    "ExternalBot",
    "kill_bot_processes",
]

DEFAULT_DECISION_TIMEOUT_S = 1.0
DEFAULT_STARTUP_TIMEOUT_S = 5.0
DEFAULT_MEMORY_LIMIT_MB = 2048
DEFAULT_MAX_RESTARTS = 2
DEFAULT_CPU_LIMIT_S = 600
"""CPU seconds per bot process (``RLIMIT_CPU``): ``SIGXCPU`` then, ``SIGKILL`` a second later."""
DEFAULT_PROCESS_ALLOWANCE = 256
"""``RLIMIT_NPROC`` of a bot = the user's processes and threads when it starts + this."""
DEFAULT_STDERR_LOG_BYTES = 1 << 20
"""The cap of a bot's standard-error log file, in bytes (1 MiB)."""
TOKEN_ENV = "SALOON_BOT_TOKEN"
"""The environment variable that marks a bot's processes (a random token per process)."""

_EXIT_GRACE_S = 0.5  # close(): time to exit after stdin closes, before the kill
_EXIT_POLL_S = 0.05  # how often a wait checks whether the process died (without a pidfd to wake it)
_REAP_TIMEOUT_S = 5.0
_LOG_JOIN_S = 0.5  # how long a kill waits for the stderr thread to copy what is left in the pipe
_LOG_CHUNK = 1 << 16
_KILL_ROUNDS = 20  # looks at /proc while stopping a bot's processes (each stops all it finds)
_PROC = "/proc"


class BotFault(RuntimeError):
    """An external bot crashed, timed out or answered nonsense (the message says which)."""


# -- limits (run in the child between fork and exec) ---------------------------------------------


def _lower_limit(kind: int, soft: int, hard: int) -> None:
    """Lower a resource limit to ``(soft, hard)``, never raising the current one (soft or hard)."""

    def lower(value: int, current: int) -> int:
        return value if current == resource.RLIM_INFINITY else min(value, current)

    current_soft, current_hard = resource.getrlimit(kind)
    hard = lower(hard, current_hard)
    resource.setrlimit(kind, (min(lower(soft, current_soft), hard), hard))


def _set_limits(memory_bytes: int | None, cpu_s: int | None, max_tasks: int | None) -> None:
    """The ``preexec_fn`` of a bot: no core dumps, and its memory, CPU-time and process limits."""
    _lower_limit(resource.RLIMIT_CORE, 0, 0)
    if memory_bytes is not None:
        _lower_limit(resource.RLIMIT_AS, memory_bytes, memory_bytes)
    if cpu_s is not None:
        _lower_limit(resource.RLIMIT_CPU, cpu_s, cpu_s + 1)
    if max_tasks is not None:
        _lower_limit(resource.RLIMIT_NPROC, max_tasks, max_tasks)


def _user_task_count(uid: int | None = None) -> int | None:
    """The processes and threads (what ``RLIMIT_NPROC`` counts) of a user, or ``None`` without /proc.

    Args:
        uid: the user (default: this process's real user). A process is counted as the user's
            when its ``/proc/PID`` directory is (its effective uid), with all its threads, and
            zombies too, as the kernel counts them.
    """
    uid = os.getuid() if uid is None else uid
    try:
        entries = list(os.scandir(_PROC))
    except OSError:
        return None
    count = 0
    for entry in entries:
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if entry.stat().st_uid == uid:
                    count += len(os.listdir(f"{_PROC}/{entry.name}/task"))
    return count


# -- finding and killing a bot's processes -------------------------------------------------------


def _process_table() -> dict[int, tuple[int, int, int]]:
    """``{pid: (parent pid, process group, session)}`` of every process in /proc (``{}`` without it)."""
    table: dict[int, tuple[int, int, int]] = {}
    try:
        names = os.listdir(_PROC)
    except OSError:
        return table
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"{_PROC}/{name}/stat", "rb") as file:
                data = file.read()
            # "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses.
            fields = data[data.rindex(b")") + 2 :].split()
            table[int(name)] = (int(fields[1]), int(fields[2]), int(fields[3]))
        except (OSError, ValueError, IndexError):
            continue
    return table


def _has_token(pid: int, entry: bytes) -> bool:
    """Whether ``/proc/PID/environ`` holds ``entry`` (``b"\\0NAME=VALUE\\0"``)."""
    try:
        with open(f"{_PROC}/{pid}/environ", "rb") as file:
            return entry in b"\0" + file.read()
    except OSError:
        return False


def _bot_processes(leader: int, token: str | None) -> set[int]:
    """The pids of a bot's processes now (see the module docstring), without this process."""
    table = _process_table()
    found = {pid for pid, (_, group, session) in table.items() if leader in (pid, group, session)}
    if token:
        entry = f"\0{TOKEN_ENV}={token}\0".encode()
        found.update(pid for pid in table if pid not in found and _has_token(pid, entry))
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in table.items():
        children.setdefault(parent, []).append(pid)
    stack = list(found)
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found - {0, 1, os.getpid()}


def _signal(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signum)


def kill_bot_processes(leader: int, token: str | None = None) -> set[int]:
    """Kill a bot's main process ``leader``, its process group and every process that came from it.

    Stops (``SIGSTOP``) every process found by parentage, process group, session or the
    :data:`TOKEN_ENV` token (``/proc`` is read up to 20 times, until nothing new turns up), then
    sends them ``SIGKILL``, and always ``killpg(leader, SIGKILL)`` (a gone group is not an error).
    ``leader`` must be the pid of a session leader that has not been reaped yet, so that its pid
    cannot have been reused. Without ``/proc`` only the process group is killed.

    Returns:
        The pids that were killed (besides the group), for logging and tests.
    """
    stopped: set[int] = set()
    for _ in range(_KILL_ROUNDS):
        new = _bot_processes(leader, token) - stopped
        if not new:
            break
        for pid in new:
            _signal(pid, signal.SIGSTOP)
        stopped |= new
    for pid in stopped:
        _signal(pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(leader, signal.SIGKILL)
    return stopped


def _exit_status(process: subprocess.Popen[bytes]) -> int | None:
    """The process's exit status like ``Popen.returncode`` (``-N``: signal N), or ``None`` while it runs.

    Does not reap the process (``waitid(WNOWAIT)``): its pid stays its own until :meth:`_kill`.
    """
    if process.returncode is not None:
        return process.returncode
    if not hasattr(os, "waitid"):
        return process.poll()
    try:
        info = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return process.poll()
    if info is None:
        return None
    return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status


def _open_pidfd(pid: int) -> int | None:
    """A descriptor that turns readable when process ``pid`` exits (Linux 5.3+), or ``None``."""
    if not hasattr(os, "pidfd_open"):
        return None
    try:
        return os.pidfd_open(pid)
    except OSError:
        return None


def _wait_exit(process: subprocess.Popen[bytes], timeout_s: float, pidfd: int | None = None) -> int | None:
    """:func:`_exit_status` after waiting up to ``timeout_s`` seconds for the process to exit.

    With a ``pidfd`` (:func:`_open_pidfd`) the wait ends as soon as the process exits; without,
    the process is polled every few milliseconds.
    """
    if pidfd is not None:
        with selectors.DefaultSelector() as selector:
            selector.register(pidfd, selectors.EVENT_READ)
            selector.select(max(0.0, timeout_s))
        return _exit_status(process)
    deadline = time.monotonic() + timeout_s
    delay = 0.001
    while (code := _exit_status(process)) is None and (remaining := deadline - time.monotonic()) > 0:
        time.sleep(min(delay, remaining))
        delay = min(2 * delay, 0.02)
    return code


# -- the standard-error log ----------------------------------------------------------------------


def _cut_note(limit: int) -> bytes:
    return f"\n[saloon] stderr log cut at {limit} bytes; the rest was discarded\n".encode()


class _StderrLog:
    """Copies a process's standard error from a pipe to a log file on a thread, up to a cap.

    The cap is on the file's size, under an exclusive ``flock`` so that processes of the same bot
    in other workers share it. The writer that reaches the cap adds :func:`_cut_note`; after that
    everything is read and discarded, so the process never blocks on a full pipe. A write error
    (a full disk) stops the copying the same way.
    """

    def __init__(self, path: str | Path, limit_bytes: int | None) -> None:
        self._file = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
        self._read_fd, self.write_fd = os.pipe()
        self._limit = limit_bytes
        self._cut = False
        self._thread = threading.Thread(target=self._drain, name="saloon-bot-stderr", daemon=True)

    def started(self) -> None:
        """The process holds its copy of the pipe: close ours and start copying."""
        os.close(self.write_fd)
        self._thread.start()

    def abandon(self) -> None:
        """The process did not start: close everything."""
        for fd in (self.write_fd, self._read_fd, self._file):
            os.close(fd)

    def join(self, timeout_s: float) -> None:
        """Wait up to ``timeout_s`` for the copying to finish (all writers gone, pipe empty)."""
        self._thread.join(timeout_s)

    def _drain(self) -> None:
        try:
            while chunk := os.read(self._read_fd, _LOG_CHUNK):
                if not self._cut:
                    self._append(chunk)
        except OSError:
            pass
        finally:
            os.close(self._read_fd)
            os.close(self._file)

    def _append(self, chunk: bytes) -> None:
        try:
            fcntl.flock(self._file, fcntl.LOCK_EX)
            try:
                size = os.fstat(self._file).st_size
                if self._limit is None or size + len(chunk) <= self._limit:
                    self._write(chunk)
                    return
                self._cut = True
                if size <= self._limit:  # over it, the note is there already
                    self._write(chunk[: self._limit - size] + _cut_note(self._limit))
            finally:
                fcntl.flock(self._file, fcntl.LOCK_UN)
        except OSError:
            self._cut = True

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._file, view) :]


# -- the bot -------------------------------------------------------------------------------------


class ExternalBot:
    """A bot that is an external program speaking the JSON-lines bot protocol.

    The process starts lazily (in :meth:`start`, or at the first :meth:`act`) and lives for one
    game; :meth:`end` lets it exit, :meth:`close` kills it and every process it started. See the
    module docstring for limits, faults, the restart policy and how processes are killed.

    Args:
        command: the command line (split like a shell does) or an argument list.
        seed: accepted for :func:`bots.make_bot` uniformity and not passed on: a bot's seed is
            derived from the game's seed, which an untrusted program must not learn.
        decision_timeout_s: the per-decision deadline, in seconds.
        startup_timeout_s: extra time for the first reply after the process starts.
        memory_limit_mb: the address-space limit of the process in MiB (``None``: no limit).
        max_restarts: how many times a faulted process is restarted within one game.
        name: the display name (default: ``"cmd:" + command``).
        cwd: the working directory of the process (default: the current one).
        stderr_path: a file the process's standard error is appended to (default: discarded).
        cpu_limit_s: CPU seconds per process (``RLIMIT_CPU``, whole seconds, rounded up;
            ``None``: no limit).
        process_allowance: ``RLIMIT_NPROC`` is the user's process and thread count at start-up
            plus this (``None``: no limit).
        stderr_limit_bytes: the cap of the ``stderr_path`` file in bytes (``None``: no cap).

    Raises:
        ValueError: an empty command.
    """

    def __init__(
        self,
        command: str | list[str],
        seed: int = 0,
        decision_timeout_s: float = DEFAULT_DECISION_TIMEOUT_S,
        startup_timeout_s: float = DEFAULT_STARTUP_TIMEOUT_S,
        memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB,
        max_restarts: int = DEFAULT_MAX_RESTARTS,
        name: str | None = None,
        cwd: str | Path | None = None,
        stderr_path: str | Path | None = None,
        cpu_limit_s: float | None = DEFAULT_CPU_LIMIT_S,
        process_allowance: int | None = DEFAULT_PROCESS_ALLOWANCE,
        stderr_limit_bytes: int | None = DEFAULT_STDERR_LOG_BYTES,
    ) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("empty external bot command")
        self.name = name or "cmd:" + (command if isinstance(command, str) else shlex.join(command))
        self.decision_timeout_s = decision_timeout_s
        self.startup_timeout_s = startup_timeout_s
        self.memory_limit_mb = memory_limit_mb
        self.max_restarts = max_restarts
        self.cwd = cwd
        self.stderr_path = stderr_path
        self.cpu_limit_s = cpu_limit_s
        self.process_allowance = process_allowance
        self.stderr_limit_bytes = stderr_limit_bytes
        self._process: subprocess.Popen[bytes] | None = None
        self._token: str | None = None
        self._pidfd: int | None = None  # readable once the process exits
        self._log: _StderrLog | None = None
        self._buffer = b""
        self._fresh = False  # no reply read yet from the current process
        self._starts = 0
        self._game: tuple[str, int, int, Any] | None = None
        self.disabled_reason: str | None = None

    # -- the game hooks ------------------------------------------------------------------------

    def start(self, game_id: str, seat: int, players: int, options: Any = None) -> None:
        """A game starts: remember it and start the process (its ``start`` line is sent now)."""
        self.close()
        self._starts = 0
        self.disabled_reason = None
        self._game = (game_id, seat, players, options)
        with contextlib.suppress(BotFault):  # a failure to start shows as a fault at the first decision
            self._spawn()

    def act(self, view: Any, legal_actions: list[Any], seat: int) -> Any:
        """Ask the process for a decision.

        Returns:
            The chosen element of ``legal_actions``.

        Raises:
            BotFault: the process crashed, timed out, answered nonsense (any
                :class:`~bots.protocol.BotReplyError`) or is disabled. Every fault, and any other
                error during the exchange (re-raised as a :class:`BotFault`), kills the process, so
                the next decision counts as a restart.
        """
        if self._process is None:
            if self._game is None:
                self._game = ("", seat, 0, None)
            self._spawn()
        assert self._process is not None
        try:
            if self._buffer or self._readable_now():
                self._read_available()
                if self._buffer:
                    raise BotFault(f"wrote output when no decision was asked: {self._buffer[:80]!r}")
            allowed_s = self.decision_timeout_s + (self.startup_timeout_s if self._fresh else 0.0)
            deadline = time.monotonic() + allowed_s
            self._send(decide_message(seat, view, legal_actions, round(self.decision_timeout_s * 1000)), deadline)
            line = self._read_line(deadline, allowed_s)
            self._fresh = False
            index = parse_reply(line, len(legal_actions))
        except (BotFault, BotReplyError) as exc:
            self._kill()
            raise BotFault(str(exc)) from None
        except Exception as exc:  # anything else mid-exchange leaves the process out of step all the same
            self._kill()
            raise BotFault(f"the exchange failed: {type(exc).__name__}: {exc}") from exc
        return legal_actions[index]

    def end(self, outcome: engine.Outcome) -> None:
        """The game is over: send the ``end`` line, close stdin and let the process exit."""
        process = self._process
        if process is not None and _exit_status(process) is None:
            with contextlib.suppress(BotFault):
                self._send(end_message(outcome), time.monotonic() + self.decision_timeout_s)
        self.close()

    def close(self) -> None:
        """Stop the process: close its stdin, give it a moment to exit, then kill it and its children."""
        process = self._process
        if process is None:
            return
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        _wait_exit(process, _EXIT_GRACE_S, self._pidfd)
        self._kill()

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the process ---------------------------------------------------------------------------

    def _spawn(self) -> None:
        if self.disabled_reason is not None:
            raise BotFault(f"disabled: {self.disabled_reason}")
        if self._starts > self.max_restarts:
            self.disabled_reason = f"faulted after {self.max_restarts} restarts"
            raise BotFault(f"disabled: {self.disabled_reason}")
        self._starts += 1
        memory = None if self.memory_limit_mb is None else self.memory_limit_mb * 1024 * 1024
        cpu = None if self.cpu_limit_s is None else max(1, math.ceil(self.cpu_limit_s))
        tasks = None
        if self.process_allowance is not None and (count := _user_task_count()) is not None:
            tasks = count + self.process_allowance
        token = secrets.token_hex(16)
        log = None if self.stderr_path is None else _StderrLog(self.stderr_path, self.stderr_limit_bytes)
        try:
            self._process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL if log is None else log.write_fd,
                cwd=self.cwd,
                env={**os.environ, TOKEN_ENV: token},
                bufsize=0,
                start_new_session=True,
                preexec_fn=functools.partial(_set_limits, memory, cpu, tasks),
            )
        except (OSError, subprocess.SubprocessError) as exc:
            if log is not None:
                log.abandon()
            self.disabled_reason = f"cannot start {self.argv[0]!r}: {exc}"
            raise BotFault(self.disabled_reason) from None
        if log is not None:
            log.started()
        self._log, self._token, self._pidfd = log, token, _open_pidfd(self._process.pid)
        assert self._process.stdin is not None and self._process.stdout is not None
        os.set_blocking(self._process.stdin.fileno(), False)
        self._buffer = b""
        self._fresh = True
        game_id, seat, players, options = self._game or ("", 0, 0, None)
        try:
            self._send(start_message(game_id, seat, players, options), time.monotonic() + self.startup_timeout_s)
        except BotFault:
            self._kill()
            raise

    def _kill(self) -> None:
        process, self._process = self._process, None
        log, self._log = self._log, None
        pidfd, self._pidfd = self._pidfd, None
        self._buffer = b""
        if process is not None:
            # The main process is not reaped yet (see _exit_status), so its pid, group and session
            # are still the bot's, even if it has exited: kill everything, then reap it.
            kill_bot_processes(process.pid, self._token)
            with contextlib.suppress(OSError):
                process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=_REAP_TIMEOUT_S)
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        if pidfd is not None:
            os.close(pidfd)
        if log is not None:
            log.join(_LOG_JOIN_S)

    def _describe_exit(self, code: int) -> str:
        if code >= 0:
            return f"exited with code {code}"
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        if -code == signal.SIGXCPU and self.cpu_limit_s is not None:
            return f"was killed by {name} (over its CPU time limit of {self.cpu_limit_s:g}s)"
        return f"was killed by {name}"

    def _exit_note(self) -> str:
        process = self._process
        if process is None:
            return "exited"
        code = _wait_exit(process, 0.2, self._pidfd)
        return "closed its stdout" if code is None else self._describe_exit(code)

    def _crash_if_exited(self, data_pending: bool = False) -> None:
        """Raise a crash fault if the process has exited (unless it left output to read first)."""
        assert self._process is not None
        code = _exit_status(self._process)
        if code is not None and not data_pending:
            raise BotFault(f"crashed: the process {self._describe_exit(code)}")

    def _send(self, data: bytes, deadline: float) -> None:
        assert self._process is not None and self._process.stdin is not None
        fd = self._process.stdin.fileno()
        view = memoryview(data)
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_WRITE)
            if self._pidfd is not None:
                selector.register(self._pidfd, selectors.EVENT_READ)
            while view:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self._crash_if_exited()
                    raise BotFault(f"timed out: not reading its input within {self.decision_timeout_s:g}s")
                if fd not in {key.fd for key, _ in selector.select(min(remaining, _EXIT_POLL_S))}:
                    self._crash_if_exited()  # a child may hold the pipe open after the process died
                    continue
                try:
                    written = os.write(fd, view)
                except BlockingIOError:
                    continue
                except (BrokenPipeError, OSError):
                    raise BotFault(f"crashed: the process {self._exit_note()}") from None
                view = view[written:]

    def _readable_now(self) -> bool:
        assert self._process is not None and self._process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(self._process.stdout.fileno(), selectors.EVENT_READ)
            return bool(selector.select(0))

    def _read_available(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        chunk = os.read(self._process.stdout.fileno(), MAX_LINE_BYTES)
        if not chunk:
            raise BotFault(f"crashed: the process {self._exit_note()}")
        self._buffer += chunk

    def _read_line(self, deadline: float, allowed_s: float) -> bytes:
        assert self._process is not None and self._process.stdout is not None
        fd = self._process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            if self._pidfd is not None:
                selector.register(self._pidfd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_LINE_BYTES:
                    raise BotReplyError(f"reply line too long (over {MAX_LINE_BYTES} bytes)")
                remaining = deadline - time.monotonic()
                if remaining > 0 and fd in {key.fd for key, _ in selector.select(min(remaining, _EXIT_POLL_S))}:
                    self._read_available()
                    continue
                # Nothing to read: a dead process is a crash even if a child holds its stdout open
                # (a reply it wrote before dying is still read, if it is in time).
                self._crash_if_exited(data_pending=remaining > 0 and self._readable_now())
                if remaining <= 0:
                    raise BotFault(f"timed out: no reply within {allowed_s:g}s")
        line, _, self._buffer = self._buffer.partition(b"\n")
        if self._buffer:
            raise BotReplyError(f"more than one line in reply to one decision: {self._buffer[:80]!r}")
        return line
