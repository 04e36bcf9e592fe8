"""How long a game's review takes on one core (issue 32.2's targets: Tute 2 <= 60 s, Tute 4 <= 120 s).

Run by hand from the project root::

    python bench/review.py [--games 20] [--game tute2,tute4,pocha] [--noise 60]

Game g of each kind (seed ``review:{game}:{g}``, dealer 0) is played by the ``rule`` house bot at every
seat, then seat g % seats is reviewed decision by decision exactly as the worker does it
(``games.bots.review.Reviewer`` with its default budgets, from the seat's view at each decision). Printed
per kind: the decisions reviewed, seconds per game p50 / p90 / max, seconds per decision, the share of
decisions solved exactly, and the points lost per decision (the rule bot's, as the review sees it).
Pocha is one whole game of many hands (no target; shown for what a long review costs). ``--noise N``:
the first N decisions of each kind not solved exactly are reviewed again with another random stream
(``Reviewer(salt=...)``): how far apart the two costs are (mean and p90 of the difference), and how often
the two name a different best move whose values differ by more than 1 point.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
if str(PROJECT_DIR) not in sys.path:
    sys.path.insert(0, str(PROJECT_DIR))

from games.bots import get_bot  # noqa: E402
from games.bots.arena import play_game  # noqa: E402
from games.bots.review import Reviewer  # noqa: E402
from games.engine import Rules, SeatView, State  # noqa: E402

TARGETS = {"tute2": 60.0, "tute4": 120.0}


Decision = tuple[SeatView, tuple[str, ...], str]


def review_game(
    reviewer: Reviewer, rules: Rules, seed: str, seat: int, sampled: list[Decision]
) -> tuple[float, int, int, float]:
    """Seconds, decisions, exact decisions and points lost reviewing ``seat`` of the rule bots' game;
    the decisions not solved exactly are added to ``sampled``."""
    final = play_game(rules, [get_bot("rule")] * rules.players, seed=seed, rng_seed=seed)
    state = State.new(rules, seed=seed)
    start = time.process_time()
    decisions = exact = 0
    lost = 0.0
    for code in final.history():
        legal = state.legal_actions()
        if state.current_player() == seat and len(legal) > 1:
            review = reviewer.review(state.view(seat), legal, code)
            if not review.exact:
                sampled.append((state.view(seat), legal, code))
            decisions += 1
            exact += review.exact
            lost += review.cost
        state = state.apply(code)
    return time.process_time() - start, decisions, exact, lost


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20, help="games of each kind (Pocha: a quarter of them)")
    parser.add_argument("--game", default="tute2,tute4,pocha")
    parser.add_argument("--noise", type=int, default=0, help="decisions of each kind reviewed twice")
    args = parser.parse_args()
    reviewer, second = Reviewer(), Reviewer(salt=":again")
    for game in args.game.split(","):
        rules = Rules.build(game, 4) if game == "pocha" else Rules.build(game)
        count = max(1, args.games // 4) if game == "pocha" else args.games
        times: list[float] = []
        decisions = exact = 0
        lost = 0.0
        sampled: list[Decision] = []
        for g in range(count):
            seconds, d, e, points = review_game(
                reviewer, rules, f"review:{game}:{g}", g % rules.players, sampled
            )
            times.append(seconds)
            decisions, exact, lost = decisions + d, exact + e, lost + points
        times.sort()
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(
            f"{game}: {count} games, {decisions} decisions; seconds a game p50 {statistics.median(times):.1f}, "
            f"p90 {p90:.1f}, max {times[-1]:.1f}; {sum(times) / max(decisions, 1):.2f} s a decision; "
            f"exact {exact / max(decisions, 1):.0%}; rule's points lost a decision {lost / max(decisions, 1):.2f}"
        )
        if args.noise and sampled:
            gaps, other_best = [], 0
            for view, legal, played in sampled[: args.noise]:
                a, b = reviewer.review(view, legal, played), second.review(view, legal, played)
                gaps.append(abs(a.cost - b.cost))
                other_best += a.best != b.best and abs(a.values[a.best] - a.values[b.best]) > 1.0
            gaps.sort()
            print(
                f"  noise on {len(gaps)} sampled decisions: cost difference mean {statistics.mean(gaps):.2f}, "
                f"p90 {gaps[int(0.9 * (len(gaps) - 1))]:.2f} points; another best (by > 1 point) {other_best / len(gaps):.0%}"
            )
        if game in TARGETS:
            met = "met" if times[-1] <= TARGETS[game] else "MISSED"
            print(
                f"# target {game} review <= {TARGETS[game]:.0f} s of one core, every game: {met} (max {times[-1]:.1f} s)"
            )


if __name__ == "__main__":
    main()
