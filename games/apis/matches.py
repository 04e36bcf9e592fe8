"""The games API, matches: create and list them, join, leave, resign, abort, challenges and client seeds."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.apis.outputs import (
    CLIENT_SEED_HELP,
    MatchOutput,
    RequiredClientSeedField,
    RulesOptionsField,
    client_seed_field,
    match_out,
)
from games.bots import BOT_LEVELS
from games.callers import signed_in
from games.engine.rules import (
    PLAYERS,
)
from games.models import Match
from games.selectors import (
    MATCH_ORDERINGS,
    incoming_challenges,
    match_detail,
    matches_list,
)
from games.services import (
    Clock,
    SeatSpec,
    challenge_accept,
    challenge_decline,
    client_seed_set,
    match_abort,
    match_create,
    match_rematch,
    match_resign,
    match_spec,
    seat_join,
    seat_leave,
    seats_fill_with_bots,
)
from tute_site.api import (
    ErrorOutput,
    Input,
    PagedList,
    query_input,
)


def found(match_id: int) -> Match:
    return match_detail(match_id=match_id)


class MatchListCreateApi(PagedList, APIView):
    class FilterSerializer(serializers.Serializer):
        status = serializers.ChoiceField(choices=Match.Status.choices, required=False)
        game = serializers.ChoiceField(choices=Match.GameName.choices, required=False)
        player = serializers.SlugField(required=False, help_text="A player's handle.")
        rated = serializers.BooleanField(
            required=False, allow_null=True, default=None, help_text="Only rated (true) or unrated (false)."
        )
        ordering = serializers.ChoiceField(
            choices=list(MATCH_ORDERINGS),
            default="-created_at",
            help_text="-created_at (newest first, the default), created_at, finished_at (the order ratings "
            "are applied in: finishing time, then id; unfinished last) or -finished_at.",
        )

    class InputSerializer(Input):
        class Meta:
            ref_name = "MatchCreateInput"

        class SeatInput(Input):
            player = serializers.SlugField(required=False, allow_null=True, max_length=32)
            bot = serializers.CharField(required=False, allow_null=True, max_length=16)
            client_seed = client_seed_field()

        game = serializers.ChoiceField(choices=Match.GameName.choices)
        players = serializers.IntegerField(required=False, min_value=2, max_value=6)
        options = RulesOptionsField(required=False, help_text="Rules flags of docs/RULES.md.")
        format = serializers.ChoiceField(choices=Match.Format.choices, default=Match.Format.SINGLE)
        games = serializers.IntegerField(required=False, default=1, min_value=1, max_value=99)
        seats = SeatInput(
            many=True,
            required=False,
            help_text="Per seat: a player, a house bot, or {} (empty). Exactly the table: without `players` "
            "it sets the player count; with it, the two must agree.",
        )
        rated = serializers.BooleanField(
            required=False,
            allow_null=True,
            default=None,
            help_text="Rated unless a bot account not yet validated for the game sits at it (then unrated "
            "by default, and true is refused with bot_not_validated).",
        )
        human_move_seconds = serializers.IntegerField(required=False, default=120, min_value=1)
        bot_move_seconds = serializers.IntegerField(required=False, default=15, min_value=1)
        max_timeouts = serializers.IntegerField(required=False, default=3, min_value=1, max_value=100)
        client_seed = client_seed_field()
        private = serializers.BooleanField(
            required=False,
            default=False,
            help_text="A table for friends: not listed (lobby, match list) while open, joined with the invite "
            "code the answer shows you (invite_code, invite_url).",
        )

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            seats, players = attrs.get("seats"), attrs.get("players")
            if seats is None:
                return attrs
            if players is not None and players != len(seats):
                raise serializers.ValidationError(
                    {"seats": [f"{len(seats)} seats were given for {players} players: give one per player."]}
                )
            low, high, _ = PLAYERS[attrs["game"]]
            if not low <= len(seats) <= high:
                span = str(low) if low == high else f"{low} to {high}"
                raise serializers.ValidationError(
                    {
                        "seats": [
                            f"{attrs['game']} is played by {span} players: give a seat for each ({{}}: empty)."
                        ]
                    }
                )
            return attrs

    @extend_schema(parameters=[FilterSerializer], responses=MatchOutput(many=True))
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=query_input(request))
        filters.is_valid(raise_exception=True)
        qs: QuerySet[Match] = matches_list(**filters.validated_data)
        return self.page_response(request, qs, MatchOutput)

    @extend_schema(request=InputSerializer, responses={201: MatchOutput})
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        seats = None
        if "seats" in v:
            seats = [
                SeatSpec(player=s.get("player"), bot=s.get("bot"), client_seed=s.get("client_seed"))
                for s in v["seats"]
            ]
        spec = match_spec(
            capped=True,
            created_by=signed_in(request),
            game=v["game"],
            players=v.get("players"),
            options=v.get("options"),
            format=v["format"],
            format_target=v["games"],
            seats=seats,
            rated=v["rated"],
            clock=Clock(
                human_move_seconds=v["human_move_seconds"],
                bot_move_seconds=v["bot_move_seconds"],
                max_timeouts=v["max_timeouts"],
            ),
            client_seed=v.get("client_seed"),
            private=v["private"],
        )
        match = match_create(spec=spec)
        return Response(match_out(match, viewer=request.user.pk), status=status.HTTP_201_CREATED)


class MatchDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=MatchOutput)
    def get(self, request: Request, match_id: int) -> Response:
        return Response(MatchOutput(found(match_id), context={"viewer": request.user.pk}).data)


class MatchJoinApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "MatchJoinInput"

        seat = serializers.IntegerField(required=False, min_value=0, max_value=5)
        client_seed = client_seed_field()
        invite_code = serializers.CharField(
            required=False, max_length=64, help_text="A private table's invite code (its creator shares it)."
        )

    @extend_schema(
        request=InputSerializer,
        responses={
            200: MatchOutput,
            403: OpenApiResponse(
                ErrorOutput, description="invite_required: a private table, no or a wrong code"
            ),
            409: OpenApiResponse(ErrorOutput, description="seat_taken, already_seated, match_not_open"),
        },
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = seat_join(
            match_id=match_id,
            player=signed_in(request),
            seat=data.validated_data.get("seat"),
            client_seed=data.validated_data.get("client_seed"),
            invite_code=data.validated_data.get("invite_code"),
        )
        return Response(match_out(match))


class MatchBotsApi(APIView):
    """The creator seats house bots in empty seats of an open table (it starts once every seat is taken)."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "MatchBotsInput"

        bot = serializers.ChoiceField(choices=list(BOT_LEVELS), default="rule")
        seats = serializers.ListField(
            child=serializers.IntegerField(min_value=0, max_value=5),
            required=False,
            max_length=6,
            help_text="Which empty seats; all of them when left out.",
        )

    @extend_schema(
        request=InputSerializer,
        responses={
            200: MatchOutput,
            403: OpenApiResponse(ErrorOutput, description="not_allowed: only the creator"),
            409: OpenApiResponse(ErrorOutput, description="seat_taken, match_not_open"),
        },
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = seats_fill_with_bots(
            match_id=match_id,
            by=signed_in(request),
            bot=data.validated_data["bot"],
            seats=data.validated_data.get("seats"),
        )
        return Response(match_out(match, viewer=request.user.pk))


class MatchRematchApi(APIView):
    """After a finished match: offer the same table again, or accept the rematch another player offered."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: OpenApiResponse(MatchOutput, description="The rematch another player offered, now accepted"),
            201: OpenApiResponse(MatchOutput, description="The rematch offered: the others are challenged"),
            403: OpenApiResponse(ErrorOutput, description="not_seated"),
            409: OpenApiResponse(ErrorOutput, description="rematch_unavailable"),
            429: OpenApiResponse(ErrorOutput, description="too_many_open_matches, challenge_cooldown"),
        },
    )
    def post(self, request: Request, match_id: int) -> Response:
        player = signed_in(request)
        match, created = match_rematch(match_id=match_id, player=player)
        return Response(
            match_out(match, viewer=request.user.pk),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class MyChallengesApi(PagedList, APIView):
    """The open challenges waiting for the caller's answer (accept or decline them), newest first."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=MatchOutput(many=True))
    def get(self, request: Request) -> Response:
        return self.page_response(request, incoming_challenges(player=signed_in(request)), MatchOutput)


class MatchLeaveApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=MatchOutput)
    def post(self, request: Request, match_id: int) -> Response:
        return Response(match_out(seat_leave(match_id=match_id, player=signed_in(request))))


class MatchResignApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=MatchOutput)
    def post(self, request: Request, match_id: int) -> Response:
        return Response(match_out(match_resign(match_id=match_id, player=signed_in(request))))


class MatchAbortApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=MatchOutput)
    def post(self, request: Request, match_id: int) -> Response:
        return Response(match_out(match_abort(match_id=match_id, by=signed_in(request))))


class ChallengeAcceptApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "ChallengeAcceptInput"

        client_seed = client_seed_field()

    @extend_schema(request=InputSerializer, responses=MatchOutput)
    def post(self, request: Request, match_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = challenge_accept(
            match_id=match_id, player=signed_in(request), client_seed=data.validated_data.get("client_seed")
        )
        return Response(match_out(match))


class ClientSeedApi(APIView):
    """Set the caller's client seed (docs/RULES.md 11) while the match is open or before the current
    game's first action; it counts for that game (dealt again) and every later one."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "ClientSeedInput"

        client_seed = RequiredClientSeedField(trim_whitespace=False, help_text=CLIENT_SEED_HELP)

    @extend_schema(
        request=InputSerializer,
        responses={
            200: MatchOutput,
            400: OpenApiResponse(ErrorOutput, description="invalid_client_seed or validation_error"),
            403: OpenApiResponse(ErrorOutput, description="not_seated"),
            409: OpenApiResponse(ErrorOutput, description="game_started or match_not_in_progress"),
        },
    )
    def post(self, request: Request, match_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = client_seed_set(
            match_id=match_id, player=signed_in(request), client_seed=data.validated_data["client_seed"]
        )
        return Response(match_out(match))


@extend_schema(exclude=True)
class ClientSeedAliasApi(ClientSeedApi):
    """``client_seed/`` as well as ``client-seed/``, the spelling of the field; documented once."""


class ChallengeDeclineApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "ChallengeDeclineInput"

        reason = serializers.CharField(max_length=200, required=False, default="")

    @extend_schema(request=InputSerializer, responses=MatchOutput)
    def post(self, request: Request, match_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = challenge_decline(match_id=match_id, player=signed_in(request), **data.validated_data)
        return Response(match_out(match))
