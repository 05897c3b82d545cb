"""Giving a finished session's memory back at once: the reference cycles of a Textual app, cut.

A Textual app is a web of reference cycles: every DOM node owns styles that point back at it
(``Styles.node``), a node list, a signal and bindings that do the same, and its message pump's
queue, tasks and timers hold bound methods of it. When a session ends, all of that is garbage
that only a *full* collection of the cyclic garbage collector can find, and a full collection
scans every live object of every other session too (about a second with a hundred sessions, a
second in which no screen is drawn). A server that waits for those collections grows by megabytes
per session served; one that forces them stalls everyone.

:func:`track_nodes` records every node an app registers (screens, widgets) in a weak set, and
:func:`dismantle` cuts the cycles once the app has stopped: it empties each node's instance
dictionary and those of the helper objects the node alone owns (its styles, node list, signal,
bindings, timers), so that reference counting frees the whole app as soon as the session lets
go of it. Only objects made for this app are touched: never a class attribute, a cache shared by
every app (rich and Textual keep several), or anything of the lobby's.

This is the one module besides :mod:`serve.ssh_driver` that reaches into Textual's private
attributes (``App._registry``, ``DOMNode._component_styles``); ``pyproject.toml`` bounds the
Textual version accordingly, and ``tests/ssh/test_session_memory.py`` fails if a Textual
upgrade makes a session's memory outlive it again.
"""

from __future__ import annotations

import collections
import functools
import gc
import types
import weakref
from asyncio import selector_events
from collections.abc import Iterable, Sequence
from typing import Any

from textual._compositor import Compositor
from textual.app import App
from textual.cache import FIFOCache, LRUCache
from textual.css.styles import RenderStyles, Styles
from textual.dom import DOMNode
from textual.geometry import Size
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

__all__ = ["dismantle", "track_nodes"]


# Some of Textual's own helpers (and asyncio's socket transport) make cyclic garbage during a
# session, not only at its end; their fixes below keep what they return and only avoid the cycle
# or its promotion (every session calls them).

_lru_clear = LRUCache.clear


def _lru_clear_without_cycles(self: LRUCache[Any, Any]) -> None:
    """``LRUCache.clear`` that empties the ring of ``[prev, next, key, value]`` links first: the
    original drops the ring, a cycle holding every cached value (a screen's query cache holds its
    widgets), for the full collection to find."""
    collections.deque(map(list.clear, self._cache.values()), maxlen=0)  # at C speed: caches hold thousands
    _lru_clear(self)


_strip_divide = Strip.divide


def _strip_divide_without_cycles(self: Strip, cuts: Iterable[int]) -> Sequence[Strip]:
    """``Strip.divide`` that does not cache the strip in its own cache when the only cut is at its
    end (the compositor's usual case): the original caches ``[self]``, a cycle per line drawn."""
    length = self.cell_length
    cuts = [cut for cut in cuts if cut <= length]
    if cuts == [length]:
        return [self]
    return _strip_divide(self, cuts)


_arrange_root = Compositor._arrange_root


def _arrange_root_young(self: Compositor, root: Widget, size: Size, visible_only: bool = True) -> Any:
    """``Compositor._arrange_root`` run with the cyclic collector paused. Each arrangement makes a
    cycle: a recursive closure (``add_widget``) holding the arrangement's map and widget set, so
    the screen and all its widgets. A collection that ran during a large arrangement promoted that
    live closure to an older generation, where it outlived its screen until the next full
    collection (a closed session's screens stayed alive in about one session in four). Paused, the
    cycle is always young garbage, freed by the next young collection."""
    if not gc.isenabled():
        return _arrange_root(self, root, size, visible_only)
    gc.disable()
    try:
        return _arrange_root(self, root, size, visible_only)
    finally:
        gc.enable()


Compositor._arrange_root = _arrange_root_young  # type: ignore[method-assign]
LRUCache.clear = _lru_clear_without_cycles  # type: ignore[method-assign]
Strip.divide = _strip_divide_without_cycles  # type: ignore[method-assign]


def _styles_nodes(node: DOMNode) -> dict[int, Any]:
    """The styles-only nodes Textual made for ``node``'s component classes, by ``id``."""
    return {id(styles.node): styles.node for styles in node._component_styles.values()}


def _cut_dropped(before: dict[int, Any], node: DOMNode) -> None:
    """Cut the styles-only nodes of ``before`` (:func:`_styles_nodes` earlier) that ``node`` no
    longer has: Textual drops them as cycles (node -> styles -> node), and one made before the
    server froze the session (:class:`serve.ssh_server.Collector`) would stay, frozen, until a sweep."""
    for key in before.keys() - _styles_nodes(node).keys():
        if isinstance(before[key], DOMNode):
            _clear(before[key])


_call_connection_lost = selector_events._SelectorSocketTransport._call_connection_lost


def _call_connection_lost_without_cycle(self: Any, exc: BaseException | None) -> None:
    """asyncio's socket transport keeps a bound method of itself as its read callback, a cycle
    that kept every closed connection's transport (SSH and browser alike) for the full
    collection; a transport whose connection is lost never reads again."""
    try:
        _call_connection_lost(self, exc)
    finally:
        self._read_ready_cb = None


selector_events._SelectorSocketTransport._call_connection_lost = _call_connection_lost_without_cycle  # type: ignore[method-assign]


_widget_loop_exit = Widget._message_loop_exit


async def _widget_loop_exit_cutting_styles(self: Widget) -> None:
    """``Widget._message_loop_exit`` (a widget's removal) that also cuts the styles-only nodes of
    its component classes (:func:`_cut_dropped`): removed widgets are common (the footer remakes
    its keys whenever the bindings change)."""
    before = _styles_nodes(self)
    await _widget_loop_exit(self)
    _cut_dropped(before, self)


Widget._message_loop_exit = _widget_loop_exit_cutting_styles  # type: ignore[method-assign]


class _Registry(weakref.WeakSet):  # type: ignore[type-arg]
    """Textual's registry of an app's mounted nodes (a weak set) that also records every node in ``seen``."""

    def __init__(self, seen: weakref.WeakSet[DOMNode]) -> None:
        super().__init__()
        self.seen = seen

    def add(self, item: Any) -> None:
        super().add(item)
        self.seen.add(item)


def track_nodes(app: App[Any]) -> weakref.WeakSet[DOMNode]:
    """Start recording every node ``app`` registers, and the styles-only nodes its stylesheet makes
    for component classes; call before the app runs.

    Returns:
        A weak set of the nodes (screens, widgets, styles-only nodes) made so far; it fills as the
        app runs, and keeps a node only while something else (a cycle, say) keeps it alive.
    """
    seen: weakref.WeakSet[DOMNode] = weakref.WeakSet()
    registry = _Registry(seen)
    for node in app._registry:
        registry.add(node)
    app._registry = registry
    sheet = weakref.ref(app.stylesheet)
    process = type(app.stylesheet)._process_component_classes

    def process_component_classes(node: DOMNode) -> None:
        # Textual makes a styles-only node per component class at each restyle and drops the
        # previous ones: record the new ones (dismantled at the end), cut the dropped ones now.
        stylesheet = sheet()
        if stylesheet is not None:
            before = _styles_nodes(node)
            process(stylesheet, node)
            seen.update(_styles_nodes(node).values())
            _cut_dropped(before, node)

    app.stylesheet._process_component_classes = process_component_classes  # type: ignore[method-assign]
    return seen


_WALKED = (dict, list, tuple, set, frozenset, collections.deque, types.MethodType, functools.partial)
"""Containers whose contents :func:`_caches_and_timers` looks through (never functions, classes or modules)."""

_WALKED_MODULES = ("textual.", "rich.", "tui.")
"""Objects of these packages' classes are looked through too (those of ``lobby`` and the engine never are)."""


def _clear(obj: Any) -> None:
    state = getattr(obj, "__dict__", None)
    if isinstance(state, dict):
        state.clear()


def _own_styles(node: DOMNode) -> list[Any]:
    """The styles made for ``node`` alone, which point back at it (a cycle each)."""
    return [
        value
        for value in list(vars(node).values())
        if isinstance(value, Styles | RenderStyles) and getattr(value, "node", None) is node
    ]


def _nodes_of(app: App[Any], nodes: Iterable[DOMNode]) -> dict[int, DOMNode]:
    """The app, the given nodes, their children, and the styles-only nodes Textual makes for their
    component classes (``DOMNode._component_styles``), by ``id``."""
    todo: list[DOMNode] = [app, *nodes]
    for node in list(todo):
        todo.extend(node._nodes)
    found: dict[int, DOMNode] = {}
    while todo:
        node = todo.pop()
        if id(node) in found:
            continue
        found[id(node)] = node
        for styles in list(getattr(node, "_component_styles", {}).values()):
            virtual = getattr(styles, "node", None)
            if isinstance(virtual, DOMNode):
                todo.append(virtual)
    return found


def _caches_and_timers(found: dict[int, DOMNode]) -> tuple[list[Any], list[Timer]]:
    """Every cache and timer reachable from the app's nodes without passing through another app's
    node, a function, a class, a module or an object of another package.

    Caches (Textual's ``FIFOCache`` and ``LRUCache``) are emptied, which is always safe, even for a
    cache that other apps share: a ``Strip`` keeps its crops and styled copies in caches of its own,
    which hold the strip again (a cycle per cached line of every widget).
    """
    seen: set[int] = set()
    todo: list[Any] = list(found.values())
    caches: list[Any] = []
    timers: list[Timer] = []
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, FIFOCache | LRUCache):
            caches.append(obj)
        elif isinstance(obj, Timer):
            timers.append(obj)
        elif isinstance(obj, DOMNode) and id(obj) not in found:
            continue
        kind = type(obj)
        if kind in _WALKED or kind.__module__.startswith(_WALKED_MODULES):
            todo.extend(gc.get_referents(obj))
    return caches, timers


def dismantle(app: App[Any], nodes: Iterable[DOMNode] = ()) -> int:
    """Cut the reference cycles of a stopped ``app`` so that reference counting frees it.

    Call only once the app has stopped (``App.run_async`` returned): the app and its nodes are
    unusable afterwards. What is cut: every node's instance dictionary and its own styles (the
    app's, its screens', widgets' and the styles-only nodes'), the caches and timers reachable
    from them (see :func:`_caches_and_timers`), and the app's animator.

    Args:
        app: the stopped app.
        nodes: what :func:`track_nodes` recorded for it (without it, only the app and the nodes
            still attached to it are reached).

    Returns:
        How many nodes were dismantled.
    """
    found = _nodes_of(app, nodes)
    caches, timers = _caches_and_timers(found)
    for cache in caches:
        cache.clear()
    for timer in timers:
        target = timer._target()
        if target is None or id(target) in found:
            _clear(timer)
    _clear(vars(app).get("_animator"))
    for node in found.values():
        for styles in _own_styles(node):
            _clear(styles)
    for node in found.values():
        _clear(node)
    return len(found)
