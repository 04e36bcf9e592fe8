"""Tute 2 stock-phase decisions scored against the deal as it really is, run by hand from the project root::

    python bench/bot_regret.py [--games 40] [--playouts 300] [--budget samples=48,prior=3]

Game g (seed ``oracle:{g}``, dealer g % 2) is played by ``search`` (the default level) at seat g % 2 against
``rule``. At each of the search's decisions with a choice while the stock is open, every legal action is
scored by ``--playouts`` playouts of the search's policy on the real deal (the cheat's evaluator: every
hand and the stock's order seen, the same playout seeds for every action). A bot's regret on a decision is
the best action's score minus its choice's; printed is the mean regret of ``rule``, of the default
``search`` and of a ``--budget`` variant, by kind of decision (lead, follow, window: a swap or a cante on
offer) with a 95 % interval, and each one's paired difference from ``rule``. Where a bot loses points
shows here in minutes, with far less noise than whole games: a screen, not the strength figure.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path
from typing import Any

PROJECT_DIR = Path(__file__).resolve().parent.parent
if str(PROJECT_DIR) not in sys.path:
    sys.path.insert(0, str(PROJECT_DIR))

from bot_strength import parse_budget  # noqa: E402

from bench.lab import LabBudget, LabSearchBot  # noqa: E402
from games.bots.rule import choose as rule_choose  # noqa: E402
from games.bots.search import Budget, SearchBot, playout_value  # noqa: E402
from games.engine import Rules, SeatView, State  # noqa: E402
from games.engine.actions import ACTION_OF_CODE  # noqa: E402
from games.engine.table import Table  # noqa: E402

Decision = tuple[SeatView, tuple[str, ...], dict[str, float]]


def scores(table: Table, seat: int, legal: tuple[str, ...], playouts: int) -> dict[str, float]:
    """Each legal action's mean playout value on the real deal (shared seeds)."""
    seeds = [random.Random(i).random() for i in range(playouts)]
    out = {}
    for code in legal:
        total = 0.0
        for seed in seeds:
            child = table.clone()
            child.step(ACTION_OF_CODE[code])
            total += playout_value(child, seat, random.Random(seed))
        out[code] = total / playouts
    return out


def collect(games: int, playouts: int) -> list[Decision]:
    rules = Rules.build("tute2")
    bot = SearchBot(Budget())
    out: list[Decision] = []
    for g in range(games):
        seed = f"oracle:{g}"
        state = State.new(rules, seed=seed, dealer=g % 2)
        rngs = [random.Random(f"{seed}:{s}") for s in range(2)]
        me = g % 2
        while not state.is_terminal():
            seat = state.current_player()
            assert seat is not None
            legal = state.legal_actions()
            view = state.view(seat)
            if seat == me:
                if len(legal) > 1 and view.faceup is not None:
                    out.append((view, legal, scores(state.table, seat, legal, playouts)))
                action = bot(view, legal, rngs[seat])
            else:
                action = rule_choose(view, legal, rngs[seat])
            state = state.apply(action)
    return out


def kind(view: SeatView, legal: tuple[str, ...]) -> str:
    if any(not code.startswith("play:") for code in legal):
        return "window"
    return "follow" if view.trick else "lead"


def regrets(bot: Any, decisions: list[Decision]) -> list[float]:
    out = []
    for i, (view, legal, value) in enumerate(decisions):
        choice = bot(view, legal, random.Random(i))
        out.append(max(value.values()) - value[choice])
    return out


def line(name: str, values: list[float], decisions: list[Decision], base: list[float] | None) -> str:
    def mean(xs: list[float]) -> str:
        half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0.0
        return f"{statistics.mean(xs):.2f} (+/- {half:.2f}, {len(xs)})"

    by_kind: dict[str, list[float]] = {}
    for value, (view, legal, _) in zip(values, decisions, strict=True):
        by_kind.setdefault(kind(view, legal), []).append(value)
    parts = [f"{name}: regret {mean(values)}"] + [f"{k} {mean(v)}" for k, v in sorted(by_kind.items())]
    if base is not None:
        parts.append(f"minus rule {mean([a - b for a, b in zip(values, base, strict=True)])}")
    return "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Tute 2 stock-phase regret against the real deal.")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--playouts", type=int, default=300, help="playouts per action on the real deal")
    parser.add_argument(
        "--budget", default="", help="a search variant's LabBudget fields, e.g. samples=48,method=replies"
    )
    args = parser.parse_args(argv)
    decisions = collect(args.games, args.playouts)
    base = regrets(lambda v, legal, rng: rule_choose(v, legal, rng), decisions)
    print(line("rule", base, decisions, None), flush=True)
    print(line("search", regrets(SearchBot(Budget()), decisions), decisions, base), flush=True)
    if args.budget:
        variant = LabSearchBot(LabBudget(**parse_budget(args.budget)))
        print(line(args.budget, regrets(variant, decisions), decisions, base), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
