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

The package: ``history`` (the rounds played, read once), ``groups`` (a score group's search),
``matching`` (the augmenting paths and the leftovers); ``swiss_round`` here puts them together.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..common import Entrant, Pairing, Round, check_entrants
from .groups import Compatible, pair_group, score_groups
from .history import History
from .matching import Graph, maximise, pair_leftovers


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
    bye = _bye(order, past)
    if bye is not None:
        order.remove(bye)

    n = len(order)
    met, club = _constraints(order, past, clubs, avoid_same_club)
    strict = Graph(met, club)
    mate = [-1] * n
    _pair_score_groups(score_groups(order, scores), strict.allowed, mate)
    if any(m == -1 for m in mate):
        _complete(n, strict, Graph(met, None) if club is not None else None, mate, club)

    pairings: list[Pairing] = []
    for a in range(n):
        b = mate[a]
        if a < b:
            pairings.append(_seat(order[a], order[b], len(pairings) + 1, past))
    return Round(number if number is not None else past.rounds + 1, tuple(pairings), bye)


def _constraints(
    order: Sequence[Entrant],
    past: History,
    clubs: Mapping[Entrant, int | None] | None,
    avoid_same_club: bool,
) -> tuple[list[set[int]], list[int | None] | None]:
    """Over positions in ``order``: whom each has met, and each one's club when clubs are to be kept
    apart (else None)."""
    index = {e: i for i, e in enumerate(order)}
    met: list[set[int]] = [
        {index[o] for o in past.opponents.get(e, frozenset()) if o in index} for e in order
    ]
    club = [clubs.get(e) if clubs is not None else None for e in order]
    # With everyone in one club there is nothing to avoid (and nothing to search for).
    use_clubs = avoid_same_club and len(set(club)) > 1 and any(c is not None for c in club)
    return met, club if use_clubs else None


def _bye(order: Sequence[Entrant], past: History) -> Entrant | None:
    """With an odd number, the lowest-ranked of those with the fewest byes so far; else none."""
    if not len(order) % 2:
        return None
    fewest = min(past.byes.get(e, 0) for e in order)
    return next(e for e in reversed(order) if past.byes.get(e, 0) == fewest)


def _pair_score_groups(groups: list[list[int]], allowed: Compatible, mate: list[int]) -> None:
    """Pair the score groups top-down: the floaters from above first meet the best-placed of the group
    they may play, then the group's residents are paired among themselves; who is left floats down."""
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
        left = pair_group(residents, allowed, mate)
        floaters = sorted(still + left)


def _complete(
    n: int, strict: Graph, lax: Graph | None, mate: list[int], club: Sequence[int | None] | None
) -> None:
    """Pair whoever the score groups left: without rematches (nor, with ``lax``, club mates) where
    augmenting paths find a way, then (with ``lax``) allowing club mates, then with rematches."""
    maximise(n, strict, mate, [i for i in range(n) if mate[i] == -1])
    if lax is not None:
        maximise(n, lax, mate, [i for i in range(n) if mate[i] == -1])
    pair_leftovers(n, mate, club)


def _seat(better: Entrant, worse: Entrant, board: int, past: History) -> Pairing:
    def balance(e: Entrant) -> int:
        return past.firsts.get(e, 0) - past.seconds.get(e, 0)

    bb, bw = balance(better), balance(worse)
    if bb < bw or (bb == bw and board % 2 == 1):
        return Pairing(better, worse)
    return Pairing(worse, better)


def rematches(round_: Round, history: History) -> tuple[Pairing, ...]:
    """The pairings of ``round_`` between entrants who have met before."""
    return tuple(p for p in round_.pairings if p.second in history.opponents.get(p.first, frozenset()))


__all__ = ["History", "rematches", "swiss_round"]
