"""The rules-coverage pages ``docs/rules/GAME.md``, generated from a catalogue and the tests.

Each game's catalogue is data, ``engine/GAME/rulebook.toml``: one ``[[rule]]`` per rule of its
rulebook, in the rulebook's order, with

* ``id``: ``"section.name"`` (lower case, digits and ``-``, parts joined by ``.``), unique;
* ``section``: the rulebook's heading; ``quote``: a short quote (or the section's gist);
* ``code``: the ``"module:function"`` entries that implement it (``function`` may be dotted,
  ``Class.method``); each resolves by import and ``getattr``;
* ``kind``: ``"rule"``, ``"decision"`` (the rulebook is silent; ``reason`` says why we chose; a
  rule of ours that departs from the rulebook is a decision too, its ``section`` says so and its
  ``reason`` says why) or ``"data"`` (an assumption about the components, such as a value that
  no rulebook text gives; ``reason`` points at ``NOTES.md``).

Tests name the rules they check with a marker, ``@pytest.mark.rule("deadwood1876", "setup.deal")``
(several on one test, or a module's or class's ``pytestmark``). :func:`find_markers` reads them
from the test files' source with :mod:`ast` (no test is imported or run), :func:`render` builds the
page, and ``saloon rules GAME [--check]`` (:func:`add_rules_parser`) writes it or checks that the
page on disk is current and that every rule has a test. ``tests/test_rules_coverage.py`` checks the
same for every game, so a rule without a test, a marker naming no rule, or a stale page fails CI.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

import msgspec

import engine

__all__ = [
    "GAMES",
    "ROOT",
    "Catalogue",
    "Marker",
    "Rule",
    "add_rules_parser",
    "catalogue_path",
    "check",
    "find_markers",
    "help_rule_ids",
    "load_catalogue",
    "page_path",
    "render",
    "resolve",
]

ROOT = Path(__file__).resolve().parent.parent
"""The source checkout: ``engine/``, ``tests/`` and ``docs/`` are found under it."""

GAMES: tuple[str, ...] = ("deadwood1876", "wyatt_earp", "deadwood_studios", "deadwood_town")
"""The games with a rules catalogue, in the order of DESIGN.md."""

RULE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$")
"""What a rule id looks like: ``section.name`` (more dotted parts allowed)."""

HELP_RULE = re.compile(r"\[rules?: *([^\]]+)\]")
"""A rule link in a game's ``help.md``: ``[rule: setup.deal]`` or ``[rules: setup.deal, setup.pass]``."""


class Rule(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One rule of a rulebook, as its catalogue lists it."""

    id: str
    section: str
    quote: str
    code: list[str] = []
    kind: Literal["rule", "decision", "data"] = "rule"
    reason: str = ""


class Catalogue(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A game's ``rulebook.toml``: where its rulebook is, and its rules in the rulebook's order."""

    game: str
    title: str
    rulebook: str
    rule: list[Rule]


class Marker(msgspec.Struct, frozen=True, order=True):
    """A ``pytest.mark.rule(game, rule_id)`` found on a test: ``test`` is ``file::name`` under ``tests/``."""

    game: str
    rule: str
    test: str
    line: int


def catalogue_path(game: str, root: Path = ROOT) -> Path:
    """The path of ``game``'s catalogue, ``engine/GAME/rulebook.toml``."""
    return root / "engine" / game / "rulebook.toml"


def page_path(game: str, root: Path = ROOT) -> Path:
    """The path of ``game``'s generated page, ``docs/rules/GAME.md``."""
    return root / "docs" / "rules" / f"{game}.md"


def load_catalogue(game: str, root: Path = ROOT) -> Catalogue:
    """Load and check ``game``'s catalogue.

    Raises:
        ValueError: the file is missing or malformed, names another game, repeats or misspells an
            id, or lists a decision or data assumption without a ``reason`` (a data assumption's
            reason must point at ``NOTES.md``).
    """
    path = catalogue_path(game, root)
    if not path.is_file():
        raise ValueError(f"{game}: no rules catalogue at {path}")
    try:
        cat = msgspec.toml.decode(path.read_bytes(), type=Catalogue)
    except msgspec.ValidationError as exc:
        raise ValueError(f"{path}: {exc}") from None
    if cat.game != game:
        raise ValueError(f"{path}: game is {cat.game!r}, not {game!r}")
    seen: set[str] = set()
    for rule in cat.rule:
        if not RULE_ID.match(rule.id):
            raise ValueError(f"{path}: bad rule id {rule.id!r} (expected section.name)")
        if rule.id in seen:
            raise ValueError(f"{path}: rule id {rule.id!r} is listed twice")
        seen.add(rule.id)
        if rule.kind != "rule" and not rule.reason:
            raise ValueError(f"{path}: {rule.id}: a {rule.kind} needs a reason")
        if rule.kind == "data" and "NOTES.md" not in rule.reason:
            raise ValueError(f"{path}: {rule.id}: a data assumption's reason must point at NOTES.md")
    return cat


def resolve(entry: str) -> Any:
    """The object a ``"module:function"`` entry names (``function`` may be dotted).

    Raises:
        ValueError: the entry is malformed, or its module or attribute does not exist.
    """
    module_name, sep, attr = entry.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"bad code entry {entry!r}: expected module:function")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"code entry {entry!r}: {exc}") from None
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"code entry {entry!r}: no attribute {part!r}") from None
    return obj


def _rule_marks(node: ast.expr) -> Iterable[tuple[str, str]]:
    """The ``(game, rule)`` pairs of ``pytest.mark.rule(...)`` calls in a decorator or ``pytestmark`` value."""
    if isinstance(node, ast.List | ast.Tuple):
        for item in node.elts:
            yield from _rule_marks(item)
        return
    if not isinstance(node, ast.Call):
        return
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr == "rule"):
        return
    owner = func.value
    if not (isinstance(owner, ast.Attribute) and owner.attr == "mark") and not (
        isinstance(owner, ast.Name) and owner.id == "mark"
    ):
        return
    args = node.args
    if len(args) != 2 or not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
        raise ValueError(f"line {node.lineno}: pytest.mark.rule takes two string literals: game, rule id")
    game, rule = (a.value for a in args if isinstance(a, ast.Constant))
    yield game, rule


def _pytestmark(body: list[ast.stmt]) -> list[tuple[str, str]]:
    """The rule marks of a module's or class's ``pytestmark = ...`` assignment."""
    marks: list[tuple[str, str]] = []
    for stmt in body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets):
            marks.extend(_rule_marks(stmt.value))
    return marks


def _markers_of(tree: ast.Module, file: str) -> list[Marker]:
    """Every rule marker of one parsed test file, each on every test it applies to."""
    found: list[Marker] = []

    def visit(body: list[ast.stmt], inherited: list[tuple[str, str]], prefix: str) -> None:
        inherited = inherited + _pytestmark(body)
        for stmt in body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name.startswith("test"):
                own = [m for d in stmt.decorator_list for m in _rule_marks(d)]
                for game, rule in inherited + own:
                    found.append(Marker(game, rule, f"{file}::{prefix}{stmt.name}", stmt.lineno))
            elif isinstance(stmt, ast.ClassDef) and stmt.name.startswith("Test"):
                own = [m for d in stmt.decorator_list for m in _rule_marks(d)]
                visit(stmt.body, inherited + own, f"{prefix}{stmt.name}::")

    visit(tree.body, [], "")
    return found


def find_markers(root: Path = ROOT) -> list[Marker]:
    """Every ``pytest.mark.rule`` marker in ``tests/`` (recursively), read from the source, sorted.

    Raises:
        ValueError: a marker whose arguments are not two string literals.
    """
    tests = root / "tests"
    markers: list[Marker] = []
    for path in sorted(tests.rglob("test_*.py")):
        source = path.read_text(encoding="utf-8")
        if "mark.rule" not in source:
            continue
        file = path.relative_to(tests).as_posix()
        try:
            markers.extend(_markers_of(ast.parse(source, filename=str(path)), file))
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None
    return sorted(set(markers))


def help_rule_ids(game: str, root: Path = ROOT) -> list[str]:
    """The rule ids that ``engine/GAME/help.md`` links (``[rule: ID]``), in order of appearance."""
    text = (root / "engine" / game / "help.md").read_text(encoding="utf-8")
    return [part.strip() for match in HELP_RULE.finditer(text) for part in match.group(1).split(",")]


def _cell(text: str) -> str:
    """``text`` made safe for one Markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def _count(n: int, one: str, many: str = "") -> str:
    """``n`` and the noun, singular or plural: ``"1 rule"``, ``"2 rules"``."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def _tests_by_rule(cat: Catalogue, markers: Iterable[Marker]) -> dict[str, list[str]]:
    """Each rule id of ``cat`` -> the tests that name it (sorted, each once)."""
    tests: dict[str, list[str]] = {rule.id: [] for rule in cat.rule}
    for marker in sorted(markers, key=lambda m: (m.test.split("::")[0], m.line, m.test)):
        if marker.game == cat.game and marker.rule in tests and marker.test not in tests[marker.rule]:
            tests[marker.rule].append(marker.test)
    return tests


def render(cat: Catalogue, markers: Iterable[Marker]) -> str:
    """The page ``docs/rules/GAME.md`` for ``cat`` with the tests of ``markers`` (Markdown)."""
    tests = _tests_by_rule(cat, markers)
    kinds = [rule.kind for rule in cat.rule]
    untested = [rule.id for rule in cat.rule if not tests[rule.id]]
    lines = [
        f"# {cat.title}: rules coverage",
        "",
        f"Generated by `saloon rules {cat.game}` from `engine/{cat.game}/rulebook.toml` and the tests'",
        f'`@pytest.mark.rule("{cat.game}", ID)` markers: do not edit by hand. Rulebook: `{cat.rulebook}`.',
        "Kinds: *rule* (the rulebook says so), *decision* (the rulebook is silent, or, where the section",
        "says so, we depart from it: our choice and its reason), *data* (an assumption about the",
        "components, such as a value no rulebook text gives, explained in the data's NOTES.md).",
        "The in-game help (`?`) links its paragraphs to these ids.",
        "",
        f"**{_count(len(cat.rule), 'entry', 'entries')}: {_count(kinds.count('rule'), 'rule')}, "
        f"{_count(kinds.count('decision'), 'decision')}, {_count(kinds.count('data'), 'data assumption')}; "
        f"{len(untested)} without a test.**",
        "",
    ]
    if untested:
        lines += ["Without a test: " + ", ".join(f"`{rule_id}`" for rule_id in untested) + ".", ""]
    lines += ["| id | section | quote | code | tests | kind |", "|---|---|---|---|---|---|"]
    for rule in cat.rule:
        code = "<br>".join(f"`{entry}`" for entry in rule.code) or "—"
        checked = "<br>".join(f"`{test}`" for test in tests[rule.id]) or "**none**"
        kind = rule.kind if not rule.reason else f"{rule.kind}: {rule.reason}"
        lines.append(
            f"| `{rule.id}` | {_cell(rule.section)} | {_cell(rule.quote)} | {code} | {checked} | {_cell(kind)} |"
        )
    return "\n".join(lines) + "\n"


def check(game: str, root: Path = ROOT, markers: Sequence[Marker] | None = None) -> list[str]:
    """Every problem with ``game``'s coverage, one line each (empty when all is well).

    Checks that the page on disk equals the rendering, every rule has a test, every marker for
    ``game`` names a rule of the catalogue, every ``code`` entry resolves, and every rule id that
    ``help.md`` links exists.
    """
    cat = load_catalogue(game, root)
    markers = find_markers(root) if markers is None else markers
    ids = {rule.id for rule in cat.rule}
    problems = [
        f"{m.test}: marks unknown rule {game}:{m.rule}" for m in markers if m.game == game and m.rule not in ids
    ]
    tests = _tests_by_rule(cat, markers)
    problems += [f"{game}: rule {rule_id} has no test" for rule_id, found in tests.items() if not found]
    for rule in cat.rule:
        for entry in rule.code:
            try:
                resolve(entry)
            except ValueError as exc:
                problems.append(f"{game}: rule {rule.id}: {exc}")
    problems += [
        f"{game}: help.md links unknown rule {rule_id}" for rule_id in help_rule_ids(game, root) if rule_id not in ids
    ]
    page = page_path(game, root)
    if not page.is_file() or page.read_text(encoding="utf-8") != render(cat, markers):
        problems.append(f"{game}: {page.relative_to(root)} is stale: run `saloon rules {game}`")
    return problems


def _cmd_rules(args: argparse.Namespace) -> int:
    """``saloon rules [GAME ...] [--check]``: write (or check) the rules-coverage pages."""
    games = args.games or list(GAMES)
    for game in games:
        if game not in GAMES:
            engine.game(game)  # an unknown id raises engine.UnknownGame (exit code 2)
            raise ValueError(f"{game} has no rules catalogue")
    markers = find_markers()
    failed = False
    for game in games:
        if args.check:
            problems = check(game, markers=markers)
            for problem in problems:
                print(problem, file=sys.stderr)
            failed = failed or bool(problems)
            if not problems:
                print(f"{game}: {page_path(game).relative_to(ROOT)} is current; every rule has a test")
            continue
        cat = load_catalogue(game)
        text = render(cat, markers)
        page = page_path(game)
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(text, encoding="utf-8")
        untested = sum(1 for found in _tests_by_rule(cat, markers).values() if not found)
        print(f"{game}: wrote {page.relative_to(ROOT)} ({len(cat.rule)} rules, {untested} without a test)")
    return 1 if failed else 0


def add_rules_parser(commands: Any) -> None:
    """Add ``saloon rules`` to the command line's subparsers ``commands``."""
    rules = commands.add_parser(
        "rules",
        help="write the rules-coverage pages docs/rules/GAME.md (--check: exit 1 if stale or a rule has no test)",
        description="Build docs/rules/GAME.md from engine/GAME/rulebook.toml and the tests' "
        "@pytest.mark.rule markers (default: every game). --check writes nothing and exits 1 when a page "
        "is stale, a rule has no test, a marker names no rule, or a code entry does not resolve.",
    )
    rules.add_argument("games", nargs="*", metavar="GAME", help="default: every game")
    rules.add_argument("--check", action="store_true", help="check instead of writing")
    rules.set_defaults(func=_cmd_rules)
