"""The lobby's API: quick-pairing seeks (make, poll, cancel, answer) and the lobby itself, as JSON and
as a live stream (Server-Sent Events)."""

from __future__ import annotations

from django.http import StreamingHttpResponse
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.callers import caller, signed_in
from games.models import Match
from lobby.models import Seek
from lobby.selectors import lobby_snapshot, seeks_of
from lobby.services import seek_answer, seek_cancel, seek_create, seek_seen, window
from lobby.streams import STREAM_SECONDS, lobby_lines
from ratings.outputs import BOT_LEVEL_OUTPUT
from tute_site.api import ErrorOutput, EventStreamRenderer, Input, PagedList, client_address, query_input
from tute_site.streams import LeasedLines, stream_lease


class SeekOutput(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    players = serializers.IntegerField(source="num_players")
    rated = serializers.BooleanField()
    human_move_seconds = serializers.IntegerField()
    max_timeouts = serializers.IntegerField()
    rating = serializers.FloatField(help_text="Your rating in the game's pool when the seek was made.")
    rating_min = serializers.FloatField(allow_null=True)
    rating_max = serializers.FloatField(allow_null=True)
    bots_after_seconds = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=Seek.Status.choices)
    match = serializers.IntegerField(source="match_id", allow_null=True, help_text="Once matched: the match.")
    created_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    waited_seconds = serializers.SerializerMethodField()
    window = serializers.SerializerMethodField(help_text="How far from your rating opponents are taken now.")

    def get_waited_seconds(self, seek: Seek) -> int:
        end = seek.ended_at or timezone.now()
        return int((end - seek.created_at).total_seconds())

    def get_window(self, seek: Seek) -> int:
        return round(window(seek, seek.ended_at or timezone.now()))


class SeekListCreateApi(PagedList, APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "SeekCreateInput"

        game = serializers.ChoiceField(choices=Match.GameName.choices)
        players = serializers.IntegerField(
            required=False, min_value=2, max_value=6, help_text="Pocha: 2 to 6."
        )
        rated = serializers.BooleanField(required=False, default=True)
        human_move_seconds = serializers.IntegerField(
            required=False, default=120, min_value=1, max_value=86400
        )
        max_timeouts = serializers.IntegerField(required=False, default=3, min_value=1, max_value=100)
        rating_min = serializers.FloatField(
            required=False, allow_null=True, default=None, min_value=0, max_value=5000
        )
        rating_max = serializers.FloatField(
            required=False, allow_null=True, default=None, min_value=0, max_value=5000
        )
        bots_after_seconds = serializers.IntegerField(
            required=False,
            allow_null=True,
            default=None,
            min_value=0,
            max_value=3600,
            help_text="Without people after this long, house bots of a matching level fill the free seats.",
        )

    @extend_schema(responses=SeekOutput(many=True), description="Your seeks, the newest first.")
    def get(self, request: Request) -> Response:
        return self.page_response(request, seeks_of(player=signed_in(request)), SeekOutput)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: SeekOutput,
            403: OpenApiResponse(ErrorOutput, description="people_only: bot accounts do not seek"),
            409: OpenApiResponse(ErrorOutput, description="seek_exists: one waiting seek per game"),
            429: OpenApiResponse(ErrorOutput, description="too_many_seeks, throttled"),
        },
        description="Look for a game with people of close rating: the worker seats you within seconds when "
        "seeks fit (the rating window widens as you wait). Poll GET /api/v1/seeks/{id}/ (or watch the "
        "lobby's stream) at least every TUTE_SEEK_IDLE_SECONDS, or the seek ends.",
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seek = seek_create(player=signed_in(request), **data.validated_data)
        return Response(SeekOutput(seek).data, status=status.HTTP_201_CREATED)


class SeekDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: SeekOutput, 404: OpenApiResponse(ErrorOutput, description="seek_not_found")},
        description="Your seek now (polling it keeps it alive): once `matched`, `match` is the match to play.",
    )
    def get(self, request: Request, seek_id: int) -> Response:
        return Response(SeekOutput(seek_seen(seek_id=seek_id, player=signed_in(request))).data)

    @extend_schema(
        responses={
            200: SeekOutput,
            404: OpenApiResponse(ErrorOutput, description="seek_not_found"),
            409: OpenApiResponse(ErrorOutput, description="seek_matched: it found its match already"),
        },
        description="Stop looking (an ended seek stays as it is).",
    )
    def delete(self, request: Request, seek_id: int) -> Response:
        return Response(SeekOutput(seek_cancel(seek_id=seek_id, player=signed_in(request))).data)


class SeekAnswerApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            201: inline_serializer("SeekAnswered", {"match": serializers.IntegerField()}),
            404: OpenApiResponse(ErrorOutput, description="seek_not_found: no such seek waiting"),
            409: OpenApiResponse(ErrorOutput, description="seek_out_of_range"),
        },
        description="Take up someone's two-player seek from the lobby: the match starts at once.",
    )
    def post(self, request: Request, seek_id: int) -> Response:
        match = seek_answer(seek_id=seek_id, player=signed_in(request))
        return Response({"match": match.pk}, status=status.HTTP_201_CREATED)


_SEAT = inline_serializer(
    "LobbySeat",
    many=True,
    fields={
        "index": serializers.IntegerField(),
        "player": serializers.CharField(allow_null=True),
        "house_bot": serializers.CharField(allow_blank=True),
        "rating": serializers.IntegerField(allow_null=True),
    },
)
LOBBY_OUTPUT = inline_serializer(
    "Lobby",
    {
        "tables": inline_serializer(
            "LobbyTable",
            {
                "match": serializers.IntegerField(),
                "game": serializers.CharField(),
                "players": serializers.IntegerField(),
                "options": serializers.JSONField(),
                "rated": serializers.BooleanField(),
                "human_move_seconds": serializers.IntegerField(),
                "max_timeouts": serializers.IntegerField(),
                "created_at": serializers.DateTimeField(),
                "expires_at": serializers.DateTimeField(allow_null=True),
                "free_seats": serializers.ListField(child=serializers.IntegerField()),
                "seats": _SEAT,
            },
            many=True,
        ),
        "seeks": inline_serializer(
            "LobbySeek",
            {
                "seek": serializers.IntegerField(),
                "player": serializers.CharField(),
                "game": serializers.CharField(),
                "players": serializers.IntegerField(),
                "rated": serializers.BooleanField(),
                "human_move_seconds": serializers.IntegerField(),
                "rating": serializers.IntegerField(),
                "created_at": serializers.DateTimeField(),
                "waited_seconds": serializers.IntegerField(),
                "window": serializers.IntegerField(),
            },
            many=True,
        ),
        "online": inline_serializer(
            "LobbyOnline",
            {
                "count": serializers.IntegerField(),
                "players": serializers.ListField(child=serializers.CharField()),
            },
        ),
        "house_levels": BOT_LEVEL_OUTPUT,
    },
)


#: One Server-Sent Event of the stream, as a client's parser gives it: ``lobby`` (``data``: the lobby as
#: GET /api/v1/lobby/ answers it, as JSON text) or ``bye``; keep-alive comments are no events.
SSE_EVENT = {
    "type": "object",
    "properties": {
        "event": {"type": "string", "enum": ["lobby", "bye"]},
        "data": {"type": "string", "description": "JSON text"},
        "id": {"type": "string"},
        "retry": {"type": "integer"},
    },
    "required": ["data"],
}


class LobbyApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses=LOBBY_OUTPUT,
        description="Public open tables with a free seat (join one with POST /api/v1/matches/{id}/join/), "
        "the people looking for a game (seeks), who is online (at most 100 of each) and the house bot "
        "levels with their ratings, as GET /api/v1/bots/levels/ lists them. "
        "GET /api/v1/lobby/stream/ sends the same whenever it changes.",
    )
    def get(self, request: Request) -> Response:
        return Response(lobby_snapshot())


class LobbyStreamApi(APIView):
    """Server-Sent Events: ``event: lobby`` with GET /api/v1/lobby/'s body each time it changes."""

    permission_classes = [AllowAny]
    throttle_classes: list[type] = []  # one long request
    renderer_classes = [EventStreamRenderer, JSONRenderer]

    class FilterSerializer(serializers.Serializer):
        class Meta:
            ref_name = "LobbyStreamParams"

        max_seconds = serializers.FloatField(required=False, min_value=1, max_value=STREAM_SECONDS)

    @extend_schema(
        parameters=[FilterSerializer],
        responses={
            (200, "text/event-stream"): SSE_EVENT,
            429: OpenApiResponse(ErrorOutput, description="too_many_streams"),
        },
        description=f"The lobby live: one `lobby` event at once and one each time it changes, keep-alive comments "
        f"when quiet; the stream ends after {STREAM_SECONDS:.0f} s (EventSource reconnects). A signed-in "
        "watcher's seeks stay alive while it watches.",
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        params = self.FilterSerializer(data=query_input(request))
        params.is_valid(raise_exception=True)
        player = caller(request)
        lease = stream_lease(account=request.user.pk, address=client_address(request))
        lines = lobby_lines(
            player=player, max_seconds=params.validated_data.get("max_seconds", STREAM_SECONDS)
        )
        response = StreamingHttpResponse(LeasedLines(lines, lease), content_type="text/event-stream")
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"
        return response
