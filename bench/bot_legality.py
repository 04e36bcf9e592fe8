"""A house bot over many random games with random flags, every game replayed by the engine; run by hand::

    python bench/bot_legality.py [--bot search] [--games 1000] [--seed S]

Game i picks a game (Tute 2, Tute 4, Pocha with 2 to 6 players), a random set of docs/RULES.md flags and
a dealer from the seed, seats the bot against the random and rule bots, and plays it through the arena
(which refuses any action not in the legal set); the record is then exported and replayed by the engine,
which must reach the same result. Prints the count of games, actions and failures (exit 1 on any).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

PROJECT_DIR = Path(__file__).resolve().parent.parent
if str(PROJECT_DIR) not in sys.path:
    sys.path.insert(0, str(PROJECT_DIR))

from games.bots import get_bot  # noqa: E402
from games.bots.arena import BotError, play_game  # noqa: E402
from games.engine import Rules, export_record, load_record, replay  # noqa: E402


def random_rules(rng: random.Random, game: str | None = None) -> Rules:
    """Rules of a random game (or of ``game``) with random flags: each flag set or left at its default."""
    if game is None:
        game = rng.choice(["tute2", "tute4", "pocha"])
    options: dict[str, Any] = {}
    flip = rng.random
    if flip() < 0.5:
        options["must_undertrump"] = flip() < 0.5
    if flip() < 0.5:
        options["beat_led_suit_even_if_trumped"] = flip() < 0.5
    if flip() < 0.3:
        options["deck48"] = True
    if game == "pocha":
        players = rng.randint(2, 6)
        if flip() < 0.5:
            options["pocha_sequence"] = rng.choice(["spanish", "up_down", [1, 2, 3], [3, 1, 2]])
        options["pocha_max_cards"] = rng.choice([3, 4, 5])  # whole games stay short
        if flip() < 0.5:
            options["pocha_hook"] = flip() < 0.5
        return Rules.build(game, players, options)
    for flag in (
        "partner_exception",
        "partner_may_sing",
        "exchange_requires_trick_win",
        "cante_before_draw",
        "cantes_in_arrastre",
        "forty_before_twenty",
        "last_trick_bonus",
    ):
        if flip() < 0.5:
            options[flag] = flip() < 0.5
    if flip() < 0.5:
        options["stock_duty"] = rng.choice(["full", "trump_lead_only", "free"])
    if flip() < 0.5:
        options["tute_declaration"] = rng.choice(["off", "wins_hand"])
    if flip() < 0.5:
        options["first_lead"] = rng.choice(["two_of_oros", "mano"])
    return Rules.build(game, None, options)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A bot's legality over random games with random flags.")
    parser.add_argument("--bot", default="search")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", default="legality")
    args = parser.parse_args(argv)
    bot, others = get_bot(args.bot), [get_bot("random"), get_bot("rule")]
    failures = actions = 0
    started = time.perf_counter()
    for number in range(args.games):
        rng = random.Random(f"{args.seed}:{number}")
        rules = random_rules(rng)
        seats = [bot if seat % 2 == number % 2 else rng.choice(others) for seat in range(rules.players)]
        seed = f"{args.seed}:{number}"
        try:
            state = play_game(rules, seats, seed=seed, dealer=rng.randrange(rules.players), rng_seed=seed)
            again = replay(load_record(export_record(state, seed=seed)))
            if again.result() != state.result():
                raise AssertionError("the replay reached another result")
        except (BotError, AssertionError) as exc:
            failures += 1
            print(f"game {number} ({rules.game}, {rules.to_options()}): {exc}", flush=True)
            continue
        actions += state.ply
        if (number + 1) % 50 == 0:
            print(f"{number + 1} games, {actions} actions, {failures} failures", flush=True)
    elapsed = time.perf_counter() - started
    print(
        f"{args.bot}: {args.games} random games with random flags, {actions} actions, {failures} failures, "
        f"every game replayed by the engine [{elapsed:.0f} s]"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
