"""Every error an API view lets out has one JSON shape: {"code", "message", "detail"}."""

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import serializers
from rest_framework.exceptions import Throttled
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from tute_site.exceptions import ApplicationError


class StalePly(ApplicationError):
    code = "stale_ply"
    http_status = 409
    message = "The match has moved on."


class PlySerializer(serializers.Serializer[Any]):
    ply = serializers.IntegerField(min_value=0)


class RaisingApi(APIView):
    """Raises whatever the test hands it, or validates the body like a real view."""

    authentication_classes = []
    permission_classes = [AllowAny]
    error: Exception | None = None

    def post(self, request: Request) -> Response:
        if self.error is not None:
            raise self.error
        data = PlySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response({"ok": True})


def call(error: Exception | None = None, body: dict[str, Any] | None = None) -> Response:
    request = APIRequestFactory().post("/x/", body or {}, format="json")
    response: Response = RaisingApi.as_view(error=error)(request)
    return response


def test_application_error_renders_its_code_status_and_detail() -> None:
    # when: a view lets a domain error out
    response = call(StalePly(detail={"current": 12}))

    # then: its status, its code and message, and the detail
    assert response.status_code == 409
    assert response.data == {
        "code": "stale_ply",
        "message": "The match has moved on.",
        "detail": {"current": 12},
    }


def test_application_error_message_can_be_given_per_raise() -> None:
    response = call(StalePly("Ply 3 was already played."))

    assert response.status_code == 409
    assert response.data == {"code": "stale_ply", "message": "Ply 3 was already played.", "detail": None}


def test_validation_error_renders_field_errors_in_detail() -> None:
    # when: the body fails the view's serializer
    response = call(body={"ply": -1})

    # then: 400, the generic code and message, and the fields' messages in detail
    assert response.status_code == 400
    assert response.data["code"] == "invalid"
    assert response.data["message"] == "Invalid input."
    assert response.data["detail"] == {"ply": ["Ensure this value is greater than or equal to 0."]}


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (Http404("no such match"), 404, "not_found"),
        (PermissionDenied(), 403, "permission_denied"),
    ],
)
def test_django_errors_render_in_the_same_shape(error: Exception, status: int, code: str) -> None:
    response = call(error)

    assert response.status_code == status
    assert response.data["code"] == code
    assert set(response.data) == {"code", "message", "detail"}


def test_throttled_keeps_retry_after() -> None:
    response = call(Throttled(wait=7))

    assert response.status_code == 429
    assert response.data["code"] == "throttled"
    assert response["Retry-After"] == "7"
