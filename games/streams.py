"""The bots' event stream: events derived from the database, woken early by Redis pub/sub.

Deriving events from rows (not from messages) means a dropped message or a reconnect loses nothing: on
(re)connection a bot is told again about every match in progress and every turn waiting for it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone
from rest_framework import serializers

from games.events import waiter_for
from games.models import Match, Player, Seat
from games.selectors import match_context, match_view_for

KEEPALIVE_SECONDS = 15.0
#: A connection also hears of matches that finished this shortly before it opened, so a bot whose stream
#: dropped just as its last move ended the match still gets ``match_finished``.
RECENT_FINISH = timedelta(minutes=5)


@dataclass
class StreamMemory:
    """What this connection has told its bot already."""

    connected_at: datetime
    challenges: set[int] = field(default_factory=set)
    started: set[int] = field(default_factory=set)
    turns: set[tuple[int, int]] = field(default_factory=set)
    finished: set[int] = field(default_factory=set)


def pending_events(player: Player, memory: StreamMemory) -> list[dict[str, Any]]:
    """The events the bot has not heard yet on this connection, in order."""
    seats = (
        Seat.objects.filter(player=player)
        .filter(
            Q(match__status__in=[Match.Status.OPEN, Match.Status.IN_PROGRESS])
            | Q(match__finished_at__gte=memory.connected_at - RECENT_FINISH)
        )
        .select_related("match")
        .order_by("match_id")
    )
    events: list[dict[str, Any]] = []
    for seat in seats:
        match = seat.match
        if match.status == Match.Status.OPEN:
            if not seat.accepted and match.pk not in memory.challenges:
                memory.challenges.add(match.pk)
                events.append(
                    {"type": "challenge", "match": match.pk, "game": match.game, "seat": seat.index, "ply": 0}
                )
            continue
        if match.started_at is not None and match.pk not in memory.started:
            memory.started.add(match.pk)
            events.append(
                {
                    "type": "match_started",
                    "match": match.pk,
                    "game": match.game,
                    "players": match.num_players,
                    "seat": seat.index,
                    "options": match.options,
                }
            )
        if match.status == Match.Status.IN_PROGRESS:
            if match.turn_seat == seat.index and (match.pk, match.ply) not in memory.turns:
                memory.turns.add((match.pk, match.ply))
                view = match_view_for(context=match_context(match.pk, lock=False), player=player)
                if view["legal"]:  # read in the same moment as the turn: still ours
                    events.append(
                        {
                            "type": "your_turn",
                            "match": match.pk,
                            "ply": view["ply"],
                            "deadline": api_time(match.turn_deadline),
                            "legal": view["legal"],
                            "view": view["view"],
                        }
                    )
        elif match.pk not in memory.finished:
            memory.finished.add(match.pk)
            events.append(
                {
                    "type": "match_finished",
                    "match": match.pk,
                    "status": match.status,
                    "reason": match.finish_reason,
                    "result": match.result,
                }
            )
    return events


def event_lines(
    player: Player, *, max_seconds: float | None = None, keepalive: float = KEEPALIVE_SECONDS
) -> Iterator[bytes]:
    """NDJSON lines for one connection: events as they happen, a keep-alive line when quiet."""
    memory = StreamMemory(connected_at=timezone.now())
    started = time.monotonic()
    with waiter_for(player.pk) as waiter:
        yield _line({"type": "hello", "player": player.handle, "keepalive": keepalive})
        quiet_since = time.monotonic()
        while True:
            for event in pending_events(player, memory):
                yield _line(event)
                quiet_since = time.monotonic()
            now = time.monotonic()
            if max_seconds is not None and now - started >= max_seconds:
                yield _line({"type": "bye", "reason": "max_seconds"})
                return
            if now - quiet_since >= keepalive:
                yield _line({"type": "keepalive", "time": api_time(timezone.now())})
                quiet_since = now
            wait = keepalive - (now - quiet_since)
            if max_seconds is not None:
                wait = min(wait, max_seconds - (now - started))
            waiter.wait(max(wait, 0.05))


_API_TIME = serializers.DateTimeField()


def api_time(value: datetime | None) -> str | None:
    """A time as the REST API writes it (DRF's ISO 8601, ``Z`` for UTC), so streams and REST agree."""
    return None if value is None else _API_TIME.to_representation(value)


def _line(event: dict[str, Any]) -> bytes:
    return (json.dumps(event, separators=(",", ":")) + "\n").encode()
