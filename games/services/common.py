"""Helpers shared by the match services: the row lock, sides, turn bookkeeping, events."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import connection, transaction
from django.utils import timezone

from games.engine import State
from games.errors import MatchNotFound
from games.events import publish_match_event
from games.models import Game, Match, Seat
from games.selectors import LoadedMatch, match_loaded

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


def lock_loaded(match_id: int, *, full: bool = False) -> LoadedMatch:
    """``lock_match``, with the seats and the current game read in the same statement; the match's
    timestamps and result too when ``full`` (for a caller that answers with the whole match or reads
    the turn's deadline)."""
    loaded = match_loaded(match_id=match_id, lock=True, full=full)
    if loaded is None:
        raise MatchNotFound()
    game = loaded.game
    if game is not None and loaded.match.ply == game.first_ply:
        # Until its first action a game may be dealt again from new client seeds (RULES.md section 11),
        # maybe while this transaction waited for the lock: read its seed now that the lock is held.
        game.seed = Game.objects.filter(pk=game.pk).values_list("seed", flat=True).get()
    return loaded


def sides(match: Match) -> int:
    return 2 if match.game == Match.GameName.TUTE4 else match.num_players


def side_of(match: Match, seat: int) -> int:
    return seat % 2 if match.game == Match.GameName.TUTE4 else seat


def turn_after(
    match: Match, state: State, seats: list[Seat] | None = None, *, seat_map: list[int] | None = None
) -> tuple[int | None, datetime | None]:
    """Whose turn it is in ``state`` and its deadline, by the kind of seat (house bot, bot account, person).

    ``seat_map`` (a duplicate match's game) gives the match seat holding each game seat."""
    seat_index = state.current_player()
    if seat_index is None:
        return None, None
    if seat_map:
        seat_index = int(seat_map[seat_index])
    if seats is None:
        seat = Seat.objects.select_related("player").get(match=match, index=seat_index)
    else:
        seat = next(s for s in seats if s.index == seat_index)
    if seat.bot_level:
        seconds = HOUSE_BOT_GRACE_SECONDS
    elif seat.player is not None and seat.player.is_bot:
        seconds = match.bot_move_seconds
    else:
        seconds = match.human_move_seconds
    return seat_index, timezone.now() + timedelta(seconds=seconds)


def turn_started(match: Match, seats: list[Seat] | None = None) -> None:
    """After the turn fields are saved: queue the house bot's move if it is a house bot's, wake streams."""
    if match.turn_seat is not None:
        if seats is None:
            house = Seat.objects.filter(match=match, index=match.turn_seat).exclude(bot_level="").exists()
        else:
            house = any(s.index == match.turn_seat and s.bot_level for s in seats)
        if house:
            queue_house_bot(match.pk, match.ply)
        else:
            queue_push_turn(match, seats)
    publish_match_event(match, seats)


def set_turn(
    match: Match,
    state: State,
    seats: list[Seat] | None = None,
    *,
    also_save: tuple[str, ...] = (),
    seat_map: list[int] | None = None,
) -> None:
    """Record whose turn it is and until when (with the ``also_save`` fields), then start that turn."""
    match.turn_seat, match.turn_deadline = turn_after(match, state, seats, seat_map=seat_map)
    match.save(update_fields=["turn_seat", "turn_deadline", *also_save])
    turn_started(match, seats)


def queue_house_bot(match_id: int, ply: int) -> None:
    """Queue the house bot's move once this transaction commits.

    Robust: a broker outage must not turn a committed move into an error or skip the other callbacks;
    the sweeper re-queues the turn when its deadline passes.
    """
    from games.tasks import bot_play_turn  # tasks import services: import here to keep that one-way

    transaction.on_commit(lambda: bot_play_turn.delay(match_id, ply), robust=True)


def queue_push_turn(match: Match, seats: list[Seat] | None = None) -> None:
    """When the seat to act is a push bot (games.ladder.push), queue the POST of its turn on commit."""
    from games.ladder.models import BotProfile
    from games.tasks import push_turn_task  # tasks import services: import here to keep that one-way

    if match.turn_seat is None:
        return
    if seats is None:
        seat = Seat.objects.select_related("player").filter(match=match, index=match.turn_seat).first()
    else:
        seat = next((s for s in seats if s.index == match.turn_seat), None)
    if seat is None or seat.player_id is None or not seat.player or not seat.player.is_bot:
        return
    if not BotProfile.objects.filter(player_id=seat.player_id).exclude(push_url="").exists():
        return
    match_id, ply = match.pk, match.ply
    transaction.on_commit(lambda: push_turn_task.delay(match_id, ply), robust=True)
