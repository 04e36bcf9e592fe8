"""Helpers shared by the match services: the row lock, sides, turn bookkeeping, events."""

from __future__ import annotations

from datetime import timedelta

from django.db import connection
from django.utils import timezone

from games.engine import State
from games.errors import MatchNotFound
from games.events import publish_match_event
from games.models import Match, Seat

#: How long a house bot's turn may wait before the sweeper re-queues its (presumably lost) task.
HOUSE_BOT_GRACE_SECONDS = 30


def lock_match(match_id: int) -> Match:
    """The match row, locked for this transaction (PostgreSQL); callers also compare-and-swap the ply."""
    qs = Match.objects.all()
    if connection.features.has_select_for_update:
        qs = qs.select_for_update()
    match = qs.filter(pk=match_id).first()
    if match is None:
        raise MatchNotFound()
    return match


def sides(match: Match) -> int:
    return 2 if match.game == Match.GameName.TUTE4 else match.num_players


def side_of(match: Match, seat: int) -> int:
    return seat % 2 if match.game == Match.GameName.TUTE4 else seat


def set_turn(match: Match, state: State) -> None:
    """Record whose turn it is and until when; queue the house bot's move when it is a house bot's."""
    seat_index = state.current_player()
    if seat_index is None:
        match.turn_seat = None
        match.turn_deadline = None
    else:
        seat = Seat.objects.select_related("player").get(match=match, index=seat_index)
        if seat.bot_level:
            seconds = HOUSE_BOT_GRACE_SECONDS
        elif seat.player is not None and seat.player.is_bot:
            seconds = match.bot_move_seconds
        else:
            seconds = match.human_move_seconds
        match.turn_seat = seat_index
        match.turn_deadline = timezone.now() + timedelta(seconds=seconds)
        if seat.bot_level:
            queue_house_bot(match.pk, match.ply)
    match.save(update_fields=["turn_seat", "turn_deadline"])
    publish_match_event(match)


def queue_house_bot(match_id: int, ply: int) -> None:
    from games.tasks import bot_play_turn  # tasks import services: import here to keep that one-way

    bot_play_turn.delay_on_commit(match_id, ply)  # type: ignore[attr-defined]
