"""Ratings API: leaderboards per pool and a player's ratings with history."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Player
from ratings.errors import PlayerNotFound, UnknownPool
from ratings.models import Pool, Rating
from ratings.outputs import BOT_LEVEL_OUTPUT
from ratings.selectors import house_levels, is_provisional, leaderboard, player_ratings
from tute_site.api import PagedList, QueryIntegerField, query_input

#: Ten years: past that a date before the calendar's first year would be asked for (a 500 once).
MAX_ACTIVE_DAYS = 3650


class CompetitorOutput(serializers.Serializer):
    subject = serializers.CharField()
    name = serializers.SerializerMethodField()
    handle = serializers.SerializerMethodField()
    partner = serializers.SerializerMethodField()
    is_bot = serializers.BooleanField()
    rating = serializers.SerializerMethodField()
    rated_matches = serializers.IntegerField()
    provisional = serializers.SerializerMethodField()
    last_played_at = serializers.DateTimeField(allow_null=True)

    def get_name(self, r: Rating) -> str:
        if r.house_bot:
            return f"House bot ({r.house_bot})"
        names = [p.display_name for p in (r.player, r.partner) if p is not None]
        return " & ".join(names)

    def get_handle(self, r: Rating) -> str | None:
        return r.player.handle if r.player is not None else None

    def get_partner(self, r: Rating) -> str | None:
        return r.partner.handle if r.partner is not None else None

    def get_rating(self, r: Rating) -> float:
        return round(r.rating, 1)

    def get_provisional(self, r: Rating) -> bool:
        return is_provisional(r)


class LeaderboardApi(PagedList, APIView):
    permission_classes = [AllowAny]

    class FilterSerializer(serializers.Serializer):
        class Meta:
            ref_name = "LeaderboardFilter"

        min_matches = QueryIntegerField(required=False, default=0, min_value=0, max_value=1_000_000)
        active_days = QueryIntegerField(
            required=False, min_value=1, max_value=MAX_ACTIVE_DAYS, help_text="Played within this many days."
        )
        bots = serializers.ChoiceField(choices=["include", "exclude", "only"], default="include")

    @extend_schema(parameters=[FilterSerializer], responses=CompetitorOutput(many=True))
    def get(self, request: Request, pool: str) -> Response:
        if pool not in Pool.values:
            raise UnknownPool(f"Unknown rating pool {pool!r}: one of {', '.join(Pool.values)}.")
        filters = self.FilterSerializer(data=query_input(request))
        filters.is_valid(raise_exception=True)
        return self.page_response(request, leaderboard(pool=pool, **filters.validated_data), CompetitorOutput)


class PlayerRatingsApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, handle: str) -> Response:
        player = Player.objects.filter(handle=handle).first()
        if player is None:
            raise PlayerNotFound()
        out: list[dict[str, Any]] = []
        for item in player_ratings(player=player):
            rating: Rating = item["rating"]
            out.append(
                {
                    "pool": rating.pool,
                    **CompetitorOutput(rating).data,
                    "history": [
                        {**point, "rating": round(point["rating"], 1), "change": round(point["change"], 1)}
                        for point in item["history"]
                    ],
                }
            )
        return Response(
            {
                "player": {
                    "handle": player.handle,
                    "display_name": player.display_name,
                    "is_bot": player.is_bot,
                },
                "ratings": out,
            }
        )


class BotLevelsApi(APIView):
    """The house bot levels, weakest first, each with what it plays like, its rating in each pool as its
    games against people and other bots have made it (with the date of its last rated game), and its
    rating in each game as measured by the levels' play against each other (with the date measured)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=BOT_LEVEL_OUTPUT)
    def get(self, request: Request) -> Response:
        return Response(house_levels())
