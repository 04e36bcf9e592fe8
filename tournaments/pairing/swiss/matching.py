"""Completing a round: maximum matching by augmenting paths (Edmonds' blossom algorithm, unweighted)
over the allowed pairs, then whoever is left, with rematches."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence


class Graph:
    """The pairs allowed this round, over positions 0..n-1: no rematch and, with ``club``, no club mates."""

    __slots__ = ("club", "club_sets", "met")

    def __init__(self, met: list[set[int]], club: list[int | None] | None) -> None:
        self.met = met
        self.club = club
        self.club_sets: dict[int, set[int]] = {}
        if club is not None:
            for i, c in enumerate(club):
                if c is not None:
                    self.club_sets.setdefault(c, set()).add(i)

    def allowed(self, a: int, b: int) -> bool:
        if b in self.met[a]:
            return False
        if self.club is None:
            return True
        ca = self.club[a]
        return ca is None or ca != self.club[b]

    def among(self, v: int, pool: set[int]) -> set[int]:
        """The members of ``pool`` that ``v`` may play (set differences: no Python loop over ``pool``)."""
        out = pool - self.met[v]
        if self.club is not None:
            c = self.club[v]
            if c is not None:
                out -= self.club_sets[c]
        out.discard(v)
        return out


def maximise(n: int, graph: Graph, mate: list[int], roots: Sequence[int]) -> None:
    """Augment ``mate`` (in place) from each unmatched root in turn, over the pairs ``graph`` allows.

    When the search from a root fails, every vertex its alternating tree reached is left out of the
    later searches: no augmenting path can pass through such a (Hungarian) tree again, so the failed
    searches together cost about one sweep of the graph instead of one each.
    """
    dead = [False] * n
    for root in roots:
        if mate[root] == -1 and not dead[root]:
            _augment(n, graph, mate, root, dead)


def _augment(n: int, graph: Graph, mate: list[int], root: int, dead: list[bool]) -> bool:
    """One search for an augmenting path from ``root`` (Edmonds, blossoms contracted through ``base``);
    flips it into ``mate`` and returns True, or marks the tree it grew ``dead`` and returns False.

    Vertices are outer (even: the root, the mates of inner vertices, everything in a blossom), inner
    (odd: reached from an outer vertex, ``parent`` set) or not yet reached. An outer vertex looks, in
    this order, for an unmatched vertex it may play (the path is found), for outer vertices of another
    blossom (an odd cycle: contract it), and for matched vertices not reached yet (grow the tree,
    nearest in the ranking first). Each look is a set difference against the vertex's forbidden
    partners, so the scan of a dense graph runs in C.
    """
    parent = [-1] * n
    base = list(range(n))
    outer = [False] * n
    outer[root] = True
    outer_set = {root}
    free_set = {i for i in range(n) if mate[i] == -1 and not dead[i] and i != root}
    unreached = {i for i in range(n) if mate[i] != -1 and not dead[i]}
    queue = deque([root])

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        ends = graph.among(v, free_set)
        if ends:
            end = min(ends, key=lambda f: (abs(f - v), f))
            parent[end] = v
            _flip(mate, parent, end)
            return True
        for to in graph.among(v, outer_set):
            if base[v] == base[to] or mate[v] == to:
                continue
            b = lca(v, to)
            blossom = [False] * n
            mark(v, b, to, blossom)
            mark(to, b, v, blossom)
            for i in range(n):
                if blossom[base[i]]:
                    base[i] = b
                    if not outer[i]:
                        outer[i] = True
                        outer_set.add(i)
                        queue.append(i)
        for to in sorted(graph.among(v, unreached), key=lambda t: (abs(t - v), t)):
            if to not in unreached:  # reached as the mate of an earlier one in this loop
                continue
            m = mate[to]
            parent[to] = v
            unreached.discard(to)
            unreached.discard(m)
            outer[m] = True
            outer_set.add(m)
            queue.append(m)
    for i in range(n):
        if outer[i] or parent[i] != -1:
            dead[i] = True
    return False


def _flip(mate: list[int], parent: list[int], end: int) -> None:
    """Swap matched and unmatched edges along the augmenting path that ends at ``end``."""
    w = end
    while w != -1:
        pw = parent[w]
        nxt = mate[pw]
        mate[w], mate[pw] = pw, w
        w = nxt


def pair_leftovers(n: int, mate: list[int], club: Sequence[int | None] | None) -> None:
    """Pair whoever is still unmatched, in ranking order: each meeting is a rematch that no pairing
    could avoid; with clubs, a partner from another club first."""
    free = [i for i in range(n) if mate[i] == -1]
    while free:
        a = free.pop(0)
        pick = 0
        if club is not None and club[a] is not None:
            pick = next((j for j, b in enumerate(free) if club[b] != club[a]), 0)
        b = free.pop(pick)
        mate[a], mate[b] = b, a
