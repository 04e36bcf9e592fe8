"""Information-set Monte Carlo tree search for Tute 2's stock phase (single observer, Cowling et al. 2012).

Perfect-information Monte Carlo scores each action on each sampled deal as if the seat would then see
every card, and assumes the other seat's replies are chosen by the playout policy alone. Here one tree
is grown over the seat's information sets instead: each iteration takes a sampled deal (a
determinization, ``DealSampler``), descends the tree choosing among the actions legal in that deal by
UCB (the other seat choosing to minimise the seat's value, so its replies are searched, not assumed),
adds one node, and plays the rest out with the search bot's policy. A node's statistics are shared by
every deal that reaches it, so the search cannot play a different card per deal (no strategy fusion).

Edges are actions only: the draws after a trick are not branched on (a node after a draw stands for
every card the seat may have drawn), the usual simplification of the single-observer tree.
The work is a number of iterations, never a clock: reproducible for a seed and a budget.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import partial

from games.engine.actions import ACTION_OF_CODE, CODE_OF_ACTION
from games.engine.hands import OVER
from games.engine.table import Table

from .budget import LabBudget
from .values import lab_playout_value


class Node:
    """A tree node: the edge into it (visits, the seat's total value over them, and how often its
    action was available when its parent was reached) and its children by action."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


def search(
    deals: list[Table],
    seat: int,
    actions: list[int],
    rng: random.Random,
    iterations: int,
    explore: float,
    *,
    value: Callable[[Table, int, random.Random], float] | None = None,
) -> Node:
    """Grow the tree from ``deals`` (each a table at the decision, the seat to act), taken in turn, for
    ``iterations`` iterations; ``actions``: the root's actions (the seat's legal ones). The root returned
    holds each action's statistics. ``value`` scores a position for the seat (by default a playout)."""
    root = Node()
    allowed = set(actions)
    score = value or lab_playout_value
    for i in range(iterations):
        table = deals[i % len(deals)].clone()
        node = root
        path: list[Node] = []
        expanded = False
        while table.phase != OVER and not expanded:
            legal = table.legal_ids()
            if node is root:
                legal = [a for a in legal if a in allowed]
                if not legal:
                    break
            sign = 1.0 if table.to_act == seat else -1.0
            children = node.children
            untried = []
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if untried:
                action = untried[0] if len(untried) == 1 else rng.choice(untried)
                child = children[action] = Node()
                child.avail = 1
                expanded = True
            else:
                action, child = _ucb(children, legal, sign, explore)
            table.step(action)
            path.append(child)
            node = child
        result = score(table, seat, rng)
        for child in path:
            child.visits += 1
            child.total += result
    return root


def _ucb(children: dict[int, Node], legal: list[int], sign: float, explore: float) -> tuple[int, Node]:
    best_action, best_node, best = legal[0], children[legal[0]], -math.inf
    for a in legal:
        child = children[a]
        v = sign * child.total / child.visits + explore * math.sqrt(math.log(child.avail) / child.visits)
        if v > best:
            best_action, best_node, best = a, child, v
    return best_action, best_node


def choose(root: Node, actions: list[int], prior_action: int | None, prior: float) -> int | None:
    """The root's pick: the best mean (plus ``prior`` points for the rule bot's choice) among the actions
    searched at least a quarter as often as the most searched one; None when none was searched."""
    searched = [a for a in actions if a in root.children and root.children[a].visits]
    if not searched:
        return None
    most = max(root.children[a].visits for a in searched)
    kept = [a for a in searched if 4 * root.children[a].visits >= most]

    def key(a: int) -> tuple[float, int]:
        return (root.children[a].mean() + (prior if a == prior_action else 0.0), -a)

    return max(kept, key=key)


def decide(
    deals: list[Table],
    legal: tuple[str, ...],
    seat: int,
    rng: random.Random,
    budget: LabBudget,
    guide: Callable[[], int] | None,
) -> str:
    """The search bot's Tute 2 stock-phase decision by this tree (``LabBudget.method == "ismcts"``)."""
    actions = [ACTION_OF_CODE[code] for code in legal]
    value = partial(lab_playout_value, horizon=budget.horizon, weights=budget.weights)
    root = search(deals, seat, actions, rng, budget.iterations, budget.explore, value=value)
    prior_action = guide() if guide is not None else None
    choice = choose(root, actions, prior_action, budget.prior)
    return legal[0] if choice is None else CODE_OF_ACTION[choice]
