"""Tournaments: list, create, read and replace the settings, start and cancel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.callers import signed_in
from games.models import Match
from tournaments.apis.common import club_found, found
from tournaments.apis.outputs import TournamentOutput
from tournaments.models import Tournament
from tournaments.pairing import TieBreak
from tournaments.selectors import tournaments_list
from tournaments.services import (
    Settings,
    tournament_cancel,
    tournament_create,
    tournament_start,
    tournament_update,
)
from tute_site.api import Input, PagedList, query_input


class TournamentInput(Input):
    class Meta:
        ref_name = "TournamentInput"

    club = serializers.SlugField(max_length=40, help_text="The club's slug (create only).")
    name = serializers.CharField(max_length=120)
    game = serializers.ChoiceField(choices=Match.GameName.choices)
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    play = serializers.ChoiceField(
        choices=Tournament.Play.choices,
        default=Tournament.Play.ONLINE,
        help_text="online: matches on the site; table: over the board, each pairing gets a table number and "
        "its result is entered (POST .../matches/{id}/result/).",
    )
    self_report = serializers.BooleanField(
        default=False,
        help_text="Over the board: the players report their table's result (POST .../report/), the other side "
        "confirms it (POST .../confirm/); a disputed one waits for the organiser.",
    )
    options = serializers.DictField(required=False, help_text="Rules flags of docs/RULES.md.")
    match_format = serializers.ChoiceField(choices=Match.Format.choices, default=Match.Format.SINGLE)
    match_target = serializers.IntegerField(
        default=1,
        min_value=1,
        max_value=99,
        help_text="N of best of N / first to N; duplicate: the boards every table plays each round.",
    )
    duplicate_scoring = serializers.ChoiceField(
        choices=Tournament.DuplicateScoring.choices,
        default=Tournament.DuplicateScoring.MATCHPOINTS,
        help_text="match_format duplicate: how tables on the same boards are compared.",
    )
    third_place = serializers.BooleanField(default=False)
    grand_final_reset = serializers.BooleanField(
        default=True,
        help_text="Double elimination: replay the grand final when the losers'-bracket champion wins it.",
    )
    double_round_robin = serializers.BooleanField(default=False)
    swiss_rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=30)
    avoid_same_club = serializers.BooleanField(default=False)
    table_size = serializers.IntegerField(required=False, allow_null=True, min_value=3, max_value=6)
    pocha_rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=30)
    rated = serializers.BooleanField(default=True)
    registration = serializers.ChoiceField(
        choices=Tournament.Registration.choices, default=Tournament.Registration.OPEN
    )
    passcode = serializers.CharField(required=False, allow_null=True, max_length=64, write_only=True)
    max_entrants = serializers.IntegerField(required=False, allow_null=True, min_value=2, max_value=4096)
    check_in_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    check_in_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    starts_at = serializers.DateTimeField(required=False, allow_null=True)
    round_interval_minutes = serializers.IntegerField(default=0, min_value=0, max_value=7 * 24 * 60)
    seeding = serializers.ChoiceField(choices=Tournament.Seeding.choices, default=Tournament.Seeding.RATING)
    tie_breaks = serializers.ListField(
        child=serializers.ChoiceField(choices=[t.value for t in TieBreak]), default=list, max_length=5
    )


def settings_of(v: dict[str, Any]) -> Settings:
    fields = {k: val for k, val in v.items() if k != "club"}
    fields["tie_breaks"] = tuple(fields.get("tie_breaks", ()))
    return Settings(**fields)


class TournamentListCreateApi(PagedList, APIView):
    class FilterSerializer(serializers.Serializer):
        club = serializers.SlugField(required=False)
        status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)
        game = serializers.ChoiceField(choices=Match.GameName.choices, required=False)
        format = serializers.ChoiceField(choices=Tournament.Format.choices, required=False)

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(parameters=[FilterSerializer], responses=TournamentOutput(many=True))
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=query_input(request))
        filters.is_valid(raise_exception=True)
        return self.page_response(request, tournaments_list(**filters.validated_data), TournamentOutput)

    @extend_schema(request=TournamentInput, responses={201: TournamentOutput})
    def post(self, request: Request) -> Response:
        data = TournamentInput(data=request.data)
        data.is_valid(raise_exception=True)
        club = club_found(data.validated_data["club"])
        tournament = tournament_create(
            club=club, by=signed_in(request), settings=settings_of(data.validated_data)
        )
        return Response(TournamentOutput(found(tournament.pk)).data, status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(responses=TournamentOutput)
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(TournamentOutput(found(tournament_id)).data)

    @extend_schema(request=TournamentInput, responses=TournamentOutput)
    def put(self, request: Request, tournament_id: int) -> Response:
        """Replace the settings (before the start); ``club`` is ignored. A passcode only when given."""
        tournament = found(tournament_id)
        body = request.data
        if isinstance(body, Mapping):  # else the serializer's own 400 (not a dictionary, no data)
            body = {**body, "club": tournament.club.slug}
        data = TournamentInput(data=body)
        data.is_valid(raise_exception=True)
        tournament_update(
            tournament_id=tournament_id, by=signed_in(request), settings=settings_of(data.validated_data)
        )
        return Response(TournamentOutput(found(tournament_id)).data)


class StartApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "TournamentStartInput"

        order = serializers.ListField(
            child=serializers.IntegerField(),
            required=False,
            allow_null=True,
            max_length=4096,
            help_text="Manual seeding: every entrant id, best first.",
        )

    @extend_schema(request=InputSerializer, responses=TournamentOutput)
    def post(self, request: Request, tournament_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament_start(
            tournament_id=tournament_id, by=signed_in(request), order=data.validated_data.get("order")
        )
        return Response(TournamentOutput(found(tournament_id)).data)


class CancelApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=TournamentOutput)
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament_cancel(tournament_id=tournament_id, by=signed_in(request))
        return Response(TournamentOutput(found(tournament_id)).data)
