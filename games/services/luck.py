"""The luck of a deal: what its cards score on average, so that a result can be set against it.

After a game, a worker has the house ``rule`` bot play the same deal (same seed, same dealer) from every
seat, a few times with different random streams, and stores each side's average score. "You scored 72;
these cards average 58": the difference is what the play added to the cards (docs/FAIRNESS.md).
"""

from __future__ import annotations

from typing import Any

from games.bots import get_bot
from games.bots.arena import play_game
from games.models import Game
from games.states import match_rules

#: The house bot that plays the deal, and how many times (each with its own random stream).
LUCK_BOT = "rule"
LUCK_PLAYS = 4


def game_luck_compute(*, game_id: int) -> dict[str, Any] | None:
    """Compute and store a finished game's luck figure once; its stored figure when it has one, None for a
    game that is not finished. Runs outside any transaction (the plays take a moment) and writes with a
    conditional update, so a redelivered task changes nothing."""
    game = Game.objects.select_related("match").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.FINISHED:
        return None
    if game.luck is not None:
        return dict(game.luck)
    rules = match_rules(game.match)
    bot = get_bot(LUCK_BOT)
    totals: list[float] = []
    for play in range(LUCK_PLAYS):
        state = play_game(
            rules,
            [bot] * rules.players,
            seed=game.seed,
            dealer=game.dealer,
            rng_seed=f"{game.seed}:luck:{play}",
        )
        result = state.result()
        assert result is not None
        if not totals:
            totals = [0.0] * len(result.scores)
        for side, score in enumerate(result.scores):
            totals[side] += score
    luck = {"expected": [round(t / LUCK_PLAYS, 1) for t in totals], "plays": LUCK_PLAYS, "bot": LUCK_BOT}
    if Game.objects.filter(pk=game.pk, luck__isnull=True).update(luck=luck) == 1:
        return luck
    stored = Game.objects.values_list("luck", flat=True).get(pk=game.pk)  # another run stored it first
    return dict(stored) if stored else None
