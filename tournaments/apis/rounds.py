"""The play: rounds, matches, no-shows, standings and the bracket."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.callers import signed_in
from tournaments.apis.common import found
from tournaments.apis.outputs import BracketOutput, MatchRowOutput, RoundOutput, StandingOutput
from tournaments.errors import NoBracket, TournamentMatchNotFound
from tournaments.models import ResultReport
from tournaments.selectors import (
    bracket_view,
    matches_of,
    rounds_with_matches,
    standings_table,
    tournament_match,
)
from tournaments.services import no_show, result_confirm, result_enter, result_report
from tute_site.api import ErrorOutput, Input, PagedList, QueryIntegerField, query_input


class RoundListApi(PagedList, APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=RoundOutput(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        return self.page_response(request, rounds_with_matches(tournament=found(tournament_id)), RoundOutput)


class MatchListApi(PagedList, APIView):
    permission_classes = [AllowAny]

    class FilterSerializer(serializers.Serializer):
        round = QueryIntegerField(required=False, min_value=1)

    @extend_schema(parameters=[FilterSerializer], responses=MatchRowOutput(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        filters = self.FilterSerializer(data=query_input(request))
        filters.is_valid(raise_exception=True)
        rows = matches_of(tournament=found(tournament_id), round=filters.validated_data.get("round"))
        return self.page_response(request, rows, MatchRowOutput)


class MatchDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=MatchRowOutput)
    def get(self, request: Request, tournament_id: int, tournament_match_id: int) -> Response:
        row = tournament_match(tournament=found(tournament_id), tournament_match_id=tournament_match_id)
        if row is None:
            raise TournamentMatchNotFound()
        return Response(MatchRowOutput(row).data)


class NoShowApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "TournamentNoShowInput"

        entrant = serializers.IntegerField(help_text="The entrant who did not turn up.")

    @extend_schema(request=InputSerializer, responses=MatchRowOutput)
    def post(self, request: Request, tournament_id: int, tournament_match_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tm = no_show(
            tournament_id=tournament_id,
            tournament_match_id=tournament_match_id,
            by=signed_in(request),
            entrant_id=data.validated_data["entrant"],
        )
        return Response(
            MatchRowOutput(tournament_match(tournament=found(tournament_id), tournament_match_id=tm.pk)).data
        )


class ResultInput(Input):
    """A table's result as entered or reported (docs/TOURNAMENTS.md, "Over the board")."""

    class Meta:
        ref_name = "TournamentResultInput"

    games = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        max_length=99,
        help_text="Each game played, by position: Tute {points: [a, b], cantes: [a, b], last_trick: side, "
        "tute: side or null}; Pocha {hands: [{bids: [...], tricks: [...]}, ...]} (docs/TOURNAMENTS.md).",
    )
    winner = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=1,
        help_text="A plain result: the winner, null: a draw.",
    )
    totals = serializers.ListField(
        child=serializers.IntegerField(min_value=-100000, max_value=100000),
        required=False,
        max_length=6,
        help_text="A plain result at a Pocha table: each player's final total.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = [k for k in ("games", "winner", "totals") if k in self.initial_data]
        if len(given) != 1:
            raise serializers.ValidationError("Give exactly one of games, winner or totals.")
        return attrs


class ResultApi(APIView):
    """Over the board: the organiser enters a table's result (or changes it while its round is open)."""

    permission_classes = [IsAuthenticated]

    InputSerializer = ResultInput

    @extend_schema(
        request=InputSerializer,
        responses={
            200: MatchRowOutput,
            400: OpenApiResponse(
                ErrorOutput, description="invalid_result: points, hands or positions that cannot be"
            ),
            403: OpenApiResponse(ErrorOutput, description="not_organiser"),
            409: OpenApiResponse(ErrorOutput, description="round_closed, not_over_the_board, wrong_status"),
        },
    )
    def post(self, request: Request, tournament_id: int, tournament_match_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tm = result_enter(
            tournament_id=tournament_id,
            tournament_match_id=tournament_match_id,
            by=signed_in(request),
            entered=dict(data.validated_data),
        )
        return Response(
            MatchRowOutput(tournament_match(tournament=found(tournament_id), tournament_match_id=tm.pk)).data
        )


class ReportOutput(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=ResultReport.Status.choices)
    by = serializers.CharField(source="by.handle")
    position = serializers.IntegerField(help_text="The reporter's position at the table.")
    entered = serializers.JSONField()
    answered_by = serializers.CharField(source="answered_by.handle", allow_null=True, default=None)
    created_at = serializers.DateTimeField()
    answered_at = serializers.DateTimeField(allow_null=True)


class ReportApi(APIView):
    """Over the board with self_report: a player of the table reports its result; the other side confirms."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ResultInput,
        responses={
            201: ReportOutput,
            400: OpenApiResponse(ErrorOutput, description="invalid_result"),
            403: OpenApiResponse(ErrorOutput, description="not_at_table, self_report_off"),
            409: OpenApiResponse(ErrorOutput, description="round_closed, wrong_status"),
        },
    )
    def post(self, request: Request, tournament_id: int, tournament_match_id: int) -> Response:
        data = ResultInput(data=request.data)
        data.is_valid(raise_exception=True)
        report = result_report(
            tournament_id=tournament_id,
            tournament_match_id=tournament_match_id,
            by=signed_in(request),
            entered=dict(data.validated_data),
        )
        return Response(ReportOutput(report).data, status=status.HTTP_201_CREATED)


class ConfirmApi(APIView):
    """The other side of the table answers the report waiting: agree (it counts) or dispute (the organiser decides)."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(Input):
        class Meta:
            ref_name = "TournamentConfirmInput"

        agree = serializers.BooleanField()

    @extend_schema(
        request=InputSerializer,
        responses={
            200: ReportOutput,
            403: OpenApiResponse(ErrorOutput, description="not_at_table, self_report_off"),
            409: OpenApiResponse(ErrorOutput, description="no_report_waiting, round_closed"),
        },
    )
    def post(self, request: Request, tournament_id: int, tournament_match_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        report = result_confirm(
            tournament_id=tournament_id,
            tournament_match_id=tournament_match_id,
            by=signed_in(request),
            agree=data.validated_data["agree"],
        )
        return Response(ReportOutput(report).data)


class StandingsApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=StandingOutput(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(StandingOutput(standings_table(tournament=found(tournament_id)), many=True).data)


class BracketApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=BracketOutput)
    def get(self, request: Request, tournament_id: int) -> Response:
        view = bracket_view(tournament=found(tournament_id))
        if view is None:
            raise NoBracket()
        return Response(BracketOutput(view).data)
