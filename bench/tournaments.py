"""Tournaments benchmark (issue 6): Swiss pairing and bracket generation, pure Python, on one core.

Run by hand from the project root::

    python bench/tournaments.py [--runs N] [--seed S]

It measures, with ``tournaments.pairing`` (no Django, no database):

* one Swiss round's pairing, ``swiss_round(ranking, scores, rounds_played)``, for 256 and 1,024
  entrants after 5 and after 8 rounds of random results (10 % draws; the earlier rounds are paired by
  the same function), with club avoidance off and on (16 clubs). The call includes building the history
  from the rounds played. Targets of issue 6: at most 100 ms for 256 entrants and 1 s for 1,024;
  and, for information, two fields built so that not every rematch or club pairing can be avoided;
* bracket generation for 4,096 entrants: single elimination (with a third-place match) and double
  elimination, from the seed list to the first round ready to play;
* for information: playing a 4,096-entrant bracket to the end with ``record`` (random results), rebuilding
  it from its stored results with ``with_results``, standings with three tie-breaks for 1,024 entrants
  after 8 rounds, a 64-entrant double round robin and 1,024 Pocha players seated at tables.

Each figure is the median of N runs (default 7) after one untimed warm-up run. The process pins itself
to one core (``os.sched_setaffinity``). docs/PERFORMANCE.md records the figures and the targets.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Run as a script (`python bench/tournaments.py`), sys.path[0] is bench/: the project root holds `tournaments`.
PROJECT_DIR = Path(__file__).resolve().parent.parent
if str(PROJECT_DIR) not in sys.path:
    sys.path.insert(0, str(PROJECT_DIR))

from tournaments.pairing import (  # noqa: E402
    Bracket,
    Encounter,
    History,
    Pairing,
    Round,
    TieBreak,
    double_elimination,
    round_robin,
    seat_tables,
    single_elimination,
    standings,
    swiss_round,
)
from tournaments.pairing.swiss import rematches  # noqa: E402

#: Targets of issue 6 (seconds for one Swiss round's pairing).
SWISS_TARGETS = {256: 0.100, 1024: 1.0}
BRACKET_ENTRANTS = 4096
CLUBS = 16


def pin_to_one_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    try:
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
    except OSError as exc:
        return f"not pinned ({exc})"
    return f"pinned to core {core} of {os.cpu_count()}"


def median_time(fn: Callable[[], Any], runs: int) -> float:
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def swiss_field(
    n: int, rounds: int, rng: random.Random, clubs: dict[int, int | None] | None
) -> tuple[list[int], dict[int, float], list[Round]]:
    """``n`` entrants after ``rounds`` Swiss rounds of random results: (ranking, scores, rounds)."""
    players = list(range(1, n + 1))
    scores = dict.fromkeys(players, 0.0)
    played: list[Round] = []
    for _ in range(rounds):
        ranking = sorted(players, key=lambda e: (-scores[e], e))
        r = swiss_round(ranking, scores, played, clubs=clubs, avoid_same_club=clubs is not None)
        for p in r.pairings:
            x = rng.random()
            if x < 0.1:
                scores[p.first] += 0.5
                scores[p.second] += 0.5
            else:
                scores[p.first if x < 0.55 else p.second] += 1.0
        if r.bye is not None:
            scores[r.bye] += 1.0
        played.append(r)
    return sorted(players, key=lambda e: (-scores[e], e)), scores, played


def bench_swiss(runs: int, seed: int) -> None:
    for n in (256, 1024):
        target = SWISS_TARGETS[n]
        for rounds in (5, 8):
            for with_clubs in (False, True):
                rng = random.Random(seed * 1000 + n + rounds)
                clubs: dict[int, int | None] | None = (
                    {e: rng.randrange(CLUBS) for e in range(1, n + 1)} if with_clubs else None
                )
                ranking, scores, played = swiss_field(n, rounds, rng, clubs)

                def pair(
                    ranking: list[int] = ranking,
                    scores: dict[int, float] = scores,
                    played: list[Round] = played,
                    clubs: dict[int, int | None] | None = clubs,
                ) -> Round:
                    return swiss_round(
                        ranking, scores, played, clubs=clubs, avoid_same_club=clubs is not None
                    )

                t = median_time(pair, runs)
                r = pair()
                history = History.of(played)
                floats = sum(1 for p in r.pairings if scores[p.first] != scores[p.second])
                same_club = (
                    sum(1 for p in r.pairings if clubs[p.first] == clubs[p.second])
                    if clubs is not None
                    else 0
                )
                label = f"swiss {n} entrants, round {rounds + 1}" + (
                    f", {CLUBS} clubs avoided" if clubs else ""
                )
                verdict = "ok" if t <= target else "OVER TARGET"
                print(
                    f"{label}: {ms(t)} (target {ms(target)}: {verdict}); "
                    f"rematches {len(rematches(r, history))}, cross-group pairs {floats}, same-club {same_club}"
                )


def bench_swiss_hard_cases(runs: int, seed: int) -> None:
    """For information: fields where avoiding every rematch or club pairing is impossible, so the
    augmenting-path search has to prove it (its worst case)."""
    n = 1024
    rng = random.Random(seed)
    clubs: dict[int, int | None] = {e: rng.randrange(2) for e in range(1, n + 1)}
    sizes = sorted(sum(1 for c in clubs.values() if c == k) for k in (0, 1))
    t = median_time(lambda: swiss_round(range(1, n + 1), {}, clubs=clubs, avoid_same_club=True), runs)
    print(f"swiss {n} entrants, round 1, 2 clubs ({sizes[0]} and {sizes[1]}) avoided: {ms(t)} (information)")
    # the last three have met everyone but entrant 1: two of them must play a rematch
    played = [
        Round(1, tuple(Pairing(s, o) for o in range(2, n - 2)) + ((Pairing(s, n - 2),) if s != n - 2 else ()))
        for s in (n - 2, n - 1, n)
    ]
    played.append(Round(2, (Pairing(n - 1, n),)))
    history = History.of(played)
    t = median_time(lambda: swiss_round(range(1, n + 1), {}, history, number=3), runs)
    print(f"swiss {n} entrants, 3 who have met all but one (a forced rematch): {ms(t)} (information)")


def play_out(bracket: Bracket, rng: random.Random) -> Bracket:
    while True:
        ready = bracket.ready()
        if not ready:
            return bracket
        for s in ready:
            a, b = s.entrants
            assert a is not None and b is not None
            bracket = bracket.record(s.match.index, rng.choice((a, b)))


def bench_brackets(runs: int, seed: int) -> None:
    seeds = list(range(1, BRACKET_ENTRANTS + 1))
    builders: list[tuple[str, Callable[[], Bracket]]] = [
        ("single elimination", lambda: single_elimination(seeds)),
        ("single elimination + third place", lambda: single_elimination(seeds, third_place=True)),
        ("double elimination", lambda: double_elimination(seeds)),
    ]
    for name, build in builders:
        t = median_time(build, runs)
        bracket = build()
        print(
            f"{name}, {BRACKET_ENTRANTS} entrants: generation {ms(t)} "
            f"({len(bracket.matches)} matches, {len(bracket.ready())} ready in round 1)"
        )
    for name, build in builders[::2]:
        rng = random.Random(seed)
        start = time.perf_counter()
        done = play_out(build(), rng)
        played = time.perf_counter() - start
        stored = done.recorded()
        empty = build()
        t = median_time(lambda empty=empty, stored=stored: empty.with_results(stored), max(1, runs // 2))
        print(
            f"{name}, {BRACKET_ENTRANTS} entrants: played out with record() in {ms(played)} "
            f"({len(stored)} results, {ms(played / len(stored))} each); rebuilt by with_results() in {ms(t)}"
        )


def bench_others(runs: int, seed: int) -> None:
    rng = random.Random(seed)
    ranking, scores, played = swiss_field(1024, 8, rng, None)
    encounters: list[Encounter] = []
    for r in played:
        for p in r.pairings:
            diff = scores[p.first] - scores[p.second]
            winner = p.first if diff > 0 else p.second if diff < 0 else None
            encounters.append(
                Encounter.match(r.number, p.first, p.second, winner, cards=(rng.randrange(200), 100))
            )
        if r.bye is not None:
            encounters.append(Encounter.bye(r.number, r.bye))
    breaks = [TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER, TieBreak.HEAD_TO_HEAD]
    t = median_time(lambda: standings(ranking, encounters, breaks), runs)
    print(f"standings, 1024 entrants after 8 rounds, 3 tie-breaks: {ms(t)}")
    t = median_time(lambda: round_robin(range(64), double=True), runs)
    print(f"double round robin, 64 entrants (126 rounds): {ms(t)}")
    t = median_time(lambda: seat_tables(range(1024)), runs)
    print(f"pocha tables, 1024 players: {ms(t)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=7, help="timed runs per figure (median); default 7")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random fields and results")
    args = parser.parse_args()
    pinned = pin_to_one_core()
    print(
        f"# Python {platform.python_version()} ({platform.python_implementation()}) on {platform.platform()}, "
        f"{platform.processor() or platform.machine()}, {pinned}; median of {args.runs} runs after a warm-up"
    )
    bench_swiss(args.runs, args.seed)
    bench_swiss_hard_cases(args.runs, args.seed)
    bench_brackets(args.runs, args.seed)
    bench_others(args.runs, args.seed)


if __name__ == "__main__":
    main()
