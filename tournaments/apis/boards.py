"""Duplicate tournaments' boards and their travelling score sheets."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.apis.common import found
from tournaments.selectors import tournament_board_sheet, tournament_boards
from tute_site.api import ErrorOutput, PagedList


class TournamentBoardOutput(serializers.Serializer):
    number = serializers.IntegerField(help_text="The board's number in the tournament (from 1).")
    round = serializers.IntegerField(source="round.number")
    players = serializers.IntegerField(help_text="The tables it is dealt for have this many seats.")
    board = serializers.IntegerField(
        source="board_id", help_text="The games board: GET /api/v1/boards/{id}/."
    )
    seed_sha256 = serializers.CharField(source="board.seed_sha256")
    revealed = serializers.BooleanField(source="board.is_revealed")
    plays_done = serializers.IntegerField(help_text="Plays of the board finished so far, at every table.")


class HoldingOutput(serializers.Serializer):
    hand = serializers.IntegerField(
        help_text="The game side (Tute) or game seat (Pocha) whose cards were held."
    )
    entrant = serializers.IntegerField()
    name = serializers.CharField()
    score = serializers.IntegerField(
        help_text="Tute: the side's score minus the other side's; Pocha: the seat's score."
    )
    matchpoints = serializers.IntegerField(
        help_text="2 per holder of the same hand at another table outscored, 1 per tie."
    )


class SheetLineOutput(serializers.Serializer):
    table = serializers.CharField(help_text="The tournament match's code (R1.B2, R1.T1).")
    tournament_match = serializers.IntegerField()
    match = serializers.IntegerField()
    game_number = serializers.IntegerField()
    seat_map = serializers.ListField(child=serializers.IntegerField())
    holdings = HoldingOutput(many=True)


class ScoreSheetOutput(serializers.Serializer):
    number = serializers.IntegerField()
    round = serializers.IntegerField()
    players = serializers.IntegerField()
    board = serializers.IntegerField()
    seed_sha256 = serializers.CharField()
    revealed = serializers.BooleanField()
    dealer = serializers.IntegerField()
    plays_done = serializers.IntegerField()
    lines = SheetLineOutput(many=True, help_text="Every table's plays: empty until the board is revealed.")


class BoardListApi(PagedList, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        description="A duplicate tournament's boards (every table of a round plays the round's boards), in "
        "number order; empty for other tournaments.",
        responses=TournamentBoardOutput(many=True),
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        boards = tournament_boards(tournament=found(tournament_id))
        return self.page_response(request, boards, TournamentBoardOutput)


class BoardSheetApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        description="Board n's travelling score sheet: every table's result on it, each hand's holder, score "
        "and matchpoints (docs/TOURNAMENTS.md). The lines are shown once every table has played the board.",
        responses={
            200: ScoreSheetOutput,
            404: OpenApiResponse(ErrorOutput, description="tournament_not_found, tournament_board_not_found"),
        },
    )
    def get(self, request: Request, tournament_id: int, number: int) -> Response:
        sheet = tournament_board_sheet(tournament=found(tournament_id), number=number)
        return Response(ScoreSheetOutput(sheet).data)
