"""The match page's live feed: Server-Sent Events of every ply (games.streams.match_moments), a
conditional JSON fallback for browsers or proxies that cannot keep a stream open, and the turn clock.

Each moment is the view after one ply, so the page shows every card in turn however fast the bots
play; only the newest moment carries the clock and the legal actions, and a moment carries the Pocha
scoresheet only when it is not the one the page has (``SheetTrim``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    JsonResponse,
    StreamingHttpResponse,
)
from django.http.response import HttpResponseBase
from django.utils import timezone
from django.views.decorators.http import require_GET

from games.models import Match, Player, Seat
from games.selectors import away_seats, match_context
from games.services import player_seen
from games.services.common import turn_seconds
from games.streams import Moment, api_time, match_moments, moments_since
from tute_site.api import client_address
from tute_site.streams import LeasedLines, StreamsBusy, TooManyStreams, refusal, stream_lease
from web.people import request_player

#: A stream ends after this long and the browser reconnects (EventSource does, with Last-Event-ID):
#: a thread of the server is not held for ever by a forgotten tab.
STREAM_SECONDS = 55.0
KEEPALIVE_SECONDS = 15.0
RETRY_MS = 1000


def clock(match: Match, seats: list[Seat]) -> dict[str, Any] | None:
    """The running turn's clock: whose, until when, how long a move has, and each seat's timeouts so far.

    ``left`` is counted on the server; the page counts down from it (its own clock may be wrong).
    """
    if match.status != Match.Status.IN_PROGRESS or match.turn_seat is None or match.turn_deadline is None:
        return None
    seat = next((s for s in seats if s.index == match.turn_seat), None)
    if seat is None:
        return None
    total = turn_seconds(match, seat)
    now = timezone.now()
    left = max((match.turn_deadline - now) / timedelta(seconds=1), 0.0)
    return {
        "seat": seat.index,
        "deadline": api_time(match.turn_deadline),
        "left": round(left, 1),
        "total": total,
        "house_bot": bool(seat.bot_level),
        "timeouts": [s.timeouts for s in seats],
        "max_timeouts": match.max_timeouts,
        "away": away_seats(seats),
    }


def sheet_key(view: dict[str, Any]) -> str | None:
    """Which scoresheet a moment carries: its game and how many hands it lists (``"0:3"``); None without
    a game view. Hands only ever get added within a game, so two moments of one key carry the same sheet."""
    seen = view.get("view")
    if not seen:
        return None
    return f"{view.get('game_number') or 0}:{len(seen.get('hands_played') or ())}"


class SheetTrim:
    """Leaves out a moment's scoresheet (``view.hands_played``: every finished Pocha hand with its tricks,
    13 KB by hand 18) when the page has that sheet already: the page keeps the last one it got, so a
    moment brings it only when a hand has ended since. ``known`` is the key (``sheet_key``) of the sheet
    the page has (``?sheet=``); it may be older than the page's, never newer, which only sends more."""

    def __init__(self, known: str | None) -> None:
        self.known = known

    def __call__(self, payload: dict[str, Any]) -> dict[str, Any]:
        key = sheet_key(payload)
        if key is None:
            return payload
        if key == self.known:
            payload["view"] = {k: v for k, v in payload["view"].items() if k != "hands_played"}
        self.known = key
        return payload


class Presence:
    """Who is away at the table, for the stream's quiet moments: an ``event: presence`` with the away
    seats when they changed (a move's moment carries them in its clock). Watching is being there: a
    seated person's stream marks them as seen."""

    def __init__(self, match_id: int, player: Player | None) -> None:
        self.match_id = match_id
        self.player = player
        self.away: list[int] | None = None

    def seen(self) -> None:
        if self.player is not None:
            player_seen(user_id=self.player.user_id)

    def event(self) -> bytes | None:
        seats = list(Seat.objects.filter(match_id=self.match_id).select_related("player").order_by("index"))
        away = away_seats(seats)
        if away == self.away:
            return None
        self.away = away
        return f"event: presence\ndata: {json.dumps({'away': away})}\n\n".encode()


def moment_payload(moment: Moment, trim: SheetTrim | None = None) -> dict[str, Any]:
    payload = dict(moment.view)
    payload["clock"] = clock(moment.match, moment.seats) if moment.newest else None
    return trim(payload) if trim is not None else payload


def _sse(moment: Moment, trim: SheetTrim) -> bytes:
    data = json.dumps(moment_payload(moment, trim), separators=(",", ":"))
    return f"id: {moment.view['ply']}\nevent: moment\ndata: {data}\n\n".encode()


def _sheet(request: HttpRequest) -> str | None:
    """The scoresheet the page has (``?sheet=<game>:<hands>``), if it says."""
    raw = request.GET.get("sheet") or ""
    game, _, hands = raw.partition(":")
    return raw if game.isdigit() and hands.isdigit() else None


def _after(request: HttpRequest) -> int:
    raw = request.headers.get("Last-Event-ID") or request.GET.get("after") or "0"
    try:
        return max(int(raw), 0)
    except ValueError:
        return 0


@require_GET
def match_events(request: HttpRequest, match_id: int) -> HttpResponseBase:
    """``text/event-stream`` of the match's moments after ``?after=`` (or the Last-Event-ID)."""
    if not Match.objects.filter(pk=match_id).exists():
        return JsonResponse({"code": "match_not_found", "message": "No such match."}, status=404)
    player = request_player(request)
    try:
        lease = stream_lease(account=request.user.pk, address=client_address(request))
    except (TooManyStreams, StreamsBusy) as exc:
        return refusal(exc)  # the page falls back to polling the moments
    status = request.GET.get("status") or None
    moments = match_moments(
        match_id,
        player,
        after=_after(request),
        status=status,
        max_seconds=STREAM_SECONDS,
        keepalive=KEEPALIVE_SECONDS,
    )

    trim = SheetTrim(_sheet(request))
    presence = Presence(match_id, player)

    def lines() -> Iterator[bytes]:
        yield f"retry: {RETRY_MS}\n\n".encode()
        for moment in moments:
            presence.seen()
            if moment is None:
                yield presence.event() or b": keepalive\n\n"
            else:
                yield _sse(moment, trim)
        yield b"event: bye\ndata: {}\n\n"

    response = StreamingHttpResponse(LeasedLines(lines(), lease), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # proxies must not buffer the stream
    return response


@require_GET
def match_moments_json(request: HttpRequest, match_id: int) -> HttpResponse:
    """The fallback: the moments after ``?after=`` as JSON, 304 while nothing changed (ETag)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return JsonResponse({"code": "match_not_found", "message": "No such match."}, status=404)
    after = _after(request)
    deadline = match.turn_deadline.timestamp() if match.turn_deadline else 0
    sheet = _sheet(request)
    etag = f'W/"{match.ply}-{match.status}-{deadline:.3f}-{after}-{sheet or ""}"'
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        context = match_context(match_id, lock=False)
        match, seats = context.match, context.seats
        moments = moments_since(context=context, player=request_player(request), after=after)
        trim = SheetTrim(sheet)
        response = JsonResponse(
            {
                "ply": match.ply,
                "status": match.status,
                "moments": [moment_payload(m, trim) for m in moments],
                "clock": clock(match, seats),
            }
        )
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Cookie"
    return response
