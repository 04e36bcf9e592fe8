"""The ladder listens to games (games.signals): each receiver hands its event to one ladder service or
queues one task, and decides nothing itself."""

from __future__ import annotations

from typing import Any

from games.models import Match, Player, Seat
from games.selectors import MatchContext
from games.streams import StreamMemory
from ladder.incidents import refusal_record, timeout_record
from ladder.models import LadderMatch
from ladder.notices import incident_events
from ladder.services import bot_seen, push_turn_queue
from tute_site.celery import queue_on_commit


def queue_ladder_match_finished(sender: object, *, match: Match, **kwargs: Any) -> None:
    if LadderMatch.objects.filter(match=match, finished=False).exists():
        # A lost message is caught up by the matchmaker's tick (ladder_matches_settle).
        queue_on_commit("ladder.match_finished", match.pk)


def queue_push_turn(sender: object, *, match: Match, seat: Seat, **kwargs: Any) -> None:
    push_turn_queue(match=match, seat=seat)


def record_refusal(
    sender: object,
    *,
    match_id: int,
    player: Player,
    code: str,
    ply: int,
    answer: dict[str, Any],
    **kwargs: Any,
) -> None:
    refusal_record(match_id=match_id, player=player, code=code, ply=ply, answer=answer)


def record_timeout(
    sender: object, *, context: MatchContext, seat: Seat, ply: int, code: str, **kwargs: Any
) -> None:
    timeout_record(context=context, seat=seat, ply=ply, code=code)


def mark_bot_seen(sender: object, *, player: Player, **kwargs: Any) -> None:
    bot_seen(player=player)


def stream_incident_events(
    sender: object, *, player: Player, memory: StreamMemory, **kwargs: Any
) -> list[dict[str, Any]]:
    return incident_events(player=player, memory=memory)
