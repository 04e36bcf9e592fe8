"""Swiss pairing: one round at a time, from the standings and the rounds played so far.

The rules, in priority order:

1. Everyone active is paired; with an odd number, one bye, to the lowest-ranked entrant who has had
   none (when all have had one, the lowest-ranked of those with the fewest).
2. No rematch, while the rest can be paired without one (given the bye of rule 1).
3. With ``avoid_same_club``, no two entrants of one club, while that is possible without a rematch.
4. Within those: entrants meet others of their score, top half against bottom half of each score
   group (1 v n/2+1, 2 v n/2+2 ...), entrants that cannot be paired in their group floating down to
   the next one, where they meet its best-placed entrants.

How: score groups are paired top-down, each by a depth-first search over the Dutch transpositions
(the top half's natural partner first, then the rest of the bottom half, then exchanges within the top
half, then leaving one more entrant to float), bounded by a budget of candidate pairs looked at per
group so that it never blows up; past the budget, a greedy pass. Whoever is left unpaired at the
bottom is then matched by augmenting paths (Edmonds' blossom algorithm, unweighted) over the graph of
allowed pairings, starting from the pairs already made: a perfect matching without rematches (or club
pairings) is found whenever one exists, changing only the score-group pairs that the shortest
augmenting paths go through. Only when none exists are the remaining entrants paired with rematches,
as few as possible (the matching is maximum). When some same-club games cannot be avoided, their
number is kept low but not proven minimal.

Seats: the entrant who has had the first seat less often takes it; on equal counts, the higher-ranked
entrant on odd boards and the lower-ranked on even ones.
"""

from __future__ import annotations

import bisect
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .common import Entrant, Pairing, Round, check_entrants

#: Candidate pairs a score group's search may look at, per entrant of the group (plus a floor), before
#: it falls back to a greedy pass.
BUDGET_PER_ENTRANT = 8
BUDGET_FLOOR = 2000

_LEAVE = -1
_OUT_OF_BUDGET: tuple[list[tuple[int, int]], list[int]] = ([], [])

Compatible = Callable[[int, int], bool]


@dataclass(frozen=True, slots=True)
class History:
    """What a Swiss pairing needs to know of the rounds played."""

    opponents: Mapping[Entrant, frozenset[Entrant]]
    byes: Mapping[Entrant, int]
    firsts: Mapping[Entrant, int]  # games in the first seat
    seconds: Mapping[Entrant, int]
    rounds: int

    @classmethod
    def of(cls, rounds: Iterable[Round]) -> History:
        opponents: dict[Entrant, set[Entrant]] = defaultdict(set)
        byes: dict[Entrant, int] = defaultdict(int)
        firsts: dict[Entrant, int] = defaultdict(int)
        seconds: dict[Entrant, int] = defaultdict(int)
        count = 0
        for r in rounds:
            count += 1
            for p in r.pairings:
                opponents[p.first].add(p.second)
                opponents[p.second].add(p.first)
                firsts[p.first] += 1
                seconds[p.second] += 1
            if r.bye is not None:
                byes[r.bye] += 1
        return cls(
            opponents={e: frozenset(o) for e, o in opponents.items()},
            byes=dict(byes),
            firsts=dict(firsts),
            seconds=dict(seconds),
            rounds=count,
        )


class _Graph:
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


def swiss_round(
    ranking: Sequence[Entrant],
    scores: Mapping[Entrant, float],
    history: History | Iterable[Round] = (),
    *,
    number: int | None = None,
    clubs: Mapping[Entrant, int | None] | None = None,
    avoid_same_club: bool = False,
) -> Round:
    """The next round for the active entrants in ``ranking`` (standings order, best first).

    ``scores`` holds each entrant's points so far (missing: 0); ``history`` the rounds played (or a
    ``History`` made from them); ``number`` defaults to the rounds played plus one. ``clubs`` maps an
    entrant to its club (None or missing: no club).
    """
    active = check_entrants(ranking, minimum=2, what="a Swiss round")
    past = history if isinstance(history, History) else History.of(history)
    place = {e: i for i, e in enumerate(active)}
    order = sorted(active, key=lambda e: (-scores.get(e, 0.0), place[e]))

    bye: Entrant | None = None
    if len(order) % 2:
        fewest = min(past.byes.get(e, 0) for e in order)
        bye = next(e for e in reversed(order) if past.byes.get(e, 0) == fewest)
        order.remove(bye)

    n = len(order)
    index = {e: i for i, e in enumerate(order)}
    met: list[set[int]] = [
        {index[o] for o in past.opponents.get(e, frozenset()) if o in index} for e in order
    ]
    club = [clubs.get(e) if clubs is not None else None for e in order]
    # With everyone in one club there is nothing to avoid (and nothing to search for).
    use_clubs = avoid_same_club and len(set(club)) > 1 and any(c is not None for c in club)

    strict = _Graph(met, club if use_clubs else None)
    allowed = strict.allowed
    mate = [-1] * n
    groups = _score_groups(order, scores)
    floaters: list[int] = []
    for group in groups:
        still: list[int] = []
        for f in floaters:
            partner = next((r for r in group if mate[r] == -1 and allowed(f, r)), -1)
            if partner == -1:
                still.append(f)
            else:
                mate[f], mate[partner] = partner, f
        residents = [r for r in group if mate[r] == -1]
        left = _pair_group(residents, allowed, mate)
        floaters = sorted(still + left)

    free = [i for i in range(n) if mate[i] == -1]
    if free:
        _maximise(n, strict, mate, free)
        if use_clubs:
            _maximise(n, _Graph(met, None), mate, [i for i in range(n) if mate[i] == -1])
        _pair_leftovers(n, mate, club if use_clubs else None)

    pairings: list[Pairing] = []
    for a in range(n):
        b = mate[a]
        if a < b:
            pairings.append(_seat(order[a], order[b], len(pairings) + 1, past))
    return Round(number if number is not None else past.rounds + 1, tuple(pairings), bye)


def _score_groups(order: Sequence[Entrant], scores: Mapping[Entrant, float]) -> list[list[int]]:
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


def _seat(better: Entrant, worse: Entrant, board: int, past: History) -> Pairing:
    def balance(e: Entrant) -> int:
        return past.firsts.get(e, 0) - past.seconds.get(e, 0)

    bb, bw = balance(better), balance(worse)
    if bb < bw or (bb == bw and board % 2 == 1):
        return Pairing(better, worse)
    return Pairing(worse, better)


def _pair_group(members: list[int], allowed: Compatible, mate: list[int]) -> list[int]:
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


def _maximise(n: int, graph: _Graph, mate: list[int], roots: Sequence[int]) -> None:
    """Augment ``mate`` (in place) from each unmatched root in turn, over the pairs ``graph`` allows.

    When the search from a root fails, every vertex its alternating tree reached is left out of the
    later searches: no augmenting path can pass through such a (Hungarian) tree again, so the failed
    searches together cost about one sweep of the graph instead of one each.
    """
    dead = [False] * n
    for root in roots:
        if mate[root] == -1 and not dead[root]:
            _augment(n, graph, mate, root, dead)


def _augment(n: int, graph: _Graph, mate: list[int], root: int, dead: list[bool]) -> bool:
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


def _pair_leftovers(n: int, mate: list[int], club: Sequence[int | None] | None) -> None:
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


def rematches(round_: Round, history: History) -> tuple[Pairing, ...]:
    """The pairings of ``round_`` between entrants who have met before."""
    return tuple(p for p in round_.pairings if p.second in history.opponents.get(p.first, frozenset()))
