"""The ladder's API: the bot leaderboard per game and the authors' status pages."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.errors import UnknownGame
from games.ladder.outputs import ValidationOutput, validation_out
from matchmaking.selectors import LEADERBOARD_GAMES, bot_for_author, bot_leaderboard, bot_status
from tute_site.api import Pagination


class BotRowOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    handle = serializers.CharField(allow_null=True, help_text="Null for a house-bot level.")
    display_name = serializers.CharField()
    owner = serializers.CharField(allow_null=True)
    house_bot = serializers.CharField(
        allow_null=True, help_text="The level of a house-bot anchor, else null."
    )
    rating = serializers.FloatField()
    provisional = serializers.BooleanField()
    matches = serializers.IntegerField(help_text="Rated matches in the game's pool.")
    win_share = serializers.FloatField(allow_null=True, help_text="Share of its finished rated matches won.")
    error_rate = serializers.FloatField(allow_null=True, help_text="Refused actions per turn.")
    timeout_rate = serializers.FloatField(
        allow_null=True, help_text="Turns played for it on timeout, per turn."
    )
    last_seen = serializers.DateTimeField(allow_null=True)
    online = serializers.BooleanField()


class BotLeaderboardApi(APIView):
    """A game's bot leaderboard: bot accounts and the house-bot levels (labelled anchors)."""

    permission_classes = [AllowAny]
    pagination_class = Pagination  # drf-spectacular documents the page, not a plain array

    @extend_schema(
        parameters=[OpenApiParameter("game", str, OpenApiParameter.PATH, enum=list(LEADERBOARD_GAMES))],
        responses=BotRowOutput(many=True),
    )
    def get(self, request: Request, game: str) -> Response:
        if game not in LEADERBOARD_GAMES:
            raise UnknownGame(f"Unknown game {game!r}: choose from {', '.join(LEADERBOARD_GAMES)}.")
        paginator = self.pagination_class()
        rows: Any = bot_leaderboard(game=game)  # a list: DRF's paginator pages any sequence
        page: list[Any] = paginator.paginate_queryset(rows, request, view=self) or []
        return paginator.get_paginated_response(BotRowOutput([asdict(row) for row in page], many=True).data)


class IncidentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(help_text="illegal (a refused action) or timeout (a move played for it).")
    match = serializers.IntegerField(source="match_id")
    seat = serializers.IntegerField()
    ply = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    payload = serializers.JSONField(help_text="The turn the bot had: match, ply, legal, view.")
    sent = serializers.JSONField(allow_null=True, help_text="The request it sent (null for a timeout).")
    answer = serializers.JSONField(help_text="The server's answer, or the move played for it.")


class CurrentMatchOutput(serializers.Serializer):
    match = serializers.IntegerField()
    game = serializers.CharField()
    kind = serializers.CharField(help_text="ladder, validation or other.")
    rated = serializers.BooleanField()
    status = serializers.CharField()
    seat = serializers.IntegerField()
    ply = serializers.IntegerField()
    your_turn = serializers.BooleanField()
    deadline = serializers.DateTimeField(allow_null=True)
    timeouts = serializers.IntegerField()
    max_timeouts = serializers.IntegerField()


class RatingPointOutput(serializers.Serializer):
    date = serializers.DateTimeField()
    rating = serializers.FloatField()
    change = serializers.FloatField()
    match = serializers.IntegerField()


class PoolRatingOutput(serializers.Serializer):
    pool = serializers.CharField()
    rating = serializers.FloatField()
    matches = serializers.IntegerField()
    provisional = serializers.BooleanField()
    history = RatingPointOutput(many=True)


class BotStatusOutput(serializers.Serializer):
    handle = serializers.CharField()
    display_name = serializers.CharField()
    online = serializers.BooleanField()
    last_seen = serializers.DateTimeField(allow_null=True)
    games = serializers.ListField(child=serializers.CharField())
    validation = serializers.SerializerMethodField()
    current_matches = CurrentMatchOutput(many=True)
    recent_errors = IncidentOutput(many=True)
    ratings = PoolRatingOutput(many=True)

    @extend_schema_field(ValidationOutput(many=True))
    def get_validation(self, status: dict[str, Any]) -> list[dict[str, Any]]:
        return [validation_out(v) for v in status["validation"]]


class BotStatusApi(APIView):
    """The bot's status for its owner (or the bot itself): others get 404 not_a_bot."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=BotStatusOutput)
    def get(self, request: Request, handle: str) -> Response:
        bot = bot_for_author(user=request.user, handle=handle)
        return Response(BotStatusOutput(bot_status(bot=bot)).data)
