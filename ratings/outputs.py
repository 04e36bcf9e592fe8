"""The ratings' answer shapes that another app's answer includes (the lobby lists the house levels too)."""

from __future__ import annotations

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

#: One house level, as GET /api/v1/bots/levels/ and the lobby list them.
BOT_LEVEL_OUTPUT = inline_serializer(
    "BotLevel",
    {
        "level": serializers.CharField(),
        "description": serializers.CharField(),
        "ratings": serializers.DictField(
            child=inline_serializer(
                "BotLevelRating",
                {
                    "rating": serializers.FloatField(),
                    "rated_matches": serializers.IntegerField(),
                    "as_of": serializers.DateTimeField(allow_null=True),
                },
            ),
            help_text="By pool (tute2, tute4, tute4-pairs, pocha), as its rated games have made it; a pool it "
            "has not played is absent.",
        ),
        "measured": serializers.DictField(
            child=inline_serializer(
                "BotLevelMeasured",
                {
                    "rating": serializers.FloatField(),
                    "deals": serializers.IntegerField(
                        help_text="Deals (Pocha: whole games) played against each neighbouring level, "
                        "each from both sides."
                    ),
                    "against": serializers.CharField(
                        allow_null=True,
                        help_text="The level below it measured against; null for the weakest.",
                    ),
                    "share": serializers.FloatField(
                        allow_null=True,
                        help_text="Its share of the games (Pocha: of the comparisons of totals) against it.",
                    ),
                    "measured_at": serializers.DateTimeField(),
                },
            ),
            help_text="By pool (tute2, tute4, pocha), as manage.py rate_levels last measured it by play "
            "(docs/BOTS.md, House levels); absent until measured.",
        ),
    },
    many=True,
)
