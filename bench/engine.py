"""Engine benchmark (issue 2): random playouts per second and card plays per second, on one core.

Run by hand from the project root::

    python bench/engine.py [--seconds S] [--seed N]

It measures, for Tute 2, Tute 4 and Pocha (4 players, the full spanish sequence of 28 hands):

* the fast path that search bots use, ``games.engine.playout.random_playout(Rules.build(game), rng)``
  (one ``Table`` stepped in place, dealt with ``rng.shuffle``);
* for information, the immutable public API: ``State.new(rules, dealer=0, seed=str(i))``, then
  ``state.apply(rng.choice(state.legal_actions()))`` until the game is over;
* when OpenSpiel is installed (``pip install -e '.[bench]'``), OpenSpiel's ``oh_hell`` played the same
  way through its Python API, as the yardstick for Pocha.

A card play is an action id below ``games.engine.actions.EXCHANGE`` (48). Every dealt card is played,
so a game's card plays are a constant of its rules: they are counted once, outside the timed loops, by
walking ``table.actions`` of a few untimed games. Each figure is the median of five rounds of S/5
seconds, the rounds of all measurements interleaved. docs/PERFORMANCE.md records the figures and the
targets.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.metadata
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Run as a script (`python bench/engine.py`), sys.path[0] is bench/: the project root holds `games`.
PROJECT_DIR = Path(__file__).resolve().parent.parent
if str(PROJECT_DIR) not in sys.path:
    sys.path.insert(0, str(PROJECT_DIR))

from games.engine.actions import EXCHANGE  # noqa: E402
from games.engine.hands import OVER  # noqa: E402
from games.engine.playout import random_playout  # noqa: E402
from games.engine.rules import Rules  # noqa: E402
from games.engine.state import State  # noqa: E402
from games.engine.table import Table  # noqa: E402

ROUNDS = 5
WARMUP_SECONDS = 0.2
CHECK_GAMES = 20

#: Targets of issue 2 (Tute 4) and issue 30 (Pocha, raised from 0.5: the search bot and the reviews play there).
TUTE4_GAMES_PER_S = 4000.0
POCHA_VS_OH_HELL = 1.0

#: OpenSpiel's oh_hell set as close to our Pocha as it goes: 4 players and a 40-card deck (4 suits of
#: 10 ranks). It plays one hand of a random number of tricks, 1 to (40 - 1) // 4 = 9 (num_tricks_fixed=-1):
#: 5 tricks on average, against 136 / 28 = 4.86 cards a hand over Pocha's spanish sequence.
OH_HELL_PARAMS: dict[str, int] = {
    "players": 4,
    "num_suits": 4,
    "num_cards_per_suit": 10,
    "num_tricks_fixed": -1,
}
#: oh_hell's chance nodes before its bids: the number of tricks, the dealer, then the trump card (the
#: cards dealt are 4 per trick, like the cards played).
OH_HELL_FIXED_CHANCE = 3
OH_HELL = "oh_hell (OpenSpiel)"


@dataclass(frozen=True, slots=True)
class Rate:
    games_per_s: float
    plays_per_s: float


def fmt(x: float) -> str:
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}"


#: ``play_games(deadline)`` plays random games until the clock passes ``deadline`` and returns
#: (games, card plays).
PlayGames = Callable[[float], tuple[int, int]]
#: A measurement's (name, how): printed as "{name} random playouts{how}: N games/s".
Label = tuple[str, str]


def measure(benches: dict[Label, PlayGames], seconds: float) -> dict[Label, Rate]:
    """Median rates over ROUNDS rounds of ``seconds / ROUNDS`` each.

    The rounds are interleaved (round 1 of every bench, then round 2, ...) so that a slow spell of a
    shared machine weighs on all of them alike, and the ratios between them hold better than the
    absolute figures.
    """
    clock = time.perf_counter
    for play_games in benches.values():
        play_games(clock() + WARMUP_SECONDS)
    games_rates: dict[Label, list[float]] = {label: [] for label in benches}
    plays_rates: dict[Label, list[float]] = {label: [] for label in benches}
    for _ in range(ROUNDS):
        for label, play_games in benches.items():
            gc.collect()
            start = clock()
            games, plays = play_games(start + seconds / ROUNDS)
            elapsed = clock() - start
            games_rates[label].append(games / elapsed)
            plays_rates[label].append(plays / elapsed)
    return {
        label: Rate(statistics.median(games_rates[label]), statistics.median(plays_rates[label]))
        for label in benches
    }


# -- our engine ---------------------------------------------------------------------------------------


def card_plays(table: Table) -> int:
    """Card plays of a finished game, from its action list (a cons list ``(action_id, previous)``)."""
    plays = 0
    node: Any = table.actions
    while node is not None:
        action, node = node
        if action < EXCHANGE:
            plays += 1
    return plays


def plays_per_game(rules: Rules, seed: int) -> int:
    """The card plays of every game of ``rules``, checked on a few untimed playouts."""
    rng = random.Random(seed)
    counts = {card_plays(random_playout(rules, rng)) for _ in range(CHECK_GAMES)}
    if len(counts) != 1:
        raise SystemExit(
            f"{rules.game}: card plays differ between games ({sorted(counts)}): cannot count them"
        )
    return counts.pop()


def fast_path(rules: Rules, seed: int) -> PlayGames:
    plays = plays_per_game(rules, seed + 1)
    rng = random.Random(seed)
    clock = time.perf_counter

    def play_games(deadline: float) -> tuple[int, int]:
        games = 0
        while True:
            random_playout(rules, rng)
            games += 1
            if clock() >= deadline:
                return games, games * plays

    return play_games


def state_api(rules: Rules, seed: int) -> PlayGames:
    plays = plays_per_game(rules, seed + 1)
    rng = random.Random(seed)
    clock = time.perf_counter
    number = 0

    def play_games(deadline: float) -> tuple[int, int]:
        nonlocal number
        games = 0
        choice = rng.choice
        while True:
            state = State.new(rules, dealer=0, seed=str(number))
            number += 1
            while not state.is_terminal():
                state = state.apply(choice(state.legal_actions()))
            games += 1
            if clock() >= deadline:
                return games, games * plays

    # Untimed check: a State API game ends like a fast-path one, every dealt card played.
    check = State.new(rules, dealer=0, seed="check")
    while not check.is_terminal():
        check = check.apply(rng.choice(check.legal_actions()))
    assert check.table.phase == OVER and card_plays(check.table) == plays
    return play_games


# -- OpenSpiel ----------------------------------------------------------------------------------------


def load_pyspiel() -> Any:
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        return None


def spiel_version() -> str:
    try:
        return importlib.metadata.version("open_spiel")
    except importlib.metadata.PackageNotFoundError:
        return "(version unknown)"


def check_oh_hell(game: Any, rng: random.Random) -> None:
    """Untimed: learn oh_hell's action layout and check the card-play count used by the timed loop.

    Player actions below the deck size are card plays, the others bids (deck size + n bids n); chance
    outcomes are equally likely, so the timed loop samples them with ``rng.choice``.
    """
    num_cards = OH_HELL_PARAMS["num_suits"] * OH_HELL_PARAMS["num_cards_per_suit"]
    players = OH_HELL_PARAMS["players"]
    for _ in range(CHECK_GAMES):
        state = game.new_initial_state()
        plays = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                if len({p for _, p in outcomes}) != 1:
                    raise SystemExit(
                        "oh_hell: a chance node with unequal odds: sample with rng.choices instead"
                    )
                action = rng.choice(outcomes)[0]
            else:
                player = state.current_player()
                action = rng.choice(state.legal_actions())
                text = state.action_to_string(player, action)
                if action < num_cards:
                    assert len(text) == 2 and text[0] in "CDSH", text  # a card, such as "D7"
                    plays += 1
                else:
                    assert text == str(action - num_cards), text  # a bid
            state.apply_action(action)
        assert plays == oh_hell_plays(state.move_number(), 1), (plays, state.move_number())
        assert plays % players == 0


def oh_hell_plays(moves: int, games: int) -> int:
    """Card plays of ``games`` oh_hell games of ``moves`` actions in all: fixed chance nodes, one bid per
    player, and the cards dealt and played (as many of each)."""
    return (moves - games * (OH_HELL_FIXED_CHANCE + OH_HELL_PARAMS["players"])) // 2


def oh_hell(pyspiel: Any, seed: int) -> PlayGames:
    game = pyspiel.load_game("oh_hell", OH_HELL_PARAMS)
    check_oh_hell(game, random.Random(seed + 1))
    rng = random.Random(seed)
    clock = time.perf_counter

    def play_games(deadline: float) -> tuple[int, int]:
        games = moves = 0
        choice = rng.choice
        while True:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    action = choice(state.chance_outcomes())[0]
                else:
                    action = choice(state.legal_actions())
                state.apply_action(action)
            games += 1
            moves += state.move_number()
            if clock() >= deadline:
                return games, oh_hell_plays(moves, games)

    return play_games


# -- report -------------------------------------------------------------------------------------------


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def pin_to_one_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    try:
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
    except OSError as exc:
        return f"not pinned ({exc})"
    return f"pinned to core {core} of {os.cpu_count()}"


def report(name: str, how: str, rate: Rate) -> None:
    """``tute4 random playouts: N games/s`` then ``tute4 card plays: N/s``; ``how`` (" (State API)") goes
    after the measure's name."""
    print(f"{name} random playouts{how}: {fmt(rate.games_per_s)} games/s")
    print(f"{name} card plays{how}: {fmt(rate.plays_per_s)}/s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="timed seconds per measurement (default 5)"
    )
    parser.add_argument("--seed", type=int, default=2024, help="seed of the random players and deals")
    args = parser.parse_args(argv)
    seconds: float = args.seconds
    seed: int = args.seed
    if not seconds > 0:
        parser.error("--seconds must be positive")

    pinned = pin_to_one_core()
    pyspiel = load_pyspiel()
    spiel = f"open_spiel {spiel_version()}" if pyspiel is not None else "OpenSpiel not installed"
    print(
        f"# Python {platform.python_version()} ({platform.python_implementation()}) on {platform.platform()}, "
        f"{cpu_model()}, {pinned}; {spiel}; median of {ROUNDS} interleaved rounds, {seconds:g} s per measurement",
        flush=True,
    )

    all_rules = {
        game: Rules.build(game, 4 if game == "pocha" else None) for game in ("tute2", "tute4", "pocha")
    }
    assert len(all_rules["pocha"].hand_sizes()) == 28  # 4 players, the full spanish sequence
    benches: dict[Label, PlayGames] = {}
    for game, rules in all_rules.items():
        benches[game, ""] = fast_path(rules, seed)
    for game, rules in all_rules.items():
        benches[game, " (State API)"] = state_api(rules, seed)
    if pyspiel is not None:
        benches[OH_HELL, ""] = oh_hell(pyspiel, seed)
    rates = measure(benches, seconds)
    for (name, how), rate in rates.items():
        report(name, how, rate)

    tute4 = rates["tute4", ""].games_per_s
    verdict = "met" if tute4 >= TUTE4_GAMES_PER_S else "MISSED"
    print(f"# target tute4 >= {TUTE4_GAMES_PER_S:.0f} games/s: {verdict} ({fmt(tute4)})")
    if (OH_HELL, "") in rates:
        ratio = rates["pocha", ""].plays_per_s / rates[OH_HELL, ""].plays_per_s
        verdict = "met" if ratio >= POCHA_VS_OH_HELL else "MISSED"
        print(f"# target pocha card plays >= {POCHA_VS_OH_HELL:g} x oh_hell's: {verdict} ({ratio:.2f} x)")
    else:
        print(
            f"# target pocha card plays >= {POCHA_VS_OH_HELL:g} x oh_hell's: not measured (pip install -e '.[bench]')"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
