"""The exact Tute solver, before and after, run by hand from the project root::

    python bench/solver.py [--positions 40] [--cards 16,20,24] [--seed solver] [--flags]

Random positions (random legal play from a fresh deal of seed ``"{S}:{game}:{i}"`` down to the number of
cards left in the hands and on the table; Tute 2 once its stock is drawn, as the search solves it) are
solved by ``PlainSolver`` (the straightforward alpha-beta, the solver before) and by ``Solver``; printed
per game and card count are the median and 90th-percentile solve time of each (``value``: the exact
value of the position, as the search asks it), the median positions searched, the speed-up of the
medians, and whether every value (and every ``best`` action) agrees. ``--flags``: random rules flags
(those that change the trick duties and the cantes) for each position, instead of the defaults.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
if str(PROJECT_DIR) not in sys.path:
    sys.path.insert(0, str(PROJECT_DIR))

from bot_legality import random_rules  # noqa: E402

from games.bots.solver import PlainSolver, Solver  # noqa: E402
from games.engine import Rules, State  # noqa: E402
from games.engine.hands import OVER  # noqa: E402
from games.engine.table import Table  # noqa: E402


def position(game: str, seed: str, cards: int, flags: bool) -> Table | None:
    """A position of ``game`` with ``cards`` cards left (None when the hand ended first)."""
    rng = random.Random(seed)
    rules = random_rules(rng, game) if flags else Rules.build(game)
    table = State.new(rules, seed=seed).table.clone()
    while table.phase != OVER and (
        sum(h.bit_count() for h in table.hands) + len(table.trick) > cards
        or table.faceup >= 0
        or table.stock_size
    ):
        table.step(rng.choice(table.legal_ids()))
    return None if table.phase == OVER else table


def solve(cls: type[Solver] | type[PlainSolver], table: Table) -> tuple[float | None, int | None, float, int]:
    started = time.perf_counter()
    solver = cls(table, table.to_act, 10**9)
    value = solver.value(table)
    elapsed = time.perf_counter() - started
    nodes = solver.nodes
    best = cls(table, table.to_act, 10**9).best(table, table.legal_ids())
    return value, best, elapsed, nodes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The exact solver, before and after.")
    parser.add_argument("--positions", type=int, default=40, help="positions per game and card count")
    parser.add_argument("--cards", default="16,20,24", help="Tute 4 card counts (Tute 2: 12, its arrastre)")
    parser.add_argument("--games", default="tute4,tute2")
    parser.add_argument("--seed", default="solver")
    parser.add_argument("--flags", action="store_true", help="random rules flags for each position")
    args = parser.parse_args(argv)
    disagreements = 0
    for game in args.games.split(","):
        counts = [int(c) for c in args.cards.split(",")] if game == "tute4" else [12]
        for cards in counts:
            before: list[float] = []
            after: list[float] = []
            nodes_before: list[int] = []
            nodes_after: list[int] = []
            for i in range(args.positions):
                table = position(game, f"{args.seed}:{game}:{i}", cards, args.flags)
                if table is None:
                    continue
                old_value, old_best, old_time, old_nodes = solve(PlainSolver, table)
                new_value, new_best, new_time, new_nodes = solve(Solver, table)
                if (old_value, old_best) != (new_value, new_best):
                    disagreements += 1
                    print(f"DISAGREE {game} {cards} {i}: {old_value} {old_best} / {new_value} {new_best}")
                before.append(old_time)
                after.append(new_time)
                nodes_before.append(old_nodes)
                nodes_after.append(new_nodes)
            if not before:
                continue

            def p90(values: list[float]) -> float:
                return sorted(values)[int(0.9 * (len(values) - 1))]

            print(
                f"{game} {cards} cards, {len(before)} positions: before median {1000 * statistics.median(before):.1f} ms"
                f" (p90 {1000 * p90(before):.1f}, {statistics.median(nodes_before):.0f} nodes), after "
                f"{1000 * statistics.median(after):.1f} ms (p90 {1000 * p90(after):.1f}, "
                f"{statistics.median(nodes_after):.0f} nodes): x{statistics.median(before) / statistics.median(after):.1f}",
                flush=True,
            )
    print(f"values and best actions agree: {'yes' if not disagreements else f'NO ({disagreements})'}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
