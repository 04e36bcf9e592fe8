"""Helpers shared by the match services: sides, turn bookkeeping, queueing house bots, events."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone

from games.engine import State
from games.events import publish_match_event
from games.models import Match, Seat
from games.selectors import MatchContext
from tute_site.celery import queue_on_commit

#: How long a house bot's turn may wait before the sweeper re-queues its (presumably lost) task.
HOUSE_BOT_GRACE_SECONDS = 30


def sides(match: Match) -> int:
    return 2 if match.game == Match.GameName.TUTE4 else match.num_players


def side_of(match: Match, seat: int) -> int:
    return seat % 2 if match.game == Match.GameName.TUTE4 else seat


def turn_after(
    match: Match, seats: list[Seat], state: State, *, seat_map: list[int] | None = None
) -> tuple[int | None, datetime | None]:
    """Whose turn it is in ``state`` and its deadline, by the kind of seat (house bot, bot account, person).

    ``seat_map`` (a duplicate match's game) gives the match seat holding each game seat."""
    seat_index = state.current_player()
    if seat_index is None:
        return None, None
    if seat_map:
        seat_index = int(seat_map[seat_index])
    seat = next(s for s in seats if s.index == seat_index)
    return seat_index, timezone.now() + timedelta(seconds=move_seconds(match, seat))


def move_seconds(match: Match, seat: Seat) -> int:
    """How long ``seat`` has for a move: a house bot the sweeper's grace, a bot account and a person
    the match's move times (the turn's deadline and the page's clock both count from it)."""
    if seat.bot_level:
        return HOUSE_BOT_GRACE_SECONDS
    if seat.player is not None and seat.player.is_bot:
        return match.bot_move_seconds
    return match.human_move_seconds


def turn_started(context: MatchContext) -> None:
    """After the turn fields are saved: queue the house bot's move if it is a house bot's, wake streams."""
    match = context.match
    seat = context.seat_at(match.turn_seat)
    if seat is not None and seat.bot_level:
        seated = any(s.player_id is not None for s in context.seats)
        queue_house_bot(match.pk, match.ply, players=seated)
    elif seat is not None:
        queue_push_turn(match, seat)
    publish_match_event(match, context.seats)


def set_turn(context: MatchContext, state: State, *, also_save: tuple[str, ...] = ()) -> None:
    """Record whose turn it is and until when (with the ``also_save`` fields), then start that turn."""
    match = context.match
    seat_map = context.game.seat_map if context.game is not None else None
    match.turn_seat, match.turn_deadline = turn_after(match, context.seats, state, seat_map=seat_map)
    match.save(update_fields=["turn_seat", "turn_deadline", *also_save])
    turn_started(context)


def queue_house_bot(match_id: int, ply: int, *, players: bool = True) -> None:
    """Queue the house bot's move at ``ply`` once this transaction commits; the sweeper re-queues a
    turn whose task was lost when its deadline passes.

    A match where someone (a person or a bot account) sits goes on the default queue; a match of house
    bots only goes on ``TUTE_BOT_ONLY_QUEUE``, which workers read in turn with the default one, so a
    flood of bot-only matches never makes a player wait behind all of their turns.
    """
    queue = settings.CELERY_TASK_DEFAULT_QUEUE if players else settings.TUTE_BOT_ONLY_QUEUE
    queue_on_commit("games.bot_play_turn", match_id, ply, queue=queue)


def queue_push_turn(match: Match, seat: Seat) -> None:
    """When the seat to act is a push bot (games.ladder.push), queue the POST of its turn on commit.

    The bot's profile is read with the match's seats (``games.selectors.match_context``), so a move
    costs no query for this; seats loaded some other way read it once."""
    player = seat.player
    if player is None or not player.is_bot:
        return
    try:
        push_url = player.ladder.push_url
    except ObjectDoesNotExist:  # a bot that never set up the ladder or push
        return
    if push_url:
        queue_on_commit("games.push_turn", match.pk, match.ply)
