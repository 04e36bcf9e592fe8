"""Django-level error pages: the API's paths answer in the API's error shape, the rest in HTML."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults

from tute_site.exceptions import error_body


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception | None = None, **kwargs: Any) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(error_body("not_found", "No API endpoint at this path."), status=404)
    return defaults.page_not_found(request, exception or Exception())


def server_error(request: HttpRequest, **kwargs: Any) -> HttpResponse:
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
