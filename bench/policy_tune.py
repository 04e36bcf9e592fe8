"""The search's playout policy alone, candidate weights against others, run by hand from the project root::

    python bench/policy_tune.py [--games tute2,tute4] [--deals 4000] [--seed tune]
                                [--candidate keep_trump:2.5/pair_keep:0.6] [--base ...]
                                [--search] [--fields keep_trump,pair_keep] [--rounds 2] [--check-seed check]

The policy plays as it does in the search's playouts: every hand seen (``games.bots.search.policy`` on the
engine's ``Table``; ``bench.lab.policy``'s options too), with its ``epsilon`` of random cards. Deal i (dealt from the seed ``"{S}:{game}:{i}"``
as ``bench/bot_strength.py`` deals, the dealer rotating) is played twice, the candidate at seat 0 (seats
0+2 in Tute 4) then at seat 1 (seats 1+3), the same random generator both times; printed is the
candidate's share of all the points with a 95% interval over deals (50% is even).

``--search``: a coordinate search from ``--candidate`` (default: today's weights). Each field of
``--fields`` in turn is moved one step up and one down; a move is kept when it beats the incumbent on the
same deals by more than one standard error (z > 1), and the step is halved when neither move does. After
``--rounds`` passes the result is played against ``--base`` on fresh deals (``--check-seed``), so the
figure printed last is not the one the search chose on. A stronger policy in self-play is not always a
better playout policy: ``bench/bot_strength.py --budget weights=...`` is the test that counts.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
if str(PROJECT_DIR) not in sys.path:
    sys.path.insert(0, str(PROJECT_DIR))

from bot_strength import ratio_interval  # noqa: E402

from bench.lab.policy import LAB_WEIGHTS, LabWeights, lab_policy  # noqa: E402
from games.engine import Rules  # noqa: E402
from games.engine.deal import seeded_decks  # noqa: E402
from games.engine.hands import OVER  # noqa: E402
from games.engine.table import Table  # noqa: E402

#: A coordinate step per field (added and taken away); fields not listed here are not searched.
STEPS: dict[str, float] = {
    "keep_trump": 1.0,
    "keep_trump_slope": 0.3,
    "pair_keep": 0.2,
    "cante_weight": 0.2,
    "tute4_ruff_points": 4.0,
    "epsilon": 0.02,
}
#: Searched by default: epsilon is left out (less noise always wins self-play; the search wants variety).
DEFAULT_FIELDS = ("keep_trump", "keep_trump_slope", "pair_keep", "cante_weight", "tute4_ruff_points")


def deals(game: str, seed: str, count: int) -> list[tuple[tuple[tuple[int, ...], ...], int, str]]:
    """The decks, dealer and generator seed of each deal (dealt once, replayed by every candidate)."""
    rules = Rules.build(game)
    return [
        (seeded_decks(rules, f"{seed}:{game}:{i}"), i % rules.players, f"{seed}:{game}:{i}")
        for i in range(count)
    ]


def play(
    rules: Rules,
    decks: tuple[tuple[int, ...], ...],
    dealer: int,
    sides: tuple[LabWeights, ...],
    rng_seed: str,
) -> tuple[int, ...]:
    """One hand, each side playing the policy with its weights: the sides' final scores."""
    table = Table.new(rules, dealer, decks)
    rng = random.Random(rng_seed)
    side_of = table.side_of
    while table.phase != OVER:
        table.step(lab_policy(table, rng, sides[side_of(table.to_act)]))
    return table.result_scores


def duel(game: str, candidate: LabWeights, base: LabWeights, dealt: list) -> tuple[float, float, float]:
    """The candidate's share of the points against ``base`` over ``dealt``, seats swapped: (share, 95%
    half-width, z = (share - 0.5) / standard error)."""
    rules = Rules.build(game)
    mine: list[float] = []
    totals: list[float] = []
    for decks, dealer, rng_seed in dealt:
        got = lost = 0
        for side in (0, 1):
            sides = (candidate, base) if side == 0 else (base, candidate)
            scores = play(rules, decks, dealer, sides, rng_seed)
            got += scores[side]
            lost += scores[1 - side]
        mine.append(float(got))
        totals.append(float(got + lost))
    share, half = ratio_interval(mine, totals)
    z = (share - 0.5) / (half / 1.96) if half else 0.0
    return share, half, z


def describe(weights: LabWeights) -> str:
    """The ``--budget weights=`` text of the fields that differ from today's."""
    changed = [
        f"{f.name}:{getattr(weights, f.name):g}"
        for f in dataclasses.fields(weights)
        if getattr(weights, f.name) != getattr(LAB_WEIGHTS, f.name)
    ]
    return "/".join(changed) or "(default)"


def coordinate_search(
    game: str, start: LabWeights, fields: list[str], dealt: list, rounds: int
) -> LabWeights:
    steps = {name: STEPS[name] for name in fields}
    best = start
    for number in range(rounds):
        moved = False
        for name in fields:
            value = getattr(best, name)
            tried = []
            for sign in (1, -1):
                new = max(0.0, round(value + sign * steps[name], 4))
                if new == value:
                    continue
                candidate = dataclasses.replace(best, **{name: new})
                started = time.perf_counter()
                share, half, z = duel(game, candidate, best, dealt)
                print(
                    f"  {game} round {number + 1} {name} {value:g} -> {new:g}: {100 * share:.2f}% "
                    f"(+/- {100 * half:.2f}, z {z:+.1f}) [{time.perf_counter() - started:.0f} s]",
                    flush=True,
                )
                tried.append((z, candidate))
            kept = max(tried, key=lambda pair: pair[0], default=None)
            if kept is not None and kept[0] > 1.0:
                best = kept[1]
                moved = True
                print(f"  {game} kept {describe(best)}", flush=True)
            else:
                steps[name] /= 2
        if not moved and number > 0:
            break
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The playout policy alone: weights against weights.")
    parser.add_argument("--games", default="tute2,tute4")
    parser.add_argument("--deals", type=int, default=4000, help="deals per candidate, each played twice")
    parser.add_argument("--seed", default="tune", help="seed text of the deals the search chooses on")
    parser.add_argument(
        "--check-seed", default="check", help="seed text of the deals the result is checked on"
    )
    parser.add_argument(
        "--candidate", default="", help="LabWeights fields, e.g. keep_trump:2.5/pair_keep:0.6"
    )
    parser.add_argument("--base", default="", help="the weights played against (default: today's)")
    parser.add_argument("--search", action="store_true", help="coordinate search from --candidate")
    parser.add_argument("--fields", default=",".join(DEFAULT_FIELDS), help="the fields searched")
    parser.add_argument("--rounds", type=int, default=2, help="passes over the fields")
    args = parser.parse_args(argv)
    candidate = LabWeights.parse(args.candidate)
    base = LabWeights.parse(args.base)
    fields = [f.strip() for f in args.fields.split(",") if f.strip()]
    for name in fields:
        if name not in STEPS:
            parser.error(f"no step for field {name!r}: one of {', '.join(STEPS)}")
    for game in [g.strip() for g in args.games.split(",") if g.strip()]:
        fields_here = [f for f in fields if game == "tute4" or f != "tute4_ruff_points"]
        if args.search:
            started = time.perf_counter()
            candidate_here = coordinate_search(
                game, candidate, fields_here, deals(game, args.seed, args.deals), args.rounds
            )
            print(
                f"{game} search: {describe(candidate_here)} [{time.perf_counter() - started:.0f} s]",
                flush=True,
            )
        else:
            candidate_here = candidate
        share, half, z = duel(game, candidate_here, base, deals(game, args.check_seed, args.deals))
        print(
            f"{game} policy {describe(candidate_here)} vs {describe(base)}: {100 * share:.2f}% of the points "
            f"(+/- {100 * half:.2f}, z {z:+.1f}) over {args.deals} deals of seed {args.check_seed!r}, seats swapped",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
