"""Hostile external bots: children that outlive the bot, fork bombs, CPU hogs, deaths, stderr floods.

Each test starts a bot from ``tests/tournament/bots`` that attacks the server one way and checks
the exact outcome: the processes are gone, the fault says ``crashed`` or ``timed out`` as it
should, the limits are set, the log is cut. Children that a test bot leaves behind sleep for a
minute at most, and the ``pidfile`` fixture kills any that a failing test leaves.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import bots.external as external
from bots import make_bot, play_game
from bots.external import DEFAULT_STDERR_LOG_BYTES, BotFault, ExternalBot

PYTHON = sys.executable
TEST_BOTS = Path(__file__).resolve().parent / "tournament" / "bots"
GAME = "deadwood1876"
IS_ROOT = os.geteuid() == 0

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux /proc")


def _bot(name: str, *args: object, **settings: object) -> ExternalBot:
    settings.setdefault("decision_timeout_s", 0.5)
    settings.setdefault("startup_timeout_s", 2.0)
    return ExternalBot([PYTHON, str(TEST_BOTS / f"{name}.py"), *map(str, args)], **settings)  # type: ignore[arg-type]


def _game(bot: ExternalBot, seed: int = 5, players: int = 3):
    return play_game(GAME, players, [bot, *(make_bot("random", seat) for seat in range(1, players))], seed)


def _dead(pid: int) -> bool:
    """Whether a process is gone or a zombie (dead, waiting for its parent or init to reap it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat[stat.rindex(")") + 2] == "Z"


def _survivors(pids: list[int], within_s: float = 2.0) -> list[int]:
    """The pids still alive after waiting up to ``within_s`` for them to die."""
    deadline = time.monotonic() + within_s
    while (alive := [pid for pid in pids if not _dead(pid)]) and time.monotonic() < deadline:
        time.sleep(0.02)
    return alive


def _pids(path: Path, count: int, within_s: float = 2.0) -> list[int]:
    """The first ``count`` pids a bot wrote to ``path`` (waiting up to ``within_s`` for them)."""
    deadline = time.monotonic() + within_s
    while True:
        lines = path.read_text().split("\n")[:-1] if path.exists() else []
        if len(lines) >= count or time.monotonic() > deadline:
            assert len(lines) >= count, f"the bot wrote {lines} to {path}"
            return [int(line) for line in lines[:count]]
        time.sleep(0.01)


@pytest.fixture
def pidfile(tmp_path):
    """A file the bot writes its children's pids to; any still alive after the test are killed."""
    path = tmp_path / "pids"
    yield path
    if path.exists():
        for line in path.read_text().split():
            if not _dead(int(line)):
                os.kill(int(line), signal.SIGKILL)


# -- children are killed with the bot ------------------------------------------------------------


@pytest.mark.parametrize("mode", ["plain", "setsid", "daemon", "orphan"])
def test_close_kills_children_that_try_to_escape(mode, pidfile):
    bot = _bot("family_bot", mode, pidfile)
    assert bot.act({}, ["a", "b"], 0) == "a"
    [child] = _pids(pidfile, 1)
    assert not _dead(child)
    process = bot._process
    assert process is not None
    bot.close()
    assert _survivors([child]) == []
    assert process.returncode is not None  # the bot itself is reaped


@pytest.mark.parametrize("mode", ["plain", "setsid", "daemon"])
def test_a_fault_kills_the_children(mode, pidfile):
    bot = _bot("family_bot", mode, pidfile, "fault", max_restarts=0)
    with pytest.raises(BotFault, match="bad reply 'nonsense'"):
        bot.act({}, ["a", "b"], 0)
    assert bot._process is None
    assert _survivors(_pids(pidfile, 1)) == []


def test_children_of_a_bot_that_already_exited_are_killed(pidfile):
    """The group is killed even when its leader is dead (killpg used to run only for a live one)."""
    bot = _bot("dying_bot", "exit", pidfile, max_restarts=0)
    with pytest.raises(BotFault, match="crashed"):
        bot.act({}, ["a"], 0)
    assert _survivors(_pids(pidfile, 1)) == []


def test_other_processes_are_left_alone(pidfile):
    bystander = subprocess.Popen(["sleep", "30"], start_new_session=True)
    try:
        bot = _bot("family_bot", "setsid", pidfile)
        bot.act({}, ["a"], 0)
        bot.close()
        assert _survivors(_pids(pidfile, 1)) == []
        assert bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()


# -- a fork bomb ---------------------------------------------------------------------------------


def test_a_fork_bombs_children_are_all_killed(pidfile, tmp_path):
    report = tmp_path / "report.json"
    bot = _bot("forking_bot", 200, pidfile, report, process_allowance=40)
    assert bot.act({}, ["a"], 0) == "a"
    forked = json.loads(report.read_text())["forked"]
    children = _pids(pidfile, forked)
    assert forked > 0 and not _dead(children[-1])
    bot.close()
    assert _survivors(children) == []


NOBODY = 65534
SETPRIV = shutil.which("setpriv")
SYSTEM_PYTHON = "/usr/bin/python3"


@pytest.fixture
def shared_dir():
    """A directory that the user ``nobody`` can write to too (the bomb runs as nobody under root)."""
    path = Path(tempfile.mkdtemp(prefix="saloon-nproc-"))
    path.chmod(0o777)
    yield path
    shutil.rmtree(path)


def test_rlimit_nproc_stops_a_fork_bomb(shared_dir, monkeypatch):
    """The bomb sees fork() fail once the user's tasks reach the cap, and all it made is killed.

    RLIMIT_NPROC does not bind root, so under root the bomb runs as ``nobody`` (``setpriv``, with
    the system Python) and the cap counts nobody's tasks.
    """
    pidfile, report = shared_dir / "pids", shared_dir / "report.json"
    command = [PYTHON, str(TEST_BOTS / "forking_bot.py"), "200", str(pidfile), str(report)]
    if IS_ROOT:
        if SETPRIV is None or not os.access(SYSTEM_PYTHON, os.X_OK):
            pytest.skip("RLIMIT_NPROC does not apply to root, and setpriv or /usr/bin/python3 is missing")
        command = [SETPRIV, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", SYSTEM_PYTHON, *command[1:]]
        count_tasks = external._user_task_count
        monkeypatch.setattr(external, "_user_task_count", lambda: count_tasks(NOBODY))
    bot = ExternalBot(command, decision_timeout_s=2.0, process_allowance=40)
    try:
        assert bot.act({}, ["a"], 0) == "a"
        result = json.loads(report.read_text())
        assert result["failed"] > 0 and result["forked"] + result["failed"] == 200 and result["forked"] < 40
        children = _pids(pidfile, result["forked"])
    finally:
        bot.close()
    assert _survivors(children) == []


def test_the_limits_are_set_in_the_bot(tmp_path, monkeypatch):
    """RLIMIT_NPROC is the user's task count + the allowance; CPU, memory and core limits too."""
    monkeypatch.setattr(external, "_user_task_count", lambda: 1000)
    report = tmp_path / "limits.json"
    bot = _bot("limits_bot", report, process_allowance=50, cpu_limit_s=7.5, memory_limit_mb=512)
    bot.act({}, ["a"], 0)
    bot.close()
    limits = json.loads(report.read_text())
    assert limits["nproc"] == [1050, 1050]
    assert limits["cpu"] == [8, 9]
    assert limits["as"] == [512 << 20, 512 << 20]
    assert limits["core"] == [0, 0]
    assert len(limits["token"]) == 32


# -- crash or timeout ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "reason"),
    [("exit", "crashed: the process exited with code 3"), ("signal", "crashed: the process was killed by SIGKILL")],
)
def test_a_bot_that_dies_while_its_child_holds_stdout_crashed(mode, reason, pidfile):
    bot = _bot("dying_bot", mode, pidfile, decision_timeout_s=0.5, startup_timeout_s=1.5, max_restarts=0)
    started = time.monotonic()
    with pytest.raises(BotFault) as fault:
        bot.act({}, ["a"], 0)
    assert str(fault.value) == reason
    assert time.monotonic() - started < 1.5  # seen when it happens, not at the deadline (2 s)
    assert _survivors(_pids(pidfile, 1)) == []


def test_a_bot_that_sleeps_past_the_deadline_timed_out(pidfile):
    bot = _bot("dying_bot", "sleep", pidfile, decision_timeout_s=0.3, startup_timeout_s=0.3, max_restarts=0)
    with pytest.raises(BotFault) as fault:
        bot.act({}, ["a"], 0)
    assert str(fault.value) == "timed out: no reply within 0.6s"
    assert _survivors(_pids(pidfile, 1)) == []


def test_the_cpu_limit_kills_a_spinning_bot_and_it_is_a_crash():
    # A start-up deadline far beyond the CPU limit: on a loaded machine a second of CPU time can
    # take many seconds of wall time, and the kill must still be the CPU limit's.
    bot = _bot("spinning_bot", cpu_limit_s=1, decision_timeout_s=0.2, startup_timeout_s=60, max_restarts=0)
    with pytest.raises(BotFault) as fault:
        bot.act({}, ["a"], 0)
    assert str(fault.value) == "crashed: the process was killed by SIGXCPU (over its CPU time limit of 1s)"


# -- the stderr log ------------------------------------------------------------------------------

NOTE = f"\n[saloon] stderr log cut at {DEFAULT_STDERR_LOG_BYTES} bytes; the rest was discarded\n"


def test_a_stderr_flood_is_cut_at_the_cap_and_the_game_goes_on(tmp_path):
    log = tmp_path / "bot.stderr.log"
    started = time.monotonic()
    result = _game(_bot("noisy_bot", 50, stderr_path=log))
    assert result.outcome is not None and result.faults == (0, 0, 0)
    text = log.read_text()
    assert len(text) == DEFAULT_STDERR_LOG_BYTES + len(NOTE)
    assert text.startswith("noisy bot: start\nxxx") and text.endswith(NOTE) and text.count("[saloon]") == 1
    assert time.monotonic() - started < 3


def test_the_stderr_cap_is_per_log_file_across_processes(tmp_path):
    """Every process of a bot (restarts, other games, other workers) shares the one cap."""
    log = tmp_path / "bot.stderr.log"
    for _ in range(3):
        bot = _bot("noisy_bot", 1, stderr_path=log, stderr_limit_bytes=10_000)
        bot.act({}, ["a"], 0)
        bot.close()
    text = log.read_text()
    note = "\n[saloon] stderr log cut at 10000 bytes; the rest was discarded\n"
    assert text == "noisy bot: start\n" + ("x" * 1023 + "\n") * 9 + "x" * (10_000 - 17 - 9 * 1024) + note


def test_stderr_under_the_cap_is_kept_whole(tmp_path):
    log = tmp_path / "bot.stderr.log"
    bot = _bot("noisy_bot", 0, stderr_path=log)
    bot.act({}, ["a"], 0)
    bot.close()
    assert log.read_text() == "noisy bot: start\n"
