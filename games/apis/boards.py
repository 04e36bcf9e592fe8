"""The boards API: a board's commitment, its plays, and its seeds and cards once every play is over."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Board, Game
from games.selectors import board_detail
from tute_site.api import ErrorOutput


class BoardPlayOutput(serializers.Serializer):
    match = serializers.IntegerField(source="match_id")
    game_number = serializers.IntegerField(source="number")
    board = serializers.IntegerField(help_text="The board's number in that match (from 0).")
    seat_map = serializers.ListField(
        child=serializers.IntegerField(), help_text="For each game seat, the match seat that held it."
    )
    status = serializers.CharField()
    result = serializers.JSONField(allow_null=True)


class BoardOutput(serializers.Serializer):
    """Secret fields are null until the board is revealed (every match playing it is over)."""

    id = serializers.IntegerField()
    game = serializers.CharField()
    players = serializers.IntegerField(source="num_players")
    options = serializers.JSONField()
    dealer = serializers.IntegerField()
    seed_sha256 = serializers.CharField()
    revealed = serializers.BooleanField(source="is_revealed")
    revealed_at = serializers.DateTimeField(allow_null=True)
    server_seed = serializers.SerializerMethodField()
    client_seeds = serializers.SerializerMethodField()
    seed = serializers.SerializerMethodField()
    decks = serializers.SerializerMethodField()
    plays = serializers.SerializerMethodField()

    def _secret(self, board: Board, value: Any) -> Any:
        return value if board.is_revealed else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_server_seed(self, board: Board) -> str | None:
        return self._secret(board, board.server_seed)

    @extend_schema_field(
        serializers.ListField(child=serializers.CharField(allow_blank=True), allow_null=True)
    )
    def get_client_seeds(self, board: Board) -> list[str] | None:
        return self._secret(board, board.client_seeds)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_seed(self, board: Board) -> str | None:
        return self._secret(board, board.seed)

    @extend_schema_field(
        serializers.ListField(child=serializers.ListField(child=serializers.CharField()), allow_null=True)
    )
    def get_decks(self, board: Board) -> list[list[str]] | None:
        return self._secret(board, board.decks)

    @extend_schema_field(BoardPlayOutput(many=True))
    def get_plays(self, board: Board) -> list[dict[str, Any]]:
        plays: list[Game] = getattr(board, "ordered_plays", None) or list(
            board.plays.order_by("match_id", "number")
        )
        return list(BoardPlayOutput(plays, many=True).data)


class BoardDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        description="A board (a fixed deal played by one match or many): its commitment `seed_sha256` from "
        "the start, the games played from it, and once every match playing it is over its `server_seed`, "
        "`client_seeds`, `seed` and `decks` (docs/FAIRNESS.md).",
        responses={200: BoardOutput, 404: OpenApiResponse(ErrorOutput, description="board_not_found")},
    )
    def get(self, request: Request, board_id: int) -> Response:
        return Response(BoardOutput(board_detail(board_id=board_id)).data)
