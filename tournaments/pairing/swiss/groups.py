"""Pairing one score group: a depth-first search over the Dutch transpositions within a budget, a
greedy pass past it."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping, Sequence

from ..common import Entrant

#: Candidate pairs a score group's search may look at, per entrant of the group (plus a floor), before
#: it falls back to a greedy pass.
BUDGET_PER_ENTRANT = 8


BUDGET_FLOOR = 2000


_LEAVE = -1


_OUT_OF_BUDGET: tuple[list[tuple[int, int]], list[int]] = ([], [])


Compatible = Callable[[int, int], bool]


def score_groups(order: Sequence[Entrant], scores: Mapping[Entrant, float]) -> list[list[int]]:
    groups: list[list[int]] = []
    last: float | None = None
    for i, e in enumerate(order):
        s = scores.get(e, 0.0)
        if groups and s == last:
            groups[-1].append(i)
        else:
            groups.append([i])
            last = s
    return groups


def pair_group(members: list[int], allowed: Compatible, mate: list[int]) -> list[int]:
    """Pair a score group in place (``mate``); return the members left to float down.

    The search first asks for everyone paired (but one, in an odd group); when it proves that
    impossible, it lets two more float, then four; when it runs out of budget, a greedy pass decides.
    """
    m = len(members)
    budget = BUDGET_PER_ENTRANT * m + BUDGET_FLOOR
    for extra in (0, 2, 4):
        left_max = m % 2 + extra
        if left_max > m:
            break
        found = _search(members, allowed, left_max, budget)
        if found is _OUT_OF_BUDGET:
            break
        if found is not None:
            pairs, left = found
            for a, b in pairs:
                mate[a], mate[b] = b, a
            return left
    pairs, left = _greedy(members, allowed)
    for a, b in pairs:
        mate[a], mate[b] = b, a
    return left


class _Frame:
    __slots__ = ("choice", "last", "p", "phase")

    def __init__(self, p: int) -> None:
        self.p = p
        self.phase = 0  # 0: the bottom half, ascending; 1: the top half below p, descending; 2: leave p
        self.last = -1
        self.choice: int | None = None


def _search(
    members: list[int], allowed: Compatible, left_max: int, budget: int
) -> tuple[list[tuple[int, int]], list[int]] | None:
    """Depth-first over the Dutch transpositions for a pairing of ``members`` leaving at most
    ``left_max`` unpaired; None when there is none, ``_OUT_OF_BUDGET`` when the budget runs out.

    Works on positions in ``members`` (0 = best placed); ``free`` is kept sorted so that the next
    candidate is a bisect away."""
    m = len(members)
    half = m // 2
    free = list(range(m))
    left: list[int] = []

    looked = 0

    def ok(p: int, q: int) -> bool:
        nonlocal looked
        looked += 1
        return allowed(members[p], members[q])

    def candidate(f: _Frame) -> int | None:
        p = f.p
        if f.phase == 0:
            i = bisect.bisect_left(free, max(half, p + 1) if f.last < 0 else f.last + 1)
            while i < len(free):
                q = free[i]
                if ok(p, q):
                    f.last = q
                    return q
                i += 1
            f.phase, f.last = 1, -1
        if f.phase == 1:
            i = bisect.bisect_right(free, half - 1 if f.last < 0 else f.last - 1) - 1
            while i >= 0 and free[i] > p:
                q = free[i]
                if ok(p, q):
                    f.last = q
                    return q
                i -= 1
            f.phase = 2
        if f.phase == 2:
            f.phase = 3
            if len(left) < left_max:
                return _LEAVE
        return None

    def undo(f: _Frame) -> None:
        if f.choice is None:
            return
        if f.choice == _LEAVE:
            left.pop()
        else:
            bisect.insort(free, f.choice)
        bisect.insort(free, f.p)
        f.choice = None

    stack: list[_Frame] = []
    while free:
        stack.append(_Frame(free[0]))
        while stack:
            f = stack[-1]
            undo(f)
            if looked > budget:
                return _OUT_OF_BUDGET
            c = candidate(f)
            if c is None:
                stack.pop()
                continue
            free.remove(f.p)
            if c == _LEAVE:
                left.append(f.p)
            else:
                free.remove(c)
            f.choice = c
            break
        else:
            return None
    pairs = [(members[f.p], members[f.choice]) for f in stack if f.choice is not None and f.choice != _LEAVE]
    return pairs, [members[p] for p in left]


def _greedy(members: list[int], allowed: Compatible) -> tuple[list[tuple[int, int]], list[int]]:
    """One pass, no backtracking: each in turn takes its first allowed candidate, or floats."""
    m = len(members)
    half = m // 2
    taken = [False] * m
    pairs: list[tuple[int, int]] = []
    left: list[int] = []
    for p in range(m):
        if taken[p]:
            continue
        taken[p] = True
        order = [*range(max(half, p + 1), m), *range(half - 1, p, -1)]
        q = next((q for q in order if not taken[q] and allowed(members[p], members[q])), None)
        if q is None:
            left.append(members[p])
        else:
            taken[q] = True
            pairs.append((members[p], members[q]))
    return pairs, left
