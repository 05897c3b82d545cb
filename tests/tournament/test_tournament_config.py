"""Tournament configuration files: validation with errors naming the key, and the examples."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, write_config

from saloon.cli import main
from tournament import ConfigError, load_config, make_schedule, parse_config

GOOD = """
game = "deadwood1876"
players = [3, 4]
games = 10
[bots]
a = "random"
b = "random"
"""


def test_a_good_config_gets_defaults():
    config = parse_config(GOOD)
    assert config.players == [3, 4] and config.games == 10 and config.seed == 0
    assert config.decision_timeout_s == 1.0 and config.max_faults == 10 and config.options == {}
    assert list(config.bots) == ["a", "b"]
    assert parse_config(GOOD.replace("[3, 4]", "4")).players == [4]


@pytest.mark.parametrize(
    ("change", "key", "message"),
    [
        (("games = 10", "gmes = 10"), "gmes", "unknown key"),
        (("games = 10", ""), "games", "missing"),
        (("games = 10", 'games = "ten"'), "games", "Expected `int`, got `str`"),
        (("games = 10", "games = 0"), "games", "at least 1"),
        (("players = [3, 4]", "players = [3, 12]"), "players", "2-9 players, not 12"),
        (("players = [3, 4]", 'players = ["x"]'), "players[0]", "Expected `int`"),
        (('game = "deadwood1876"', 'game = "poker"'), "game", "unknown game 'poker'"),
        (('a = "random"', 'a = "nosuchbot"'), "bots.a", "unknown bot 'nosuchbot'"),
        (('a = "random"', "a = 3"), "bots.a", "expected a bot name string"),
        (('a = "random"', 'a = "cmd:"'), "bots.a", "empty command"),
        (('a = "random"', 'a = "cmd:no-such-program-xyz --x"'), "bots.a", "not found"),
        (('a = "random"', 'a = "cmd:python3 no/such/file.py"'), "bots.a", None),
        (("games = 10", "games = 10\ndecision_timeout_s = 0"), "decision_timeout_s", "at least"),
        (("games = 10", "games = 10\nmemory_limit_mb = 1"), "memory_limit_mb", "at least 64"),
        (("games = 10", "games = 10\nmax_faults = -1"), "max_faults", "non-negative"),
        (("games = 10", "games = 10\nseed = -3"), "seed", "non-negative"),
        (("games = 10", "games = 10\n[options]\nbogus = 1"), "options", "bogus"),
        (("games = 10", "games = 10\n[options]\nmystery_safes = 9"), "options", "mystery_safes"),
        (("games = 10", "games = 10\nbase_dir = '/'"), "base_dir", "unknown key"),
    ],
)
def test_bad_configs_name_the_key(change, key, message):
    old, new = change
    with pytest.raises(ConfigError) as caught:
        parse_config(GOOD.replace(old, new), "t.toml")
    text = str(caught.value)
    assert text.startswith(f"t.toml: key {key!r}: "), text
    if message:
        assert message in text


def test_no_bots_and_bad_toml():
    with pytest.raises(ConfigError, match="key 'bots'"):
        parse_config(GOOD.split("[bots]")[0] + "[bots]\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        parse_config("game = [")


def test_cli_bad_config_is_exit_2_with_the_key(tmp_path, capsys):
    path = write_config(tmp_path / "bad.toml", {"a": "random"}, games=-1)
    assert main(["tournament", "run", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "key 'games'" in err and "bad.toml" in err
    assert main(["tournament", "run", str(tmp_path / "missing.toml")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["tournament", "run", str(path), "--workers", "0"]) == 2
    assert main(["tournament", "show", str(tmp_path / "nothing")]) == 2
    assert "holds no tournament results" in capsys.readouterr().err
    assert main(["tournament"]) == 2


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("*.toml")), ids=lambda p: p.name)
def test_examples_are_valid(path: Path):
    config = load_config(path)
    assert len(make_schedule(config)) >= config.games


def test_every_game_has_an_example():
    import engine

    examples = {load_config(path).game for path in (ROOT / "examples").glob("*.toml")}
    assert set(engine.games()) <= examples
