"""Hints in practice games: the move the strongest house level would make for the caller's seat, from
that seat's view only, in an unrated game of one person against house bots (never a rated game, a
tournament's or the ladder's); the match is then marked as played with hints."""

from __future__ import annotations

from dataclasses import dataclass

from games.bots import BOT_LEVELS
from games.errors import HintsNotAllowed, MatchNotInProgress, NotSeated, NotYourTurn
from games.models import Match, Player
from games.selectors import match_context
from games.services.play import house_bot_action

#: The level whose move a hint shows: the strongest.
HINT_LEVEL = BOT_LEVELS[-1]


@dataclass(frozen=True, slots=True)
class Hint:
    action: str
    ply: int
    level: str


def match_hint(*, match_id: int, player: Player) -> Hint:
    """The strongest level's move for ``player``'s seat to act now (same seed a replay of the hint
    gives: the game's seed, the ply and the word ``hint``)."""
    context = match_context(match_id, lock=False)
    match = context.match
    seat = context.seat_of(player)
    if seat is None:
        raise NotSeated()
    others = [s for s in context.seats if s.index != seat.index]
    if match.rated or match.managed or not all(s.bot_level for s in others):
        raise HintsNotAllowed()
    if match.status != Match.Status.IN_PROGRESS or context.game is None or context.state is None:
        raise MatchNotInProgress()
    game, state = context.game, context.state
    if state.current_player() != game.game_seat(seat.index):
        raise NotYourTurn("A hint is for your turn.")
    code = house_bot_action(
        HINT_LEVEL, state, game.game_seat(seat.index), seed=f"{game.seed}:{match.ply}:hint"
    )
    if not match.hints_used:
        Match.objects.filter(pk=match.pk, hints_used=False).update(hints_used=True)
    return Hint(action=code, ply=match.ply, level=HINT_LEVEL)
