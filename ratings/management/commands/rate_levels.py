"""``python manage.py rate_levels``: rate the house levels by play and store the ratings with the date."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.bots import BOT_LEVELS
from ratings.levels import ANCHOR_LEVEL, LEVEL_POOLS, PairResult, rate_pool
from ratings.selectors import level_rating_anchor
from ratings.services import MeasuredLevel, level_ratings_record


class Command(BaseCommand):
    help = (
        "Play each house level against the level below it on duplicate deals, turn the shares into Elo "
        "differences, anchor the rule bot at its ladder rating (else 1500) and store each level's rating "
        "per pool with today's date (docs/BOTS.md, 'House levels')."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--deals", type=int, default=200, help="Tute deals per pair of levels (each played twice)."
        )
        parser.add_argument(
            "--pocha-games",
            type=int,
            default=20,
            help="Whole Pocha games per pair of levels (each played twice).",
        )
        parser.add_argument(
            "--games", default=",".join(LEVEL_POOLS), help="Comma-separated: tute2,tute4,pocha."
        )
        parser.add_argument("--levels", default=",".join(BOT_LEVELS), help="Comma-separated, weakest first.")
        parser.add_argument("--seed", default="levels", help="The deals' seed.")
        parser.add_argument("--dry-run", action="store_true", help="Print the figures, store nothing.")

    def handle(self, *args: Any, **options: Any) -> None:
        pools = [g.strip() for g in options["games"].split(",") if g.strip()]
        levels = [v.strip() for v in options["levels"].split(",") if v.strip()]
        unknown = [p for p in pools if p not in LEVEL_POOLS]
        if unknown:
            raise CommandError(f"unknown game {unknown[0]!r}: choose from {', '.join(LEVEL_POOLS)}")
        strange = [v for v in levels if v not in BOT_LEVELS]
        if strange or len(levels) < 2:
            raise CommandError(f"two levels at least, from {', '.join(BOT_LEVELS)}")
        if ANCHOR_LEVEL not in levels:
            raise CommandError(f"the levels rated include {ANCHOR_LEVEL!r}, the scale's anchor")
        if options["deals"] <= 0 or options["pocha_games"] <= 0:
            raise CommandError("--deals and --pocha-games are positive")
        started = time.perf_counter()
        for pool in pools:
            deals = options["pocha_games"] if pool == "pocha" else options["deals"]
            anchor = level_rating_anchor(pool=pool, level=ANCHOR_LEVEL)
            self.stdout.write(
                f"{pool}: {deals} {'games' if pool == 'pocha' else 'deals'} a pair, each from both sides; "
                f"{ANCHOR_LEVEL} anchored at {anchor:.1f}"
            )
            measured = rate_pool(
                pool,
                levels,
                deals=deals,
                seed=options["seed"],
                anchor_rating=anchor,
                progress=self._pair_line,
            )
            shares = {p.upper: p for p in measured.pairs}
            record = {
                level: MeasuredLevel(
                    rating=rating,
                    against=shares[level].lower if level in shares else "",
                    share=round(shares[level].share, 4) if level in shares else None,
                )
                for level, rating in measured.ratings.items()
            }
            self.stdout.write(
                f"{pool} ratings: "
                + ", ".join(f"{level} {rating:.0f}" for level, rating in measured.ratings.items())
            )
            if not options["dry_run"]:
                level_ratings_record(pool=pool, levels=record, deals=deals)
        seconds = time.perf_counter() - started
        self.stdout.write(f"{'measured' if options['dry_run'] else 'stored'} in {seconds:.0f} s")

    def _pair_line(self, pair: PairResult) -> None:
        points = f", {100 * pair.points_share:.1f}% of the points" if pair.points_share is not None else ""
        unit = "comparisons of totals" if pair.pool == "pocha" else "games"
        self.stdout.write(
            f"  {pair.upper} vs {pair.lower}: {100 * pair.share:.1f}% of {pair.results} {unit}{points} "
            f"-> {pair.elo:+.0f} Elo ({pair.seconds:.0f} s)",
        )
        self.stdout.flush()
