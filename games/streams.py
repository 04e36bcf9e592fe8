"""The bots' event stream: events derived from the database, woken early by Redis pub/sub.

Deriving events from rows (not from messages) means a dropped message or a reconnect loses nothing: on
(re)connection a bot is told again about every match in progress and every turn waiting for it.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, cast

from django.db import connection
from django.db.models import Q
from django.utils import timezone
from rest_framework import serializers

from games.events import match_channel, waiter_for, waiter_on
from games.models import Action, Match, Player, Seat
from games.selectors import MatchContext, match_context, match_view_for
from games.signals import bot_present, bot_stream_looked

log = logging.getLogger(__name__)

KEEPALIVE_SECONDS = 15.0
#: How often a stream looks at the database with no wake-up: a lost wake-up delays a turn this long at most.
LOOK_SECONDS = 2.0
#: A look at the database slower than this is logged (a stream that says nothing while its bot's clock runs).
SLOW_LOOK_SECONDS = 2.0
#: How often an open stream marks its bot as seen (well within TUTE_LADDER_ONLINE_SECONDS).
SEEN_SECONDS = 5.0
#: A connection also hears of matches that finished this shortly before it opened, so a bot whose stream
#: dropped just as its last move ended the match still gets ``match_finished``.
RECENT_FINISH = timedelta(minutes=5)


@dataclass
class StreamMemory:
    """What this connection has told its bot already."""

    connected_at: datetime
    challenges: set[int] = field(default_factory=set)
    started: set[int] = field(default_factory=set)
    turns: set[tuple[int, int, datetime | None]] = field(default_factory=set)
    finished: set[int] = field(default_factory=set)
    #: What each receiver of ``games.signals.bot_stream_looked`` told already, under its own key.
    notices: dict[str, set[int]] = field(default_factory=dict)


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
    events = notice_events(player, memory)  # first: they explain the turns and finishes after them
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
                    "seed_sha256": match.seed_sha256 or None,  # RULES.md 11: the current game's
                }
            )
        if match.status == Match.Status.IN_PROGRESS:
            # A turn restarted (a new client seed deals the game again before its first action) is told
            # again: its deadline changed.
            turn = (match.pk, match.ply, match.turn_deadline)
            if match.turn_seat == seat.index and turn not in memory.turns:
                memory.turns.add(turn)
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
                            "seed_sha256": view["seed_sha256"],
                            "client_seeds": view["client_seeds"],
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


def notice_events(player: Player, memory: StreamMemory) -> list[dict[str, Any]]:
    """What the apps built on games tell a bot account's stream besides its matches (the ladder: refused
    actions, timeouts and forfeit warnings), each once per connection (``games.signals.bot_stream_looked``)."""
    if not player.is_bot:
        return []
    events: list[dict[str, Any]] = []
    for _receiver, found in bot_stream_looked.send(sender=Player, player=player, memory=memory):
        events.extend(cast("list[dict[str, Any]]", found))  # each receiver's list of events
    return events


def event_lines(
    player: Player,
    *,
    max_seconds: float | None = None,
    keepalive: float = KEEPALIVE_SECONDS,
    look_every: float | None = None,
    stop: threading.Event | None = None,
) -> Iterator[bytes]:
    """NDJSON lines for one connection: events as they happen, a keep-alive line when quiet.

    The stream subscribes to the bot's channel before its first look at the database, so nothing
    committed after that look goes unheard; a wake-up wakes it at once, and it looks again every
    ``look_every`` seconds (``LOOK_SECONDS``) without one, so a wake-up lost on the way (a publish that
    failed, a subscription dropped) costs a bot seconds of its clock, not all of it. ``stop`` set (this
    connection was replaced by a newer one of the same account) ends it with ``bye``.
    """
    memory = StreamMemory(connected_at=timezone.now())
    look_every = LOOK_SECONDS if look_every is None else look_every
    started = time.monotonic()
    seen_at = -SEEN_SECONDS
    with waiter_for(player.pk) as waiter:
        yield _line({"type": "hello", "player": player.handle, "keepalive": keepalive})
        quiet_since = time.monotonic()
        how = "connect"
        while True:
            if time.monotonic() - seen_at >= SEEN_SECONDS:
                bot_present.send(sender=Player, player=player)  # an open stream: the bot is online
                seen_at = time.monotonic()
            looked = time.monotonic()
            events = pending_events(player, memory)
            if time.monotonic() - looked > SLOW_LOOK_SECONDS:
                log.warning("stream of %s: a look took %.1f s", player.handle, time.monotonic() - looked)
            for event in events:
                _log_delivery(player, event, how)
                yield _line(event)
                quiet_since = time.monotonic()
            now = time.monotonic()
            if stop is not None and stop.is_set():
                log.info("stream of %s replaced by a newer one", player.handle)
                yield _line({"type": "bye", "reason": "replaced"})
                return
            if max_seconds is not None and now - started >= max_seconds:
                yield _line({"type": "bye", "reason": "max_seconds"})
                return
            if now - quiet_since >= keepalive:
                yield _line({"type": "keepalive", "time": api_time(timezone.now())})
                quiet_since = now
            wait = min(keepalive - (now - quiet_since), look_every)
            if max_seconds is not None:
                wait = min(wait, max_seconds - (now - started))
            how = "wake-up" if waiter.wait(max(wait, 0.05)) else "look"


def _log_delivery(player: Player, event: dict[str, Any], how: str) -> None:
    """Each event sent, at debug level (a delay traced to its cause); a turn that only a periodic look
    found (its wake-up was lost or late) at info level."""
    kind = event["type"]
    if kind == "your_turn" and how == "look":
        log.info(
            "stream of %s: your_turn match %s ply %s found by a periodic look, not a wake-up (deadline %s)",
            player.handle,
            event["match"],
            event["ply"],
            event["deadline"],
        )
    elif log.isEnabledFor(logging.DEBUG):
        log.debug(
            "stream of %s: %s match %s ply %s (%s)",
            player.handle,
            kind,
            event.get("match"),
            event.get("ply"),
            how,
        )


@dataclass(frozen=True, slots=True)
class Moment:
    """One ply of a match as a watcher sees it, with the match and seats it was read with."""

    view: dict[str, Any]
    match: Match
    seats: list[Seat]
    newest: bool


#: A watcher further behind than this gets only the latest moment (a tab back after a long sleep).
MOMENTS_BACKLOG = 80


def moments_since(*, context: MatchContext, player: Player | None, after: int) -> list[Moment]:
    """One moment per ply after ``after`` up to the match's ply: the action taken (seat, code, and kind:
    move, house_bot or timeout) and what ``player`` (or a spectator) sees once it is applied.

    Only the newest moment carries ``legal``: the earlier ones are history for the page to show in turn.
    """
    match, seats = context.match, context.seats
    if after >= match.ply:
        return []
    start = max(after, match.ply - MOMENTS_BACKLOG)
    actions = {
        row["ply"]: row
        for row in Action.objects.filter(match=match, ply__gte=start, ply__lt=match.ply).values(
            "ply", "seat", "code", "kind"
        )
    }
    out = []
    for ply in range(start + 1, match.ply + 1):
        newest = ply == match.ply
        view = match_view_for(context=context, player=player, ply=None if newest else ply)
        if not newest:
            view["legal"] = None
        row = actions.get(ply - 1)
        view["action"] = (
            {"seat": row["seat"], "code": row["code"], "kind": row["kind"]} if row is not None else None
        )
        out.append(Moment(view=view, match=match, seats=seats, newest=newest))
    return out


def match_moments(
    match_id: int,
    player: Player | None,
    *,
    after: int,
    status: str | None = None,
    max_seconds: float | None = None,
    keepalive: float = KEEPALIVE_SECONDS,
) -> Iterator[Moment | None]:
    """A match's moments for its page, each once and in order, as they happen; ``None`` when quiet for
    ``keepalive`` seconds. Ends after the match is over (with its last moments) or at ``max_seconds``.
    ``after`` and ``status`` are what the watcher has seen already (its page's ply and status).

    Like the bots' stream, derived from the rows and woken early by the match's Redis channel.
    """
    started = time.monotonic()
    seen = after
    seen_status = status
    with waiter_on(match_channel(match_id)) as waiter:
        quiet_since = time.monotonic()
        while True:
            match = Match.objects.filter(pk=match_id).first()
            if match is None:
                return
            if match.ply > seen or match.status != seen_status:
                context = match_context(match_id, lock=False)
                match = context.match
                if match.ply > seen:
                    yield from moments_since(context=context, player=player, after=seen)
                elif seen_status is not None:  # no new ply but a new status (started, resigned, aborted)
                    view = match_view_for(context=context, player=player)
                    view["action"] = None
                    yield Moment(view=view, match=match, seats=context.seats, newest=True)
                seen, seen_status = match.ply, match.status
                quiet_since = time.monotonic()
            if match.status in (Match.Status.FINISHED, Match.Status.ABORTED):
                return
            now = time.monotonic()
            if max_seconds is not None and now - started >= max_seconds:
                return
            if now - quiet_since >= keepalive:
                yield None
                quiet_since = now
            wait = keepalive - (now - quiet_since)
            if max_seconds is not None:
                wait = min(wait, max_seconds - (now - started))
            if not connection.in_atomic_block:
                # Between looks a watcher holds no database connection: a page open for an hour must
                # not keep one of the server's connections (the next look opens one again).
                connection.close()
            waiter.wait(max(wait, 0.05))


_API_TIME = serializers.DateTimeField()


def api_time(value: datetime | None) -> str | None:
    """A time as the REST API writes it (DRF's ISO 8601, ``Z`` for UTC), so streams and REST agree."""
    return None if value is None else _API_TIME.to_representation(value)


def _line(event: dict[str, Any]) -> bytes:
    return (json.dumps(event, separators=(",", ":")) + "\n").encode()
