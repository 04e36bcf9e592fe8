"""The ladder's API views in the games app: a bot's validation."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.ladder.selectors import notices_of
from games.models import Player
from games.streams import incident_notices
from tute_site.api import QueryIntegerField, query_input


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
