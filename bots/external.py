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
  node needs at least about 1024 MB of address space to start.

A crash (the process exits or closes stdout), a timeout, or a bad reply (not one
``{"action": INDEX}`` line with a valid index, a line over :data:`~bots.protocol.MAX_LINE_BYTES`,
or output written when no decision was asked) makes :meth:`ExternalBot.act` raise
:class:`BotFault`; :func:`bots.play_game` records a fault and plays ``legal_actions[0]``.

Restart policy: after any fault the process is killed (its output can no longer be trusted to be
in step), and the next decision starts a fresh process, which gets the ``start`` line again and the
start-up deadline again. After ``max_restarts`` restarts in one game the bot is disabled: every
further decision is an immediate fault without starting a process, so a broken bot costs at most
``(max_restarts + 1)`` deadlines per game. Standard error goes to ``stderr_path`` (appended) or is
discarded.
"""

from __future__ import annotations

import contextlib
import os
import resource
import selectors
import shlex
import signal
import subprocess
import time
from pathlib import Path
from typing import IO, Any

import engine
from bots.protocol import MAX_LINE_BYTES, BotReplyError, decide_message, end_message, parse_reply, start_message

__all__ = ["BotFault", "ExternalBot"]

DEFAULT_DECISION_TIMEOUT_S = 1.0
DEFAULT_STARTUP_TIMEOUT_S = 5.0
DEFAULT_MEMORY_LIMIT_MB = 2048
DEFAULT_MAX_RESTARTS = 2
_EXIT_GRACE_S = 0.5


class BotFault(RuntimeError):
    """An external bot crashed, timed out or answered nonsense (the message says which)."""


def _limit_memory(limit_bytes: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))


class ExternalBot:
    """A bot that is an external program speaking the JSON-lines bot protocol.

    The process starts lazily (in :meth:`start`, or at the first :meth:`act`) and lives for one
    game; :meth:`end` lets it exit, :meth:`close` kills it. See the module docstring for limits,
    faults and the restart policy.

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
        self._process: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
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
            BotFault: the process crashed, timed out, answered nonsense or is disabled.
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
        return legal_actions[index]

    def end(self, outcome: engine.Outcome) -> None:
        """The game is over: send the ``end`` line, close stdin and let the process exit."""
        process = self._process
        if process is not None and process.poll() is None:
            with contextlib.suppress(BotFault):
                self._send(end_message(outcome), time.monotonic() + self.decision_timeout_s)
        self.close()

    def close(self) -> None:
        """Stop the process (close its stdin, give it a moment to exit, then kill it)."""
        process = self._process
        if process is None:
            return
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        try:
            process.wait(timeout=_EXIT_GRACE_S)
        except subprocess.TimeoutExpired:
            pass
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
        if self.stderr_path is not None and self._stderr is None:
            self._stderr = open(self.stderr_path, "ab")  # noqa: SIM115 - kept open for the bot's life
        limit = self.memory_limit_mb
        try:
            self._process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr if self._stderr is not None else subprocess.DEVNULL,
                cwd=self.cwd,
                bufsize=0,
                start_new_session=True,
                preexec_fn=None if limit is None else (lambda: _limit_memory(limit * 1024 * 1024)),
            )
        except OSError as exc:
            self.disabled_reason = f"cannot start {self.argv[0]!r}: {exc}"
            raise BotFault(self.disabled_reason) from None
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
        self._buffer = b""
        if process is not None:
            if process.poll() is None:
                with contextlib.suppress(OSError):
                    os.killpg(process.pid, signal.SIGKILL)
                with contextlib.suppress(OSError):
                    process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def _exit_note(self) -> str:
        process = self._process
        if process is None:
            return "exited"
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=0.2)
        code = process.poll()
        if code is None:
            return "closed its stdout"
        if code < 0:
            with contextlib.suppress(ValueError):
                return f"was killed by {signal.Signals(-code).name}"
        return f"exited with code {code}"

    def _send(self, data: bytes, deadline: float) -> None:
        assert self._process is not None and self._process.stdin is not None
        fd = self._process.stdin.fileno()
        view = memoryview(data)
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_WRITE)
            while view:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not selector.select(remaining):
                    raise BotFault(f"timed out: not reading its input within {self.decision_timeout_s:g}s")
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
        with selectors.DefaultSelector() as selector:
            selector.register(self._process.stdout.fileno(), selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_LINE_BYTES:
                    raise BotReplyError(f"reply line too long (over {MAX_LINE_BYTES} bytes)")
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not selector.select(remaining):
                    raise BotFault(f"timed out: no reply within {allowed_s:g}s")
                self._read_available()
        line, _, self._buffer = self._buffer.partition(b"\n")
        if self._buffer:
            raise BotReplyError(f"more than one line in reply to one decision: {self._buffer[:80]!r}")
        return line
