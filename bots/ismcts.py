"""The built-in ``ismcts`` bot: Information Set Monte Carlo Tree Search for every game.

This is single-observer IS-MCTS (SO-ISMCTS; Cowling, Powley and Whitehouse, "Information Set
Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012), written to be read by bot authors. One search
per decision; each *iteration* of a search has four steps:

1. **Determinize.** Draw one state consistent with everything the bot's seat knows:
   ``sample(seed)``, which the runner gives the bot (see :meth:`IsmctsBot.act_with_sampler`) and
   which returns ``state.resample(seat, seed)`` of the live state. Other hands, unseen Safes, the
   deck order, other seats' pending hidden choices and future dice are redrawn; nothing the
   seat does not know leaks into the search.
2. **Select and expand.** Walk down one tree shared by all iterations. A node stands for "what
   the observer has seen so far" (the path of moves from the root); at a node, the seats to act
   *in this determinization* choose. An edge is ``(seat, action)``, and only the edges legal in
   the current determinization compete. Each edge keeps ``visits``, ``reward`` (the sum of the
   rewards *of the seat that moved*, so every seat plays for itself in a multi-player game) and
   ``avail`` (how often it was legal when its node was visited). A seat with an action it has
   never tried at this node tries one (chosen at random) and the iteration leaves the tree;
   otherwise each seat takes the edge with the best UCB1 score with availability counts::

       reward / visits + c * sqrt(ln(avail) / visits)

   **The heuristic as a prior** (``prior=W``, default :data:`DEFAULT_PRIOR`; ``prior=0`` turns it
   off). Before the search, the game's built-in heuristic bot is asked once what it would play
   from the bot's real view. At the root that edge is expanded first and gets a *progressive
   bias* (Chaslot et al., 2008) that fades as it is visited::

       reward / visits + c * sqrt(ln(avail) / visits) + W / (visits + 1)

   So with a small budget the bot plays the heuristic's move unless the search finds another
   clearly better; the bias costs one heuristic call per decision and holds no game's rules.

   **Simultaneous choices are hidden moves.** When several seats are to act at once (a heist,
   the Showdown, the holster window) every one of them chooses *at the same node*, from its own
   edges and without seeing the others' choices (decoupled UCB), and the choices are then
   applied one at a time in ascending seat order; the node's child is keyed by all of them. So
   no seat's choice in the tree depends on a choice it could not have seen.
3. **Roll out.** From the new node, play the determinization to the end with random moves
   (``rollout=random``, the default) or with the built-in heuristic bot (``rollout=heuristic``:
   better moves, many fewer iterations per second). A rollout longer than ``depth`` decisions is
   cut off. The engine contract has no score before the end, so by default (``cutoff=draw``) a
   cut-off rollout is a draw (0.5 for every seat) and the cutoff only guards against runaway
   games. With ``cutoff=heuristic`` it is scored by the game's heuristic instead: each seat's
   chance to win ``w`` is estimated from its own view (the strategy's ``estimate``), and a seat's
   reward is ``mean over the others j of w_i / (w_i + w_j)``, its expected rank reward if each
   pair's order follows those chances. ``depth=0,cutoff=heuristic`` scores each new node at once,
   without a rollout (many more iterations per second, judged by the heuristic's reckoning).
4. **Back up.** Every edge taken in the tree adds the reward of the seat that took it.

**Rewards.** From the outcome's ranks, in ``[0, 1]``: ``(n - p) / (n - 1)`` for ``n`` seats,
where ``p`` is the seat's place (1 = best); tied seats share the mean of the places they span.
So a lone winner gets 1 and the last seat 0; two seats tied for first at two players get 0.5
each (the rewards always sum to ``n / 2``). Ranks, not just winners, because they carry more
signal at many players and are what the tournament's ratings use.

**Choice.** The most visited of the observer's root edges (ties: the heuristic's move when it is
among them, then the higher mean reward, then the first in ``legal_actions`` order). With a
single legal action there is no search.

**What works, measured** (Deadwood 1876, 2 players, one ``ismcts:iterations=100`` against the
``heuristic`` bot, the same 100 seeds each, seats alternating, before the tie rule above was
added; wins / games [95% Wilson interval]): no prior 30/100 [22, 40]%; ``prior=1`` 40/100
[31, 50]%; ``prior=1,c=0.4`` 39/100 [30, 49]%; ``prior=3`` 46/100 [37, 56]%; ``prior=10`` 47/100
[38, 57]%. Random rollouts judge a move by how random players would go on from it, which is far
from how the heuristic plays, and heuristic rollouts cost about 14 ms each (a ``view`` and the
heuristic's reckoning per decision), so within 100 ms per decision the search mostly confirms
the heuristic's move; given more iterations (150, 85 ms) it overrules it more and won only 41/120
[26, 43]%. The full figures (500 games per count) and the commands are in ``docs/ismcts.md``.

**Budget.** ``iterations=N`` (default 1000) and/or ``ms=T`` (wall-clock milliseconds per
decision, checked after each iteration; at least one iteration always runs). With only
``iterations`` and a seed the bot is deterministic: the determinization seeds and the rollouts
come from the bot's own ``random.Random``.

>>> bot = IsmctsBot(seed=1, iterations=200)
>>> bot.name
'ismcts:iterations=200'
>>> IsmctsBot.from_options({"ms": "50", "c": "1.0"}, seed=1).name
'ismcts:ms=50,c=1.0'
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Hashable, Mapping
from typing import Any

import msgspec

from bots.options import parse_bot_options

__all__ = ["DEFAULT_C", "DEFAULT_DEPTH", "DEFAULT_ITERATIONS", "DRAW", "ROLLOUTS", "IsmctsBot", "rank_rewards"]

DEFAULT_ITERATIONS = 1000
"""Iterations per decision when neither ``iterations`` nor ``ms`` is given."""

DEFAULT_C = 0.7
"""The UCB1 exploration constant (rewards lie in ``[0, 1]``)."""

DEFAULT_PRIOR = 3.0
"""The weight of the progressive bias toward the heuristic bot's choice at the root."""

DEFAULT_DEPTH = 1000
"""The rollout cutoff, in decisions (far beyond a real game: it only catches loops)."""

DRAW = 0.5
"""The reward of every seat when a rollout is cut off at ``depth`` decisions."""

ROLLOUTS = ("random", "heuristic")
"""The rollout policies, by option value."""

CUTOFFS = ("draw", "heuristic")
"""How a rollout cut off at ``depth`` decisions is scored, by option value of ``cutoff``."""

Sampler = Callable[[int], Any]
"""``sample(seed) -> State``: a determinization of the live state for the bot's seat."""


def rank_rewards(ranks: tuple[int, ...]) -> list[float]:
    """Per-seat rewards in ``[0, 1]`` from competition ranks (1 = best, ties share a rank).

    A seat's place ``p`` is its rank, or for a tie the mean of the places the tied seats span;
    its reward is ``(n - p) / (n - 1)``. A one-seat game rewards 1.

    Args:
        ranks: one rank per seat, seat order (``Outcome.ranks``).

    Returns:
        One reward per seat, seat order.

    >>> rank_rewards((1, 2))
    [1.0, 0.0]
    >>> rank_rewards((2, 1, 3))
    [0.5, 1.0, 0.0]
    >>> rank_rewards((1, 1, 3, 3))
    [0.8333333333333334, 0.8333333333333334, 0.16666666666666666, 0.16666666666666666]
    """
    n = len(ranks)
    if n <= 1:
        return [1.0] * n
    tied = Counter(ranks)
    return [(n - (rank + (tied[rank] - 1) / 2)) / (n - 1) for rank in ranks]


def _key(action: Any) -> Hashable:
    """A key for ``action`` that is equal across determinizations: the action itself when its type
    is hashable (the contract's frozen msgspec Structs are), else its MessagePack bytes."""
    if type(action).__hash__ is not None:
        return action  # type: ignore[no-any-return]
    return msgspec.msgpack.encode(action)


class _Edge:
    """Statistics of one ``(seat, action)`` edge of a node.

    Attributes:
        visits: iterations that took the edge.
        reward: the sum of the moving seat's rewards over those iterations.
        avail: iterations in which the edge was legal when its node was visited.
    """

    __slots__ = ("visits", "reward", "avail")

    def __init__(self) -> None:
        self.visits = 0
        self.reward = 0.0
        self.avail = 1


class _Node:
    """A tree node: the edges tried here and the children they led to.

    Attributes:
        edges: ``(seat, action key) -> _Edge``.
        children: the joint move taken here (a tuple of ``(seat, action key)``, ascending seats;
            one pair when one seat acts) ``-> _Node``.
        favoured: the edge the progressive bias favours (the heuristic's choice; root only), or
            ``None``.
    """

    __slots__ = ("edges", "children", "favoured")

    def __init__(self) -> None:
        self.favoured: tuple[int, Hashable] | None = None
        self.edges: dict[tuple[int, Hashable], _Edge] = {}
        self.children: dict[tuple[tuple[int, Hashable], ...], _Node] = {}


class IsmctsBot:
    """Single-observer IS-MCTS over determinizations of the live state (see the module docstring).

    The runner must call :meth:`act_with_sampler` (``bots.play_game`` does); :meth:`act`, without
    a way to sample states, can only play a random legal move.

    Args:
        seed: seeds the bot's ``random.Random`` (determinization seeds, rollouts, tie-breaking).
        iterations: iterations per decision, ``>= 1``; ``None`` for no iteration limit (then
            ``ms`` is required). Default :data:`DEFAULT_ITERATIONS` when ``ms`` is not given.
        ms: wall-clock budget per decision in milliseconds, ``> 0``, or ``None``. With both
            limits, the search stops at whichever comes first.
        c: the UCB1 exploration constant, ``>= 0``.
        rollout: ``"random"`` or ``"heuristic"`` (:class:`bots.heuristic.HeuristicBot`).
        depth: the rollout cutoff in decisions, ``>= 0``.
        cutoff: how a cut-off rollout is scored: ``"draw"`` (0.5 for every seat) or
            ``"heuristic"`` (the heuristic's ``estimate`` of each seat's chance to win; a draw for
            a game whose heuristic has none, or whose views have no ``players`` to count the
            seats by).
        prior: the weight ``W >= 0`` of the progressive bias toward the heuristic bot's choice at
            the root (``0``: none, and the heuristic is never asked).

    Attributes:
        name: ``"ismcts"`` plus the options given, as :func:`bots.make_bot` reads them back.
        last_iterations: iterations run by the last search (0 when there was nothing to choose).
        last_seconds: wall-clock seconds the last search took.
        iterations_total, seconds_total: sums over all searches (for iterations per second).
        fallbacks: decisions made by :meth:`act` (no sampler): random legal moves.

    Raises:
        ValueError: an option out of range, an unknown rollout or cutoff, or no budget at all.
    """

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        ms: float | None = None,
        c: float = DEFAULT_C,
        rollout: str = "random",
        depth: int = DEFAULT_DEPTH,
        prior: float = DEFAULT_PRIOR,
        cutoff: str = "draw",
    ) -> None:
        given: dict[str, Any] = {}
        if iterations is not None:
            if type(iterations) is not int or iterations < 1:
                raise ValueError(f"iterations must be an int >= 1, not {iterations!r}")
            given["iterations"] = iterations
        if ms is not None:
            if not isinstance(ms, int | float) or isinstance(ms, bool) or not (0 < ms < math.inf):
                raise ValueError(f"ms must be a number > 0, not {ms!r}")
            given["ms"] = ms
        if iterations is None and ms is None:
            iterations = DEFAULT_ITERATIONS
        if not isinstance(c, int | float) or isinstance(c, bool) or not (0 <= c < math.inf):
            raise ValueError(f"c must be a number >= 0, not {c!r}")
        if c != DEFAULT_C:
            given["c"] = c
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        if rollout != "random":
            given["rollout"] = rollout
        if type(depth) is not int or depth < 0:
            raise ValueError(f"depth must be an int >= 0, not {depth!r}")
        if depth != DEFAULT_DEPTH:
            given["depth"] = depth
        if not isinstance(prior, int | float) or isinstance(prior, bool) or not (0 <= prior < math.inf):
            raise ValueError(f"prior must be a number >= 0, not {prior!r}")
        if prior != DEFAULT_PRIOR:
            given["prior"] = prior
        if cutoff not in CUTOFFS:
            raise ValueError(f"cutoff must be one of {', '.join(CUTOFFS)}, not {cutoff!r}")
        if cutoff != "draw":
            given["cutoff"] = cutoff
        self.cutoff = cutoff
        self._seats = 0
        self.prior = float(prior)
        self._heuristic: Any = None
        self._heuristic_seed = seed
        self.iterations = iterations
        self.ms = ms
        self.c = float(c)
        self.rollout = rollout
        self.depth = depth
        self.name = "ismcts" + (":" + ",".join(f"{k}={v}" for k, v in given.items()) if given else "")
        self._random = random.Random(seed)
        self.last_iterations = 0
        self.last_seconds = 0.0
        self.iterations_total = 0
        self.seconds_total = 0.0
        self.fallbacks = 0

    # ------------------------------------------------------------------ making one from a name

    @classmethod
    def from_options(cls, options: Mapping[str, str], seed: int = 0) -> IsmctsBot:
        """An :class:`IsmctsBot` from a bot name's options (``ismcts:iterations=500,c=1.0``).

        Args:
            options: option name -> text: ``iterations`` (int), ``ms`` (number), ``c`` (number),
                ``rollout`` (``random`` or ``heuristic``), ``depth`` (int), ``prior`` (number),
                ``cutoff`` (``draw`` or ``heuristic``).
            seed: the bot's seed.

        Raises:
            ValueError: an unknown option name, a value that does not parse, or one out of range.
        """
        parsers: dict[str, Callable[[str], Any]] = {
            "iterations": int,
            "ms": float,
            "c": float,
            "rollout": str,
            "depth": int,
            "prior": float,
            "cutoff": str,
        }
        kwargs = parse_bot_options(options, parsers)
        return cls(seed=seed, **kwargs)

    # ------------------------------------------------------------------ the Bot protocol

    def act(self, view: Any, legal_actions: list[Any], seat: int) -> Any:
        """Without a sampler there is nothing to search: a random legal move, counted in
        :attr:`fallbacks`. Runners that support search call :meth:`act_with_sampler` instead."""
        self.fallbacks += 1
        return legal_actions[self._random.randrange(len(legal_actions))]

    def act_with_sampler(self, view: Any, legal_actions: list[Any], seat: int, sample: Sampler) -> Any:
        """Search and choose one of ``legal_actions`` for ``seat``.

        Args:
            view: the seat's view, for the heuristic's prior (the determinizations hold everything the
                seat knows).
            legal_actions: the seat's legal actions (never empty).
            seat: the bot's seat, which owes a decision.
            sample: ``sample(seed) -> State``, the live state's ``resample(seat, seed)``.

        Returns:
            One element of ``legal_actions``.

        Raises:
            Whatever ``sample`` or the engine raises (a runner counts it as the bot's fault).
        """
        if len(legal_actions) == 1:
            self.last_iterations = 0
            self.last_seconds = 0.0
            return legal_actions[0]
        started = time.perf_counter()
        deadline = None if self.ms is None else started + self.ms / 1000
        limit = self.iterations
        rng = random.Random(self._random.getrandbits(64))
        policy = self._rollout_policy(rng)
        root = _Node()
        self._seats = len(getattr(view, "players", ())) if self.cutoff == "heuristic" else 0
        if self.prior > 0:
            root.favoured = (seat, _key(self._heuristic_choice(view, legal_actions, seat)))
        done = 0
        while True:
            self._iterate(root, sample(rng.getrandbits(64)), rng, policy)
            done += 1
            if limit is not None and done >= limit:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        self.last_seconds = time.perf_counter() - started
        self.iterations_total += done
        self.seconds_total += self.last_seconds
        return self._best(root, legal_actions, seat)

    # ------------------------------------------------------------------ the search

    def _heuristic_bot(self) -> Any:
        """The built-in heuristic bot, made once with the bot's seed."""
        if self._heuristic is None:
            from bots.heuristic import HeuristicBot

            self._heuristic = HeuristicBot(self._heuristic_seed)
        return self._heuristic

    def _heuristic_choice(self, view: Any, legal_actions: list[Any], seat: int) -> Any:
        """What the built-in heuristic bot plays from ``view``."""
        return self._heuristic_bot().act(view, legal_actions, seat)

    def _cutoff_rewards(self, state: Any) -> list[float] | None:
        """Per-seat rewards of a rollout cut off at ``depth`` decisions: ``None`` (a draw) unless
        ``cutoff=heuristic`` and the game's heuristic has an ``estimate``. Then each seat's chance
        to win ``w`` is estimated from its own view, and a seat's reward is its expected share of
        the seats it beats, ``mean over j != i of w_i / (w_i + w_j)`` (0.5 when both are 0): the
        expected rank reward if each pair's order follows the win chances (Bradley-Terry)."""
        n = self._seats
        if n < 2:
            return None
        bot = self._heuristic_bot()
        chances = []
        for seat in range(n):
            w = bot.estimate(state.view(seat), seat)
            if w is None:
                return None
            chances.append(w)
        rewards = []
        for i, wi in enumerate(chances):
            total = 0.0
            for j, wj in enumerate(chances):
                if j != i:
                    total += wi / (wi + wj) if wi + wj > 0 else 0.5
            rewards.append(total / (n - 1))
        return rewards

    def _rollout_policy(self, rng: random.Random) -> Callable[[Any, int, list[Any]], Any] | None:
        """``None`` for random rollouts, else ``policy(state, seat, legal) -> action``."""
        if self.rollout == "random":
            return None
        from bots.heuristic import HeuristicBot

        bot = HeuristicBot(rng.getrandbits(32))

        def heuristic(state: Any, seat: int, legal: list[Any]) -> Any:
            return bot.act(state.view(seat), legal, seat)

        return heuristic

    def _iterate(
        self, root: _Node, state: Any, rng: random.Random, policy: Callable[[Any, int, list[Any]], Any] | None
    ) -> None:
        """One iteration on the determinization ``state`` (consumed): select and expand, roll out,
        back up."""
        c = self.c
        prior = self.prior
        log = math.log
        sqrt = math.sqrt
        path: list[tuple[_Node, tuple[tuple[int, Hashable], ...]]] = []
        node = root
        while not state.is_over:
            owed = state.to_act
            joint: list[tuple[int, Hashable]] = []
            chosen: list[Any] = []
            edges = node.edges
            favoured = node.favoured
            for seat in owed:  # each owed seat chooses here, blind to the others' choices
                best_edge: tuple[int, Hashable] | None = None
                best_action: Any = None
                best_value = -math.inf
                untried: list[tuple[tuple[int, Hashable], Any]] = []
                for action in state.legal_actions(seat):
                    edge_key = (seat, _key(action))
                    edge = edges.get(edge_key)
                    if edge is None:
                        untried.append((edge_key, action))
                        continue
                    edge.avail += 1
                    if untried:
                        continue  # this seat expands: no need for UCB values
                    value = edge.reward / edge.visits + c * sqrt(log(edge.avail) / edge.visits)
                    if edge_key == favoured:
                        value += prior / (edge.visits + 1)
                    if value > best_value:
                        best_value, best_edge, best_action = value, edge_key, action
                if untried:  # expansion: try a new action (the joint move is then new too)
                    best_edge, best_action = untried[int(rng.random() * len(untried))]
                    for edge_key, action in untried:
                        if edge_key == favoured:
                            best_edge, best_action = edge_key, action
                    edges[best_edge] = _Edge()
                if best_edge is None:
                    raise RuntimeError(f"seat {seat} is to act but has no legal action")
                joint.append(best_edge)
                chosen.append(best_action)
            move = tuple(joint)
            path.append((node, move))
            for seat, action in zip(owed, chosen, strict=True):
                state.apply(seat, action)
            child = node.children.get(move)
            if child is None:  # expansion: one new node per iteration, then roll out
                node.children[move] = _Node()
                break
            node = child
        rewards = self._rollout(state, rng, policy)
        for node, move in path:
            edges = node.edges
            for edge_key in move:
                edge = edges[edge_key]
                edge.visits += 1
                edge.reward += DRAW if rewards is None else rewards[edge_key[0]]

    def _rollout(
        self, state: Any, rng: random.Random, policy: Callable[[Any, int, list[Any]], Any] | None
    ) -> list[float] | None:
        """Play ``state`` to the end (at most :attr:`depth` decisions): the per-seat rewards; when
        the rollout is cut off, :meth:`_cutoff_rewards` (``None``: a draw, :data:`DRAW` for every
        seat)."""
        rand = rng.random
        for _ in range(self.depth):
            if state.is_over:
                return rank_rewards(state.outcome.ranks)
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            if policy is not None and len(legal) > 1:
                action = policy(state, seat, legal)
            else:
                action = legal[int(rand() * len(legal))]
            state.apply(seat, action)
        if state.is_over:
            return rank_rewards(state.outcome.ranks)
        return self._cutoff_rewards(state)

    @staticmethod
    def _best(root: _Node, legal_actions: list[Any], seat: int) -> Any:
        """The most visited of ``seat``'s root edges (ties: the favoured edge, then the higher mean,
        then legal order). The favoured edge wins ties so that a budget too small to visit every
        action more than once plays the heuristic's move, not the luckiest single rollout."""
        best = legal_actions[0]
        best_score: tuple[int, bool, float] = (-1, False, -math.inf)
        for action in legal_actions:
            edge_key = (seat, _key(action))
            edge = root.edges.get(edge_key)
            if edge is None or edge.visits == 0:
                continue
            score = (edge.visits, edge_key == root.favoured, edge.reward / edge.visits)
            if score > best_score:
                best, best_score = action, score
        return best
