"""Issue 15, the first hour of a bot author: ``saloon schema``, the starter bots (their example
rule and ``--ssh``), and external bots' stderr logs and fault reasons in ``saloon simulate``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import msgspec
import pytest

import engine
from engine.deadwood1876.actions import ACTION_TYPES
from engine.deadwood1876.events import Event
from saloon.cli import main, user_data_dir

ROOT = Path(__file__).resolve().parent.parent
GAME = "deadwood1876"
STARTER_PY = ROOT / "examples" / "bots" / "starter_bot.py"
STARTER_JS = ROOT / "examples" / "bots" / "starter_bot.js"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")
STARTERS = [
    pytest.param([sys.executable, str(STARTER_PY)], id="python"),
    pytest.param([str(NODE), str(STARTER_JS)], id="node", marks=needs_node),
]
ACTION_TAGS = {cls.__struct_config__.tag: cls.__name__ for cls in ACTION_TYPES}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- saloon schema ---------------------------------------------------------------------------


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [ref for value in node.values() for ref in _refs(value)]
    if isinstance(node, list):
        return [ref for value in node for ref in _refs(value)]
    return []


def test_schema_prints_the_view_every_action_and_event(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "schema", GAME)
    assert (code, err) == (0, "")
    schema = json.loads(out)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["game"] == GAME
    assert schema["rules_version"] == engine.game(GAME).rules_version
    assert schema["view"] == {"$ref": "#/$defs/View"}
    assert schema["options"] == {"$ref": "#/$defs/Options"}
    defs = schema["$defs"]
    view_fields = set(defs["View"]["properties"])
    # every action kind: in the tagged union (tag -> its definition) and defined with its fields
    assert schema["action"]["discriminator"]["propertyName"] == "type"
    assert schema["action"]["discriminator"]["mapping"] == {tag: f"#/$defs/{name}" for tag, name in ACTION_TAGS.items()}
    for cls in ACTION_TYPES:
        assert defs[cls.__name__]["properties"]["type"] == {"enum": [cls.__struct_config__.tag]}
        assert set(defs[cls.__name__]["properties"]) == {"type", *cls.__struct_fields__}
    event_names = {ref.removeprefix("#/$defs/") for ref in schema["event"]["discriminator"]["mapping"].values()}
    assert event_names == {cls.__name__ for cls in typing.get_args(Event)}
    assert all(ref.removeprefix("#/$defs/") in defs for ref in _refs(schema)), "a $ref points nowhere"
    # a real view (as a bot receives it) has exactly the View's properties
    state = engine.game(GAME).new_game(3, seed=1)
    view = json.loads(msgspec.json.encode(state.view(0)))
    assert set(view) == view_fields


def test_schema_of_an_unknown_game_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "schema", "no_such_game")
    assert code == 2
    assert out == ""
    known = ", ".join(sorted(engine.games()))  # deadwood1876, deadwood_studios, ..., wyatt_earp
    assert err == f"saloon: error: unknown game 'no_such_game'; known games: {known}\n"


def test_the_bot_protocol_doc_points_at_the_schema_and_documents_ssh() -> None:
    doc = (ROOT / "docs" / "bot-protocol.md").read_text()
    assert "saloon schema deadwood1876" in doc
    assert "`saloon games` and the game's module docstrings describe them" not in doc
    assert "\n## Playing over SSH\n" in doc
    section = doc.split("\n## Playing over SSH\n", 1)[1].split("\n## ", 1)[0]
    for needle in (
        "python3 examples/bots/starter_bot.py --ssh NAME@HOST:PORT",
        "node examples/bots/starter_bot.js --ssh",
        "`--table CODE`",
        "`--seat N`",
        "a few seconds (the server's bot\ngrace, 5 s by default)",
    ):
        assert needle in section, needle


# -- the starter bots: the example rule ---------------------------------------------------------


def _talk(command: list[str], lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    text = "".join(json.dumps(line) + "\n" for line in lines)
    done = subprocess.run(command, input=text, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize("command", STARTERS)
def test_starter_bots_example_rule_uses_a_real_action_type(command: list[str]) -> None:
    """The example rule prefers ``robbery``, an action type the game has, whatever the hash says."""
    assert ACTION_TAGS["robbery"] == "Robbery"
    legal = [
        {"type": "discard", "card": 1},
        {"type": "robbery", "card": 2, "owner": 1, "index": 0},
        {"type": "duel", "card": 3, "target": 1},
        {"type": "no_holster"},
    ]
    decides = [
        {"type": "decide", "seat": 0, "view": {"turn": turn}, "legal": legal, "deadline_ms": 1000} for turn in range(8)
    ]
    start = {"type": "start", "game": GAME, "seat": 0, "players": 3, "options": {}, "protocol": 1}
    replies = _talk(command, [start, *decides])
    assert replies == [{"action": 1}] * 8
    # without a robbery the choice still spreads over all legal actions
    others = [dict(d, legal=[legal[0], legal[2], legal[3]]) for d in decides]
    assert {r["action"] for r in _talk(command, [start, *others])} == {0, 1, 2}


# -- the starter bots: --ssh ------------------------------------------------------------------------

FAKE_SSH = """#!{python}
# A fake ssh: records its arguments, plays one short game over stdin/stdout, exits with {code}.
import json, sys
with open({record!r}, "w") as f:
    json.dump(sys.argv[1:], f)
legal = [{{"type": "discard", "card": 1}}, {{"type": "robbery", "card": 2, "owner": 1, "index": 0}}]
print(json.dumps({{"type": "start", "game": "deadwood1876", "seat": 2, "players": 3, "options": {{}}}}), flush=True)
print(json.dumps({{"type": "decide", "seat": 2, "view": {{}}, "legal": legal, "deadline_ms": 5000}}), flush=True)
reply = sys.stdin.readline()
with open({record!r} + ".reply", "w") as f:
    f.write(reply)
print(json.dumps({{"type": "end", "outcome": {{"scores": [0, 0, 1], "ranks": [2, 2, 1], "winners": [2]}}}}), flush=True)
print("Saloon: game over", file=sys.stderr)
sys.exit({code})
"""


def _fake_ssh(tmp_path: Path, code: int = 0) -> tuple[dict[str, str], Path]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "argv.json"
    ssh = bin_dir / "ssh"
    ssh.write_text(FAKE_SSH.format(python=sys.executable, record=str(record), code=code))
    ssh.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    return env, record


@pytest.mark.parametrize("command", STARTERS)
def test_starter_bots_run_ssh_themselves(command: list[str], tmp_path: Path) -> None:
    env, record = _fake_ssh(tmp_path)
    argv = ["--ssh", "alice@saloon.example.org:2022", "--table", "K7QX", "--seat", "2"]
    done = subprocess.run([*command, *argv], env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""  # the protocol goes over ssh's pipes, not the bot's own stdout
    assert json.loads(record.read_text()) == [
        "-T",
        "-p",
        "2022",
        "alice@saloon.example.org",
        "bot",
        "--table",
        "K7QX",
        "--seat",
        "2",
    ]
    assert json.loads(Path(f"{record}.reply").read_text()) == {"action": 1}
    assert "starter bot: playing deadwood1876 at seat 2" in done.stderr
    assert "Saloon: game over" in done.stderr  # ssh's stderr reaches the terminal


@pytest.mark.parametrize("command", STARTERS)
def test_starter_bots_ssh_options_default_port_and_exit_code(command: list[str], tmp_path: Path) -> None:
    env, record = _fake_ssh(tmp_path, code=3)
    argv = ["--ssh", "bob@10.0.0.5", "--game", GAME, "--identity", "/keys/bob", "--ssh-option", "BatchMode=yes"]
    done = subprocess.run([*command, *argv], env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 3, done.stderr  # ssh's (the server's) exit code
    assert json.loads(record.read_text()) == [
        "-T",
        "-p",
        "2222",
        "-i",
        "/keys/bob",
        "-o",
        "BatchMode=yes",
        "bob@10.0.0.5",
        "bot",
        "--game",
        GAME,
    ]


@pytest.mark.parametrize("command", STARTERS)
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--ssh", "no-name-here:22"], "NAME@HOST:PORT"),
        (["--ssh", "a@host:99999"], "port from 1 to 65535"),
        (["--ssh", "a@host:22", "--seat", "1"], "--seat needs --table"),
        (["--table", "K7QX"], "need --ssh"),
    ],
)
def test_starter_bots_refuse_bad_arguments(command: list[str], argv: list[str], message: str, tmp_path: Path) -> None:
    env, record = _fake_ssh(tmp_path)
    done = subprocess.run([*command, *argv], env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert message in done.stderr
    assert not record.exists()  # ssh never ran


SSH = shutil.which("ssh")


@pytest.mark.skipif(SSH is None, reason="the OpenSSH client (ssh) is not installed")
async def test_python_starter_bot_plays_a_seat_on_a_real_server(tmp_path: Path) -> None:
    from lobby.tables import Identity, SeatSpec
    from tests.ssh.conftest import make_server
    from tests.ssh.termclient import make_key

    key = tmp_path / "id_olivia"
    make_key("olivia").write_private_key(str(key))
    key.chmod(0o600)
    server = make_server(tmp_path / "data")
    await server.start()
    try:
        table = server.lobby.create_table(Identity("x", "x"), GAME, 2, [SeatSpec("open"), SeatSpec("bot")])
        options = ["IdentitiesOnly=yes", "StrictHostKeyChecking=no", "UserKnownHostsFile=/dev/null", "BatchMode=yes"]
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(STARTER_PY),
            "--ssh",
            f"olivia@127.0.0.1:{server.port}",
            "--table",
            table.code,
            "--seat",
            "0",
            "--identity",
            str(key),
            *[arg for option in [*options, "LogLevel=ERROR"] for arg in ("--ssh-option", option)],
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            out, err = await asyncio.wait_for(proc.communicate(), 60)
        finally:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
        assert proc.returncode == 0, err.decode()
        assert out == b""
        assert b"starter bot: playing deadwood1876 at seat 0" in err
        assert table.is_over and table.names()[0] == "olivia (remote bot)"
        assert not any("seat 0" in fault for fault in table.faults), table.faults
    finally:
        await server.stop()


# -- simulate: external bots' stderr and fault reasons --------------------------------------------

NONSENSE_BOT = """import sys
print("nonsense bot here", file=sys.stderr, flush=True)
for line in sys.stdin:
    if '"decide"' in line:
        sys.stdout.write("nonsense\\n")
        sys.stdout.flush()
"""


def _nonsense_bot(tmp_path: Path) -> str:
    path = tmp_path / "nonsense_bot.py"
    path.write_text(NONSENSE_BOT)
    return f"cmd:{sys.executable} {path}"


def test_user_data_dir_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert user_data_dir() == tmp_path / "xdg" / "saloon"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/dir")  # ignored, as the XDG specification says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_data_dir() == tmp_path / "home" / ".local" / "share" / "saloon"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert user_data_dir() == tmp_path / "home" / ".local" / "share" / "saloon"


def test_simulate_keeps_stderr_and_prints_fault_reasons(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    bot = _nonsense_bot(tmp_path)
    code, out, err = run(capsys, "simulate", GAME, "--players", "2", "--bots", f"random,{bot}", "--games", "1")
    assert code == 0, err
    logs = sorted((tmp_path / "xdg" / "saloon" / "logs").iterdir())
    assert len(logs) == 1
    assert re.fullmatch(r"simulate-deadwood1876-\d{8}-\d{6}-\d+-seat1\.stderr\.log", logs[0].name)
    # a faulted process is restarted twice, then the bot is disabled: three processes wrote the log
    assert logs[0].read_text() == "nonsense bot here\n" * 3
    assert f"stderr of {bot}: {logs[0]}\n" in out
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith(f"faults of {bot}: "))
    count = int(re.fullmatch(rf"faults of {re.escape(bot)}: (\d+), the first 3:", lines[head]).group(1))
    assert count > 3
    reasons = lines[head + 1 : head + 4]
    for reason in reasons:
        assert re.fullmatch(r"  seed 0: move \d+: seat 1: the bot raised BotFault: bad reply 'nonsense': .+", reason)
    assert not lines[head + 4].startswith("  ")
    assert "faults of random" not in out


def test_simulate_log_dir_option_and_no_logs_without_external_bots(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    code, out, err = run(capsys, "simulate", GAME, "--players", "2", "--bots", "random", "--games", "1")
    assert code == 0, err
    assert "stderr of" not in out and "faults of" not in out
    assert not (tmp_path / "xdg").exists()
    bot = _nonsense_bot(tmp_path)
    argv = ["simulate", GAME, "--players", "2", "--bots", f"{bot},random", "--games", "1"]
    code, out, err = run(capsys, *argv, "--log-dir", str(tmp_path / "logs"))
    assert code == 0, err
    [log] = (tmp_path / "logs").iterdir()
    assert log.name.endswith("-seat0.stderr.log")
    assert f"stderr of {bot}: {log}\n" in out
    assert not (tmp_path / "xdg").exists()
