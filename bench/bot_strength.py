"""Bot strength: the rule bot against the random bot, run by hand from the project root::

    python bench/bot_strength.py [--deals 1000] [--seed S] [--pocha-games N]

Tute 2 and Tute 4: each deal (dealt from the seed ``"{S}:{game}:{deal}"``, the dealer alternating across
deals) is played twice, the rule bot at seat 0 (seats 0+2 in Tute 4), then at seat 1 (seats 1+3), and
the share of games the rule side wins is printed. Pocha: whole four-player games of the spanish
sequence, the rule bot against three random bots, its seat moving round the table game by game;
printed are the average final total of the rule seat and of a random seat, and how often the rule
bot finished first. Games go through the public ``State`` API (``games.bots.arena``), each bot seeing
only its seat's view. The figures are deterministic for a seed; no timing is asserted, the elapsed
seconds are printed for information.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

# Run as a script (`python bench/bot_strength.py`), sys.path[0] is bench/: the project root holds `games`.
PROJECT_DIR = Path(__file__).resolve().parent.parent
if str(PROJECT_DIR) not in sys.path:
    sys.path.insert(0, str(PROJECT_DIR))

from games.bots import get_bot  # noqa: E402
from games.bots.arena import duel, pocha_table  # noqa: E402


def margin(share: float, count: int) -> float:
    """Half the width of a 95% normal interval around a share of ``count`` games."""
    return 1.96 * math.sqrt(share * (1.0 - share) / count) if count else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Win rates of the rule bot against the random bot.")
    parser.add_argument("--deals", type=int, default=1000, help="Tute deals per game, each played twice")
    parser.add_argument("--seed", default="bench", help="seed text of the deals")
    parser.add_argument(
        "--pocha-games", type=int, default=None, help="whole Pocha games (default: deals / 4)"
    )
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    pocha_games = max(1, args.deals // 4) if args.pocha_games is None else args.pocha_games
    rule, rnd = get_bot("rule"), get_bot("random")

    for game in ("tute2", "tute4"):
        started = time.perf_counter()
        result = duel(game, rule, rnd, deals=args.deals, seed=args.seed)
        elapsed = time.perf_counter() - started
        print(
            f"{game} rule vs random: {result.wins}/{result.games} games won ({100 * result.share:.1f}%) "
            f"over {result.deals} deals, seats swapped "
            f"[95% +/- {100 * margin(result.share, result.games):.1f} points; {elapsed:.1f} s]",
            flush=True,
        )

    started = time.perf_counter()
    table = pocha_table(rule, rnd, games=pocha_games, seed=args.seed, players=4)
    elapsed = time.perf_counter() - started
    print(
        f"pocha rule vs 3 random: average total {table.bot_average:.1f} for the rule seat, "
        f"{table.others_average:.1f} per random seat; rule finished first in {table.first}/{table.games} "
        f"games ({100 * table.first / table.games:.1f}%; alone in {table.first_alone}) "
        f"over {table.games} games of 4 players [{elapsed:.1f} s]",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
