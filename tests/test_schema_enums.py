"""Issue 23: ``saloon schema GAME`` lists every enumerated field's values and has plain-text
descriptions. ``saloon schema wyatt_earp`` gave ``Card.card`` and ``PlaySheriff.card`` as plain
strings, so a bot author had to guess ``stagecoach_robbery``, ``fastest_gun``, ...
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec
import pytest

import engine
from bots import RandomBot, play_game
from replays import ReplayCursor
from saloon.cli import game_schema, main
from saloon.schema import enumerations, plain_text

FULLY_LISTED = tuple(sorted(engine.games()))
"""The games whose every string field lists its values: all of them."""

PLAYED: dict[str, tuple[tuple[int, int, dict[str, Any] | None], ...]] = {
    "deadwood_town": ((4, 5, {"town_hall_build": "one", "die": "alternative"}),),
}
"""Games played with options, beyond the default ``(seed, players)`` games of every game, so that
the values only an option brings (Deadwood (town)'s ``ChooseTile``, its other die) are met."""

WHOLE = {
    "wyatt_earp": ("PosterView.name",),
    "deadwood1876": ("Card.gun", "Card.item"),
    "deadwood_studios": (
        "SetView.id",
        "SetView.name",
        "SetView.neighbors",
        "Scene.title",
        "Scene.description",
        "Role.name",
        "Role.line",
    ),
    "deadwood_town": ("PlotView.id", "StackView.stack"),
}
"""Fields whose every listed value the opening's omniscient view shows (the whole board, every
card): there the listed values must be exactly the values met, none missing and none extra."""


def _unlisted(schema: dict[str, Any]) -> list[str]:
    """The string fields of ``schema``'s ``$defs`` with neither ``enum`` nor ``const``."""
    found: list[str] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            if node.get("type") == "string" and "enum" not in node and "const" not in node:
                found.append(path)
            for key, value in node.items():
                walk(value, f"{path}.{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{path}[{index}]")

    walk(schema["$defs"], "")
    return found


def test_wyatt_earp_card_types_are_listed() -> None:
    schema = game_schema(engine.game("wyatt_earp"))
    defs = schema["$defs"]
    card_types = defs["Card"]["properties"]["card"]["enum"]
    assert {"outlaw", "photo", "stagecoach_robbery", "bank_robbery", "fastest_gun", "most_wanted"} <= set(card_types)
    assert {"hideout", "wyatt_earp"} <= set(card_types)
    assert defs["PlaySheriff"]["properties"]["card"]["enum"] == [
        "stagecoach_robbery",
        "bank_robbery",
        "fastest_gun",
        "hideout",
    ]
    assert defs["HandEnded"]["properties"]["reason"]["enum"] == [
        "last_card",
        "empty_hand",
        "supply_exhausted",
        "stalled",
    ]
    assert defs["View"]["properties"]["game"]["enum"] == ["wyatt_earp"]


@pytest.mark.parametrize("game_id", FULLY_LISTED)
def test_every_string_field_lists_its_values(game_id: str) -> None:
    assert _unlisted(game_schema(engine.game(game_id))) == []


@pytest.mark.parametrize("game_id", sorted(engine.games()))
def test_descriptions_are_plain_text(game_id: str) -> None:
    text = json.dumps(game_schema(engine.game(game_id)))
    assert "``" not in text
    assert not re.search(r":(class|meth|func|data|attr|mod|obj|exc):`", text)
    assert game_schema(engine.game(game_id))["$defs"]["View"]["properties"]["game"]["enum"] == [game_id]


@pytest.mark.parametrize("game_id", sorted(engine.games()))
def test_the_command_prints_plain_text(game_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", game_id]) == 0
    out = capsys.readouterr().out
    assert "``" not in out
    assert not re.search(r":[a-z]+(:[a-z]+)?:`", out)
    assert _unlisted(json.loads(out)) == []


def test_deadwood_studios_rooms_roles_and_currencies_are_listed() -> None:
    defs = game_schema(engine.game("deadwood_studios"))["$defs"]
    rooms = defs["Move"]["properties"]["to"]["enum"]
    assert rooms[0] == "train_station" and rooms[-2:] == ["trailers", "casting_office"] and len(rooms) == 12
    assert defs["SetView"]["properties"]["id"]["enum"] == rooms[:10]
    assert defs["Upgrade"]["properties"]["currency"]["enum"] == ["dollars", "credits"]
    assert defs["View"]["properties"]["phase"]["enum"] == ["setup", "move", "work", "over"]
    roles = defs["TakeRole"]["properties"]["role"]["enum"]
    assert {"Crusty Prospector", "Talking Mule"} <= set(roles)
    assert defs["PlayerView"]["properties"]["role"]["anyOf"][0]["enum"] == roles
    assert set(defs["Role"]["properties"]["name"]["enum"]) < set(roles)  # a card's roles, not the extras
    assert "Evil Wears a Hat" in defs["Scene"]["properties"]["title"]["enum"]


def test_deadwood_town_plots_buildings_and_reasons_are_listed() -> None:
    defs = game_schema(engine.game("deadwood_town"))["$defs"]
    plots = defs["HitTheTown"]["properties"]["plot"]["enum"]
    assert plots[:2] == ["A1", "A2"] and plots[-1] == "E7" and len(plots) == 25
    assert defs["HeadBack"]["properties"]["place"]["enum"] == [*plots, "mine"]
    town = defs["GameStarted"]["properties"]["town"]["items"]["prefixItems"]
    assert town[0]["enum"] == plots
    assert {"town_hall", "sheriffs_office", "church", "saloon_x"} <= set(town[1]["enum"])
    buildings = defs["PlotView"]["properties"]["building"]["enum"]
    assert buildings[0] == "" and {"general_store", "train_station", "saloon_x"} <= set(buildings)
    assert "train_station" not in defs["PutNext"]["properties"]["building"]["enum"]
    assert defs["LookAtStack"]["properties"]["stack"]["enum"] == ["1", "2", "3"]
    assert defs["MoveSheriff"]["properties"]["intersection"]["enum"][0].startswith("S_")
    assert defs["PlaceStation"]["properties"]["plot"]["enum"] == [f"E{k}" for k in range(1, 8)]
    assert set(defs["MoneyGained"]["properties"]["reason"]["enum"]) >= {"bank", "hotel", "undertaker", "stage_depot"}
    assert defs["MoneyPaid"]["properties"]["reason"]["enum"] == ["casino", "courthouse"]
    assert defs["ShotRolled"]["properties"]["effect"]["enum"] == ["kill", "wound", "miss"]
    assert "round_limit" in defs["GameEnding"]["properties"]["reasons"]["items"]["enum"]


def test_plain_text_drops_the_roles_and_the_literals() -> None:
    assert plain_text('see :class:`~engine.wyatt_earp.actions.ChooseTarget` and ``"shot"``') == (
        'see ChooseTarget and "shot"'
    )
    assert plain_text(":func:`bots.make_bot`") == "bots.make_bot"


def _strings(value: Any, struct: str, fields: dict[str, set[str]], seen: dict[str, set[str]]) -> None:
    """Check every string of an enumerated field in ``value`` (a msgspec Struct, tuple, ...)."""
    if isinstance(value, msgspec.Struct):
        name = type(value).__name__
        for field in value.__struct_fields__:
            inner = getattr(value, field)
            key = f"{name}.{field}"
            if key in fields:
                for text in _flat_strings(inner):
                    assert text in fields[key], f"{key}: {text!r} is not listed"
                    seen.setdefault(key, set()).add(text)
            index = 0
            while (member := f"{key}[{index}]") in fields:  # member ``index`` of its tuples
                for row in _rows(inner):
                    assert row[index] in fields[member], f"{member}: {row[index]!r} is not listed"
                    seen.setdefault(member, set()).add(row[index])
                index += 1
            _strings(inner, name, fields, seen)
    elif isinstance(value, tuple | list):
        for item in value:
            _strings(item, struct, fields, seen)


def _rows(value: Any) -> list[tuple[str, ...]]:
    """The tuples of strings in ``value`` (a tuple of them, at any depth)."""
    if isinstance(value, tuple) and value and all(isinstance(item, str) for item in value):
        return [value]
    if isinstance(value, tuple | list):
        return [row for item in value for row in _rows(item)]
    return []


def _flat_strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple | list):
        return [text for item in value for text in _flat_strings(item)]
    return []


def _look(state: Any, fields: dict[str, set[str]], seen: dict[str, set[str]]) -> None:
    """Check every seat's, the spectator's and the omniscient view of ``state``, and the legal actions."""
    for seat in [*range(len(state.view(None).players)), None, engine.OMNISCIENT]:
        _strings(state.view(seat), "View", fields, seen)
    for seat in state.to_act:
        _strings(state.legal_actions(seat), "", fields, seen)


@pytest.mark.parametrize("game_id", FULLY_LISTED)
def test_the_values_met_in_play_are_the_listed_ones(game_id: str) -> None:
    game = engine.game(game_id)
    fields = {key: set(values) for key, values in enumerations(game).items()}
    seen: dict[str, set[str]] = {}
    for seed, players, options in ((1, 2, None), (2, 3, None), (3, 4, None), *PLAYED.get(game_id, ())):
        bots = [RandomBot(seed + s) for s in range(players)]
        cursor = ReplayCursor(play_game(game_id, players, bots, seed=seed, options=options).replay)
        for k in range(0, len(cursor) + 1, 3):
            _look(cursor.goto(k), fields, seen)
        _strings(cursor.goto(len(cursor)).events(engine.OMNISCIENT), "", fields, seen)
    assert "View.phase" in seen and len(seen) > len(fields) // 2  # the check did look at values


@pytest.mark.parametrize("game_id", FULLY_LISTED)
def test_the_whole_tables_are_listed_exactly(game_id: str) -> None:
    game = engine.game(game_id)
    fields = {key: set(values) for key, values in enumerations(game).items()}
    for seed, players in ((1, 2), (2, game.max_players)):
        seen: dict[str, set[str]] = {}
        state = game.new_game(players, seed)
        _look(state, fields, seen)
        _strings(state.events(engine.OMNISCIENT), "", fields, seen)
        for key in WHOLE[game_id]:
            assert seen[key] == fields[key], key


def test_the_command_prints_the_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "wyatt_earp"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert "fastest_gun" in schema["$defs"]["PlaySheriff"]["properties"]["card"]["enum"]
