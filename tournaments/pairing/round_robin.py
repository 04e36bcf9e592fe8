"""Round robin by the circle method: single (everyone meets once) or double (twice, seats swapped).

With an odd number of entrants a phantom joins and whoever draws it has the bye that round. The first
entrant stays fixed and the others turn one place a round (Berger tables): n - 1 rounds for an even n,
n rounds for an odd one; a double round robin repeats them with the seats swapped.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from .common import Entrant, Pairing, Round, check_entrants


def round_robin(entrants: Iterable[Entrant], *, double: bool = False) -> tuple[Round, ...]:
    """Every round of a round robin for ``entrants`` (seed order: seed 1 is the fixed point)."""
    order = check_entrants(entrants, minimum=2, what="a round robin")
    circle: list[Entrant | None] = [*order, None] if len(order) % 2 else list(order)
    m = len(circle)
    rounds: list[Round] = []
    for r in range(m - 1):
        pairings: list[Pairing] = []
        bye: Entrant | None = None
        for i in range(m // 2):
            a, b = circle[i], circle[m - 1 - i]
            # The fixed entrant alternates seats round by round; the others take the first seat from
            # the top half of the circle, which moves them across it as it turns.
            if i == 0 and r % 2 == 1:
                a, b = b, a
            if a is None or b is None:
                bye = b if a is None else a
                continue
            pairings.append(Pairing(a, b))
        rounds.append(Round(r + 1, tuple(pairings), bye))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    if double:
        legs = len(rounds)
        rounds += [
            Round(legs + r.number, tuple(p.swapped() for p in r.pairings), r.bye) for r in list(rounds)
        ]
    return tuple(rounds)


def walkovers(
    round_: Round, withdrawn: Collection[Entrant]
) -> tuple[tuple[Pairing, ...], tuple[Pairing, ...]]:
    """Split a round's pairings into those to play and those decided by a withdrawal (a walkover).

    A walkover's winner is the entrant still in; when both have withdrawn neither scores (the pairing is
    still listed as a walkover, so a service records it once).
    """
    play = tuple(p for p in round_.pairings if p.first not in withdrawn and p.second not in withdrawn)
    forfeited = tuple(p for p in round_.pairings if p.first in withdrawn or p.second in withdrawn)
    return play, forfeited
