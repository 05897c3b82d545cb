"""What ``saloon schema GAME`` adds to the msgspec JSON Schema: enumerated values and plain text.

Many fields of the engines' views, actions and events are plain ``str`` in their msgspec types
(a card type, a phase, a reason) although they take a known set of values: a bot author should
not have to guess ``stagecoach_robbery`` or ``fastest_gun``. :func:`enumerations` lists, per game,
such fields and their values, read from the engine's own tables (components, phase tables), never
copied by hand where the engine has them; :func:`add_enumerations` writes them into a schema as
JSON Schema ``enum`` keywords. :func:`plain_text` turns the docstrings msgspec uses as
``description`` into plain text (no reStructuredText ``````code`````` or ``:class:`...``` roles).

Fields are named ``Struct.field`` (the schema's ``$defs`` names); a ``str | None`` field gets the
``enum`` on its string branch, a ``list[str]`` field on its items, a tuple on its string members.
A tuple whose members differ (``tuple[tuple[str, str], ...]``: a plot and a building) names each
member by its position: ``Struct.field[0]``, ``Struct.field[1]``. Listed today: every enumerated
field of the four games (Wyatt Earp, Deadwood 1876, Deadwood Studios, Deadwood (town)).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

import engine

__all__ = ["add_enumerations", "enumerations", "plain_text"]

_ROLE = re.compile(r":(?:class|meth|func|data|attr|mod|obj|exc|const|py:\w+):`(~?)([^`]+)`")
_LITERAL = re.compile(r"``(.+?)``")


def plain_text(text: str) -> str:
    """``text`` without reStructuredText markup: ``:class:`~a.b.C``` becomes ``C`` (``a.b.C``
    without the ``~``), ````code```` becomes ``code``."""

    def role(match: re.Match[str]) -> str:
        target = match.group(2)
        return target.rsplit(".", 1)[-1] if match.group(1) else target

    return _LITERAL.sub(r"\1", _ROLE.sub(role, text))


def _wyatt_earp() -> dict[str, tuple[str, ...]]:
    from engine.wyatt_earp import components as wc
    from engine.wyatt_earp import rules

    comp = wc.components()
    types = tuple(dict.fromkeys(comp.card_type))
    return {
        "View.phase": ("setup", *rules.LEGAL, "over"),
        "Card.card": types,
        "Card.name": tuple(dict.fromkeys(comp.card_names)),
        "PosterView.name": tuple(comp.outlaw_names),
        "PlaySheriff.card": tuple(wc.SHOT_CARDS),
        "WyattEarpSearch.card": tuple(t for t in types if t != wc.WYATT_EARP),
        "WyattEarpTake.card": tuple(t for t in types if t != wc.WYATT_EARP),
        "Discard.card": types,
        "CardsDrawn.source": ("draw", "wyatt_earp"),
        "SheriffPlayed.use": ("shot", "steal", "remove_hideout", "ask", "draw", "search"),
        "HandEnded.reason": ("last_card", "empty_hand", "supply_exhausted", "stalled"),
    }


def _deadwood1876() -> dict[str, tuple[str, ...]]:
    from engine.deadwood1876 import components as dc
    from engine.deadwood1876 import rules

    comp = dc.components()
    safes = tuple(dict.fromkeys(comp.safe_label(s) for s in range(len(comp.safe_ids))))
    badges = tuple(comp.safe_label(s) for s in range(len(comp.safe_ids)) if comp.safe_kind[s] == dc.BADGE)
    safe_fields = (
        "View.heist_safe SafeView.contents SafesDealt.safes SafePassed.safe SafeStolen.safe SafeViewed.safe "
        "HeistStarted.safe HeistWon.safe SafeGiven.safe SafeGivenToStranger.safe MysteryRevealed.safe "
        "SafeExploded.safe"
    )
    kinds = ("robbery", "duel")
    uses = "horse duster stetson robbery duel defend holster attached_holster heist showdown poker_deck".split()
    return {
        "View.phase": ("setup", *rules.LEGAL, "heist_done", "over"),
        **dict.fromkeys(safe_fields.split(), safes),
        "View.badge": badges,
        "TurnStarted.badge": badges,
        "BadgeRevealed.badge": badges,
        "PlayerView.character": tuple(comp.character_names),
        "PlayerView.title": tuple(comp.character_titles),
        "Card.gun": tuple(comp.gun_names),
        "Card.item": tuple(dict.fromkeys(comp.card_item)),
        "EstablishmentView.name": tuple(comp.establishment_names),
        "FightView.kind": kinds,
        "FightWon.kind": kinds,
        "DiceRolled.purpose": ("first_player", "stranger", *kinds, "heist", "showdown", "poker_deck"),
        "CardPlayed.use": tuple(uses),
        "StarMoved.reason": ("horse", "duel", "sent_away"),
        "TeamVictory.rule": ("peace_lovin", "fair_share"),
        "SafesRevealed.rows": safes,
        "DiceRolled.rolls": (*comp.gun_names, "black", "red", "-Pepperbox"),  # each die's label
    }


def _deadwood_studios() -> dict[str, tuple[str, ...]]:
    from engine.deadwood_studios import components as sc
    from engine.deadwood_studios import rules

    comp = sc.components()
    rooms = comp.room_ids
    sets = rooms[: sc.NUM_SETS]
    next_door = {r for s in range(sc.NUM_SETS) for r in comp.neighbors[s]}
    starring = [role for scene in comp.scenes for role in scene.roles]
    roles = [*(role for extras in comp.extras for role in extras), *starring]
    names = tuple(dict.fromkeys(role.name for role in roles))
    lines = tuple(dict.fromkeys(role.line for role in roles))
    currencies = (sc.DOLLARS, sc.CREDITS)
    set_fields = "SceneRevealed RoleTaken Rehearsed Acted ShotRemoved SceneWrapped DayEnded"
    return {
        "View.phase": ("setup", *rules.LEGAL, "over"),
        "PlayerView.room": rooms,
        "PlayerView.role": names,
        "SetView.id": sets,
        "SetView.name": comp.room_names[: sc.NUM_SETS],
        "SetView.neighbors": tuple(room for r, room in enumerate(rooms) if r in next_door),
        "Scene.title": tuple(dict.fromkeys(scene.title for scene in comp.scenes)),
        "Scene.description": tuple(dict.fromkeys(scene.description for scene in comp.scenes)),
        "Role.name": tuple(dict.fromkeys(role.name for role in starring)),  # Role: a scene card's roles
        "Role.line": tuple(dict.fromkeys(role.line for role in starring)),
        "RoleView.name": names,
        "RoleView.line": lines,
        "Move.to": rooms,
        "TakeRole.role": names,
        "Upgrade.currency": currencies,
        "Moved.origin": rooms,
        "Moved.to": rooms,
        **{f"{event}.set": sets for event in set_fields.split()},
        **{f"{event}.role": names for event in ("RoleTaken", "Rehearsed", "Acted", "BonusShare")},
        "Upgraded.currency": currencies,
        "DayCalled.sets": sets,
    }


def _deadwood_town() -> dict[str, tuple[str, ...]]:
    from engine.deadwood_town import components as tc
    from engine.deadwood_town import rules
    from engine.deadwood_town.rules.turn import PLACES

    comp = tc.components()
    plots = comp.plot_ids
    kinds = tuple(dict.fromkeys(comp.tile_kind))
    # the buildings that go into and out of the stacks (the X Saloon goes under stack 1 when destroyed)
    stacked = tuple(dict.fromkeys(k for k, stack in zip(comp.tile_kind, comp.tile_stack, strict=True) if stack))
    annexable = tuple(k for k in kinds if comp.annex.get(k))  # where cowboys go (not the Train Station)
    fights = tuple(k for k in annexable if k not in comp.no_shootout)
    starting = dict.fromkeys(
        (
            *(k for _plot, k in comp.fixed),
            comp.tile_kind[comp.saloon_x],
            *(comp.tile_kind[t] for t in comp.stack_tiles["1"]),
        )
    )
    faces = tuple(dict.fromkeys((*comp.die_faces, *comp.alt_die_faces)))
    protectable = {p for trio in comp.intersection_plots for p in trio}
    stacks = tc.STACKS

    def by_op(table: dict[str, tuple[tc.Op, ...]], *ops: str) -> tuple[str, ...]:
        """The buildings with one of ``ops`` in ``table`` (their annex or control ops)."""
        return tuple(k for k in kinds if any(op.op in ops for op in table.get(k, ())))

    paying = ("on_rail_placed_gain", "on_station_placed_gain", "on_cowboy_killed_gain", "end_bonus_if_no_station")
    plot_fields = (
        "ShootoutView.plot HitTheTown.plot PickCowboy.plot MoveTo.plot SendToMine.plot BuildOn.plot "
        "CowboyPlaced.plot TollPaid.plot BuildingAnnexed.plot AnnexDeclined.plot ShootoutStarted.plot "
        "Skedaddled.plot ShootoutEnded.plot CowboyKilled.plot TileBuilt.plot BuildingDestroyed.plot "
        "PlotView.id CowboyMoved.source GameStarted.town[0]"
    )
    stack_fields = (
        "StackView.stack LookAtStack.stack ChooseTile.stack DrawFrom.stack StackSeen.stack StackArranged.stack "
        "TileDrawn.stack TileToBottom.stack"
    )
    stacked_fields = (
        "StackView.contents StackView.order PendingView.tiles PendingView.arranged PutNext.building "
        "ChooseTile.building StackSeen.order StackArranged.order TileDrawn.building TileBuilt.building "
        "TileToBottom.building BuildingDestroyed.building"
    )
    place_fields = "HeadBack.place ReturnCowboy.place CowboyHeadedBack.place CowboyReturned.place CowboyMoved.to"
    return {
        "View.phase": ("setup", *rules.LEGAL, "resolving", "over"),
        "View.sheriff": comp.intersection_ids,
        "View.protected": tuple(pid for p, pid in enumerate(plots) if p in protectable),
        "View.station": ("", *(plots[p] for p in comp.red_row)),
        "View.tile": ("", *stacked),
        "PlotView.building": ("", *kinds),
        "PendingView.plot": ("", *plots),
        "PendingView.tile": ("", *stacked),
        "PendingView.source": ("", *plots),
        "PendingView.stack": ("", *stacks),
        **dict.fromkeys(plot_fields.split(), plots),
        **dict.fromkeys(stack_fields.split(), stacks),
        **dict.fromkeys(stacked_fields.split(), stacked),
        **dict.fromkeys(place_fields.split(), PLACES),
        "MoveSheriff.intersection": comp.intersection_ids,
        "SheriffMoved.intersection": comp.intersection_ids,
        "SheriffMoved.plots": tuple(pid for p, pid in enumerate(plots) if p in protectable),
        "PlaceStation.plot": tuple(plots[p] for p in comp.red_row),
        "StationBuilt.plot": tuple(plots[p] for p in comp.red_row),
        "RailPlaced.plot": tuple(plots[p] for p in comp.rail_route),
        "GameStarted.town[1]": tuple(starting),
        "CowboyPlaced.building": annexable,
        "BuildingAnnexed.building": annexable,
        "AnnexDeclined.building": tuple(k for k in annexable if k not in comp.always_annex),
        "ShootoutStarted.building": fights,
        "StartRoll.face": faces,
        "ShotRolled.face": faces,
        "GoldMineRolled.face": faces,
        "ShotRolled.effect": tuple(dict.fromkeys(comp.face_result[face] for face in faces)),
        "CartridgeDeclared.role": ("attacker", "defender"),
        "ShootoutEnded.result": ("attacker_won", "defender_won", "both_killed", "both_survived", "skedaddled"),
        "MoneyGained.reason": tuple(dict.fromkeys((*by_op(comp.annex, "gain_money"), *by_op(comp.control, *paying)))),
        "MoneyPaid.reason": by_op(comp.annex, "steal_money", "fine_all_players_per_wanted"),
        "SuppliesGained.item": ("cartridge", "pony"),
        "PostersTaken.reason": (*by_op(comp.annex, "take_wanted_from_pool"), "shootout"),
        "PostersReturned.reason": by_op(comp.annex, "return_own_wanted_to_box"),
        "CowboyMoved.reason": by_op(comp.annex, "move_other_cowboy", "send_opponent_cowboys_to_mine"),
        "TileDrawn.reason": by_op(comp.annex, "build_from_each_stack", "draw_and_build"),
        "TileToBottom.reason": ("destroyed", "no_plot", "not_chosen"),
        # rules/end_of_game.py triggers, then rules/turn.py's "stalled" and "round_limit"
        "GameEnding.reasons": ("train_station", "crime_pool_empty", "no_living_cowboys", "stalled", "round_limit"),
    }


_GAMES: dict[str, Callable[[], dict[str, tuple[str, ...]]]] = {
    "wyatt_earp": _wyatt_earp,
    "deadwood1876": _deadwood1876,
    "deadwood_studios": _deadwood_studios,
    "deadwood_town": _deadwood_town,
}
"""The games whose enumerated fields are listed beyond ``View.game``, by game id."""


def enumerations(game: engine.Game) -> dict[str, tuple[str, ...]]:
    """``game``'s enumerated string fields: ``"Struct.field"`` -> its values, in the engine's order.

    Every game's ``View.game`` is its id; the games of :data:`_GAMES` list their other fields.
    A field named here that the game's types do not have (an engine that changed) is skipped by
    :func:`add_enumerations`.
    """
    found: dict[str, tuple[str, ...]] = {"View.game": (game.id,)}
    make = _GAMES.get(game.id)
    if make is not None:
        found.update(make())
    return found


def _string_nodes(node: Any) -> Iterable[dict[str, Any]]:
    """The ``{"type": "string"}`` schemas in a property's schema: itself, its ``anyOf`` branches,
    its ``items`` (a list of strings) and ``prefixItems`` (a tuple), at any depth."""
    if not isinstance(node, dict):
        return
    if node.get("type") == "string":
        yield node
    for branch in node.get("anyOf", ()):
        yield from _string_nodes(branch)
    if isinstance(node.get("items"), dict):
        yield from _string_nodes(node["items"])
    for item in node.get("prefixItems", ()):
        yield from _string_nodes(item)


def _member_nodes(node: Any, index: int) -> Iterable[dict[str, Any]]:
    """The string schemas of member ``index`` of the tuples (``prefixItems``) in a property's
    schema, through its ``anyOf`` branches and ``items`` at any depth."""
    if not isinstance(node, dict):
        return
    members = node.get("prefixItems", ())
    if index < len(members):
        yield from _string_nodes(members[index])
    for branch in node.get("anyOf", ()):
        yield from _member_nodes(branch, index)
    if isinstance(node.get("items"), dict):
        yield from _member_nodes(node["items"], index)


def add_enumerations(schema: dict[str, Any], values: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    """Write ``values`` (``"Struct.field"`` -> values; ``"Struct.field[i]"``: member ``i`` of its
    tuples) into ``schema``'s ``$defs`` as ``enum`` keywords, and make every ``description`` plain
    text (:func:`plain_text`); returns ``schema``."""
    defs: dict[str, Any] = schema.get("$defs", {})
    for name, definition in defs.items():
        if isinstance(definition.get("description"), str):
            definition["description"] = plain_text(definition["description"])
        for field, prop in definition.get("properties", {}).items():
            if isinstance(prop, dict) and isinstance(prop.get("description"), str):
                prop["description"] = plain_text(prop["description"])
            listed = values.get(f"{name}.{field}")
            if listed is not None:
                for node in _string_nodes(prop):
                    node["enum"] = list(listed)
            index = 0
            while (listed := values.get(f"{name}.{field}[{index}]")) is not None:
                for node in _member_nodes(prop, index):
                    node["enum"] = list(listed)
                index += 1
    return schema
