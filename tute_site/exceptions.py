"""The one error root and the one error shape.

Domain code raises subclasses of `ApplicationError`; views never catch them. The DRF exception handler
below renders every error an API view lets out as

    {"code": "<stable machine code>", "message": "<human text>", "detail": <anything JSON or null>}

with the error's HTTP status: our own errors, DRF's (validation, authentication, throttling, ...) and
Django's Http404 and PermissionDenied.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions as drf_exceptions
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import set_rollback


class ApplicationError(Exception):
    """Root of every domain error. Subclasses set `code`, `http_status` and a default `message`:

    ```python
    class StalePly(ApplicationError):
        code = "stale_ply"
        http_status = 409
        message = "The match has moved on."


    raise StalePly(detail={"current": 12})  # -> 409 {"code": "stale_ply", ..., "detail": {...}}
    ```
    """

    code: ClassVar[str] = "application_error"
    http_status: ClassVar[int] = status.HTTP_400_BAD_REQUEST
    message: str = "The request could not be completed."
    detail: Any = None

    #: Seconds after which a refusal that ends by itself (a cooldown, a cap over a window) may be retried:
    #: the answer's ``Retry-After``.
    retry_after: int | None = None

    def __init__(
        self, message: str | None = None, *, detail: Any = None, retry_after: int | None = None
    ) -> None:
        if message is not None:
            self.message = message
        if detail is not None:
            self.detail = detail
        if retry_after is not None:
            self.retry_after = retry_after
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


def error_body(code: str, message: str, detail: Any = None) -> dict[str, Any]:
    return {"code": code, "message": message, "detail": detail}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER. Returns None for anything unexpected, which Django turns into a 500."""
    if isinstance(exc, ApplicationError):
        set_rollback()
        retry_after = getattr(exc, "retry_after", None)  # a refusal that ends by itself says when
        return Response(
            error_body(exc.code, exc.message, exc.detail),
            status=exc.http_status,
            headers={"Retry-After": str(retry_after)} if retry_after else None,
        )

    if isinstance(exc, RequestDataTooBig):  # Django's body limit, when something read request.body
        set_rollback()
        body = error_body("request_too_large", "The request body is too large.")
        return Response(body, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, Http404):
        exc = drf_exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = drf_exceptions.PermissionDenied()

    if not isinstance(exc, drf_exceptions.APIException):
        return None

    headers: dict[str, str] = {}
    auth_header = getattr(exc, "auth_header", None)
    if auth_header:
        headers["WWW-Authenticate"] = auth_header
    wait = getattr(exc, "wait", None)
    if wait is not None:
        headers["Retry-After"] = str(int(wait))

    if isinstance(exc.detail, (list, dict)):
        # Field errors (ValidationError): the fields' messages go in `detail`.
        code = str(exc.default_code)
        message = str(exc.default_detail)
        detail: Any = exc.detail
    else:
        code = str(getattr(exc.detail, "code", None) or exc.default_code)
        message = str(exc.detail)
        detail = None

    set_rollback()
    return Response(error_body(code, message, detail), status=exc.status_code, headers=headers)
