"""The games API, play: a seat's view, actions, records, a bot's turns waiting and the event stream."""

from __future__ import annotations

from django.http import StreamingHttpResponse
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.apis.outputs import ViewOutput
from games.callers import caller, signed_in
from games.errors import BoardNotRevealed, MatchNotFinished
from games.models import Match, Player, Seat
from games.selectors import (
    boards_sealed,
    match_context,
    match_detail,
    match_records,
    match_view_for,
    my_turns,
)
from games.services import (
    action_submit,
    match_hint,
)
from games.signals import bot_present
from games.streams import event_lines
from tute_site.api import (
    ErrorOutput,
    Input,
    JSONIntegerField,
    NDJSONRenderer,
    PagedList,
    Pagination,
    client_address,
    query_input,
)
from tute_site.streams import LeasedLines, stream_lease


def found(match_id: int) -> Match:
    return match_detail(match_id=match_id)


class MatchViewApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=ViewOutput)
    def get(self, request: Request, match_id: int) -> Response:
        context = match_context(match_id, lock=False)
        return Response(match_view_for(context=context, player=caller(request)))


class ActionSubmitApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "ActionInput"

        action = serializers.RegexField(r"^[a-z]+(:[0-9A-Za-z]+)?$", max_length=16)
        ply = JSONIntegerField(min_value=0)

    @extend_schema(
        request=InputSerializer,
        responses=ViewOutput,
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False)],
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        key = request.headers.get("Idempotency-Key") or None
        if key is not None and len(key) > 64:
            raise serializers.ValidationError({"Idempotency-Key": ["At most 64 characters."]})
        player = signed_in(request)
        applied = action_submit(
            match_id=match_id,
            player=player,
            code=data.validated_data["action"],
            ply=data.validated_data["ply"],
            idempotency_key=key,
        )
        return Response(match_view_for(context=applied.context, player=player, ply=applied.ply + 1))


class MatchHintApi(APIView):
    """A practice game's hint: the strongest house level's move for the caller's seat to act now."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={
            200: inline_serializer(
                "MatchHint",
                {
                    "action": serializers.CharField(),
                    "ply": serializers.IntegerField(),
                    "level": serializers.CharField(),
                },
            ),
            403: OpenApiResponse(
                ErrorOutput,
                description="hints_not_allowed (rated, a tournament's, the ladder's, people at the table), not_seated",
            ),
            409: OpenApiResponse(ErrorOutput, description="not_your_turn, match_not_in_progress"),
        },
        description="In an unrated game of one person against house bots only; the match is then marked "
        "`hints_used`. The hint is what the strongest level would play from your seat's view.",
    )
    def get(self, request: Request, match_id: int) -> Response:
        hint = match_hint(match_id=match_id, player=signed_in(request))
        return Response({"action": hint.action, "ply": hint.ply, "level": hint.level})


class MatchRecordApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        description="Each game's record (docs/RULES.md, records) with its seed and result, once the match "
        "is over. Before that: 403 match_not_finished (the seeds stay secret while it is played); a "
        "duplicate tournament's match whose boards other tables still play: 403 board_not_revealed.",
        responses={
            200: inline_serializer(
                name="MatchRecords",
                fields={"match": serializers.IntegerField(), "games": serializers.JSONField()},
            ),
            403: OpenApiResponse(
                ErrorOutput,
                description="match_not_finished: the match is not over yet; board_not_revealed: other "
                "tables still play its boards.",
            ),
            404: OpenApiResponse(ErrorOutput, description="match_not_found"),
        },
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = found(match_id)
        if match.status != Match.Status.FINISHED:
            raise MatchNotFinished()
        if boards_sealed(match):
            raise BoardNotRevealed()
        return Response({"match": match.pk, "games": match_records(match)})


class MyTurnsApi(PagedList, APIView):
    """Polling for clients that cannot stream: the matches where it is the caller's turn now."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses=inline_serializer(
            "Turn", {"match": serializers.IntegerField(), "ply": serializers.IntegerField()}, many=True
        )
    )
    def get(self, request: Request) -> Response:
        player = signed_in(request)
        bot_present.send(sender=Player, player=player)  # a polling bot is online
        paginator = Pagination()
        page = paginator.paginate_queryset(my_turns(player=player), request, view=self) or []
        timeouts = dict(
            Seat.objects.filter(match__in=[m.pk for m in page], player=player).values_list(
                "match_id", "timeouts"
            )
        )
        turns = [
            {
                "match": m.pk,
                "ply": m.ply,
                "seat": m.turn_seat,
                "game": m.game,
                "deadline": m.turn_deadline,
                "timeouts": timeouts.get(m.pk, 0),
                "max_timeouts": m.max_timeouts,
                "forfeit_warning": timeouts.get(m.pk, 0) == m.max_timeouts - 1,
            }
            for m in page
        ]
        return paginator.get_paginated_response(turns)


class EventStreamApi(APIView):
    """NDJSON events for a bot: challenge, match_started, your_turn, match_finished, keepalive."""

    permission_classes = [IsAuthenticated]
    throttle_classes: list[type] = []  # one long request; the actions it leads to are throttled
    # The stream's own type may be asked for by name (``Accept: application/x-ndjson``), as may JSON.
    renderer_classes = [JSONRenderer, NDJSONRenderer]

    class FilterSerializer(serializers.Serializer):
        class Meta:
            ref_name = "EventStreamParams"

        max_seconds = serializers.FloatField(required=False, min_value=1, max_value=3600)

    @extend_schema(parameters=[FilterSerializer], responses={(200, "application/x-ndjson"): str})
    def get(self, request: Request) -> StreamingHttpResponse:
        params = self.FilterSerializer(data=query_input(request))
        params.is_valid(raise_exception=True)
        player = signed_in(request)
        # 429/503 past the caps; a bot reconnecting to a full process takes its own older stream's slot
        lease = stream_lease(account=player.user_id, address=client_address(request), replaces=True)
        lines = event_lines(
            player, max_seconds=params.validated_data.get("max_seconds", 3600), stop=lease.replaced
        )
        response = StreamingHttpResponse(LeasedLines(lines, lease), content_type="application/x-ndjson")
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # tell nginx-style proxies not to buffer the stream
        return response
