"""Result corrections: the list and correcting a match, with points given exactly."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.callers import signed_in
from tournaments.apis.common import found
from tournaments.apis.outputs import CorrectionOutput, MatchRowOutput
from tournaments.selectors import corrections_of, tournament_match
from tournaments.services import result_correct
from tute_site.api import Input, PagedList

#: Points in text: a decimal (an exponent of at most three digits: no 10**huge to compute) or a fraction.
POINTS_TEXT = r"^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]{1,3})?$|^[-+]?[0-9]+/0*[1-9][0-9]*$"


@extend_schema_field(
    {
        "oneOf": [
            {"type": "number"},
            {"type": "string", "pattern": POINTS_TEXT, "maxLength": 24, "example": "1/3"},
        ]
    }
)
class PointInput(serializers.Field):
    """Tournament points as a number (0.5) or an exact fraction in text ("1/3")."""

    default_error_messages = {"invalid": 'A number or a fraction such as "1/3" is required.'}

    def to_internal_value(self, data: Any) -> Fraction:
        if isinstance(data, bool) or not isinstance(data, int | float | str) or len(str(data)) > 24:
            self.fail("invalid")
        if isinstance(data, str) and not re.fullmatch(POINTS_TEXT, data):
            self.fail("invalid")
        if isinstance(data, float) and not math.isfinite(data):
            self.fail("invalid")
        try:
            return Fraction(str(data))
        except (ValueError, ZeroDivisionError):
            self.fail("invalid")

    def to_representation(self, value: Any) -> str:
        return str(value)


class CorrectionListCreateApi(PagedList, APIView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "TournamentCorrectionInput"

        match = serializers.IntegerField(help_text="The tournament match's id.")
        winner = serializers.IntegerField(
            required=False, allow_null=True, help_text="An entrant id; null: a draw."
        )
        points = serializers.ListField(
            child=PointInput(),
            required=False,
            allow_null=True,
            max_length=6,
            help_text='Pocha tables: each player\'s points (0 to 1), in seat order: exact ("1/3") or decimal.',
        )
        games_won = serializers.ListField(
            child=serializers.IntegerField(min_value=0, max_value=99),
            required=False,
            allow_null=True,
            max_length=6,
            help_text="Games won by position; without it the corrected match counts no games won.",
        )
        card_points = serializers.ListField(
            child=serializers.IntegerField(min_value=0, max_value=100_000),
            required=False,
            allow_null=True,
            max_length=6,
            help_text="Card points by position; without them the corrected match counts none.",
        )
        reason = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(responses=CorrectionOutput(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        return self.page_response(request, corrections_of(tournament=found(tournament_id)), CorrectionOutput)

    @extend_schema(request=InputSerializer, responses={201: MatchRowOutput})
    def post(self, request: Request, tournament_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        tm = result_correct(
            tournament_id=tournament_id,
            tournament_match_id=v["match"],
            by=signed_in(request),
            winner=v.get("winner"),
            points=v.get("points"),
            games_won=v.get("games_won"),
            card_points=v.get("card_points"),
            reason=v["reason"],
        )
        row = tournament_match(tournament=found(tournament_id), tournament_match_id=tm.pk)
        return Response(MatchRowOutput(row).data, status=status.HTTP_201_CREATED)
