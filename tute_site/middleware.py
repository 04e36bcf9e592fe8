"""Middleware of the site's own."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

from tute_site.exceptions import error_body


def chunked_body_refusal(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[..., HttpResponse]:
    """Refuse a request body sent with ``Transfer-Encoding: chunked`` (411 ``length_required``).

    Under WSGI a body without ``Content-Length`` reads as empty: a chunked JSON body would be taken for
    ``{}`` and answered as if the client had sent nothing. A clear refusal tells the client to send
    the length (every HTTP client does for a body it holds in memory).
    """

    def middleware(request: HttpRequest) -> HttpResponse:
        chunked = "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()
        if chunked and not request.META.get("CONTENT_LENGTH"):
            body = error_body(
                "length_required", "Send the request body with a Content-Length header, not chunked."
            )
            return JsonResponse(body, status=411)
        return get_response(request)

    return middleware
