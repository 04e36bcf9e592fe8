"""Django-level error pages: the API's paths answer in the API's error shape, the rest in HTML."""

from __future__ import annotations

import sys
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.views import defaults

from tute_site.exceptions import error_body


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception | None = None, **kwargs: Any) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(error_body("not_found", "No API endpoint at this path."), status=404)
    return defaults.page_not_found(request, exception or Exception())


#: Seconds a client waits before trying again after the database went away under its request.
DATABASE_RETRY_AFTER = 2


def server_error(request: HttpRequest, **kwargs: Any) -> HttpResponse:
    """Django's 500, called while the uncaught exception is being handled. A request that met a dead
    database connection (terminated backends, a database restart or failover) or a transient lock
    failure is a 503 with ``Retry-After``, not a 500: its transaction was rolled back with the connection,
    nothing of it was applied, and Django drops the broken connection after the request, so the next
    request connects afresh (``CONN_HEALTH_CHECKS``) and the same request then succeeds."""
    if isinstance(sys.exc_info()[1], (OperationalError, InterfaceError)):
        return database_unavailable(request)
    if _is_api(request):
        return JsonResponse(error_body("server_error", "Something went wrong on our side."), status=500)
    return defaults.server_error(request)


def bad_request(request: HttpRequest, exception: Exception | None = None, **kwargs: Any) -> HttpResponse:
    """Django's 400 (a suspicious request: a body past ``DATA_UPLOAD_MAX_MEMORY_SIZE``, a bad host...);
    an API path's body too large is the API's 413 ``request_too_large``, whatever read it first."""
    if _is_api(request):
        if isinstance(exception, RequestDataTooBig):
            body = error_body("request_too_large", "The request body is too large.")
            return JsonResponse(body, status=413)
        return JsonResponse(error_body("bad_request", "The request could not be read."), status=400)
    return defaults.bad_request(request, exception or Exception())


def database_unavailable(request: HttpRequest) -> HttpResponse:
    headers = {"Retry-After": str(DATABASE_RETRY_AFTER)}
    if _is_api(request):
        body = error_body("database_unavailable", "The database did not answer; try again in a moment.")
        return JsonResponse(body, status=503, headers=headers)
    # A page of its own that needs no database (no session, no user, no context processors).
    page = loader.get_template("503.html").render()
    return HttpResponse(page, status=503, headers=headers)
