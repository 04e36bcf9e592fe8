"""Two runs of ``bench/bot_strength.py --rows FILE`` on the same deals compared deal by deal::

    python bench/paired.py BASE.jsonl VARIANT.jsonl

Printed: each run's share of the points over the deals both played, and the variant's paired difference
(its share minus the base's) with a 95 % interval (the delta method over deals, both shares' residuals
taken per deal): far narrower than two independent intervals, since a deal's luck is in both runs.
"""

from __future__ import annotations

import json
import math
import statistics
import sys


def load(path: str) -> dict[int, tuple[float, float]]:
    out = {}
    with open(path) as rows:
        for line in rows:
            r = json.loads(line)
            out[r["deal"]] = (float(r["mine"]), float(r["mine"] + r["theirs"]))
    return out


def main(argv: list[str]) -> int:
    base, variant = load(argv[0]), load(argv[1])
    deals = sorted(set(base) & set(variant))
    n = len(deals)
    sb = sum(base[d][0] for d in deals) / sum(base[d][1] for d in deals)
    sv = sum(variant[d][0] for d in deals) / sum(variant[d][1] for d in deals)
    mean_b = sum(base[d][1] for d in deals) / n
    mean_v = sum(variant[d][1] for d in deals) / n
    residuals = [
        (variant[d][0] - sv * variant[d][1]) / mean_v - (base[d][0] - sb * base[d][1]) / mean_b for d in deals
    ]
    half = 1.96 * statistics.stdev(residuals) / math.sqrt(n) if n > 1 else 0.0
    print(
        f"{n} deals: base {100 * sb:.1f}%, variant {100 * sv:.1f}%, "
        f"difference {100 * (sv - sb):+.1f} +/- {100 * half:.1f} points of share"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
