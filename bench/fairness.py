"""Fair deals and duplicate play, measured (issue 20). Run by hand from the project root::

    python bench/fairness.py [--seeds 10000] [--deals 2000] [--game tute2]

1. **Deals.** ``--seeds`` deal seeds made as docs/RULES.md 11 says (a fresh 32-byte server seed from
   ``secrets`` and two client seeds each), each shuffled by section 7: a chi-square test of independence
   of card and position over the 40 x 40 table of counts (each card should sit at each position
   seeds/40 times), its p-value, and the worst single cell. Then every deal is verified as the verify
   command does (commitment, seed, deck): the share recomputed.
2. **Variance.** ``--deals`` deals of ``rule`` against ``random``: the result of a game for ``rule`` is
   its side's score minus the other's. Single play: one game a deal (``rule`` at seat 0 or 1,
   alternating). Duplicate: each deal played twice with the seats swapped, the result per game the
   board's total divided by 2. The standard deviation of the result per game in both, and their ratio.

Prints figures; asserts nothing. docs/PERFORMANCE.md ("Fair deals and duplicate play") keeps them.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import secrets
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.bots import get_bot
from games.bots.arena import play_game
from games.engine import Rules
from games.engine.deal import canonical_deck, seeded_decks
from games.engine.fair import commitment, deal_seed


def chi_square_sf(x: float, k: int) -> float:
    """P(X >= x) for a chi-square of k degrees of freedom (Wilson-Hilferty normal approximation, good
    for large k)."""
    z = ((x / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


def deals(seeds: int) -> None:
    rules = Rules.build("tute2")
    base = canonical_deck(rules)
    size = len(base)
    index = {card: i for i, card in enumerate(base)}
    counts = [[0] * size for _ in range(size)]
    verified = 0
    started = time.perf_counter()
    for number in range(seeds):
        server_seed = secrets.token_hex(32)
        client_seeds = [f"alice-{number}", ""]
        seed = deal_seed(server_seed, client_seeds)
        [deck] = seeded_decks(rules, seed)
        for position, card in enumerate(deck):
            counts[index[card]][position] += 1
        # what verify recomputes: the commitment, the seed from its parts, the deck from the seed
        committed = commitment(server_seed)
        if commitment(server_seed) == committed and deal_seed(server_seed, client_seeds) == seed:
            verified += seeded_decks(rules, seed)[0] == deck
    elapsed = time.perf_counter() - started
    expected = seeds / size
    chi2 = sum((c - expected) ** 2 / expected for row in counts for c in row)
    dof = (size - 1) * (size - 1)
    worst = max(abs(c - expected) / math.sqrt(expected) for row in counts for c in row)
    print(f"# deals: {seeds} seeds (RULES.md 11 from secrets), tute2 deck of {size}, {elapsed:.1f} s")
    print(
        f"# chi-square of card x position: {chi2:.1f} on {dof} degrees of freedom, p = {chi_square_sf(chi2, dof):.3f}"
    )
    print(f"# worst cell: {worst:.2f} standard deviations from {expected:.1f} (of {size * size} cells)")
    print(f"# verification recomputed {verified} of {seeds} deals ({100 * verified / seeds:.1f} %)")


def variance(game: str, deals_count: int) -> None:
    rules = Rules.build(game)
    rule, rnd = get_bot("rule"), get_bot("random")
    n = rules.players
    single: list[float] = []
    duplicate: list[float] = []
    started = time.perf_counter()
    for deal in range(deals_count):
        seed = deal_seed(secrets.token_hex(32), [""] * n)
        margins = []
        for side in (0, 1):
            bots = [rule if seat % 2 == side else rnd for seat in range(n)]
            state = play_game(rules, bots, seed=seed, dealer=deal % n, rng_seed=f"{seed}:{side}")
            result = state.result()
            assert result is not None
            scores = result.scores
            margins.append(scores[side] - scores[1 - side])
        single.append(margins[deal % 2])
        duplicate.append(sum(margins) / 2)
    elapsed = time.perf_counter() - started
    sd_single, sd_duplicate = statistics.pstdev(single), statistics.pstdev(duplicate)
    print(f"# variance: {deals_count} deals of {game}, rule against random, {elapsed:.1f} s")
    print(
        f"# single play: mean result {statistics.mean(single):+.1f}, standard deviation {sd_single:.1f} a game"
    )
    print(
        f"# duplicate: mean result {statistics.mean(duplicate):+.1f}, standard deviation {sd_duplicate:.1f} a game"
        f" (the board's total / 2)"
    )
    print(f"# duplicate / single: {sd_duplicate / sd_single:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10_000)
    parser.add_argument("--deals", type=int, default=2_000)
    parser.add_argument("--game", default="tute2", choices=("tute2", "tute4"))
    args = parser.parse_args()
    print(f"# Python {platform.python_version()} on {platform.platform()}, {os.cpu_count()} CPUs")
    deals(args.seeds)
    variance(args.game, args.deals)


if __name__ == "__main__":
    main()
