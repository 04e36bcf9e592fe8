"""The ladder's API: a bot account's ladder settings and validation, its notices, the bot leaderboard
per game and the authors' status pages. The paths are under /api/v1/ beside the games app's
(``bots/...``): ladder/urls.py is included after games/urls.py."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.callers import IsPerson, signed_in_user
from games.errors import UnknownGame
from games.models import Match, Player
from games.services import bot_create, bot_settings_update
from ladder.models import BotProfile, Validation
from ladder.notices import incident_notices
from ladder.selectors import LEADERBOARD_GAMES, bot_for_author, bot_leaderboard, bot_status, notices_of
from ladder.services import ladder_games_set, push_endpoint_set, validation_request
from tute_site.api import Input, PagedList, Pagination, QueryIntegerField, query_input, secret

# -- a bot's validation ---------------------------------------------------------------------------------


def validation_out(validation: Validation) -> dict[str, Any]:
    return {
        "game": validation.game,
        "status": validation.status,
        "passed": validation.passed,
        "required": validation.required,
        "failure_reason": validation.failure_reason,
        "failure_incident": validation.failure_id,
    }


class ValidationOutput(serializers.Serializer):
    game = serializers.CharField()
    status = serializers.ChoiceField(choices=Validation.Status.choices)
    passed = serializers.IntegerField()
    required = serializers.IntegerField()  # type: ignore[assignment]  # (popped by the metaclass)
    failure_reason = serializers.CharField()
    failure_incident = serializers.IntegerField(allow_null=True, help_text="The incident that failed it.")


# -- bot accounts -------------------------------------------------------------------------------------


class BotOutput(serializers.Serializer):
    handle = serializers.CharField()
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField()
    auto_accept = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    games = serializers.SerializerMethodField(help_text="The games the bot plays on the ladder.")
    validation = serializers.SerializerMethodField(
        help_text="Per game: status (pending, running, passed, failed), passed, required, failure_reason."
    )

    push_url = serializers.SerializerMethodField(help_text="A push bot's endpoint, else an empty string.")

    def get_games(self, bot: Player) -> list[str]:
        try:
            return list(bot.ladder.ladder_games)
        except BotProfile.DoesNotExist:
            return []

    def get_push_url(self, bot: Player) -> str:
        try:
            return bot.ladder.push_url
        except BotProfile.DoesNotExist:
            return ""

    @extend_schema_field(serializers.DictField(child=serializers.DictField()))
    def get_validation(self, bot: Player) -> dict[str, Any]:
        return {v.game: validation_out(v) for v in bot.validations.all()}


class BotListCreateApi(PagedList, APIView):
    permission_classes = [IsPerson]

    class InputSerializer(Input):
        class Meta:
            ref_name = "BotCreateInput"

        handle = serializers.SlugField(max_length=32)
        display_name = serializers.CharField(max_length=64, required=False, default="")

    @extend_schema(responses=BotOutput(many=True))
    def get(self, request: Request) -> Response:
        bots = (
            Player.objects.filter(is_bot=True, owner=signed_in_user(request))
            .select_related("ladder")
            .prefetch_related("validations")
            .order_by("handle")
        )
        return self.page_response(request, bots, BotOutput)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: inline_serializer("BotCreated", {"bot": BotOutput(), "token": serializers.CharField()})
        },
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bot, token = bot_create(owner=signed_in_user(request), **data.validated_data)
        return secret(Response({"bot": BotOutput(bot).data, "token": token}, status=status.HTTP_201_CREATED))


class BotSettingsApi(APIView):
    permission_classes = [IsPerson]

    class InputSerializer(Input):
        class Meta:
            ref_name = "BotSettingsInput"

        auto_accept = serializers.BooleanField(required=False)
        games = serializers.ListField(
            child=serializers.ChoiceField(choices=Match.GameName.choices),
            required=False,
            max_length=3,
            help_text="The games the bot plays on the ladder ([] leaves it); validation starts for each "
            "one it has not passed.",
        )
        push_url = serializers.URLField(
            required=False,
            allow_blank=True,
            max_length=200,
            help_text="An HTTPS endpoint on a public address: the server POSTs each your_turn there, "
            'signed, and plays the answer\'s action ("" turns push off). The answer shows push_secret once.',
        )

    @extend_schema(request=InputSerializer, responses=BotOutput)
    def patch(self, request: Request, handle: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        user = signed_in_user(request)
        bot = bot_settings_update(owner=user, handle=handle, auto_accept=v.get("auto_accept"))
        if "games" in v:
            bot = ladder_games_set(owner=user, handle=handle, games=v["games"])
        push_secret = None
        if "push_url" in v:
            push_secret = push_endpoint_set(owner=user, handle=handle, url=v["push_url"])
            bot = Player.objects.get(pk=bot.pk)
        out = dict(BotOutput(bot).data)
        if push_secret is not None:
            out["push_secret"] = push_secret  # shown this once
            return secret(Response(out))
        return Response(out)


class ValidationRequestApi(APIView):
    """The owner asks for (or, after a failure, repeats) the bot's validation for a game."""

    permission_classes = [IsPerson]

    class InputSerializer(Input):
        class Meta:
            ref_name = "ValidationRequestInput"

        game = serializers.ChoiceField(choices=Match.GameName.choices)

    @extend_schema(request=InputSerializer, responses={202: ValidationOutput})
    def post(self, request: Request, handle: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        validation = validation_request(
            owner=signed_in_user(request), handle=handle, game=data.validated_data["game"]
        )
        return Response(validation_out(validation), status=status.HTTP_202_ACCEPTED)


class MyNoticesApi(APIView):
    """Polling's counterpart of the stream's action_refused, timeout and forfeit_warning events."""

    permission_classes = [IsAuthenticated]

    class FilterSerializer(serializers.Serializer):
        class Meta:
            ref_name = "NoticesParams"

        after = QueryIntegerField(
            required=False, min_value=0, help_text="The last notice id seen; without it, the last 5 minutes."
        )

    @extend_schema(
        parameters=[FilterSerializer],
        responses=inline_serializer(
            "Notices",
            {
                "results": serializers.ListField(
                    child=serializers.DictField(),
                    help_text="action_refused, timeout and forfeit_warning notices (the stream's events), each "
                    "with its id",
                ),
                "last": serializers.IntegerField(allow_null=True, help_text="The last id: send it as after."),
            },
        ),
    )
    def get(self, request: Request) -> Response:
        params = self.FilterSerializer(data=query_input(request))
        params.is_valid(raise_exception=True)
        player = Player.objects.filter(user_id=request.user.pk or 0).first()
        notices: list[dict[str, Any]] = []
        incidents = (
            [] if player is None else notices_of(player=player, after=params.validated_data.get("after"))
        )
        for incident in incidents:
            notices.extend({"id": incident.pk, **n} for n in incident_notices(incident))
        return Response({"results": notices, "last": max((n["id"] for n in notices), default=None)})


# -- the leaderboard and the authors' status pages ----------------------------------------------------


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
