"""The games API, reviews: a finished game's review of one seat's decisions (games.services.review)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.callers import caller
from games.models import Review
from games.services.review import review_request
from tute_site.api import ErrorOutput, QueryIntegerField, query_input


class ReviewEntryOutput(serializers.Serializer):
    ply = serializers.IntegerField(help_text="The match's ply of the decision (its action's ply).")
    game_ply = serializers.IntegerField(help_text="Actions of this game before the decision.")
    hand_number = serializers.IntegerField(help_text="Pocha's hand (from 0); 0 in Tute.")
    phase = serializers.CharField(help_text="bid, play or partner_sing, as in the seat's view.")
    played = serializers.CharField(help_text="The action code played.")
    best = serializers.CharField(help_text="The best action code by the analysis (the played one on a tie).")
    values = serializers.DictField(
        child=serializers.FloatField(),
        help_text="Each legal action's expected points for the seat: a Tute hand's final margin with "
        "the win bonus, a Pocha hand's score against the other seats' mean.",
    )
    cost = serializers.FloatField(help_text="values[best] - values[played]: 0 when the best was played.")
    exact = serializers.BooleanField(
        help_text="Solved exactly on each deal (few cards left), not played out."
    )
    deals = serializers.IntegerField(
        help_text="Deals sampled from the seat's view (1: every card was known)."
    )


class ReviewOutput(serializers.Serializer):
    match = serializers.IntegerField(source="match_id")
    game = serializers.IntegerField(source="game.number")
    seat = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Review.Status.choices)
    progress = serializers.FloatField(help_text="Share of the decisions reviewed so far, 0 to 1.")
    decisions = serializers.IntegerField(
        help_text="The seat's decisions with a choice (forced moves are not)."
    )
    analysis = serializers.CharField()
    points_lost = serializers.FloatField(help_text="The entries' costs summed (once done).")
    worst = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Indexes into entries of the costliest moments, costliest first.",
    )
    entries = ReviewEntryOutput(many=True, help_text="One per decision reviewed so far, in play order.")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class MatchReviewApi(APIView):
    """A finished game's review of one seat: asked for by the first GET, worked out by a worker."""

    permission_classes = [AllowAny]

    class FilterSerializer(serializers.Serializer):
        game = QueryIntegerField(min_value=0, max_value=32767, help_text="The game's number (from 0).")
        seat = QueryIntegerField(min_value=0, max_value=32767, help_text="The match seat reviewed.")

    @extend_schema(
        parameters=[FilterSerializer],
        responses={
            200: OpenApiResponse(ReviewOutput, description="The review, done."),
            202: OpenApiResponse(
                ReviewOutput, description="Queued or running: poll again; entries holds those done so far."
            ),
            400: OpenApiResponse(
                ErrorOutput, description="invalid: game and seat are required, whole numbers from 0"
            ),
            403: OpenApiResponse(
                ErrorOutput,
                description="review_not_allowed: not the seat's own person, and the match is not over, "
                "private, or its boards are still played",
            ),
            404: OpenApiResponse(ErrorOutput, description="match_not_found, game_not_found, seat_not_found"),
            409: OpenApiResponse(
                ErrorOutput, description="game_not_finished; no_moves_to_review (played over the board)"
            ),
        },
        description="For each decision of the seat with a choice (swaps, cantes, bids, cards): the move "
        "played, the best by the strongest analysis the server affords from that seat's view (the exact "
        "solver once few cards are left, sampled deals and playouts before; never the hidden cards) and "
        "the expected points it cost. The first request queues it (one per game and seat); 202 until done.",
    )
    def get(self, request: Request, match_id: int) -> Response:
        query = self.FilterSerializer(data=query_input(request))
        query.is_valid(raise_exception=True)
        review = review_request(
            match_id=match_id,
            game_number=query.validated_data["game"],
            seat=query.validated_data["seat"],
            player=caller(request),
        )
        done = review.status == Review.Status.DONE
        return Response(
            ReviewOutput(review).data, status=status.HTTP_200_OK if done else status.HTTP_202_ACCEPTED
        )
