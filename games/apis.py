"""The games API under /api/v1/: one thin view per operation; services do the work."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.db.models import QuerySet
from django.http import StreamingHttpResponse
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.callers import IsPerson, caller, signed_in, signed_in_user
from games.engine.rules import (
    FIRST_LEADS,
    FLAG_NAMES,
    PLAYERS,
    POCHA_SEQUENCES,
    STOCK_DUTIES,
    TUTE_DECLARATIONS,
    Rules,
)
from games.errors import BoardNotRevealed, MatchNotFinished
from games.models import Match, Player, Seat
from games.selectors import (
    MATCH_ORDERINGS,
    boards_sealed,
    match_context,
    match_detail,
    match_records,
    match_view_for,
    matches_list,
    my_turns,
    tokens_of,
)
from games.services import (
    Clock,
    SeatSpec,
    action_submit,
    bot_token_rotate,
    challenge_accept,
    challenge_decline,
    client_seed_set,
    match_abort,
    match_create,
    match_resign,
    match_spec,
    seat_join,
    seat_leave,
    token_create,
    token_revoke,
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
    secret,
)
from tute_site.streams import LeasedLines, stream_lease


def found(match_id: int) -> Match:
    return match_detail(match_id=match_id)


# -- output shapes --------------------------------------------------------------------------------------


class PlayerOutput(serializers.Serializer):
    handle = serializers.CharField()
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField()


class SeatOutput(serializers.Serializer):
    index = serializers.IntegerField()
    player = PlayerOutput(allow_null=True)
    house_bot = serializers.CharField(source="bot_level", allow_blank=True)
    is_bot = serializers.SerializerMethodField()
    accepted = serializers.BooleanField(help_text="False while a challenged player has not accepted.")
    decline_reason = serializers.CharField(allow_blank=True)
    timeouts = serializers.IntegerField()
    client_seed = serializers.CharField(
        allow_blank=True,
        help_text="The seat's client seed, mixed into each deal (docs/RULES.md 11); '' if none.",
    )

    def get_is_bot(self, seat: Seat) -> bool:
        return bool(seat.bot_level) or bool(seat.player and seat.player.is_bot)


class MatchOutput(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    players = serializers.IntegerField(source="num_players")
    options = serializers.JSONField()
    rules_version = serializers.CharField()
    format = serializers.CharField()
    games = serializers.IntegerField(source="format_target")
    rated = serializers.BooleanField()
    status = serializers.CharField()
    ply = serializers.IntegerField()
    seats = SeatOutput(many=True)
    result = serializers.JSONField(allow_null=True)
    finish_reason = serializers.CharField(allow_blank=True)
    turn_seat = serializers.IntegerField(allow_null=True)
    turn_deadline = serializers.DateTimeField(allow_null=True)
    human_move_seconds = serializers.IntegerField()
    bot_move_seconds = serializers.IntegerField()
    max_timeouts = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    seed_sha256 = serializers.SerializerMethodField(
        help_text="docs/RULES.md 11: SHA-256 of the current game's server seed (while the match is open: of the "
        "first game's), published before the game's first action. The seed is revealed in the record."
    )
    next_seed_sha256 = serializers.CharField(
        allow_blank=True, help_text="The commitment to the server seed of the next game the match would deal."
    )

    def get_seed_sha256(self, match: Match) -> str | None:
        return match.seed_sha256 or match.next_seed_sha256 or None


CLIENT_SEED_HELP = (
    "Optional: 1 to 64 printable ASCII characters without ':', mixed into every deal of the match with the "
    "server's committed seed (docs/RULES.md 11); it can be changed before a game's first action."
)


def rules_options_schema() -> dict[str, Any]:
    """The rules flags (docs/RULES.md) as a JSON schema: each flag's type or choices, no other key. What
    one flag allows with another, or with the player count (a Pocha sequence's hand sizes), the rules
    check: invalid_rules."""
    choices = {"stock_duty": STOCK_DUTIES, "tute_declaration": TUTE_DECLARATIONS, "first_lead": FIRST_LEADS}
    properties: dict[str, Any] = {
        "pocha_sequence": {
            "oneOf": [
                {"type": "string", "enum": list(POCHA_SEQUENCES)},
                {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1},
            ]
        },
        "pocha_max_cards": {"type": "integer", "minimum": 1, "nullable": True},
    }
    for flag in dataclasses.fields(Rules):
        if flag.name in choices:
            properties[flag.name] = {"type": "string", "enum": list(choices[flag.name])}
        elif flag.name in FLAG_NAMES and isinstance(flag.default, bool):
            properties[flag.name] = {"type": "boolean"}
    assert properties.keys() == FLAG_NAMES, "a rules flag the schema does not describe"
    return {"type": "object", "properties": properties, "additionalProperties": False}


@extend_schema_field(rules_options_schema())
class RulesOptionsField(serializers.DictField):
    """Rules flags: their names and types in the schema; the engine validates them (invalid_rules)."""


#: Printable ASCII without ':' (space to 9, ; to ~), as games.engine.fair checks; the schema says it, the
#: service refuses anything else with invalid_client_seed.
CLIENT_SEED_PATTERN = "^[ -9;-~]{1,64}$"


@extend_schema_field({"type": "string", "pattern": CLIENT_SEED_PATTERN, "nullable": True})
class ClientSeedField(serializers.CharField):
    """A client seed, or null for none. A blank one goes to the service, which says why it is refused
    (invalid_client_seed), as for any other bad seed; not allow_blank, which the schema would show."""

    def run_validation(self, data: Any = serializers.empty) -> Any:
        return "" if data == "" else super().run_validation(data)


@extend_schema_field({"type": "string", "pattern": CLIENT_SEED_PATTERN})
class RequiredClientSeedField(ClientSeedField):
    """A client seed (the service refuses a blank one with invalid_client_seed)."""


def client_seed_field() -> serializers.CharField:
    return ClientSeedField(required=False, allow_null=True, trim_whitespace=False, help_text=CLIENT_SEED_HELP)


ViewOutput = inline_serializer(
    name="SeatViewEnvelope",
    fields={
        "match": serializers.IntegerField(),
        "status": serializers.CharField(),
        "seat": serializers.IntegerField(allow_null=True),
        "game_number": serializers.IntegerField(allow_null=True),
        "to_act": serializers.IntegerField(allow_null=True),
        "legal": serializers.ListField(
            child=serializers.CharField(),
            allow_null=True,
            help_text="Always sent: the caller's legal action codes when it is the caller's turn, else null.",
        ),
        "ply": serializers.IntegerField(
            help_text="Actions of the whole match so far: the ply an action is sent with. "
            "(view.game_ply counts only the current game's.)"
        ),
        "view": serializers.JSONField(
            allow_null=True, help_text="docs/RULES.md, what a seat may know: the engine's seat view."
        ),
        "seed_sha256": serializers.CharField(
            allow_null=True, help_text="docs/RULES.md 11: the commitment to this game's server seed."
        ),
        "client_seeds": serializers.ListField(
            child=serializers.CharField(allow_blank=True), help_text="The game's client seeds by seat."
        ),
    },
)


def match_out(match: Match) -> dict[str, Any]:
    """The match as the database has it now (the service that changed it has committed)."""
    return MatchOutput(found(match.pk)).data


# -- matches --------------------------------------------------------------------------------------------


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
        )
        match = match_create(spec=spec)
        return Response(match_out(match), status=status.HTTP_201_CREATED)


class MatchDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=MatchOutput)
    def get(self, request: Request, match_id: int) -> Response:
        return Response(MatchOutput(found(match_id)).data)


class MatchJoinApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "MatchJoinInput"

        seat = serializers.IntegerField(required=False, min_value=0, max_value=5)
        client_seed = client_seed_field()

    @extend_schema(request=InputSerializer, responses=MatchOutput)
    def post(self, request: Request, match_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = seat_join(
            match_id=match_id,
            player=signed_in(request),
            seat=data.validated_data.get("seat"),
            client_seed=data.validated_data.get("client_seed"),
        )
        return Response(match_out(match))


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


# -- bots and tokens ------------------------------------------------------------------------------------


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


class BotTokenRotateApi(APIView):
    permission_classes = [IsPerson]

    @extend_schema(request=None, responses=inline_serializer("TokenOut", {"token": serializers.CharField()}))
    def post(self, request: Request, handle: str) -> Response:
        return secret(Response({"token": bot_token_rotate(owner=signed_in_user(request), handle=handle)}))


class MeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=PlayerOutput)
    def get(self, request: Request) -> Response:
        return Response(PlayerOutput(signed_in(request)).data)


class TokenOutput(serializers.Serializer):
    id = serializers.IntegerField()
    prefix = serializers.CharField(help_text="The token's first characters, to tell tokens apart.")
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)


class MyTokenCreateApi(PagedList, APIView):
    """The signed-in person's own API tokens (for apps acting for them): list them, or make one (shown
    once). With the website's session, a POST needs the CSRF header (``X-CSRFToken``) like any form."""

    permission_classes = [IsPerson]

    @extend_schema(responses=TokenOutput(many=True))
    def get(self, request: Request) -> Response:
        return self.page_response(request, tokens_of(user=signed_in_user(request)), TokenOutput)

    @extend_schema(
        request=None, responses={201: inline_serializer("MyToken", {"token": serializers.CharField()})}
    )
    def post(self, request: Request) -> Response:
        token = token_create(user=signed_in_user(request))
        return secret(Response({"token": token}, status=status.HTTP_201_CREATED))


class MyTokenRevokeApi(APIView):
    permission_classes = [IsPerson]

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, token_id: int) -> Response:
        token_revoke(user=signed_in_user(request), token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
