"""Bot strength on duplicate deals, run by hand from the project root::

    python bench/bot_strength.py [--bot search] [--opponent rule] [--games tute2,tute4,pocha]
                                 [--deals 2000] [--pocha-games 500] [--cheat] [--workers 1] [--seed bench]
                                 [--budget samples=48,prior=3,weights=keep_trump:2.5/pair_keep:0.6]

Tute 2 and Tute 4: deal i (dealt from the seed ``"{S}:{game}:{i}"``, the dealer rotating) is played twice,
``--bot`` at seat 0 (seats 0+2 in Tute 4) then at seat 1 (seats 1+3), ``--opponent`` in the other seats
(``--opponent pool``: deal i against ``POOL[i % 4]``, casual, beginner, search and random in turn);
printed are the bot's share of all the points scored (card points, cantes, last trick), its share of the
games won, each with a 95% interval over deals, and its think time per decision (process CPU time: the
median and the 99th percentile). ``--cheat`` plays the same deals with the bench-only ``cheat`` bot (the
search seeing every hand) in the bot's place and prints the share of the gap between the opponent and
the cheat that ``--bot`` closes, (bot - 50%) / (cheat - 50%) of the points.

Pocha: whole games of 4 players, the bot in one seat and the opponent in three, the bot's seat moving
round the table game by game; printed is its winning share (a shared first place counts its share; even
is 0.25) with a 95% interval.

Each process plays on one core; ``--workers`` splits the deals over that many processes. Figures are
printed every ``--every`` deals (``partial``), then once at the end, so a run stopped early still has
its figure over the deals done. The figures are deterministic for a seed and the bots' budgets.
``--save FILE`` appends each deal's row; ``--against FILE`` prints this run's share minus that saved run's
on the deals both played, with the 95% interval of the paired difference. ``--budget`` sets fields of the search's ``Budget`` (and the cheat's) for a run, over each game's default
level (Tute 4's ``TUTE4_BUDGET``); ``weights=keep_trump:2.5/pair_keep:0.6`` sets the playout policy's
``PolicyWeights``. Variants are screened on the same deals, so their difference is paired.
``--bot lab.<name>`` plays a variant measured without a gain (``bench/lab``: ``lab.ismcts``,
``lab.replies``, ``lab.windows``, ...); ``--budget`` also takes their fields (``method=ismcts``), over
the variant's own. ``--bot br`` and ``--bot fairbr`` are the best responses to ``rule`` (bench/lab/response.py: issue 33's
ceilings; ``--budget samples=8,draws=400`` for the fair one: deals kept, at most drawn). ``--bot handcheat`` (bench only, like the cheat) sees the other hands but not the stock's order: what
it takes over ``search`` is about what a search of the hidden hands can gain with this evaluator.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Final

# Run as a script (`python bench/bot_strength.py`), sys.path[0] is bench/: the project root holds `games`.
PROJECT_DIR = Path(__file__).resolve().parent.parent
if str(PROJECT_DIR) not in sys.path:
    sys.path.insert(0, str(PROJECT_DIR))

from bench.lab import EXPERIMENTS, LabBudget, LabSearchBot, lab_bot, lab_budget  # noqa: E402
from bench.lab import register as register_lab  # noqa: E402
from bench.lab.replies import reshuffled  # noqa: E402
from bench.lab.response import BestResponse, FairBestResponse  # noqa: E402
from games.bots import get_bot  # noqa: E402
from games.bots.arena import play_game  # noqa: E402
from games.bots.search import TUTE4_BUDGET, Budget, CheatBot, PolicyWeights, SearchBot  # noqa: E402
from games.bots.search.bot import rule_guide  # noqa: E402
from games.engine import Rules  # noqa: E402
from games.engine.views import seat_view  # noqa: E402


class Timed:
    """A bot whose decisions are timed (process CPU time, so other processes on the core do not count)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.sees_all = getattr(bot, "sees_all", False)
        self.times: list[float] = []

    def __call__(self, view: Any, legal: tuple[str, ...], rng: Any, /) -> str:
        started = time.process_time()
        action = self.bot(view, legal, rng)
        if len(legal) > 1:
            self.times.append(time.process_time() - started)
        return str(action)

    def choose_seeing_all(self, table: Any, legal: tuple[str, ...], rng: Any) -> str:
        started = time.process_time()
        action = self.bot.choose_seeing_all(table, legal, rng)
        if len(legal) > 1:
            self.times.append(time.process_time() - started)
        return str(action)


#: ``--budget``: the search's and the cheat's budget fields set for this run (screening variants).
BUDGET: dict[str, Any] = {}

#: The production ``Budget``'s fields; any other ``--budget`` field is a ``LabBudget`` one (bench/lab).
PRODUCTION_FIELDS = frozenset(f.name for f in dataclasses.fields(Budget))

register_lab()  # the variants, as ``--bot lab.<name>``


class HandCheat(CheatBot):
    """``--bot handcheat``, a diagnostic: the cheat's search seeing the other hands but not the stock's
    order (each of its ``samples`` deals the real one with the undrawn stock shuffled). What it takes
    over ``search`` is what the hands' cards are worth; what the cheat takes over it, the stock's order.
    ``--bot handcheat-plain``: without the rule bot's prior (as the cheat)."""

    def __init__(self, budget: Budget, *, prior: bool = True) -> None:
        super().__init__(budget)
        self.prior = prior

    def choose_seeing_all(self, table: Any, legal: tuple[str, ...], rng: Any) -> str:
        if len(legal) == 1:
            return legal[0]
        bot = self.search
        budget = bot.budget_for(table.rules.game)
        if not table.rules.has_stock or table.stock_size == 0:
            return bot.choose_full(table, legal, rng)
        deals = [reshuffled(table, rng) for _ in range(budget.samples)]
        guide = None
        if budget.prior and self.prior:  # the rule bot's choice, worth ``prior`` as in the search bot
            guide = rule_guide(seat_view(table, table.to_act, None), legal, rng)
        return bot.decide(deals, legal, table.to_act, rng, guide=guide)


def _budget(base: Budget | None = None) -> Budget:
    """``--budget``'s fields over ``base`` (by default ``Budget()``): a production ``Budget`` unless a
    lab field is set."""
    base = base or Budget()
    if set(BUDGET) <= PRODUCTION_FIELDS:
        return dataclasses.replace(base, **BUDGET)
    return lab_budget(base, **BUDGET)


def _cheat(cheat: CheatBot) -> CheatBot:
    """``cheat`` searching with the lab's bot where its budget has lab fields."""
    budget = cheat.search.budget
    if isinstance(budget, LabBudget):
        cheat.search = LabSearchBot(budget)
    return cheat


def _bot(name: str) -> Any:
    if name == "cheat":
        return _cheat(CheatBot(_budget()))
    if name in ("handcheat", "handcheat-plain"):
        return _cheat(HandCheat(_budget(), prior=name == "handcheat"))
    if name == "br":
        return BestResponse()
    if name == "fairbr":
        # ``--budget samples=8,draws=400``: the deals kept a decision, and at most how many drawn
        return FairBestResponse(samples=BUDGET.get("samples", 8), tries=BUDGET.get("draws", 400))
    if name == "search" and BUDGET:  # each game's default level with the fields set
        budget = _budget()
        bot = LabSearchBot if isinstance(budget, LabBudget) else SearchBot
        return bot(budget, tute4=_budget(TUTE4_BUDGET))
    if name.startswith("lab.") and name[4:] in EXPERIMENTS and BUDGET:
        return lab_bot({**EXPERIMENTS[name[4:]], **BUDGET})
    return get_bot(name)


def _set_budget(values: dict[str, Any]) -> None:
    BUDGET.update(values)  # a worker process starts afresh: it is handed the run's budget


def parse_budget(text: str) -> dict[str, Any]:
    """``samples=48,prior=3`` into ``LabBudget`` fields (the production ``Budget``'s and the lab's), each
    typed as the field's default; the playout policy's ``weights=keep_trump:2.5/pair_keep:0.6``
    (``LabWeights.parse``)."""
    defaults = LabBudget()
    out: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        key = key.strip()
        if not hasattr(defaults, key):
            raise ValueError(f"Budget has no field {key!r}")
        default = getattr(defaults, key)
        if isinstance(default, PolicyWeights):
            out[key] = type(default).parse(value)
        elif isinstance(default, bool):
            out[key] = value.strip().lower() in ("1", "true", "yes", "on")
        else:
            out[key] = type(default)(value)
    return out


#: ``--opponent pool`` (issue 33's second yardstick, against overfitting ``rule``): deal i is played
#: against ``POOL[i % 4]``: the rule bot with human-looking mistakes at two rates (a noisy and a more
#: perturbed ``rule``), the search level as it plays today, and random.
POOL: Final = ("casual", "beginner", "search", "random")


def opponent_for(name: str, deal: int) -> str:
    """The opponent of ``deal``: ``name``, or the pool's member for that deal."""
    return POOL[deal % len(POOL)] if name == "pool" else name


def play_deal(job: tuple[str, str, str, str, int]) -> dict[str, Any]:
    """One Tute deal played twice, seats swapped: the bot's points and wins, and the totals."""
    game, bot_name, opponent_name, seed, deal = job
    rules = Rules.build(game)
    bot, opponent = Timed(_bot(bot_name)), _bot(opponent_for(opponent_name, deal))
    deal_seed = f"{seed}:{game}:{deal}"
    mine = theirs = wins = 0
    for side in (0, 1):
        bots = [bot if s % 2 == side else opponent for s in range(rules.players)]
        state = play_game(rules, bots, seed=deal_seed, dealer=deal % rules.players, rng_seed=deal_seed)
        result = state.result()
        assert result is not None
        mine += result.scores[side]
        theirs += result.scores[1 - side]
        wins += side in result.winners
    return {"deal": deal, "mine": mine, "theirs": theirs, "wins": wins, "times": bot.times}


def play_pocha(job: tuple[str, str, str, str, int]) -> dict[str, Any]:
    """One whole Pocha game, the bot in seat ``number % 4``."""
    _, bot_name, opponent_name, seed, number = job
    players = 4
    rules = Rules.build("pocha", players)
    bot, opponent = Timed(_bot(bot_name)), _bot(opponent_for(opponent_name, number))
    seat = number % players
    game_seed = f"{seed}:pocha:{number}"
    bots = [bot if s == seat else opponent for s in range(players)]
    state = play_game(rules, bots, seed=game_seed, dealer=(number // players) % players, rng_seed=game_seed)
    result = state.result()
    assert result is not None
    share = 1.0 / len(result.winners) if seat in result.winners else 0.0
    return {"deal": number, "share": share, "total": result.scores[seat], "times": bot.times}


def interval(values: list[float]) -> float:
    """Half the width of a 95% normal interval around the mean of ``values``."""
    if len(values) < 2:
        return 0.0
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def ratio_interval(mine: list[float], totals: list[float]) -> tuple[float, float]:
    """A ratio of sums over deals and its 95% half-width (the delta method over deals)."""
    n = len(mine)
    total = sum(totals)
    share = sum(mine) / total if total else 0.0
    if n < 2 or not total:
        return share, 0.0
    residuals = [m - share * t for m, t in zip(mine, totals, strict=True)]
    mean_total = total / n
    return share, 1.96 * statistics.stdev(residuals) / (mean_total * math.sqrt(n))


def paired_line(game: str, rows: list[dict[str, Any]], path: str) -> str:
    """This run's share of the points minus a saved run's, over the deals both played, with a 95% interval
    over deals (each deal's residual against its run's share, the delta method, differenced)."""
    with open(path) as saved:
        base = {r["deal"]: r for r in map(json.loads, saved) if r["game"] == game}
    pairs = [(r, base[r["deal"]]) for r in rows if r["deal"] in base]
    if len(pairs) < 2:
        return f"{game}: no deals in common with {path}"
    shares, means = [], []
    for side in (0, 1):
        mine = [p[side]["mine"] for p in pairs]
        totals = [p[side]["mine"] + p[side]["theirs"] for p in pairs]
        shares.append(sum(mine) / sum(totals))
        means.append(sum(totals) / len(pairs))
    diffs = [
        (a["mine"] - shares[0] * (a["mine"] + a["theirs"])) / means[0]
        - (b["mine"] - shares[1] * (b["mine"] + b["theirs"])) / means[1]
        for a, b in pairs
    ]
    return (
        f"{game} paired against {path}: {100 * (shares[0] - shares[1]):+.1f} points of share (+/- "
        f"{100 * interval(diffs):.1f}) over {len(pairs)} deals ({100 * shares[0]:.1f}% vs {100 * shares[1]:.1f}%)"
    )


def think(times: list[float]) -> str:
    if not times:
        return "no decisions"
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"think median {1000 * statistics.median(ordered):.1f} ms, p99 {1000 * p99:.1f} ms over {len(ordered)} decisions"


def tute_line(
    game: str, bot: str, opponent: str, rows: list[dict[str, Any]], elapsed: float, final: bool
) -> str:
    mine = [float(r["mine"]) for r in rows]
    totals = [float(r["mine"] + r["theirs"]) for r in rows]
    share, half = ratio_interval(mine, totals)
    win_values = [r["wins"] / 2 for r in rows]
    wins = sum(win_values) / len(rows)
    times = [t for r in rows for t in r["times"]]
    label = "final" if final else "partial"
    return (
        f"[{label}] {game} {bot} vs {opponent}: {100 * share:.1f}% of the points (+/- {100 * half:.1f}), "
        f"{100 * wins:.1f}% of the games (+/- {100 * interval(win_values):.1f}) over {len(rows)} deals "
        f"({2 * len(rows)} games, seats swapped); {think(times)} [{elapsed:.0f} s]"
    )


def pocha_line(bot: str, opponent: str, rows: list[dict[str, Any]], elapsed: float, final: bool) -> str:
    shares = [r["share"] for r in rows]
    times = [t for r in rows for t in r["times"]]
    label = "final" if final else "partial"
    average = sum(r["total"] for r in rows) / len(rows)
    return (
        f"[{label}] pocha {bot} vs 3 {opponent}: winning share {sum(shares) / len(rows):.3f} "
        f"(+/- {interval(shares):.3f}; even is 0.25) over {len(rows)} games, average total {average:.1f}; "
        f"{think(times)} [{elapsed:.0f} s]"
    )


def run(
    game: str,
    bot: str,
    opponent: str,
    *,
    count: int,
    seed: str,
    workers: int,
    every: int,
    save: str = "",
) -> list[dict[str, Any]]:
    jobs = [(game, bot, opponent, seed, i) for i in range(count)]
    worker = play_pocha if game == "pocha" else play_deal
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()

    def keep(row: dict[str, Any]) -> None:
        rows.append(row)
        if save and game != "pocha":  # as each deal ends (a run stopped early has its rows); Tute only
            with open(save, "a") as out:
                out.write(
                    json.dumps({"game": game, **{k: row[k] for k in ("deal", "mine", "theirs")}}) + "\n"
                )

    def report(final: bool) -> None:
        elapsed = time.perf_counter() - started
        if game == "pocha":
            print(pocha_line(bot, opponent, rows, elapsed, final), flush=True)
        else:
            print(tute_line(game, bot, opponent, rows, elapsed, final), flush=True)

    if workers > 1:
        context = multiprocessing.get_context("spawn")
        with context.Pool(workers, initializer=_set_budget, initargs=(dict(BUDGET),)) as pool:
            for row in pool.imap_unordered(worker, jobs, chunksize=1):
                keep(row)
                if len(rows) % every == 0 and len(rows) < count:
                    report(False)
    else:
        for job in jobs:
            keep(worker(job))
            if len(rows) % every == 0 and len(rows) < count:
                report(False)
    report(True)
    rows.sort(key=lambda r: r["deal"])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Bot strength on duplicate deals.")
    parser.add_argument(
        "--bot", default="search", help="the bot measured (a registered level, lab.<name>, or cheat)"
    )
    parser.add_argument(
        "--opponent", default="rule", help="the bot it plays against; pool: deal i against POOL[i %% 4]"
    )
    parser.add_argument("--games", default="tute2,tute4,pocha", help="comma-separated: tute2, tute4, pocha")
    parser.add_argument("--deals", type=int, default=2000, help="Tute deals per game, each played twice")
    parser.add_argument(
        "--pocha-games", type=int, default=None, help="whole Pocha games (default: deals / 4)"
    )
    parser.add_argument(
        "--cheat", action="store_true", help="also play the cheat on the Tute 2 deals: the gap closed"
    )
    parser.add_argument("--workers", type=int, default=1, help="processes, one core each")
    parser.add_argument("--every", type=int, default=100, help="print a partial figure every this many deals")
    parser.add_argument("--seed", default="bench", help="seed text of the deals")
    parser.add_argument("--save", default="", help="write each deal's row here (JSON lines), for --against")
    parser.add_argument(
        "--against", default="", help="a --save file of another run on the same deals: the paired difference"
    )
    parser.add_argument(
        "--budget", default="", help="search and cheat budget fields, e.g. samples=48,prior=3 (default level)"
    )
    args = parser.parse_args(argv)
    try:
        BUDGET.update(parse_budget(args.budget))
    except ValueError as error:
        parser.error(str(error))
    if args.deals < 1 or args.workers < 1 or args.every < 1:
        parser.error("--deals, --workers and --every must be at least 1")
    pocha_games = max(1, args.deals // 4) if args.pocha_games is None else args.pocha_games
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    for game in games:
        if game not in ("tute2", "tute4", "pocha"):
            parser.error(f"unknown game {game!r}")
    common = {"seed": args.seed, "workers": args.workers, "every": args.every, "save": args.save}
    for game in games:
        count = pocha_games if game == "pocha" else args.deals
        rows = run(game, args.bot, args.opponent, count=count, **common)
        if args.against and game != "pocha":
            print(paired_line(game, rows, args.against), flush=True)
        if game == "tute2" and args.cheat:
            cheat_rows = run(game, "cheat", args.opponent, count=count, **{**common, "save": ""})
            bot_share, _ = ratio_interval([r["mine"] for r in rows], [r["mine"] + r["theirs"] for r in rows])
            cheat_share, _ = ratio_interval(
                [r["mine"] for r in cheat_rows], [r["mine"] + r["theirs"] for r in cheat_rows]
            )
            gap = (bot_share - 0.5) / (cheat_share - 0.5) if cheat_share != 0.5 else float("nan")
            print(
                f"tute2 gap closed from {args.opponent} to cheat by {args.bot}: {100 * gap:.1f}% "
                f"({args.bot} {100 * bot_share:.1f}%, cheat {100 * cheat_share:.1f}% of the points)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
