"""The layout of DESIGN.md holds: no import cycles between or inside packages, data flows one way, and
the lobby holds no front end.

The import graph is read from the source with :mod:`ast` (nothing is imported), and it counts every
``import`` statement wherever it is: at module level, inside a function (a lazy import) or under
``if TYPE_CHECKING:``. An edge goes from a module to the project module it names: ``from a.b import c``
names ``a.b.c`` when that is a module, else ``a.b``. Importing ``a.b`` also runs ``a/__init__.py``,
but that implicit edge is not counted (every submodule would otherwise form a cycle with a package
that imports it); ``from a import name`` inside ``a`` is counted, and is a cycle when ``a`` imports
that module. A strategy registered with ``register_strategy(GAME, "package.module:Class")``
(:mod:`bots.heuristic`) is imported by that path when first needed: the call counts as an import of
``package.module`` by the module that makes it.

Cycles inside each game's engine subpackage (``engine/<game>/``) are checked once per game by
:func:`test_no_import_cycle_inside_a_game_engine` (the state reaches the rules, views and resampling
through its game object, and rules that hand play back to an earlier step do so through a dispatch
table filled in ``rules/__init__.py``, never by importing each other: ``STEPS``, or ``HANDLERS`` and
``run`` for Deadwood's effect queue); :func:`test_no_import_cycle_inside_a_package`
checks every other cycle, including those through ``engine/__init__.py`` or ``engine.core``.
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

LAYERS: Mapping[str, int] = {
    "engine": 0,
    "replays": 1,
    "bots": 2,
    "tournament": 3,
    "lobby": 3,
    "tui": 4,
    "serve": 5,
    "saloon": 6,
}
"""Each top-level package's layer (DESIGN.md: engine ← replays, bots ← tournament, lobby ← tui ← serve ←
saloon): a package imports only packages of lower layers. ``tui`` is screens and widgets; the transports
(SSH, the web page, their drivers) are ``serve``'s."""

ENGINE_GAMES = tuple(
    sorted(p.parent.name for p in (ROOT / "engine").glob("*/__init__.py") if p.parent.name.isidentifier())
)
"""The game engines' subpackages of ``engine`` (``"deadwood1876"``, ...)."""

FRONT_END = ("textual", "tui", "serve", "saloon")
"""What no module of ``lobby/`` may import (the lobby holds no front end)."""


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the project's top-level packages (those with an ``__init__.py``), by dotted name.

    A package is named by its ``__init__.py`` (``"bots"``); ``tests`` is not a package of the project.
    """
    modules: dict[str, Path] = {}
    for top in sorted(root.iterdir()):
        if top.name == "tests" or not (top / "__init__.py").is_file():
            continue
        for path in sorted(top.rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if not all((root.joinpath(*parts[:i]) / "__init__.py").is_file() for i in range(1, len(parts))):
                continue  # a script folder inside a package, not a subpackage
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def _called_name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


@functools.cache
def imported_names(path: Path, module: str) -> frozenset[str]:
    """The dotted names every ``import`` statement in ``path`` (module ``module``) names, anywhere in it.

    ``import a.b`` gives ``a.b``; ``from a.b import c, d`` gives ``a.b.c`` and ``a.b.d`` (the caller
    keeps those that are modules, else ``a.b``); relative imports are resolved against ``module``.
    """
    tree = ast.parse(path.read_text(), filename=str(path))
    is_package = path.name == "__init__.py"
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")
                anchor = parts if is_package else parts[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names.update(f"{base}.{alias.name}" for alias in node.names)
            names.add(base + ".")  # the ``from`` module itself (marked, for the caller)
        elif isinstance(node, ast.Call) and _called_name(node.func) == "register_strategy":
            paths = [a.value for a in node.args[1:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            names.update(path.partition(":")[0] for path in paths)
    return frozenset(names)


def import_graph(modules: Mapping[str, Path]) -> dict[str, set[str]]:
    """Module -> the project modules it imports (see the module docstring for what an edge is)."""
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets: set[str] = set()
        names = imported_names(path, module)
        for name in names:
            if name.endswith("."):
                continue
            if name in modules:
                targets.add(name)
            else:  # ``from a.b import c`` with ``c`` a name, not a module: the edge goes to ``a.b``
                parent = name.rpartition(".")[0]
                if parent + "." in names and parent in modules:
                    targets.add(parent)
        graph[module] = targets - {module}
    return graph


def external_imports(path: Path, module: str) -> set[str]:
    """The top-level names of everything ``path`` imports (``textual``, ``engine``, ``asyncio``, ...)."""
    return {name.split(".")[0] for name in imported_names(path, module) if name.split(".")[0]}


def find_cycle(graph: Mapping[str, Iterable[str]]) -> list[str] | None:
    """One cycle of ``graph`` as ``[a, b, ..., a]``, or ``None`` when it is acyclic (iterative DFS)."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = dict.fromkeys(graph, WHITE)
    for start in sorted(graph):
        if colour[start] != WHITE:
            continue
        path = [start]
        stack = [iter(sorted(graph[start]))]
        colour[start] = GREY
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                colour[path.pop()] = BLACK
                stack.pop()
            elif colour.get(nxt, BLACK) == GREY:
                return [*path[path.index(nxt) :], nxt]
            elif colour.get(nxt) == WHITE:
                colour[nxt] = GREY
                path.append(nxt)
                stack.append(iter(sorted(graph[nxt])))
    return None


@functools.cache
def all_modules() -> dict[str, Path]:
    """The project's modules (read once per test session)."""
    return project_modules()


@functools.cache
def project_graph() -> dict[str, set[str]]:
    """The project's import graph (read once per test session)."""
    return import_graph(all_modules())


def package_of(module: str) -> str:
    return module.split(".")[0]


# -- the checker itself ----------------------------------------------------------------------------------


def test_find_cycle_finds_a_cycle_and_only_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"a2"}, "a2": set(), "b": {"c"}, "c": {"b"}}) == ["b", "c", "b"]


def test_the_graph_counts_lazy_relative_and_from_imports(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from pkg.a import thing\n")
    (pkg / "a.py").write_text("def f():\n    from pkg import b\n    from .sub import c\n    return b, c\n")
    (pkg / "b.py").write_text("import pkg.sub.c\nfrom pkg import helper\nregister_strategy('g', 'pkg.sub:C')\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "c.py").write_text("from .. import a\nimport os\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "__init__.py").write_text("import pkg\n")
    modules = project_modules(tmp_path)
    assert sorted(modules) == ["pkg", "pkg.a", "pkg.b", "pkg.sub", "pkg.sub.c"]
    graph = import_graph(modules)
    assert graph == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.b", "pkg.sub.c"},
        "pkg.b": {"pkg.sub.c", "pkg", "pkg.sub"},
        "pkg.sub": set(),
        "pkg.sub.c": {"pkg.a"},
    }
    assert find_cycle(graph) == ["pkg", "pkg.a", "pkg.b", "pkg"]


# -- the project -----------------------------------------------------------------------------------------


def test_every_top_level_package_has_a_layer():
    assert {package_of(m) for m in all_modules()} == set(LAYERS)


def test_no_import_cycle_between_packages():
    packages: dict[str, set[str]] = {p: set() for p in LAYERS}
    for module, targets in project_graph().items():
        packages[package_of(module)].update(package_of(t) for t in targets if package_of(t) != package_of(module))
    assert find_cycle(packages) is None


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_data_flows_one_way(package):
    """A package imports only packages of lower layers (and never ``tests``)."""
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in project_graph().items()
        if package_of(module) == package
        for target in targets
        if LAYERS[package_of(target)] >= LAYERS[package] and package_of(target) != package
    )
    wrong += sorted(
        f"{m} imports tests"
        for m, p in all_modules().items()
        if package_of(m) == package and "tests" in external_imports(p, m)
    )
    assert wrong == []


def in_subpackage(module: str, subpackage: str) -> bool:
    return module == subpackage or module.startswith(subpackage + ".")


def inside(package: str, tolerated: Iterable[str] = ()) -> dict[str, set[str]]:
    """The import graph among ``package``'s modules, without the edges inside a ``tolerated`` subpackage."""
    tolerated = tuple(tolerated)
    return {
        module: {
            t
            for t in targets
            if package_of(t) == package and not any(in_subpackage(module, s) and in_subpackage(t, s) for s in tolerated)
        }
        for module, targets in project_graph().items()
        if package_of(module) == package
    }


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_no_import_cycle_inside_a_package(package):
    assert find_cycle(inside(package, [f"engine.{game}" for game in ENGINE_GAMES])) is None


@pytest.mark.parametrize("game", ENGINE_GAMES)
def test_no_import_cycle_inside_a_game_engine(game):
    subpackage = f"engine.{game}"
    own = {
        m: {t for t in ts if in_subpackage(t, subpackage)}
        for m, ts in inside("engine").items()
        if in_subpackage(m, subpackage)
    }
    assert find_cycle(own) is None


def test_the_heuristic_bot_imports_no_game():
    """Each game's strategy registers itself in ``bots/__init__.py``; :mod:`bots.heuristic` names no game's module."""
    assert {t for t in project_graph()["bots.heuristic"] if t.startswith("engine") or t.endswith("_heuristic")} == set()
    assert {"bots.deadwood1876_heuristic", "bots.wyatt_earp_heuristic"} <= project_graph()["bots"]


def test_the_lobby_imports_no_front_end():
    lobby = {m: p for m, p in all_modules().items() if package_of(m) == "lobby"}
    assert "lobby.tables" in lobby and "lobby.store" in lobby
    wrong = {m: sorted(external_imports(p, m) & set(FRONT_END)) for m, p in lobby.items()}
    assert {m: names for m, names in wrong.items() if names} == {}


def test_importing_the_lobby_loads_no_textual():
    """Importing every lobby module (as a server with another front end would) loads no Textual module."""
    lobby = sorted(m for m in all_modules() if package_of(m) == "lobby")
    code = (
        "import importlib, sys\n"
        f"for name in {lobby!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'tui', 'saloon'}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# -- per-game parts register themselves -------------------------------------------------------------------


class _LastStrategy:
    """A strategy for a made-up game: always the last legal action; remembers its seed."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, view: Any, legal: list[Any], seat: int) -> Any:
        return legal[-1]


def test_a_registered_strategy_is_found_by_its_path(monkeypatch):
    from bots import heuristic

    monkeypatch.setattr(heuristic, "_STRATEGIES", dict(heuristic._STRATEGIES))
    heuristic.register_strategy("made_up", "tests.test_layout:_LastStrategy")
    bot = heuristic.HeuristicBot(seed=3)
    assert bot.act(SimpleNamespace(game="made_up"), ["a", "b", "c"], 0) == "c"
    strategy = bot._strategies["made_up"]
    assert (type(strategy).__name__, strategy.seed) == ("_LastStrategy", 3)
    assert heuristic.strategies()["made_up"] == "tests.test_layout:_LastStrategy"


def test_the_built_in_strategies_are_registered_and_others_play_at_random():
    from bots import RandomBot
    from bots.heuristic import HeuristicBot, register_strategy, strategies

    assert {game: strategies()[game] for game in ("deadwood1876", "wyatt_earp")} == {
        "deadwood1876": "bots.deadwood1876_heuristic:Deadwood1876Strategy",
        "wyatt_earp": "bots.wyatt_earp_heuristic:WyattEarpStrategy",
    }
    legal = list(range(10))
    unknown = SimpleNamespace(game="no_such_game")
    bot, random_bot = HeuristicBot(seed=5), RandomBot(5)
    assert [bot.act(unknown, legal, 0) for _ in range(5)] == [random_bot.act(unknown, legal, 0) for _ in range(5)]
    with pytest.raises(ValueError, match="package.module:Class"):
        register_strategy("made_up", "tests.test_layout")
