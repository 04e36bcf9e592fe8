"""A bot's validation as the API shows it: shared by the games API and the matchmaking API (an app never
imports another app's ``apis``)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.ladder.models import Validation


def validation_out(validation: Validation) -> dict[str, Any]:
    return {
        "game": validation.game,
        "status": validation.status,
        "passed": validation.passed,
        "required": validation.required,
        "failure_reason": validation.failure_reason,
        "failure_incident": validation.failure_id,
    }


class ValidationOutput(serializers.Serializer):
    game = serializers.CharField()
    status = serializers.ChoiceField(choices=Validation.Status.choices)
    passed = serializers.IntegerField()
    required = serializers.IntegerField()  # type: ignore[assignment]  # (popped by the metaclass)
    failure_reason = serializers.CharField()
    failure_incident = serializers.IntegerField(allow_null=True, help_text="The incident that failed it.")
